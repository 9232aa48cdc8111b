//! The one place that talks to Tesseract (Debian's libtesseract through tesseract-rs).
//! An engine is loaded once per thread and reused: loading the English LSTM model costs
//! about 0.1 s, recognising a cell a few milliseconds.
//!
//! Run processes that use it with `OMP_THREAD_LIMIT=1`: Debian builds Tesseract with
//! OpenMP, whose spinning worker threads made recognition about ten times slower on a
//! busy machine. libgomp reads the variable when it loads, before any Rust code runs, so
//! it cannot be set from here (`.cargo/config.toml` sets it for cargo; `ssdbase` re-execs
//! itself with it).

use crate::OcrError;
use image::{GrayImage, RgbImage};
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, CStr};
use std::time::{Duration, Instant};
use tesseract_rs::{TessPageSegMode, TesseractAPI};

// Leptonica, under Tesseract, prints its complaints ("Error in boxClipToRectangle: box
// outside rectangle") straight to stderr: onto the terminal of whoever runs `ssdbase
// ocr`, and unstructured into the server's output. They concern crops the reader tries
// and drops anyway, so they go to the log at debug level instead (target `leptonica`).
#[link(name = "lept")]
extern "C" {
    fn leptSetStderrHandler(handler: Option<unsafe extern "C" fn(*const c_char)>);
}

unsafe extern "C" fn leptonica_to_log(message: *const c_char) {
    if message.is_null() {
        return;
    }
    // SAFETY: Leptonica passes a NUL-terminated string that lives for the call.
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
    tracing::debug!(target: "leptonica", "{}", text.trim_end());
}

/// Sends Leptonica's messages to the log instead of stderr, for the whole process. Done
/// by the engine before its first use; idempotent.
pub fn quiet_leptonica() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: the handler is a plain function, valid for the life of the process.
    ONCE.call_once(|| unsafe { leptSetStderrHandler(Some(leptonica_to_log)) });
}

/// Where Debian's `tesseract-ocr-eng` puts its model; `TESSDATA_PREFIX` overrides it.
const DEBIAN_TESSDATA: &str = "/usr/share/tesseract-ocr/5/tessdata";

thread_local! {
    static ENGINE: RefCell<Option<TesseractAPI>> = const { RefCell::new(None) };
    /// The running job's wall-clock deadline: checked before every Tesseract call, the
    /// unit of work that can be slow (a whole page, a damaged crop), so a job ends at
    /// most one call after it.
    static DEADLINE: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
    /// Tesseract calls made on this thread so far (`calls`).
    static CALLS: Cell<Calls> = const { Cell::new(Calls { page_passes: 0, text_reads: 0 }) };
}

/// How many Tesseract calls this thread has made: the reader's cost in its own unit of
/// work, which a busy machine does not blur (the benchmark prints it per image beside
/// the seconds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Calls {
    /// Full-page passes (words with boxes): 0.1-1 s each.
    pub page_passes: u64,
    /// Single-line or single-block reads (a cell, a button, a settings box): milliseconds.
    pub text_reads: u64,
}

pub fn calls() -> Calls {
    CALLS.with(Cell::get)
}

fn count(f: impl FnOnce(&mut Calls)) {
    CALLS.with(|c| {
        let mut n = c.get();
        f(&mut n);
        c.set(n);
    });
}

/// Sets this thread's deadline until the guard is dropped.
pub fn deadline_guard(deadline: Option<Duration>) -> impl Drop {
    struct Guard;
    impl Drop for Guard {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(None));
        }
    }
    DEADLINE.with(|d| d.set(deadline.map(|limit| (Instant::now() + limit, limit))));
    Guard
}

/// `Err(DeadlineExceeded)` once the running job's time is up.
pub fn check_deadline() -> Result<(), OcrError> {
    match DEADLINE.with(Cell::get) {
        Some((at, limit)) if Instant::now() >= at => {
            Err(OcrError::DeadlineExceeded { seconds: limit.as_secs_f32() })
        }
        _ => Ok(()),
    }
}

/// One recognised word of a full-page pass, in image pixels.
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    pub left: i32,
    pub top: i32,
    pub width: i32,
    pub height: i32,
    pub conf: f32,
    /// Tesseract's (block, paragraph, line) numbers: words of one text line share them.
    pub line: (u32, u32, u32),
}

impl Word {
    pub fn right(&self) -> i32 {
        self.left + self.width
    }
    pub fn bottom(&self) -> i32 {
        self.top + self.height
    }
    pub fn cy(&self) -> f32 {
        self.top as f32 + self.height as f32 / 2.0
    }
}

