//! The pipeline after decoding: page pass, grid, cells, labels, settings, result.

use crate::engine::{self, Threshold, Word};
use crate::frames;
use crate::grid::{self, Grid, Rect};
use crate::labels::{self, RowKind};
use crate::locate;
use crate::numbers;
use crate::read;
use crate::settings;
use crate::{CellReading, Job, Layout, OcrError, Readings, Recognition, RowReading, Settings};
use bench::parse::rescale;
use bench::{Access, BenchResult, Metric, Op, Tool, ToolFamily};
use image::imageops::{self, FilterType};
use image::RgbImage;

/// The page pass runs on at most this many pixels (a 4K desktop is scaled down):
/// enough to find a window's grid, and the cells are re-read at full resolution.
const PAGE_PIXELS: f32 = 2_400_000.0;
/// Value digit height of a CrystalDiskMark 8 window at 100 % scaling.
const CDM8_DIGIT_HEIGHT: f32 = 22.0;
/// A grid whose digits are more than this many times CrystalDiskMark 8's height is read
/// again scaled down (`with_large_digits_scaled`).
const LARGE_DIGITS: f32 = 1.5;
/// Rows of every supported window are 2.1–2.7 digit heights apart; a grid whose rows are
/// further apart than this is every other (or every third) row of one.
const DOUBLED_PITCH: f32 = 3.4;
/// A window's row pitch in digit heights, the middle of that range: how many rows a
/// grid's wider pitch spans.
const ROW_PITCH: f32 = 2.4;
/// From this confidence on a value is presented as certain (the review table's threshold,
/// `corpus::CONFIDENT`).
const CERTAIN: f32 = crate::corpus::CONFIDENT;
/// The scale, relative to the usual one, of the reading that confirms a certain value
/// (smaller: at 0.7 it catches the misreadings the corpus shows and flags fewest right
/// values; at 1.5 it flagged 17 right values of the originals more).
const CHECK_SCALE: f32 = 0.7;
/// The most a value read only once may claim (under the review table's 0.9).
const UNCONFIRMED_CONFIDENCE: f32 = 0.85;
/// A row label guessed from the window's preset rather than read (`labels::guess_from_presets`).
const GUESSED_LABEL_CONFIDENCE: f32 = 0.5;
/// Digits and every mark a locale puts in a value (`1'816.90`); spaces come between words.
const NUMBER_CHARS: &str = "0123456789.,'";
const LABEL_CHARS: &str = "SEQRNDKMQTIOPeqsuμµ()0123456789";

/// Up to this size (a window at 100 % is about 0.25–0.7 MP) a page pass that found no
/// grid is tried again at twice the size.
const SMALL_WINDOW_PIXELS: u32 = 400_000;
/// More benchmark windows than anyone posts in one screenshot.
const MAX_WINDOWS: usize = 4;
/// A window whose surroundings are less than this share of the image is read in place;
/// a smaller one (a desktop capture) is cut out and read again on its own.
const WINDOW_SHARE_READ_IN_PLACE: f32 = 0.6;

fn no_grid() -> OcrError {
    OcrError::NoBenchmarkWindow {
        detail: "no grid of result values (rows of numbers in two or three columns) was found".into(),
    }
}

/// Every benchmark window in the image, left to right (top to bottom for ties): a
/// screenshot of one window, a desktop holding one, or several side by side. Each window
/// found is cut out with its surroundings (title, settings, row buttons) and read as a
/// screenshot of its own, so the title and settings searches see only that window.
///
/// Where the image holds several framed grids (`frames`: exact, and two windows edge to
/// edge are two grids of cells), windows are found first by them, then among the
/// window-like patches of pixels (`locate`) outside them (a window that draws no frames:
/// KDiskMark's); when that reads nothing, and where there is one framed grid or none, by
/// the patches and the whole image, with the framed grids no reading covers added.
pub fn recognize_windows(rgb: &RgbImage, job: &mut Job) -> Result<Readings, OcrError> {
    job.stage(0.02, "looking for benchmark windows");
    let grids = frames::cell_grids(rgb);
    let regions: Vec<Region> = grids.iter().map(|g| Region::around(g, &grids, rgb)).collect();
    // One window is read as the image, or as the patch of the desktop it makes: its
    // region guessed from the grid would cut its settings and title more often (on the
    // degraded corpus's desktops, 18 of 184 settings fewer read, and fewer values
    // certain); the frames add what that missed.
    if regions.len() <= 1 {
        let readings = windows_from_patches(rgb, &grids, job)?;
        return with_framed_windows(rgb, &grids, readings, job);
    }
    let mut found = read_regions(rgb, &regions, (0.05, 0.6), "window", Look::Thorough, job)?;
    let outside: Vec<Region> = locate::candidates(rgb)
        .into_iter()
        .filter(|p| {
            !regions.iter().any(|Region { rect: r, .. }| {
                let common = 2 * grid::overlap(r, p);
                common > grid::area(p) || common > grid::area(r)
            })
        })
        .map(|rect| Region { rect, frame: None })
        .collect();
    for r in read_regions(rgb, &outside, (0.6, 0.9), "part", Look::Quick, job)? {
        push_unless_read(&mut found, r);
    }
    if found.iter().any(|r| crate::window_read(r).is_some()) {
        return Ok(without_stray_grids(found));
    }
    // The share done goes on from where the framed windows left it.
    let readings = job.part(0.9, 0.95, "", |job| windows_from_patches(rgb, &grids, job))?;
    with_framed_windows(rgb, &grids, readings, job)
}

/// A part of the image to read as a screenshot of its own, and the bounds of the framed
/// grid (`frames`) it was cut around, if any.
struct Region {
    rect: Rect,
    frame: Option<Rect>,
}

impl Region {
    /// The window region of the framed grid `g` among the image's `grids`.
    fn around(g: &frames::CellGrid, grids: &[frames::CellGrid], rgb: &RgbImage) -> Region {
        Region { rect: g.window_region(grids).clip(rgb.width(), rgb.height()), frame: Some(g.bounds()) }
    }
}

/// Reads each region of the image as a screenshot of its own (its windows, moved back
/// into the image), with the share done going from `span.0` to `span.1`; regions that
/// hold no window give no reading.
///
/// Once a region without a frame held a window found at the image's own scale, the
/// regions without a frame after it are not read at other scales (`Look::AtScale`): a
/// screenshot's windows share its scale, so the passes for digits shown at half size or
/// CrystalDiskMark 3-6's tall ones find no window there either, and on a patch that holds
/// none (a document, a wallpaper) they would cost two page passes more, one of them at
/// four times the pixels. Themes differ between windows (a dark KDiskMark beside a light
/// one), so the passes for colours stay, where the first passes read digits at all. A
/// framed region holds a window and always gets `look`.
///
/// A region without a frame that holds a grid read already and lies mostly in a region
/// that held a window is that window again (`locate` cut the window's patch in two
/// overlapping pieces) and is not read.
fn read_regions(
    rgb: &RgbImage,
    regions: &[Region],
    span: (f64, f64),
    what: &str,
    look: Look,
    job: &mut Job,
) -> Result<Readings, OcrError> {
    let mut unframed_look = look;
    let mut held_windows: Vec<Rect> = Vec::new();
    let mut out: Readings = Vec::new();
    let n = regions.len();
    for (i, Region { rect: region, frame }) in regions.iter().enumerate() {
        let region = *region;
        let read_before = |r: &Result<Recognition, OcrError>| {
            crate::window_read(r).is_some_and(|w| region.contains(&w.layout.grid))
        };
        if frame.is_none()
            && out.iter().any(read_before)
            && held_windows.iter().any(|h| 2 * grid::overlap(h, &region) > grid::area(&region))
        {
            continue;
        }
        let at = |k: usize| span.0 + (span.1 - span.0) * k as f64 / n as f64;
        let started = std::time::Instant::now();
        let name = if n == 1 { String::new() } else { format!("{what} {} of {n}", i + 1) };
        // The frame's bounds in the region's own pixels.
        let frame = frame.map(|f| f.moved(-region.x0, -region.y0));
        let look = if frame.is_some() { look } else { unframed_look };
        let reading =
            job.part(at(i), at(i + 1), &name, |job| windows_in(&cut(rgb, region), None, frame, look, job));
        if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some()
            || std::env::var_os("SSDBASE_OCR_TIMES").is_some()
        {
            eprintln!("{what} {region:?} read in {:.2} s", started.elapsed().as_secs_f64());
        }
        match reading {
            Ok((rs, at_scale)) => {
                if frame.is_none() && rs.iter().any(|r| crate::window_read(r).is_some()) {
                    held_windows.push(region);
                    if at_scale {
                        unframed_look = unframed_look.min(Look::AtScale);
                    }
                }
                for r in rs {
                    push_unless_read(&mut out, shift_reading(r, region.x0, region.y0));
                }
            }
            Err(e @ OcrError::DeadlineExceeded { .. }) => return Err(e),
            Err(e) if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() => {
                eprintln!("{what} {region:?}: {e}")
            }
            Err(_) => {}
        }
    }
    Ok(out)
}

/// Adds the windows whose framed cells (`frames`) no reading covers: a window edge to
/// edge with another, which the patches and the page pass took for one, or whose digits
/// the page pass did not see as numbers. Each is read from the region its grid implies.
fn with_framed_windows(
    rgb: &RgbImage,
    grids: &[frames::CellGrid],
    readings: Readings,
    job: &mut Job,
) -> Result<Readings, OcrError> {
    let read_grids: Vec<Rect> =
        readings.iter().filter_map(|r| crate::window_read(r).map(|r| r.layout.grid)).collect();
    let image_area = grid::area(&Rect { x0: 0, y0: 0, x1: rgb.width() as i32, y1: rgb.height() as i32 });
    let regions: Vec<Region> = grids
        .iter()
        .filter(|g| {
            let b = g.bounds();
            !read_grids.iter().any(|r| 2 * grid::overlap(r, &b) > grid::area(&b))
        })
        .map(|g| Region::around(g, grids, rgb))
        // A window that is most of the image was read as the image already: reading it
        // again from its region would give the same answer.
        .filter(|r| (grid::area(&r.rect) as f32) < WINDOW_SHARE_READ_IN_PLACE * image_area as f32)
        .collect();
    if regions.is_empty() {
        return Ok(readings);
    }
    let (mut out, unread): (Readings, Readings) =
        readings.into_iter().partition(|r| crate::window_read(r).is_some());
    for r in read_regions(rgb, &regions, (0.95, 1.0), "framed window", Look::Thorough, job)? {
        push_unless_read(&mut out, r);
    }
    // Nothing read there either: the first readings' errors say why.
    if !out.iter().any(|r| crate::window_read(r).is_some()) {
        return Ok(unread);
    }
    Ok(without_stray_grids(out))
}

/// The windows found by reading the window-like patches of the image (`locate`), or the
/// whole image (whose framed grids are `framed`) when none holds one.
fn windows_from_patches(
    rgb: &RgbImage,
    framed: &[frames::CellGrid],
    job: &mut Job,
) -> Result<Readings, OcrError> {
    // A larger image: read the window-like patches found from pixels first; the whole
    // image only when none of them holds a result grid.
    let patches = locate::candidates(rgb);
    if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
        eprintln!("window candidates: {patches:?}");
    }
    // Patches take the share done to 0.6; the rest is for reading the whole image when
    // none of them held a window.
    let regions: Vec<Region> = patches.iter().map(|&rect| Region { rect, frame: None }).collect();
    let found = read_regions(rgb, &regions, (0.1, 0.6), "part", Look::Thorough, job)?;
    // Every reading comes from a grid found there, even one that says no test ran. When
    // no patch held a window that reads (a cut through another program's window beside
    // it), the whole image is read as well and the better answer kept.
    if found.iter().any(|r| crate::window_read(r).is_some()) {
        return Ok(without_stray_grids(found));
    }
    let from = if patches.is_empty() { 0.1 } else { 0.6 };
    job.stage(from, "reading the whole image");
    match job
        .part(from, 0.95, "", |job| windows_in(rgb, Some(framed), None, Look::Thorough, job).map(|(r, _)| r))
    {
        Ok(whole) if whole.iter().any(|r| crate::window_read(r).is_some()) || found.is_empty() => {
            Ok(without_stray_grids(whole))
        }
        Err(e @ OcrError::DeadlineExceeded { .. }) => Err(e),
        Err(e) if found.is_empty() => Err(e),
        _ => Ok(without_stray_grids(found)),
    }
}

