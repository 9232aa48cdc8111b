//! `ssdbase parse FILE|- ... [--format F]`.

use bench::Format;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ParseArgs {
    /// Result files to parse; `-` reads standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Skip auto-detection: cdm, kdiskmark, fio, orion, asssd or hdtune.
    #[arg(long)]
    format: Option<Format>,
}

/// Parses every input even when one fails, prints the results to stdout and one line
/// per failure to stderr, and exits 1 if any input failed.
pub fn run(args: &ParseArgs) -> ExitCode {
    crate::json_lines::each_input(&args.files, read_input, |name, bytes| {
        // The file's name tells what an ORION matrix holds (`x_iops.csv`).
        let name = Path::new(name).file_name().and_then(|n| n.to_str());
        bench::parse_bytes_named(bytes, name, args.format)
    })
}

fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}
