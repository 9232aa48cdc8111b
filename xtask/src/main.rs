//! Project automation, in Rust rather than shell (see matklad's cargo-xtask).
//!
//!   cargo xtask run    build SSDBase and start the server with the demo data
//!   cargo xtask test   install what the tests need, then run every test
//!   cargo xtask fuzz   run the parser fuzz targets (cargo-fuzz, nightly)
//!   cargo xtask bench-server   ingest rate and query latency, SQLite and PostgreSQL
//!   cargo xtask bench-sharing  chart, preview and cached-embed figures beside a static file
//!   cargo xtask api-contract   schemathesis over every API operation, SQLite and PostgreSQL
//!   cargo xtask soak [--minutes N] [--kills K]  three servers under mixed load, one killed
//!   cargo xtask setup  only install the prerequisites
//!
//! Every prerequisite is installed here when missing, or the command stops with a
//! message naming exactly what is missing and how to get it.

use anyhow::{bail, Context, Result};
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

mod contract;
mod split;

const USAGE: &str =
    "usage: cargo xtask <run|test|fuzz [--seconds N] [TARGET...]|bench-ocr|bench-server|bench-sharing|api-contract|\
                     soak [--minutes N] [--kills K]|setup|site-post-build (Trunk hook)>";

fn main() -> std::process::ExitCode {
    match dispatch() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn dispatch() -> Result<()> {
    let args: Vec<String> = env::args().skip(1).collect();
    let root = project_root();
    env::set_current_dir(&root)?;
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("test") => test(),
        Some("fuzz") => fuzz(&args[1..]),
        Some("site-post-build") => site_post_build(),
        Some("bench-ocr") => bench_ocr(&args[1..]),
        Some("bench-server") => bench_server(),
        Some("soak") => soak(&args[1..]),
        Some("bench-sharing") => cargo(&["bench", "-p", "ssdbase", "--bench", "sharing"]),
        Some("api-contract") => {
            let env = setup_for_tests()?;
            cargo(&["build", "-p", "ssdbase"])?;
            contract::run(&target_dir().join("debug").join("ssdbase"), &env.postgres_url)
        }
        Some("setup") => {
            let env = setup_for_tests()?;
            println!("export SSDBASE_TEST_POSTGRES_URL={}", env.postgres_url);
            Ok(())
        }
        _ => bail!(USAGE),
    }
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_path_buf()
}

// ---------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------

/// Builds the `ssdbase` binary and starts the server on the embedded database
/// (`ssdbase.db` in the checkout, created with the demo data on first start). Extra
/// arguments go to `ssdbase` instead, e.g. `cargo xtask run parse FILE`.
fn run(extra: &[String]) -> Result<()> {
    ocr_prerequisites()?;
    cargo(&["build", "--release", "-p", "ssdbase"])?;
    let bin = Path::new("target/release/ssdbase");
    if !extra.is_empty() {
        return status(Command::new(bin).args(extra));
    }
    let site = build_site()?;
    println!("ssdbase serve: the site at http://127.0.0.1:8080/, the API under /api/v1 (Ctrl-C stops it)");
    status(Command::new(bin).arg("serve").arg("--site").arg(site))
}

/// Everything the README promises: host tests of the whole workspace, the bench crate
/// built and tested as WebAssembly, formatting and lints.
fn test() -> Result<()> {
    let env = setup_for_tests()?;
    cargo(&["fmt", "--all", "--", "--check"]).context("code is not formatted: run `cargo fmt --all`")?;
    cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    let site = build_site()?;
    lint_site()?;
    // The server's API tests run against SQLite and against this PostgreSQL.
    status(
        Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["test", "--workspace", "--all-targets", "--exclude", "e2e"])
            .env("SSDBASE_TEST_POSTGRES_URL", &env.postgres_url),
    )?;
    // The API from outside, on the binary the host tests built.
    contract::run(&target_dir().join("debug").join("ssdbase"), &env.postgres_url)?;
    site_end_to_end(&site)?;
    // The bench crate runs in the browser: prove it builds and passes its tests there.
    cargo(&["build", "-p", "bench", "--target", "wasm32-unknown-unknown", "--release"])?;
    let runner =
        which("wasm-bindgen-test-runner").context("wasm-bindgen-test-runner vanished after setup")?;
    let mut cmd = Command::new("cargo");
    cmd.args(["test", "-p", "bench", "--target", "wasm32-unknown-unknown", "--test", "wasm"])
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER", runner);
    status(&mut cmd)?;
    println!("\nxtask test: all tests passed (host and wasm32)");
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The website: Trunk build, its lints, the browser tests
// ---------------------------------------------------------------------------------------

/// Trunk 0.22 needs a newer rustc than the one pinned here.
const TRUNK_VERSION: &str = "0.21.14";

