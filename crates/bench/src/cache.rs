//! A drive's write cache, found in a write-saturation run: a long write sampled once a
//! second (`BenchResult::over_time`), whose rate falls when the cache (SLC, DRAM, a
//! host buffer) is full and the drive writes at its native speed.
//!
//! The rule, stated once for every drive and tested on synthetic series below:
//! * the rate *falls* at the first interval below [`FALL_FRACTION`] of the in-cache rate
//!   (the median of the intervals before it) and *stays* below it: at most one interval
//!   in ten after the fall rises above it, and at least two intervals follow;
//! * the after-cache rate is the average over the intervals after the one where it fell
//!   (bytes over seconds: every interval counts as long as it lasted);
//! * the cache's size is where the two rates meet: the in-cache line from the end of the
//!   last interval wholly in the cache and the after-cache line back from the run's end
//!   cross inside the interval that fell, so the size is not rounded to whole intervals.
//!
//! A cache filled within the first interval cannot be told from a slow drive: the run
//! must write for several intervals at the in-cache rate (the runner's span and
//! sampling see to it). A run whose rate never falls is [`WriteCache::NotFound`]: no cache, or one larger
//! than what was written; the figure says which span was written.

use crate::analysis::median_of_sorted;
use crate::model::{TimePoint, TimeSeries};
use serde::{Deserialize, Serialize};

/// The rate has fallen once it is below this share of the in-cache rate.
pub const FALL_FRACTION: f64 = 0.7;
/// The share of the time after the fall that may rise back above [`FALL_FRACTION`] (a
/// garbage-collection pause ending, a burst of folding) without undoing the fall. Time,
/// not intervals: fio's last interval of a run may be a few milliseconds (ending with a
/// burst as the run stops) and weighs no more than those milliseconds.
pub const MAX_RISES: f64 = 0.1;

/// What a write-saturation run says about the drive's write cache.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum WriteCache {
    /// The rate fell and stayed down.
    Found {
        /// Bytes written before the rate fell.
        cache_bytes: u64,
        /// Seconds into the run when it fell.
        fell_at_secs: f64,
        /// Median MB/s of the intervals before the fall.
        in_cache_mbps: f64,
        /// Average MB/s after it.
        after_cache_mbps: f64,
    },
    /// The rate never fell and stayed down over `written_bytes`.
    NotFound {
        written_bytes: u64,
        /// Average MB/s over the run.
        mbps: f64,
    },
}

impl WriteCache {
    /// The cache's size, when one was found.
    pub fn cache_bytes(&self) -> Option<u64> {
        match self {
            WriteCache::Found { cache_bytes, .. } => Some(*cache_bytes),
            WriteCache::NotFound { .. } => None,
        }
    }
}

/// The write cache of a run sampled at `points` (in time order, each the rate of the
/// interval ending there); `None` with fewer than three intervals, too few to tell.
pub fn write_cache(points: &[TimePoint]) -> Option<WriteCache> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let rates: Vec<f64> = points.iter().map(|p| p.mbps).collect();
    // The fall needs two intervals after it to tell that it stays.
    for fell in 1..n - 1 {
        let mut before = rates[..fell].to_vec();
        before.sort_by(f64::total_cmp);
        let in_cache = median_of_sorted(&before);
        let threshold = FALL_FRACTION * in_cache;
        if in_cache.is_nan() || in_cache <= 0.0 || rates[fell] >= threshold {
            continue;
        }
        let span = |i: usize| points[i].secs - if i == 0 { 0.0 } else { points[i - 1].secs };
        let after_secs: f64 = (fell..n).map(span).sum();
        let risen_secs: f64 = (fell..n).filter(|&i| rates[i] >= threshold).map(span).sum();
        if risen_secs > MAX_RISES * after_secs {
            continue;
        }
        return Some(found(points, fell, in_cache));
    }
    let last = points[n - 1];
    let mbps = if last.secs > 0.0 { last.bytes as f64 / last.secs / 1e6 } else { 0.0 };
    Some(WriteCache::NotFound { written_bytes: last.bytes, mbps })
}

/// The figures of a run whose rate fell at interval `fell` (at least one interval
/// before it, two from it on).
fn found(points: &[TimePoint], fell: usize, in_cache_mbps: f64) -> WriteCache {
    let at = |i: usize| (points[i].secs, points[i].bytes as f64);
    // The fall happened inside interval `fell - 1` or `fell` (the one before may already
    // be partly after it, though above the threshold): every interval up to `fell - 2` is
    // wholly in the cache.
    let (s1, b1) = if fell >= 2 { at(fell - 2) } else { (0.0, 0.0) };
    let (sf, bf) = at(fell);
    let (s2, b2) = at(points.len() - 1);
    let after = (b2 - bf) / (s2 - sf).max(f64::MIN_POSITIVE);
    let in_cache = in_cache_mbps * 1e6;
    // b1 + in_cache (t − s1) = b2 + after (t − s2).
    let t = if in_cache > after { (b2 - b1 + in_cache * s1 - after * s2) / (in_cache - after) } else { s1 };
    let fell_at = t.clamp(s1, sf);
    let cache_bytes = (b1 + in_cache * (fell_at - s1)).clamp(b1, bf);
    WriteCache::Found {
        cache_bytes: cache_bytes.round() as u64,
        fell_at_secs: fell_at,
        in_cache_mbps,
        after_cache_mbps: after / 1e6,
    }
}

