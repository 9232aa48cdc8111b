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
    w.open(&result_page).await?;
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
    w.open(&drive_page).await?;
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
    w.open(&format!("{}/measure", w.base)).await?;
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
    w.open(&drive_page).await?;
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
        Self::make_sized(base, 128)
    }

    fn make_sized(base: &std::path::Path, mib: u64) -> Result<LoopExt4> {
        let mount = base.join("mnt");
        std::fs::create_dir_all(&mount)?;
        let root = Command::new("id").arg("-u").output()?.stdout.starts_with(b"0\n");
        if !root {
            println!("measure page: not root, so a plain directory instead of ext4 on a loop device");
            return Ok(LoopExt4 { mount, device: None });
        }
        let image = base.join("disk.img");
        std::fs::File::create(&image)?.set_len(mib << 20)?;
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

/// The first drive's cache: at 150 MB/s and one sample a second, a cache of under two
/// seconds' writing is found within little more than one interval (192 MiB measured 9 %
/// short in one run), so the drives' caches take a few seconds to fill.
const CACHE_A_MIB: u64 = 384;

/// The issue-33 path as a new user walks it: `ssdbase bench DIR --profile cache --submit
/// URL` on ext4 on a loop device that behaves like a drive with a write cache (a
/// block-I/O control group lets writes run at 150 MB/s for the first N MiB, then at 40,
/// and empties the "cache" after a second without writes), for two drives with caches
/// of different sizes, and a `--profile sweep` of the first. The first drive's page shows
/// its cache size, the after-cache rate and both charts; compare's Sustained view sets
/// the two drives side by side with a line each. Root only (loop devices, control
/// groups), as `cargo xtask test` runs it.
pub async fn drives_measured_for_their_cache_show_burst_and_sustained(w: &World) -> Result<()> {
    let root = Command::new("id").arg("-u").output()?.stdout.starts_with(b"0\n");
    ensure!(
        root,
        "this walk needs root (loop devices, block-I/O control groups): run it as `cargo xtask test` does"
    );
    let mut pages = Vec::new();
    for (name, cache_mib) in [("E2E Cache Disk", CACHE_A_MIB), ("E2E Cache Disk B", CACHE_A_MIB / 2)] {
        let disk = LoopExt4::make_sized(&w.tmp.path().join(name.replace(' ', "-")), 1024)?;
        let cached = CachedDevice::new(&disk, cache_mib << 20)?;
        let tags =
            format!("--tag vendor=SSDBase --tag 'model={name}' --tag capacity_gb=1 --submit {}", w.base);
        let bench = format!("{} bench {}", ssdbase_bin()?.display(), disk.mount.display());
        let stdout = cached.run(&format!("{bench} --profile cache --size 768MiB --idle 2 {tags}"))?;
        for test in ["SEQ 1MiB Q8T1 write", "RND 4KiB Q32T1 write"] {
            ensure!(
                stdout.contains(&format!("Write cache ({test}, first write): 0.")),
                "the runner reports the cache of {test}: {stdout}"
            );
        }
        if pages.is_empty() {
            cached.run(&format!("{bench} --profile sweep --size 32MiB --max-qd 4 --time 1 {tags}"))?;
        }
        let page = stdout
            .lines()
            .find_map(|l| l.strip_prefix("Its drive's page: ").map(str::to_string))
            .with_context(|| format!("no drive page in: {stdout}"))?;
        pages.push(page);
    }

    w.open(&pages[0]).await?;
    w.wait("table.sustained").await?;
    w.wait("figure.sustained-chart img").await?;
    let text = w.body_text().await?;
    for expected in ["Burst and sustained", "SEQ 1MiB Q8T1 write", "After cache", "Cache (GiB)", "(n=1)"] {
        ensure!(text.contains(expected), "the drive page lacks {expected:?}: {text}");
    }
    // The cache's size as measured, as the API and the page say it.
    let cache_gib = CACHE_A_MIB as f64 / 1024.0;
    let id = |page: &str| page.rsplit('/').next().unwrap_or_default().to_string();
    let (a, b) = (id(&pages[0]), id(&pages[1]));
    let answer: serde_json::Value = serde_json::from_str(
        &ureq::get(&format!("{}/api/v1/compare/sustained?drives={a}", w.base))
            .call()?
            .body_mut()
            .read_to_string()?,
    )?;
    let row_of = |test: &str| {
        answer["rows"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["test"] == test)
            .cloned()
            .context(format!("a row of {test}: {answer}"))
    };
    // The random writes' cache, measured separately, is the same device's.
    let random = row_of("RND 4KiB Q32T1 write")?;
    let random_gib = random["cache_gib"]["median"].as_f64().context("a random-write cache size")?;
    ensure!(
        (random_gib / cache_gib - 1.0).abs() <= 0.10,
        "random-write cache {random_gib} GiB against {cache_gib}: {random}"
    );
    let row = &row_of("SEQ 1MiB Q8T1 write")?;
    let gib = row["cache_gib"]["median"].as_f64().context("a cache size")?;
    ensure!((gib / cache_gib - 1.0).abs() <= 0.10, "cache {gib} GiB against {cache_gib}: {row}");
    println!(
        "FIGURE e2e cache drive: cache {gib:.3} GiB against {cache_gib} ({:+.1} %), random writes' {random_gib:.3} GiB ({:+.1} %)",
        (gib / cache_gib - 1.0) * 100.0,
        (random_gib / cache_gib - 1.0) * 100.0
    );
    let after = row["after_cache"]["median"].as_f64().context("an after-cache rate")?;
    ensure!((after / 40.0 - 1.0).abs() <= 0.10, "after-cache {after} MB/s against 40: {row}");
    for shown in [
        format!("{} (n=1)", charts::format_value(gib)),
        format!("{} MB/s (n=1)", charts::format_value(after)),
    ] {
        ensure!(text.contains(&shown), "the drive page shows {shown:?}: {text}");
    }
    ensure!(
        images_loaded(w, "figure.sustained-chart img").await? >= 2,
        "the write-saturation and sweep charts drew"
    );
    w.shot("drive-burst-and-sustained").await?;

    // Compare: the Sustained view of both drives, one line each.
    w.open(&format!("{}/compare?drives={a},{b}", w.base)).await?;
    w.wait_xpath("//a[normalize-space()='Sustained']").await?.click().await?;
    w.wait("table.sustained").await?;
    ensure!(w.client.current_url().await?.as_str().contains("view=sustained"), "a permalink to the view");
    let text = w.body_text().await?;
    ensure!(text.contains(&a) && text.contains(&b), "both drives in the table: {text}");
    ensure!(images_loaded(w, "figure.sustained-chart img").await? >= 2, "the charts drew");
    let svg = ureq::get(&format!("{}/api/v1/compare/sustained.svg?drives={a},{b}&chart=saturation", w.base))
        .call()?
        .body_mut()
        .read_to_string()?;
    ensure!(
        svg.contains(&format!("{a} · result")) && svg.contains(&format!("{b} · result")),
        "a line per drive"
    );
    w.shot("compare-sustained").await?;

    // The leaderboard of the after-cache rate, and below it the caches ranked: the
    // larger cache above the other.
    let test = "fio SEQ 1MiB Q8T1 write after cache";
    w.open(&format!("{}/leaderboard?test={}&min_results=1", w.base, test.replace(' ', "%20"))).await?;
    w.wait("table.cache").await?;
    let ranked: Vec<String> = w
        .client
        .execute("return [...document.querySelectorAll('table.cache tbody th a')].map(a => a.getAttribute('href'));", vec![])
        .await?
        .as_array()
        .context("the cache table's drive links")?
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    ensure!(ranked == [format!("/drives/{a}"), format!("/drives/{b}")], "the larger cache first: {ranked:?}");
    w.shot("leaderboard-write-cache").await?;

    // When the first curve chart is there after navigating to the view: the chart's
    // image received (its resource timing's responseEnd, ms from navigation start) and
    // decoded. Five navigations; the first with this browser's cache cold for the chart.
    let mut times = Vec::new();
    for _ in 0..5 {
        w.open(&format!("{}/compare?drives={a},{b}&view=sustained", w.base)).await?;
        w.wait("figure.sustained-chart img").await?;
        ensure!(images_loaded(w, "figure.sustained-chart img").await? >= 1, "the chart drew");
        let ms = w
            .client
            .execute(
                "const e = performance.getEntriesByType('resource').filter(r => r.name.includes('/compare/sustained.svg')); \
                 return e.length ? Math.min(...e.map(r => r.responseEnd)) : null;",
                vec![],
            )
            .await?
            .as_f64()
            .context("the chart's resource timing")?;
        times.push(ms);
    }
    let first = times[0];
    times.sort_by(f64::total_cmp);
    println!(
        "FIGURE time to first compare curve chart (Sustained view, loopback): first {first:.0} ms, median of 5 {:.0} ms, \
         range {:.0}-{:.0} ms",
        times[2], times[0], times[4]
    );
    Ok(())
}

/// How many of the images `css` finds have loaded (a natural width), once all settled.
/// Each is scrolled into view first, as a reader would: they load lazily.
async fn images_loaded(w: &World, css: &str) -> Result<usize> {
    w.client
        .execute(
            "document.querySelectorAll(arguments[0]).forEach(i => i.scrollIntoView());",
            vec![serde_json::json!(css)],
        )
        .await?;
    for _ in 0..100 {
        let state = w
            .client
            .execute(
                "const imgs = [...document.querySelectorAll(arguments[0])]; \
                 return [imgs.filter(i => i.complete).length, imgs.filter(i => i.naturalWidth > 0).length, imgs.length];",
                vec![serde_json::json!(css)],
            )
            .await?;
        let n = |i: usize| state[i].as_u64().unwrap_or(0) as usize;
        if n(0) == n(2) {
            return Ok(n(1));
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    anyhow::bail!("the images {css} did not finish loading")
}

/// A loop device whose writes behave like a drive's write cache, for the commands run
/// through [`CachedDevice::run`]: they run in a block-I/O control group (cgroup v1)
/// whose write limit a thread lowers from 150 to 40 MB/s once the group has written
/// `cache_bytes` to the device (its own counter), and restores after a second without
/// writes. Removed when dropped.
struct CachedDevice {
    group: std::path::PathBuf,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl CachedDevice {
    const FAST: u64 = 150_000_000;
    const SLOW: u64 = 40_000_000;

    fn new(disk: &LoopExt4, cache_bytes: u64) -> Result<CachedDevice> {
        use std::sync::atomic::Ordering;
        let device = disk.device.as_ref().context("a loop device")?;
        let name =
            std::path::Path::new(device).file_name().context("a device name")?.to_string_lossy().into_owned();
        let dev = std::fs::read_to_string(format!("/sys/block/{name}/dev"))?.trim().to_string();
        let v1 = std::path::Path::new("/sys/fs/cgroup/blkio");
        ensure!(
            v1.join("blkio.throttle.write_bps_device").exists(),
            "this walk needs cgroup v1's blkio controller"
        );
        let group = v1.join(format!("ssdbase-e2e-cache-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&group)?;
        let limit = group.join("blkio.throttle.write_bps_device");
        std::fs::write(&limit, format!("{dev} {}", Self::FAST))?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopping = stop.clone();
        let counter = group.join("blkio.throttle.io_service_bytes");
        let thread = std::thread::spawn(move || {
            let written = || {
                std::fs::read_to_string(&counter)
                    .unwrap_or_default()
                    .lines()
                    .filter_map(|l| {
                        let mut w = l.split_whitespace();
                        (w.next() == Some(dev.as_str()) && w.next() == Some("Write"))
                            .then(|| w.next()?.parse::<u64>().ok())
                            .flatten()
                    })
                    .sum::<u64>()
            };
            let (mut base, mut full) = (written(), false);
            let (mut last, mut since) = (base, std::time::Instant::now());
            while !stopping.load(Ordering::SeqCst) {
                let now = written();
                if now != last {
                    (last, since) = (now, std::time::Instant::now());
                }
                if !full && now - base >= cache_bytes {
                    let _ = std::fs::write(&limit, format!("{dev} {}", Self::SLOW));
                    full = true;
                } else if full && since.elapsed() >= std::time::Duration::from_secs(1) {
                    let _ = std::fs::write(&limit, format!("{dev} {}", Self::FAST));
                    (full, base) = (false, now);
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        });
        Ok(CachedDevice { group, stop, thread: Some(thread) })
    }

    /// Runs `command` (sh) inside the group; its stdout, or why it failed.
    fn run(&self, command: &str) -> Result<String> {
        let procs = self.group.join("cgroup.procs");
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("echo $$ > '{}' && exec {command}", procs.display()))
            .output()?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        ensure!(out.status.success(), "{command}\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        Ok(stdout)
    }
}

impl Drop for CachedDevice {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_dir(&self.group);
    }
}
