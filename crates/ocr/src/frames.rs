//! Result grids found by their cells' frames, from pixels alone.
//!
//! CrystalDiskMark draws every value in a framed cell: a rectangle with a one-pixel
//! border, the same size for every value of a window, in rows of two or three (Read,
//! Write, Mix) with a few pixels between them. The frames hold whatever the digits do
//! (digits as tall as the cell, a bar under them, a JPEG's smear), so a grid of them
//! names a window where the page pass finds no numbers, and windows placed edge to
//! edge, which no desktop separates, are still two grids of cells.
//!
//! Found here: long horizontal and vertical edges (a step in luminance between two
//! neighbouring pixel rows or columns, over many pixels), rectangles whose four sides
//! are such edges, and rectangles of one size placed as rows and columns.

use crate::grid::{self, Grid, GridRow, Rect};
use crate::locate;
use image::RgbImage;

/// A step in luminance between neighbouring pixels that a frame makes: a light grey
/// border on a white cell or the window's grey, kept by a JPEG at quality 30.
const EDGE: u8 = 24;
/// Pixels of an edge a frame may miss (a JPEG's ringing, a digit touching the border).
const EDGE_GAP: usize = 2;
/// The smallest value cell read: a CrystalDiskMark window at half size.
const MIN_CELL_WIDTH: usize = 48;
const MIN_CELL_HEIGHT: usize = 14;
/// Value cells are landscape: 2.5-4.5 times as wide as tall in every version and scale.
const MIN_CELL_ASPECT: f32 = 1.8;
const MAX_CELL_ASPECT: f32 = 8.0;
/// Pixels by which two sides that are one side may differ (a frame's two edges, inner
/// and outer, a JPEG's smear).
const SLACK: i32 = 3;
/// The share of a side that its edges must cover.
const SIDE_COVER: f32 = 0.8;

/// A grid of framed value cells: rows top to bottom, each with its cells left to right.
#[derive(Debug, Clone)]
pub struct CellGrid {
    pub rows: Vec<Vec<Rect>>,
}

impl CellGrid {
    pub fn bounds(&self) -> Rect {
        let all = self.rows.iter().flatten();
        Rect {
            x0: all.clone().map(|r| r.x0).min().unwrap_or(0),
            y0: all.clone().map(|r| r.y0).min().unwrap_or(0),
            x1: all.clone().map(|r| r.x1).max().unwrap_or(0),
            y1: all.map(|r| r.y1).max().unwrap_or(0),
        }
    }

    fn cell_size(&self) -> (f32, f32) {
        let cells: Vec<&Rect> = self.rows.iter().flatten().collect();
        let n = cells.len().max(1) as f32;
        (
            cells.iter().map(|r| r.width() as f32).sum::<f32>() / n,
            cells.iter().map(|r| r.height() as f32).sum::<f32>() / n,
        )
    }

    /// Distance between row tops (a cell's height and the gap under it).
    pub fn pitch(&self) -> f32 {
        let b = self.bounds();
        let (_, h) = self.cell_size();
        if self.rows.len() < 2 {
            return h * 1.1;
        }
        (b.height() as f32 - h) / (self.rows.len() - 1) as f32
    }

    /// Where the window around the grid is: its row buttons to the left (about half a
    /// cell wide), its column headers, settings, menu and title bar above (about three
    /// rows' pitch), its comment line below; never over another grid's cells.
    pub fn window_region(&self, others: &[CellGrid]) -> Rect {
        let g = self.bounds();
        let (w, _) = self.cell_size();
        let pitch = self.pitch();
        let mut r = Rect {
            x0: g.x0 - (0.65 * w) as i32,
            x1: g.x1 + (0.1 * w) as i32,
            y0: g.y0 - (3.0 * pitch) as i32,
            y1: g.y1 + (1.3 * pitch) as i32,
        };
        for o in others {
            let o = o.bounds();
            if o == g {
                continue;
            }
            let beside = o.y1 > g.y0 && o.y0 < g.y1;
            let above_or_below = o.x1 > g.x0 && o.x0 < g.x1;
            if beside && o.x1 <= g.x0 {
                r.x0 = r.x0.max(o.x1 + SLACK);
            } else if beside && o.x0 >= g.x1 {
                r.x1 = r.x1.min(o.x0 - SLACK);
            } else if above_or_below && o.y1 <= g.y0 {
                r.y0 = r.y0.max(o.y1 + SLACK);
            } else if above_or_below && o.y0 >= g.y1 {
                r.y1 = r.y1.min(o.y0 - SLACK);
            }
        }
        r
    }

