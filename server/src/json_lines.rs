//! The output loop `ssdbase parse` and `ssdbase ocr` share: every input is handled even
//! when one fails; what an input gives is printed as JSON lines on stdout, a failure as
//! one `ssdbase: NAME: reason` line on stderr; the exit status is 1 if any input failed.

use serde::Serialize;
use std::fmt::Display;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn each_input<T: Serialize, E: Display>(
    inputs: &[PathBuf],
    read: impl Fn(&Path) -> io::Result<Vec<u8>>,
    mut convert: impl FnMut(&str, &[u8]) -> Result<Vec<T>, E>,
) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for path in inputs {
        let name = path.display().to_string();
        let outcome = read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| convert(&name, &bytes).map_err(|e| e.to_string()));
        match outcome {
            Ok(items) => {
                for item in items {
                    let line = serde_json::to_string(&item).expect("outputs always serialise");
                    if writeln!(out, "{line}").is_err() {
                        return ExitCode::FAILURE; // stdout closed: nobody is listening
                    }
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
