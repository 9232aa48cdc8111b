//! Load curves: one test measured at several loads within one result — a fio job file
//! sweeping `iodepth` or `numjobs`, ORION's columns, a load sweep of the runner.
//!
//! A curve is the metrics of a result that share every part of their test key except
//! the load (queue depth and threads), ordered by outstanding I/Os (queue depth ×
//! threads). Two curves may be drawn together only when their [`CurveKey`]s are equal,
//! as two numbers may be put side by side only when their test keys are.

use crate::model::{Access, BenchResult, Metric, Op, Stat, ToolFamily};
use serde::{Deserialize, Serialize};

/// What every point of a curve measures: a test key without its load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurveKey {
    pub family: ToolFamily,
    pub access: Access,
    pub block_size: u64,
    pub op: Op,
    #[cfg_attr(feature = "openapi", schema(maximum = 255))]
    pub mix_read_percent: Option<u8>,
    pub stat: Option<Stat>,
}

impl CurveKey {
    /// `RND 4KiB read`: the test without its load.
    pub fn name(&self) -> String {
        crate::model::test_name(self.access, self.block_size, None, self.op, self.mix_read_percent, self.stat)
    }

    /// `fio RND 4KiB read`: the name with its tool family, which tells apart two curves
    /// of the same name that may not be drawn together.
    pub fn id(&self) -> String {
        format!("{} {}", self.family.id(), self.name())
    }

    pub fn of(family: ToolFamily, m: &Metric) -> CurveKey {
        CurveKey {
            family,
            access: m.access,
            block_size: m.block_size,
            op: m.op,
            mix_read_percent: m.mix_read_percent,
            stat: m.stat,
        }
    }
}

/// One load of a curve and what the test did under it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LoadPoint {
    /// Queue depth × threads: the I/Os the test kept in flight.
    pub outstanding: u32,
    pub queue_depth: u32,
    pub threads: u32,
    pub mbps: Option<f64>,
    /// As printed, or from MB/s and the block size when the tool printed only MB/s.
    pub iops: Option<f64>,
    /// Mean latency, µs.
    pub latency_us: Option<f64>,
    /// The 99th percentile of completion latency, µs, where the tool printed it.
    pub p99_us: Option<f64>,
    /// The metric's index in its result.
    pub metric: usize,
}

/// One test at several loads.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadCurve {
    pub key: CurveKey,
    /// Fewest outstanding I/Os first; at equal outstanding I/Os, fewer threads first.
    pub points: Vec<LoadPoint>,
}

/// The fewest loads that make a curve: a
/// CrystalDiskMark result's Q1 and Q32 rows of one test are two figures, not a sweep.
const MIN_LOADS: usize = 3;

/// The curves of a result: every test it measured at three or more loads, in the order
/// of their keys.
pub fn load_curves(result: &BenchResult) -> Vec<LoadCurve> {
    let family = result.family();
    let mut curves: Vec<LoadCurve> = Vec::new();
    for (i, m) in result.metrics.iter().enumerate() {
        let key = CurveKey::of(family, m);
        let point = LoadPoint {
            outstanding: m.queue_depth.saturating_mul(m.threads),
            queue_depth: m.queue_depth,
            threads: m.threads,
            mbps: m.mbps,
            iops: m
                .iops
                .or_else(|| m.mbps.filter(|_| m.block_size > 0).map(|mbps| mbps * 1e6 / m.block_size as f64)),
            latency_us: m.latency_us,
            p99_us: m.latency_percentile(99.0),
            metric: i,
        };
        match curves.iter_mut().find(|c| c.key == key) {
            Some(curve) => curve.points.push(point),
            None => curves.push(LoadCurve { key, points: vec![point] }),
        }
    }
    curves.retain(|c| c.points.len() >= MIN_LOADS);
    for curve in &mut curves {
        curve.points.sort_by_key(|p| (p.outstanding, p.threads));
    }
    curves.sort_by_key(|c| c.key);
    curves
}

/// The fewest loads of one test that make a sweep rather than a burst tool's rows: the
/// burst tools print at most three loads of a test (CrystalDiskMark 6's 4 KiB Q1T1,
/// Q32T1 and Q8T8), each a figure people compare on its own.
pub const SWEEP_LOADS: usize = 4;