/// Drops the grids that were no benchmark window (no row label on any row: a table of
/// SMART attributes in a CrystalDiskInfo window beside the benchmark) once a window was
/// read: they are not what the person posted, and an error beside their result would
/// only confuse. Alone, such an error says why nothing was read, and stays.
fn without_stray_grids(readings: Readings) -> Readings {
    if !readings.iter().any(|r| crate::window_read(r).is_some()) {
        return readings;
    }
    readings.into_iter().filter(|r| !matches!(r, Err(OcrError::NoBenchmarkWindow { .. }))).collect()
}

fn cut(rgb: &RgbImage, r: Rect) -> RgbImage {
    imageops::crop_imm(rgb, r.x0 as u32, r.y0 as u32, r.width() as u32, r.height() as u32).to_image()
}

fn shift_reading(r: Result<Recognition, OcrError>, dx: i32, dy: i32) -> Result<Recognition, OcrError> {
    match r {
        Ok(r) => Ok(shift(r, dx, dy)),
        Err(OcrError::NoTestRan { recognition }) => {
            Err(OcrError::NoTestRan { recognition: Box::new(shift(*recognition, dx, dy)) })
        }
        Err(e) => Err(e),
    }
}

/// How hard `windows_in` looks for a grid that its first page pass does not find.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Look {
    /// The first pass only: a part of the image beside the framed windows, which is
    /// rarely a benchmark window (a CrystalDiskInfo window, a document) and would cost
    /// five page passes more to give up on.
    Quick,
    /// Every pass but those at another scale (digits shown at half size, CrystalDiskMark
    /// 3-6's tall ones), and the colour passes only where the first passes read digits:
    /// a part of an image whose scale a window read already showed.
    AtScale,
    /// Every pass that finds a kind of window (small, smeared, tall digits, framed).
    Thorough,
}

/// The windows in an image that is (mostly) windows: grids from one page pass. `known`
/// are the image's framed grids when the caller found them already; else they are found
/// here once, when first needed. `frame` is the framed grid the image was cut around
/// (`Region`): its window is the one page-pass grid over it. With the readings, whether
/// their grids were found at the image's own scale (not by the passes at another).
fn windows_in(
    rgb: &RgbImage,
    known: Option<&[frames::CellGrid]>,
    frame: Option<Rect>,
    look: Look,
    job: &mut Job,
) -> Result<(Readings, bool), OcrError> {
    let found = std::cell::OnceCell::new();
    let framed = || known.unwrap_or_else(|| found.get_or_init(|| frames::cell_grids(rgb)).as_slice());
    let find = |words: &[Word]| over_frame(grid::find_all(words, MAX_WINDOWS), frame);
    job.stage(0.15, "finding the result grid");
    let mut words = page_words(rgb, Threshold::Global)?;
    let mut grids = find(&words);
    if look != Look::Quick && grids.iter().all(|g| g.seen_cells() * 2 < g.cells()) {
        // A window on a dark or busy desktop: one threshold for the whole image blanks it,
        // or merges its bars and digits into blobs that leave half the grid unseen.
        let local = page_words(rgb, Threshold::Local)?;
        let local_grids = find(&local);
        if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
            let shape = |gs: &[Grid]| {
                gs.iter().map(|g| (g.rows.len(), g.columns.len(), g.seen_cells())).collect::<Vec<_>>()
            };
            eprintln!("global grids {:?}, local grids {:?}", shape(&grids), shape(&local_grids));
        }
        if seen_cells(&local_grids) > seen_cells(&grids) {
            (words, grids) = (local, local_grids);
        }
    }
    (words, grids) = with_large_digits_scaled(rgb, words, grids, find)?;
    if grids.is_empty() && look == Look::Quick {
        return Err(no_grid());
    }
    let mut at_scale = true;
    if grids.is_empty() && look == Look::Thorough && rgb.width() * rgb.height() <= SMALL_WINDOW_PIXELS {
        // A window shown at half size or less: its digits are too small for the page
        // pass to find, read twice as large (cells are re-read at their own scale).
        words = page_words_at(rgb, Threshold::Global, 2.0)?;
        grids = find(&words);
        at_scale = grids.is_empty();
    }
    // At a scale where the image's windows are read, a part whose passes read almost no
    // digit holds none: every window prints digits beside its values, on each of its
    // (at least four) row buttons (`SEQ1M Q8T1`), which that scale reads. A document or
    // a wallpaper is given up on here instead of after two more page passes.
    let digit_words = words.iter().filter(|w| w.text.chars().any(|c| c.is_ascii_digit())).count();
    if grids.is_empty() && look == Look::AtScale && digit_words < grid::MIN_ROWS {
        return Err(no_grid());
    }
    if grids.is_empty() {
        // Digits whose bar edges were smeared (a recompressed JPEG's subsampled colour, a
        // blur): a threshold on brightness joins white digits with a light blue bar. The
        // digits are achromatic and the bars coloured, so the page is read again on the
        // channel that separates them, as the cells are (`read::binarize`).
        for polarity in [read::Polarity::LightText, read::Polarity::DarkText] {
            let channel = page_words(&read::glyph_channel(rgb, polarity), Threshold::Global)?;
            let channel_grids = find(&channel);
            if seen_cells(&channel_grids) > seen_cells(&grids) {
                (words, grids) = (channel, channel_grids);
            }
            // A grid seen whole on one channel (white digits: a dark theme's) leaves the
            // other nothing to add, and its page pass cost as much again.
            if !grids.is_empty() && grids.iter().all(|g| g.seen_cells() == g.cells()) {
                break;
            }
        }
    }
    if grids.is_empty() && look == Look::Thorough {
        // Digits so tall that the page pass glues them to their row buttons
        // (CrystalDiskMark 3-6, `with_large_digits_scaled`): read at two thirds.
        words = page_words_at(rgb, Threshold::Global, 1.0 / LARGE_DIGITS)?;
        grids = find(&words);
        at_scale = grids.is_empty();
    }
    if grids.is_empty() {
        // Digits the page pass sees as no number in any of its passes (as tall as their
        // cells, on a bar in a flat theme): the grid is taken from the cells' frames, and
        // each value read from its cell.
        if let [only] = framed() {
            return Ok((vec![read_window(rgb, &words, only.to_grid(), framed(), job)], at_scale));
        }
        return Err(no_grid());
    }
    if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
        eprintln!(
            "grids at {:?}",
            grids.iter().map(|g| (g.bounds(), g.columns.clone(), g.digit_height)).collect::<Vec<_>>()
        );
    }
    let image_rect = Rect { x0: 0, y0: 0, x1: rgb.width() as i32, y1: rgb.height() as i32 };
    let boxes: Vec<Rect> = grids.iter().map(Grid::bounds).collect();
    let mut regions: Vec<(Rect, Grid)> = grids
        .into_iter()
        .enumerate()
        .map(|(i, g)| (window_region(&g, &words, &boxes, i).clip(rgb.width(), rgb.height()), g))
        .collect();
    regions.sort_by_key(|(r, _)| (r.x0, r.y0));
    if regions.len() == 1 {
        let (region, grid) = regions.pop().expect("one region");
        let share =
            (region.width() * region.height()) as f32 / (image_rect.width() * image_rect.height()) as f32;
        if share >= WINDOW_SHARE_READ_IN_PLACE {
            return Ok((vec![read_window(rgb, &words, grid, framed(), job)], at_scale));
        }
        regions.push((region, grid));
    }
    let mut out = Vec::new();
    let n = regions.len();
    for (i, (region, grid)) in regions.into_iter().enumerate() {
        let (lo, hi) = (0.3 + 0.7 * i as f64 / n as f64, 0.3 + 0.7 * (i + 1) as f64 / n as f64);
        let reading = job.part(lo, hi, &format!("window {} of {n}", i + 1), |job| {
            match recognize_rgb(&cut(rgb, region), job) {
                // A region guessed too tight: read the window in place instead.
                Err(OcrError::NoBenchmarkWindow { .. }) => read_window(rgb, &words, grid, framed(), job),
                r => shift_reading(r, region.x0, region.y0),
            }
        });
        push_unless_read(&mut out, reading);
    }
    Ok((out, at_scale))
}

/// The page-pass grids of an image cut around a framed grid (`frame`): the one over the
/// frame that saw most cells. Elsewhere in the cut there is no other window (the region
/// stops short of every other framed grid): a grid there is a wallpaper's pattern or a
/// title read as numbers, and a second grid over the frame is the same window's rows
/// seen apart (the frame gives the read grid all its rows, `frames::fitted`). Without a
/// frame, every grid.
fn over_frame(grids: Vec<Grid>, frame: Option<Rect>) -> Vec<Grid> {
    let Some(f) = frame else { return grids };
    grids
        .into_iter()
        .filter(|g| {
            let b = g.bounds();
            2 * grid::overlap(&b, &f) > grid::area(&b)
        })
        .max_by_key(Grid::seen_cells)
        .into_iter()
        .collect()
}

/// Cells the page pass read a number in, over all `grids`: the measure by which one
/// page pass is preferred to another.
fn seen_cells(grids: &[Grid]) -> usize {
    grids.iter().map(Grid::seen_cells).sum()
}

/// CrystalDiskMark 3-6 draw values about twice as tall as 7-9 (40 px at 100 %):
/// Tesseract's page pass then glues a value to its row button and loses rows, or finds
/// no grid at all. A page with a tall grid not seen whole, or tall numbers and no grid,
/// is read again with its digits at 7-9's height, and that pass is kept only if it sees
/// more cells.
fn with_large_digits_scaled(
    rgb: &RgbImage,
    words: Vec<Word>,
    grids: Vec<Grid>,
    find: impl Fn(&[Word]) -> Vec<Grid>,
) -> Result<(Vec<Word>, Vec<Grid>), OcrError> {
    let tall = if grids.is_empty() {
        grid::number_height(&words).unwrap_or(0.0)
    } else {
        grids.iter().map(|g| g.digit_height).fold(0.0, f32::max)
    };
    // Every window has four rows or more: a grid with fewer, or with cells unseen, was
    // not seen whole. One seen whole (a CrystalDiskMark 8 window at 200 %) keeps its pass.
    let whole = |g: &Grid| g.rows.len() >= grid::MIN_ROWS && g.seen_cells() == g.cells();
    if tall <= LARGE_DIGITS * CDM8_DIGIT_HEIGHT || !grids.is_empty() && grids.iter().all(whole) {
        return Ok((words, grids));
    }
    let scaled = page_words_at(rgb, Threshold::Global, CDM8_DIGIT_HEIGHT / tall)?;
    let scaled_grids = find(&scaled);
    Ok(if seen_cells(&scaled_grids) > seen_cells(&grids) { (scaled, scaled_grids) } else { (words, grids) })
}

/// Adds a reading unless its grid was read already: a grid the page pass saw as two
/// (rows 1–2 and 3–4 of one window) is read whole from each half's region, and a window
/// may lie in two overlapping patches; once is enough.
fn push_unless_read(out: &mut Readings, reading: Result<Recognition, OcrError>) {
    let grid_of = |r| crate::window_read(r).map(|r| r.layout.grid);
    let read_before = grid_of(&reading).is_some_and(|g| {
        out.iter().filter_map(grid_of).any(|o| 2 * grid::overlap(&g, &o) > grid::area(&g).min(grid::area(&o)))
    });
    if !read_before {
        out.push(reading);
    }
}

