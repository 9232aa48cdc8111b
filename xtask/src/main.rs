//! Project automation, in Rust rather than shell (see matklad's cargo-xtask).
//!
//!   cargo xtask run    build SSDBase and start the server with the demo data
//!   cargo xtask test [--skip-root-tests]   install what the tests need, then run every test
//!   cargo xtask fuzz   run the parser fuzz targets (cargo-fuzz, nightly)
//!   cargo xtask bench-server   ingest rate and query latency, SQLite and PostgreSQL
//!   cargo xtask bench-identity  drive names of the own real set landing on one drive each, and search
//!   cargo xtask bench-sharing  chart, preview and cached-embed figures beside a static file
//!   cargo xtask bench-curves   what curves cost a submission and a drive page, both backends
//!   cargo xtask api-contract   schemathesis over every API operation, SQLite and PostgreSQL
//!   cargo xtask soak [--minutes N] [--kills K]  three servers under mixed load, one killed
//!   cargo xtask runner-dist  build the downloadable runner (static, x86_64 and aarch64)
//!   cargo xtask setup  only install the prerequisites
//!
//! Here: argument dispatch and the commands. `provision.rs` installs every prerequisite
//! when missing, or stops with a message naming exactly what is missing and how to get
//! it; `site.rs` builds the website with Trunk (and is Trunk's post-build hook, with
//! `split.rs`), lints it and runs the browser tests; `contract.rs` the API contract;
//! `runner_dist.rs` the downloadable runner the server offers.

use anyhow::{bail, Context, Result};
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

mod contract;
mod headers;
mod lighthouse;
mod provision;
mod runner_dist;
mod site;
mod split;

use provision::{ocr_prerequisites, postgres_for_tests, setup_for_tests};
use runner_dist::build_runner_dist;
use site::{build_site, lint_site, site_end_to_end, site_post_build};

const USAGE: &str =
    "usage: cargo xtask <run|test [--skip-root-tests]|fuzz [--seconds N] [TARGET...]|bench-ocr|bench-server|bench-identity|bench-sharing|bench-curves|api-contract|lighthouse [PAGE...]|runner-dist|\
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
        Some("test") => test(&args[1..]),
        Some("fuzz") => fuzz(&args[1..]),
        Some("site-post-build") => site_post_build(),
        Some("bench-ocr") => bench_ocr(&args[1..]),
        Some("bench-server") => bench_server(),
        Some("soak") => soak(&args[1..]),
        Some("runner-dist") => build_runner_dist().map(|_| ()),
        Some("bench-identity") => bench_identity(),
        Some("bench-sharing") => cargo(&["bench", "-p", "ssdbase", "--bench", "sharing"]),
        Some("bench-curves") => cargo(&["bench", "-p", "ssdbase", "--bench", "curves"]),
        Some("lighthouse") => {
            cargo(&["build", "--release", "-p", "ssdbase"])?;
            let site = build_site()?;
            lighthouse::run(&target_dir().join("release").join("ssdbase"), &site, &args[1..])
        }
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
    println!(
        "xtask: building the ssdbase server (release; about 15 minutes on two cores the first time, \
         seconds after)"
    );
    cargo(&["build", "--release", "-p", "ssdbase"])?;
    // Where cargo put it (`CARGO_TARGET_DIR` or the checkout's target/), from any directory.
    let bin = target_dir().join("release").join("ssdbase");
    if !extra.is_empty() {
        return status(Command::new(&bin).args(extra));
    }
    let site = build_site()?;
    let runner_dir = runner_dist_in_background()?;
    println!("ssdbase serve: the site at http://127.0.0.1:8080/, the API under /api/v1 (Ctrl-C stops it)");
    status(Command::new(&bin).arg("serve").arg("--site").arg(site).arg("--runner-dir").arg(runner_dir))
}

