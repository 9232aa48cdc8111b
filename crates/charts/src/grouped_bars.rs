//! The compare chart: one group of horizontal bars per comparable test, one bar per
//! drive. A drive without the test gets a visible "missing" slot, never a zero bar and
//! never another test's number. Every bar is labelled with its value and sample count.

use crate::{nice_axis, text, value_axis, DrawResult, HitBox, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// One drive's figure for one test.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The median, or `None` when the drive has no result with this test.
    pub value: Option<f64>,
    /// Median absolute deviation, drawn as a whisker around the bar's end.
    pub spread: Option<f64>,
    /// How many results the value summarises.
    pub count: usize,
}

/// One comparable test: one bar per series, in series order.
#[derive(Debug, Clone, PartialEq)]
pub struct BarGroup {
    pub name: String,
    pub bars: Vec<Bar>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GroupedBars {
    /// The unit of every value, e.g. `MB/s`.
    pub unit: String,
    /// Series names (drives), one colour each.
    pub series: Vec<String>,
    pub groups: Vec<BarGroup>,
}

const PAD: i32 = 8;
const LEGEND_ROW: i32 = 18;
const BAR_H: i32 = 14;
const BAR_GAP: i32 = 3;
const GROUP_GAP: i32 = 14;
const AXIS_H: i32 = 36;
const VALUE_W: i32 = 96;

fn legend_height(chart: &GroupedBars) -> i32 {
    chart.series.len() as i32 * LEGEND_ROW + 6
}

/// Below this width test names go on their own line above their bars (phones), instead
/// of a column beside them.
const NARROW: i32 = 560;
const NAME_LINE: i32 = 18;

fn group_height(chart: &GroupedBars, width: i32) -> i32 {
    let n = chart.series.len().max(1) as i32;
    let name = if width < NARROW { NAME_LINE } else { 0 };
    name + n * (BAR_H + BAR_GAP) - BAR_GAP + GROUP_GAP
}

/// The height in pixels the chart needs at `width` pixels wide, so a page can size the
/// canvas before drawing and nothing jumps.
pub fn grouped_bars_height(chart: &GroupedBars, width: u32) -> u32 {
    let width = width as i32;
    (PAD + legend_height(chart) + chart.groups.len() as i32 * group_height(chart, width) + AXIS_H) as u32
}

/// Width of the test-name column for a chart `width` pixels wide (none when narrow).
fn label_width(width: i32) -> i32 {
    if width < NARROW {
        PAD
    } else {
        (width * 30 / 100).clamp(90, 170)
    }
}

/// Draws `chart` over the whole of `area` and returns one hit box per bar
/// (`group` = test index, `item` = series index), missing slots included.
pub fn draw_grouped_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &GroupedBars,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let (w, _) = area.dim_in_pixel();
    let w = w as i32;

    // More series than colours: colours repeat, so legend and bars carry numbers.
    let numbered = chart.series.len() > theme.series.len();
    // Legend: one row per series.
    for (i, name) in chart.series.iter().enumerate() {
        let y = PAD + i as i32 * LEGEND_ROW;
        area.draw(&Rectangle::new([(PAD, y + 3), (PAD + 12, y + 13)], theme.series_color(i).filled()))?;
        let name = if numbered { format!("{}. {name}", i + 1) } else { name.clone() };
        text(area, &name, (PAD + 18, y + 8), &theme.foreground, (HPos::Left, VPos::Center))?;
    }

    let label_w = label_width(w);
    let x0 = label_w;
    let x1 = (w - VALUE_W).max(x0 + 20);
    let top = PAD + legend_height(chart);
    let gh = group_height(chart, w);
    let name_line = if w < NARROW { NAME_LINE } else { 0 };
    let bottom = top + chart.groups.len() as i32 * gh;
    let max = chart
        .groups
        .iter()
        .flat_map(|g| &g.bars)
        .filter_map(|b| Some(b.value? + b.spread.unwrap_or(0.0)))
        .fold(0.0, f64::max);
    let axis = nice_axis(max);
    value_axis(area, (x0, x1), (top - 4, bottom - GROUP_GAP + 4), axis, &chart.unit, theme)?;
    let scale = |v: f64| x0 + ((x1 - x0) as f64 * (v / axis.1).clamp(0.0, 1.0)).round() as i32;

    // Test names are at most ~24 characters; 8 px per character is safe for 12 px fonts.
    let max_chars = (label_w / 8).max(8) as usize;
    let mut hits = Vec::new();
    for (g, group) in chart.groups.iter().enumerate() {
        let gy = top + g as i32 * gh;
        if name_line > 0 {
            let at = (PAD, gy + NAME_LINE / 2 - 2);
            text(area, &group.name, at, &theme.foreground, (HPos::Left, VPos::Center))?;
        } else {
            let mid = gy + (gh - GROUP_GAP) / 2;
            let name = ellipsize(&group.name, max_chars);
            text(area, &name, (x0 - 6, mid), &theme.foreground, (HPos::Right, VPos::Center))?;
        }
        for (i, bar) in group.bars.iter().enumerate() {
            let y = gy + name_line + i as i32 * (BAR_H + BAR_GAP);
            let color = theme.series_color(i);
            match bar.value {
                Some(v) => {
                    let end = scale(v).max(x0 + 1);
                    area.draw(&Rectangle::new([(x0, y), (end, y + BAR_H)], color.filled()))?;
                    if let Some(s) = bar.spread.filter(|s| *s > 0.0) {
                        let (a, b) = (scale(v - s), scale(v + s));
                        let c = y + BAR_H / 2;
                        let style = theme.foreground.stroke_width(1);
                        area.draw(&PathElement::new(vec![(a, c), (b, c)], style))?;
                        area.draw(&PathElement::new(vec![(a, c - 3), (a, c + 3)], style))?;
                        area.draw(&PathElement::new(vec![(b, c - 3), (b, c + 3)], style))?;
                    }
                    let label = if numbered {
                        format!("{}: {} n={}", i + 1, crate::format_value(v), bar.count)
                    } else {
                        format!("{} n={}", crate::format_value(v), bar.count)
                    };
                    let lx = scale(v + bar.spread.unwrap_or(0.0)).max(end) + 4;
                    text(area, &label, (lx, y + BAR_H / 2), &theme.foreground, (HPos::Left, VPos::Center))?;
                    hits.push(HitBox { group: g, item: i, x0, y0: y, x1: lx + 70, y1: y + BAR_H });
                }
                None => {
                    let outline = ShapeStyle { color: color.to_rgba(), filled: false, stroke_width: 1 };
                    area.draw(&Rectangle::new([(x0, y), (x0 + 12, y + BAR_H)], outline))?;
                    text(
                        area,
                        "missing",
                        (x0 + 18, y + BAR_H / 2),
                        &theme.muted,
                        (HPos::Left, VPos::Center),
                    )?;
                    hits.push(HitBox { group: g, item: i, x0, y0: y, x1: x0 + 80, y1: y + BAR_H });
                }
            }
        }
    }
    Ok(hits)
}

/// `s` cut to `max` characters with an ellipsis, on a character boundary.
fn ellipsize(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}