/// Where a window probably is around its grid: the row buttons to the left, title bar,
/// menu, settings and column headers above (about six rows' pitch), a status line below;
/// never reaching into another window's grid.
fn window_region(grid: &Grid, words: &[Word], others: &[Rect], me: usize) -> Rect {
    let g = grid.bounds();
    let h = grid.digit_height;
    let labels_left = grid.label_rects(words).iter().flatten().map(|r| r.x0).min();
    let mut region = Rect {
        x0: labels_left.map_or(g.x0 - (8.0 * h) as i32, |x| x - (1.5 * h) as i32),
        x1: g.x1 + (2.0 * h) as i32,
        y0: g.y0 - (7.0 * grid.pitch) as i32,
        y1: g.y1 + (2.5 * grid.pitch) as i32,
    };
    for (i, o) in others.iter().enumerate() {
        let same_band = o.y1 > region.y0 && o.y0 < region.y1;
        if i == me || !same_band {
            continue;
        }
        if o.x1 <= g.x0 {
            region.x0 = region.x0.max(o.x1 + (0.5 * h) as i32);
        } else if o.x0 >= g.x1 {
            region.x1 = region.x1.min(o.x0 - (0.5 * h) as i32);
        }
    }
    region
}

/// Moves every position in a reading of a cut-out window back into the whole image.
fn shift(mut r: Recognition, dx: i32, dy: i32) -> Recognition {
    r.layout.grid = r.layout.grid.moved(dx, dy);
    for row in &mut r.rows {
        for c in &mut row.cells {
            c.rect = c.rect.moved(dx, dy);
        }
    }
    r
}

/// One window: the best grid in the page.
pub fn recognize_rgb(rgb: &RgbImage, job: &mut Job) -> Result<Recognition, OcrError> {
    job.stage(0.15, "finding the result grid");
    let words = page_words(rgb, Threshold::Global)?;
    let grids = grid::find(&words).into_iter().collect();
    let (words, grids) =
        with_large_digits_scaled(rgb, words, grids, |w| grid::find(w).into_iter().collect())?;
    let grid = grids.into_iter().next().ok_or_else(no_grid)?;
    read_window(rgb, &words, grid, &frames::cell_grids(rgb), job)
}

/// Reads the window around `grid`: values, row buttons, title, settings. `framed` are the
/// image's framed grids: a page-pass grid over one is read within its frames.
///
/// A window where no row label is read is read again with its first column starting
/// where most of its values do, when one value started far left of the others: the page
/// pass glued that value to its row button (CrystalDiskMark 3-6, whose cells nearly
/// touch their buttons, in a recompressed JPEG whose smear fills the gap between them),
/// and the column stretched over the buttons hid their text.
fn read_window(
    rgb: &RgbImage,
    words: &[Word],
    grid: Grid,
    framed: &[frames::CellGrid],
    job: &mut Job,
) -> Result<Recognition, OcrError> {
    let narrowed = grid.first_column_where_most_values_start();
    match (read_window_as_found(rgb, words, grid, framed, job), narrowed) {
        (Err(OcrError::NoBenchmarkWindow { .. }), Some(grid)) => {
            read_window_as_found(rgb, words, grid, framed, job)
        }
        (reading, _) => reading,
    }
}

fn read_window_as_found(
    rgb: &RgbImage,
    words: &[Word],
    mut grid: Grid,
    framed: &[frames::CellGrid],
    job: &mut Job,
) -> Result<Recognition, OcrError> {
    job.stage(0.4, "reading the values");
    let gray = rgb;
    grid.refine_rows(|b| read::ink_extent(gray, b));
    if !grid.framed {
        // After the digits' height is measured: the columns are fitted with it.
        grid = frames::fitted(grid, framed);
    }
    if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
        eprintln!("window grid columns {:?}, digit height {}", grid.columns, grid.digit_height);
    }
    probe_rows(gray, words, &mut grid)?;

    // Values.
    let mut cells: Vec<Vec<CellReading>> = Vec::new();
    let mut candidates: Vec<Vec<Vec<Candidate>>> = Vec::new();
    let mut rects: Vec<Vec<Rect>> = Vec::new();
    for (ri, row) in grid.rows.iter().enumerate() {
        let mut row_cands = Vec::new();
        let mut row_rects = Vec::new();
        for ci in 0..grid.columns.len() {
            let (rect, readings) = read_cell(gray, &grid, ri, ci)?;
            row_rects.push(rect);
            let mut cands: Vec<Candidate> = readings
                .into_iter()
                .map(|r| Candidate {
                    text: numbers::value_part(&r.text).to_string(),
                    conf: r.conf,
                    page: false,
                })
                .collect();
            if let Some(t) = &row.page_text[ci] {
                let t = grid::trim_number(t).to_string();
                let conf = page_conf(words, row, &grid, ci);
                cands.push(Candidate { text: t, conf, page: true });
            }
            if std::env::var_os("SSDBASE_OCR_DEBUG_CANDS").is_some() {
                eprintln!("cell {ri},{ci} {rect:?}: {cands:?}");
            }
            row_cands.push(cands);
        }
        candidates.push(row_cands);
        rects.push(row_rects);
    }
    // The window's decimal mark. CrystalDiskMark (the only tool that frames its cells)
    // prints `.` under every language it ships, without thousands marks (its numbers
    // are C-formatted: FORMATS.md, and every CrystalDiskMark window of both screenshot
    // sets); KDiskMark prints the system's locale, which its menu language does not tell
    // (a real window with English menus prints `1 816,90`): there, the readings that can
    // be read only one way decide.
    let mark = if grid.framed {
        Some('.')
    } else {
        numbers::window_mark(candidates.iter().flatten().flatten().map(|c| c.text.as_str()))
    };
    // The window prints every value with the same number of decimals (bar IOPS of a
    // million or more, which CrystalDiskMark prints without), or, in CrystalDiskMark 3-6,
    // with four figures: prefer readings that do.
    let loose = NumberFormat { mark, decimals: None, four_figures: false };
    let first_picks: Vec<numbers::Interpretation> = candidates
        .iter()
        .flatten()
        .filter_map(|c| choose(c, &loose))
        .map(|p| p.read.interpretation)
        .collect();
    let format = NumberFormat::of(mark, &first_picks);
    for (ri, row_cands) in candidates.iter().enumerate() {
        let mut row_cells = Vec::new();
        for (ci, cands) in row_cands.iter().enumerate() {
            let rect = rects[ri][ci];
            let (text, value, mut confidence) = match choose(cands, &format) {
                Some(p) => (Some(cands[p.index].text.clone()), p.read.interpretation.value(), p.confidence),
                None => (None, None, 0.0),
            };
            // Two readings of the same pixels at the same scale can agree on the same
            // misreading (a `7` whose stem meets a bar edge read as `1`, on a rescaled or
            // recompressed image): a value is only certain when the cell read at another
            // scale says the same.
            if confidence >= CERTAIN {
                let again = read::crop_scaled(gray, rect, grid.digit_height / CHECK_SCALE)
                    .map(|scaled| read::read(&scaled, false, NUMBER_CHARS, numbers::plausible))
                    .transpose()?
                    .unwrap_or_default();
                if !again.iter().any(|r| text.as_deref().is_some_and(|t| numbers::same_as_drawn(&r.text, t)))
                {
                    confidence = confidence.min(UNCONFIRMED_CONFIDENCE);
                }
            }
            row_cells.push(CellReading { column: column_name(ci).into(), text, value, confidence, rect });
        }
        cells.push(row_cells);
    }
    // A column that no row could read: the windows print a number in every cell (0.00
    // where a test did not run), so the grid was not seen as drawn, and the values beside
    // the empty column may stand in the wrong one (seen: a window's third column taken
    // for its second, beside a document window, every value read right and placed
    // wrong). Nothing in such a grid is certain.
    let columns = cells.first().map_or(0, Vec::len);
    if (0..columns).any(|ci| cells.iter().all(|row| row.get(ci).is_none_or(|c| c.text.is_none()))) {
        for c in cells.iter_mut().flatten() {
            c.confidence = c.confidence.min(UNCONFIRMED_CONFIDENCE);
        }
    }

    // Row labels.
    job.stage(0.7, "reading the row labels");
    let label_rects = grid.label_rects(words);
    let mut buttons = read_buttons(gray, words, &grid, &label_rects, None)?;
    let unread: Vec<bool> = buttons.iter().map(|b| !b.plausible()).collect();
    if unread.contains(&true) {
        // Buttons whose text the page pass saw in part or not at all (a window at half
        // size, blurred, or scaled by a display setting): look again at the strip left
        // of the grid alone, enlarged so its text is as tall as Tesseract reads best.
        let (strip, found) = button_strip_words(gray, &grid)?;
        let rects: Vec<Option<Rect>> =
            if found.iter().any(Option::is_some) { found } else { label_rects.clone() }
                .into_iter()
                .map(|r| r.map(|r| widen_to_ink(gray, &grid, r)))
                .collect();
        let again = read_buttons(gray, &strip, &grid, &rects, Some(&unread))?;
        for ((b, mut a), redo) in buttons.iter_mut().zip(again).zip(unread) {
            if redo {
                // The closer look's label when it is better; every text from both.
                let mut texts = std::mem::take(&mut b.texts);
                texts.append(&mut a.texts);
                if a.plausible() || b.label.is_none() && a.label.is_some() {
                    *b = a;
                }
                b.texts = texts;
            }
        }
    }
    let (mut row_labels, raw_texts): (Vec<_>, Vec<Vec<String>>) =
        buttons.into_iter().map(|b| ((b.label, b.conf, b.raw), b.texts)).unzip();
    // Buttons too small or blurred to read: their labels guessed from the preset the
    // other buttons and these texts fit, flagged with every value of the row.
    let read_labels: Vec<Option<labels::Label>> =
        row_labels.iter().map(|(l, ..)| l.clone().filter(labels::plausible)).collect();
    if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
        eprintln!("labels read: {read_labels:?}\nbutton texts: {raw_texts:?}");
    }
    for (ri, guess) in labels::guess_from_presets(&read_labels, &raw_texts).into_iter().enumerate() {
        if let Some(label) = guess {
            row_labels[ri].0 = Some(label);
            row_labels[ri].1 = GUESSED_LABEL_CONFIDENCE;
            for c in &mut cells[ri] {
                c.confidence = c.confidence.min(UNCONFIRMED_CONFIDENCE);
            }
        }
    }
    // A row whose label was neither read nor guessed names no test: its values, however
    // clearly read, may belong to another row (a grid that took in part of a second
    // window), so none is certain.
    for (ri, (label, ..)) in row_labels.iter().enumerate() {
        if label.is_none() {
            for c in &mut cells[ri] {
                c.confidence = c.confidence.min(UNCONFIRMED_CONFIDENCE);
            }
        }
    }

    // Title and settings.
    job.stage(0.85, "reading the title and settings");
    let (tool_from_title, version, title, title_bar) = title(gray, words, &grid)?;
    let mut settings = Settings {
        title,
        version,
        comment: comment(gray, words, &grid, &label_rects),
        ..Settings::default()
    };
    read_settings(gray, words, &grid, &label_rects, &mut settings)?;
    let header_unit = header_text(words, &grid).as_deref().and_then(settings::header_unit);

    // Grouped thousands point to KDiskMark (no CrystalDiskMark window in the corpus groups).
    let thousands = cells
        .iter()
        .flatten()
        .filter_map(|c| c.text.as_deref().and_then(|t| numbers::read_as(t, mark)))
        .any(|r| r.interpretation.group.is_some());
    let tool = tool_from_title.unwrap_or(
        if settings.unit.as_deref().is_some_and(|u| u.contains("iB"))
            || thousands
            || grid.right_aligned == Some(false)
        {
            Tool::KDiskMark
        } else {
            Tool::CrystalDiskMark
        },
    );
    settings.test_size = settings.test_size.map(|size| settings::size_as_printed(&size, tool));
    let window_unit = settings.unit.clone().or(header_unit).unwrap_or_else(|| "MB/s".into());

    // Rows and the result.
    let mut rows = Vec::new();
    for ((label, label_conf, raw), row_cells) in row_labels.into_iter().zip(cells) {
        let unit = match label.as_ref().map(|l| l.kind) {
            Some(RowKind::Iops { .. }) => "IOPS".to_string(),
            Some(RowKind::Latency { .. }) => "μs".to_string(),
            _ => window_unit.clone(),
        };
        rows.push((
            label,
            RowReading { label: None, label_confidence: label_conf, label_raw: raw, unit, cells: row_cells },
        ));
    }
    for (l, r) in rows.iter_mut() {
        r.label = l.as_ref().map(|l| l.text.clone());
    }
    let layout = layout(tool, &grid, &rows, title_bar);
    let mut result = BenchResult::new(tool);
    result.tool_version = settings.version.clone();
    result.profile = match layout.preset.as_str() {
        "peak" => Some("Peak".into()),
        "real" => Some("Real".into()),
        "default" | "nvme" => Some("Default".into()),
        _ => None,
    };
    if layout.family == "crystaldiskmark-3" && result.tool_version.is_none() {
        result.family = Some(ToolFamily::CdmNative);
    }
    result.passes = settings.test_count;
    result.test_size_bytes = settings.test_size.as_deref().and_then(settings::size_bytes);
    result.target = settings.drive.clone();
    let mix_share = settings.mix_ratio.as_deref().and_then(settings::mix_read_percent);

    let mut confidence: f32 = 1.0;
    let mut any_value = false;
    let mut all_zero = true;
    for (label, row) in &rows {
        let Some(label) = label else { continue };
        for cell in &row.cells {
            let Some(v) = cell.value else { continue };
            any_value = true;
            let op = match cell.column.as_str() {
                "Read" => Op::Read,
                "Write" => Op::Write,
                _ => Op::Mix,
            };
            let name = format!("{} {}", cell.column, label.text);
            if v == 0.0 {
                result.not_run.push(name);
                continue;
            }
            all_zero = false;
            confidence = confidence.min(cell.confidence).min(row.label_confidence);
            match label.kind {
                RowKind::Test { access, block_size, queue_depth, threads } => {
                    let mut m = Metric {
                        label: name,
                        access,
                        block_size,
                        queue_depth,
                        threads,
                        op,
                        mbps: None,
                        iops: None,
                        latency_us: None,
                        mix_read_percent: if op == Op::Mix { mix_share } else { None },
                        stat: None,
                        latency_percentiles: Vec::new(),
                        latency_spread: None,
                    };
                    match row.unit.as_str() {
                        "GB/s" => m.mbps = Some(rescale(v, 1000.0)),
                        "MiB/s" => m.mbps = Some(rescale(v, 1.048576)),
                        "GiB/s" => m.mbps = Some(rescale(v, 1073.741824)),
                        "IOPS" => m.iops = Some(v),
                        "μs" => m.latency_us = Some(v),
                        _ => m.mbps = Some(v),
                    }
                    result.metrics.push(m);
                }
                RowKind::Iops { access, block_size } | RowKind::Latency { access, block_size } => {
                    if let Some(m) = owner(&mut result.metrics, access, block_size, op) {
                        if matches!(label.kind, RowKind::Iops { .. }) {
                            m.iops = Some(v);
                        } else {
                            m.latency_us = Some(v);
                        }
                    }
                }
            }
        }
    }
    let recognition = Recognition {
        result,
        layout,
        settings,
        rows: rows.into_iter().map(|(_, r)| r).collect(),
        confidence: if any_value { confidence } else { 0.0 },
    };
    if any_value && all_zero {
        return Err(OcrError::NoTestRan { recognition: Box::new(recognition) });
    }
    if !any_value {
        return Err(OcrError::NoBenchmarkWindow {
            detail: "numbers were found but no row label could be read".into(),
        });
    }
    Ok(recognition)
}

