//! `ssdbase ocr IMAGE...`: reads CrystalDiskMark / KDiskMark screenshots.

use serde::Serialize;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct OcrArgs {
    /// Screenshots (PNG, JPEG, GIF, BMP or WebP).
    #[arg(required = true)]
    images: Vec<PathBuf>,
}

#[derive(Serialize)]
struct Output<'a> {
    file: String,
    #[serde(flatten)]
    recognition: &'a ocr::Recognition,
}

/// Reads every image even when one fails; prints one JSON document (one line) per
/// recognised image to stdout and one line per failure to stderr; exits 1 if any failed.
pub fn run(args: &OcrArgs) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for path in &args.images {
        let name = path.display().to_string();
        let bytes = match read_bounded(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("ssdbase: {name}: {e}");
                failed = true;
                continue;
            }
        };
        match ocr::recognize(&bytes) {
            Ok(r) => {
                let line = serde_json::to_string(&Output { file: name, recognition: &r })
                    .expect("recognitions always serialise");
                if writeln!(out, "{line}").is_err() {
                    return ExitCode::FAILURE; // stdout closed: nobody is listening
                }
            }
            Err(e) => {
                eprintln!("ssdbase: {name}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn read_bounded(path: &PathBuf) -> io::Result<Vec<u8>> {
    let len = std::fs::metadata(path)?.len();
    if len > ocr::MAX_INPUT_BYTES as u64 {
        return Err(io::Error::other(format!(
            "{len} bytes is larger than the {} bytes a screenshot may have",
            ocr::MAX_INPUT_BYTES
        )));
    }
    std::fs::read(path)
}
