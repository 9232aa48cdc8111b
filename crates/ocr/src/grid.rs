//! Finding the result grid in a full-page word list.
//!
//! Every supported window draws its results the same way: R rows (usually 4) × C value
//! columns (Read, Write and sometimes Mix), the numbers being the tallest text in the
//! window, with a row button (the test label) left of each row. So the grid is found
//! from geometry, whatever the theme, language or scale: numeric words are grouped into
//! rows by their vertical centre, the tallest regular run of rows is the grid, and the
//! columns are the horizontal bands their numbers occupy. Nothing here depends on pixel
//! positions or on which file is being read.

use crate::engine::Word;

/// The page pass's confidence (0–100) above which a word of letters is taken as text.
const TEXT_CONFIDENCE: f32 = 80.0;

/// How far `Grid::cell_rect_of` reads left and right of a column's digits, in digit
/// heights: a digit the page pass missed may sit on either side.
const WIDEN_LEFT: f32 = 0.7;
const WIDEN_RIGHT: f32 = 0.4;

/// Where `Grid::cell_rect_of` reads a column whose digits span `c0` to `c1` and are `h`
/// high (before it keeps the column apart from its neighbours).
pub fn column_span(c0: i32, c1: i32, h: f32) -> (i32, i32) {
    (c0 - (WIDEN_LEFT * h) as i32, c1 + (WIDEN_RIGHT * h) as i32)
}

/// The column `Grid::cell_rect_of` reads from `x0` to `x1`: `column_span`'s inverse.
pub fn column_reading(x0: i32, x1: i32, h: f32) -> (i32, i32) {
    (x0 + (WIDEN_LEFT * h) as i32, x1 - (WIDEN_RIGHT * h) as i32)
}

/// More rows than any CrystalDiskMark or KDiskMark window shows (they show 4 or 5).
pub const MAX_ROWS: usize = 8;
/// The fewest rows a CrystalDiskMark or KDiskMark window shows.
pub const MIN_ROWS: usize = 4;

pub use api_types::Rect;

#[derive(Debug, Clone)]
pub struct GridRow {
    /// Vertical extent of the row's numbers (or interpolated when the page pass saw none).
    pub top: i32,
    pub bottom: i32,
    /// Per column: the page pass's word(s) for that cell, joined.
    pub page_text: Vec<Option<String>>,
    /// The page pass's boxes of this row's numbers.
    pub boxes: Vec<Rect>,
}

impl GridRow {
    pub fn cy(&self) -> f32 {
        (self.top + self.bottom) as f32 / 2.0
    }

    /// Whether the page pass read a number in this row (it was not filled in or probed).
    pub fn seen(&self) -> bool {
        self.page_text.iter().any(Option::is_some)
    }

