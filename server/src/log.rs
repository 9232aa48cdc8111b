//! Logs through `tracing`: plain text or one JSON object per line on stderr
//! (`serve --log-format json`), filtered by `RUST_LOG` (default `info`). Every request
//! runs in a span carrying its request id — the client's `X-Request-Id` when it is a
//! short token, else a new random one — which the answer returns in `x-request-id`
//! (tower-http's `request_id` layers), and ends with one line `answered` with its status
//! and time (tower-http's `trace` layer, [`request_span`] and [`answered`]).

use crate::api::client::ClientAddr;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Duration;
use tower_http::request_id::{MakeRequestId, RequestId};
use tracing::Span;
use tracing_subscriber::EnvFilter;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// One readable line per event.
    #[default]
    Text,
    /// One JSON object per event (fields, span fields such as `request_id`).
    Json,
}

/// Installs the process's subscriber (once; later calls do nothing).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder =
        tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().with_current_span(true).with_span_list(false).try_init(),
    };
}

/// A client-sent id is kept when it is 1–64 characters of `A-Z a-z 0-9 - _ .`; anything
/// else is replaced (it ends up in logs).
fn acceptable(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

fn new_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: a time-based id is still unique enough for logs.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        bytes = nanos.as_nanos().to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// New request ids: 32 random hex digits.
#[derive(Clone, Copy, Default)]
pub struct NewRequestId;

impl MakeRequestId for NewRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        Some(RequestId::new(HeaderValue::from_str(&new_id()).expect("hex is a valid header value")))
    }
}

/// Middleware before tower-http's `SetRequestId` (which keeps any id a client sends): a
/// client's id that is not [`acceptable`] is dropped, so a new one is made.
pub async fn drop_unacceptable_ids(mut req: Request, next: Next) -> Response {
    let harmful = req.headers().get(REQUEST_ID).is_some_and(|v| v.to_str().map_or(true, |v| !acceptable(v)));
    if harmful {
        req.headers_mut().remove(REQUEST_ID);
    }
    next.run(req).await
}

/// The span a request runs in: its id, method, path (without secrets), route and client.
pub fn request_span<B>(req: &axum::http::Request<B>) -> Span {
    let id = req.extensions().get::<RequestId>().and_then(|id| id.header_value().to_str().ok()).unwrap_or("");
    let client = req.extensions().get::<ClientAddr>().and_then(|c| c.0).map(|ip| ip.to_string());
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string());
    tracing::info_span!(
        "request",
        request_id = %id,
        method = %req.method(),
        path = %without_secrets(req.uri().path()),
        route = route.as_deref().unwrap_or(""),
        client = client.as_deref().unwrap_or(""),
    )
}

/// The request's last line, in its span: status and milliseconds, an error for a 5xx.
pub fn answered<B>(res: &axum::http::Response<B>, latency: Duration, _: &Span) {
    let status = res.status().as_u16();
    let ms = latency.as_secs_f64() * 1000.0;
    if res.status().is_server_error() {
        tracing::error!(status, ms, "answered");
    } else {
        tracing::info!(status, ms, "answered");
    }
}

/// The request path as logged: a screenshot job's key is a secret (whoever holds it reads
/// the upload), so it never reaches the logs.
fn without_secrets(path: &str) -> std::borrow::Cow<'_, str> {
    const JOBS: &str = "/api/v1/ocr/";
    match path.strip_prefix(JOBS).filter(|rest| !rest.is_empty()) {
        Some(rest) => {
            let after_key = rest.find('/').map_or("", |at| &rest[at..]);
            format!("{JOBS}{{key}}{after_key}").into()
        }
        None => path.into(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn screenshot_keys_stay_out_of_the_logs() {
        use super::without_secrets as w;
        assert_eq!(w("/api/v1/ocr/0123abcd"), "/api/v1/ocr/{key}");
        assert_eq!(w("/api/v1/ocr/0123abcd/image"), "/api/v1/ocr/{key}/image");
        assert_eq!(w("/api/v1/ocr"), "/api/v1/ocr");
        assert_eq!(w("/api/v1/results/12"), "/api/v1/results/12");
    }

    #[test]
    fn client_ids_are_kept_only_when_harmless() {
        assert!(super::acceptable("abc-123_x.y"));
        assert!(!super::acceptable(""));
        assert!(!super::acceptable("a b"));
        assert!(!super::acceptable("x\u{1b}[31m"));
        assert!(!super::acceptable(&"a".repeat(65)));
        let id = super::new_id();
        assert_eq!(id.len(), 32);
        assert!(super::acceptable(&id));
        assert_ne!(id, super::new_id());
    }
}
