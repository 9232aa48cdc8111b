//! Rated vs measured for one figure (e.g. sequential write) across rows (capacities or
//! results): the maker's rating as an outlined bar, the measurement as a filled bar
//! inside it, and the gap in percent. A note (the flag that explains a gap, such as an
//! interface ceiling) is printed under the row's label.

use crate::{format_value, nice_axis, text, value_axis, DrawResult, HitBox, Theme};
use bench::analysis::{rated_vs_measured, summarize, Flag, RatedFigure};
use bench::{BenchResult, DriveSku, Tags};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use std::collections::BTreeMap;

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
        let m = self.measured?;
        (self.rated > 0.0).then(|| (m / self.rated - 1.0) * 100.0)
    }
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

/// One result of a capacity, as the rated-vs-measured charts read it.
#[derive(Debug, Clone, Copy)]
pub struct RatedSample<'a> {
    pub result: &'a BenchResult,
    /// Its tags: a result of a RAID set measures no single drive, so it is left out.
    pub tags: &'a Tags,
    /// The result's flags: the ones about a charted metric become the row's note.
    pub flags: &'a [Flag],
}

/// One chart per rated figure of a model line, with the figure's id: `family` holds each
/// capacity with its results; each chart has one row per capacity the maker rated for
/// that figure, the median of the single-drive results that measured it (with their
/// count), and the flags that explain a gap.
pub fn family_charts(family: &[(&DriveSku, Vec<RatedSample<'_>>)]) -> Vec<(&'static str, RatedBars)> {
    RATED_FIGURES
        .iter()
        .filter_map(|&(figure, id, name, unit)| {
            let rows: Vec<RatedRow> = family
                .iter()
                .filter_map(|(sku, samples)| {
                    let rated = figure.of(&sku.rated)?;
                    let mut measured = Vec::new();
                    let mut notes: BTreeMap<&'static str, usize> = BTreeMap::new();
                    for s in samples.iter().filter(|s| s.tags.raid.is_none()) {
                        let Some(m) =
                            rated_vs_measured(s.result, &sku.rated).into_iter().find(|m| m.figure == figure)
                        else {
                            continue;
                        };
                        measured.push(m.measured);
                        for f in s.flags.iter().filter(|f| f.label == m.label) {
                            *notes.entry(f.kind.name()).or_default() += 1;
                        }
                    }
                    let n = measured.len();
                    let note = (!notes.is_empty()).then(|| {
                        notes.iter().map(|(k, c)| format!("{k}: {c} of {n}")).collect::<Vec<_>>().join(", ")
                    });
                    Some(RatedRow {
                        label: format!("{} GB", sku.capacity_gb),
                        rated,
                        measured: summarize(&measured).map(|s| s.median),
                        count: n,
                        note,
                    })
                })
                .collect();
            (!rows.is_empty())
                .then(|| (id, RatedBars { figure: name.to_string(), unit: unit.to_string(), rows }))
        })
        .collect()
}

const PAD: i32 = 8;
const TITLE_H: i32 = 40;
const ROW_H: i32 = 42;
const AXIS_H: i32 = 36;
const VALUE_W: i32 = 150;

pub fn rated_bars_height(chart: &RatedBars) -> u32 {
    (PAD + TITLE_H + chart.rows.len() as i32 * ROW_H + AXIS_H) as u32
}

/// Draws `chart` over `area`; one hit box per row (`group` = row, `item` = 0).
pub fn draw_rated_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &RatedBars,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let (w, _) = area.dim_in_pixel();
    let w = w as i32;
    text(area, &chart.figure, (PAD, PAD + 8), &theme.foreground, (HPos::Left, VPos::Center))?;
    let (rated_c, measured_c) = (theme.muted, theme.series_color(0));
    // Legend under the title.
    let ly = PAD + 26;
    area.draw(&Rectangle::new([(PAD, ly - 5), (PAD + 12, ly + 5)], rated_c.stroke_width(1)))?;
    text(area, "rated", (PAD + 17, ly), &theme.muted, (HPos::Left, VPos::Center))?;
    area.draw(&Rectangle::new([(PAD + 70, ly - 5), (PAD + 82, ly + 5)], measured_c.filled()))?;
    text(area, "measured", (PAD + 87, ly), &theme.muted, (HPos::Left, VPos::Center))?;

    let x0 = (w * 25 / 100).clamp(70, 140);
    let x1 = (w - VALUE_W).max(x0 + 20);
    let top = PAD + TITLE_H;
    let bottom = top + chart.rows.len() as i32 * ROW_H;
    let max = chart.rows.iter().flat_map(|r| [Some(r.rated), r.measured]).flatten().fold(0.0, f64::max);
    let axis = nice_axis(max);
    value_axis(area, (x0, x1), (top, bottom), axis, &chart.unit, theme)?;
    let scale = |v: f64| x0 + ((x1 - x0) as f64 * (v / axis.1).clamp(0.0, 1.0)).round() as i32;

    let mut hits = Vec::new();
    for (i, row) in chart.rows.iter().enumerate() {
        let y = top + i as i32 * ROW_H + 4;
        let c = y + 11;
        text(area, &row.label, (x0 - 6, c), &theme.foreground, (HPos::Right, VPos::Center))?;
        area.draw(&Rectangle::new([(x0, y), (scale(row.rated), y + 22)], rated_c.stroke_width(1)))?;
        let summary = match row.measured {
            Some(m) => {
                area.draw(&Rectangle::new(
                    [(x0, y + 5), (scale(m).max(x0 + 1), y + 17)],
                    measured_c.filled(),
                ))?;
                let gap = row.gap_percent().map(|g| format!(" {g:+.1} %")).unwrap_or_default();
                format!("{} / {}{gap} n={}", format_value(m), format_value(row.rated), row.count)
            }
            None => format!("not measured / {}", format_value(row.rated)),
        };
        text(area, &summary, (x1 + 6, c), &theme.foreground, (HPos::Left, VPos::Center))?;
        if let Some(note) = &row.note {
            text(area, note, (x0, y + 29), &theme.muted, (HPos::Left, VPos::Center))?;
        }
        hits.push(HitBox { group: i, item: 0, x0, y0: y, x1: w - PAD, y1: y + ROW_H - 4 });
    }
    Ok(hits)
}