/// How much of the cache a second run found again after an idle pause, as a share of
/// the first run's cache (1.0: all of it). When the second run never fell, all it wrote
/// went at the in-cache rate: at least that much came back, capped at the first cache.
pub fn recovered(first: &WriteCache, again: &WriteCache) -> Option<f64> {
    let full = first.cache_bytes()? as f64;
    if full <= 0.0 {
        return None;
    }
    let back = match again {
        WriteCache::Found { cache_bytes, .. } => *cache_bytes as f64,
        WriteCache::NotFound { written_bytes, .. } => *written_bytes as f64,
    };
    Some((back / full).min(1.0))
}

/// How much of test `metric`'s write cache came back after an idle pause, from a
/// result's runs over time: its first run against its repeat after the pause
/// (`TimeSeries::after_idle_secs`); `None` without both or without a cache in the first.
pub fn recovered_after_idle(over_time: &[TimeSeries], metric: usize) -> Option<f64> {
    let run = |after_idle: bool| {
        over_time
            .iter()
            .find(|s| s.metric == metric && s.after_idle_secs.is_some() == after_idle)
            .and_then(|s| write_cache(&s.points))
    };
    recovered(&run(false)?, &run(true)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: f64 = 1e6;

    /// A run's last interval of 11 ms, as fio reported it on a throttled loop device
    /// (the runner's cache test): its burst is 11 ms of a 5 s fall, no rise.
    #[test]
    fn a_short_last_interval_does_not_undo_the_fall() {
        let at = |secs: f64, bytes: u64, mbps: f64| TimePoint { secs, bytes, mbps, iops: None };
        let points = [
            at(0.893, 134_995_968, 151.2),
            at(1.893, 284_999_680, 150.0),
            at(2.893, 413_843_456, 128.8),
            at(3.894, 454_033_408, 40.1),
            at(4.893, 493_383_680, 39.4),
            at(5.894, 532_942_848, 39.5),
            at(6.893, 573_726_720, 40.8),
            at(7.893, 613_801_984, 40.1),
            at(7.904, 615_514_112, 155.6),
        ];
        let Some(WriteCache::Found { after_cache_mbps, .. }) = write_cache(&points) else {
            panic!("no cache found: {:?}", write_cache(&points))
        };
        assert!((after_cache_mbps - 40.0).abs() < 1.5, "{after_cache_mbps}");
        // A whole interval risen back among five after the fall (20 % of the time) does
        // undo it.
        let mut risen = points[..8].to_vec();
        risen[6].mbps = 150.0;
        assert!(
            matches!(write_cache(&risen), Some(WriteCache::NotFound { .. })),
            "{:?}",
            write_cache(&risen)
        );
    }

    /// A run of `rate(t)` MB/s sampled every `step` seconds for `secs` seconds, the rate
    /// integrated over each interval (finely, as a device's byte counter would).
    fn run(secs: f64, step: f64, rate: impl Fn(f64) -> f64) -> Vec<TimePoint> {
        let mut points = Vec::new();
        let (mut t, mut bytes) = (0.0, 0.0);
        let dt = 0.001;
        while t + step <= secs + 1e-9 {
            let start = bytes;
            let end = t + step;
            while t < end - 1e-12 {
                bytes += rate(t) * MB * dt;
                t += dt;
            }
            points.push(TimePoint {
                secs: end,
                bytes: bytes as u64,
                mbps: (bytes - start) / step / MB,
                iops: None,
            });
        }
        points
    }

    /// A cache of `cache_mb` MB written at `fast` MB/s, then `slow` MB/s.
    fn cliff(cache_mb: f64, fast: f64, slow: f64) -> impl Fn(f64) -> f64 {
        move |t| if t < cache_mb / fast { fast } else { slow }
    }

    fn expect_found(points: &[TimePoint]) -> (f64, f64, f64) {
        match write_cache(points) {
            Some(WriteCache::Found { cache_bytes, in_cache_mbps, after_cache_mbps, .. }) => {
                (cache_bytes as f64 / MB, in_cache_mbps, after_cache_mbps)
            }
            other => panic!("expected a cache, found {other:?}"),
        }
    }

    #[test]
    fn a_cliff_gives_the_cache_size_between_samples_and_both_rates() {
        // 300 MB at 200 MB/s: it falls at 1.5 s, inside the second interval.
        let (cache, fast, slow) = expect_found(&run(20.0, 1.0, cliff(300.0, 200.0, 50.0)));
        assert!((cache - 300.0).abs() < 1.0, "{cache}");
        assert!((fast - 200.0).abs() < 0.5 && (slow - 50.0).abs() < 0.5, "{fast} {slow}");
        // A big SLC cache: 40 GB at 3,000 MB/s, then 800 MB/s, sampled every second.
        let (cache, fast, slow) = expect_found(&run(60.0, 1.0, cliff(40_000.0, 3000.0, 800.0)));
        assert!((cache / 40_000.0 - 1.0).abs() < 0.001, "{cache}");
        assert!((fast - 3000.0).abs() < 1.0 && (slow - 800.0).abs() < 1.0, "{fast} {slow}");
    }

    #[test]
    fn noise_on_both_sides_does_not_move_the_cliff() {
        // ±10 % ripple, a slow first interval (the run starting), one spike after the fall.
        let ripple = |t: f64| 1.0 + 0.1 * (t * 7.3).sin();
        let rate = |t: f64| {
            let base = if t < 0.5 {
                300.0
            } else if t < 12.0 {
                1000.0
            } else {
                250.0
            };
            let spike = if (20.0..21.0).contains(&t) { 3.0 } else { 1.0 };
            base * ripple(t) * spike
        };
        let points = run(40.0, 1.0, rate);
        let (cache, fast, slow) = expect_found(&points);
        let truth = 300.0 * 0.5 + 1000.0 * 11.5;
        assert!((cache / truth - 1.0).abs() < 0.05, "{cache} against {truth}");
        assert!((fast / 1000.0 - 1.0).abs() < 0.1, "{fast}");
        assert!((slow / 250.0 - 1.0).abs() < 0.12, "{slow}");
    }

    #[test]
    fn a_slow_drift_or_a_drive_without_cache_is_no_cache() {
        // Flat: no cache (or one larger than the run).
        let flat = run(30.0, 1.0, |_| 500.0);
        assert!(matches!(
            write_cache(&flat),
            Some(WriteCache::NotFound { written_bytes, mbps })
                if (written_bytes as f64 / MB - 15_000.0).abs() < 1.0 && (mbps - 500.0).abs() < 0.1
        ));
        // Sliding 1 % a second: it crosses 70 % of its start only late, and the median of
        // what came before has slid with it, so no interval is 30 % below it.
        let drift = run(30.0, 1.0, |t| 500.0 * (1.0 - 0.01 * t));
        assert!(
            matches!(write_cache(&drift), Some(WriteCache::NotFound { .. })),
            "{:?}",
            write_cache(&drift)
        );
    }

    #[test]
    fn a_drive_that_never_settles_is_not_given_a_cache() {
        // Swinging between full speed and a third of it every other second (a controller
        // flushing as it goes): the rate falls but does not stay down.
        let swing = run(30.0, 1.0, |t| if (t as u64).is_multiple_of(2) { 900.0 } else { 300.0 });
        assert!(
            matches!(write_cache(&swing), Some(WriteCache::NotFound { .. })),
            "{:?}",
            write_cache(&swing)
        );
        // A fall in the last interval: too little after it to say that it stays.
        let late = run(10.0, 1.0, cliff(9_500.0, 1000.0, 100.0));
        assert!(matches!(write_cache(&late), Some(WriteCache::NotFound { .. })));
        assert_eq!(write_cache(&late[..2]), None);
    }

    #[test]
    fn recovery_is_the_share_of_the_cache_found_again() {
        let first = expect_found_cache(&run(20.0, 1.0, cliff(300.0, 200.0, 50.0)));
        // (A cache filled within the first interval has no in-cache interval to measure:
        // this one takes 1.5 s at a slower rate.)
        let half = expect_found_cache(&run(10.0, 1.0, cliff(150.0, 100.0, 25.0)));
        assert!((recovered(&first, &half).unwrap() - 0.5).abs() < 0.01);
        // The second run wrote 250 MB without falling: at least 250 of 300 came back.
        let unfallen = WriteCache::NotFound { written_bytes: 250_000_000, mbps: 200.0 };
        assert!((recovered(&first, &unfallen).unwrap() - 250.0 / 300.0).abs() < 0.01);
        assert_eq!(recovered(&unfallen, &first), None);
    }

    fn expect_found_cache(points: &[TimePoint]) -> WriteCache {
        let c = write_cache(points).unwrap();
        assert!(c.cache_bytes().is_some(), "{c:?}");
        c
    }
}