    /// A row the page pass did not see, between two it saw, at `share` of the way from
    /// `a` to `b`.
    pub fn between(a: &GridRow, b: &GridRow, share: f32) -> GridRow {
        let at = |x: i32, y: i32| x + ((y - x) as f32 * share).round() as i32;
        GridRow {
            top: at(a.top, b.top),
            bottom: at(a.bottom, b.bottom),
            page_text: vec![None; a.page_text.len()],
            boxes: Vec::new(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Grid {
    pub rows: Vec<GridRow>,
    /// Horizontal extent of each value column's text, left to right.
    pub columns: Vec<(i32, i32)>,
    /// Height of the value digits in pixels.
    pub digit_height: f32,
    /// Distance between row centres.
    pub pitch: f32,
    /// True when, within each column, the numbers share their right edge (CrystalDiskMark)
    /// rather than their centre (KDiskMark).
    pub right_aligned: Option<bool>,
    /// Found from the cells' frames (`frames`), not from a page pass: its rows are all
    /// there is, none is probed.
    pub framed: bool,
}

/// A page-pass word without the marks that stick to numbers (cell borders read as `|`,
/// a bar edge read as `,`).
pub fn trim_number(text: &str) -> &str {
    text.trim_matches(|c: char| !c.is_ascii_digit())
}

/// A value as the page pass may read it: a number in some locale once the marks stuck
/// to it are trimmed (a title bar's `6.0.2` or `9.0.1` is none).
fn is_numeric(text: &str) -> bool {
    let t = trim_number(text);
    t.len() >= 3 && t.chars().filter(|c| c.is_ascii_digit()).count() >= 2 && crate::numbers::plausible(t)
}

struct Row<'a> {
    words: Vec<&'a Word>,
    cy: f32,
    h: f32,
}

fn median(mut v: Vec<f32>) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The page pass's words with a value that a thousands space split into words
/// (`1 816,90` read as `1` and `816,90`) joined again: a word of one to three digits
/// followed on its line, within half a digit's height, by one that starts with a group
/// of three.
fn join_digit_groups(words: &[Word]) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::with_capacity(words.len());
    for w in words {
        if let Some(prev) = out.last_mut() {
            let lead = prev.text.len() <= 3
                && !prev.text.starts_with('0')
                && prev.text.chars().all(|c| c.is_ascii_digit());
            let group = w.text.len() >= 3
                && w.text.as_bytes()[..3].iter().all(u8::is_ascii_digit)
                && !w.text.as_bytes().get(3).is_some_and(u8::is_ascii_digit);
            let h = prev.height.max(w.height) as f32;
            let gap = (w.left - prev.right()) as f32;
            if lead
                && group
                && prev.line == w.line
                && gap >= 0.0
                && gap <= 0.5 * h
                && (w.cy() - prev.cy()).abs() < 0.3 * h
            {
                prev.text = format!("{} {}", prev.text, w.text);
                let (top, bottom) = (prev.top.min(w.top), prev.bottom().max(w.bottom()));
                prev.width = w.right() - prev.left;
                prev.top = top;
                prev.height = bottom - top;
                prev.conf = prev.conf.min(w.conf);
                continue;
            }
        }
        out.push(w.clone());
    }
    out
}

/// The median height of the page pass's numbers, for a page where no grid was found.
pub fn number_height(words: &[Word]) -> Option<f32> {
    let hs: Vec<f32> = value_words(words)
        .iter()
        .filter(|w| w.height >= 6 && is_numeric(&w.text))
        .map(|w| w.height as f32)
        .collect();
    (!hs.is_empty()).then(|| median(hs))
}

/// A value's word that the page pass glued to the row button left of it (`enla49.8`:
/// CrystalDiskMark 3-6, whose cells touch their buttons) cut to the number, its box
/// narrowed in proportion to the characters cut off.
fn unglue_buttons(words: Vec<Word>) -> Vec<Word> {
    words
        .into_iter()
        .map(|mut w| {
            let chars = w.text.chars().count();
            let number = w.text.trim_start_matches(|c: char| !c.is_ascii_digit());
            let kept = number.chars().count();
            // A button's own text with digits (`SEQ128K`) is no value.
            if chars - kept >= 2 && kept >= 3 && crate::numbers::plausible(trim_number(number)) {
                let cut = (w.width as f32 * (chars - kept) as f32 / chars as f32) as i32;
                w.text = number.to_string();
                w.left += cut;
                w.width -= cut;
            }
            w
        })
        .collect()
}

/// The page pass's words as values are looked for in them: split groups joined, values
/// cut from the buttons they were glued to.
fn value_words(words: &[Word]) -> Vec<Word> {
    unglue_buttons(join_digit_groups(words))
}

pub fn find(words: &[Word]) -> Option<Grid> {
    let joined = value_words(words);
    let mut nums: Vec<&Word> = joined.iter().filter(|w| w.height >= 6 && is_numeric(&w.text)).collect();
    nums.sort_by(|a, b| a.cy().total_cmp(&b.cy()));

    // 1. Numbers into rows by vertical centre.
    let mut rows: Vec<Row> = Vec::new();
    for w in nums {
        let h = w.height as f32;
        match rows.last_mut() {
            Some(r) if (w.cy() - r.cy).abs() < 0.5 * h.min(r.h) => {
                r.words.push(w);
                let n = r.words.len() as f32;
                r.cy += (w.cy() - r.cy) / n;
                r.h = median(r.words.iter().map(|w| w.height as f32).collect());
            }
            _ => rows.push(Row { words: vec![w], cy: w.cy(), h }),
        }
    }

    // Two windows side by side (before/after posts) put their rows at the same height:
    // a row is split where a word with letters (the next window's row button, whose two
    // lines sit within half a digit height of the row's centre; a column header above
    // does not) or a gap wider than any window's cells lies between two of its numbers.
    let rows: Vec<Row> = rows.into_iter().flat_map(|r| split_row(r, words)).collect();
    // A window prints its values in one size: a number less than half as tall as its
    // row's is a row button's digits (KDiskMark's `Q32T1` read as `3271`), which would
    // make a column of its own left of the values.
    let rows: Vec<Row> = rows
        .into_iter()
        .map(|mut r| {
            r.words.retain(|w| w.height as f32 >= 0.5 * r.h);
            r
        })
        .collect();

    // 2. Every row holding two or more numbers may be the grid's; the grid is the seed
    //    giving the most cells (a desktop shot holds other windows with numbers).
    let mut best: Option<(f32, Grid)> = None;
    for seed in rows.iter().filter(|r| r.words.len() >= 2) {
        let g = grid_from_seed(&rows, seed);
        if std::env::var_os("SSDBASE_OCR_DEBUG_GRID").is_some() {
            eprintln!(
                "seed {:?} at {} -> {}",
                seed.words.iter().map(|w| &w.text).collect::<Vec<_>>(),
                seed.cy,
                g.is_some()
            );
        }
        if let Some(g) = g.and_then(|g| g.cut_at_text(words)) {
            let real_rows = g.rows.iter().filter(|r| r.seen()).count();
            let score = (real_rows * g.columns.len()) as f32 * g.digit_height;
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, g));
            }
        }
    }
    best.map(|(_, g)| g)
}

