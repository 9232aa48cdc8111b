//! The soak test: three real `ssdbase serve` processes — two on one PostgreSQL database,
//! one on an SQLite file — under a mixed load of browsing, compare, drive pages, chart
//! embeds, submissions of the real corpus files, screenshot uploads, edits and
//! moderation, over loopback only, for a bounded time and number of requests. One of the
//! PostgreSQL servers is SIGKILLed and restarted several times. Every minute it prints
//! each route's request count and p50/p99/max latency, the errors and each server's
//! resident memory. Afterwards it checks:
//!
//! - every acknowledged submission is there whole (each result with all its metrics and
//!   its upload byte for byte), hidden or deleted exactly when the load said so, and no
//!   result lacks metrics and no submission lacks results in either database;
//! - every aggregate (drive list counts, drive page and compare medians, MADs, counts,
//!   min and max per test and pool) equals a recount from the visible results' metrics;
//!   both PostgreSQL servers answer the same;
//! - no 5xx and no dropped connection except on the killed server during its kill;
//! - each server's resident memory stays under a bound, and grows little once warm.
//!
//! `cargo xtask test` runs it for a minute with one kill (debug build);
//! `cargo xtask soak [--minutes N]` for ten minutes or more (release build). Settings:
//! `SSDBASE_SOAK_SECONDS` (default 60), `SSDBASE_SOAK_KILLS` (default one per two
//! minutes, at least one), `SSDBASE_SOAK_MAX_REQUESTS` (default 2,000,000),
//! `SSDBASE_SOAK_CLIENTS` (per database, default 3), `SSDBASE_SOAK_MAX_RSS_MB` (default
//! 1024). PostgreSQL comes from `SSDBASE_TEST_POSTGRES_URL`; the test makes its own
//! database there and drops it.

mod common;

use bench::analysis::{summarize, Summary};
use bench::{DataPattern, PlatformGroup, TestKey};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Child;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ADMIN: &str = "soak-admin-token-0123456789";
const PG: usize = 0;
const SQLITE: usize = 1;
const DB_NAMES: [&str; 2] = ["postgres", "sqlite"];
/// Chipsets the load tags its submissions with: a few pools per drive.
const CHIPSETS: [Option<&str>; 4] = [None, Some("SOAK-X58"), Some("SOAK-Z68"), Some("ICH10R")];

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

struct Config {
    duration: Duration,
    kills: usize,
    max_requests: u64,
    clients_per_db: usize,
    max_rss_kib: u64,
}

impl Config {
    fn from_env() -> Config {
        let seconds: u64 = env_or("SSDBASE_SOAK_SECONDS", 60);
        Config {
            duration: Duration::from_secs(seconds),
            kills: env_or("SSDBASE_SOAK_KILLS", (seconds as usize / 120).max(1)),
            max_requests: env_or("SSDBASE_SOAK_MAX_REQUESTS", 2_000_000),
            clients_per_db: env_or("SSDBASE_SOAK_CLIENTS", 3),
            max_rss_kib: env_or::<u64>("SSDBASE_SOAK_MAX_RSS_MB", 1024) * 1024,
        }
    }
}

// ---------------------------------------------------------------------------------------
// HTTP through the tests' client (common::request), multipart bodies, a random source
// ---------------------------------------------------------------------------------------

/// The answers the soak reads: the tests' one HTTP client, with a longer wait (slow
/// statements under load take seconds).
type Reply = common::HttpReply;

fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<Reply, String> {
    common::request(addr, method, path, headers, body, Duration::from_secs(120))
}

fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "ssdbase-soak-boundary-5e2a";
    let mut body = Vec::new();
    for (name, file, data) in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        let disposition = match file {
            Some(f) => format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\n\r\n"),
            None => format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n"),
        };
        body.extend_from_slice(disposition.as_bytes());
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// xorshift64*, seeded from the OS: the load needs spread, not quality.
struct Rng(u64);

