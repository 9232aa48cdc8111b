//! The degraded screenshot set: the labelled originals put through what sharing does to
//! them (a desktop capture around the window, forum JPEG recompression, rescaling,
//! display scaling, blur, crops). Used by `cargo xtask bench-ocr` (per-kind report) and
//! the `degrade` example, which writes the set to a folder to look at.
//!
//! Everything is deterministic: the variation between images (which quality, which
//! filter, where the window sits) comes from a hash of the file name and the kind, so
//! a figure measured twice is measured on the same pixels. Photos of a monitor are out
//! of scope.

use image::codecs::jpeg::JpegEncoder;
use image::imageops::{self, FilterType};
use image::{ImageFormat, Rgb, RgbImage};
use std::io::Cursor;

/// One way a screenshot is degraded before it reaches us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The file as it is in the corpus (the floor the corpus test keeps).
    Original,
    /// A whole-desktop capture: the window somewhere on a wallpaper-like gradient or a
    /// solid colour, with a taskbar and another (non-benchmark) window beside it.
    Desktop,
    /// Two different benchmark windows side by side on one desktop (before/after posts):
    /// each must become its own reading.
    TwoWindows,
    /// Two different benchmark windows edge to edge with no desktop between them, side
    /// by side (tops up to 20 px apart) or one under the other, on a white page: how
    /// "drive A vs drive B" is posted. Each must become its own reading.
    Touching,
    /// Recompressed once as JPEG, quality 30–95.
    Jpeg,
    /// Chroma subsampled (4:2:0) and JPEG-encoded twice at different qualities, as a
    /// chat app re-encoding a forum's JPEG does.
    JpegTwice,
    /// Downscaled to 50–90 % with one of four filters.
    ScaleDown,
    /// Upscaled to 110–200 % with one of four filters.
    ScaleUp,
    /// Windows display scaling 125 % or 150 % (simulated by a smooth resample: real
    /// scaling redraws the glyphs, which is easier to read than this).
    DisplayScaling,
    /// Gaussian blur, sigma 0.4–1.0 px.
    Blur,
    /// The title bar cut off (top 5–9 % of the window removed).
    CropTitle,
    /// A few pixels cut from every side, into the grid's border and the row buttons.
    CropEdges,
}

pub const ALL_KINDS: [Kind; 12] = [
    Kind::Original,
    Kind::Desktop,
    Kind::TwoWindows,
    Kind::Touching,
    Kind::Jpeg,
    Kind::JpegTwice,
    Kind::ScaleDown,
    Kind::ScaleUp,
    Kind::DisplayScaling,
    Kind::Blur,
    Kind::CropTitle,
    Kind::CropEdges,
];

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Original => "original",
            Kind::Desktop => "desktop",
            Kind::TwoWindows => "two-windows",
            Kind::Touching => "touching-windows",
            Kind::Jpeg => "jpeg",
            Kind::JpegTwice => "jpeg-twice-420",
            Kind::ScaleDown => "scale-down",
            Kind::ScaleUp => "scale-up",
            Kind::DisplayScaling => "display-scaling",
            Kind::Blur => "blur",
            Kind::CropTitle => "crop-title",
            Kind::CropEdges => "crop-edges",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        ALL_KINDS.into_iter().find(|k| k.name() == name)
    }
}

/// A screenshot decoded as the reader decodes it (transparency composited on white).
pub fn decode_screenshot(bytes: &[u8]) -> Result<RgbImage, crate::OcrError> {
    crate::decode::decode(bytes)
}

/// One generated image: its encoded bytes and what was done, for the report.
pub struct Degraded {
    pub bytes: Vec<u8>,
    /// E.g. `jpeg q=45`, `desktop 1920x1080 wallpaper at (310, 122)`.
    pub recipe: String,
    /// File extension of `bytes`.
    pub ext: &'static str,
    /// Where each benchmark window was placed (desktop kinds; empty otherwise), in the
    /// order of the labels: readings are matched to windows by position, not by order.
    pub windows: Vec<crate::Rect>,
}

/// A small deterministic generator (SplitMix64): the variation must be the same on
/// every run, and the standard library has no seeded random numbers.
pub struct Rng(u64);

impl Rng {
    pub fn for_image(file: &str, kind: Kind) -> Rng {
        // FNV-1a over the name and kind: stable across runs and platforms.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in file.bytes().chain(kind.name().bytes()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..hi` (f32).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[(self.next_u64() % options.len() as u64) as usize]
    }
}

