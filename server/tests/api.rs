//! The HTTP API end to end, through the real router and a real database. Every test
//! runs twice: against SQLite (a temporary file) and against PostgreSQL
//! (`SSDBASE_TEST_POSTGRES_URL`, which `cargo xtask test` sets up; without it the
//! PostgreSQL tests fail rather than skip, so no run passes without PostgreSQL).

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use ssdbase::api::{app, Limits};
use ssdbase::storage::{self, DynStorage, NewResult, NewSubmission};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tower::ServiceExt;

const CDM3: &str = "\
-----------------------------------------------------------------------
CrystalDiskMark 3.0.1 x64 (C) 2007-2010 hiyohiyo
                           Crystal Dew World : http://crystalmark.info/
-----------------------------------------------------------------------
* MB/s = 1,000,000 byte/s [SATA/300 = 300,000,000 byte/s]

           Sequential Read :   505.825 MB/s
          Sequential Write :   189.856 MB/s
         Random Read 512KB :   381.142 MB/s
        Random Write 512KB :   190.461 MB/s
    Random Read 4KB (QD=1) :    25.206 MB/s [  6153.8 IOPS]
   Random Write 4KB (QD=1) :    63.703 MB/s [ 15552.6 IOPS]
   Random Read 4KB (QD=32) :   271.859 MB/s [ 66371.9 IOPS]
  Random Write 4KB (QD=32) :   174.695 MB/s [ 42650.1 IOPS]

  Test : 1000 MB [C: 33.0% (39.3/119.1 GB)] (x5)
  Date : 2012/02/15 20:39:27
    OS : Windows 7 Ultimate Edition SP1 [6.1 Build 7601] (x64)
";

const C300_64: &str = "crucial-realssd-c300-64gb";
const M2S_64: &str = "plextor-px-m2s-64gb";

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{prefix}_{}_{}_{nanos}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed))
}

enum Cleanup {
    Dir(PathBuf),
    PgDatabase { admin_url: String, name: String },
}

struct TestApp {
    router: Router,
    storage: DynStorage,
    url: String,
    cleanup: Cleanup,
}

struct Reply {
    status: StatusCode,
    content_type: String,
    text: String,
    bytes: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// Asserts an error answer: the status, a JSON body in the one error shape, and the
    /// pointer of its first error.
    fn assert_error(&self, status: StatusCode, pointer: Option<&str>) -> Value {
        assert_eq!(self.status, status, "{}", self.text);
        assert!(self.content_type.starts_with("application/json"), "{} is not JSON", self.content_type);
        let body = self.json();
        let first = &body["errors"][0];
        assert!(first["detail"].as_str().is_some_and(|d| !d.is_empty()), "{body}");
        assert_eq!(first["pointer"].as_str(), pointer, "{body}");
        body
    }
}

fn limits() -> Limits {
    Limits { max_body_bytes: 64 * 1024, request_timeout: Duration::from_secs(30) }
}

impl TestApp {
    async fn sqlite() -> TestApp {
        let dir = std::env::temp_dir().join(unique("ssdbase_api"));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("test.db").display());
        let storage = ssdbase::open(&url).await.unwrap();
        TestApp { router: app(storage.clone(), &limits()), storage, url, cleanup: Cleanup::Dir(dir) }
    }

    async fn postgres() -> TestApp {
        let admin_url = std::env::var("SSDBASE_TEST_POSTGRES_URL").unwrap_or_else(|_| {
            panic!(
                "SSDBASE_TEST_POSTGRES_URL is not set: the PostgreSQL half of the API tests needs a server. \
                 Run `cargo xtask test` (installs and starts PostgreSQL) or set it to \
                 postgres://USER:PASSWORD@HOST/DB for a role that may CREATE DATABASE."
            )
        });
        let name = unique("ssdbase_t");
        let admin =
            sqlx::PgPool::connect(&admin_url).await.expect("cannot connect to SSDBASE_TEST_POSTGRES_URL");
        sqlx::query(&format!("CREATE DATABASE \"{name}\"")).execute(&admin).await.unwrap();
        admin.close().await;
        let base = admin_url.rsplit_once('/').expect("URL with a database name").0;
        let url = format!("{base}/{name}");
        let storage = ssdbase::open(&url).await.unwrap();
        TestApp {
            router: app(storage.clone(), &limits()),
            storage,
            url,
            cleanup: Cleanup::PgDatabase { admin_url, name },
        }
    }

    async fn finish(self) {
        drop(self.router);
        drop(self.storage);
        match self.cleanup {
            Cleanup::Dir(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Cleanup::PgDatabase { admin_url, name } => {
                let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
                sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .execute(&admin)
                    .await
                    .unwrap();
                admin.close().await;
            }
        }
    }

    async fn request(&self, method: Method, uri: &str, content_type: Option<&str>, body: Body) -> Reply {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(ct) = content_type {
            req = req.header(header::CONTENT_TYPE, ct);
        }
        let res = self.router.clone().oneshot(req.body(body).unwrap()).await.unwrap();
        let status = res.status();
        let content_type = res
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
        Reply {
            status,
            content_type,
            text: String::from_utf8_lossy(&bytes).into_owned(),
            bytes: bytes.to_vec(),
        }
    }

    async fn get(&self, uri: &str) -> Reply {
        self.request(Method::GET, uri, None, Body::empty()).await
    }

    async fn post_json(&self, uri: &str, body: &Value) -> Reply {
        self.request(Method::POST, uri, Some("application/json"), Body::from(body.to_string())).await
    }
}

