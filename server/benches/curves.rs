//! The curves benchmark: `cargo bench -p ssdbase --bench curves` (or `cargo xtask
//! bench-curves`). What results measured under load and over time cost a reader and a
//! contributor, each as a ratio to the same work without them, measured in the same run
//! (these machines are noisy), on SQLite (a temporary file) and, when
//! `SSDBASE_TEST_POSTGRES_URL` names a PostgreSQL database, on it too; behind the real
//! router on a loopback port:
//!
//! - a submission carrying a 3,600-point write-saturation curve (an hour sampled every
//!   second) against the same submission without it: median milliseconds each, the
//!   difference and the ratio;
//! - a drive page (the requests the site makes for it: the drive, its results, its rated
//!   table and its burst-and-sustained fragment) of a drive whose results carry 10 load
//!   curves of 64 points each, against a drive with the same results, each of those ten
//!   holding its curve's first point alone; per request, its time and the bytes sent.
//!
//! `SSDBASE_BENCH_QUERIES` (timed repetitions per figure, default 40).
//! Run by `cargo test` (no `--bench` argument) it only says how to run it.

use anyhow::{ensure, Context, Result};
use bench::{Access, BenchResult, Metric, Op, TimePoint, TimeSeries, Tool};
use serde_json::json;
use ssdbase::api::{app_with, ApiConfig};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Catalogue drives of the seed database: the two drive pages (one gets the curves), and
/// the drive the submissions go to (elsewhere, or their 3,600-point series would be on
/// the pages compared).
const PLAIN: &str = "crucial-realssd-c300-256gb";
const CURVED: &str = "plextor-px-m2s-256gb";
const SUBMITTED: &str = "patriot-wildfire-120gb";

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("curves benchmark: run it with `cargo bench -p ssdbase --bench curves`");
        return;
    }
    let n = std::env::var("SSDBASE_BENCH_QUERIES").ok().and_then(|v| v.parse().ok()).unwrap_or(40usize);
    let mut backends = vec![("sqlite", None)];
    if let Ok(url) = std::env::var("SSDBASE_TEST_POSTGRES_URL") {
        backends.push(("postgres", Some(url)));
    } else {
        println!("(SSDBASE_TEST_POSTGRES_URL is not set: SQLite only)");
    }
    for (name, url) in backends {
        if let Err(e) = bench_backend(name, url.as_deref(), n) {
            eprintln!("bench-curves ({name}): {e:#}");
            std::process::exit(1);
        }
    }
}

/// A KDiskMark-shaped burst result: eight tests, figures varied by `seed`.
fn burst(seed: f64) -> BenchResult {
    let mut r = BenchResult::new(Tool::KDiskMark);
    for (access, block, qd, op, mbps) in [
        (Access::Seq, 1 << 20, 8, Op::Read, 540.0),
        (Access::Seq, 1 << 20, 1, Op::Read, 480.0),
        (Access::Rnd, 4096, 32, Op::Read, 380.0),
        (Access::Rnd, 4096, 1, Op::Read, 40.0),
        (Access::Seq, 1 << 20, 8, Op::Write, 500.0),
        (Access::Seq, 1 << 20, 1, Op::Write, 450.0),
        (Access::Rnd, 4096, 32, Op::Write, 300.0),
        (Access::Rnd, 4096, 1, Op::Write, 90.0),
    ] {
        let mbps = mbps * (1.0 + seed * 1e-6);
        r.metrics.push(metric(access, block, qd, op, mbps));
    }
    r
}

fn metric(access: Access, block_size: u64, queue_depth: u32, op: Op, mbps: f64) -> Metric {
    Metric {
        label: format!("{access:?} {block_size} Q{queue_depth} {op:?}"),
        access,
        block_size,
        queue_depth,
        threads: 1,
        op,
        mbps: Some(mbps),
        iops: Some(mbps * 1e6 / block_size as f64),
        latency_us: Some(f64::from(queue_depth) * block_size as f64 / mbps),
        mix_read_percent: None,
        stat: None,
        latency_percentiles: Vec::new(),
        latency_spread: None,
    }
}

/// A cache run: the write's average, and with `curve` its 3,600 one-second intervals (a
/// 200 GB cache at 2,000 MB/s, then 600 MB/s).
fn cache_run(seed: f64, curve: bool) -> BenchResult {
    let mut r = BenchResult::new(Tool::SsdbaseBench);
    let mut avg = metric(Access::Seq, 1 << 20, 8, Op::Write, 700.0 + seed * 1e-6);
    avg.stat = Some(bench::Stat::Avg);
    r.metrics.push(avg);
    if curve {
        let mut bytes = 0u64;
        let points = (1..=3600)
            .map(|s| {
                let mbps = if s <= 100 { 2000.0 } else { 600.0 } + (s % 7) as f64;
                bytes += (mbps * 1e6) as u64;
                TimePoint { secs: f64::from(s), bytes, mbps, iops: Some(mbps) }
            })
            .collect();
        r.over_time.push(TimeSeries { metric: 0, points, after_idle_secs: None });
    }
    r
}

/// A sweep: one test at queue depth 1 to `loads` (64; 1 for the same result without its
/// curve), its figures varied by `seed` and `test`.
fn sweep(seed: f64, test: u64, loads: u32) -> BenchResult {
    let mut r = BenchResult::new(Tool::SsdbaseBench);
    let block = 4096 << test;
    for qd in 1..=loads {
        let mbps = 50.0 * f64::from(qd).sqrt() * (1.0 + seed * 1e-6);
        r.metrics.push(metric(Access::Rnd, block, qd, Op::Read, mbps));
    }
    r
}

