//! SSDBase's charts. Each chart kind is one function generic over plotters'
//! [`DrawingBackend`]: the site draws it on a `<canvas>` (plotters-canvas), the server and
//! the tests render the very same function to SVG or PNG.
//!
//! Inputs are plain data ([`ComparePanels`], [`Distribution`], [`RatedBars`]) that callers
//! build from the API or from `bench` results; nothing here knows about HTTP or the DOM.
//! Layout is done in pixels with explicit label columns, because text metrics differ
//! between a browser canvas and a native font rasteriser: nothing may depend on them.
//!
//! Every chart returns its [`HitBox`]es, so a caller can map a pointer position back to
//! the datum under it (the site's hover and tap details).

pub mod compare;
mod distribution;
mod lines;
mod panels;
mod rated;
#[cfg(not(target_arch = "wasm32"))]
pub mod render;
mod theme;

pub mod effects;
pub use distribution::{
    distribution_height, draw_distribution, drive_distributions, DistGroup, Distribution,
};
pub use effects::{draw_forest, forest_height, forest_of, Forest, ForestRow};
pub use lines::{draw_lines, line_chart_height, LineChart, LineSeries};
pub use panels::{
    compare_panels_height, draw_compare_panels, BarDifference, ComparePanels, Panel, PanelBar, PanelRow,
};
pub use plotters::style::RGBColor;
pub use rated::{
    draw_rated_bars, family_charts, rated_bars_height, rated_cells, rated_charts, rated_rows, RatedBars,
    RatedCells, RatedDrive, RatedRow, RatedSample, RATED_FIGURES, RATED_RULE,
};
pub use theme::Theme;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What a rectangle of a drawn chart shows: `group` and `item` index into the chart's
/// input (a panel and a bar for [`ComparePanels`], a group and a sample for
/// [`Distribution`], a row for [`RatedBars`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitBox {
    pub group: usize,
    pub item: usize,
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl HitBox {
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }
}

/// The hit box under a point, if any (the smallest when several overlap).
pub fn hit(boxes: &[HitBox], x: i32, y: i32) -> Option<HitBox> {
    boxes
        .iter()
        .filter(|b| b.contains(x, y))
        .min_by_key(|b| i64::from(b.x1 - b.x0) * i64::from(b.y1 - b.y0))
        .copied()
}

/// The error of drawing on backend `DB`.
pub type DrawResult<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Registers the bundled DejaVu Sans as plotters' `sans-serif` for native rendering
/// (SVG/PNG on the server, tests). Browsers use their own fonts, so this does not exist
/// on wasm32. Safe to call more than once.
#[cfg(not(target_arch = "wasm32"))]
pub fn register_native_fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            if plotters::style::register_font(FONT_FAMILY, style, FONT).is_err() {
                unreachable!("the bundled DejaVu Sans is a valid font");
            }
        }
    });
}

#[cfg(not(target_arch = "wasm32"))]
const FONT_FAMILY: &str = "sans-serif";
/// The font of native rendering (DejaVu Sans, free to bundle).
#[cfg(not(target_arch = "wasm32"))]
static FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
const FONT_SIZE: f64 = 12.0;

fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::SansSerif, size, FontStyle::Normal)
}

/// Text at `(x, y)`, anchored as `h`/`v`.
fn text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    (x, y): (i32, i32),
    color: &RGBColor,
    (h, v): (HPos, VPos),
) -> DrawResult<(), DB> {
    let style = font(FONT_SIZE).color(color).pos(Pos::new(h, v));
    area.draw(&Text::new(s.to_string(), (x, y), style))
}

/// Round tick step and upper bound for an axis from 0 to `max`.
fn nice_axis(max: f64) -> (f64, f64) {
    if !(max.is_finite() && max > 0.0) {
        return (1.0, 1.0);
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step =
        [1.0, 2.0, 2.5, 5.0, 10.0].into_iter().map(|f| f * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    (step, (max / step).ceil() * step)
}

/// A value as a label: three significant figures at most, no float noise.
pub fn format_value(v: f64) -> String {
    if v.abs() >= 1000.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// Draws a value axis (vertical grid lines and tick labels underneath) from `x0` (value 0)
/// to `x1` (value `top`) between `y0` and `y1`.
fn value_axis<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x0, x1): (i32, i32),
    (y0, y1): (i32, i32),
    (step, top): (f64, f64),
    unit: &str,
    theme: &Theme,
) -> DrawResult<(), DB> {
    let ticks = (top / step).round() as i32;
    for i in 0..=ticks {
        let v = step * f64::from(i);
        let x = x0 + ((x1 - x0) as f64 * v / top).round() as i32;
        area.draw(&PathElement::new(vec![(x, y0), (x, y1)], theme.grid.stroke_width(1)))?;
        // Every other label when they would crowd a narrow chart.
        if ticks <= 5 || i % 2 == 0 {
            text(area, &format_value(v), (x, y1 + 4), &theme.muted, (HPos::Center, VPos::Top))?;
        }
    }
    text(area, unit, (x1, y1 + 18), &theme.muted, (HPos::Right, VPos::Top))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_end_on_round_numbers() {
        assert_eq!(nice_axis(277.2), (100.0, 300.0));
        assert_eq!(nice_axis(40.0), (10.0, 40.0));
        assert_eq!(nice_axis(0.0), (1.0, 1.0));
        assert_eq!(nice_axis(12_000.0), (2500.0, 12_500.0));
    }

    #[test]
    fn values_print_without_float_noise() {
        assert_eq!(format_value(277.2), "277.2");
        assert_eq!(format_value(78.93), "78.93");
        assert_eq!(format_value(35000.0), "35000");
        assert_eq!(format_value(0.1234), "0.123");
    }

    #[test]
    fn hits_prefer_the_smallest_box() {
        let outer = HitBox { group: 0, item: 0, x0: 0, y0: 0, x1: 100, y1: 100 };
        let inner = HitBox { group: 1, item: 2, x0: 10, y0: 10, x1: 20, y1: 20 };
        assert_eq!(hit(&[outer, inner], 15, 15), Some(inner));
        assert_eq!(hit(&[outer, inner], 50, 50), Some(outer));
        assert_eq!(hit(&[outer, inner], 150, 50), None);
    }
}