    /// The grid as the reader's `Grid`, none of its cells seen by a page pass: each row's
    /// digits are measured inside its cells (`Grid::refine_rows`), each column is its
    /// cells' inside.
    pub fn to_grid(&self) -> Grid {
        let (_, h) = self.cell_size();
        // A first guess at the digits' height, replaced by the ink measured in the cells.
        self.to_grid_with(0.6 * h)
    }

    /// The inside of column `ci`'s cells, left to right.
    fn column_inside(&self, ci: usize) -> (i32, i32) {
        let x0 = self.rows.iter().map(|r| r[ci].x0).min().unwrap_or(0);
        let x1 = self.rows.iter().map(|r| r[ci].x1).max().unwrap_or(0);
        (x0 + SLACK, x1 - SLACK)
    }

    fn to_grid_with(&self, digit_height: f32) -> Grid {
        // Each column read over its cells' inside.
        let columns = (0..self.rows[0].len())
            .map(|ci| {
                let (x0, x1) = self.column_inside(ci);
                grid::column_reading(x0, x1, digit_height)
            })
            .collect();
        let rows = self
            .rows
            .iter()
            .map(|cells| {
                let top = cells.iter().map(|c| c.y0).min().unwrap_or(0) + SLACK;
                let bottom = cells.iter().map(|c| c.y1).max().unwrap_or(0) - SLACK;
                GridRow {
                    top,
                    bottom,
                    page_text: vec![None; cells.len()],
                    boxes: cells.iter().map(inside).collect(),
                }
            })
            .collect();
        Grid { rows, columns, digit_height, pitch: self.pitch(), right_aligned: None, framed: true }
    }
}

/// A cell without its frame.
fn inside(c: &Rect) -> Rect {
    Rect { x0: c.x0 + SLACK, y0: c.y0 + SLACK, x1: c.x1 - SLACK, y1: c.y1 - SLACK }
}

/// Runs of `true` in `line`, bridging gaps of up to `EDGE_GAP`, at least `min` long.
fn runs(line: impl Iterator<Item = bool>, min: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut start, mut last) = (None::<usize>, 0usize);
    let close = |s: usize, l: usize, out: &mut Vec<(usize, usize)>| {
        if l + 1 - s >= min {
            out.push((s, l + 1));
        }
    };
    for (i, on) in line.enumerate() {
        if !on {
            continue;
        }
        match start {
            Some(s) if i - last > EDGE_GAP + 1 => {
                close(s, last, &mut out);
                start = Some(i);
            }
            Some(_) => {}
            None => start = Some(i),
        }
        last = i;
    }
    if let Some(s) = start {
        close(s, last, &mut out);
    }
    out
}

