//! `ssdbase drives duplicates [--database-url URL] [--merge]`: the drives the identity
//! rules say are one (`storage::duplicates`), with their result counts; `--merge` merges
//! the certain groups as the API's merge route does.

use anyhow::Context;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct DrivesArgs {
    #[command(subcommand)]
    command: DrivesCommand,
}

#[derive(clap::Subcommand)]
enum DrivesCommand {
    /// List drives that are one drive under two names (same line and capacity)
    Duplicates {
        /// `sqlite://FILE` or `postgres://USER:PASS@HOST/DB`.
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite://ssdbase.db")]
        database_url: String,
        /// Merge each certain group (at most one reviewed drive) into its drive.
        #[arg(long)]
        merge: bool,
    },
}

pub fn run(args: &DrivesArgs) -> ExitCode {
    let DrivesCommand::Duplicates { database_url, merge } = &args.command;
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ssdbase: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = runtime.block_on(async {
        let storage = ssdbase::storage::connect(database_url).await.context("opening the database")?;
        let groups = ssdbase::storage::duplicates::find(storage.as_ref()).await?;
        if groups.is_empty() {
            println!("no duplicate drives");
        }
        for g in &groups {
            let verdict = match &g.into {
                Some(into) => format!("certain: merge into {into}"),
                None => "for review: two reviewed drives".to_string(),
            };
            println!("{} ({verdict})", g.keys.join(", "));
            for d in &g.drives {
                let reviewed = if d.drive.reviewed { "reviewed" } else { "community" };
                println!(
                    "  {}  {} {} {} GB  {} results, {reviewed}",
                    d.drive.id, d.drive.vendor, d.drive.model, d.drive.capacity_gb, d.result_count
                );
            }
        }
        if *merge {
            let reason = "one drive by the identity rules (ssdbase drives duplicates --merge)";
            for m in ssdbase::storage::duplicates::merge_certain(
                storage.as_ref(),
                reason,
                ssdbase::ingest::now_unix(),
            )
            .await?
            {
                println!("merged {} into {} ({} results moved)", m.from, m.into, m.moved_results);
            }
        }
        anyhow::Ok(())
    });
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ssdbase: {e:#}");
            ExitCode::FAILURE
        }
    }
}