fn split_row<'a>(row: Row<'a>, words: &[Word]) -> Vec<Row<'a>> {
    let mut ws = row.words;
    ws.sort_by_key(|w| w.left);
    let h = row.h;
    let mut out: Vec<Vec<&Word>> = Vec::new();
    for w in ws {
        let split = out.last().and_then(|run| run.last()).is_some_and(|prev| {
            let gap = (w.left - prev.right()) as f32;
            gap > 12.0 * h
                || words.iter().any(|o| {
                    o.left >= prev.right()
                        && o.right() <= w.left
                        && (o.cy() - row.cy).abs() < 0.6 * h
                        && o.text.chars().filter(|c| c.is_alphabetic()).count() >= 2
                })
        });
        match out.last_mut() {
            Some(run) if !split => run.push(w),
            _ => out.push(vec![w]),
        }
    }
    out.into_iter()
        .map(|words| {
            let cy = words.iter().map(|w| w.cy()).sum::<f32>() / words.len() as f32;
            let h = median(words.iter().map(|w| w.height as f32).collect());
            Row { words, cy, h }
        })
        .collect()
}

/// Every result grid in the page, at most `max` of them, best first: the best grid's
/// numbers are set aside and the search repeats (several windows in one screenshot).
pub fn find_all(words: &[Word], max: usize) -> Vec<Grid> {
    let mut left: Vec<Word> = words.to_vec();
    let mut grids: Vec<Grid> = Vec::new();
    while grids.len() < max {
        let Some(g) = find(&left) else { break };
        let Rect { x0, x1, y0, y1 } = g.bounds();
        let pad = g.digit_height as i32;
        let before = left.len();
        left.retain(|w| {
            !(is_numeric(&w.text)
                && w.right() > x0 - pad
                && w.left < x1 + pad
                && w.bottom() > y0 - pad
                && w.top < y1 + pad)
        });
        grids.push(g);
        if left.len() == before {
            break;
        }
    }
    grids
}

