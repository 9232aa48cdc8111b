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
//!
//! A patch that is several windows touching is cut by their frames first: a window's
//! side border runs down the whole patch where windows stand edge to edge, its title
//! bar's top edge across it where they are stacked. Where no frame separates them (a
//! window in front of a document, which goes on past the window's border), it is cut
//! where the busy extent of its columns jumps.

use crate::grid::{self, Rect};
use image::RgbImage;

const BLOCK: u32 = 8;
/// Luminance span of a block with detail: above what JPEG at quality 30 leaves on a flat
/// area, below any text's contrast.
const BUSY_SPAN: u8 = 40;
/// A luminance step between neighbouring pixels that makes an edge (a border, a rule):
/// half a busy block's span, above what JPEG leaves on a flat area.
pub(crate) const STEP: u8 = BUSY_SPAN / 2;
/// Busy blocks this many blocks apart are one patch (a window's flat areas are narrower
/// than 2 × 2 blocks of 8 px... after joining from both sides, 32 px).
const JOIN: usize = 2;
/// Smaller than any readable benchmark window.
const MIN_WIDTH: i32 = 200;
const MIN_HEIGHT: i32 = 120;
const MIN_ASPECT: f32 = 1.0;
const MAX_ASPECT: f32 = 4.5;

/// How many times a patch may be cut in two (windows touching windows).
const SPLIT_DEPTH: u8 = 3;
/// Lines of blocks whose busy extents differ from the first line of their run by at most
/// this many blocks belong to one window (inside one, a flat stretch of title bar moves
/// the first busy block down by 3–4 blocks; the edge of another window is a jump of many).
const SAME_EXTENT: usize = 8;
/// A run of lines narrower than this (in blocks) is no window of its own: the seam
/// between two, a shadow, the corner of the neighbour; it joins the run before it.
const MIN_RUN: usize = 15;
/// A side cut between two windows keeps this many blocks of the neighbour: the window's
/// own edge may lie under the seam.
const SEAM: usize = 3;

/// A rectangle of blocks, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Blocks {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Blocks {
    /// Shaped like a benchmark window (see `candidates`).
    fn window_like(&self) -> bool {
        let (w, h) = (
            ((self.x1 - self.x0 + 1) * BLOCK as usize) as f32,
            ((self.y1 - self.y0 + 1) * BLOCK as usize) as f32,
        );
        w >= MIN_WIDTH as f32 && h >= MIN_HEIGHT as f32 && (MIN_ASPECT..=MAX_ASPECT).contains(&(w / h))
    }
}

/// Whether a line of blocks busy over `e` continues a run busy over `run`.
fn same_window(run: (usize, usize), e: (usize, usize)) -> bool {
    e.0.abs_diff(run.0) <= SAME_EXTENT && e.1.abs_diff(run.1) <= SAME_EXTENT
}

