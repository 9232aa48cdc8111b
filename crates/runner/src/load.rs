//! `ssdbase bench --profile sweep|sustained|cache`: how a drive behaves under load and
//! over time, where the burst profiles give one figure per test.
//!
//! * [`LoadProfile::Sweep`]: ORION's load sweep. 4 KiB random read, write and 70/30 mix
//!   and 1 MiB sequential read at 1, 2, 4, … outstanding I/Os (queue depth, one job) up to
//!   `max_qd`; each point one fio run, stored as one metric, so `bench::curves` draws
//!   them and finds the knee.
//! * [`LoadProfile::Sustained`]: steady state after SNIA PTS 2.0.2. The span is written
//!   twice sequentially (128 KiB, the PTS's workload-independent preconditioning), then
//!   rounds of 4 KiB random writes at QD32 until five rounds are steady
//!   (`bench::steady`) or the round limit. Stored as a `steady state` (or `unsettled`)
//!   figure with every round in `over_time`.
//! * [`LoadProfile::Cache`]: write saturation. One sequential 1 MiB QD8 write over the
//!   span, fio sampling it every second (`--status-interval=1`); after an idle pause the
//!   same write again over one and a half times the cache found, to see how much of the
//!   cache came back; after another pause, 4 KiB random writes at QD32 over as much (the
//!   span when no cache was found), since a drive may cache the two differently. Stored
//!   per test as the whole write's average and the after-cache rate, with every run in
//!   `over_time` (`bench::cache` reads them).
//!
//! Direct I/O only: under the page cache none of these shapes is the drive's.

use crate::error::RunError;
use crate::profiles::TestSpec;
use crate::{figures, fio, jobfile, target, Figures, JobRecord, Phase, Progress, Run, Target};
use bench::steady::{steady_state, Steadiness};
use bench::{Access, BenchResult, DataPattern, Metric, Op, Stat, TimePoint, TimeSeries, Tool};
use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const MIB: u64 = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoadProfile {
    Sweep,
    Sustained,
    Cache,
}

impl LoadProfile {
    pub const ALL: [LoadProfile; 3] = [LoadProfile::Sweep, LoadProfile::Sustained, LoadProfile::Cache];

    pub fn id(&self) -> &'static str {
        match self {
            LoadProfile::Sweep => "sweep",
            LoadProfile::Sustained => "sustained",
            LoadProfile::Cache => "cache",
        }
    }

    /// The result's `profile`.
    pub fn name(&self) -> &'static str {
        match self {
            LoadProfile::Sweep => "SSDBase load sweep",
            LoadProfile::Sustained => "SSDBase sustained (SNIA PTS steady state)",
            LoadProfile::Cache => "SSDBase write cache",
        }
    }
}

impl FromStr for LoadProfile {
    type Err = ();

    fn from_str(s: &str) -> Result<LoadProfile, ()> {
        let wanted = s.trim().to_ascii_lowercase();
        LoadProfile::ALL.into_iter().find(|p| p.id() == wanted).ok_or(())
    }
}

/// What to run, where and how.
#[derive(Debug, Clone)]
pub struct LoadPlan {
    pub target: Target,
    pub profile: LoadProfile,
    /// The span written or read: whole MiB, at least 16 MiB; at most 64 GiB for the
    /// sweep and the sustained test; for the cache test, what the target has free.
    pub size_bytes: u64,
    pub pattern: DataPattern,
    /// Required for a [`Target::Device`]: its first `size_bytes` are overwritten.
    pub destructive: bool,
    /// Seconds per point of the sweep and per round of the sustained test.
    pub measure_secs: u32,
    /// The sweep's largest queue depth (a power of two, 1 to 256).
    pub max_qd: u32,
    /// The sustained test's round limit (the PTS's is 25).
    pub max_rounds: u32,
    /// The cache test's pause before writing again; 0 skips the second write.
    pub idle_secs: u32,
}

impl LoadPlan {
    pub fn new(target: Target, profile: LoadProfile, size_bytes: u64) -> LoadPlan {
        LoadPlan {
            target,
            profile,
            size_bytes,
            pattern: DataPattern::Random,
            destructive: false,
            measure_secs: match profile {
                LoadProfile::Sweep => 5,
                _ => 60,
            },
            max_qd: 64,
            max_rounds: 25,
            idle_secs: 30,
        }
    }

    /// The sweep's queue depths: 1, 2, 4, … `max_qd`.
    pub fn queue_depths(&self) -> Vec<u32> {
        std::iter::successors(Some(1u32), |q| q.checked_mul(2)).take_while(|q| *q <= self.max_qd).collect()
    }
}

