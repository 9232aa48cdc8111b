//! The API contract tested from outside: schemathesis (a property-based API tester from
//! PyPI) runs every operation of `/api/v1/openapi.json` against a real `ssdbase serve`,
//! once on SQLite and once on PostgreSQL, with every check (no 5xx, no answer outside its
//! schema, no schema-valid request refused, authentication enforced, ...). Its settings,
//! and the one documented exception, are in `tests/api-contract/schemathesis.toml`.
//!
//!   cargo xtask api-contract   build the server and run it alone
//!   (a step of `cargo xtask test`, on the binary the host tests built)

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The tester's version, pinned: a newer one brings new checks, which a change of ours
/// should meet on purpose, not by surprise.
const SCHEMATHESIS: &str = "4.32.5";
const CONFIG: &str = "tests/api-contract/schemathesis.toml";
const ADMIN_TOKEN: &str = "api-contract-admin-token-0123456789";

/// Installs the pinned schemathesis with pip when another (or none) is installed.
pub fn ensure_schemathesis() -> Result<()> {
    crate::provision::pip_package("schemathesis", SCHEMATHESIS, "about a minute")
}

/// Runs the contract against `binary` on a new SQLite file and on a new database of the
/// PostgreSQL server that `postgres_url` (the test role's database) is on.
pub fn run(binary: &Path, postgres_url: &str) -> Result<()> {
    ensure_schemathesis()?;
    // Removed when dropped, when the contract fails too.
    let tmp = tempfile::Builder::new().prefix("ssdbase_api_contract_").tempdir()?;
    let dir = tmp.path();
    let database = "ssdbase_api_contract";
    let base = postgres_url.rsplit_once('/').context("a PostgreSQL URL ends in /DATABASE")?.0;
    for sql in
        [format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"), format!("CREATE DATABASE {database}")]
    {
        super::status(Command::new("psql").args([postgres_url, "-qAt", "-v", "ON_ERROR_STOP=1", "-c", &sql]))
            .with_context(|| format!("preparing the PostgreSQL database for the API contract: {sql}"))?;
    }
    let backends = [
        ("SQLite", format!("sqlite://{}", dir.join("contract.db").display())),
        ("PostgreSQL", format!("{base}/{database}")),
    ];
    for (name, url) in &backends {
        println!("xtask: API contract on {name}: schemathesis {SCHEMATHESIS} over every operation (about a minute)");
        let (mut server, addr) = start_server(binary, url, &dir.join(format!("dumps-{name}")))?;
        let api = format!("http://{addr}/api/v1");
        let config = std::env::current_dir()?.join(CONFIG);
        let out = Command::new("schemathesis")
            .arg("--config-file")
            .arg(&config)
            .args(["run", &format!("{api}/openapi.json"), "--url", &api, "--no-color"])
            // Its cache (`.schemathesis/`) goes with the run's other files, not the checkout.
            .current_dir(dir)
            .env("SSDBASE_CONTRACT_ADMIN_TOKEN", ADMIN_TOKEN)
            .output()
            .context("running schemathesis")?;
        let _ = server.kill();
        let _ = server.wait();
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            println!("{text}{}", String::from_utf8_lossy(&out.stderr));
            bail!("the API contract failed on {name} (schemathesis's report above)");
        }
        // The figures: operations, test cases, the run's last line.
        for line in text.lines().filter(|l| l.contains("Selected:") || l.contains("generated,")) {
            println!("xtask: API contract on {name}: {}", line.trim());
        }
    }
    Ok(())
}

/// `ssdbase serve` on a free port, with moderation on, no submission limit (the tester
/// sends thousands) and its dumps in `dumps`; the address it logs.
fn start_server(binary: &Path, url: &str, dumps: &Path) -> Result<(Child, SocketAddr)> {
    let mut args = ["--database-url", url, "--submit-rate", "0", "--write-rate", "0", "--ocr-rate", "0"]
        .map(String::from)
        .to_vec();
    args.extend(
        ["--ocr-pending-per-client", "0", "--site", "no-site", "--admin-token", ADMIN_TOKEN]
            .map(String::from),
    );
    args.extend(["--dump-dir".to_string(), dumps.display().to_string()]);
    serve(binary, &args)
}

/// Runs `with` against `binary` serving the built `site` on a new SQLite file (the demo
/// data a first start loads) in a temporary directory named after `name`, with `extra`
/// arguments; `with` gets the base URL and that directory. The server is stopped and
/// the directory removed afterwards, after an error too.
pub fn with_site_server<T>(
    binary: &Path,
    site: &Path,
    name: &str,
    extra: &[&str],
    with: impl FnOnce(&str, &Path) -> Result<T>,
) -> Result<T> {
    let tmp = tempfile::Builder::new().prefix(&format!("ssdbase_{name}_")).tempdir()?;
    let dir = tmp.path();
    let mut args = vec![
        "--database-url".to_string(),
        format!("sqlite://{}", dir.join(format!("{name}.db")).display()),
        "--site".into(),
        site.display().to_string(),
        "--dump-dir".into(),
        dir.join("dumps").display().to_string(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    let (mut server, addr) = serve(binary, &args)?;
    let outcome = with(&format!("http://{addr}"), dir);
    let _ = server.kill();
    let _ = server.wait();
    outcome
}

/// `ssdbase serve ARGS` on a free port of the loopback; the address it logs it serves on.
/// Its log goes on being read (errors shown), so that it never blocks on a full pipe.
pub fn serve(binary: &Path, args: &[String]) -> Result<(Child, SocketAddr)> {
    let mut child = Command::new(binary)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn,ssdbase::serve_cmd=info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", binary.display()))?;
    let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
    let addr = loop {
        let Some(line) = lines.next() else { bail!("ssdbase serve exited before serving") };
        let line = line?;
        // "serving http://ADDR/api/v1" or "serving the site at http://ADDR/".
        if let Some(addr) = line
            .find("serving ")
            .and_then(|at| line[at..].find("http://").map(|h| at + h))
            .map(|at| &line[at + "http://".len()..])
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
        {
            break addr;
        }
    };
    // Keep reading its log so it never blocks on a full pipe; warnings and errors show.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if line.contains("ERROR") {
                eprintln!("ssdbase serve: {line}");
            }
        }
    });
    Ok((child, addr))
}
