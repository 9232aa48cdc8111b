//! From a comparison (`GET /api/v1/compare`) to the compare chart's input: the site's
//! canvas and the server's SVG/PNG embeds build the very same [`ComparePanels`]. The
//! series (one per drive, platform group and data pattern) are what the page's table
//! lists.

use crate::{BarDifference, ComparePanels, Panel, PanelBar, PanelRow};
use api_types::{ComparedPool, ComparedTest, Comparison, Figure, PoolCell};
use bench::DataPattern;
use std::collections::BTreeMap;

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

/// What an author chose to show of a comparison: the figure, and optionally only some
/// tests, platforms and data patterns (the embeds' `tests`, `platforms` and `patterns`
/// parameters; empty means all).
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub figure: Figure,
    /// Test names (`SEQ 1MiB Q1T1 read`) or ids (`cdm-native SEQ 1MiB Q1T1 read`).
    pub tests: Vec<String>,
    /// Chipsets or storage controllers (`SB850`, `ASUS U3S6 (Marvell 88SE9123)`), any case.
    pub platforms: Vec<String>,
    /// Data patterns; `None` in the list stands for "not stated".
    pub patterns: Vec<Option<DataPattern>>,
}

impl Selection {
    /// The query parameters a selection reads (besides `figure`), in the compare page's
    /// URL and the chart embeds alike.
    pub const PARAMS: [&'static str; 3] = ["tests", "platforms", "patterns"];

    pub fn of(figure: Figure) -> Selection {
        Selection { figure, tests: Vec::new(), platforms: Vec::new(), patterns: Vec::new() }
    }

    /// Reads query parameter `name` when it is one of [`Selection::PARAMS`] (a
    /// comma-separated list), `None` for any other. The names in `patterns` that are no
    /// data pattern come back as errors, one each; the others are taken.
    pub fn read(&mut self, name: &str, value: &str) -> Option<Result<(), Vec<String>>> {
        let items = value.split(',').map(str::trim).filter(|s| !s.is_empty());
        match name {
            "tests" => self.tests.extend(items.map(String::from)),
            "platforms" => self.platforms.extend(items.map(String::from)),
            "patterns" => {
                let mut errors = Vec::new();
                for p in items {
                    match pattern_named(p) {
                        Some(pattern) => self.patterns.push(pattern),
                        None => {
                            errors.push(format!("pattern {p:?} is not one of {}", PATTERN_NAMES.join(", ")))
                        }
                    }
                }
                if !errors.is_empty() {
                    return Some(Err(errors));
                }
            }
            _ => return None,
        }
        Some(Ok(()))
    }

    fn shows_test(&self, t: &ComparedTest) -> bool {
        self.tests.is_empty() || self.tests.iter().any(|x| *x == t.name || *x == t.key.id())
    }

    fn shows_pool(&self, p: &ComparedPool) -> bool {
        let named = |field: &str| {
            p.platform
                .get(field)
                .is_some_and(|v| self.platforms.iter().any(|want| want.eq_ignore_ascii_case(&v.to_string())))
        };
        (self.platforms.is_empty() || named("chipset") || named("storage_controller"))
            && (self.patterns.is_empty() || self.patterns.contains(&p.data_pattern))
    }
}

/// The names `patterns` takes (see [`pattern_named`]).
pub const PATTERN_NAMES: [&str; 4] = ["random", "zero-fill", "one-fill", "unknown"];

/// A data pattern by its name in URLs (`random`, `zero-fill`, `one-fill`), or `unknown`
/// for "not stated".
fn pattern_named(name: &str) -> Option<Option<DataPattern>> {
    match name {
        "unknown" => Some(None),
        "random" => Some(Some(DataPattern::Random)),
        "zero-fill" => Some(Some(DataPattern::ZeroFill)),
        "one-fill" => Some(Some(DataPattern::OneFill)),
        _ => None,
    }
}

/// The compare chart's input: one panel per test that at least two shown pools have, one
/// row per pool label (platform group and data pattern) with a bar for every drive
/// measured there; tests only one pool has go to `also_measured`. The site's canvas and
/// the server's embeds draw exactly this.
pub fn compare_panels(c: &Comparison, sel: &Selection) -> ComparePanels {
    let figure = sel.figure;
    let mut panels = Vec::new();
    let mut also_measured = Vec::new();
    for (t, test) in c.tests.iter().enumerate().filter(|(_, t)| sel.shows_test(t)) {
        // Every shown pool with this figure, as (pool label, bar).
        let mut bars: Vec<(String, PanelBar)> = Vec::new();
        for (drive, cell) in test.drives.iter().enumerate() {
            for g in &cell.groups {
                let (Some(pool), Some(s)) = (c.pool_of(g), g.of(figure)) else { continue };
                if !sel.shows_pool(pool) {
                    continue;
                }
                let vs = match &g.vs_reference {
                    Some(v) => v.of(figure).map(BarDifference::Against),
                    // The reference of the test's other pools says so, once they have one.
                    None => test
                        .drives
                        .iter()
                        .flat_map(|d| &d.groups)
                        .any(|o| {
                            o.vs_reference
                                .as_ref()
                                .is_some_and(|v| v.reference_pool == g.pool && v.of(figure).is_some())
                        })
                        .then_some(BarDifference::Reference),
                };
                let bar =
                    PanelBar { drive, pool: g.pool, value: s.median, spread: s.mad, count: s.count, vs };
                bars.push((row_label(pool), bar));
            }
        }
        match bars.len() {
            0 => {}
            1 => {
                let (label, b) = &bars[0];
                let drive = c.drives.get(b.drive).map(|d| d.label()).unwrap_or_default();
                let value = crate::format_value(b.value);
                // Value first: a long platform may be cut at the chart's edge.
                let unit = figure.unit();
                also_measured
                    .push(format!("{}: {value} {unit} n={} — {drive} · {label}", test.name, b.count));
            }
            _ => {
                let mut rows: BTreeMap<String, Vec<PanelBar>> = BTreeMap::new();
                for (label, bar) in bars {
                    rows.entry(label).or_default().push(bar);
                }
                let rows = rows
                    .into_iter()
                    .map(|(label, mut bars)| {
                        bars.sort_by_key(|b| b.drive);
                        PanelRow { label, bars }
                    })
                    .collect();
                panels.push(Panel { test: t, title: test.name.clone(), rows });
            }
        }
    }
    let common = strip_common_parts(&mut panels);
    ComparePanels {
        unit: figure.unit().into(),
        drives: c.drives.iter().map(|d| d.label()).collect(),
        panels,
        common,
        also_measured,
    }
}

/// Removes from every row label the ` · `-separated parts that all rows of the chart
/// share (`sata-6`, `AHCI`), which the chart then states once, and returns them. Row
/// labels stay distinct: removing a part from all of them cannot make two equal.
fn strip_common_parts(panels: &mut [Panel]) -> Vec<String> {
    let labels: Vec<Vec<String>> = panels
        .iter()
        .flat_map(|p| &p.rows)
        .map(|r| r.label.split(" · ").map(String::from).collect())
        .collect();
    let Some(first) = labels.first() else { return Vec::new() };
    let mut common = first.clone();
    common.retain(|part| labels.iter().all(|l| l.contains(part)));
    // A label made only of common parts would be left empty: keep such charts as they are.
    if common.is_empty() || labels.iter().any(|l| l.iter().all(|p| common.contains(p))) {
        return Vec::new();
    }
    for row in panels.iter_mut().flat_map(|p| p.rows.iter_mut()) {
        let kept: Vec<&str> = row.label.split(" · ").filter(|p| !common.iter().any(|c| c == p)).collect();
        row.label = kept.join(" · ");
    }
    common
}

/// A pool's row label: its storage controller (or chipset), its data pattern, then the
/// rest of its platform (`ASUS U3S6 · random · Marvell · AHCI · sata-6`), so that the
/// pattern is never the part an ellipsis hides.
fn row_label(pool: &ComparedPool) -> String {
    if pool.merged {
        return pool.label();
    }
    let mut parts: Vec<&str> = pool.platform_label.split(" · ").collect();
    let pattern = api_types::pattern_label(pool.data_pattern);
    parts.insert(1.min(parts.len()), pattern);
    parts.join(" · ")
}

/// The cell a bar of [`compare_panels`] stands for.
pub fn cell_of_bar<'a>(c: &'a Comparison, panel: &Panel, bar: &PanelBar) -> Option<&'a PoolCell> {
    c.tests.get(panel.test)?.drives.get(bar.drive)?.groups.iter().find(|g| g.pool == bar.pool)
}