pub(crate) fn area(r: &Rect) -> i64 {
    i64::from(r.width().max(0)) * i64::from(r.height().max(0))
}

/// The area two rectangles share.
pub(crate) fn overlap(a: &Rect, b: &Rect) -> i64 {
    let w = (a.x1.min(b.x1) - a.x0.max(b.x0)).max(0);
    let h = (a.y1.min(b.y1) - a.y0.max(b.y0)).max(0);
    i64::from(w) * i64::from(h)
}

/// The grid containing `seed`: rows of the same glyph height overlapping it horizontally.
fn grid_from_seed(rows: &[Row], seed: &Row) -> Option<Grid> {
    let (seed_h, seed_x0, seed_x1) =
        (seed.h, seed.words.iter().map(|w| w.left).min()?, seed.words.iter().map(|w| w.right()).max()?);
    let slack = (3.0 * seed_h) as i32;
    let mut picked: Vec<&Row> = rows
        .iter()
        .filter(|r| r.h >= 0.72 * seed_h && r.h <= 1.35 * seed_h)
        .filter(|r| r.words.iter().any(|w| w.right() > seed_x0 - slack && w.left < seed_x1 + slack))
        .collect();
    if picked.len() < 2 {
        return None;
    }

    // 3. Keep the longest run of regularly spaced rows, re-inserting a row the page pass
    //    missed entirely (a gap of two or three pitches).
    let gaps: Vec<f32> = picked.windows(2).map(|p| p[1].cy - p[0].cy).collect();
    let pitch = gaps.iter().copied().fold(f32::MAX, f32::min);
    if pitch < seed_h {
        return None;
    }
    let mut runs: Vec<Vec<usize>> = vec![vec![0]];
    for (i, g) in gaps.iter().enumerate() {
        let k = (g / pitch).round();
        if k <= 3.0 && (g / pitch - k).abs() < 0.25 {
            runs.last_mut().expect("runs start non-empty").push(i + 1);
        } else {
            runs.push(vec![i + 1]);
        }
    }
    let seed_at = picked.iter().position(|r| std::ptr::eq(*r, seed))?;
    let run = runs.into_iter().find(|r| r.contains(&seed_at))?;
    // No supported window has more than a handful of rows; a taller "grid" is a table or
    // a spreadsheet, and reading it would only cost time.
    if run.len() > MAX_ROWS {
        return None;
    }
    picked = run.into_iter().map(|i| picked[i]).collect();
    if picked.len() < 2 {
        return None;
    }
    let pitch = median(picked.windows(2).map(|p| p[1].cy - p[0].cy).filter(|g| *g < 1.5 * pitch).collect());
    // Lower quartile of the word heights: a box that swallowed a cell border is taller
    // than the digits, never shorter.
    let digit_height = {
        let mut hs: Vec<f32> = picked.iter().flat_map(|r| r.words.iter().map(|w| w.height as f32)).collect();
        hs.sort_by(|a, b| a.total_cmp(b));
        hs[hs.len() / 4]
    };

    // 4. Columns: horizontal bands of the numbers, merged where they overlap.
    let mut spans: Vec<(i32, i32)> =
        picked.iter().flat_map(|r| r.words.iter().map(|w| (w.left, w.right()))).collect();
    spans.sort();
    let join = (0.35 * digit_height) as i32;
    let mut columns: Vec<(i32, i32)> = Vec::new();
    for (a, b) in spans {
        match columns.last_mut() {
            Some(c) if a <= c.1 + join => c.1 = c.1.max(b),
            _ => columns.push((a, b)),
        }
    }
    if columns.len() < 2 || columns.len() > 4 {
        return None;
    }
    // No window has four columns (Read, Write and Mix at most): four are two windows of
    // two side by side whose rows the page pass saw as one (touching, at heights a few
    // pixels apart). The grid is the left one; `find_all` finds the right one next.
    if columns.len() == 4 {
        columns.truncate(2);
    }

    // Alignment: spread of right edges vs spread of centres within columns.
    let mut right_spread = 0.0;
    let mut centre_spread = 0.0;
    let mut widths_differ = false;
    for &(c0, c1) in &columns {
        let ws: Vec<&&Word> =
            picked.iter().flat_map(|r| r.words.iter()).filter(|w| w.left >= c0 && w.right() <= c1).collect();
        let (Some(minr), Some(maxr)) =
            (ws.iter().map(|w| w.right()).min(), ws.iter().map(|w| w.right()).max())
        else {
            continue;
        };
        let cs: Vec<f32> = ws.iter().map(|w| (w.left + w.right()) as f32 / 2.0).collect();
        right_spread += (maxr - minr) as f32;
        centre_spread +=
            cs.iter().copied().fold(f32::MIN, f32::max) - cs.iter().copied().fold(f32::MAX, f32::min);
        let wmin = ws.iter().map(|w| w.width).min().unwrap_or(0);
        let wmax = ws.iter().map(|w| w.width).max().unwrap_or(0);
        widths_differ |= (wmax - wmin) as f32 > 0.6 * digit_height;
    }
    let right_aligned = widths_differ.then_some(right_spread < centre_spread);

    // 5. Rows, with the interpolated ones.
    let mut out: Vec<GridRow> = Vec::new();
    if !(pitch.is_finite() && pitch > 0.0) {
        return None;
    }
    for (i, r) in picked.iter().enumerate() {
        if i > 0 {
            let prev = picked[i - 1];
            let k = ((r.cy - prev.cy) / pitch).round();
            // Rows missed by the page pass are filled in at the pitch; a gap worth more
            // rows than a window has is no grid (fuzzing found a pitch near zero that
            // asked for billions of rows).
            if !k.is_finite() || k > MAX_ROWS as f32 {
                return None;
            }
            for j in 1..k as i32 {
                let cy = prev.cy + j as f32 * pitch;
                out.push(GridRow {
                    top: (cy - digit_height / 2.0) as i32,
                    bottom: (cy + digit_height / 2.0) as i32,
                    page_text: vec![None; columns.len()],
                    boxes: Vec::new(),
                });
            }
        }
        let mut page_text = vec![None; columns.len()];
        for (ci, &(c0, c1)) in columns.iter().enumerate() {
            let mut ws: Vec<&&Word> = r.words.iter().filter(|w| w.left >= c0 && w.right() <= c1).collect();
            ws.sort_by_key(|w| w.left);
            if !ws.is_empty() {
                page_text[ci] = Some(ws.iter().map(|w| w.text.as_str()).collect::<String>());
            }
        }
        // The row's centre from boxes of digit height: a box that swallowed part of a
        // bar or border is taller and off-centre.
        let fitting: Vec<f32> =
            r.words.iter().filter(|w| (w.height as f32) <= 1.3 * digit_height).map(|w| w.cy()).collect();
        let cy = if fitting.is_empty() { r.cy } else { median(fitting) };
        let half = digit_height / 2.0;
        let boxes =
            r.words.iter().map(|w| Rect { x0: w.left, y0: w.top, x1: w.right(), y1: w.bottom() }).collect();
        out.push(GridRow {
            top: (cy - half).round() as i32,
            bottom: (cy + half).round() as i32,
            page_text,
            boxes,
        });
    }

    Some(Grid { rows: out, columns, digit_height, pitch, right_aligned, framed: false })
}

