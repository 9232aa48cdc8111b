//! Screenshot OCR: a CrystalDiskMark or KDiskMark result window in, the same
//! `bench::BenchResult` the text parsers produce out, with a confidence per value and
//! the layout that was recognised.
//!
//! ```text
//! bytes ─► decode    format sniffed, size capped, animations refused, alpha on white
//!       ─► locate    in a larger image (a desktop), window-like patches from pixels;
//!                    each is read as below, every grid in it its own reading
//!       ─► page pass Tesseract over the window: words with boxes
//!       ─► grid      rows × columns of the tallest numbers (geometry, no pixel positions)
//!       ─► cells     each value and row button cropped, scaled, binarised, re-read
//!                    with a whitelist; checked against the page pass and the window's
//!                    number format
//!       ─► settings  title (tool, version), count / size / drive / unit / mix ratio
//!       ─► result    BenchResult { metrics, not_run, … } + confidences + layout
//! ```
//!
//! `recognize` is the whole pipeline. It runs on the calling thread (Tesseract is
//! loaded once per thread), takes well under a second for a typical screenshot and
//! allocates in proportion to the (capped) image size.

mod build;
pub mod corpus;
mod decode;
pub mod degrade;
pub mod engine;
mod grid;
pub mod labels;
mod locate;
mod read;
mod settings;

pub use decode::{MAX_INPUT_BYTES, MAX_PIXELS, MAX_SIDE};
pub use grid::Rect;

use bench::{BenchResult, Tool};
use serde::Serialize;

/// Why an image gave no result. Every variant says what was wrong in words a user can
/// act on; `NoTestRan` still carries what was read, so a page can show it.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    #[error("not an image: {detail}")]
    NotAnImage { detail: String },
    #[error("{format} images are not accepted (PNG, JPEG, GIF, BMP or WebP)")]
    UnsupportedFormat { format: String },
    #[error("the {format} file is damaged or truncated: {detail}")]
    Corrupt { format: String, detail: String },
    #[error("the image is too large: {detail}")]
    TooLarge { detail: String },
    #[error("the {format} file is animated (several frames); send a still screenshot")]
    Animated { format: String },
    #[error("no CrystalDiskMark or KDiskMark result window found: {detail}")]
    NoBenchmarkWindow { detail: String },
    #[error("the window shows no result: every value is zero (no test ran)")]
    NoTestRan { recognition: Box<Recognition> },
    #[error("reading the screenshot took longer than {seconds:.0} s and was stopped; a screenshot of the window alone reads faster")]
    DeadlineExceeded { seconds: f32 },
    #[error("OCR engine: {detail}")]
    Engine { detail: String },
}

/// Everything read from one screenshot.
#[derive(Debug, Clone, Serialize)]
pub struct Recognition {
    /// The result in SSDBase's public format: only values that were read, keyed by the
    /// row labels; rows that printed zero are in `not_run`.
    pub result: BenchResult,
    pub layout: Layout,
    pub settings: Settings,
    /// Every row as read, with per-value text and confidence, including values that could
    /// not be read or belong to rows whose label could not be read.
    pub rows: Vec<RowReading>,
    /// The lowest confidence of any value or label that went into `result` (0–1).
    pub confidence: f32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    pub tool: Tool,
    /// `crystaldiskmark-3`, `crystaldiskmark-5`, `crystaldiskmark-7+`, `kdiskmark`.
    pub family: String,
    /// `default`, `nvme`, `peak`, `real`, `classic`, `custom`.
    pub preset: String,
    /// Column headings by position: `Read`, `Write` and, when present, `Mix`.
    pub columns: Vec<String>,
    pub rows: usize,
    /// Where the value grid is in the image (pixels), to show beside the values.
    pub grid: Rect,
    /// Value digit height relative to a CrystalDiskMark 8 window at 100 % (1.0 = 100 %).
    pub scale: f32,
    pub title_bar: bool,
}

