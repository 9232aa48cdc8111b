//! Aggregation, written once: metric values gathered per pool and test, then per figure
//! the median, MAD, min, max and count (`bench::analysis::summarize`) with the ids of the
//! results behind them ([`Aggregates`]). The drive page pools a drive's results per
//! platform group and data pattern ([`by_test`]); compare pools metric rows per drive and
//! platform group and data pattern, or per drive when merged ([`Pools`]); the compare
//! summary (`storage::summary`) stores the same [`Aggregates`] per drive and pool.

use crate::storage::{FigureValues, StoredResult};
use api_types::{Aggregates, GroupCell, TestSummary};
use bench::analysis::summarize;
use bench::difference::DIFFERENCE_POINTS;
use bench::{BenchResult, DataPattern, PlatformGroup, TestKey};
use std::collections::BTreeMap;

/// Where a sample pools: its platform group and data pattern.
pub type GroupKey = (PlatformGroup, Option<DataPattern>);

/// Samples of one test, gathered per result.
#[derive(Debug, Default)]
pub struct Samples {
    pub mbps: Vec<f64>,
    pub iops: Vec<f64>,
    pub latency_us: Vec<f64>,
    /// In the order added; a result's values added one after the other count it once.
    pub result_ids: Vec<i64>,
}

impl Samples {
    pub fn add(&mut self, result_id: i64, mbps: Option<f64>, iops: Option<f64>, latency_us: Option<f64>) {
        self.mbps.extend(mbps);
        self.iops.extend(iops);
        self.latency_us.extend(latency_us);
        if self.result_ids.last() != Some(&result_id) {
            self.result_ids.push(result_id);
        }
    }

    pub fn aggregate(self) -> Aggregates {
        Aggregates {
            mbps: summarize(&self.mbps),
            iops: summarize(&self.iops),
            latency_us: summarize(&self.latency_us),
            result_ids: self.result_ids,
        }
    }
}

/// Samples per pool `P` and test, summarised together.
#[derive(Debug)]
pub struct Pools<P> {
    pools: BTreeMap<P, BTreeMap<TestKey, Samples>>,
}

impl<P: Ord> Default for Pools<P> {
    fn default() -> Self {
        Pools { pools: BTreeMap::new() }
    }
}

impl<P: Ord> Pools<P> {
    /// One metric's values (a metric row) of result `result_id` in `pool`.
    pub fn add(
        &mut self,
        pool: P,
        key: TestKey,
        result_id: i64,
        mbps: Option<f64>,
        iops: Option<f64>,
        latency_us: Option<f64>,
    ) {
        self.pools.entry(pool).or_default().entry(key).or_default().add(result_id, mbps, iops, latency_us);
    }

    /// A result's burst figures ([`bench::curves::burst_metrics`]), under their test keys.
    pub fn add_burst(&mut self, pool: P, result_id: i64, result: &BenchResult)
    where
        P: Clone,
    {
        for (key, m) in bench::curves::burst_metrics(result) {
            self.add(pool.clone(), key, result_id, m.mbps, m.iops, m.latency_us);
        }
    }

    /// Per pool in order, per test in key order, its aggregates and its values (sorted).
    pub fn aggregate_with_values(
        self,
    ) -> impl Iterator<Item = (P, BTreeMap<TestKey, Aggregates>, BTreeMap<TestKey, FigureValues>)> {
        self.pools.into_iter().map(|(pool, tests)| {
            let mut values = BTreeMap::new();
            let aggregates = tests
                .into_iter()
                .map(|(key, s)| {
                    let sorted = |v: &[f64]| {
                        let mut v = v.to_vec();
                        v.sort_by(f64::total_cmp);
                        v
                    };
                    let figures = FigureValues {
                        mbps: sorted(&s.mbps),
                        iops: sorted(&s.iops),
                        latency_us: sorted(&s.latency_us),
                    };
                    values.insert(key, figures);
                    (key, s.aggregate())
                })
                .collect();
            (pool, aggregates, values)
        })
    }