/// Builds the site (app/, see Trunk.toml) into `dist/` with Trunk, installing the
/// wasm32 target, the wasm-bindgen-cli that Cargo.lock pins and Trunk when missing.
/// `--offline`: Trunk uses the tools on PATH and downloads nothing.
fn build_site() -> Result<PathBuf> {
    ensure(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
        .context("could not add the wasm32-unknown-unknown target: install rustup (https://rustup.rs)")?;
    wasm_bindgen_cli()?;
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
    status(Command::new("trunk").args(["build", "--release", "--offline"]))
        .context("building the site with trunk")?;
    Ok(project_root().join("dist"))
}

/// Trunk's post-build hook (Trunk.toml), on Trunk's staging directory:
/// - splits the wasm into one lazily loaded piece per page and binds the main module
///   again (split.rs);
/// - drops the `name` custom section (function names for stack traces, a fifth of the
///   gzipped download) from every wasm file. Neither Trunk nor wasm-bindgen offers this,
///   `strip = true` would also drop the `target_features` section wasm-bindgen reads,
///   and Debian's wasm-opt is too old for what rustc emits;
/// - writes `FILE.gz` beside every wasm, JS and CSS file, compressed with zopfli (about
///   6 % smaller than gzip -6), which `ssdbase serve` sends as it is.
fn site_post_build() -> Result<()> {
    let dir =
        env::var_os("TRUNK_STAGING_DIR").context("run by Trunk's post_build hook (TRUNK_STAGING_DIR)")?;
    // The Cargo profile is index.html's data-cargo-profile-release in release builds.
    let profile =
        if env::var("TRUNK_PROFILE").as_deref() == Ok("release") { "wasm-release" } else { "debug" };
    let target_dir = target_dir();
    let linked = target_dir.join("wasm32-unknown-unknown").join(profile).join("app.wasm");
    split::split_site_wasm(Path::new(&dir), &linked)?;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
        if ["wasm", "js", "css"].contains(&ext) {
            files.push((std::fs::metadata(&path)?.len(), path));
        }
    }
    // zopfli takes seconds per file: largest first, dealt out to one thread per core.
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let done: Vec<Result<(PathBuf, usize, usize)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<&PathBuf> = files.iter().skip(t).step_by(threads).map(|(_, p)| p).collect();
                scope.spawn(move || mine.into_iter().map(|p| compress_asset(p)).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|_| vec![Err(anyhow::anyhow!("a thread panicked"))]))
            .collect()
    });
    let (mut raw, mut gzipped) = (0, 0);
    for file in done {
        let (path, size, gz) = file?;
        raw += size;
        gzipped += gz;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("app-") || name.starts_with("style-") {
            println!("xtask: {name}: {size} bytes, {gz} gzipped (zopfli)");
        }
    }
    println!("xtask: {} assets: {raw} bytes, {gzipped} gzipped (zopfli)", files.len());
    Ok(())
}

/// Drops a wasm file's name section, then writes `FILE.gz` beside it; its size before and
/// after gzip.
fn compress_asset(path: &Path) -> Result<(PathBuf, usize, usize)> {
    let mut bytes = std::fs::read(path)?;
    if path.extension().is_some_and(|e| e == "wasm") {
        bytes = without_custom_section(&bytes, "name")
            .with_context(|| format!("{} is not a WebAssembly module", path.display()))?;
        std::fs::write(path, &bytes)?;
    }
    let mut gz = Vec::new();
    zopfli::compress(zopfli::Options::default(), zopfli::Format::Gzip, &bytes[..], &mut gz)?;
    let mut name = path.to_path_buf().into_os_string();
    name.push(".gz");
    std::fs::write(name, &gz)?;
    Ok((path.to_path_buf(), bytes.len(), gz.len()))
}

/// `wasm` without its custom sections called `name`; `None` when it is malformed.
fn without_custom_section(wasm: &[u8], name: &str) -> Option<Vec<u8>> {
    fn leb(b: &[u8], i: &mut usize) -> Option<usize> {
        let (mut v, mut shift) = (0usize, 0);
        loop {
            let byte = *b.get(*i)?;
            *i += 1;
            v |= usize::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(v);
            }
            shift += 7;
        }
    }
    if wasm.get(..4)? != b"\0asm" {
        return None;
    }
    let mut out = wasm.get(..8)?.to_vec();
    let mut i = 8;
    while i < wasm.len() {
        let start = i;
        let id = wasm[i];
        i += 1;
        let size = leb(wasm, &mut i)?;
        let end = i.checked_add(size).filter(|e| *e <= wasm.len())?;
        let drop = id == 0 && {
            let mut j = i;
            let len = leb(wasm, &mut j)?;
            wasm.get(j..j.checked_add(len)?)? == name.as_bytes()
        };
        if !drop {
            out.extend_from_slice(&wasm[start..end]);
        }
        i = end;
    }
    Some(out)
}

