//! `ssdbase bench`'s engine: KDiskMark's and CrystalDiskMark 8's tests run through fio,
//! read back as a [`bench::BenchResult`] that pools with KDiskMark uploads.
//!
//! fio does every I/O; this crate writes its job files ([`jobfile`]), runs it once per
//! test and pass ([`fio`]), reads its JSON with `bench`'s fio parser ([`figures`]), and
//! keeps the target safe ([`target`]: refusals before anything is written, a test file
//! removed whatever happens). Synchronous, `std::process` only.
//!
//! # The result
//! * `tool`: [`bench::Tool::Fio`] — the numbers are fio's, so the family is
//!   [`bench::ToolFamily::Fio`], the family KDiskMark uploads have: equal tests get equal
//!   `TestKey`s and pool. `tool_version` and `engine`: fio's `--version` (`fio-3.33`),
//!   `tool_version` as the fio JSON parser records it for an uploaded fio run.
//! * `profile`: the test set, e.g. `KDiskMark Default`, `CrystalDiskMark 8 Peak (NVMe
//!   SSD)`; with ` [buffered]` appended when fio ran with `direct=0` (see [`Plan::buffered`]).
//! * `comment`: `ioengine=libaio, direct=1` as the fio parser writes it (`direct=0` when
//!   buffered), then the method: passes, seconds per pass, how passes were combined.
//! * metrics: labelled as the program's export labels its rows once parsed
//!   (`Read Sequential 1 MiB (Q= 8, T= 1)`, `Write RND 4KiB (Q= 32, T=16)`).
//!
//! # Where the figures differ from KDiskMark's own
//! * MB/s is fio's `bw_bytes` / 10^6, decimal MB/s as [`bench::Metric::mbps`] is defined.
//!   KDiskMark divides fio's `bw` (KiB/s) by 1000 (benchmark.cpp:163 and 168), so its
//!   "MB/s" is 1.024/1.048576 = 0.977 of that: 2.3 % lower for the same run (its README
//!   example: 497.0 IOPS of 1 MiB printed as 508.897 MB/s, not 521.1).
//! * Latency is fio's mean completion latency (`clat_ns`), as KDiskMark since 80465b8
//!   (May 2025); earlier KDiskMark versions printed total latency (`lat_ns`).
//! * Threads are reported together (`group_reporting`), as KDiskMark since 56e0ce2
//!   (June 2026); earlier versions printed the first job's share of a T16 test.

mod error;
mod figures;
mod fio;
mod jobfile;
mod load;
mod profiles;
mod target;

pub use error::RunError;
pub use figures::{cdm_table, Figures};
pub use load::{check_load, load_report, run_load, LoadPlan, LoadProfile};
pub use profiles::{Aggregation, Method, Preset, Profile, Set, TestSpec, UnknownProfile};
pub use target::{available_bytes, Target};

use bench::{BenchResult, DataPattern, Metric, Op, Tool};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * MIB;
/// KDiskMark's smallest and largest test file (mainwindow.cpp:346-352: 16 MiB … 64 GiB).
pub const MIN_SIZE: u64 = 16 * MIB;
pub const MAX_SIZE: u64 = 64 * GIB;
/// KDiskMark's loop count spin box, 1 to 9 (mainwindow.ui:127-132).
pub const MAX_PASSES: u32 = 9;

/// What to run, where and how.
#[derive(Debug, Clone)]
pub struct Plan {
    pub target: Target,
    pub profile: Profile,
    /// The test file's size (or the device region's): whole MiB, 16 MiB to 64 GiB.
    pub size_bytes: u64,
    /// 1 to 9.
    pub passes: u32,
    /// `Random` (fio's random buffers, filled once: `refill_buffers=0`) or `ZeroFill`
    /// (`zero_buffers=1`).
    pub pattern: DataPattern,
    /// Through the page cache (`direct=0`). Required where O_DIRECT is impossible or
    /// meaningless (tmpfs). The result says so: `[buffered]` at the end of its profile and
    /// `direct=0` in its comment; keep such results out of direct-I/O comparisons.
    pub buffered: bool,
    /// Required for a [`Target::Device`]: its first `size_bytes` are overwritten.
    pub destructive: bool,
    /// Seconds per pass (KDiskMark's "measuring time", default 5: appsettings.cpp:176-179;
    /// CrystalDiskMark's `MeasureTime`, default 5: DiskMarkDlg.cpp:1124).
    pub measure_secs: u32,
    /// Pause between tests (default 5: appsettings.cpp:191-194; DiskMarkDlg.cpp:1138).
    pub interval_secs: u32,
    /// Drop the page cache before every pass, as KDiskMark does by default
    /// (`flushPageCache`, benchmark.cpp:62-64, helper.cpp:257-262; appsettings.cpp:247-250).
    /// Needs root; skipped otherwise. It empties the whole machine's page cache.
    pub flush_page_cache: bool,
}

