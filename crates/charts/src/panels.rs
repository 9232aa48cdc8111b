//! The compare chart as small multiples: one panel per comparable test; in each panel one
//! row per platform group and data pattern; in each row one bar per compared drive that
//! was measured there. Colour means the drive and nothing else: platform and data pattern
//! are told by position and their row label, so a reader never decodes a repeating
//! colour. Every panel has its own value axis (a 4K test and a sequential test differ
//! tenfold). Tests that only one pool has are not drawn but listed under the chart, and a
//! drive without a test in a row simply has no bar there: no "missing" slots.

use crate::{nice_axis, text, DrawResult, HitBox, Theme};
use bench::difference::{Difference, Verdict};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// One drive's figure for one test in one pool.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelBar {
    /// Index into [`ComparePanels::drives`]: the bar's colour.
    pub drive: usize,
    /// The pool (platform group and data pattern of one drive) it summarises, as an index
    /// into the comparison the chart was built from.
    pub pool: usize,
    pub value: f64,
    /// Median absolute deviation, drawn as a whisker around the bar's end.
    pub spread: f64,
    /// How many results the value summarises.
    pub count: usize,
    /// How it stands against its test's reference pool, drawn as a small interval mark
    /// after its value; `None` when nothing was compared.
    pub vs: Option<BarDifference>,
}

/// A bar against its test's reference pool (`bench::difference`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BarDifference {
    /// It is the reference.
    Reference,
    Against(Difference),
}

/// One platform group and data pattern within a test: the drives measured there.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelRow {
    pub label: String,
    pub bars: Vec<PanelBar>,
}

/// One comparable test.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Index of the test in the comparison the chart was built from.
    pub test: usize,
    pub title: String,
    pub rows: Vec<PanelRow>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ComparePanels {
    /// The unit of every value, e.g. `MB/s`.
    pub unit: String,
    /// The compared drives' names, one colour each.
    pub drives: Vec<String>,
    pub panels: Vec<Panel>,
    /// Label parts every row shares (`sata-6`), removed from the rows and said once.
    pub common: Vec<String>,
    /// Tests only one pool has, one line each (`SEQ 512KiB Q4T1 read: … 1031 MB/s n=1`):
    /// listed under the chart, since a single bar compares with nothing.
    pub also_measured: Vec<String>,
}

impl ComparePanels {
    /// What the chart shows, in words (for screen readers: the canvas' label, the
    /// image's alt text).
    pub fn label(&self) -> String {
        format!(
            "Bar charts of {} per test, one row per platform and data pattern, for {}",
            self.unit,
            self.drives.join(", ")
        )
    }
}

const PAD: i32 = 8;
const LINE: i32 = 16;
const SWATCH: i32 = 11;
const TITLE_H: i32 = 20;
const BAR_H: i32 = 11;
const BAR_GAP: i32 = 2;
const ROW_GAP: i32 = 8;
const AXIS_H: i32 = 18;
const PANEL_GAP: i32 = 16;
/// Room for a value label right of the longest bar (`1234.5 n=12`) and its interval mark.
const VALUE_W: i32 = 76 + MARK_W;
/// The interval mark after a value: a log scale from ÷[`MARK_SPAN`] to ×[`MARK_SPAN`].
const MARK_W: i32 = 30;
const MARK_SPAN: f64 = 1.5;
/// A safe width per character of 12 px DejaVu Sans and the browsers' sans-serif (the
/// widest common glyphs are ~7.5 px; digits and lowercase are ~6.5).
const CHAR_W: i32 = 7;
/// From this width on, panels stand two abreast.
const TWO_COLUMNS: i32 = 720;

fn columns(width: i32) -> usize {
    if width >= TWO_COLUMNS {
        2
    } else {
        1
    }
}

fn panel_width(width: i32) -> i32 {
    let cols = columns(width) as i32;
    (width - PAD * (cols + 1)) / cols
}

fn label_width(panel_w: i32) -> i32 {
    (panel_w * 46 / 100).clamp(84, 250)
}

