//! Latency percentiles, load curves and runs sampled over time from real fio output: the corpus's fio 3.42 run
//! (its JSON checked against the text report fio printed beside it) and a real queue-depth
//! sweep made for these tests (`tests/data/README.md`).

mod common;

use bench::curves::{knee, load_curves};
use bench::{Access, Op, ToolFamily};
use serde_json::Value;

fn sweep_text() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fio-3.33_randread_4k_qd1-16_sweep.json"
    ))
    .unwrap()
}

/// The corpus run was saved as `json+normal`: fio's text report, printed from the same
/// run, rounds each percentile up to whole microseconds. The parsed percentiles must be the
/// report's, every one of them.
#[test]
fn fio_percentiles_are_the_ones_fio_printed() {
    let path = common::corpus()
        .join("fio/01__unknown_id64433026118__fio-3.42_json+normal_cbt_randwrite_qd1_nvme.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let results = bench::parse_str(&text, None).unwrap();
    let write = results[0].metrics.iter().find(|m| m.op == Op::Write).expect("a write metric");
    // ` |  1.00th=[  562],  5.00th=[  603], ...` after `clat percentiles (usec):`.
    let report: Vec<(f64, f64)> = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("clat percentiles (usec)"))
        .skip(1)
        .take_while(|l| l.trim_start().starts_with('|'))
        .flat_map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
        .filter_map(|cell| {
            let (p, v) = cell.trim().trim_start_matches('|').trim().split_once("th=[")?;
            Some((p.trim().parse().ok()?, v.trim_end_matches(']').trim().parse().ok()?))
        })
        .collect();
    assert_eq!(report.len(), 17, "{report:?}");
    let parsed: Vec<(f64, f64)> = write.latency_percentiles.iter().map(|p| (p.percent, p.us)).collect();
    assert_eq!(parsed.len(), report.len(), "{parsed:?}");
    for ((p, us), (rp, rus)) in parsed.iter().zip(&report) {
        assert_eq!(p, rp);
        assert_eq!(us.ceil(), *rus, "{p}th: parsed {us} µs, fio printed {rus}");
    }
    assert_eq!(write.latency_percentile(99.0), Some(parsed[12].1));
    // `    clat (usec): min=488, max=9052, avg=794.09, stdev=229.51`: the spread of the same
    // completion latency, which the report rounds (min and max down, stdev to 0.01).
    let line = text.lines().find(|l| l.trim_start().starts_with("clat (usec):")).unwrap();
    let field = |name: &str| -> f64 {
        line.split(&format!("{name}=")).nth(1).unwrap().split(',').next().unwrap().trim().parse().unwrap()
    };
    let spread = write.latency_spread.as_ref().expect("fio's clat min, max, stddev");
    assert_eq!(spread.min_us.unwrap().floor(), field("min"));
    assert_eq!(spread.max_us.unwrap().floor(), field("max"));
    assert!((spread.stddev_us.unwrap() - field("stdev")).abs() < 0.005, "{spread:?}");
    // The read direction did no I/O: no metric, so no spread of zeros either.
    assert!(results[0].metrics.iter().all(|m| m.op == Op::Write));
    // One load, one point: no curve.
    assert!(load_curves(&results[0]).is_empty());
}