impl Plan {
    /// KDiskMark's defaults: 1 GiB (appsettings.cpp:161-164), 5 passes
    /// (appsettings.cpp:146-149), random data (appsettings.cpp:131-134), direct I/O,
    /// 5 s measure and interval, page cache flushed.
    pub fn new(target: Target, profile: Profile) -> Plan {
        Plan {
            target,
            profile,
            size_bytes: GIB,
            passes: 5,
            pattern: DataPattern::Random,
            buffered: false,
            destructive: false,
            measure_secs: 5,
            interval_secs: 5,
            flush_page_cache: true,
        }
    }
}

/// `64MiB`, `1GiB`, `512M`, `4G` (binary units, as KDiskMark's and CrystalDiskMark's
/// menus; a bare number is MiB). Refuses sizes outside 16 MiB – 64 GiB.
pub fn parse_size(text: &str) -> Result<u64, RunError> {
    let size = parse_binary_size(text)?;
    check_size(size)?;
    Ok(size)
}

/// How much the cache test writes: as [`parse_size`], `TiB` too, 16 MiB to 16 TiB.
pub fn parse_span(text: &str) -> Result<u64, RunError> {
    let size = parse_binary_size(text)?;
    if !(MIN_SIZE..=16 << 40).contains(&size) {
        return Err(RunError::Size {
            size: text.to_string(),
            reason: "the cache test writes 16 MiB to 16 TiB".into(),
        });
    }
    Ok(size)
}

fn parse_binary_size(text: &str) -> Result<u64, RunError> {
    let bad = |reason: &str| RunError::Size { size: text.to_string(), reason: reason.to_string() };
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let number: u64 =
        number.parse().map_err(|_| bad("expected a number and MiB or GiB, e.g. 64MiB, 1GiB"))?;
    let unit = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "m" | "mib" => MIB,
        "g" | "gib" => GIB,
        "t" | "tib" => 1024 * GIB,
        _ => return Err(bad("expected a number and MiB or GiB, e.g. 64MiB, 1GiB")),
    };
    number.checked_mul(unit).ok_or_else(|| bad("too large"))
}

fn check_size(size: u64) -> Result<(), RunError> {
    let bad = |reason: &str| RunError::Size { size: format!("{size} bytes"), reason: reason.to_string() };
    if !size.is_multiple_of(MIB) {
        return Err(bad("must be whole MiB (fio is given it as `size=<n>m`)"));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(bad("must be 16 MiB to 64 GiB"));
    }
    Ok(())
}

/// The fio on PATH, as `fio --version` prints it (`fio-3.33`), or why there is none.
pub fn fio_version() -> Result<String, RunError> {
    fio::version(&fio::locate()?)
}

/// Every refusal, before anything is written: the plan's numbers, fio, the target.
pub fn check(plan: &Plan) -> Result<(), RunError> {
    checked(plan).map(|_| ())
}

/// [`check`], answering fio's path and version.
fn checked(plan: &Plan) -> Result<(PathBuf, String), RunError> {
    check_plan(plan)?;
    let fio = fio::locate()?;
    let version = fio::version(&fio)?;
    match &plan.target {
        Target::Dir(dir) => target::check_dir(dir, plan.size_bytes, plan.buffered)?,
        Target::Device(dev) => target::check_device(dev, plan.size_bytes, plan.destructive, plan.buffered)?,
    }
    Ok((fio, version))
}

