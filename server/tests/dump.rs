//! `ssdbase dump` of a served database (seeds, a new submission, a hidden one), then
//! `ssdbase import` of the dump into an empty database: the drive pages, the drive list
//! and a comparison come out the same (ids and times aside), and the dump holds nothing
//! private. Through the real binary.

mod common;

use common::http;
use flate2::read::GzDecoder;
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output};

const C300_64: &str = "crucial-realssd-c300-64gb";
const M2S_64: &str = "plextor-px-m2s-64gb";
const DRIVES: &[&str] = &[C300_64, M2S_64, "plextor-m5pro-128gb", "ocz-vertex-60gb"];
const ADMIN: &str = "dump-test-admin";
const JSON: (&str, &str) = ("Content-Type", "application/json");

fn ssdbase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssdbase")).args(args).env_remove("DATABASE_URL").output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Hides result `id` as the moderator (the reason "spam" is in no dump: checked below).
fn hide(addr: std::net::SocketAddr, id: i64) {
    let bearer = format!("Bearer {ADMIN}");
    let path = format!("/api/v1/results/{id}/hide");
    let r = http(addr, "POST", &path, &[JSON, ("Authorization", &bearer)], r#"{"reason": "spam"}"#).unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
}

fn get(addr: std::net::SocketAddr, path: &str) -> Value {
    let r = http(addr, "GET", path, &[], "").unwrap();
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

/// The JSON without what differs between two databases holding the same data: ids
/// (result, submission), their URLs, and times of storage.
fn without_ids(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| {
                    !(k.as_str() == "id"
                        || k.ends_with("_id")
                        || k.ends_with("_ids")
                        || k.as_str() == "ids"
                        || k.as_str() == "url"
                        || k.as_str() == "created_at"
                        || k.as_str() == "hidden_at")
                })
                .map(|(k, v)| (k.clone(), without_ids(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_ids).collect()),
        // Result ids inside strings such as `/api/v1/results/12`.
        Value::String(s) if s.starts_with("/api/v1/results/") => Value::String("/api/v1/results/N".into()),
        other => other.clone(),
    }
}

fn gz_lines(path: &Path) -> Vec<Value> {
    let mut s = String::new();
    GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_string(&mut s).unwrap();
    s.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// What the source and the re-imported database must agree on.
fn pages(addr: std::net::SocketAddr) -> Vec<Value> {
    let mut out: Vec<Value> =
        DRIVES.iter().map(|d| without_ids(&get(addr, &format!("/api/v1/drives/{d}")))).collect();
    out.push(without_ids(&get(addr, "/api/v1/drives")));
    out.push(without_ids(&get(addr, &format!("/api/v1/compare?drives={C300_64},{M2S_64}"))));
    out.push(without_ids(&get(addr, "/api/v1/observations")));
    out
}

/// Serves `source` (a new database), dumps it into `dir/dump`, imports the dump into
/// `target` (a new database) and compares.
fn round_trip(source: &str, target: &str, dir: &Path) {
    // A served database: the seeds, a new submission on a seed drive, a hidden one.
    let (mut server, addr) = common::start_server(
        source,
        &["--submit-rate", "0", "--write-rate", "0", "--ocr-rate", "0"],
        &[("SSDBASE_ADMIN_TOKEN", ADMIN)],
    );
    let post = |seq: &str, client: &str| {
        let body = json!({"text": common::CDM3_TEMPLATE.replace("SEQREAD", seq), "tags": {"drive": {"sku": C300_64},
            "platform": {"chipset": "ICH10R"}}});
        let r = http(addr, "POST", "/api/v1/results", &[JSON, ("X-Forwarded-For", client)], body.to_string())
            .unwrap();
        assert_eq!(r.status, 201, "{}", r.body);
        serde_json::from_str::<Value>(&r.body).unwrap()
    };
    let kept = post("333.333", "203.0.113.77");
    let hidden = post("444.444", "203.0.113.78");
    let hidden_id = hidden["id"].as_i64().unwrap();
    hide(addr, hidden_id);
    let before = pages(addr);
    // The comparison means something: the C300 page lists the seeds and the new result.
    let c300 = before[0]["results"].as_array().expect("results on the drive page");
    assert!(c300.len() > 5, "{}", before[0]);
    assert!(before[0].to_string().contains("333.333"), "the new result is on its drive page");
    server.kill().unwrap();
    server.wait().unwrap();

    let out_dir = dir.join("dump");
    let out = ssdbase(&["dump", "--database-url", source, "--to", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    // Never into a directory that holds files.
    let again = ssdbase(&["dump", "--database-url", source, "--to", out_dir.to_str().unwrap()]);
    assert!(!again.status.success() && text(&again).contains("not empty"), "{}", text(&again));

    let manifest: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["format"], "ssdbase-dump");
    assert_eq!(manifest["version"], 1);
    let results = gz_lines(&out_dir.join("results.jsonl.gz"));
    let drives = gz_lines(&out_dir.join("drives.jsonl.gz"));
    assert_eq!(manifest["files"]["results.jsonl.gz"], results.len());
    assert_eq!(manifest["files"]["drives.jsonl.gz"], drives.len());
    assert!(drives.iter().any(|d| d["id"] == C300_64));
    assert!(results.iter().any(|r| r["id"] == kept["id"]), "the new result is in the dump");
    assert!(!results.iter().any(|r| r["id"] == hidden_id), "a hidden result is in the dump");
    for r in &results {
        assert_eq!(
            r["test_keys"].as_array().unwrap().len(),
            r["result"]["metrics"].as_array().unwrap().len(),
            "{r}"
        );
    }
    // The CSV: a header, then one row per metric of the same results.
    let mut csv = String::new();
    GzDecoder::new(std::fs::File::open(out_dir.join("results.csv.gz")).unwrap())
        .read_to_string(&mut csv)
        .unwrap();
    let metrics: usize = results.iter().map(|r| r["result"]["metrics"].as_array().unwrap().len()).sum();
    assert!(csv.starts_with("result_id,"), "{}", &csv[..80.min(csv.len())]);
    assert_eq!(csv.matches("\r\n").count(), metrics + 1);
    assert_eq!(manifest["files"]["results.csv.gz"], metrics);
    assert!(csv.contains("333.333") && !csv.contains("444.444"));
    // Nothing private in any file.
    for file in ["results.jsonl.gz", "drives.jsonl.gz", "observations.jsonl.gz", "results.csv.gz"] {
        let mut all = String::new();
        GzDecoder::new(std::fs::File::open(out_dir.join(file)).unwrap()).read_to_string(&mut all).unwrap();
        for private in ["edit_token", "203.0.113.7", "client", "\"hidden", "spam", "444.444", "body"] {
            assert!(!all.contains(private), "{file} holds {private:?}");
        }
    }

    // Into an empty database: the same pages.
    let out = ssdbase(&["import", out_dir.to_str().unwrap(), "--database-url", target]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(&format!("{} results stored", results.len())), "{}", text(&out));
    let (mut server, addr) = common::start_server(target, &[], &[]);
    let after = pages(addr);
    server.kill().unwrap();
    server.wait().unwrap();
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b, a, "a page differs after the round trip");
    }
    // A second import is refused: the database is no longer empty.
    let out = ssdbase(&["import", out_dir.to_str().unwrap(), "--database-url", target]);
    assert!(!out.status.success() && text(&out).contains("not empty"), "{}", text(&out));
}

/// A fresh directory, removed with everything in it when dropped (on a panic too).
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("ssdbase_dump_{name}_")).tempdir().unwrap()
}

