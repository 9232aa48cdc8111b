//! fio's JSON → one pass's figures; passes → a test's figure; a result → the table
//! CrystalDiskMark shows.

use crate::profiles::{Aggregation, TestSpec};
use bench::{BenchResult, Format, Op};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// What one pass (or the aggregate of a test's passes) measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Decimal MB/s: fio's `bw_bytes` / 10^6.
    pub mbps: f64,
    pub iops: f64,
    /// Mean completion latency (fio's `clat_ns`), µs.
    pub latency_us: f64,
}

#[derive(Deserialize)]
struct Output {
    #[serde(default)]
    jobs: Vec<Job>,
}

#[derive(Deserialize)]
struct Job {
    #[serde(default)]
    error: i64,
    read: Option<Direction>,
    write: Option<Direction>,
}

#[derive(Deserialize)]
struct Direction {
    clat_ns: Option<Mean>,
}

#[derive(Deserialize)]
struct Mean {
    mean: Option<f64>,
}

/// fio's `error` of the (one, grouped) job: an errno, 0 when none.
pub(crate) fn job_error(json: &str) -> Option<i64> {
    let out: Output = serde_json::from_str(json_object(json)?).ok()?;
    out.jobs.first().map(|j| j.error)
}

/// The JSON object in fio's stdout (fio may print a warning line before it).
fn json_object(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (end > start).then(|| &text[start..=end])
}

/// One pass's figures from fio's JSON. Bandwidth and IOPS, and the test's shape, come
/// from `bench`'s fio parser, the same code that reads an uploaded fio JSON; the parser
/// gives total latency (`lat_ns`), while KDiskMark reports completion latency (`clat_ns`,
/// benchmark.cpp:165 and 170 since commit 80465b8), so that one number is read here.
pub(crate) fn read_pass(json: &str, test: &TestSpec, op: Op) -> Result<Figures, String> {
    let results = bench::parse_str(json, Some(Format::FioJson)).map_err(|e| e.to_string())?;
    let metric = results
        .first()
        .and_then(|r| r.metrics.iter().find(|m| m.op == op))
        .ok_or_else(|| format!("no {op:?} figures in fio's output"))?;
    let shape = (metric.access, metric.block_size, metric.queue_depth, metric.threads);
    let asked = (test.access, test.block_bytes(), test.queue_depth, test.threads);
    if shape != asked {
        return Err(format!("fio ran {shape:?}, the job file asked for {asked:?}"));
    }
    let out: Output = serde_json::from_str(json_object(json).unwrap_or("")).map_err(|e| e.to_string())?;
    let job = out.jobs.first().ok_or("no job in fio's output")?;
    let direction = match op {
        Op::Read => &job.read,
        _ => &job.write,
    };
    let latency_ns = direction
        .as_ref()
        .and_then(|d| d.clat_ns.as_ref())
        .and_then(|c| c.mean)
        .ok_or("no completion latency (clat_ns) in fio's output")?;
    Ok(Figures {
        mbps: metric.mbps.ok_or("no bandwidth in fio's output")?,
        iops: metric.iops.ok_or("no IOPS in fio's output")?,
        latency_us: latency_ns / 1000.0,
    })
}

/// A test's figures from its passes (see [`Aggregation`]).
pub(crate) fn aggregate(passes: &[Figures], how: Aggregation) -> Figures {
    let n = passes.len().max(1) as f64;
    match how {
        Aggregation::Mean => Figures {
            mbps: passes.iter().map(|p| p.mbps).sum::<f64>() / n,
            iops: passes.iter().map(|p| p.iops).sum::<f64>() / n,
            latency_us: passes.iter().map(|p| p.latency_us).sum::<f64>() / n,
        },
        Aggregation::Best => Figures {
            mbps: passes.iter().map(|p| p.mbps).fold(0.0, f64::max),
            iops: passes.iter().map(|p| p.iops).fold(0.0, f64::max),
            // Passes that moved no data have no latency worth keeping (DiskBench.cpp:919,
            // `score > 0.0`; benchmark.h:72 skips a zero latency).
            latency_us: passes
                .iter()
                .filter(|p| p.mbps > 0.0 && p.latency_us > 0.0)
                .map(|p| p.latency_us)
                .reduce(f64::min)
                .unwrap_or(0.0),
        },
    }
}

/// The table CrystalDiskMark shows: a row per test (`SEQ1M Q8T1`), read and write MB/s.
pub fn cdm_table(result: &BenchResult) -> String {
    let mut rows: Vec<(String, Option<f64>, Option<f64>)> = Vec::new();
    for m in &result.metrics {
        let kib = (m.block_size / 1024) as u32;
        let name =
            TestSpec { access: m.access, block_kib: kib, queue_depth: m.queue_depth, threads: m.threads }
                .short_name();
        let i = match rows.iter().position(|(n, _, _)| *n == name) {
            Some(i) => i,
            None => {
                rows.push((name, None, None));
                rows.len() - 1
            }
        };
        match m.op {
            Op::Read => rows[i].1 = m.mbps,
            Op::Write => rows[i].2 = m.mbps,
            Op::Mix => {}
        }
    }
    let width = rows.iter().map(|(n, _, _)| n.len()).max().unwrap_or(0).max(4);
    let cell = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"));
    let mut s = String::new();
    let _ = writeln!(s, "{:<width$}  {:>12}  {:>12}", "", "Read [MB/s]", "Write [MB/s]");
    for (name, read, write) in &rows {
        let _ = writeln!(s, "{name:<width$}  {:>12}  {:>12}", cell(*read), cell(*write));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(mbps: f64, iops: f64, latency_us: f64) -> Figures {
        Figures { mbps, iops, latency_us }
    }

    #[test]
    fn mean_and_best() {
        let passes = [f(100.0, 25.0, 40.0), f(300.0, 75.0, 20.0), f(200.0, 50.0, 30.0)];
        assert_eq!(aggregate(&passes, Aggregation::Mean), f(200.0, 50.0, 30.0));
        assert_eq!(aggregate(&passes, Aggregation::Best), f(300.0, 75.0, 20.0));
        assert_eq!(aggregate(&[f(0.0, 0.0, 0.0)], Aggregation::Best).latency_us, 0.0);
    }
}