fn check_plan(plan: &Plan) -> Result<(), RunError> {
    if !(1..=MAX_PASSES).contains(&plan.passes) {
        return Err(RunError::Passes(plan.passes));
    }
    check_size(plan.size_bytes)?;
    if !matches!(plan.pattern, DataPattern::Random | DataPattern::ZeroFill) {
        return Err(RunError::Pattern(plan.pattern));
    }
    if !(1..=600).contains(&plan.measure_secs) || plan.interval_secs > 600 {
        return Err(RunError::Times { measure: plan.measure_secs, interval: plan.interval_secs });
    }
    Ok(())
}

/// What is happening now, for a progress line.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub phase: Phase,
    /// `SEQ1M Q8T1`; empty while preparing.
    pub test: String,
    /// Read or write; `None` while preparing.
    pub op: Option<Op>,
    /// 1-based; 0 during the warm-up, the interval and preparing.
    pub pass: u32,
    pub passes: u32,
    /// fio runs finished and planned (preparing, warm-ups and passes).
    pub runs_done: usize,
    pub runs_total: usize,
    /// Estimated time left, scaled by how long finished runs took against their plan.
    pub remaining: Duration,
    /// The running fio's process id.
    pub fio_pid: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Writing the test data.
    Preparing,
    /// CrystalDiskMark's uncounted pass before a test.
    WarmUp,
    Measuring,
    /// The pause between tests.
    Interval,
}

/// One test and operation as run: its job file and each pass's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JobRecord {
    /// `SEQ1M Q8T1`.
    pub test: String,
    pub op: Op,
    /// The job file of each counted pass (all passes run the same one).
    pub job_file: String,
    /// The warm-up pass's job file (CrystalDiskMark's method only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_up_job_file: Option<String>,
    pub passes: Vec<Figures>,
}

/// A finished benchmark.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub result: BenchResult,
    /// `fio --version`, e.g. `fio-3.33`.
    pub fio_version: String,
    /// The job that wrote the test data (none for the cache test: its measured write is
    /// the first).
    pub prepare_job_file: Option<String>,
    pub jobs: Vec<JobRecord>,
}

/// Runs `plan`. `progress` is called when each fio run starts (with its pid) and about
/// once a second meanwhile; setting `cancel` (e.g. from a SIGINT handler) stops the run
/// within a few tens of milliseconds with [`RunError::Cancelled`]. The test file is
/// removed in every case.
pub fn run(plan: &Plan, progress: &mut dyn FnMut(&Progress), cancel: &AtomicBool) -> Result<Run, RunError> {
    let (fio, fio_version) = checked(plan)?;

    // Held until the end of this function: dropping it removes the file.
    let test_file = match &plan.target {
        Target::Dir(dir) => Some(target::TestFile::create(dir)?),
        Target::Device(_) => None,
    };
    let filename: PathBuf = match &test_file {
        Some(f) => f.path().to_path_buf(),
        None => plan.target.path().to_path_buf(),
    };
    let mut runner = Runner::new(plan, &fio, &filename, progress, cancel);

    let device = matches!(plan.target, Target::Device(_));
    let prepare_job_file =
        jobfile::prepare_job(&filename, plan.size_bytes, plan.pattern, device, plan.buffered);
    runner.fio(&prepare_job_file, PREPARING, Phase::Preparing, None, 0, None)?;
    // From here on every fio must find this very file (fio's layout made it anew).
    runner.identity = Some(
        target::Identity::of(&filename)
            .ok_or_else(|| RunError::TargetVanished { test: PREPARING.into(), path: filename.clone() })?,
    );

    let mut jobs = Vec::new();
    for (i, (test, op)) in plan.profile.runs().into_iter().enumerate() {
        if i > 0 {
            runner.interval(test, op)?;
        }
        jobs.push(runner.test(test, op)?);
    }

    let result = build_result(plan, &fio_version, &jobs, runner.first_date.clone());
    drop(test_file);
    Ok(Run { result, fio_version, prepare_job_file: Some(prepare_job_file), jobs })
}

const PREPARING: &str = "preparing the test data";

/// The state of one run: what is done, for the progress estimate.
struct Runner<'a> {
    plan: &'a Plan,
    fio: &'a Path,
    filename: &'a Path,
    /// The test file or device, once prepared.
    identity: Option<target::Identity>,
    progress: &'a mut dyn FnMut(&Progress),
    cancel: &'a AtomicBool,
    runs_done: usize,
    runs_total: usize,
    /// Planned and actual seconds of the finished measuring runs.
    planned_done: f64,
    actual_done: f64,
    intervals_done: usize,
    first_date: Option<String>,
}

