//! Lighthouse on the site's pages, as a reader on a phone gets them: npm's `lighthouse` 12
//! with Debian's Chromium and its default mobile run (simulated slow 4G, a 4x slower CPU),
//! against a real `ssdbase serve` of the built site on a new SQLite file with the demo data.
//! Each page is run [`RUNS`] times; the median of each figure is printed with its range.
//!
//!   `cargo xtask lighthouse [PAGE...]` (release server; pages by label, `drive` or
//!   `drives index`, all when none is named) and a step of `cargo xtask test`
//!
//! The test fails when a page's median accessibility, best-practices or SEO score is
//! below 100, or its median LCP or CLS misses its target (2.5 s, 0.1). Performance (95)
//! and TBT (200 ms) are printed against their targets, marked when missed, without
//! failing: the same build's TBT moves between about 30 and 620 ms from one run to the
//! next on this shared 2-core machine, more than Lighthouse's own measure of the host's
//! speed (`benchmarkIndex`, printed too) explains, so as a gate it measured the machine,
//! not the site (issue 35 stays open on them; BENCHMARKS.md "Lighthouse"). Each page's LCP
//! element is printed with its figures.

use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const LIGHTHOUSE: &str = "lighthouse@12.8.2";
/// Five, not three: single runs of one page differ by up to 6 performance points and 2 s
/// of LCP on this 2-core machine (BENCHMARKS.md "Lighthouse").
const RUNS: usize = 5;

const C300: &str = "crucial-realssd-c300-256gb";
const M2S: &str = "plextor-px-m2s-256gb";
const SF2281: &str = "patriot-wildfire-120gb";

/// The pages the issue names: (label, path).
fn pages() -> Vec<(&'static str, String)> {
    vec![
        ("home", "/".into()),
        ("results", "/results".into()),
        ("drives index", "/drives".into()),
        ("leaderboard", "/leaderboard".into()),
        ("drive", format!("/drives/{C300}")),
        ("compare", format!("/compare?drives={C300},{M2S},{SF2281}")),
        ("result", "/results/1".into()),
        ("submit", "/submit".into()),
    ]
}

/// npm's lighthouse in `target/lighthouse`, installed when missing (its Chromium download
/// skipped: it drives Debian's).
fn ensure_lighthouse() -> Result<PathBuf> {
    crate::provision::debian_packages(&[("node", "nodejs"), ("npm", "npm"), ("chromium", "chromium")])?;
    let dir = crate::target_dir().join("lighthouse");
    let bin = dir.join("node_modules/.bin/lighthouse");
    let wanted = LIGHTHOUSE.rsplit('@').next().unwrap_or_default();
    let have = std::fs::read_to_string(dir.join("node_modules/lighthouse/package.json"))
        .ok()
        .and_then(|s| serde_json::from_str::<Value>(&s).ok())
        .and_then(|v| v["version"].as_str().map(str::to_string));
    if bin.exists() && have.as_deref() == Some(wanted) {
        return Ok(bin);
    }
    println!("xtask: installing {LIGHTHOUSE} from npm into {} (under a minute)", dir.display());
    std::fs::create_dir_all(&dir)?;
    crate::ensure(
        Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix"])
            .arg(&dir)
            .arg(LIGHTHOUSE)
            .env("PUPPETEER_SKIP_DOWNLOAD", "1"),
    )
    .context("installing lighthouse with npm")?;
    Ok(bin)
}

/// The start of the LCP element's HTML, as the report's `largest-contentful-paint-element`
/// audit names it ("" when it does not).
fn lcp_element(report: &Value) -> String {
    let items = report["audits"]["largest-contentful-paint-element"]["details"]["items"].as_array();
    let nodes = items.into_iter().flatten().flat_map(|i| i["items"].as_array().into_iter().flatten());
    let node = nodes.map(|n| &n["node"]).find(|n| n["snippet"].is_string());
    node.map(|n| {
        let label: String = n["nodeLabel"].as_str().unwrap_or_default().chars().take(60).collect();
        format!("{} {label}", n["snippet"].as_str().unwrap_or_default())
    })
    .unwrap_or_default()
}

