//! Line charts of curves: a write's rate over the GiB it wrote (write saturation, where a
//! cache shows as a step down) and latency against IOPS over a load sweep (the "hockey
//! stick", where the knee is the bend). One line per series (a drive, a run), coloured as
//! every chart colours its series, each point a hit box.

use crate::{format_value, nice_axis, text, DrawResult, HitBox, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// One line.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// The legend's words: a drive, or a run of one.
    pub name: String,
    /// `(x, y)`, drawn in this order.
    pub points: Vec<(f64, f64)>,
    /// A point to ring (a sweep's knee, where a cache ran out).
    pub marked: Option<usize>,
    /// The colour index: the same drive gets the same colour in every chart of a page.
    pub color: usize,
}

/// A chart of lines on linear axes from 0.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// `GiB written`, `IOPS`.
    pub x_unit: String,
    /// `MB/s`, `mean latency (µs)`.
    pub y_unit: String,
    pub series: Vec<LineSeries>,
}

/// The plot with its value labels beneath (the last `BOTTOM` pixels).
const PLOT_HEIGHT: u32 = 260;
const LEGEND_ROW: u32 = 18;
/// Between the legend and the plot: the row of the vertical axis's unit.
const UNIT_ROW: u32 = 30;
const LEFT: i32 = 64;
/// Room for half of the last value label, centred on the plot's right edge.
const RIGHT: i32 = 32;
const BOTTOM: i32 = 40;

/// The chart's height: a legend row per series, the unit's row and the plot.
pub fn line_chart_height(chart: &LineChart) -> u32 {
    LEGEND_ROW * chart.series.len().max(1) as u32 + UNIT_ROW + PLOT_HEIGHT
}

/// Draws `chart` filling `area`; the hit boxes of its points (`group` = series,
/// `item` = point).
pub fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    theme: &Theme,
) -> DrawResult<Vec<HitBox>, DB> {
    area.fill(&theme.background)?;
    let (width, _) = area.dim_in_pixel();
    let legend = (LEGEND_ROW * chart.series.len() as u32) as i32;
    let top = legend + UNIT_ROW as i32;
    let (x0, x1) = (LEFT, width as i32 - RIGHT);
    let (y0, y1) = (top, top + PLOT_HEIGHT as i32 - BOTTOM);
    for (i, s) in chart.series.iter().enumerate() {
        let y = 4 + i as i32 * LEGEND_ROW as i32;
        let color = theme.series_color(s.color);
        area.draw(&Rectangle::new([(x0, y + 3), (x0 + 12, y + 13)], color.filled()))?;
        text(area, &s.name, (x0 + 18, y + 8), &theme.foreground, (HPos::Left, VPos::Center))?;
    }
    let finite = |v: &f64| v.is_finite() && *v >= 0.0;
    let points = || chart.series.iter().flat_map(|s| s.points.iter()).filter(|(x, y)| finite(x) && finite(y));
    let (x_step, x_top) = nice_axis(points().map(|p| p.0).fold(0.0, f64::max));
    let (y_step, y_top) = nice_axis(points().map(|p| p.1).fold(0.0, f64::max));
    let px = |x: f64| x0 + ((x1 - x0) as f64 * x / x_top).round() as i32;
    let py = |y: f64| y1 - ((y1 - y0) as f64 * y / y_top).round() as i32;
    // Horizontal grid and the value labels left of it.
    let y_ticks = (y_top / y_step).round() as i32;
    for i in 0..=y_ticks {
        let v = y_step * f64::from(i);
        area.draw(&PathElement::new(vec![(x0, py(v)), (x1, py(v))], theme.grid.stroke_width(1)))?;
        text(area, &format_value(v), (x0 - 6, py(v)), &theme.muted, (HPos::Right, VPos::Center))?;
    }
    text(area, &chart.y_unit, (x0, y0 - 12), &theme.muted, (HPos::Left, VPos::Center))?;
    crate::value_axis(area, (x0, x1), (y0, y1), (x_step, x_top), &chart.x_unit, theme)?;

    let mut hits = Vec::new();
    for (group, s) in chart.series.iter().enumerate() {
        let color = theme.series_color(s.color);
        let line: Vec<(i32, i32)> =
            s.points.iter().filter(|(x, y)| finite(x) && finite(y)).map(|(x, y)| (px(*x), py(*y))).collect();
        area.draw(&PathElement::new(line, color.stroke_width(2)))?;
        // Points only where they can be told apart (a sweep, not a 3,600-second write).
        let dots = s.points.len() <= 80;
        for (item, (x, y)) in s.points.iter().enumerate() {
            if !(finite(x) && finite(y)) {
                continue;
            }
            let (cx, cy) = (px(*x), py(*y));
            if dots {
                area.draw(&Circle::new((cx, cy), 3, color.filled()))?;
            }
            if s.marked == Some(item) {
                area.draw(&Circle::new((cx, cy), 7, theme.foreground.stroke_width(2)))?;
            }
            hits.push(HitBox { group, item, x0: cx - 5, y0: cy - 5, x1: cx + 5, y1: cy + 5 });
        }
    }
    Ok(hits)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn every_point_is_drawn_where_its_values_say() {
        crate::register_native_fonts();
        let chart = LineChart {
            x_unit: "GiB written".into(),
            y_unit: "MB/s".into(),
            series: vec![
                LineSeries {
                    name: "A".into(),
                    points: vec![(0.5, 150.0), (1.0, 40.0)],
                    marked: Some(1),
                    color: 0,
                },
                LineSeries {
                    name: "B".into(),
                    points: vec![(0.5, 300.0), (2.0, 300.0)],
                    marked: None,
                    color: 1,
                },
            ],
        };
        let height = line_chart_height(&chart);
        let mut svg = String::new();
        let hits = {
            let area = SVGBackend::with_string(&mut svg, (600, height)).into_drawing_area();
            draw_lines(&area, &chart, &Theme::LIGHT).unwrap()
        };
        assert_eq!(hits.len(), 4);
        // 300 MB/s is above 150, 2 GiB right of 0.5: screen y grows downwards.
        let at = |g: usize, i: usize| hits.iter().find(|h| h.group == g && h.item == i).unwrap();
        assert!(at(1, 0).y0 < at(0, 0).y0 && at(1, 1).x0 > at(0, 1).x0);
        assert!(svg.contains("GiB written") && svg.contains("MB/s"));
    }
}
