//! A factor's effects as a forest plot: one row per effect (a test, one value against
//! another), its ratio as a dot and its 95 % interval as a line on a log scale around a
//! line at 1 (no effect), the verdict and drives beside it. A dot is filled only when
//! the verdict claims an effect (clear or likely).

use crate::{text, DrawResult, HitBox, Theme};
use api_types::FactorEffects;
use bench::difference::Verdict;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

#[derive(Debug, Clone, PartialEq)]
pub struct ForestRow {
    /// `cdm-native SEQ 1MiB Q1T1 write · random → zero-fill`.
    pub label: String,
    pub ratio: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub verdict: Verdict,
    /// `×1.51 too few results · 2 drives`.
    pub note: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Forest {
    /// `Data pattern: effect on each test`.
    pub title: String,
    pub rows: Vec<ForestRow>,
}

/// The forest of one factor's effects, in the order the API lists them.
pub fn forest_of(f: &FactorEffects) -> Forest {
    let rows = f
        .effects
        .iter()
        .map(|e| {
            let x = &e.effect;
            let drives = format!("{} drive{}", x.units, if x.units == 1 { "" } else { "s" });
            ForestRow {
                label: format!("{} · {} → {}", e.test_id, e.a, e.b),
                ratio: x.ratio,
                low: x.low,
                high: x.high,
                verdict: x.verdict,
                note: format!("×{:.2} {} · {drives}", x.ratio, x.verdict.words()),
            }
        })
        .collect();
    Forest { title: format!("{}: effect on each test (ratio, 95 % interval)", f.label), rows }
}

const PAD: i32 = 8;
const TITLE_H: i32 = 22;
const LABEL_H: i32 = 16;
const ROW_H: i32 = LABEL_H + 20;
const AXIS_H: i32 = 30;
const NOTE_W: i32 = 190;
/// Ticks of the ratio axis, kept where they fall inside its range.
const TICKS: [f64; 15] = [0.1, 0.25, 0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 10.0];

pub fn forest_height(chart: &Forest) -> u32 {
    (PAD + TITLE_H + chart.rows.len().max(1) as i32 * ROW_H + AXIS_H) as u32
}

/// Draws `chart` over `area`; one hit box per row.
pub fn draw_forest<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Forest,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let w = area.dim_in_pixel().0 as i32;
    text(area, &chart.title, (PAD, PAD + 8), &theme.foreground, (HPos::Left, VPos::Center))?;
    let top = PAD + TITLE_H;
    if chart.rows.is_empty() {
        text(
            area,
            "No effect measured yet.",
            (PAD, top + ROW_H / 2),
            &theme.muted,
            (HPos::Left, VPos::Center),
        )?;
        return Ok(Vec::new());
    }
    let (x0, x1) = (PAD + 4, (w - NOTE_W).max(PAD + 60));
    let bottom = top + chart.rows.len() as i32 * ROW_H;
    // The range: every ratio and interval end, and 1, with a margin; at least ÷1.25…×1.25.
    let ends = chart.rows.iter().flat_map(|r| [Some(r.ratio), r.low, r.high]).flatten();
    let (lo, hi) =
        ends.filter(|v| v.is_finite() && *v > 0.0).fold((0.8f64, 1.25f64), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = ((lo / 1.1).ln(), (hi * 1.1).ln());
    let scale = |r: f64| x0 + ((x1 - x0) as f64 * ((r.ln() - lo) / (hi - lo)).clamp(0.0, 1.0)).round() as i32;
    for t in TICKS.iter().filter(|t| t.ln() > lo && t.ln() < hi) {
        let x = scale(*t);
        let style = if *t == 1.0 { theme.foreground.stroke_width(1) } else { theme.grid.stroke_width(1) };
        area.draw(&PathElement::new(vec![(x, top - 2), (x, bottom)], style))?;
        text(area, &format!("×{t}"), (x, bottom + 4), &theme.muted, (HPos::Center, VPos::Top))?;
    }
    let mut hits = Vec::new();
    for (i, row) in chart.rows.iter().enumerate() {
        let y = top + i as i32 * ROW_H;
        let c = y + LABEL_H + (ROW_H - LABEL_H) / 2;
        text(area, &row.label, (PAD, y + LABEL_H / 2 + 2), &theme.muted, (HPos::Left, VPos::Center))?;
        let claimed = matches!(row.verdict, Verdict::Clear | Verdict::Likely);
        let color = if claimed { theme.series_color(0) } else { theme.muted };
        if let (Some(l), Some(h)) = (row.low, row.high) {
            let line = color.stroke_width(2);
            area.draw(&PathElement::new(vec![(scale(l), c), (scale(h), c)], line))?;
            for end in [l, h] {
                area.draw(&PathElement::new(vec![(scale(end), c - 4), (scale(end), c + 4)], line))?;
            }
        }
        let dot = if claimed { color.filled() } else { color.stroke_width(2) };
        area.draw(&Circle::new((scale(row.ratio), c), 4, dot))?;
        text(area, &row.note, (x1 + 8, c), &theme.foreground, (HPos::Left, VPos::Center))?;
        hits.push(HitBox { group: i, item: 0, x0: PAD, y0: y, x1: w - PAD, y1: y + ROW_H });
    }
    Ok(hits)
}