/// Adds rows the page pass missed above and below the grid (a row whose digits all
/// straddle a bar edge can be invisible to it): a neighbour at one pitch becomes a row
/// when at least half its cells read as numbers in the grid's format. When it saw only
/// every other row (rows 1 and 3 of 4 in a rescaled window), the rows between are found
/// the same way. Reading a neighbour's cells costs a tenth of a window's time, so none is
/// read beside a grid that has every row a window shows, or where the page pass read
/// text.
fn probe_rows(img: &RgbImage, words: &[Word], grid: &mut Grid) -> Result<(), OcrError> {
    if grid.framed {
        return Ok(());
    }
    let seen: Vec<&str> =
        grid.rows.iter().flat_map(|r| r.page_text.iter().flatten()).map(|t| grid::trim_number(t)).collect();
    let mark = numbers::window_mark(seen.iter().copied());
    let read: Vec<numbers::Interpretation> =
        seen.iter().filter_map(|t| numbers::read_as(t, mark)).map(|r| r.interpretation).collect();
    let format = NumberFormat::of(mark, &read);
    // Rows the page pass saw that are two or three rows apart (the rows between them
    // lost to a threshold that merged their digits with the bars): the rows between are
    // added where every one of them reads as values.
    let span = (grid.pitch / (ROW_PITCH * grid.digit_height)).round() as usize;
    if grid.rows.len() <= 3
        && grid.pitch > DOUBLED_PITCH * grid.digit_height
        && (2..=3).contains(&span)
        && (grid.rows.len() - 1) * span < labels::most_rows()
    {
        let between: Vec<Vec<grid::GridRow>> = grid
            .rows
            .windows(2)
            .map(|p| {
                (1..span).map(|k| grid::GridRow::between(&p[0], &p[1], k as f32 / span as f32)).collect()
            })
            .collect();
        let mut all = true;
        for row in between.iter().flatten() {
            all &= row_reads(img, grid, row, format)?;
            if !all {
                break;
            }
        }
        if all {
            let mut rows = vec![grid.rows[0].clone()];
            for (added, seen) in between.into_iter().zip(&grid.rows[1..]) {
                rows.extend(added);
                rows.push(seen.clone());
            }
            grid.rows = rows;
            grid.pitch /= span as f32;
        }
    }
    for up in [true, false] {
        // Stop at the first non-row.
        while grid.rows.len() < labels::most_rows() {
            let row = grid.neighbour(up);
            if row.top < 0
                || row.bottom >= img.height() as i32
                || grid.holds_text(words, &row)
                || !row_reads(img, grid, &row, format)?
            {
                break;
            }
            if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
                eprintln!(
                    "probed row {}..{} added ({})",
                    row.top,
                    row.bottom,
                    if up { "above" } else { "below" }
                );
            }
            if up {
                grid.rows.insert(0, row);
            } else {
                grid.rows.push(row);
            }
        }
    }
    Ok(())
}

/// Reads the value of cell (`ri`, `ci`): where it was read and the crop's readings
/// (`read::read`'s). An unframed grid's columns are where the page pass read digits,
/// and it loses those past a bar's end, where a light glyph on the bar meets the dark
/// cell beside it (KDiskMark centres each value over its bar: `2,499.45` whose `5`
/// crosses the bar's end was read from a crop that cut the `5` in half, as
/// `2,499.46`). So a crop whose side cuts through a glyph, as a reading saw it, is read
/// again with that side moved out by a glyph's width and its margin, never into the
/// next column's cell. A framed grid's cells are the frames' insides.
fn read_cell(
    img: &RgbImage,
    grid: &Grid,
    ri: usize,
    ci: usize,
) -> Result<(Rect, Vec<read::Reading>), OcrError> {
    let h = grid.digit_height;
    let rect = grid.cell_rect(ri, ci);
    let Some(scaled) = read::crop_scaled(img, rect, h) else { return Ok((rect, Vec::new())) };
    let readings = read::read(&scaled, false, NUMBER_CHARS, numbers::plausible)?;
    if grid.framed {
        return Ok((rect, readings));
    }
    // The sides cut as each polarity read saw the glyphs (a value cut in half may read
    // as no number at all); a polarity read twice (with and without the whitelist) is
    // looked at once.
    let (left, right) = [read::Polarity::DarkText, read::Polarity::LightText]
        .into_iter()
        .filter(|&p| readings.iter().any(|r| r.polarity == p))
        .map(|p| read::cut_glyph_sides(&scaled, p))
        .fold((false, false), |(l, r), (a, b)| (l || a, r || b));
    if !left && !right {
        return Ok((rect, readings));
    }
    let reach = (GLYPH_AND_MARGIN * h) as i32;
    let mut wider = rect;
    if left {
        wider.x0 -= reach;
        if ci > 0 {
            wider.x0 = wider.x0.max(grid.cell_rect(ri, ci - 1).x1);
        }
    }
    if right {
        wider.x1 += reach;
        if ci + 1 < grid.columns.len() {
            wider.x1 = wider.x1.min(grid.cell_rect(ri, ci + 1).x0);
        }
    }
    let wider = wider.clip(img.width(), img.height());
    match read::crop_scaled(img, wider, h) {
        Some(scaled) => Ok((wider, read::read(&scaled, false, NUMBER_CHARS, numbers::plausible)?)),
        None => Ok((rect, readings)),
    }
}

/// How far a crop that cut a glyph is widened on that side, in digit heights: the rest
/// of the glyph (digits are about 0.6 high as wide) and a margin Tesseract needs.
const GLYPH_AND_MARGIN: f32 = 0.8;

/// How the rows the page pass read print their values: the decimal mark and the usual
/// number of decimals (each `None` where they do not tell), and whether the values
/// have four figures, as CrystalDiskMark 3-6 print them (`4164.1`, `17.28`).
#[derive(Clone, Copy)]
struct NumberFormat {
    mark: Option<char>,
    decimals: Option<usize>,
    four_figures: bool,
}

impl NumberFormat {
    /// The format of a window whose decimal mark is `mark` and whose values read as `values`.
    fn of(mark: Option<char>, values: &[numbers::Interpretation]) -> NumberFormat {
        let decimals: Vec<usize> = values.iter().filter_map(numbers::Interpretation::decimals).collect();
        NumberFormat { mark, decimals: mode(&decimals), four_figures: four_figures(values) }
    }
}

/// Whether the values read are printed as CrystalDiskMark 3-6 print theirs, four figures:
/// most of those with decimals, not all (a value misread with a bar's end as a digit,
/// `1256.7` for `256.7`, must not hide how the window prints the others), and a number
/// without decimals tells nothing (its point was lost: `14916` for `149.6`).
fn four_figures(values: &[numbers::Interpretation]) -> bool {
    let with_decimals: Vec<&numbers::Interpretation> =
        values.iter().filter(|v| v.decimals().is_some()).collect();
    let four = with_decimals.iter().filter(|v| v.four_figures()).count();
    with_decimals.len() >= 2 && 4 * four >= 3 * with_decimals.len()
}

/// Whether at least half the cells of `row` read as numbers in `format`; stops reading
/// once too few cells are left to make half.
fn row_reads(
    img: &RgbImage,
    grid: &Grid,
    row: &grid::GridRow,
    format: NumberFormat,
) -> Result<bool, OcrError> {
    let n = grid.columns.len();
    let needed = n.div_ceil(2).max(1);
    let mut good = 0;
    for ci in 0..n {
        if good + (n - ci) < needed {
            break;
        }
        let Some(scaled) = read::crop_scaled(img, grid.cell_rect_of(row, ci), grid.digit_height) else {
            continue;
        };
        // Every tool prints at least three digits (`0.00`; CrystalDiskMark 3-6 four
        // significant ones, `17.28`): a lone digit is a combo box or a header's glyph.
        let fits = |t: &str| {
            numbers::read_as(numbers::value_part(t), format.mark).is_some_and(|r| {
                let i = &r.interpretation;
                i.plain.chars().filter(char::is_ascii_digit).count() >= 3
                    && (format.decimals.is_none()
                        || i.decimals() == format.decimals
                        || format.four_figures && i.four_figures())
            })
        };
        if read::read(&scaled, false, NUMBER_CHARS, fits)?.iter().any(|r| fits(&r.text) && r.conf >= 80.0) {
            good += 1;
        }
    }
    Ok(good >= needed)
}

