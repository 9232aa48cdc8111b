//! The HTTP API end to end, through the real router and a real database. Every test
//! runs twice: against SQLite (a temporary file) and against PostgreSQL
//! (`SSDBASE_TEST_POSTGRES_URL`, which `cargo xtask test` sets up; without it the
//! PostgreSQL tests fail rather than skip, so no run passes without PostgreSQL).

mod common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use ssdbase::api::{app_with, ApiConfig, Limits};
use ssdbase::storage::{self, DynStorage, NewResult, NewSubmission};
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tower::ServiceExt;

/// The OpenAPI document against the server (its own file: it is a suite of its own).
#[path = "api/openapi.rs"]
mod openapi;
use openapi::*;

/// Every field of `bench::FIELDS` through every place derived from it (its own file).
#[path = "api/fields.rs"]
mod fields;
use fields::*;

/// Drive identity: community drives, model strings, ambiguity, junk (its own file).
#[path = "api/identity.rs"]
mod identity;
use identity::*;

/// Behaviour under load: a sweep's curves and knee, latency percentiles (its own file).
#[path = "api/load.rs"]
mod load;
use load::*;

/// Catalogue contributions: proposals, decisions, history, merges (its own file).
#[path = "api/catalogue.rs"]
mod catalogue;
use catalogue::*;

/// The seed dataset against its articles (its own file: one test per correction).
#[path = "api/seeds.rs"]
mod seeds;
use seeds::*;

/// Conditional GET on the chart embeds.
#[path = "api/caching.rs"]
mod caching;
use caching::*;

/// Link previews, oEmbed and the iframe pages.
#[path = "api/sharing.rs"]
mod sharing;
use sharing::*;

/// Factor effects: the seeds' stories, pairing, combining.
#[path = "api/effects.rs"]
mod effects;
use effects::*;

/// Private uploads, retention, per-client limits, security headers, panics.
#[path = "api/privacy.rs"]
mod privacy;
use privacy::*;

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
    /// Removed when dropped, on a panic too.
    Dir(tempfile::TempDir),
    PgDatabase {
        admin_url: String,
        name: String,
    },
}

struct TestApp {
    router: Router,
    storage: DynStorage,
    /// The database URL, for checks in SQL that the API does not offer.
    url: String,
    cleanup: Cleanup,
}

struct Reply {
    status: StatusCode,
    content_type: String,
    headers: HeaderMap,
    text: String,
    bytes: Vec<u8>,
}

const ADMIN: &str = "test-admin-token-0123456789";

/// What a request carries besides method, path and body.
#[derive(Default, Clone, Copy)]
struct Extra<'a> {
    content_type: Option<&'a str>,
    bearer: Option<&'a str>,
    peer: Option<SocketAddr>,
    /// More request headers.
    headers: &'a [(&'a str, &'a str)],
}

/// A GET through `router` with extra request headers.
async fn get_on(router: &Router, uri: &str, headers: &[(header::HeaderName, &str)]) -> Reply {
    let mut req = Request::builder().method(Method::GET).uri(uri);
    for (name, value) in headers {
        req = req.header(name, *value);
    }
    Reply::of(router.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap()).await
}

