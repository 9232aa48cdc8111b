//! The load profiles on real fio runs against devices whose behaviour is known because a
//! block-I/O control group sets it (root only; `cargo xtask test` runs them as root):
//! * a drive with a write cache: ext4 on a loop device whose write limit a helper lowers
//!   once the group's own byte counter has passed N bytes, and restores after a second
//!   without writes. The cache test must find N within ±10 %, the lowered rate within
//!   ±10 %, and after the idle pause the cache again;
//! * a steady drive (a fixed operations limit) reaches steady state within the round
//!   limit; one whose limit keeps falling never does;
//! * the sweep's IOPS at every point are fio's own on the same job file within ±5 %, and
//!   its knee is the first point the operations limit caps.

mod common;

use bench::cache::{write_cache, WriteCache};
use bench::steady::{steady_state, Steadiness};
use bench::{Op, Stat};
use common::Limits;
use runner::{LoadPlan, LoadProfile, Target};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

const MIB: u64 = 1 << 20;

fn plan(dir: &std::path::Path, profile: LoadProfile, size: u64) -> LoadPlan {
    LoadPlan::new(Target::Dir(dir.to_path_buf()), profile, size)
}

#[test]
#[ignore = "needs root: a loop device and a block-I/O control group (cargo xtask test runs it as root)"]
fn the_cache_test_finds_a_throttled_cache_its_size_and_the_rate_after_it() {
    common::needs_root();
    let _fio = common::fio_lock();
    let fs = common::LoopFs::new(1200);
    const CACHE: u64 = 384 * MIB;
    const FAST: u64 = 150_000_000;
    const SLOW: u64 = 40_000_000;
    let throttle = Arc::new(
        common::Throttle::new(&[&fs.mount_point], Limits { bytes_per_sec: FAST, ops_per_sec: 100_000 })
            .unwrap_or_else(|e| panic!("cannot throttle the loop device: {e}")),
    );
    let _cache = common::CacheDevice::new(
        throttle.clone(),
        CACHE,
        Limits { bytes_per_sec: FAST, ops_per_sec: 100_000 },
        Limits { bytes_per_sec: SLOW, ops_per_sec: 100_000 },
        Duration::from_secs(1),
    );
    let mut plan = plan(&fs.mount_point, LoadProfile::Cache, 1024 * MIB);
    plan.idle_secs = 3;
    let mut phases = Vec::new();
    let run = runner::run_load(&plan, &mut |p| phases.push(p.phase), &AtomicBool::new(false)).unwrap();
    println!("{}", runner::load_report(&run.result));
    assert!(phases.contains(&runner::Phase::Interval), "the idle pause reported its progress");
    assert!(common::leftovers(&fs.mount_point).is_empty());

    let result = &run.result;
    assert_eq!(result.over_time.len(), 3, "the write, the write after the pause, the random write");
    let first = write_cache(&result.over_time[0].points).unwrap();
    let WriteCache::Found { cache_bytes, after_cache_mbps, .. } = first else {
        panic!("no cache found: {first:?}")
    };
    let size_error = cache_bytes as f64 / CACHE as f64 - 1.0;
    let rate_error = after_cache_mbps * 1e6 / SLOW as f64 - 1.0;
    println!(
        "cache {:.1} MiB against {} MiB ({:+.1} %), after it {after_cache_mbps:.1} MB/s against {} ({:+.1} %)",
        cache_bytes as f64 / MIB as f64,
        CACHE / MIB,
        size_error * 100.0,
        SLOW as f64 / 1e6,
        rate_error * 100.0
    );
    assert!(size_error.abs() <= 0.10, "cache size off by {:.1} %", size_error * 100.0);
    assert!(rate_error.abs() <= 0.10, "after-cache rate off by {:.1} %", rate_error * 100.0);
    // The stored figures: the whole write's average and the rate after the cache.
    let after =
        result.metrics.iter().find(|m| m.stat == Some(Stat::AfterCache)).expect("an after-cache figure");
    assert_eq!((after.op, after.block_size, after.queue_depth), (Op::Write, MIB, 8));
    assert!((after.mbps.unwrap() - after_cache_mbps).abs() < 1e-9);
    // The helper emptied the cache during the pause: all of it came back.
    let again = write_cache(&result.over_time[1].points).unwrap();
    assert_eq!(result.over_time[1].after_idle_secs, Some(3.0));
    let back = bench::cache::recovered(&first, &again).unwrap();
    println!("after 3 s idle: {:.0} % of the cache came back ({again:?})", back * 100.0);
    assert!(back >= 0.9, "{back}");

    // 4 KiB random writes, after another pause: the same cache and the same rate after it
    // (the throttle counts bytes, whatever their order).
    let random = &result.over_time[2];
    let metric = &result.metrics[random.metric];
    assert_eq!(
        (metric.access, metric.block_size, metric.queue_depth, metric.stat),
        (bench::Access::Rnd, 4096, 32, Some(Stat::Avg))
    );
    let WriteCache::Found { cache_bytes, after_cache_mbps, in_cache_mbps, .. } =
        write_cache(&random.points).unwrap()
    else {
        panic!("no cache found in the random writes: {:?}", random.points)
    };
    let size_error = cache_bytes as f64 / CACHE as f64 - 1.0;
    let rate_error = after_cache_mbps * 1e6 / SLOW as f64 - 1.0;
    println!(
        "random 4 KiB: cache {:.1} MiB ({:+.1} %) at {in_cache_mbps:.1} MB/s, after it {after_cache_mbps:.1} MB/s ({:+.1} %)",
        cache_bytes as f64 / MIB as f64,
        size_error * 100.0,
        rate_error * 100.0
    );
    assert!(size_error.abs() <= 0.10, "random-write cache size off by {:.1} %", size_error * 100.0);
    assert!(rate_error.abs() <= 0.10, "random after-cache rate off by {:.1} %", rate_error * 100.0);
    let after = result
        .metrics
        .iter()
        .find(|m| m.stat == Some(Stat::AfterCache) && m.access == bench::Access::Rnd)
        .expect("the random write's after-cache figure");
    assert_eq!((after.block_size, after.queue_depth), (4096, 32));
    assert!((after.iops.unwrap() - after_cache_mbps * 1e6 / 4096.0).abs() < 1e-6);
}