const FILTERS: [(FilterType, &str); 4] = [
    (FilterType::Nearest, "nearest"),
    (FilterType::Triangle, "bilinear"),
    (FilterType::CatmullRom, "bicubic"),
    (FilterType::Lanczos3, "lanczos3"),
];

/// Degrades one original (`second` is the other window for `TwoWindows` and `Touching`).
pub fn degrade(original: &RgbImage, second: Option<&RgbImage>, kind: Kind, rng: &mut Rng) -> Degraded {
    let png = |img: &RgbImage, recipe: String| Degraded {
        bytes: encode_png(img),
        recipe,
        ext: "png",
        windows: Vec::new(),
    };
    match kind {
        // The bench reads the corpus file itself; this is the same pixels as PNG.
        Kind::Original => png(original, "original".into()),
        Kind::Desktop | Kind::TwoWindows => {
            let shown: Vec<&RgbImage> =
                std::iter::once(original).chain(second.filter(|_| kind == Kind::TwoWindows)).collect();
            let (desk, recipe, windows) = desktop(&shown, rng);
            Degraded { windows, ..png(&desk, recipe) }
        }
        Kind::Touching => {
            let second = second.expect("touching windows are two");
            let (page, recipe, windows) = touching(original, second, rng);
            Degraded { windows, ..png(&page, recipe) }
        }
        Kind::Jpeg => {
            let q = rng.pick(&[30u8, 40, 50, 60, 75, 85, 95]);
            Degraded {
                bytes: encode_jpeg(original, q),
                recipe: format!("jpeg q={q}"),
                ext: "jpg",
                windows: Vec::new(),
            }
        }
        Kind::JpegTwice => {
            let q1 = rng.pick(&[60u8, 75, 85, 95]);
            let q2 = rng.pick(&[30u8, 45, 60, 75]);
            let once = decode(&encode_jpeg(&subsample_chroma(original), q1));
            let twice = encode_jpeg(&subsample_chroma(&once), q2);
            Degraded {
                bytes: twice,
                recipe: format!("4:2:0 jpeg q={q1} then q={q2}"),
                ext: "jpg",
                windows: Vec::new(),
            }
        }
        Kind::ScaleDown | Kind::ScaleUp | Kind::DisplayScaling => {
            let factor = match kind {
                Kind::ScaleDown => rng.pick(&[0.5f32, 0.6, 0.67, 0.75, 0.8, 0.9]),
                Kind::ScaleUp => rng.pick(&[1.1f32, 1.33, 1.5, 1.75, 2.0]),
                _ => rng.pick(&[1.25f32, 1.5]),
            };
            let (filter, fname) = if kind == Kind::DisplayScaling { FILTERS[2] } else { rng.pick(&FILTERS) };
            let w = ((original.width() as f32 * factor).round() as u32).max(1);
            let h = ((original.height() as f32 * factor).round() as u32).max(1);
            png(&imageops::resize(original, w, h, filter), format!("scale {:.0} % {fname}", factor * 100.0))
        }
        Kind::Blur => {
            let sigma = rng.pick(&[0.4f32, 0.6, 0.8, 1.0]);
            png(&imageops::blur(original, sigma), format!("gaussian blur sigma={sigma}"))
        }
        Kind::CropTitle => {
            let share = rng.range(0.05, 0.09);
            let cut = (original.height() as f32 * share).round() as u32;
            let img =
                imageops::crop_imm(original, 0, cut, original.width(), original.height() - cut).to_image();
            png(&img, format!("top {cut} px cut"))
        }
        Kind::CropEdges => {
            let (w, h) = (original.width(), original.height());
            let left = (w as f32 * rng.range(0.005, 0.02)) as u32;
            let right = (w as f32 * rng.range(0.005, 0.025)) as u32;
            let bottom = (h as f32 * rng.range(0.005, 0.03)) as u32;
            let top = (h as f32 * rng.range(0.0, 0.02)) as u32;
            let img = imageops::crop_imm(original, left, top, w - left - right, h - top - bottom).to_image();
            png(&img, format!("cut left {left} right {right} top {top} bottom {bottom} px"))
        }
    }
}