impl<'a> Runner<'a> {
    fn new(
        plan: &'a Plan,
        fio: &'a Path,
        filename: &'a Path,
        progress: &'a mut dyn FnMut(&Progress),
        cancel: &'a AtomicBool,
    ) -> Runner<'a> {
        let per_test = plan.passes as usize + usize::from(plan.profile.warm_up_secs() > 0);
        Runner {
            plan,
            fio,
            filename,
            identity: None,
            progress,
            cancel,
            runs_done: 0,
            runs_total: 1 + plan.profile.runs().len() * per_test,
            planned_done: 0.0,
            actual_done: 0.0,
            intervals_done: 0,
            first_date: None,
        }
    }

    fn test_name(test: TestSpec, op: Op) -> String {
        format!("{} {}", test.short_name(), if op == Op::Read { "read" } else { "write" })
    }

    /// Every pass of one test, after CrystalDiskMark's warm-up if the method has one.
    fn test(&mut self, test: TestSpec, op: Op) -> Result<JobRecord, RunError> {
        let plan = self.plan;
        let params = |runtime_secs| jobfile::JobParams {
            method: plan.profile.method,
            test,
            op,
            filename: self.filename,
            size_bytes: plan.size_bytes,
            pattern: plan.pattern,
            buffered: plan.buffered,
            runtime_secs,
        };
        let job_file = jobfile::test_job(&params(plan.measure_secs));
        let name = Self::test_name(test, op);
        let warm_up = plan.profile.warm_up_secs();
        let warm_up_job_file = (warm_up > 0).then(|| jobfile::test_job(&params(warm_up)));
        if let Some(job) = &warm_up_job_file {
            self.fio(job, &name, Phase::WarmUp, Some((test, op)), 0, Some(f64::from(warm_up)))?;
        }
        let mut passes = Vec::new();
        for pass in 1..=plan.passes {
            if plan.flush_page_cache {
                // Best effort, as KDiskMark: without root there is nothing to flush with.
                let _ = fs::write("/proc/sys/vm/drop_caches", "1");
            }
            let json = self.fio(
                &job_file,
                &name,
                Phase::Measuring,
                Some((test, op)),
                pass,
                Some(f64::from(plan.measure_secs)),
            )?;
            let figures = figures::read_pass(&json, &test, op)
                .map_err(|detail| RunError::BadOutput { test: name.clone(), detail })?;
            if self.first_date.is_none() {
                self.first_date = bench::parse_str(&json, Some(bench::Format::FioJson))
                    .ok()
                    .and_then(|r| r.into_iter().next())
                    .and_then(|r| r.date);
            }
            passes.push(figures);
        }
        Ok(JobRecord { test: test.short_name(), op, job_file, warm_up_job_file, passes })
    }

    /// One fio run; its stdout (the JSON) when it succeeded.
    fn fio(
        &mut self,
        job: &str,
        name: &str,
        phase: Phase,
        test: Option<(TestSpec, Op)>,
        pass: u32,
        planned_secs: Option<f64>,
    ) -> Result<String, RunError> {
        let started_at = Instant::now();
        let at_start = self.progress_at(phase, test, pass);
        let progress = &mut *self.progress;
        let result =
            run_fio(self.fio, job, name, self.filename, self.identity, self.cancel, &[], &mut |pid| {
                let remaining = at_start.remaining.saturating_sub(started_at.elapsed());
                progress(&Progress { remaining, fio_pid: Some(pid), ..at_start.clone() });
            });
        self.runs_done += 1;
        if let Some(planned) = planned_secs {
            self.planned_done += planned;
            self.actual_done += started_at.elapsed().as_secs_f64();
        }
        result
    }

    /// The pause between tests, cancellable, with progress once a second.
    fn interval(&mut self, next: TestSpec, op: Op) -> Result<(), RunError> {
        let at_start = self.progress_at(Phase::Interval, Some((next, op)), 0);
        let progress = &mut *self.progress;
        pause(self.plan.interval_secs, self.cancel, &mut |elapsed| {
            let remaining = at_start.remaining.saturating_sub(elapsed);
            progress(&Progress { remaining, ..at_start.clone() });
        })?;
        self.intervals_done += 1;
        Ok(())
    }

    /// Progress now: the time left is what remains planned (warm-ups, passes,
    /// intervals), the fio part scaled by how long finished runs took against their plan
    /// (a KDiskMark pass ends early once it has swept the file).
    fn progress_at(&self, phase: Phase, test: Option<(TestSpec, Op)>, pass: u32) -> Progress {
        let plan = self.plan;
        let runs = plan.profile.runs().len();
        let per_test = f64::from(plan.profile.warm_up_secs()) + f64::from(plan.passes * plan.measure_secs);
        let fio_left = (runs as f64 * per_test - self.planned_done).max(0.0);
        let scale = if self.planned_done > 0.0 { self.actual_done / self.planned_done } else { 1.0 };
        let intervals_left = runs.saturating_sub(1).saturating_sub(self.intervals_done) as f64;
        let secs = fio_left * scale + intervals_left * f64::from(plan.interval_secs);
        Progress {
            phase,
            test: test.map(|(t, _)| t.short_name()).unwrap_or_default(),
            op: test.map(|(_, op)| op),
            pass,
            passes: plan.passes,
            runs_done: self.runs_done,
            runs_total: self.runs_total,
            remaining: Duration::from_secs_f64(secs),
            fio_pid: None,
        }
    }
}