    /// Per pool in order, per test in key order, its aggregates.
    pub fn aggregate(self) -> impl Iterator<Item = (P, BTreeMap<TestKey, Aggregates>)> {
        self.pools
            .into_iter()
            .map(|(pool, tests)| (pool, tests.into_iter().map(|(key, s)| (key, s.aggregate())).collect()))
    }
}

/// The drive page's tests: per comparable test of the results' burst figures (a load
/// curve's points are drawn as the curve), in key order, per platform group and data
/// pattern of `results` (in that order), the aggregates, and each group against the
/// test's reference group (the one with the most results) when there are several.
pub fn by_test(results: &[StoredResult]) -> Vec<TestSummary> {
    let mut pools: Pools<GroupKey> = Pools::default();
    for r in results {
        pools.add_burst((PlatformGroup::of(&r.tags), r.result.data_pattern), r.id, &r.result);
    }
    let mut by_key: BTreeMap<TestKey, Vec<(GroupCell, FigureValues)>> = BTreeMap::new();
    for ((platform, data_pattern), tests, mut values) in pools.aggregate_with_values() {
        for (key, aggregates) in tests {
            let cell = GroupCell {
                platform_label: platform.label(),
                platform: platform.clone(),
                data_pattern,
                aggregates,
                vs_reference: None,
                reference: false,
            };
            by_key.entry(key).or_default().push((cell, values.remove(&key).unwrap_or_default()));
        }
    }
    by_key
        .into_iter()
        .map(|(key, mut groups)| {
            against_reference(&mut groups);
            TestSummary { key, name: key.short_name(), groups: groups.into_iter().map(|(g, _)| g).collect() }
        })
        .collect()
}

/// Sets every group of a test against the group of its kind (one drive, or an array of
/// the same RAID level and members: an array is not the drive) with the most results
/// (the first of those), in the headline figure.
fn against_reference(groups: &mut [(GroupCell, FigureValues)]) {
    let mut by_kind: BTreeMap<Option<String>, Vec<usize>> = BTreeMap::new();
    for (i, (g, _)) in groups.iter().enumerate() {
        by_kind.entry(g.platform.array()).or_default().push(i);
    }
    for members in by_kind.values() {
        against_reference_within(groups, members);
    }
}

/// [`against_reference`] among the groups at `members`.
fn against_reference_within(groups: &mut [(GroupCell, FigureValues)], members: &[usize]) {
    if members.len() < 2 {
        return;
    }
    let Some(&at) = members.iter().max_by_key(|i| (groups[**i].1.count(), usize::MAX - **i)) else { return };
    let reference = groups[at].1.thinned(DIFFERENCE_POINTS);
    groups[at].0.reference = true;
    for &i in members.iter().filter(|i| **i != at) {
        let (cell, values) = &mut groups[i];
        cell.vs_reference =
            bench::difference::headline_difference(&values.thinned(DIFFERENCE_POINTS), &reference)
                .map(|(_, d)| d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench::{Access, Op, ToolFamily};

    fn key(qd: u32) -> TestKey {
        TestKey {
            family: ToolFamily::CdmDiskspd,
            access: Access::Rnd,
            block_size: 4096,
            queue_depth: qd,
            threads: 1,
            op: Op::Read,
            mix_read_percent: None,
            stat: None,
        }
    }

    #[test]
    fn pools_summarise_each_test_with_its_results() {
        let mut pools: Pools<u8> = Pools::default();
        pools.add(1, key(1), 10, Some(3.0), None, Some(7.0));
        pools.add(1, key(1), 10, Some(5.0), None, None);
        pools.add(1, key(1), 11, Some(1.0), Some(4.0), None);
        pools.add(0, key(32), 12, None, Some(2.0), None);
        let all: Vec<_> = pools.aggregate().collect();
        assert_eq!(all.iter().map(|(p, _)| *p).collect::<Vec<_>>(), vec![0, 1], "pools in order");
        let a = &all[1].1[&key(1)];
        assert_eq!(a.result_ids, vec![10, 11], "a result counts once");
        assert_eq!(a.mbps, summarize(&[3.0, 5.0, 1.0]));
        assert_eq!(a.iops, summarize(&[4.0]));
        assert_eq!(a.latency_us, summarize(&[7.0]));
        assert_eq!(all[0].1[&key(32)].mbps, None);
    }
}
