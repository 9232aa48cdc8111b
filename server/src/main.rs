//! `ssdbase`: the one binary of SSDBase. Subcommands wire command-line arguments to the
//! `bench` crate and to the server library (`ssdbase::*`); no domain logic lives here.

mod ocr_cmd;
mod parse_cmd;
mod serve_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "ssdbase", version, about = "Publish, compare and chart SSD benchmark results")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse result files and print each result as one line of JSON (SSDBase's public
    /// result format). A file holding several runs prints one line per run.
    Parse(parse_cmd::ParseArgs),
    /// Read CrystalDiskMark / KDiskMark screenshots and print each as one line of JSON:
    /// the result, a confidence per value, the layout and settings recognised.
    Ocr(ocr_cmd::OcrArgs),
    /// Serve the API (and the demo data on a new database).
    Serve(serve_cmd::ServeArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Parse(args) => parse_cmd::run(&args),
        Command::Ocr(args) => ocr_cmd::run(&args),
        Command::Serve(args) => serve_cmd::run(&args),
    }
}