/// Whether `filename` still leads to the prepared file or device (before the
/// preparation, `identity` is `None`: whether it exists).
fn target_in_place(filename: &Path, identity: Option<target::Identity>) -> bool {
    match identity {
        Some(identity) => identity.still_at(filename),
        None => filename.exists(),
    }
}

/// One fio run of `job` (named `name` in errors) on `filename`, with `extra` of fio's
/// command-line options (`--status-interval=1`): refused when cancelled or when the
/// target is no longer where it was, its JSON when fio succeeded, otherwise why it
/// failed (the disk full, the target gone, fio's status and stderr). `running` gets
/// fio's pid about once a second.
#[allow(clippy::too_many_arguments, reason = "one fio run's every input, each named")]
pub(crate) fn run_fio(
    fio: &Path,
    job: &str,
    name: &str,
    filename: &Path,
    identity: Option<target::Identity>,
    cancel: &AtomicBool,
    extra: &[&str],
    running: &mut dyn FnMut(u32),
) -> Result<String, RunError> {
    if cancel.load(Ordering::SeqCst) {
        return Err(RunError::Cancelled);
    }
    let vanished = || RunError::TargetVanished { test: name.to_string(), path: filename.to_path_buf() };
    // fio opens the target by name: if the name leads elsewhere now, fio would
    // measure (or make) something else.
    if !target_in_place(filename, identity) {
        return Err(vanished());
    }
    let finished = fio::run(fio, job, extra, cancel, running, Duration::from_secs(1))?;
    let errno = figures::job_error(&finished.stdout).unwrap_or(0);
    if finished.status.success() && errno == 0 {
        return Ok(finished.stdout);
    }
    let stderr_tail = fio::tail(&finished.stderr);
    if !target_in_place(filename, identity) {
        return Err(vanished());
    }
    if errno == i64::from(rustix::io::Errno::NOSPC.raw_os_error())
        || finished.stderr.contains("No space left on device")
    {
        return Err(RunError::DiskFull { test: name.to_string(), path: filename.to_path_buf(), stderr_tail });
    }
    let mut status = fio::describe(finished.status);
    if errno != 0 {
        status
            .push_str(&format!(", job error {errno} ({})", std::io::Error::from_raw_os_error(errno as i32)));
    }
    Err(RunError::FioFailed { test: name.to_string(), status, stderr_tail })
}

/// A pause of `secs` seconds that `cancel` ends within 20 ms ([`RunError::Cancelled`]);
/// `tick` gets the time since it began about once a second, for progress.
pub(crate) fn pause(secs: u32, cancel: &AtomicBool, tick: &mut dyn FnMut(Duration)) -> Result<(), RunError> {
    let started = Instant::now();
    let until = started + Duration::from_secs(u64::from(secs));
    let mut last: Option<Instant> = None;
    while Instant::now() < until {
        if cancel.load(Ordering::SeqCst) {
            return Err(RunError::Cancelled);
        }
        if last.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
            last = Some(Instant::now());
            tick(started.elapsed());
        }
        thread::sleep(Duration::from_millis(20).min(until.saturating_duration_since(Instant::now())));
    }
    Ok(())
}

