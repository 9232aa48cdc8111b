//! `ssdbase serve` flags end to end, through the real binary and real TCP connections:
//! the admin token from the environment moderates, and `--submit-rate` limits a client
//! by its real peer address.

mod common;

use common::http;
use serde_json::{json, Value};

fn temp_db(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("ssdbase_serve_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("serve.db").display());
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
    let (dir, url) = temp_db("flags");
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trusted_proxies_from_the_environment_name_the_client() {
    let (dir, url) = temp_db("proxy");
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
    let _ = std::fs::remove_dir_all(&dir);
}