/// The bar a hit box of [`crate::draw_compare_panels`] points at.
pub fn bar_at(chart: &ComparePanels, group: usize, item: usize) -> Option<(&Panel, &PanelBar)> {
    let panel = chart.panels.get(group)?;
    Some((panel, panel.rows.iter().flat_map(|r| &r.bars).nth(item)?))
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
        let mut tags = bench::Tags::default();
        tags.platform.chipset = Some(chipset.into());
        let platform = PlatformGroup::of(&tags);
        ComparedPool {
            drive: drive.into(),
            platform_label: platform.label(),
            platform,
            data_pattern: Some(DataPattern::Random),
            results: ids.len(),
            result_ids: ids.to_vec(),
            merged: false,
        }
    }

    fn cell(pool: usize, mbps: &[f64], iops: &[f64]) -> PoolCell {
        PoolCell {
            pool,
            mbps: summarize(mbps),
            iops: summarize(iops),
            latency_us: None,
            results: None,
            result_ids: None,
            vs_reference: None,
        }
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
    fn every_pool_is_a_series_and_panels_set_drives_side_by_side_per_platform() {
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

        let mbps = compare_panels(&c, &Selection::of(Figure::Mbps));
        assert_eq!(mbps.unit, "MB/s");
        assert_eq!(mbps.panels.len(), 1, "the random test has no MB/s, so no MB/s panel");
        assert_eq!(mbps.drives, ["V a 64 GB", "V b 64 GB", "V c 64 GB"], "colour is the drive");
        let rows = &mbps.panels[0].rows;
        let labels: Vec<&str> = rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["ICH10R", "SB850"], "one row per platform and pattern");
        assert_eq!(mbps.common, ["random"], "what every row shares is said once");
        // On ICH10R both drives side by side, in drive order; SB850 has only a.
        let ich: Vec<(usize, f64, f64, usize)> =
            rows[0].bars.iter().map(|b| (b.drive, b.value, b.spread, b.count)).collect();
        assert_eq!(ich, [(0, 280.0, 10.0, 3), (1, 140.0, 0.0, 1)]);
        assert_eq!(rows[1].bars.len(), 1);
        assert!(mbps.also_measured.is_empty());
        // A hit maps back to its cell.
        let (panel, bar) = bar_at(&mbps, 0, 1).unwrap();
        assert_eq!(cell_of_bar(&c, panel, bar).unwrap().pool, 2);

        // Only one pool has the random test's IOPS: listed, not drawn.
        let iops = compare_panels(&c, &Selection::of(Figure::Iops));
        assert!(iops.panels.is_empty());
        assert_eq!(iops.also_measured.len(), 1);
        assert!(iops.also_measured[0].starts_with(&rnd.short_name()), "{:?}", iops.also_measured);
        let line = &iops.also_measured[0];
        assert!(line.contains(": 9000 IOPS n=1 — V a 64 GB · ICH10R · random"), "{line}");

        // Selections: a platform keeps its rows only; a second pool gone makes the test a
        // single-pool one.
        let sb = Selection { platforms: vec!["sb850".into()], ..Selection::of(Figure::Mbps) };
        let only = compare_panels(&c, &sb);
        assert!(only.panels.is_empty() && only.also_measured.len() == 1, "{only:?}");
        let ich = Selection { platforms: vec!["ICH10R".into()], ..Selection::of(Figure::Mbps) };
        assert_eq!(compare_panels(&c, &ich).panels[0].rows.len(), 1);
        let none = Selection { patterns: vec![Some(DataPattern::ZeroFill)], ..Selection::of(Figure::Mbps) };
        let empty = compare_panels(&c, &none);
        assert!(empty.panels.is_empty() && empty.also_measured.is_empty());
        let by_name = Selection { tests: vec![seq.id()], ..Selection::of(Figure::Mbps) };
        assert_eq!(compare_panels(&c, &by_name).panels.len(), 1);
        let other = Selection { tests: vec![rnd.short_name()], ..Selection::of(Figure::Mbps) };
        assert!(compare_panels(&c, &other).panels.is_empty());

        // A cell without its own ids stands for its pool's; one with its own, for those.
        let first = &c.tests[0].drives[0].groups[0];
        assert_eq!((c.results(first), c.result_ids(first)), (3, &[1, 2, 3][..]));
        let own = PoolCell { results: Some(1), result_ids: Some(vec![2]), ..first.clone() };
        assert_eq!((c.results(&own), c.result_ids(&own)), (1, &[2][..]));
    }
}
