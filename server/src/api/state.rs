//! What every route handler is given: the storage, the limits and the server's
//! configuration ([`AppState`]), built once from [`ApiConfig`] by `api::app_with`.

use super::client;
use super::ratelimit::RateLimiter;
use crate::error::ApiError;
use crate::ocr_worker::QueueSignal;
use crate::storage::DynStorage;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

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
    /// The standalone runner's binaries (`serve --runner-dir`), offered under `/runner`;
    /// `None`: this server offers none.
    pub runner_dir: Option<std::path::PathBuf>,
}

#[derive(Clone)]
pub struct AppState {
    pub storage: DynStorage,
    /// sha256 of the admin token.
    pub(super) admin_token_hash: Option<[u8; 32]>,
    pub(super) limiter: Option<Arc<RateLimiter>>,
    pub(super) ocr_limiter: Option<Arc<RateLimiter>>,
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
    /// `ApiConfig::runner_dir`.
    pub runner_dir: Option<Arc<std::path::Path>>,
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
pub(super) fn check(limiter: Option<&RateLimiter>, client: Option<std::net::IpAddr>) -> Result<(), ApiError> {
    match limiter {
        Some(limiter) => limiter.check(client.unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into()), 1),
        None => Ok(()),
    }
}