/// The settings bar and title bar as drawn (`None`: not visible or not readable).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Settings {
    pub title: Option<String>,
    pub version: Option<String>,
    pub test_count: Option<u32>,
    pub test_size: Option<String>,
    pub drive: Option<String>,
    pub unit: Option<String>,
    pub mix_ratio: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RowReading {
    /// Canonical label (`SEQ1M Q8T1`, `4K QD32`, `RND4K (μs)`), `None` when unreadable.
    pub label: Option<String>,
    pub label_confidence: f32,
    /// What the OCR read on the button, for a person correcting it.
    pub label_raw: String,
    /// The unit of this row's values (`MB/s`, `IOPS`, `μs`, ...).
    pub unit: String,
    pub cells: Vec<CellReading>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CellReading {
    /// `Read`, `Write` or `Mix`.
    pub column: String,
    /// The value as drawn (`19,730.47`), `None` when no reading was a valid number.
    pub text: Option<String>,
    pub value: Option<f64>,
    /// 0–1: engine confidence, raised when independent readings agree, lowered when the
    /// number's format disagrees with the rest of the window.
    pub confidence: f32,
    pub rect: Rect,
}

/// Reads one screenshot (PNG, JPEG, GIF, BMP or WebP bytes): the benchmark window in
/// it, or, when it shows several, the left-most one that reads (see `recognize_all`).
pub fn recognize(bytes: &[u8]) -> Result<Recognition, OcrError> {
    let readings = recognize_all(bytes)?;
    let mut first_err = None;
    for r in readings {
        match r {
            Ok(r) => return Ok(r),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| OcrError::NoBenchmarkWindow { detail: "no window could be read".into() }))
}

/// One reading per window found, left to right: each its own result or its own error.
pub type Readings = Vec<Result<Recognition, OcrError>>;

/// Reads every benchmark window in a screenshot (a desktop capture, two windows side by
/// side), left to right: one reading per window, each its own result or its own error.
/// The outer error is for the image as a whole (not an image, no window at all).
pub fn recognize_all(bytes: &[u8]) -> Result<Readings, OcrError> {
    recognize_job(bytes, &mut Job::default())
}

/// How a queued recognition runs: a wall-clock limit and where its stages are reported.
#[derive(Default)]
pub struct Job<'a> {
    /// Stop with `OcrError::DeadlineExceeded` once this much time has passed (checked
    /// before every Tesseract call, so the overrun is at most one call).
    pub deadline: Option<std::time::Duration>,
    /// Called with the share done (0–1) and the stage being started, e.g.
    /// `(0.3, "reading window 1 of 2: values")`.
    pub progress: Option<&'a mut Progress<'a>>,
}

/// Receives the share done (0–1) and the stage being started.
pub type Progress<'a> = dyn FnMut(f64, &str) + 'a;

impl Job<'_> {
    pub(crate) fn stage(&mut self, done: f64, what: &str) {
        if let Some(p) = self.progress.as_mut() {
            p(done.clamp(0.0, 1.0), what);
        }
    }
}

/// `recognize_all` with a deadline and progress reports (the server's queue).
pub fn recognize_job(bytes: &[u8], job: &mut Job) -> Result<Readings, OcrError> {
    let _deadline = engine::deadline_guard(job.deadline);
    job.stage(0.0, "decoding the image");
    let rgb = decode::decode(bytes)?;
    let readings = build::recognize_windows(&rgb, job)?;
    job.stage(1.0, "done");
    Ok(readings)
}

/// The page pass alone (words with boxes), for debugging layouts.
#[doc(hidden)]
pub fn debug_page_words(gray: &image::RgbImage) -> Result<Vec<engine::Word>, OcrError> {
    engine::page_words(gray)
}

/// The grid found in a page pass, for debugging layouts.
#[doc(hidden)]
pub fn debug_grid(words: &[engine::Word]) -> Option<String> {
    grid::find(words).map(|g| format!("{g:#?}"))
}
