//! Rated vs measured: [`rated_rows`] turns a set of drives (a model line's capacities, the
//! drives of a comparison or of a controller) with their results into one row per rated
//! figure and drive: the maker's rating, the median, MAD and count of the matched
//! measurements, the gap and the flags that explain it. The tables (site, API, CSV, HTML
//! embed) print these rows; [`family_charts`] draws the same rows as bars: the rating as
//! an outlined bar, the measurement as a filled bar inside it, the figures and the gap in
//! a line under the bars, and a note (the flags) under that.

use crate::{format_value, nice_axis, value_axis, DrawResult, HitBox, Theme, FONT_SIZE};
use api_types::{RatedTableRow, Tally};
use bench::analysis::{interface_flags, measured_for, rated_flags, summarize, RatedFigure};
use bench::{BenchResult, DataPattern, DriveSku, Metric, PlatformGroup, Tags, TestKey};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;

/// One bar row of a rated-vs-measured chart.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedRow {
    pub label: String,
    pub rated: f64,
    /// `None` when no result measured this figure.
    pub measured: Option<f64>,
    /// How many results the measurement summarises.
    pub count: usize,
    pub note: Option<String>,
}

impl RatedRow {
    /// measured / rated − 1, in percent.
    pub fn gap_percent(&self) -> Option<f64> {
        gap_percent(self.measured?, self.rated)
    }
}

fn gap_percent(measured: f64, rated: f64) -> Option<f64> {
    (rated > 0.0).then(|| (measured / rated - 1.0) * 100.0)
}

#[derive(Debug, Clone, PartialEq)]
pub struct RatedBars {
    /// The figure, e.g. `Sequential write`.
    pub figure: String,
    pub unit: String,
    pub rows: Vec<RatedRow>,
}

/// The rated figures a drive page charts: `(figure, id in embed URLs, name, unit)`.
pub const RATED_FIGURES: [(RatedFigure, &str, &str, &str); 4] = [
    (RatedFigure::SeqReadMbps, "seq-read", "Sequential read", "MB/s"),
    (RatedFigure::SeqWriteMbps, "seq-write", "Sequential write", "MB/s"),
    (RatedFigure::Rnd4kReadIops, "rnd4k-read", "Random 4K read", "IOPS"),
    (RatedFigure::Rnd4kWriteIops, "rnd4k-write", "Random 4K write", "IOPS"),
];

/// Which results [`rated_rows`] counts and which test it matches to which rating, as the
/// tables print it under themselves.
pub const RATED_RULE: &str = "Single drives only: results of RAID sets are left out. Makers rate with their best test, \
so each result contributes its best matching measurement: sequential read and write from any sequential test with \
blocks of 128 KiB or more (MB/s); 4K read and write from any random 4 KiB test at any queue depth (IOPS as the tool \
printed them, else derived from MB/s). Measured on names the platforms and the tests matched (tool family and test), with their counts. Measured is \
the median of those results, MAD their spread, n their number; the gap is median / rated − 1. Flags count the results \
whose matched test was flagged: interface ceiling (the link, not the drive, set the number), cache-inflated (more than \
the link carries), far above rated, 0-fill data (compressible data, which compressing controllers write faster). \
Not rated: the catalogue has no rating; no measurement: no result ran a matching test.";

/// One result of a drive, as the rated-vs-measured rows read it.
#[derive(Debug, Clone, Copy)]
pub struct RatedSample<'a> {
    /// The result's id (the rows list the results behind each measurement).
    pub id: i64,
    pub result: &'a BenchResult,
    /// Its tags: a result of a RAID set measures no single drive, so it is left out; its
    /// platform's link tells the interface ceiling.
    pub tags: &'a Tags,
}

/// A drive of a rated-vs-measured table with its results.
pub type RatedDrive<'a> = (&'a DriveSku, Vec<RatedSample<'a>>);

