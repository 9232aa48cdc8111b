//! `ssdbase-bench DIR [--submit URL]`: the runner as a binary of its own, statically
//! linked, for people who want to measure a drive without building the server.

use clap::Parser;
use std::process::ExitCode;

/// Measures the drive under DIR with fio, as KDiskMark or CrystalDiskMark would, shows
/// what it found about the drive and platform, and with --submit sends the result to an
/// SSDBase.
#[derive(Parser)]
#[command(name = "ssdbase-bench", version)]
struct Cli {
    #[command(flatten)]
    args: ssdbase_bench::BenchArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    ssdbase_bench::run("ssdbase-bench", &cli.args)
}
