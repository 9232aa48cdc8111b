//! The deployment files in `deploy/`: the systemd unit passes `systemd-analyze verify`,
//! every setting it and the sample environment file give is an `ssdbase serve` flag's
//! environment name, the server started with exactly the unit's environment serves and
//! stops cleanly on SIGTERM, and the nginx example matches what the server expects.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn deploy(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy").join(file)
}

fn read(file: &str) -> String {
    std::fs::read_to_string(deploy(file)).unwrap_or_else(|e| panic!("deploy/{file}: {e}"))
}

/// `Environment=NAME=value` lines of the unit.
fn unit_environment(unit: &str) -> Vec<(String, String)> {
    unit.lines()
        .filter_map(|l| l.strip_prefix("Environment="))
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn the_systemd_unit_passes_systemd_analyze_verify() {
    let Ok(version) = Command::new("systemd-analyze").arg("--version").output() else {
        panic!(
            "systemd-analyze is not installed, so the unit cannot be verified: apt-get install systemd \
             (`cargo xtask test` installs it)"
        );
    };
    assert!(version.status.success());
    // Verify a copy whose ExecStart is the binary just built (verify checks that the
    // program exists), under the unit's own name.
    let tmp = tempfile::Builder::new().prefix("ssdbase_unit_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let unit = read("ssdbase.service");
    assert!(unit.contains("ExecStart=/usr/local/bin/ssdbase serve"), "the unit's ExecStart changed");
    let copy = dir.join("ssdbase.service");
    std::fs::write(&copy, unit.replace("/usr/local/bin/ssdbase", env!("CARGO_BIN_EXE_ssdbase"))).unwrap();
    let out = Command::new("systemd-analyze").arg("verify").arg(&copy).output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Lines about other units on this machine (a container's own) are not ours.
    let ours: Vec<&str> = said.lines().filter(|l| l.contains("ssdbase")).collect();
    assert!(out.status.success() && ours.is_empty(), "systemd-analyze verify: {said}");
}

#[test]
fn every_setting_in_the_deploy_files_is_a_serve_flag() {
    let help = Command::new(env!("CARGO_BIN_EXE_ssdbase")).args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    let unit = read("ssdbase.service");
    let mut names: Vec<String> = unit_environment(&unit).into_iter().map(|(k, _)| k).collect();
    for line in read("ssdbase.env").lines() {
        if let Some((k, _)) = line.trim_start_matches('#').split_once('=') {
            if k.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                names.push(k.to_string());
            }
        }
    }
    assert!(names.len() >= 8, "{names:?}");
    for name in names.iter().filter(|n| *n != "RUST_LOG") {
        assert!(
            help.contains(&format!("[env: {name}")),
            "{name} is not the environment name of a serve flag"
        );
    }
}

#[test]
fn the_server_runs_with_the_units_environment_and_stops_on_sigterm() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_unitenv_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    // The unit's settings, with paths and the port moved to this test's.
    let mut env: Vec<(String, String)> = unit_environment(&read("ssdbase.service"));
    for (k, v) in env.iter_mut() {
        match k.as_str() {
            "DATABASE_URL" => *v = format!("sqlite://{}", dir.join("unit.db").display()),
            "SSDBASE_LISTEN" => *v = "127.0.0.1:0".into(),
            "SSDBASE_SITE" => *v = dir.join("no-site").display().to_string(),
            _ => {}
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .arg("serve")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env_remove("SSDBASE_ADMIN_TOKEN")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server exited before serving").unwrap();
        assert!(serde_json::from_str::<serde_json::Value>(&line).is_ok(), "SSDBASE_LOG_FORMAT=json: {line}");
        if let Some(a) = common::logged_address(&line, "serving") {
            break a;
        }
    };
    let r = common::http(addr, "GET", "/api/v1/health", &[], "").unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    // SIGTERM (systemd's stop): a clean exit, not a kill.
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = wait_timeout::ChildExt::wait_timeout(&mut child, std::time::Duration::from_secs(20))
        .unwrap()
        .expect("the server did not stop on SIGTERM within 20 s");
    assert!(status.success(), "exit after SIGTERM: {status}");
}

#[test]
fn the_nginx_example_forwards_what_the_server_reads() {
    let conf = read("nginx-ssdbase.conf");
    let unit = read("ssdbase.service");
    let env = unit_environment(&unit);
    let listen = &env.iter().find(|(k, _)| k == "SSDBASE_LISTEN").unwrap().1;
    assert!(conf.contains(&format!("server {listen};")), "nginx must proxy to the unit's {listen}");
    let trusted = &env.iter().find(|(k, _)| k == "SSDBASE_TRUSTED_PROXY").unwrap().1;
    assert!(trusted.split(',').any(|c| c.starts_with("127.0.0.1")), "the unit must trust nginx on loopback");
    for directive in [
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Request-Id $request_id;",
        "client_max_body_size 5m;",
    ] {
        assert!(conf.contains(directive), "missing {directive}");
    }
    // When nginx is installed, its own check of the syntax (the certificates it names
    // do not exist here, so only a configuration whose one complaint is those passes).
    if Command::new("nginx").arg("-v").output().is_ok() {
        let tmp = tempfile::Builder::new().prefix("ssdbase_nginx_").tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let main = dir.join("nginx.conf");
        let site = conf
            .replace("/etc/ssl/certs/ssdbase.example.org.pem", "/dev/null")
            .replace("/etc/ssl/private/ssdbase.example.org.key", "/dev/null");
        std::fs::write(dir.join("site.conf"), site).unwrap();
        std::fs::write(
            &main,
            format!(
                "pid {0}/nginx.pid; error_log stderr; events {{}} http {{ access_log off; include {0}/site.conf; }}",
                dir.display()
            ),
        )
        .unwrap();
        let out = Command::new("nginx").arg("-t").arg("-c").arg(&main).output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success() || said.contains("PEM") || said.contains("SSL"), "nginx -t: {said}");
    } else {
        eprintln!(
            "deploy: nginx not installed: its example was checked for its directives only, not by nginx -t"
        );
    }
}
