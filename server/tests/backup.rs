//! `ssdbase backup` while the real `ssdbase serve` takes submissions, then
//! `ssdbase restore` into a fresh database: every submission acknowledged before the
//! backup started is in the restored database, whole, and a server on it serves it. On
//! SQLite (VACUUM INTO) and on PostgreSQL (pg_dump / pg_restore).

mod common;

use sha2::{Digest, Sha256};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const METRICS_PER_FILE: i64 = 8;
const CLIENTS: usize = 4;

/// An acknowledged submission: result id and sha256 of the bytes sent.
type Acked = (i64, [u8; 32]);

fn ssdbase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssdbase")).args(args).env_remove("DATABASE_URL").output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Clients submit while the backup runs; returns the submissions acknowledged before
/// the backup started. A screenshot waits unpublished in the queue meanwhile: the backup
/// must not hold it.
fn backup_under_load(source: &str, file: &Path) -> Vec<Acked> {
    let (mut server, addr) = common::start_server(
        source,
        &["--submit-rate", "0", "--write-rate", "0", "--ocr-rate", "0", "--ocr-workers", "0"],
        &[],
    );
    let screenshot = std::fs::read(&common::screenshots()[0]).unwrap();
    let r = common::http(addr, "POST", "/api/v1/ocr", &[("Content-Type", "image/png")], &screenshot).unwrap();
    assert_eq!(r.status, 202, "{}", r.body);
    let acked: Arc<Mutex<Vec<Acked>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicU64::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (stop, acked, next) = (stop.clone(), acked.clone(), next.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let text = common::CDM3_TEMPLATE
                        .replace("SEQREAD", &format!("{}.{:03}", 100 + n / 1000, n % 1000));
                    let body = serde_json::json!({"text": text}).to_string();
                    let r = common::http(
                        addr,
                        "POST",
                        "/api/v1/results",
                        &[("Content-Type", "application/json")],
                        body,
                    )
                    .expect("the server answers");
                    assert_eq!(r.status, 201, "{}", r.body);
                    let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
                    acked
                        .lock()
                        .unwrap()
                        .push((v["id"].as_i64().unwrap(), Sha256::digest(text.as_bytes()).into()));
                }
            })
        })
        .collect();
    let started = Instant::now();
    while acked.lock().unwrap().len() < 40 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = acked.lock().unwrap().clone();
    let out = ssdbase(&["backup", "--database-url", source, "--to", file.to_str().unwrap()]);
    let during = acked.lock().unwrap().len() - before.len();
    // Keep the load on a little after the backup, then stop.
    std::thread::sleep(Duration::from_millis(200));
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().unwrap();
    }
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(out.status.success(), "backup failed: {}", text(&out));
    let copy = std::fs::read(file).unwrap();
    let piece = &screenshot[screenshot.len() / 2..screenshot.len() / 2 + 64];
    assert!(!copy.windows(piece.len()).any(|w| w == piece), "the unpublished screenshot is in the backup");
    assert!(during > 0, "no submission was acknowledged while the backup ran: the test proves nothing");
    eprintln!(
        "backup: {} submissions acknowledged before it, {during} while it ran, {} in all",
        before.len(),
        acked.lock().unwrap().len()
    );
    // A second backup to the same file is refused; the first is kept.
    let len = std::fs::metadata(file).unwrap().len();
    let again = ssdbase(&["backup", "--database-url", source, "--to", file.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(text(&again).contains("exists"), "{}", text(&again));
    assert_eq!(std::fs::metadata(file).unwrap().len(), len);
    before
}

/// `ssdbase restore` into `target`; then every acknowledged submission must be in it
/// whole, and a server on it must serve each.
fn restore_and_check(file: &Path, target: &str, before: &[Acked]) {
    let out = ssdbase(&["restore", "--from", file.to_str().unwrap(), "--database-url", target]);
    assert!(out.status.success(), "restore failed: {}", text(&out));
    let rows: Vec<(i64, Vec<u8>, i64)> = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let q = "SELECT r.id, s.body, (SELECT COUNT(*) FROM metrics m WHERE m.result_id = r.id) \
                 FROM results r JOIN submissions s ON s.id = r.submission_id";
        if target.starts_with("sqlite:") {
            let pool = sqlx::SqlitePool::connect(target).await.unwrap();
            let rows = sqlx::query_as(q).fetch_all(&pool).await.unwrap();
            pool.close().await;
            rows
        } else {
            let pool = sqlx::PgPool::connect(target).await.unwrap();
            let rows = sqlx::query_as(q).fetch_all(&pool).await.unwrap();
            pool.close().await;
            rows
        }
    });
    let jobs: i64 = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let q = "SELECT COUNT(*) FROM ocr_jobs";
        if target.starts_with("sqlite:") {
            let pool = sqlx::SqlitePool::connect(target).await.unwrap();
            let n = sqlx::query_scalar(q).fetch_one(&pool).await.unwrap();
            pool.close().await;
            n
        } else {
            let pool = sqlx::PgPool::connect(target).await.unwrap();
            let n = sqlx::query_scalar(q).fetch_one(&pool).await.unwrap();
            pool.close().await;
            n
        }
    });
    assert_eq!(jobs, 0, "a backup holds no screenshot job");
    let stored: std::collections::HashMap<i64, (Vec<u8>, i64)> =
        rows.into_iter().map(|(id, body, n)| (id, (body, n))).collect();
    for (id, hash) in before {
        let (body, metrics) =
            stored.get(id).unwrap_or_else(|| panic!("acknowledged result {id} not in the backup"));
        assert_eq!(*metrics, METRICS_PER_FILE, "result {id} restored without all its metrics");
        assert_eq!(<[u8; 32]>::from(Sha256::digest(body)), *hash, "result {id}: upload bytes changed");
    }
    let (mut server, addr): (_, SocketAddr) = common::start_server(target, &[], &[]);
    for (id, _) in before {
        let r = common::http(addr, "GET", &format!("/api/v1/results/{id}"), &[], "").expect("answers");
        assert_eq!(r.status, 200, "restored result {id}: {}", r.body);
    }
    // The restored server also takes new submissions (its id sequence is restored too).
    let text = common::CDM3_TEMPLATE.replace("SEQREAD", "999.999");
    let r = common::http(
        addr,
        "POST",
        "/api/v1/results",
        &[("Content-Type", "application/json")],
        serde_json::json!({"text": text}).to_string(),
    )
    .unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn sqlite_backup_under_load_restores_every_acknowledged_submission() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_backup_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let source = format!("sqlite://{}", dir.join("live.db").display());
    let file = dir.join("live.backup.db");
    let before = backup_under_load(&source, &file);
    let target = format!("sqlite://{}", dir.join("restored.db").display());
    restore_and_check(&file, &target, &before);
    // A restore never overwrites a database that holds data.
    let out = ssdbase(&["restore", "--from", file.to_str().unwrap(), "--database-url", &source]);
    assert!(!out.status.success());
    assert!(text(&out).contains("not empty"), "{}", text(&out));
    // An empty file is a fine target (what `touch` or a provisioning tool leaves).
    let empty = dir.join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let out = ssdbase(&[
        "restore",
        "--from",
        file.to_str().unwrap(),
        "--database-url",
        &format!("sqlite://{}", empty.display()),
    ]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn postgres_backup_under_load_restores_every_acknowledged_submission() {
    let admin_url = std::env::var("SSDBASE_TEST_POSTGRES_URL").expect(
        "SSDBASE_TEST_POSTGRES_URL is not set: run `cargo xtask test` (installs and starts PostgreSQL)",
    );
    if Command::new("pg_dump").arg("--version").output().is_err() {
        // The postgresql package that `cargo xtask` installs brings pg_dump; say so loudly
        // rather than pass.
        panic!("pg_dump is not installed (Debian package postgresql-client): cannot test PostgreSQL backups");
    }
    let live = format!("ssdbase_backup_live_{}", std::process::id());
    let restored = format!("ssdbase_backup_restored_{}", std::process::id());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let admin = |sql: String| {
        let admin_url = admin_url.clone();
        rt.block_on(async move {
            let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
            sqlx::query(&sql).execute(&admin).await.unwrap();
            admin.close().await;
        })
    };
    for db in [&live, &restored] {
        admin(format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"));
        admin(format!("CREATE DATABASE \"{db}\""));
    }
    let base = admin_url.rsplit_once('/').unwrap().0;
    let tmp = tempfile::Builder::new().prefix("ssdbase_pgbackup_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let file = dir.join("live.pgdump");
    let before = backup_under_load(&format!("{base}/{live}"), &file);
    restore_and_check(&file, &format!("{base}/{restored}"), &before);
    for db in [&live, &restored] {
        admin(format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"));
    }
}