/// Starts `cargo xtask runner-dist` beside the server rather than before it: the site
/// is up minutes sooner, and the server offers the binaries as soon as they are written.
fn runner_dist_in_background() -> Result<PathBuf> {
    let dir = runner_dist::runner_dist_dir();
    std::fs::create_dir_all(&dir)?;
    let log_path = dir.join("build.log");
    let log = std::fs::File::create(&log_path)?;
    Command::new(env::current_exe()?)
        .arg("runner-dist")
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .context("starting the runner's build")?;
    println!(
        "xtask: building the downloadable runner in the background (a few minutes the first time; log: {});          the site's Measure page offers it once built",
        log_path.display()
    );
    Ok(dir)
}

/// Everything the README promises: host tests of the whole workspace (with the tests that
/// need root, see [`tests_needing_root`]), the bench crate built and tested as
/// WebAssembly, formatting and lints.
fn test(args: &[String]) -> Result<()> {
    let skip_root_tests = match args {
        [] => false,
        [flag] if flag == "--skip-root-tests" => true,
        _ => bail!(USAGE),
    };
    let env = setup_for_tests()?;
    cargo(&["fmt", "--all", "--", "--check"]).context("code is not formatted: run `cargo fmt --all`")?;
    cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    let site = build_site()?;
    lint_site()?;
    // The browser test downloads it from the server it starts (which reads this).
    let runner_dir = build_runner_dist()?;
    env::set_var("SSDBASE_RUNNER_DIR", &runner_dir);
    // The server's API tests run against SQLite and against this PostgreSQL.
    status(
        Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["test", "--workspace", "--all-targets", "--exclude", "e2e"])
            .env("SSDBASE_TEST_POSTGRES_URL", &env.postgres_url),
    )?;
    let root_tests = tests_needing_root()?;
    // The API from outside, on the binary the host tests built.
    contract::run(&target_dir().join("debug").join("ssdbase"), &env.postgres_url)?;
    // The security headers of every page kind, by a third-party checker.
    headers::run(&target_dir().join("debug").join("ssdbase"), &site)?;
    // What a reader on a phone waits for, by Lighthouse (on the debug server: its figures
    // are the release server's, BENCHMARKS.md "Lighthouse", and a release build would add
    // a quarter of an hour to a fresh machine's run).
    lighthouse::run(&target_dir().join("debug").join("ssdbase"), &site, &[])?;
    site_end_to_end(&site)?;
    // The bench crate runs in the browser: prove it builds and passes its tests there.
    cargo(&["build", "-p", "bench", "--target", "wasm32-unknown-unknown", "--release"])?;
    let runner =
        which("wasm-bindgen-test-runner").context("wasm-bindgen-test-runner vanished after setup")?;
    let mut cmd = Command::new("cargo");
    cmd.args(["test", "-p", "bench", "--target", "wasm32-unknown-unknown", "--test", "wasm"])
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER", runner);
    status(&mut cmd)?;
    match root_tests {
        RootTests::Passed(n) => {
            println!("\nxtask test: all tests passed (host and wasm32, with the {n} that need root)");
        }
        RootTests::NotRun(names) if skip_root_tests => {
            println!(
                "\nxtask test: all tests passed (host and wasm32) except {} that need root and were \
                 skipped (--skip-root-tests):\n  {}",
                names.len(),
                names.join("\n  ")
            );
        }
        RootTests::NotRun(names) => bail!(
            "every other test passed, but {} tests need root (loop devices, mounts, block-I/O control \
             groups) and did not run, since this is not root:\n  {}\n\
             Run `cargo xtask test` as root, or `cargo xtask test --skip-root-tests` to skip them knowingly.",
            names.len(),
            names.join("\n  ")
        ),
    }
    Ok(())
}

/// Whether the tests that need root ran.
enum RootTests {
    /// They ran and passed (this many).
    Passed(usize),
    /// Not root: their names, `crate-target: module::test`.
    NotRun(Vec<String>),
}

/// The host tests marked `#[ignore = "needs root: ..."]` (loop devices, mounts, control
/// groups; the only use of `#[ignore]` in this workspace): run as root, else listed, so
/// that a run without root never passes them silently. After the workspace test run,
/// which built their binaries.
fn tests_needing_root() -> Result<RootTests> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let args = ["test", "--workspace", "--exclude", "e2e", "--tests", "--", "--ignored"];
    if provision::is_root() {
        // Only the ignored tests, one at a time: they measure the machine's disks.
        status(Command::new(&cargo).args(args).args(["--test-threads", "1"]))?;
        let n = ignored_tests(&cargo, &args)?.len();
        return Ok(RootTests::Passed(n));
    }
    Ok(RootTests::NotRun(ignored_tests(&cargo, &args)?))
}