/// Five jobs of one test at queue depths 1 to 16 make one curve, each point the job's
/// figures as fio's JSON gives them.
#[test]
fn a_queue_depth_sweep_is_one_curve_with_fios_figures() {
    let text = sweep_text();
    let json: Value = serde_json::from_str(&text).unwrap();
    let result = bench::parse_str(&text, None).unwrap().remove(0);
    let curves = load_curves(&result);
    assert_eq!(curves.len(), 1, "{curves:?}");
    let curve = &curves[0];
    assert_eq!(
        (curve.key.family, curve.key.access, curve.key.block_size, curve.key.op),
        (ToolFamily::Fio, Access::Rnd, 4096, Op::Read)
    );
    let jobs = json["jobs"].as_array().unwrap();
    assert_eq!(curve.points.len(), jobs.len());
    for (point, job) in curve.points.iter().zip(jobs) {
        let read = &job["read"];
        assert_eq!(point.queue_depth.to_string(), job["job options"]["iodepth"].as_str().unwrap());
        assert_eq!(point.outstanding, point.queue_depth);
        assert_eq!(point.iops, read["iops"].as_f64());
        let clat = &read["clat_ns"];
        assert_eq!(point.p99_us, clat["percentile"]["99.000000"].as_f64().map(|ns| ns / 1000.0));
        let mean_us = read["lat_ns"]["mean"].as_f64().unwrap() / 1000.0;
        assert!((point.latency_us.unwrap() - mean_us).abs() < 1e-9);
    }
    // The knee, if any, is a point after which every step of this real run grew
    // latency faster than IOPS, as fio's own figures show.
    if let Some(k) = knee(&curve.points) {
        for pair in curve.points[k..].windows(2) {
            let lat = pair[1].latency_us.unwrap() / pair[0].latency_us.unwrap();
            let iops = pair[1].iops.unwrap() / pair[0].iops.unwrap();
            assert!(lat > iops, "{pair:?}");
        }
        if k > 0 {
            let (a, b) = (&curve.points[k - 1], &curve.points[k]);
            assert!(b.latency_us.unwrap() / a.latency_us.unwrap() <= b.iops.unwrap() / a.iops.unwrap());
        }
    }
}

/// Curves are made only of equal tests: the sweep with its third job made a write is
/// two tests, one of which has a single load (no curve).
#[test]
fn a_curve_holds_one_test() {
    let mut result = bench::parse_str(&sweep_text(), None).unwrap().remove(0);
    result.metrics[2].op = Op::Write;
    let curves = load_curves(&result);
    assert_eq!(curves.len(), 1);
    assert_eq!(curves[0].points.len(), 4);
    assert!(curves[0].points.iter().all(|p| p.metric != 2));
}

