//! The server benchmark: `cargo xtask bench-server` (which starts PostgreSQL and runs
//! `cargo bench -p ssdbase --bench server`). In one run, for SQLite and for PostgreSQL:
//!
//! 1. Ingest. Submissions per second through real HTTP (the `ssdbase serve` router on a
//!    loopback port, hyper clients on keep-alive connections) with 1 and 16 concurrent
//!    clients, next to the raw insert rate of the same database in the same run: the same
//!    kind of uploads, already parsed, handed straight to `Storage::submit` (sqlx, one
//!    transaction each, no HTTP, no parsing). Uploads are real CrystalDiskMark, KDiskMark
//!    and fio exports from the shared corpus with their numbers varied, so each one is a
//!    new content hash.
//! 2. Queries at scale. A fixture of `SSDBASE_BENCH_RESULTS` results (default 1,000,000;
//!    the issue's 10,000,000 needs about 15 GB per million on disk per backend) over the
//!    drive part's catalogue of 100,000 drives: 30 popular drives with 0.6 % to 0.1 % of
//!    the results each, the rest spread evenly; each drive measured on one to four
//!    machines; CrystalDiskMark and KDiskMark shapes of the corpus with their numbers
//!    varied, three data patterns. Loaded in bulk once and kept
//!    (`target/bench/ssdbase-N.sqlite`, PostgreSQL database `ssdbase_bench_N`; the output
//!    says whether it was reused): threads generate batches that one connection writes
//!    (SQLite multi-row INSERTs in transactions of 50,000 results, PostgreSQL `COPY`),
//!    the results tables' indexes are dropped before and built after, and the compare
//!    summary is built when the server first opens it; each stage's time per million is
//!    printed with the bytes stored per result. Then p50/p99 over HTTP of browse
//!    queries (filters and a page), three-drive compares (the most popular drives and
//!    ordinary ones), drives index pages, leaderboards and their tests list, and a mixed
//!    load (16 clients, 5 % submissions) with p50/p99 per route; with the `effects` part,
//!    the factor effects' first build and queries.
//!
//! 3. Drive identity at scale. A catalogue of 100,000 drives known under about 1,000,000
//!    keys (`drive_aliases`), loaded in bulk: p50/p99 over HTTP of drive search as you
//!    type (`GET /api/v1/drives/search`) over a mix of queries, and submissions per second
//!    that name their drive by vendor, model and capacity, a model string or a part
//!    number (so `ingest::Catalogue::identify` looks the drive up), each beside the same
//!    measurement on a database of the seed catalogue in the same run, rounds of the two
//!    interleaved; and `Catalogue::identify` alone on both. Then, on the 100,000 drives:
//!    p50/p99 of drives index pages, leaderboards and their tests list, and a mixed load
//!    (16 clients: browse, compare, drive pages, index, leaderboards, embeds, 5 %
//!    submissions) with p50/p99 per route. Both databases are made for the run and
//!    dropped after it.
//!
//! Environment: `SSDBASE_BENCH_POSTGRES_URL` (a role that may create databases; set by
//! xtask), `SSDBASE_BENCH_RESULTS` (fixture size, default 1000000),
//! `SSDBASE_BENCH_SUBMISSIONS` (uploads per ingest run, default 3000),
//! `SSDBASE_BENCH_QUERIES` (timed requests per query, default 300),
//! `SSDBASE_BENCH_DRIVES` (drives of both fixtures, default 100000),
//! `SSDBASE_BENCH_ROUNDS` (interleaved rounds of its throughput measurement, default 30),
//! `SSDBASE_BENCH_SEARCHES` (timed drive searches, default 2000),
//! `SSDBASE_BENCH_NEW_DRIVES` (percentage of the drive part's submissions that name a new
//! drive, default 15), `SSDBASE_BENCH_MIXED` (requests of each mixed load, 16
//! clients with 5 % submissions, default 4000), `SSDBASE_BENCH_KEEP` (set: keep the drive part's databases and
//! say where they are),
//! `SSDBASE_BENCH_ONLY` (`sqlite` or `postgres`; or `drives`, the same as
//! `SSDBASE_BENCH_PARTS=drives`), `SSDBASE_BENCH_PARTS` (any of `ingest`, `queries`,
//! `effects` (with `queries`), `drives`; all four by default).
//!
//! Run by `cargo test` (no `--bench` argument) it only says how to run it.

use anyhow::{bail, ensure, Context, Result};
use bench::text::Document;
use bench::{BenchResult, DataPattern, DriveSku, Link, Platform, RatedSpec, StorageMode, Tags};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::json;
use ssdbase::api::{app, Limits};
use ssdbase::ingest;
use ssdbase::storage::sql::{self, Param};
use ssdbase::storage::{DynStorage, NewResult, NewSubmission};
use std::collections::{BTreeMap, HashSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("server benchmark: run it with `cargo xtask bench-server`");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
    if let Err(e) = runtime.block_on(run()) {
        eprintln!("bench-server: {e:#}");
        std::process::exit(1);
    }
}

struct Config {
    postgres_admin_url: Option<String>,
    results: usize,
    submissions: usize,
    queries: usize,
    only: Option<String>,
    run_ingest: bool,
    run_queries: bool,
    run_drives: bool,
    /// The factor effects' build and queries on the queries part's fixture.
    run_effects: bool,
    drives: usize,
    /// Interleaved rounds of each drive-part throughput measurement.
    rounds: usize,
    searches: usize,
    /// Requests of the drive part's mixed load.
    mixed: usize,
}

fn env_usize(name: &str, default: usize) -> Result<usize> {
    match std::env::var(name) {
        Ok(v) => v.parse().with_context(|| format!("{name}={v:?} is not a number")),
        Err(_) => Ok(default),
    }
}