/// One Lighthouse run's figures.
#[derive(Clone, Debug)]
struct Run {
    performance: f64,
    accessibility: f64,
    best_practices: f64,
    seo: f64,
    fcp_ms: f64,
    lcp_ms: f64,
    tbt_ms: f64,
    cls: f64,
    speed_index_ms: f64,
    /// The element Lighthouse took for the largest contentful paint (its HTML's start).
    lcp_element: String,
    /// Audits below a full score in accessibility, best practices and SEO: "category: id (title)".
    failed: Vec<String>,
    /// The host's speed as Lighthouse measured it before the load (`benchmarkIndex`).
    benchmark_index: f64,
}

impl Run {
    fn from_report(report: &Value) -> Result<Run> {
        let score = |cat: &str| -> Result<f64> {
            report["categories"][cat]["score"]
                .as_f64()
                .map(|s| (s * 100.0).round())
                .with_context(|| format!("no {cat} score in the report"))
        };
        let audit = |id: &str| -> Result<f64> {
            report["audits"][id]["numericValue"].as_f64().with_context(|| format!("no {id} in the report"))
        };
        let mut failed = Vec::new();
        for cat in ["accessibility", "best-practices", "seo"] {
            for r in report["categories"][cat]["auditRefs"].as_array().into_iter().flatten() {
                let id = r["id"].as_str().unwrap_or_default();
                let a = &report["audits"][id];
                if r["weight"].as_f64().unwrap_or(0.0) > 0.0 && a["score"].as_f64().is_some_and(|s| s < 1.0) {
                    failed.push(format!("{cat}: {id} ({})", a["title"].as_str().unwrap_or_default()));
                }
            }
        }
        Ok(Run {
            performance: score("performance")?,
            accessibility: score("accessibility")?,
            best_practices: score("best-practices")?,
            seo: score("seo")?,
            fcp_ms: audit("first-contentful-paint")?,
            lcp_ms: audit("largest-contentful-paint")?,
            tbt_ms: audit("total-blocking-time")?,
            cls: audit("cumulative-layout-shift")?,
            speed_index_ms: audit("speed-index")?,
            lcp_element: lcp_element(report),
            failed,
            benchmark_index: report["environment"]["benchmarkIndex"].as_f64().unwrap_or(f64::NAN),
        })
    }
}

fn lighthouse_once(bin: &Path, url: &str, out: &Path) -> Result<Run> {
    let status = Command::new(bin)
        .arg(url)
        .args([
            "--quiet",
            "--output=json",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run \
             --disable-background-networking --disable-component-update --disable-sync",
        ])
        .arg(format!("--output-path={}", out.display()))
        .env("CHROME_PATH", crate::which("chromium").context("Debian's chromium")?)
        .status()
        .context("running lighthouse")?;
    if !status.success() {
        bail!("lighthouse failed on {url} ({status})");
    }
    let report: Value = serde_json::from_slice(&std::fs::read(out)?).context("lighthouse's JSON report")?;
    if let Some(err) = report["runtimeError"]["message"].as_str() {
        bail!("lighthouse could not load {url}: {err}");
    }
    Run::from_report(&report).with_context(|| format!("lighthouse's report of {url}"))
}

/// A run of Lighthouse, tried again up to twice when Lighthouse itself fails: on this
/// shared machine it now and then loses its own trace ("NO_NAVSTART"), which says
/// nothing about the page.
fn lighthouse_retrying(bin: &Path, url: &str, out: &Path) -> Result<Run> {
    let mut last = None;
    for _ in 0..3 {
        match lighthouse_once(bin, url, out) {
            Ok(run) => return Ok(run),
            Err(e) => {
                println!("xtask: {e:#}; running it again");
                last = Some(e);
            }
        }
    }
    Err(last.expect("three attempts"))
}

/// The median (the middle of the sorted values; RUNS is odd) and the range.
fn median_range(values: impl Iterator<Item = f64>) -> (f64, f64, f64) {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// Runs Lighthouse on the pages labelled `only` (every page when empty) of `binary`
/// serving `site`, prints the figures and fails on a median accessibility,
/// best-practices or SEO score below 100, or a median LCP or CLS over its target.
pub fn run(binary: &Path, site: &Path, only: &[String]) -> Result<()> {
    let bin = ensure_lighthouse()?;
    let pages: Vec<_> =
        pages().into_iter().filter(|(label, _)| only.is_empty() || only.iter().any(|o| o == label)).collect();
    if pages.is_empty() {
        bail!("no page is labelled {}: the pages are {:?}", only.join(", "), pages_labels());
    }
    crate::contract::with_site_server(binary, site, "lighthouse", &[], |base, dir| {
        measure_pages(&bin, base, dir, &pages)
    })
}

fn pages_labels() -> Vec<&'static str> {
    pages().into_iter().map(|(label, _)| label).collect()
}

