//! Native rendering for embeds: a chart function drawn to an SVG document or to RGB
//! pixels (the server encodes those as PNG), with the bundled DejaVu Sans, under a
//! caption line that says where the numbers come from. The drawing is the same function
//! the site runs on its canvas.

use crate::{register_native_fonts, text, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Height of the caption strip under an embedded chart.
pub const CAPTION_H: u32 = 24;

/// Renders `draw` (a chart `height` pixels tall at `width`) with `caption` beneath, as an
/// SVG document.
pub fn to_svg<F>(width: u32, height: u32, theme: &Theme, caption: &str, draw: F) -> Result<String, String>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
{
    register_native_fonts();
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (width, height + CAPTION_H)).into_drawing_area();
        compose(&area, height, theme, caption, draw)?;
        area.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Renders `draw` like [`to_svg`], as `width × (height + CAPTION_H)` RGB pixels, row by
/// row.
pub fn to_rgb<F>(width: u32, height: u32, theme: &Theme, caption: &str, draw: F) -> Result<Vec<u8>, String>
where
    F: FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
{
    register_native_fonts();
    let total = height + CAPTION_H;
    let mut pixels = vec![0u8; width as usize * total as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut pixels, (width, total)).into_drawing_area();
        compose(&area, height, theme, caption, draw)?;
        area.present().map_err(|e| e.to_string())?;
    }
    Ok(pixels)
}

fn compose<DB: DrawingBackend, F>(
    area: &DrawingArea<DB, Shift>,
    height: u32,
    theme: &Theme,
    caption: &str,
    draw: F,
) -> Result<(), String>
where
    F: FnOnce(&DrawingArea<DB, Shift>) -> Result<(), String>,
{
    let (chart, foot) = area.split_vertically(height);
    draw(&chart)?;
    foot.fill(&theme.background).map_err(|e| e.to_string())?;
    let y = (CAPTION_H / 2) as i32;
    text(&foot, caption, (8, y), &theme.muted, (HPos::Left, VPos::Center)).map_err(|e| e.to_string())?;
    Ok(())
}