impl Grid {
    /// The box of the grid's numbers: first column's left to last column's right, first
    /// row's top to last row's bottom.
    pub fn bounds(&self) -> Rect {
        let (first, last) = (&self.rows[0], self.rows.last().expect("a grid has rows"));
        Rect {
            x0: self.columns[0].0,
            x1: self.columns.last().expect("a grid has columns").1,
            y0: first.top,
            y1: last.bottom,
        }
    }

    /// Whether the page pass read a word of text over the cells of `row` (a column
    /// header, the comment box), which a row of values never holds: three letters in a
    /// run, read with confidence (a row of digits the page pass garbled reads as `BBs`
    /// at 26).
    pub fn holds_text(&self, words: &[Word], row: &GridRow) -> bool {
        let band = self.cell_rect_of(row, 0);
        self.text_between(words, band.y0 as f32, band.y1 as f32)
    }

    /// Whether a confident word of letters lies over the grid's columns between `y0` and `y1`.
    fn text_between(&self, words: &[Word], y0: f32, y1: f32) -> bool {
        let g = self.bounds();
        words.iter().any(|w| {
            w.cy() > y0
                && w.cy() < y1
                && w.right() > g.x0
                && w.left < g.x1
                && w.conf >= TEXT_CONFIDENCE
                && w.text.as_bytes().windows(3).any(|run| run.iter().all(u8::is_ascii_alphabetic))
        })
    }

