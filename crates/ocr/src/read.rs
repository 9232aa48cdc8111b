//! Reading one crop: scale it to the glyph size Tesseract reads best, separate the
//! glyphs from bars and gradients by brightness (dark text on CrystalDiskMark's light
//! cells, light text on KDiskMark's dark ones), and recognise it as one line or block.

use crate::engine;
use crate::grid::Rect;
use crate::OcrError;
use image::imageops::{self, FilterType};
use image::{GrayImage, Luma, RgbImage};

/// Glyph height (pixels) the crops are scaled to: Tesseract's LSTM reads 30–50 px best.
const TARGET_GLYPH: f32 = 40.0;
/// White border around a crop: Tesseract needs some background around the text.
const PAD: u32 = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    DarkText,
    LightText,
}

/// Which polarity is more likely: the glyphs are the extreme that covers fewer pixels
/// (black digits on a white or green cell, white digits on a dark cell with a blue bar).
pub fn likely_polarity(rgb: &RgbImage) -> Polarity {
    let img = &image::DynamicImage::ImageRgb8(rgb.clone()).into_luma8();
    let (lo, hi) = range(img);
    let span = f32::from(hi.saturating_sub(lo)).max(1.0);
    let (mut dark, mut light) = (0u32, 0u32);
    for p in img.pixels() {
        let v = f32::from(p[0]);
        if v < f32::from(lo) + 0.25 * span {
            dark += 1;
        } else if v > f32::from(hi) - 0.25 * span {
            light += 1;
        }
    }
    if dark <= light {
        Polarity::DarkText
    } else {
        Polarity::LightText
    }
}

/// 2nd and 98th percentile brightness: robust to a few stray pixels.
fn range(img: &GrayImage) -> (u8, u8) {
    let mut hist = [0u32; 256];
    for p in img.pixels() {
        hist[p[0] as usize] += 1;
    }
    let n: u32 = hist.iter().sum();
    let (mut acc, mut lo, mut hi) = (0u32, 0u8, 255u8);
    let (qlo, qhi) = (n / 50, n - n / 50);
    let mut found_lo = false;
    for (v, c) in hist.iter().enumerate() {
        acc += c;
        if !found_lo && acc > qlo {
            lo = v as u8;
            found_lo = true;
        }
        if acc >= qhi {
            hi = v as u8;
            break;
        }
    }
    (lo, hi)
}

/// Largest crop handed to Tesseract, in pixels after scaling.
const MAX_CROP_PIXELS: f32 = 1.0e6;

/// Crops `rect` from `gray`, scaled so glyphs of height `glyph` become `TARGET_GLYPH` high.
pub fn crop_scaled(gray: &RgbImage, rect: Rect, glyph: f32) -> Option<RgbImage> {
    let r = rect.clip(gray.width(), gray.height());
    if r.width() < 4 || r.height() < 4 {
        return None;
    }
    let sub =
        imageops::crop_imm(gray, r.x0 as u32, r.y0 as u32, r.width() as u32, r.height() as u32).to_image();
    let mut scale = (TARGET_GLYPH / glyph.max(4.0)).clamp(0.5, 6.0);
    // A crop that would grow past MAX_CROP_PIXELS is no cell, button or settings strip
    // (those stay under ~0.2 Mpx scaled): shrink it, so that a window misread from a
    // hostile image cannot make Tesseract read a huge bitmap (fuzzing found one
    // 1002×547 JPEG that took 24 GB that way).
    let area = r.width() as f32 * r.height() as f32 * scale * scale;
    if area > MAX_CROP_PIXELS {
        scale *= (MAX_CROP_PIXELS / area).sqrt();
    }
    let (w, h) = ((r.width() as f32 * scale).round() as u32, (r.height() as f32 * scale).round() as u32);
    Some(imageops::resize(&sub, w.max(1), h.max(1), FilterType::CatmullRom))
}

