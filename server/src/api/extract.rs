//! Extractors whose rejections are [`ApiError`]s, so that a malformed request gets the
//! same JSON error body as every other 4xx, with a pointer to the offending field.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

/// A JSON request body. Syntax errors are 400 with the line and column; type errors are
/// 422 with the path of the field (`tags.drive.capacity_gb`).
pub struct JsonBody<T> {
    pub value: T,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if media_type(req.headers()) != "application/json" {
            return Err(ApiError::UnsupportedMediaType(
                "expected a body with Content-Type: application/json".into(),
            ));
        }
        let raw = read_body(req, state).await?;
        Ok(JsonBody { value: parse_json(&raw, "")? })
    }
}

/// The media type of the body, lowercase, without parameters (`""` when absent).
pub fn media_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|ct| ct.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The whole body; 413 past the body limit.
pub async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge("the request body is too large".into())
        } else {
            ApiError::bad_request(e.body_text(), None)
        }
    })
}

/// Reads JSON: syntax errors are 400 with the line and column; type errors are 422 with
/// the path of the field, after `prefix` (`[2]` gives `[2].tags.drive.capacity_gb`).
/// Read through a `Value` first: two passes over at most the body limit (4 MiB).
pub fn parse_json<T: DeserializeOwned>(raw: &[u8], prefix: &str) -> Result<T, ApiError> {
    let mut value: serde_json::Value = serde_json::from_slice(raw).map_err(|inner| {
        let at = if prefix.is_empty() { String::new() } else { format!(" in {prefix}") };
        ApiError::bad_request(format!("invalid JSON{at}: {inner}"), None)
    })?;
    integral_floats_as_integers(&mut value);
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let pointer = match (prefix, path.as_str()) {
            ("", ".") => None,
            ("", p) => Some(p.to_string()),
            (pre, ".") => Some(pre.to_string()),
            (pre, p) if p.starts_with('[') => Some(format!("{pre}{p}")),
            (pre, p) => Some(format!("{pre}.{p}")),
        };
        ApiError::unprocessable(inner.to_string(), pointer)
    })
}

/// JSON (and JSON Schema, which the API document is written in) counts `47.0` as the
/// integer 47; serde does not. Every integral number becomes an integer before the typed
/// read, so what the document allows for an integer field is read as one.
fn integral_floats_as_integers(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().expect("an f64 number");
            // Within ±2^63, where every integral f64 is an exact i64.
            if f.fract() == 0.0 && f.abs() < 9.2e18 {
                *v = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_floats_as_integers),
        Value::Object(map) => map.values_mut().for_each(integral_floats_as_integers),
        _ => {}
    }
}

/// Path parameters, 400 when they do not read.
pub struct PathParam<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for PathParam<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| PathParam(p.0))
            .map_err(|e| ApiError::bad_request(e.body_text(), Some("path".into())))
    }
}

/// The query string as ordered (name, value) pairs; each handler checks its names.
pub struct QueryPairs(pub Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for QueryPairs {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map(|q| QueryPairs(q.0))
            .map_err(|e| ApiError::bad_request(e.body_text(), Some("query".into())))
    }
}

/// A route's query parameters as its one typed struct `T`, which also documents them
/// (`IntoParams`): every name `T` does not have is a 400 naming it, and a value that
/// does not read (or a required one missing) a 400 pointing at its parameter. Repeated
/// names read as lists (`serde_html_form`).
pub struct TypedQuery<T>(pub T);

impl<T: DeserializeOwned + utoipa::IntoParams, S: Send + Sync> FromRequestParts<S> for TypedQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default().as_bytes();
        let known: Vec<String> = T::into_params(|| Some(utoipa::openapi::path::ParameterIn::Query))
            .into_iter()
            .map(|p| p.name)
            .collect();
        let unknown: Vec<crate::error::ErrorItem> = form_urlencoded::parse(query)
            .filter(|(name, _)| !known.iter().any(|k| k == name))
            .map(|(name, _)| crate::error::ErrorItem {
                detail: format!("unknown parameter {name:?}; expected: {}", known.join(", ")),
                pointer: Some(name.into_owned()),
            })
            .collect();
        if !unknown.is_empty() {
            return Err(ApiError::BadRequest(unknown));
        }
        let de = serde_html_form::Deserializer::from_bytes(query);
        serde_path_to_error::deserialize(de).map(TypedQuery).map_err(|e| {
            let message = e.inner().to_string();
            // A missing field is reported at the struct: point at the field it names.
            let pointer = match e.path().to_string() {
                p if p == "." || p.is_empty() => message.split('`').nth(1).unwrap_or_default().to_string(),
                p => p,
            };
            ApiError::bad_request(format!("{pointer}: {message}"), Some(pointer))
        })
    }
}

/// A route that takes no query parameters: the first one given is a 400 naming it.
pub fn no_parameters(pairs: &[(String, String)]) -> Result<(), ApiError> {
    match pairs.first() {
        Some((name, _)) => Err(ApiError::bad_request(
            format!("unknown parameter {name:?} (this route takes none)"),
            Some(name.clone()),
        )),
        None => Ok(()),
    }
}

/// A whole number `value` of query parameter `name` from `min` to `max`, or a 400 saying so.
pub fn whole_number(name: &str, value: &str, min: usize, max: usize) -> Result<usize, ApiError> {
    value.parse::<usize>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(|| {
        let range = if max == usize::MAX { format!("{min} or more") } else { format!("from {min} to {max}") };
        ApiError::bad_request(format!("{name} {value:?} is not a whole number {range}"), Some(name.into()))
    })
}
