//! The one error type of the HTTP API. Every 4xx answer carries a JSON body
//! `{"errors":[{"detail": "...", "pointer": "..."}]}` saying what was wrong and where
//! (a field path such as `tags.drive.sku`, or `line 12` of an uploaded file).
//! Internal errors are logged and reported without details.

use crate::storage::StorageError;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

// The error body and its items are part of the API's JSON, defined in api_types.
pub use api_types::{ErrorBody, ErrorItem};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed request: bad query string, path or JSON syntax.
    #[error("bad request")]
    BadRequest(Vec<ErrorItem>),
    /// No credentials where some are required (answered with `WWW-Authenticate: Bearer`).
    #[error("unauthorized")]
    Unauthorized(String),
    /// Credentials that do not grant this action.
    #[error("forbidden")]
    Forbidden(String),
    #[error("not found")]
    NotFound(Vec<ErrorItem>),
    /// Well-formed but unusable: a result file that does not parse, an unknown drive.
    #[error("unprocessable")]
    Unprocessable(Vec<ErrorItem>),
    /// The request cannot apply to things as they are now (a proposal decided before, a
    /// drive merged away).
    #[error("conflict")]
    Conflict(String),
    #[error("payload too large")]
    PayloadTooLarge(String),
    #[error("unsupported media type")]
    UnsupportedMediaType(String),
    /// The client's submission rate is used up; `retry_after_secs` goes to `Retry-After`.
    #[error("too many requests")]
    TooManyRequests { detail: String, retry_after_secs: u64 },
    /// The server is saturated (e.g. the screenshot queue is full): 503, try later.
    #[error("busy")]
    Busy(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    pub fn bad_request(detail: impl Into<String>, pointer: Option<String>) -> ApiError {
        ApiError::BadRequest(vec![ErrorItem { detail: detail.into(), pointer }])
    }

    pub fn not_found(detail: impl Into<String>, pointer: Option<String>) -> ApiError {
        ApiError::NotFound(vec![ErrorItem { detail: detail.into(), pointer }])
    }

    pub fn unprocessable(detail: impl Into<String>, pointer: Option<String>) -> ApiError {
        ApiError::Unprocessable(vec![ErrorItem { detail: detail.into(), pointer }])
    }

    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Storage(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn items(self) -> Vec<ErrorItem> {
        let one = |detail: String| vec![ErrorItem { detail, pointer: None }];
        match self {
            ApiError::BadRequest(items) | ApiError::NotFound(items) | ApiError::Unprocessable(items) => items,
            ApiError::PayloadTooLarge(d)
            | ApiError::Conflict(d)
            | ApiError::UnsupportedMediaType(d)
            | ApiError::Unauthorized(d)
            | ApiError::Forbidden(d)
            | ApiError::Busy(d)
            | ApiError::TooManyRequests { detail: d, .. } => one(d),
            ApiError::Storage(e) => {
                tracing::error!("storage error: {e}");
                one("internal error".into())
            }
            ApiError::Internal(e) => {
                tracing::error!("internal error: {e:#}");
                one("internal error".into())
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        let extra = match &self {
            ApiError::Unauthorized(_) => Some((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))),
            ApiError::TooManyRequests { retry_after_secs, .. } => {
                Some((header::RETRY_AFTER, HeaderValue::from(retry_after_secs.max(&1).to_owned())))
            }
            _ => None,
        };
        let mut res = (status, Json(ErrorBody { errors: self.items() })).into_response();
        if let Some((name, value)) = extra {
            res.headers_mut().insert(name, value);
        }
        res
    }
}

/// A JSON error response for a status, for answers produced outside the handlers
/// (unknown routes, body limits, timeouts).
pub fn error_response(status: StatusCode, detail: impl Into<String>) -> Response {
    (status, Json(ErrorBody { errors: vec![ErrorItem { detail: detail.into(), pointer: None }] }))
        .into_response()
}

pub type ApiResult<T> = Result<T, ApiError>;
