#![no_main]
//! Any bytes through screenshot recognition (decode limits, grid, Tesseract reads): it
//! must return an `OcrError` or a recognition whose result is well formed, never panic,
//! hang or exhaust memory.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = ocr::recognize(data) {
        bench::parse::check_well_formed(std::slice::from_ref(&r.result)).unwrap();
    }
});