/// `label` broken at its ` · ` separators into at most three lines of `max` characters.
fn label_lines(label: &str, max: usize) -> Vec<String> {
    let parts: Vec<&str> = label.split(" · ").collect();
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + part.chars().count() <= max => {
                line.push_str(" · ");
                line.push_str(part);
            }
            _ => lines.push(part.to_string()),
        }
    }
    if lines.len() > 3 {
        let rest = lines.split_off(2).join(" · ");
        lines.push(rest);
    }
    lines.into_iter().map(|l| ellipsize(&l, max)).collect()
}

/// The legend's lines: entries side by side, wrapped at the chart's width.
fn legend_lines(chart: &ComparePanels, width: i32) -> Vec<Vec<(usize, String)>> {
    let numbered = numbered(chart);
    let max_chars = ((width - 2 * PAD - SWATCH - 6) / CHAR_W).max(8) as usize;
    let mut lines: Vec<Vec<(usize, String)>> = vec![Vec::new()];
    let mut used = 0;
    for (i, name) in chart.drives.iter().enumerate() {
        let name = if numbered { format!("{}. {name}", i + 1) } else { name.clone() };
        let name = ellipsize(&name, max_chars);
        let w = SWATCH + 6 + name.chars().count() as i32 * CHAR_W + 18;
        if used > 0 && used + w > width - 2 * PAD {
            lines.push(Vec::new());
            used = 0;
        }
        used += w;
        lines.last_mut().expect("one line at least").push((i, name));
    }
    lines
}

/// More drives than colours: legend and value labels carry the drive's number.
fn numbered(chart: &ComparePanels) -> bool {
    chart.drives.len() > Theme::LIGHT.series.len()
}

fn row_height(row: &PanelRow, label_chars: usize) -> i32 {
    let lines = label_lines(&row.label, label_chars).len() as i32;
    let bars = row.bars.len().max(1) as i32 * (BAR_H + BAR_GAP) - BAR_GAP;
    (lines * 14).max(bars) + ROW_GAP
}

fn panel_height(panel: &Panel, panel_w: i32) -> i32 {
    let chars = (label_width(panel_w) / CHAR_W) as usize;
    TITLE_H + panel.rows.iter().map(|r| row_height(r, chars)).sum::<i32>() + AXIS_H
}

fn note_lines(chart: &ComparePanels) -> i32 {
    if chart.also_measured.is_empty() {
        0
    } else {
        1 + chart.also_measured.len() as i32
    }
}

/// The height in pixels the chart needs at `width` pixels wide, so a page can size the
/// canvas before drawing and nothing jumps.
pub fn compare_panels_height(chart: &ComparePanels, width: u32) -> u32 {
    let width = width as i32;
    let pw = panel_width(width);
    let grid: i32 = chart
        .panels
        .chunks(columns(width))
        .map(|row| row.iter().map(|p| panel_height(p, pw)).max().unwrap_or(0) + PANEL_GAP)
        .sum();
    let legend = (legend_lines(chart, width).len() as i32 + i32::from(!chart.common.is_empty())) * LINE;
    (PAD + legend + 6 + grid + note_lines(chart) * LINE + PAD) as u32
}