/// The most a cache test may write (a span beyond this is a typo).
const MAX_CACHE_SPAN: u64 = 16 << 40;

fn check_plan(plan: &LoadPlan) -> Result<(), RunError> {
    let size = plan.size_bytes;
    let bad = |reason: &str| RunError::Size { size: format!("{size} bytes"), reason: reason.to_string() };
    if !size.is_multiple_of(MIB) {
        return Err(bad("must be whole MiB (fio is given it as `size=<n>m`)"));
    }
    match plan.profile {
        LoadProfile::Cache if !(crate::MIN_SIZE..=MAX_CACHE_SPAN).contains(&size) => {
            return Err(bad("the cache test writes 16 MiB to 16 TiB"))
        }
        LoadProfile::Sweep | LoadProfile::Sustained
            if !(crate::MIN_SIZE..=crate::MAX_SIZE).contains(&size) =>
        {
            return Err(bad("must be 16 MiB to 64 GiB"))
        }
        _ => {}
    }
    if !matches!(plan.pattern, DataPattern::Random | DataPattern::ZeroFill) {
        return Err(RunError::Pattern(plan.pattern));
    }
    if !(1..=3600).contains(&plan.measure_secs) || plan.idle_secs > 3600 {
        return Err(RunError::Times { measure: plan.measure_secs, interval: plan.idle_secs });
    }
    if !plan.max_qd.is_power_of_two() || plan.max_qd > 256 || plan.max_qd < 4 {
        return Err(RunError::Load(format!(
            "--max-qd {}: a power of two from 4 to 256 (a curve needs three loads)",
            plan.max_qd
        )));
    }
    if !(5..=1000).contains(&plan.max_rounds) {
        return Err(RunError::Load(format!(
            "--rounds {}: 5 to 1000 (steady state is judged over five rounds)",
            plan.max_rounds
        )));
    }
    Ok(())
}

/// Every refusal, before anything is written.
pub fn check_load(plan: &LoadPlan) -> Result<(), RunError> {
    checked(plan).map(drop)
}

fn checked(plan: &LoadPlan) -> Result<(std::path::PathBuf, String), RunError> {
    check_plan(plan)?;
    let fio = fio::locate()?;
    let version = fio::version(&fio)?;
    match &plan.target {
        Target::Dir(dir) => target::check_dir(dir, plan.size_bytes, false)?,
        Target::Device(dev) => target::check_device(dev, plan.size_bytes, plan.destructive, false)?,
    }
    Ok((fio, version))
}

/// Runs `plan`, reporting progress about once a second; `cancel` stops it (fio killed,
/// the test file removed) with [`RunError::Cancelled`].
pub fn run_load(
    plan: &LoadPlan,
    progress: &mut dyn FnMut(&Progress),
    cancel: &AtomicBool,
) -> Result<Run, RunError> {
    let (fio, fio_version) = checked(plan)?;
    let test_file = match &plan.target {
        Target::Dir(dir) => Some(target::TestFile::create(dir)?),
        Target::Device(_) => None,
    };
    let filename = match &test_file {
        Some(f) => f.path().to_path_buf(),
        None => plan.target.path().to_path_buf(),
    };
    let mut session =
        Session { plan, fio: &fio, filename: &filename, identity: None, progress, cancel, runs_done: 0 };
    let device = matches!(plan.target, Target::Device(_));
    let (prepare_job_file, jobs, mut result) = match plan.profile {
        LoadProfile::Sweep => session.sweep(device)?,
        LoadProfile::Sustained => session.sustained()?,
        LoadProfile::Cache => session.cache()?,
    };
    result.tool_version = Some(fio_version.clone());
    result.engine = Some(fio_version.clone());
    result.profile = Some(plan.profile.name().to_string());
    result.test_size_bytes = Some(plan.size_bytes);
    result.data_pattern = Some(plan.pattern);
    result.os = crate::os_name();
    result.target = Some(plan.target.path().display().to_string());
    drop(test_file);
    Ok(Run { result, fio_version, prepare_job_file, jobs })
}

/// One run of a plan: what it has done, for progress.
struct Session<'a> {
    plan: &'a LoadPlan,
    fio: &'a Path,
    filename: &'a Path,
    identity: Option<target::Identity>,
    progress: &'a mut dyn FnMut(&Progress),
    cancel: &'a AtomicBool,
    runs_done: usize,
}

/// What a step of a session is, for its progress line.
struct Step<'s> {
    phase: Phase,
    test: &'s TestSpec,
    op: Option<Op>,
    /// 1-based point or round (0 while preparing), of `of`.
    number: u32,
    of: u32,
    runs_total: usize,
    /// Bytes this fio run writes, when the time left follows from bytes written.
    bytes: Option<u64>,
    /// Seconds left after this run, when known in advance.
    after_secs: f64,
    /// Seconds this run lasts, when time-based.
    secs: Option<f64>,
}