/// The site's browser-only code compiles for wasm32 alone, so the workspace clippy run
/// does not see it: lint it for its real target.
fn lint_site() -> Result<()> {
    cargo(&["clippy", "-p", "app", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"])
}

/// The site in Debian's headless Chromium (installed here with its chromedriver)
/// against a real `ssdbase serve`: tests/e2e. Prints the site's download size and the
/// time to the first compare chart; screenshots go to target/e2e-screenshots/.
fn site_end_to_end(site: &Path) -> Result<()> {
    debian_packages(&[("chromium", "chromium"), ("chromedriver", "chromium-driver")])?;
    cargo(&["build", "-p", "ssdbase"])?;
    status(
        Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["test", "-p", "e2e", "--", "--nocapture"])
            .env("SSDBASE_SITE_DIR", site)
            .env("SSDBASE_BIN", target_dir().join("debug/ssdbase")),
    )
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` when set, else `target/` in the checkout.
fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| project_root().join("target"), PathBuf::from)
}

/// The server benchmark (server/benches/server.rs): submissions per second through HTTP
/// against the raw insert rate, browse and compare latency at 1,000,000 results, on
/// SQLite and on the PostgreSQL that the tests use (each run makes its own databases).
fn bench_server() -> Result<()> {
    let env = setup_for_tests()?;
    status(
        Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["bench", "-p", "ssdbase", "--bench", "server"])
            .env("SSDBASE_BENCH_POSTGRES_URL", &env.postgres_url),
    )
}

/// The soak test (server/tests/soak.rs) on a release build: two `ssdbase serve` on a
/// fresh PostgreSQL database and one on a fresh SQLite file under mixed load for
/// `--minutes` (default 10), `postgres-b` SIGKILLed and restarted `--kills` times (default
/// one per two minutes). Prints each route's p99 every minute, then the checks' figures.
/// `cargo xtask test` runs the same test for a minute with one kill.
fn soak(args: &[String]) -> Result<()> {
    let mut minutes = 10u64;
    let mut kills = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--minutes" => minutes = it.next().context("--minutes needs a number")?.parse()?,
            "--kills" => kills = Some(it.next().context("--kills needs a number")?.parse::<u32>()?),
            other => {
                bail!("soak: unknown argument {other:?} (usage: cargo xtask soak [--minutes N] [--kills K])")
            }
        }
    }
    ocr_prerequisites()?;
    let postgres_url = postgres_for_tests()?;
    let mut cmd = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(["test", "--release", "-p", "ssdbase", "--test", "soak", "--", "--nocapture"])
        .env("SSDBASE_TEST_POSTGRES_URL", postgres_url)
        .env("SSDBASE_SOAK_SECONDS", (minutes * 60).to_string());
    if let Some(k) = kills {
        cmd.env("SSDBASE_SOAK_KILLS", k.to_string());
    }
    status(&mut cmd)
}

/// Runs each fuzz target for a while (default 60 s each). Crashes land in
/// `crates/bench/fuzz/artifacts/<target>/`; copy them to
/// `crates/bench/tests/fuzz_regressions/` so the normal test run keeps them fixed.
fn fuzz(args: &[String]) -> Result<()> {
    let mut seconds = 60u64;
    let mut targets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => seconds = it.next().context("--seconds needs a number")?.parse()?,
            t => targets.push(t.to_string()),
        }
    }
    if which("cargo-fuzz").is_none() {
        cargo(&["install", "--locked", "cargo-fuzz@0.13.2"])?;
    }
    ensure(Command::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]))?;
    if targets.is_empty() {
        let out =
            Command::new("cargo").args(["+nightly", "fuzz", "list"]).current_dir("crates/bench").output()?;
        targets = String::from_utf8(out.stdout)?.lines().map(str::to_string).collect();
    }
    let shared = shared_dir()?;
    let mut failed = Vec::new();
    for t in &targets {
        // Screenshot targets start from the real screenshots, which are far larger than
        // result files; everything else from the real result exports.
        // A screenshot read takes about 0.5 s alone but several seconds on a loaded
        // machine at `nice 19` (a 0.6 s input hit a 10 s timeout so): slow inputs are
        // judged by the recognition deadline and the regression test, not by load.
        let (seeds, max_len, timeout) = if t.starts_with("ocr_") {
            (shared.join("corpus/screenshots"), 2 << 20, 40)
        } else {
            (shared.join("corpus/real"), 8192, 10)
        };
        println!("== fuzzing {t} for {seconds} s");
        let corpus = format!("fuzz/corpus/{t}");
        std::fs::create_dir_all(Path::new("crates/bench").join(&corpus))?;
        // A crash ends this target's run; report it and go on with the next target.
        let run = status(
            Command::new("cargo")
                // Safe Rust needs no AddressSanitizer; without it runs are ~5x faster.
                .args(["+nightly", "fuzz", "run", "--sanitizer", "none", t, &corpus])
                .arg(&seeds)
                .arg("--")
                .arg(format!("-max_total_time={seconds}"))
                .arg(format!("-max_len={max_len}"))
                .arg(format!("-timeout={timeout}"))
                .env("OMP_THREAD_LIMIT", "1")
                .current_dir("crates/bench"),
        );
        if let Err(e) = run {
            eprintln!("xtask: {t}: {e:#}");
            failed.push(t.clone());
        }
    }
    if !failed.is_empty() {
        bail!("crashes in {}: see crates/bench/fuzz/artifacts/", failed.join(", "));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Prerequisites
// ---------------------------------------------------------------------------------------

/// The screenshot OCR benchmark: our reader against plain `tesseract IMAGE -` on the
/// shared corpus, in the same run (crates/ocr/benches/corpus.rs).
fn bench_ocr(kinds: &[String]) -> Result<()> {
    ocr_prerequisites()?;
    env::set_var("SSDBASE_SHARED", shared_dir()?);
    let mut args = vec!["bench", "-p", "ocr", "--bench", "corpus", "--"];
    args.extend(kinds.iter().map(String::as_str));
    cargo(&args)
}

/// What crates/ocr needs: Debian's Tesseract library and English model (linked through
/// pkg-config by tesseract-rs's `use-system-tesseract`), a C++ runtime to link, and the
/// `tesseract` command the benchmark compares against.
fn ocr_prerequisites() -> Result<()> {
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
    println!("xtask: installing libtesseract-dev");
    let mut apt = Command::new("apt-get");
    apt.args(&args).env("DEBIAN_FRONTEND", "noninteractive");
    as_root(&mut apt)
}

/// What the tests need from outside the workspace, once set up.
struct TestEnv {
    /// A PostgreSQL role and database for the server's API tests (the role may create
    /// databases: each test makes its own and drops it).
    postgres_url: String,
}

fn setup_for_tests() -> Result<TestEnv> {
    ensure(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
        .context("could not add the wasm32-unknown-unknown target: install rustup (https://rustup.rs)")?;
    ensure(Command::new("rustup").args(["component", "add", "rustfmt", "clippy"]))?;
    // systemd-analyze checks deploy/ssdbase.service (server/tests/deploy.rs); pg_dump and
    // pg_restore are what `ssdbase backup`/`restore` run on PostgreSQL (server/tests/backup.rs).
    debian_packages(&[("node", "nodejs"), ("systemd-analyze", "systemd"), ("pg_dump", "postgresql-client")])?;
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
fn postgres_for_tests() -> Result<String> {
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
fn wasm_bindgen_cli() -> Result<()> {
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

/// Installs Debian packages whose command is missing, with apt-get (as root, or through
/// sudo). Stops with the exact packages to install when that is impossible.
fn debian_packages(wanted: &[(&str, &str)]) -> Result<()> {
    let missing: Vec<&str> =
        wanted.iter().filter(|(cmd, _)| which(cmd).is_none()).map(|(_, pkg)| *pkg).collect();
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
    println!("xtask: installing Debian packages {}", packages.join(" "));
    apt(&["update", "-q"])?;
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend(packages);
    apt(&args)
}

fn is_root() -> bool {
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

// ---------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------

/// `../shared` beside the checkout (or `$SSDBASE_SHARED`): the corpus and the articles.
fn shared_dir() -> Result<PathBuf> {
    if let Ok(dir) = env::var("SSDBASE_SHARED") {
        return Ok(PathBuf::from(dir));
    }
    let mut dir = project_root();
    loop {
        let candidate = dir.join("shared");
        if candidate.join("corpus").is_dir() {
            return Ok(candidate);
        }
        if !dir.pop() {
            bail!("cannot find the shared corpus: put it at ../shared or set SSDBASE_SHARED");
        }
    }
}

fn which(cmd: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        env::var_os("PATH").map(|p| env::split_paths(&p).collect()).unwrap_or_default();
    if let Some(home) = env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo/bin"));
    }
    dirs.into_iter().map(|d| d.join(cmd)).find(|p| p.is_file())
}

fn cargo(args: &[&str]) -> Result<()> {
    status(Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into())).args(args))
}

fn status(cmd: &mut Command) -> Result<()> {
    let s = cmd.status().with_context(|| format!("could not start {cmd:?}"))?;
    if !s.success() {
        bail!("{cmd:?} failed ({s})");
    }
    Ok(())
}

/// Runs a command and returns its standard output.
fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd.output().with_context(|| format!("could not start {cmd:?}"))?;
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Like [`status`], quiet on success.
fn ensure(cmd: &mut Command) -> Result<()> {
    let out = cmd.output().with_context(|| format!("could not start {cmd:?}"))?;
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}