#[test]
#[ignore = "needs root: a loop device and a block-I/O control group (cargo xtask test runs it as root)"]
fn a_steady_device_reaches_steady_state_and_a_falling_one_does_not() {
    common::needs_root();
    let _fio = common::fio_lock();
    let fs = common::LoopFs::new(160);
    const OPS: u64 = 1500;
    let throttle = Arc::new(
        common::Throttle::new(&[&fs.mount_point], Limits { bytes_per_sec: 1_000_000_000, ops_per_sec: OPS })
            .unwrap_or_else(|e| panic!("cannot throttle the loop device: {e}")),
    );
    let mut plan = plan(&fs.mount_point, LoadProfile::Sustained, 32 * MIB);
    plan.measure_secs = 1;
    plan.max_rounds = 12;

    let steady = runner::run_load(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    println!("{}", runner::load_report(&steady.result));
    let metric = &steady.result.metrics[0];
    assert_eq!(metric.stat, Some(Stat::Steady), "{}", metric.label);
    let rounds = &steady.result.over_time[0].points;
    assert!(rounds.len() <= 12);
    let iops: Vec<f64> = rounds.iter().map(|p| p.iops.unwrap()).collect();
    assert!(matches!(steady_state(&iops), Steadiness::Reached { .. }));
    let error = metric.iops.unwrap() / OPS as f64 - 1.0;
    println!(
        "steady at {:.0} IOPS against a limit of {OPS} ({:+.1} %) in {} rounds",
        metric.iops.unwrap(),
        error * 100.0,
        rounds.len()
    );
    assert!(error.abs() < 0.10, "{error}");

    // The limit falls by 12 % every second: each round slower than the one before.
    let stop = Arc::new(AtomicBool::new(false));
    let falling = {
        let (throttle, stop) = (throttle.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut ops = OPS as f64 * 2.0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                throttle.set_write(Limits { bytes_per_sec: 1_000_000_000, ops_per_sec: ops as u64 });
                ops = (ops * 0.88).max(50.0);
                std::thread::sleep(Duration::from_secs(1));
            }
        })
    };
    plan.max_rounds = 8;
    let unsteady = runner::run_load(&plan, &mut |_| {}, &AtomicBool::new(false));
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    falling.join().unwrap();
    let unsteady = unsteady.unwrap();
    println!("{}", runner::load_report(&unsteady.result));
    assert_eq!(unsteady.result.metrics[0].stat, Some(Stat::Unsettled));
    assert_eq!(unsteady.result.over_time[0].points.len(), 8, "every round was run");
    assert!(unsteady.result.comment.as_deref().unwrap().contains("not steady within 8 rounds"));
    assert!(common::leftovers(&fs.mount_point).is_empty());
}