impl Step<'_> {
    /// Progress at the start of this step, `runs_done` fio runs in.
    fn progress(&self, runs_done: usize) -> Progress {
        Progress {
            phase: self.phase,
            test: self.test.short_name(),
            op: self.op,
            pass: self.number,
            passes: self.of,
            runs_done,
            runs_total: self.runs_total,
            remaining: Duration::ZERO,
            fio_pid: None,
        }
    }
}

type Outcome = (Option<String>, Vec<JobRecord>, BenchResult);

impl Session<'_> {
    /// One fio run (`extra` are command-line options before the job, e.g.
    /// `--status-interval=1`): its stdout.
    fn fio(&mut self, job: &str, name: &str, step: &Step, extra: &[&str]) -> Result<String, RunError> {
        let started = Instant::now();
        let base = step.progress(self.runs_done);
        let progress = &mut *self.progress;
        let out = crate::run_fio(
            self.fio,
            job,
            name,
            self.filename,
            self.identity,
            self.cancel,
            extra,
            &mut |pid| {
                let elapsed = started.elapsed().as_secs_f64();
                let this_run = match (step.bytes, step.secs) {
                    (Some(total), _) => {
                        let done = written_by_jobs(pid);
                        if done > 0 && elapsed > 0.0 {
                            (total.saturating_sub(done)) as f64 / (done as f64 / elapsed)
                        } else {
                            0.0
                        }
                    }
                    (None, Some(secs)) => (secs - elapsed).max(0.0),
                    (None, None) => 0.0,
                };
                let remaining = Duration::from_secs_f64(this_run + step.after_secs);
                progress(&Progress { remaining, fio_pid: Some(pid), ..base.clone() });
            },
        )?;
        self.runs_done += 1;
        if self.identity.is_none() {
            // From here on every fio must find this very file (fio made it anew).
            self.identity = Some(target::Identity::of(self.filename).ok_or_else(|| {
                RunError::TargetVanished { test: name.into(), path: self.filename.to_path_buf() }
            })?);
        }
        Ok(out)
    }

    /// The idle pause of `secs` before `step`, with progress.
    fn idle(&mut self, secs: u32, step: &Step) -> Result<(), RunError> {
        let at_start = Progress { phase: Phase::Interval, ..step.progress(self.runs_done) };
        let left = Duration::from_secs(u64::from(secs)) + Duration::from_secs_f64(step.after_secs);
        let progress = &mut *self.progress;
        crate::pause(secs, self.cancel, &mut |elapsed| {
            progress(&Progress { remaining: left.saturating_sub(elapsed), ..at_start.clone() });
        })
    }

    /// The test data for reads (as the burst profiles write it).
    fn prepare(
        &mut self,
        device: bool,
        test: &TestSpec,
        runs_total: usize,
        after_secs: f64,
    ) -> Result<String, RunError> {
        let plan = self.plan;
        let job = jobfile::prepare_job(self.filename, plan.size_bytes, plan.pattern, device, false);
        let step = Step {
            phase: Phase::Preparing,
            test,
            op: None,
            number: 0,
            of: 0,
            runs_total,
            bytes: Some(plan.size_bytes),
            after_secs,
            secs: None,
        };
        self.fio(&job, PREPARING, &step, &[])?;
        Ok(job)
    }

    fn sweep(&mut self, device: bool) -> Result<Outcome, RunError> {
        let plan = self.plan;
        let depths = plan.queue_depths();
        let tests: [(Access, u32, Op, Option<u8>); 5] = [
            (Access::Rnd, 4, Op::Read, None),
            (Access::Rnd, 4, Op::Write, None),
            (Access::Rnd, 4, Op::Mix, Some(70)),
            (Access::Seq, 1024, Op::Read, None),
            (Access::Seq, 1024, Op::Write, None),
        ];
        let points = tests.len() * depths.len();
        let runs_total = 1 + points;
        let secs_left = |done: usize| ((points - done) * plan.measure_secs as usize) as f64;
        let first = TestSpec { access: Access::Rnd, block_kib: 4, queue_depth: 1, threads: 1 };
        let prepare = self.prepare(device, &first, runs_total, secs_left(0))?;
        let mut result = BenchResult::new(Tool::Fio);
        let mut jobs = Vec::new();
        let mut done = 0;
        for (access, block_kib, op, mix) in tests {
            for (i, qd) in depths.iter().enumerate() {
                let test = TestSpec { access, block_kib, queue_depth: *qd, threads: 1 };
                let job = load_job(self.filename, plan, &test, op, mix, Some(plan.measure_secs), None);
                let name = format!("{} {} at QD{qd}", test.short_name(), bench::fields::unit_name(&op));
                let step = Step {
                    phase: Phase::Measuring,
                    test: &test,
                    op: Some(op),
                    number: i as u32 + 1,
                    of: depths.len() as u32,
                    runs_total,
                    bytes: None,
                    after_secs: secs_left(done + 1),
                    secs: Some(f64::from(plan.measure_secs)),
                };
                let json = self.fio(&job, &name, &step, &[])?;
                done += 1;
                let bad = |detail: String| RunError::BadOutput { test: name.clone(), detail };
                let parsed = parse_one(&json).map_err(bad)?;
                let mut figures_of_run = Vec::new();
                for mut m in parsed.metrics {
                    let direction = if m.op == Op::Read { Op::Read } else { Op::Write };
                    let f = figures::read_pass(&json, &test, direction).map_err(bad)?;
                    m.label = label(&test, m.op, mix);
                    // Completion latency, as every runner figure (see the crate's docs).
                    m.latency_us = Some(f.latency_us);
                    if mix.is_some() {
                        // fio reports a mix's reads and writes apart: one metric each.
                        m.label = format!("{} {}", m.label, bench::fields::unit_name(&direction));
                    }
                    figures_of_run.push(f);
                    result.metrics.push(m);
                }
                if result.date.is_none() {
                    result.date = parsed.date;
                }
                jobs.push(JobRecord {
                    test: test.short_name(),
                    op,
                    job_file: job,
                    warm_up_job_file: None,
                    passes: figures_of_run,
                });
            }
        }
        result.comment = Some(format!(
            "ioengine=libaio, direct=1; ssdbase bench sweep: {} s per point, queue depth 1 to {}, one job",
            plan.measure_secs, plan.max_qd
        ));
        Ok((Some(prepare), jobs, result))
    }

    fn sustained(&mut self) -> Result<Outcome, RunError> {
        let plan = self.plan;
        let test = TestSpec { access: Access::Rnd, block_kib: 4, queue_depth: 32, threads: 1 };
        let rounds_most = plan.max_rounds as usize;
        let runs_total = 1 + rounds_most;
        let round_secs = f64::from(plan.measure_secs);
        // Preconditioning: the span written twice sequentially in 128 KiB blocks.
        let pre = TestSpec { access: Access::Seq, block_kib: 128, queue_depth: 32, threads: 1 };
        let precondition = load_job(self.filename, plan, &pre, Op::Write, None, None, Some(2));
        let step = Step {
            phase: Phase::Preparing,
            test: &pre,
            op: Some(Op::Write),
            number: 0,
            of: 0,
            runs_total,
            bytes: Some(plan.size_bytes * 2),
            after_secs: rounds_most as f64 * round_secs,
            secs: None,
        };
        self.fio(&precondition, "preconditioning (the span written twice)", &step, &[])?;

        let job = load_job(self.filename, plan, &test, Op::Write, None, Some(plan.measure_secs), None);
        let mut rounds: Vec<Figures> = Vec::new();
        let mut points: Vec<TimePoint> = Vec::new();
        let (mut secs, mut bytes) = (0.0, 0u64);
        let mut date = None;
        let mut steadiness = Steadiness::NotReached { last: None };
        for round in 1..=plan.max_rounds {
            let step = Step {
                phase: Phase::Measuring,
                test: &test,
                op: Some(Op::Write),
                number: round,
                of: plan.max_rounds,
                runs_total,
                bytes: None,
                after_secs: (rounds_most - round as usize) as f64 * round_secs,
                secs: Some(round_secs),
            };
            let name = format!("{} write round {round}", test.short_name());
            let json = self.fio(&job, &name, &step, &[])?;
            let bad = |detail: String| RunError::BadOutput { test: name.clone(), detail };
            let f = figures::read_pass(&json, &test, Op::Write).map_err(bad)?;
            if date.is_none() {
                date = parse_one(&json).map_err(bad)?.date;
            }
            secs += round_secs;
            bytes += (f.mbps * 1e6 * round_secs).round() as u64;
            points.push(TimePoint { secs, bytes, mbps: f.mbps, iops: Some(f.iops) });
            rounds.push(f);
            let iops: Vec<f64> = rounds.iter().map(|r| r.iops).collect();
            steadiness = steady_state(&iops);
            if matches!(steadiness, Steadiness::Reached { .. }) {
                break;
            }
        }
        // The window's rounds: the steady one, or the last five.
        let (from, stat) = match steadiness {
            Steadiness::Reached { window } => (window.from, Stat::Steady),
            Steadiness::NotReached { .. } => {
                (rounds.len().saturating_sub(bench::steady::WINDOW), Stat::Unsettled)
            }
        };
        let window = &rounds[from..];
        let n = window.len() as f64;
        let mean = |f: fn(&Figures) -> f64| window.iter().map(f).sum::<f64>() / n;
        let mut result = BenchResult::new(Tool::Fio);
        result.date = date;
        result.metrics.push(Metric {
            label: format!(
                "{} {}",
                label(&test, Op::Write, None),
                if stat == Stat::Steady { "steady state" } else { "unsettled" }
            ),
            access: test.access,
            block_size: test.block_bytes(),
            queue_depth: test.queue_depth,
            threads: test.threads,
            op: Op::Write,
            mbps: Some(mean(|f| f.mbps)),
            iops: Some(mean(|f| f.iops)),
            latency_us: Some(mean(|f| f.latency_us)),
            mix_read_percent: None,
            stat: Some(stat),
            latency_percentiles: Vec::new(),
            latency_spread: None,
        });
        result.over_time.push(TimeSeries { metric: 0, points, after_idle_secs: None });
        let outcome = match steadiness {
            Steadiness::Reached { window } => format!("steady from round {}", window.to + 1),
            Steadiness::NotReached { .. } => format!("not steady within {} rounds", rounds.len()),
        };
        result.comment = Some(format!(
            "ioengine=libaio, direct=1; ssdbase bench sustained: preconditioned by writing the span twice, \
             rounds of {} s, {outcome} (SNIA PTS 2.0.2)",
            plan.measure_secs
        ));
        let record = JobRecord {
            test: test.short_name(),
            op: Op::Write,
            job_file: job,
            warm_up_job_file: None,
            passes: rounds,
        };
        Ok((Some(precondition), vec![record], result))
    }

    fn cache(&mut self) -> Result<Outcome, RunError> {
        let plan = self.plan;
        let seq = TestSpec { access: Access::Seq, block_kib: 1024, queue_depth: 8, threads: 1 };
        let rnd = TestSpec { access: Access::Rnd, block_kib: 4, queue_depth: 32, threads: 1 };
        // The sequential write, again after the pause, and the random write.
        let seq_runs = if plan.idle_secs > 0 { 2 } else { 1 };
        let runs_total = seq_runs as usize + 1;
        let step = Step {
            phase: Phase::Measuring,
            test: &seq,
            op: Some(Op::Write),
            number: 1,
            of: seq_runs,
            runs_total,
            bytes: Some(plan.size_bytes),
            after_secs: f64::from(plan.idle_secs),
            secs: None,
        };
        let name = format!("{} write over {} MiB", seq.short_name(), plan.size_bytes / MIB);
        let fill = self.sampled_write(&seq, plan.size_bytes, &step, &name)?;
        let found = bench::cache::write_cache(&fill.series.points);
        let mut result = BenchResult::new(Tool::Fio);
        result.date = fill.date.clone();
        let mut jobs = vec![fill.record(&seq)];
        push_saturation(&mut result, &seq, fill, found);
        // The time left counts what follows at the rate the drive settled to: after its
        // cache, or the first write's average when it showed none. 4 KiB random writes are
        // rarely faster than that, so for them it is the least they take.
        let settled_mbps = match found {
            Some(bench::cache::WriteCache::Found { after_cache_mbps, .. }) => after_cache_mbps,
            // The whole write's average, just pushed as the result's first metric.
            _ => result.metrics.first().and_then(|m| m.mbps).unwrap_or(0.0),
        };
        let secs_at_settled =
            |bytes: u64| if settled_mbps > 0.0 { bytes as f64 / (settled_mbps * 1e6) } else { 0.0 };
        let cache_bytes = match found {
            Some(bench::cache::WriteCache::Found { cache_bytes, .. }) => {
                // Again over one and a half caches (whole MiB, within the span): enough to
                // see the whole cache come back and fall again.
                let again_bytes = (cache_bytes.saturating_mul(3) / 2).div_ceil(MIB).max(16) * MIB;
                let again_bytes = again_bytes.min(plan.size_bytes);
                if plan.idle_secs > 0 {
                    // After this write: the second pause and the random write over as much.
                    let then = f64::from(plan.idle_secs) + secs_at_settled(again_bytes);
                    let idle_step = Step { after_secs: secs_at_settled(again_bytes) + then, ..step };
                    self.idle(plan.idle_secs, &idle_step)?;
                    let again_step =
                        Step { number: 2, bytes: Some(again_bytes), after_secs: then, ..idle_step };
                    let again_name =
                        format!("{} write again after {} s idle", seq.short_name(), plan.idle_secs);
                    let again = self.sampled_write(&seq, again_bytes, &again_step, &again_name)?;
                    jobs.push(again.record(&seq));
                    result.over_time.push(TimeSeries {
                        metric: 0,
                        points: again.series.points,
                        after_idle_secs: Some(f64::from(plan.idle_secs)),
                    });
                }
                Some(again_bytes)
            }
            _ => None,
        };
        // 4 KiB random writes, separately, after the pause (the cache empties): over one
        // and a half of the cache the sequential write found, or the span without one.
        let rnd_bytes = cache_bytes.unwrap_or(plan.size_bytes);
        let rnd_step = Step { test: &rnd, number: 1, of: 1, bytes: Some(rnd_bytes), after_secs: 0.0, ..step };
        if plan.idle_secs > 0 {
            self.idle(plan.idle_secs, &Step { after_secs: secs_at_settled(rnd_bytes), ..rnd_step })?;
        }
        let rnd_name = format!("{} write over {} MiB", rnd.short_name(), rnd_bytes / MIB);
        let random = self.sampled_write(&rnd, rnd_bytes, &rnd_step, &rnd_name)?;
        let rnd_found = bench::cache::write_cache(&random.series.points);
        jobs.push(random.record(&rnd));
        push_saturation(&mut result, &rnd, random, rnd_found);

        let mut comment = format!(
            "ioengine=libaio, direct=1; ssdbase bench cache: {} MiB written sequentially, sampled every second",
            plan.size_bytes / MIB
        );
        if result.over_time.iter().any(|s| s.after_idle_secs.is_some()) {
            let _ = write!(comment, ", written again after {} s idle", plan.idle_secs);
        }
        let _ = write!(comment, "; {} MiB of 4 KiB random writes at QD32", rnd_bytes / MIB);
        if plan.idle_secs > 0 {
            let _ = write!(comment, " after {} s idle", plan.idle_secs);
        }
        result.comment = Some(comment);
        Ok((None, jobs, result))
    }

    /// One write of `bytes` of `test`, fio sampling it every second.
    fn sampled_write(
        &mut self,
        test: &TestSpec,
        bytes: u64,
        step: &Step,
        name: &str,
    ) -> Result<SampledWrite, RunError> {
        let plan = LoadPlan { size_bytes: bytes, ..self.plan.clone() };
        let job = load_job(self.filename, &plan, test, Op::Write, None, None, None);
        let json = self.fio(&job, name, step, &["--status-interval=1"])?;
        let bad = |detail: String| RunError::BadOutput { test: name.to_string(), detail };
        let run = parse_one(&json).map_err(bad)?;
        let (metric, series) = sampled(&run).map_err(bad)?;
        Ok(SampledWrite { job, metric, series, date: run.date })
    }
}

