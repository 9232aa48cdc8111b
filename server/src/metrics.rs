//! `GET /metrics` in the OpenMetrics text format, served on
//! its own listener (`serve --metrics-listen ADDR`), never on the public one.
//!
//! `prometheus-client` keeps the counters and histograms, labelled by the matched route
//! template (`/api/v1/results/{id}`, never the raw path, so the label set stays
//! bounded); gauges are read from the database when scraped (screenshot queue,
//! connection pools). The text is OpenMetrics 1.0, which Prometheus reads.

use crate::storage::DynStorage;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::OnceLock;
use std::time::Instant;

/// Upper bounds (seconds) of the request-latency buckets.
const LATENCY_BUCKETS: &[f64] =
    &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];
/// Upper bounds (seconds) of the screenshot-recognition buckets.
const OCR_BUCKETS: &[f64] = &[0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0];

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: String,
    route: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolLabels {
    pool: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolStateLabels {
    pool: String,
    state: String,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// The process's metrics. One per process ([`global`]): counters only grow, so several
/// routers in one process (tests) simply add up. Each metric is shared (its clones count
/// together), so a scrape registers them anew beside the gauges it reads.
#[derive(Debug)]
pub struct Metrics {
    requests: Family<RequestLabels, Counter>,
    latency: Histograms<RouteLabels>,
    submissions_stored: Counter,
    submissions_duplicate: Counter,
    /// Outcome (`done`, `failed`) → recognition time.
    ocr_jobs: Histograms<OutcomeLabels>,
    csp_reports: Counter,
    panics: Counter,
    screenshots_swept: Counter,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            requests: Family::default(),
            latency: Family::new_with_constructor(|| Histogram::new(LATENCY_BUCKETS.iter().copied())),
            submissions_stored: Counter::default(),
            submissions_duplicate: Counter::default(),
            ocr_jobs: Family::new_with_constructor(|| Histogram::new(OCR_BUCKETS.iter().copied())),
            csp_reports: Counter::default(),
            panics: Counter::default(),
            screenshots_swept: Counter::default(),
        }
    }
}

static GLOBAL: OnceLock<Metrics> = OnceLock::new();

/// The process-wide registry.
pub fn global() -> &'static Metrics {
    GLOBAL.get_or_init(Metrics::default)
}

impl Metrics {
    pub fn request(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let (method, route) = (method.to_string(), route.to_string());
        self.requests
            .get_or_create(&RequestLabels { method: method.clone(), route: route.clone(), status })
            .inc();
        self.latency.get_or_create(&RouteLabels { method, route }).observe(seconds);
    }

    /// One submission (file) stored, or recognised as stored before.
    pub fn submission(&self, duplicate: bool) {
        if duplicate { &self.submissions_duplicate } else { &self.submissions_stored }.inc();
    }

    /// One screenshot recognition finished (`done` or `failed`) after `seconds`.
    pub fn ocr_job(&self, outcome: &'static str, seconds: f64) {
        self.ocr_jobs.get_or_create(&OutcomeLabels { outcome: outcome.to_string() }).observe(seconds);
    }

    /// A browser reported a Content-Security-Policy violation.
    pub fn csp_report(&self) {
        self.csp_reports.inc();
    }

    /// A handler panicked.
    pub fn panic(&self) {
        self.panics.inc();
    }

    /// The retention sweep deleted `n` unpublished screenshots.
    pub fn screenshots_swept(&self, n: u64) {
        self.screenshots_swept.inc_by(n);
    }