/// The result of a run: metrics labelled and shaped as the program's export, figures
/// combined as the program combines passes.
fn build_result(plan: &Plan, fio_version: &str, jobs: &[JobRecord], date: Option<String>) -> BenchResult {
    let profile = plan.profile;
    let how = profile.aggregation();
    let mut result = BenchResult::new(Tool::Fio);
    result.tool_version = Some(fio_version.to_string());
    result.engine = Some(fio_version.to_string());
    result.profile =
        Some(if plan.buffered { format!("{} [buffered]", profile.name()) } else { profile.name() });
    // Through the page cache the cache is measured with the drive: a family of its own,
    // so these figures never pool with direct I/O, whatever the tests.
    if plan.buffered {
        result.family = Some(bench::ToolFamily::FioBuffered);
    }
    result.test_size_bytes = Some(plan.size_bytes);
    result.passes = Some(plan.passes);
    result.data_pattern = Some(plan.pattern);
    result.date = date;
    result.os = os_name();
    result.target = Some(plan.target.path().display().to_string());
    let combined = match how {
        Aggregation::Mean => "mean of the passes",
        Aggregation::Best => "best pass",
    };
    let pass_kind = match profile.method {
        Method::KDiskMark => format!("{} s or one sweep of the file per pass", plan.measure_secs),
        Method::Cdm8 => {
            format!("{} s per pass after a {} s warm-up", plan.measure_secs, profile.warm_up_secs())
        }
    };
    result.comment = Some(format!(
        "ioengine=libaio, direct={}; ssdbase bench {}: {} passes, {pass_kind}, {combined}",
        u8::from(!plan.buffered),
        profile.id(),
        plan.passes,
    ));
    let specs = profile.runs();
    for ((spec, op), job) in specs.iter().zip(jobs) {
        let f = figures::aggregate(&job.passes, how);
        result.metrics.push(Metric {
            label: spec.row_label(profile.method, *op),
            access: spec.access,
            block_size: spec.block_bytes(),
            queue_depth: spec.queue_depth,
            threads: spec.threads,
            op: *op,
            mbps: Some(f.mbps),
            iops: Some(f.iops),
            latency_us: Some(f.latency_us),
            mix_read_percent: None,
            stat: None,
            latency_percentiles: Vec::new(),
            latency_spread: None,
        });
    }
    result
}

/// KDiskMark's OS line (mainwindow.cpp:654-655): `debian 12 [linux 6.1.0-18-amd64]`.
pub(crate) fn os_name() -> Option<String> {
    let release = fs::read_to_string("/etc/os-release").unwrap_or_default();
    let field = |key: &str| {
        release
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('=').map(|v| v.trim_matches('"').to_string()))
    };
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease").ok()?.trim().to_string();
    let distro = [field("ID"), field("VERSION_ID")].into_iter().flatten().collect::<Vec<_>>().join(" ");
    Some(if distro.is_empty() { format!("[linux {kernel}]") } else { format!("{distro} [linux {kernel}]") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64MiB").unwrap(), 64 * MIB);
        assert_eq!(parse_size("1GiB").unwrap(), GIB);
        assert_eq!(parse_size(" 512m ").unwrap(), 512 * MIB);
        assert_eq!(parse_size("64G").unwrap(), 64 * GIB);
        assert_eq!(parse_size("16").unwrap(), 16 * MIB);
        for bad in ["8MiB", "65GiB", "1GB", "x", "", "1.5GiB", "99999999999999GiB"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("8MiB").unwrap_err().to_string().contains("16 MiB to 64 GiB"));
    }

    #[test]
    fn passes_outside_one_to_nine_are_refused() {
        let mut plan = Plan::new(Target::Dir("/tmp".into()), Profile::KDISKMARK);
        for passes in [0, 10] {
            plan.passes = passes;
            let err = check_plan(&plan).unwrap_err();
            assert!(matches!(err, RunError::Passes(p) if p == passes), "{err}");
        }
        plan.passes = 9;
        check_plan(&plan).unwrap();
        plan.pattern = DataPattern::OneFill;
        assert!(matches!(check_plan(&plan), Err(RunError::Pattern(_))));
    }
}
