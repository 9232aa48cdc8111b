//! The runner's command line, shared by the standalone `ssdbase-bench` binary (the one
//! people download from an SSDBase's "Measure your drive" page) and `ssdbase bench`:
//! identify the drive under TARGET and its platform (`probe`), measure it with fio as
//! KDiskMark or CrystalDiskMark would (`runner`), show both, and with `--submit URL`
//! send the result with its tags and how each was obtained.

use anyhow::{bail, Context, Result};
use api_types::{ProbedFact, RunnerJob, RunnerRecord, SubmitBody, SubmitResponse};
use bench::{DataPattern, Tags};
use runner::{LoadPlan, LoadProfile, Phase, Plan, Profile, Progress, Target};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// A directory on the drive to measure (a test file is made there and always
    /// removed), or with --raw-device --destructive an unmounted block device.
    target: PathBuf,
    /// The test set: kdiskmark (KDiskMark's default), kdiskmark-peak, kdiskmark-real,
    /// cdm8 (CrystalDiskMark 8's default), cdm8-nvme, cdm8-peak, cdm8-real, ...; or
    /// behaviour under load: sweep (IOPS and latency at queue depth 1 to --max-qd),
    /// sustained (rounds until steady state), cache (the write cache's size and the
    /// rate after it). `--profile list` names them all.
    #[arg(long, default_value = "kdiskmark")]
    profile: String,
    /// Test size, as CrystalDiskMark's menu: 16MiB to 64GiB (default 1GiB). For
    /// --profile cache, how much to write: default 90 % of the free space.
    #[arg(long)]
    size: Option<String>,
    /// How many times each test runs (1-9); the best pass counts, as in KDiskMark.
    #[arg(long, default_value_t = 5)]
    passes: u32,
    /// Seconds each pass measures (KDiskMark's "measuring time"; default 5), each point
    /// of a sweep (default 5) or each round of the sustained test (default 60).
    #[arg(long)]
    time: Option<u32>,
    /// The sweep's largest queue depth (4 to 256, a power of two).
    #[arg(long, default_value_t = 64)]
    max_qd: u32,
    /// The sustained test's round limit.
    #[arg(long, default_value_t = 25)]
    rounds: u32,
    /// Seconds the cache test leaves the drive idle before writing again, to see how
    /// much of the cache came back (0: not at all).
    #[arg(long, default_value_t = 30)]
    idle: u32,
    /// Seconds of pause between tests (KDiskMark's "interval").
    #[arg(long, default_value_t = 5)]
    interval: u32,
    /// Write zeros instead of random data (compressing controllers write zeros faster).
    #[arg(long)]
    zero_fill: bool,
    /// Through the page cache, where O_DIRECT is impossible (tmpfs). Recorded: such a
    /// result is never compared with direct I/O.
    #[arg(long)]
    buffered: bool,
    /// TARGET is a block device, measured directly.
    #[arg(long, requires = "destructive")]
    raw_device: bool,
    /// Allows overwriting the block device's first SIZE bytes (with --raw-device).
    #[arg(long)]
    destructive: bool,
    /// Sets a tag the probe got wrong or could not find, e.g. --tag chipset=X570
    /// --tag vendor=Crucial (the names of the results filters).
    #[arg(long = "tag", value_name = "FIELD=VALUE")]
    tags: Vec<String>,
    /// Print the submission (result, tags, how they were found) as JSON instead of the
    /// report and table.
    #[arg(long)]
    json: bool,
    /// Send the result to this SSDBase (e.g. https://ssdbase.example) once measured.
    #[arg(long, value_name = "URL")]
    submit: Option<String>,
}

/// Set by SIGINT/SIGTERM; the runner stops fio, removes the test file and returns.
static CANCEL: AtomicBool = AtomicBool::new(false);