/// A write fio sampled every second: its job file, the whole run's figures, its
/// intervals and the date fio printed.
struct SampledWrite {
    job: String,
    metric: Metric,
    series: TimeSeries,
    date: Option<String>,
}

impl SampledWrite {
    /// What the result records of the run: its job file and figures.
    fn record(&self, test: &TestSpec) -> JobRecord {
        JobRecord {
            test: test.short_name(),
            op: Op::Write,
            job_file: self.job.clone(),
            warm_up_job_file: None,
            passes: vec![Figures {
                mbps: self.metric.mbps.unwrap_or(0.0),
                iops: self.metric.iops.unwrap_or(0.0),
                latency_us: self.metric.latency_us.unwrap_or(0.0),
            }],
        }
    }
}

/// A write sampled over time into `result`: the whole write's average with its series,
/// and, when a cache was found, the rate after it.
fn push_saturation(
    result: &mut BenchResult,
    test: &TestSpec,
    run: SampledWrite,
    found: Option<bench::cache::WriteCache>,
) {
    let SampledWrite { metric, series, .. } = run;
    let at = result.metrics.len();
    let label = label(test, Op::Write, None);
    result.metrics.push(Metric {
        label: format!("{label} average"),
        stat: Some(Stat::Avg),
        ..metric.clone()
    });
    result.over_time.push(TimeSeries { metric: at, points: series.points, after_idle_secs: None });
    if let Some(bench::cache::WriteCache::Found { after_cache_mbps, .. }) = found {
        result.metrics.push(Metric {
            label: format!("{label} after cache"),
            mbps: Some(after_cache_mbps),
            iops: Some(after_cache_mbps * 1e6 / test.block_bytes() as f64),
            latency_us: None,
            stat: Some(Stat::AfterCache),
            latency_percentiles: Vec::new(),
            latency_spread: None,
            ..metric
        });
    }
}

