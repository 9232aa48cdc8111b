//! The sharing benchmark: `cargo bench -p ssdbase --bench sharing` (or
//! `cargo xtask bench-sharing`). In one run, on the seed database (SQLite, a temporary
//! file) behind the real router on a loopback port, over keep-alive HTTP/1.1:
//!
//! - p50/p99 time to answer the compare chart as PNG and as SVG for 3 drives, a compare
//!   link-preview image (1200 × 630 PNG) and a drive link-preview image;
//! - requests per second of a cached embed: the compare PNG asked again with its current
//!   ETag in `If-None-Match` (answered 304, no body);
//! - the same two figures for a trivial static response of the same server (`robots.txt`
//!   from the site directory), measured in the same run.
//!
//! `SSDBASE_BENCH_QUERIES` (timed requests per latency figure, default 200),
//! `SSDBASE_BENCH_SECONDS` (seconds per throughput figure, default 3),
//! `SSDBASE_BENCH_CLIENTS` (concurrent connections for throughput, default 4).
//! Run by `cargo test` (no `--bench` argument) it only says how to run it.

use anyhow::{ensure, Context, Result};
use axum::serve::ListenerExt;
use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use ssdbase::api::{app_with, ApiConfig};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const DRIVES: &str = "crucial-realssd-c300-256gb,plextor-px-m2s-256gb,patriot-wildfire-120gb";

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("sharing benchmark: run it with `cargo bench -p ssdbase --bench sharing`");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
    if let Err(e) = runtime.block_on(run()) {
        eprintln!("bench-sharing: {e:#}");
        std::process::exit(1);
    }
}

fn env_u64(name: &str, default: u64) -> Result<u64> {
    match std::env::var(name) {
        Ok(v) => v.parse().with_context(|| format!("{name}={v:?} is not a number")),
        Err(_) => Ok(default),
    }
}

/// One keep-alive HTTP/1.1 connection.
struct Client {
    send: hyper::client::conn::http1::SendRequest<Empty<Bytes>>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Result<Client> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(Client { send })
    }

    /// GET `path` (with `If-None-Match: etag`): status, ETag, body.
    async fn get(&mut self, path: &str, etag: Option<&str>) -> Result<(StatusCode, Option<String>, Bytes)> {
        self.send.ready().await?;
        let mut req = Request::get(path).header("host", "127.0.0.1");
        if let Some(tag) = etag {
            req = req.header("if-none-match", tag);
        }
        let res = self.send.send_request(req.body(Empty::new())?).await?;
        let status = res.status();
        let tag = res.headers().get("etag").and_then(|v| v.to_str().ok()).map(str::to_string);
        let body = res.into_body().collect().await?.to_bytes();
        Ok((status, tag, body))
    }
}

/// p50 and p99 in milliseconds of `n` sequential GETs of `path` (after a warm-up), each
/// expected to answer `want`.
async fn latency(
    addr: SocketAddr,
    path: &str,
    etag: Option<&str>,
    want: StatusCode,
    n: u64,
) -> Result<(f64, f64)> {
    let mut client = Client::connect(addr).await?;
    for _ in 0..5 {
        let (status, _, body) = client.get(path, etag).await?;
        ensure!(status == want, "GET {path}: {status} {}", String::from_utf8_lossy(&body));
    }
    let mut times = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let start = Instant::now();
        let (status, _, _) = client.get(path, etag).await?;
        times.push(start.elapsed());
        ensure!(status == want, "GET {path}: {status}");
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    Ok((ms(at(0.50)), ms(at(0.99))))
}

/// Requests per second of `clients` connections asking `path` for `seconds`.
async fn throughput(
    addr: SocketAddr,
    path: &str,
    etag: Option<&str>,
    want: StatusCode,
    clients: u64,
    seconds: u64,
) -> Result<f64> {
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    let start = Instant::now();
    for _ in 0..clients {
        let (done, stop, path, etag) =
            (done.clone(), stop.clone(), path.to_string(), etag.map(str::to_string));
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await?;
            while !stop.load(Ordering::Relaxed) {
                let (status, _, _) = client.get(&path, etag.as_deref()).await?;
                ensure!(status == want, "GET {path}: {status}");
                done.fetch_add(1, Ordering::Relaxed);
            }
            anyhow::Ok(())
        }));
    }
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await??;
    }
    Ok(done.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64())
}

async fn run() -> Result<()> {
    let n = env_u64("SSDBASE_BENCH_QUERIES", 200)?;
    let seconds = env_u64("SSDBASE_BENCH_SECONDS", 3)?;
    let clients = env_u64("SSDBASE_BENCH_CLIENTS", 4)?;
    // Removed when dropped, on an error too.
    let tmp = tempfile::Builder::new().prefix("ssdbase_bench_sharing_").tempdir()?;
    let dir = tmp.path();
    let site = dir.join("site");
    std::fs::create_dir_all(&site)?;
    std::fs::write(
        site.join("index.html"),
        "<!doctype html><html><head><title>SSDBase</title></head><body></body></html>",
    )?;
    std::fs::write(site.join("robots.txt"), "User-agent: *\nAllow: /\n")?;
    let storage = ssdbase::open(&format!("sqlite://{}", dir.join("bench.db").display())).await?;
    let router = app_with(storage, &ApiConfig { site: Some(site), ..ApiConfig::default() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    // As `ssdbase serve` does (serve_cmd.rs).
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = tokio::spawn(async move {
        axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
            .await
            .expect("server runs");
    });

    let png = format!("/api/v1/compare/chart.png?drives={DRIVES}");
    let svg = format!("/api/v1/compare/chart.svg?drives={DRIVES}");
    let preview = format!("/api/v1/compare/preview.png?drives={DRIVES}");
    let drive_preview = "/api/v1/drives/crucial-realssd-c300-64gb/preview.png".to_string();
    let ok = StatusCode::OK;
    println!("sharing benchmark: seed database (SQLite), {n} sequential requests per latency, {clients} clients × {seconds} s per rate");
    for (name, path) in [
        ("static robots.txt", "/robots.txt".to_string()),
        ("compare PNG, 3 drives", png.clone()),
        ("compare SVG, 3 drives", svg),
        ("compare preview PNG 1200x630", preview),
        ("drive preview PNG 1200x630", drive_preview),
    ] {
        let (p50, p99) = latency(addr, &path, None, ok, n).await?;
        println!("FIGURE {name}: p50 {p50:.2} ms, p99 {p99:.2} ms");
    }
    let mut client = Client::connect(addr).await?;
    let (_, tag, _) = client.get(&png, None).await?;
    let tag = tag.context("the compare PNG has an ETag")?;
    let (p50, p99) = latency(addr, &png, Some(&tag), StatusCode::NOT_MODIFIED, n).await?;
    println!("FIGURE cached compare PNG (304): p50 {p50:.2} ms, p99 {p99:.2} ms");
    let cached = throughput(addr, &png, Some(&tag), StatusCode::NOT_MODIFIED, clients, seconds).await?;
    let fresh = throughput(addr, &png, None, ok, clients, seconds).await?;
    let trivial = throughput(addr, "/robots.txt", None, ok, clients, seconds).await?;
    println!("FIGURE cached embed (compare PNG, If-None-Match → 304): {cached:.0} requests/s");
    println!("FIGURE uncached embed (compare PNG, 200): {fresh:.0} requests/s");
    println!("FIGURE static robots.txt, same server: {trivial:.0} requests/s");
    server.abort();
    Ok(())
}
