//! The runner's command line, shared by the standalone `ssdbase-bench` binary (the one
//! people download from an SSDBase's "Measure your drive" page) and `ssdbase bench`:
//! identify the drive under TARGET and its platform (`probe`), measure it with fio as
//! KDiskMark or CrystalDiskMark would (`runner`), show both, and with `--submit URL`
//! send the result with its tags and how each was obtained.

use anyhow::{bail, Context, Result};
use api_types::{ProbedFact, RunnerJob, RunnerRecord, SubmitBody, SubmitResponse};
use bench::{DataPattern, Tags};
use runner::{Phase, Plan, Profile, Progress, Target};
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
    /// cdm8 (CrystalDiskMark 8's default), cdm8-nvme, cdm8-peak, cdm8-real, ...
    /// (`--profile list` names them all).
    #[arg(long, default_value = "kdiskmark")]
    profile: String,
    /// Test size, as CrystalDiskMark's menu: 16MiB to 64GiB.
    #[arg(long, default_value = "1GiB")]
    size: String,
    /// How many times each test runs (1-9); the best pass counts, as in KDiskMark.
    #[arg(long, default_value_t = 5)]
    passes: u32,
    /// Seconds each pass measures (KDiskMark's "measuring time").
    #[arg(long, default_value_t = 5)]
    time: u32,
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
        return Ok(());
    }
    // Without fio nothing can be measured: say so (and how to install it) before probing.
    runner::fio_version()?;
    let profile: Profile =
        args.profile.parse().map_err(|e: runner::UnknownProfile| anyhow::anyhow!("{e}"))?;
    let target =
        if args.raw_device { Target::Device(args.target.clone()) } else { Target::Dir(args.target.clone()) };
    let mut plan = Plan::new(target, profile);
    plan.size_bytes = runner::parse_size(&args.size)?;
    plan.passes = args.passes;
    plan.measure_secs = args.time;
    plan.interval_secs = args.interval;
    plan.pattern = if args.zero_fill { DataPattern::ZeroFill } else { DataPattern::Random };
    plan.buffered = args.buffered;
    plan.destructive = args.destructive;

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
    runner::check(&plan)?;
    watch_for_interrupts(program)?;

    let mut progress = progress_printer(plan.passes);
    let run = runner::run(&plan, &mut *progress, &CANCEL)?;
    drop(progress);

    // The runner reads fio's output as fio's; what measured it is this command.
    let mut result = run.result;
    result.tool = bench::Tool::SsdbaseBench;
    result.tool_version = Some(env!("CARGO_PKG_VERSION").to_string());
    result.engine = Some(run.fio_version.clone());
    let record = RunnerRecord {
        runner_version: env!("CARGO_PKG_VERSION").to_string(),
        fio_version: run.fio_version.clone(),
        buffered: plan.buffered,
        jobs: std::iter::once(RunnerJob {
            test: "prepare (writes the test data)".into(),
            job: run.prepare_job_file,
        })
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
    if args.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else {
        println!("{}", runner::cdm_table(body.result.as_ref().expect("set above")));
    }
    if let Some(url) = &args.submit {
        submit(url, &body)?;
    }
    Ok(())
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
fn progress_printer(passes: u32) -> Box<dyn FnMut(&Progress)> {
    let describe = move |p: &Progress| {
        let what = match p.phase {
            Phase::Preparing => "writing the test data".to_string(),
            Phase::WarmUp => format!("{} {} warm-up", p.test, op_name(p)),
            Phase::Measuring => format!("{} {} pass {} of {passes}", p.test, op_name(p), p.pass),
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
