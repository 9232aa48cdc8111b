//! What the runner's tests share: scratch directories, loop-device filesystems (root
//! only), fio run directly on a job file and beside the runner, a throttled control group
//! (root only) for a device of steady speed, and a lock so only one fio runs at a time.

#![allow(dead_code, reason = "each test binary uses part of it")]

use runner::{Figures, Plan, Profile, Target};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};
use tempfile::TempDir;

/// fio runs one at a time: two benchmarks at once would measure each other.
pub fn fio_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The first line of a test marked `#[ignore = "needs root: ..."]`: run without root
/// (`cargo test -- --ignored` as a user), it fails saying why instead of failing later
/// on `losetup` or `mount`, or passing without having run.
pub fn needs_root() {
    assert!(
        is_root(),
        "this test needs root (loop devices, mounts, control groups): run it as root, as `cargo xtask test` does"
    );
}

/// A fresh directory under the system's temp directory, removed with everything in it
/// when dropped (on a panic too).
pub fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("runner-test-{name}-")).tempdir().unwrap()
}

pub fn sh(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A loop device over a file in a scratch directory, detached when dropped.
pub struct LoopDevice {
    pub device: PathBuf,
    pub scratch: TempDir,
}

impl LoopDevice {
    pub fn new(mib: u64) -> LoopDevice {
        let scratch = scratch("loop");
        let image = scratch.path().join("image");
        let file = fs::File::create(&image).unwrap();
        file.set_len(mib << 20).unwrap();
        drop(file);
        let device = PathBuf::from(sh("losetup", &["-f", "--show", image.to_str().unwrap()]));
        LoopDevice { device, scratch }
    }

    pub fn image(&self) -> PathBuf {
        self.scratch.path().join("image")
    }
}

impl Drop for LoopDevice {
    fn drop(&mut self) {
        let _ = Command::new("losetup").arg("-d").arg(&self.device).status();
    }
}

/// An ext4 filesystem on a loop device, mounted on a scratch directory; unmounted and
/// detached when dropped (fields drop in order: the mount, then the device).
pub struct LoopFs {
    pub mount_point: PathBuf,
    mounted: bool,
    pub device: LoopDevice,
}

impl LoopFs {
    pub fn new(mib: u64) -> LoopFs {
        LoopFs::with_options(mib, "rw")
    }

    pub fn with_options(mib: u64, options: &str) -> LoopFs {
        let device = LoopDevice::new(mib);
        // No reserved blocks, so "free" is what a file can take.
        sh("mkfs.ext4", &["-q", "-m", "0", device.device.to_str().unwrap()]);
        let mount_point = device.scratch.path().join("mnt");
        fs::create_dir(&mount_point).unwrap();
        sh("mount", &["-o", options, device.device.to_str().unwrap(), mount_point.to_str().unwrap()]);
        LoopFs { mount_point, mounted: true, device }
    }

    /// `umount -l`: the path is gone at once, the filesystem lives on while files are open.
    pub fn detach_lazily(&mut self) {
        sh("umount", &["-l", self.mount_point.to_str().unwrap()]);
        self.mounted = false;
    }

    pub fn unmount(&mut self) {
        if self.mounted {
            sh("umount", &[self.mount_point.to_str().unwrap()]);
            self.mounted = false;
        }
    }
}

impl Drop for LoopFs {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount").arg(&self.mount_point).status();
        }
    }
}

/// A mount of another kind (tmpfs, a read-only bind), unmounted when dropped.
pub struct Mounted {
    pub path: PathBuf,
    _scratch: TempDir,
}

impl Mounted {
    pub fn new(name: &str, args: &[&str]) -> Mounted {
        let scratch = scratch(name);
        let path = scratch.path().join("mnt");
        fs::create_dir(&path).unwrap();
        let mut all: Vec<&str> = args.to_vec();
        all.push(path.to_str().unwrap());
        sh("mount", &all);
        Mounted { path, _scratch: scratch }
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

/// Test files the runner left in `dir` (there must be none).
pub fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("ssdbase-bench") || n.starts_with(".ssdbase-bench"))
                .collect()
        })
        .unwrap_or_default()
}

/// A quick plan: small file, one short pass, no pause, the page cache left alone (the
/// machine runs other benchmarks).
pub fn quick_plan(target: Target, profile: Profile) -> Plan {
    let mut plan = Plan::new(target, profile);
    plan.size_bytes = 16 << 20;
    plan.passes = 1;
    plan.measure_secs = 1;
    plan.interval_secs = 0;
    plan.flush_page_cache = false;
    plan
}