/// Runs the command; `program` names it in error lines (`ssdbase bench`, `ssdbase-bench`).
pub fn run(program: &str, args: &BenchArgs) -> ExitCode {
    match bench(program, args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{program}: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn bench(program: &str, args: &BenchArgs) -> Result<()> {
    if args.profile == "list" {
        for p in Profile::all() {
            println!("{:<24} {}", p.id(), p.name());
        }
        for p in LoadProfile::ALL {
            println!("{:<24} {}", p.id(), p.name());
        }
        return Ok(());
    }
    // Without fio nothing can be measured: say so (and how to install it) before probing.
    runner::fio_version()?;
    let target =
        if args.raw_device { Target::Device(args.target.clone()) } else { Target::Dir(args.target.clone()) };
    let pattern = if args.zero_fill { DataPattern::ZeroFill } else { DataPattern::Random };
    let planned = match args.profile.parse::<LoadProfile>() {
        Ok(load) => {
            if args.buffered {
                bail!(
                    "--profile {}: direct I/O only (through the page cache no curve is the drive's)",
                    load.id()
                );
            }
            let size = match (&args.size, load) {
                (Some(size), LoadProfile::Cache) => runner::parse_span(size)?,
                (Some(size), _) => runner::parse_size(size)?,
                (None, LoadProfile::Cache) => default_cache_span(&target)?,
                (None, _) => 1 << 30,
            };
            let mut plan = LoadPlan::new(target, load, size);
            plan.pattern = pattern;
            plan.destructive = args.destructive;
            if let Some(time) = args.time {
                plan.measure_secs = time;
            }
            plan.max_qd = args.max_qd;
            plan.max_rounds = args.rounds;
            plan.idle_secs = args.idle;
            Planned::Load(plan)
        }
        Err(()) => {
            let profile: Profile = args
                .profile
                .parse()
                .map_err(|e: runner::UnknownProfile| anyhow::anyhow!("{e}, sweep, sustained, cache"))?;
            let mut plan = Plan::new(target, profile);
            plan.size_bytes = runner::parse_size(args.size.as_deref().unwrap_or("1GiB"))?;
            plan.passes = args.passes;
            plan.measure_secs = args.time.unwrap_or(5);
            plan.interval_secs = args.interval;
            plan.pattern = pattern;
            plan.buffered = args.buffered;
            plan.destructive = args.destructive;
            Planned::Burst(plan)
        }
    };

    // Everything found is shown before anything runs or is sent.
    let found = probe::probe(&args.target);
    let mut tags = found.tags();
    let typed = apply_tags(&mut tags, &args.tags)?;
    if !args.json {
        println!("{}", found.report());
        for field in &typed {
            println!("  {field}: set by hand (--tag)");
        }
        println!();
    }
    match &planned {
        Planned::Burst(plan) => runner::check(plan)?,
        Planned::Load(plan) => runner::check_load(plan)?,
    }
    watch_for_interrupts(program)?;

    let (run, buffered) = match &planned {
        Planned::Burst(plan) => {
            let mut progress = progress_printer("pass");
            (runner::run(plan, &mut *progress, &CANCEL)?, plan.buffered)
        }
        Planned::Load(plan) => {
            let unit = match plan.profile {
                LoadProfile::Sweep => "point",
                LoadProfile::Sustained => "round",
                LoadProfile::Cache => "run",
            };
            let mut progress = progress_printer(unit);
            (runner::run_load(plan, &mut *progress, &CANCEL)?, false)
        }
    };

    // The runner reads fio's output as fio's; what measured it is this command.
    let mut result = run.result;
    result.tool = bench::Tool::SsdbaseBench;
    result.tool_version = Some(env!("CARGO_PKG_VERSION").to_string());
    result.engine = Some(run.fio_version.clone());
    let prepare =
        run.prepare_job_file.map(|job| RunnerJob { test: "prepare (writes the test data)".into(), job });
    let record = RunnerRecord {
        runner_version: env!("CARGO_PKG_VERSION").to_string(),
        fio_version: run.fio_version.clone(),
        buffered,
        jobs: prepare
            .into_iter()
            .chain(run.jobs.iter().map(|j| RunnerJob {
                test: format!("{} {}", j.test, bench::fields::unit_name(&j.op)),
                job: j.job_file.clone(),
            }))
            .collect(),
        facts: found
            .facts()
            .into_iter()
            .map(|f| ProbedFact {
                field: f.field.into_owned(),
                value: f.value,
                source: match f.device {
                    Some(device) => format!("{} ({device})", f.source),
                    None => f.source.to_string(),
                },
            })
            .collect(),
        typed,
    };
    let body = SubmitBody { result: Some(result), tags, runner: Some(record), ..SubmitBody::default() };
    let result = body.result.as_ref().expect("set above");
    if args.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else if matches!(planned, Planned::Load(_)) {
        println!("{}", runner::load_report(result));
    } else {
        println!("{}", runner::cdm_table(result));
    }
    if let Some(url) = &args.submit {
        submit(url, &body)?;
    }
    Ok(())
}

/// A burst test set or a test of behaviour under load.
enum Planned {
    Burst(Plan),
    Load(LoadPlan),
}

/// 90 % of what the target has free, whole MiB: the cache test writes until the cache
/// is full and well past it, without filling the drive.
fn default_cache_span(target: &Target) -> Result<u64> {
    const MIB: u64 = 1 << 20;
    let free = match target {
        Target::Dir(dir) => runner::available_bytes(dir)?,
        Target::Device(_) => bail!("--profile cache on a device: give --size (how much of it to write)"),
    };
    Ok((free / 10 * 9 / MIB * MIB).max(16 * MIB))
}

/// Applies `--tag FIELD=VALUE` through the results fields' own parsing; the fields set.
fn apply_tags(tags: &mut Tags, given: &[String]) -> Result<Vec<String>> {
    let mut typed = Vec::new();
    for t in given {
        let Some((name, value)) = t.split_once('=') else {
            bail!("--tag {t:?}: expected FIELD=VALUE, e.g. --tag chipset=X570");
        };
        let name = name.trim();
        let field = bench::fields::field(name)
            .filter(|f| f.is_editable())
            .with_context(|| format!("--tag {t:?}: no tag field {name:?}; fields: {}", editable_names()))?;
        field.set_text(tags, value.trim()).map_err(|e| anyhow::anyhow!("--tag {t:?}: {e}"))?;
        if !typed.iter().any(|n| n == name) {
            typed.push(name.to_string());
        }
    }
    Ok(typed)
}

fn editable_names() -> String {
    bench::fields::FIELDS.iter().filter(|f| f.is_editable()).map(|f| f.name).collect::<Vec<_>>().join(", ")
}

/// Ctrl-C (and a polite kill) sets [`CANCEL`] instead of ending the process at once, so
/// the runner can stop fio and remove its test file.
fn watch_for_interrupts(program: &str) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).context("listening for Ctrl-C")?;
    let program = program.to_string();
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            eprintln!("\n{program}: stopping (fio is stopped and the test file removed)…");
            CANCEL.store(true, Ordering::SeqCst);
        }
    });
    Ok(())
}

