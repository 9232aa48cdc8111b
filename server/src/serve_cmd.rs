//! `ssdbase serve [--database-url URL] [--listen ADDR:PORT] [--site DIR] [--admin-token T]
//! [--submit-rate N] [--ocr-rate N] [--ocr-pending-per-client N] [--write-rate N]
//! [--unpublished-days D] [--ocr-workers N] [--trusted-proxy CIDR...] [--metrics-listen ADDR]
//! [--public-url URL] [--dump-dir DIR] [--dump-every-hours H]`.

use anyhow::Context;
use axum::serve::ListenerExt;
use ssdbase::api::client::TrustedProxies;
use ssdbase::api::{self, ApiConfig};
use ssdbase::log::LogFormat;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// `sqlite://FILE` (created on first start) or `postgres://USER:PASS@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://ssdbase.db")]
    database_url: String,
    /// Address and port to listen on.
    #[arg(long, env = "SSDBASE_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The built website (`trunk build` output) served outside /api.
    #[arg(long, env = "SSDBASE_SITE", default_value = "dist")]
    site: PathBuf,
    /// Secret that lets a moderator hide and restore results (and edit or delete any).
    /// Without it nobody can moderate.
    #[arg(long, env = "SSDBASE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Submissions (files) one client IP may send per minute, also the burst it may send
    /// at once; 0 turns the limit off (load tests).
    #[arg(long, env = "SSDBASE_SUBMIT_RATE", default_value_t = 120)]
    submit_rate: u32,
    /// Screenshots one client IP may upload per minute (also the burst); 0: no limit.
    #[arg(long, env = "SSDBASE_OCR_RATE", default_value_t = 20)]
    ocr_rate: u32,
    /// Screenshots of one client IP that may wait or run at once; 0: no cap but the
    /// queue's 1,000.
    #[arg(long, env = "SSDBASE_OCR_PENDING_PER_CLIENT", default_value_t = 10)]
    ocr_pending_per_client: u32,
    /// Write requests (POST, PUT, PATCH, DELETE) one client IP may make per minute (also
    /// the burst), on top of the limits above; 0: no limit.
    #[arg(long, env = "SSDBASE_WRITE_RATE", default_value_t = 300)]
    write_rate: u32,
    /// Days an uploaded screenshot that no result was published from is kept (job, image
    /// and recognition), fractions allowed; published ones stay with their result.
    #[arg(long, env = "SSDBASE_UNPUBLISHED_DAYS", default_value_t = 7.0, value_parser = days)]
    unpublished_days: f64,
    /// Screenshots this server reads at once (each on one core); 0 leaves the queue to
    /// other servers on the same database.
    #[arg(long, env = "SSDBASE_OCR_WORKERS", default_value_t = 1)]
    ocr_workers: usize,
    /// Reverse proxies (CIDR or address; repeat the flag or separate with commas) whose
    /// `X-Forwarded-For` / `Forwarded: for=` name the client for the rate limit and the
    /// logs. From any other peer those headers are ignored.
    #[arg(long = "trusted-proxy", env = "SSDBASE_TRUSTED_PROXY", value_delimiter = ',', num_args = 1.., value_parser = TrustedProxies::parse_one)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// Serve `GET /metrics` (Prometheus text format) on this address, apart from the
    /// site and API; off without it. Keep it off the public network.
    #[arg(long, env = "SSDBASE_METRICS_LISTEN")]
    metrics_listen: Option<SocketAddr>,
    /// Log lines as readable text or one JSON object each (stderr; `RUST_LOG` filters,
    /// default `info`).
    #[arg(long, env = "SSDBASE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub(crate) log_format: LogFormat,
    /// This server's absolute URL as its users reach it (e.g. `https://ssdbase.example`),
    /// for link previews and oEmbed; without it, each request's `Host` header.
    #[arg(long, env = "SSDBASE_PUBLIC_URL")]
    public_url: Option<String>,
    /// Where the open data dumps are written and served from (`GET /api/v1/dumps`); the
    /// newest three are kept. Several servers on one database may share one directory.
    #[arg(long, env = "SSDBASE_DUMP_DIR", default_value = "dumps")]
    dump_dir: PathBuf,
    /// Hours between two dumps (fractions allowed); 0 publishes none.
    #[arg(long, env = "SSDBASE_DUMP_EVERY_HOURS", default_value_t = 24.0, value_parser = hours)]
    dump_every_hours: f64,
    /// The standalone runner's binaries (`cargo xtask runner-dist` writes them), offered
    /// for download under `/api/v1/runner` and on the site's "Measure your drive" page.
    #[arg(long, env = "SSDBASE_RUNNER_DIR", default_value = "target/runner-dist")]
    runner_dir: PathBuf,
    /// Adds `GET /_fault/panic`, whose handler panics: for the test that a panic is
    /// answered and logged while the server goes on. Never on a real deployment.
    #[arg(long, hide = true)]
    fault_injection: bool,
}

