//! The HTTP API under `/api/v1`: one module per resource, each with its own router.

mod auth;
mod browse;
mod catalogue;
pub mod client;
mod compare;
mod csv;
mod drives;
mod dumps;
mod edit;
mod embed;
mod extract;
mod health;
mod leaderboard;
mod observations;
mod ocr;
mod openapi;
mod rated;
mod ratelimit;
mod results;
pub mod share;
mod submit;

/// One CSV row per metric, the columns of `GET /results?format=csv` (`ssdbase dump`).
pub(crate) use csv::to_csv as results_csv;
pub use ratelimit::RateLimiter;

use crate::error::{error_response, ApiError};
use crate::ocr_worker::QueueSignal;
use crate::storage::DynStorage;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Extension, Router};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Limits of the HTTP layer.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest accepted request body; larger ones get 413.
    pub max_body_bytes: usize,
    /// A request (including reading its body) that takes longer gets 408.
    pub request_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_body_bytes: 4 * 1024 * 1024, request_timeout: Duration::from_secs(30) }
    }
}

/// Everything the API is configured with.
#[derive(Clone, Default)]
pub struct ApiConfig {
    pub limits: Limits,
    /// The moderator's secret (`SSDBASE_ADMIN_TOKEN`); without it nobody can moderate.
    pub admin_token: Option<String>,
    /// Submissions (files) a client IP may send per minute (also the burst); `None`:
    /// unlimited.
    pub submit_per_minute: Option<NonZeroU32>,
    /// Screenshots a client IP may upload per minute (also the burst); `None`: unlimited.
    pub ocr_per_minute: Option<NonZeroU32>,
    /// Screenshots of one client IP that may wait or run at once; `None`: no cap but the
    /// queue's.
    pub ocr_pending_per_client: Option<NonZeroU32>,
    /// Write requests (POST, PUT, PATCH, DELETE) a client IP may make per minute, on top
    /// of the limits above; `None`: unlimited.
    pub write_per_minute: Option<NonZeroU32>,
    /// Adds `GET /_fault/panic`, a handler that panics, for the tests that check a panic
    /// answers 500 and the server goes on. Never set by `serve`.
    #[doc(hidden)]
    pub fault_injection: bool,
    /// Wakes this server's recognition workers when a screenshot is queued.
    pub queue: QueueSignal,
    /// The built website (`trunk build` output, `dist/`) to serve outside `/api`.
    pub site: Option<std::path::PathBuf>,
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` headers name the client.
    pub trusted_proxies: client::TrustedProxies,
    /// This server's absolute URL as the world sees it (`serve --public-url`), for link
    /// previews and oEmbed; without it, the request's `Host`.
    pub public_url: Option<String>,
    /// Where this server's published dumps are (`serve --dump-dir`), served under
    /// `/dumps`; `None`: it publishes none.
    pub dumps: Option<std::path::PathBuf>,
    /// How often they are regenerated (shown in `GET /dumps`).
    pub dump_every: Option<Duration>,
}

#[derive(Clone)]
pub struct AppState {
    pub storage: DynStorage,
    /// sha256 of the admin token.
    admin_token_hash: Option<[u8; 32]>,
    limiter: Option<Arc<RateLimiter>>,
    ocr_limiter: Option<Arc<RateLimiter>>,
    /// `ApiConfig::ocr_pending_per_client`.
    pub ocr_pending_per_client: Option<NonZeroU32>,
    /// Wakes this server's recognition workers when a screenshot is queued.
    pub queue: QueueSignal,
    /// The built website, whose `index.html` the deep links get with their link preview.
    pub site: Option<Arc<std::path::Path>>,
    /// `ApiConfig::public_url`.
    pub public_url: Option<Arc<str>>,
    /// `ApiConfig::dumps`.
    pub dumps: Option<Arc<crate::dump::Published>>,
    pub dump_every: Option<Duration>,
}

impl AppState {
    /// Counts one submission (a result file, a proposal) against `client`'s rate, as
    /// every anonymous write does; 429 when it is used up.
    pub fn check_submit_rate(&self, client: Option<std::net::IpAddr>) -> Result<(), ApiError> {
        check(self.limiter.as_deref(), client)
    }

    /// Counts one screenshot upload against `client`'s rate; 429 when it is used up.
    pub fn check_ocr_upload_rate(&self, client: Option<std::net::IpAddr>) -> Result<(), ApiError> {
        check(self.ocr_limiter.as_deref(), client)
    }
}

/// One against `client`'s allowance in `limiter` (a client whose address is unknown is
/// counted as one client).
fn check(limiter: Option<&RateLimiter>, client: Option<std::net::IpAddr>) -> Result<(), ApiError> {
    match limiter {
        Some(limiter) => limiter.check(client.unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into()), 1),
        None => Ok(()),
    }
}

/// Middleware: every write request (POST, PUT, PATCH, DELETE) counts against the
/// client's write rate, before its own limits (submissions, screenshots) apply.
async fn limit_writes(
    State(limiter): State<Arc<RateLimiter>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use axum::http::Method;
    if matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH | Method::DELETE) {
        let client = req.extensions().get::<client::ClientAddr>().and_then(|c| c.0);
        if let Err(e) = check(Some(&limiter), client) {
            return e.into_response();
        }
    }
    next.run(req).await
}

pub const API_PREFIX: &str = "/api/v1";

/// The whole application with these limits, no moderator and no rate limit.
pub fn app(storage: DynStorage, limits: &Limits) -> Router {
    app_with(storage, &ApiConfig { limits: limits.clone(), ..Default::default() })
}

/// [`app`] whose screenshot uploads wake the workers listening on `queue`.
pub fn app_with_queue(storage: DynStorage, limits: &Limits, queue: QueueSignal) -> Router {
    app_with(storage, &ApiConfig { limits: limits.clone(), queue, ..Default::default() })
}

/// The whole application: API routes, JSON 404 for everything else, limits.
pub fn app_with(storage: DynStorage, config: &ApiConfig) -> Router {
    let limits = &config.limits;
    let state = AppState {
        storage,
        queue: config.queue.clone(),
        admin_token_hash: config.admin_token.as_deref().filter(|t| !t.is_empty()).map(auth::token_digest),
        limiter: config.submit_per_minute.map(|n| Arc::new(RateLimiter::per_minute(n, "submissions"))),
        ocr_limiter: config
            .ocr_per_minute
            .map(|n| Arc::new(RateLimiter::per_minute(n, "screenshot uploads"))),
        ocr_pending_per_client: config.ocr_pending_per_client,
        site: config.site.as_deref().map(Arc::from),
        public_url: config.public_url.as_deref().filter(|u| !u.is_empty()).map(Arc::from),
        dumps: config.dumps.clone().map(|dir| Arc::new(crate::dump::Published { dir })),
        dump_every: config.dump_every,
    };
    // Every route comes with its OpenAPI description (`routes!` of `#[utoipa::path]`
    // handlers); the document is completed and serialised once, here.
    let (api, doc) = OpenApiRouter::with_openapi(openapi::base())
        .merge(health::router())
        .merge(results::router())
        .merge(drives::router())
        .merge(catalogue::router())
        .merge(leaderboard::router())
        .merge(observations::router())
        .merge(compare::router())
        .merge(rated::router())
        .merge(ocr::router())
        .merge(share::router())
        .merge(dumps::router())
        .routes(routes!(openapi::serve))
        .split_for_parts();
    // Its own fallback, so that the site's never answers an /api/v1 path.
    let api = api.fallback(not_found).layer(Extension(openapi::Served::new(&openapi::finish(doc))));
    // The iframe pages need no built site; browsers report CSP violations outside the API.
    let mut router = Router::new()
        .nest(API_PREFIX, api)
        .merge(share::pages())
        .route(crate::security::CSP_REPORT_PATH, post(crate::security::csp_report));
    if config.fault_injection {
        router = router.route("/_fault/panic", get(fault_panic));
    }
    // With a built site, every path outside /api is the site (deep links get its
    // index.html, the drive, compare and result pages with their link preview in the
    // head); unknown /api/... paths keep their JSON 404.
    let router = match config.site.as_deref() {
        Some(dir) => router
            .route("/api", any(not_found))
            .route("/api/{*rest}", any(not_found))
            .route("/drives/{id}", get(crate::site::drive_page))
            .route("/compare", get(crate::site::compare_page))
            .route("/results/{id}", get(crate::site::result_page))
            .fallback_service(crate::site::router(dir)),
        None => router.fallback(not_found),
    };
    let router = router.with_state(state);
    let router = match config.write_per_minute {
        Some(n) => router.layer(axum::middleware::from_fn_with_state(
            Arc::new(RateLimiter::per_minute(n, "write requests")),
            limit_writes,
        )),
        None => router,
    };
    let headers = crate::security::Headers::new(config.site.as_deref(), config.public_url.as_deref());
    router
        .layer(DefaultBodyLimit::disable())
        .layer(RequestBodyLimitLayer::new(limits.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, limits.request_timeout))
        .layer(axum::middleware::map_response(json_errors))
        .layer(axum::middleware::from_fn(conditional_get))
        // A panic becomes a 500 naming the request id (given by the log layer around it).
        .layer(axum::middleware::from_fn(crate::security::catch_panics))
        // A request id and span per request (inside the client resolution, which it logs).
        .layer(axum::middleware::from_fn(crate::log::requests))
        .layer(axum::middleware::from_fn_with_state(Arc::new(headers), crate::security::headers))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(config.trusted_proxies.clone()),
            client::resolve,
        ))
        // Outermost, so it counts the final status; after routing (Router::layer wraps
        // each route), so it sees the matched route template.
        .layer(axum::middleware::from_fn(crate::metrics::track))
}