/// A curve needs three loads of one test. In the corpus, CrystalDiskMark 6's three 4 KiB
/// rows of an operation (Q1T1, Q32T1, Q8T8) make one; CrystalDiskMark 8's and KDiskMark's
/// two rows of a test (Q1 and Q32) stay two figures.
#[test]
fn three_loads_of_a_test_make_a_curve_two_do_not() {
    let (mut two_loads, mut curves_seen) = (0, 0);
    for dir in std::fs::read_dir(common::corpus()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            for result in
                bench::parse_bytes(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            {
                let family = result.family();
                let curves = load_curves(&result);
                let mut loads: std::collections::BTreeMap<_, std::collections::BTreeSet<_>> =
                    Default::default();
                for m in &result.metrics {
                    loads
                        .entry(bench::curves::CurveKey::of(family, m))
                        .or_default()
                        .insert((m.queue_depth, m.threads));
                }
                for (key, at) in &loads {
                    let curve = curves.iter().find(|c| c.key == *key);
                    match at.len() {
                        0 | 1 => assert!(curve.is_none()),
                        2 => {
                            assert!(curve.is_none(), "{}: {key:?}", path.display());
                            two_loads += 1;
                        }
                        n => {
                            assert_eq!(curve.map(|c| c.points.len()), Some(n), "{}: {key:?}", path.display());
                            curves_seen += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(two_loads > 0 && curves_seen > 0, "{two_loads} tests at two loads, {curves_seen} curves");
}

/// What a drive page lists as tests: every row of every burst tool's export in the
/// corpus (CrystalDiskMark 6's three 4 KiB loads included), and of the real fio sweep
/// only what is not on the sweep; a result kept to its burst figures has no series over
/// time left (their metric indices would point elsewhere).
#[test]
fn a_sweep_folds_into_its_curve_and_burst_rows_stay_tests() {
    use bench::curves::{burst_metrics, keep_burst_only};
    let mut burst_files = 0;
    for dir in std::fs::read_dir(common::corpus()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.file_name().is_some_and(|n| n == "fio") {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            for result in bench::parse_bytes(&std::fs::read(&path).unwrap(), None).unwrap() {
                let all: Vec<_> = result.keyed_metrics().map(|(k, _)| k).collect();
                let burst: Vec<_> = burst_metrics(&result).map(|(k, _)| k).collect();
                assert_eq!(burst, all, "{}", path.display());
                burst_files += 1;
            }
        }
    }
    assert!(burst_files >= 20, "{burst_files} burst results in the corpus");

    let mut sweep = bench::parse_str(&sweep_text(), None).unwrap().remove(0);
    assert_eq!(sweep.metrics.len(), 5);
    assert_eq!(burst_metrics(&sweep).count(), 0);
    // Another test beside the sweep stays, and so does a three-load test.
    let mut other = sweep.metrics[0].clone();
    other.op = Op::Write;
    sweep.metrics.push(other);
    for qd in [1, 4, 32] {
        let mut m = sweep.metrics[0].clone();
        m.block_size = 1 << 20;
        m.queue_depth = qd;
        sweep.metrics.push(m);
    }
    sweep.over_time.push(bench::TimeSeries { metric: 5, points: Vec::new(), after_idle_secs: None });
    let burst: Vec<usize> = burst_metrics(&sweep)
        .map(|(_, m)| sweep.metrics.iter().position(|x| std::ptr::eq(x, m)).unwrap())
        .collect();
    assert_eq!(burst, vec![5, 6, 7, 8]);
    let mut kept = sweep.clone();
    keep_burst_only(&mut kept);
    assert_eq!(kept.metrics, sweep.metrics[5..].to_vec());
    assert!(kept.over_time.is_empty());
}

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The JSON objects of a paste, in order.
fn objects(text: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(text).into_iter::<Value>().map(Result::unwrap).collect()
}

/// fio with `--status-interval=1` printed the run so far five times, then the whole run:
/// one result with the whole run's figures, sampled over time. Every byte fio reported
/// is in exactly one interval.
#[test]
fn a_run_printed_at_intervals_is_one_result_sampled_over_time() {
    let text = data("fio-3.33_seqwrite_1m_qd8_status-interval-1.json");
    let snapshots = objects(&text);
    assert_eq!(snapshots.len(), 6);
    let results = bench::parse_str(&text, None).unwrap();
    assert_eq!(results.len(), 1, "one run");
    let result = &results[0];
    let whole = &snapshots.last().unwrap()["jobs"][0]["write"];
    assert_eq!(result.metrics.len(), 1);
    assert_eq!(result.metrics[0].mbps, whole["bw_bytes"].as_f64().map(|b| b / 1e6));
    assert_eq!(result.over_time.len(), 1);
    let series = &result.over_time[0];
    assert_eq!(series.metric, 0);
    assert_eq!(series.points.len(), snapshots.len());
    for (point, snapshot) in series.points.iter().zip(&snapshots) {
        let write = &snapshot["jobs"][0]["write"];
        assert_eq!(point.bytes, write["io_bytes"].as_u64().unwrap());
        assert_eq!(point.secs, write["runtime"].as_f64().unwrap() / 1000.0);
    }
    // The intervals' bytes add up to the whole run's.
    let mut t0 = 0.0;
    let mut sum = 0.0;
    for p in &series.points {
        sum += p.mbps * 1e6 * (p.secs - t0);
        t0 = p.secs;
    }
    let total = whole["io_bytes"].as_f64().unwrap();
    assert!((sum - total).abs() / total < 1e-9, "{sum} vs {total}");
    // And the whole run's rate lies among the intervals' rates.
    let rates: Vec<f64> = series.points.iter().map(|p| p.mbps).collect();
    let (low, high) = rates.iter().fold((f64::MAX, 0.0f64), |(l, h), r| (l.min(*r), h.max(*r)));
    let whole_rate = result.metrics[0].mbps.unwrap();
    assert!(low <= whole_rate && whole_rate <= high, "{rates:?} {whole_rate}");
}

/// The same job run twice, one run after the other: two results, neither sampled.
#[test]
fn two_runs_of_one_job_are_two_results() {
    let text = data("fio-3.33_randread_4k_qd4_two_runs.json");
    let runs = objects(&text);
    let results = bench::parse_str(&text, None).unwrap();
    assert_eq!(results.len(), 2);
    for (result, run) in results.iter().zip(&runs) {
        assert!(result.over_time.is_empty());
        assert_eq!(result.metrics[0].iops, run["jobs"][0]["read"]["iops"].as_f64());
    }
}
