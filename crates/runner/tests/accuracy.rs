//! Every figure the runner reports against fio run directly on the same job files, on a
//! plain directory and on ext4 on a loop device: medians of 5 runs each, interleaved
//! (runner, fio, fio, runner, ...) so both share the machine's noise.
//!
//! CrystalDiskMark's method (`cdm8-peak`: SEQ1M Q8T1 and RND4K Q32T1, read and write):
//! its passes run for their whole time (`time_based`). KDiskMark's end after one sweep of
//! the file, a few tens of milliseconds for a 64 MiB file here, too short to measure
//! anything to 5 % on a shared 2-core VM. 2 s per pass after CrystalDiskMark's 5 s
//! warm-up; the direct runs repeat the same sequence (layout, warm-up, pass).

mod common;

use runner::{Figures, Method, Preset, Profile, Set, Target};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

const ROUNDS: usize = 5;
const TOLERANCE: f64 = 0.05;

type Key = (String, String);

fn compare_on(dir: &Path, what: &str) {
    let _fio = common::fio_lock();
    let profile = Profile::new(Method::Cdm8, Set::Peak, Preset::Standard);
    let mut plan = common::quick_plan(Target::Dir(dir.to_path_buf()), profile);
    plan.size_bytes = 64 << 20;
    plan.measure_secs = 2;

    let mut by_runner: BTreeMap<Key, Vec<Figures>> = BTreeMap::new();
    let mut direct: BTreeMap<Key, Vec<Figures>> = BTreeMap::new();
    let mut jobs = None;
    for round in 0..ROUNDS {
        let runner_first = round % 2 == 0;
        for turn in 0..2 {
            if (turn == 0) == runner_first {
                let run = runner::run(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap();
                for job in &run.jobs {
                    let key = (job.test.clone(), format!("{:?}", job.op));
                    by_runner.entry(key).or_default().push(job.passes[0]);
                }
                jobs.get_or_insert(run);
            } else {
                let run = jobs.as_ref().expect("the runner goes first in round 0");
                let file = dir.join("direct-fio.tmp");
                common::fio_direct(&common::with_filename(&run.prepare_job_file, &file));
                for job in &run.jobs {
                    if let Some(warm_up) = &job.warm_up_job_file {
                        common::fio_direct(&common::with_filename(warm_up, &file));
                    }
                    let figures = common::fio_direct(&common::with_filename(&job.job_file, &file));
                    direct.entry((job.test.clone(), format!("{:?}", job.op))).or_default().push(figures);
                }
                std::fs::remove_file(&file).unwrap();
            }
        }
    }
    assert!(common::leftovers(dir).is_empty());

    println!("{what}: medians of {ROUNDS} runs, runner vs fio direct (same job files)");
    println!("{:<18} {:>8} {:>10} {:>7}   {:>10} {:>10} {:>7}   {:>9} {:>9} {:>7}", "test", "MB/s", "fio MB/s", "diff", "IOPS", "fio IOPS", "diff", "lat µs", "fio µs", "diff");
    let mut worst: f64 = 0.0;
    let mut failures = Vec::new();
    for (key, runs) in &by_runner {
        let fio = &direct[key];
        let pick = |v: &[Figures], f: fn(&Figures) -> f64| common::median(v.iter().map(f).collect());
        let mut row = format!("{:<18}", format!("{} {}", key.0, key.1.to_lowercase()));
        for (name, f) in [
            ("MB/s", (|x: &Figures| x.mbps) as fn(&Figures) -> f64),
            ("IOPS", |x: &Figures| x.iops),
            ("latency", |x: &Figures| x.latency_us),
        ] {
            let (ours, theirs) = (pick(runs, f), pick(fio, f));
            let diff = ours / theirs - 1.0;
            worst = worst.max(diff.abs());
            row.push_str(&format!(" {ours:>9.1} {theirs:>9.1} {:>+6.1}%  ", diff * 100.0));
            if diff.abs() > TOLERANCE {
                failures.push(format!("{} {} {name}: {ours:.1} vs {theirs:.1} ({:+.1} %)", key.0, key.1, diff * 100.0));
            }
        }
        println!("{row}");
        println!("{:<18} runner passes {:?}", "", runs.iter().map(|f| f.mbps.round()).collect::<Vec<_>>());
        println!("{:<18} fio    passes {:?}", "", fio.iter().map(|f| f.mbps.round()).collect::<Vec<_>>());
    }
    println!("{what}: largest difference {:.1} %", worst * 100.0);
    assert!(failures.is_empty(), "beyond ±5 %: {failures:#?}");
}

#[test]
fn figures_match_fio_on_a_plain_directory() {
    let dir = common::Scratch::new("accuracy");
    compare_on(&dir.path, "plain directory (ext4 on virtio)");
}

#[test]
fn figures_match_fio_on_ext4_on_a_loop_device() {
    require_root!();
    let fs_ = common::LoopFs::new(160);
    compare_on(&fs_.mount_point, "ext4 on a loop device");
}