/// Draws `chart` over the whole of `area` and returns one hit box per bar (`group` =
/// panel index, `item` = the bar's index in its panel, rows in order).
pub fn draw_compare_panels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &ComparePanels,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let w = area.dim_in_pixel().0 as i32;
    let numbered = numbered(chart);

    let mut y = PAD;
    for line in legend_lines(chart, w) {
        let mut x = PAD;
        for (i, name) in line {
            let color = theme.series_color(i);
            area.draw(&Rectangle::new([(x, y + 2), (x + SWATCH, y + 2 + SWATCH)], color.filled()))?;
            text(area, &name, (x + SWATCH + 6, y + 8), &theme.foreground, (HPos::Left, VPos::Center))?;
            x += SWATCH + 6 + name.chars().count() as i32 * CHAR_W + 18;
        }
        y += LINE;
    }
    if !chart.common.is_empty() {
        let line = format!("Every row: {}", chart.common.join(" · "));
        let max_chars = ((w - 2 * PAD) / CHAR_W).max(8) as usize;
        text(area, &ellipsize(&line, max_chars), (PAD, y + 8), &theme.muted, (HPos::Left, VPos::Center))?;
        y += LINE;
    }
    y += 6;

    let cols = columns(w);
    let pw = panel_width(w);
    let lw = label_width(pw);
    let label_chars = (lw / CHAR_W) as usize;
    let mut hits = Vec::new();
    for (r, grid_row) in chart.panels.chunks(cols).enumerate() {
        let row_h = grid_row.iter().map(|p| panel_height(p, pw)).max().unwrap_or(0);
        for (c, panel) in grid_row.iter().enumerate() {
            let px = PAD + c as i32 * (pw + PAD);
            let index = r * cols + c;
            draw_panel(
                area,
                panel,
                index,
                (px, y),
                (pw, lw, label_chars),
                chart,
                numbered,
                theme,
                &mut hits,
            )?;
        }
        y += row_h + PANEL_GAP;
    }

    if !chart.also_measured.is_empty() {
        let max_chars = ((w - 2 * PAD) / CHAR_W).max(8) as usize;
        let head = "Also measured, by one pool only (not drawn, nothing to compare with):";
        text(
            area,
            &ellipsize(head, max_chars),
            (PAD, y + LINE / 2),
            &theme.muted,
            (HPos::Left, VPos::Center),
        )?;
        for line in &chart.also_measured {
            y += LINE;
            let line = ellipsize(&format!("· {line}"), max_chars);
            text(area, &line, (PAD, y + LINE / 2), &theme.muted, (HPos::Left, VPos::Center))?;
        }
    }
    Ok(hits)
}