/// Cuts a patch that is several windows touching (a benchmark window against a document
/// window, two windows stacked) where the busy extent of its block columns, or rows,
/// jumps: every column of one window is busy from its title bar to its bottom edge,
/// while the window beside it spans other heights.
///
/// `busy` is the mask before joining: a line with no busy block in it is desktop between
/// two windows (the joining bridges gaps of up to 4 blocks), and ends a run.
fn split(rgb: &RgbImage, mask: &[bool], busy: &[bool], bw: usize, b: Blocks, depth: u8) -> Vec<Blocks> {
    if depth == 0 {
        return vec![b];
    }
    // Windows edge to edge: cut first at the side borders between them, which say where
    // each window ends; the busy extents below would also cut a window whose columns
    // are busy over different rows (a comment under some of them) in pieces.
    let beside = windows_side_by_side(rgb, busy, bw, b);
    if beside.len() >= 2 {
        return beside.into_iter().flat_map(|p| split(rgb, mask, busy, bw, p, depth - 1)).collect();
    }
    // Only side by side: a document's ragged lines would cut it into strips by rows.
    for columns in [true] {
        let (lines, across) = if columns { (b.x0..=b.x1, b.y0..=b.y1) } else { (b.y0..=b.y1, b.x0..=b.x1) };
        let index = |line: usize, i: usize| if columns { i * bw + line } else { line * bw + i };
        let at = |line: usize, i: usize| mask[index(line, i)];
        let gap = |line: usize| !across.clone().any(|i| busy[index(line, i)]);
        // Each line's first and last busy block across the patch.
        let extents: Vec<Option<(usize, usize)>> = lines
            .clone()
            .map(|l| {
                let first = across.clone().find(|&i| at(l, i))?;
                let last = across.clone().rev().find(|&i| at(l, i))?;
                Some((first, last))
            })
            .collect();
        // Runs of lines with the same extent, as (first line, last line, extent).
        let mut runs: Vec<(usize, usize, (usize, usize))> = Vec::new();
        // A gap line ends a run that has busy lines of its own; the joining's margin around
        // a window (gap lines too) stays with the run it borders.
        let (mut after_gap, mut run_busy) = (false, false);
        for (k, e) in extents.iter().enumerate() {
            let l = lines.start() + k;
            let Some(e) = *e else { continue };
            let is_gap = gap(l);
            match runs.last_mut() {
                Some(r) if !(after_gap && run_busy && !is_gap) && same_window(r.2, e) => r.1 = l,
                _ => {
                    runs.push((l, l, e));
                    run_busy = false;
                }
            }
            run_busy |= !is_gap;
            after_gap = is_gap;
        }
        let mut merged: Vec<(usize, usize, (usize, usize))> = Vec::new();
        for r in runs {
            match merged.last_mut() {
                Some(m) if r.1 - r.0 + 1 < MIN_RUN => m.1 = r.1,
                Some(m) if m.1 - m.0 + 1 < MIN_RUN => *m = (m.0, r.1, r.2),
                _ => merged.push(r),
            }
        }
        if std::env::var_os("SSDBASE_OCR_DEBUG_SPLIT").is_some() {
            eprintln!("split {b:?} columns={columns} extents={extents:?} runs={merged:?}");
        }
        if merged.len() < 2 {
            continue;
        }
        // A window in front of a larger one (a document behind it) shares its columns'
        // extent where they overlap: it goes on over the larger run to its own border, a
        // line the whole height of the window; without one found, by half of its visible
        // width (more would give the page pass a stretch of document to read, slowly).
        // Larger by its visible area: a document behind a window may show fewer columns
        // than the window does, over many more rows.
        let area = |r: &(usize, usize, (usize, usize))| (r.1 - r.0 + 1) * (r.2 .1 - r.2 .0 + 1);
        let covers = |o: &(usize, usize, (usize, usize)), r: &(usize, usize, (usize, usize))| {
            o.2 .0 <= r.2 .0 && o.2 .1 >= r.2 .1 && area(o) > area(r)
        };
        let mut parts = Vec::new();
        for (i, r) in merged.iter().enumerate() {
            let reach = (r.1 - r.0) / 2;
            // The window's own height in pixels, without the joining's margin; its border is
            // looked for up to twice its height from its other side (every window is
            // landscape, 1.1-1.9 times as wide as tall).
            let band = ((r.2 .0 + JOIN) as u32 * BLOCK, (r.2 .1 + 1).saturating_sub(JOIN) as u32 * BLOCK);
            let height = r.2 .1 - r.2 .0;
            // Only behind a window standing out of it above and below (a document window),
            // or on one side by more than half the window's height: a window's own columns
            // beside a strip of itself share its top or its bottom, or differ by its title
            // bar, and a cell's edge in it would be taken for a border.
            let border_behind = |o: &(usize, usize, (usize, usize)), from: usize, to: usize| {
                let (above, below) = (r.2 .0.saturating_sub(o.2 .0), o.2 .1.saturating_sub(r.2 .1));
                let behind = (above > JOIN && below > JOIN) || above.max(below) > height / 2;
                let found = behind.then(|| border(rgb, band, from, to)).flatten();
                if std::env::var_os("SSDBASE_OCR_DEBUG_SPLIT").is_some() {
                    eprintln!("border of {r:?} over {o:?} from {from} to {to} in rows {band:?}: {found:?}");
                }
                found
            };
            // Two runs whose seam is a window's side border down the whole height of
            // both are windows side by side (one shorter than the other), not a window
            // in front of a larger one: a document behind a window goes on past the
            // window's border above or below it.
            let side_by_side = |a: &(usize, usize, (usize, usize)), b: &(usize, usize, (usize, usize))| {
                frame_at(rgb, b.0, (a.2 .0.min(b.2 .0), a.2 .1.max(b.2 .1)))
            };
            let l0 = if i > 0 && covers(&merged[i - 1], r) && !side_by_side(&merged[i - 1], r) {
                let limit = r.1.saturating_sub(2 * height).max(merged[i - 1].0);
                border_behind(&merged[i - 1], r.0, limit)
                    .map(|b| b + BORDER_KEEP)
                    .unwrap_or(r.0.saturating_sub(reach))
                    .max(*lines.start())
            } else {
                r.0
            };
            let l1 = if i + 1 < merged.len() && covers(&merged[i + 1], r) && !side_by_side(r, &merged[i + 1])
            {
                let limit = (r.0 + 2 * height).min(merged[i + 1].1);
                border_behind(&merged[i + 1], r.1, limit)
                    .map(|b| b.saturating_sub(BORDER_KEEP))
                    .unwrap_or(r.1 + reach)
                    .min(*lines.end())
            } else {
                r.1
            };
            let (a0, a1) = r.2;
            let part = if columns {
                Blocks { x0: l0, x1: l1, y0: a0, y1: a1 }
            } else {
                Blocks { y0: l0, y1: l1, x0: a0, x1: a1 }
            };
            parts.push(part);
        }
        // A cut is kept only when it frees windows: two or more, or one beside taller
        // patches (a document window behind it). A window cut into pieces that look like
        // none, or into a window and a strip of itself (a rescaled window whose title bar
        // is flat over many blocks), is not cut.
        let windows: Vec<&Blocks> = parts.iter().filter(|p| p.window_like()).collect();
        let beside_taller = windows.len() == 1
            && parts
                .iter()
                .filter(|p| !p.window_like())
                .all(|p| p.y0 <= windows[0].y0 && p.y1 >= windows[0].y1);
        if !(windows.len() >= 2 || beside_taller) {
            continue;
        }
        return parts.into_iter().flat_map(|p| split(rgb, mask, busy, bw, p, depth - 1)).collect();
    }
    // Windows stacked one under the other (a column of results posted as one image):
    // cut at their frames, unbroken edges across most of the patch.
    let stacked = stacked_windows(rgb, b);
    if stacked.len() >= 2 {
        return stacked.into_iter().flat_map(|p| split(rgb, mask, busy, bw, p, depth - 1)).collect();
    }
    vec![b]
}