#[test]
#[ignore = "needs root: a loop device and a block-I/O control group (cargo xtask test runs it as root)"]
fn the_sweep_is_fios_own_within_5_percent_and_its_knee_is_where_the_limit_caps_it() {
    common::needs_root();
    let _fio = common::fio_lock();
    let fs = common::LoopFs::new(160);
    const OPS: u64 = 2000;
    let _throttle =
        common::Throttle::new(&[&fs.mount_point], Limits { bytes_per_sec: 50_000_000, ops_per_sec: OPS })
            .unwrap_or_else(|e| panic!("cannot throttle the loop device: {e}"));
    let mut plan = plan(&fs.mount_point, LoadProfile::Sweep, 32 * MIB);
    // Three seconds a point: in one second the 70/30 mix, held at the throttle's reads,
    // came out 5.6 % apart between two runs of the same job (2,917 and 2,762 IOPS), the
    // throttle's own granularity rather than the runner's.
    plan.measure_secs = 3;
    plan.max_qd = 4;

    let run = runner::run_load(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    println!("{}", runner::load_report(&run.result));
    let curves = bench::curves::load_curves(&run.result);
    assert_eq!(curves.len(), 6, "4 KiB read, write, the mix's reads and writes, 1 MiB read and write");

    // fio on the same job files, on a file of its own in the same place.
    let file = fs.mount_point.join("direct-fio.tmp");
    common::fio_direct(&common::with_filename(run.prepare_job_file.as_deref().unwrap(), &file));
    let mut failures = Vec::new();
    for job in &run.jobs {
        // Both directions: a mix's reads and writes are one job's I/O.
        let json: serde_json::Value =
            serde_json::from_slice(&common::fio_json(&common::with_filename(&job.job_file, &file))).unwrap();
        let fio: f64 = ["read", "write"].iter().map(|d| json["jobs"][0][d]["iops"].as_f64().unwrap()).sum();
        let ours = job.passes.iter().map(|f| f.iops).sum::<f64>();
        let error = ours / fio - 1.0;
        println!("{} {:?}: runner {ours:.0} IOPS, fio {fio:.0} ({:+.1} %)", job.test, job.op, error * 100.0);
        if error.abs() > 0.05 {
            failures.push(format!("{} {:?}: runner {ours:.0}, fio {fio:.0}", job.test, job.op));
        }
    }
    std::fs::remove_file(&file).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The 4 KiB curves run into the operations limit: the knee is the first point at it,
    // and every point from there on stays at it.
    for curve in curves.iter().filter(|c| c.key.block_size == 4096 && c.key.mix_read_percent.is_none()) {
        let iops: Vec<f64> = curve.points.iter().map(|p| p.iops.unwrap()).collect();
        let capped = iops.iter().position(|v| *v >= OPS as f64 * 0.9).expect("the limit caps the curve");
        assert!(iops[capped..].iter().all(|v| (*v / OPS as f64 - 1.0).abs() < 0.1), "{iops:?}");
        assert_eq!(bench::curves::knee(&curve.points), Some(capped), "{}: {iops:?}", curve.key.name());
    }
    assert!(common::leftovers(&fs.mount_point).is_empty());
}