async fn run() -> Result<()> {
    let mut only = std::env::var("SSDBASE_BENCH_ONLY").ok();
    let mut parts = std::env::var("SSDBASE_BENCH_PARTS").ok();
    if only.as_deref() == Some("drives") {
        only = None;
        parts = Some("drives".into());
    }
    let config = Config {
        postgres_admin_url: std::env::var("SSDBASE_BENCH_POSTGRES_URL").ok(),
        results: env_usize("SSDBASE_BENCH_RESULTS", 1_000_000)?,
        submissions: env_usize("SSDBASE_BENCH_SUBMISSIONS", 3000)?,
        queries: env_usize("SSDBASE_BENCH_QUERIES", 300)?,
        only,
        run_ingest: parts.as_deref().is_none_or(|p| p.contains("ingest")),
        run_queries: parts.as_deref().is_none_or(|p| p.contains("queries")),
        run_drives: parts.as_deref().is_none_or(|p| p.contains("drives")),
        run_effects: parts.as_deref().is_none_or(|p| p.contains("effects")),
        drives: env_usize("SSDBASE_BENCH_DRIVES", 100_000)?,
        rounds: env_usize("SSDBASE_BENCH_ROUNDS", ROUNDS_DEFAULT)?.max(1),
        searches: env_usize("SSDBASE_BENCH_SEARCHES", 2000)?,
        mixed: env_usize("SSDBASE_BENCH_MIXED", 4000)?,
    };
    let corpus = Corpus::load(&shared_dir()?)?;
    println!(
        "server benchmark: {} corpus files as upload templates; {} uploads per ingest run; \
         {} timed requests per query; fixture of {} results",
        corpus.templates.len(),
        config.submissions,
        config.queries,
        config.results
    );
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&work)?;
    let started = Instant::now();
    let mut reports = Vec::new();
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if config.only.as_deref().is_some_and(|o| o != backend.name()) {
            continue;
        }
        if backend == Backend::Postgres && config.postgres_admin_url.is_none() {
            bail!("SSDBASE_BENCH_POSTGRES_URL is not set: run `cargo xtask bench-server`");
        }
        let ingest = match config.run_ingest {
            true => Some(ingest_bench(backend, &config, &corpus, &work).await?),
            false => None,
        };
        let queries = match config.run_queries {
            true => Some(query_bench(backend, &config, &corpus, &work).await?),
            false => None,
        };
        let drives = match config.run_drives {
            true => Some(drive_bench(backend, &config, &corpus, &work).await?),
            false => None,
        };
        reports.push((backend, ingest, queries, drives));
    }
    println!("\n== summary ({} s in all)", started.elapsed().as_secs());
    for (backend, ingest, queries, drives) in &reports {
        if let Some(ingest) = ingest {
            println!("{:<8} ingest subs/s  {}", backend.name(), ingest.line());
        }
        if let Some(queries) = queries {
            println!("{:<8} queries @{}  {}", backend.name(), config.results, queries.line());
        }
        if let Some(drives) = drives {
            for line in drives.lines() {
                println!("{:<8} drives @{}  {line}", backend.name(), config.drives);
            }
        }
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

/// A database made for this run (SQLite file or PostgreSQL database) and how to open it.
struct Db {
    backend: Backend,
    url: String,
    admin_url: Option<String>,
    pg_name: Option<String>,
    file: Option<PathBuf>,
}

impl Db {
    fn sqlite(file: PathBuf) -> Db {
        Db {
            backend: Backend::Sqlite,
            url: format!("sqlite://{}", file.display()),
            admin_url: None,
            pg_name: None,
            file: Some(file),
        }
    }

    fn postgres(admin_url: &str, name: &str) -> Db {
        let base = admin_url.rsplit_once('/').map(|(b, _)| b).unwrap_or(admin_url);
        Db {
            backend: Backend::Postgres,
            url: format!("{base}/{name}"),
            admin_url: Some(admin_url.to_string()),
            pg_name: Some(name.to_string()),
            file: None,
        }
    }

    async fn exists(&self) -> Result<bool> {
        match self.backend {
            Backend::Sqlite => Ok(self.file.as_ref().is_some_and(|f| f.exists())),
            Backend::Postgres => {
                let admin = sqlx::PgPool::connect(self.admin_url.as_deref().unwrap()).await?;
                let found = sqlx::query("SELECT 1 FROM pg_database WHERE datname = $1")
                    .bind(self.pg_name.as_deref().unwrap())
                    .fetch_optional(&admin)
                    .await?
                    .is_some();
                admin.close().await;
                Ok(found)
            }
        }
    }

    /// Removes the database if it exists and creates it empty.
    async fn recreate(&self) -> Result<()> {
        match self.backend {
            Backend::Sqlite => {
                let file = self.file.as_ref().unwrap();
                for suffix in ["", "-wal", "-shm"] {
                    let f = PathBuf::from(format!("{}{suffix}", file.display()));
                    if f.exists() {
                        std::fs::remove_file(&f)?;
                    }
                }
            }
            Backend::Postgres => {
                let admin = sqlx::PgPool::connect(self.admin_url.as_deref().unwrap()).await?;
                let name = self.pg_name.as_deref().unwrap();
                sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .execute(&admin)
                    .await?;
                sqlx::query(&format!("CREATE DATABASE \"{name}\"")).execute(&admin).await?;
                admin.close().await;
            }
        }
        Ok(())
    }

    /// What the database takes on disk.
    async fn bytes(&self) -> Result<u64> {
        Ok(match self.backend {
            Backend::Sqlite => ["", "-wal"]
                .iter()
                .filter_map(|suffix| {
                    std::fs::metadata(format!("{}{suffix}", self.file.as_ref().unwrap().display())).ok()
                })
                .map(|m| m.len())
                .sum(),
            Backend::Postgres => {
                let pool = sqlx::PgPool::connect(&self.url).await?;
                let n: i64 = sqlx::query_scalar("SELECT pg_database_size(current_database())")
                    .fetch_one(&pool)
                    .await?;
                pool.close().await;
                n as u64
            }
        })
    }

    async fn drop_it(&self) -> Result<()> {
        match self.backend {
            Backend::Sqlite => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ =
                        std::fs::remove_file(format!("{}{suffix}", self.file.as_ref().unwrap().display()));
                }
            }
            Backend::Postgres => {
                let admin = sqlx::PgPool::connect(self.admin_url.as_deref().unwrap()).await?;
                let name = self.pg_name.as_deref().unwrap();
                sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .execute(&admin)
                    .await?;
                admin.close().await;
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Uploads: corpus files with their numbers varied
// ---------------------------------------------------------------------------------------

struct Template {
    name: String,
    text: String,
    /// What the file parses to: the shape of the fixture's results.
    results: Vec<BenchResult>,
}

struct Corpus {
    templates: Vec<Template>,
}

impl Corpus {
    fn load(shared: &Path) -> Result<Corpus> {
        let mut templates = Vec::new();
        for dir in ["cdm3", "cdm5", "cdm6", "cdm7", "cdm8", "kdiskmark", "fio"] {
            let path = shared.join("corpus/real").join(dir);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
                .with_context(|| format!("reading {}", path.display()))?
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            for f in files {
                let text = String::from_utf8(std::fs::read(&f)?)
                    .with_context(|| format!("{} is not UTF-8", f.display()))?;
                let results = bench::parse_str(&text, None)
                    .with_context(|| format!("corpus file {} does not parse", f.display()))?;
                templates.push(Template {
                    name: f.file_name().unwrap().to_string_lossy().into_owned(),
                    text,
                    results,
                });
            }
        }
        ensure!(templates.len() >= 5, "too few corpus files under {}", shared.display());
        Ok(Corpus { templates })
    }
}

/// splitmix64: a small deterministic generator, so every run uploads the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, n).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (self.next() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

/// Scales a number as printed, keeping its number of decimals.
fn scale_number(token: &str, factor: f64) -> String {
    let decimals = token.split_once('.').map_or(0, |(_, d)| d.len());
    let v: f64 = token.parse().unwrap_or(0.0);
    format!("{:.*}", decimals, v * factor)
}

/// Rewrites every measured number of a result file by `factor` (throughput and IOPS up,
/// latency down), leaving everything else (labels, dates, versions) as it was.
fn vary_text(text: &str, factor: f64) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let key = line.trim_start();
        let fio_number =
            ["\"bw_bytes\"", "\"bw\"", "\"iops\"", "\"mean\""].iter().any(|k| key.starts_with(k));
        if line.contains("MB/s") {
            // CrystalDiskMark / KDiskMark row: scale the decimal numbers (MB/s, IOPS,
            // latency), never the integers of the descriptor (`Q= 8`, `4KiB`).
            let mut rest = line;
            while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
                let len = rest[start..]
                    .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .unwrap_or(rest.len() - start);
                let token = &rest[start..start + len];
                let tail = &rest[start + len..];
                out.push_str(&rest[..start]);
                if token.contains('.') && !token.ends_with('.') {
                    let latency = tail.trim_start().starts_with("us");
                    out.push_str(&scale_number(token, if latency { 1.0 / factor } else { factor }));
                } else {
                    out.push_str(token);
                }
                rest = tail;
            }
            out.push_str(rest);
        } else if fio_number {
            let (head, value) = line.split_once(':').expect("fio key lines have a colon");
            let number = value.trim().trim_end_matches(',');
            if number.parse::<f64>().is_ok_and(|v| v > 0.0) {
                let f = if key.starts_with("\"mean\"") { 1.0 / factor } else { factor };
                let comma = if value.trim_end().ends_with(',') { "," } else { "" };
                out.push_str(&format!("{head}: {}{comma}\n", scale_number(number, f)));
            } else {
                out.push_str(line);
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

const CHIPSETS: &[(&str, &str, &str, StorageMode)] = &[
    ("Z690", "Intel Z690", "Microsoft NVMe", StorageMode::Nvme),
    ("X570", "AMD X570", "AMD NVMe", StorageMode::Nvme),
    ("B550", "AMD B550", "Microsoft NVMe", StorageMode::Nvme),
    ("Z390", "Intel Z390", "IRST", StorageMode::Ahci),
    ("Z68", "Intel Z68", "IMSM", StorageMode::Ahci),
    ("SB950", "AMD SB950", "AMD AHCI", StorageMode::Ahci),
    ("X99", "Intel X99", "Microsoft AHCI", StorageMode::Ahci),
    ("ICH10R", "Intel ICH10R", "IMSM", StorageMode::Raid),
    ("Apple T2", "Apple T2", "apfs", StorageMode::Nvme),
    ("B760", "Intel B760", "Microsoft NVMe", StorageMode::Nvme),
];

const OSES: &[&str] = &[
    "Windows 10 Professional [10.0 Build 19045] (x64)",
    "Windows 11 Pro [10.0 Build 22631] (x64)",
    "Windows 7 Ultimate Edition SP1 [6.1 Build 7601] (x64)",
    "Ubuntu 22.04 [linux 6.5.0]",
    "Fedora 39 [linux 6.6.8]",
];

fn platform(rng: &mut Rng) -> Platform {
    let (chipset, controller, driver, mode) = CHIPSETS[rng.below(CHIPSETS.len())];
    let link = match mode {
        StorageMode::Nvme => Link::Pcie { gen: 3 + rng.below(2) as u8, lanes: 4 },
        _ => Link::Sata { gbps: 6.0 },
    };
    Platform {
        chipset: Some(chipset.into()),
        storage_controller: Some(controller.into()),
        driver: Some(driver.into()),
        mode: Some(mode),
        link: Some(link),
        os: Some(OSES[rng.below(OSES.len())].into()),
        filesystem: Some(if rng.below(3) == 0 { "ext4" } else { "NTFS" }.into()),
        ..Platform::default()
    }
}

/// One upload, as the HTTP client sends it and as the raw baseline stores it.
struct Upload {
    body: Bytes,
    submission: NewSubmission,
}

/// `n` distinct uploads: corpus files with varied numbers, tagged with a catalogue drive
/// and a platform. Each is parsed here, the way the API does it, for the raw baseline.
fn uploads(
    corpus: &Corpus,
    drives: &[DriveSku],
    n: usize,
    rng: &mut Rng,
    seen: &mut HashSet<String>,
) -> Vec<Upload> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let t = &corpus.templates[rng.below(corpus.templates.len())];
        let text = vary_text(&t.text, rng.range(0.6, 1.4));
        let hash = ingest::sha256_hex(text.as_bytes());
        if !seen.insert(hash.clone()) {
            continue;
        }
        let sku = &drives[rng.below(drives.len())];
        let mut tags = Tags { platform: platform(rng), ..Tags::default() };
        tags.drive.sku = Some(sku.id.clone());
        let body = serde_json::to_vec(&json!({ "text": text, "tags": tags })).expect("json");
        let doc = Document::from_text(text.clone());
        let format = bench::detect(&doc);
        let results = bench::parse_document(&doc, format)
            .unwrap_or_else(|e| panic!("varied {} does not parse: {e}", t.name));
        ingest::complete_tags(&mut tags, Some(sku));
        let (_, edit_token_hash) = ingest::new_edit_token();
        let submission = NewSubmission {
            body: text.into_bytes(),
            content_hash: hash,
            format: format.map(|f| f.id().to_string()),
            edit_token_hash,
            client: Some("127.0.0.1".into()),
            provenance: None,
            runner: None,
            created_at: ingest::now_unix(),
            results: results
                .into_iter()
                .map(|result| NewResult {
                    flags: ingest::flags_for(&result, &tags, Some(sku)),
                    result,
                    tags: tags.clone(),
                    source: None,
                    new_drive: None,
                    result_json: None,
                })
                .collect(),
        };
        out.push(Upload { body: Bytes::from(body), submission });
    }
    out
}

// ---------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------

/// The real router on a loopback port, as `ssdbase serve` runs it.
struct Server {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    async fn start(storage: DynStorage) -> Result<Server> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let router = app(storage, &Limits::default());
        let task = tokio::spawn(async move {
            axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
                .await
                .expect("server runs");
        });
        Ok(Server { addr, task })
    }

    fn stop(self) {
        self.task.abort();
    }
}

/// One keep-alive HTTP/1.1 connection.
struct Client {
    send: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    /// `Accept-Encoding` sent with each request (none: answers come uncompressed).
    accept_encoding: Option<&'static str>,
}

/// What browsers send: answers come as they reach a reader, Brotli-compressed, and the
/// sizes measured are the bytes received.
const BROWSER_ACCEPT_ENCODING: &str = "gzip, deflate, br, zstd";

impl Client {
    async fn connect(addr: SocketAddr) -> Result<Client> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(Client { send, accept_encoding: None })
    }

    /// A connection that asks for compressed answers as a browser does.
    async fn browser(addr: SocketAddr) -> Result<Client> {
        Ok(Client { accept_encoding: Some(BROWSER_ACCEPT_ENCODING), ..Client::connect(addr).await? })
    }

    async fn request(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Bytes>,
    ) -> Result<(StatusCode, Bytes)> {
        self.send.ready().await?;
        let mut req = Request::builder().method(method).uri(path).header("host", "127.0.0.1");
        if let Some(accepted) = self.accept_encoding {
            req = req.header("accept-encoding", accepted);
        }
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let res = self.send.send_request(req.body(Full::new(body.unwrap_or_default()))?).await?;
        let status = res.status();
        let bytes = res.into_body().collect().await?.to_bytes();
        Ok((status, bytes))
    }
}

// ---------------------------------------------------------------------------------------
// Ingest
// ---------------------------------------------------------------------------------------

struct IngestReport {
    /// (clients, raw submissions/s, HTTP submissions/s)
    rows: Vec<(usize, f64, f64)>,
}