/// Share of a patch's width that one unbroken horizontal edge must cross to be the top of
/// a window's frame. A title bar's top runs the window's whole width without a break;
/// inside a window, the edges of cells break at the gaps between the row button and the
/// cells, none longer than half the window.
const FRAME_SPAN: f32 = 0.75;

/// A patch cut where windows are stacked: at pixel rows where the luminance steps along
/// one unbroken run of `FRAME_SPAN` of its width, each part at least a window's height
/// (a window's title bar goes with the window below its top edge; the edges of its menu
/// and its comment box, within a window's height of that, cut nothing). Empty unless two
/// or more parts are shaped like windows.
fn stacked_windows(rgb: &RgbImage, b: Blocks) -> Vec<Blocks> {
    let (w, h) = rgb.dimensions();
    let block = BLOCK as usize;
    let (x0, x1) = ((b.x0 * block) as u32, (((b.x1 + 1) * block) as u32).min(w));
    let (y0, y1) = ((b.y0 * block) as u32, (((b.y1 + 1) * block) as u32).min(h));
    // Only a patch too tall for one window: every window is landscape.
    if x1 <= x0 + MIN_WIDTH as u32 || (x1 - x0) as f32 >= MIN_ASPECT * (y1 - y0) as f32 {
        return Vec::new();
    }
    let span = (FRAME_SPAN * (x1 - x0) as f32).max(MIN_WIDTH as f32) as usize;
    // The longest run of steps along row `y`, bridging one-pixel breaks (antialiasing).
    let frame = |y: u32| {
        let (mut run, mut best, mut miss) = (0usize, 0usize, 0u32);
        for x in x0..x1 {
            if luma(rgb, x, y).abs_diff(luma(rgb, x, y + 1)) > STEP {
                run += 1 + miss as usize;
                miss = 0;
                best = best.max(run);
            } else if miss == 0 && run > 0 {
                miss = 1;
            } else {
                (run, miss) = (0, 0);
            }
        }
        best >= span
    };
    let min_rows = (MIN_HEIGHT as usize).div_ceil(block);
    let mut cuts: Vec<usize> = Vec::new();
    let mut from = b.y0;
    for y in y0..y1.saturating_sub(1) {
        let row = (y + 1) as usize / block;
        if row >= from + min_rows && row + min_rows <= b.y1 + 1 && frame(y) {
            cuts.push(row);
            from = row;
        }
    }
    let parts = cut_at(b, &cuts, false);
    if std::env::var_os("SSDBASE_OCR_DEBUG_SPLIT").is_some() {
        eprintln!("stacked {b:?}: cut at block rows {cuts:?}");
    }
    freed_windows(parts)
}

