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

/// The "Measure your drive" page, followed as a person would: its command, copied from
/// the page with the directory typed in, downloads the standalone runner from this
/// server, checks it against the served SHA-256, measures the drive with fio and sends
/// the result, which then shows on its drive's page. The directory is ext4 on a loop
/// device when running as root (as `cargo xtask test` does), else a plain directory.
/// Quick settings and the drive's name are added to the command, as `--tag` and the
/// size options are documented for: a loop device has no model to find.
pub async fn the_measure_page_command_measures_a_drive(w: &World) -> Result<()> {
    let disk = LoopExt4::make(&w.tmp.path().join("measure"))?;
    let dir = disk.mount.to_string_lossy().into_owned();
    w.client.goto(&format!("{}/measure", w.base)).await?;
    w.wait("#runner-downloads").await.context(
        "no runner downloads on the Measure page: the server offers them from SSDBASE_RUNNER_DIR \
         (cargo xtask runner-dist builds them)",
    )?;
    // The page shows the checksum the server serves beside the binary.
    let served = ureq::get(&format!("{}/api/v1/runner/ssdbase-bench-x86_64-linux.sha256", w.base))
        .call()?
        .body_mut()
        .read_to_string()?;
    let hash = served.split_whitespace().next().unwrap_or_default().to_string();
    ensure!(hash.len() == 64, "the checksum line: {served:?}");
    ensure!(w.body_text().await?.contains(&hash), "the page shows the sha256 {hash}");

    let input = w.client.find(Locator::Css(".measure input")).await?;
    input.clear().await?;
    input.send_keys(&dir).await?;
    let command = w
        .client
        .execute("return document.getElementById('measure-command').textContent", vec![])
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string();
    ensure!(command.contains(&dir) && command.contains(&w.base), "the command: {command}");
    w.shot("measure-your-drive").await?;
    let quick = " --size 16MiB --passes 1 --time 1 --interval 0 \
                 --tag vendor=SSDBase --tag 'model=E2E Measure Disk' --tag capacity_gb=1";
    let out = Command::new("sh").arg("-c").arg(format!("{command}{quick}")).output()?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(
        out.status.success(),
        "the page's command failed: {command}\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ensure!(stdout.contains(": OK"), "sha256sum -c checked the download: {stdout}");
    let drive_page = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Its drive's page: ").map(str::to_string))
        .with_context(|| format!("no drive page in: {stdout}"))?;
    w.client.goto(&drive_page).await?;
    w.wait_xpath("//*[contains(., 'ssdbase bench 0.1.0')]").await?;
    let text = w.body_text().await?;
    ensure!(text.contains("SSDBase E2E Measure"), "the drive page: {text}");
    // What the runner found is on the result's page; its filesystem, when it was one.
    if disk.device.is_some() {
        ensure!(stdout.contains("ext4"), "the runner's report names the loop device's ext4: {stdout}");
    }
    Ok(())
}

/// ext4 on a loop device mounted under `base` when root, else the plain directory
/// `base`; unmounted and detached when dropped.
struct LoopExt4 {
    mount: std::path::PathBuf,
    device: Option<String>,
}

impl LoopExt4 {
    fn make(base: &std::path::Path) -> Result<LoopExt4> {
        let mount = base.join("mnt");
        std::fs::create_dir_all(&mount)?;
        let root = Command::new("id").arg("-u").output()?.stdout.starts_with(b"0\n");
        if !root {
            println!("measure page: not root, so a plain directory instead of ext4 on a loop device");
            return Ok(LoopExt4 { mount, device: None });
        }
        let image = base.join("disk.img");
        std::fs::File::create(&image)?.set_len(128 << 20)?;
        let sh = |cmd: &mut Command| -> Result<String> {
            let out = cmd.output()?;
            ensure!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let device = sh(Command::new("losetup").args(["-f", "--show"]).arg(&image))?;
        let disk = LoopExt4 { mount, device: Some(device.clone()) };
        sh(Command::new("mkfs.ext4").args(["-q", &device]))?;
        sh(Command::new("mount").arg(&device).arg(&disk.mount))?;
        Ok(disk)
    }
}

impl Drop for LoopExt4 {
    fn drop(&mut self) {
        if let Some(device) = &self.device {
            let _ = Command::new("umount").arg(&self.mount).status();
            let _ = Command::new("losetup").args(["-d", device]).status();
        }
    }
}