/// Every grid of framed value cells in the image, left to right (top to bottom in a
/// column of windows).
pub fn cell_grids(rgb: &RgbImage) -> Vec<CellGrid> {
    let (w, h) = (rgb.width() as usize, rgb.height() as usize);
    if w < MIN_CELL_WIDTH * 2 || h < MIN_CELL_HEIGHT * 2 {
        return Vec::new();
    }
    let luma: Vec<u8> =
        (0..rgb.height()).flat_map(|y| (0..rgb.width()).map(move |x| locate::luma(rgb, x, y))).collect();
    let at = |x: usize, y: usize| luma[y * w + x];
    // Horizontal edges between pixel rows y and y + 1, by row; vertical ones between
    // columns x and x + 1, by column.
    let horizontal: Vec<Vec<(usize, usize)>> = (0..h - 1)
        .map(|y| runs((0..w).map(|x| at(x, y).abs_diff(at(x, y + 1)) >= EDGE), MIN_CELL_WIDTH))
        .collect();
    let vertical: Vec<Vec<(usize, usize)>> = (0..w - 1)
        .map(|x| runs((0..h).map(|y| at(x, y).abs_diff(at(x + 1, y)) >= EDGE), MIN_CELL_HEIGHT))
        .collect();
    let side = |x: i32, y0: i32, y1: i32| {
        let need = SIDE_COVER * (y1 - y0) as f32;
        (x - SLACK..=x + SLACK).filter(|&c| c >= 0 && (c as usize) < vertical.len()).any(|c| {
            vertical[c as usize]
                .iter()
                .map(|&(a, b)| (b as i32).min(y1) - (a as i32).max(y0))
                .filter(|&covered| covered > 0)
                .sum::<i32>() as f32
                >= need
        })
    };
    // Rectangles: a top edge, the nearest bottom edge with the same ends below it, and
    // a side edge at each end.
    let mut cells: Vec<Rect> = Vec::new();
    for (yt, tops) in horizontal.iter().enumerate() {
        for &(a, b) in tops {
            let width = b - a;
            let max_height = (width as f32 / MIN_CELL_ASPECT) as usize;
            let min_height = ((width as f32 / MAX_CELL_ASPECT) as usize).max(MIN_CELL_HEIGHT);
            let bottom = (yt + min_height..=(yt + max_height).min(h - 2)).find(|&yb| {
                horizontal[yb].iter().any(|&(c, d)| {
                    (c as i32 - a as i32).abs() <= SLACK && (d as i32 - b as i32).abs() <= SLACK
                })
            });
            let Some(yb) = bottom else { continue };
            let r = Rect { x0: a as i32, y0: yt as i32 + 1, x1: b as i32, y1: yb as i32 + 1 };
            if side(r.x0, r.y0, r.y1) && side(r.x1 - 1, r.y0, r.y1) {
                cells.push(r);
            }
        }
    }
    let cells = dedup(cells);
    if std::env::var_os("SSDBASE_OCR_DEBUG_FRAMES").is_some() {
        eprintln!("framed cells: {cells:?}");
    }
    grids_of(cells)
}

/// One rectangle for each frame. A rectangle that holds another as wide as itself is
/// no frame: it runs from one cell's bottom edge to the next one's bottom (their tops a
/// few pixels apart), or around a bar as long as the cell, whose own edges are the
/// cell's inside. Of rectangles a few pixels apart (a frame's inner and outer edges),
/// the largest is kept.
fn dedup(cells: Vec<Rect>) -> Vec<Rect> {
    let holds = |a: &Rect, b: &Rect| {
        a != b
            && (a.x0 - b.x0).abs() <= 2 * SLACK
            && (a.x1 - b.x1).abs() <= 2 * SLACK
            && b.y0 >= a.y0
            && b.y1 <= a.y1
    };
    let mut cells: Vec<Rect> = cells.iter().filter(|a| !cells.iter().any(|b| holds(a, b))).copied().collect();
    cells.sort_by_key(|r| -(r.width() * r.height()));
    let mut out: Vec<Rect> = Vec::new();
    for c in cells {
        let near = |o: &Rect| {
            (o.x0 - c.x0).abs() <= 2 * SLACK
                && (o.x1 - c.x1).abs() <= 2 * SLACK
                && (o.y0 - c.y0).abs() <= 2 * SLACK
                && (o.y1 - c.y1).abs() <= 2 * SLACK
        };
        if !out.iter().any(near) {
            out.push(c);
        }
    }
    out
}