/// Conditional GET for answers that carry an `ETag` (the chart embeds): when the client's
/// `If-None-Match` names it, 304 without the body. The ETag is a hash of the bytes, so a
/// change to the results behind a chart changes it; the chart is still drawn to know.
async fn conditional_get(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).cloned();
    let res = next.run(req).await;
    let (Some(wanted), Some(etag)) = (if_none_match, res.headers().get(header::ETAG)) else {
        return res;
    };
    if res.status() != StatusCode::OK || !etag_matches(wanted.as_bytes(), etag.as_bytes()) {
        return res;
    }
    let (mut parts, _) = res.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    Response::from_parts(parts, axum::body::Body::empty())
}

/// Whether an `If-None-Match` list (`"a", W/"b"` or `*`) names `etag` (weak comparison,
/// as RFC 9110 asks for If-None-Match).
pub(super) fn etag_matches(if_none_match: &[u8], etag: &[u8]) -> bool {
    let strip = |t: &[u8]| t.strip_prefix(b"W/").unwrap_or(t).to_vec();
    let etag = strip(etag);
    if_none_match.split(|&b| b == b',').map(|t| t.trim_ascii()).any(|t| t == b"*" || strip(t) == etag)
}

/// `ApiConfig::fault_injection`'s handler.
async fn fault_panic() -> StatusCode {
    panic!("fault injection: a handler panicked")
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such resource", None)
}

/// Gives error answers produced outside the handlers (405, 413 from the body limit,
/// 408 from the timeout) the same JSON body as every other error.
async fn json_errors(res: Response) -> Response {
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return res;
    }
    let detail = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_string(),
        StatusCode::METHOD_NOT_ALLOWED => "method not allowed on this resource".to_string(),
        StatusCode::REQUEST_TIMEOUT => "the request took too long".to_string(),
        s => s.canonical_reason().unwrap_or("error").to_lowercase(),
    };
    let (mut parts, _) = res.into_parts();
    let fresh = error_response(status, detail);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json"));
    let (_, body) = fresh.into_parts();
    Response::from_parts(parts, body).into_response()
}

/// `/api/v1/results/42`.
pub fn result_url(id: i64) -> String {
    format!("{API_PREFIX}/results/{id}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn if_none_match_lists_and_weak_tags() {
        use super::etag_matches as m;
        assert!(m(br#""abc""#, br#""abc""#));
        assert!(m(br#""x", W/"abc""#, br#""abc""#));
        assert!(m(b"*", br#""abc""#));
        assert!(!m(br#""abcd""#, br#""abc""#));
        assert!(!m(b"", br#""abc""#));
    }
}