    /// The OpenMetrics text, with the gauges given.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut r = Registry::default();
        r.register(
            "ssdbase_http_requests",
            "HTTP requests answered, by method, route template and status",
            self.requests.clone(),
        );
        r.register(
            "ssdbase_http_request_duration_seconds",
            "Time to answer, by method and route template",
            self.latency.clone(),
        );
        r.register(
            "ssdbase_submissions_stored",
            "Submitted files stored (new content)",
            self.submissions_stored.clone(),
        );
        r.register(
            "ssdbase_submissions_duplicate",
            "Submitted files that were stored before",
            self.submissions_duplicate.clone(),
        );
        r.register(
            "ssdbase_ocr_job_duration_seconds",
            "Screenshot recognitions run by this server, by outcome",
            self.ocr_jobs.clone(),
        );
        r.register(
            "ssdbase_csp_reports",
            "Content-Security-Policy violations browsers reported",
            self.csp_reports.clone(),
        );
        r.register(
            "ssdbase_handler_panics",
            "Requests whose handler panicked (answered 500)",
            self.panics.clone(),
        );
        r.register(
            "ssdbase_screenshots_swept",
            "Unpublished screenshots deleted after their retention time",
            self.screenshots_swept.clone(),
        );
        if let Some(queued) = gauges.ocr_queued {
            let g = Gauge::<i64>::default();
            g.set(queued);
            r.register("ssdbase_ocr_queue_length", "Screenshots waiting for recognition (all servers)", g);
        }
        let connections = Family::<PoolStateLabels, Gauge>::default();
        let max = Family::<PoolLabels, Gauge>::default();
        for p in &gauges.pools {
            let labels = |state: &str| PoolStateLabels { pool: p.name.to_string(), state: state.to_string() };
            connections.get_or_create(&labels("idle")).set(p.idle as i64);
            connections.get_or_create(&labels("busy")).set(p.size as i64 - p.idle as i64);
            max.get_or_create(&PoolLabels { pool: p.name.to_string() }).set(p.max as i64);
        }
        r.register(
            "ssdbase_db_pool_connections",
            "Open database connections, by pool and state",
            connections,
        );
        r.register("ssdbase_db_pool_max_connections", "Largest size of each database pool", max);
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &r).expect("writing to a String cannot fail");
        out
    }
}

/// One database connection pool's use (the storage reports it).
pub use crate::storage::PoolStats;

/// What is read at scrape time.
#[derive(Debug, Default)]
pub struct Gauges {
    pub ocr_queued: Option<i64>,
    pub pools: Vec<PoolStats>,
}

/// Middleware: counts every request by method, matched route template and status, and
/// times it. Requests no route matched (the site, unknown paths) share one label.
pub async fn track(req: Request, next: Next) -> Response {
    let route = match req.extensions().get::<MatchedPath>() {
        Some(p) => p.as_str().to_string(),
        None if req.uri().path().starts_with("/api") => "unmatched".to_string(),
        None => "site".to_string(),
    };
    // Any token is a valid method: only the standard ones become labels, so a client
    // cannot grow the registry without bound.
    let method = match req.method().as_str() {
        m @ ("GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS") => m.to_string(),
        _ => "other".to_string(),
    };
    let started = Instant::now();
    let res = next.run(req).await;
    global().request(&method, &route, res.status().as_u16(), started.elapsed().as_secs_f64());
    res
}

/// The metrics listener's router: `GET /metrics` only.
pub fn router(storage: DynStorage) -> Router {
    Router::new().route("/metrics", get(scrape)).with_state(storage)
}

async fn scrape(State(storage): State<DynStorage>) -> Response {
    let gauges = Gauges { ocr_queued: storage.queued_ocr_jobs().await.ok(), pools: storage.pool_stats() };
    let mut res = global().render(&gauges).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_text_format() {
        let m = Metrics::default();
        m.request("GET", "/api/v1/results/{id}", 200, 0.003);
        m.request("GET", "/api/v1/results/{id}", 200, 0.2);
        m.request("GET", "/api/v1/results/{id}", 404, 0.001);
        m.submission(false);
        m.submission(true);
        m.submission(false);
        let text = m.render(&Gauges {
            ocr_queued: Some(4),
            pools: vec![PoolStats { name: "read", size: 3, idle: 2, max: 8 }],
        });
        for line in [
            "ssdbase_http_requests_total{method=\"GET\",route=\"/api/v1/results/{id}\",status=\"200\"} 2",
            "ssdbase_http_requests_total{method=\"GET\",route=\"/api/v1/results/{id}\",status=\"404\"} 1",
            "ssdbase_http_request_duration_seconds_bucket{le=\"0.001\",method=\"GET\",route=\"/api/v1/results/{id}\"} 1",
            "ssdbase_http_request_duration_seconds_bucket{le=\"0.005\",method=\"GET\",route=\"/api/v1/results/{id}\"} 2",
            "ssdbase_http_request_duration_seconds_bucket{le=\"+Inf\",method=\"GET\",route=\"/api/v1/results/{id}\"} 3",
            "ssdbase_http_request_duration_seconds_count{method=\"GET\",route=\"/api/v1/results/{id}\"} 3",
            "ssdbase_submissions_stored_total 2",
            "ssdbase_submissions_duplicate_total 1",
            "ssdbase_ocr_queue_length 4",
            "ssdbase_db_pool_connections{pool=\"read\",state=\"idle\"} 2",
            "ssdbase_db_pool_connections{pool=\"read\",state=\"busy\"} 1",
            "ssdbase_db_pool_max_connections{pool=\"read\"} 8",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
    }
}
