//! `GET /metrics` in the Prometheus text exposition format (version 0.0.4), served on
//! its own listener (`serve --metrics-listen ADDR`), never on the public one.
//!
//! A small registry of its own rather than the `metrics` crates: a handful of counters
//! and histograms, labelled by the matched route template (`/api/v1/results/{id}`, never
//! the raw path, so the label set stays bounded), and gauges read from the database
//! when scraped (screenshot queue, connection pools).

use crate::storage::DynStorage;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Upper bounds (seconds) of the request-latency buckets.
const LATENCY_BUCKETS: &[f64] =
    &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];
/// Upper bounds (seconds) of the screenshot-recognition buckets.
const OCR_BUCKETS: &[f64] = &[0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0];

#[derive(Debug, Clone)]
struct Histogram {
    bounds: &'static [f64],
    /// Per bucket (not cumulative); the last is +Inf.
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Histogram {
        Histogram { bounds, counts: vec![0; bounds.len() + 1], sum: 0.0, count: 0 }
    }

    fn observe(&mut self, v: f64) {
        let i = self.bounds.iter().position(|b| v <= *b).unwrap_or(self.bounds.len());
        self.counts[i] += 1;
        self.sum += v;
        self.count += 1;
    }

    fn render(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0;
        for (i, c) in self.counts.iter().enumerate() {
            cumulative += c;
            let le = self.bounds.get(i).map_or("+Inf".to_string(), |b| b.to_string());
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{le}\"}} {cumulative}");
        }
        let braces = if labels.is_empty() { String::new() } else { format!("{{{labels}}}") };
        let _ = writeln!(out, "{name}_sum{braces} {}", self.sum);
        let _ = writeln!(out, "{name}_count{braces} {}", self.count);
    }
}

#[derive(Debug, Default)]
struct Inner {
    /// (method, route, status) → requests.
    requests: BTreeMap<(String, String, u16), u64>,
    /// (method, route) → latency.
    latency: BTreeMap<(String, String), Histogram>,
    submissions_stored: u64,
    submissions_duplicate: u64,
    /// Outcome (`done`, `failed`) → recognition time.
    ocr_jobs: BTreeMap<&'static str, Histogram>,
    /// Content-Security-Policy violations browsers reported.
    csp_reports: u64,
    /// Handlers that panicked (answered 500).
    panics: u64,
    /// Unpublished screenshots deleted by the retention sweep.
    screenshots_swept: u64,
}

/// The process's metrics. One per process ([`global`]): counters only grow, so several
/// routers in one process (tests) simply add up.
#[derive(Debug, Default)]
pub struct Metrics(Mutex<Inner>);

static GLOBAL: OnceLock<Metrics> = OnceLock::new();

/// The process-wide registry.
pub fn global() -> &'static Metrics {
    GLOBAL.get_or_init(Metrics::default)
}

impl Metrics {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn request(&self, method: &str, route: &str, status: u16, seconds: f64) {
        let mut m = self.inner();
        *m.requests.entry((method.to_string(), route.to_string(), status)).or_default() += 1;
        m.latency
            .entry((method.to_string(), route.to_string()))
            .or_insert_with(|| Histogram::new(LATENCY_BUCKETS))
            .observe(seconds);
    }

    /// One submission (file) stored, or recognised as stored before.
    pub fn submission(&self, duplicate: bool) {
        let mut m = self.inner();
        if duplicate {
            m.submissions_duplicate += 1;
        } else {
            m.submissions_stored += 1;
        }
    }

    /// One screenshot recognition finished (`done` or `failed`) after `seconds`.
    pub fn ocr_job(&self, outcome: &'static str, seconds: f64) {
        self.inner().ocr_jobs.entry(outcome).or_insert_with(|| Histogram::new(OCR_BUCKETS)).observe(seconds);
    }

    /// A browser reported a Content-Security-Policy violation.
    pub fn csp_report(&self) {
        self.inner().csp_reports += 1;
    }

    /// A handler panicked.
    pub fn panic(&self) {
        self.inner().panics += 1;
    }

    /// The retention sweep deleted `n` unpublished screenshots.
    pub fn screenshots_swept(&self, n: u64) {
        self.inner().screenshots_swept += n;
    }