#[allow(clippy::too_many_arguments)]
fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    panel: &Panel,
    index: usize,
    (px, py): (i32, i32),
    (pw, lw, label_chars): (i32, i32, usize),
    chart: &ComparePanels,
    numbered: bool,
    theme: &Theme,
    hits: &mut Vec<HitBox>,
) -> DrawResult<(), DB> {
    let title = ellipsize(&format!("{} · {}", panel.title, chart.unit), (pw / CHAR_W) as usize);
    text(area, &title, (px, py + TITLE_H / 2 - 1), &theme.foreground, (HPos::Left, VPos::Center))?;
    let x0 = px + lw + 6;
    let x1 = (px + pw - VALUE_W).max(x0 + 20);
    let top = py + TITLE_H;
    let bottom = top + panel.rows.iter().map(|r| row_height(r, label_chars)).sum::<i32>();
    let max = panel.rows.iter().flat_map(|r| &r.bars).map(|b| b.value + b.spread).fold(0.0, f64::max);
    let (step, end) = nice_axis(max);
    let scale = |v: f64| x0 + ((x1 - x0) as f64 * (v / end).clamp(0.0, 1.0)).round() as i32;

    // Grid and ticks first, bars over them.
    let ticks = (end / step).round() as i32;
    for i in 0..=ticks {
        let v = step * f64::from(i);
        let x = scale(v);
        area.draw(&PathElement::new(
            vec![(x, top - 2), (x, bottom - ROW_GAP + 2)],
            theme.grid.stroke_width(1),
        ))?;
        if ticks <= 4 || i % 2 == 0 {
            let label = crate::format_value(v);
            text(area, &label, (x, bottom - ROW_GAP + 4), &theme.muted, (HPos::Center, VPos::Top))?;
        }
    }

    let mut y = top;
    let mut item = 0;
    for row in &panel.rows {
        let h = row_height(row, label_chars);
        let lines = label_lines(&row.label, label_chars);
        let bars_h = row.bars.len() as i32 * (BAR_H + BAR_GAP) - BAR_GAP;
        let label_top = y + ((bars_h - lines.len() as i32 * 14) / 2).max(0);
        for (l, line) in lines.iter().enumerate() {
            let at = (x0 - 6, label_top + 7 + l as i32 * 14);
            text(area, line, at, &theme.foreground, (HPos::Right, VPos::Center))?;
        }
        for (b, bar) in row.bars.iter().enumerate() {
            let by = y + b as i32 * (BAR_H + BAR_GAP);
            let end_x = scale(bar.value).max(x0 + 1);
            area.draw(&Rectangle::new(
                [(x0, by), (end_x, by + BAR_H)],
                theme.series_color(bar.drive).filled(),
            ))?;
            if bar.spread > 0.0 {
                let (a, c) = (scale(bar.value - bar.spread), scale(bar.value + bar.spread));
                let m = by + BAR_H / 2;
                let style = theme.foreground.stroke_width(1);
                area.draw(&PathElement::new(vec![(a, m), (c, m)], style))?;
                area.draw(&PathElement::new(vec![(a, m - 3), (a, m + 3)], style))?;
                area.draw(&PathElement::new(vec![(c, m - 3), (c, m + 3)], style))?;
            }
            let value = crate::format_value(bar.value);
            let label = if numbered {
                format!("{}: {value} n={}", bar.drive + 1, bar.count)
            } else {
                format!("{value} n={}", bar.count)
            };
            let lx = scale(bar.value + bar.spread).max(end_x) + 4;
            text(area, &label, (lx, by + BAR_H / 2), &theme.foreground, (HPos::Left, VPos::Center))?;
            if let Some(vs) = bar.vs {
                let mx = lx + label.chars().count() as i32 * CHAR_W + 2;
                draw_mark(area, vs, (mx, by + BAR_H / 2), theme)?;
            }
            hits.push(HitBox {
                group: index,
                item,
                x0,
                y0: by,
                x1: (lx + VALUE_W - 6).min(px + pw),
                y1: by + BAR_H,
            });
            item += 1;
        }
        y += h;
    }
    Ok(())
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

/// A bar's difference from its reference, [`MARK_W`] wide, centred vertically on `y`: a
/// tick at 1 (no difference), the 95 % interval as a line, the ratio as a dot (filled
/// when the difference is clear or likely); the reference says `ref`.
fn draw_mark<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    vs: BarDifference,
    (x, y): (i32, i32),
    theme: &Theme,
) -> DrawResult<(), DB> {
    let d = match vs {
        BarDifference::Reference => {
            return text(area, "ref", (x, y), &theme.muted, (HPos::Left, VPos::Center));
        }
        BarDifference::Against(d) => d,
    };
    let w = MARK_W - 6;
    let at =
        |r: f64| x + (f64::from(w) / 2.0 * (1.0 + (r.ln() / MARK_SPAN.ln()).clamp(-1.0, 1.0))).round() as i32;
    area.draw(&PathElement::new(vec![(at(1.0), y - 4), (at(1.0), y + 4)], theme.muted.stroke_width(1)))?;
    if let (Some(lo), Some(hi)) = (d.low, d.high) {
        area.draw(&PathElement::new(vec![(at(lo), y), (at(hi), y)], theme.foreground.stroke_width(1)))?;
    }
    let claimed = matches!(d.verdict, Verdict::Clear | Verdict::Likely);
    let dot = Circle::new(
        (at(d.ratio), y),
        2,
        if claimed { theme.foreground.filled() } else { theme.muted.stroke_width(1) },
    );
    area.draw(&dot)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_labels_break_at_separators_into_two_lines() {
        let label =
            "ASUS U3S6 (Marvell 88SE9123) on ICH10R · Marvell · AHCI · sata-6 · pcie-2-x4 host · 0-fill";
        let lines = label_lines(label, 32);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 32), "{lines:?}");
        assert!(lines[0].starts_with("ASUS U3S6"), "{lines:?}");
        assert_eq!(label_lines("AMD SB850 · random", 32), ["AMD SB850 · random"]);
    }
}