/// The windows on a desktop of a common screen size that holds them side by side.
fn desktop(windows: &[&RgbImage], rng: &mut Rng) -> (RgbImage, String, Vec<crate::Rect>) {
    let need_w: u32 = windows.iter().map(|w| w.width()).sum::<u32>() + 40 * windows.len() as u32 + 40;
    let need_h: u32 = windows.iter().map(|w| w.height()).max().unwrap_or(0) + 120;
    let sizes = [(1366u32, 768u32), (1920, 1080), (2560, 1440)];
    let fitting: Vec<(u32, u32)> = sizes.into_iter().filter(|&(w, h)| w >= need_w && h >= need_h).collect();
    let (w, h) = if fitting.is_empty() { (need_w.max(1920), need_h.max(1080)) } else { rng.pick(&fitting) };
    let background = rng.pick(&["wallpaper", "solid", "solid-dark"]);
    let mut desk = match background {
        "wallpaper" => wallpaper(w, h, rng),
        "solid" => RgbImage::from_pixel(w, h, Rgb([0, 120, 215])),
        _ => RgbImage::from_pixel(w, h, Rgb([32, 32, 40])),
    };
    // Another application's window (a document: title bar, text lines) to one side.
    let other = (rng.range(0.25, 0.45) * w as f32) as u32;
    draw_other_window(&mut desk, (w - other - 20, 30, other, h - 120), rng);
    // Taskbar.
    fill(&mut desk, (0, h - 40, w, 40), Rgb([28, 28, 30]));
    for i in 0..8 {
        fill(&mut desk, (60 + i * 52, h - 32, 36, 24), Rgb([70 + (i * 20) as u8, 90, 140]));
    }
    // The benchmark windows, left to right with room between, at random heights.
    let free = w - need_w + 40;
    let mut x = 20 + (rng.range(0.0, 0.5) * free as f32) as u32;
    let mut placed = Vec::new();
    let mut rects = Vec::new();
    for win in windows {
        let y_room = h - 60 - win.height();
        let y = 10 + (rng.range(0.0, 1.0) * y_room.saturating_sub(10) as f32) as u32;
        // A soft shadow, as Windows 10/11 and KDE draw.
        for d in (1..6u32).rev() {
            let shade = (12 * d) as u8;
            darken(&mut desk, (x + d, y + d, win.width(), win.height()), 40 - shade.min(39));
        }
        imageops::replace(&mut desk, *win, i64::from(x), i64::from(y));
        placed.push(format!("({x}, {y})"));
        rects.push(crate::Rect {
            x0: x as i32,
            y0: y as i32,
            x1: (x + win.width()) as i32,
            y1: (y + win.height()) as i32,
        });
        x += win.width() + 40;
    }
    (desk, format!("desktop {w}x{h} {background}, window at {}", placed.join(" and ")), rects)
}

/// Two windows edge to edge on a white page (see `Kind::Touching`), and where each is.
fn touching(a: &RgbImage, b: &RgbImage, rng: &mut Rng) -> (RgbImage, String, Vec<crate::Rect>) {
    let stacked = rng.pick(&[false, true]);
    let offset = rng.range(0.0, 20.0) as u32;
    let (bx, by) = if stacked { (0, a.height()) } else { (a.width(), offset) };
    let (w, h) = ((bx + b.width()).max(a.width()), (by + b.height()).max(a.height()));
    let mut page = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
    imageops::replace(&mut page, a, 0, 0);
    imageops::replace(&mut page, b, i64::from(bx), i64::from(by));
    let rect = |x: u32, y: u32, img: &RgbImage| crate::Rect {
        x0: x as i32,
        y0: y as i32,
        x1: (x + img.width()) as i32,
        y1: (y + img.height()) as i32,
    };
    let how = if stacked {
        "one under the other".to_string()
    } else {
        format!("side by side, {offset} px apart in height")
    };
    (page, format!("two windows touching, {how}"), vec![rect(0, 0, a), rect(bx, by, b)])
}

fn wallpaper(w: u32, h: u32, rng: &mut Rng) -> RgbImage {
    let c0 = [rng.range(0.0, 255.0), rng.range(0.0, 255.0), rng.range(0.0, 255.0)];
    let c1 = [rng.range(0.0, 255.0), rng.range(0.0, 255.0), rng.range(0.0, 255.0)];
    let blobs: Vec<(f32, f32, f32, [f32; 3])> = (0..6)
        .map(|_| {
            (
                rng.range(0.0, w as f32),
                rng.range(0.0, h as f32),
                rng.range(80.0, 400.0),
                [rng.range(0.0, 255.0), rng.range(0.0, 255.0), rng.range(0.0, 255.0)],
            )
        })
        .collect();
    RgbImage::from_fn(w, h, |x, y| {
        let t = (x as f32 / w as f32 + y as f32 / h as f32) / 2.0;
        let mut c = [0.0; 3];
        for i in 0..3 {
            c[i] = c0[i] * (1.0 - t) + c1[i] * t;
        }
        for (bx, by, r, bc) in &blobs {
            let d = ((x as f32 - bx).powi(2) + (y as f32 - by).powi(2)).sqrt() / r;
            if d < 1.0 {
                let a = 0.6 * (1.0 - d);
                for i in 0..3 {
                    c[i] = c[i] * (1.0 - a) + bc[i] * a;
                }
            }
        }
        Rgb(c.map(|v| v.clamp(0.0, 255.0) as u8))
    })
}