/// Per metric of `result`, whether it is a point of a sweep (a load curve of
/// [`SWEEP_LOADS`] or more loads).
fn on_sweep(result: &BenchResult) -> Vec<bool> {
    let mut on = vec![false; result.metrics.len()];
    for curve in load_curves(result).into_iter().filter(|c| c.points.len() >= SWEEP_LOADS) {
        for p in curve.points {
            on[p.metric] = true;
        }
    }
    on
}

/// A result's burst figures: its metrics under their test keys, without the points of
/// its sweeps. A drive's per-test table and distributions read these, so that a sweep of
/// 64 loads is one curve (drawn under "Burst and sustained"), not 64 tests.
pub fn burst_metrics(result: &BenchResult) -> impl Iterator<Item = (crate::model::TestKey, &Metric)> {
    result.keyed_metrics().zip(on_sweep(result)).filter(|(_, on)| !on).map(|(km, _)| km)
}

/// Keeps only `result`'s burst figures ([`burst_metrics`]) and no series over time: what
/// a list of a drive's results needs, without the sweeps and hour-long samplings that
/// make a result hundreds of times its burst size.
pub fn keep_burst_only(result: &mut BenchResult) {
    let mut sweep = on_sweep(result).into_iter();
    result.metrics.retain(|_| !sweep.next().unwrap_or(false));
    // Each series names its metric by index, which the removal shifted: dropped with them.
    result.over_time.clear();
}

/// The knee of a load curve: the index of the first point from which every further step
/// grows latency faster than it grows IOPS — beyond it, more outstanding I/Os only wait
/// longer. By Little's law (outstanding = IOPS × latency), a step that doubles the load
/// splits its factor of two between the two; the knee is where latency starts taking
/// the larger share for good. `None` when the last step still grows IOPS faster (the
/// drive scaled to the end of the sweep), or when a point lacks IOPS or latency.
pub fn knee(points: &[LoadPoint]) -> Option<usize> {
    let pairs: Option<Vec<(f64, f64)>> = points
        .iter()
        .map(|p| Some((p.iops.filter(|v| *v > 0.0)?, p.latency_us.filter(|v| *v > 0.0)?)))
        .collect();
    let pairs = pairs?;
    let latency_led = |i: usize| {
        let ((iops_a, lat_a), (iops_b, lat_b)) = (pairs[i], pairs[i + 1]);
        lat_b / lat_a > iops_b / iops_a
    };
    let steps = pairs.len().checked_sub(1).filter(|&n| n > 0)?;
    let mut knee = None;
    for i in (0..steps).rev() {
        if !latency_led(i) {
            break;
        }
        knee = Some(i);
    }
    knee
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(outstanding: u32, iops: f64, latency_us: f64) -> LoadPoint {
        LoadPoint {
            outstanding,
            queue_depth: outstanding,
            threads: 1,
            mbps: None,
            iops: Some(iops),
            latency_us: Some(latency_us),
            p99_us: None,
            metric: 0,
        }
    }

    /// A device capped at 5,000 operations/s: IOPS doubles with the load until the cap,
    /// then latency does. The knee is the last point below the cap.
    #[test]
    fn the_knee_is_where_an_operations_cap_starts_to_bind() {
        let capped: Vec<LoadPoint> = [1u32, 2, 4, 8, 16, 32]
            .into_iter()
            .map(|qd| {
                let iops = (1250.0 * qd as f64).min(5000.0);
                point(qd, iops, qd as f64 / iops * 1e6)
            })
            .collect();
        assert_eq!(knee(&capped), Some(2), "{capped:?}");
    }

    #[test]
    fn a_curve_that_scales_to_its_end_has_no_knee() {
        let scaling = [point(1, 1000.0, 1000.0), point(2, 1900.0, 1050.0), point(4, 3700.0, 1080.0)];
        assert_eq!(knee(&scaling), None);
        // One late step that grows IOPS faster again: not a knee before it.
        let recovering = [point(1, 1000.0, 1000.0), point(2, 1100.0, 1800.0), point(4, 2200.0, 1820.0)];
        assert_eq!(knee(&recovering), None);
        // Without latency nothing can be said.
        let mut no_latency = scaling.to_vec();
        no_latency[1].latency_us = None;
        assert_eq!(knee(&no_latency), None);
        assert_eq!(knee(&scaling[..1]), None);
    }
}
