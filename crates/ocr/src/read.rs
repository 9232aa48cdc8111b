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
    let is_ink = ink_test(rgb, polarity)?;
    let mut out = GrayImage::from_pixel(rgb.width() + 2 * PAD, rgb.height() + 2 * PAD, Luma([255]));
    for (x, y, p) in rgb.enumerate_pixels() {
        if is_ink(p.0) {
            out.put_pixel(x + PAD, y + PAD, Luma([0]));
        }
    }
    Some(out)
}

/// The channel `binarize` separates glyphs of `polarity` on (the brightest for dark
/// glyphs, the darkest for light ones), as a grey image in RGB for the page pass.
pub fn glyph_channel(rgb: &RgbImage, polarity: Polarity) -> RgbImage {
    RgbImage::from_fn(rgb.width(), rgb.height(), |x, y| {
        let v = channel(rgb.get_pixel(x, y).0, polarity);
        image::Rgb([v, v, v])
    })
}

fn channel(p: [u8; 3], polarity: Polarity) -> u8 {
    match polarity {
        Polarity::DarkText => p[0].max(p[1]).max(p[2]),
        Polarity::LightText => p[0].min(p[1]).min(p[2]),
    }
}

/// The test `binarize` applies to each pixel of `rgb`: brightness thresholds from its
/// histogram, on the channel that separates achromatic glyphs from coloured bars.
fn ink_test(rgb: &RgbImage, polarity: Polarity) -> Option<impl Fn([u8; 3]) -> bool> {
    let channel = move |p: [u8; 3]| channel(p, polarity);
    let img = GrayImage::from_fn(rgb.width(), rgb.height(), |x, y| Luma([channel(rgb.get_pixel(x, y).0)]));
    let (lo, hi) = range(&img);
    if hi.saturating_sub(lo) < 40 {
        return None;
    }
    let span = f32::from(hi - lo);
    let (dark_below, light_above) = (f32::from(lo) + 0.42 * span, f32::from(hi) - 0.35 * span);
    Some(move |p: [u8; 3]| {
        let v = f32::from(channel(p));
        match polarity {
            Polarity::DarkText => v < dark_below,
            Polarity::LightText => v > light_above,
        }
    })
}

/// One OCR reading of a crop.
#[derive(Debug, Clone)]
pub struct Reading {
    pub text: String,
    /// Tesseract's mean confidence, 0–100.
    pub conf: f32,
    /// The glyphs read: dark on light or light on dark.
    pub polarity: Polarity,
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
        out.push(Reading { text, conf, polarity });
        if ok {
            break;
        }
    }
    Ok(out)
}

