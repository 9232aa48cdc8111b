//! `GET /compare/sustained` (and the drive page's "Burst and sustained", the same answer
//! for one drive): how drives behave over time beside their burst figures.

use crate::results::LoadCurveView;
use serde::{Deserialize, Serialize};

/// Burst beside sustained for each drive asked, with the runs behind them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Sustained {
    /// The drives asked, in order: the charts colour each by its place here.
    pub drives: Vec<String>,
    /// Per drive and test: the burst figure beside the figures measured over time.
    pub rows: Vec<SustainedRow>,
    /// Each write sampled over its run (its first run; a repeat after idle only gives
    /// `recovered`): the write-saturation curves.
    pub saturation: Vec<SaturationRun>,
    /// Each test measured at three or more loads: the sweeps.
    pub curves: Vec<DriveCurve>,
}

impl Sustained {
    /// The write-saturation charts there are, one per test and tool family (`fio SEQ
    /// 1MiB Q8T1 write avg`), in the order their first runs come.
    pub fn saturation_tests(&self) -> Vec<String> {
        let mut tests: Vec<String> = Vec::new();
        for id in self.saturation.iter().map(|s| s.key.id()) {
            if !tests.contains(&id) {
                tests.push(id);
            }
        }
        tests
    }

    /// The load-sweep charts there are, one per curve test and tool family (`fio RND 4KiB
    /// read`), in name order.
    pub fn sweep_tests(&self) -> Vec<String> {
        let mut tests: Vec<String> = self.curves.iter().map(|c| c.curve.key.id()).collect();
        tests.sort_unstable();
        tests.dedup();
        tests
    }
}

/// One drive's test (its key without a statistic: `SEQ 1MiB Q8T1 write` of one tool
/// family), the burst median beside what the same test did over time. Every figure is a
/// median over results, each with its n; a row exists where some result measured the
/// test over time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SustainedRow {
    pub drive: String,
    /// `SEQ 1MiB Q8T1 write`.
    pub test: String,
    pub key: bench::TestKey,
    /// The unit of `burst`, `after_cache` and `steady`: `MB/s` for blocks of 64 KiB and
    /// more, `IOPS` for smaller ones.
    pub unit: String,
    /// The test's headline figure as burst tools and profiles measure it.
    pub burst: Option<Pooled>,
    /// The write rate after the cache filled (`bench::cache`).
    pub after_cache: Option<Pooled>,
    /// The write cache's size, GiB.
    pub cache_gib: Option<Pooled>,
    /// Of the cache, the share back after the idle pause (1: all of it).
    pub recovered: Option<Pooled>,
    /// The steady-state figure (SNIA PTS 2.0.2) of sustained runs that reached it.
    pub steady: Option<Pooled>,
    /// Sustained runs that did not reach steady state within their round limit: never
    /// counted as steady.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub unsettled: usize,
}

/// A median over results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Pooled {
    pub median: f64,
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub n: usize,
    pub results: Vec<i64>,
}

/// One write sampled over its run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SaturationRun {
    pub drive: String,
    pub result: i64,
    /// `SEQ 1MiB Q8T1 write avg`.
    pub test: String,
    pub key: bench::TestKey,
    pub points: Vec<bench::TimePoint>,
    pub cache: Option<bench::cache::WriteCache>,
}

/// One load curve of one result of a drive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveCurve {
    pub drive: String,
    pub result: i64,
    pub curve: LoadCurveView,
}

/// Drives ranked by the write cache their runs found in one write test (`GET
/// /leaderboard/cache`): what `ssdbase bench --profile cache` measures, a line per drive,
/// each figure with its n.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CacheLeaderboard {
    /// The write test, `fio SEQ 1MiB Q8T1 write` (its after-cache figure is `... after cache`).
    pub test: String,
    /// Largest cache first.
    pub rows: Vec<CacheRow>,
}

/// One drive of a [`CacheLeaderboard`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CacheRow {
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub rank: usize,
    pub drive_id: String,
    /// `Vendor Model 256 GB`.
    pub name: String,
    /// The drive's page in the API.
    pub url: String,
    /// GiB written before the rate fell for good: median over the drive's runs, with n.
    pub cache_gib: Pooled,
    /// The rate once the cache was full, in `unit`.
    pub after_cache: Option<Pooled>,
    /// `MB/s` (large blocks) or `IOPS` (small ones).
    pub unit: String,
    /// The share of the cache back after the idle pause (0 to 1).
    pub recovered: Option<Pooled>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::{Access, Op, Stat, TestKey, ToolFamily};

    /// Two drives each measured with a sequential and a random write: a chart per test,
    /// however their runs interleave.
    #[test]
    fn a_saturation_chart_per_test_however_the_runs_interleave() {
        let run = |drive: &str, access: Access, block_size: u64, queue_depth: u32| SaturationRun {
            drive: drive.into(),
            result: 1,
            test: String::new(),
            key: TestKey {
                family: ToolFamily::Fio,
                access,
                block_size,
                queue_depth,
                threads: 1,
                op: Op::Write,
                mix_read_percent: None,
                stat: Some(Stat::Avg),
            },
            points: Vec::new(),
            cache: None,
        };
        let answer = Sustained {
            drives: vec!["a".into(), "b".into()],
            rows: Vec::new(),
            saturation: vec![
                run("a", Access::Seq, 1 << 20, 8),
                run("a", Access::Rnd, 4096, 32),
                run("b", Access::Seq, 1 << 20, 8),
                run("b", Access::Rnd, 4096, 32),
            ],
            curves: Vec::new(),
        };
        assert_eq!(
            answer.saturation_tests(),
            ["fio SEQ 1MiB Q8T1 write avg", "fio RND 4KiB Q32T1 write avg"]
        );
    }
}