/// What a load profile found, as text for the terminal: each curve with its knee, the
/// sustained figure and whether it settled, the write cache.
pub fn load_report(result: &BenchResult) -> String {
    let mut s = String::new();
    for curve in bench::curves::load_curves(result) {
        let knee = bench::curves::knee(&curve.points);
        let _ = writeln!(s, "{}", curve.key.name());
        let _ =
            writeln!(s, "  {:>4}  {:>12}  {:>10}  {:>12}  {:>12}", "QD", "IOPS", "MB/s", "mean µs", "p99 µs");
        for (i, p) in curve.points.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {:>4}  {:>12}  {:>10}  {:>12}  {:>12}{}",
                p.outstanding,
                number(p.iops, 0),
                number(p.mbps, 1),
                number(p.latency_us, 1),
                number(p.p99_us, 1),
                if knee == Some(i) { "  <- knee: from here latency grows faster than IOPS" } else { "" }
            );
        }
    }
    for series in &result.over_time {
        let Some(metric) = result.metrics.get(series.metric) else { continue };
        match metric.stat {
            Some(Stat::Steady | Stat::Unsettled) => {
                let rounds = series.points.len();
                let iops = metric.iops.unwrap_or(0.0);
                let _ = match steady_state(&series.points.iter().filter_map(|p| p.iops).collect::<Vec<_>>()) {
                    Steadiness::Reached { window } => writeln!(
                        s,
                        "{}: steady state reached in round {} of {rounds}: {iops:.0} IOPS ({:.1} MB/s), rounds {}-{}",
                        metric.label,
                        window.to + 1,
                        metric.mbps.unwrap_or(0.0),
                        window.from + 1,
                        window.to + 1
                    ),
                    Steadiness::NotReached { .. } => writeln!(
                        s,
                        "{}: steady state NOT reached in {rounds} rounds; the last five averaged {iops:.0} IOPS",
                        metric.label
                    ),
                };
            }
            _ => {
                let Some(cache) = bench::cache::write_cache(&series.points) else { continue };
                let test = bench::test_name(
                    metric.access,
                    metric.block_size,
                    Some((metric.queue_depth, metric.threads)),
                    metric.op,
                    metric.mix_read_percent,
                    None,
                );
                let when = match series.after_idle_secs {
                    Some(idle) => format!("{test}, after {idle:.0} s idle"),
                    None => format!("{test}, first write"),
                };
                let _ = match cache {
                    bench::cache::WriteCache::Found { cache_bytes, in_cache_mbps, after_cache_mbps, .. } => writeln!(
                        s,
                        "Write cache ({when}): {:.2} GiB at {in_cache_mbps:.0} MB/s, then {after_cache_mbps:.0} MB/s",
                        cache_bytes as f64 / (1u64 << 30) as f64
                    ),
                    bench::cache::WriteCache::NotFound { written_bytes, mbps } => writeln!(
                        s,
                        "Write cache ({when}): none found; {:.2} GiB written at {mbps:.0} MB/s on average",
                        written_bytes as f64 / (1u64 << 30) as f64
                    ),
                };
            }
        }
    }
    for again in result.over_time.iter().filter(|t| t.after_idle_secs.is_some()) {
        if let Some(back) = bench::cache::recovered_after_idle(&result.over_time, again.metric) {
            let _ = writeln!(s, "After the idle pause {:.0} % of the cache came back", back * 100.0);
        }
    }
    s
}

