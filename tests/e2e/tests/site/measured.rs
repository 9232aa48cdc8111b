//! A result measured with `ssdbase bench` on this machine and sent to the server: its
//! result page and its drive's page.

use crate::world::{ssdbase_bin, World};
use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use std::process::Command;

/// The README's one command for the runner, as a person runs it: `ssdbase bench DIR
/// --submit URL` measures a directory of this machine with fio and sends the result;
/// its page says it was measured with ssdbase bench, with the facts found and how, and
/// the fio jobs; its drive's page lists it.
pub async fn a_drive_measured_with_ssdbase_bench(w: &World) -> Result<()> {
    let dir = w.tmp.path().join("bench-target");
    std::fs::create_dir_all(&dir)?;
    let out = Command::new(ssdbase_bin()?)
        .arg("bench")
        .arg(&dir)
        .args(["--size", "16MiB", "--passes", "1", "--time", "1", "--interval", "0"])
        .args(["--tag", "vendor=SSDBase", "--tag", "model=E2E Bench Disk", "--tag", "capacity_gb=16"])
        .args(["--submit", &w.base])
        .output()
        .context("running ssdbase bench")?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(out.status.success(), "ssdbase bench failed: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let result_page = stdout
        .lines()
        .find_map(|l| {
            l.strip_prefix("Stored as result ")
                .and_then(|l| l.split_once(": "))
                .map(|(_, url)| url.to_string())
        })
        .with_context(|| format!("no result page in: {stdout}"))?;
    let drive_page = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Its drive's page: ").map(str::to_string))
        .with_context(|| format!("no drive page in: {stdout}"))?;
    w.client.goto(&result_page).await?;
    w.wait("#runner-facts").await?;
    let text = w.body_text().await?;
    for expected in
        ["Measured with ssdbase bench", "ssdbase bench 0.1.0", "/proc/self/mountinfo", "typed by hand"]
    {
        ensure!(text.contains(expected), "the result page lacks {expected:?}: {text}");
    }
    ensure!(
        w.client.find_all(Locator::Css("details.fio-job")).await?.len() >= 9,
        "a fio job per test, and the preparation"
    );
    w.shot("result-measured-with-ssdbase-bench").await?;
    w.client.goto(&drive_page).await?;
    w.wait_xpath("//*[contains(., 'ssdbase bench 0.1.0')]").await?;
    let text = w.body_text().await?;
    ensure!(text.contains("SSDBase E2E Bench"), "the drive page: {text}");
    Ok(())
}