/// Black glyphs on white, padded; `None` when the crop holds no contrast at all.
///
/// The digits and labels of every supported theme are achromatic (black, grey, white)
/// while bars and buttons are coloured, so dark glyphs are separated on the brightest
/// channel (a green or blue bar is bright in it) and light glyphs on the darkest channel
/// (a blue bar is dark in red, a green one in blue).
pub fn binarize(rgb: &RgbImage, polarity: Polarity) -> Option<GrayImage> {
    let img = &GrayImage::from_fn(rgb.width(), rgb.height(), |x, y| {
        let p = rgb.get_pixel(x, y).0;
        Luma([match polarity {
            Polarity::DarkText => p[0].max(p[1]).max(p[2]),
            Polarity::LightText => p[0].min(p[1]).min(p[2]),
        }])
    });
    let (lo, hi) = range(img);
    if hi.saturating_sub(lo) < 40 {
        return None;
    }
    let span = f32::from(hi - lo);
    let mut out = GrayImage::from_pixel(img.width() + 2 * PAD, img.height() + 2 * PAD, Luma([255]));
    for (x, y, p) in img.enumerate_pixels() {
        let v = f32::from(p[0]);
        let ink = match polarity {
            Polarity::DarkText => v < f32::from(lo) + 0.42 * span,
            Polarity::LightText => v > f32::from(hi) - 0.35 * span,
        };
        if ink {
            out.put_pixel(x + PAD, y + PAD, Luma([0]));
        }
    }
    Some(out)
}

/// One OCR reading of a crop.
#[derive(Debug, Clone)]
pub struct Reading {
    pub text: String,
    /// Tesseract's mean confidence, 0–100.
    pub conf: f32,
}

/// Reads a crop in the likely polarity first, then (when the reading is not
/// `acceptable`) without the whitelist, which sometimes splits glyphs better, then in the
/// other polarity. All readings are returned, the acceptable one last.
pub fn read(
    scaled: &RgbImage,
    block: bool,
    whitelist: &str,
    acceptable: impl Fn(&str) -> bool,
) -> Result<Vec<Reading>, OcrError> {
    read_with(scaled, block, whitelist, false, acceptable)
}

/// [`read`], optionally erasing ruled lines first (the borders of combo boxes).
pub fn read_with(
    scaled: &RgbImage,
    block: bool,
    whitelist: &str,
    erase_rules: bool,
    acceptable: impl Fn(&str) -> bool,
) -> Result<Vec<Reading>, OcrError> {
    let first = likely_polarity(scaled);
    let other = if first == Polarity::DarkText { Polarity::LightText } else { Polarity::DarkText };
    let mut out = Vec::new();
    let mut attempts = vec![(first, whitelist)];
    if !whitelist.is_empty() {
        attempts.push((first, ""));
    }
    attempts.push((other, whitelist));
    for (polarity, wl) in attempts {
        let Some(mut bin) = binarize(scaled, polarity) else { break };
        if erase_rules {
            remove_rules(&mut bin);
        }
        let (text, conf) = engine::read_text(&bin, block, wl)?;
        if let Ok(dir) = std::env::var("SSDBASE_OCR_DEBUG_DIR") {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static N: AtomicUsize = AtomicUsize::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let safe: String =
                text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect();
            let _ = bin.save(format!("{dir}/{n:04}_{safe}_{conf:.0}.png"));
        }
        let ok = acceptable(&text) && conf >= 70.0;
        out.push(Reading { text, conf });
        if ok {
            break;
        }
    }
    Ok(out)
}

/// A value as drawn: digits, optional thousands separators, optional decimals.
pub fn valid_number(text: &str) -> bool {
    let t = text.trim();
    let (int, frac) = match t.rsplit_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (t, None),
    };
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 3 || !f.chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    if int.is_empty() || int.starts_with(',') || int.ends_with(',') {
        return false;
    }
    let groups: Vec<&str> = int.split(',').collect();
    let plain = groups.iter().all(|g| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit()));
    let grouped = groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    // A leading zero only in `0.xx`.
    plain && grouped && !(int.len() > 1 && int.starts_with('0'))
}

pub fn decimals(text: &str) -> Option<usize> {
    text.rsplit_once('.').map(|(_, f)| f.len())
}