impl Rng {
    fn new() -> Rng {
        let mut b = [0u8; 8];
        getrandom::fill(&mut b).unwrap();
        Rng(u64::from_le_bytes(b) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

// ---------------------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------------------

#[derive(Default)]
struct SlotState {
    addr: Option<SocketAddr>,
    pid: Option<u32>,
    /// Bumped when the server is killed and when it serves again: a request that saw
    /// the epoch change ran during a kill.
    epoch: u64,
    child: Option<Child>,
    /// Resident memory (KiB) of the current process: first sample, latest, highest,
    /// and the sample nearest the middle of the run (for the growth check).
    rss_first: u64,
    rss_last: u64,
    rss_max: u64,
    rss_mid: u64,
    lives: usize,
    /// Each process's stderr (warnings and errors; `RUST_LOG=warn`).
    logs: Vec<Arc<Mutex<Vec<String>>>>,
}

struct Slot {
    name: &'static str,
    db: usize,
    url: String,
    /// Where its open data dumps go: in the soak test's temporary directory.
    dumps: PathBuf,
    state: Mutex<SlotState>,
}

impl Slot {
    fn start(&self) {
        // The open data dump is regenerated every 3 minutes under the load as well.
        let dumps = &self.dumps;
        let (child, addr, log) = common::start_server_logged(
            &self.url,
            &[
                "--submit-rate",
                "0",
                "--write-rate",
                "0",
                "--ocr-rate",
                "0",
                "--ocr-pending-per-client",
                "0",
                "--admin-token",
                ADMIN,
                "--ocr-workers",
                "1",
                "--dump-dir",
                dumps.to_str().expect("a UTF-8 temp dir"),
                "--dump-every-hours",
                "0.05",
            ],
            &[("RUST_LOG", "warn,ssdbase::serve_cmd=info")],
        );
        let mut s = self.state.lock().unwrap();
        s.pid = Some(child.id());
        s.child = Some(child);
        s.addr = Some(addr);
        s.epoch += 1;
        s.lives += 1;
        s.logs.push(log);
        (s.rss_first, s.rss_last, s.rss_max, s.rss_mid) = (0, 0, 0, 0);
    }
    fn kill(&self) {
        let mut s = self.state.lock().unwrap();
        s.addr = None;
        s.epoch += 1;
        if let Some(mut c) = s.child.take() {
            c.kill().unwrap(); // SIGKILL
            c.wait().unwrap();
        }
        s.pid = None;
    }
    /// Samples the resident memory of the process; `mid` marks the middle of the run.
    fn sample_rss(&self, mid: bool) -> Option<u64> {
        let mut s = self.state.lock().unwrap();
        let kib = rss_kib(s.pid?)?;
        if s.rss_first == 0 {
            s.rss_first = kib;
        }
        if mid {
            s.rss_mid = kib;
        }
        s.rss_last = kib;
        s.rss_max = s.rss_max.max(kib);
        Some(kib)
    }
}

/// A query parameter value, percent-encoded.
fn enc(v: &str) -> String {
    form_urlencoded::byte_serialize(v.as_bytes()).collect()
}

fn rss_kib(pid: u32) -> Option<u64> {
    proc_status_kib(pid, "VmRSS:")
}

/// A `kB` line of `/proc/PID/status`: `VmRSS:` (resident memory), `RssAnon:` (its
/// anonymous part: heap and stacks, as opposed to mapped files).
fn proc_status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

// ---------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------

#[derive(Default)]
struct RouteStats {
    window: Vec<f64>,
    all: Vec<f64>,
}

#[derive(Default)]
struct Stats {
    routes: BTreeMap<&'static str, RouteStats>,
    requests: u64,
    window_requests: u64,
    /// Answers with a status the request did not expect (not 5xx), outside / during a kill.
    unexpected: [u64; 2],
    /// 5xx answers, outside / during a kill.
    server_errors: [u64; 2],
    /// Connections refused, reset or cut short, outside / during a kill.
    transport: [u64; 2],
    window_errors: u64,
    examples: Vec<String>,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// `route  n  p50  p99  max` lines, milliseconds.
fn latency_table(routes: &BTreeMap<&'static str, RouteStats>, window: bool) -> String {
    let mut out = format!("  {:<44} {:>7} {:>9} {:>9} {:>9}\n", "route", "n", "p50 ms", "p99 ms", "max ms");
    for (route, r) in routes {
        let mut v = if window { r.window.clone() } else { r.all.clone() };
        if v.is_empty() {
            continue;
        }
        v.sort_by(f64::total_cmp);
        out.push_str(&format!(
            "  {:<44} {:>7} {:>9.1} {:>9.1} {:>9.1}\n",
            route,
            v.len(),
            percentile(&v, 0.5),
            percentile(&v, 0.99),
            v[v.len() - 1]
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------
// What the load stored, and what it did to it since
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
enum Seen {
    Visible,
    Hidden,
    Deleted,
}

/// One result of an acknowledged submission.
#[derive(Debug, Clone)]
struct Acked {
    id: i64,
    /// sha256 of the bytes sent (the file, or the screenshot for a published reading).
    upload: [u8; 32],
    metrics: usize,
    edit_token: String,
    sku: String,
    state: Seen,
    /// An edit, delete, hide or restore got no answer (its server was killed): it may or
    /// may not have happened, so only wholeness is checked.
    uncertain: bool,
}

/// A real corpus file that parses the same with a whitespace-only line appended, which
/// makes every submission of it a new upload.
struct CorpusFile {
    name: String,
    bytes: Vec<u8>,
    results: usize,
}

impl CorpusFile {
    fn variant(&self, n: u64) -> Vec<u8> {
        let mut b = self.bytes.clone();
        b.push(b'\n');
        b.extend((0..32).map(|bit| if (n >> bit) & 1 == 1 { b'\t' } else { b' ' }));
        b.push(b'\n');
        b
    }
}

fn corpus_files() -> Vec<CorpusFile> {
    let mut paths = Vec::new();
    let mut dirs = vec![common::shared().join("corpus/real")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "txt" || e == "json") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let parse = |b: &[u8]| bench::parse_document(&bench::text::Document::from_bytes(b), None).ok();
    let mut files = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p).unwrap();
        let (Some(plain), Some(varied)) = (
            parse(&bytes),
            parse(
                &CorpusFile { name: String::new(), bytes: bytes.clone(), results: 0 }.variant(u64::MAX >> 1),
            ),
        ) else {
            continue;
        };
        if plain == varied && !plain.is_empty() {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            files.push(CorpusFile { name, bytes, results: plain.len() });
        }
    }
    files
}

struct Shared {
    slots: Vec<Arc<Slot>>,
    stats: Mutex<Stats>,
    stop: AtomicBool,
    started: Instant,
    cfg: Config,
    files: Vec<CorpusFile>,
    screenshots: Vec<(String, Vec<u8>)>,
    /// Next screenshot to upload, per database (each image once per database).
    next_screenshot: [AtomicUsize; 2],
    /// At most this many screenshots per database (OCR is slow in a debug build).
    screenshot_budget: usize,
    skus: Vec<String>,
    /// (drive, figure) pairs the catalogue has a rating for.
    rated: Vec<(String, String)>,
    variant: AtomicU64,
    /// Result ids seen in listings, per database, for the single-result pages.
    recent_ids: [Mutex<Vec<i64>>; 2],
    ocr: Mutex<OcrTally>,
}

#[derive(Default, Debug)]
struct OcrTally {
    uploaded: usize,
    published: usize,
    failed: usize,
    pending_at_end: usize,
    /// Seconds from each upload to its outcome as the uploader saw it (queue included).
    outcome_secs: Vec<f64>,
    /// Jobs the recogniser stopped at its wall-clock deadline.
    stopped_at_deadline: usize,
}

impl Shared {
    /// Sends a request to an up server of `db` (waiting while none is), records it, and
    /// returns the answer when its status is one of `expect`.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        db: usize,
        rng: &mut Rng,
        route: &'static str,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        expect: &[u16],
    ) -> Option<Reply> {
        let (slot, addr, epoch) = loop {
            let up: Vec<_> = self
                .slots
                .iter()
                .filter(|s| s.db == db)
                .filter_map(|s| {
                    let st = s.state.lock().unwrap();
                    st.addr.map(|a| (s.clone(), a, st.epoch))
                })
                .collect();
            if !up.is_empty() {
                break up[rng.below(up.len())].clone();
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let t0 = Instant::now();
        let reply = http(addr, method, path, headers, body);
        let ms = t0.elapsed().as_secs_f64() * 1000.0;
        let during_kill = {
            let st = slot.state.lock().unwrap();
            st.epoch != epoch || st.addr.is_none()
        };
        let k = usize::from(during_kill);
        let mut stats = self.stats.lock().unwrap();
        stats.requests += 1;
        stats.window_requests += 1;
        if stats.requests >= self.cfg.max_requests {
            self.stop.store(true, Ordering::Relaxed);
        }
        let note = |stats: &mut Stats, what: String| {
            stats.window_errors += 1;
            if stats.examples.len() < 30 {
                let at = self.started.elapsed().as_secs();
                let kill = if during_kill { " (during a kill)" } else { "" };
                stats.examples.push(format!("{at:>4} s {} {method} {path}: {what}{kill}", slot.name));
            }
        };
        match reply {
            Err(e) => {
                stats.transport[k] += 1;
                note(&mut stats, e);
                None
            }
            Ok(r) => {
                let rs = stats.routes.entry(route).or_default();
                rs.window.push(ms);
                rs.all.push(ms);
                if r.status >= 500 {
                    stats.server_errors[k] += 1;
                    note(&mut stats, format!("{} {}", r.status, r.body));
                    None
                } else if !expect.contains(&r.status) {
                    stats.unexpected[k] += 1;
                    note(&mut stats, format!("{} {}", r.status, r.body));
                    None
                } else {
                    Some(r)
                }
            }
        }
    }

    fn get(
        &self,
        db: usize,
        rng: &mut Rng,
        route: &'static str,
        path: &str,
        expect: &[u16],
    ) -> Option<Reply> {
        self.call(db, rng, route, "GET", path, &[], b"", expect)
    }

    fn running(&self) -> bool {
        !self.stop.load(Ordering::Relaxed) && self.started.elapsed() < self.cfg.duration
    }

    fn tags(&self, rng: &mut Rng) -> (String, Value) {
        let sku = rng.pick(&self.skus).clone();
        let mut tags = json!({"drive": {"sku": sku}});
        if let Some(chipset) = rng.pick(&CHIPSETS) {
            tags["platform"] = json!({"chipset": chipset});
        }
        (sku, tags)
    }
}

// ---------------------------------------------------------------------------------------
// One client: a weighted random mix of what the site and its users do
// ---------------------------------------------------------------------------------------

struct Client {
    db: usize,
    rng: Rng,
    mine: Vec<Acked>,
    /// Screenshot jobs waiting to be read: (job id, sha256 of the image).
    /// Screenshot jobs waiting: key, image hash, when uploaded.
    jobs: Vec<(String, [u8; 32], Instant)>,
}

const Q: &[u16] = &[200];

impl Client {
    fn run(mut self, sh: &Shared) -> Vec<Acked> {
        while sh.running() {
            let roll = self.rng.below(100);
            match roll {
                0..=14 => self.browse(sh),
                15..=21 => self.one_result(sh),
                22..=25 => self.drive_list(sh),
                26..=34 => self.drive_page(sh),
                35..=44 => self.compare(sh),
                45..=56 => self.embed(sh),
                57..=68 => self.submit_text(sh),
                69..=74 => self.submit_multipart(sh),
                75..=77 => self.screenshot(sh),
                78..=82 => self.edit(sh),
                83..=84 => self.delete(sh),
                85..=89 => self.moderate(sh),
                _ => self.own_upload(sh),
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Readings still queued are not acknowledged submissions; they are reported.
        sh.ocr.lock().unwrap().pending_at_end += self.jobs.len();
        self.mine
    }

    fn drives_param(&mut self, sh: &Shared, n: usize) -> String {
        let mut picked = BTreeSet::new();
        while picked.len() < n.min(sh.skus.len()) {
            picked.insert(self.rng.pick(&sh.skus).clone());
        }
        picked.into_iter().collect::<Vec<_>>().join(",")
    }

    fn browse(&mut self, sh: &Shared) {
        let sort = *self.rng.pick(&["newest", "oldest", "drive", "-capacity_gb", "chipset", "-created"]);
        let mut path = format!("/api/v1/results?sort={sort}&limit={}", 10 + self.rng.below(90));
        match self.rng.below(4) {
            0 => path.push_str(&format!("&drive={}", self.rng.pick(&sh.skus))),
            1 => path.push_str("&chipset=SOAK-Z68"),
            _ => {}
        }
        if self.rng.below(6) == 0 {
            path.push_str("&format=csv");
            sh.get(self.db, &mut self.rng, "GET /results?format=csv", &path, Q);
            return;
        }
        let Some(r) = sh.get(self.db, &mut self.rng, "GET /results", &path, Q) else { return };
        let v = r.json();
        let ids: Vec<i64> =
            v["results"].as_array().unwrap().iter().filter_map(|r| r["id"].as_i64()).collect();
        {
            let mut recent = sh.recent_ids[self.db].lock().unwrap();
            recent.extend(ids);
            let excess = recent.len().saturating_sub(500);
            recent.drain(..excess);
        }
        if let Some(cursor) = v["next_cursor"].as_str() {
            if self.rng.below(3) == 0 {
                let next = format!("{path}&cursor={}", enc(cursor));
                sh.get(self.db, &mut self.rng, "GET /results (next page)", &next, Q);
            }
        }
    }

    fn one_result(&mut self, sh: &Shared) {
        let id = {
            let recent = sh.recent_ids[self.db].lock().unwrap();
            if recent.is_empty() {
                return;
            }
            recent[self.rng.below(recent.len())]
        };
        // Another client may have hidden or deleted it since it was listed.
        let path = format!("/api/v1/results/{id}");
        sh.get(self.db, &mut self.rng, "GET /results/{id}", &path, &[200, 404]);
        if self.rng.below(4) == 0 {
            let preview = format!("{path}/preview.png");
            sh.get(self.db, &mut self.rng, "GET /results/{id}/preview.png", &preview, &[200, 404]);
        }
    }

    fn drive_list(&mut self, sh: &Shared) {
        sh.get(self.db, &mut self.rng, "GET /drives", "/api/v1/drives", Q);
        if self.rng.below(3) == 0 {
            sh.get(self.db, &mut self.rng, "GET /observations", "/api/v1/observations", Q);
        }
    }

    fn drive_page(&mut self, sh: &Shared) {
        let sku = self.rng.pick(&sh.skus).clone();
        match self.rng.below(5) {
            0 => {
                let p = format!("/api/v1/drives/{sku}/rated");
                sh.get(self.db, &mut self.rng, "GET /drives/{id}/rated", &p, Q);
            }
            1 => {
                let p = format!("/api/v1/drives/{sku}/observations?format=csv");
                sh.get(self.db, &mut self.rng, "GET /drives/{id}/observations", &p, Q);
            }
            _ => {
                let p = format!("/api/v1/drives/{sku}");
                sh.get(self.db, &mut self.rng, "GET /drives/{id}", &p, Q);
            }
        }
    }

    fn compare(&mut self, sh: &Shared) {
        let n = 2 + self.rng.below(3);
        let drives = self.drives_param(sh, n);
        match self.rng.below(6) {
            0 => {
                let p = format!("/api/v1/compare?drives={drives}&format=csv");
                sh.get(self.db, &mut self.rng, "GET /compare?format=csv", &p, Q);
            }
            1 => {
                let p = format!("/api/v1/compare/rated?drives={drives}");
                sh.get(self.db, &mut self.rng, "GET /compare/rated", &p, Q);
            }
            2 => {
                let p = format!("/api/v1/compare?drives={drives}&merge=drive");
                sh.get(self.db, &mut self.rng, "GET /compare?merge=drive", &p, Q);
            }
            _ => {
                let p = format!("/api/v1/compare?drives={drives}");
                sh.get(self.db, &mut self.rng, "GET /compare", &p, Q);
            }
        }
    }

    fn embed(&mut self, sh: &Shared) {
        let n = 2 + self.rng.below(2);
        let drives = self.drives_param(sh, n);
        let sku = self.rng.pick(&sh.skus).clone();
        // A rated chart of a figure the catalogue rates the drive's model line for.
        let (rated_sku, figure) = match sh.rated.is_empty() {
            true => (sku.clone(), "seq-read".to_string()),
            false => self.rng.pick(&sh.rated).clone(),
        };
        let theme = *self.rng.pick(&["light", "dark"]);
        let (route, path): (&'static str, String) = match self.rng.below(9) {
            0 | 1 => {
                ("GET /compare/chart.svg", format!("/api/v1/compare/chart.svg?drives={drives}&theme={theme}"))
            }
            2 => ("GET /compare/chart.png", format!("/api/v1/compare/chart.png?drives={drives}&width=800")),
            3 => (
                "GET /drives/{id}/rated.svg",
                format!("/api/v1/drives/{rated_sku}/rated.svg?figure={figure}"),
            ),
            4 => (
                "GET /drives/{id}/rated.png",
                format!("/api/v1/drives/{rated_sku}/rated.png?figure={figure}&theme={theme}"),
            ),
            5 => ("GET /embed/compare", format!("/embed/compare?drives={drives}")),
            6 => ("GET /embed/drives/{id}", format!("/embed/drives/{sku}?figure={figure}")),
            7 => ("GET /drives/{id}/preview.png", format!("/api/v1/drives/{sku}/preview.png")),
            _ => (
                "GET /oembed",
                format!(
                    "/api/v1/oembed?url=http%3A%2F%2F{}%2Fcompare%3Fdrives%3D{}",
                    common::HOST,
                    drives.replace(',', "%2C")
                ),
            ),
        };
        sh.get(self.db, &mut self.rng, route, &path, Q);
    }

    fn submit_text(&mut self, sh: &Shared) {
        let file = &sh.files[self.rng.below(sh.files.len())];
        let bytes = file.variant(sh.variant.fetch_add(1, Ordering::Relaxed));
        let (sku, tags) = sh.tags(&mut self.rng);
        let body = json!({"text": String::from_utf8_lossy(&bytes), "tags": tags, "source": file.name});
        // A file that is not UTF-8 goes as multipart instead (the text would change).
        if std::str::from_utf8(&bytes).is_err() {
            return self.submit_multipart(sh);
        }
        let body = body.to_string();
        let headers = [("Content-Type", "application/json")];
        let Some(r) = sh.call(
            self.db,
            &mut self.rng,
            "POST /results",
            "POST",
            "/api/v1/results",
            &headers,
            body.as_bytes(),
            &[201],
        ) else {
            return;
        };
        let v = r.json();
        self.acknowledge(&v, &bytes, &sku, file.results);
    }

    fn submit_multipart(&mut self, sh: &Shared) {
        let n = 1 + self.rng.below(3);
        let picked: Vec<&CorpusFile> = (0..n).map(|_| &sh.files[self.rng.below(sh.files.len())]).collect();
        let bodies: Vec<Vec<u8>> =
            picked.iter().map(|f| f.variant(sh.variant.fetch_add(1, Ordering::Relaxed))).collect();
        let (sku, tags) = sh.tags(&mut self.rng);
        let tags = tags.to_string();
        let mut parts: Vec<(&str, Option<&str>, &[u8])> =
            picked.iter().zip(&bodies).map(|(f, b)| ("file", Some(f.name.as_str()), b.as_slice())).collect();
        parts.push(("tags", None, tags.as_bytes()));
        let (ct, body) = multipart(&parts);
        let headers = [("Content-Type", ct.as_str())];
        let Some(r) = sh.call(
            self.db,
            &mut self.rng,
            "POST /results (multipart)",
            "POST",
            "/api/v1/results",
            &headers,
            &body,
            &[201],
        ) else {
            return;
        };
        let v = r.json();
        let files = v["files"].as_array().expect("files");
        assert_eq!(files.len(), n, "{v}");
        for ((f, bytes), file) in files.iter().zip(&bodies).zip(&picked) {
            assert_eq!(f["status"], 201, "a new variant is never a duplicate: {f}");
            self.acknowledge(f, bytes, &sku, file.results);
        }
    }

    /// Records a stored submission: each of its results, with the metric count the
    /// parser gives for the bytes sent.
    fn acknowledge(&mut self, v: &Value, sent: &[u8], sku: &str, expected_results: usize) {
        let token = v["edit_token"].as_str().expect("a new submission has an edit token").to_string();
        let results = v["results"].as_array().expect("results");
        assert_eq!(results.len(), expected_results, "{v}");
        let parsed = bench::parse_document(&bench::text::Document::from_bytes(sent), None).unwrap();
        let upload: [u8; 32] = Sha256::digest(sent).into();
        for (r, p) in results.iter().zip(parsed) {
            self.mine.push(Acked {
                id: r["id"].as_i64().unwrap(),
                upload,
                metrics: p.metrics.len(),
                edit_token: token.clone(),
                sku: sku.to_string(),
                state: Seen::Visible,
                uncertain: false,
            });
        }
    }

    fn screenshot(&mut self, sh: &Shared) {
        // Read finished jobs first, then maybe upload another image.
        if let Some((job, image, uploaded)) = self.jobs.first().cloned() {
            let p = format!("/api/v1/ocr/{job}");
            if let Some(r) = sh.get(self.db, &mut self.rng, "GET /ocr/{id}", &p, Q) {
                let v = r.json();
                let finished = matches!(v["status"].as_str(), Some("done" | "failed"));
                if finished {
                    self.jobs.remove(0);
                    sh.ocr.lock().unwrap().outcome_secs.push(uploaded.elapsed().as_secs_f64());
                }
                match v["status"].as_str() {
                    Some("done") => self.publish(sh, &job, image, &v),
                    Some("failed") => {
                        let mut ocr = sh.ocr.lock().unwrap();
                        ocr.failed += 1;
                        if v["error"].as_str().is_some_and(|e| e.contains("took longer than")) {
                            ocr.stopped_at_deadline += 1;
                        }
                    }
                    _ => {}
                }
            }
            return;
        }
        let i = sh.next_screenshot[self.db].fetch_add(1, Ordering::Relaxed);
        if i >= sh.screenshot_budget.min(sh.screenshots.len()) {
            return;
        }
        let (_, image) = &sh.screenshots[i];
        let headers = [("Content-Type", "image/png")];
        let Some(r) =
            sh.call(self.db, &mut self.rng, "POST /ocr", "POST", "/api/v1/ocr", &headers, image, &[202])
        else {
            return;
        };
        sh.ocr.lock().unwrap().uploaded += 1;
        self.jobs.push((
            r.json()["id"].as_str().unwrap().to_string(),
            Sha256::digest(image).into(),
            Instant::now(),
        ));
    }

    fn publish(&mut self, sh: &Shared, job: &str, image: [u8; 32], reading: &Value) {
        let result = reading["recognition"]["result"].clone();
        let metrics = result["metrics"].as_array().map_or(0, Vec::len);
        let (sku, tags) = sh.tags(&mut self.rng);
        let body = json!({"result": result, "tags": tags, "ocr_job": job}).to_string();
        let headers = [("Content-Type", "application/json")];
        let Some(r) = sh.call(
            self.db,
            &mut self.rng,
            "POST /results (screenshot)",
            "POST",
            "/api/v1/results",
            &headers,
            body.as_bytes(),
            &[201],
        ) else {
            return;
        };
        let v = r.json();
        sh.ocr.lock().unwrap().published += 1;
        self.mine.push(Acked {
            id: v["id"].as_i64().unwrap(),
            upload: image,
            metrics,
            edit_token: v["edit_token"].as_str().unwrap().to_string(),
            sku,
            state: Seen::Visible,
            uncertain: false,
        });
    }

    /// One of this client's results in `state` whose fate is known.
    fn own(&mut self, state: Seen) -> Option<usize> {
        let candidates: Vec<usize> = (0..self.mine.len())
            .filter(|&i| self.mine[i].state == state && !self.mine[i].uncertain)
            .collect();
        (!candidates.is_empty()).then(|| candidates[self.rng.below(candidates.len())])
    }

    /// Sends an edit of result `i`; an answer other than `expect` leaves it uncertain.
    #[allow(clippy::too_many_arguments)]
    fn change(
        &mut self,
        sh: &Shared,
        i: usize,
        route: &'static str,
        method: &str,
        path: &str,
        token: &str,
        body: &[u8],
        expect: u16,
    ) -> bool {
        let auth = format!("Bearer {token}");
        let headers = [("Content-Type", "application/json"), ("Authorization", auth.as_str())];
        let ok = sh.call(self.db, &mut self.rng, route, method, path, &headers, body, &[expect]).is_some();
        if !ok {
            self.mine[i].uncertain = true;
        }
        ok
    }

    fn edit(&mut self, sh: &Shared) {
        let Some(i) = self.own(Seen::Visible) else { return };
        let (sku, tags) = sh.tags(&mut self.rng);
        let (id, token) = (self.mine[i].id, self.mine[i].edit_token.clone());
        let body = json!({"tags": tags}).to_string();
        let path = format!("/api/v1/results/{id}");
        if self.change(sh, i, "PATCH /results/{id}", "PATCH", &path, &token, body.as_bytes(), 200) {
            self.mine[i].sku = sku;
        }
    }

    fn delete(&mut self, sh: &Shared) {
        let Some(i) = self.own(Seen::Visible) else { return };
        let (id, token) = (self.mine[i].id, self.mine[i].edit_token.clone());
        let path = format!("/api/v1/results/{id}");
        if self.change(sh, i, "DELETE /results/{id}", "DELETE", &path, &token, b"", 200) {
            self.mine[i].state = Seen::Deleted;
        }
    }

    fn moderate(&mut self, sh: &Shared) {
        if self.rng.below(3) == 0 {
            // The moderator's view of the list, hidden results included.
            let p = "/api/v1/results?include_hidden=true&limit=50";
            let auth = format!("Bearer {ADMIN}");
            sh.call(
                self.db,
                &mut self.rng,
                "GET /results?include_hidden",
                "GET",
                p,
                &[("Authorization", auth.as_str())],
                b"",
                Q,
            );
            return;
        }
        if self.rng.below(2) == 0 {
            if let Some(i) = self.own(Seen::Hidden) {
                let path = format!("/api/v1/results/{}/restore", self.mine[i].id);
                let body = br#"{"reason":"soak: restored"}"#;
                if self.change(sh, i, "POST /results/{id}/restore", "POST", &path, ADMIN, body, 200) {
                    self.mine[i].state = Seen::Visible;
                }
                return;
            }
        }
        let Some(i) = self.own(Seen::Visible) else { return };
        let path = format!("/api/v1/results/{}/hide", self.mine[i].id);
        let body = br#"{"reason":"soak: looks like junk"}"#;
        if self.change(sh, i, "POST /results/{id}/hide", "POST", &path, ADMIN, body, 200) {
            self.mine[i].state = Seen::Hidden;
        }
    }

    fn own_upload(&mut self, sh: &Shared) {
        let Some(i) = self.own(Seen::Visible) else { return };
        let a = self.mine[i].clone();
        let path = format!("/api/v1/results/{}/upload", a.id);
        if let Some(r) = sh.get(self.db, &mut self.rng, "GET /results/{id}/upload", &path, Q) {
            assert_eq!(
                <[u8; 32]>::from(Sha256::digest(&r.bytes)),
                a.upload,
                "result {}: upload changed",
                a.id
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// The checks after the load
// ---------------------------------------------------------------------------------------

/// The first up server of a database.
fn addr_of(sh: &Shared, slot: usize) -> SocketAddr {
    sh.slots[slot].state.lock().unwrap().addr.expect("server up")
}

fn get_json(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    let r = http(addr, "GET", path, headers, b"").unwrap_or_else(|e| panic!("GET {path}: {e}"));
    let v = serde_json::from_slice(&r.bytes).unwrap_or(Value::Null);
    (r.status, v)
}

/// Every acknowledged result is where the load left it, whole.
fn check_acknowledged(addr: SocketAddr, acked: &[Acked]) -> usize {
    let admin = format!("Bearer {ADMIN}");
    let mut checked = 0;
    for a in acked {
        let path = format!("/api/v1/results/{}", a.id);
        let (public, v) = get_json(addr, &path, &[]);
        let (_, moderated) = get_json(addr, &path, &[("Authorization", admin.as_str())]);
        let state = match (public, moderated["hidden"].as_bool()) {
            (200, _) => Seen::Visible,
            (404, Some(true)) => Seen::Hidden,
            (404, _) => Seen::Deleted,
            (s, _) => panic!("result {}: status {s}: {v}", a.id),
        };
        if !a.uncertain {
            assert_eq!(state, a.state, "result {}: expected {:?}, found {state:?}", a.id, a.state);
        }
        if state == Seen::Deleted {
            checked += 1;
            continue;
        }
        let shown = if state == Seen::Visible { &v } else { &moderated };
        let metrics = shown["result"]["metrics"].as_array().map_or(0, Vec::len);
        assert_eq!(metrics, a.metrics, "result {}: metrics lost: {shown}", a.id);
        if !a.uncertain {
            assert_eq!(shown["tags"]["drive"]["sku"], a.sku.as_str(), "result {}: tags", a.id);
        }
        if state == Seen::Visible {
            let r = http(addr, "GET", &format!("{path}/upload"), &[], b"").unwrap();
            assert_eq!(r.status, 200, "result {} upload", a.id);
            assert_eq!(<[u8; 32]>::from(Sha256::digest(&r.bytes)), a.upload, "result {}: upload bytes", a.id);
        }
        checked += 1;
    }
    checked
}

/// Every visible result, paged through the browse API.
fn visible_results(addr: SocketAddr) -> Vec<Value> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = "/api/v1/results?sort=oldest&limit=500".to_string();
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={}", enc(c)));
        }
        let (status, v) = get_json(addr, &path, &[]);
        assert_eq!(status, 200, "{v}");
        all.extend(v["results"].as_array().unwrap().iter().cloned());
        match v["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return all,
        }
    }
}

/// A visible result as the recount sees it: its drive, its pool (platform group and data
/// pattern, derived from its tags by `bench` here, not by the server) and each metric's
/// test key and figures.
struct Recounted {
    sku: Option<String>,
    pool: (PlatformGroup, Option<DataPattern>),
    metrics: Vec<(TestKey, [Option<f64>; 3])>,
}

type Visible = BTreeMap<i64, Recounted>;

fn visible_of(results: &[Value]) -> Visible {
    results
        .iter()
        .map(|r| {
            let result: bench::BenchResult = serde_json::from_value(r["result"].clone()).unwrap();
            let tags: bench::Tags = serde_json::from_value(r["tags"].clone()).unwrap();
            let metrics = result.keyed_metrics().map(|(k, m)| (k, [m.mbps, m.iops, m.latency_us])).collect();
            let seen = Recounted {
                sku: tags.drive.sku.clone(),
                pool: (PlatformGroup::of(&tags), result.data_pattern),
                metrics,
            };
            (r["id"].as_i64().unwrap(), seen)
        })
        .collect()
}

/// The visible results of a drive in one pool, ascending.
fn pool_of(visible: &Visible, sku: &str, platform: &Value, pattern: &Value) -> Vec<i64> {
    let pool: (PlatformGroup, Option<DataPattern>) =
        (serde_json::from_value(platform.clone()).unwrap(), serde_json::from_value(pattern.clone()).unwrap());
    visible
        .iter()
        .filter(|(_, r)| r.sku.as_deref() == Some(sku) && r.pool == pool)
        .map(|(id, _)| *id)
        .collect()
}

/// `ids` are all of ascending `all`, or the newest `COMPARE_RESULT_IDS` of them.
fn assert_newest(what: &str, ids: &[i64], all: &[i64]) {
    let mut ids_sorted = ids.to_vec();
    ids_sorted.sort_unstable();
    let shown = if ids.len() == all.len() { all.len() } else { api_types::COMPARE_RESULT_IDS.min(all.len()) };
    assert_eq!(ids_sorted, all[all.len() - shown..], "{what}: result ids");
}

fn same_summary(what: &str, shown: Option<Summary>, recount: Option<Summary>) {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    match (shown, recount) {
        (None, None) => {}
        (Some(a), Some(b))
            if a.count == b.count
                && close(a.median, b.median)
                && close(a.mad, b.mad)
                && close(a.min, b.min)
                && close(a.max, b.max) => {}
        (a, b) => panic!("{what}: the API says {a:?}, a recount gives {b:?}"),
    }
}

/// One aggregate as shown (`ids` and the figures in `shown`) against a recount: the ids
/// must be exactly the results of `pool` that ran `key`, and each figure's summary that
/// of their values.
/// A cell against a recount: `count` results behind it, of which `ids` are all or (a
/// comparison's) the newest `COMPARE_RESULT_IDS`, and its figures of every one.
fn check_cell(
    what: &str,
    visible: &Visible,
    key: &TestKey,
    (ids, count): (&[i64], usize),
    pool: &[i64],
    shown: &Value,
) {
    let with_test: Vec<i64> =
        pool.iter().copied().filter(|id| visible[id].metrics.iter().any(|(k, _)| k == key)).collect();
    assert_eq!(count, with_test.len(), "{what}: result count");
    assert_newest(what, ids, &with_test);
    for (f, figure) in ["mbps", "iops", "latency_us"].into_iter().enumerate() {
        let sample: Vec<f64> = with_test
            .iter()
            .flat_map(|id| visible[id].metrics.iter().filter(|(k, _)| k == key).filter_map(|(_, v)| v[f]))
            .collect();
        let shown: Option<Summary> = serde_json::from_value(shown[figure].clone()).unwrap();
        same_summary(&format!("{what} {figure}"), shown, summarize(&sample));
    }
}

struct AggregateCheck {
    visible: usize,
    drives: usize,
    cells: usize,
}

/// Drive list counts, drive pages and comparisons against a recount from the visible
/// results.
fn check_aggregates(addr: SocketAddr) -> AggregateCheck {
    let visible = visible_of(&visible_results(addr));
    let mut by_drive: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    for (id, r) in &visible {
        if let Some(sku) = &r.sku {
            by_drive.entry(sku.clone()).or_default().insert(*id);
        }
    }
    let (_, list) = get_json(addr, "/api/v1/drives", &[]);
    let mut cells = 0;
    let mut measured = Vec::new();
    for d in list["drives"].as_array().unwrap() {
        let id = d["id"].as_str().unwrap();
        let mine = by_drive.get(id).cloned().unwrap_or_default();
        assert_eq!(d["result_count"].as_u64().unwrap() as usize, mine.len(), "drive list count of {id}");
        if mine.is_empty() {
            continue;
        }
        measured.push(id.to_string());
        // The drive page: its results and each test's aggregates per pool.
        let (_, page) = get_json(addr, &format!("/api/v1/drives/{id}"), &[]);
        let shown: BTreeSet<i64> =
            page["results"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
        assert_eq!(shown, mine, "drive page {id}: results");
        for t in page["tests"].as_array().unwrap() {
            let key: TestKey = serde_json::from_value(t["key"].clone()).unwrap();
            for g in t["groups"].as_array().unwrap() {
                let ids: Vec<i64> = serde_json::from_value(g["result_ids"].clone()).unwrap();
                let pool = pool_of(&visible, id, &g["platform"], &g["data_pattern"]);
                let what = format!("drive page {id}, {}, {}", t["name"], g["platform_label"]);
                check_cell(&what, &visible, &key, (&ids, ids.len()), &pool, g);
                cells += 1;
            }
        }
    }
    // Comparisons, up to 12 drives at a time: each pool is exactly the drive's visible
    // results on its platform group and data pattern, the pools cover every result of
    // the drive, and each test cell is its pool's results with that test.
    for chunk in measured.chunks(12) {
        let (status, cmp) = get_json(addr, &format!("/api/v1/compare?drives={}", chunk.join(",")), &[]);
        assert_eq!(status, 200, "{cmp}");
        let pools = cmp["pools"].as_array().unwrap();
        let mut covered: BTreeMap<String, usize> = BTreeMap::new();
        // Each pool's results recounted once, for the pool and for its cells.
        let mut recounts = Vec::with_capacity(pools.len());
        for p in pools {
            let drive = p["drive"].as_str().unwrap();
            let ids: Vec<i64> = serde_json::from_value(p["result_ids"].clone()).unwrap();
            let recount = pool_of(&visible, drive, &p["platform"], &p["data_pattern"]);
            let what = format!("compare: pool {drive} {}", p["platform_label"]);
            assert_eq!(p["results"].as_u64().unwrap() as usize, recount.len(), "{what}");
            assert_newest(&what, &ids, &recount);
            *covered.entry(drive.to_string()).or_default() += recount.len();
            recounts.push(recount);
        }
        for id in chunk {
            // Pools are disjoint by their keys: counts that add up cover every result.
            assert_eq!(
                covered.remove(id).unwrap_or_default(),
                by_drive[id].len(),
                "compare: results of drive {id}"
            );
        }
        for t in cmp["tests"].as_array().unwrap() {
            let key: TestKey = serde_json::from_value(t["key"].clone()).unwrap();
            for d in t["drives"].as_array().unwrap() {
                for g in d["groups"].as_array().unwrap() {
                    let at = g["pool"].as_u64().unwrap() as usize;
                    let (pool, pool_ids) = (&pools[at], &recounts[at]);
                    let (ids, count): (Vec<i64>, u64) = match g.get("result_ids") {
                        Some(ids) if !ids.is_null() => {
                            (serde_json::from_value(ids.clone()).unwrap(), g["results"].as_u64().unwrap())
                        }
                        _ => (
                            serde_json::from_value(pool["result_ids"].clone()).unwrap(),
                            pool["results"].as_u64().unwrap(),
                        ),
                    };
                    let what = format!("compare {}, {}, {}", d["drive"], t["name"], pool["platform_label"]);
                    check_cell(&what, &visible, &key, (&ids, count as usize), pool_ids, g);
                    cells += 1;
                }
            }
        }
    }
    AggregateCheck { visible: visible.len(), drives: measured.len(), cells }
}

/// Results without metrics and submissions without results, straight from the database.
fn half_stored(url: &str) -> (i64, i64) {
    const BARE_RESULTS: &str =
        "SELECT COUNT(*) FROM results r WHERE NOT EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = r.id)";
    const BARE_SUBMISSIONS: &str =
        "SELECT COUNT(*) FROM submissions s WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.submission_id = s.id)";
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        if url.starts_with("sqlite:") {
            let pool = sqlx::SqlitePool::connect(url).await.unwrap();
            let a = sqlx::query_scalar(BARE_RESULTS).fetch_one(&pool).await.unwrap();
            let b = sqlx::query_scalar(BARE_SUBMISSIONS).fetch_one(&pool).await.unwrap();
            pool.close().await;
            (a, b)
        } else {
            let pool = sqlx::PgPool::connect(url).await.unwrap();
            let a = sqlx::query_scalar(BARE_RESULTS).fetch_one(&pool).await.unwrap();
            let b = sqlx::query_scalar(BARE_SUBMISSIONS).fetch_one(&pool).await.unwrap();
            pool.close().await;
            (a, b)
        }
    })
}

fn pg_admin(admin_url: &str, sql: &str) {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let admin = sqlx::PgPool::connect(admin_url).await.unwrap();
        sqlx::query(sql).execute(&admin).await.unwrap();
        admin.close().await;
    });
}

// ---------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn minute_report(sh: &Shared, minute: u64) {
    let mut rss = String::new();
    let mid = sh.started.elapsed() >= sh.cfg.duration / 2
        && sh.started.elapsed() < sh.cfg.duration / 2 + Duration::from_secs(60);
    for s in &sh.slots {
        match s.sample_rss(mid) {
            Some(kib) => {
                let pid = s.state.lock().unwrap().pid.unwrap_or(0);
                let anon = proc_status_kib(pid, "RssAnon:").unwrap_or(0);
                rss.push_str(&format!(" {} {:.1} MiB (anonymous {:.1});", s.name, mib(kib), mib(anon)))
            }
            None => rss.push_str(&format!(" {} down;", s.name)),
        }
    }
    let mut stats = sh.stats.lock().unwrap();
    let table = latency_table(&stats.routes, true);
    println!(
        "soak minute {minute}: {} requests ({} total), {} errors this minute; RSS{rss}\n{table}",
        stats.window_requests, stats.requests, stats.window_errors
    );
    stats.window_requests = 0;
    stats.window_errors = 0;
    for r in stats.routes.values_mut() {
        r.window.clear();
    }
}

#[test]
fn soak_two_postgres_servers_and_one_sqlite_server_under_mixed_load() {
    let cfg = Config::from_env();
    let admin_url = std::env::var("SSDBASE_TEST_POSTGRES_URL").expect(
        "SSDBASE_TEST_POSTGRES_URL is not set: run `cargo xtask test` (installs and starts PostgreSQL)",
    );
    // A fresh PostgreSQL database and SQLite file of its own.
    let pg_name = format!("ssdbase_soak_{}", std::process::id());
    pg_admin(&admin_url, &format!("DROP DATABASE IF EXISTS \"{pg_name}\" WITH (FORCE)"));
    pg_admin(&admin_url, &format!("CREATE DATABASE \"{pg_name}\""));
    let pg_url = format!("{}/{pg_name}", admin_url.rsplit_once('/').unwrap().0);
    // Removed when dropped, on a panic too.
    let tmp = tempfile::Builder::new().prefix("ssdbase_soak_").tempdir().unwrap();
    let dir: PathBuf = tmp.path().to_path_buf();
    let sqlite_url = format!("sqlite://{}", dir.join("soak.db").display());

    let files = corpus_files();
    assert!(files.len() >= 10, "too few real corpus files parse: {}", files.len());
    let screenshots: Vec<(String, Vec<u8>)> = common::screenshots()
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    let slot = |name, db, url: &str| {
        let dumps = dir.join(format!("dumps-{name}"));
        Arc::new(Slot { name, db, url: url.to_string(), dumps, state: Mutex::default() })
    };
    let slots = vec![
        slot("postgres-a", PG, &pg_url),
        slot("postgres-b", PG, &pg_url),
        slot("sqlite", SQLITE, &sqlite_url),
    ];
    // Both PostgreSQL servers start at once on the new database (it is seeded once).
    std::thread::scope(|s| {
        for sl in &slots {
            s.spawn(|| sl.start());
        }
    });
    let killed = 1; // postgres-b
    let a = slots[0].state.lock().unwrap().addr.unwrap();
    let (_, list) = get_json(a, "/api/v1/drives", &[]);
    let mut skus: Vec<String> =
        list["drives"].as_array().unwrap().iter().map(|d| d["id"].as_str().unwrap().to_string()).collect();
    skus.truncate(8);
    assert!(skus.len() >= 4, "the catalogue has too few drives: {list}");
    let mut rated = Vec::new();
    for sku in &skus {
        let (_, table) = get_json(a, &format!("/api/v1/drives/{sku}/rated"), &[]);
        let figures: BTreeSet<String> = table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| !r["rated"].is_null())
            .filter_map(|r| r["figure_id"].as_str().map(str::to_string))
            .collect();
        rated.extend(figures.into_iter().map(|f| (sku.clone(), f)));
    }
    let seconds = cfg.duration.as_secs();
    println!(
        "soak: {seconds} s, {} kills of postgres-b, {} clients per database, {} real corpus files, {} screenshots, \
         drives {}",
        cfg.kills,
        cfg.clients_per_db,
        files.len(),
        screenshots.len(),
        skus.join(",")
    );
    let sh = Arc::new(Shared {
        slots,
        stats: Mutex::default(),
        stop: AtomicBool::new(false),
        started: Instant::now(),
        screenshot_budget: (seconds / 15).max(2) as usize,
        cfg,
        files,
        screenshots,
        next_screenshot: Default::default(),
        skus,
        rated,
        variant: AtomicU64::new(0),
        recent_ids: Default::default(),
        ocr: Mutex::default(),
    });
    let clients: Vec<_> = (0..2 * sh.cfg.clients_per_db)
        .map(|i| {
            let sh = sh.clone();
            std::thread::spawn(move || {
                let db = if i % 2 == 0 { PG } else { SQLITE };
                let client = Client { db, rng: Rng::new(), mine: Vec::new(), jobs: Vec::new() };
                (db, client.run(&sh))
            })
        })
        .collect();

    // Kills at even intervals, a minute report at every whole minute.
    let kill_at: Vec<Duration> =
        (1..=sh.cfg.kills).map(|i| sh.cfg.duration * i as u32 / (sh.cfg.kills as u32 + 1)).collect();
    let mut kills_done = 0;
    let mut minute = 0;
    let mut kill_log = Vec::new();
    for s in &sh.slots {
        s.sample_rss(false);
    }
    while sh.running() {
        std::thread::sleep(Duration::from_millis(200));
        let t = sh.started.elapsed();
        if kills_done < kill_at.len() && t >= kill_at[kills_done] {
            let slot = &sh.slots[killed];
            slot.sample_rss(false);
            slot.kill();
            let down = Instant::now();
            std::thread::sleep(Duration::from_secs(2));
            slot.start();
            kills_done += 1;
            let line = format!(
                "soak: killed postgres-b (SIGKILL) at {} s, serving again after {:.1} s",
                t.as_secs(),
                down.elapsed().as_secs_f64()
            );
            println!("{line}");
            kill_log.push(line);
        }
        if t.as_secs() / 60 > minute {
            minute = t.as_secs() / 60;
            minute_report(&sh, minute);
        }
    }
    sh.stop.store(true, Ordering::Relaxed);
    let mut acked: [Vec<Acked>; 2] = Default::default();
    for c in clients {
        let (db, mine) = c.join().expect("a client failed");
        acked[db].extend(mine);
    }
    let elapsed = sh.started.elapsed();
    minute_report(&sh, minute + 1);

    // The checks.
    let mut report = String::new();
    let stats = sh.stats.lock().unwrap();
    report.push_str(&format!(
        "soak result: {:.1} min, {} requests, {:.1} per second\n",
        elapsed.as_secs_f64() / 60.0,
        stats.requests,
        stats.requests as f64 / elapsed.as_secs_f64()
    ));
    report.push_str(&format!(
        "  errors outside kills: {} 5xx, {} unexpected 4xx/other, {} dropped connections\n",
        stats.server_errors[0], stats.unexpected[0], stats.transport[0]
    ));
    report.push_str(&format!(
        "  during kills of postgres-b ({kills_done}): {} 5xx, {} unexpected statuses, {} dropped connections\n",
        stats.server_errors[1], stats.unexpected[1], stats.transport[1]
    ));
    for e in &stats.examples {
        report.push_str(&format!("    {e}\n"));
    }
    report.push_str("  latency per route over the whole run:\n");
    report.push_str(&latency_table(&stats.routes, false));
    let ocr = sh.ocr.lock().unwrap();
    report.push_str(&format!(
        "  screenshots: {} uploaded, {} read and published, {} not readable, {} still queued at the end\n",
        ocr.uploaded, ocr.published, ocr.failed, ocr.pending_at_end
    ));
    let mut outcome = ocr.outcome_secs.clone();
    outcome.sort_by(f64::total_cmp);
    if let (Some(max), false) = (outcome.last(), outcome.is_empty()) {
        report.push_str(&format!(
            "  screenshot outcome from upload (queue included): median {:.1} s, max {max:.1} s; \
             {} of {} stopped at the {} s recognition deadline\n",
            outcome[outcome.len() / 2],
            ocr.stopped_at_deadline,
            outcome.len(),
            ssdbase::ocr_worker::RECOGNITION_DEADLINE.as_secs()
        ));
    }
    let mut rss_problems = Vec::new();
    for s in &sh.slots {
        let st = s.state.lock().unwrap();
        let growth = st.rss_last as f64 - st.rss_first as f64;
        report.push_str(&format!(
            "  RSS {:<10} ({} starts; of the last process:) start {:.1} MiB, middle {:.1} MiB, end {:.1} MiB, max {:.1} MiB, growth {:+.1} MiB ({:+.0} %)\n",
            s.name,
            st.lives,
            mib(st.rss_first),
            mib(st.rss_mid),
            mib(st.rss_last),
            mib(st.rss_max),
            growth / 1024.0,
            100.0 * growth / st.rss_first.max(1) as f64
        ));
        if st.rss_max > sh.cfg.max_rss_kib {
            rss_problems.push(format!("{}: {:.1} MiB over the bound", s.name, mib(st.rss_max)));
        }
        // Once warm (the middle of a run of five minutes or more), memory grows little.
        if st.rss_mid > 0
            && sh.cfg.duration >= Duration::from_secs(300)
            && st.rss_last > st.rss_mid * 3 / 2 + 64 * 1024
        {
            rss_problems.push(format!(
                "{}: {:.1} MiB at the middle, {:.1} MiB at the end",
                s.name,
                mib(st.rss_mid),
                mib(st.rss_last)
            ));
        }
    }
    // What the servers logged (warnings and errors only).
    for s in &sh.slots {
        let st = s.state.lock().unwrap();
        let lines: Vec<String> = st
            .logs
            .iter()
            .flat_map(|l| l.lock().unwrap().clone())
            .filter(|l| !l.contains("no built site") && !l.contains(" INFO "))
            .collect();
        report.push_str(&format!("  {} logged {} warnings or errors\n", s.name, lines.len()));
        for line in lines.iter().take(10) {
            report.push_str(&format!("    {}\n", line.chars().take(400).collect::<String>()));
        }
    }
    let errors_outside = stats.server_errors[0] + stats.unexpected[0] + stats.transport[0];
    drop(stats);
    drop(ocr);

    let mut checked = 0;
    for (db, slot, url) in [(PG, 0, &pg_url), (SQLITE, 2, &sqlite_url)] {
        let addr = addr_of(&sh, slot);
        let n = check_acknowledged(addr, &acked[db]);
        let (bare_results, bare_submissions) = half_stored(url);
        let agg = check_aggregates(addr);
        let visible = acked[db].iter().filter(|a| a.state == Seen::Visible && !a.uncertain).count();
        let hidden = acked[db].iter().filter(|a| a.state == Seen::Hidden && !a.uncertain).count();
        let deleted = acked[db].iter().filter(|a| a.state == Seen::Deleted && !a.uncertain).count();
        let uncertain = acked[db].iter().filter(|a| a.uncertain).count();
        report.push_str(&format!(
            "  {}: {n} acknowledged results checked ({visible} visible, {hidden} hidden, {deleted} deleted, \
             {uncertain} with an edit cut by a kill), all whole; {bare_results} results without metrics, \
             {bare_submissions} submissions without results; {} visible results recounted: aggregates of {} drives, \
             {} test cells (drive pages and compare) equal to the recount\n",
            DB_NAMES[db], agg.visible, agg.drives, agg.cells
        ));
        assert_eq!((bare_results, bare_submissions), (0, 0), "{}: half-stored data", DB_NAMES[db]);
        checked += n;
    }
    // Both PostgreSQL servers show the same database.
    let (a, b) = (addr_of(&sh, 0), addr_of(&sh, 1));
    let all: Vec<String> = sh.skus.clone();
    for path in ["/api/v1/drives".to_string(), format!("/api/v1/compare?drives={}", all.join(","))] {
        assert_eq!(
            get_json(a, &path, &[]),
            get_json(b, &path, &[]),
            "the two PostgreSQL servers differ on {path}"
        );
    }
    report.push_str(&format!("  submissions checked: {checked} acknowledged results over both databases\n"));
    for line in &kill_log {
        report.push_str(&format!("  {line}\n"));
    }
    println!("{report}");

    for s in &sh.slots {
        s.kill();
    }
    pg_admin(&admin_url, &format!("DROP DATABASE IF EXISTS \"{pg_name}\" WITH (FORCE)"));

    assert!(checked >= 10, "too few acknowledged submissions to mean anything: {checked}");
    assert_eq!(errors_outside, 0, "errors outside kills (see the report above)");
    assert!(kills_done >= 1, "no kill happened");
    assert!(rss_problems.is_empty(), "resident memory: {rss_problems:?}");
}
