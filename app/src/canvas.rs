//! The canvas backend the charts draw on: plotters-canvas's `CanvasBackend`, except that
//! text is measured with the canvas' own `measureText`. plotters' default measures text
//! by adding a `<span>` with a `style` attribute to the page, which the site's Content
//! Security Policy refuses (no inline styles): the span would be measured unstyled and
//! every label placed by a wrong width. `measureText` also needs no page reflow.

use plotters::prelude::DrawingBackend;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type Result<T> = std::result::Result<T, DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

pub struct MeasuredCanvas {
    inner: CanvasBackend,
    /// The same 2D context the backend draws with (a canvas has one).
    context: CanvasRenderingContext2d,
}

impl MeasuredCanvas {
    pub fn new(canvas: HtmlCanvasElement) -> Option<MeasuredCanvas> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(MeasuredCanvas { inner: CanvasBackend::with_canvas_object(canvas)?, context })
    }
}

impl DrawingBackend for MeasuredCanvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    #[inline(always)]
    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    #[inline(always)]
    fn ensure_prepared(&mut self) -> Result<()> {
        self.inner.ensure_prepared()
    }

    #[inline(always)]
    fn present(&mut self) -> Result<()> {
        self.inner.present()
    }

    #[inline(always)]
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<()> {
        self.inner.draw_pixel(point, color)
    }

    #[inline(always)]
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<()> {
        self.inner.draw_line(from, to, style)
    }

    #[inline(always)]
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    #[inline(always)]
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<()> {
        self.inner.draw_path(path, style)
    }

    #[inline(always)]
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    #[inline(always)]
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<()> {
        self.inner.fill_polygon(vert, style)
    }

    #[inline(always)]
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<()> {
        self.inner.draw_text(text, style, pos)
    }

    /// Width and height of `text` unrotated, as plotters' own estimate gives them: the
    /// advance width, and the font's ascent plus descent (the height of a line of it).
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32)> {
        // The font exactly as `CanvasBackend::draw_text` sets it.
        let font = format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str());
        measure(&self.context, &font, text)
            .ok_or_else(|| DrawingErrorKind::FontError(Box::new(std::fmt::Error)))
    }

    #[inline(always)]
    fn blit_bitmap(&mut self, pos: BackendCoord, (iw, ih): (u32, u32), src: &[u8]) -> Result<()> {
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }
}

/// `text`'s width and line height in `font` on `context`; `None` when the canvas refuses.
/// Not generic, so that one copy serves every text style.
fn measure(context: &CanvasRenderingContext2d, font: &str, text: &str) -> Option<(u32, u32)> {
    context.set_font(font);
    let m = context.measure_text(text).ok()?;
    let height = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
    Some((m.width().ceil() as u32, height.ceil() as u32))
}
