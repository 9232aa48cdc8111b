//! `ssdbase`: the one binary of SSDBase. Subcommands wire command-line arguments to the
//! `bench` crate and to the server library (`ssdbase::*`); no domain logic lives here.

mod backup_cmd;
mod drives_cmd;
mod dump_cmd;
mod import_cmd;
mod json_lines;
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
    /// Serve the website and the API (and the demo data on a new database).
    Serve(serve_cmd::ServeArgs),
    /// Load result files or datasets into the database, each file all or nothing; exits
    /// 1 when any file failed.
    Import(import_cmd::ImportArgs),
    /// Copy the database while servers keep serving (SQLite: VACUUM INTO; PostgreSQL:
    /// pg_dump --format=custom). Never overwrites a file.
    Backup(backup_cmd::BackupArgs),
    /// Bring a backup back: into a new or empty SQLite file, or (pg_restore --clean)
    /// into a PostgreSQL database; then opens it to check it.
    Restore(backup_cmd::RestoreArgs),
    /// Measure a drive on Linux with fio as KDiskMark or CrystalDiskMark would, identify
    /// it and its platform, show both, and with --submit URL send the result to SSDBase.
    Bench(ssdbase_bench::BenchArgs),
    /// Write the public dataset (visible results with tags, metrics and test keys; the
    /// catalogue; observations) as gzipped JSON Lines into a new directory.
    Dump(dump_cmd::DumpArgs),
    /// The catalogue's drives: duplicates under the identity rules
    Drives(drives_cmd::DrivesArgs),
}

fn main() -> ExitCode {
    let restart_failed = one_openmp_thread();
    let command = Cli::parse().command;
    // Every command logs through `tracing` on stderr (the storage layer warns, `serve`
    // logs every request), in the format `serve --log-format` chooses, else as text.
    // What a one-shot command reports to its user (a file that did not parse, why it
    // failed) is its own output on stdout/stderr, not a log line.
    ssdbase::log::init(match &command {
        Command::Serve(args) => args.log_format,
        _ => ssdbase::log::LogFormat::Text,
    });
    if let Some(error) = restart_failed {
        tracing::warn!(%error, "could not restart with OMP_THREAD_LIMIT=1; screenshot OCR may be slow");
    }
    match command {
        Command::Parse(args) => parse_cmd::run(&args),
        Command::Ocr(args) => ocr_cmd::run(&args),
        Command::Serve(args) => serve_cmd::run(&args),
        Command::Import(args) => import_cmd::run(&args),
        Command::Backup(args) => backup_cmd::run_backup(&args),
        Command::Restore(args) => backup_cmd::run_restore(&args),
        Command::Dump(args) => dump_cmd::run(&args),
        Command::Drives(args) => drives_cmd::run(&args),
        Command::Bench(args) => ssdbase_bench::run("ssdbase bench", &args),
    }
}

/// Tesseract (screenshot OCR) runs on OpenMP, whose spinning worker threads made
/// recognition about ten times slower on a busy machine; one thread per recognition is
/// faster and parallelism comes from recognising several images at once. libgomp reads
/// `OMP_THREAD_LIMIT` when it loads, before `main`, so when it is unset the process
/// re-executes itself once with it set. Returns why it could not (then it carries on
/// with the default thread count), to be logged once logging is set up.
fn one_openmp_thread() -> Option<std::io::Error> {
    use std::os::unix::process::CommandExt;
    if std::env::var_os("OMP_THREAD_LIMIT").is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    // Only returns when exec failed.
    Some(
        std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("OMP_THREAD_LIMIT", "1").exec(),
    )
}
