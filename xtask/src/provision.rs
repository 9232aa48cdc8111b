//! Provisioning: what the commands need from outside the workspace, installed when
//! missing (Debian packages through apt-get, cargo installs, rustup targets and
//! components, a PostgreSQL cluster with a test role), or a message naming exactly what
//! is missing. Schemathesis is installed by `contract`.

use crate::{cargo, contract, ensure, output, which};
use anyhow::{bail, Context, Result};
use std::env;
use std::path::Path;
use std::process::Command;

/// What crates/ocr needs: Debian's Tesseract library and English model (linked through
/// pkg-config by tesseract-rs's `use-system-tesseract`), a C++ runtime to link, and the
/// `tesseract` command the benchmark compares against.
pub fn ocr_prerequisites() -> Result<()> {
    let has_lib = Command::new("pkg-config")
        .args(["--exists", "tesseract", "lept"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    let has_model = Path::new("/usr/share/tesseract-ocr/5/tessdata/eng.traineddata").is_file()
        || env::var_os("TESSDATA_PREFIX").is_some();
    if has_lib && has_model && which("tesseract").is_some() && which("g++").is_some() {
        return Ok(());
    }
    apt_install(&["pkg-config", "g++", "tesseract-ocr", "tesseract-ocr-eng", "libleptonica-dev"])?;
    // libtesseract-dev pulls libcurl4-openssl-dev, whose candidate can be older than the
    // installed libcurl4 (a security update): apt then refuses. Pin both to the dev
    // package's candidate, allowing that downgrade.
    let policy = output(Command::new("apt-cache").args(["policy", "libcurl4-openssl-dev"]))?;
    let candidate = policy
        .lines()
        .find_map(|l| l.trim().strip_prefix("Candidate:"))
        .map(|v| v.trim().to_string())
        .filter(|v| v != "(none)");
    let installed = output(Command::new("dpkg-query").args(["-W", "-f=${Version}", "libcurl4"])).ok();
    let mut args: Vec<String> =
        ["install", "-y", "-q", "--no-install-recommends", "libtesseract-dev"].map(String::from).to_vec();
    if let (Some(v), Some(have)) = (candidate, installed) {
        if v != have.trim() {
            args.extend([
                format!("libcurl4={v}"),
                format!("libcurl4-openssl-dev={v}"),
                "--allow-downgrades".into(),
            ]);
        }
    }
    println!("xtask: installing libtesseract-dev (apt-get; about a minute)");
    let mut apt = Command::new("apt-get");
    apt.args(&args).env("DEBIAN_FRONTEND", "noninteractive");
    as_root(&mut apt)
}

/// What the tests need from outside the workspace, once set up.
pub struct TestEnv {
    /// A PostgreSQL role and database for the server's API tests (the role may create
    /// databases: each test makes its own and drops it).
    pub postgres_url: String,
}

/// What `ssdbase bench` runs and reads: fio (the I/O engine), and for naming the drive and
/// its controller smartctl, nvme-cli and the PCI ID database. The runner works without
/// the last three (it says what it could not read); the tests probe with them.
/// The Python package `name` at exactly `version` (a tester pinned: a newer one brings new
/// checks, which a change of ours should meet on purpose), installed with pip when
/// `pip show` names another; `takes` says how long, for the message.
pub fn pip_package(name: &str, version: &str, takes: &str) -> Result<()> {
    let have = Command::new("python3")
        .args(["-m", "pip", "show", name])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.lines().find_map(|l| l.strip_prefix("Version: ").map(str::to_string)));
    if have.as_deref() == Some(version) {
        return Ok(());
    }
    println!("xtask: installing {name} {version} from PyPI (found {have:?}); {takes}");
    ensure(Command::new("python3").args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        &format!("{name}=={version}"),
    ]))
    .with_context(|| format!("installing {name} needs Python 3 with pip (Debian: python3-pip)"))
}

pub fn runner_prerequisites() -> Result<()> {
    debian_packages(&[
        ("fio", "fio"),
        ("/usr/sbin/smartctl", "smartmontools"),
        ("/usr/sbin/nvme", "nvme-cli"),
        ("/usr/share/misc/pci.ids", "pci.ids"),
    ])
}