/// `b` cut before each block column (`columns`) or row in `cuts`, in order.
fn cut_at(b: Blocks, cuts: &[usize], columns: bool) -> Vec<Blocks> {
    let mut parts: Vec<Blocks> = Vec::new();
    let mut start = if columns { b.x0 } else { b.y0 };
    for &c in cuts.iter().chain([&(if columns { b.x1 } else { b.y1 } + 1)]) {
        parts.push(if columns {
            Blocks { x0: start, x1: c - 1, ..b }
        } else {
            Blocks { y0: start, y1: c - 1, ..b }
        });
        start = c;
    }
    parts
}

/// The parts of a cut, when two or more of them are shaped like windows; else none (the
/// cut freed no window).
fn freed_windows(parts: Vec<Blocks>) -> Vec<Blocks> {
    if parts.iter().filter(|p| p.window_like()).count() >= 2 {
        parts
    } else {
        Vec::new()
    }
}

/// A patch cut where windows stand edge to edge: at pixel columns that are a window's
/// side border down nearly the whole patch (`side_line`: the border of the taller window
/// beside the shorter one and the page around it), each part at least a window's width.
/// Each part keeps the rows of blocks where it is busy (`busy`): the shorter window's
/// part is not the page above it. Empty unless two or more parts are shaped like
/// windows. Inside one window no line runs from its title bar through its grid to its
/// comment; beside a document a window's border spans only the window's rows.
fn windows_side_by_side(rgb: &RgbImage, busy: &[bool], bw: usize, b: Blocks) -> Vec<Blocks> {
    let (w, h) = rgb.dimensions();
    let block = BLOCK as usize;
    let (x0, x1) = ((b.x0 * block) as u32, (((b.x1 + 1) * block) as u32).min(w));
    // The patch's rows without the joining's margin.
    let rows = ((b.y0 + JOIN) as u32 * BLOCK, (((b.y1 + 1).saturating_sub(JOIN)) as u32 * BLOCK).min(h));
    let min = MIN_WIDTH as u32;
    if x1 < x0 + 2 * min || rows.1 <= rows.0 + BLOCK {
        return Vec::new();
    }
    let mut cuts: Vec<usize> = Vec::new();
    let mut from = x0 + min;
    while from + min < x1 {
        let Some(x) = edge_column_within(rgb, rows, from, x1 - min, FRAME_LINE) else { break };
        cuts.push((x + 1) as usize / block);
        from = x + min;
    }
    let mut parts = cut_at(b, &cuts, true);
    // A part's busy rows, without the seam's blocks (the neighbour's border), grown
    // by the joining's margin as every patch is.
    for p in &mut parts {
        let (x0, x1) = (p.x0 + SEAM, p.x1.saturating_sub(SEAM));
        let busy_row = |y: usize| (x0..=x1).any(|x| busy[y * bw + x]);
        if let (Some(y0), Some(y1)) =
            ((p.y0..=p.y1).find(|&y| busy_row(y)), (p.y0..=p.y1).rfind(|&y| busy_row(y)))
        {
            (p.y0, p.y1) = (y0.saturating_sub(JOIN).max(b.y0), (y1 + JOIN).min(b.y1));
        }
    }
    if std::env::var_os("SSDBASE_OCR_DEBUG_SPLIT").is_some() {
        eprintln!("side by side {b:?}: cut at block columns {cuts:?}: {parts:?}");
    }
    freed_windows(parts)
}

/// A side cut at a window's border found in pixels is exact: of the margin every cut side
/// keeps (`SEAM` + `JOIN` blocks), it keeps only the border's own block, not the
/// document beyond it (whose text the page pass would join to the window's last values).
const BORDER_KEEP: usize = SEAM + JOIN - 1;

/// A pixel's luminance (BT.601 weights in fixed point).
pub(crate) fn luma(rgb: &RgbImage, x: u32, y: u32) -> u8 {
    let p = rgb.get_pixel(x, y).0;
    ((u32::from(p[0]) * 77 + u32::from(p[1]) * 150 + u32::from(p[2]) * 29) >> 8) as u8
}

/// How many of a band's rows a window's border crosses: nearly all (a document's lines,
/// a cell's edge, stop short of the title bar or leave blank rows between them).
const BORDER_ROWS: f32 = 0.85;