    /// The grid cut at a row it filled in where the page pass read text: a column header
    /// between the values and a number above them that is no value (a title bar's
    /// version, `6.0.2` read as `10.2`). The part with the most rows the page pass saw
    /// stays; `None` when no part keeps two rows.
    fn cut_at_text(mut self, words: &[Word]) -> Option<Grid> {
        // A filled-in row owns the pitch around its centre.
        let filled_with_text = |g: &Grid, r: &GridRow| {
            let half = g.pitch / 2.0;
            r.page_text.iter().all(Option::is_none) && g.text_between(words, r.cy() - half, r.cy() + half)
        };
        let cuts: Vec<usize> =
            (0..self.rows.len()).filter(|&i| filled_with_text(&self, &self.rows[i])).collect();
        if cuts.is_empty() {
            return Some(self);
        }
        let seen = |rows: &[GridRow]| rows.iter().filter(|r| r.seen()).count();
        let mut parts: Vec<std::ops::Range<usize>> = Vec::new();
        let mut start = 0;
        for &c in cuts.iter().chain([self.rows.len()].iter()) {
            parts.push(start..c);
            start = c + 1;
        }
        let best = parts.into_iter().max_by_key(|p| seen(&self.rows[p.clone()]))?;
        if best.len() < 2 {
            return None;
        }
        self.rows = self.rows.drain(best).collect();
        Some(self)
    }

    /// Cells the page pass read a number in (the others were interpolated or probed).
    pub fn seen_cells(&self) -> usize {
        self.rows.iter().flat_map(|r| &r.page_text).filter(|t| t.is_some()).count()
    }

    /// Every cell of the grid, seen or not.
    pub fn cells(&self) -> usize {
        self.rows.len() * self.columns.len()
    }

    /// The pixels to read for one value: the column's band, widened because a digit the
    /// page pass missed may sit on either side, and the row's digits plus a margin.
    pub fn cell_rect(&self, row: usize, col: usize) -> Rect {
        self.cell_rect_of(&self.rows[row], col)
    }

    /// A row one pitch above the first (`up`) or below the last, for probing rows the
    /// page pass missed.
    pub fn neighbour(&self, up: bool) -> GridRow {
        let edge = if up { &self.rows[0] } else { self.rows.last().expect("a grid has rows") };
        let dy = if up { -self.pitch } else { self.pitch } as i32;
        GridRow {
            top: edge.top + dy,
            bottom: edge.bottom + dy,
            page_text: vec![None; self.columns.len()],
            boxes: Vec::new(),
        }
    }