pub fn setup_for_tests() -> Result<TestEnv> {
    wasm32_target()?;
    if !rustup_has(&["component", "list", "--installed"], &["rustfmt", "clippy"]) {
        println!("xtask: adding rustfmt and clippy (rustup download; under a minute)");
    }
    ensure(Command::new("rustup").args(["component", "add", "rustfmt", "clippy"]))?;
    // systemd-analyze checks deploy/ssdbase.service (server/tests/deploy.rs); pg_dump and
    // pg_restore are what `ssdbase backup`/`restore` run on PostgreSQL (server/tests/backup.rs).
    debian_packages(&[("node", "nodejs"), ("systemd-analyze", "systemd"), ("pg_dump", "postgresql-client")])?;
    runner_prerequisites()?;
    ocr_prerequisites()?;
    wasm_bindgen_cli()?;
    contract::ensure_schemathesis()?;
    let postgres_url = postgres_for_tests()?;
    Ok(TestEnv { postgres_url })
}

const PG_TEST_ROLE: &str = "ssdbase_test";

/// A running PostgreSQL with a test role and database: `$SSDBASE_TEST_POSTGRES_URL` when
/// set, else Debian's `postgresql` package (installed when missing), its cluster started
/// and the role created.
pub fn postgres_for_tests() -> Result<String> {
    if let Ok(url) = env::var("SSDBASE_TEST_POSTGRES_URL") {
        return Ok(url);
    }
    if postgres_versions().is_empty() {
        apt_install(&["postgresql"])?;
    }
    let Some(version) = postgres_versions().pop() else {
        bail!("the postgresql package installed no server under /usr/lib/postgresql");
    };
    let clusters = output(Command::new("pg_lsclusters").arg("-h"))?;
    // Lines: VERSION CLUSTER PORT STATUS OWNER DATADIR LOGFILE
    let mut ours = clusters
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() >= 4 && f[0] == version && f[1] == "main")
        .map(|f| (f[2].to_string(), f[3].to_string()));
    if ours.is_none() {
        println!("xtask: creating PostgreSQL {version}'s cluster main (a few seconds)");
        as_root(Command::new("pg_createcluster").args([&version, "main"]))?;
        ours = Some(("5432".into(), "down".into()));
    }
    let (port, state) = ours.expect("set above");
    if !state.starts_with("online") {
        println!("xtask: starting PostgreSQL {version}");
        as_root(Command::new("pg_ctlcluster").args([&version, "main", "start"]))?;
    }
    let psql = |sql: &str| -> Result<String> {
        let args = ["-u", "postgres", "--", "psql", "-v", "ON_ERROR_STOP=1", "-qAt", "-p", &port, "-c", sql];
        if is_root() {
            output(Command::new("runuser").args(args))
        } else {
            output(Command::new("sudo").arg("runuser").args(args))
        }
    };
    let role = PG_TEST_ROLE;
    psql(&format!(
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') THEN \
         CREATE ROLE {role} LOGIN CREATEDB PASSWORD '{role}'; END IF; END $$"
    ))?;
    // Tests drop their databases `WITH (FORCE)`; on a busy server another role's backend
    // (autovacuum, a second checkout's run) may be attached, and ending it needs this.
    psql(&format!("GRANT pg_signal_backend TO {role}"))?;
    if psql(&format!("SELECT 1 FROM pg_database WHERE datname = '{role}'"))?.trim() != "1" {
        psql(&format!("CREATE DATABASE {role} OWNER {role}"))?;
    }
    Ok(format!("postgres://{role}:{role}@127.0.0.1:{port}/{role}"))
}

/// Installed PostgreSQL server versions, oldest first.
fn postgres_versions() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().join("bin/postgres").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort_by_key(|s| s.parse::<u32>().unwrap_or(0));
    v
}

/// wasm-bindgen-cli must be exactly the version of the `wasm-bindgen` crate in
/// Cargo.lock, or the test runner rejects the module.
pub fn wasm_bindgen_cli() -> Result<()> {
    let lock = std::fs::read_to_string("Cargo.lock").context("Cargo.lock is missing")?;
    let want = locked_version(&lock, "wasm-bindgen").context("wasm-bindgen is not in Cargo.lock")?;
    let have = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.split_whitespace().nth(1).map(str::to_string));
    if have.as_deref() != Some(want.as_str()) {
        println!("xtask: installing wasm-bindgen-cli {want} (found {have:?}); this takes a few minutes");
        // Not --locked: its lockfile names a crate version the registry mirror lacks.
        cargo(&["install", &format!("wasm-bindgen-cli@{want}")])?;
    }
    Ok(())
}

