//! Extractors whose rejections are [`ApiError`]s, so that a malformed request gets the
//! same JSON error body as every other 4xx, with a pointer to the offending field.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

/// A JSON request body. Syntax errors are 400 with the line and column; type errors are
/// 422 with the path of the field (`tags.drive.capacity_gb`).
pub struct JsonBody<T> {
    pub value: T,
    /// The body exactly as received.
    pub raw: Bytes,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_json =
            req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|ct| {
                ct.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(ApiError::UnsupportedMediaType(
                "expected a body with Content-Type: application/json".into(),
            ));
        }
        let raw = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge("the request body is too large".into())
            } else {
                ApiError::bad_request(e.body_text(), None)
            }
        })?;
        let de = &mut serde_json::Deserializer::from_slice(&raw);
        match serde_path_to_error::deserialize(de) {
            Ok(value) => Ok(JsonBody { value, raw }),
            Err(err) => {
                let path = err.path().to_string();
                let inner = err.into_inner();
                if inner.is_data() {
                    let pointer = (path != ".").then_some(path);
                    Err(ApiError::unprocessable(inner.to_string(), pointer))
                } else {
                    Err(ApiError::bad_request(format!("invalid JSON: {inner}"), None))
                }
            }
        }
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