/// A number of hours from 0 to a year.
fn hours(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(h) if (0.0..=8784.0).contains(&h) => Ok(h),
        _ => Err(format!("{s:?} is not a number of hours from 0 to 8784")),
    }
}

/// A number of days from 0 to ten years.
fn days(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(d) if (0.0..=3660.0).contains(&d) => Ok(d),
        _ => Err(format!("{s:?} is not a number of days from 0 to 3660")),
    }
}

/// Logs through the subscriber `main` installed in the format `--log-format` chose.
pub fn run(args: &ServeArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!(error = %e, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    ssdbase::security::log_panics();
    let storage = ssdbase::storage::connect(&args.database_url)
        .await
        .with_context(|| format!("opening the database {}", redact(&args.database_url)))?;
    let seeded = ssdbase::seed_if_empty(&storage).await.context("loading the seed dataset")?;
    if seeded > 0 {
        tracing::info!("new database: loaded {seeded} seed results");
    }
    let site = ssdbase::site::is_built(&args.site).then(|| args.site.clone());
    if site.is_none() {
        tracing::warn!(
            "no built site in {} (run `trunk build --release` or `cargo xtask run`): serving the API only",
            args.site.display()
        );
    }
    let runner_dir = args.runner_dir.is_dir().then(|| args.runner_dir.clone());
    if runner_dir.is_none() {
        tracing::info!(
            "no runner binaries in {} (`cargo xtask runner-dist` builds them): none offered for download",
            args.runner_dir.display()
        );
    }
    let queue = ssdbase::ocr_worker::QueueSignal::default();
    if args.ocr_workers > 0 {
        ssdbase::ocr_worker::spawn_workers(
            storage.clone(),
            ssdbase::ocr_worker::screenshot_recognizer(),
            args.ocr_workers,
            queue.clone(),
        );
    }
    ssdbase::effects_refresh::spawn(storage.clone());
    ssdbase::ocr_worker::spawn_retention(
        storage.clone(),
        std::time::Duration::from_secs_f64(args.unpublished_days * 86400.0),
    );
    let dump_every = (args.dump_every_hours > 0.0).then(|| {
        std::time::Duration::from_secs_f64(args.dump_every_hours * 3600.0)
            .max(std::time::Duration::from_secs(1))
    });
    if let Some(every) = dump_every {
        ssdbase::dump::Published { dir: args.dump_dir.clone() }.spawn_schedule(storage.clone(), every);
    }
    let config = ApiConfig {
        queue,
        limits: api::Limits::default(),
        admin_token: args.admin_token.clone(),
        submit_per_minute: NonZeroU32::new(args.submit_rate),
        ocr_per_minute: NonZeroU32::new(args.ocr_rate),
        ocr_pending_per_client: NonZeroU32::new(args.ocr_pending_per_client),
        write_per_minute: NonZeroU32::new(args.write_rate),
        fault_injection: args.fault_injection,
        site,
        trusted_proxies: TrustedProxies::new(args.trusted_proxies.clone()),
        public_url: args.public_url.clone(),
        dumps: dump_every.map(|_| args.dump_dir.clone()),
        dump_every,
        runner_dir,
    };
    let app = api::app_with(storage.clone(), &config);
    if let Some(addr) = args.metrics_listen {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("listening for metrics on {addr}"))?;
        tracing::info!("metrics at http://{}/metrics", listener.local_addr()?);
        let metrics = ssdbase::metrics::router(storage.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, metrics).await {
                tracing::error!("the metrics listener stopped: {e}");
            }
        });
    }
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let addr = listener.local_addr()?;
    // Without TCP_NODELAY a response written in two parts (a static file's headers, then
    // its body) waits for the client's delayed ACK: ~40 ms per file on a kept-alive
    // connection (the sharing benchmark measured it).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    match &config.site {
        Some(dir) => tracing::info!(
            "serving the site at http://{addr}/ (from {}) and the API at http://{addr}{} ({} database)",
            dir.display(),
            api::API_PREFIX,
            storage.backend()
        ),
        None => tracing::info!("serving http://{addr}{} ({} database)", api::API_PREFIX, storage.backend()),
    }
    if !config.trusted_proxies.is_empty() {
        let list: Vec<String> = args.trusted_proxies.iter().map(|n| n.to_string()).collect();
        tracing::info!("trusting X-Forwarded-For / Forwarded from {}", list.join(", "));
    }
    if config.admin_token.is_none() {
        tracing::warn!("no admin token (SSDBASE_ADMIN_TOKEN): moderation is off");
    }
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    Ok(())
}

/// Ctrl-C (SIGINT) or SIGTERM (what systemd and container runtimes send): stop taking
/// connections and finish the open requests.
async fn shutdown_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let term = async {
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term => {}
    }
    tracing::info!("shutting down: finishing open requests");
}

/// The URL without its password, for messages.
pub(crate) fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => match url[s + 3..at].find(':') {
            Some(colon) => format!("{}:***{}", &url[..s + 3 + colon], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(super::redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(super::redact("sqlite://ssdbase.db"), "sqlite://ssdbase.db");
    }
}