/// Cells of one size placed as the rows and columns of a result grid: neighbours a
/// small gap apart (at most a tenth of a cell's width across, more between two windows
/// placed edge to edge, and half its height down), two or three columns (Read, Write,
/// Mix) and two to eight rows, three quarters of the cells found or more.
fn grids_of(cells: Vec<Rect>) -> Vec<CellGrid> {
    let n = cells.len();
    let same_size = |a: &Rect, b: &Rect| {
        (a.width() - b.width()).abs() as f32 <= 0.06 * a.width() as f32 + 2.0
            && (a.height() - b.height()).abs() as f32 <= 0.1 * a.height() as f32 + 2.0
    };
    let beside = |a: &Rect, b: &Rect| {
        let gap = b.x0 - a.x1;
        (a.y0 - b.y0).abs() <= SLACK * 2 && gap >= -SLACK && (gap as f32) <= 0.1 * a.width() as f32
    };
    // One side lined up is enough: something drawn over a cell (an arrow, a note pasted
    // on the screenshot) can hide its other side.
    let lined_up = |a: &Rect, b: &Rect| (a.x0 - b.x0).abs() <= SLACK * 2 || (a.x1 - b.x1).abs() <= SLACK * 2;
    let under = |a: &Rect, b: &Rect| {
        let gap = b.y0 - a.y1;
        lined_up(a, b) && gap >= -SLACK && (gap as f32) <= 0.6 * a.height() as f32
    };
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for i in 0..n {
        for j in 0..n {
            let (a, b) = (&cells[i], &cells[j]);
            if i != j && same_size(a, b) && (beside(a, b) || under(a, b)) {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<Rect>> = Default::default();
    for (i, c) in cells.iter().enumerate() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(*c);
    }
    let mut out = Vec::new();
    for mut group in groups.into_values() {
        group.sort_by_key(|r| (r.y0, r.x0));
        let mut rows: Vec<Vec<Rect>> = Vec::new();
        for c in group {
            match rows.last_mut() {
                Some(row) if (row[0].y0 - c.y0).abs() <= SLACK * 2 => row.push(c),
                _ => rows.push(vec![c]),
            }
        }
        // Left to right within each row: a JPEG's smear moves a frame's top edge by a
        // few pixels, so the order by top alone can put a row's Write cell first.
        for row in &mut rows {
            row.sort_by_key(|r| r.x0);
        }
        // A cell whose frame is hidden (a note drawn over it) is where its row and column
        // put it, when three quarters of the grid's cells were found.
        let Some(full) = rows.iter().max_by_key(|r| r.len()).cloned() else { continue };
        let columns = full.len();
        let found = rows.iter().map(Vec::len).sum::<usize>();
        if !(2..=3).contains(&columns)
            || !(2..=grid::MAX_ROWS).contains(&rows.len())
            || 4 * found < 3 * columns * rows.len()
        {
            continue;
        }
        let filled: Option<Vec<Vec<Rect>>> = rows
            .iter()
            .map(|row| {
                let (y0, y1) = (row[0].y0, row[0].y1);
                let cells = full
                    .iter()
                    .map(|column| {
                        let mut in_column = row.iter().filter(|c| lined_up(c, column));
                        match (in_column.next(), in_column.next()) {
                            (Some(c), None) => Some(*c),
                            (None, _) => Some(Rect { x0: column.x0, x1: column.x1, y0, y1 }),
                            (Some(_), Some(_)) => None,
                        }
                    })
                    .collect::<Option<Vec<Rect>>>()?;
                // Every cell found in the row stands in one column.
                (cells.iter().filter(|c| row.contains(c)).count() == row.len()).then_some(cells)
            })
            .collect();
        if let Some(rows) = filled {
            out.push(CellGrid { rows });
        }
    }
    // Value cells hold digits and a bar, never another grid's cells: a grid whose cells
    // do is rectangles around a window's rows of cells (a downscaled JPEG blurs the
    // rows' frames into long edges; seen as one grid across two windows side by side,
    // which had the pair read a second time as one region).
    let around = |c: &Rect, d: &Rect| {
        d.x0 >= c.x0 - SLACK
            && d.x1 <= c.x1 + SLACK
            && d.y0 >= c.y0 - SLACK
            && d.y1 <= c.y1 + SLACK
            && 2 * grid::area(d) < grid::area(c)
    };
    let holds_cells = |g: &CellGrid, h: &CellGrid| {
        g.rows.iter().flatten().any(|c| h.rows.iter().flatten().any(|d| around(c, d)))
    };
    let mut out: Vec<CellGrid> =
        out.iter().filter(|g| !out.iter().any(|h| holds_cells(g, h))).cloned().collect();
    // Left to right, and top to bottom within a column of windows (a grid starting
    // within half a grid's width of the column's first one is in that column).
    out.sort_by_key(|g| {
        let b = g.bounds();
        (b.x0, b.y0)
    });
    let mut column: Option<(usize, i32)> = None;
    let mut keyed: Vec<((usize, i32), CellGrid)> = Vec::new();
    for g in out {
        let b = g.bounds();
        let index = match column {
            Some((i, x0)) if b.x0 - x0 < b.width() / 2 => i,
            Some((i, _)) => i + 1,
            None => 0,
        };
        if column.is_none_or(|(i, _)| i != index) {
            column = Some((index, b.x0));
        }
        keyed.push(((index, b.y0), g));
    }
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, g)| g).collect()
}