impl IngestReport {
    fn line(&self) -> String {
        self.rows
            .iter()
            .map(|(c, raw, http)| {
                format!("{c:>2} clients: HTTP {http:>7.0} vs raw {raw:>7.0} ({:.2}x)", http / raw)
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

async fn ingest_bench(
    backend: Backend,
    config: &Config,
    corpus: &Corpus,
    work: &Path,
) -> Result<IngestReport> {
    println!("\n== {} ingest", backend.name());
    let db = match backend {
        Backend::Sqlite => Db::sqlite(work.join(format!("ingest-{}.sqlite", std::process::id()))),
        Backend::Postgres => Db::postgres(
            config.postgres_admin_url.as_deref().unwrap(),
            &format!("ssdbase_bench_ingest_{}", std::process::id()),
        ),
    };
    db.recreate().await?;
    let storage = ssdbase::open(&db.url).await?;
    let drives: Vec<DriveSku> = storage.list_drives().await?.into_iter().map(|d| d.drive).collect();
    let server = Server::start(storage.clone()).await?;
    let mut rng = Rng(0x5eed ^ backend as u64);
    let mut seen = HashSet::new();
    let mut report = IngestReport { rows: Vec::new() };
    for clients in [1, 16] {
        let raw = uploads(corpus, &drives, config.submissions, &mut rng, &mut seen);
        let http = uploads(corpus, &drives, config.submissions, &mut rng, &mut seen);
        let raw_rate = ingest_raw(&storage, raw, clients).await?;
        let http_rate = ingest_http(server.addr, http, clients).await?;
        println!(
            "{clients:>2} clients: HTTP {http_rate:>7.0} submissions/s, raw Storage::submit {raw_rate:>7.0}/s, \
             ratio {:.2}",
            http_rate / raw_rate
        );
        report.rows.push((clients, raw_rate, http_rate));
    }
    server.stop();
    drop(storage);
    db.drop_it().await?;
    Ok(report)
}

/// Splits work over `clients` tasks; returns items per second.
async fn ingest_raw(storage: &DynStorage, uploads: Vec<Upload>, clients: usize) -> Result<f64> {
    let n = uploads.len();
    let queue =
        Arc::new(std::sync::Mutex::new(uploads.into_iter().map(|u| u.submission).collect::<Vec<_>>()));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let queue = queue.clone();
        let storage = storage.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let Some(s) = queue.lock().unwrap().pop() else { return Ok::<_, anyhow::Error>(()) };
                match storage.submit(&s).await? {
                    ssdbase::storage::Submitted::Stored { .. } => {}
                    other => bail!("raw submit did not store: {other:?}"),
                }
            }
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

async fn ingest_http(addr: SocketAddr, uploads: Vec<Upload>, clients: usize) -> Result<f64> {
    post_bodies(addr, uploads.into_iter().map(|u| u.body).collect(), clients).await
}

/// POSTs each body to `/api/v1/results` over `clients` keep-alive connections; returns
/// submissions per second.
async fn post_bodies(addr: SocketAddr, bodies: Vec<Bytes>, clients: usize) -> Result<f64> {
    let n = bodies.len();
    let queue = Arc::new(std::sync::Mutex::new(bodies));
    let mut conns = Vec::new();
    for _ in 0..clients {
        conns.push(Client::connect(addr).await?);
    }
    let start = Instant::now();
    let mut tasks = Vec::new();
    for mut client in conns {
        let queue = queue.clone();
        tasks.push(tokio::spawn(async move {
            loop {
                let Some(body) = queue.lock().unwrap().pop() else { return Ok::<_, anyhow::Error>(()) };
                let (status, reply) = client.request(Method::POST, "/api/v1/results", Some(body)).await?;
                if status != StatusCode::CREATED {
                    bail!("POST /api/v1/results answered {status}: {}", String::from_utf8_lossy(&reply));
                }
            }
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

// ---------------------------------------------------------------------------------------
// Queries on 1,000,000 results
// ---------------------------------------------------------------------------------------

struct QueryReport {
    reused: bool,
    load_seconds: f64,
    /// (name, p50 ms, p99 ms)
    rows: Vec<(String, f64, f64)>,
}

impl QueryReport {
    fn line(&self) -> String {
        let mut s: Vec<String> =
            self.rows.iter().map(|(n, p50, p99)| format!("{n} p50 {p50:.1} ms p99 {p99:.1} ms")).collect();
        s.push(if self.reused {
            "fixture reused".into()
        } else {
            format!("fixture loaded in {:.0} s", self.load_seconds)
        });
        s.join(" | ")
    }
}

/// Bumped whenever the fixture's generator changes, so an old cached fixture is rebuilt.
const FIXTURE_VERSION: &str = "2";

async fn query_bench(backend: Backend, config: &Config, corpus: &Corpus, work: &Path) -> Result<QueryReport> {
    println!("\n== {} queries on {} results", backend.name(), config.results);
    let db = match backend {
        Backend::Sqlite => Db::sqlite(work.join(format!("ssdbase-{}.sqlite", config.results))),
        Backend::Postgres => Db::postgres(
            config.postgres_admin_url.as_deref().unwrap(),
            &format!("ssdbase_bench_{}", config.results),
        ),
    };
    let mark = format!("v{FIXTURE_VERSION}:{}:{}", config.results, config.drives);
    let mut reused = false;
    if db.exists().await? {
        reused = fixture_mark(&db).await.ok().flatten().as_deref() == Some(mark.as_str());
    }
    let b = backend.name();
    let started = Instant::now();
    let fixture = Fixture::new(config.results, config.drives);
    let mut load = None;
    if !reused {
        println!("loading the fixture (once; later runs reuse it)");
        db.recreate().await?;
        let storage = ssdbase::open(&db.url).await?;
        drop(storage);
        load = Some(load_fixture(&db, &fixture, config.results, corpus, &mark).await?);
    }
    let load_seconds = started.elapsed().as_secs_f64();
    println!(
        "fixture: {} ({:.0} s)",
        if reused { "reused from an earlier run" } else { "loaded now" },
        load_seconds
    );
    let opening = Instant::now();
    let storage = ssdbase::storage::connect(&db.url).await?;
    let summary_seconds = opening.elapsed().as_secs_f64();
    println!("opened in {summary_seconds:.1} s (migrations, and the compare summary when it was missing)");
    let counts = fixture_counts(&db).await?;
    let bytes = db.bytes().await?;
    println!(
        "fixture holds {} results, {} metrics, {} catalogue drives; {:.1} GB, {:.0} bytes per result",
        counts.0,
        counts.1,
        counts.2,
        bytes as f64 / 1e9,
        bytes as f64 / counts.0 as f64
    );
    if let Some(t) = load {
        let per_million = |secs: f64| secs / config.results as f64 * 1e6 / 60.0;
        println!(
            "FIGURE {b} fixture load, {} results over {} drives: rows {:.0} s (the writer waited {:.0} s for \
             generated rows), indexes {:.0} s, summary {summary_seconds:.0} s; {:.2} min per million results in all \
             (rows {:.2}, indexes {:.2}, summary {:.2}); {:.0} bytes stored per result",
            config.results,
            fixture.drives.len(),
            t.rows,
            t.waiting,
            t.indexes,
            per_million(t.rows + t.indexes + summary_seconds),
            per_million(t.rows),
            per_million(t.indexes),
            per_million(summary_seconds),
            bytes as f64 / counts.0 as f64
        );
    }
    let refresher = storage.clone();
    let server = Server::start(storage).await?;
    let mut client = Client::connect(server.addr).await?;
    let mut rows = Vec::new();

    // Browse: a filter or two and a page, the way the site's result list asks.
    let popular = &fixture.drives[..3];
    let browse: Vec<String> = vec![
        format!("/api/v1/results?drive={}&data_pattern=random&limit=50", popular[0].id),
        "/api/v1/results?chipset=Z690&tool=crystaldiskmark&limit=50".to_string(),
        format!(
            "/api/v1/results?vendor={}&access=rnd&queue_depth=32&limit=50",
            urlencode(&popular[1].vendor)
        ),
        format!("/api/v1/results?drive={}&os={}&limit=50", fixture.drives[700].id, urlencode(OSES[1])),
    ];
    let (p50, p99) = latency(&mut client, &browse, config.queries).await?;
    println!("browse  (4 filter sets, 50 per page): p50 {p50:.2} ms, p99 {p99:.2} ms");
    rows.push(("browse".to_string(), p50, p99));

    let compare =
        vec![format!("/api/v1/compare?drives={},{},{}", popular[0].id, popular[1].id, popular[2].id)];
    let (p50, p99) = latency(&mut client, &compare, config.queries).await?;
    println!(
        "compare (3 most popular drives, {} + {} + {} results): p50 {p50:.2} ms, p99 {p99:.2} ms",
        fixture.popular_counts[0], fixture.popular_counts[1], fixture.popular_counts[2]
    );
    rows.push(("compare".to_string(), p50, p99));
    // The same as the site's compare page receives it: the answer's size is what a reader
    // downloads, and compressing it is part of its time.
    let mut browser = Client::browser(server.addr).await?;
    let (p50, p99, bytes) = get_latency(&mut browser, &compare[0], config.queries).await?;
    println!(
        "FIGURE {b} compare (3 most popular drives) as a browser asks ({BROWSER_ACCEPT_ENCODING}), {} results: p50 {p50:.2} ms, p99 {p99:.2} ms ({:.0} KB received)",
        counts.0,
        bytes as f64 / 1024.0
    );
    rows.push(("compare, compressed".to_string(), p50, p99));

    let typical = vec![format!(
        "/api/v1/compare?drives={},{},{}",
        fixture.drives[500].id, fixture.drives[900].id, fixture.drives[1500].id
    )];
    let (p50, p99) = latency(&mut client, &typical, config.queries).await?;
    println!("compare (3 catalogue drives of ordinary popularity): p50 {p50:.2} ms, p99 {p99:.2} ms");
    rows.push(("compare-ordinary".to_string(), p50, p99));

    // The catalogue at scale: index pages and leaderboards, then a mixed load.
    let scale = format!("{} drives, {} results", fixture.drives.len(), counts.0);
    for (what, p50, p99) in catalogue_latency(&mut client, b, &scale).await? {
        rows.push((what.to_string(), p50, p99));
    }
    let mut measured: Vec<String> = fixture.drives[..POPULAR].iter().map(|d| d.id.clone()).collect();
    let step = fixture.drives.len() / 70;
    measured.extend(fixture.drives.iter().skip(POPULAR).step_by(step).map(|d| d.id.clone()));
    let mut rng = Rng(0x313ed ^ counts.0 as u64);
    let submissions = config.mixed * MIXED_SUBMISSION_PERCENT / 100;
    let bodies = uploads(corpus, &fixture.drives, submissions, &mut rng, &mut HashSet::new())
        .into_iter()
        .map(|u| u.body)
        .collect();
    let timed = mixed_load(server.addr, &measured, LEADERBOARD_TEST, bodies, config.mixed).await?;
    for (route, p50, p99) in print_mixed(b, &scale, timed) {
        rows.push((format!("mixed: {route}"), p50, p99));
    }
    if config.run_effects {
        let storage = refresher.clone();
        // The factor effects, as `serve`'s background task builds them on a database that
        // has none (every drive once); a reused fixture has them from an earlier run.
        let building = Instant::now();
        let mut drives = 0;
        loop {
            let n = storage.refresh_effects(64).await?;
            if n == 0 {
                break;
            }
            drives += n;
        }
        let combining = Instant::now();
        let effects = storage.combine_effects().await?;
        println!(
            "factor effects: {drives} drives computed in {:.1} s, {effects} effects combined in {:.1} s (0: built by an earlier run)",
            (combining - building).as_secs_f64(),
            combining.elapsed().as_secs_f64()
        );
        // Factor effects: every factor, then one factor's, then the drives behind one effect.
        let everything = client.request(Method::GET, "/api/v1/effects", None).await?;
        let everything: serde_json::Value = serde_json::from_slice(&everything.1)?;
        let effects: Vec<&serde_json::Value> = everything["factors"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| f["effects"].as_array().into_iter().flatten())
            .collect();
        println!("effects: {} combined effects stored", effects.len());
        // What one submission costs the background task: its drive recomputed, the effects
        // it touched combined again.
        // Seeded by the fixture's size too: a reused fixture holds the previous run's upload.
        let mut rng = Rng(0xeffec7 ^ backend as u64 ^ counts.0 as u64);
        let one = uploads(corpus, &fixture.drives[500..501], 1, &mut rng, &mut HashSet::new());
        let (status, reply) =
            client.request(Method::POST, "/api/v1/results", Some(one[0].body.clone())).await?;
        ensure!(status == StatusCode::CREATED, "POST answered {status}: {}", String::from_utf8_lossy(&reply));
        let started = Instant::now();
        let n = refresher.refresh_effects(64).await?;
        let recomputed = started.elapsed().as_secs_f64();
        let combined = refresher.combine_effects().await?;
        println!(
            "factor effects after one submission: {n} drive recomputed in {recomputed:.2} s, {combined} effects combined in {:.2} s",
            started.elapsed().as_secs_f64() - recomputed
        );
        let mut asked = vec!["/api/v1/effects".to_string(), "/api/v1/effects?factor=os".to_string()];
        asked.extend(
            effects
                .iter()
                .max_by_key(|e| e["units"].as_u64())
                .and_then(|e| e["drives_url"].as_str())
                .map(String::from),
        );
        for path in asked {
            let (p50, p99) = latency(&mut client, std::slice::from_ref(&path), config.queries).await?;
            println!("{path}: p50 {p50:.2} ms, p99 {p99:.2} ms");
            rows.push((path, p50, p99));
        }
    }
    Ok(QueryReport { reused, load_seconds, rows })
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Sends each path in turn (after a warm-up) and returns p50 and p99 in milliseconds.
async fn latency(client: &mut Client, paths: &[String], n: usize) -> Result<(f64, f64)> {
    for p in paths.iter().cycle().take(paths.len() * 3) {
        let (status, body) = client.request(Method::GET, p, None).await?;
        ensure!(status == StatusCode::OK, "GET {p} answered {status}: {}", String::from_utf8_lossy(&body));
    }
    let mut times = Vec::with_capacity(n);
    for p in paths.iter().cycle().take(n) {
        let start = Instant::now();
        let (status, body) = client.request(Method::GET, p, None).await?;
        times.push(start.elapsed());
        ensure!(status == StatusCode::OK, "GET {p} answered {status}: {}", String::from_utf8_lossy(&body));
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    Ok((ms(at(0.50)), ms(at(0.99))))
}

/// The fixture's catalogue and how its results spread over it.
struct Fixture {
    /// The drive part's catalogue ([`drive_fixture`]); the first [`POPULAR`] are the
    /// popular drives.
    drives: Vec<DriveSku>,
    popular_counts: Vec<usize>,
    /// Cumulative weights over `drives` for picking a result's drive.
    cumulative: Vec<f64>,
}

const POPULAR: usize = 30;

/// The machines a drive was measured on: one to [`MACHINES`] per drive. Real drives are
/// benchmarked on a few machines each (their owners' and reviewers'), so a drive's
/// results fall into a few platform pools rather than one pool each.
const MACHINES: usize = 4;

impl Fixture {
    fn new(results: usize, drives: usize) -> Fixture {
        let drives = drive_fixture(drives);
        let n = drives.len();
        assert!(n > POPULAR * 10, "the fixture needs more than {} drives", POPULAR * 10);
        // Popular drives: from 0.6 % of the results down to 0.1 %, of 1,000,000 that is
        // 6,000 .. 1,000 results each; the rest spread evenly over the catalogue.
        let popular_share: Vec<f64> =
            (0..POPULAR).map(|i| 0.006 - 0.005 * i as f64 / (POPULAR - 1) as f64).collect();
        let rest = (1.0 - popular_share.iter().sum::<f64>()) / (n - POPULAR) as f64;
        let mut cumulative = Vec::with_capacity(n);
        let mut acc = 0.0;
        for i in 0..n {
            acc += popular_share.get(i).copied().unwrap_or(rest);
            cumulative.push(acc);
        }
        let popular_counts = popular_share.iter().map(|s| (s * results as f64).round() as usize).collect();
        Fixture { drives, popular_counts, cumulative }
    }

    fn pick_drive(&self, rng: &mut Rng) -> usize {
        let x = rng.range(0.0, *self.cumulative.last().unwrap());
        self.cumulative.partition_point(|&c| c <= x).min(self.drives.len() - 1)
    }

    /// One of drive `d`'s machines, at random: the same few platforms every time for a drive.
    fn machine(d: usize, rng: &mut Rng) -> Platform {
        let mut own = Rng(0x3ac41e ^ (d as u64).wrapping_mul(0x9e37_79b9));
        let machines = 1 + own.below(MACHINES);
        platform(&mut Rng(own.next() ^ rng.below(machines) as u64))
    }
}

async fn fixture_mark(db: &Db) -> Result<Option<String>> {
    let q = "SELECT value FROM app_meta WHERE key = 'bench_fixture'";
    Ok(match db.backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await?;
            let v = sqlx::query_scalar(q).fetch_optional(&pool).await?;
            pool.close().await;
            v
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await?;
            let v = sqlx::query_scalar(q).fetch_optional(&pool).await?;
            pool.close().await;
            v
        }
    })
}

async fn fixture_counts(db: &Db) -> Result<(i64, i64, i64)> {
    let q = "SELECT (SELECT COUNT(*) FROM results), (SELECT COUNT(*) FROM metrics), (SELECT COUNT(*) FROM drives)";
    Ok(match db.backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await?;
            let v = sqlx::query_as(q).fetch_one(&pool).await?;
            pool.close().await;
            v
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await?;
            let v = sqlx::query_as(q).fetch_one(&pool).await?;
            pool.close().await;
            v
        }
    })
}

/// Rows of one batch, ready to bind: the values `Storage::submit` would write.
#[derive(Default)]
struct Batch {
    submissions: Vec<Param>,
    results: Vec<Param>,
    metrics: Vec<Param>,
    n_results: usize,
    n_metrics: usize,
}

/// Results generated per batch, handed from the generating threads to the writer.
const BATCH: usize = 1000;

/// How long each stage of a fixture load took.
struct LoadTimes {
    /// Generating and writing the rows (the two overlap: threads generate while the
    /// writer writes).
    rows: f64,
    /// The writer waiting for generated batches.
    waiting: f64,
    /// Building the results tables' indexes after the rows.
    indexes: f64,
}

/// The results of batch `b` (ids and times follow from its place, so any thread can make
/// any batch): CrystalDiskMark and KDiskMark shapes of the corpus with their numbers
/// varied, each on one of its drive's machines, as `Storage::submit` would write them.
fn generate_batch(
    fixture: &Fixture,
    shapes: &[&BenchResult],
    b: usize,
    results: usize,
    (first_submission, first_result): (i64, i64),
) -> Result<Batch> {
    let mut rng = Rng(0x1_000_000 ^ (b as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let created_base = 1_600_000_000i64;
    let mut batch = Batch::default();
    for i in b * BATCH..((b + 1) * BATCH).min(results) {
        let d = fixture.pick_drive(&mut rng);
        let sku = &fixture.drives[d];
        let mut result = shapes[rng.below(shapes.len())].clone();
        let nvme = matches!(sku.interface, Some(Link::Pcie { .. }));
        let speed = rng.range(0.7, 1.3) * if nvme { 3.0 } else { 1.0 };
        for m in &mut result.metrics {
            let f = speed * rng.range(0.95, 1.05);
            m.mbps = m.mbps.map(|v| (v * f * 1000.0).round() / 1000.0);
            m.iops = m.iops.map(|v| (v * f * 10.0).round() / 10.0);
            m.latency_us = m.latency_us.map(|v| (v / f * 100.0).round() / 100.0);
        }
        result.data_pattern = Some(match rng.below(10) {
            0 => DataPattern::ZeroFill,
            1 => DataPattern::OneFill,
            _ => DataPattern::Random,
        });
        let mut tags = Tags { platform: Fixture::machine(d, &mut rng), ..Tags::default() };
        tags.drive.sku = Some(sku.id.clone());
        ingest::complete_tags(&mut tags, Some(sku));
        let tagged = bench::TaggedResult { result, tags, source: None };
        let body = serde_json::to_vec(&tagged)?;
        let bench::TaggedResult { result, tags, .. } = tagged;
        let created_at = created_base + i as i64 * 60;
        let sub = NewSubmission {
            content_hash: ingest::sha256_hex(&body),
            body,
            format: Some("json".into()),
            edit_token_hash: ingest::sha256_hex(&(i as u64 ^ 0xfeed).to_le_bytes()),
            client: Some(format!("10.0.{}.{}", i % 250, i / 250 % 250)),
            provenance: None,
            runner: None,
            created_at,
            results: vec![NewResult {
                flags: ingest::flags_for(&result, &tags, Some(sku)),
                result,
                tags,
                source: None,
                new_drive: None,
                result_json: None,
            }],
        };
        let (submission_id, result_id) = (first_submission + i as i64, first_result + i as i64);
        batch.submissions.push(Param::Int(Some(submission_id)));
        batch.submissions.extend(sql::submission_params(&sub));
        let r = &sub.results[0];
        batch.results.push(Param::Int(Some(result_id)));
        batch.results.extend(sql::result_params(r, submission_id, 0, created_at));
        sql::metric_params(result_id, &r.result, &mut batch.metrics);
        batch.n_results += 1;
        batch.n_metrics += r.result.metrics.len();
    }
    Ok(batch)
}

/// Loads `results` results over the fixture's catalogue in bulk: the catalogue, then the
/// rows (generated by one thread per core, written in order by one connection: SQLite
/// multi-row INSERTs in big transactions, PostgreSQL `COPY`), with the results tables'
/// secondary indexes dropped before and built after.
async fn load_fixture(
    db: &Db,
    fixture: &Fixture,
    results: usize,
    corpus: &Corpus,
    mark: &str,
) -> Result<LoadTimes> {
    // Results of 6 to 12 metrics: CrystalDiskMark and KDiskMark runs.
    let shapes: Vec<&BenchResult> = corpus
        .templates
        .iter()
        .flat_map(|t| &t.results)
        .filter(|r| (6..=12).contains(&r.metrics.len()))
        .collect();
    ensure!(shapes.len() >= 5, "too few corpus results with 6-12 metrics");
    let mut loader = Loader::open(db).await?;
    for chunk in fixture.drives.chunks(10_000) {
        loader.insert_drives(chunk).await?;
        loader.insert_drive_keys(chunk).await?;
    }
    let deferred = loader.drop_indexes(&["submissions", "results", "metrics"]).await?;
    let ids = loader.next_ids().await?;
    let started = Instant::now();
    let batches = results.div_ceil(BATCH);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(batches.max(1));
    let mut waiting = Duration::ZERO;
    let written = tokio::task::block_in_place(|| {
        std::thread::scope(|scope| {
            let mut receivers = Vec::new();
            for k in 0..threads {
                let (tx, rx) = std::sync::mpsc::sync_channel(2);
                receivers.push(rx);
                let shapes = &shapes;
                scope.spawn(move || {
                    for b in (k..batches).step_by(threads) {
                        if tx.send(generate_batch(fixture, shapes, b, results, ids)).is_err() {
                            break; // the writer stopped on an error
                        }
                    }
                });
            }
            tokio::runtime::Handle::current().block_on(async {
                for b in 0..batches {
                    let wait = Instant::now();
                    let batch = receivers[b % threads].recv().context("a generating thread stopped")??;
                    waiting += wait.elapsed();
                    loader.write(batch).await?;
                    if ((b + 1) * BATCH) % 200_000 < BATCH {
                        let done = ((b + 1) * BATCH).min(results);
                        eprintln!(
                            "  {done} results loaded, {:.0}/s",
                            done as f64 / started.elapsed().as_secs_f64()
                        );
                    }
                }
                Ok::<_, anyhow::Error>(())
            })
        })
    });
    written?;
    let rows = started.elapsed().as_secs_f64();
    let indexing = Instant::now();
    loader.create_indexes(&deferred).await?;
    let indexes = indexing.elapsed().as_secs_f64();
    loader.finish(mark).await?;
    Ok(LoadTimes { rows, waiting: waiting.as_secs_f64(), indexes })
}

/// Bulk writer: one connection, big transactions, multi-row INSERTs with explicit ids.
enum Loader {
    Sqlite(sqlx::SqliteConnection, usize),
    Postgres(sqlx::PgConnection, usize),
}

fn insert_sql(table: &str, columns: &[&str], with_id: bool, rows: usize, pg: bool) -> String {
    let mut cols: Vec<&str> = Vec::new();
    if with_id {
        cols.push("id");
    }
    cols.extend(columns);
    let overriding = if pg && with_id { " OVERRIDING SYSTEM VALUE" } else { "" };
    format!(
        "INSERT INTO {table} ({}){overriding} VALUES {}",
        cols.join(", "),
        sql::value_rows(0, cols.len(), rows)
    )
}

impl Loader {
    async fn open(db: &Db) -> Result<Loader> {
        use sqlx::Connection;
        Ok(match db.backend {
            Backend::Sqlite => {
                let mut c = sqlx::SqliteConnection::connect(&db.url).await?;
                // A fixture that a crash could corrupt is simply loaded again.
                sqlx::query("PRAGMA synchronous = OFF").execute(&mut c).await?;
                sqlx::query("PRAGMA cache_size = -262144").execute(&mut c).await?;
                sqlx::query("BEGIN").execute(&mut c).await?;
                Loader::Sqlite(c, 0)
            }
            Backend::Postgres => {
                let mut c = sqlx::PgConnection::connect(&db.url).await?;
                sqlx::query("SET synchronous_commit = off").execute(&mut c).await?;
                sqlx::query("BEGIN").execute(&mut c).await?;
                Loader::Postgres(c, 0)
            }
        })
    }

    async fn exec(&mut self, sql_text: &str, params: Vec<Param>) -> Result<()> {
        match self {
            Loader::Sqlite(c, _) => {
                let q = params.into_iter().fold(sqlx::query(sql_text), |q, p| match p {
                    Param::Text(v) => q.bind(v),
                    Param::Int(v) => q.bind(v),
                    Param::Float(v) => q.bind(v),
                    Param::Bytes(v) => q.bind(v),
                });
                // Kept prepared: the rows' statements repeat one text per table (all but
                // a last, shorter one); preparing each anew held the load to 3,400
                // results/s against 5,500.
                q.persistent(true).execute(&mut *c).await?;
            }
            Loader::Postgres(c, _) => {
                let q = params.into_iter().fold(sqlx::query(sql_text), |q, p| match p {
                    Param::Text(v) => q.bind(v),
                    Param::Int(v) => q.bind(v),
                    Param::Float(v) => q.bind(v),
                    Param::Bytes(v) => q.bind(v),
                });
                q.persistent(false).execute(&mut *c).await?;
            }
        }
        Ok(())
    }

    fn pg(&self) -> bool {
        matches!(self, Loader::Postgres(..))
    }

    /// Inserts rows of `columns` (after an `id` when `with_id`), `params` row after row,
    /// in statements of as many rows as the backend takes well: PostgreSQL up to its
    /// limit, SQLite about `sql::SQLITE_INSERT_PARAMS` (its cost per statement grows with
    /// the square of its `$N` parameters).
    async fn insert_rows(
        &mut self,
        table: &str,
        columns: &[&str],
        with_id: bool,
        params: Vec<Param>,
    ) -> Result<()> {
        let pg = self.pg();
        let per_row = columns.len() + usize::from(with_id);
        let budget = if pg { sql::MAX_PARAMS } else { sql::SQLITE_INSERT_PARAMS };
        let rows_per_insert = (budget / per_row).max(1);
        debug_assert_eq!(params.len() % per_row, 0);
        let mut params = params.into_iter().peekable();
        while params.peek().is_some() {
            let chunk: Vec<Param> = params.by_ref().take(rows_per_insert * per_row).collect();
            let rows = chunk.len() / per_row;
            self.exec(&insert_sql(table, columns, with_id, rows, pg), chunk).await?;
        }
        Ok(())
    }

    /// Inserts drives as `sql::INSERT_DRIVE` does (its columns and `sql::drive_params`,
    /// `reviewed` written `$N = 1` there too), without their keys.
    async fn insert_drives(&mut self, drives: &[DriveSku]) -> Result<()> {
        const COLUMNS: &str = "(id, vendor, model, part_number, capacity_gb, controller, spec, reviewed, \
             filter_vendor, filter_link, filter_link_kind, filter_controller, filter_nand)";
        assert!(
            sql::INSERT_DRIVE.contains(COLUMNS),
            "INSERT_DRIVE changed its columns: {}",
            sql::INSERT_DRIVE
        );
        let per_row = 13;
        let budget = if self.pg() { sql::MAX_PARAMS } else { sql::SQLITE_INSERT_PARAMS };
        for chunk in drives.chunks((budget / per_row).max(1)) {
            let params: Vec<Param> = chunk.iter().flat_map(sql::drive_params).collect();
            assert_eq!(params.len(), chunk.len() * per_row, "sql::drive_params changed");
            let rows: Vec<String> = (0..chunk.len())
                .map(|r| {
                    let n = r * per_row;
                    // The 8th, `reviewed`, as INSERT_DRIVE writes it.
                    let cols: Vec<String> = (1..=per_row)
                        .map(|c| if c == 8 { format!("${} = 1", n + c) } else { format!("${}", n + c) })
                        .collect();
                    format!("({})", cols.join(", "))
                })
                .collect();
            self.exec(&format!("INSERT INTO drives {COLUMNS} VALUES {}", rows.join(", ")), params).await?;
        }
        Ok(())
    }

    /// Inserts every key of `drives` (`sql::drive_key_rows`, as the store writes them)
    /// into `drive_aliases`, and their search rows and vocabulary (`storage::search`, as
    /// the store writes them: on SQLite the FTS5 index follows by trigger); returns how
    /// many keys.
    async fn insert_drive_keys(&mut self, drives: &[DriveSku]) -> Result<usize> {
        let params: Vec<Param> = drives.iter().flat_map(sql::drive_key_rows).flatten().collect();
        let n = params.len() / sql::DRIVE_KEY_COLUMNS.len();
        self.insert_rows("drive_aliases", sql::DRIVE_KEY_COLUMNS, false, params).await?;
        let mut words = std::collections::BTreeSet::new();
        let mut rows = Vec::new();
        for d in drives {
            let body = bench::identity::search_text(d);
            words.extend(bench::identity::vocabulary(&body).map(str::to_string));
            if self.pg() {
                rows.extend([Param::Text(Some(d.id.clone())), Param::Text(Some(body))]);
            } else {
                // Row by row, as the store writes it: each row's rank and serial come
                // from its drive and the rows before it.
                let params = vec![Param::Text(Some(d.id.clone())), Param::Text(Some(body))];
                self.exec(ssdbase::storage::search::SQLITE_UPSERT, params).await?;
            }
        }
        if self.pg() {
            self.insert_rows("drive_search", &["drive_id", "body"], false, rows).await?;
        }
        for chunk in words.into_iter().collect::<Vec<_>>().chunks(sql::SQLITE_INSERT_PARAMS) {
            let params: Vec<Param> = chunk.iter().map(|w| Param::Text(Some(w.clone()))).collect();
            let values: Vec<String> = (1..=params.len()).map(|i| format!("(${i})")).collect();
            let text = format!(
                "INSERT INTO drive_search_words (word) VALUES {} ON CONFLICT DO NOTHING",
                values.join(", ")
            );
            self.exec(&text, params).await?;
        }
        Ok(n)
    }

    async fn commit_and_begin(&mut self) -> Result<()> {
        self.exec("COMMIT", vec![]).await?;
        self.exec("BEGIN", vec![]).await
    }

    async fn next_ids(&mut self) -> Result<(i64, i64)> {
        let q = "SELECT COALESCE((SELECT MAX(id) FROM submissions), 0) + 1, COALESCE((SELECT MAX(id) FROM results), 0) + 1";
        Ok(match self {
            Loader::Sqlite(c, _) => sqlx::query_as(q).fetch_one(&mut *c).await?,
            Loader::Postgres(c, _) => sqlx::query_as(q).fetch_one(&mut *c).await?,
        })
    }

    /// Writes a batch: SQLite multi-row INSERTs, PostgreSQL `COPY` (text format).
    async fn write(&mut self, b: Batch) -> Result<()> {
        let sub_cols = sql::SUBMISSION_COLUMNS.len() + 1;
        let res_cols = sql::RESULT_COLUMNS.len() + 1;
        debug_assert_eq!(b.submissions.len(), b.n_results * sub_cols);
        debug_assert_eq!(b.results.len(), b.n_results * res_cols);
        debug_assert_eq!(b.metrics.len(), b.n_metrics * sql::METRIC_COLUMNS.len());
        if self.pg() {
            self.copy("submissions", sql::SUBMISSION_COLUMNS, true, &b.submissions).await?;
            self.copy("results", &sql::RESULT_COLUMNS, true, &b.results).await?;
            self.copy("metrics", sql::METRIC_COLUMNS, false, &b.metrics).await?;
        } else {
            self.insert_rows("submissions", sql::SUBMISSION_COLUMNS, true, b.submissions).await?;
            self.insert_rows("results", &sql::RESULT_COLUMNS, true, b.results).await?;
            self.insert_rows("metrics", sql::METRIC_COLUMNS, false, b.metrics).await?;
        }
        // Commit every ~50,000 results: big transactions, bounded WAL.
        let written = match self {
            Loader::Sqlite(_, n) | Loader::Postgres(_, n) => {
                *n += b.n_results;
                *n
            }
        };
        if written % 50_000 < b.n_results {
            self.commit_and_begin().await?;
        }
        Ok(())
    }

    /// PostgreSQL: `params`, row after row, into `columns` (after an `id` when `with_id`)
    /// of `table` by one `COPY ... FROM STDIN`.
    async fn copy(&mut self, table: &str, columns: &[&str], with_id: bool, params: &[Param]) -> Result<()> {
        let Loader::Postgres(c, _) = self else { bail!("COPY is PostgreSQL's") };
        let mut cols: Vec<&str> = Vec::new();
        if with_id {
            cols.push("id");
        }
        cols.extend(columns);
        let mut data = Vec::with_capacity(params.len() * 16);
        for row in params.chunks(cols.len()) {
            for (i, p) in row.iter().enumerate() {
                if i > 0 {
                    data.push(b'\t');
                }
                copy_text(p, &mut data);
            }
            data.push(b'\n');
        }
        let mut copy = c.copy_in_raw(&format!("COPY {table} ({}) FROM STDIN", cols.join(", "))).await?;
        copy.send(data).await?;
        copy.finish().await?;
        Ok(())
    }

    /// Drops the secondary indexes of `tables` (not those behind a key or a unique
    /// constraint) and returns the statements that build them again.
    async fn drop_indexes(&mut self, tables: &[&str]) -> Result<Vec<String>> {
        let list = tables.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", ");
        let found: Vec<(String, String)> = match self {
            Loader::Sqlite(c, _) => {
                sqlx::query_as(&format!(
                    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL \
                     AND tbl_name IN ({list})"
                ))
                .fetch_all(&mut *c)
                .await?
            }
            Loader::Postgres(c, _) => {
                sqlx::query_as(&format!(
                    "SELECT indexname::text, indexdef FROM pg_indexes i WHERE schemaname = current_schema() \
                     AND tablename IN ({list}) AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)"
                ))
                .fetch_all(&mut *c)
                .await?
            }
        };
        for (name, _) in &found {
            self.exec(&format!("DROP INDEX {name}"), vec![]).await?;
        }
        Ok(found.into_iter().map(|(_, create)| create).collect())
    }

    /// Builds the indexes [`Loader::drop_indexes`] dropped.
    async fn create_indexes(&mut self, statements: &[String]) -> Result<()> {
        if self.pg() {
            self.exec("SET maintenance_work_mem = '1GB'", vec![]).await?;
        }
        for create in statements {
            self.exec(create, vec![]).await?;
        }
        self.commit_and_begin().await
    }

    async fn finish(mut self, mark: &str) -> Result<()> {
        if self.pg() {
            for table in ["submissions", "results", "metrics"] {
                self.exec(
                    &format!("SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"),
                    vec![],
                )
                .await?;
            }
        }
        let set_mark = if self.pg() {
            "INSERT INTO app_meta (key, value) VALUES ('bench_fixture', $1) ON CONFLICT (key) DO UPDATE SET value = $1"
        } else {
            "INSERT INTO app_meta (key, value) VALUES ('bench_fixture', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1"
        };
        self.exec(set_mark, vec![Param::Text(Some(mark.to_string()))]).await?;
        // The rows went around Storage::submit, so the derived compare summary is stale:
        // drop it and its mark, and the next open rebuilds it (storage::summary).
        self.exec("DELETE FROM test_samples", vec![]).await?;
        self.exec("DELETE FROM app_meta WHERE key = 'test_samples'", vec![]).await?;
        self.exec("COMMIT", vec![]).await?;
        match self {
            Loader::Sqlite(mut c, _) => {
                // Statistics of the tables the fixture filled only: SQLite never updates
                // them by itself, and statistics taken of the results tables while still
                // empty (the drive fixture's) steered the later submissions' statements
                // to plans for empty tables (id-given submissions ran 15-30 % slower than
                // on the seed catalogue's database, which has no statistics at all).
                if mark.starts_with("drives:") {
                    sqlx::query("ANALYZE drives").execute(&mut c).await?;
                    sqlx::query("ANALYZE drive_aliases").execute(&mut c).await?;
                } else {
                    sqlx::query("ANALYZE").execute(&mut c).await?;
                }
                sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&mut c).await?;
            }
            Loader::Postgres(mut c, _) if mark.starts_with("drives:") => {
                // As on SQLite: the tables the fixture filled, not the empty results ones.
                sqlx::query("VACUUM ANALYZE drives, drive_aliases").execute(&mut c).await?;
            }
            Loader::Postgres(mut c, _) => {
                sqlx::query("VACUUM ANALYZE").execute(&mut c).await?;
            }
        }
        Ok(())
    }
}

/// A value in `COPY`'s text format: `\N` for NULL, backslash escapes for text, `\x` and
/// hex digits for bytes.
fn copy_text(p: &Param, out: &mut Vec<u8>) {
    match p {
        Param::Text(None) | Param::Int(None) | Param::Float(None) | Param::Bytes(None) => {
            out.extend_from_slice(b"\\N")
        }
        Param::Text(Some(t)) => {
            for &b in t.as_bytes() {
                match b {
                    b'\\' => out.extend_from_slice(b"\\\\"),
                    b'\t' => out.extend_from_slice(b"\\t"),
                    b'\n' => out.extend_from_slice(b"\\n"),
                    b'\r' => out.extend_from_slice(b"\\r"),
                    _ => out.push(b),
                }
            }
        }
        Param::Int(Some(i)) => out.extend_from_slice(i.to_string().as_bytes()),
        Param::Float(Some(f)) if f.is_nan() => out.extend_from_slice(b"NaN"),
        Param::Float(Some(f)) if f.is_infinite() => {
            out.extend_from_slice(if *f > 0.0 { b"Infinity" } else { b"-Infinity" })
        }
        Param::Float(Some(f)) => out.extend_from_slice(f.to_string().as_bytes()),
        Param::Bytes(Some(v)) => {
            // The text format's bytea escape, itself escaped: `\\x` then hex digits.
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\\\x");
            for &b in v {
                out.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Drive identity at scale: 100,000 drives known under about 1,000,000 keys
// ---------------------------------------------------------------------------------------

/// The drive fixture's vendors as people write them (each one `bench::identity` knows),
/// their share of the drives, how their part numbers start and their model lines' names.
const DRIVE_VENDORS: &[(&str, usize, &str, &[&str])] = &[
    ("Samsung", 16, "MZ-V", &["EVO", "PRO", "EVO Plus", "QVO", "PM"]),
    ("Western Digital", 10, "WDS", &["Blue SN", "Black SN", "Green SN", "Red SA"]),
    ("Crucial", 9, "CT", &["P", "T", "MX", "BX"]),
    ("Kingston", 9, "SKC", &["NV", "KC", "A", "Fury Renegade"]),
    ("SK hynix", 6, "SHGP", &["Platinum P", "Gold P", "Gold S"]),
    ("Seagate", 5, "ZP", &["FireCuda", "BarraCuda", "IronWolf"]),
    ("Sabrent", 4, "SB-RKT", &["Rocket", "Rocket Q", "Rocket Nano"]),
    ("Intel", 4, "SSDPEK", &["Optane", "DC P", "Pro"]),
    ("Corsair", 4, "CSSD-F", &["MP", "Force MP"]),
    ("ADATA", 4, "ASX", &["XPG SX", "Legend", "SU"]),
    ("Lexar", 3, "LNM", &["NM", "NQ"]),
    ("Kioxia", 3, "LRC", &["Exceria", "XG"]),
    ("Solidigm", 2, "SSDPFK", &["P"]),
    ("Teamgroup", 2, "TM8FP", &["MP", "Cardea Z"]),
    ("Silicon Power", 2, "SP0", &["UD", "A"]),
    ("Patriot", 2, "VP4", &["Viper VP", "P"]),
    ("Transcend", 2, "TS", &["MTE", "ESD"]),
    ("PNY", 2, "M280CS", &["CS", "XLR8 CS"]),
    ("Micron", 2, "MTFDKBA", &["M", "MX"]),
    ("Toshiba", 2, "THNSN", &["XG", "BG"]),
    ("Plextor", 1, "PX-", &["M8V", "M9P"]),
    ("Netac", 2, "NT01N", &["NV", "N"]),
    ("Fanxiang", 2, "FX", &["S", "S Pro"]),
    ("Gigabyte", 2, "GP-AG", &["Aorus Gen", "GP"]),
    ("MSI", 1, "S78-44", &["Spatium M"]),
    ("Hikvision", 1, "HS-SSD-", &["E", "C"]),
    ("Apacer", 1, "AP", &["AS", "PP"]),
    ("Lite-On", 1, "LO-", &["CA", "MU"]),
];

const DRIVE_CAPACITIES: &[u32] =
    &[120, 128, 240, 250, 256, 480, 500, 512, 960, 1000, 1024, 1920, 2000, 4000, 8000];

/// A capacity as drive names write it: 500GB, 2TB, 1.92TB.
fn capacity_written(gb: u32) -> String {
    match gb {
        1920 => "1.92TB".into(),
        gb if gb >= 1000 && gb % 1000 == 0 => format!("{}TB", gb / 1000),
        gb => format!("{gb}GB"),
    }
}

/// `n` generated drives: model lines of 3 to 6 capacities each, spread over
/// [`DRIVE_VENDORS`] by their shares (Samsung the biggest); one in five a community
/// drive. Each has a part number and three aliases: the model string an operating
/// system reports (`SAMSUNG SSD EVO 137 500GB`), the part number with a revision
/// suffix, and an OEM name (`CFD CSSD-…`), so that `keys_of` gives it about ten keys.
fn drive_fixture(n: usize) -> Vec<DriveSku> {
    let weights: usize = DRIVE_VENDORS.iter().map(|v| v.1).sum();
    let mut lines_of = vec![0usize; DRIVE_VENDORS.len()];
    let mut rng = Rng(0xd21e5);
    let mut drives = Vec::with_capacity(n);
    let mut line = 0usize;
    while drives.len() < n {
        // Vendors in turn by their weights: line k goes to the vendor whose share of the
        // weight sum k falls in.
        let mut at = line % weights;
        let v = DRIVE_VENDORS
            .iter()
            .position(|d| {
                at < d.1 || {
                    at -= d.1;
                    false
                }
            })
            .unwrap();
        line += 1;
        let (vendor, _, part_prefix, series) = DRIVE_VENDORS[v];
        let j = lines_of[v];
        lines_of[v] += 1;
        let model = format!("{} {}", series[j % series.len()], 100 + j);
        let first = rng.below(DRIVE_CAPACITIES.len() - 2);
        let count = 3 + rng.below(4);
        for &gb in DRIVE_CAPACITIES.iter().skip(first).take(count) {
            if drives.len() == n {
                break;
            }
            let i = drives.len();
            let part = format!(
                "{part_prefix}{gb}{}{j:04}{}",
                (b'A' + (v % 26) as u8) as char,
                ["B", "W", "Z"][i % 3]
            );
            let os_vendor = match vendor {
                "Western Digital" => "WDC".to_string(),
                v => v.to_uppercase(),
            };
            let aliases = vec![
                format!("{os_vendor} SSD {} {}", model.to_uppercase(), capacity_written(gb)),
                format!("{part}-{}", ["1G1", "2B0", "0E3"][i % 3]),
                format!("{} CSSD-S6M{gb}NM{j:04X}{}", ["CFD", "HP"][i % 2], (b'Q' + (v % 8) as u8) as char),
            ];
            let nvme = gb != 120 && gb != 240 && i % 4 != 0;
            drives.push(DriveSku {
                id: bench::identity::slug(&format!("{vendor} {model} {gb}gb")),
                vendor: vendor.into(),
                model: model.clone(),
                part_number: Some(part),
                capacity_gb: gb,
                interface: Some(if nvme {
                    Link::Pcie { gen: 3 + (i % 3) as u8, lanes: 4 }
                } else {
                    Link::Sata { gbps: 6.0 }
                }),
                controller: Default::default(),
                nand: Default::default(),
                dram_mb: None,
                form_factor: None,
                firmware: Vec::new(),
                aliases,
                reviewed: i % 5 != 0,
                rated: RatedSpec {
                    seq_read_mbps: Some(if nvme { 3500.0 } else { 550.0 }),
                    seq_write_mbps: Some(if nvme { 3000.0 } else { 500.0 }),
                    ..Default::default()
                },
            });
        }
    }
    drives
}

/// Loads the drives and their keys in bulk (multi-row inserts, a transaction per 10,000
/// drives); returns how many keys.
async fn load_drive_fixture(db: &Db, drives: &[DriveSku], mark: &str) -> Result<usize> {
    let mut loader = Loader::open(db).await?;
    let mut keys = 0;
    for chunk in drives.chunks(10_000) {
        loader.insert_drives(chunk).await?;
        keys += loader.insert_drive_keys(chunk).await?;
        loader.commit_and_begin().await?;
    }
    loader.finish(mark).await?;
    Ok(keys)
}

/// (name, value) rows of a two-column query.
async fn counted(db: &Db, q: &str) -> Result<Vec<(String, i64)>> {
    Ok(match db.backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await?;
            let v = sqlx::query_as(q).fetch_all(&pool).await?;
            pool.close().await;
            v
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await?;
            let v = sqlx::query_as(q).fetch_all(&pool).await?;
            pool.close().await;
            v
        }
    })
}

/// The search mix: (kind, query). Prefixes of 2 to 12 characters of vendor and model as
/// people type them, model lines alone, part numbers whole and begun, operating system
/// model strings, queries that match nothing, and very common prefixes.
fn search_queries(drives: &[DriveSku]) -> Vec<(&'static str, String)> {
    let mut rng = Rng(0x5ea7c4);
    let mut pick = || &drives[rng.below(drives.len())];
    let mut out = Vec::new();
    for k in 0..22 {
        let d = pick();
        let text = format!("{} {}", d.vendor, d.model);
        out.push(("vendor+model", text.chars().take(2 + k % 11).collect()));
    }
    for k in 0..8 {
        let d = pick();
        out.push(("model", d.model.chars().take(3 + k).collect()));
    }
    for k in 0..8 {
        let d = pick();
        let p = d.part_number.clone().unwrap();
        out.push(("part number", if k % 2 == 0 { p } else { p.chars().take(6).collect() }));
    }
    for _ in 0..4 {
        out.push(("model string", pick().aliases[0].clone()));
    }
    out.push(("no match", "Quantum Fireball".into()));
    out.push(("no match", "zzq 9999".into()));
    for q in ["Samsung", "sa", "Western Digital", "Samsung EVO"] {
        out.push(("common prefix", q.into()));
    }
    // A word of the model line alone ("137"), a part number typed with spaces, and one
    // typo in the model's series word.
    for _ in 0..4 {
        let d = pick();
        out.push(("line number", d.model.split(' ').next_back().unwrap().into()));
    }
    for _ in 0..4 {
        let p = pick().part_number.clone().unwrap();
        let (a, b) = p.split_at(p.len() / 2);
        out.push(("part spaced", format!("{a} {b}")));
    }
    for _ in 0..4 {
        let d = pick();
        let (series, number) = d.model.rsplit_once(' ').unwrap();
        let typo: String = series.chars().enumerate().filter(|(i, _)| *i != 1).map(|(_, c)| c).collect();
        out.push(("one typo", format!("{} {typo} {number}", d.vendor)));
    }
    out
}

/// Times each query in turn after a warm-up; per kind and overall (p50, p99) in ms, and
/// how many drives each query found (from the warm-up).
async fn search_latency(
    client: &mut Client,
    queries: &[(&'static str, String)],
    n: usize,
) -> Result<(Vec<(&'static str, f64, f64)>, Vec<usize>)> {
    let path = |q: &str| format!("/api/v1/drives/search?q={}", urlencode(q));
    let mut found = Vec::new();
    for (_, q) in queries {
        let (status, body) = client.request(Method::GET, &path(q), None).await?;
        ensure!(
            status == StatusCode::OK,
            "search {q:?} answered {status}: {}",
            String::from_utf8_lossy(&body)
        );
        let v: serde_json::Value = serde_json::from_slice(&body)?;
        found.push(v["drives"].as_array().map_or(0, Vec::len));
    }
    let mut times: Vec<(&'static str, Duration)> = Vec::with_capacity(n);
    for (kind, q) in queries.iter().cycle().take(n.max(queries.len())) {
        let p = path(q);
        let start = Instant::now();
        let (status, body) = client.request(Method::GET, &p, None).await?;
        times.push((kind, start.elapsed()));
        ensure!(status == StatusCode::OK, "GET {p} answered {status}: {}", String::from_utf8_lossy(&body));
    }
    let mut kinds: Vec<&'static str> = queries.iter().map(|(k, _)| *k).collect();
    kinds.dedup();
    let mut rows = vec![("all", percentiles(times.iter().map(|t| t.1).collect()))];
    for k in kinds {
        rows.push((k, percentiles(times.iter().filter(|t| t.0 == k).map(|t| t.1).collect())));
    }
    Ok((rows.into_iter().map(|(k, (p50, p99))| (k, p50, p99)).collect(), found))
}

/// p50 and p99 in milliseconds of `n` GETs of `path`, and the answer's size.
async fn get_latency(client: &mut Client, path: &str, n: usize) -> Result<(f64, f64, usize)> {
    let mut times = Vec::with_capacity(n);
    let mut size = 0;
    for _ in 0..n {
        let start = Instant::now();
        let (status, body) = client.request(Method::GET, path, None).await?;
        times.push(start.elapsed());
        ensure!(status == StatusCode::OK, "GET {path} answered {status}: {}", String::from_utf8_lossy(&body));
        size = body.len();
    }
    let (p50, p99) = percentiles(times);
    Ok((p50, p99, size))
}

/// p50 and p99 in milliseconds.
fn percentiles(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    (at(0.50).as_secs_f64() * 1e3, at(0.99).as_secs_f64() * 1e3)
}

/// How a submission names its drive in the throughput runs.
#[derive(Clone, Copy)]
enum Naming {
    /// `tags.drive.sku`: no identity lookup (the ingest part's uploads).
    Id,
    /// Vendor, model and capacity (35 %), a model string (30 %), a part number (20 %), or
    /// a drive nobody has named yet, which becomes a community drive (15 %).
    Identity,
}

/// `n` distinct upload bodies naming drives of `drives` as `naming` says.
fn named_uploads(
    corpus: &Corpus,
    drives: &[DriveSku],
    naming: Naming,
    n: usize,
    rng: &mut Rng,
    seen: &mut HashSet<String>,
    novel: &mut usize,
) -> Vec<Bytes> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let t = &corpus.templates[rng.below(corpus.templates.len())];
        let text = vary_text(&t.text, rng.range(0.6, 1.4));
        if !seen.insert(ingest::sha256_hex(text.as_bytes())) {
            continue;
        }
        let d = &drives[rng.below(drives.len())];
        let tags =
            Tags { platform: platform(rng), drive: drive_tag(d, naming, rng, novel), ..Tags::default() };
        out.push(Bytes::from(serde_json::to_vec(&json!({ "text": text, "tags": tags })).expect("json")));
    }
    out
}

/// How an upload names drive `d` (see [`Naming`]).
fn drive_tag(d: &DriveSku, naming: Naming, rng: &mut Rng, novel: &mut usize) -> bench::DriveTag {
    let mut drive = bench::DriveTag::default();
    // `SSDBASE_BENCH_NEW_DRIVES`: the percentage of new drives instead of 15 (the rest
    // keep their proportions).
    let new_share = std::env::var("SSDBASE_BENCH_NEW_DRIVES").ok().and_then(|v| v.parse::<usize>().ok());
    let roll = match new_share {
        Some(p) if rng.below(100) < p.min(100) => 99,
        Some(_) => rng.below(85),
        None => rng.below(100),
    };
    match (naming, roll) {
        (Naming::Id, _) => drive.sku = Some(d.id.clone()),
        (Naming::Identity, 35..65) => {
            drive.model = Some(format!("{} {} {}", d.vendor, d.model, capacity_written(d.capacity_gb)))
        }
        (Naming::Identity, 65..85) if d.part_number.is_some() => drive.part_number = d.part_number.clone(),
        (Naming::Identity, 0..85) => {
            drive.vendor = Some(d.vendor.clone());
            drive.model = Some(d.model.clone());
            drive.capacity_gb = Some(d.capacity_gb);
        }
        (Naming::Identity, _) => {
            *novel += 1;
            drive.vendor = Some(DRIVE_VENDORS[*novel % DRIVE_VENDORS.len()].0.into());
            drive.model = Some(format!("Novel {}", *novel));
            drive.capacity_gb = Some(DRIVE_CAPACITIES[*novel % DRIVE_CAPACITIES.len()]);
        }
    }
    drive
}

/// `ingest::Catalogue::identify` alone, as a submission runs it (a new catalogue each
/// time), on `n` drive tags naming drives of `drives`: p50, p99 and mean in ms.
async fn identify_latency(
    storage: &DynStorage,
    drives: &[DriveSku],
    n: usize,
    seed: u64,
) -> Result<(f64, f64, f64)> {
    let mut rng = Rng(seed);
    let mut novel = 1_000_000;
    let tags: Vec<bench::DriveTag> = (0..n)
        .map(|_| drive_tag(&drives[rng.below(drives.len())], Naming::Identity, &mut rng, &mut novel))
        .collect();
    let mut times = Vec::with_capacity(n);
    for tag in &tags {
        let start = Instant::now();
        match ingest::Catalogue::stored(&**storage).identify(tag).await {
            Ok(_) => {}
            Err(e) => bail!("identify {tag:?}: {:?}", e.into_item()),
        }
        times.push(start.elapsed());
    }
    let mean = times.iter().sum::<Duration>().as_secs_f64() * 1e3 / n as f64;
    let (p50, p99) = percentiles(times);
    Ok((p50, p99, mean))
}

struct DriveReport {
    drives: usize,
    keys: usize,
    load_seconds: f64,
    /// (kind, p50, p99) on the big catalogue, then on the seed one.
    search: Vec<(&'static str, f64, f64)>,
    search_seed: (f64, f64),
    /// (clients, id given on the seed catalogue, identity on the seed catalogue, identity
    /// on the big one, the seed drives named on the big one), submissions per second.
    ingest: Vec<(usize, f64, f64, f64, f64)>,
}

impl DriveReport {
    fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "fixture {} drives, {} keys, loaded in {:.0} s",
            self.drives, self.keys, self.load_seconds
        )];
        let (_, p50, p99) = self.search[0];
        out.push(format!(
            "search p50 {p50:.2} ms p99 {p99:.2} ms (seed catalogue p50 {:.2} ms p99 {:.2} ms)",
            self.search_seed.0, self.search_seed.1
        ));
        for (clients, id, seed, big, same) in &self.ingest {
            out.push(format!(
                "{clients:>2} clients: identity-named subs/s {big:.0} vs {seed:.0} on the seed catalogue \
                 ({:.2}x; the seed drives named on the big catalogue {same:.0}, {:.2}x); id given {id:.0}",
                big / seed,
                same / seed
            ));
        }
        out
    }
}

/// Rounds of each throughput measurement (`SSDBASE_BENCH_ROUNDS`, default 30), the seed
/// and big catalogues' interleaved so that the machine's other load falls on both alike;
/// the figure is the median of the rounds' ratios, which one noisy round cannot move.
/// Many short rounds (100 submissions of the default 3,000, well under a second each)
/// rather than a few long ones: on a shared 2-core VM the load changes within seconds,
/// and 9 rounds of 333 gave one configuration's ratio anywhere from 0.83 to 1.04.
const ROUNDS_DEFAULT: usize = 30;

async fn drive_bench(backend: Backend, config: &Config, corpus: &Corpus, work: &Path) -> Result<DriveReport> {
    let b = backend.name();
    println!("\n== {b} drive identity: {} drives", config.drives);
    let pid = std::process::id();
    let (seed_db, big_db) = match backend {
        Backend::Sqlite => (
            Db::sqlite(work.join(format!("drives-seed-{pid}.sqlite"))),
            Db::sqlite(work.join(format!("drives-{}-{pid}.sqlite", config.drives))),
        ),
        Backend::Postgres => {
            let admin = config.postgres_admin_url.as_deref().unwrap();
            (
                Db::postgres(admin, &format!("ssdbase_bench_drives_seed_{pid}")),
                Db::postgres(admin, &format!("ssdbase_bench_drives_{}_{pid}", config.drives)),
            )
        }
    };
    let fixture = drive_fixture(config.drives);
    let expected_keys: usize = fixture.iter().map(|d| bench::identity::keys_of(d).len()).sum();
    let report = async {
        for db in [&seed_db, &big_db] {
            db.recreate().await?;
            drop(ssdbase::open(&db.url).await?);
        }
        let started = Instant::now();
        let keys = load_drive_fixture(&big_db, &fixture, &format!("drives:{}", config.drives)).await?;
        let load_seconds = started.elapsed().as_secs_f64();
        ensure!(keys == expected_keys, "loaded {keys} keys, keys_of gives {expected_keys}");
        let totals = counted(
            &big_db,
            "SELECT 'drives', COUNT(*) FROM drives UNION ALL SELECT 'drive_aliases', COUNT(*) FROM drive_aliases",
        )
        .await?;
        println!(
            "FIGURE {b} drive fixture: {} drives with {keys} keys ({:.2} per drive) loaded in {load_seconds:.1} s; \
             the database holds {}",
            fixture.len(),
            keys as f64 / fixture.len() as f64,
            totals.iter().map(|(t, n)| format!("{n} {t}")).collect::<Vec<_>>().join(", ")
        );
        let seed = ssdbase::storage::connect(&seed_db.url).await?;
        let big = ssdbase::storage::connect(&big_db.url).await?;
        let seed_drives: Vec<DriveSku> = seed.list_drives().await?.into_iter().map(|d| d.drive).collect();
        let seed_server = Server::start(seed.clone()).await?;
        let big_server = Server::start(big.clone()).await?;

        // Search as you type.
        let queries = search_queries(&fixture);
        let mut client = Client::connect(big_server.addr).await?;
        let (search, found) = search_latency(&mut client, &queries, config.searches).await?;
        for ((kind, q), n) in queries.iter().zip(&found) {
            if (*kind == "no match") != (*n == 0) {
                println!("note: search {q:?} ({kind}) found {n} drives");
            }
        }
        let mut seed_client = Client::connect(seed_server.addr).await?;
        let (seed_search, _) = search_latency(&mut seed_client, &queries, config.searches).await?;
        let search_seed = (seed_search[0].1, seed_search[0].2);
        println!(
            "{} queries ({} distinct, limit 10), one client, {} timed requests; drives found per query: {:?}",
            queries.len(),
            queries.iter().map(|q| &q.1).collect::<HashSet<_>>().len(),
            config.searches,
            found
        );
        for (kind, p50, p99) in &search[1..] {
            println!("  {kind:<14} p50 {p50:.2} ms, p99 {p99:.2} ms");
        }
        let (_, p50, p99) = search[0];
        println!(
            "FIGURE {b} drive search, {} drives / {keys} keys: p50 {p50:.2} ms, p99 {p99:.2} ms \
             (seed catalogue of {} drives, same queries: p50 {:.2} ms, p99 {:.2} ms; p99 ratio {:.2})",
            fixture.len(),
            seed_drives.len(),
            search_seed.0,
            search_seed.1,
            p99 / search_seed.1
        );

        // The identity lookup alone, without HTTP or writes.
        let (i50, i99, imean) = identify_latency(&big, &fixture, 2000, 7).await?;
        let (s50, s99, smean) = identify_latency(&seed, &seed_drives, 2000, 7).await?;
        println!(
            "FIGURE {b} Catalogue::identify alone (2000 drive tags named as the submissions below name them): \
             {} drives p50 {i50:.3} ms, p99 {i99:.3} ms, mean {imean:.3} ms; seed catalogue p50 {s50:.3} ms, \
             p99 {s99:.3} ms, mean {smean:.3} ms",
            fixture.len()
        );

        // Submissions naming their drive.
        // The fixture's drives are spread over the big catalogue, so its submissions
        // also start new pools where the seed catalogue's add to 22 drives' pools: the
        // big catalogue naming the seed drives (they are in it too) is the same work on a
        // catalogue 4,500 times larger, and the id-given pair is the control that needs
        // no identity at all.
        let targets: [(&str, SocketAddr, &[DriveSku], Naming); 5] = [
            ("seed catalogue, drive id given", seed_server.addr, &seed_drives, Naming::Id),
            ("seed catalogue, drive named", seed_server.addr, &seed_drives, Naming::Identity),
            ("100k catalogue, drive named", big_server.addr, &fixture, Naming::Identity),
            ("100k catalogue, drive id given", big_server.addr, &fixture, Naming::Id),
            ("100k catalogue, seed drives named", big_server.addr, &seed_drives, Naming::Identity),
        ];
        let mut rng = Rng(0x1de471 ^ backend as u64);
        let mut seen = HashSet::new();
        let mut novel = 0;
        let rounds = config.rounds;
        let per_round = (config.submissions / rounds).max(1);
        let mut ingest = Vec::new();
        for clients in [1, 16] {
            let mut secs = [0.0f64; 5];
            let (mut named_ratios, mut id_ratios, mut same_ratios) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..rounds {
                let mut line = Vec::new();
                let mut rates = [0.0f64; 5];
                for k in 0..targets.len() {
                    // Each round starts with another target.
                    let t = (k + round) % targets.len();
                    let (name, addr, drives, naming) = targets[t];
                    let bodies = named_uploads(corpus, drives, naming, per_round, &mut rng, &mut seen, &mut novel);
                    let rate = post_bodies(addr, bodies, clients).await?;
                    secs[t] += per_round as f64 / rate;
                    rates[t] = rate;
                    line.push(format!("{name} {rate:.0}/s"));
                }
                named_ratios.push(rates[2] / rates[1]);
                id_ratios.push(rates[3] / rates[0]);
                same_ratios.push(rates[4] / rates[1]);
                println!("{clients:>2} clients, round {}: {}", round + 1, line.join(", "));
            }
            let rate = |t: usize| (per_round * rounds) as f64 / secs[t];
            let (id, seed_rate, big_rate, big_id, big_same) = (rate(0), rate(1), rate(2), rate(3), rate(4));
            let spread = |ratios: &mut Vec<f64>| {
                ratios.sort_by(f64::total_cmp);
                let n = ratios.len();
                (ratios[n / 2], ratios[n / 4], ratios[(3 * n) / 4])
            };
            let (named, named_q1, named_q3) = spread(&mut named_ratios);
            let (given, given_q1, given_q3) = spread(&mut id_ratios);
            let (same, same_q1, same_q3) = spread(&mut same_ratios);
            println!(
                "FIGURE {b} submissions naming the seed drives, {clients} clients, {rounds} rounds of {per_round}: \
                 {big_same:.0}/s with {} drives vs {seed_rate:.0}/s with the seed catalogue; median of the rounds' \
                 ratios {same:.2} (quartiles {same_q1:.2}-{same_q3:.2})",
                fixture.len() + seed_drives.len(),
            );
            println!(
                "FIGURE {b} submissions naming their drive, {clients} clients, {rounds} rounds of {per_round}: \
                 {big_rate:.0}/s with {} drives vs {seed_rate:.0}/s with the seed catalogue; median of the rounds' \
                 ratios {named:.2} (quartiles {named_q1:.2}-{named_q3:.2}); control, drive id given: {big_id:.0}/s \
                 vs {id:.0}/s, median ratio {given:.2} (quartiles {given_q1:.2}-{given_q3:.2})",
                fixture.len(),
            );
            ingest.push((clients, id, seed_rate, big_rate, big_same));
        }

        // Browsing the whole catalogue: the drives index a page at a time and a
        // leaderboard, now that the submissions above gave drives results.
        let mut client = Client::connect(big_server.addr).await?;
        let scale = format!("{} drives", fixture.len());
        catalogue_latency(&mut client, b, &scale).await?;
        // A mixed load on the big catalogue: 16 clients at once, each request drawn from
        // what readers ask, 5 % submissions (some naming a drive nobody has named, so the
        // catalogue changes under the readers), timed per route.
        let (status, body) = client.request(Method::GET, "/api/v1/drives/index?sort=results&limit=30", None).await?;
        ensure!(status == StatusCode::OK, "the index answered {status}");
        let index: serde_json::Value = serde_json::from_slice(&body)?;
        let measured: Vec<String> = index["drives"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["id"].as_str().map(String::from))
            .collect();
        ensure!(measured.len() >= 3, "the submissions gave drives results");
        let submissions = config.mixed * MIXED_SUBMISSION_PERCENT / 100;
        let uploads =
            named_uploads(corpus, &fixture, Naming::Identity, submissions, &mut rng, &mut seen, &mut novel);
        let timed = mixed_load(big_server.addr, &measured, LEADERBOARD_TEST, uploads, config.mixed).await?;
        print_mixed(b, &scale, timed);

        seed_server.stop();
        big_server.stop();
        drop((seed, big));
        let how = "SELECT COALESCE(drive_identified_by, '-'), COUNT(*) FROM results GROUP BY 1 ORDER BY 1";
        for (name, db) in [("seed catalogue", &seed_db), ("100k catalogue", &big_db)] {
            let rows = counted(db, how).await?;
            println!(
                "results by how their drive was found, {name}: {}",
                rows.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
            );
        }
        Ok::<_, anyhow::Error>(DriveReport {
            drives: fixture.len(),
            keys,
            load_seconds,
            search,
            search_seed,
            ingest,
        })
    }
    .await;
    if std::env::var_os("SSDBASE_BENCH_KEEP").is_some() {
        println!("kept for inspection: {} and {}", seed_db.url, big_db.url);
    } else {
        for db in [&seed_db, &big_db] {
            db.drop_it().await?;
        }
    }
    report
}

/// The test the catalogue's leaderboards are measured on.
const LEADERBOARD_TEST: &str = "cdm-diskspd SEQ 1MiB Q8T1 read";

/// p50/p99 of drives index pages and leaderboards (50 requests each, one client), printed
/// as figures of `backend` at `scale` and returned as (what, p50, p99).
async fn catalogue_latency(
    client: &mut Client,
    backend: &str,
    scale: &str,
) -> Result<Vec<(&'static str, f64, f64)>> {
    let test = urlencode(LEADERBOARD_TEST);
    let mut rows = Vec::new();
    for (what, path) in [
        ("drives index, first page by name", "/api/v1/drives/index".to_string()),
        ("drives index, most results first", "/api/v1/drives/index?sort=results".to_string()),
        ("drives index, page at offset 50,000", "/api/v1/drives/index?offset=50000".to_string()),
        ("drives index, SATA drives", "/api/v1/drives/index?interface=sata".to_string()),
        ("leaderboard, one test", format!("/api/v1/leaderboard?test={test}&min_results=1")),
        ("leaderboard, one test, lines of 3 results or more", format!("/api/v1/leaderboard?test={test}")),
        (
            "leaderboard, one test, SATA drives",
            format!("/api/v1/leaderboard?test={test}&min_results=1&interface=sata"),
        ),
        ("leaderboard tests (the leaderboard page's picker)", "/api/v1/leaderboard/tests".to_string()),
    ] {
        let (p50, p99, bytes) = get_latency(client, &path, 50).await?;
        println!(
            "FIGURE {backend} {what}, {scale}: p50 {p50:.1} ms, p99 {p99:.1} ms ({:.0} KB)",
            bytes as f64 / 1024.0
        );
        rows.push((what, p50, p99));
    }
    Ok(rows)
}

/// Prints a mixed load's p50/p99 per route as figures; returns (route, p50, p99).
fn print_mixed(
    backend: &str,
    scale: &str,
    timed: BTreeMap<&'static str, Vec<Duration>>,
) -> Vec<(&'static str, f64, f64)> {
    timed
        .into_iter()
        .map(|(route, times)| {
            let n = times.len();
            let (p50, p99) = percentiles(times);
            println!(
                "FIGURE {backend} mixed load, 16 clients, {scale}: {route}: p50 {p50:.1} ms, p99 {p99:.1} ms ({n} requests)"
            );
            (route, p50, p99)
        })
        .collect()
}

/// A mixed-load route's path for a drive, two others and a number.
type MixedPath = Box<dyn Fn(&str, &str, &str, usize) -> String + Send + Sync>;

/// The share of a mixed load's requests that are submissions.
const MIXED_SUBMISSION_PERCENT: usize = 5;

/// `total` requests from 16 clients at once on the server at `addr`, drawn from the
/// routes readers use (browse, compare, a drive's page and its rated table, the drives
/// index, leaderboards with and without a filter, a drive's embed) over the drives in
/// `measured`, with the `uploads` POSTed among them; each request's time by route.
async fn mixed_load(
    addr: SocketAddr,
    measured: &[String],
    test: &str,
    uploads: Vec<Bytes>,
    total: usize,
) -> Result<BTreeMap<&'static str, Vec<Duration>>> {
    const CLIENTS: usize = 16;
    let test = urlencode(test);
    let test_filtered = format!("/api/v1/leaderboard?test={test}&interface=sata");
    // (route, weight, path for a drive and two others)
    let routes: Vec<(&'static str, usize, MixedPath)> = vec![
        (
            "browse a drive's results",
            15,
            Box::new(|a, _, _, _| format!("/api/v1/results?drive={a}&limit=50")),
        ),
        ("browse the newest results", 5, Box::new(|_, _, _, _| "/api/v1/results?limit=50".to_string())),
        ("compare three drives", 15, Box::new(|a, b, c, _| format!("/api/v1/compare?drives={a},{b},{c}"))),
        ("a drive's page", 15, Box::new(|a, _, _, _| format!("/api/v1/drives/{a}?results=false"))),
        ("a drive's rated table", 5, Box::new(|a, _, _, _| format!("/api/v1/drives/{a}/rated"))),
        (
            "drives index page",
            10,
            Box::new(|_, _, _, k| format!("/api/v1/drives/index?offset={}", k % 1000 * 100)),
        ),
        ("leaderboard", 10, Box::new(move |_, _, _, _| format!("/api/v1/leaderboard?test={test}"))),
        ("leaderboard tests", 5, Box::new(|_, _, _, _| "/api/v1/leaderboard/tests".to_string())),
        ("drive embed", 10, Box::new(|a, _, _, _| format!("/embed/drives/{a}"))),
    ];

    let weights: usize = routes.iter().map(|r| r.1).sum::<usize>() + 5;
    let routes = Arc::new(routes);
    let uploads = Arc::new(std::sync::Mutex::new(uploads));
    let times: Arc<std::sync::Mutex<BTreeMap<&'static str, Vec<Duration>>>> = Arc::default();
    let measured = Arc::new(measured.to_vec());
    let per_client = total / CLIENTS;
    let mut tasks = Vec::new();
    for c in 0..CLIENTS {
        let mut client = Client::connect(addr).await?;
        let (routes, uploads, times, measured) =
            (routes.clone(), uploads.clone(), times.clone(), measured.clone());
        let filtered = test_filtered.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = Rng(0x313ed ^ c as u64);
            for _ in 0..per_client {
                // 5 % submissions, the rest by weight.
                let upload = if rng.below(100) < MIXED_SUBMISSION_PERCENT {
                    uploads.lock().unwrap().pop()
                } else {
                    None
                };
                let (route, method, path, body, want) = match upload {
                    Some(body) => (
                        "submission",
                        Method::POST,
                        "/api/v1/results".to_string(),
                        Some(body),
                        StatusCode::CREATED,
                    ),
                    None => {
                        let pick = |rng: &mut Rng| measured[rng.below(measured.len())].clone();
                        let (a, b, d) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
                        let mut w = rng.below(weights);
                        let chosen = routes.iter().find(|r| {
                            if w < r.1 {
                                true
                            } else {
                                w -= r.1;
                                false
                            }
                        });
                        match chosen {
                            Some((name, _, path)) => {
                                (*name, Method::GET, path(&a, &b, &d, rng.below(1000)), None, StatusCode::OK)
                            }
                            None => (
                                "leaderboard, SATA drives",
                                Method::GET,
                                filtered.clone(),
                                None,
                                StatusCode::OK,
                            ),
                        }
                    }
                };
                let start = Instant::now();
                let (status, reply) = client.request(method, &path, body).await?;
                let took = start.elapsed();
                ensure!(status == want, "{path} answered {status}: {}", String::from_utf8_lossy(&reply));
                times.lock().unwrap().entry(route).or_default().push(took);
            }
            Ok::<_, anyhow::Error>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    let times = std::mem::take(&mut *times.lock().unwrap());
    Ok(times)
}

/// `$SSDBASE_SHARED`, or the nearest ancestor's `shared/` folder.
fn shared_dir() -> Result<PathBuf> {
    if let Ok(dir) = std::env::var("SSDBASE_SHARED") {
        return Ok(PathBuf::from(dir));
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        if dir.join("shared/corpus").is_dir() {
            return Ok(dir.join("shared"));
        }
        if !dir.pop() {
            bail!("cannot find the shared corpus: put it at ../shared or set SSDBASE_SHARED");
        }
    }
}
