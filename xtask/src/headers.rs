//! The security headers checked from outside: drHEADer (PyPI), a third-party checker,
//! with its default rules and cross-origin isolation checks, against every kind of page
//! a real `ssdbase serve` sends (the site's pages, with and without a link preview, and
//! the embed pages), with `--public-url https://…` so that HSTS is expected too. The
//! embed pages are made to be framed by any site and cached for a few minutes: for them
//! the default rules are merged with `tests/headers/embed-rules.yml`, which says exactly
//! that (no `X-Frame-Options`; some `Cache-Control`) and nothing else.
//!
//!   a step of `cargo xtask test`, on the binary the host tests built and the built site

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// The checker's version, pinned like schemathesis: a new rule should be met on purpose.
const DRHEADER: &str = "2.0.0";
const EMBED_RULES: &str = "tests/headers/embed-rules.yml";

const C300: &str = "crucial-realssd-c300-64gb";
const M2S: &str = "plextor-px-m2s-64gb";

fn ensure_drheader() -> Result<()> {
    crate::provision::pip_package("drheader", DRHEADER, "under a minute")
}

/// Every page kind the site serves: (path, whether it is an embed page).
fn pages() -> Vec<(String, bool)> {
    let site = [
        "/".to_string(),
        "/drives".into(),
        format!("/drives/{C300}"),
        format!("/compare?drives={C300},{M2S}"),
        "/results".into(),
        "/results/1".into(),
        "/leaderboard".into(),
        "/submit".into(),
        "/no/such/page".into(),
    ];
    let embeds = [
        format!("/embed/drives/{C300}"),
        format!("/embed/compare?drives={C300},{M2S}"),
        format!("/embed/drives/{C300}/rated"),
    ];
    site.into_iter().map(|p| (p, false)).chain(embeds.into_iter().map(|p| (p, true))).collect()
}

/// Runs drHEADer on every page kind of `binary` serving `site` on a new SQLite file.
pub fn run(binary: &Path, site: &Path) -> Result<()> {
    ensure_drheader()?;
    let public = ["--public-url", "https://ssdbase.example"];
    crate::contract::with_site_server(binary, site, "headers", &public, |base, _| check_pages(base))
}

fn check_pages(base: &str) -> Result<()> {
    let embed_rules = super::project_root().join(EMBED_RULES);
    let mut failures = Vec::new();
    for (path, embed) in pages() {
        let mut cmd = Command::new("drheader");
        cmd.args(["scan", "single", "--cross-origin-isolated", "--output", "json"]);
        if embed {
            cmd.arg("--merge").arg("--rules-file").arg(&embed_rules);
        }
        cmd.arg(format!("{base}{path}"));
        let out = cmd.output().context("running drheader (installed from PyPI above)")?;
        let text = String::from_utf8_lossy(&out.stdout);
        // The JSON report: a list of findings, empty when every rule holds.
        let findings: serde_json::Value = serde_json::from_str(text.trim()).with_context(|| {
            format!(
                "drheader on {path} printed no JSON report: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
        let n = findings.as_array().map_or(0, Vec::len);
        let rules = if embed { "default rules + embed-rules.yml" } else { "default rules" };
        println!("xtask: drheader {path} ({rules}, cross-origin isolation): {n} findings");
        if n > 0 {
            failures.push(format!("{path}: {findings:#}"));
        }
    }
    if !failures.is_empty() {
        bail!("drheader found problems in the security headers:\n{}", failures.join("\n"));
    }
    Ok(())
}