/// The grid the page pass found, read within the frames of its cells when it lies
/// (mostly) over a framed grid: the frames are the grid as drawn. Each column is its cells'
/// inside (a leading `1` the page pass missed, left of the column it saw, is read with
/// the rest), and a row or column the page pass missed is added. The page pass's
/// readings and digit measures stay with the rows and columns they were seen in; those
/// of a column that is none of the frame's (a stray word beside the grid taken for a
/// column) go.
pub fn fitted(grid: Grid, framed: &[CellGrid]) -> Grid {
    let g = grid.bounds();
    // The frame over most of the grid, and over all its rows: a row outside it is a row
    // whose frame was not found, and the page pass's grid stays.
    let Some(frame) = framed.iter().find(|f| {
        let b = f.bounds();
        let reach = f.pitch() / 2.0;
        2 * grid::overlap(&b, &g) > grid::area(&g)
            && grid.rows.iter().all(|r| r.cy() >= b.y0 as f32 - reach && r.cy() <= b.y1 as f32 + reach)
    }) else {
        return grid;
    };
    let mut out = frame.to_grid_with(grid.digit_height);
    let row_of = |r: &GridRow| {
        frame.rows.iter().position(|cells| cells[0].y0 as f32 <= r.cy() && r.cy() <= cells[0].y1 as f32)
    };
    let column_of = |c: &(i32, i32)| {
        let cx = (c.0 + c.1) / 2;
        frame.rows[0].iter().position(|cell| cell.x0 <= cx && cx <= cell.x1)
    };
    // Each frame row or column taken by one of the page pass's, or by none.
    let unique = |v: Vec<Option<usize>>| -> Vec<Option<usize>> {
        v.iter().map(|i| i.filter(|i| v.iter().filter(|o| **o == Some(*i)).count() == 1)).collect()
    };
    // Rows must all be the frame's, each its own: a grid of frames that lost a row (its
    // edges blurred into the next one's) would move the page pass's readings up a row.
    let rows: Vec<Option<usize>> = unique(grid.rows.iter().map(row_of).collect());
    if rows.iter().any(Option::is_none) {
        return grid;
    }
    let columns = unique(grid.columns.iter().map(column_of).collect());
    let half = grid.digit_height / 2.0;
    for r in &mut out.rows {
        // Rows the page pass did not see: the digits' height around the cells' middle.
        let cy = (r.top + r.bottom) as f32 / 2.0;
        r.top = (cy - half) as i32;
        r.bottom = (cy + half) as i32;
        r.boxes.clear();
    }
    for (row, fr) in grid.rows.into_iter().zip(rows) {
        let Some(fr) = fr else { continue };
        let target = &mut out.rows[fr];
        target.top = row.top;
        target.bottom = row.bottom;
        target.boxes = row.boxes;
        for (text, fc) in row.page_text.into_iter().zip(&columns) {
            if let Some(fc) = *fc {
                target.page_text[fc] = text;
            }
        }
    }
    // A column the page pass saw is read where it saw the digits, with room on the left
    // for a leading digit it missed, within the cell: a crop of the whole cell holds a
    // long stretch of bar and blank that Tesseract reads less surely.
    let h = grid.digit_height;
    for (&(c0, c1), fc) in grid.columns.iter().zip(&columns) {
        let Some(fc) = *fc else { continue };
        let (inside0, inside1) = frame.column_inside(fc);
        // Where `Grid::cell_rect_of` would read the page pass's column on the right, more
        // on the left, cut to the cell.
        let (_, seen1) = grid::column_span(c0, c1, h);
        let (left, right) = (inside0.max(c0 - (LEADING_DIGIT_ROOM * h) as i32), inside1.min(seen1));
        let (x0, x1) = grid::column_reading(left, right, h);
        if x0 < x1 {
            out.columns[fc] = (x0, x1);
        }
    }
    out.right_aligned = grid.right_aligned;
    out
}