/// The block column, from `from` towards `to`, of the first pixel column that is a
/// window's side border over the rows `band`: its luminance differs from the column
/// beyond it by more than JPEG noise on nearly every row.
fn border(rgb: &RgbImage, band: (u32, u32), from: usize, to: usize) -> Option<usize> {
    side_line(rgb, band, from, to, 1)
}

/// As `border`, where the step may lie in any of `width` pixel columns from the one
/// found on each row: two windows edge to edge meet at their own borders, a line of a
/// third colour, and each window's border starts a pixel apart where its title bar
/// meets the other's frame.
fn side_line(rgb: &RgbImage, band: (u32, u32), from: usize, to: usize, width: u32) -> Option<usize> {
    let h = rgb.height();
    let (y0, y1) = (band.0.min(h), band.1.min(h));
    if y1 <= y0 + BLOCK {
        return None;
    }
    edge_column_within(rgb, (y0, y1), from as u32 * BLOCK, to as u32 * BLOCK, width)
        .map(|x| (x / BLOCK) as usize)
}

/// The first pixel column from `from` towards `to` (either way) whose luminance differs
/// from the column beyond it by more than JPEG noise on nearly every row of `rows`: a
/// window's side border, a cell's edge.
pub(crate) fn edge_column(rgb: &RgbImage, rows: (u32, u32), from: u32, to: u32) -> Option<u32> {
    edge_column_within(rgb, rows, from, to, 1)
}

/// As `edge_column`, counting a row's step at any of the `width` columns from `x` on
/// (towards `to`).
fn edge_column_within(rgb: &RgbImage, rows: (u32, u32), from: u32, to: u32, width: u32) -> Option<u32> {
    let (w, h) = rgb.dimensions();
    let (y0, y1) = (rows.0.min(h), rows.1.min(h));
    if y1 <= y0 || w < 2 {
        return None;
    }
    let (a, b) = (from.min(w - 1), to.min(w - 1));
    let forward = b > a;
    let step = |x: u32, y: u32| {
        let beyond = if forward { x + 1 } else { x - 1 };
        luma(rgb, x, y).abs_diff(luma(rgb, beyond, y)) > STEP
    };
    let edge = |x: u32| {
        let (c0, c1) =
            if forward { (x, (x + width - 1).min(w - 2)) } else { (x.saturating_sub(width - 1).max(1), x) };
        let steps = (y0..y1).filter(|&y| (c0..=c1).any(|c| step(c, y))).count();
        steps as f32 >= BORDER_ROWS * (y1 - y0) as f32
    };
    if forward {
        (a..b).find(|&x| edge(x))
    } else {
        (b.max(1)..=a).rev().find(|&x| edge(x))
    }
}

/// Whether two of `pieces` are windows placed apart: their bottom edges differ by more
/// than a seam, or one stands beside the other with a window's side border between them
/// down the whole height of both (`frame_at`; two windows placed edge to edge and
/// aligned at their bottom, one taller). A lone window cut where its flat title bar
/// (scaled up, many blocks tall) moves its columns' top down gives two window-like
/// pieces with one bottom edge and no border between them; two windows side by side may
/// share their top (both placed at one height) and still stand apart.
fn apart(rgb: &RgbImage, pieces: &[Blocks]) -> bool {
    let windows: Vec<&Blocks> = pieces.iter().filter(|p| p.window_like()).collect();
    windows.iter().enumerate().any(|(i, a)| {
        windows[i + 1..].iter().any(|b| {
            let (l, r) = if a.x0 <= b.x0 { (a, b) } else { (b, a) };
            a.y1.abs_diff(b.y1) > SEAM + JOIN
                || (r.x0 == l.x1 + 1 && frame_at(rgb, r.x0, (l.y0.min(r.y0), l.y1.max(r.y1))))
        })
    })
}

/// Pixel columns a side border between two windows may take (`side_line`).
const FRAME_LINE: u32 = 3;