/// Runs fio on a job file (stdin), as a person would with the stored job file: its JSON.
/// At the runner's own priority, so that the two sides of a comparison run alike.
pub fn fio_json(job_file: &str) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new("fio")
        .args(["--output-format=json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("fio on PATH");
    child.stdin.take().unwrap().write_all(job_file.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "fio: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// [`fio_json`], with the figures read from its JSON directly (not through the runner's
/// or bench's code).
pub fn fio_direct(job_file: &str) -> Figures {
    let json: serde_json::Value = serde_json::from_slice(&fio_json(job_file)).unwrap();
    let job = &json["jobs"][0];
    let dir =
        if job["write"]["io_bytes"].as_f64().unwrap_or(0.0) > 0.0 { &job["write"] } else { &job["read"] };
    Figures {
        mbps: dir["bw_bytes"].as_f64().unwrap() / 1e6,
        iops: dir["iops"].as_f64().unwrap(),
        latency_us: dir["clat_ns"]["mean"].as_f64().unwrap() / 1000.0,
    }
}

/// A job file with its `filename=` pointed elsewhere.
pub fn with_filename(job_file: &str, filename: &Path) -> String {
    job_file
        .lines()
        .map(|l| {
            if l.starts_with("filename=") {
                format!("filename={}", filename.display())
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// fio's job processes (its children) now.
pub fn fio_jobs(fio_pid: u32) -> Vec<u32> {
    fs::read_to_string(format!("/proc/{fio_pid}/task/{fio_pid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Whether a process is gone (or a zombie waiting for init: it runs no more I/O).
pub fn gone(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rfind(')').is_some_and(|i| stat[i + 2..].starts_with('Z')),
    }
}

/// A plan whose first random read test runs a few seconds (256 MiB at queue depth 1 is
/// more than 3 s of 4 KiB reads here), so that a test can act while fio's jobs run.
pub fn long_plan(target: Target) -> Plan {
    let mut plan = quick_plan(target, "kdiskmark-real".parse().unwrap());
    plan.size_bytes = 256 << 20;
    plan.measure_secs = 3;
    plan
}

/// Whether this progress report is a tick (fio running for a second) of the random read.
pub fn random_read_running(p: &runner::Progress) -> bool {
    p.phase == runner::Phase::Measuring
        && p.test == "RND4K Q1T1"
        && p.op == Some(bench::Op::Read)
        && p.fio_pid.is_some_and(|pid| !fio_jobs(pid).is_empty())
}

/// One figure of a pass, read out of its [`Figures`].
pub type Figure = fn(&Figures) -> f64;

/// Each figure a pass reports, named, as the comparisons print them.
pub const FIGURES: [(&str, Figure); 3] =
    [("MB/s", |x| x.mbps), ("IOPS", |x| x.iops), ("latency µs", |x| x.latency_us)];

/// The figures of one test and operation, keyed as `(test, op)`: `("SEQ1M Q8T1", "Read")`.
pub type Key = (String, String);

/// A job's key in [`Sides`].
fn key(job: &runner::JobRecord) -> Key {
    (job.test.clone(), format!("{:?}", job.op))
}

/// Each side's figures, by test and operation, one per round.
pub struct Sides {
    /// What the runner reports (its result's metrics, the figures it would upload).
    pub runner: BTreeMap<Key, Vec<Figures>>,
    /// fio run directly on the runner's job files (prepare, warm-up, pass), read from
    /// fio's JSON by [`fio_direct`].
    pub fio: BTreeMap<Key, Vec<Figures>>,
}

/// `rounds` runs of `plan` (a directory target) and as many of fio on the same job files
/// in `dir`, interleaved (runner, fio, fio, runner, ...) so both share the machine's load.
pub fn interleaved(plan: &Plan, dir: &Path, rounds: usize) -> Sides {
    let mut sides = Sides { runner: BTreeMap::new(), fio: BTreeMap::new() };
    let mut first: Option<runner::Run> = None;
    for round in 0..rounds {
        let runner_first = round % 2 == 0;
        for turn in 0..2 {
            if (turn == 0) == runner_first {
                let run = runner::run(plan, &mut |_| {}, &AtomicBool::new(false)).unwrap();
                assert_eq!(run.jobs.len(), run.result.metrics.len());
                for (job, metric) in run.jobs.iter().zip(&run.result.metrics) {
                    assert_eq!(job.op, metric.op, "{}", metric.label);
                    let reported = Figures {
                        mbps: metric.mbps.expect("MB/s"),
                        iops: metric.iops.expect("IOPS"),
                        latency_us: metric.latency_us.expect("latency"),
                    };
                    sides.runner.entry(key(job)).or_default().push(reported);
                }
                first.get_or_insert(run);
            } else {
                let run = first.as_ref().expect("the runner goes first in round 0");
                let file = dir.join("direct-fio.tmp");
                fio_direct(&with_filename(
                    run.prepare_job_file.as_deref().expect("a burst run prepares"),
                    &file,
                ));
                for job in &run.jobs {
                    if let Some(warm_up) = &job.warm_up_job_file {
                        fio_direct(&with_filename(warm_up, &file));
                    }
                    let figures = fio_direct(&with_filename(&job.job_file, &file));
                    sides.fio.entry(key(job)).or_default().push(figures);
                }
                fs::remove_file(&file).unwrap();
            }
        }
    }
    assert!(leftovers(dir).is_empty());
    sides
}

/// Limits on a device's speed for the processes of one control group.
#[derive(Clone, Copy)]
pub struct Limits {
    /// Bytes per second, reading and writing alike.
    pub bytes_per_sec: u64,
    /// Operations per second, reading and writing alike.
    pub ops_per_sec: u64,
}

/// This process (and every fio it starts) moved into a new block-I/O control group that
/// caps the speed of the devices under some directories: a device whose speed is the
/// kernel's throttle, steady to about 1 % from run to run, where this VM's own disks
/// vary by 10-25 %. Moved back and removed when dropped.
///
/// cgroup v1's `blkio.throttle.*` or v2's `io.max`, whichever this kernel mounts.
pub struct Throttle {
    group: PathBuf,
    back_to: PathBuf,
    /// `major:minor` of each throttled device.
    devices: Vec<String>,
    /// cgroup v1's blkio controller (else v2's io controller).
    v1: bool,
}

impl Throttle {
    pub fn new(dirs: &[&Path], limits: Limits) -> Result<Throttle, String> {
        let devices: Vec<String> = dirs.iter().map(|d| whole_device(d)).collect::<Result<_, _>>()?;
        let own = fs::read_to_string("/proc/self/cgroup").map_err(|e| format!("/proc/self/cgroup: {e}"))?;
        let v1 = Path::new("/sys/fs/cgroup/blkio");
        let v2 = Path::new("/sys/fs/cgroup");
        let name = format!("ssdbase-runner-test-{}", std::process::id());
        let (b, o) = (limits.bytes_per_sec, limits.ops_per_sec);
        let write = |path: PathBuf, text: &str| {
            fs::write(&path, text).map_err(|e| format!("{}: writing {text:?}: {e}", path.display()))
        };
        let (group, back_to) = if v1.join("blkio.throttle.read_bps_device").exists() {
            let current = own.lines().find_map(|l| l.split_once(":blkio:").map(|(_, p)| p)).unwrap_or("/");
            let group = v1.join(&name);
            fs::create_dir_all(&group).map_err(|e| format!("{}: {e}", group.display()))?;
            for device in &devices {
                write(group.join("blkio.throttle.read_bps_device"), &format!("{device} {b}"))?;
                write(group.join("blkio.throttle.write_bps_device"), &format!("{device} {b}"))?;
                write(group.join("blkio.throttle.read_iops_device"), &format!("{device} {o}"))?;
                write(group.join("blkio.throttle.write_iops_device"), &format!("{device} {o}"))?;
            }
            (group, v1.join(current.trim_start_matches('/')))
        } else if fs::read_to_string(v2.join("cgroup.controllers"))
            .is_ok_and(|c| c.split_whitespace().any(|c| c == "io"))
        {
            let current = own.lines().find_map(|l| l.strip_prefix("0::")).unwrap_or("/");
            write(v2.join("cgroup.subtree_control"), "+io")?;
            let group = v2.join(&name);
            fs::create_dir_all(&group).map_err(|e| format!("{}: {e}", group.display()))?;
            for device in &devices {
                write(group.join("io.max"), &format!("{device} rbps={b} wbps={b} riops={o} wiops={o}"))?;
            }
            (group, v2.join(current.trim_start_matches('/')))
        } else {
            return Err(
                "this kernel mounts neither cgroup v1's blkio controller nor v2's io controller".into()
            );
        };
        write(group.join("cgroup.procs"), &std::process::id().to_string())?;
        let v1 = group.starts_with(v1);
        Ok(Throttle { group, back_to, devices, v1 })
    }

    /// Sets new write limits (reads keep theirs); they apply to I/O still queued too.
    pub fn set_write(&self, limits: Limits) {
        let (b, o) = (limits.bytes_per_sec, limits.ops_per_sec);
        for device in &self.devices {
            if self.v1 {
                fs::write(self.group.join("blkio.throttle.write_bps_device"), format!("{device} {b}"))
                    .unwrap();
                fs::write(self.group.join("blkio.throttle.write_iops_device"), format!("{device} {o}"))
                    .unwrap();
            } else {
                fs::write(self.group.join("io.max"), format!("{device} wbps={b} wiops={o}")).unwrap();
            }
        }
    }

    /// Bytes this group has written to the throttled devices, as the kernel counts them
    /// (v1 `blkio.throttle.io_service_bytes`, v2 `io.stat`).
    pub fn written_bytes(&self) -> u64 {
        let file = if self.v1 { "blkio.throttle.io_service_bytes" } else { "io.stat" };
        let text = fs::read_to_string(self.group.join(file)).unwrap_or_default();
        text.lines()
            .filter(|l| self.devices.iter().any(|d| l.starts_with(&format!("{d} "))))
            .filter_map(|l| {
                let mut words = l.split_whitespace().skip(1);
                if self.v1 {
                    (words.next() == Some("Write")).then(|| words.next()?.parse::<u64>().ok()).flatten()
                } else {
                    words.find_map(|w| w.strip_prefix("wbytes=")?.parse().ok())
                }
            })
            .sum()
    }
}

/// A throttled device that behaves like a drive with a write cache: writes run at
/// `fast` until `cache_bytes` have been written, then at `slow`; after `refill` without
/// writes the cache is empty again (the whole of it). A thread reads the group's own
/// byte counter every 5 ms and lowers or restores the limit.
pub struct CacheDevice {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl CacheDevice {
    pub fn new(
        throttle: std::sync::Arc<Throttle>,
        cache_bytes: u64,
        fast: Limits,
        slow: Limits,
        refill: std::time::Duration,
    ) -> CacheDevice {
        use std::sync::atomic::Ordering;
        use std::time::{Duration, Instant};
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopping = stop.clone();
        throttle.set_write(fast);
        let thread = std::thread::spawn(move || {
            let mut base = throttle.written_bytes();
            let (mut last, mut last_change) = (base, Instant::now());
            let mut full = false;
            while !stopping.load(Ordering::SeqCst) {
                let now = throttle.written_bytes();
                if now != last {
                    (last, last_change) = (now, Instant::now());
                }
                if !full && now - base >= cache_bytes {
                    throttle.set_write(slow);
                    full = true;
                } else if full && last_change.elapsed() >= refill {
                    throttle.set_write(fast);
                    full = false;
                    base = now;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        CacheDevice { stop, thread: Some(thread) }
    }
}

impl Drop for CacheDevice {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Throttle {
    fn drop(&mut self) {
        let _ = fs::write(self.back_to.join("cgroup.procs"), std::process::id().to_string());
        let _ = fs::remove_dir(&self.group);
    }
}

/// `major:minor` of the whole disk holding `dir` (throttles apply to disks, not partitions).
fn whole_device(dir: &Path) -> Result<String, String> {
    use std::os::unix::fs::MetadataExt;
    let dev = fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?.dev();
    let node = format!("{}:{}", rustix::fs::major(dev), rustix::fs::minor(dev));
    let sys = Path::new("/sys/dev/block").join(&node);
    if !sys.join("partition").exists() {
        return Ok(node);
    }
    let disk = fs::canonicalize(&sys).map_err(|e| format!("{}: {e}", sys.display()))?;
    let parent = disk.parent().ok_or_else(|| format!("{}: no parent disk", disk.display()))?;
    fs::read_to_string(parent.join("dev"))
        .map(|d| d.trim().to_string())
        .map_err(|e| format!("{}: {e}", parent.display()))
}
