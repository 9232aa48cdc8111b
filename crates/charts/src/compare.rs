//! From a comparison (`GET /api/v1/compare`) to the compare chart's input: the site's
//! canvas and the server's SVG/PNG embeds build the very same [`GroupedBars`].

use crate::{Bar, BarGroup, GroupedBars};
use api_types::{ComparedTest, Comparison, Figure, PoolCell};

/// One bar series: a drive measured on one platform group with one data pattern (one of
/// the comparison's pools), the finest set the server aggregates. Numbers from different
/// pools are never merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Index into the comparison's drives.
    pub drive: usize,
    /// Index into the comparison's pools; `None` for a drive without any result.
    pub pool: Option<usize>,
    pub label: String,
}

/// Every series of a comparison: per drive (in the order asked for), its pools in label
/// order; a drive without any result is one series marked so.
pub fn series_of(c: &Comparison) -> Vec<Series> {
    let mut out = Vec::new();
    for (i, d) in c.drives.iter().enumerate() {
        let mut pools: Vec<(String, usize)> = c
            .pools
            .iter()
            .enumerate()
            .filter(|(_, p)| p.drive == d.id)
            .map(|(index, p)| (p.label(), index))
            .collect();
        pools.sort();
        if pools.is_empty() {
            out.push(Series { drive: i, pool: None, label: format!("{} (no results)", d.label()) });
        }
        for (label, index) in pools {
            out.push(Series { drive: i, pool: Some(index), label: format!("{} · {label}", d.label()) });
        }
    }
    out
}

/// The cell of `test` that series `s` stands for, if that pool has the test.
pub fn cell_of<'a>(test: &'a ComparedTest, s: &Series) -> Option<&'a PoolCell> {
    let pool = s.pool?;
    test.drives.get(s.drive)?.groups.iter().find(|x| x.pool == pool)
}

/// The chart's input: one bar group per test where some series has `figure`, one bar
/// per series (missing where that pool lacks the test).
pub fn compare_chart(c: &Comparison, series: &[Series], figure: Figure) -> GroupedBars {
    let summary = |t: &ComparedTest, s: &Series| cell_of(t, s).and_then(|g| g.of(figure));
    GroupedBars {
        unit: figure.unit().into(),
        series: series.iter().map(|s| s.label.clone()).collect(),
        groups: c
            .tests
            .iter()
            .filter(|t| series.iter().any(|s| summary(t, s).is_some()))
            .map(|t| BarGroup {
                name: t.name.clone(),
                bars: series
                    .iter()
                    .map(|s| match summary(t, s) {
                        Some(s) => Bar { value: Some(s.median), spread: Some(s.mad), count: s.count },
                        None => Bar { value: None, spread: None, count: 0 },
                    })
                    .collect(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use api_types::{ComparedDrive, ComparedPool, DriveCell};
    use bench::analysis::summarize;
    use bench::{DataPattern, PlatformGroup, TestKey};

    fn drive(id: &str) -> ComparedDrive {
        ComparedDrive {
            id: id.into(),
            url: String::new(),
            vendor: "V".into(),
            model: id.into(),
            capacity_gb: 64,
        }
    }

    fn pool(drive: &str, chipset: &str, ids: &[i64]) -> ComparedPool {
        let platform = PlatformGroup { chipset: Some(chipset.into()), ..Default::default() };
        ComparedPool {
            drive: drive.into(),
            platform_label: platform.label(),
            platform,
            data_pattern: Some(DataPattern::Random),
            result_ids: ids.to_vec(),
        }
    }

    fn cell(pool: usize, mbps: &[f64], iops: &[f64]) -> PoolCell {
        PoolCell { pool, mbps: summarize(mbps), iops: summarize(iops), latency_us: None, result_ids: None }
    }

    fn test(key: TestKey, drives: Vec<Vec<PoolCell>>) -> ComparedTest {
        ComparedTest {
            key,
            name: key.short_name(),
            drives: drives
                .into_iter()
                .enumerate()
                .map(|(i, groups)| DriveCell { drive: format!("d{i}"), missing: groups.is_empty(), groups })
                .collect(),
        }
    }

    /// Two tests from the seeds: their keys are real, the numbers below are made up.
    fn two_keys() -> (TestKey, TestKey) {
        let data = bench::seeds::seed_dataset().unwrap();
        let mut keys: Vec<TestKey> = data.results[0].result.keyed_metrics().map(|(k, _)| k).collect();
        keys.dedup();
        (keys[0], keys[1])
    }

    #[test]
    fn every_pool_is_a_series_and_a_test_a_pool_lacks_is_missing() {
        let (seq, rnd) = two_keys();
        let c = Comparison {
            drives: vec![drive("a"), drive("b"), drive("c")],
            // Listed SB850 first: series follow label order within a drive.
            pools: vec![pool("a", "SB850", &[4]), pool("a", "ICH10R", &[1, 2, 3]), pool("b", "ICH10R", &[5])],
            tests: vec![
                test(
                    seq,
                    vec![
                        vec![cell(1, &[270.0, 280.0, 290.0], &[]), cell(0, &[250.0], &[])],
                        vec![cell(2, &[140.0], &[])],
                        vec![],
                    ],
                ),
                test(rnd, vec![vec![cell(1, &[], &[9000.0])], vec![], vec![]]),
            ],
        };
        let series = series_of(&c);
        let labels: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "V a 64 GB · ICH10R · random",
                "V a 64 GB · SB850 · random",
                "V b 64 GB · ICH10R · random",
                "V c 64 GB (no results)"
            ]
        );

        let mbps = compare_chart(&c, &series, Figure::Mbps);
        assert_eq!(mbps.unit, "MB/s");
        assert_eq!(mbps.groups.len(), 1, "the random test has no MB/s, so no MB/s group");
        let bars = &mbps.groups[0].bars;
        assert_eq!((bars[0].value, bars[0].spread, bars[0].count), (Some(280.0), Some(10.0), 3));
        assert_eq!((bars[1].value, bars[1].count), (Some(250.0), 1));
        assert_eq!((bars[2].value, bars[2].count), (Some(140.0), 1));
        assert_eq!((bars[3].value, bars[3].count), (None, 0), "a drive without results is missing");

        let iops = compare_chart(&c, &series, Figure::Iops);
        assert_eq!(iops.groups.len(), 1);
        assert_eq!(iops.groups[0].name, rnd.short_name());
        let values: Vec<Option<f64>> = iops.groups[0].bars.iter().map(|b| b.value).collect();
        assert_eq!(values, [Some(9000.0), None, None, None], "only the ICH10R pool of a has it");

        // A cell without its own ids stands for its pool's; one with its own, for those.
        let first = &c.tests[0].drives[0].groups[0];
        assert_eq!(c.result_ids(first), [1, 2, 3]);
        let own = PoolCell { result_ids: Some(vec![2]), ..first.clone() };
        assert_eq!(c.result_ids(&own), [2]);
    }
}