fn number(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.decimals$}"))
}

const PREPARING: &str = "preparing the test data";

/// The one result fio's output holds.
fn parse_one(json: &str) -> Result<BenchResult, String> {
    let mut results = bench::parse_str(json, Some(bench::Format::FioJson)).map_err(|e| e.to_string())?;
    match results.len() {
        1 => Ok(results.remove(0)),
        n => Err(format!("{n} results in fio's output, one expected")),
    }
}

/// The written metric of a sampled run and its series.
fn sampled(result: &BenchResult) -> Result<(Metric, TimeSeries), String> {
    let series =
        result.over_time.first().ok_or("fio printed no interval (the run lasted under a second?)")?;
    let metric = result.metrics.get(series.metric).ok_or("a series without its test")?;
    Ok((metric.clone(), series.clone()))
}

/// Bytes fio's job processes have written so far (`/proc/<pid>/io`, `write_bytes`:
/// direct I/O counts as submitted).
fn written_by_jobs(fio_pid: u32) -> u64 {
    let children =
        std::fs::read_to_string(format!("/proc/{fio_pid}/task/{fio_pid}/children")).unwrap_or_default();
    children
        .split_whitespace()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/io")).ok())
        .filter_map(|io| {
            io.lines().find_map(|l| l.strip_prefix("write_bytes:").and_then(|v| v.trim().parse::<u64>().ok()))
        })
        .sum()
}