    pub fn cell_rect_of(&self, r: &GridRow, col: usize) -> Rect {
        let h = self.digit_height;
        let (c0, c1) = self.columns[col];
        let (mut x0, mut x1) = column_span(c0, c1, h);
        if col > 0 {
            x0 = x0.max((self.columns[col - 1].1 + c0) / 2);
        }
        if col + 1 < self.columns.len() {
            x1 = x1.min((c1 + self.columns[col + 1].0) / 2);
        }
        Rect { x0, x1, y0: r.top - (0.3 * h) as i32, y1: r.bottom + (0.3 * h) as i32 }
    }

    /// Where row buttons can be: the columns from `.0` to `.1`, left of the first value
    /// column and at most twice its width (or 8 digit heights) from it.
    pub fn button_columns(&self) -> (i32, i32) {
        let left = self.columns[0].0 - (0.5 * self.digit_height) as i32;
        let reach = (self.columns[0].1 - self.columns[0].0).max((4.0 * self.digit_height) as i32) * 2;
        (left - reach, left)
    }

    /// This grid with its first column starting where most of the values the page pass
    /// saw in it start (the median left edge), when one started more than half a digit
    /// further left: a value glued to its row button (`Grid::label_rects` would look for
    /// the buttons left of it). `None` when no value stands out so.
    pub fn first_column_where_most_values_start(&self) -> Option<Grid> {
        let (x0, x1) = *self.columns.first()?;
        let lefts: Vec<f32> = self
            .rows
            .iter()
            .flat_map(|r| &r.boxes)
            .filter(|b| (b.x0 + b.x1) / 2 >= x0 && (b.x0 + b.x1) / 2 <= x1)
            .map(|b| b.x0 as f32)
            .collect();
        if lefts.len() < 3 {
            return None;
        }
        let most = median(lefts) as i32;
        if (most - x0) as f32 <= 0.5 * self.digit_height {
            return None;
        }
        let mut g = self.clone();
        g.columns[0].0 = most;
        Some(g)
    }

    /// The area left of the first column where a row's button (its test label) sits: the
    /// nearest words left of the grid in the row's band.
    pub fn label_rects(&self, words: &[Word]) -> Vec<Option<Rect>> {
        let (farthest, left) = self.button_columns();
        let half = 0.45 * self.pitch;
        let found: Vec<Option<(i32, i32)>> = self
            .rows
            .iter()
            .map(|r| {
                let cy = r.cy();
                let mut ws: Vec<&Word> = words
                    .iter()
                    .filter(|w| w.right() <= left && w.right() > farthest && (w.cy() - cy).abs() < half)
                    .filter(|w| w.text.chars().any(char::is_alphanumeric))
                    .collect();
                ws.sort_by_key(|w| -w.right());
                let first = ws.first()?;
                let lh = first.height.max(4);
                // Words of the same button overlap the nearest word's horizontal band.
                let (mut x0, mut x1) = (first.left, first.right());
                for w in &ws[1..] {
                    if w.right() > x0 - lh && w.left < x1 + lh {
                        x0 = x0.min(w.left);
                        x1 = x1.max(w.right());
                    }
                }
                Some((x0, x1))
            })
            .collect();
        // Buttons are one column: where a row's words were not found, use the others'.
        let known: Vec<(i32, i32)> = found.iter().flatten().copied().collect();
        if known.is_empty() {
            return vec![None; self.rows.len()];
        }
        let x0 = known.iter().map(|k| k.0).min().expect("known is not empty");
        let x1 = known.iter().map(|k| k.1).max().expect("known is not empty");
        let pad = (0.25 * self.digit_height) as i32;
        self.rows
            .iter()
            .map(|r| {
                let (a, b) = (x0, x1);
                let cy = r.cy();
                Some(Rect {
                    x0: a - pad,
                    x1: b + pad,
                    y0: (cy - 0.42 * self.pitch) as i32,
                    y1: (cy + 0.42 * self.pitch) as i32,
                })
            })
            .collect()
    }
}