/// Progress on stderr: a bar on a terminal, otherwise a line whenever a fio run starts.
/// `unit` names what `Progress::pass` counts: `pass`, `point` (of a sweep), `round`.
fn progress_printer(unit: &'static str) -> Box<dyn FnMut(&Progress)> {
    let describe = move |p: &Progress| {
        let what = match p.phase {
            Phase::Preparing => "writing the test data".to_string(),
            Phase::WarmUp => format!("{} {} warm-up", p.test, op_name(p)),
            Phase::Measuring => format!("{} {} {unit} {} of {}", p.test, op_name(p), p.pass, p.passes),
            Phase::Interval if unit == "run" => "idle, letting the drive empty its cache".to_string(),
            Phase::Interval => format!("pause before {} {}", p.test, op_name(p)),
        };
        format!("{what}, about {} left", minutes(p.remaining))
    };
    if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(1);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} fio runs · {msg}")
                .expect("a valid template"),
        );
        let bar = Finish(bar);
        Box::new(move |p: &Progress| {
            bar.0.set_length(p.runs_total as u64);
            bar.0.set_position(p.runs_done as u64);
            bar.0.set_message(describe(p));
        })
    } else {
        let mut last = None;
        Box::new(move |p: &Progress| {
            let now = (p.runs_done, p.phase == Phase::Interval);
            if last != Some(now) {
                last = Some(now);
                eprintln!("[{}/{}] {}", p.runs_done + 1, p.runs_total, describe(p));
            }
        })
    }
}

/// The progress bar, cleared when the printer holding it is dropped.
struct Finish(indicatif::ProgressBar);

impl Drop for Finish {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// `read`, `write` (the operation's public name), or nothing while preparing.
fn op_name(p: &Progress) -> String {
    p.op.map(|op| bench::fields::unit_name(&op)).unwrap_or_default()
}

fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        _ => format!("{} min {} s", s / 60, s % 60),
    }
}

/// Posts the submission and says where the result and its drive are.
fn submit(base: &str, body: &SubmitBody) -> Result<()> {
    let base = base.trim_end_matches('/');
    let url = format!("{base}/api/v1/results");
    println!("Sending the result to {url} …");
    let json = serde_json::to_vec(body)?;
    let mut answer = ureq::post(&url)
        .config()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .header("content-type", "application/json")
        .send(&json[..])
        .with_context(|| format!("sending the result to {url}"))?;
    let status = answer.status();
    let text = answer.body_mut().read_to_string().context("reading the server's answer")?;
    if !status.is_success() {
        let detail = serde_json::from_str::<api_types::ErrorBody>(&text)
            .map(|e| {
                e.errors
                    .iter()
                    .map(|i| match &i.pointer {
                        Some(p) => format!("{} (at {p})", i.detail),
                        None => i.detail.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or(text);
        bail!("{url} answered {status}: {detail}");
    }
    let answer: SubmitResponse = serde_json::from_str(&text).context("reading the server's answer")?;
    let page = format!("{base}/results/{}", answer.id);
    if answer.duplicate {
        println!("Already stored as result {}: {page}", answer.id);
    } else {
        println!("Stored as result {}: {page}", answer.id);
    }
    // The drive the server identified, for its page.
    let view: Option<api_types::ResultView> = ureq::get(&format!("{base}{}", answer.url))
        .call()
        .ok()
        .and_then(|mut r| r.body_mut().read_to_string().ok())
        .and_then(|text| serde_json::from_str(&text).ok());
    if let Some(sku) = view.as_ref().and_then(|v| v.tags.drive.sku.as_ref()) {
        println!("Its drive's page: {base}/drives/{sku}");
    } else {
        println!("No drive was identified: name it on the result's page with the edit token.");
    }
    if let Some(token) = &answer.edit_token {
        println!("Edit token (keep it to correct or delete this result): {token}");
    }
    Ok(())
}