fn locked_version(lock: &str, krate: &str) -> Option<String> {
    let needle = format!("name = \"{krate}\"\nversion = \"");
    let start = lock.find(&needle)? + needle.len();
    Some(lock[start..].split('"').next()?.to_string())
}

/// Trunk 0.22 needs a newer rustc than the one pinned here.
const TRUNK_VERSION: &str = "0.21.14";

/// Trunk, which builds the site, at [`TRUNK_VERSION`].
pub fn trunk() -> Result<()> {
    let have = Command::new("trunk")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.split_whitespace().nth(1).map(str::to_string));
    if have.as_deref() != Some(TRUNK_VERSION) {
        println!("xtask: installing trunk {TRUNK_VERSION} (found {have:?}); this takes about 9 minutes");
        cargo(&["install", "--locked", &format!("trunk@{TRUNK_VERSION}")])?;
    }
    Ok(())
}

/// The Rust standard library for WebAssembly, which the site and the bench crate's wasm
/// tests build with.
pub fn wasm32_target() -> Result<()> {
    if !rustup_has(&["target", "list", "--installed"], &["wasm32-unknown-unknown"]) {
        println!("xtask: adding Rust's wasm32-unknown-unknown target (rustup download; under a minute)");
    }
    ensure(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
        .context("could not add the wasm32-unknown-unknown target: install rustup (https://rustup.rs)")
}

/// Rust's standard library for these targets (the runner's musl builds).
pub fn rustup_targets(targets: &[&str]) -> Result<()> {
    if !rustup_has(&["target", "list", "--installed"], targets) {
        println!("xtask: adding Rust's {} targets (rustup download; a minute)", targets.join(" and "));
    }
    let mut add = Command::new("rustup");
    add.args(["target", "add"]).args(targets);
    ensure(&mut add).context("could not add Rust targets: install rustup (https://rustup.rs)")
}

/// Whether `rustup <list>` (targets, components or toolchains) names every one of
/// `names`, alone or followed by `-` and a host triple; false when rustup cannot say.
pub fn rustup_has(list: &[&str], names: &[&str]) -> bool {
    let Ok(listed) = output(Command::new("rustup").args(list)) else { return false };
    names.iter().all(|name| {
        listed.lines().any(|l| {
            let l = l.split_whitespace().next().unwrap_or_default();
            l == *name || l.strip_prefix(name).is_some_and(|rest| rest.starts_with('-'))
        })
    })
}

/// Installs Debian packages whose command (or, for an absolute path, file) is missing,
/// with apt-get (as root, or through sudo). Stops with the exact packages to install
/// when that is impossible.
pub fn debian_packages(wanted: &[(&str, &str)]) -> Result<()> {
    let present = |what: &str| match what.starts_with('/') {
        true => std::path::Path::new(what).exists(),
        false => which(what).is_some(),
    };
    let missing: Vec<&str> = wanted.iter().filter(|(what, _)| !present(what)).map(|(_, pkg)| *pkg).collect();
    if missing.is_empty() {
        return Ok(());
    }
    apt_install(&missing)
}

/// `apt-get install` of these packages, as root or through sudo.
fn apt_install(packages: &[&str]) -> Result<()> {
    if which("apt-get").is_none() || (!is_root() && which("sudo").is_none()) {
        bail!(
            "missing: {} — install these Debian packages: apt-get install {}",
            packages.join(", "),
            packages.join(" ")
        );
    }
    let apt = |args: &[&str]| {
        let mut c = Command::new("apt-get");
        c.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        as_root(&mut c)
    };
    println!(
        "xtask: installing Debian packages {} (apt-get update and install; one to a few minutes, Chromium \
         and PostgreSQL being the largest downloads)",
        packages.join(" ")
    );
    apt(&["update", "-q"])?;
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend(packages);
    apt(&args)
}

pub fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0\n")).unwrap_or(false)
}

/// Runs a command as root: directly when we are root, else through sudo.
fn as_root(cmd: &mut Command) -> Result<()> {
    if is_root() {
        return ensure(cmd);
    }
    let mut sudo = Command::new("sudo");
    sudo.arg("--preserve-env=DEBIAN_FRONTEND").arg(cmd.get_program()).args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            sudo.env(k, v);
        }
    }
    ensure(&mut sudo)
}