/// The test a Peak/Real profile's IOPS or latency row belongs to: the nearest test above
/// with the same access and block size, in the same column.
fn owner(metrics: &mut [Metric], access: Access, block: u64, op: Op) -> Option<&mut Metric> {
    metrics.iter_mut().rev().find(|m| m.access == access && m.block_size == block && m.op == op)
}

fn column_name(i: usize) -> &'static str {
    ["Read", "Write", "Mix", "Column 4"][i.min(3)]
}

fn page_words(rgb: &RgbImage, threshold: Threshold) -> Result<Vec<Word>, OcrError> {
    let pixels = (rgb.width() * rgb.height()) as f32;
    if pixels <= PAGE_PIXELS {
        return engine::page_words_thresholded(rgb, threshold);
    }
    page_words_at(rgb, threshold, (PAGE_PIXELS / pixels).sqrt())
}

/// The page pass on the image resized by `s`, boxes mapped back to the image's pixels.
fn page_words_at(rgb: &RgbImage, threshold: Threshold, s: f32) -> Result<Vec<Word>, OcrError> {
    let filter = if s > 1.0 { FilterType::CatmullRom } else { FilterType::Triangle };
    let resized = imageops::resize(
        rgb,
        ((rgb.width() as f32 * s) as u32).max(1),
        ((rgb.height() as f32 * s) as u32).max(1),
        filter,
    );
    let mut words = engine::page_words_thresholded(&resized, threshold)?;
    for w in &mut words {
        w.left = (w.left as f32 / s) as i32;
        w.top = (w.top as f32 / s) as i32;
        w.width = (w.width as f32 / s) as i32;
        w.height = (w.height as f32 / s) as i32;
    }
    Ok(words)
}

#[derive(Debug)]
struct Candidate {
    text: String,
    conf: f32,
    /// From the page pass (a second, independent reading).
    page: bool,
}

/// The reading a cell's value is taken from.
struct Pick {
    index: usize,
    read: numbers::Read,
    /// 0–1.
    confidence: f32,
}

/// The best reading that is a number in the window's `format`, and its confidence.
fn choose(cands: &[Candidate], format: &NumberFormat) -> Option<Pick> {
    let mut best: Option<(Pick, f32)> = None;
    for (i, c) in cands.iter().enumerate() {
        let Some(read) = numbers::read_as(&c.text, format.mark) else { continue };
        let same = |o: &Candidate| numbers::same_as_drawn(&o.text, &c.text);
        let agree = cands.iter().enumerate().any(|(j, o)| j != i && same(o));
        // Only the other source confirms: the crop's readings with and without the
        // whitelist read the same binarized pixels, and can agree on a misreading (a `2`
        // beside a bar's edge read as `7` by both, seen after two JPEG encodings).
        let confirmed = cands.iter().any(|o| o.page != c.page && same(o));
        let mut conf = (c.conf / 100.0).clamp(0.0, 1.0);
        if c.page {
            // The page pass reads small glyphs without a whitelist: trust it less alone.
            conf *= 0.8;
        }
        if agree {
            conf = 1.0 - (1.0 - conf) * 0.25;
        } else {
            conf = conf.min(UNCONFIRMED_CONFIDENCE);
        }
        let (value, usual) = (&read.interpretation, format.decimals);
        if format.four_figures && value.four_figures() {
            // CrystalDiskMark 3-6: the decimals follow the value's size.
        } else if let (Some(d), Some(u)) = (value.decimals(), usual) {
            if d != u {
                conf *= 0.5;
            }
        } else if usual.is_some() && value.decimals().is_none() && value.whole_digits() < 7 {
            // Only values of a million or more are printed without decimals.
            conf *= 0.5;
        }
        // Any two readings that agree rank a value first; only a confirmed one can be
        // certain. One reading or one source alone is never certain: Tesseract is sure of
        // a `7` read as `1` on a recompressed or rescaled image. Unconfirmed values are
        // for a person to check (the review table flags everything under 0.9), and so
        // is a value the window's locale lets read two ways.
        let rank = conf;
        if !confirmed || read.ambiguous {
            conf = conf.min(UNCONFIRMED_CONFIDENCE);
        }
        if best.as_ref().is_none_or(|(_, r)| rank > *r) {
            best = Some((Pick { index: i, read, confidence: conf }, rank));
        }
    }
    best.map(|(p, _)| p)
}

fn mode(v: &[usize]) -> Option<usize> {
    let mut counts = std::collections::BTreeMap::new();
    for x in v {
        *counts.entry(*x).or_insert(0) += 1;
    }
    counts.into_iter().max_by_key(|(_, n)| *n).map(|(x, _)| x)
}

fn page_conf(words: &[Word], row: &grid::GridRow, grid: &Grid, col: usize) -> f32 {
    let (c0, c1) = grid.columns[col];
    words
        .iter()
        .filter(|w| w.left >= c0 && w.right() <= c1 && w.top >= row.top - 2 && w.bottom() <= row.bottom + 2)
        .map(|w| w.conf)
        .fold(100.0, f32::min)
}

fn label_height(words: &[Word], rects: &[Option<Rect>]) -> Option<f32> {
    let mut hs: Vec<f32> = words
        .iter()
        .filter(|w| {
            rects
                .iter()
                .flatten()
                .any(|r| w.left >= r.x0 && w.right() <= r.x1 && w.top >= r.y0 && w.bottom() <= r.y1)
        })
        .filter(|w| w.text.chars().any(|c| c.is_ascii_alphanumeric()))
        .map(|w| w.height as f32)
        .collect();
    if hs.is_empty() {
        return None;
    }
    hs.sort_by(|a, b| a.total_cmp(b));
    Some(hs[hs.len() / 2])
}

/// What was read on one row button.
struct Button {
    label: Option<labels::Label>,
    /// The reading's confidence, 0–1.
    conf: f32,
    /// The text the label was read from (or the first text read, when none parsed).
    raw: String,
    /// Every text read on the button, for the preset guess.
    texts: Vec<String>,
}

impl Button {
    fn plausible(&self) -> bool {
        self.label.as_ref().is_some_and(labels::plausible)
    }
}

/// Reads the row buttons at `rects` (only the rows `only` marks, when given).
fn read_buttons(
    gray: &RgbImage,
    words: &[Word],
    grid: &Grid,
    rects: &[Option<Rect>],
    only: Option<&[bool]>,
) -> Result<Vec<Button>, OcrError> {
    let label_glyph = label_height(words, rects).unwrap_or(LABEL_TO_DIGIT * grid.digit_height);
    let mut out = Vec::new();
    for (ri, rect) in rects.iter().enumerate() {
        let mut best = Button { label: None, conf: 0.0, raw: String::new(), texts: Vec::new() };
        if only.is_some_and(|o| !o[ri]) {
            out.push(best);
            continue;
        }
        let plausible = |t: &str| labels::parse(t).is_some_and(|l| labels::plausible(&l));
        // A second size when the first gives no plausible label: Tesseract's misreadings
        // of thin glyphs (`1` as `7` or `I1`) depend on the scale.
        for size in [1.0, 1.4] {
            if best.plausible() {
                break;
            }
            let Some(scaled) = rect.and_then(|r| read::crop_scaled(gray, r, label_glyph * size)) else {
                break;
            };
            for r in read::read(&scaled, true, LABEL_CHARS, plausible)? {
                best.texts.push(r.text.clone());
                let parsed = labels::parse(&r.text);
                let better = match (&parsed, &best.label) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(p), Some(b)) => {
                        (labels::plausible(p), r.conf) > (labels::plausible(b), best.conf * 100.0)
                    }
                };
                if better {
                    best.label = parsed;
                    best.conf = r.conf / 100.0;
                    best.raw = r.text.replace('\n', " ");
                } else if best.label.is_none() && best.raw.is_empty() {
                    best.raw = r.text.replace('\n', " ");
                }
            }
        }
        if let Some(r) = rect {
            best.texts.push(words_in(words, *r));
        }
        out.push(best);
    }
    Ok(out)
}

/// Label glyphs are about this share of the value digits' height in every layout.
const LABEL_TO_DIGIT: f32 = 0.45;
/// The height the strip pass scales label glyphs to: the page pass reads 20–30 px text best.
const STRIP_LABEL_GLYPH: f32 = 24.0;

/// The page pass on the strip left of the grid where the row buttons are, enlarged so
/// the buttons' text is `STRIP_LABEL_GLYPH` high: its words (boxes in the image's
/// pixels) and the buttons' rects found from them. When it finds no button there, it
/// looks again left of the first column's cells: the blank left part of a wide cell
/// (`0.00` right-aligned in a CrystalDiskMark window where no test ran) makes the page
/// pass find no text at all.
fn button_strip_words(gray: &RgbImage, grid: &Grid) -> Result<(Vec<Word>, Vec<Option<Rect>>), OcrError> {
    let (x0, x1) = grid.button_columns();
    let words = strip_words(gray, grid, x0, x1)?;
    let rects = grid.label_rects(&words);
    if rects.iter().any(Option::is_some) {
        return Ok((words, rects));
    }
    match cells_left_edge(gray, grid) {
        Some(edge) if edge > x0 && edge < x1 => {
            let words = strip_words(gray, grid, x0, edge)?;
            let rects = grid.label_rects(&words);
            Ok((words, rects))
        }
        _ => Ok((words, rects)),
    }
}

fn strip_words(gray: &RgbImage, grid: &Grid, x0: i32, x1: i32) -> Result<Vec<Word>, OcrError> {
    let top = grid.rows[0].top as f32 - 0.6 * grid.pitch;
    let bottom = grid.rows.last().expect("a grid has rows").bottom as f32 + 0.6 * grid.pitch;
    let strip = Rect { x0, x1, y0: top as i32, y1: bottom as i32 }.clip(gray.width(), gray.height());
    if strip.width() < 4 || strip.height() < 4 {
        return Ok(Vec::new());
    }
    let s = (STRIP_LABEL_GLYPH / (LABEL_TO_DIGIT * grid.digit_height).max(1.0)).clamp(1.0, 6.0);
    let mut words = page_words_at(&cut(gray, strip), Threshold::Global, s)?;
    for w in &mut words {
        w.left += strip.x0;
        w.top += strip.y0;
    }
    Ok(words)
}

/// The left edge of the first column's cells: the nearest pixel column left of the
/// values where the brightness steps on nearly every pixel row of each row's digits (the
/// cell's border, or its bar's start), the median over the rows.
fn cells_left_edge(gray: &RgbImage, grid: &Grid) -> Option<i32> {
    let (farthest, left) = grid.button_columns();
    if left < 2 {
        return None;
    }
    let mut edges: Vec<i32> = grid
        .rows
        .iter()
        .filter_map(|r| {
            let rows = (r.top.max(0) as u32, r.bottom.max(0) as u32);
            locate::edge_column(gray, rows, left as u32 - 1, farthest.max(0) as u32).map(|x| x as i32)
        })
        .collect();
    edges.sort_unstable();
    edges.get(edges.len() / 2).copied()
}

