//! `ssdbase parse FILE|- ... [--format F]`.

use bench::Format;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ParseArgs {
    /// Result files to parse; `-` reads standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Skip auto-detection: cdm, kdiskmark, fio, orion, asssd or hdtune.
    #[arg(long, value_parser = parse_format)]
    format: Option<Format>,
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_id(s).ok_or_else(|| {
        let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
        format!("unknown format {s:?}; expected one of {}", ids.join(", "))
    })
}

/// Parses every input even when one fails, prints the results to stdout and one line
/// per failure to stderr, and exits 1 if any input failed.
pub fn run(args: &ParseArgs) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut failed = false;
    for path in &args.files {
        let name = path.display().to_string();
        let bytes = match read_input(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("ssdbase: {name}: {e}");
                failed = true;
                continue;
            }
        };
        match bench::parse_bytes(&bytes, args.format) {
            Ok(results) => {
                for r in results {
                    let line = serde_json::to_string(&r).expect("results always serialise");
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

fn read_input(path: &PathBuf) -> io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}