    /// The text format, with the gauges given.
    pub fn render(&self, gauges: &Gauges) -> String {
        let m = self.inner();
        let mut out = String::new();
        out.push_str("# HELP ssdbase_http_requests_total HTTP requests answered, by method, route template and status.\n");
        out.push_str("# TYPE ssdbase_http_requests_total counter\n");
        for ((method, route, status), n) in &m.requests {
            let _ = writeln!(
                out,
                "ssdbase_http_requests_total{{method=\"{}\",route=\"{}\",status=\"{status}\"}} {n}",
                escape(method),
                escape(route)
            );
        }
        out.push_str(
            "# HELP ssdbase_http_request_duration_seconds Time to answer, by method and route template.\n",
        );
        out.push_str("# TYPE ssdbase_http_request_duration_seconds histogram\n");
        for ((method, route), h) in &m.latency {
            let labels = format!("method=\"{}\",route=\"{}\"", escape(method), escape(route));
            h.render(&mut out, "ssdbase_http_request_duration_seconds", &labels);
        }
        out.push_str("# HELP ssdbase_submissions_stored_total Submitted files stored (new content).\n");
        out.push_str("# TYPE ssdbase_submissions_stored_total counter\n");
        let _ = writeln!(out, "ssdbase_submissions_stored_total {}", m.submissions_stored);
        out.push_str("# HELP ssdbase_submissions_duplicate_total Submitted files that were stored before.\n");
        out.push_str("# TYPE ssdbase_submissions_duplicate_total counter\n");
        let _ = writeln!(out, "ssdbase_submissions_duplicate_total {}", m.submissions_duplicate);
        out.push_str("# HELP ssdbase_ocr_job_duration_seconds Screenshot recognitions run by this server, by outcome.\n");
        out.push_str("# TYPE ssdbase_ocr_job_duration_seconds histogram\n");
        for (outcome, h) in &m.ocr_jobs {
            h.render(&mut out, "ssdbase_ocr_job_duration_seconds", &format!("outcome=\"{outcome}\""));
        }
        for (name, help, n) in [
            (
                "ssdbase_csp_reports_total",
                "Content-Security-Policy violations browsers reported.",
                m.csp_reports,
            ),
            ("ssdbase_handler_panics_total", "Requests whose handler panicked (answered 500).", m.panics),
            (
                "ssdbase_screenshots_swept_total",
                "Unpublished screenshots deleted after their retention time.",
                m.screenshots_swept,
            ),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {n}");
        }
        drop(m);
        if let Some(queued) = gauges.ocr_queued {
            out.push_str(
                "# HELP ssdbase_ocr_queue_length Screenshots waiting for recognition (all servers).\n",
            );
            out.push_str("# TYPE ssdbase_ocr_queue_length gauge\n");
            let _ = writeln!(out, "ssdbase_ocr_queue_length {queued}");
        }
        out.push_str("# HELP ssdbase_db_pool_connections Open database connections, by pool and state.\n");
        out.push_str("# TYPE ssdbase_db_pool_connections gauge\n");
        for p in &gauges.pools {
            let _ =
                writeln!(out, "ssdbase_db_pool_connections{{pool=\"{}\",state=\"idle\"}} {}", p.name, p.idle);
            let _ = writeln!(
                out,
                "ssdbase_db_pool_connections{{pool=\"{}\",state=\"busy\"}} {}",
                p.name,
                p.size - p.idle
            );
        }
        out.push_str("# HELP ssdbase_db_pool_max_connections Largest size of each database pool.\n");
        out.push_str("# TYPE ssdbase_db_pool_max_connections gauge\n");
        for p in &gauges.pools {
            let _ = writeln!(out, "ssdbase_db_pool_max_connections{{pool=\"{}\"}} {}", p.name, p.max);
        }
        out
    }
}

/// A label value as the text format wants it.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
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
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
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
            "ssdbase_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/results/{id}\",le=\"0.001\"} 1",
            "ssdbase_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/results/{id}\",le=\"0.005\"} 2",
            "ssdbase_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/results/{id}\",le=\"+Inf\"} 3",
            "ssdbase_http_request_duration_seconds_count{method=\"GET\",route=\"/api/v1/results/{id}\"} 3",
            "ssdbase_submissions_stored_total 2",
            "ssdbase_submissions_duplicate_total 1",
            "ssdbase_ocr_queue_length 4",
            "ssdbase_db_pool_connections{pool=\"read\",state=\"idle\"} 2",
            "ssdbase_db_pool_connections{pool=\"read\",state=\"busy\"} 1",
            "ssdbase_db_pool_max_connections{pool=\"read\"} 8",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
    }
}