/// The vertical extent of the glyphs inside `rect` (unscaled): the longest run of pixel
/// rows holding ink, allowing one-pixel gaps.
pub fn ink_extent(img: &RgbImage, rect: Rect) -> Option<(i32, i32)> {
    let r = rect.clip(img.width(), img.height());
    if r.width() < 3 || r.height() < 3 {
        return None;
    }
    let sub =
        imageops::crop_imm(img, r.x0 as u32, r.y0 as u32, r.width() as u32, r.height() as u32).to_image();
    let bin = binarize(&sub, likely_polarity(&sub))?;
    let rows: Vec<bool> = (PAD..bin.height() - PAD)
        .map(|y| (PAD..bin.width() - PAD).filter(|&x| bin.get_pixel(x, y)[0] == 0).count() >= 2)
        .collect();
    let (mut best, mut start, mut gap) = ((0usize, 0usize), None::<usize>, 0usize);
    for (y, ink) in rows.iter().enumerate() {
        match (ink, start) {
            (true, None) => {
                start = Some(y);
                gap = 0;
            }
            (true, Some(s)) => {
                gap = 0;
                if y + 1 - s > best.1 - best.0 {
                    best = (s, y + 1);
                }
            }
            (false, Some(_)) => {
                gap += 1;
                if gap > 1 {
                    start = None;
                }
            }
            (false, None) => {}
        }
        if let (true, Some(s)) = (ink, start) {
            if y + 1 - s > best.1 - best.0 {
                best = (s, y + 1);
            }
        }
    }
    (best.1 > best.0).then(|| (r.y0 + best.0 as i32, r.y0 + best.1 as i32))
}

/// Erases ink runs longer than any glyph stroke: box borders and separators, which make
/// Tesseract read a whole strip as noise. Glyphs are `TARGET_GLYPH` high after scaling.
pub fn remove_rules(bin: &mut GrayImage) {
    let (w, h) = bin.dimensions();
    let max_h = (2.0 * TARGET_GLYPH) as u32;
    let max_v = (1.25 * TARGET_GLYPH) as u32;
    let mut erase = Vec::new();
    for y in 0..h {
        let mut start = None;
        for x in 0..=w {
            let ink = x < w && bin.get_pixel(x, y)[0] == 0;
            match (ink, start) {
                (true, None) => start = Some(x),
                (false, Some(s)) => {
                    if x - s > max_h {
                        erase.extend((s..x).map(|xx| (xx, y)));
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    for x in 0..w {
        let mut start = None;
        for y in 0..=h {
            let ink = y < h && bin.get_pixel(x, y)[0] == 0;
            match (ink, start) {
                (true, None) => start = Some(y),
                (false, Some(s)) => {
                    if y - s > max_v {
                        erase.extend((s..y).map(|yy| (x, yy)));
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    for (x, y) in erase {
        bin.put_pixel(x, y, Luma([255]));
    }
}

/// Reads a strip of boxed fields (combo boxes) one box at a time: the vertical borders
/// (ink runs taller than any glyph) split it, and each box is read as its own line.
/// Returns the texts left to right; empty when the strip has no such borders.
pub fn read_boxes(scaled: &RgbImage) -> Result<Vec<String>, OcrError> {
    let polarity = likely_polarity(scaled);
    let Some(bin) = binarize(scaled, polarity) else { return Ok(Vec::new()) };
    let (w, h) = bin.dimensions();
    let tall = (1.25 * TARGET_GLYPH) as u32;
    let border: Vec<bool> = (0..w)
        .map(|x| {
            let (mut run, mut best) = (0, 0);
            for y in 0..h {
                if bin.get_pixel(x, y)[0] == 0 {
                    run += 1;
                    best = best.max(run);
                } else {
                    run = 0;
                }
            }
            best > tall
        })
        .collect();
    let mut cuts: Vec<u32> = Vec::new();
    for x in 1..w {
        if border[x as usize] && !border[x as usize - 1] {
            cuts.push(x);
        }
    }
    if cuts.len() < 2 {
        return Ok(Vec::new());
    }
    cuts.push(w);
    let mut texts = Vec::new();
    let mut start = 0;
    for cut in cuts {
        if cut - start > (0.8 * TARGET_GLYPH) as u32 {
            let part = imageops::crop_imm(scaled, start, 0, cut - start, scaled.height()).to_image();
            if let Some(mut b) = binarize(&part, polarity) {
                remove_rules(&mut b);
                let (text, _) = engine::read_text(&b, false, "")?;
                if !text.is_empty() {
                    texts.push(text);
                }
            }
        }
        start = cut;
    }
    Ok(texts)
}
