//! Native rendering for embeds: a chart function drawn to an SVG document or to RGB
//! pixels (the server encodes those as PNG), with the bundled DejaVu Sans, under a
//! caption line that says where the numbers come from. The drawing is the same function
//! the site runs on its canvas.

use crate::{register_native_fonts, text, Theme, FONT};
use ab_glyph::{point, Font, FontRef, ScaleFont};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};

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
    F: FnOnce(&DrawingArea<PixelBackend<'_>, Shift>) -> Result<(), String>,
{
    register_native_fonts();
    let total = height + CAPTION_H;
    let mut pixels = vec![0u8; width as usize * total as usize * 3];
    {
        let area = PixelBackend::new(&mut pixels, (width, total)).into_drawing_area();
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

/// plotters' `BitMapBackend`, except for text: plotters 0.3.7 puts every ab_glyph glyph at
/// the pen position, ignoring the glyph's left side bearing, so a narrow glyph such as
/// `1` sits at the left of its advance and leaves a gap after it ("1 28 GB", "ICH1 0R").
/// Here each glyph is placed by its own pixel bounds; layout (advances, kerning, anchors,
/// the vertical placement) is plotters' own.
pub struct PixelBackend<'a> {
    pixels: BitMapBackend<'a>,
    font: FontRef<'static>,
}

impl<'a> PixelBackend<'a> {
    /// Draws into `buf`, RGB pixels row by row, `size` = (width, height).
    pub fn new(buf: &'a mut [u8], size: (u32, u32)) -> Self {
        let Ok(font) = FontRef::try_from_slice(FONT) else {
            unreachable!("the bundled DejaVu Sans is a valid font")
        };
        PixelBackend { pixels: BitMapBackend::with_buffer(buf, size), font }
    }
}

impl<'a> DrawingBackend for PixelBackend<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.pixels.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.pixels.blit_bitmap(pos, size, src)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        // Where plotters' own draw_text puts the text's box for this anchor.
        let ((min_x, min_y), (max_x, max_y)) =
            style.layout_box(text).map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -(max_x - min_x),
            HPos::Center => -(max_x - min_x) / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -(max_y - min_y) / 2,
            VPos::Bottom => -(max_y - min_y),
        };
        let transform = style.transform();
        let (w, h) = self.get_size();
        let size = style.size() as f32;
        let font = self.font.as_scaled(size);
        let mut pen = 0f32;
        let mut prev = None;
        let mut result = Ok(());
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(prev) = prev {
                pen += font.kern(prev, id);
            }
            prev = Some(id);
            if let Some(glyph) = font.outline_glyph(id.with_scale_and_position(font.scale(), point(pen, 0.0)))
            {
                let bounds = glyph.px_bounds();
                // The glyph's own left edge, where plotters used the pen position.
                let left = bounds.min.x as i32;
                // plotters' vertical placement: the baseline half the font size down.
                let top = (size / 2.0 + bounds.min.y) as i32;
                glyph.draw(|x, y, coverage| {
                    let (x, y) =
                        transform.transform(left + x as i32 + dx - min_x, top + y as i32 + dy - min_y);
                    let (x, y) = (pos.0 + x, pos.1 + y);
                    if result.is_ok() && x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                        result = self.pixels.draw_pixel((x, y), color.mix(f64::from(coverage)));
                    }
                });
            }
            pen += font.h_advance(id);
        }
        result
    }
}