/// `Write RND 4KiB Q32T1`, `Mix 70/30 RND 4KiB Q4T1`.
fn label(test: &TestSpec, op: Op, mix: Option<u8>) -> String {
    let section = match (op, mix) {
        (Op::Read, _) => "Read".to_string(),
        (Op::Write, _) => "Write".to_string(),
        (Op::Mix, Some(r)) => format!("Mix {r}/{}", 100 - u32::from(r)),
        (Op::Mix, None) => "Mix".to_string(),
    };
    let kind = if test.access == Access::Seq { "SEQ" } else { "RND" };
    let size = if test.block_kib >= 1024 {
        format!("{}MiB", test.block_kib / 1024)
    } else {
        format!("{}KiB", test.block_kib)
    };
    format!("{section} {kind} {size} Q{}T{}", test.queue_depth, test.threads)
}

/// The job file of one load-profile run: direct, libaio, one job. Time-based for
/// `runtime_secs`; otherwise the span once (or `loops` times).
fn load_job(
    filename: &Path,
    plan: &LoadPlan,
    test: &TestSpec,
    op: Op,
    mix: Option<u8>,
    runtime_secs: Option<u32>,
    loops: Option<u32>,
) -> String {
    let rw = jobfile::rw(test.access, op);
    let mut s = String::new();
    let _ = writeln!(s, "; ssdbase bench {}: {} {rw}", plan.profile.id(), test.short_name());
    let _ = writeln!(s, "[{rw}]");
    let _ = writeln!(s, "filename={}", jobfile::fio_filename(filename));
    let _ = writeln!(s, "size={}m", plan.size_bytes / MIB);
    let _ = writeln!(s, "ioengine=libaio");
    let _ = writeln!(s, "direct=1");
    let _ = writeln!(s, "randrepeat=0");
    if test.access == Access::Rnd {
        let _ = writeln!(s, "norandommap=1");
    }
    let _ = writeln!(s, "refill_buffers=0");
    let _ = writeln!(s, "zero_buffers={}", u8::from(plan.pattern == DataPattern::ZeroFill));
    let _ = writeln!(s, "bs={}k", test.block_kib);
    if let Some(mix) = mix {
        let _ = writeln!(s, "rwmixread={mix}");
    }
    if let Some(secs) = runtime_secs {
        let _ = writeln!(s, "time_based=1");
        let _ = writeln!(s, "runtime={secs}");
    }
    if let Some(loops) = loops {
        let _ = writeln!(s, "loops={loops}");
    }
    let _ = writeln!(s, "rw={rw}");
    let _ = writeln!(s, "iodepth={}", test.queue_depth);
    let _ = writeln!(s, "numjobs={}", test.threads);
    let _ = writeln!(s, "group_reporting");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_and_limits() {
        for p in LoadProfile::ALL {
            assert_eq!(p.id().parse::<LoadProfile>(), Ok(p));
        }
        let mut plan = LoadPlan::new(Target::Dir("/tmp".into()), LoadProfile::Sweep, 64 << 20);
        assert_eq!(plan.queue_depths(), [1, 2, 4, 8, 16, 32, 64]);
        plan.max_qd = 4;
        assert_eq!(plan.queue_depths(), [1, 2, 4]);
        check_plan(&plan).unwrap();
        plan.max_qd = 48;
        assert!(check_plan(&plan).unwrap_err().to_string().contains("power of two"));
        plan.max_qd = 8;
        plan.size_bytes = 100 << 30;
        assert!(check_plan(&plan).unwrap_err().to_string().contains("64 GiB"));
        plan.profile = LoadProfile::Cache;
        check_plan(&plan).unwrap();
    }

    #[test]
    fn a_sweep_job_is_time_based_direct_and_one_job() {
        let plan = LoadPlan::new(Target::Dir("/t".into()), LoadProfile::Sweep, 64 << 20);
        let test = TestSpec { access: Access::Rnd, block_kib: 4, queue_depth: 16, threads: 1 };
        let job = load_job(Path::new("/t/x"), &plan, &test, Op::Mix, Some(70), Some(5), None);
        for line in
            ["[randrw]", "rwmixread=70", "iodepth=16", "direct=1", "time_based=1", "runtime=5", "bs=4k"]
        {
            assert!(job.lines().any(|l| l == line), "{line} missing from\n{job}");
        }
        assert_eq!(label(&test, Op::Mix, Some(70)), "Mix 70/30 RND 4KiB Q16T1");
    }
}
