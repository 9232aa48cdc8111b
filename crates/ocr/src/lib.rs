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
mod frames;
mod grid;
pub mod labels;
mod locate;
pub mod numbers;
mod read;
mod settings;

// What a reading is, as JSON: defined with the API's other types, as the site decodes it.
pub use api_types::{CellReading, Layout, Recognition, Rect, RowReading, Settings};
pub use decode::{MAX_INPUT_BYTES, MAX_PIXELS, MAX_SIDE};

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

/// The window a reading read: its recognition, also when it says no test ran; `None`
/// for an error that read no window.
pub fn window_read(reading: &Result<Recognition, OcrError>) -> Option<&Recognition> {
    match reading {
        Ok(r) => Some(r),
        Err(OcrError::NoTestRan { recognition }) => Some(recognition),
        Err(_) => None,
    }
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

    /// Runs `f` as the part of this job from `lo` to `hi` of the work: its stages
    /// (0–1 of its own) are reported within that range, named `{name}: {stage}` (the stage alone when `name` is empty), so the
    /// share done never goes back when an image holds several windows.
    pub(crate) fn part<R>(&mut self, lo: f64, hi: f64, name: &str, f: impl FnOnce(&mut Job) -> R) -> R {
        let deadline = self.deadline;
        match self.progress.as_mut() {
            Some(outer) => {
                let mut inner = |done: f64, what: &str| {
                    let what = if name.is_empty() { what.to_string() } else { format!("{name}: {what}") };
                    outer(lo + (hi - lo) * done.clamp(0.0, 1.0), &what)
                };
                f(&mut Job { deadline, progress: Some(&mut inner) })
            }
            None => f(&mut Job { deadline, progress: None }),
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

/// The grids of framed value cells found in an image, for debugging layouts.
#[doc(hidden)]
pub fn debug_cell_grids(rgb: &image::RgbImage) -> Vec<(Rect, usize, usize, Rect)> {
    let grids = frames::cell_grids(rgb);
    grids.iter().map(|g| (g.bounds(), g.rows.len(), g.rows[0].len(), g.window_region(&grids))).collect()
}