/// Percent-encodes a query value (cursors may hold spaces and any text).
fn url_encode(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn a_result(seq_read: f64) -> Value {
    json!({
        "tool": "crystaldiskmark", "tool_version": "3.0.1 x64", "profile": null,
        "test_size_bytes": 1048576000u64, "passes": 5, "data_pattern": "random",
        "date": null, "os": null, "comment": null,
        "metrics": [
            {"label": "Sequential Read", "access": "seq", "block_size": 1048576, "queue_depth": 1,
             "threads": 1, "op": "read", "mbps": seq_read, "iops": null, "latency_us": null},
            {"label": "Random Read 4KB (QD=32)", "access": "rnd", "block_size": 4096, "queue_depth": 32,
             "threads": 1, "op": "read", "mbps": 120.5, "iops": 29418.9, "latency_us": null}
        ]
    })
}

// ---------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------

async fn health_names_the_backend(app: &TestApp) {
    let r = app.get("/api/v1/health").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["status"], "ok");
    assert_eq!(r.json()["backend"], app.storage.backend());
}

async fn a_new_database_holds_the_seeds(app: &TestApp) {
    let drives = app.get("/api/v1/drives").await.json();
    let c300 = drives["drives"].as_array().unwrap().iter().find(|d| d["id"] == C300_64).expect("C300 64 GB");
    assert!(c300["result_count"].as_i64().unwrap() > 0);
    assert_eq!(c300["rated"]["seq_write_mbps"], 70.0);

    let page = app.get(&format!("/api/v1/drives/{C300_64}")).await;
    assert_eq!(page.status, StatusCode::OK);
    let page = page.json();
    assert_eq!(page["drive"]["id"], C300_64);
    let tests = page["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    for t in tests {
        for g in t["groups"].as_array().unwrap() {
            let ids = g["result_ids"].as_array().unwrap().len() as u64;
            // Several runs of one result never happen in the seeds: one value per result.
            assert!(g["mbps"].is_null() || g["mbps"]["count"].as_u64() == Some(ids), "{g}");
        }
    }
    // Every result is listed under exactly one platform.
    let listed: usize =
        page["platforms"].as_array().unwrap().iter().map(|p| p["result_ids"].as_array().unwrap().len()).sum();
    assert_eq!(listed, page["results"].as_array().unwrap().len());
    // The seeds' C300 64 GB writes 78.93 MB/s against a rated 70.
    let rated: Vec<&Value> = page["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["rated_vs_measured"].as_array().unwrap())
        .filter(|x| x["figure"] == "seq_write_mbps")
        .collect();
    assert!(rated.iter().any(|x| x["measured"] == 78.93 && x["rated"] == 70.0), "{rated:?}");

    app.get("/api/v1/drives/no-such-drive").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
}

async fn a_result_file_is_parsed_stored_and_recognised_when_sent_again(app: &TestApp) {
    let body = json!({"text": CDM3, "tags": {"drive": {"sku": C300_64}, "platform": {"chipset": "ICH10R"}}});
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let created = r.json();
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["url"], format!("/api/v1/results/{id}"));
    assert_eq!(created["duplicate"], false);
    assert_eq!(created["edit_token"].as_str().unwrap().len(), 64);
    // 505.8 MB/s read against the C300 64 GB's rated 355: far above rated.
    assert!(created["flags"].as_array().unwrap().iter().any(|f| f["kind"] == "far-above-rated"), "{created}");

    let stored = app.get(&format!("/api/v1/results/{id}")).await;
    assert_eq!(stored.status, StatusCode::OK);
    let stored = stored.json();
    assert_eq!(stored["result"]["tool_version"], "3.0.1 x64");
    assert_eq!(stored["result"]["metrics"][0]["mbps"], 505.825);
    assert_eq!(stored["tags"]["drive"]["vendor"], "Crucial", "catalogue fills the drive tag");
    assert_eq!(stored["tags"]["platform"]["chipset"], "ICH10R");

    let again = app.post_json("/api/v1/results", &body).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    let again = again.json();
    assert_eq!(again["duplicate"], true);
    assert_eq!(again["id"], id);
    assert!(again["edit_token"].is_null());
}

