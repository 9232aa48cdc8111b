//! Project automation, in Rust rather than shell (see matklad's cargo-xtask).
//!
//!   cargo xtask run    build SSDBase and start it
//!   cargo xtask test   install what the tests need, then run every test
//!   cargo xtask fuzz   run the parser fuzz targets (cargo-fuzz, nightly)
//!   cargo xtask setup  only install the prerequisites
//!
//! Every prerequisite is installed here when missing, or the command stops with a
//! message naming exactly what is missing and how to get it.

use anyhow::{bail, Context, Result};
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const USAGE: &str = "usage: cargo xtask <run|test|fuzz [--seconds N] [TARGET...]|setup>";

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
        Some("setup") => setup_for_tests(),
        _ => bail!(USAGE),
    }
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_path_buf()
}

// ---------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------

/// Builds the `ssdbase` binary and runs it on the real-world corpus, so a newcomer sees
/// what SSDBase reads. Extra arguments go to `ssdbase` instead.
fn run(extra: &[String]) -> Result<()> {
    cargo(&["build", "--release", "-p", "ssdbase"])?;
    let bin = Path::new("target/release/ssdbase");
    if !extra.is_empty() {
        return status(Command::new(bin).args(extra));
    }
    let corpus = shared_dir()?.join("corpus/real");
    let mut files: Vec<PathBuf> =
        walk(&corpus)?.into_iter().filter(|p| p.extension().is_some_and(|e| e == "txt")).collect();
    files.sort();
    println!("ssdbase parse: {} real result files from {}", files.len(), corpus.display());
    status(Command::new(bin).arg("parse").args(&files))
}

/// Everything the README promises: host tests of the whole workspace, the bench crate
/// built and tested as WebAssembly, formatting and lints.
fn test() -> Result<()> {
    setup_for_tests()?;
    cargo(&["fmt", "--all", "--", "--check"]).context("code is not formatted: run `cargo fmt --all`")?;
    cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    cargo(&["test", "--workspace", "--all-targets"])?;
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
    let seeds = shared_dir()?.join("corpus/real");
    let mut failed = Vec::new();
    for t in &targets {
        println!("== fuzzing {t} for {seconds} s");
        let corpus = format!("fuzz/corpus/{t}");
        std::fs::create_dir_all(Path::new("crates/bench").join(&corpus))?;
        // A crash ends this target's run; report it and go on with the next target.
        let run = status(
            Command::new("cargo")
                .args(["+nightly", "fuzz", "run", t, &corpus])
                .arg(&seeds)
                .arg("--")
                .arg(format!("-max_total_time={seconds}"))
                .arg("-max_len=16384")
                .arg("-timeout=10")
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

fn setup_for_tests() -> Result<()> {
    ensure(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))
        .context("could not add the wasm32-unknown-unknown target: install rustup (https://rustup.rs)")?;
    ensure(Command::new("rustup").args(["component", "add", "rustfmt", "clippy"]))?;
    debian_packages(&[("node", "nodejs")])?;
    wasm_bindgen_cli()?;
    Ok(())
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
    let root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
    let apt = |args: &[&str]| {
        let mut c = if root { Command::new("apt-get") } else { Command::new("sudo") };
        if !root {
            c.arg("apt-get");
        }
        c.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        ensure(&mut c)
    };
    if which("apt-get").is_none() || (!root && which("sudo").is_none()) {
        bail!(
            "missing: {} — install these Debian packages: apt-get install {}",
            missing.join(", "),
            missing.join(" ")
        );
    }
    println!("xtask: installing Debian packages {}", missing.join(" "));
    apt(&["update", "-q"])?;
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend(&missing);
    apt(&args)
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

fn walk(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            out.extend(walk(&path)?);
        } else {
            out.push(path);
        }
    }
    Ok(out)
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

/// Like [`status`], quiet on success.
fn ensure(cmd: &mut Command) -> Result<()> {
    let out = cmd.output().with_context(|| format!("could not start {cmd:?}"))?;
    if !out.status.success() {
        bail!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}
