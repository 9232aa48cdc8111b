//! `ssdbase dump [--database-url URL] --to DIR`: the public dataset as gzipped JSON
//! Lines (layout in `ssdbase::dump` and docs/operating.md, "Open data dumps").

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct DumpArgs {
    /// `sqlite://FILE` or `postgres://USER:PASS@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://ssdbase.db")]
    database_url: String,
    /// A new or empty directory for the dump.
    #[arg(long)]
    to: PathBuf,
}

pub fn run(args: &DumpArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ssdbase: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = runtime.block_on(async {
        let storage = ssdbase::storage::connect(&args.database_url).await.context("opening the database")?;
        ssdbase::dump::write(&storage, &args.to).await
    });
    match done {
        Ok(manifest) => {
            let counts: Vec<String> = manifest.files.iter().map(|(f, n)| format!("{f}: {n} lines")).collect();
            println!("dumped to {} ({})", args.to.display(), counts.join(", "));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ssdbase: {e:#}");
            ExitCode::FAILURE
        }
    }
}
