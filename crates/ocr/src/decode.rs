//! Bytes → one still RGB image, in bounded memory: the format is sniffed from the bytes,
//! dimensions and allocations are capped before any pixel is decoded, animations are
//! refused, and transparency is composited on white (KDiskMark shadows are often alpha 0).

use crate::OcrError;
use image::codecs::{gif::GifDecoder, png::PngDecoder, webp::WebPDecoder};
use image::{AnimationDecoder, DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};
use std::io::Cursor;

/// Larger than any real screenshot file (a lossless 4K desktop PNG is about 25 MB).
pub const MAX_INPUT_BYTES: usize = 64 * 1024 * 1024;
/// Larger than any real screenshot (an 8K desktop is 7680×4320).
pub const MAX_SIDE: u32 = 10_000;
/// Total decoder allocations; a 10 000 × 10 000 RGBA image needs 400 MB, so the pixel
/// cap below is what really bounds memory.
const MAX_ALLOC: u64 = 256 * 1024 * 1024;
/// 40 megapixels: a 4-byte-per-pixel decode stays under 160 MB.
pub const MAX_PIXELS: u64 = 40_000_000;
/// Below this nothing like a benchmark window fits.
const MIN_WIDTH: u32 = 160;
const MIN_HEIGHT: u32 = 100;

fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(MAX_SIDE);
    l.max_image_height = Some(MAX_SIDE);
    l.max_alloc = Some(MAX_ALLOC);
    l
}

pub fn decode(bytes: &[u8]) -> Result<RgbImage, OcrError> {
    if bytes.is_empty() {
        return Err(OcrError::NotAnImage { detail: "the input is empty".into() });
    }
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(OcrError::TooLarge {
            detail: format!(
                "{} bytes is more than the {MAX_INPUT_BYTES} bytes a screenshot may have",
                bytes.len()
            ),
        });
    }
    let format = image::guess_format(bytes).map_err(|_| OcrError::NotAnImage {
        detail: format!("no PNG, JPEG, GIF, BMP or WebP signature in the first bytes ({})", hex_head(bytes)),
    })?;
    if !matches!(
        format,
        ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::Bmp | ImageFormat::WebP
    ) {
        return Err(OcrError::UnsupportedFormat { format: format!("{format:?}") });
    }
    let name = format!("{format:?}").to_uppercase();
    let corrupt = |e: image::ImageError| match e {
        image::ImageError::Limits(l) => OcrError::TooLarge { detail: l.to_string() },
        other => OcrError::Corrupt { format: name.clone(), detail: other.to_string() },
    };

    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let (w, h) = reader.into_dimensions().map_err(corrupt)?;
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(OcrError::TooLarge {
            detail: format!("{w}×{h} pixels is more than the {MAX_PIXELS} pixels a screenshot may have"),
        });
    }
    if w < MIN_WIDTH || h < MIN_HEIGHT {
        return Err(OcrError::NoBenchmarkWindow {
            detail: format!("{w}×{h} pixels is too small to show a benchmark window"),
        });
    }
    // The JPEG decoder fills a cut-off image with grey instead of failing: check that
    // the end-of-image marker is there (some writers append a few bytes after it).
    if format == ImageFormat::Jpeg && !bytes.windows(2).rev().take(4096).any(|w| w == [0xFF, 0xD9]) {
        return Err(OcrError::Corrupt { format: name, detail: "truncated: no end-of-image marker".into() });
    }
    let frames = frame_count(format, bytes).map_err(corrupt)?;
    if frames > 1 {
        return Err(OcrError::Animated { format: name });
    }

    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits());
    let img = reader.decode().map_err(corrupt)?;
    Ok(flatten_on_white(img))
}

/// 1 for a still image, 2 for "more than one" (we never need the exact count).
fn frame_count(format: ImageFormat, bytes: &[u8]) -> image::ImageResult<usize> {
    Ok(match format {
        ImageFormat::Png => {
            let mut d = PngDecoder::new(Cursor::new(bytes))?;
            d.set_limits(limits())?;
            1 + usize::from(d.is_apng()?)
        }
        ImageFormat::WebP => 1 + usize::from(WebPDecoder::new(Cursor::new(bytes))?.has_animation()),
        ImageFormat::Gif => {
            let mut d = GifDecoder::new(Cursor::new(bytes))?;
            d.set_limits(limits())?;
            // Each frame is at most the (already checked) screen size; two are enough.
            d.into_frames().take(2).try_fold(0, |n, f| f.map(|_| n + 1))?
        }
        _ => 1,
    })
}

fn flatten_on_white(img: DynamicImage) -> RgbImage {
    if !img.color().has_alpha() {
        return img.into_rgb8();
    }
    let rgba = img.into_rgba8();
    let mut out = RgbImage::new(rgba.width(), rgba.height());
    for (o, p) in out.pixels_mut().zip(rgba.pixels()) {
        let a = u32::from(p[3]);
        for c in 0..3 {
            o[c] = ((u32::from(p[c]) * a + 255 * (255 - a)) / 255) as u8;
        }
    }
    out
}

fn hex_head(bytes: &[u8]) -> String {
    bytes.iter().take(8).map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}
