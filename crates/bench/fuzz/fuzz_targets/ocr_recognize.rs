#![no_main]
//! Any bytes through screenshot recognition (decode limits, window search, grid,
//! Tesseract reads), with the server's kind of deadline: it must return an `OcrError`
//! or recognitions whose results are well formed, never panic, hang past the deadline
//! or exhaust memory.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut job = ocr::Job { deadline: Some(std::time::Duration::from_secs(5)), progress: None };
    if let Ok(readings) = ocr::recognize_job(data, &mut job) {
        for r in readings.into_iter().flatten() {
            bench::parse::check_well_formed(std::slice::from_ref(&r.result)).unwrap();
        }
    }
});