fn tessdata() -> String {
    std::env::var("TESSDATA_PREFIX").unwrap_or_else(|_| DEBIAN_TESSDATA.to_string())
}

fn with_engine<T>(f: impl FnOnce(&TesseractAPI) -> Result<T, OcrError>) -> Result<T, OcrError> {
    check_deadline()?;
    ENGINE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            quiet_leptonica();
            let api = TesseractAPI::new();
            let path = tessdata();
            api.init(&path, "eng").map_err(|e| OcrError::Engine {
                detail: format!(
                    "cannot load Tesseract's English model from {path} ({e}); install tesseract-ocr-eng or set TESSDATA_PREFIX"
                ),
            })?;
            // Tesseract prints "Estimating resolution" and similar to stderr otherwise.
            let _ = api.set_variable("debug_file", "/dev/null");
            *slot = Some(api);
        }
        f(slot.as_ref().expect("engine was just created"))
    })
}

fn engine_err(what: &str) -> impl Fn(tesseract_rs::TesseractError) -> OcrError + '_ {
    move |e| OcrError::Engine { detail: format!("{what}: {e}") }
}

fn set_gray(api: &TesseractAPI, img: &GrayImage) -> Result<(), OcrError> {
    let (w, h) = (img.width() as i32, img.height() as i32);
    api.set_image(img.as_raw(), w, h, 1, w).map_err(engine_err("set image"))?;
    api.set_source_resolution(300).map_err(engine_err("set resolution"))
}

/// Full-page recognition with sparse-text segmentation: every word with its box.
/// Colour matters here: Tesseract thresholds each channel, which separates white digits
/// from a blue bar far better than any grey conversion.
pub fn page_words(img: &RgbImage) -> Result<Vec<Word>, OcrError> {
    page_words_thresholded(img, Threshold::Global)
}

/// How Tesseract turns the page into black and white before finding text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threshold {
    /// One Otsu threshold for the whole image: best on a window alone.
    Global,
    /// Sauvola's local threshold: a window on a dark or busy desktop, where one
    /// threshold for the whole image turns the window's text into a blank.
    Local,
}

pub fn page_words_thresholded(img: &RgbImage, threshold: Threshold) -> Result<Vec<Word>, OcrError> {
    with_engine(|api| {
        api.set_variable("tessedit_char_whitelist", "").map_err(engine_err("whitelist"))?;
        let method = if threshold == Threshold::Local { "2" } else { "0" };
        api.set_variable("thresholding_method", method).map_err(engine_err("thresholding"))?;
        api.set_page_seg_mode(TessPageSegMode::PSM_SPARSE_TEXT).map_err(engine_err("page mode"))?;
        let (w, h) = (img.width() as i32, img.height() as i32);
        api.set_image(img.as_raw(), w, h, 3, 3 * w).map_err(engine_err("set image"))?;
        api.set_source_resolution(300).map_err(engine_err("set resolution"))?;
        count(|c| c.page_passes += 1);
        let tsv = api.get_tsv_text(0).map_err(engine_err("recognise page"))?;
        Ok(parse_tsv(&tsv))
    })
}

/// One line of text (a value cell, a settings strip) or one block (a two-line row
/// button), restricted to `whitelist` when given. Returns text and mean confidence 0–100.
pub fn read_text(img: &GrayImage, block: bool, whitelist: &str) -> Result<(String, f32), OcrError> {
    with_engine(|api| {
        api.set_variable("tessedit_char_whitelist", whitelist).map_err(engine_err("whitelist"))?;
        let mode = if block { TessPageSegMode::PSM_SINGLE_BLOCK } else { TessPageSegMode::PSM_SINGLE_LINE };
        api.set_page_seg_mode(mode).map_err(engine_err("page mode"))?;
        api.set_variable("thresholding_method", "0").map_err(engine_err("thresholding"))?;
        set_gray(api, img)?;
        count(|c| c.text_reads += 1);
        let text = api.get_utf8_text().map_err(engine_err("recognise"))?;
        let conf = api.mean_text_conf().map_err(engine_err("confidence"))? as f32;
        Ok((text.trim().to_string(), conf))
    })
}

fn parse_tsv(tsv: &str) -> Vec<Word> {
    tsv.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 12 || f[0] != "5" {
                return None;
            }
            let n = |i: usize| f[i].parse::<i32>().ok();
            let text = f[11].trim();
            if text.is_empty() {
                return None;
            }
            Some(Word {
                text: text.to_string(),
                left: n(6)?,
                top: n(7)?,
                width: n(8)?,
                height: n(9)?,
                conf: f[10].parse().unwrap_or(0.0),
                line: (n(2)? as u32, n(3)? as u32, n(4)? as u32),
            })
        })
        .collect()
}
