//! Extractors whose rejections are [`ApiError`]s, so that a malformed request gets the
//! same JSON error body as every other 4xx, with a pointer to the offending field.

use crate::error::ApiError;
use crate::error::ErrorItem;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::IntoParams;

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
    // Most bodies read as they are: straight into the type, without building a
    // `Value` (a 3,600-point curve costs tens of milliseconds that way). The reading
    // below accepts more (integral floats for integers) and says where an error is.
    if let Ok(typed) = serde_json::from_slice(raw) {
        return Ok(typed);
    }
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

/// A route's query parameters as its one typed struct `T`, which also documents them
/// (`IntoParams`): every name `T` does not have is a 400 naming it and listing those it
/// has, and a value that does not read (or a required one missing) a 400 pointing at
/// its parameter. A value given twice is a 400 unless its parameter is a list: which
/// one was meant cannot be known.
pub struct TypedQuery<T>(pub T);

impl<T: DeserializeOwned + IntoParams, S: Send + Sync> FromRequestParts<S> for TypedQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let (params, NoQuery {}) = read_query(parts.uri.query().unwrap_or_default())?;
        Ok(TypedQuery(params))
    }
}

/// A route's own parameters `T` and a set of filters `F` that several routes share (the
/// tag filters of `bench::FIELDS`, the drive filters), read from one query string as
/// [`TypedQuery`] reads one struct; the problems of both are listed in one 400.
pub struct FilteredQuery<T, F>(pub T, pub F);

impl<T, F, S> FromRequestParts<S> for FilteredQuery<T, F>
where
    T: DeserializeOwned + IntoParams,
    F: DeserializeOwned + IntoParams,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let (params, filters) = read_query(parts.uri.query().unwrap_or_default())?;
        Ok(FilteredQuery(params, filters))
    }
}

/// The query as the client wrote it, in order: what a page's links repeat (its parameters
/// are read with the route's typed query, never from these).
pub fn asked(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes()).into_owned().collect()
}

/// The query of a route that takes no parameters.
#[derive(serde::Deserialize, IntoParams)]
pub struct NoQuery {}

/// `query` read as `T` and `F`, each from the parameters it documents: unknown names,
/// single values given twice, and the first problem of each (serde stops there), in one
/// 400.
pub fn read_query<T, F>(query: &str) -> Result<(T, F), ApiError>
where
    T: DeserializeOwned + IntoParams,
    F: DeserializeOwned + IntoParams,
{
    let own = T::into_params(|| Some(ParameterIn::Query));
    let shared = F::into_params(|| Some(ParameterIn::Query));
    let mut errors = Vec::new();
    // (name, value, whether it is `T`'s), in order.
    let mut given: Vec<(String, String, bool)> = Vec::new();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        let (param, is_own) = match own.iter().find(|p| p.name == name) {
            Some(p) => (p, true),
            None => match shared.iter().find(|p| p.name == name) {
                Some(p) => (p, false),
                None => {
                    let known: Vec<&str> = own.iter().chain(&shared).map(|p| p.name.as_str()).collect();
                    let expected = match known.is_empty() {
                        true => "this route takes none".to_string(),
                        false => format!("expected: {}", known.join(", ")),
                    };
                    errors.push(ErrorItem {
                        detail: format!("unknown parameter {name:?}; {expected}"),
                        pointer: Some(name.into_owned()),
                    });
                    continue;
                }
            },
        };
        // serde_html_form reads an empty number or boolean as absent; the document says
        // a number or a boolean.
        if value.is_empty() && ["integer", "number", "boolean"].iter().any(|t| has_type(param, t)) {
            errors.push(ErrorItem {
                detail: format!("{name} is empty; give a value or leave it out"),
                pointer: Some(name.into_owned()),
            });
            continue;
        }
        if !has_type(param, "array") && given.iter().any(|(n, _, _)| *n == name) {
            errors.push(ErrorItem {
                detail: format!("{name} is given twice; it takes one value"),
                pointer: Some(name.into_owned()),
            });
            continue;
        }
        given.push((name.into_owned(), value.into_owned(), is_own));
    }
    let form = |own: bool| {
        let mut form = form_urlencoded::Serializer::new(String::new());
        for (name, value, _) in given.iter().filter(|g| g.2 == own) {
            form.append_pair(name, value);
        }
        form.finish()
    };
    let (for_own, for_shared) = (form(true), form(false));
    let params = typed::<T>(&for_own).map_err(|e| errors.push(e));
    let filters = typed::<F>(&for_shared).map_err(|e| errors.push(e));
    match (params, filters) {
        (Ok(params), Ok(filters)) if errors.is_empty() => Ok((params, filters)),
        _ => Err(ApiError::BadRequest(errors)),
    }
}

/// `form` read as `T`; an error points at the parameter that did not read.
fn typed<T: DeserializeOwned>(form: &str) -> Result<T, ErrorItem> {
    serde_path_to_error::deserialize(serde_html_form::Deserializer::from_bytes(form.as_bytes())).map_err(
        |e| {
            let message = e.inner().to_string();
            // A missing field is reported at the struct: point at the field it names.
            let pointer = match e.path().to_string() {
                p if p == "." || p.is_empty() => message.split('`').nth(1).unwrap_or_default().to_string(),
                p => p,
            };
            ErrorItem { detail: format!("{pointer}: {message}"), pointer: Some(pointer) }
        },
    )
}

/// Whether a documented parameter's schema has JSON type `wanted` (`array`: it takes
/// several values).
fn has_type(param: &Parameter, wanted: &str) -> bool {
    let schema = serde_json::to_value(&param.schema).unwrap_or_default();
    match &schema["type"] {
        serde_json::Value::String(t) => t == wanted,
        serde_json::Value::Array(types) => types.iter().any(|t| t == wanted),
        _ => false,
    }
}

/// A whole number from `MIN` to `MAX` (`u64::MAX`: no upper bound), read from a query
/// value: its range is declared once, here, for the reading and the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounded<const MIN: u64, const MAX: u64>(pub u64);

impl<const MIN: u64, const MAX: u64> Bounded<MIN, MAX> {
    pub fn get(self) -> usize {
        usize::try_from(self.0).unwrap_or(usize::MAX)
    }
}

impl<'de, const MIN: u64, const MAX: u64> serde::Deserialize<'de> for Bounded<MIN, MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse::<u64>().ok().filter(|n| (MIN..=MAX).contains(n)).map(Bounded).ok_or_else(|| {
            let range =
                if MAX == u64::MAX { format!("{MIN} or more") } else { format!("from {MIN} to {MAX}") };
            serde::de::Error::custom(format!("{text:?} is not a whole number {range}"))
        })
    }
}

impl<const MIN: u64, const MAX: u64> utoipa::PartialSchema for Bounded<MIN, MAX> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(MIN as f64))
            .maximum((MAX != u64::MAX).then_some(MAX as f64))
            .into()
    }
}

impl<const MIN: u64, const MAX: u64> utoipa::ToSchema for Bounded<MIN, MAX> {}
