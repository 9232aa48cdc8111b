//! `ssdbase`: the one binary of SSDBase. Subcommands wire command-line arguments to the
//! `bench` crate and to the server library (`ssdbase::*`); no domain logic lives here.

mod import_cmd;
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
    /// Serve the API (and the demo data on a new database).
    Serve(serve_cmd::ServeArgs),
    /// Load result files or datasets into the database, each file all or nothing; exits
    /// 1 when any file failed.
    Import(import_cmd::ImportArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Parse(args) => parse_cmd::run(&args),
        Command::Serve(args) => serve_cmd::run(&args),
        Command::Import(args) => import_cmd::run(&args),
    }
}
