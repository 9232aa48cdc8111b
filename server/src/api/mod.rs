//! The HTTP API under `/api/v1`: one module per resource, each with its own router.

mod auth;
mod browse;
mod catalogue;
pub mod client;
mod compare;
mod docs;
mod drives;
mod dumps;
mod edit;
mod effects;
mod embed;
mod extract;
mod fragments;
mod health;
mod leaderboard;
mod load;
mod observations;
mod ocr;
mod openapi;
mod rated;
mod ratelimit;
mod results;
mod runner;
pub mod share;
mod standing;
pub mod state;
mod submit;
mod sustained;

pub use ratelimit::RateLimiter;
use state::check;
pub use state::{ApiConfig, AppState, Limits};

use crate::error::{error_response, ApiError};
use crate::ocr_worker::QueueSignal;
use crate::storage::DynStorage;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Extension, Router};
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

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

pub const API_PREFIX: &str = api_types::links::API;

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
        runner_dir: config.runner_dir.as_deref().map(Arc::from),
    };
    // Every route comes with its OpenAPI description (`routes!` of `#[utoipa::path]`
    // handlers); the document is completed and serialised once, here.
    let (api, doc) = OpenApiRouter::with_openapi(openapi::base())
        .merge(health::router())
        .merge(results::router())
        .merge(edit::router())
        .merge(drives::router())
        .merge(catalogue::router())
        .merge(leaderboard::router())
        .merge(observations::router())
        .merge(compare::router())
        .merge(effects::router())
        .merge(standing::router())
        .merge(load::router())
        .merge(sustained::router())
        .merge(rated::router())
        .merge(ocr::router())
        .merge(share::router())
        .merge(dumps::router())
        .merge(runner::router())
        .routes(routes!(openapi::serve))
        .split_for_parts();
    // Its own fallback, so that the site's never answers an /api/v1 path.
    // Answers are compressed as the client accepts (Brotli, else gzip): JSON and CSV
    // shrink tenfold, and a drive page's data is most of what a phone waits for. Images
    // other than SVG are left as they are (tower-http's default predicate).
    let api = api
        .fallback(not_found)
        .layer(Extension(openapi::Served::new(&openapi::finish(doc))))
        .layer(CompressionLayer::new());
    // The iframe pages need no built site; browsers report CSP violations outside the API.
    let mut router = Router::new()
        .nest(API_PREFIX, api)
        .merge(share::pages())
        .merge(fragments::router().layer(CompressionLayer::new()))
        .route("/fragments/{*rest}", any(not_found))
        .route(crate::security::CSP_REPORT_PATH, post(crate::security::csp_report))
        .route(docs::PATH, get(docs::redirect))
        .route(&format!("{}/", docs::PATH), get(docs::index))
        .route(&format!("{}/{{*name}}", docs::PATH), get(docs::asset).layer(CompressionLayer::new()));
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
            .route("/leaderboard", get(crate::site::leaderboard_page))
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
        // A panic becomes a 500 with the JSON error body, answered in the request's span.
        .layer(CatchPanicLayer::custom(crate::security::panic_answer))
        // A span per request and its `answered` line (inside the request id and the
        // client resolution, which it logs).
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(crate::log::request_span)
                .on_request(())
                .on_response(crate::log::answered)
                .on_failure(()),
        )
        // The answer carries the request's id; the id is the client's when harmless.
        .layer(PropagateRequestIdLayer::new(crate::log::REQUEST_ID))
        .layer(SetRequestIdLayer::new(crate::log::REQUEST_ID, crate::log::NewRequestId))
        .layer(axum::middleware::from_fn(crate::log::drop_unacceptable_ids))
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
    use headers::{ETag, HeaderMapExt, IfNoneMatch};
    let if_none_match = req.headers().typed_get::<IfNoneMatch>();
    let res = next.run(req).await;
    let (Some(wanted), Some(etag)) = (if_none_match, res.headers().typed_get::<ETag>()) else {
        return res;
    };
    if res.status() != StatusCode::OK || !embed::names(&wanted, &etag) {
        return res;
    }
    let (mut parts, _) = res.into_parts();
    parts.status = StatusCode::NOT_MODIFIED;
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    Response::from_parts(parts, axum::body::Body::empty())
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