impl Grid {
    /// Replaces the page pass's box heights by the measured ink: boxes often include part
    /// of a bar or the whole cell, the ink of the digits does not.
    pub fn refine_rows(&mut self, ink: impl Fn(Rect) -> Option<(i32, i32)>) {
        let mut heights = Vec::new();
        for r in &mut self.rows {
            let spans: Vec<(i32, i32)> = r.boxes.iter().filter_map(|b| ink(*b)).collect();
            if spans.is_empty() {
                continue;
            }
            r.top = median(spans.iter().map(|s| s.0 as f32).collect()) as i32;
            r.bottom = median(spans.iter().map(|s| s.1 as f32).collect()) as i32;
            heights.push((r.bottom - r.top) as f32);
        }
        if heights.is_empty() {
            return;
        }
        let h = median(heights);
        if h >= 6.0 {
            self.digit_height = h;
            // Rows the page pass did not see: same height around their centre.
            for r in &mut self.rows {
                if r.boxes.is_empty() {
                    let cy = r.cy();
                    r.top = (cy - h / 2.0) as i32;
                    r.bottom = (cy + h / 2.0) as i32;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, left: i32, top: i32, width: i32, height: i32, line: u32) -> Word {
        Word { text: text.into(), left, top, width, height, conf: 50.0, line: (line, 1, 1) }
    }

    /// The page pass over a dark KDiskMark window (real set 32, `Breeze Dark`, saved
    /// again as a JPEG at quality 75): its last button's `Q32T1` read as the number
    /// `3271`, one fifth as tall as the values beside it. Before: a third column of
    /// its own, left of the values, which then hid the buttons (no row label read).
    #[test]
    fn a_row_buttons_digits_are_no_column() {
        let words = [
            word("SEQIM", 70, 148, 37, 10, 14),
            word("3,834.31", 140, 127, 218, 87, 16),
            word("2,908.04", 415, 127, 139, 87, 16),
            word("SEQIM", 70, 218, 37, 10, 17),
            word("29945", 144, 201, 402, 59, 19),
            word("2,085.75", 415, 201, 131, 59, 19),
            word("RND4K", 70, 288, 38, 9, 20),
            word("3271", 73, 304, 31, 10, 21),
            word("91982", 198, 267, 167, 87, 22),
            word("725.89", 430, 267, 101, 87, 22),
            word("RND&K", 70, 358, 38, 9, 23),
            word("Ss.18", 144, 341, 148, 59, 25),
        ];
        let grid = find(&words).expect("a grid");
        assert_eq!(grid.columns.len(), 2, "{:?}", grid.columns);
        assert!(grid.columns[0].0 >= 140, "{:?}", grid.columns);
    }

    /// The page pass over a CrystalDiskMark 3 window (real set 01) saved again as a JPEG
    /// at quality 75, read at two thirds (`build::with_large_digits_scaled`): the last
    /// row's `130.2` glued to its button's `QD32` as `2430.2`, 40 px left of the other
    /// values. The first column starts where most values do; a grid whose values start
    /// where their column does is left as it is.
    #[test]
    fn a_value_glued_to_its_button_does_not_move_the_column() {
        let rows = [
            ("256.7", 99, 117, "(25118", 254),
            ("190.4", 101, 168, ")204.4", 254),
            ("27.28", 101, 221, "(56159", 255),
            ("2430.2", 61, 270, "164192", 252),
        ];
        let words: Vec<Word> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, &(a, ax, top, b, bx))| {
                let line = i as u32 * 2;
                [word(a, ax, top, 221 - ax, 30, line), word(b, bx, top, 376 - bx, 30, line + 1)]
            })
            .collect();
        let grid = find(&words).expect("a grid");
        assert_eq!(grid.columns[0].0, 61);
        let narrowed = grid.first_column_where_most_values_start().expect("narrowed");
        assert_eq!(narrowed.columns[0], (101, grid.columns[0].1));
        assert_eq!(narrowed.columns[1], grid.columns[1]);
        assert!(narrowed.first_column_where_most_values_start().is_none());
    }
}