/// Room left of a column the page pass saw, in digit heights: a leading `1` it missed
/// and the gap before it, with a margin Tesseract needs to read it.
const LEADING_DIGIT_ROOM: f32 = 1.5;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus;
    use crate::degrade::{self, Kind, Rng};

    fn corpus() -> (std::path::PathBuf, corpus::Labels) {
        let dir = corpus::shared_dir().expect("the shared corpus").join("corpus/screenshots");
        let labels = corpus::load(&dir).unwrap();
        (dir, labels)
    }

    fn window(dir: &std::path::Path, file: &str) -> RgbImage {
        degrade::decode_screenshot(&std::fs::read(dir.join(file)).unwrap()).unwrap()
    }

    /// Corpus windows `first` and `second` put edge to edge (`degrade::Kind::Touching`),
    /// and the image made.
    fn edge_to_edge(dir: &std::path::Path, first: &str, second: &str) -> (degrade::Degraded, RgbImage) {
        let (a, b) = (window(dir, first), window(dir, second));
        let made = degrade::degrade(&a, Some(&b), Kind::Touching, &mut Rng::for_image(first, Kind::Touching));
        let img = degrade::decode_screenshot(&made.bytes).unwrap();
        (made, img)
    }

    #[test]
    fn every_crystaldiskmark_window_of_the_corpus_has_one_framed_grid_of_its_rows_and_columns() {
        let (dir, labels) = corpus();
        let mut checked = 0;
        for img in labels.images.iter().filter(|i| i.tool == "CrystalDiskMark") {
            let grids = cell_grids(&window(&dir, &img.file));
            assert_eq!(grids.len(), 1, "{}: {grids:?}", img.file);
            let columns = img.rows[0].texts().len();
            assert_eq!(grids[0].rows.len(), img.rows.len(), "{}: {grids:?}", img.file);
            assert!(grids[0].rows.iter().all(|r| r.len() == columns), "{}: {grids:?}", img.file);
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} CrystalDiskMark windows in the corpus");
        // KDiskMark draws its values without frames: none is made up there.
        for img in labels.images.iter().filter(|i| i.tool == "KDiskMark") {
            assert!(cell_grids(&window(&dir, &img.file)).is_empty(), "{}", img.file);
        }
    }

    #[test]
    fn windows_edge_to_edge_are_two_grids_each_inside_its_window() {
        let (dir, labels) = corpus();
        let cdm: Vec<_> = labels.images.iter().filter(|i| i.tool == "CrystalDiskMark").collect();
        let (mut side_by_side, mut stacked) = (0, 0);
        for pair in cdm.windows(2) {
            let (made, img) = edge_to_edge(&dir, &pair[0].file, &pair[1].file);
            let grids = cell_grids(&img);
            assert_eq!(grids.len(), 2, "{} and {} [{}]: {grids:?}", pair[0].file, pair[1].file, made.recipe);
            for placed in &made.windows {
                let inside: Vec<Rect> =
                    grids.iter().map(CellGrid::bounds).filter(|g| placed.contains(g)).collect();
                assert_eq!(inside.len(), 1, "[{}] {placed:?}: {grids:?}", made.recipe);
                // The region read for it stays inside that window's side of the seam.
                let grid = grids.iter().find(|g| g.bounds() == inside[0]).unwrap();
                let region = grid.window_region(&grids).clip(img.width(), img.height());
                let others = made.windows.iter().filter(|w| *w != placed);
                for other in others {
                    let theirs: Vec<Rect> =
                        grids.iter().map(CellGrid::bounds).filter(|g| other.contains(g)).collect();
                    assert!(
                        grid::overlap(&region, &theirs[0]) == 0,
                        "[{}] {region:?} over {theirs:?}",
                        made.recipe
                    );
                }
            }
            if made.recipe.contains("side by side") {
                side_by_side += 1;
            } else {
                stacked += 1;
            }
        }
        assert!(side_by_side > 0 && stacked > 0, "{side_by_side} side by side, {stacked} stacked");
    }

    /// A JPEG's smear moves a frame's top edge by a few pixels, so one row's cells are
    /// found at different tops: each row of the grid is still its cells left to right
    /// (before: ordered by top, a row whose Write cell's top was found higher put it
    /// first, and the grid read the Write column as the Read one: real set 03 and 27,
    /// CrystalDiskMark 3, saved again at JPEG quality 75, lost every row label).
    #[test]
    fn a_row_whose_cells_tops_differ_by_a_few_pixels_stays_left_to_right() {
        let mut img = RgbImage::from_pixel(420, 300, image::Rgb([255, 255, 255]));
        let mut frame = |x0: u32, y0: u32| {
            for x in x0..x0 + 150 {
                for y in [y0, y0 + 46] {
                    img.put_pixel(x, y, image::Rgb([160, 160, 160]));
                }
            }
            for y in y0..=y0 + 46 {
                for x in [x0, x0 + 149] {
                    img.put_pixel(x, y, image::Rgb([160, 160, 160]));
                }
            }
        };
        for (row, y0) in [20, 72, 124, 176].into_iter().enumerate() {
            // The last row's Write cell found 4 px higher than its Read cell.
            let shift = if row == 3 { 4 } else { 0 };
            frame(40, y0);
            frame(200, y0 - shift);
        }
        let grids = cell_grids(&img);
        assert_eq!(grids.len(), 1, "{grids:?}");
        assert_eq!(grids[0].rows.len(), 4, "{grids:?}");
        for row in &grids[0].rows {
            assert_eq!(row.len(), 2, "{grids:?}");
            assert!(row[0].x1 < row[1].x0, "{row:?}");
        }
    }

    /// Two windows edge to edge, shrunk and saved as JPEG as forums and blogs do: the
    /// blur joins each window's rows of frames into long edges, whose rectangles must
    /// not make a grid of their own around both windows.
    #[test]
    fn downscaled_jpeg_windows_edge_to_edge_are_still_two_grids() {
        let (dir, labels) = corpus();
        let cdm: Vec<_> = labels.images.iter().filter(|i| i.tool == "CrystalDiskMark").collect();
        let mut checked = 0;
        for pair in cdm.windows(2) {
            let (made, img) = edge_to_edge(&dir, &pair[0].file, &pair[1].file);
            // Scales where the frames are still found (at half size many are not), each
            // of which made a grid around two windows before value cells were kept
            // apart from rectangles around them.
            for (scale, quality) in [(0.55, 75), (0.58, 85), (0.6, 75), (0.65, 90), (0.7, 50)] {
                let (w, h) = ((img.width() as f32 * scale) as u32, (img.height() as f32 * scale) as u32);
                let small = image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle);
                let jpeg = degrade::decode_screenshot(&degrade::encode_jpeg(&small, quality)).unwrap();
                let grids = cell_grids(&jpeg);
                let what = format!(
                    "{} and {} [{}] at {scale}, JPEG {quality}",
                    pair[0].file, pair[1].file, made.recipe
                );
                assert!(grids.len() <= 2, "{what}: {grids:?}");
                for g in &grids {
                    let b = g.bounds();
                    let placed = made.windows.iter().map(|w| Rect {
                        x0: (w.x0 as f32 * scale) as i32 - SLACK,
                        y0: (w.y0 as f32 * scale) as i32 - SLACK,
                        x1: (w.x1 as f32 * scale) as i32 + SLACK,
                        y1: (w.y1 as f32 * scale) as i32 + SLACK,
                    });
                    assert_eq!(
                        placed.filter(|w| w.contains(&b)).count(),
                        1,
                        "{what}: {b:?} is in no one window"
                    );
                }
                checked += grids.len();
            }
        }
        assert!(checked >= cdm.len(), "only {checked} grids found in {} pairs", cdm.len() - 1);
    }
}