/// Which sides of a crop (left, right) cut through a glyph of `polarity`, as `binarize`
/// separates them: ink in the crop's first or last two columns among the glyphs' rows
/// (its middle half: a cell's crop has a margin above and below its digits), in a
/// column that is not a line down the whole crop (the side of a box around the cell).
pub fn cut_glyph_sides(scaled: &RgbImage, polarity: Polarity) -> (bool, bool) {
    let (w, h) = scaled.dimensions();
    if w < 4 || h < 8 {
        return (false, false);
    }
    let Some(bin) = binarize(scaled, polarity) else { return (false, false) };
    let ink = |x: u32, y: u32| bin.get_pixel(x + PAD, y + PAD)[0] == 0;
    let cut = |x: u32| {
        let glyph_rows = (h / 4..h * 3 / 4).filter(|&y| ink(x, y)).count();
        let margin_rows = (0..h / 8).chain(h - h / 8..h).filter(|&y| ink(x, y)).count();
        glyph_rows >= 2 && margin_rows == 0
    };
    (cut(0) || cut(1), cut(w - 1) || cut(w - 2))
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

/// Which columns of `rect` hold glyph ink, as `binarize` would separate the glyphs of
/// `sample` (a crop known to hold text: the strip around it may hold a brighter frame or
/// a darker desktop that would move the threshold): ink in a pixel row that is not a
/// horizontal rule (ink across most of the row), in a column that is not a vertical one
/// (ink down most of the rows). `None` when the sample holds no contrast.
pub fn glyph_columns(img: &RgbImage, rect: Rect, sample: Rect) -> Option<Vec<bool>> {
    let crop = |r: Rect| {
        let r = r.clip(img.width(), img.height());
        (r.width() >= 3 && r.height() >= 3).then(|| {
            imageops::crop_imm(img, r.x0 as u32, r.y0 as u32, r.width() as u32, r.height() as u32).to_image()
        })
    };
    let (sub, sample) = (crop(rect)?, crop(sample)?);
    let polarity = likely_polarity(&sample);
    let is_ink = ink_test(&sample, polarity)?;
    let (w, h) = sub.dimensions();
    let ink = |x: u32, y: u32| is_ink(sub.get_pixel(x, y).0);
    let text_rows: Vec<u32> =
        (0..h).filter(|&y| (0..w).filter(|&x| ink(x, y)).count() * 10 < w as usize * 6).collect();
    Some(
        (0..w)
            .map(|x| {
                let n = text_rows.iter().filter(|&&y| ink(x, y)).count();
                n > 0 && n * 100 < text_rows.len() * 85
            })
            .collect(),
    )
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

/// The texts of a strip's boxes, left to right, and the rows the strip spans.
pub type Boxes = (Vec<String>, Option<(u32, u32)>);

/// Reads a strip of boxed fields (combo boxes) one box at a time: the vertical borders
/// (ink runs taller than any glyph) split it, and each box is read as its own line,
/// cropped to the height of its border, so that text above or below the boxes (a menu
/// line, column headers) never joins a box's reading. Returns the texts left to right
/// and the rows the boxes span (the strip's line, for reading it whole); empty when the
/// strip has no such borders.
pub fn read_boxes(scaled: &RgbImage) -> Result<Boxes, OcrError> {
    let polarity = likely_polarity(scaled);
    let Some(bin) = binarize(scaled, polarity) else { return Ok((Vec::new(), None)) };
    let w = bin.width();
    let tall = (1.25 * TARGET_GLYPH) as u32;
    // Per column, its longest ink run (in the padded image's rows) when that is a border.
    let border: Vec<Option<(u32, u32)>> = (0..w)
        .map(|x| {
            let (start, len) = longest_run(&bin, x);
            (len as u32 > tall).then_some((start, start + len as u32))
        })
        .collect();
    let mut cuts: Vec<(u32, Option<(u32, u32)>)> = Vec::new();
    for x in 1..w {
        if border[x as usize].is_some() && border[x as usize - 1].is_none() {
            cuts.push((x, border[x as usize]));
        }
    }
    if cuts.len() < 2 {
        return read_gapped(scaled, polarity);
    }
    // The strip's rows: the median border run, back in the unpadded crop's rows.
    let unpad = |(a, b): (u32, u32)| (a.saturating_sub(PAD), b.saturating_sub(PAD).min(scaled.height()));
    let mut spans: Vec<(u32, u32)> = cuts.iter().filter_map(|c| c.1).map(unpad).collect();
    spans.sort_by_key(|s| s.1 - s.0);
    let strip = spans.get(spans.len() / 2).copied();
    cuts.push((w, None));
    let mut texts = Vec::new();
    let (mut start, mut left_span) = (0, None);
    for (cut, span) in cuts {
        let cut = cut.saturating_sub(PAD).min(scaled.width());
        if cut > start && cut - start > (0.8 * TARGET_GLYPH) as u32 {
            let (y0, y1) = span.or(left_span).map(unpad).or(strip).unwrap_or((0, scaled.height()));
            if y1 > y0 + 4 {
                let part = imageops::crop_imm(scaled, start, y0, cut - start, y1 - y0).to_image();
                if let Some(mut b) = binarize(&part, polarity) {
                    remove_rules(&mut b);
                    let (text, _) = engine::read_text(&b, false, "")?;
                    if let Ok(dir) = std::env::var("SSDBASE_OCR_DEBUG_DIR") {
                        let _ = b.save(format!("{dir}/box_{start}_{cut}.png"));
                    }
                    if !text.is_empty() {
                        texts.push(text);
                    }
                }
            }
        }
        start = cut;
        left_span = span;
    }
    Ok((texts, strip))
}

/// The longest ink run of column `x` of a binarised crop: (start row, length).
fn longest_run(bin: &GrayImage, x: u32) -> (u32, usize) {
    let (mut start, mut best) = (0, (0, 0));
    for y in 0..=bin.height() {
        if y == bin.height() || bin.get_pixel(x, y)[0] != 0 {
            if (y - start) as usize > best.1 {
                best = (start, (y - start) as usize);
            }
            start = y + 1;
        }
    }
    best
}

/// A strip whose boxes have no borders dark enough to split it (KDiskMark's faint
/// frames, a recompressed image): its line is the lowest line of ink in the crop (a menu
/// line may be above it), and it is split where glyphs are further apart than a glyph is
/// high, which separates the boxes' texts (and their arrows) but not the words in one.
fn read_gapped(scaled: &RgbImage, polarity: Polarity) -> Result<Boxes, OcrError> {
    let Some(mut bin) = binarize(scaled, polarity) else { return Ok((Vec::new(), None)) };
    remove_rules(&mut bin);
    let (w, h) = (scaled.width(), scaled.height());
    let ink = |x: u32, y: u32| bin.get_pixel(x + PAD, y + PAD)[0] == 0;
    let inked: Vec<bool> = (0..h).map(|y| (0..w).filter(|&x| ink(x, y)).count() >= 2).collect();
    let max_gap = (0.15 * TARGET_GLYPH) as u32;
    let mut lines: Vec<(u32, u32)> = Vec::new();
    let mut open: Option<(u32, u32)> = None;
    for y in 0..h {
        if !inked[y as usize] {
            continue;
        }
        open = match open {
            Some((a, b)) if y - b <= max_gap + 1 => Some((a, y + 1)),
            Some(done) => {
                lines.push(done);
                Some((y, y + 1))
            }
            None => Some((y, y + 1)),
        };
    }
    lines.extend(open);
    let tall = |(a, b): &(u32, u32)| {
        let t = (b - a) as f32;
        (0.5 * TARGET_GLYPH..=2.0 * TARGET_GLYPH).contains(&t)
    };
    // The strip spans many glyphs; a button's word beside it ("All", lower down on
    // KDiskMark) does not.
    let inked_cols =
        |y0: u32, y1: u32| -> Vec<bool> { (0..w).map(|x| (y0..y1).any(|y| ink(x, y))).collect() };
    let wide =
        |&(a, b): &(u32, u32)| inked_cols(a, b).iter().filter(|i| **i).count() as f32 > 6.0 * TARGET_GLYPH;
    let Some(&(y0, y1)) = lines.iter().rev().find(|l| tall(l) && wide(l)) else {
        return Ok((Vec::new(), None));
    };
    let inked_col = inked_cols(y0, y1);
    let mut segments: Vec<(u32, u32)> = Vec::new();
    for x in 0..w {
        if !inked_col[x as usize] {
            continue;
        }
        match segments.last_mut() {
            Some(s) if (x - s.1) < TARGET_GLYPH as u32 => s.1 = x + 1,
            _ => segments.push((x, x + 1)),
        }
    }
    let margin = (0.3 * TARGET_GLYPH) as u32;
    let (ly0, ly1) = (y0.saturating_sub(margin), (y1 + margin).min(h));
    let mut texts = Vec::new();
    for (x0, x1) in segments {
        let (x0, x1) = (x0.saturating_sub(margin), (x1 + margin).min(w));
        let part = imageops::crop_imm(scaled, x0, ly0, x1 - x0, ly1 - ly0).to_image();
        if let Some(mut b) = binarize(&part, polarity) {
            remove_rules(&mut b);
            let (text, _) = engine::read_text(&b, false, "")?;
            if !text.is_empty() {
                texts.push(text);
            }
        }
    }
    Ok((texts, Some((ly0, ly1))))
}