/// The tests that `cargo <args> --list` names, each after its test binary's source file
/// (`tests/device.rs: a_mounted_device_is_refused`).
fn ignored_tests(cargo: &str, args: &[&str]) -> Result<Vec<String>> {
    // Cargo says on stderr which binary runs next ("Running tests/device.rs (target/...)"),
    // the binary lists its tests on stdout: one pipe for both keeps them in order.
    let (mut reader, writer) = std::io::pipe()?;
    let mut cmd = Command::new(cargo);
    cmd.args(args).args(["--list", "--format", "terse"]).stdout(writer.try_clone()?).stderr(writer);
    let mut child = cmd.spawn().with_context(|| format!("could not start {cargo}"))?;
    drop(cmd);
    let mut text = String::new();
    std::io::Read::read_to_string(&mut reader, &mut text)?;
    if !child.wait()?.success() {
        bail!("listing the tests that need root failed:\n{text}");
    }
    Ok(listed_tests(&text))
}

/// The tests in cargo's `--list --format terse` output, each after its binary's source.
fn listed_tests(text: &str) -> Vec<String> {
    let mut binary = "";
    let mut names = Vec::new();
    for line in text.lines() {
        if let Some(running) = line.trim_start().strip_prefix("Running ") {
            binary = running.split(" (").next().unwrap_or(running);
        } else if let Some(test) = line.strip_suffix(": test") {
            names.push(format!("{binary}: {test}"));
        }
    }
    names
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

/// Drive identity on the own real set (server/tests/data/identity_real_set.json) on
/// SQLite and PostgreSQL: groups whose names all land on one drive, groups wrongly
/// joined, and search queries whose drive comes first, printed by the API test that
/// asserts them.
fn bench_identity() -> Result<()> {
    let env = setup_for_tests()?;
    status(
        Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([
                "test",
                "-p",
                "ssdbase",
                "--test",
                "api",
                "a_real_set_of_names",
                "--",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("SSDBASE_TEST_POSTGRES_URL", &env.postgres_url),
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
        println!("xtask: installing cargo-fuzz 0.13.2 (cargo install; about 3 minutes)");
        cargo(&["install", "--locked", "cargo-fuzz@0.13.2"])?;
    }
    if !provision::rustup_has(&["toolchain", "list"], &["nightly"]) {
        println!("xtask: installing the nightly Rust toolchain cargo-fuzz needs (rustup, minimal; a minute or two)");
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

/// shared corpus, in the same run (crates/ocr/benches/corpus.rs).
fn bench_ocr(kinds: &[String]) -> Result<()> {
    ocr_prerequisites()?;
    env::set_var("SSDBASE_SHARED", shared_dir()?);
    let mut args = vec!["bench", "-p", "ocr", "--bench", "corpus", "--"];
    args.extend(kinds.iter().map(String::as_str));
    cargo(&args)
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

#[cfg(test)]
mod tests {
    #[test]
    fn listed_tests_are_named_after_their_binary() {
        let text = "   Compiling runner v0.1.0 (/w/crates/runner)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 18.05s
     Running unittests src/lib.rs (target/debug/deps/probe-d9366b0bc04c2db2)
     Running tests/machine.rs (target/debug/deps/machine-006ab8282cfbf853)
a_loop_device_holding_ext4: test
     Running tests/device.rs (target/debug/deps/device-30a253cbaeaef687)
a_mounted_device_is_refused: test
an_unmounted_device_is_measured_only_when_destructive: test
";
        assert_eq!(
            super::listed_tests(text),
            [
                "tests/machine.rs: a_loop_device_holding_ext4",
                "tests/device.rs: a_mounted_device_is_refused",
                "tests/device.rs: an_unmounted_device_is_measured_only_when_destructive",
            ]
        );
    }
}
