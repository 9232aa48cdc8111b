//! `ssdbase serve` flags end to end, through the real binary and real TCP connections:
//! the admin token from the environment moderates, and `--submit-rate` limits a client
//! by its real peer address.

mod common;

use common::http;
use serde_json::{json, Value};

/// A database URL in a fresh directory, which is removed when dropped (on a panic too).
fn temp_db(name: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new().prefix(&format!("ssdbase_serve_{name}_")).tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("serve.db").display());
    (dir, url)
}

fn result_body(seq_read: f64) -> String {
    json!({"result": {
        "tool": "fio", "metrics": [{"label": "seq read", "access": "seq", "block_size": 1048576,
            "queue_depth": 8, "threads": 1, "op": "read", "mbps": seq_read, "iops": null, "latency_us": null}]
    }})
    .to_string()
}

const JSON: (&str, &str) = ("Content-Type", "application/json");

#[test]
fn admin_token_from_the_environment_and_submit_rate_from_the_command_line() {
    let (_dir, url) = temp_db("flags");
    let admin = "env-admin-secret";
    let (mut child, addr) =
        common::start_server(&url, &["--submit-rate", "2"], &[("SSDBASE_ADMIN_TOKEN", admin)]);

    let first = http(addr, "POST", "/api/v1/results", &[JSON], result_body(101.0)).unwrap();
    assert_eq!(first.status, 201, "{}", first.body);
    let id = serde_json::from_str::<Value>(&first.body).unwrap()["id"].as_i64().unwrap();
    let second = http(addr, "POST", "/api/v1/results", &[JSON], result_body(102.0)).unwrap();
    assert_eq!(second.status, 201, "{}", second.body);
    // The third from the same address within the minute: 429, JSON, Retry-After.
    let third = http(addr, "POST", "/api/v1/results", &[JSON], result_body(103.0)).unwrap();
    assert_eq!(third.status, 429, "{}", third.body);
    assert!(third.header("content-type").unwrap().starts_with("application/json"));
    let retry: u64 = third.header("retry-after").expect("Retry-After").parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let detail = serde_json::from_str::<Value>(&third.body).unwrap()["errors"][0]["detail"].clone();
    assert!(detail.as_str().unwrap().contains("127.0.0.1"), "{detail}");
    // A forged X-Forwarded-For does not buy a fresh allowance.
    let forged = http(
        addr,
        "POST",
        "/api/v1/results",
        &[JSON, ("X-Forwarded-For", "203.0.113.9")],
        result_body(104.0),
    )
    .unwrap();
    assert_eq!(forged.status, 429, "{}", forged.body);

    // The admin token came from SSDBASE_ADMIN_TOKEN.
    let bearer = format!("Bearer {admin}");
    let hide = http(
        addr,
        "POST",
        &format!("/api/v1/results/{id}/hide"),
        &[JSON, ("Authorization", &bearer)],
        r#"{"reason": "test"}"#,
    )
    .unwrap();
    assert_eq!(hide.status, 200, "{}", hide.body);
    assert_eq!(http(addr, "GET", &format!("/api/v1/results/{id}"), &[], "").unwrap().status, 404);
    let seen =
        http(addr, "GET", &format!("/api/v1/results/{id}"), &[("Authorization", &bearer)], "").unwrap();
    assert_eq!(seen.status, 200, "{}", seen.body);
    let wrong = http(
        addr,
        "POST",
        &format!("/api/v1/results/{id}/restore"),
        &[JSON, ("Authorization", "Bearer not-it")],
        "{}",
    )
    .unwrap();
    assert_eq!(wrong.status, 403, "{}", wrong.body);

    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn trusted_proxies_from_the_environment_name_the_client() {
    let (_dir, url) = temp_db("proxy");
    // A list in the environment: the loopback peer of this test is a trusted proxy.
    let (mut child, addr) = common::start_server(
        &url,
        &["--submit-rate", "1"],
        &[("SSDBASE_TRUSTED_PROXY", "192.0.2.0/24,127.0.0.0/8")],
    );
    let post = |xff: &str, v: f64| {
        http(addr, "POST", "/api/v1/results", &[JSON, ("X-Forwarded-For", xff)], result_body(v)).unwrap()
    };
    assert_eq!(post("203.0.113.9", 201.0).status, 201);
    let again = post("203.0.113.9", 202.0);
    assert_eq!(again.status, 429, "{}", again.body);
    assert!(again.body.contains("203.0.113.9"), "{}", again.body);
    assert_eq!(post("203.0.113.10", 203.0).status, 201, "another client behind the proxy");
    child.kill().unwrap();
    child.wait().unwrap();
    // A bad CIDR stops the server with a message naming it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .args(["serve", "--database-url", &url, "--listen", "127.0.0.1:0", "--trusted-proxy", "10.0.0.0/33"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("10.0.0.0/33"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The value of the sample `line_start` (`name{labels}`) in a text exposition, 0 when absent.
fn sample(text: &str, line_start: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(line_start).and_then(|rest| rest.strip_prefix(' ')))
        .map_or(0.0, |v| v.parse().unwrap())
}

#[test]
fn metrics_on_their_own_listener_count_requests_by_route_template() {
    let (_dir, url) = temp_db("metrics");
    let (mut child, addr, log) = common::start_server_logged(
        &url,
        &["--metrics-listen", "127.0.0.1:0", "--submit-rate", "0", "--write-rate", "0", "--ocr-rate", "0"],
        &[],
    );
    let metrics = log
        .lock()
        .unwrap()
        .iter()
        .find_map(|l| common::logged_address(l, "metrics at"))
        .unwrap_or_else(|| panic!("no metrics line in {log:?}"));
    let scrape = || {
        let r = http(metrics, "GET", "/metrics", &[], "").unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            r.header("content-type"),
            Some("application/openmetrics-text; version=1.0.0; charset=utf-8")
        );
        r.body
    };
    let first = scrape();
    // Every line is a comment (# HELP / # TYPE) or `name{labels} value`.
    for line in first.lines() {
        if line.starts_with("# HELP ") || line.starts_with("# TYPE ") || line == "# EOF" {
            continue;
        }
        let (name, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("bad line {line:?}"));
        assert!(value.parse::<f64>().is_ok() || value == "+Inf", "bad value in {line:?}");
        let bare = name.split('{').next().unwrap();
        assert!(
            bare.starts_with("ssdbase_") && bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{line:?}"
        );
        assert_eq!(name.contains('{'), name.ends_with('}'), "{line:?}");
    }
    for family in
        ["ssdbase_db_pool_connections{pool=\"sqlite-read\",state=\"idle\"}", "ssdbase_ocr_queue_length"]
    {
        assert!(first.lines().any(|l| l.starts_with(family)), "no {family} in\n{first}");
    }
    // Not on the public listener.
    assert_eq!(http(addr, "GET", "/metrics", &[], "").unwrap().status, 404);

    let posted = http(addr, "POST", "/api/v1/results", &[JSON], result_body(301.0)).unwrap();
    assert_eq!(posted.status, 201, "{}", posted.body);
    assert_eq!(http(addr, "POST", "/api/v1/results", &[JSON], result_body(301.0)).unwrap().status, 200);
    let id = serde_json::from_str::<Value>(&posted.body).unwrap()["id"].as_i64().unwrap();
    for _ in 0..3 {
        assert_eq!(http(addr, "GET", &format!("/api/v1/results/{id}"), &[], "").unwrap().status, 200);
    }
    assert_eq!(http(addr, "GET", "/api/v1/nothing-here", &[], "").unwrap().status, 404);
    // Made-up methods share one label: clients cannot grow the registry.
    for m in ["BREW", "WHEN"] {
        assert_eq!(http(addr, m, "/api/v1/health", &[], "").unwrap().status, 405);
    }
    let after = scrape();
    let one = "ssdbase_http_requests_total{method=\"GET\",route=\"/api/v1/results/{id}\",status=\"200\"}";
    assert_eq!(sample(&after, one) - sample(&first, one), 3.0, "{after}");
    let posts = "ssdbase_http_requests_total{method=\"POST\",route=\"/api/v1/results\",status=\"201\"}";
    assert_eq!(sample(&after, posts) - sample(&first, posts), 1.0, "{after}");
    let unmatched = "ssdbase_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"}";
    assert_eq!(sample(&after, unmatched) - sample(&first, unmatched), 1.0, "{after}");
    assert!(!after.contains(&format!("/api/v1/results/{id}\"")), "raw paths must not be labels");
    assert!(!after.contains("BREW") && !after.contains("WHEN"), "{after}");
    let other = "ssdbase_http_requests_total{method=\"other\",route=\"/api/v1/health\",status=\"405\"}";
    assert_eq!(sample(&after, other) - sample(&first, other), 2.0, "{after}");
    let count = "ssdbase_http_request_duration_seconds_count{method=\"GET\",route=\"/api/v1/results/{id}\"}";
    assert_eq!(sample(&after, count), 3.0, "{after}");
    let inf = "ssdbase_http_request_duration_seconds_bucket{le=\"+Inf\",method=\"GET\",route=\"/api/v1/results/{id}\"}";
    assert_eq!(sample(&after, inf), 3.0, "{after}");
    assert_eq!(
        sample(&after, "ssdbase_submissions_stored_total")
            - sample(&first, "ssdbase_submissions_stored_total"),
        1.0
    );
    assert_eq!(
        sample(&after, "ssdbase_submissions_duplicate_total")
            - sample(&first, "ssdbase_submissions_duplicate_total"),
        1.0
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn json_logs_carry_the_request_id_that_the_answer_returns() {
    let (_dir, url) = temp_db("logs");
    let (mut child, addr, log) = common::start_server_logged(&url, &["--log-format", "json"], &[]);
    let fresh = http(addr, "GET", "/api/v1/health", &[], "").unwrap();
    let id = fresh.header("x-request-id").expect("x-request-id").to_string();
    assert!(id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    let other = http(addr, "GET", "/api/v1/health", &[], "").unwrap();
    assert_ne!(other.header("x-request-id"), Some(id.as_str()), "one id per request");
    // A caller's own id (a proxy's) is kept; a harmful one is replaced.
    let kept = http(addr, "GET", "/api/v1/results/999999", &[("X-Request-Id", "edge-7f3a.1")], "").unwrap();
    assert_eq!(kept.status, 404);
    assert_eq!(kept.header("x-request-id"), Some("edge-7f3a.1"));
    let replaced = http(addr, "GET", "/api/v1/health", &[("X-Request-Id", "a b\"c")], "").unwrap();
    assert_ne!(replaced.header("x-request-id"), Some("a b\"c"));
    // The log is JSON lines; the answer's line carries the request id, route and status.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let line = loop {
        let found = log.lock().unwrap().iter().find(|l| l.contains("edge-7f3a.1")).cloned();
        if let Some(l) = found {
            break l;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no log line with the request id: {:?}",
            log.lock().unwrap()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    assert_eq!(v["span"]["request_id"], "edge-7f3a.1", "{v}");
    assert_eq!(v["span"]["route"], "/api/v1/results/{id}", "{v}");
    assert_eq!(v["fields"]["status"], 404, "{v}");
    for l in log.lock().unwrap().iter() {
        assert!(serde_json::from_str::<Value>(l).is_ok(), "a log line that is not JSON: {l}");
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A handler that panics is answered 500 with the JSON error body pointing at the answer's
/// request id, the panic is logged with its backtrace under that id, and the server goes
/// on serving.
#[test]
fn a_panicking_handler_is_answered_logged_and_survived() {
    let (_dir, url) = temp_db("panic");
    let (mut child, addr, log) = common::start_server_logged(&url, &["--fault-injection"], &[]);
    let r = http(addr, "GET", "/_fault/panic", &[], "").unwrap();
    assert_eq!(r.status, 500, "{}", r.body);
    let body: Value = serde_json::from_str(&r.body).unwrap();
    let id = r.header("x-request-id").expect("a request id").to_string();
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("x-request-id"), "{body}");
    assert!(id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    assert_eq!(http(addr, "GET", "/api/v1/health", &[], "").unwrap().status, 200, "still serving");
    let started = std::time::Instant::now();
    let logged = loop {
        let lines = log.lock().unwrap().join("\n");
        if lines.contains("answered status=500") || started.elapsed() > std::time::Duration::from_secs(10) {
            break lines;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(logged.contains("fault injection: a handler panicked"), "the panic was not logged:\n{logged}");
    // The event's first line (its message and backtrace run over several) names the span.
    let event = logged.lines().find(|l| l.contains("ssdbase::security: panic"));
    let event = event.unwrap_or_else(|| panic!("no panic event:\n{logged}"));
    assert!(event.contains(&id), "logged under its request id: {event}");
    assert!(logged.contains("backtrace="), "logged with its backtrace:\n{logged}");
    child.kill().unwrap();
    child.wait().unwrap();
}