#[test]
fn sqlite_dump_holds_only_public_data_and_imports_into_the_same_drive_pages() {
    let tmp = temp_dir("sqlite");
    let dir = tmp.path();
    let source = format!("sqlite://{}", dir.join("source.db").display());
    let target = format!("sqlite://{}", dir.join("target.db").display());
    round_trip(&source, &target, dir);
}

#[test]
fn postgres_dump_holds_only_public_data_and_imports_into_the_same_drive_pages() {
    let admin_url = std::env::var("SSDBASE_TEST_POSTGRES_URL").expect(
        "SSDBASE_TEST_POSTGRES_URL is not set: run `cargo xtask test` (installs and starts PostgreSQL)",
    );
    let names = [
        format!("ssdbase_dump_src_{}", std::process::id()),
        format!("ssdbase_dump_dst_{}", std::process::id()),
    ];
    let rt = tokio::runtime::Runtime::new().unwrap();
    let admin = |sql: String| {
        rt.block_on(async {
            let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
            sqlx::query(&sql).execute(&admin).await.unwrap();
            admin.close().await;
        })
    };
    for db in &names {
        admin(format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"));
        admin(format!("CREATE DATABASE \"{db}\""));
    }
    let base = admin_url.rsplit_once('/').unwrap().0;
    let tmp = temp_dir("postgres");
    let dir = tmp.path();
    round_trip(&format!("{base}/{}", names[0]), &format!("{base}/{}", names[1]), dir);
    for db in &names {
        admin(format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"));
    }
}

/// `serve --dump-dir DIR --dump-every-hours H`: a dump appears soon after start, is listed
/// by `GET /api/v1/dumps` and downloads byte for byte (whole or by range); the next dumps
/// carry new results and leave hidden ones out; only the newest three are kept; a
/// downloaded dump imports into an empty database; nothing outside a dump's files is
/// served.
#[test]
fn served_dumps_are_regenerated_listed_downloaded_and_imported() {
    let tmp = temp_dir("served");
    let dir = tmp.path();
    let db = format!("sqlite://{}", dir.join("served.db").display());
    let dumps = dir.join("dumps");
    // 0.0005 h = 1.8 s between dumps.
    let (mut server, addr) = common::start_server(
        &db,
        &[
            "--submit-rate",
            "0",
            "--write-rate",
            "0",
            "--dump-dir",
            dumps.to_str().unwrap(),
            "--dump-every-hours",
            "0.0005",
        ],
        &[("SSDBASE_ADMIN_TOKEN", ADMIN)],
    );
    let list = || get(addr, "/api/v1/dumps");
    let wait_for = |what: &str, done: &dyn Fn(&Value) -> bool| -> Value {
        for _ in 0..300 {
            let l = list();
            if done(&l) {
                return l;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("no {what} within 30 s: {}", list());
    };
    let first = wait_for("first dump", &|l| !l["dumps"].as_array().unwrap().is_empty());
    assert_eq!(first["enabled"], true);
    assert_eq!(first["layout_version"], 1);
    assert!((first["every_hours"].as_f64().unwrap() - 0.0005).abs() < 1e-9, "{first}");
    let newest = &first["dumps"][0];
    let stamp = newest["created_at"].as_i64().unwrap();
    let names: Vec<&str> =
        newest["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["manifest.json", "drives.jsonl.gz", "observations.jsonl.gz", "results.csv.gz", "results.jsonl.gz"]
    );
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dumps.join(stamp.to_string()).join("manifest.json")).unwrap())
            .unwrap();
    for f in newest["files"].as_array().unwrap() {
        let name = f["name"].as_str().unwrap();
        let on_disk = std::fs::read(dumps.join(stamp.to_string()).join(name)).unwrap();
        assert_eq!(f["bytes"], on_disk.len(), "{name}");
        if name != "manifest.json" {
            assert_eq!(f["lines"], manifest["files"][name], "{name}");
        }
        let r = http(addr, "GET", f["url"].as_str().unwrap(), &[], "").unwrap();
        assert_eq!(r.status, 200, "{name}: {}", r.body);
        assert_eq!(r.bytes, on_disk, "{name} downloads as written");
        assert_eq!(r.header("cache-control"), Some("public, max-age=31536000, immutable"));
        let attachment = format!("attachment; filename=\"ssdbase-{stamp}-{name}\"");
        assert_eq!(r.header("content-disposition"), Some(attachment.as_str()));
        let kind = if name.ends_with(".gz") { "application/gzip" } else { "application/json" };
        assert_eq!(r.header("content-type"), Some(kind), "{name}");
    }
    // Resumable: a byte range.
    let url = format!("/api/v1/dumps/{stamp}/results.jsonl.gz");
    let r = http(addr, "GET", &url, &[("Range", "bytes=10-19")], "").unwrap();
    assert_eq!(r.status, 206);
    assert_eq!(
        r.bytes,
        std::fs::read(dumps.join(stamp.to_string()).join("results.jsonl.gz")).unwrap()[10..20]
    );

    // A new result and a hidden one: the next dump has the first and not the second.
    let post = |seq: &str| {
        let body = json!({"text": common::CDM3_TEMPLATE.replace("SEQREAD", seq), "tags": {"drive": {"sku": C300_64}}});
        let r = http(addr, "POST", "/api/v1/results", &[JSON], body.to_string()).unwrap();
        assert_eq!(r.status, 201, "{}", r.body);
        serde_json::from_str::<Value>(&r.body).unwrap()["id"].as_i64().unwrap()
    };
    let kept = post("345.678");
    let hidden = post("456.789");
    hide(addr, hidden);
    let after = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let later =
        wait_for("dump after the submissions", &|l| l["dumps"][0]["created_at"].as_i64().unwrap() > after);
    let latest = dir.join("latest");
    std::fs::create_dir_all(&latest).unwrap();
    for f in later["dumps"][0]["files"].as_array().unwrap() {
        let name = f["name"].as_str().unwrap();
        let r = http(addr, "GET", &format!("/api/v1/dumps/latest/{name}"), &[], "").unwrap();
        assert_eq!(r.status, 200, "{name}");
        assert_eq!(r.header("cache-control"), Some("public, no-cache"));
        std::fs::write(latest.join(name), &r.bytes).unwrap();
    }
    let results = gz_lines(&latest.join("results.jsonl.gz"));
    assert!(results.iter().any(|r| r["id"] == kept), "the new result is in the next dump");
    assert!(!results.iter().any(|r| r["id"] == hidden), "a hidden result is in a dump");

    // Regenerated on schedule, the newest three kept.
    wait_for("fourth dump", &|l| l["dumps"][0]["created_at"].as_i64().unwrap() > after + 4);
    let l = list();
    let on_disk = std::fs::read_dir(&dumps).unwrap().filter_map(|e| e.ok()).count();
    assert!(l["dumps"].as_array().unwrap().len() <= 3 && on_disk <= 4, "{l} ({on_disk} entries on disk)");

    // Only a dump's own files.
    for path in [
        "/api/v1/dumps/123/results.jsonl.gz",
        "/api/v1/dumps/latest/served.db",
        "/api/v1/dumps/latest/..%2F..%2Fserved.db",
        "/api/v1/dumps/..%2F/manifest.json",
    ] {
        let r = http(addr, "GET", path, &[], "").unwrap();
        assert_eq!(r.status, 404, "{path}: {}", r.body);
        assert!(r.body.contains("\"detail\""), "{path}: {}", r.body);
    }
    server.kill().unwrap();
    server.wait().unwrap();

    // The download imports into an empty database.
    let target = format!("sqlite://{}", dir.join("target.db").display());
    let out = ssdbase(&["import", latest.to_str().unwrap(), "--database-url", &target]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(&format!("{} results stored", results.len())), "{}", text(&out));

    // A server without dumps says so.
    let (mut server, addr) = common::start_server(&target, &[], &[]);
    let l = get(addr, "/api/v1/dumps");
    assert_eq!(l["enabled"], false);
    assert_eq!(http(addr, "GET", "/api/v1/dumps/latest/manifest.json", &[], "").unwrap().status, 404);
    server.kill().unwrap();
    server.wait().unwrap();
}
