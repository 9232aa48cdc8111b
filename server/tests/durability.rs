//! kill -9 at random moments loses no acknowledged submission and leaves no half-stored
//! one. The real `ssdbase serve` binary runs as a child process on a temporary SQLite
//! file (and on a PostgreSQL database); eight clients submit result files over real
//! TCP connections; the server is SIGKILLed several times mid-load and restarted. Then
//! every submission answered 201 must be there whole (result, all its metrics, the
//! upload's bytes hash-equal to what was sent), and no result may lack metrics and no
//! submission may lack results.

use sha2::{Digest, Sha256};
use std::collections::HashMap;
mod common;

use std::net::SocketAddr;
use std::process::Child;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const METRICS_PER_FILE: i64 = 8;
const CLIENTS: usize = 8;
const KILLS: usize = 5;

/// An acknowledged submission: result id and sha256 of the bytes sent.
type Acked = (i64, [u8; 32]);

/// A cheap random source for kill times (the test needs spread, not quality).
fn random_below(n: u64) -> u64 {
    let mut buf = [0u8; 8];
    getrandom::fill(&mut buf).unwrap();
    u64::from_le_bytes(buf) % n
}

/// Starts `ssdbase serve` on a free port with load-test settings (no rate limit).
fn start_server(database_url: &str) -> (Child, SocketAddr) {
    common::start_server(database_url, &["--submit-rate", "0", "--write-rate", "0", "--ocr-rate", "0"], &[])
}

/// POSTs one JSON body; `Some((status, body))` only when the whole answer arrived.
fn post(addr: SocketAddr, body: &str) -> Option<(u16, String)> {
    common::http(addr, "POST", "/api/v1/results", &[("Content-Type", "application/json")], body)
        .map(|r| (r.status, r.body))
}

/// One round: clients submit until the server is killed at a random moment.
fn round(database_url: &str, round: usize, acked: &Arc<Mutex<Vec<Acked>>>, next: &Arc<AtomicU64>) {
    let (mut child, addr) = start_server(database_url);
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (stop, acked, next) = (stop.clone(), acked.clone(), next.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let text = common::CDM3_TEMPLATE
                        .replace("SEQREAD", &format!("{}.{:03}", 100 + n / 1000, n % 1000));
                    let body = serde_json::json!({"text": text}).to_string();
                    match post(addr, &body) {
                        Some((201, answer)) => {
                            let v: serde_json::Value = serde_json::from_str(&answer).unwrap();
                            let id = v["id"].as_i64().unwrap();
                            acked.lock().unwrap().push((id, Sha256::digest(text.as_bytes()).into()));
                        }
                        Some((status, answer)) => panic!("round {round}: unexpected {status}: {answer}"),
                        None => {} // killed mid-request: not acknowledged
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300 + random_below(700)));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }
}

/// What the database holds: per result (submission body, metric count), and how many
/// results lack metrics and submissions lack results.
struct Contents {
    results: HashMap<i64, (Vec<u8>, i64)>,
    results_without_metrics: i64,
    submissions_without_results: i64,
}

const ALL_RESULTS: &str = "SELECT r.id, s.body, (SELECT COUNT(*) FROM metrics m WHERE m.result_id = r.id) \
     FROM results r JOIN submissions s ON s.id = r.submission_id";
const BARE_RESULTS: &str =
    "SELECT COUNT(*) FROM results r WHERE NOT EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = r.id)";
const BARE_SUBMISSIONS: &str =
    "SELECT COUNT(*) FROM submissions s WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.submission_id = s.id)";

fn check(contents: &Contents, acked: &[Acked]) {
    assert!(acked.len() >= 10, "too few acknowledged submissions to mean anything: {}", acked.len());
    for (id, hash) in acked {
        let (body, metrics) =
            contents.results.get(id).unwrap_or_else(|| panic!("acknowledged result {id} lost"));
        assert_eq!(*metrics, METRICS_PER_FILE, "result {id} is missing metrics");
        assert_eq!(<[u8; 32]>::from(Sha256::digest(body)), *hash, "result {id}: upload bytes changed");
    }
    assert_eq!(contents.results_without_metrics, 0, "half-stored results");
    assert_eq!(contents.submissions_without_results, 0, "half-stored submissions");
    eprintln!(
        "durability: {} acknowledged submissions over {KILLS} kills, all present; {} results stored",
        acked.len(),
        contents.results.len()
    );
}

fn run_kills(database_url: &str) -> Vec<Acked> {
    let acked = Arc::new(Mutex::new(Vec::new()));
    let next = Arc::new(AtomicU64::new(0));
    for r in 0..KILLS {
        round(database_url, r, &acked, &next);
    }
    // The database still opens and serves after the last kill.
    let (mut child, addr) = start_server(database_url);
    let probe = post(addr, "{}").expect("the restarted server answers");
    assert_eq!(probe.0, 422, "{}", probe.1);
    child.kill().unwrap();
    child.wait().unwrap();
    let acked = acked.lock().unwrap().clone();
    acked
}

#[test]
fn sigkill_of_sqlite_server_loses_no_acknowledged_submission() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_durability_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let url = format!("sqlite://{}", dir.join("durable.db").display());
    let acked = run_kills(&url);
    let contents = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        let integrity: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&pool).await.unwrap();
        assert_eq!(integrity, "ok");
        let rows: Vec<(i64, Vec<u8>, i64)> = sqlx::query_as(ALL_RESULTS).fetch_all(&pool).await.unwrap();
        Contents {
            results: rows.into_iter().map(|(id, body, n)| (id, (body, n))).collect(),
            results_without_metrics: sqlx::query_scalar(BARE_RESULTS).fetch_one(&pool).await.unwrap(),
            submissions_without_results: sqlx::query_scalar(BARE_SUBMISSIONS).fetch_one(&pool).await.unwrap(),
        }
    });
    check(&contents, &acked);
}

#[test]
fn sigkill_of_postgres_server_loses_no_acknowledged_submission() {
    let admin_url = std::env::var("SSDBASE_TEST_POSTGRES_URL").expect(
        "SSDBASE_TEST_POSTGRES_URL is not set: run `cargo xtask test` (installs and starts PostgreSQL)",
    );
    let name = format!("ssdbase_durability_{}", std::process::id());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
        sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
            .execute(&admin)
            .await
            .unwrap();
        sqlx::query(&format!("CREATE DATABASE \"{name}\"")).execute(&admin).await.unwrap();
    });
    let url = format!("{}/{name}", admin_url.rsplit_once('/').unwrap().0);
    let acked = run_kills(&url);
    let contents = rt.block_on(async {
        let pool = sqlx::PgPool::connect(&url).await.unwrap();
        let rows: Vec<(i64, Vec<u8>, i64)> = sqlx::query_as(ALL_RESULTS).fetch_all(&pool).await.unwrap();
        let c = Contents {
            results: rows.into_iter().map(|(id, body, n)| (id, (body, n))).collect(),
            results_without_metrics: sqlx::query_scalar(BARE_RESULTS).fetch_one(&pool).await.unwrap(),
            submissions_without_results: sqlx::query_scalar(BARE_SUBMISSIONS).fetch_one(&pool).await.unwrap(),
        };
        pool.close().await;
        c
    });
    check(&contents, &acked);
    rt.block_on(async {
        let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
        sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
            .execute(&admin)
            .await
            .unwrap();
    });
}
