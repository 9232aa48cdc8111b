//! From a comparison (`GET /api/v1/compare`) to the compare chart's input: the site's
//! canvas and the server's SVG/PNG embeds build the very same [`GroupedBars`].

use crate::{Bar, BarGroup, GroupedBars};
use api_types::{ComparedTest, Comparison, Figure, GroupCell};

/// One bar series: a drive measured on one platform group with one data pattern, the
/// finest pool the server aggregates. Numbers from different pools are never merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Index into the comparison's drives.
    pub drive: usize,
    /// The pool's label (`ICH10R · random`); `None` for a drive without any result.
    pub group: Option<String>,
    pub label: String,
}

/// Every series of a comparison: per drive (in the order asked for), its pools in label
/// order; a drive without any result is one series marked so.
pub fn series_of(c: &Comparison) -> Vec<Series> {
    let mut out = Vec::new();
    for (i, d) in c.drives.iter().enumerate() {
        let mut groups: Vec<String> = c
            .tests
            .iter()
            .filter_map(|t| t.drives.get(i))
            .flat_map(|cell| cell.groups.iter().map(GroupCell::label))
            .collect();
        groups.sort();
        groups.dedup();
        if groups.is_empty() {
            out.push(Series { drive: i, group: None, label: format!("{} (no results)", d.label()) });
        }
        for g in groups {
            out.push(Series { drive: i, label: format!("{} · {g}", d.label()), group: Some(g) });
        }
    }
    out
}

/// The cell of `test` that series `s` stands for, if that pool has the test.
pub fn cell_of<'a>(test: &'a ComparedTest, s: &Series) -> Option<&'a GroupCell> {
    let g = s.group.as_ref()?;
    test.drives.get(s.drive)?.groups.iter().find(|x| &x.label() == g)
}

/// The chart's input: one bar group per test where some series has `figure`, one bar
/// per series (missing where that pool lacks the test).
pub fn compare_chart(c: &Comparison, series: &[Series], figure: Figure) -> GroupedBars {
    let summary = |t: &ComparedTest, s: &Series| cell_of(t, s).and_then(|g| g.aggregates.of(figure));
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
    use api_types::{Aggregates, ComparedDrive, DriveCell};
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

    fn cell(chipset: &str, mbps: &[f64], iops: &[f64], ids: &[i64]) -> GroupCell {
        let platform = PlatformGroup { chipset: Some(chipset.into()), ..Default::default() };
        GroupCell {
            platform_label: platform.label(),
            platform,
            data_pattern: Some(DataPattern::Random),
            aggregates: Aggregates {
                mbps: summarize(mbps),
                iops: summarize(iops),
                latency_us: None,
                result_ids: ids.to_vec(),
            },
        }
    }

    fn test(key: TestKey, drives: Vec<Vec<GroupCell>>) -> ComparedTest {
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
            tests: vec![
                test(
                    seq,
                    vec![
                        vec![
                            cell("ICH10R", &[270.0, 280.0, 290.0], &[], &[1, 2, 3]),
                            cell("SB850", &[250.0], &[], &[4]),
                        ],
                        vec![cell("ICH10R", &[140.0], &[], &[5])],
                        vec![],
                    ],
                ),
                test(rnd, vec![vec![cell("ICH10R", &[], &[9000.0], &[1])], vec![], vec![]]),
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
    }
}