fn measure_pages(bin: &Path, base: &str, dir: &Path, pages: &[(&'static str, String)]) -> Result<()> {
    println!(
        "xtask: Lighthouse (mobile: simulated slow 4G, 4x CPU), {RUNS} runs of each of {} pages (about 8 minutes); \
         median [range]",
        pages.len()
    );
    let mut failures = Vec::new();
    let mut missed = Vec::new();
    for (label, path) in pages {
        let url = format!("{base}{path}");
        let runs = (0..RUNS)
            .map(|i| lighthouse_retrying(bin, &url, &dir.join(format!("report-{i}.json"))))
            .collect::<Result<Vec<Run>>>()?;
        let fig = |f: fn(&Run) -> f64| median_range(runs.iter().map(f));
        let (perf, perf_lo, perf_hi) = fig(|r| r.performance);
        let (lcp, lcp_lo, lcp_hi) = fig(|r| r.lcp_ms);
        let (tbt, tbt_lo, tbt_hi) = fig(|r| r.tbt_ms);
        let (cls, cls_lo, cls_hi) = fig(|r| r.cls);
        let (fcp, ..) = fig(|r| r.fcp_ms);
        let (si, ..) = fig(|r| r.speed_index_ms);
        let (a11y, ..) = fig(|r| r.accessibility);
        let (bp, ..) = fig(|r| r.best_practices);
        let (seo, ..) = fig(|r| r.seo);
        let (index, index_lo, index_hi) = fig(|r| r.benchmark_index);
        let (perf_ok, lcp_ok, tbt_ok, cls_ok) = (perf >= 95.0, lcp < 2500.0, tbt < 200.0, cls < 0.1);
        let mark = |ok: bool| if ok { "" } else { " (target missed)" };
        println!(
            "FIGURE lighthouse {label}: performance {perf:.0} [{perf_lo:.0}-{perf_hi:.0}]{}, accessibility {a11y:.0}, \
             best practices {bp:.0}, SEO {seo:.0}; LCP {lcp:.0} ms [{lcp_lo:.0}-{lcp_hi:.0}]{}, TBT {tbt:.0} ms \
             [{tbt_lo:.0}-{tbt_hi:.0}]{}, CLS {cls:.3} [{cls_lo:.3}-{cls_hi:.3}]{}, FCP {fcp:.0} ms, speed index {si:.0} ms, \
             host CPU benchmark {index:.0} [{index_lo:.0}-{index_hi:.0}] ({path})",
            mark(perf_ok),
            mark(lcp_ok),
            mark(tbt_ok),
            mark(cls_ok),
        );
        let median_run = runs.iter().min_by(|a, b| (a.lcp_ms - lcp).abs().total_cmp(&(b.lcp_ms - lcp).abs()));
        println!("  {label}: LCP element {}", median_run.map_or("", |r| r.lcp_element.as_str()));
        if !(lcp_ok && cls_ok) {
            failures.push(format!("{label} ({path}): LCP {lcp:.0} ms (2500), CLS {cls:.3} (0.1)"));
        }
        if !(perf_ok && tbt_ok) {
            missed.push(format!("{label} ({path}): performance {perf:.0} (95), TBT {tbt:.0} ms (200)"));
        }
        if a11y < 100.0 || bp < 100.0 || seo < 100.0 {
            let mut failed: Vec<String> = runs.iter().flat_map(|r| r.failed.clone()).collect();
            failed.sort();
            failed.dedup();
            failures.push(format!("{label} ({path}): {}", failed.join("; ")));
        }
    }
    if !missed.is_empty() {
        println!(
            "xtask: Lighthouse: performance 95 and TBT 200 ms missed (printed, not enforced: issue 35):\n  {}",
            missed.join("\n  ")
        );
    }
    if !failures.is_empty() {
        bail!(
            "Lighthouse: accessibility, best practices and SEO must score 100 on every page, and LCP and CLS \
             meet their targets:\n  {}",
            failures.join("\n  ")
        );
    }
    Ok(())
}