/// A button's text rect widened over the glyph ink beside it: the page pass often sees
/// only part of a small or blurred button's text (`Q1M` of `SEQ1M`), and a crop cut
/// through a word reads as nothing. Ink closer than a glyph's width joins the text;
/// the buttons' borders are rules, not glyphs, and never join.
fn widen_to_ink(gray: &RgbImage, grid: &Grid, r: Rect) -> Rect {
    let (lo, hi) = grid.button_columns();
    let band = Rect { x0: lo, x1: hi, ..r }.clip(gray.width(), gray.height());
    let Some(cols) = read::glyph_columns(gray, band, r) else { return r };
    if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
        let s: String = cols.iter().map(|&c| if c { '#' } else { '.' }).collect();
        eprintln!("button text {r:?}, glyph columns of {band:?}: {s}");
    }
    let max_gap = (0.7 * LABEL_TO_DIGIT * grid.digit_height).ceil().max(2.0) as i32;
    let inked = |x: i32| x >= band.x0 && x < band.x1 && cols[(x - band.x0) as usize];
    let (mut x0, mut x1) = (r.x0.max(band.x0), r.x1.min(band.x1));
    // Walks outward from an edge while ink appears within `max_gap` columns.
    let reach = |from: i32, step: i32| {
        let (mut edge, mut x, mut gap) = (from, from + step, 0);
        while x >= band.x0 && x < band.x1 && gap <= max_gap {
            if inked(x) {
                edge = x;
                gap = 0;
            } else {
                gap += 1;
            }
            x += step;
        }
        edge
    };
    x0 = reach(x0, -1).min(x0);
    x1 = (reach(x1 - 1, 1) + 1).max(x1);
    let pad = (0.25 * grid.digit_height) as i32;
    Rect { x0: (x0 - pad).max(band.x0), x1: (x1 + pad).min(band.x1), ..r }
}

/// The page pass's words inside `r`, joined.
fn words_in(words: &[Word], r: Rect) -> String {
    let ws: Vec<&str> = words
        .iter()
        .filter(|w| w.left >= r.x0 && w.right() <= r.x1 && w.top >= r.y0 && w.bottom() <= r.y1)
        .map(|w| w.text.as_str())
        .collect();
    ws.join(" ")
}

/// Lines of page words, in reading order, as (top, bottom, left, right, text).
fn lines(words: &[Word]) -> Vec<(i32, i32, i32, i32, String)> {
    let mut keys: Vec<(u32, u32, u32)> = words.iter().map(|w| w.line).collect();
    keys.dedup();
    let mut seen = std::collections::HashSet::new();
    keys.retain(|k| seen.insert(*k));
    keys.iter()
        .map(|k| {
            let ws: Vec<&Word> = words.iter().filter(|w| w.line == *k).collect();
            (
                ws.iter().map(|w| w.top).min().unwrap_or(0),
                ws.iter().map(|w| w.bottom()).max().unwrap_or(0),
                ws.iter().map(|w| w.left).min().unwrap_or(0),
                ws.iter().map(|w| w.right()).max().unwrap_or(0),
                ws.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "),
            )
        })
        .collect()
}

/// Tool, version, title text, and whether a title line was seen.
type TitleLine = (Option<Tool>, Option<String>, Option<String>, bool);

/// The title line above the grid: tool, version, title text, and whether one was seen.
fn title(rgb: &RgbImage, words: &[Word], grid: &Grid) -> Result<TitleLine, OcrError> {
    let g = grid.bounds();
    let reach = (6.0 * grid.pitch) as i32;
    let near = |(top, bottom, left, right, _): &(i32, i32, i32, i32, String)| {
        *bottom <= g.y0 && *top >= g.y0 - reach && *right >= g.x0 - reach && *left <= g.x1 + reach
    };
    let find = |words: &[Word]| {
        lines(words).into_iter().filter(near).find_map(|line| {
            let (tool, version) = settings::title(&line.4);
            tool.map(|t| (t, version, line.4))
        })
    };
    let found = find(words);
    if let Some((tool, version, text)) = found.clone() {
        if version.is_some() || tool == Tool::KDiskMark {
            return Ok((Some(tool), version, Some(text), true));
        }
    }
    // The whole image's page pass reads the small title font badly (`80.4` for `8.0.4`,
    // or no title at all): read the part of the window above the settings on its own,
    // enlarged to about twice a 100 % window's size.
    let area = Rect {
        x0: g.x0 - reach,
        x1: g.x1 + reach,
        y0: g.y0 - (4.0 * grid.pitch) as i32,
        y1: g.y0 - (1.2 * grid.pitch) as i32,
    }
    .clip(rgb.width(), rgb.height());
    if area.width() > 8 && area.height() > 8 {
        let scale = (2.0 * 52.0 / grid.pitch).clamp(1.0, 3.0);
        let again = page_words_at(&cut(rgb, area), Threshold::Global, scale)?;
        if let Some((tool, version, text)) = find_shifted(&again, area, &find) {
            if version.is_some() || found.is_none() {
                return Ok((Some(tool), version, Some(text), true));
            }
        }
    }
    Ok(match found {
        Some((tool, version, text)) => (Some(tool), version, Some(text), true),
        None => (None, None, None, false),
    })
}

/// `find` over words read in `area`, moved back into the image's coordinates.
fn find_shifted<T>(words: &[Word], area: Rect, find: &impl Fn(&[Word]) -> Option<T>) -> Option<T> {
    let moved: Vec<Word> = words
        .iter()
        .cloned()
        .map(|mut w| {
            w.left += area.x0;
            w.top += area.y0;
            w
        })
        .collect();
    find(&moved)
}