/// Another program's window (a document: lines of dark word-like dashes) at `(x, y, w, h)`.
pub(crate) fn draw_other_window(img: &mut RgbImage, (x, y, w, h): (u32, u32, u32, u32), rng: &mut Rng) {
    fill(img, (x, y, w, h), Rgb([250, 250, 250]));
    fill(img, (x, y, w, 30), Rgb([230, 230, 235]));
    // Lines of "text": dark dashes of word-like lengths.
    let mut ty = y + 50;
    while ty + 14 < y + h - 10 {
        let mut tx = x + 16;
        while tx + 80 < x + w - 16 {
            let word = rng.range(20.0, 70.0) as u32;
            fill(img, (tx, ty, word, 9), Rgb([60, 60, 60]));
            tx += word + 8;
        }
        ty += 22;
    }
}

fn fill(img: &mut RgbImage, (x, y, w, h): (u32, u32, u32, u32), c: Rgb<u8>) {
    for yy in y..(y + h).min(img.height()) {
        for xx in x..(x + w).min(img.width()) {
            img.put_pixel(xx, yy, c);
        }
    }
}

fn darken(img: &mut RgbImage, (x, y, w, h): (u32, u32, u32, u32), by: u8) {
    for yy in y..(y + h).min(img.height()) {
        for xx in x..(x + w).min(img.width()) {
            let p = img.get_pixel_mut(xx, yy);
            p.0 = p.0.map(|v| v.saturating_sub(by));
        }
    }
}

/// 4:2:0 chroma subsampling as most JPEG writers do it (the `image` crate's encoder
/// keeps full chroma): chroma averaged over 2×2 blocks, luma kept.
fn subsample_chroma(img: &RgbImage) -> RgbImage {
    let (w, h) = img.dimensions();
    let ycc: Vec<[f32; 3]> = img.pixels().map(|p| to_ycc(p.0)).collect();
    let mut out = RgbImage::new(w, h);
    for by in (0..h).step_by(2) {
        for bx in (0..w).step_by(2) {
            let mut sum = [0.0f32; 2];
            let mut n = 0.0;
            for y in by..(by + 2).min(h) {
                for x in bx..(bx + 2).min(w) {
                    let c = ycc[(y * w + x) as usize];
                    sum[0] += c[1];
                    sum[1] += c[2];
                    n += 1.0;
                }
            }
            for y in by..(by + 2).min(h) {
                for x in bx..(bx + 2).min(w) {
                    let luma = ycc[(y * w + x) as usize][0];
                    out.put_pixel(x, y, Rgb(from_ycc([luma, sum[0] / n, sum[1] / n])));
                }
            }
        }
    }
    out
}

fn to_ycc([r, g, b]: [u8; 3]) -> [f32; 3] {
    let (r, g, b) = (f32::from(r), f32::from(g), f32::from(b));
    [
        0.299 * r + 0.587 * g + 0.114 * b,
        128.0 - 0.168_736 * r - 0.331_264 * g + 0.5 * b,
        128.0 + 0.5 * r - 0.418_688 * g - 0.081_312 * b,
    ]
}

fn from_ycc([y, cb, cr]: [f32; 3]) -> [u8; 3] {
    let (cb, cr) = (cb - 128.0, cr - 128.0);
    [y + 1.402 * cr, y - 0.344_136 * cb - 0.714_136 * cr, y + 1.772 * cb].map(|v| v.clamp(0.0, 255.0) as u8)
}

pub fn encode_png(img: &RgbImage) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png).expect("PNG encoding to memory cannot fail");
    out.into_inner()
}

pub fn encode_jpeg(img: &RgbImage, quality: u8) -> Vec<u8> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(img)
        .expect("JPEG encoding to memory cannot fail");
    out
}

fn decode(bytes: &[u8]) -> RgbImage {
    image::load_from_memory(bytes).expect("our own encoding decodes").into_rgb8()
}