impl Reply {
    /// The whole answer, read.
    async fn of(res: axum::response::Response) -> Reply {
        let status = res.status();
        let headers = res.headers().clone();
        let content_type =
            headers.get(header::CONTENT_TYPE).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
        Reply {
            status,
            content_type,
            headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
            bytes: bytes.to_vec(),
        }
    }

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

/// The test configuration: small body limit, a moderator, no rate limit (one test
/// builds its own router with one).
fn config() -> ApiConfig {
    ApiConfig { limits: limits(), admin_token: Some(ADMIN.into()), ..ApiConfig::default() }
}

impl TestApp {
    async fn sqlite() -> TestApp {
        let dir = tempfile::Builder::new().prefix("ssdbase_api_").tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("test.db").display());
        let storage = ssdbase::open(&url).await.unwrap();
        TestApp { router: app_with(storage.clone(), &config()), storage, url, cleanup: Cleanup::Dir(dir) }
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
            router: app_with(storage.clone(), &config()),
            storage,
            url,
            cleanup: Cleanup::PgDatabase { admin_url, name },
        }
    }

    async fn finish(self) {
        drop(self.router);
        drop(self.storage);
        match self.cleanup {
            Cleanup::Dir(dir) => drop(dir),
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
        self.send(&self.router, method, uri, Extra { content_type, ..Extra::default() }, body).await
    }

    async fn send(&self, router: &Router, method: Method, uri: &str, extra: Extra<'_>, body: Body) -> Reply {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(ct) = extra.content_type {
            req = req.header(header::CONTENT_TYPE, ct);
        }
        if let Some(token) = extra.bearer {
            req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        for (name, value) in extra.headers {
            req = req.header(*name, *value);
        }
        let mut req = req.body(body).unwrap();
        if let Some(peer) = extra.peer {
            // What `into_make_service_with_connect_info` gives a real connection.
            req.extensions_mut().insert(ConnectInfo(peer));
        }
        Reply::of(router.clone().oneshot(req).await.unwrap()).await
    }

    /// A JSON request with a bearer token (or none).
    async fn authed(&self, method: Method, uri: &str, token: Option<&str>, body: Option<&Value>) -> Reply {
        let extra =
            Extra { content_type: body.map(|_| "application/json"), bearer: token, ..Extra::default() };
        let body = body.map_or(Body::empty(), |b| Body::from(b.to_string()));
        self.send(&self.router, method, uri, extra, body).await
    }

    /// One number from SQL run directly on the test database.
    async fn scalar(&self, sql: &str) -> i64 {
        if self.url.starts_with("sqlite:") {
            let pool = sqlx::SqlitePool::connect(&self.url).await.unwrap();
            let n: i64 = sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap();
            pool.close().await;
            n
        } else {
            let pool = sqlx::PgPool::connect(&self.url).await.unwrap();
            let n: i64 = sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap();
            pool.close().await;
            n
        }
    }

    /// Ids of the results a browse query returns (all pages of up to 500).
    async fn browse_ids(&self, query: &str, token: Option<&str>) -> Vec<i64> {
        let r = self.authed(Method::GET, &format!("/api/v1/results?limit=500&{query}"), token, None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        r.json()["results"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect()
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
    api_types::links::encode(v)
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
    assert_eq!(page["result_count"].as_u64(), Some(listed as u64));
    // Asked without its results (what the site's drive page asks): the same count,
    // tests and firmware, in a fraction of the bytes.
    let short = app.get(&format!("/api/v1/drives/{C300_64}?results=false")).await;
    assert_eq!(short.status, StatusCode::OK, "{}", short.text);
    let short_json = short.json();
    assert_eq!(short_json["result_count"], page["result_count"]);
    assert_eq!(
        (short_json["results"].as_array().map(Vec::len), short_json["platforms"].as_array().map(Vec::len)),
        (Some(0), Some(0))
    );
    assert_eq!(
        (&short_json["tests"], &short_json["firmware"], &short_json["drive"]),
        (&page["tests"], &page["firmware"], &page["drive"])
    );
    let full_len = page.to_string().len();
    assert!(short.text.len() < full_len, "{} of {full_len} bytes", short.text.len());
    app.get(&format!("/api/v1/drives/{C300_64}?results=some"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("results"));
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

async fn a_runners_record_is_kept_with_its_result_and_only_with_one(app: &TestApp) {
    let runner = json!({
        "runner_version": "0.1.0",
        "fio_version": "fio-3.33",
        "jobs": [{"test": "SEQ1M Q8T1 read", "job": "[SEQ1M Q8T1]\nrw=read\nbs=1M\niodepth=8\n"}],
        "facts": [{"field": "drive_model", "value": "CT500P2SSD8", "source": "sysfs /sys/block/nvme0n1/device/model"}],
        "typed": ["chipset"]
    });
    let r = app.post_json("/api/v1/results", &json!({"result": a_result(321.0), "runner": runner})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let view = app.get(&format!("/api/v1/results/{id}")).await.json();
    assert_eq!(view["upload"]["runner"], runner, "{view}");
    assert!(view["upload"]["ocr"].is_null());
    // The stored upload is what was sent, the record included.
    let upload = app.get(&format!("/api/v1/results/{id}/upload")).await;
    assert!(upload.text.contains("sysfs /sys/block/nvme0n1/device/model"), "{}", upload.text);
    // On its own, and as the HTML the result page shows, every text escaped.
    assert_eq!(app.get(&format!("/api/v1/results/{id}/runner")).await.json(), runner);
    let html = app.get(&format!("/fragments/results/{id}/runner")).await;
    assert!(
        html.text.contains("sysfs /sys/block/nvme0n1/device/model") && html.text.contains("<details"),
        "{}",
        html.text
    );
    assert!(html.text.contains("typed by hand"), "{}", html.text);
    let mut marked = runner.clone();
    marked["facts"][0]["value"] = json!("<script>x</script>");
    let r = app.post_json("/api/v1/results", &json!({"result": a_result(325.0), "runner": marked})).await;
    let other = r.json()["id"].as_i64().unwrap();
    let html = app.get(&format!("/fragments/results/{other}/runner")).await.text;
    assert!(html.contains("&lt;script&gt;x&lt;/script&gt;") && !html.contains("<script>"), "{html}");
    app.get(&format!("/api/v1/results/{id}/runner?format=html"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("format"));
    let plain = app.post_json("/api/v1/results", &json!({"result": a_result(326.0)})).await.json()["id"]
        .as_i64()
        .unwrap();
    app.get(&format!("/api/v1/results/{plain}/runner")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));

    // A result file was measured by whatever wrote it, whatever a record beside it says.
    app.post_json("/api/v1/results", &json!({"text": CDM3, "runner": runner}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("runner"));
    let mut junk = runner.clone();
    junk["jobs"] = json!([]);
    app.post_json("/api/v1/results", &json!({"result": a_result(322.0), "runner": junk}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("runner.jobs"));
    junk = runner.clone();
    junk["facts"][0]["value"] = json!("x".repeat(301));
    app.post_json("/api/v1/results", &json!([{"result": a_result(323.0), "runner": junk}]))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("[0].runner.facts[0].value"));
    junk = runner.clone();
    junk["verified"] = json!(true);
    app.post_json("/api/v1/results", &json!({"result": a_result(324.0), "runner": junk}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("runner.verified"));
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
    // A bare result id is a cursor in any sort: the page starts after that result.
    let by_drive = app.get("/api/v1/results?sort=drive&limit=500").await.json();
    let by_drive: Vec<i64> =
        by_drive["results"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    let third = by_drive[2];
    let after = app.get(&format!("/api/v1/results?sort=drive&limit=4&cursor={third}")).await.json();
    let after: Vec<i64> =
        after["results"].as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(after, by_drive[3..7], "a bare id resumes after that result in the sort");
    // So does an id whose value is of another sort's type.
    let typed = app.get(&format!("/api/v1/results?sort=capacity_gb&limit=2&cursor={third}.Vertex")).await;
    assert_eq!(typed.status, StatusCode::OK, "{}", typed.text);
    app.get("/api/v1/results?sort=drive&cursor=999999999")
        .await
        .assert_error(StatusCode::NOT_FOUND, Some("cursor"));
    app.get("/api/v1/results?sort=drive&cursor=twelve")
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("cursor"));

    let csv = app.get("/api/v1/results?chipset=TEST-B&format=csv").await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.content_type.starts_with("text/csv"));
    let lines: Vec<&str> = csv.text.lines().collect();
    assert!(lines[0].starts_with("result_id,drive,vendor,"), "{}", lines[0]);
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

    let c = compare(app, &format!("/api/v1/compare?drives={C300_64},{M2S_64}")).await;
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
    let c = compare(app, &format!("/api/v1/compare?drives={C300_64},{M2S_64}&raid_members=4")).await;
    for t in c["tests"].as_array().unwrap() {
        assert_eq!(t["drives"][1]["missing"], true, "no M2S 64 GB result is a 4-drive RAID");
        for g in t["drives"][0]["groups"].as_array().unwrap() {
            assert_eq!(g["platform"]["raid_members"], 4);
        }
    }
    // The same comparison as CSV: a row per test, drive and pool (or one marked missing),
    // with the JSON's medians, counts and result ids.
    let query = format!("drives={C300_64},{M2S_64}");
    let json = compare(app, &format!("/api/v1/compare?{query}")).await;
    let csv = app.get(&format!("/api/v1/compare?{query}&format=csv")).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert!(csv.content_type.starts_with("text/csv"), "{}", csv.content_type);
    let lines: Vec<&str> = csv.text.trim_end().split("\r\n").collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col =
        |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name} column"));
    let mut expected = 0;
    for t in json["tests"].as_array().unwrap() {
        for d in t["drives"].as_array().unwrap() {
            let groups = d["groups"].as_array().unwrap();
            expected += groups.len().max(1);
            for g in groups {
                let ids: Vec<String> =
                    g["result_ids"].as_array().unwrap().iter().map(|i| i.to_string()).collect();
                let row = lines
                    .iter()
                    .map(|l| l.split(',').collect::<Vec<_>>())
                    .find(|r| {
                        r[col("test")] == t["name"]
                            && r[col("drive")] == d["drive"]
                            && r[col("result_ids")] == ids.join(" ")
                    })
                    .unwrap_or_else(|| panic!("no CSV row for {} {} {ids:?}", t["name"], d["drive"]));
                assert_eq!(row[col("missing")], "false");
                if let Some(m) = g["mbps"]["median"].as_f64() {
                    assert_eq!(row[col("mbps_median")].parse::<f64>().unwrap(), m);
                    assert_eq!(row[col("mbps_n")], g["mbps"]["count"].to_string());
                }
            }
            if groups.is_empty() {
                assert!(
                    lines.iter().any(|l| {
                        let r: Vec<&str> = l.split(',').collect();
                        r[col("test")] == t["name"]
                            && r[col("drive")] == d["drive"]
                            && r[col("missing")] == "true"
                    }),
                    "{} lacks {}: a row says so",
                    d["drive"],
                    t["name"]
                );
            }
        }
    }
    assert_eq!(lines.len() - 1, expected, "one row per test, drive and pool");
    app.get(&format!("/api/v1/compare?{query}&format=xml"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("format"));

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

/// The compare chart as the server draws it for embeds: the JSON answer's numbers and
/// sample counts for every pool, single-pool tests listed under the chart, typed text
/// escaped, the same chart as a PNG of the asked width in the asked theme, and an
/// author's choice of tests, platforms, patterns and merging.
async fn the_compare_chart_embeds_as_svg_and_png(app: &TestApp) {
    // A platform tag full of markup: it becomes part of a series label in the chart.
    let typed = "<b>Z68 & \"ICH\"</b>";
    let posted = app
        .post_json(
            "/api/v1/results",
            &json!({"result": a_result(222.5), "tags": {"drive": {"sku": M2S_64}, "platform": {"chipset": typed}}}),
        )
        .await;
    assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);

    let query = format!("drives={C300_64},{M2S_64}");
    let c = compare(app, &format!("/api/v1/compare?{query}")).await;
    let svg = app.get(&format!("/api/v1/compare/chart.svg?{query}")).await;
    assert_eq!(svg.status, StatusCode::OK, "{}", svg.text);
    assert_eq!(svg.content_type, "image/svg+xml");
    assert_eq!(svg.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert!(svg.text.starts_with("<svg") && svg.text.trim_end().ends_with("</svg>"), "{}", svg.text);
    let xml_text = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let (mut bars, mut listed) = (0, 0);
    for t in c["tests"].as_array().unwrap() {
        let cells = t["drives"].as_array().unwrap();
        let groups: Vec<&Value> = cells
            .iter()
            .flat_map(|d| d["groups"].as_array().unwrap())
            .filter(|g| g["mbps"].is_object())
            .collect();
        let name = xml_text(t["name"].as_str().unwrap());
        match groups.len() {
            0 => continue,
            // One pool only: nothing to compare with, listed under the chart.
            1 => {
                assert!(svg.text.contains(&format!("· {name}: ")), "{name} is not listed under the chart");
                listed += 1;
            }
            _ => {
                assert!(svg.text.contains(&format!("{name} · MB/s")), "no panel for {name}");
                for g in groups {
                    let label = format!(
                        "{} n={}",
                        charts::format_value(g["mbps"]["median"].as_f64().unwrap()),
                        g["mbps"]["count"]
                    );
                    assert!(svg.text.contains(&label), "{label} of {name} is not drawn");
                    bars += 1;
                }
            }
        }
    }
    assert!(bars > 10 && listed > 0, "{bars} bars, {listed} single-pool tests");
    assert!(!svg_texts(&svg.text).iter().any(|t| t == "missing"), "no rows of missing");
    assert!(svg.text.contains("Also measured"));
    assert!(svg.text.contains("Plextor PX-M2S 64 GB"), "the legend names the drives");
    // The typed chipset is in a label, as text: never as markup.
    assert!(!svg.text.contains("<b>"), "typed markup reached the SVG");
    assert!(svg.text.contains("&lt;b&gt;Z68 &amp;"), "the typed chipset is not shown escaped");

    let png = app.get(&format!("/api/v1/compare/chart.png?{query}&width=480&theme=dark")).await;
    assert_eq!(png.status, StatusCode::OK, "{}", png.text);
    assert_eq!(png.content_type, "image/png");
    let img =
        image::load_from_memory_with_format(&png.bytes, image::ImageFormat::Png).expect("a PNG").to_rgb8();
    assert_eq!(img.width(), 480);
    assert!(img.height() > 100, "{}", img.height());
    let dark = charts::Theme::DARK;
    let rgb = |c: charts::RGBColor| image::Rgb([c.0, c.1, c.2]);
    assert_eq!(*img.get_pixel(0, 0), rgb(dark.background), "the dark theme's background");
    let first_series = img.pixels().filter(|p| **p == rgb(dark.series[0])).count();
    assert!(first_series > 200, "the first drive's bars are drawn ({first_series} px)");

    // An author's choices: only some tests, platforms and data patterns, or one pool per
    // drive.
    let read = "SEQ 1MiB Q1T1 read";
    let only = app.get(&format!("/api/v1/compare/chart.svg?{query}&tests={}", url_encode(read))).await;
    assert_eq!(only.status, StatusCode::OK, "{}", only.text);
    let panels: Vec<String> = svg_texts(&only.text).into_iter().filter(|t| t.ends_with(" · MB/s")).collect();
    assert_eq!(panels, [format!("{read} · MB/s")]);
    let ich = app
        .get(&format!("/api/v1/compare/chart.svg?{query}&platforms=intel%20ich10r&patterns=zero-fill"))
        .await;
    assert_eq!(ich.status, StatusCode::OK, "{}", ich.text);
    assert!(!ich.text.contains("U3S6") && !ich.text.contains("· random"), "only ICH10R 0-fill rows");
    let merged = compare(app, &format!("/api/v1/compare?{query}&merge=drive")).await;
    let pools = merged["pools"].as_array().unwrap();
    let single: Vec<&Value> = pools.iter().filter(|p| p["platform"]["raid_level"].is_null()).collect();
    assert_eq!(single.len(), 2, "one pool per drive: {pools:?}");
    assert!(pools.iter().all(|p| p["merged"] == true));
    // An array is not the drive: each array of the C300 is a pool of its own.
    let arrays = |pools: &[Value]| -> std::collections::BTreeSet<String> {
        pools
            .iter()
            .filter(|p| p["drive"] == C300_64 && !p["platform"]["raid_level"].is_null())
            .map(|p| format!("{} {}", p["platform"]["raid_level"], p["platform"]["raid_members"]))
            .collect()
    };
    let c_pools = c["pools"].as_array().unwrap();
    assert!(!arrays(c_pools).is_empty());
    assert_eq!(arrays(pools), arrays(c_pools), "{pools:?}");
    let all_c300: usize = c_pools
        .iter()
        .filter(|p| p["drive"] == C300_64 && p["platform"]["raid_level"].is_null())
        .map(|p| p["results"].as_u64().unwrap() as usize)
        .sum();
    assert_eq!(
        single[0]["results"].as_u64().unwrap() as usize,
        all_c300,
        "every single-drive C300 result in one pool"
    );
    let svg = app.get(&format!("/api/v1/compare/chart.svg?{query}&merge=drive")).await;
    assert!(svg.text.contains(api_types::MERGED_POOL_LABEL.split(',').next().unwrap()), "merged rows say so");
    // The rated table of the comparison merges the same way: one row per drive and figure.
    let rated = app.get(&format!("/api/v1/compare/rated?{query}&merge=drive")).await;
    assert_eq!(rated.status, StatusCode::OK, "{}", rated.text);
    let rows = rated.json()["rows"].as_array().unwrap().clone();
    let mut keys: Vec<(String, String)> =
        rows.iter().map(|r| (r["drive"].to_string(), r["figure_id"].to_string())).collect();
    let n = keys.len();
    keys.dedup();
    assert!(n > 0 && keys.len() == n && rows.iter().all(|r| r["pool"].is_null()), "{rows:?}");

    for (q, pointer) in [
        (format!("{query}&width=20000"), "width"),
        (format!("{query}&figure=speed"), "figure"),
        (format!("{query}&theme=sepia"), "theme"),
        (format!("{query}&colour=red"), "colour"),
        (format!("{query}&patterns=striped"), "patterns"),
        (format!("{query}&merge=platform"), "merge"),
        (format!("drives={C300_64},nope"), "drives[1]"),
    ] {
        let status =
            if pointer.starts_with("drives") { StatusCode::NOT_FOUND } else { StatusCode::BAD_REQUEST };
        app.get(&format!("/api/v1/compare/chart.svg?{q}")).await.assert_error(status, Some(pointer));
    }
    // The chart parameters belong to the charts only.
    app.get(&format!("/api/v1/compare?{query}&width=480"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("width"));
}

/// The text elements of an SVG document, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
        .collect()
}

/// A drive page's rated-vs-measured chart as the server draws it for embeds: per
/// capacity of the model line the catalogue's rating and the median and count of the
/// single-drive results `GET /results?drive=ID&limit=500` lists, as the page shows them.
async fn a_drives_rated_chart_embeds_as_svg_and_png(app: &TestApp) {
    let catalogue = app.get("/api/v1/drives").await.json();
    let drives = catalogue["drives"].as_array().unwrap();
    let me = drives.iter().find(|d| d["id"] == C300_64).unwrap();
    let mut family: Vec<&Value> =
        drives.iter().filter(|d| d["vendor"] == me["vendor"] && d["model"] == me["model"]).collect();
    family.sort_by_key(|d| d["capacity_gb"].as_u64());
    assert_eq!(family.len(), 3, "the C300 comes in three capacities");

    let svg = app.get(&format!("/api/v1/drives/{C300_64}/rated.svg?figure=seq-write")).await;
    assert_eq!(svg.status, StatusCode::OK, "{}", svg.text);
    assert_eq!(svg.content_type, "image/svg+xml");
    assert!(svg.text.starts_with("<svg") && svg.text.contains("Sequential write"), "{}", svg.text);
    for sku in &family {
        let rated = sku["rated"]["seq_write_mbps"].as_f64().unwrap();
        let list = app.get(&format!("/api/v1/results?drive={}&limit=500", sku["id"].as_str().unwrap())).await;
        let measured: Vec<f64> = list.json()["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["tags"]["raid"].is_null())
            .filter_map(|r| {
                let result: bench::BenchResult = serde_json::from_value(r["result"].clone()).unwrap();
                bench::analysis::measured_for(&result, bench::analysis::RatedFigure::SeqWriteMbps)
                    .map(|(_, v)| v)
            })
            .collect();
        let median =
            bench::analysis::summarize(&measured).expect("every C300 capacity measured writes").median;
        let gap = (median / rated - 1.0) * 100.0;
        let row = format!("{} GB", sku["capacity_gb"].as_u64().unwrap());
        let figures = format!(
            "{} / {} {gap:+.1} % n={}",
            charts::format_value(median),
            charts::format_value(rated),
            measured.len()
        );
        let texts = svg_texts(&svg.text);
        assert!(texts.contains(&row) && texts.contains(&figures), "{figures} for {row} in {texts:?}");
    }

    let png =
        app.get(&format!("/api/v1/drives/{C300_64}/rated.png?figure=seq-read&width=480&theme=dark")).await;
    assert_eq!(png.status, StatusCode::OK, "{}", png.text);
    assert_eq!(png.content_type, "image/png");
    let img =
        image::load_from_memory_with_format(&png.bytes, image::ImageFormat::Png).expect("a PNG").to_rgb8();
    assert_eq!(img.width(), 480);
    let dark = charts::Theme::DARK;
    assert_eq!(*img.get_pixel(0, 0), image::Rgb([dark.background.0, dark.background.1, dark.background.2]));

    for (path, status, pointer) in [
        (format!("{C300_64}/rated.svg?figure=speed"), StatusCode::BAD_REQUEST, "figure"),
        (format!("{C300_64}/rated.svg?width=20000"), StatusCode::BAD_REQUEST, "width"),
        (format!("{C300_64}/rated.png?colour=red"), StatusCode::BAD_REQUEST, "colour"),
        ("no-such-drive/rated.svg".to_string(), StatusCode::NOT_FOUND, "id"),
    ] {
        app.get(&format!("/api/v1/drives/{path}")).await.assert_error(status, Some(pointer));
    }
}

/// Rated vs measured as tables: the drive's model line (the rows its rated charts draw),
/// every compared drive per platform group and data pattern, every drive on a controller;
/// as JSON, CSV and (the drive's) an HTML embed. A missing rating or measurement is named,
/// never a zero.
async fn rated_vs_measured_tables_come_as_json_csv_and_html(app: &TestApp) {
    let t = app.get(&format!("/api/v1/drives/{C300_64}/rated")).await;
    assert_eq!(t.status, StatusCode::OK, "{}", t.text);
    let t = t.json();
    assert!(t["rule"].as_str().unwrap().contains("Single drives only"), "{t}");
    let rows = t["rows"].as_array().unwrap();
    let write: Vec<&Value> = rows.iter().filter(|r| r["figure"] == "seq_write_mbps").collect();
    assert_eq!(
        write.iter().map(|r| r["rated"].as_f64().unwrap()).collect::<Vec<_>>(),
        [70.0, 140.0, 215.0],
        "the C300 64/128/256 GB write ratings"
    );
    // Each measured median is that of the drive's single-drive results, as the chart shows.
    let svg = app.get(&format!("/api/v1/drives/{C300_64}/rated.svg?figure=seq-write")).await;
    let texts = svg_texts(&svg.text);
    for row in &write {
        let id = row["drive"].as_str().unwrap();
        let list = app.get(&format!("/api/v1/results?drive={id}&limit=500")).await.json();
        let mut ids = Vec::new();
        let measured: Vec<f64> = list["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["tags"]["raid"].is_null())
            .filter_map(|r| {
                let result: bench::BenchResult = serde_json::from_value(r["result"].clone()).unwrap();
                let v = bench::analysis::measured_for(&result, bench::analysis::RatedFigure::SeqWriteMbps)?.1;
                ids.push(r["id"].as_i64().unwrap());
                Some(v)
            })
            .collect();
        let s = bench::analysis::summarize(&measured).unwrap();
        assert_eq!(row["measured"]["median"].as_f64(), Some(s.median), "{row}");
        assert_eq!(row["measured"]["count"].as_u64(), Some(s.count as u64), "{row}");
        assert_eq!(row["measured"]["mad"].as_f64(), Some(s.mad), "{row}");
        ids.sort_unstable();
        assert_eq!(row["result_ids"], json!(ids), "{row}");
        let rated = row["rated"].as_f64().unwrap();
        let figures = format!(
            "{} / {} {:+.1} % n={}",
            charts::format_value(s.median),
            charts::format_value(rated),
            (s.median / rated - 1.0) * 100.0,
            s.count
        );
        assert!(texts.contains(&figures), "the chart draws the same row: {figures} in {texts:?}");
    }

    // CSV: the same rows, one line each.
    let csv = app.get(&format!("/api/v1/drives/{C300_64}/rated?format=csv")).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    assert!(csv.content_type.starts_with("text/csv"), "{}", csv.content_type);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert!(lines[0].starts_with("figure,unit,drive,drive_label,capacity_gb,pool,rated,measured_median"));
    assert_eq!(lines.len(), rows.len() + 1);
    for (line, row) in lines[1..].iter().zip(rows) {
        assert!(
            line.starts_with(&format!(
                "{},{},{}",
                row["figure_id"].as_str().unwrap(),
                row["unit"].as_str().unwrap(),
                row["drive"].as_str().unwrap()
            )),
            "{line}"
        );
        if let Some(m) = row["measured"]["median"].as_f64() {
            assert!(line.contains(&format!(",{m},")), "{line} has {m}");
        }
    }

    // The HTML embed: the table, every number with its unit, the rule beneath.
    let html = app.get(&format!("/embed/drives/{C300_64}/rated")).await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text);
    assert!(html.content_type.starts_with("text/html"), "{}", html.content_type);
    assert!(html.text.contains("<table") && html.text.contains("70 MB/s") && html.text.contains("215 MB/s"));
    assert!(html.text.contains("Single drives only") && html.text.contains("href=\"/results?drive="));

    // The HTML the site shows (a fragment: no page around it), for every table.
    for path in [
        format!("/drives/{C300_64}/rated"),
        format!("/compare/rated?drives={C300_64},{M2S_64}"),
        "/controllers/88SS9174/rated".to_string(),
    ] {
        let sep = if path.contains('?') { '&' } else { '?' };
        let h = app.get(&format!("/fragments{path}")).await;
        assert_eq!(h.status, StatusCode::OK, "{path}: {}", h.text);
        assert!(h.content_type.starts_with("text/html"), "{}", h.content_type);
        assert!(h.text.starts_with("<div class=\"table-wrap\"><table class=\"rated\">"), "{}", h.text);
        assert!(!h.text.contains("<html") && h.text.contains("Single drives only"), "{}", h.text);
        let attribute = format!("/api/v1{path}{sep}format=csv").replace('&', "&amp;");
        assert!(h.text.contains(&attribute), "the CSV link: {}", h.text);
    }

    // Compare: per drive and pool; the pools' counts add up to the drive's.
    let c = app.get(&format!("/api/v1/compare/rated?drives={C300_64},{M2S_64}")).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    let c = c.json();
    let crows = c["rows"].as_array().unwrap();
    for id in [C300_64, M2S_64] {
        assert!(crows.iter().any(|r| r["drive"] == id), "{id} in {c}");
    }
    let pooled: u64 = crows
        .iter()
        .filter(|r| r["drive"] == C300_64 && r["figure"] == "seq_write_mbps")
        .inspect(|r| assert!(r["pool"].is_string(), "{r}"))
        .map(|r| r["measured"]["count"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(Some(pooled), write[0]["measured"]["count"].as_u64());
    let ccsv = app.get(&format!("/api/v1/compare/rated?drives={C300_64},{M2S_64}&format=csv")).await;
    assert_eq!(ccsv.text.lines().count(), crows.len() + 1, "{}", ccsv.text);

    // Controller: every catalogue drive on the 88SS9174; the C400 has no rating, so its
    // measured figures read "not rated" and never a zero.
    let k = app.get("/api/v1/controllers/88SS9174/rated").await;
    assert_eq!(k.status, StatusCode::OK, "{}", k.text);
    let k = k.json();
    let krows = k["rows"].as_array().unwrap();
    for id in [C300_64, M2S_64, "crucial-realssd-c400-128gb", "intel-ssd-510-120gb"] {
        assert!(krows.iter().any(|r| r["drive"] == id), "{id} in {k}");
    }
    for r in krows.iter().filter(|r| r["drive"] == "crucial-realssd-c400-128gb") {
        assert!(r["rated"].is_null() && r["gap_percent"].is_null() && r["measured"].is_object(), "{r}");
    }
    let kcsv = app.get("/api/v1/controllers/88SS9174/rated?format=csv").await.text;
    assert!(
        kcsv.lines().any(|l| l.contains("crucial-realssd-c400-128gb") && l.contains(",not rated,")),
        "{kcsv}"
    );
    assert!(krows.iter().all(|r| r["rated"] != 0.0 && r["measured"]["median"] != 0.0));
    let none = app.get("/api/v1/controllers/NO-SUCH/rated").await.json();
    assert_eq!(none["rows"], json!([]));
    // The controller page's table of its drives: each drive on it once, with the
    // result count the drives index gives it, and a comparison of the measured ones.
    let table = app.get("/fragments/controllers/88SS9174/drives").await;
    assert_eq!(table.status, StatusCode::OK, "{}", table.text);
    let index = app.get("/api/v1/drives/index?controller=88SS9174&limit=500").await.json();
    let on: Vec<(String, i64)> = index["drives"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["controller"] == "88SS9174")
        .map(|d| (d["id"].as_str().unwrap().to_string(), d["result_count"].as_i64().unwrap()))
        .collect();
    assert!(on.len() >= 4, "{index}");
    for (id, n) in &on {
        let row = format!("<a href=\"/drives/{id}\">");
        assert_eq!(table.text.matches(&row).count(), 1, "{id} once: {}", table.text);
        let after = &table.text[table.text.find(&row).unwrap()..];
        let cell = &after[..after.find("</tr>").unwrap()];
        assert!(cell.ends_with(&format!("<td class=\"num\">{n}</td>")), "{id} has {n} results: {cell}");
    }
    let measured: Vec<&str> = on.iter().filter(|(_, n)| *n > 0).map(|(id, _)| id.as_str()).collect();
    assert!(
        table.text.contains(&format!("Compare the {} measured drives side by side", measured.len())),
        "{}",
        table.text
    );
    let none = app.get("/fragments/controllers/NO-SUCH/drives").await.text;
    assert!(none.contains("No catalogue drive has this controller."), "{none}");

    for (path, status, pointer) in [
        (format!("/drives/{C300_64}/rated?format=xml"), StatusCode::BAD_REQUEST, "format"),
        (format!("/drives/{C300_64}/rated?colour=red"), StatusCode::BAD_REQUEST, "colour"),
        ("/drives/no-such-drive/rated".to_string(), StatusCode::NOT_FOUND, "id"),
        ("/compare/rated".to_string(), StatusCode::BAD_REQUEST, "drives"),
        (format!("/compare/rated?drives={C300_64},nope"), StatusCode::NOT_FOUND, "drives[1]"),
        ("/controllers/88SS9174/rated?format=xml".to_string(), StatusCode::BAD_REQUEST, "format"),
    ] {
        app.get(&format!("/api/v1{path}")).await.assert_error(status, Some(pointer));
    }
}

/// A drive page's distribution chart of one test as the server draws it for embeds: a
/// row per platform group and data pattern with the median and count the drive page's
/// JSON gives for that pool.
async fn a_drives_distribution_chart_embeds_as_svg_and_png(app: &TestApp) {
    let page = app.get(&format!("/api/v1/drives/{C300_64}")).await.json();
    let test = &page["tests"][0];
    let key: bench::TestKey = serde_json::from_value(test["key"].clone()).unwrap();
    let query = url_encode(&key.id());
    let svg = app.get(&format!("/api/v1/drives/{C300_64}/distribution.svg?test={query}")).await;
    assert_eq!(svg.status, StatusCode::OK, "{}", svg.text);
    assert_eq!(svg.content_type, "image/svg+xml");
    let texts = svg_texts(&svg.text);
    assert!(texts.contains(&test["name"].as_str().unwrap().to_string()), "{texts:?}");
    let groups = test["groups"].as_array().unwrap();
    assert!(groups.len() > 2, "the C300 64 GB ran its first test on several platforms");
    for g in groups {
        let label = format!(
            "{} · {}",
            g["platform_label"].as_str().unwrap(),
            api_types::pattern_label(serde_json::from_value(g["data_pattern"].clone()).unwrap())
        );
        let summary = format!(
            "{} n={}",
            charts::format_value(g["mbps"]["median"].as_f64().unwrap()),
            g["mbps"]["count"]
        );
        assert!(texts.contains(&label) && texts.contains(&summary), "{label}: {summary} in {texts:?}");
    }

    let png = app.get(&format!("/api/v1/drives/{C300_64}/distribution.png?test={query}&width=400")).await;
    assert_eq!(png.status, StatusCode::OK, "{}", png.text);
    assert_eq!(png.content_type, "image/png");
    let img =
        image::load_from_memory_with_format(&png.bytes, image::ImageFormat::Png).expect("a PNG").to_rgb8();
    assert_eq!(img.width(), 400);

    for (path, status, pointer) in [
        (format!("{C300_64}/distribution.svg"), StatusCode::BAD_REQUEST, "test"),
        (
            format!("{C300_64}/distribution.svg?test=fio%20SEQ%201MiB%20Q1T1%20read"),
            StatusCode::NOT_FOUND,
            "test",
        ),
        (format!("{C300_64}/distribution.svg?test={query}&theme=sepia"), StatusCode::BAD_REQUEST, "theme"),
        (format!("no-such-drive/distribution.png?test={query}"), StatusCode::NOT_FOUND, "id"),
    ] {
        app.get(&format!("/api/v1/drives/{path}")).await.assert_error(status, Some(pointer));
    }
}

/// A drive page lists every firmware its results were measured with, with the results.
async fn the_drive_page_has_a_firmware_history(app: &TestApp) {
    let before = app.get(&format!("/api/v1/drives/{M2S_64}")).await.json();
    let mut ids = Vec::new();
    for (i, fw) in ["1.00", "1.02", "1.02"].into_iter().enumerate() {
        let r = a_result(100.0 + i as f64);
        let tags = json!({"drive": {"sku": M2S_64}, "firmware": fw});
        let posted = app.post_json("/api/v1/results", &json!({"result": r, "tags": tags})).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
        ids.push(posted.json()["id"].as_i64().unwrap());
    }
    let page = app.get(&format!("/api/v1/drives/{M2S_64}")).await.json();
    let history = page["firmware"].as_array().unwrap();
    let of = |fw: &str| {
        history.iter().find(|f| f["firmware"] == fw).unwrap_or_else(|| panic!("{fw} in {history:?}"))
    };
    assert_eq!(of("1.00")["result_ids"], json!([ids[0]]));
    assert_eq!(of("1.02")["result_ids"], json!([ids[1], ids[2]]));
    assert!(of("1.02")["first_submitted"].as_i64() <= of("1.02")["last_submitted"].as_i64());
    let counted: usize = history.iter().map(|f| f["result_ids"].as_array().unwrap().len()).sum();
    assert_eq!(counted, page["results"].as_array().unwrap().len(), "every result under one firmware");
    assert_eq!(counted, before["results"].as_array().unwrap().len() + 3);
    let result = page["results"].as_array().unwrap().iter().find(|r| r["id"] == ids[0]).unwrap();
    assert_eq!(result["firmware"], "1.00");
}

/// The seeds measured the SF-2281 WILDFIRE RAID 0 with random and with 0-fill data, and
/// the C300 128 GB on ICH10R and on two Marvell cards: each pools apart.
async fn aggregates_split_by_platform_and_data_pattern(app: &TestApp) {
    let c = compare(app, "/api/v1/compare?drives=patriot-wildfire-120gb&chipset=Z68&raid_members=2").await;
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

/// Every compared pool stands against its test's reference pool with a ratio, its 95 %
/// interval and a verdict: the seeds' one WILDFIRE result per data pattern claims
/// nothing; eight generated results a side with a 10 % gap are a clear difference, equal
/// values none; in the JSON of both ways of reading pools (summary and filtered) and the
/// CSV.
async fn differences_between_pools_carry_an_interval_and_a_verdict(app: &TestApp) {
    let seq_read = |c: &Value| -> Value {
        c["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| {
                t["key"]["access"] == "seq" && t["key"]["op"] == "read" && t["key"]["block_size"] == 1048576
            })
            .cloned()
            .unwrap_or_else(|| panic!("a SEQ 1MiB read test: {c}"))
    };
    // The seeds: random against 0-fill on the WILDFIRE, one result each.
    let c = compare(app, "/api/v1/compare?drives=patriot-wildfire-120gb").await;
    let mut seen = 0;
    for t in c["tests"].as_array().unwrap() {
        let groups = t["drives"][0]["groups"].as_array().unwrap();
        for g in groups.iter().filter(|g| g["vs_reference"].is_object()) {
            let vs = &g["vs_reference"];
            let reference = groups.iter().find(|r| r["pool"] == vs["reference_pool"]).expect("the reference");
            assert!(reference["vs_reference"].is_null(), "the reference stands against nothing: {t}");
            let (Some(mine), Some(theirs)) = (g["mbps"].as_object(), reference["mbps"].as_object()) else {
                continue;
            };
            if mine["count"] != 1 || theirs["count"] != 1 {
                continue;
            }
            let d = &vs["mbps"];
            assert_eq!(d["verdict"], "too-few-results", "{t}");
            assert!(d["low"].is_null() && d["high"].is_null(), "{d}");
            let ratio = mine["median"].as_f64().unwrap() / theirs["median"].as_f64().unwrap();
            assert!((d["ratio"].as_f64().unwrap() / ratio - 1.0).abs() < 1e-9, "{d} vs {ratio}");
            assert_eq!((d["n_a"].as_u64(), d["n_b"].as_u64()), (Some(1), Some(1)));
            seen += 1;
        }
    }
    assert!(seen > 0, "a WILDFIRE pool against another: {c}");

    // Eight results a side on a platform of their own, the M2S 10 % above the C300.
    let batch: Vec<Value> = (0..8)
        .flat_map(|i| {
            let noise = 1.0 + (i as f64 - 3.5) * 0.004;
            let tags = |sku: &str| json!({"drive": {"sku": sku}, "platform": {"chipset": "DIFFTEST"}});
            [
                json!({"result": a_result(400.0 * noise), "tags": tags(C300_64)}),
                json!({"result": a_result(440.0 * noise), "tags": tags(M2S_64)}),
            ]
        })
        .collect();
    let r = app.post_json("/api/v1/results", &json!(batch)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);

    let filtered = compare(app, &format!("/api/v1/compare?drives={C300_64},{M2S_64}&chipset=DIFFTEST")).await;
    let unfiltered = compare(app, &format!("/api/v1/compare?drives={C300_64},{M2S_64}")).await;
    for c in [&filtered, &unfiltered] {
        let t = seq_read(c);
        let pool_on_difftest = |drive: usize| {
            let groups = t["drives"][drive]["groups"].as_array().unwrap();
            groups
                .iter()
                .find(|g| {
                    c["pools"][g["pool"].as_u64().unwrap() as usize]["platform"]["chipset"] == "DIFFTEST"
                })
                .unwrap_or_else(|| panic!("drive {drive} on DIFFTEST: {t}"))
                .clone()
        };
        let (c300, m2s) = (pool_on_difftest(0), pool_on_difftest(1));
        assert!(c300["vs_reference"].is_null(), "the C300's 8 results are the reference: {t}");
        let vs = &m2s["vs_reference"];
        assert_eq!(vs["reference_pool"], c300["pool"], "{t}");
        let d = &vs["mbps"];
        assert_eq!(d["verdict"], "clear", "{d}");
        assert!((d["ratio"].as_f64().unwrap() - 1.1).abs() < 1e-9, "{d}");
        let (low, high) = (d["low"].as_f64().unwrap(), d["high"].as_f64().unwrap());
        assert!(1.0 < low && low < 1.1 && 1.1 < high, "{d}");
        assert_eq!((d["n_a"].as_u64(), d["n_b"].as_u64()), (Some(8), Some(8)));
    }
    // Equal values (the 4K read is 120.5 MB/s in every result): no evidence of a gap.
    let rnd = filtered["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["key"]["access"] == "rnd")
        .expect("the 4K test")
        .clone();
    assert_eq!(rnd["drives"][1]["groups"][0]["vs_reference"]["mbps"]["verdict"], "no-evidence", "{rnd}");

    // The drive page sets each group of a test against the most measured one of its kind:
    // single drives against a single drive, an array against the same array (an array is
    // not the drive).
    let page = app.get(&format!("/api/v1/drives/{C300_64}")).await.json();
    let mut compared = 0;
    let mut arrays_apart = 0;
    for t in page["tests"].as_array().unwrap() {
        let all = t["groups"].as_array().unwrap();
        let kind = |g: &Value| (g["platform"]["raid_level"].clone(), g["platform"]["raid_members"].clone());
        let mut kinds = Vec::new();
        for k in all.iter().map(kind) {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        let count = |g: &Value| g["mbps"]["count"].as_u64().or(g["iops"]["count"].as_u64()).unwrap_or(0);
        for k in &kinds {
            let groups: Vec<&Value> = all.iter().filter(|g| kind(g) == *k).collect();
            if groups.len() < 2 {
                assert!(groups.iter().all(|g| g["reference"] == false && g["vs_reference"].is_null()), "{t}");
                continue;
            }
            let references: Vec<&&Value> = groups.iter().filter(|g| g["reference"] == true).collect();
            assert_eq!(references.len(), 1, "{t}");
            assert_eq!(
                count(references[0]),
                groups.iter().map(|g| count(g)).max().unwrap(),
                "the most measured: {t}"
            );
            assert!(references[0]["vs_reference"].is_null());
            arrays_apart += usize::from(!k.0.is_null());
        }
        let groups: Vec<&Value> = all.iter().filter(|g| g["platform"]["raid_level"].is_null()).collect();
        let Some(references) = groups.iter().find(|g| g["reference"] == true).map(|r| vec![*r]) else {
            continue;
        };
        if t["key"]["access"] == "seq" && t["key"]["op"] == "read" && t["key"]["block_size"] == 1048576 {
            assert_eq!(references[0]["platform"]["chipset"], "DIFFTEST", "{t}");
            for g in groups.iter().filter(|g| g["reference"] == false && g["mbps"]["count"] == 1) {
                let d = &g["vs_reference"];
                let expected = g["mbps"]["median"].as_f64().unwrap() / 400.0;
                assert!((d["ratio"].as_f64().unwrap() / expected - 1.0).abs() < 0.01, "{d} vs {expected}");
                assert_eq!(d["verdict"], "too-few-results", "one result against eight: no interval exists");
                compared += 1;
            }
        }
    }
    assert!(compared > 0, "a seed pool of the C300 against the DIFFTEST pool: {page}");
    assert!(arrays_apart > 0, "the C300's RAID 0 ×2 pools are set against one of their own: {page}");

    // The CSV carries the same numbers.
    let csv =
        app.get(&format!("/api/v1/compare?drives={C300_64},{M2S_64}&chipset=DIFFTEST&format=csv")).await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    let mut rows = csv::Reader::from_reader(csv.text.as_bytes());
    let header = rows.headers().unwrap().clone();
    let column =
        |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name}: {header:?}"));
    let clear: Vec<csv::StringRecord> =
        rows.records().map(Result::unwrap).filter(|r| &r[column("mbps_verdict")] == "clear").collect();
    assert_eq!(clear.len(), 1, "{}", csv.text);
    let ratio: f64 = clear[0][column("mbps_ratio")].parse().unwrap();
    assert!((ratio - 1.1).abs() < 1e-9);
    assert!(clear[0][column("vs_pool")].starts_with(C300_64), "{:?}", &clear[0]);
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
            NewResult {
                result: result.clone(),
                tags: Default::default(),
                source: None,
                flags: vec![],
                new_drive: None,
                result_json: None,
            },
            NewResult {
                result,
                result_json: None,
                tags: bad_tags,
                source: None,
                flags: vec![],
                new_drive: None,
            },
        ],
        provenance: None,
        runner: None,
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

/// Concurrent submissions (SQLite stores those that queue up together in one group
/// commit) each get their own outcome: one that cannot be stored fails alone, the same
/// content twice is stored once and recognised once, and every stored one is readable
/// and counted in the compare summary.
async fn concurrent_submissions_each_get_their_own_outcome(app: &TestApp) {
    let result: bench::BenchResult = serde_json::from_value(a_result(321.0)).unwrap();
    let submission = |n: usize, sku: &str| {
        let mut tags = bench::Tags::default();
        tags.drive.sku = Some(sku.to_string());
        NewSubmission {
            body: format!("concurrent {n}").into_bytes(),
            content_hash: format!("{:064x}", 0xc0c0_0000 + n),
            format: None,
            edit_token_hash: "0".repeat(64),
            client: None,
            created_at: 0,
            results: vec![NewResult {
                result: result.clone(),
                tags,
                source: None,
                flags: vec![],
                new_drive: None,
                result_json: None,
            }],
            provenance: None,
            runner: None,
        }
    };
    let mut all: Vec<NewSubmission> = (0..10).map(|n| submission(n, C300_64)).collect();
    all.push(submission(10, "not-in-the-catalogue")); // foreign key violation
    all.push(submission(3, C300_64)); // the same content as the fourth
    let before = app.scalar("SELECT COUNT(*) FROM results").await;
    let mut tasks = tokio::task::JoinSet::new();
    for (i, s) in all.into_iter().enumerate() {
        let storage = app.storage.clone();
        tasks.spawn(async move { (i, storage.submit(&s).await) });
    }
    let mut outcomes: Vec<_> = tasks.join_all().await;
    outcomes.sort_by_key(|(i, _)| *i);
    let mut stored = Vec::new();
    for (i, outcome) in &outcomes {
        match (i, outcome) {
            (10, outcome) => assert!(outcome.is_err(), "unknown drive stored: {outcome:?}"),
            (3 | 11, _) => {}
            (_, Ok(storage::Submitted::Stored { result_ids, .. })) => stored.extend(result_ids),
            (i, other) => panic!("submission {i}: {other:?}"),
        }
    }
    match (&outcomes[3].1, &outcomes[11].1) {
        (
            Ok(storage::Submitted::Stored { submission_id: a, result_ids }),
            Ok(storage::Submitted::Duplicate { submission_id: b, result_ids: dup }),
        )
        | (
            Ok(storage::Submitted::Duplicate { submission_id: b, result_ids: dup }),
            Ok(storage::Submitted::Stored { submission_id: a, result_ids }),
        ) => {
            assert_eq!((a, result_ids), (b, dup));
            stored.extend(result_ids);
        }
        other => panic!("the same content twice: {other:?}"),
    }
    assert_eq!(stored.len(), 10);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM results").await, before + 10);
    for id in &stored {
        assert_eq!(app.get(&format!("/api/v1/results/{id}")).await.status, StatusCode::OK);
    }
    let compare = compare(app, &format!("/api/v1/compare?drives={C300_64}")).await;
    let mut listed: Vec<i64> = compare["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["drives"][0]["groups"].as_array().unwrap().iter())
        .flat_map(|g| g["result_ids"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()))
        .collect();
    listed.sort_unstable();
    listed.dedup();
    assert!(stored.iter().all(|id| listed.contains(id)), "compare misses some of {stored:?}");
}

/// A real screenshot from the shared corpus.
fn screenshot(n: usize) -> Vec<u8> {
    std::fs::read(&common::screenshots()[n]).unwrap()
}

/// Screenshots wait in the database queue: uploads answer at once with their place in
/// the queue, a worker that dies mid-job loses its lease and the job is taken again,
/// and the outcome is there for the uploader after any restart.
async fn screenshots_queue_in_the_database_and_outlive_a_lost_worker(app: &TestApp) {
    let not_an_image = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(CDM3)).await;
    // The content decides, whatever the header says: well-formed requests whose file is
    // no image are 422.
    not_an_image.assert_error(StatusCode::UNPROCESSABLE_ENTITY, None);
    app.request(Method::POST, "/api/v1/ocr", None, Body::empty())
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, None);

    let (first, second) = (screenshot(0), screenshot(1));
    let a = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(first.clone())).await;
    assert_eq!(a.status, StatusCode::ACCEPTED, "{}", a.text);
    let a = a.json();
    assert_eq!(a["status"], "queued");
    let b = app.request(Method::POST, "/api/v1/ocr", None, Body::from(second)).await.json();
    assert_eq!(b["queue_position"].as_i64().unwrap(), a["queue_position"].as_i64().unwrap() + 1);
    let again = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(first.clone())).await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "the same image again is a job of its own");
    let again = again.json();
    assert_ne!(again["id"], a["id"], "and its own key: an upload says nothing of others'");
    let again_id = job_number(app, again["id"].as_str().unwrap()).await;

    let image = app.get(a["image_url"].as_str().unwrap()).await;
    assert_eq!(image.content_type, "image/png");
    assert_eq!(image.bytes, first, "the upload comes back byte for byte");

    // A worker takes the first job, then its server dies: nothing finishes it.
    let now = 1_900_000_000;
    let (a_key, b_key) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let (a_id, b_id) = (job_number(app, a_key).await, job_number(app, b_key).await);
    let lost = app.storage.claim_ocr(now, 60).await.unwrap().expect("a queued job");
    assert_eq!((lost.id, lost.attempts), (a_id, 1));
    assert_eq!(lost.image, first);
    let running = app.get(&format!("/api/v1/ocr/{a_key}")).await.json();
    assert_eq!(running["status"], "running");
    // Another worker gets the next job, not the leased one; then nothing is left...
    assert_eq!(app.storage.claim_ocr(now, 60).await.unwrap().unwrap().id, b_id);
    let third = app.storage.claim_ocr(now, 60).await.unwrap().expect("the image uploaded again");
    assert_eq!(third.id, again_id);
    app.storage.finish_ocr(again_id, Err("not this test's".into()), now).await.unwrap();
    assert!(app.storage.claim_ocr(now + 30, 60).await.unwrap().is_none());
    // ...until the dead worker's lease runs out and its job is taken again.
    let retried = app.storage.claim_ocr(now + 61, 60).await.unwrap().expect("the expired job");
    assert_eq!((retried.id, retried.attempts), (a_id, 2));
    app.storage.ocr_progress(a_id, 0.5, "reading values", now + 200).await.unwrap();
    let halfway = app.get(&format!("/api/v1/ocr/{a_key}")).await.json();
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
    let done = app.get(&format!("/api/v1/ocr/{a_key}")).await.json();
    assert_eq!(done["status"], "done");
    assert_eq!(done["recognition"]["layout"], "test");
    let failed = app.get(&format!("/api/v1/ocr/{b_key}")).await.json();
    assert_eq!(
        (failed["status"].as_str(), failed["error"].as_str()),
        (Some("failed"), Some("no benchmark window in the image"))
    );
    // A finished job is never claimed again.
    assert!(app.storage.claim_ocr(now + 10_000, 60).await.unwrap().is_none());
    app.get("/api/v1/ocr/999999").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    app.get(&format!("/api/v1/ocr/{a_id}")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
}

/// The queue's own number for the job with this key (what a worker claims).
async fn job_number(app: &TestApp, key: &str) -> i64 {
    app.storage.get_ocr(&storage::sha256_hex(key.as_bytes())).await.unwrap().expect("the job").id
}

/// A screenshot reading published with its settings corrected by hand (test size, test
/// count, target as the person set them in the review table) is accepted, stores what
/// the person set, and records each changed setting beside the changed value: neither
/// refused nor silently taken as read.
async fn corrected_screenshot_settings_are_published_and_recorded(app: &TestApp) {
    let image = screenshot(2);
    let job = app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(image)).await.json();
    let key = job["id"].as_str().unwrap();
    let id = job_number(app, key).await;
    // What the recogniser read: the settings bar gave 1 GiB, 5 passes and a drive.
    let mut read = a_result(500.0);
    read["test_size_bytes"] = json!(1u64 << 30);
    read["target"] = json!("C: 4% (79/1862GiB)");
    let recognition = json!({"result": read, "confidence": 0.8}).to_string();
    let now = 1_900_000_000;
    while let Some(claimed) = app.storage.claim_ocr(now, 60).await.unwrap() {
        let outcome = if claimed.id == id { Ok(recognition.clone()) } else { Err("not this test's".into()) };
        app.storage.finish_ocr(claimed.id, outcome, now).await.unwrap();
    }
    let mut published = read.clone();
    published["test_size_bytes"] = json!(4u64 << 30);
    published["passes"] = json!(3);
    published["target"] = json!("D: 4% (79/1862GiB)");
    published["metrics"][0]["mbps"] = json!(501.0);
    let body =
        json!({"result": published, "ocr_job": key, "tags": {"drive": {"model": "Settings corrected"}}});
    let posted = app.post_json("/api/v1/results", &body).await;
    assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
    let result = app.get(&format!("/api/v1/results/{}", posted.json()["id"])).await.json();
    let r = &result["result"];
    assert_eq!((r["test_size_bytes"].as_u64(), r["passes"].as_u64()), (Some(4 << 30), Some(3)));
    assert_eq!(r["target"], "D: 4% (79/1862GiB)");
    let ocr = &result["upload"]["ocr"];
    assert_eq!(ocr["corrected"].as_array().map(Vec::len), Some(1), "{ocr}");
    let settings: Vec<(String, Value, Value)> = ocr["settings_corrected"]
        .as_array()
        .unwrap_or_else(|| panic!("no settings corrections: {ocr}"))
        .iter()
        .map(|c| (c["field"].as_str().unwrap().to_string(), c["recognised"].clone(), c["published"].clone()))
        .collect();
    assert_eq!(
        settings,
        vec![
            ("passes".to_string(), json!("5"), json!("3")),
            ("test_size_bytes".to_string(), json!((1u64 << 30).to_string()), json!((4u64 << 30).to_string())),
            ("target".to_string(), json!("C: 4% (79/1862GiB)"), json!("D: 4% (79/1862GiB)")),
        ]
    );
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

/// Whether `filter` keeps drive `d`, as the API documents it: text without case, the
/// interface a link id or its kind. (The reference the store's SQL is checked against.)
fn filter_keeps(filter: &api_types::DriveFilter, d: &bench::DriveSku) -> bool {
    let is = |want: &Option<String>, have: Option<&str>| {
        want.as_ref().is_none_or(|w| have.is_some_and(|h| h.to_lowercase() == w.to_lowercase()))
    };
    let link = d.interface.map(|l| l.id());
    let kind = link.as_deref().map(|l| l.split('-').next().unwrap());
    let interface = filter.interface.as_ref().map(|w| w.to_lowercase());
    filter.reviewed.is_none_or(|r| r == d.reviewed)
        && is(&filter.vendor, Some(&d.vendor))
        && is(&filter.controller, d.controller.model.as_deref())
        && is(&filter.nand, d.nand.vendor.as_deref())
        && interface.is_none_or(|w| link.as_deref() == Some(w.as_str()) || kind == Some(w.as_str()))
}

/// What the drives index and the leaderboards read beside the summary must agree with
/// it: per test, the ranked lines (`pool_figures`) are exactly the pools' lines with
/// their medians, fastest first, the thin lines are counted, and each drive's result count
/// (`drives.result_count`) is its visible results; and so for the drives each filter
/// keeps (compared in SQL on the drives' filter columns), against [`filter_keeps`].
async fn derived_figures_agree(app: &TestApp, ids: &[String]) {
    let catalogue = app.storage.catalogue().await.unwrap();
    // The filters' values from the drives named (one merged away is gone).
    let named: Vec<&bench::DriveSku> =
        ids.iter().filter_map(|id| catalogue.iter().find(|d| d.id == *id)).collect();
    let (c300, m2s) = (named[0].clone(), named[named.len() - 1].clone());
    let text = |s: &str| Some(s.to_string());
    let filters = [
        api_types::DriveFilter::default(),
        api_types::DriveFilter { vendor: text(&c300.vendor.to_uppercase()), ..Default::default() },
        api_types::DriveFilter { interface: text("SATA"), ..Default::default() },
        api_types::DriveFilter { interface: c300.interface.map(|l| l.id()), ..Default::default() },
        api_types::DriveFilter { controller: c300.controller.model.clone(), ..Default::default() },
        api_types::DriveFilter { nand: m2s.nand.vendor.clone(), reviewed: Some(true), ..Default::default() },
        api_types::DriveFilter { reviewed: Some(false), ..Default::default() },
        api_types::DriveFilter { vendor: text(&m2s.vendor), interface: text("pcie"), ..Default::default() },
    ];
    let mut with_lines = 0;
    for filter in &filters {
        let kept: Vec<String> =
            catalogue.iter().filter(|d| filter_keeps(filter, d)).map(|d| d.id.clone()).collect();
        with_lines += usize::from(lines_agree(app, filter, &kept).await);
    }
    assert!(with_lines >= 6, "most filters keep drives with lines: {with_lines} of {}", filters.len());
    let mut visible: std::collections::BTreeMap<String, i64> = Default::default();
    for r in app.storage.results_for_drives(ids, storage::ResultFigures::Burst).await.unwrap() {
        *visible.entry(r.tags.drive.sku.clone().unwrap()).or_default() += 1;
    }
    let counts: std::collections::BTreeMap<String, i64> =
        app.storage.result_counts(ids).await.unwrap().into_iter().filter(|(_, n)| *n > 0).collect();
    assert_eq!(counts, visible, "drives.result_count");
}

/// The leaderboard lines, thin lines and tests list `filter` reads are those of the
/// `kept` drives' pools; whether there were any.
async fn lines_agree(app: &TestApp, filter: &api_types::DriveFilter, kept: &[String]) -> bool {
    let mut expected: std::collections::BTreeMap<String, Vec<(bool, String)>> = Default::default();
    for p in app.storage.pools_for_drives(kept).await.unwrap() {
        for (key, a) in &p.tests {
            let Some(s) = a.mbps else { continue };
            let line =
                format!("{} {:?} {:?} {} n={}", p.drive_sku, p.platform, p.data_pattern, s.median, s.count);
            expected.entry(key.id()).or_default().push((p.platform.array().is_some(), line));
        }
    }
    for (test, lines) in &expected {
        for min_results in [1, 2, 3] {
            for arrays in [false, true] {
                let ranked =
                    app.storage.ranked_pools(test, arrays, min_results, filter, 10_000).await.unwrap();
                let figure = |p: &storage::PoolSummary| {
                    p.tests.iter().find(|(k, _)| k.id() == *test).unwrap().1.mbps.unwrap()
                };
                let medians: Vec<f64> = ranked.iter().map(|p| figure(p).median).collect();
                assert!(medians.windows(2).all(|w| w[0] >= w[1]), "{test}: fastest first: {medians:?}");
                let mut got: Vec<String> = ranked
                    .iter()
                    .map(|p| {
                        let s = figure(p);
                        format!(
                            "{} {:?} {:?} {} n={}",
                            p.drive_sku, p.platform, p.data_pattern, s.median, s.count
                        )
                    })
                    .collect();
                got.sort();
                let mut want: Vec<String> = lines
                    .iter()
                    .filter(|(a, l)| *a == arrays && n_of_line(l) >= min_results)
                    .map(|(_, l)| l.clone())
                    .collect();
                want.sort();
                assert_eq!(got, want, "{filter:?}: {test}, arrays {arrays}, at least {min_results}");
            }
            let thin = lines.iter().filter(|(_, l)| n_of_line(l) < min_results).count();
            assert_eq!(
                app.storage.thin_lines(test, min_results, filter).await.unwrap(),
                thin,
                "{filter:?}: {test}"
            );
        }
    }
    // The tests a leaderboard can rank, counted from the same lines (every drive's from
    // the totals kept per test).
    let listed = app.storage.leaderboard_tests(filter).await.unwrap();
    let counted: Vec<(String, usize, usize, usize)> = expected
        .iter()
        .map(|(test, lines)| {
            let drives: std::collections::BTreeSet<&str> =
                lines.iter().map(|(_, l)| l.split(' ').next().unwrap()).collect();
            let ranked = lines.iter().filter(|(_, l)| n_of_line(l) >= 3).count();
            (test.clone(), drives.len(), ranked, lines.iter().map(|(_, l)| n_of_line(l)).sum())
        })
        .collect();
    let listed: Vec<(String, usize, usize, usize)> =
        listed.into_iter().map(|t| (t.test, t.drives, t.ranked, t.results)).collect();
    assert_eq!(listed, counted, "{filter:?}: leaderboard tests");
    // The index's pages of the kept drives: the same drives in name order, counted.
    let page = app.storage.drives_page(filter, storage::DriveOrder::Name, 0, 100_000).await.unwrap();
    let paged: Vec<&str> = page.iter().map(|r| r.drive.id.as_str()).collect();
    assert_eq!(paged, kept, "{filter:?}: the index");
    assert_eq!(app.storage.drive_count(filter).await.unwrap(), kept.len(), "{filter:?}: counted");
    !expected.is_empty()
}

/// The n of a line `derived_figures_agree` wrote.
fn n_of_line(line: &str) -> usize {
    line.rsplit("n=").next().unwrap().parse().unwrap()
}

/// Compare reads the per-drive summary (`test_samples`) instead of every metric row: it
/// must hold exactly the visible metrics after stores, and after a result is hidden and
/// its drive refreshed (what moderation does in its transaction).
async fn the_compare_summary_follows_every_change(app: &TestApp) {
    let ids = vec![C300_64.to_string(), M2S_64.to_string()];
    let (metrics, summary) = samples_both_ways(app, &ids).await;
    assert!(metrics.len() > 10, "the seeds give both drives samples: {metrics:?}");
    assert_eq!(summary, metrics, "after seeding");
    derived_figures_agree(app, &ids).await;

    let mut stored = Vec::new();
    for (i, chipset) in ["Z68", "Z68", "X570"].iter().enumerate() {
        let body = json!({"result": a_result(200.0 + i as f64), "tags": {"drive": {"sku": M2S_64}, "platform": {"chipset": chipset}}});
        let posted = app.post_json("/api/v1/results", &body).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
        stored.push(posted.json()["id"].as_i64().unwrap());
    }
    let (metrics, summary) = samples_both_ways(app, &ids).await;
    assert_eq!(summary, metrics, "after three submissions");
    derived_figures_agree(app, &ids).await;
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
    derived_figures_agree(app, &ids).await;
    // Folding the test totals' change rows (which writers do past a few thousand) leaves
    // one row per listed test and the list as it was.
    let listed = app.storage.leaderboard_tests(&Default::default()).await.unwrap();
    assert!(
        app.scalar("SELECT COUNT(*) FROM test_total_changes").await > listed.len() as i64,
        "changes appended"
    );
    if app.storage.backend() == "sqlite" {
        use sqlx::Connection;
        let mut c = sqlx::SqliteConnection::connect(&app.url).await.unwrap();
        let mut tx = c.begin().await.unwrap();
        storage::summary::sqlite::fold_totals(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
    } else {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(&app.url).await.unwrap();
        let mut tx = c.begin().await.unwrap();
        storage::summary::postgres::fold_totals(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM test_total_changes").await, listed.len() as i64, "folded");
    assert_eq!(
        app.storage.leaderboard_tests(&Default::default()).await.unwrap(),
        listed,
        "the same list once folded"
    );
    derived_figures_agree(app, &ids).await;
    let hidden_pair = format!(": [{}, {}] ", stored[0], stored[1]);
    assert!(!summary.iter().any(|c| c.contains(&hidden_pair)), "the hidden result left: {summary:?}");
    assert!(summary.iter().any(|c| c.contains(&format!(": [{}] ", stored[0]))), "{summary:?}");

    let c = compare(app, &format!("/api/v1/compare?drives={C300_64},{M2S_64}")).await;
    let ids_in_compare = c.to_string();
    assert!(ids_in_compare.contains(&format!("[{}]", stored[0])), "{ids_in_compare}");
}

/// Drives stored before the filter columns (migration 0019 adds them empty, 0021 their
/// lines' link kind) have them filled at start-up from their JSON, and the filters find
/// them, and their leaderboard lines, as before.
async fn drives_stored_before_the_filter_columns_get_them_at_start_up(app: &TestApp) {
    let filters = [
        api_types::DriveFilter { interface: Some("sata".into()), ..Default::default() },
        api_types::DriveFilter { vendor: Some("PLEXTOR".into()), reviewed: Some(true), ..Default::default() },
        api_types::DriveFilter { controller: Some("88ss9174".into()), ..Default::default() },
    ];
    // Each filter's index page, and its board of the most measured test.
    let test = app
        .storage
        .leaderboard_tests(&Default::default())
        .await
        .unwrap()
        .into_iter()
        .max_by_key(|t| t.ranked);
    let test = test.expect("the seeds have tests").test;
    let pages = || async {
        let mut pages = Vec::new();
        for f in &filters {
            let page = app.storage.drives_page(f, storage::DriveOrder::Name, 0, 1000).await.unwrap();
            pages.push(page.into_iter().map(|r| r.drive.id).collect::<Vec<_>>());
            let board = app.storage.ranked_pools(&test, false, 1, f, 1000).await.unwrap();
            pages.push(board.into_iter().map(|p| format!("{} {:?}", p.drive_sku, p.platform)).collect());
        }
        pages
    };
    let before = pages().await;
    assert!(before.iter().step_by(2).all(|p| !p.is_empty()), "every filter keeps seed drives: {before:?}");
    assert!(!before[1].is_empty(), "the SATA board has lines: {before:?}");
    let forget = "UPDATE drives SET filter_vendor = NULL, filter_link = NULL, filter_link_kind = NULL, \
                  filter_controller = NULL, filter_nand = NULL; UPDATE pool_figures SET link_kind = NULL; \
                  DELETE FROM app_meta WHERE key = 'drive_filters'";
    let emptied = |pages: Vec<Vec<String>>| pages.iter().all(Vec::is_empty);
    if app.storage.backend() == "sqlite" {
        let pool = sqlx::SqlitePool::connect(&app.url).await.unwrap();
        sqlx::raw_sql(forget).execute(&pool).await.unwrap();
        assert!(emptied(pages().await), "no filter finds a drive without its columns");
        storage::catalogue::sqlite::fill_filters_if_stale(&pool, Some("PRAGMA wal_checkpoint(TRUNCATE)"))
            .await
            .unwrap();
        pool.close().await;
    } else {
        let pool = sqlx::PgPool::connect(&app.url).await.unwrap();
        sqlx::raw_sql(forget).execute(&pool).await.unwrap();
        assert!(emptied(pages().await), "no filter finds a drive without its columns");
        storage::catalogue::postgres::fill_filters_if_stale(&pool, None).await.unwrap();
        pool.close().await;
    }
    assert_eq!(pages().await, before, "filled again");
}

/// A comparison names at most `COMPARE_RESULT_IDS` results per pool and per cell, the
/// newest, and counts them all: its answer stays the same size however many results a
/// popular drive has, in JSON and in CSV.
async fn a_comparison_lists_the_newest_results_and_counts_them_all(app: &TestApp) {
    let shown = api_types::COMPARE_RESULT_IDS;
    let mut ids = Vec::new();
    for i in 0..shown + 5 {
        let mut result = a_result(200.0 + i as f64);
        // Every third result without its random read: those cells have results of their own.
        if i % 3 == 0 {
            result["metrics"].as_array_mut().unwrap().pop();
        }
        let body = json!({"result": result, "tags": {"drive": {"sku": M2S_64}, "platform": {"chipset": "NEWEST-TEST"}}});
        let posted = app.post_json("/api/v1/results", &body).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
        ids.push((i, posted.json()["id"].as_i64().unwrap()));
    }
    let newest = |of: &[i64]| of[of.len().saturating_sub(shown)..].to_vec();
    let all: Vec<i64> = ids.iter().map(|(_, id)| *id).collect();
    let with_random: Vec<i64> = ids.iter().filter(|(i, _)| i % 3 != 0).map(|(_, id)| *id).collect();
    // From the summary, and from the metric rows (a tag filter).
    for query in [format!("drives={M2S_64}"), format!("drives={M2S_64}&chipset=NEWEST-TEST")] {
        let reply = app.get(&format!("/api/v1/compare?{query}")).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let c: api_types::Comparison = serde_json::from_str(&reply.text).unwrap();
        let at = c.pools.iter().position(|p| p.platform_label.contains("NEWEST-TEST")).expect("the pool");
        let pool = &c.pools[at];
        assert_eq!((pool.results, &pool.result_ids), (all.len(), &newest(&all)), "{query}");
        let cell_of = |access: bench::Access| {
            let t = c.tests.iter().find(|t| t.key.access == access && t.key.op == bench::Op::Read).unwrap();
            t.drives[0].groups.iter().find(|g| g.pool == at).unwrap().clone()
        };
        let seq = cell_of(bench::Access::Seq);
        assert_eq!((seq.results, seq.result_ids.as_ref()), (None, None), "every result: the pool's");
        assert_eq!((c.results(&seq), c.result_ids(&seq)), (all.len(), &newest(&all)[..]));
        let random = cell_of(bench::Access::Rnd);
        assert_eq!(
            (c.results(&random), c.result_ids(&random)),
            (with_random.len(), &newest(&with_random)[..])
        );
        assert_eq!(random.mbps.unwrap().count, with_random.len(), "the figures are of every result");
    }
    let csv = app.get(&format!("/api/v1/compare?drives={M2S_64}&chipset=NEWEST-TEST&format=csv")).await;
    let lines: Vec<&str> = csv.text.trim_end().split("\r\n").collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let counts: Vec<(&str, &str)> = lines[1..]
        .iter()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|r| (r[col("results")], r[col("result_ids")]))
        .collect();
    let joined = |ids: &[i64]| ids.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
    let (all_n, random_n) = (all.len().to_string(), with_random.len().to_string());
    let (all_ids, random_ids) = (joined(&newest(&all)), joined(&newest(&with_random)));
    assert!(counts.contains(&(all_n.as_str(), all_ids.as_str())), "{counts:?}");
    assert!(counts.contains(&(random_n.as_str(), random_ids.as_str())), "{counts:?}");
}

/// The summary a database builds when it has none (bulk-loaded, or of another layout)
/// is the one kept change by change: every pool with its values, every leaderboard line,
/// each drive's result count and the tests list.
async fn the_summary_built_at_once_is_the_one_kept_change_by_change(app: &TestApp) {
    let ids: Vec<String> = app.storage.list_drives().await.unwrap().into_iter().map(|d| d.drive.id).collect();
    // A drive on more platforms, so it has several pools.
    for (i, chipset) in ["Z68", "X570"].iter().enumerate() {
        let body = json!({"result": a_result(300.0 + i as f64), "tags": {"drive": {"sku": C300_64}, "platform": {"chipset": chipset}}});
        let posted = app.post_json("/api/v1/results", &body).await;
        assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
    }
    let lines = "SELECT COUNT(*) FROM pool_figures";
    let state = || async {
        let pools = app.storage.pools_with_quantiles(&ids).await.unwrap();
        let tests = app.storage.leaderboard_tests(&Default::default()).await.unwrap();
        let counts: Vec<(String, i64)> = app
            .storage
            .list_drives()
            .await
            .unwrap()
            .into_iter()
            .map(|d| (d.drive.id, d.result_count))
            .collect();
        (pools, tests, counts, app.scalar(lines).await)
    };
    let indexes = if app.storage.backend() == "sqlite" {
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'pool_figures'"
    } else {
        "SELECT COUNT(*) FROM pg_indexes WHERE tablename = 'pool_figures'"
    };
    let index_count = app.scalar(indexes).await;
    assert!(index_count >= 4, "the lines' key and their three indexes: {index_count}");
    let kept = state().await;
    assert!(kept.0.len() > 10 && kept.1.len() > 5 && kept.3 > 10, "a summary to rebuild: {:?}", kept.1);
    // As a bulk load leaves a database: no summary mark, no counts.
    let forget = "DELETE FROM app_meta WHERE key = 'test_samples'; UPDATE drives SET result_count = 0";
    let built = if app.storage.backend() == "sqlite" {
        let pool = sqlx::SqlitePool::connect(&app.url).await.unwrap();
        sqlx::raw_sql(forget).execute(&pool).await.unwrap();
        let n = storage::summary::sqlite::build_if_missing(&pool).await.unwrap();
        pool.close().await;
        n
    } else {
        let pool = sqlx::PgPool::connect(&app.url).await.unwrap();
        sqlx::raw_sql(forget).execute(&pool).await.unwrap();
        let n = storage::summary::postgres::build_if_missing(&pool).await.unwrap();
        pool.close().await;
        n
    };
    assert!(built >= 3, "every measured drive built: {built}");
    let rebuilt = state().await;
    assert_eq!(rebuilt.0, kept.0, "pools");
    assert_eq!(rebuilt.1, kept.1, "tests list");
    assert_eq!(rebuilt.2, kept.2, "result counts");
    assert_eq!(rebuilt.3, kept.3, "leaderboard lines");
    // The build drops the lines' indexes while it writes them and builds them after.
    assert_eq!(app.scalar(indexes).await, index_count, "the lines' indexes built again");
    let waiting = "SELECT COUNT(*) FROM app_meta WHERE key = 'summary_deferred_indexes'";
    assert_eq!(app.scalar(waiting).await, 0, "no index left waiting");
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM test_total_changes").await,
        kept.1.len() as i64,
        "one row per test"
    );
}

/// Opening a seeded database again neither seeds twice nor fails.
async fn seeds_load_once(app: &TestApp) {
    let n = ssdbase::seed_if_empty(&app.storage).await.unwrap();
    assert_eq!(n, 0);
}

// ---------------------------------------------------------------------------------------
// Editing, deleting and moderating
// ---------------------------------------------------------------------------------------

/// CDM3 with its first figure changed, so each call is a new upload.
fn cdm3_with(seq_read: &str) -> String {
    CDM3.replace("505.825", seq_read)
}

async fn submit_ok(app: &TestApp, body: &Value) -> (i64, String) {
    let r = app.post_json("/api/v1/results", body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let v = r.json();
    (v["id"].as_i64().unwrap(), v["edit_token"].as_str().unwrap().to_string())
}

/// A result stored under a name that made a community drive, corrected with its edit
/// token to the drive it is: the community drive, left with nothing, goes (its page, its
/// search entry); a community drive that still holds a result stays.
async fn a_community_drive_left_empty_by_a_correction_goes(app: &TestApp) {
    let named = |v: f64| json!({"text": cdm3_with(&format!("{v}")), "tags": {"drive": {"vendor": "Zorbit", "model": "QX9", "capacity_gb": 64}}});
    let (id, token) = submit_ok(app, &named(503.25)).await;
    let made = app.get(&format!("/api/v1/results/{id}")).await.json()["tags"]["drive"]["sku"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(app.get(&format!("/api/v1/drives/{made}")).await.status, StatusCode::OK);
    let (second, second_token) = submit_ok(app, &named(503.75)).await;
    let fix = json!({"tags": {"drive": {"sku": C300_64}}});
    let r = app.authed(Method::PATCH, &format!("/api/v1/results/{id}"), Some(&token), Some(&fix)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        app.get(&format!("/api/v1/drives/{made}")).await.status,
        StatusCode::OK,
        "one result is left on it"
    );
    let r = app
        .authed(Method::PATCH, &format!("/api/v1/results/{second}"), Some(&second_token), Some(&fix))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(app.get(&format!("/api/v1/drives/{made}")).await.status, StatusCode::NOT_FOUND, "empty: gone");
    let found = app.get("/api/v1/drives/search?q=zorbit").await.json();
    assert_eq!(found["drives"].as_array().unwrap().len(), 0, "{found}");
    // The catalogue's own drive is never removed, whatever moves away from it.
    let r = app
        .authed(
            Method::PATCH,
            &format!("/api/v1/results/{id}"),
            Some(&token),
            Some(&json!({"tags": {"drive": {"sku": M2S_64}}})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(app.get(&format!("/api/v1/drives/{C300_64}")).await.status, StatusCode::OK);
}

/// The same file sent again naming another drive: recognised, nothing moved, and the
/// answer names both drives and where the stored one is corrected; sent again naming the
/// same drive (or none), no such word.
async fn a_resent_upload_naming_another_drive_says_so(app: &TestApp) {
    let text = cdm3_with("504.125");
    let (id, token) = submit_ok(app, &json!({"text": text, "tags": {"drive": {"sku": M2S_64}}})).await;
    let r = app
        .post_json(
            "/api/v1/results",
            &json!({"text": text, "tags": {"drive": {"model": "C300-CTFDDAC064MAG"}}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = r.json();
    assert_eq!(v["duplicate"], true);
    assert_eq!(v["id"], id);
    let other = &v["other_drive"];
    assert_eq!(other["stored_id"], M2S_64, "{v}");
    assert_eq!(other["sent_id"], C300_64, "{v}");
    assert!(other["stored"].as_str().unwrap().contains("M2S"), "{v}");
    assert!(other["sent"].as_str().unwrap().contains("C300"), "{v}");
    assert_eq!(other["correct_at"], format!("/results/{id}"));
    let stored = app.get(&format!("/api/v1/results/{id}")).await.json();
    assert_eq!(stored["tags"]["drive"]["sku"], M2S_64, "nothing moved");
    for same in [json!({"text": text, "tags": {"drive": {"sku": M2S_64}}}), json!({"text": text})] {
        let v = app.post_json("/api/v1/results", &same).await.json();
        assert_eq!(v["duplicate"], true);
        assert!(v.get("other_drive").is_none(), "{v}");
    }
    // Corrected as an edit form sends it, the old drive's words kept beside the new id:
    // the result and its title name the new drive.
    let mut tags = stored["tags"].clone();
    tags["drive"]["sku"] = json!(C300_64);
    let r = app
        .authed(Method::PATCH, &format!("/api/v1/results/{id}"), Some(&token), Some(&json!({"tags": tags})))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let drive = &r.json()["tags"]["drive"];
    assert_eq!(drive["sku"], C300_64);
    assert!(drive["model"].as_str().unwrap().contains("C300"), "{drive}");
    let title =
        api_types::pages::result_heading(id, &serde_json::from_value(r.json()["tags"].clone()).unwrap());
    assert!(title.contains("C300") && !title.contains("M2S"), "{title}");
}

async fn the_edit_token_corrects_tags_and_deletes(app: &TestApp) {
    let body = json!({"text": cdm3_with("501.5"), "tags": {"drive": {"sku": C300_64}, "platform": {"chipset": "EDIT-A"}}});
    let (id, token) = submit_ok(app, &body).await;
    let (_, other_token) = submit_ok(app, &json!({"text": cdm3_with("502.5")})).await;
    let uri = format!("/api/v1/results/{id}");
    let fix = json!({"tags": {"drive": {"sku": M2S_64}, "platform": {"chipset": "EDIT-B"}}});

    let r = app.authed(Method::PATCH, &uri, None, Some(&fix)).await;
    r.assert_error(StatusCode::UNAUTHORIZED, None);
    assert_eq!(r.headers[header::WWW_AUTHENTICATE], "Bearer");
    let r = app.authed(Method::PATCH, &uri, Some("not-the-token"), Some(&fix)).await;
    r.assert_error(StatusCode::FORBIDDEN, None);
    app.authed(Method::PATCH, &uri, Some(&other_token), Some(&fix))
        .await
        .assert_error(StatusCode::FORBIDDEN, None);
    app.authed(Method::PATCH, &uri, Some(&token), Some(&json!({"tags": {"drive": {"sku": "nope"}}})))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("tags.drive.sku"));
    // Whether a result exists is said only to the admin; an edit token gets 403.
    app.authed(Method::PATCH, "/api/v1/results/99999999", Some(&token), Some(&fix))
        .await
        .assert_error(StatusCode::FORBIDDEN, None);
    app.authed(Method::PATCH, "/api/v1/results/99999999", Some(ADMIN), Some(&fix))
        .await
        .assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(app.browse_ids("chipset=EDIT-A", None).await, vec![id], "failed edits changed nothing");
    // JSON's integral numbers are integers (47.0 for a PCIe generation), and a number the
    // stored JSON could not carry (an f32 link speed of 1e300) is refused, not stored as a
    // row that no longer reads (schemathesis found both).
    let integral = json!({"tags": {"platform": {"link": {"kind": "pcie", "gen": 4.0, "lanes": 4.0}}}});
    let r = app.authed(Method::PATCH, &uri, Some(&token), Some(&integral)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["tags"]["platform"]["link"], json!({"kind": "pcie", "gen": 4, "lanes": 4}));
    let huge = json!({"tags": {"platform": {"link": {"kind": "sata", "gbps": 1e300}}}});
    app.authed(Method::PATCH, &uri, Some(&token), Some(&huge))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("tags.platform.link"));
    assert_eq!(app.get(&uri).await.status, StatusCode::OK, "the result still reads");

    let r = app.authed(Method::PATCH, &uri, Some(&token), Some(&fix)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let edited = r.json();
    assert_eq!(edited["tags"]["drive"]["sku"], M2S_64);
    assert_eq!(edited["tags"]["drive"]["vendor"], "Plextor", "the catalogue completes the new tags");
    // Flags are derived again from the new drive's rated figures.
    let m2s = app.storage.get_drive(M2S_64).await.unwrap().unwrap();
    let stored = app.storage.get_result(id).await.unwrap().unwrap();
    let expected = ssdbase::ingest::flags_for(&stored.result, &stored.tags, Some(&m2s));
    assert_eq!(edited["flags"], serde_json::to_value(&expected).unwrap());
    assert_eq!(stored.flags, expected);
    // ... and so are the filter columns and every aggregate.
    assert!(app.browse_ids("chipset=EDIT-A", None).await.is_empty());
    assert_eq!(app.browse_ids("chipset=EDIT-B", None).await, vec![id]);
    assert!(app.browse_ids(&format!("drive={M2S_64}"), None).await.contains(&id));
    assert!(!app.browse_ids(&format!("drive={C300_64}"), None).await.contains(&id));
    let page = app.get(&format!("/api/v1/drives/{M2S_64}")).await.json();
    assert!(page["results"].as_array().unwrap().iter().any(|r| r["id"] == id));

    // Delete: wrong token 403, then gone with its metrics and its upload.
    app.authed(Method::DELETE, &uri, Some(&other_token), None)
        .await
        .assert_error(StatusCode::FORBIDDEN, None);
    app.authed(Method::DELETE, &uri, None, None).await.assert_error(StatusCode::UNAUTHORIZED, None);
    let sub = stored.submission_id;
    let r = app.authed(Method::DELETE, &uri, Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json(), json!({"deleted": id, "submission_deleted": true}));
    app.get(&uri).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM metrics WHERE result_id = {id}")).await, 0);
    assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM submissions WHERE id = {sub}")).await, 0);
    // Gone: the admin is told so; the former edit token opens nothing any more (403).
    app.authed(Method::DELETE, &uri, Some(&token), None).await.assert_error(StatusCode::FORBIDDEN, None);
    app.authed(Method::DELETE, &uri, Some(ADMIN), None).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    // The content may be submitted again: it is new again.
    let again = app.post_json("/api/v1/results", &body).await;
    assert_eq!(again.status, StatusCode::CREATED, "{}", again.text);

    // A submission with two results keeps its upload until its last result goes.
    let result: bench::BenchResult = serde_json::from_value(a_result(77.0)).unwrap();
    let nr = NewResult {
        result,
        result_json: None,
        tags: Default::default(),
        source: None,
        flags: vec![],
        new_drive: None,
    };
    let two = NewSubmission {
        body: b"two runs".to_vec(),
        content_hash: "e".repeat(64),
        format: None,
        edit_token_hash: ssdbase::ingest::sha256_hex(b"two-token"),
        client: None,
        created_at: 0,
        results: vec![nr.clone(), nr],
        provenance: None,
        runner: None,
    };
    let storage::Submitted::Stored { submission_id, result_ids } = app.storage.submit(&two).await.unwrap()
    else {
        panic!("stored")
    };
    let first = app
        .authed(Method::DELETE, &format!("/api/v1/results/{}", result_ids[0]), Some("two-token"), None)
        .await;
    assert_eq!(first.json()["submission_deleted"], false, "{}", first.text);
    assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM submissions WHERE id = {submission_id}")).await, 1);
    let metrics_left =
        app.scalar(&format!("SELECT COUNT(*) FROM metrics WHERE result_id = {}", result_ids[1])).await;
    assert_eq!(metrics_left, 2);
    // The admin may delete too.
    let last =
        app.authed(Method::DELETE, &format!("/api/v1/results/{}", result_ids[1]), Some(ADMIN), None).await;
    assert_eq!(last.json()["submission_deleted"], true, "{}", last.text);
    assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM submissions WHERE id = {submission_id}")).await, 0);
    let logged = app.scalar("SELECT COUNT(*) FROM moderation_log WHERE action = 'delete'").await;
    assert_eq!(logged, 3);
}

fn count_of(drives: &Value, id: &str) -> i64 {
    drives["drives"].as_array().unwrap().iter().find(|d| d["id"] == id).unwrap()["result_count"]
        .as_i64()
        .unwrap()
}

/// A compare answer (asserted 200) in the long form: every cell with its pool's platform,
/// label and data pattern and its result ids (its own, or else its pool's), so that
/// tests read each cell alone. Checks what the short form promises on the way: each
/// pool listed once, under a compared drive, and each cell's ids among its pool's.
async fn compare(app: &TestApp, uri: &str) -> Value {
    let reply = app.get(uri).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text);
    let mut c = reply.json();
    let pools = c["pools"].as_array().expect("pools").clone();
    let mut seen = std::collections::HashSet::new();
    for p in &pools {
        let identity = (p["drive"].to_string(), p["platform"].to_string(), p["data_pattern"].to_string());
        assert!(seen.insert(identity), "pool listed twice: {p}");
        assert!(c["drives"].as_array().unwrap().iter().any(|d| d["id"] == p["drive"]), "{p}");
    }
    for t in c["tests"].as_array_mut().unwrap() {
        for d in t["drives"].as_array_mut().unwrap() {
            let drive = d["drive"].clone();
            for g in d["groups"].as_array_mut().unwrap() {
                let pool = &pools[g["pool"].as_u64().unwrap() as usize];
                assert_eq!(pool["drive"], drive, "a cell refers to a pool of its own drive");
                let pool_ids = pool["result_ids"].as_array().unwrap();
                let pool_results = pool["results"].as_u64().unwrap();
                let shown = |n: u64| n.min(api_types::COMPARE_RESULT_IDS as u64);
                assert_eq!(
                    pool_ids.len() as u64,
                    shown(pool_results),
                    "the newest of a pool's results: {pool}"
                );
                if g["result_ids"].is_null() {
                    assert!(g["results"].is_null(), "a cell's count comes with its own ids: {g}");
                    g["result_ids"] = pool["result_ids"].clone();
                    g["results"] = pool["results"].clone();
                } else {
                    let own = g["result_ids"].as_array().unwrap();
                    let results = g["results"].as_u64().unwrap();
                    assert!(results <= pool_results && own.len() as u64 == shown(results), "{g}");
                    if pool_ids.len() as u64 == pool_results {
                        assert!(own.iter().all(|i| pool_ids.contains(i)), "{own:?} not in its pool");
                        assert_ne!(own, pool_ids, "ids equal to the pool's are left out");
                    }
                }
                for k in ["platform", "platform_label", "data_pattern"] {
                    g[k] = pool[k].clone();
                }
            }
        }
    }
    c
}

/// Every result id that a compare answer's tests cite for one drive (all groups).
fn compare_ids(c: &Value, drive_index: usize) -> Vec<i64> {
    c["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| group_ids(&t["drives"][drive_index]["groups"]))
        .collect()
}

/// The result ids of a list of aggregate groups.
fn group_ids(groups: &Value) -> Vec<i64> {
    groups
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["result_ids"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()))
        .collect()
}

async fn hidden_results_leave_every_aggregate(app: &TestApp) {
    let before = count_of(&app.get("/api/v1/drives").await.json(), M2S_64);
    let mut r = a_result(333.0);
    r["tool_version"] = json!("8.0.4 x64");
    let (id, token) = submit_ok(app, &json!({"result": r, "tags": {"drive": {"sku": M2S_64}}})).await;
    let compare_uri = format!("/api/v1/compare?drives={C300_64},{M2S_64}");
    let visible = || async {
        let drives = app.get("/api/v1/drives").await.json();
        let page = app.get(&format!("/api/v1/drives/{M2S_64}")).await.json();
        let listed = page["results"].as_array().unwrap().iter().any(|x| x["id"] == id);
        let aggregated =
            page["tests"].as_array().unwrap().iter().any(|t| group_ids(&t["groups"]).contains(&id));
        assert_eq!(listed, aggregated, "listed and aggregated alike");
        let on_page = listed;
        let compared = compare_ids(&compare(app, &compare_uri).await, 1).contains(&id);
        let browsed = app.browse_ids(&format!("drive={M2S_64}"), None).await.contains(&id);
        (count_of(&drives, M2S_64), on_page, compared, browsed)
    };
    assert_eq!(visible().await, (before + 1, true, true, true));

    let hide = format!("/api/v1/results/{id}/hide");
    let why = json!({"reason": "numbers above the SATA 6 Gb/s ceiling"});
    app.authed(Method::POST, &hide, None, Some(&why)).await.assert_error(StatusCode::UNAUTHORIZED, None);
    app.authed(Method::POST, &hide, Some(&token), Some(&why)).await.assert_error(StatusCode::FORBIDDEN, None);
    app.authed(Method::POST, &hide, Some(ADMIN), Some(&json!({})))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("reason"));
    app.authed(Method::POST, "/api/v1/results/99999999/hide", Some(ADMIN), Some(&why))
        .await
        .assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(visible().await, (before + 1, true, true, true), "refused requests hid nothing");

    let r = app.authed(Method::POST, &hide, Some(ADMIN), Some(&why)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["hidden"], true);
    assert_eq!(visible().await, (before, false, false, false), "hidden: out of every aggregate");
    // Its own page says so to everybody but the moderator.
    let e = app.get(&format!("/api/v1/results/{id}")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert!(e["errors"][0]["detail"].as_str().unwrap().contains("hidden"), "{e}");
    let seen = app.authed(Method::GET, &format!("/api/v1/results/{id}"), Some(ADMIN), None).await.json();
    assert_eq!(seen["hidden"], true);
    assert_eq!(seen["hidden_reason"], why["reason"]);
    // Browsing hidden results is for the moderator only.
    app.authed(Method::GET, "/api/v1/results?include_hidden=true", Some(&token), None)
        .await
        .assert_error(StatusCode::FORBIDDEN, None);
    assert!(app.browse_ids(&format!("drive={M2S_64}&include_hidden=true"), Some(ADMIN)).await.contains(&id));

    let r = app
        .authed(
            Method::POST,
            &format!("/api/v1/results/{id}/restore"),
            Some(ADMIN),
            Some(&json!({"reason": "checked: USB bridge"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(visible().await, (before + 1, true, true, true), "restored");
    let ok = app.get(&format!("/api/v1/results/{id}")).await.json();
    assert!(ok.get("hidden").is_none() && ok.get("hidden_reason").is_none(), "{ok}");
    assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM moderation_log WHERE result_id = {id}")).await, 2);

    // A server started without an admin token has no moderator.
    let plain = app_with(app.storage.clone(), &ApiConfig { limits: limits(), ..Default::default() });
    let extra = Extra { content_type: Some("application/json"), bearer: Some(ADMIN), ..Extra::default() };
    let r = app.send(&plain, Method::POST, &hide, extra, Body::from(why.to_string())).await;
    let e = r.assert_error(StatusCode::FORBIDDEN, None);
    assert!(e["errors"][0]["detail"].as_str().unwrap().contains("admin token"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Several files at once
// ---------------------------------------------------------------------------------------

/// A multipart/form-data body: (part name, file name, bytes).
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "ssdbase-test-boundary-7d1f";
    let mut body = Vec::new();
    for (name, file, data) in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match file {
            Some(f) => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\n\r\n")
                    .as_bytes(),
            ),
            None => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            ),
        }
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn several_files_in_one_request_are_all_or_nothing(app: &TestApp) {
    // JSON array: a file, a public-format result and the first file again.
    let a = json!({"text": cdm3_with("611.1"), "tags": {"platform": {"chipset": "BATCH-J"}}});
    let b = json!({"result": a_result(612.2), "tags": {"platform": {"chipset": "BATCH-J"}}});
    let r = app.post_json("/api/v1/results", &json!([a, b, a])).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let files = r.json()["files"].as_array().unwrap().clone();
    assert_eq!(files.len(), 3);
    assert_eq!(
        (files[0]["status"].as_u64(), files[1]["status"].as_u64(), files[2]["status"].as_u64()),
        (Some(201), Some(201), Some(200))
    );
    assert_eq!(files[2]["duplicate"], true);
    assert_eq!(files[2]["id"], files[0]["id"], "the repeat is the stored one");
    assert!(files[0]["edit_token"].as_str().is_some() && files[2]["edit_token"].is_null());
    let mut ids = app.browse_ids("chipset=BATCH-J", None).await;
    ids.sort_unstable();
    assert_eq!(ids, vec![files[0]["id"].as_i64().unwrap(), files[1]["id"].as_i64().unwrap()]);
    // All duplicates: 200.
    let r = app.post_json("/api/v1/results", &json!([a])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // One bad item rejects the request with every problem listed, and stores nothing.
    let fresh = json!({"text": cdm3_with("613.3"), "tags": {"platform": {"chipset": "BATCH-BAD"}}});
    let broken = json!({"text": CDM3.replace("505.825 MB/s", "abc MB/s")});
    let unknown = json!({"result": a_result(1.0), "tags": {"drive": {"sku": "nope"}}});
    let r = app.post_json("/api/v1/results", &json!([fresh, broken, unknown])).await;
    let e = r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("[1].text line 7"));
    assert_eq!(e["errors"][1]["pointer"], "[2].tags.drive.sku", "{e}");
    assert!(app.browse_ids("chipset=BATCH-BAD", None).await.is_empty());
    app.post_json("/api/v1/results", &json!([{"text": CDM3, "colour": 1}]))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("[0].colour"));
    app.post_json("/api/v1/results", &json!([])).await.assert_error(StatusCode::UNPROCESSABLE_ENTITY, None);

    // multipart/form-data: two files (one UTF-16LE, as Windows tools write them) and tags.
    let utf16: Vec<u8> = cdm3_with("621.1").encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let utf16 = [&[0xFF, 0xFE][..], &utf16].concat();
    let plain = cdm3_with("622.2");
    let tags = json!({"platform": {"chipset": "BATCH-M"}}).to_string();
    let (ct, body) = multipart(&[
        ("file", Some("run1.txt"), &utf16),
        ("file", Some("run2.txt"), plain.as_bytes()),
        ("tags", None, tags.as_bytes()),
    ]);
    let extra = Extra { content_type: Some(&ct), ..Extra::default() };
    let r = app.send(&app.router, Method::POST, "/api/v1/results", extra, Body::from(body)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let files = r.json()["files"].as_array().unwrap().clone();
    assert_eq!(files[0]["name"], "run1.txt");
    assert_eq!(files[1]["name"], "run2.txt");
    for f in &files {
        let one = app.get(f["url"].as_str().unwrap()).await.json();
        assert_eq!(one["tags"]["platform"]["chipset"], "BATCH-M");
    }
    let first = app.get(files[0]["url"].as_str().unwrap()).await.json();
    assert_eq!(first["result"]["metrics"][0]["mbps"], 621.1);
    // The upload is kept byte for byte, BOM and all.
    let sub = first["submission_id"].as_i64().unwrap();
    let len =
        app.scalar(&format!("SELECT CAST(LENGTH(body) AS BIGINT) FROM submissions WHERE id = {sub}")).await;
    assert_eq!(len as usize, utf16.len());

    // A bad file in a multipart request: its name and line, nothing stored.
    let (ct, body) = multipart(&[
        ("file", Some("good.txt"), cdm3_with("631.1").as_bytes()),
        ("file", Some("bad.txt"), CDM3.replace("505.825 MB/s", "abc MB/s").as_bytes()),
        ("tags", None, json!({"platform": {"chipset": "BATCH-MBAD"}}).to_string().as_bytes()),
    ]);
    let extra = Extra { content_type: Some(&ct), ..Extra::default() };
    let r = app.send(&app.router, Method::POST, "/api/v1/results", extra, Body::from(body)).await;
    let e = r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("files[1] line 7"));
    assert!(e["errors"][0]["detail"].as_str().unwrap().starts_with("bad.txt: "), "{e}");
    assert!(app.browse_ids("chipset=BATCH-MBAD", None).await.is_empty());
    let (ct, body) = multipart(&[("colour", None, b"red")]);
    let extra = Extra { content_type: Some(&ct), ..Extra::default() };
    let r = app.send(&app.router, Method::POST, "/api/v1/results", extra, Body::from(body)).await;
    r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("colour"));
}

async fn submissions_are_rate_limited_per_client(app: &TestApp) {
    let limited = app_with(
        app.storage.clone(),
        &ApiConfig { limits: limits(), submit_per_minute: NonZeroU32::new(3), ..ApiConfig::default() },
    );
    let post = |peer: &'static str, body: Value| {
        let limited = limited.clone();
        async move {
            let extra = Extra {
                content_type: Some("application/json"),
                peer: Some(peer.parse().unwrap()),
                ..Extra::default()
            };
            app.send(&limited, Method::POST, "/api/v1/results", extra, Body::from(body.to_string())).await
        }
    };
    for i in 0..3 {
        let r = post("10.9.0.1:5000", json!({"result": a_result(700.0 + f64::from(i))})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = post("10.9.0.1:5001", json!({"result": a_result(710.0)})).await;
    r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    let retry: u64 = r.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    assert!(app.browse_ids("", None).await.len() >= 3);
    // Another client is not affected; reading is never limited.
    let r = post("10.9.0.2:5000", json!({"result": a_result(711.0)})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // Every file of a batch counts: four files are more than this client's three.
    let four: Vec<Value> = (0..4).map(|i| json!({"result": a_result(720.0 + f64::from(i))})).collect();
    post("10.9.0.3:5000", json!(four)).await.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    let reads = app
        .send(
            &limited,
            Method::GET,
            "/api/v1/results?limit=1",
            Extra { peer: Some("10.9.0.1:5002".parse().unwrap()), ..Extra::default() },
            Body::empty(),
        )
        .await;
    assert_eq!(reads.status, StatusCode::OK);
}

/// Behind a trusted proxy the client named in `X-Forwarded-For` / `Forwarded` has its
/// own allowance; from any other peer those headers are ignored, so forging them buys
/// nothing.
async fn forwarded_clients_count_only_behind_a_trusted_proxy(app: &TestApp) {
    let trusted = ssdbase::api::client::TrustedProxies::new(vec!["10.0.0.0/8".parse().unwrap()]);
    let limited = app_with(
        app.storage.clone(),
        &ApiConfig {
            limits: limits(),
            submit_per_minute: NonZeroU32::new(2),
            trusted_proxies: trusted,
            ..ApiConfig::default()
        },
    );
    let seq = AtomicUsize::new(0);
    let post = |peer: &'static str, headers: &'static [(&'static str, &'static str)]| {
        let limited = limited.clone();
        let n = seq.fetch_add(1, Ordering::Relaxed) as f64;
        async move {
            let extra = Extra {
                content_type: Some("application/json"),
                peer: Some(peer.parse().unwrap()),
                headers,
                ..Extra::default()
            };
            let body = json!({"result": a_result(800.0 + n)}).to_string();
            app.send(&limited, Method::POST, "/api/v1/results", extra, Body::from(body)).await
        }
    };
    // An untrusted peer forging a new address every time: still one client.
    for forged in [&[("X-Forwarded-For", "203.0.113.50")][..], &[("Forwarded", "for=203.0.113.51")][..]] {
        let r = post("198.51.100.1:4000", forged).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = post("198.51.100.1:4001", &[("X-Forwarded-For", "203.0.113.52")]).await;
    let body = r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    assert!(body.to_string().contains("198.51.100.1"), "the limit names the peer: {body}");
    // Through the trusted proxy each client has its own allowance.
    for _ in 0..2 {
        let r = post("10.0.0.1:4000", &[("X-Forwarded-For", "203.0.113.1")]).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let r = post("10.0.0.1:4000", &[("X-Forwarded-For", "203.0.113.1")]).await;
    let body = r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    assert!(body.to_string().contains("203.0.113.1"), "the limit names the client: {body}");
    // A client that prepends a forged address is still the right-most untrusted hop.
    let r = post("10.0.0.1:4000", &[("X-Forwarded-For", "192.0.2.77, 203.0.113.1, 10.0.0.9")]).await;
    r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    // Another client behind the same proxy, by either header, is not affected.
    let r = post("10.0.0.1:4000", &[("X-Forwarded-For", "203.0.113.2")]).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = post("10.0.0.2:4000", &[("Forwarded", "for=\"[2001:db8::3]:5555\";proto=https")]).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // The stored client is the resolved address, never the forged one.
    let clients: Vec<String> = if app.url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(&app.url).await.unwrap();
        sqlx::query_scalar("SELECT client FROM submissions WHERE client IS NOT NULL")
            .fetch_all(&pool)
            .await
            .unwrap()
    } else {
        let pool = sqlx::PgPool::connect(&app.url).await.unwrap();
        let c = sqlx::query_scalar("SELECT client FROM submissions WHERE client IS NOT NULL")
            .fetch_all(&pool)
            .await
            .unwrap();
        pool.close().await;
        c
    };
    for want in ["198.51.100.1", "203.0.113.1", "203.0.113.2", "2001:db8::3"] {
        assert!(clients.iter().any(|c| c == want), "{want} not recorded: {clients:?}");
    }
    for forged in ["203.0.113.50", "203.0.113.51", "192.0.2.77"] {
        assert!(!clients.iter().any(|c| c == forged), "forged {forged} recorded: {clients:?}");
    }
}

/// Every answer — success, handler error, an error made outside the handlers (413),
/// an unknown path — carries a request id, one per request.
async fn every_answer_has_its_own_request_id(app: &TestApp) {
    let big = "x".repeat(100 * 1024);
    let answers = [
        app.request(Method::GET, "/api/v1/health", None, Body::empty()).await,
        app.request(Method::GET, "/api/v1/results/999999999", None, Body::empty()).await,
        app.request(Method::POST, "/api/v1/results", Some("application/json"), Body::from(big)).await,
        app.request(Method::GET, "/api/v1/no-such-thing", None, Body::empty()).await,
    ];
    let statuses: Vec<u16> = answers.iter().map(|r| r.status.as_u16()).collect();
    assert_eq!(statuses, [200, 404, 413, 404]);
    let ids: std::collections::HashSet<String> = answers
        .iter()
        .map(|r| r.headers.get("x-request-id").expect("x-request-id").to_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), answers.len(), "ids repeat: {ids:?}");
}

// ---------------------------------------------------------------------------------------
// Text as typed
// ---------------------------------------------------------------------------------------

/// Strings that would do harm if anything concatenated them into SQL, HTML or CSV.
const NASTY: &[&str] = &[
    "'; DROP TABLE results; --",
    "Robert'); DELETE FROM metrics WHERE ('1'='1",
    "<script>alert(\"pwned\")</script>",
    "<img src=x onerror=alert(1)>&amp;",
    "\"quoted\", with comma",
    "=HYPERLINK(\"http://example.invalid\",\"x\")",
    "ünïcödé 日本語 🚀 \u{202e}txt.exe \u{feff}",
    "line\nbreak\r\n\ttab \\ backslash $1 ? %s",
];

/// RFC 4180 CSV into rows of cells.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    rows
}

async fn typed_text_is_stored_and_returned_as_typed(app: &TestApp) {
    let drives_before = app.get("/api/v1/drives").await.json()["drives"].as_array().unwrap().len();
    for (i, nasty) in NASTY.iter().enumerate() {
        let mut result = a_result(800.0 + i as f64);
        result["comment"] = json!(nasty);
        let body = json!({
            "result": result,
            "source": nasty,
            "tags": {"firmware": nasty, "platform": {"chipset": nasty, "driver": nasty, "os": nasty}},
        });
        let r = app.post_json("/api/v1/results", &body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{nasty:?}: {}", r.text);
        let id = r.json()["id"].as_i64().unwrap();

        let got = app.get(&format!("/api/v1/results/{id}")).await;
        assert!(got.content_type.starts_with("application/json"), "{}", got.content_type);
        let v = got.json();
        for field in [
            &v["source"],
            &v["result"]["comment"],
            &v["tags"]["firmware"],
            &v["tags"]["platform"]["chipset"],
            &v["tags"]["platform"]["driver"],
            &v["tags"]["platform"]["os"],
        ] {
            assert_eq!(field.as_str(), Some(*nasty), "{v}");
        }
        // Filters bind the text as a parameter: an exact match finds exactly this one.
        let q = format!("chipset={}", url_encode(nasty));
        assert_eq!(app.browse_ids(&q, None).await, vec![id], "{nasty:?}");
        // CSV quotes it; only a would-be formula gets a leading apostrophe.
        let csv = app.get(&format!("/api/v1/results?{q}&format=csv")).await;
        assert!(csv.content_type.starts_with("text/csv"), "{}", csv.content_type);
        let rows = parse_csv(&csv.text);
        assert_eq!(rows.len(), 3, "header and two metrics: {}", csv.text);
        let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
        let expected = if nasty.starts_with('=') { format!("'{nasty}") } else { nasty.to_string() };
        for row in &rows[1..] {
            assert_eq!(row.len(), rows[0].len(), "{}", csv.text);
            assert_eq!(row[col("chipset")], expected);
            assert_eq!(row[col("driver")], expected);
            assert_eq!(row[col("firmware")], expected);
        }
    }
    // Nothing was executed: every table still answers and holds what it held.
    assert_eq!(app.get("/api/v1/drives").await.json()["drives"].as_array().unwrap().len(), drives_before);
    assert!(app.scalar("SELECT COUNT(*) FROM metrics").await > 0);

    // NUL cannot be stored by PostgreSQL: refused on both backends with the field.
    let r = app
        .post_json(
            "/api/v1/results",
            &json!({"result": a_result(899.0), "tags": {"platform": {"chipset": "a\u{0}b"}}}),
        )
        .await;
    r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("tags.platform.chipset"));
    let mut r = a_result(898.0);
    r["comment"] = json!("nul\u{0}");
    app.post_json("/api/v1/results", &json!({"result": r}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("result.comment"));

    // Errors that repeat what was typed are JSON too, never HTML.
    let script = "<script>alert(1)</script>";
    for reply in [
        app.get(&format!("/api/v1/drives/{}", url_encode(script))).await,
        app.get(&format!("/{}", url_encode(script))).await,
        app.post_json(
            "/api/v1/results",
            &json!({"result": a_result(1.0), "tags": {"drive": {"sku": script}}}),
        )
        .await,
        app.get(&format!("/api/v1/results?{}=1", url_encode(script))).await,
        app.get(&format!("/api/v1/compare?drives={}", url_encode(script))).await,
    ] {
        assert!(reply.status.is_client_error(), "{}", reply.text);
        assert!(reply.content_type.starts_with("application/json"), "{}: {}", reply.content_type, reply.text);
        assert!(!reply.content_type.contains("html"));
    }
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
    random_and_zero_fill_pair_within_a_drive,
    firmware_steps_are_marked_only_beyond_the_noise,
    a_result_says_where_it_stands_and_what_explains_it,
    health_names_the_backend,
    a_runners_record_is_kept_with_its_result_and_only_with_one,
    every_field_is_stored_filtered_sorted_downloaded_documented_and_grouped,
    a_drive_not_in_the_catalogue_gets_a_page_compare_and_search,
    an_upload_without_tags_is_named_by_what_its_file_says,
    every_corpus_export_is_named_by_the_drive_it_names,
    a_result_with_a_test_twice_is_refused,
    a_sweep_is_shown_as_its_curve_with_the_knee_and_percentiles,
    a_run_sampled_over_time_is_one_result_with_its_intervals,
    a_cache_run_shows_its_cache_the_rate_after_it_and_what_came_back,
    burst_and_sustained_sit_side_by_side_per_drive_with_their_runs_and_charts,
    a_drive_page_folds_a_sweep_into_its_curve,
    the_m5pro_page_sets_the_articles_orion_statements_beside_measured_curves,
    orion_matrices_uploaded_by_name_become_curves,
    an_orion_latency_spread_and_histogram_are_kept_and_shown,
    model_strings_and_part_numbers_land_on_their_drive,
    a_real_set_of_names_lands_on_one_drive_per_drive,
    duplicates_from_earlier_rules_are_listed_and_merged_on_upgrade,
    a_listed_duplicate_merges_through_the_merge_route,
    ambiguous_and_unknown_drives_are_stored_without_a_guess,
    junk_drive_names_are_refused_with_their_field,
    concurrent_submissions_of_one_new_drive_make_one_drive,
    the_drives_index_and_leaderboards_rank_one_test_with_n,
    arrays_are_ranked_apart_from_single_drives,
    answers_are_compressed_as_the_client_accepts,
    a_rated_figure_needs_its_source_and_waits_for_a_moderator,
    a_new_drive_enters_the_catalogue_when_accepted,
    form_factor_and_firmware_versions_are_proposed_and_kept_in_history,
    merging_moves_every_result_and_keeps_aggregates_equal_to_a_recount,
    a_merge_racing_submissions_loses_nothing,
    another_servers_catalogue_changes_are_listed_at_once,
    a_new_database_holds_the_seeds,
    a_result_file_is_parsed_stored_and_recognised_when_sent_again,
    a_result_in_the_public_format_is_stored,
    bad_submissions_say_what_and_where,
    unknown_paths_and_methods_get_json_errors,
    results_are_filtered_sorted_paged_and_exported,
    compare_lines_up_equal_tests_and_shows_missing_ones,
    the_compare_chart_embeds_as_svg_and_png,
    a_drives_rated_chart_embeds_as_svg_and_png,
    rated_vs_measured_tables_come_as_json_csv_and_html,
    a_drives_distribution_chart_embeds_as_svg_and_png,
    the_drive_page_has_a_firmware_history,
    aggregates_split_by_platform_and_data_pattern,
    differences_between_pools_carry_an_interval_and_a_verdict,
    a_failed_submission_stores_nothing,
    concurrent_submissions_each_get_their_own_outcome,
    seeds_load_once,
    the_edit_token_corrects_tags_and_deletes,
    a_community_drive_left_empty_by_a_correction_goes,
    a_resent_upload_naming_another_drive_says_so,
    hidden_results_leave_every_aggregate,
    several_files_in_one_request_are_all_or_nothing,
    submissions_are_rate_limited_per_client,
    forwarded_clients_count_only_behind_a_trusted_proxy,
    every_answer_has_its_own_request_id,
    typed_text_is_stored_and_returned_as_typed,
    the_compare_summary_follows_every_change,
    the_summary_built_at_once_is_the_one_kept_change_by_change,
    a_comparison_lists_the_newest_results_and_counts_them_all,
    drives_stored_before_the_filter_columns_get_them_at_start_up,
    screenshots_queue_in_the_database_and_outlive_a_lost_worker,
    corrected_screenshot_settings_are_published_and_recorded,
    the_openapi_document_is_valid_openapi_3_1,
    every_documented_route_answers_and_nothing_else,
    answers_match_their_schemas_and_wrong_ones_do_not,
    query_parameters_are_exactly_the_accepted_ones,
    public_type_schemas_follow_their_serde_form,
    seeds_name_their_section_and_figure,
    seeds_first_ich10r_runs_record_both_versions_and_one_mode,
    seeds_3ware_raid_0_is_tagged_as_the_article_says,
    seeds_m2s_runs_under_the_c300s_conditions_are_zero_fill,
    seeds_unstated_data_patterns_are_unknown,
    seeds_addendum_4k_figures_claim_no_operation,
    seeds_bounds_and_approximations_are_observations_with_their_kind,
    seeds_combined_seq_and_512k_writes_store_both_halves,
    seeds_guessed_versions_and_block_sizes_say_so,
    chart_embeds_answer_304_while_unchanged,
    deep_links_carry_link_previews_with_escaped_text,
    oembed_answers_drive_and_compare_pages,
    runner_downloads_are_listed_with_their_checksums,
    embed_pages_are_framable_scriptless_and_escaped,
    every_html_surface_escapes_stored_and_asked_text,
    screenshots_are_their_uploaders_until_published,
    unpublished_screenshots_are_deleted_after_their_time,
    uploads_and_writes_are_limited_per_client,
    every_answer_carries_the_headers_a_public_site_needs,
    a_panicking_handler_answers_500_and_the_server_goes_on,
);
