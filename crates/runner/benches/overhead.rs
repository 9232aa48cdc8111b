//! The runner's overhead beside fio alone: the wall time of a whole small profile
//! through `runner::run` against the same job files run by fio directly, one after the
//! other in the same process, interleaved, medians of several rounds.
//!
//! `cargo bench -p runner` (as root or not; a temp directory on the system's disk).

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const ROUNDS: usize = 5;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo test --all-targets` runs benchmarks once as tests: measuring is for `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        println!("runner benchmark: run it with `cargo bench -p runner --bench overhead`");
        return;
    }
    let scratch = common::scratch("bench");
    let dir = scratch.path().to_path_buf();
    let profile: runner::Profile = "kdiskmark".parse().unwrap();
    let mut plan = runner::Plan::new(runner::Target::Dir(dir.clone()), profile);
    plan.size_bytes = 16 << 20;
    plan.passes = 1;
    plan.measure_secs = 1;
    plan.interval_secs = 0;
    plan.flush_page_cache = false;

    let mut through_runner = Vec::new();
    let mut fio_alone = Vec::new();
    let mut jobs: Option<runner::Run> = None;
    for round in 0..ROUNDS {
        for turn in 0..2 {
            if (turn == 0) == (round % 2 == 0) {
                let start = Instant::now();
                let run = runner::run(&plan, &mut |_| {}, &AtomicBool::new(false)).expect("runner");
                through_runner.push(start.elapsed());
                jobs.get_or_insert(run);
            } else {
                let run = jobs.as_ref().unwrap();
                let file = dir.join("direct.tmp");
                let start = Instant::now();
                common::fio_json(&common::with_filename(
                    run.prepare_job_file.as_deref().expect("a burst run prepares"),
                    &file,
                ));
                for job in &run.jobs {
                    common::fio_json(&common::with_filename(&job.job_file, &file));
                }
                fio_alone.push(start.elapsed());
                std::fs::remove_file(&file).unwrap();
            }
        }
    }
    let (r, f) = (median(through_runner.clone()), median(fio_alone.clone()));
    println!(
        "profile {} (8 fio runs + layout), 16 MiB, 1 pass of at most 1 s, no interval; {ROUNDS} rounds",
        plan.profile
    );
    println!("  through the runner: median {:>8.1} ms  {:?}", r.as_secs_f64() * 1e3, through_runner);
    println!("  fio alone:          median {:>8.1} ms  {:?}", f.as_secs_f64() * 1e3, fio_alone);
    println!(
        "  ratio runner / fio: {:.3} (overhead {:+.1} ms per profile, {:+.1} ms per fio run)",
        r.as_secs_f64() / f.as_secs_f64(),
        (r.as_secs_f64() - f.as_secs_f64()) * 1e3,
        (r.as_secs_f64() - f.as_secs_f64()) * 1e3 / 9.0
    );
}
