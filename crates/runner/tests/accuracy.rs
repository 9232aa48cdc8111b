//! The runner reports what fio measures: every figure of a KDiskMark Default run (MB/s,
//! IOPS and latency of its 8 tests) within ±5 % of fio run directly on the same job
//! files, on a plain directory and on ext4 on a loop device (root only).
//!
//! Both devices are throttled for this process and its fio by a block-I/O control group
//! (50 MB/s, 2,000 operations/s): a device of steady speed, like a slow SD card. On this
//! shared 2-core VM the unthrottled disks vary by 10-25 % from one fio run to the next, for
//! fio alone as for the runner (the benchmark `cargo bench -p runner --bench accuracy`
//! prints that), so a ±5 % check there fails by chance; under the throttle five fio runs
//! of one job file agree to about 1 %, and what is left is the runner's own error: job
//! files, pass selection, units, reading fio's JSON, its overhead.
//!
//! The speeds are also checked against the throttle itself (within 15 %: fio's first
//! tenth of a second runs before the throttle's first slice is spent), which says the
//! throttle held and both sides measured the device, not the machine's load.

mod common;

use runner::{Plan, Profile, Target};
use std::path::Path;

const LIMITS: common::Limits = common::Limits { bytes_per_sec: 50_000_000, ops_per_sec: 2_000 };
/// Five: with three, one slow throttle slice in a round moved a median past 5 % about
/// one full run in four on this shared machine (RND4K Q1T1 latency, +5.5 %).
const ROUNDS: usize = 5;
const TOLERANCE: f64 = 0.05;

#[test]
#[ignore = "needs root: a loop device and a block-I/O control group (cargo xtask test runs it as root)"]
fn every_figure_is_fios_within_5_percent_on_a_directory_and_a_loop_device() {
    common::needs_root();
    let _fio = common::fio_lock();
    let dir = common::scratch("accuracy");
    let loop_fs = common::LoopFs::new(160);
    let _throttle = common::Throttle::new(&[dir.path(), &loop_fs.mount_point], LIMITS)
        .unwrap_or_else(|e| panic!("cannot throttle the test devices: {e}"));

    let mut failures = Vec::new();
    for (target, what) in [(dir.path(), "plain directory"), (&loop_fs.mount_point, "ext4 on a loop device")] {
        let first = compare(target, what);
        if first.is_empty() {
            continue;
        }
        // A slow moment of this shared machine moves a median now and then; an error of
        // the runner's repeats. Measured again once: what is off both times fails.
        println!("{what}: {} figure(s) off by more than 5 %, measuring again", first.len());
        let figure = |f: &String| f.split(": runner").next().unwrap_or_default().to_string();
        let off: Vec<String> = first.iter().map(figure).collect();
        failures.extend(compare(target, what).into_iter().filter(|f| off.contains(&figure(f))));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// KDiskMark's Default profile, 64 MiB, one pass of at most 1 s per test: every test is
/// cut by the runtime (64 MiB takes 1.3 s at 50 MB/s), so each measures a whole second.
fn plan(dir: &Path) -> Plan {
    let mut plan = common::quick_plan(Target::Dir(dir.to_path_buf()), Profile::KDISKMARK);
    plan.size_bytes = 64 << 20;
    plan
}

fn compare(dir: &Path, what: &str) -> Vec<String> {
    let sides = common::interleaved(&plan(dir), dir, ROUNDS);
    assert_eq!(sides.runner.len(), 8, "{what}: {:?}", sides.runner.keys());
    let mut failures = Vec::new();
    println!("{what}: medians of {ROUNDS} interleaved rounds, runner / fio on the same job files");
    for (key, runs) in &sides.runner {
        let fio = &sides.fio[key];
        let label = format!("{} {}", key.0, key.1.to_lowercase());
        for (name, figure) in common::FIGURES {
            let ours = common::median(runs.iter().map(figure).collect());
            let theirs = common::median(fio.iter().map(figure).collect());
            let ratio = ours / theirs;
            println!(
                "  {label:<16} {name:<10} runner {ours:>9.2}  fio {theirs:>9.2}  {:+.2} %",
                (ratio - 1.0) * 100.0
            );
            if (ratio - 1.0).abs() > TOLERANCE {
                failures.push(format!("{what}: {label} {name}: runner {ours:.2}, fio {theirs:.2}"));
            }
        }
        // The throttle held: a 1 MiB test moves the byte limit, a 4 KiB one the operation limit.
        let median_fio = |f: common::Figure| common::median(fio.iter().map(f).collect());
        let (measured, limit) = if key.0.starts_with("SEQ") {
            (median_fio(|x| x.mbps * 1e6), LIMITS.bytes_per_sec as f64)
        } else {
            (median_fio(|x| x.iops), LIMITS.ops_per_sec as f64)
        };
        assert!(
            (measured / limit - 1.0).abs() < 0.15,
            "{what}: {label}: fio measured {measured:.0} per second against a throttle of {limit:.0}: \
             the device's speed was not the throttle's, so this comparison would measure the machine's load"
        );
    }
    failures
}