/// The rows of a rated-vs-measured table: per rated figure (in [`RATED_FIGURES`] order),
/// per drive (in the order given), the rating and the median, MAD and count of the
/// single-drive results' matched measurements (see [`RATED_RULE`]). With `split_by_pool`
/// one row per platform group and data pattern the drive was measured in, else one row
/// over all its results. A figure neither rated nor measured has no row; one rated but
/// not measured has `measured: None`, one measured but not rated `rated: None`.
pub fn rated_rows(drives: &[RatedDrive<'_>], split_by_pool: bool) -> Vec<RatedTableRow> {
    struct Matched<'s, 'a> {
        sample: &'s RatedSample<'a>,
        key: TestKey,
        metric: &'a Metric,
        value: f64,
    }
    type Pool = Option<(PlatformGroup, Option<DataPattern>)>;
    let mut rows = Vec::new();
    for &(figure, figure_id, figure_name, unit) in &RATED_FIGURES {
        for (sku, samples) in drives {
            let rated = figure.of(&sku.rated);
            let mut pools: BTreeMap<Pool, Vec<Matched>> = BTreeMap::new();
            for sample in samples.iter().filter(|s| s.tags.raid.is_none()) {
                let Some((metric, value)) = measured_for(sample.result, figure) else { continue };
                let pool =
                    split_by_pool.then(|| (PlatformGroup::of(sample.tags), sample.result.data_pattern));
                let key = TestKey::of(sample.result.family(), metric);
                pools.entry(pool).or_default().push(Matched { sample, key, metric, value });
            }
            if pools.is_empty() && rated.is_some() {
                pools.insert(None, Vec::new());
            }
            for (pool, matched) in pools {
                let values: Vec<f64> = matched.iter().map(|m| m.value).collect();
                let measured = summarize(&values);
                let (mut flags, mut platforms, mut tests) = (Tallies::new(), Tallies::new(), Tallies::new());
                let mut result_ids = Vec::new();
                for m in &matched {
                    // The flags of exactly the matched metric: a result's stored flags name
                    // metrics by label, and some tools label read and write alike.
                    let one = BenchResult { metrics: vec![m.metric.clone()], ..m.sample.result.clone() };
                    let mut names: Vec<&str> = interface_flags(&one, m.sample.tags)
                        .into_iter()
                        .chain(rated_flags(&one, &sku.rated))
                        .map(|f| f.kind.name())
                        .collect();
                    if m.sample.result.data_pattern == Some(DataPattern::ZeroFill) {
                        names.push("0-fill data");
                    }
                    names.sort_unstable();
                    names.dedup();
                    for n in names {
                        flags.add(n.to_string());
                    }
                    platforms.add(PlatformGroup::of(m.sample.tags).label());
                    tests.add(m.key.id());
                    result_ids.push(m.sample.id);
                }
                result_ids.sort_unstable();
                result_ids.dedup();
                rows.push(RatedTableRow {
                    drive: sku.id.clone(),
                    drive_label: format!("{} {} {} GB", sku.vendor, sku.model, sku.capacity_gb),
                    capacity_gb: sku.capacity_gb,
                    figure,
                    figure_id: figure_id.to_string(),
                    figure_name: figure_name.to_string(),
                    unit: unit.to_string(),
                    pool: pool.map(|(p, d)| api_types::pool_label(&p.label(), d)),
                    rated,
                    gap_percent: measured.zip(rated).and_then(|(m, r)| gap_percent(m.median, r)),
                    measured,
                    flags: flags.done(),
                    platforms: platforms.done(),
                    tests: tests.done(),
                    result_ids,
                });
            }
        }
    }
    rows
}

/// Counts of names, in name order.
struct Tallies(BTreeMap<String, usize>);

impl Tallies {
    fn new() -> Self {
        Tallies(BTreeMap::new())
    }
    fn add(&mut self, name: String) {
        *self.0.entry(name).or_default() += 1;
    }
    fn done(self) -> Vec<Tally> {
        self.0.into_iter().map(|(name, count)| Tally { name, count }).collect()
    }
}

/// The charts of a table's rows: one per rated figure that has a rated row, with the
/// figure's id; one bar row per rated row (labelled by capacity), in row order. Rows
/// without a rating have nothing to set a bar against and stay in the table only.
pub fn rated_charts(rows: &[RatedTableRow]) -> Vec<(&'static str, RatedBars)> {
    RATED_FIGURES
        .iter()
        .filter_map(|&(figure, id, name, unit)| {
            let bars: Vec<RatedRow> = rows
                .iter()
                .filter(|r| r.figure == figure)
                .filter_map(|r| {
                    let n = r.measured.map_or(0, |m| m.count);
                    let note = (!r.flags.is_empty()).then(|| {
                        r.flags
                            .iter()
                            .map(|t| format!("{}: {} of {n}", t.name, t.count))
                            .collect::<Vec<_>>()
                            .join(", ")
                    });
                    Some(RatedRow {
                        label: format!("{} GB", r.capacity_gb),
                        rated: r.rated?,
                        measured: r.measured.map(|m| m.median),
                        count: n,
                        note,
                    })
                })
                .collect();
            (!bars.is_empty())
                .then(|| (id, RatedBars { figure: name.to_string(), unit: unit.to_string(), rows: bars }))
        })
        .collect()
}

/// One chart per rated figure of a model line, with the figure's id: `family` holds each
/// capacity with its results; the charts draw [`rated_rows`] (one row per capacity, all
/// single-drive results pooled) through [`rated_charts`].
pub fn family_charts(family: &[RatedDrive<'_>]) -> Vec<(&'static str, RatedBars)> {
    rated_charts(&rated_rows(family, false))
}

const PAD: i32 = 8;
const TITLE_H: i32 = 40;
/// A row: the bars (20 px), the figures line, the note line.
const ROW_H: i32 = 56;
const AXIS_H: i32 = 36;

pub fn rated_bars_height(chart: &RatedBars) -> u32 {
    (PAD + TITLE_H + chart.rows.len() as i32 * ROW_H + AXIS_H) as u32
}

/// Text left-anchored at `(x, y)`, cut with an ellipsis where it would pass `right`:
/// whatever the font, no label leaves the drawing area.
fn text_within<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    (x, y): (i32, i32),
    right: i32,
    color: &RGBColor,
) -> DrawResult<(), DB> {
    let style = crate::font(FONT_SIZE).color(color).pos(Pos::new(HPos::Left, VPos::Center));
    let fits = |t: &str| area.estimate_text_size(t, &style).map_or(true, |(w, _)| x + w as i32 <= right);
    let mut shown = s.to_string();
    let mut chars: Vec<char> = s.chars().collect();
    while !fits(&shown) && !chars.is_empty() {
        chars.pop();
        shown = format!("{}…", chars.iter().collect::<String>().trim_end());
    }
    if chars.is_empty() && !fits(&shown) {
        return Ok(());
    }
    area.draw(&Text::new(shown, (x, y), style))
}

/// Draws `chart` over `area`; one hit box per row (`group` = row, `item` = 0). Every
/// label stays inside the area's width: the figures sit under the bars, and a line that
/// does not fit is cut with an ellipsis (the table beside the chart has it whole).
pub fn draw_rated_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &RatedBars,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let (w, _) = area.dim_in_pixel();
    let w = w as i32;
    let right = w - PAD;
    text_within(area, &chart.figure, (PAD, PAD + 8), right, &theme.foreground)?;
    let (rated_c, measured_c) = (theme.muted, theme.series_color(0));
    // Legend under the title.
    let ly = PAD + 26;
    area.draw(&Rectangle::new([(PAD, ly - 5), (PAD + 12, ly + 5)], rated_c.stroke_width(1)))?;
    text_within(area, "rated", (PAD + 17, ly), right, &theme.muted)?;
    area.draw(&Rectangle::new([(PAD + 70, ly - 5), (PAD + 82, ly + 5)], measured_c.filled()))?;
    text_within(area, "measured", (PAD + 87, ly), right, &theme.muted)?;

    let max = chart.rows.iter().flat_map(|r| [Some(r.rated), r.measured]).flatten().fold(0.0, f64::max);
    let axis = nice_axis(max);
    // The last tick label is centred on the axis' end: keep its half inside.
    let style = TextStyle::from(crate::font(FONT_SIZE));
    let half_tick =
        area.estimate_text_size(&format_value(axis.1), &style).map_or(20, |(tw, _)| tw as i32 / 2 + 2);
    let x0 = (w * 25 / 100).clamp(70, 140);
    let x1 = (right - half_tick).max(x0 + 20);
    let top = PAD + TITLE_H;
    let bottom = top + chart.rows.len() as i32 * ROW_H;
    value_axis(area, (x0, x1), (top, bottom), axis, &chart.unit, theme)?;
    let scale = |v: f64| x0 + ((x1 - x0) as f64 * (v / axis.1).clamp(0.0, 1.0)).round() as i32;

    let mut hits = Vec::new();
    for (i, row) in chart.rows.iter().enumerate() {
        let y = top + i as i32 * ROW_H + 4;
        crate::text(area, &row.label, (x0 - 6, y + 10), &theme.foreground, (HPos::Right, VPos::Center))?;
        area.draw(&Rectangle::new([(x0, y), (scale(row.rated), y + 20)], rated_c.stroke_width(1)))?;
        let summary = match row.measured {
            Some(m) => {
                area.draw(&Rectangle::new(
                    [(x0, y + 5), (scale(m).max(x0 + 1), y + 15)],
                    measured_c.filled(),
                ))?;
                let gap = row.gap_percent().map(|g| format!(" {g:+.1} %")).unwrap_or_default();
                format!("{} / {}{gap} n={}", format_value(m), format_value(row.rated), row.count)
            }
            None => format!("no measurement / {}", format_value(row.rated)),
        };
        text_within(area, &summary, (x0, y + 31), right, &theme.foreground)?;
        if let Some(note) = &row.note {
            text_within(area, note, (x0, y + 45), right, &theme.muted)?;
        }
        hits.push(HitBox { group: i, item: 0, x0, y0: y, x1: right, y1: y + ROW_H - 4 });
    }
    Ok(hits)
}

/// A rated-vs-measured row as the tables print it (the site's and the HTML embed's):
/// a missing rating or measurement in words, never as zero.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedCells {
    pub rated: String,
    pub measured: String,
    pub mad: String,
    pub n: String,
    pub gap: String,
    pub flags: String,
    /// Where and with which tests it was measured: `ICH10R ×3 · cdm-native SEQ 1MiB Q1T1 write ×3`.
    pub measured_on: String,
}

pub fn rated_cells(r: &RatedTableRow) -> RatedCells {
    let with_unit = |v: f64| format!("{} {}", format_value(v), r.unit);
    RatedCells {
        rated: r.rated.map_or_else(|| "not rated".to_string(), with_unit),
        measured: r.measured.map_or_else(|| "no measurement".to_string(), |m| with_unit(m.median)),
        mad: r.measured.map(|m| format_value(m.mad)).unwrap_or_default(),
        n: r.measured.map_or(0, |m| m.count).to_string(),
        gap: r.gap_percent.map(|g| format!("{g:+.1} %")).unwrap_or_else(|| "—".into()),
        flags: r.flags_text(),
        measured_on: [api_types::tallies_text(&r.platforms), api_types::tallies_text(&r.tests)]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · "),
    }
}
