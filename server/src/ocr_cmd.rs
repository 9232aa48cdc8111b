//! `ssdbase ocr IMAGE...`: reads CrystalDiskMark / KDiskMark screenshots.

use serde::Serialize;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct OcrArgs {
    /// Screenshots (PNG, JPEG, GIF, BMP or WebP).
    #[arg(required = true)]
    images: Vec<PathBuf>,
}

#[derive(Serialize)]
struct Output {
    file: String,
    #[serde(flatten)]
    recognition: ocr::Recognition,
}

/// Reads every image even when one fails; prints one JSON document (one line) per
/// recognised image to stdout and one line per failure to stderr; exits 1 if any failed.
pub fn run(args: &OcrArgs) -> ExitCode {
    crate::json_lines::each_input(&args.images, read_bounded, |name, bytes| {
        ocr::recognize(bytes).map(|recognition| vec![Output { file: name.to_string(), recognition }])
    })
}

fn read_bounded(path: &Path) -> io::Result<Vec<u8>> {
    let len = std::fs::metadata(path)?.len();
    if len > ocr::MAX_INPUT_BYTES as u64 {
        return Err(io::Error::other(format!(
            "{len} bytes is larger than the {} bytes a screenshot may have",
            ocr::MAX_INPUT_BYTES
        )));
    }
    std::fs::read(path)
}