fn bench_backend(name: &str, postgres: Option<&str>, n: usize) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let tmp = tempfile::Builder::new().prefix("ssdbase_bench_curves_").tempdir()?;
    // A fresh database each run: earlier runs' results would be on the pages compared.
    let fresh = format!("ssdbase_bench_curves_{}", std::process::id());
    let url = match postgres {
        Some(admin_url) => runtime.block_on(async {
            let admin = sqlx::PgPool::connect(admin_url).await?;
            sqlx::query(&format!("CREATE DATABASE \"{fresh}\"")).execute(&admin).await?;
            admin.close().await;
            let base = admin_url.rsplit_once('/').context("a PostgreSQL URL ending in a database name")?.0;
            anyhow::Ok(format!("{base}/{fresh}"))
        })?,
        None => format!("sqlite://{}", tmp.path().join("bench.db").display()),
    };
    let addr: SocketAddr = runtime.block_on(async {
        let storage = ssdbase::open(&url).await?;
        let router = app_with(storage, &ApiConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move {
            axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
                .await
                .expect("serves");
        });
        anyhow::Ok(addr)
    })?;
    let base = format!("http://{addr}");
    let agent = ureq::Agent::new_with_defaults();
    // Unique per run: a database reused by an earlier run has equal results already.
    let run = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_nanos() as f64 % 1e6;
    let post = |result: &BenchResult, drive: &str| -> Result<Duration> {
        let body = serde_json::to_vec(&json!({"result": result, "tags": {"drive": {"sku": drive}}}))?;
        let start = Instant::now();
        let mut r = agent
            .post(&format!("{base}/api/v1/results"))
            .config()
            .http_status_as_error(false)
            .build()
            .header("content-type", "application/json")
            .send(&body[..])?;
        let took = start.elapsed();
        let status = r.status();
        let text = r.body_mut().read_to_string()?;
        ensure!(status == 201, "POST a result: {status} {text}");
        Ok(took)
    };
    println!("\n== {name}: curves benchmark, {n} repetitions per figure");

    // Submissions, alternating with and without the curve so both share the machine's moments.
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for i in 0..n {
        let seed = run + i as f64;
        with.push(post(&cache_run(seed, true), SUBMITTED)?);
        without.push(post(&cache_run(seed + 0.5, false), SUBMITTED)?);
    }
    let (w, wo) = (median_ms(with), median_ms(without));
    println!(
        "FIGURE {name} submission with a 3,600-point curve: {w:.2} ms, without: {wo:.2} ms (median of {n}): \
         +{:.2} ms, ratio {:.2}",
        w - wo,
        w / wo
    );

    // Two drives with the same twenty results: ten bursts, and ten results of the runner
    // that are 64-point curves on one drive and their first point alone on the other.
    for i in 0..10 {
        let seed = run + 1000.0 + i as f64;
        post(&burst(seed), PLAIN)?;
        post(&sweep(seed, i as u64 % 8, 1), PLAIN)?;
        post(&burst(seed + 0.5), CURVED)?;
        post(&sweep(seed, i as u64 % 8, 64), CURVED)?;
    }
    let paths = |drive: &str| {
        [
            format!("/api/v1/drives/{drive}"),
            format!("/api/v1/results?drive={drive}&limit=500&figures=burst"),
            format!("/api/v1/drives/{drive}/rated"),
            format!("/fragments/compare/sustained?drives={drive}"),
        ]
    };
    // Each request's time and bytes as sent, compressed as a browser asks.
    let page = |drive: &str| -> Result<Vec<(Duration, usize)>> {
        paths(drive)
            .into_iter()
            .map(|path| {
                let start = Instant::now();
                let mut r = agent
                    .get(&format!("{base}{path}"))
                    .header("accept-encoding", "gzip, deflate, br")
                    .call()
                    .with_context(|| path.clone())?;
                let bytes = r.body_mut().read_to_vec()?.len();
                Ok((start.elapsed(), bytes))
            })
            .collect()
    };
    let (mut curved, mut plain) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        page(CURVED)?;
        page(PLAIN)?;
    }
    for _ in 0..n {
        curved.push(page(CURVED)?);
        plain.push(page(PLAIN)?);
    }
    let total = |runs: &[Vec<(Duration, usize)>]| {
        median_ms(runs.iter().map(|r| r.iter().map(|(d, _)| *d).sum()).collect())
    };
    let (c, p) = (total(&curved), total(&plain));
    println!(
        "FIGURE {name} drive page with 10 curves of 64 points: {c:.2} ms, the same page without curves: {p:.2} ms \
         (median of {n}, 4 requests each): ratio {:.2}",
        c / p
    );
    for (i, path) in paths("DRIVE").iter().enumerate() {
        let one = |runs: &[Vec<(Duration, usize)>]| {
            (median_ms(runs.iter().map(|r| r[i].0).collect()), runs[0][i].1)
        };
        let ((cm, cb), (pm, pb)) = (one(&curved), one(&plain));
        println!("  {path}: {cm:.2} ms, {cb} B with curves; {pm:.2} ms, {pb} B without");
    }
    if let Some(admin_url) = postgres {
        runtime.block_on(async {
            let admin = sqlx::PgPool::connect(admin_url).await?;
            sqlx::query(&format!("DROP DATABASE IF EXISTS \"{fresh}\" WITH (FORCE)")).execute(&admin).await?;
            anyhow::Ok(())
        })?;
    }
    Ok(())
}

fn median_ms(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}
