//! A test's distribution: one row per group (platform, drive, data pattern), every
//! sample as a dot over a box of median ± MAD with min–max whiskers, and the sample
//! count. Single numbers hide spread; this shows it.

use crate::{format_value, nice_axis, text, value_axis, DrawResult, HitBox, Theme};
use api_types::pool_label;
use bench::analysis::summarize;
use bench::{BenchResult, PlatformGroup, Tags, TestKey};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct DistGroup {
    pub label: String,
    pub values: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// The test, e.g. `SEQ 1MiB Q1T1 read`.
    pub test: String,
    pub unit: String,
    pub groups: Vec<DistGroup>,
}

/// A drive's charts: per test its results measured as a burst figure (a load curve's
/// points are drawn as the curve; `bench::curves::burst_metrics`), in key order, the samples of each
/// platform-and-pattern group (`ICH10R · random`, as the pools of the compare page),
/// in MB/s where the test reports them, else IOPS.
pub fn drive_distributions(results: &[(&BenchResult, &Tags)]) -> Vec<(TestKey, Distribution)> {
    let mut by: BTreeMap<TestKey, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut in_mbps: BTreeMap<TestKey, bool> = BTreeMap::new();
    for (result, tags) in results {
        let group = pool_label(&PlatformGroup::of(tags).label(), result.data_pattern);
        for (k, m) in bench::curves::burst_metrics(result) {
            *in_mbps.entry(k).or_default() |= m.mbps.is_some();
            if let Some(v) = m.mbps.or(m.iops) {
                by.entry(k).or_default().entry(group.clone()).or_default().push(v);
            }
        }
    }
    by.into_iter()
        .map(|(k, groups)| {
            let unit = if in_mbps.get(&k).copied().unwrap_or(false) { "MB/s" } else { "IOPS" };
            let groups = groups.into_iter().map(|(label, values)| DistGroup { label, values }).collect();
            (k, Distribution { test: k.short_name(), unit: unit.to_string(), groups })
        })
        .collect()
}

const PAD: i32 = 8;
const TITLE_H: i32 = 22;
/// A row: its label on a line of its own, then the plot.
const LABEL_H: i32 = 16;
const ROW_H: i32 = LABEL_H + 22;
const AXIS_H: i32 = 36;
const VALUE_W: i32 = 112;

pub fn distribution_height(chart: &Distribution) -> u32 {
    (PAD + TITLE_H + chart.groups.len() as i32 * ROW_H + AXIS_H) as u32
}

/// Draws `chart` over `area`; hit boxes are one per sample (`group`, `item` = index in
/// `values`) plus one per row with `item = usize::MAX` for the summary.
pub fn draw_distribution<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Distribution,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let (w, _) = area.dim_in_pixel();
    let w = w as i32;
    text(area, &chart.test, (PAD, PAD + 8), &theme.foreground, (HPos::Left, VPos::Center))?;
    let x0 = PAD + 4;
    let x1 = (w - VALUE_W).max(x0 + 20);
    let top = PAD + TITLE_H;
    let bottom = top + chart.groups.len() as i32 * ROW_H;
    let max =
        chart.groups.iter().flat_map(|g| &g.values).copied().filter(|v| v.is_finite()).fold(0.0, f64::max);
    let axis = nice_axis(max);
    value_axis(area, (x0, x1), (top, bottom), axis, &chart.unit, theme)?;
    let scale = |v: f64| x0 + ((x1 - x0) as f64 * (v / axis.1).clamp(0.0, 1.0)).round() as i32;

    let mut hits = Vec::new();
    for (g, group) in chart.groups.iter().enumerate() {
        let y = top + g as i32 * ROW_H;
        let c = y + LABEL_H + (ROW_H - LABEL_H) / 2;
        let color = theme.series_color(g);
        text(area, &group.label, (PAD, y + LABEL_H / 2 + 2), &theme.muted, (HPos::Left, VPos::Center))?;
        let Some(s) = summarize(&group.values) else {
            text(area, "no samples", (x0 + 4, c), &theme.muted, (HPos::Left, VPos::Center))?;
            continue;
        };
        let line = color.stroke_width(1);
        area.draw(&PathElement::new(vec![(scale(s.min), c), (scale(s.max), c)], line))?;
        for end in [s.min, s.max] {
            area.draw(&PathElement::new(vec![(scale(end), c - 4), (scale(end), c + 4)], line))?;
        }
        let (a, b) = (scale(s.median - s.mad), scale(s.median + s.mad).max(scale(s.median - s.mad) + 2));
        area.draw(&Rectangle::new([(a, c - 7), (b, c + 7)], color.mix(0.25).filled()))?;
        area.draw(&Rectangle::new([(a, c - 7), (b, c + 7)], line))?;
        let m = scale(s.median);
        area.draw(&PathElement::new(vec![(m, c - 9), (m, c + 9)], theme.foreground.stroke_width(2)))?;
        for (i, v) in group.values.iter().enumerate().filter(|(_, v)| v.is_finite()) {
            let x = scale(*v);
            area.draw(&Circle::new((x, c), 3, color.filled()))?;
            hits.push(HitBox { group: g, item: i, x0: x - 4, y0: c - 4, x1: x + 4, y1: c + 4 });
        }
        let label = format!("{} n={}", format_value(s.median), s.count);
        text(area, &label, (x1 + 6, c), &theme.foreground, (HPos::Left, VPos::Center))?;
        hits.push(HitBox { group: g, item: usize::MAX, x0, y0: y, x1: w - PAD, y1: y + ROW_H });
    }
    Ok(hits)
}