/// Whether a window's side border runs down the rows of blocks `rows` within a seam of
/// block column `seam`: a pixel column whose luminance steps on nearly every pixel row
/// (`edge_column`). Inside one window no such column spans the title bar, the grid and
/// the comment together; a document behind a window shows none past the window.
fn frame_at(rgb: &RgbImage, seam: usize, rows: (usize, usize)) -> bool {
    let band = ((rows.0 + JOIN) as u32 * BLOCK, (rows.1 + 1).saturating_sub(JOIN) as u32 * BLOCK);
    let (from, to) = (seam.saturating_sub(SEAM + JOIN), seam + SEAM + JOIN);
    band.1 > band.0 + BLOCK && side_line(rgb, band, from, to, FRAME_LINE).is_some()
}

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
                    let l = luma(rgb, x, y);
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
        let whole = Blocks { x0, y0, x1, y1 };
        let pieces = split(rgb, &joined, &busy, bw, whole, SPLIT_DEPTH);
        // One patch (nearly) the whole image: a screenshot of the window alone, read whole,
        // unless it was cut into windows that stand apart: windows touching each other
        // across a desktop (two benchmark windows, a document window) span it too.
        let whole_area = ((x1 - x0 + 1) * (y1 - y0 + 1) * (BLOCK * BLOCK) as usize) as f32;
        if whole_area >= 0.9 * (w as f32) * (h as f32) && !apart(rgb, &pieces) {
            return Vec::new();
        }
        for mut b in pieces {
            // A cut side was not grown by the dilation: it keeps SEAM blocks and JOIN more.
            let keep = SEAM + JOIN;
            if b.x0 > whole.x0 {
                b.x0 -= keep.min(b.x0 - whole.x0);
            }
            if b.y0 > whole.y0 {
                b.y0 -= keep.min(b.y0 - whole.y0);
            }
            if b.x1 < whole.x1 {
                b.x1 = (b.x1 + keep).min(whole.x1);
            }
            if b.y1 < whole.y1 {
                b.y1 = (b.y1 + keep).min(whole.y1);
            }
            // The dilation grew the patch by JOIN blocks on every side; take that back.
            let grow = JOIN as i32 * BLOCK as i32;
            patches.push(
                Rect {
                    x0: b.x0 as i32 * BLOCK as i32 + grow,
                    y0: b.y0 as i32 * BLOCK as i32 + grow,
                    x1: (b.x1 as i32 + 1) * BLOCK as i32 - grow,
                    y1: (b.y1 as i32 + 1) * BLOCK as i32 - grow,
                }
                // A few pixels of margin: the window's edge is inside its outermost block.
                .grow(BLOCK as i32)
                .clip(w, h),
            );
        }
    }
    if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
        eprintln!("patches: {patches:?}");
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
    for p in &mut out {
        *p = trim_background(rgb, *p);
    }
    // A window whose outline did not join its inside: the inside patch is not another one
    // (nearly all inside: the outline's patch may end at a border found in pixels).
    let all = out.clone();
    out.retain(|p| !all.iter().any(|o| o != p && 10 * grid::overlap(o, p) >= 9 * grid::area(p)));
    out.sort_by_key(|p| (p.x0, p.y0));
    out
}

/// A patch without the desktop around the window: lines at its edges that are (nearly)
/// all the colour of the patch's corner. A margin of blue desktop shifts the page pass's
/// one threshold enough to merge a CrystalDiskMark window's bars with its digits.
fn trim_background(rgb: &RgbImage, r: Rect) -> Rect {
    let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 24);
    let plain_row = |y: i32, x0: i32, x1: i32, bg: [u8; 3]| {
        let n = (x0..x1).filter(|&x| near(rgb.get_pixel(x as u32, y as u32).0, bg)).count();
        n * 10 >= 9 * (x1 - x0).max(1) as usize
    };
    let plain_col = |x: i32, y0: i32, y1: i32, bg: [u8; 3]| {
        let n = (y0..y1).filter(|&y| near(rgb.get_pixel(x as u32, y as u32).0, bg)).count();
        n * 10 >= 9 * (y1 - y0).max(1) as usize
    };
    if r.width() < 2 || r.height() < 2 {
        return r;
    }
    let mut t = r;
    let bg = rgb.get_pixel(r.x0 as u32, r.y0 as u32).0;
    // At most a few blocks: the patch's own margin, never into the window.
    let most = 4 * BLOCK as i32;
    while t.y0 < r.y0 + most && t.y0 + 1 < t.y1 && plain_row(t.y0, t.x0, t.x1, bg) {
        t.y0 += 1;
    }
    while t.y1 > r.y1 - most && t.y1 - 1 > t.y0 && plain_row(t.y1 - 1, t.x0, t.x1, bg) {
        t.y1 -= 1;
    }
    while t.x0 < r.x0 + most && t.x0 + 1 < t.x1 && plain_col(t.x0, t.y0, t.y1, bg) {
        t.x0 += 1;
    }
    while t.x1 > r.x1 - most && t.x1 - 1 > t.x0 && plain_col(t.x1 - 1, t.y0, t.y1, bg) {
        t.x1 -= 1;
    }
    t
}
