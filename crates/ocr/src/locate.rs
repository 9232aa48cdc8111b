//! Where the windows are in a larger image (a desktop capture, a browser screenshot),
//! from pixels alone, before any OCR: Tesseract over a whole 1440p desktop takes
//! seconds, and one global threshold for a dark desktop blanks the window's text.
//!
//! A window is a dense patch of detail (text, borders, bars) on a background that is
//! smooth (a solid colour, a wallpaper gradient) at the scale of a few pixels. The image
//! is cut into 8 × 8 blocks; a block is busy when its luminance spans more than a JPEG's
//! noise; busy blocks are joined across small gaps (the flat inside of a cell) and each
//! connected patch is a candidate. Every supported window is landscape (wider than tall,
//! 1.1–1.9 in the corpus; two side by side up to about 4), so portrait patches (a
//! document window, a taskbar, icons) are not read unless nothing else is.

use crate::grid::Rect;
use image::RgbImage;

const BLOCK: u32 = 8;
/// Luminance span of a block with detail: above what JPEG at quality 30 leaves on a flat
/// area, below any text's contrast.
const BUSY_SPAN: u8 = 40;
/// Busy blocks this many blocks apart are one patch (a window's flat areas are narrower
/// than 2 × 2 blocks of 8 px... after joining from both sides, 32 px).
const JOIN: usize = 2;
/// Smaller than any readable benchmark window.
const MIN_WIDTH: i32 = 200;
const MIN_HEIGHT: i32 = 120;
const MIN_ASPECT: f32 = 1.0;
const MAX_ASPECT: f32 = 4.5;

/// Candidate window rectangles, left to right. Empty when the image is (nearly) one
/// patch already (a screenshot of the window alone) or no landscape patch was found: the caller reads the whole image.
pub fn candidates(rgb: &RgbImage) -> Vec<Rect> {
    let (w, h) = rgb.dimensions();
    let (bw, bh) = (w.div_ceil(BLOCK) as usize, h.div_ceil(BLOCK) as usize);
    let mut busy = vec![false; bw * bh];
    for by in 0..bh {
        for bx in 0..bw {
            let (mut lo, mut hi) = (255u8, 0u8);
            for y in (by as u32 * BLOCK)..((by as u32 + 1) * BLOCK).min(h) {
                for x in (bx as u32 * BLOCK)..((bx as u32 + 1) * BLOCK).min(w) {
                    let p = rgb.get_pixel(x, y).0;
                    let l =
                        ((u32::from(p[0]) * 77 + u32::from(p[1]) * 150 + u32::from(p[2]) * 29) >> 8) as u8;
                    lo = lo.min(l);
                    hi = hi.max(l);
                }
            }
            busy[by * bw + bx] = hi.saturating_sub(lo) > BUSY_SPAN;
        }
    }
    // Join across small gaps: dilate by JOIN blocks (separably, rows then columns).
    let mut wide = vec![false; bw * bh];
    for by in 0..bh {
        for bx in 0..bw {
            let (a, b) = (bx.saturating_sub(JOIN), (bx + JOIN).min(bw - 1));
            wide[by * bw + bx] = (a..=b).any(|x| busy[by * bw + x]);
        }
    }
    let mut joined = vec![false; bw * bh];
    for by in 0..bh {
        for bx in 0..bw {
            let (a, b) = (by.saturating_sub(JOIN), (by + JOIN).min(bh - 1));
            joined[by * bw + bx] = (a..=b).any(|y| wide[y * bw + bx]);
        }
    }
    // Connected patches (4-neighbours), as block bounding boxes.
    let mut seen = vec![false; bw * bh];
    let mut patches: Vec<Rect> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..bw * bh {
        if !joined[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % bw, i / bw);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
            let mut visit = |j: usize| {
                if joined[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < bw {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - bw);
            }
            if y + 1 < bh {
                visit(i + bw);
            }
        }
        // The dilation grew the patch by JOIN blocks on every side; take that back.
        let grow = JOIN as i32 * BLOCK as i32;
        patches.push(
            Rect {
                x0: x0 as i32 * BLOCK as i32 + grow,
                y0: y0 as i32 * BLOCK as i32 + grow,
                x1: (x1 as i32 + 1) * BLOCK as i32 - grow,
                y1: (y1 as i32 + 1) * BLOCK as i32 - grow,
            }
            // A few pixels of margin: the window's edge is inside its outermost block.
            .grow(BLOCK as i32)
            .clip(w, h),
        );
    }
    let image_area = (w as f32) * (h as f32);
    if patches.iter().any(|p| (p.width() * p.height()) as f32 >= 0.9 * image_area) {
        return Vec::new();
    }
    let mut out: Vec<Rect> = patches
        .into_iter()
        .filter(|p| p.width() >= MIN_WIDTH && p.height() >= MIN_HEIGHT)
        .filter(|p| {
            let aspect = p.width() as f32 / p.height() as f32;
            (MIN_ASPECT..=MAX_ASPECT).contains(&aspect)
        })
        .collect();
    // A window whose outline did not join its inside: the inside patch is not another one.
    let all = out.clone();
    out.retain(|p| !all.iter().any(|o| o != p && o.contains(p)));
    out.sort_by_key(|p| (p.x0, p.y0));
    out
}