/// The comment row: the line of text right under the grid (CrystalDiskMark's comment box
/// spans the window below the results), as the page pass read it. A line inside a row
/// button (`label_rects`) is the button's text: the second line of the last button
/// (`Q1T1`) hangs below the grid's digits in KDiskMark, whose buttons are taller than its
/// values.
fn comment(gray: &RgbImage, words: &[Word], grid: &Grid, label_rects: &[Option<Rect>]) -> Option<String> {
    let g = grid.bounds();
    let reach = (4.0 * grid.pitch) as i32;
    let in_button = |(top, bottom, left, right): (i32, i32, i32, i32)| {
        let (cx, cy) = ((left + right) / 2, (top + bottom) / 2);
        label_rects.iter().flatten().any(|r| r.x0 <= cx && cx <= r.x1 && r.y0 <= cy && cy <= r.y1)
    };
    lines(words)
        .into_iter()
        .filter(|(top, bottom, left, right, _)| {
            *top >= g.y1 - (0.1 * grid.pitch) as i32
                && *bottom <= g.y1 + (1.6 * grid.pitch) as i32
                && *right > g.x0 - reach
                && *left < g.x1
                && !in_button((*top, *bottom, *left, *right))
        })
        .min_by_key(|line| line.0)
        // The comment box is the first box under the grid: between the last row's digits
        // and its text run the cells' bottom edge and the box's top edge. A line under
        // more rules is past the box (a caption under an empty box and the window's
        // bottom border, a window stacked below).
        .filter(|line| {
            ruled_lines(gray, (g.x0, g.x1), (g.y1, line.0), grid.digit_height) < RULES_OVER_COMMENT
        })
        .map(|line| line.4.trim_matches(|c: char| !c.is_alphanumeric()).to_string())
        // A stray mark or two (a border, a cursor) is no comment.
        .filter(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
}

/// Rules between a window's last row of digits and the line under it past which the
/// line is no comment (see `comment`).
const RULES_OVER_COMMENT: usize = 3;

/// How many horizontal rules cross most of the columns `xs` between the pixel rows `ys`:
/// rows where the luminance steps (`locate::STEP`) from the row below over three quarters of the width,
/// steps within a twelfth of a digit's height (two pixels at least) of each other
/// counting as one rule (a line one pixel thick steps twice; blur and rescaling spread
/// it; a cell's bottom edge and the comment box's top edge are four pixels apart in a
/// CrystalDiskMark 8 window at its own size).
fn ruled_lines(gray: &RgbImage, xs: (i32, i32), ys: (i32, i32), digit_height: f32) -> usize {
    let (w, h) = (gray.width() as i32, gray.height() as i32);
    let (x0, x1) = (xs.0.max(0), xs.1.min(w));
    let (y0, y1) = (ys.0.max(0), ys.1.min(h - 1));
    if x1 - x0 < 8 {
        return 0;
    }
    let steps = |y: i32| {
        (x0..x1)
            .filter(|&x| {
                locate::luma(gray, x as u32, y as u32).abs_diff(locate::luma(gray, x as u32, (y + 1) as u32))
                    > locate::STEP
            })
            .count()
    };
    let together = ((digit_height / 12.0).round() as i32).max(2);
    let (mut rules, mut last) = (0, None::<i32>);
    for y in y0..y1 {
        if 4 * steps(y) >= 3 * (x1 - x0) as usize {
            if last.is_none_or(|l| y - l > together) {
                rules += 1;
            }
            last = Some(y);
        }
    }
    rules
}

/// The column headers' text (`Read (MB/s) Write (MB/s)`), between settings and grid.
fn header_text(words: &[Word], grid: &Grid) -> Option<String> {
    let g = grid.bounds();
    let top = g.y0 as f32 - 1.2 * grid.pitch;
    let ws: Vec<&str> = words
        .iter()
        .filter(|w| w.cy() > top && w.bottom() <= g.y0 && w.right() > g.x0 - grid.pitch as i32)
        .map(|w| w.text.as_str())
        .collect();
    (!ws.is_empty()).then(|| ws.join(" "))
}

/// The settings strip: the line of combo boxes above the column headers, read again at
/// the value glyph scale, plus what the page pass read there.
fn read_settings(
    gray: &RgbImage,
    words: &[Word],
    grid: &Grid,
    label_rects: &[Option<Rect>],
    s: &mut Settings,
) -> Result<(), OcrError> {
    let g = grid.bounds();
    let headers: Vec<&Word> = words
        .iter()
        .filter(|w| {
            w.bottom() <= g.y0
                && w.cy() > g.y0 as f32 - 1.3 * grid.pitch
                && ["Read", "Write", "Mix"].iter().any(|h| w.text.contains(h))
        })
        .collect();
    let header_top = headers.iter().map(|w| w.top).min().unwrap_or(g.y0 - (0.6 * grid.pitch) as i32);
    let band = (header_top as f32 - 0.95 * grid.pitch, header_top as f32 - 0.05 * grid.pitch);
    let left = label_rects.iter().flatten().map(|r| r.x0).min().unwrap_or(g.x0) - grid.pitch as i32;
    let right = g.x1 + grid.pitch as i32;
    let mut band_words: Vec<&Word> = words
        .iter()
        .filter(|w| w.cy() > band.0 && w.cy() < band.1 && w.left >= left && w.right() <= right)
        .collect();
    band_words.sort_by(|a, b| a.cy().total_cmp(&b.cy()));
    // The band may also hold the menu line: the settings are the line nearest the headers.
    let mut lines_in_band: Vec<Vec<&Word>> = Vec::new();
    for w in band_words {
        match lines_in_band.last_mut() {
            Some(l) if w.cy() - l.last().expect("lines are non-empty").cy() < 0.5 * grid.pitch / 2.0 => {
                l.push(w)
            }
            _ => lines_in_band.push(vec![w]),
        }
    }
    let strip = lines_in_band.pop().unwrap_or_default();
    let mut texts = Vec::new();
    let letters: Vec<&&Word> = strip.iter().filter(|w| w.text.chars().any(char::is_alphanumeric)).collect();
    // The page pass often boxes a combo box's border with its text (a "word" two or three
    // glyphs high), so the strip's own word heights overstate its glyphs and the strip
    // would be read too small. The column headers are set in the same font size and are
    // read as clean words: their height is the glyph size.
    let median = |mut hs: Vec<i32>| {
        hs.sort();
        hs.get(hs.len() / 2).map(|&h| h as f32)
    };
    let header_glyph = median(
        headers
            .iter()
            .filter(|w| w.text.chars().all(|c| c.is_ascii_alphabetic()))
            .map(|w| w.height)
            .collect(),
    );
    let strip_glyph = median(letters.iter().map(|w| w.height).collect());
    let glyph = match (header_glyph, strip_glyph) {
        (Some(h), Some(s)) => Some(h.min(s)),
        (h, s) => h.or(s),
    };
    if let Some(glyph) = glyph {
        // The boxes are found from pixels over the whole band (the page pass often
        // misses the strip's words, or boxes them with their borders); each box's
        // border gives its height.
        // From the row buttons' text on: the "All" button above them is no setting,
        // and on KDiskMark it sits lower than the strip, where it would pass for it.
        let strip_left = label_rects.iter().flatten().map(|r| r.x1).max().unwrap_or(left);
        let rect = Rect { x0: strip_left, x1: right, y0: band.0 as i32, y1: band.1 as i32 };
        if let Some(scaled) = read::crop_scaled(gray, rect, glyph * 1.2) {
            let (boxes, strip_rows) = read::read_boxes(&scaled)?;
            if std::env::var_os("SSDBASE_OCR_DEBUG_DIR").is_some() {
                eprintln!("settings boxes: {boxes:?}");
            }
            settings::parse_boxes(&boxes, s);
            if !boxes.is_empty() {
                texts.push(boxes.join("  "));
            }
            // The whole line is read for what the boxes did not give; reading it costs
            // a tenth of a window's time.
            if !settings::bar_adds_nothing(s, grid.columns.len() >= 3) {
                let line = match strip_rows {
                    Some((y0, y1)) => {
                        image::imageops::crop_imm(&scaled, 0, y0, scaled.width(), y1 - y0).to_image()
                    }
                    None => scaled,
                };
                for r in read::read_with(&line, false, "", true, |t| t.contains('%'))? {
                    texts.push(r.text);
                }
            }
        }
        texts.push(strip.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "));
    }
    settings::parse_bar(&texts, s);
    Ok(())
}

fn layout(tool: Tool, grid: &Grid, rows: &[(Option<labels::Label>, RowReading)], title_bar: bool) -> Layout {
    let names: Vec<&str> = rows.iter().filter_map(|(l, _)| l.as_ref().map(|l| l.text.as_str())).collect();
    let has = |s: &str| names.iter().any(|n| n.contains(s));
    let family = if tool == Tool::KDiskMark {
        "kdiskmark"
    } else if names.iter().any(|n| *n == "512K" || n.starts_with("4K QD")) {
        "crystaldiskmark-3"
    } else if names.iter().any(|n| n.starts_with("Seq") || n.starts_with("4K")) {
        "crystaldiskmark-5"
    } else {
        "crystaldiskmark-7+"
    };
    let preset = if family == "crystaldiskmark-3" {
        "classic"
    } else if has("(IOPS)") || has("(μs)") {
        if has("Q1T1") && !has("Q8T1") {
            "real"
        } else {
            "peak"
        }
    } else if has("SEQ128K Q32T1") && has("RND4K Q32T16") {
        "nvme"
    } else if names.iter().all(|n| {
        [
            "SEQ1M Q8T1",
            "SEQ1M Q1T1",
            "RND4K Q32T1",
            "RND4K Q32T16",
            "RND4K Q1T1",
            "Seq Q32T1",
            "4K Q32T1",
            "4K Q8T8",
            "Seq",
            "4K",
            "4KiB Q8T8",
            "4KiB Q32T1",
            "4KiB Q1T1",
            "4KiB",
        ]
        .contains(n)
    }) {
        "default"
    } else {
        "custom"
    };
    Layout {
        tool,
        family: family.into(),
        preset: preset.into(),
        columns: (0..grid.columns.len()).map(|i| column_name(i).to_string()).collect(),
        rows: grid.rows.len(),
        grid: grid.bounds(),
        scale: ((grid.digit_height / CDM8_DIGIT_HEIGHT) * 4.0).round() / 4.0,
        title_bar,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value whose ends the page pass did not see (past a bar's end) is read whole: on
    /// every KDiskMark window of the corpus (values centred on their bars, no frames),
    /// each cell's column cut short so that the cell's side falls in the middle of the
    /// value's last glyph, or of its first, still reads as the whole cell does.
    #[test]
    fn a_cell_whose_side_cuts_a_glyph_is_read_whole() {
        let dir = crate::corpus::shared_dir().expect("the shared corpus").join("corpus/screenshots");
        let labels = crate::corpus::load(&dir).unwrap();
        let best = |readings: &[read::Reading]| {
            readings
                .iter()
                .filter(|r| numbers::plausible(&r.text))
                .max_by(|a, b| a.conf.total_cmp(&b.conf))
                .cloned()
        };
        let mut checked = 0;
        for img in labels.images.iter().filter(|i| i.tool == "KDiskMark") {
            let rgb = crate::decode::decode(&std::fs::read(dir.join(&img.file)).unwrap()).unwrap();
            let words = page_words(&rgb, Threshold::Global).unwrap();
            let mut grid = grid::find(&words).unwrap_or_else(|| panic!("{}: no grid", img.file));
            grid.refine_rows(|b| read::ink_extent(&rgb, b));
            assert!(!grid.framed, "{}", img.file);
            let h = grid.digit_height;
            for ri in 0..grid.rows.len() {
                for ci in 0..grid.columns.len() {
                    let (rect, readings) = read_cell(&rgb, &grid, ri, ci).unwrap();
                    let Some(whole) = best(&readings).filter(|r| r.conf >= 80.0) else { continue };
                    // The value's glyphs: runs of crop columns with ink in the glyphs' rows.
                    let scaled = read::crop_scaled(&rgb, rect, h).unwrap();
                    let bin = read::binarize(&scaled, whole.polarity).unwrap();
                    let (w, sh) = scaled.dimensions();
                    let pad = (bin.width() - w) / 2;
                    let inked: Vec<bool> = (0..w)
                        .map(|x| (sh / 4..sh * 3 / 4).any(|y| bin.get_pixel(x + pad, y + pad)[0] == 0))
                        .collect();
                    let (Some(first), Some(last)) =
                        (inked.iter().position(|&i| i), inked.iter().rposition(|&i| i))
                    else {
                        continue;
                    };
                    let run_end = |from: usize, step: isize| {
                        let mut x = from as isize;
                        while inked.get((x + step) as usize).copied().unwrap_or(false) {
                            x += step;
                        }
                        x as usize
                    };
                    let to_image = |x: usize| rect.x0 + (x as f32 * rect.width() as f32 / w as f32) as i32;
                    let (first_mid, last_mid) =
                        (to_image((first + run_end(first, 1)) / 2), to_image((run_end(last, -1) + last) / 2));
                    let (c0, c1) = grid.columns[ci];
                    let (x0, x1) = grid::column_span(c0, c1, h);
                    for (side, cut_columns) in [
                        ("right", grid::column_reading(x0, last_mid, h)),
                        ("left", grid::column_reading(first_mid, x1, h)),
                    ] {
                        let mut cut = grid.clone();
                        cut.columns[ci] = cut_columns;
                        let (at, again) = read_cell(&rgb, &cut, ri, ci).unwrap();
                        let read = best(&again).map(|r| r.text);
                        assert_eq!(
                            read.as_deref(),
                            Some(whole.text.as_str()),
                            "{} cell {ri},{ci} cut on the {side} at {:?}, read from {at:?}",
                            img.file,
                            cut.cell_rect(ri, ci)
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 40, "only {checked} cells checked");
    }

    /// A window's comment comes from its comment box, and a window with an empty box has
    /// none: on every KDiskMark window of the corpus, whose last row button's second line
    /// (`Q1T1`) hangs below the grid's digits, right where a comment would start, the
    /// comment read shares most of its words with the labelled one (the page pass may
    /// misread a word of it: `Samsung` as `19`). Before: image 27's `RAID Array: AMD RAID
    /// Bottom Device` read as `QiT1`.
    #[test]
    fn a_comment_is_its_box_not_the_last_buttons_second_line() {
        let (labels, originals) = corpus_originals();
        let mut with_comment = 0;
        for (img, rgb) in labels.images.iter().zip(&originals).filter(|(i, _)| i.tool == "KDiskMark") {
            let read =
                recognize_rgb(rgb, &mut Job::default()).unwrap_or_else(|e| panic!("{}: {e}", img.file));
            let got = read.settings.comment.as_deref();
            match img.comment_text.as_deref().filter(|c| !c.is_empty()) {
                None => assert_eq!(got, None, "{}", img.file),
                Some(want) => {
                    let got = got.unwrap_or_else(|| panic!("{}: no comment read", img.file));
                    let words: Vec<&str> = want.split_whitespace().collect();
                    let shared = words.iter().filter(|w| got.split_whitespace().any(|g| g == **w)).count();
                    assert!(2 * shared > words.len(), "{}: want {want:?}, read {got:?}", img.file);
                    with_comment += 1;
                }
            }
        }
        assert!(with_comment >= 5, "only {with_comment} KDiskMark windows with a comment");
    }

    /// Two windows placed edge to edge are two windows, found by the border between them:
    /// every KDiskMark window of the corpus (cut to its frame, without the margin and
    /// shadow its screenshot has) right of a CrystalDiskMark window of the corpus, on a
    /// white page, both aligned at their bottom edge (so that one is taller, and the
    /// shorter stands in its columns like a window in front of a document). Every value of
    /// both windows is read. Before: of the five KDiskMark windows beside CrystalDiskMark
    /// 01 or 20, none was read (the pair was taken for one window, read as the whole
    /// image, whose one threshold blanks the dark window's digits).
    #[test]
    fn windows_edge_to_edge_are_found_by_the_border_between_them() {
        let (labels, originals) = corpus_originals();
        let crystal: Vec<usize> = (0..labels.images.len())
            .filter(|&i| labels.images[i].tool == "CrystalDiskMark" && !labels.images[i].all_zero())
            .collect();
        let mut pairs = 0;
        for (n, k) in (0..labels.images.len()).filter(|&i| labels.images[i].tool == "KDiskMark").enumerate() {
            let c = crystal[n % crystal.len()];
            let (left, right) = (&originals[c], window_alone(&originals[k]));
            let h = left.height().max(right.height());
            let page = white_page([(left, 0, h - left.height()), (&right, left.width(), h - right.height())]);
            let readings = recognize_windows(&page, &mut Job::default()).unwrap();
            for img in [&labels.images[c], &labels.images[k]] {
                let best = best_score(img, &readings).expect("a reading");
                assert_eq!(
                    best.exact, best.fields,
                    "{} beside {}: {} read {:?}",
                    labels.images[c].file, labels.images[k].file, img.file, best.notes
                );
            }
            pairs += 1;
        }
        assert!(pairs >= 10, "only {pairs} pairs");
    }

    /// A window with an empty comment box has no comment, whatever lies under its window:
    /// every CrystalDiskMark window of the corpus without a comment, with the next one
    /// stacked under it edge to edge (as the degraded touching kind stacks them). Before:
    /// the lower window's title (`CrystalDiskMark 8.0.4 x64 [Admin]`), under the upper
    /// window's empty box and bottom border, was read as the upper window's comment.
    #[test]
    fn a_line_past_the_comment_box_is_no_comment() {
        let (labels, originals) = corpus_originals();
        let empty: Vec<usize> = (0..labels.images.len())
            .filter(|&i| {
                let img = &labels.images[i];
                img.tool == "CrystalDiskMark"
                    && !img.all_zero()
                    && img.comment_text.as_deref().unwrap_or("").is_empty()
            })
            .collect();
        let mut checked = 0;
        for (n, &i) in empty.iter().enumerate() {
            let (top, below) = (&originals[i], &originals[empty[(n + 1) % empty.len()]]);
            let page = white_page([(top, 0, 0), (below, 0, top.height())]);
            let readings = recognize_windows(&page, &mut Job::default()).unwrap();
            let upper = readings
                .iter()
                .filter_map(crate::window_read)
                .find(|r| r.layout.grid.y1 <= top.height() as i32)
                .unwrap_or_else(|| panic!("{}: the upper window not read", labels.images[i].file));
            assert_eq!(upper.settings.comment, None, "{}", labels.images[i].file);
            checked += 1;
        }
        assert!(checked >= 15, "only {checked} windows");
    }

    /// Two images on a white page just large enough for both, each at its (x, y).
    fn white_page(placed: [(&RgbImage, u32, u32); 2]) -> RgbImage {
        let w = placed.iter().map(|(img, x, _)| x + img.width()).max().unwrap_or(0);
        let h = placed.iter().map(|(img, _, y)| y + img.height()).max().unwrap_or(0);
        let mut page = RgbImage::from_pixel(w, h, image::Rgb([255, 255, 255]));
        for (img, x, y) in placed {
            image::imageops::replace(&mut page, img, i64::from(x), i64::from(y));
        }
        page
    }

    /// The score of the reading that reads most of `img`'s values exactly, if any.
    fn best_score(img: &crate::corpus::LabelledImage, readings: &Readings) -> Option<crate::corpus::Score> {
        readings.iter().map(|r| crate::corpus::score(img, r)).max_by_key(|s| s.exact)
    }

    /// A corpus KDiskMark screenshot cut to the window's frame, without the margin and
    /// shadow around it: the bounding box of its dark (Breeze Dark) pixels, as a capture
    /// of the window alone gives it.
    fn window_alone(img: &RgbImage) -> RgbImage {
        let dark = |x: u32, y: u32| locate::luma(img, x, y) < 100;
        let (w, h) = img.dimensions();
        let xs: Vec<u32> = (0..w).filter(|&x| (0..h).any(|y| dark(x, y))).collect();
        let ys: Vec<u32> = (0..h).filter(|&y| (0..w).any(|x| dark(x, y))).collect();
        let (x0, y0) = (xs[0], ys[0]);
        image::imageops::crop_imm(img, x0, y0, xs[xs.len() - 1] - x0 + 1, ys[ys.len() - 1] - y0 + 1)
            .to_image()
    }

    /// A KDiskMark window captured alone, without the margin around it, reads whole:
    /// every corpus KDiskMark window cut to its frame. Without a light margin the page
    /// pass's threshold merges the digits of some rows with their bars and sees every
    /// third row only (11: the rows of `531.56` and `42.75`); the rows between are
    /// probed (before: "no row label could be read", the two rows seen spanning four
    /// buttons).
    #[test]
    fn a_kdiskmark_window_without_its_margin_reads_whole() {
        let (labels, originals) = corpus_originals();
        let mut windows = 0;
        for (img, rgb) in labels.images.iter().zip(&originals).filter(|(i, _)| i.tool == "KDiskMark") {
            let readings = recognize_windows(&window_alone(rgb), &mut Job::default()).unwrap();
            let best = best_score(img, &readings).unwrap_or_else(|| panic!("{}: no reading", img.file));
            assert_eq!(best.exact, best.fields, "{}: {:?}", img.file, best.notes);
            windows += 1;
        }
        assert!(windows >= 10, "only {windows} KDiskMark windows");
    }

    /// The shared corpus's screenshots, decoded, with their labels.
    fn corpus_originals() -> (crate::corpus::Labels, Vec<RgbImage>) {
        let dir = crate::corpus::shared_dir().expect("the shared corpus").join("corpus/screenshots");
        let labels = crate::corpus::load(&dir).unwrap();
        let originals = labels
            .images
            .iter()
            .map(|i| crate::decode::decode(&std::fs::read(dir.join(&i.file)).unwrap()).unwrap())
            .collect();
        (labels, originals)
    }

    /// A region cut around a framed grid reads as that one window, however the page pass
    /// splits it or whatever it reads as numbers around it: on every image of the
    /// corpus's two-windows kind (made as `cargo xtask bench-ocr` makes it: a window on a
    /// desktop of wallpaper and documents, the next window with results beside it), each
    /// framed grid's region gives one reading, a window over that frame. Before: a
    /// CrystalDiskMark 8 window in front of a document also gave a grid of its title's
    /// `8.0.4` over its first row of values, read at length as a window.
    #[test]
    fn a_framed_windows_region_reads_as_that_window_alone() {
        use crate::degrade::{self, Kind, Rng};
        let (labels, originals) = corpus_originals();
        let n = labels.images.len();
        let mut regions = 0;
        for (i, img) in labels.images.iter().enumerate() {
            let partner = (1..n)
                .map(|d| (i + d) % n)
                .find(|&j| !labels.images[j].all_zero())
                .expect("windows with results");
            let kind = Kind::TwoWindows;
            let made = degrade::degrade(
                &originals[i],
                Some(&originals[partner]),
                kind,
                &mut Rng::for_image(&img.file, kind),
            );
            let rgb = crate::decode::decode(&made.bytes).unwrap();
            let grids = frames::cell_grids(&rgb);
            if grids.len() < 2 {
                continue;
            }
            for g in &grids {
                let region = g.window_region(&grids).clip(rgb.width(), rgb.height());
                let frame = g.bounds().moved(-region.x0, -region.y0);
                let (readings, _) =
                    windows_in(&cut(&rgb, region), None, Some(frame), Look::Thorough, &mut Job::default())
                        .unwrap();
                assert_eq!(
                    readings.len(),
                    1,
                    "{} ({}): {} readings of {region:?}",
                    img.file,
                    made.recipe,
                    readings.len()
                );
                let window = crate::window_read(&readings[0]).unwrap_or_else(|| {
                    panic!("{}: {region:?} read no window: {:?}", img.file, readings[0].as_ref().err())
                });
                let read = window.layout.grid;
                assert!(
                    2 * grid::overlap(&read, &frame) > grid::area(&read),
                    "{}: {read:?} is not over {frame:?}",
                    img.file
                );
                regions += 1;
            }
        }
        assert!(regions >= 30, "only {regions} framed regions read");
    }

    /// Once a patch held a window found at the image's scale, a patch that holds none (a
    /// document beside it) is not read at other scales, and a patch that is mostly that
    /// window's again is not read at all: counted in Tesseract's page passes.
    #[test]
    fn patches_after_a_window_found_at_its_scale_are_read_at_that_scale() {
        let (labels, originals) = corpus_originals();
        let (img, window) = labels
            .images
            .iter()
            .zip(&originals)
            .find(|(i, o)| i.tool == "KDiskMark" && o.width() * o.height() <= SMALL_WINDOW_PIXELS)
            .expect("a KDiskMark window of at most SMALL_WINDOW_PIXELS");
        let (w, h) = window.dimensions();
        // The window, and a document as large beside it.
        let mut rgb = RgbImage::from_pixel(2 * w, h, image::Rgb([40, 60, 90]));
        imageops::replace(&mut rgb, window, 0, 0);
        crate::degrade::draw_other_window(
            &mut rgb,
            (w, 0, w, h),
            &mut crate::degrade::Rng::for_image("document", crate::degrade::Kind::TwoWindows),
        );
        let window_rect = Rect { x0: 0, y0: 0, x1: w as i32, y1: h as i32 };
        let again = Rect { x0: (w / 4) as i32, x1: (w + w / 8) as i32, ..window_rect };
        let document = Rect { x0: w as i32, x1: 2 * w as i32, ..window_rect };
        let passes = |f: &mut dyn FnMut()| {
            let before = engine::calls().page_passes;
            f();
            engine::calls().page_passes - before
        };
        let mut at_scale = false;
        let window_passes = passes(&mut || {
            let (readings, scale) =
                windows_in(&cut(&rgb, window_rect), None, None, Look::Thorough, &mut Job::default()).unwrap();
            assert!(readings.iter().any(|r| crate::window_read(r).is_some()), "{}: no window read", img.file);
            at_scale = scale;
        });
        assert!(at_scale, "{}: found at another scale", img.file);
        let document_passes = |look| {
            passes(&mut || {
                assert!(windows_in(&cut(&rgb, document), None, None, look, &mut Job::default()).is_err());
            })
        };
        let (thorough, same_scale) = (document_passes(Look::Thorough), document_passes(Look::AtScale));
        // The two thresholds only: no digit read there, so no window at this scale.
        assert_eq!(same_scale, 2, "page passes at the window's scale ({thorough} at every scale)");
        let regions: Vec<Region> =
            [window_rect, again, document].into_iter().map(|rect| Region { rect, frame: None }).collect();
        let mut found = Vec::new();
        let all = passes(&mut || {
            found = read_regions(&rgb, &regions, (0.0, 1.0), "part", Look::Thorough, &mut Job::default())
                .unwrap();
        });
        assert_eq!(found.iter().filter(|r| crate::window_read(r).is_some()).count(), 1, "{}", img.file);
        assert_eq!(
            all,
            window_passes + same_scale,
            "{}: the window, then the document at its scale",
            img.file
        );
    }

    fn cand(text: &str, conf: f32, page: bool) -> Candidate {
        Candidate { text: text.into(), conf, page }
    }

    #[test]
    fn a_value_is_certain_only_when_the_page_pass_confirms_the_crop() {
        let point = NumberFormat { mark: Some('.'), decimals: Some(2), four_figures: false };
        // The crop read twice (with and without the whitelist) as the same misreading,
        // the page pass as something else: ranked first, but not certain.
        let misread = [cand("456.76", 69.0, false), cand("456.76", 69.0, false), cand("456.26", 60.0, true)];
        let p = choose(&misread, &point).unwrap();
        assert_eq!(misread[p.index].text, "456.76");
        assert!(p.confidence < CERTAIN, "{}", p.confidence);
        // The same two readings with the page pass agreeing: certain.
        let confirmed =
            [cand("456.26", 69.0, false), cand("456.26", 69.0, false), cand("456.26", 80.0, true)];
        let p = choose(&confirmed, &point).unwrap();
        assert_eq!(confirmed[p.index].text, "456.26");
        assert!(p.confidence >= CERTAIN, "{}", p.confidence);
        // One reading alone never is, however sure Tesseract is.
        let p = choose(&[cand("456.26", 99.0, false)], &point).unwrap();
        assert!(p.confidence < CERTAIN, "{}", p.confidence);
    }

    #[test]
    fn one_misread_value_does_not_hide_a_windows_four_figures() {
        // A CrystalDiskMark 5.2 window (real set 54) whose page pass read `89.45` as
        // `189145`: the `.` at a bar's end, the end's dark line as a `1`.
        let read = |texts: &[&str]| -> Vec<numbers::Interpretation> {
            texts.iter().map(|t| numbers::read_as(t, Some('.')).unwrap().interpretation).collect()
        };
        let page = read(&["207.9", "124.8", "117.8", "189145", "198.2", "121.2", "24.20", "31.55"]);
        let format = NumberFormat::of(Some('.'), &page);
        assert!(format.four_figures);
        // A CrystalDiskMark 6 window at 125 % (real set 12) whose page pass saw three
        // values, `149.6` without its point: the rows it missed are probed in this
        // format, and `62.90` fits it.
        assert!(four_figures(&read(&["1828.3", "1373.0", "14916"])));
        // Values with two decimals where most have more than four figures: not the format.
        assert!(!four_figures(&read(&["1905.92", "1650.44", "52.31", "117.80"])));
        let cell = [cand("189145", 90.0, true), cand("89.45", 72.0, false)];
        let p = choose(&cell, &format).unwrap();
        assert_eq!(cell[p.index].text, "89.45");
        assert!(p.confidence < CERTAIN, "{}", p.confidence);
    }

    #[test]
    fn a_value_in_the_windows_locale_is_read_in_it() {
        let comma = NumberFormat { mark: Some(','), decimals: Some(2), four_figures: false };
        // A crop that saw the narrow space and a page pass that did not agree on
        // `1 816,90` in a decimal-comma window.
        let both = [cand("1 816,90", 90.0, false), cand("1816,90", 90.0, true)];
        let p = choose(&both, &comma).unwrap();
        assert_eq!(p.read.interpretation.value(), Some(1816.9));
        assert!(p.confidence >= CERTAIN, "{}", p.confidence);
        // The same digits with a point are a misreading there.
        assert!(choose(&[cand("1816.90", 99.0, false)], &comma).is_none());
        // `1,816` where the window does not tell which mark is decimal: confirmed by both
        // readings, and still not certain.
        let two_ways = [cand("1,816", 95.0, false), cand("1,816", 95.0, true)];
        let p = choose(&two_ways, &NumberFormat { mark: None, decimals: None, four_figures: false }).unwrap();
        assert!(p.read.ambiguous);
        assert!(p.confidence < CERTAIN, "{}", p.confidence);
    }
}