async fn a_result_in_the_public_format_is_stored(app: &TestApp) {
    let r = app.post_json("/api/v1/results", &json!({"result": a_result(250.0), "tags": {}})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    // The same result laid out differently is the same upload.
    let spaced = format!("{{ \"tags\": {{}},\n  \"result\": {} }}", a_result(250.0));
    let again =
        app.request(Method::POST, "/api/v1/results", Some("application/json"), Body::from(spaced)).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json()["id"], id);
}

async fn bad_submissions_say_what_and_where(app: &TestApp) {
    let post = |body: Value| async move { app.post_json("/api/v1/results", &body).await };
    // A file that does not parse: the line is the pointer.
    let broken = CDM3.replace("505.825 MB/s", "abc MB/s");
    let e = post(json!({"text": broken}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("text line 7"));
    assert!(e["errors"][0]["detail"].as_str().unwrap().contains("line 7"), "{e}");
    post(json!({"text": "hello world"})).await.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("text"));
    post(json!({"text": CDM3, "format": "nope"}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("format"));
    post(json!({"tags": {}})).await.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("text"));
    post(json!({"text": CDM3, "tags": {"drive": {"sku": "no-such-drive"}}}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("tags.drive.sku"));
    post(json!({"text": CDM3, "tags": {"drive": {"capacity_gb": "big"}}}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("tags.drive.capacity_gb"));
    let mut no_metrics = a_result(1.0);
    no_metrics["metrics"] = json!([]);
    post(json!({"result": no_metrics}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("result.metrics"));
    post(json!({"text": CDM3, "colour": "red"}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("colour"));

    let r = app
        .request(Method::POST, "/api/v1/results", Some("application/json"), Body::from("{\"text\": "))
        .await;
    r.assert_error(StatusCode::BAD_REQUEST, None);
    let r = app.request(Method::POST, "/api/v1/results", Some("text/plain"), Body::from(CDM3)).await;
    r.assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, None);
    let huge = json!({"text": "x".repeat(100 * 1024)});
    app.post_json("/api/v1/results", &huge).await.assert_error(StatusCode::PAYLOAD_TOO_LARGE, None);
    // Nothing of the above was stored.
    let list = app.get("/api/v1/results?sort=newest&limit=500").await.json();
    assert!(list["results"].as_array().unwrap().iter().all(|r| r["source"].as_str().is_some()), "only seeds");
}

async fn unknown_paths_and_methods_get_json_errors(app: &TestApp) {
    app.get("/api/v1/nope").await.assert_error(StatusCode::NOT_FOUND, None);
    app.get("/elsewhere").await.assert_error(StatusCode::NOT_FOUND, None);
    app.get("/api/v1/results/999999").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    app.get("/api/v1/results/abc").await.assert_error(StatusCode::BAD_REQUEST, Some("path"));
    app.request(Method::DELETE, "/api/v1/health", None, Body::empty())
        .await
        .assert_error(StatusCode::METHOD_NOT_ALLOWED, None);
}

async fn results_are_filtered_sorted_paged_and_exported(app: &TestApp) {
    let mut ids = Vec::new();
    for (i, chipset) in ["TEST-A", "TEST-A", "TEST-B"].iter().enumerate() {
        let body = json!({"result": a_result(200.0 + i as f64), "tags": {"platform": {"chipset": chipset}}});
        let r = app.post_json("/api/v1/results", &body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        ids.push(r.json()["id"].as_i64().unwrap());
    }
    let a = app.get("/api/v1/results?chipset=TEST-A").await.json();
    let got: Vec<i64> = a["results"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(got, vec![ids[1], ids[0]], "newest first");
    let oldest = app.get("/api/v1/results?chipset=TEST-A&sort=oldest").await.json();
    assert_eq!(oldest["results"][0]["id"], ids[0]);

    // Cursor pagination walks every match exactly once.
    let mut seen = Vec::new();
    let mut uri = "/api/v1/results?tool=crystaldiskmark&block_size=4096&queue_depth=32&limit=7".to_string();
    loop {
        let page = app.get(&uri).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        let page = page.json();
        seen.extend(page["results"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()));
        match page["next_cursor"].as_str() {
            Some(c) => {
                uri = format!(
                    "/api/v1/results?tool=crystaldiskmark&block_size=4096&queue_depth=32&limit=7&cursor={c}"
                )
            }
            None => break,
        }
    }
    let mut sorted = seen.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.dedup();
    assert_eq!(seen, sorted, "no repeats, newest first");
    assert!(ids.iter().all(|id| seen.contains(id)));

    // Sorting on a tag walks the seeds in that order, page by page, including results
    // without the tag (they sort as the smallest) and ties (broken by id).
    for (sort, field) in [("drive", "model"), ("-drive", "model"), ("capacity_gb", "capacity_gb")] {
        let mut walked: Vec<Value> = Vec::new();
        let mut uri = format!("/api/v1/results?sort={sort}&limit=9");
        loop {
            let page = app.get(&uri).await;
            assert_eq!(page.status, StatusCode::OK, "{}", page.text);
            let page = page.json();
            walked.extend(page["results"].as_array().unwrap().iter().cloned());
            match page["next_cursor"].as_str() {
                Some(c) => {
                    let c: String = url_encode(c);
                    uri = format!("/api/v1/results?sort={sort}&limit=9&cursor={c}")
                }
                None => break,
            }
        }
        let all = app.get("/api/v1/results?limit=500").await.json();
        assert_eq!(walked.len(), all["results"].as_array().unwrap().len(), "sort={sort} visits every result");
        let key = |r: &Value| -> (String, i64) {
            let v = &r["tags"]["drive"][field];
            let v = match v {
                Value::Null => String::new(),
                Value::Number(n) => format!("{:>10}", n.as_i64().unwrap()),
                other => other.as_str().unwrap().to_string(),
            };
            (v, r["id"].as_i64().unwrap())
        };
        let keys: Vec<(String, i64)> = walked.iter().map(key).collect();
        let mut expected = keys.clone();
        expected.sort();
        if sort.starts_with('-') {
            expected.reverse();
        }
        assert_eq!(keys, expected, "sort={sort}");
    }
    app.get("/api/v1/results?sort=colour").await.assert_error(StatusCode::BAD_REQUEST, Some("sort"));
    app.get("/api/v1/results?sort=drive&cursor=12")
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("cursor"));

    let csv = app.get("/api/v1/results?chipset=TEST-B&format=csv").await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.content_type.starts_with("text/csv"));
    let lines: Vec<&str> = csv.text.lines().collect();
    assert!(lines[0].starts_with("result_id,drive_sku,"));
    assert_eq!(lines.len(), 3, "header + one line per metric: {}", csv.text);
    assert!(lines[1].starts_with(&format!("{},", ids[2])));
    assert!(lines[1].contains(",202,"), "{}", lines[1]);

    app.get("/api/v1/results?colour=red").await.assert_error(StatusCode::BAD_REQUEST, Some("colour"));
    app.get("/api/v1/results?capacity_gb=big")
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("capacity_gb"));
    app.get("/api/v1/results?limit=0").await.assert_error(StatusCode::BAD_REQUEST, Some("limit"));
}

async fn compare_lines_up_equal_tests_and_shows_missing_ones(app: &TestApp) {
    // Give the M2S 64 GB a test that the C300 64 GB's seeds do not have (CDM 8: another family).
    let mut r = a_result(300.0);
    r["tool_version"] = json!("8.0.4 x64");
    let posted =
        app.post_json("/api/v1/results", &json!({"result": r, "tags": {"drive": {"sku": M2S_64}}})).await;
    assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
    let new_id = posted.json()["id"].as_i64().unwrap();

    let c = app.get(&format!("/api/v1/compare?drives={C300_64},{M2S_64}")).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    let c = c.json();
    assert_eq!(c["drives"][0]["id"], C300_64);
    assert_eq!(c["drives"][1]["id"], M2S_64);
    let tests = c["tests"].as_array().unwrap();
    for t in tests {
        let cells = t["drives"].as_array().unwrap();
        assert_eq!(cells.len(), 2, "every test lists every drive");
        assert_eq!(cells[0]["drive"], C300_64);
        assert!(cells.iter().any(|c| c["missing"] == false));
    }
    let cdm8 = tests
        .iter()
        .find(|t| t["key"]["family"] == "cdm-diskspd" && t["key"]["access"] == "seq")
        .expect("the CDM 8 test is listed");
    assert_eq!(cdm8["drives"][0]["missing"], true);
    assert_eq!(cdm8["drives"][0]["groups"], json!([]));
    assert_eq!(cdm8["drives"][1]["missing"], false);
    let m2s = &cdm8["drives"][1]["groups"];
    assert_eq!(m2s.as_array().unwrap().len(), 1, "{m2s}");
    assert_eq!(m2s[0]["result_ids"], json!([new_id]));
    assert_eq!(m2s[0]["mbps"]["median"], 300.0);
    assert_eq!(m2s[0]["platform_label"], "unknown platform");
    let cdm3 = tests
        .iter()
        .find(|t| t["key"]["family"] == "cdm-native" && t["name"] == "SEQ 1MiB Q1T1 read")
        .unwrap();
    let c300_groups = cdm3["drives"][0]["groups"].as_array().unwrap();
    assert!(c300_groups.len() > 1, "the C300 64 GB was measured on several platforms: {c300_groups:?}");

    // A tag filter narrows the results that take part: only the single-drive ICH10R runs.
    let c = app.get(&format!("/api/v1/compare?drives={C300_64},{M2S_64}&raid_members=4")).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    for t in c.json()["tests"].as_array().unwrap() {
        assert_eq!(t["drives"][1]["missing"], true, "no M2S 64 GB result is a 4-drive RAID");
        for g in t["drives"][0]["groups"].as_array().unwrap() {
            assert_eq!(g["platform"]["raid_members"], 4);
        }
    }
    app.get(&format!("/api/v1/compare?drives={C300_64}&raid_members=four"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("raid_members"));
    app.get(&format!("/api/v1/compare?drives={C300_64}&colour=red"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("colour"));

    app.get(&format!("/api/v1/compare?drives={C300_64},nope"))
        .await
        .assert_error(StatusCode::NOT_FOUND, Some("drives[1]"));
    app.get("/api/v1/compare").await.assert_error(StatusCode::BAD_REQUEST, Some("drives"));
}

/// The seeds measured the SF-2281 WILDFIRE RAID 0 with random and with 0-fill data, and
/// the C300 128 GB on ICH10R and on two Marvell cards: each pools apart.
async fn aggregates_split_by_platform_and_data_pattern(app: &TestApp) {
    let c = app.get("/api/v1/compare?drives=patriot-wildfire-120gb&chipset=Z68&raid_members=2").await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    let c = c.json();
    let split: Vec<&Value> = c["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            let groups = t["drives"][0]["groups"].as_array().unwrap();
            groups.iter().any(|g| g["data_pattern"] == "random")
                && groups.iter().any(|g| g["data_pattern"] == "zero-fill")
        })
        .collect();
    assert!(!split.is_empty(), "a test measured with both patterns: {c}");
    for t in split {
        let groups = t["drives"][0]["groups"].as_array().unwrap();
        let median = |pattern: &str| {
            groups.iter().find(|g| g["data_pattern"] == pattern).unwrap()["mbps"]["median"].as_f64()
        };
        // One platform, two patterns: the medians stay apart rather than averaging.
        assert_ne!(median("random"), median("zero-fill"), "{t}");
        assert!(groups.iter().all(|g| g["platform"] == groups[0]["platform"]));
    }

    let page = app.get("/api/v1/drives/crucial-realssd-c300-128gb").await.json();
    let labels: Vec<&str> =
        page["platforms"].as_array().unwrap().iter().map(|p| p["platform_label"].as_str().unwrap()).collect();
    // ICH10R, the U3S6, and the Kuroutoshikou card in a Gen1 x1 and in a Gen2 x1 slot: the
    // slot alone moves the ceiling from ~200 to ~400 MB/s, so it is a platform of its own.
    assert_eq!(labels.len(), 4, "{labels:?}");
    assert!(labels.iter().any(|l| l.contains("U3S6")), "{labels:?}");
    assert!(labels.iter().any(|l| l.contains("Kuroutoshikou") && l.contains("pcie-1-x1 host")), "{labels:?}");
    assert!(labels.iter().any(|l| l.contains("Kuroutoshikou") && l.contains("pcie-2-x1 host")), "{labels:?}");
    let seq_write = page["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["key"]["access"] == "seq" && t["key"]["op"] == "write")
        .expect("a sequential write test");
    let groups = seq_write["groups"].as_array().unwrap();
    assert!(groups.len() >= 2, "sequential write per platform: {groups:?}");
    assert!(groups.iter().all(|g| g["mbps"]["count"].as_u64().unwrap() >= 1));
}

/// A submission whose second result cannot be stored leaves nothing behind.
async fn a_failed_submission_stores_nothing(app: &TestApp) {
    let result: bench::BenchResult = serde_json::from_value(a_result(123.0)).unwrap();
    let mut bad_tags = bench::Tags::default();
    bad_tags.drive.sku = Some("not-in-the-catalogue".into()); // foreign key violation
    let sub = NewSubmission {
        body: b"two results".to_vec(),
        content_hash: "f".repeat(64),
        format: None,
        edit_token_hash: "0".repeat(64),
        client: None,
        created_at: 0,
        results: vec![
            NewResult { result: result.clone(), tags: Default::default(), source: None, flags: vec![] },
            NewResult { result, tags: bad_tags, source: None, flags: vec![] },
        ],
    };
    let before = app.get("/api/v1/results?limit=500").await.json()["results"].as_array().unwrap().len();
    assert!(app.storage.submit(&sub).await.is_err());
    let after = app.get("/api/v1/results?limit=500").await.json()["results"].as_array().unwrap().len();
    assert_eq!(before, after);
    // The hash was not taken either: a corrected submission with it is stored.
    let mut fixed = sub.clone();
    fixed.results.pop();
    assert!(matches!(app.storage.submit(&fixed).await.unwrap(), storage::Submitted::Stored { .. }));
}

/// A real screenshot from the shared corpus.
fn screenshot(n: usize) -> Vec<u8> {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("SSDBASE_SHARED").map(PathBuf::from).unwrap_or_else(|| loop {
        assert!(dir.pop(), "shared corpus not found: set SSDBASE_SHARED");
        if dir.join("shared/corpus/screenshots").is_dir() {
            break dir.join("shared");
        }
    });
    let dir = shared.join("corpus/screenshots");
    let mut pngs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pngs.sort();
    std::fs::read(&pngs[n]).unwrap()
}

/// Screenshots wait in the database queue: uploads answer at once with their place in
/// the queue, a worker that dies mid-job loses its lease and the job is taken again,
/// and the outcome is there for the uploader after any restart.
async fn screenshots_queue_in_the_database_and_outlive_a_lost_worker(app: &TestApp) {
    let not_an_image = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(CDM3)).await;
    not_an_image.assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, None);
    app.request(Method::POST, "/api/v1/ocr", None, Body::empty())
        .await
        .assert_error(StatusCode::BAD_REQUEST, None);

    let (first, second) = (screenshot(0), screenshot(1));
    let a = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(first.clone())).await;
    assert_eq!(a.status, StatusCode::ACCEPTED, "{}", a.text);
    let a = a.json();
    assert_eq!(a["status"], "queued");
    let b = app.request(Method::POST, "/api/v1/ocr", None, Body::from(second)).await.json();
    assert_eq!(b["queue_position"].as_i64().unwrap(), a["queue_position"].as_i64().unwrap() + 1);
    let again = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(first.clone())).await;
    assert_eq!(again.status, StatusCode::OK, "the same image is the same job");
    assert_eq!(again.json()["id"], a["id"]);

    let image = app.get(a["image_url"].as_str().unwrap()).await;
    assert_eq!(image.content_type, "image/png");
    assert_eq!(image.bytes, first, "the upload comes back byte for byte");

    // A worker takes the first job, then its server dies: nothing finishes it.
    let now = 1_900_000_000;
    let (a_id, b_id) = (a["id"].as_i64().unwrap(), b["id"].as_i64().unwrap());
    let lost = app.storage.claim_ocr(now, 60).await.unwrap().expect("a queued job");
    assert_eq!((lost.id, lost.attempts), (a_id, 1));
    assert_eq!(lost.image, first);
    let running = app.get(&format!("/api/v1/ocr/{a_id}")).await.json();
    assert_eq!(running["status"], "running");
    // Another worker gets the next job, not the leased one; then nothing is left...
    assert_eq!(app.storage.claim_ocr(now, 60).await.unwrap().unwrap().id, b_id);
    assert!(app.storage.claim_ocr(now + 30, 60).await.unwrap().is_none());
    // ...until the dead worker's lease runs out and its job is taken again.
    let retried = app.storage.claim_ocr(now + 61, 60).await.unwrap().expect("the expired job");
    assert_eq!((retried.id, retried.attempts), (a_id, 2));
    app.storage.ocr_progress(a_id, 0.5, "reading values", now + 200).await.unwrap();
    let halfway = app.get(&format!("/api/v1/ocr/{a_id}")).await.json();
    assert_eq!(
        (halfway["progress"].as_f64(), halfway["stage"].as_str()),
        (Some(0.5), Some("reading values"))
    );
    // A progress report renewed the lease: a worker looking at now+150 finds only the
    // second job, whose worker never reported.
    let b_again = app.storage.claim_ocr(now + 150, 60).await.unwrap().unwrap();
    assert_eq!((b_again.id, b_again.attempts), (b_id, 2));
    assert!(app.storage.claim_ocr(now + 150, 60).await.unwrap().is_none());

    app.storage.finish_ocr(a_id, Ok(r#"{"layout":"test"}"#.into()), now + 70).await.unwrap();
    app.storage.finish_ocr(b_id, Err("no benchmark window in the image".into()), now + 70).await.unwrap();
    let done = app.get(&format!("/api/v1/ocr/{a_id}")).await.json();
    assert_eq!(done["status"], "done");
    assert_eq!(done["recognition"]["layout"], "test");
    let failed = app.get(&format!("/api/v1/ocr/{b_id}")).await.json();
    assert_eq!(
        (failed["status"].as_str(), failed["error"].as_str()),
        (Some("failed"), Some("no benchmark window in the image"))
    );
    // A finished job is never claimed again.
    assert!(app.storage.claim_ocr(now + 10_000, 60).await.unwrap().is_none());
    app.get("/api/v1/ocr/999999").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
}

/// Per (drive, pool, test) the visible result ids and each figure's summary, computed
/// from `metrics` and read from the `test_samples` summary: the two must always agree.
async fn samples_both_ways(app: &TestApp, ids: &[String]) -> (Vec<String>, Vec<String>) {
    type Values = (Vec<i64>, Vec<f64>, Vec<f64>, Vec<f64>);
    let mut from_metrics: std::collections::BTreeMap<String, Values> = Default::default();
    for m in app.storage.metrics_for_drives(ids, &[]).await.unwrap() {
        let cell = format!("{} {:?} {:?} {:?}", m.drive_sku, m.platform, m.data_pattern, m.key);
        let e = from_metrics.entry(cell).or_default();
        if e.0.last() != Some(&m.result_id) {
            e.0.push(m.result_id);
        }
        e.1.extend(m.mbps);
        e.2.extend(m.iops);
        e.3.extend(m.latency_us);
    }
    let summarize = bench::analysis::summarize;
    let from_metrics = from_metrics
        .into_iter()
        .map(|(cell, (ids, a, b, c))| {
            format!("{cell}: {ids:?} {:?} {:?} {:?}", summarize(&a), summarize(&b), summarize(&c))
        })
        .collect();
    let mut from_summary = Vec::new();
    for p in app.storage.pools_for_drives(ids).await.unwrap() {
        for (key, t) in p.tests {
            let cell = format!("{} {:?} {:?} {:?}", p.drive_sku, p.platform, p.data_pattern, key);
            from_summary
                .push(format!("{cell}: {:?} {:?} {:?} {:?}", t.result_ids, t.mbps, t.iops, t.latency_us));
        }
    }
    from_summary.sort();
    (from_metrics, from_summary)
}

/// Compare reads the per-drive summary (`test_samples`) instead of every metric row: it
/// must hold exactly the visible metrics after stores, and after a result is hidden and
/// its drive refreshed (what moderation does in its transaction).
async fn the_compare_summary_follows_every_change(app: &TestApp) {
    let ids = vec![C300_64.to_string(), M2S_64.to_string()];
    let (metrics, summary) = samples_both_ways(app, &ids).await;
    assert!(metrics.len() > 10, "the seeds give both drives samples: {metrics:?}");
    assert_eq!(summary, metrics, "after seeding");

    let mut stored = Vec::new();
    for (i, chipset) in ["Z68", "Z68", "X570"].iter().enumerate() {
        let body = json!({"result": a_result(200.0 + i as f64), "tags": {"drive": {"sku": M2S_64}, "platform": {"chipset": chipset}}});
        let posted = app.post_json("/api/v1/results", &body).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
        stored.push(posted.json()["id"].as_i64().unwrap());
    }
    let (metrics, summary) = samples_both_ways(app, &ids).await;
    assert_eq!(summary, metrics, "after three submissions");
    assert!(summary.iter().any(|c| c.contains(&format!(": [{}, {}] ", stored[0], stored[1]))), "{summary:?}");

    // Hide one result the way moderation does: flag and refresh in one transaction.
    let hide = "UPDATE results SET hidden = TRUE WHERE id = ";
    if app.storage.backend() == "sqlite" {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&app.url).await.unwrap();
        let mut tx = c.begin().await.unwrap();
        sqlx::query(&format!("{hide}{}", stored[1])).execute(&mut *tx).await.unwrap();
        storage::summary::sqlite::refresh_summaries_for(&mut tx, &ids[1..]).await.unwrap();
        tx.commit().await.unwrap();
    } else {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(&app.url).await.unwrap();
        let mut tx = c.begin().await.unwrap();
        sqlx::query(&format!("{hide}{}", stored[1])).execute(&mut *tx).await.unwrap();
        storage::summary::postgres::refresh_summaries_for(&mut tx, &ids[1..]).await.unwrap();
        tx.commit().await.unwrap();
    }
    let (metrics, summary) = samples_both_ways(app, &ids).await;
    assert_eq!(summary, metrics, "after hiding a result");
    let hidden_pair = format!(": [{}, {}] ", stored[0], stored[1]);
    assert!(!summary.iter().any(|c| c.contains(&hidden_pair)), "the hidden result left: {summary:?}");
    assert!(summary.iter().any(|c| c.contains(&format!(": [{}] ", stored[0]))), "{summary:?}");

    let c = app.get(&format!("/api/v1/compare?drives={C300_64},{M2S_64}")).await.json();
    let ids_in_compare = c.to_string();
    assert!(ids_in_compare.contains(&format!("[{}]", stored[0])), "{ids_in_compare}");
}

/// Opening a seeded database again neither seeds twice nor fails.
async fn seeds_load_once(app: &TestApp) {
    let n = ssdbase::seed_if_empty(&app.storage).await.unwrap();
    assert_eq!(n, 0);
}

macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let app = super::TestApp::sqlite().await;
                    super::$name(&app).await;
                    app.finish().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let app = super::TestApp::postgres().await;
                    super::$name(&app).await;
                    app.finish().await;
                }
            )*
        }
    };
}

on_both_backends!(
    health_names_the_backend,
    a_new_database_holds_the_seeds,
    a_result_file_is_parsed_stored_and_recognised_when_sent_again,
    a_result_in_the_public_format_is_stored,
    bad_submissions_say_what_and_where,
    unknown_paths_and_methods_get_json_errors,
    results_are_filtered_sorted_paged_and_exported,
    compare_lines_up_equal_tests_and_shows_missing_ones,
    aggregates_split_by_platform_and_data_pattern,
    a_failed_submission_stores_nothing,
    seeds_load_once,
    the_compare_summary_follows_every_change,
    screenshots_queue_in_the_database_and_outlive_a_lost_worker,
);
