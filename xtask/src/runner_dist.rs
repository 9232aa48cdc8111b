//! The downloadable runner: `ssdbase-bench` (crates/bench-cli) built statically against
//! musl for x86_64 and aarch64 Linux into `target/runner-dist/`, each binary with a
//! `NAME.sha256` line that `sha256sum -c` reads. `ssdbase serve --runner-dir` offers that
//! directory under /api/v1/runner, and the site's "Measure your drive" page links it.

use crate::provision::{debian_packages, rustup_targets};
use crate::{cargo, output, target_dir};
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::Command;

/// (Rust target, `uname -m` of the machines it runs on.)
const TARGETS: [(&str, &str); 2] =
    [("x86_64-unknown-linux-musl", "x86_64"), ("aarch64-unknown-linux-musl", "aarch64")];

/// Where the binaries go: `target/runner-dist` (the server's default `--runner-dir`).
pub fn runner_dist_dir() -> PathBuf {
    target_dir().join("runner-dist")
}

/// Builds both binaries (installing the musl and ARM cross tools when missing) and
/// writes their checksums; answers the directory.
pub fn build_runner_dist() -> Result<PathBuf> {
    // musl-gcc and the ARM cross gcc compile ring's C (rustls' cryptography); the ARM
    // binary is linked by rust-lld against Rust's own musl (.cargo/config.toml).
    debian_packages(&[
        ("musl-gcc", "musl-tools"),
        ("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"),
        ("/usr/aarch64-linux-gnu/include/stdio.h", "libc6-dev-arm64-cross"),
    ])?;
    rustup_targets(&TARGETS.map(|(t, _)| t))?;
    println!(
        "xtask: building the downloadable runner ssdbase-bench, static, for x86_64 and aarch64 Linux \
         (about 3 minutes each the first time, seconds after)"
    );
    let dir = runner_dist_dir();
    std::fs::create_dir_all(&dir)?;
    for (target, arch) in TARGETS {
        cargo(&["build", "--profile", "runner-release", "-p", "ssdbase-bench", "--target", target])?;
        let built = target_dir().join(target).join("runner-release").join("ssdbase-bench");
        let name = format!("ssdbase-bench-{arch}-linux");
        let dest = dir.join(&name);
        std::fs::copy(&built, &dest).with_context(|| format!("copying {}", built.display()))?;
        // `sha256sum NAME` run in the directory prints exactly the line `-c` checks.
        let line = output(Command::new("sha256sum").arg(&name).current_dir(&dir))?;
        std::fs::write(dir.join(format!("{name}.sha256")), &line)?;
        let bytes = std::fs::metadata(&dest)?.len();
        println!("xtask: {} ({bytes} bytes), sha256 {}", dest.display(), &line[..64]);
    }
    Ok(dir)
}
