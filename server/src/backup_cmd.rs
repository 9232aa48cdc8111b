//! `ssdbase backup [--database-url URL] --to FILE` and
//! `ssdbase restore --from FILE [--database-url URL]`.
//!
//! A backup is a consistent copy taken while servers keep serving:
//! - SQLite: `VACUUM INTO 'FILE'` — one read transaction, so the copy is the database
//!   as of one commit (WAL readers never block the writer, nor it them); the copy is a
//!   plain SQLite database file.
//! - PostgreSQL: `pg_dump --format=custom` (one repeatable-read snapshot), restored with
//!   `pg_restore --clean --if-exists --no-owner`.
//!
//! A backup holds no screenshot job (`ocr_jobs`): unpublished screenshots belong to their
//! uploaders and are deleted after a few days, so they never outlive that in a backup;
//! a published screenshot is in the backup as its result's upload. The SQLite copy is
//! emptied of them and vacuumed (so their bytes are not in its free pages); pg_dump
//! leaves out that table's rows.
//!
//! A restore never overwrites data: an SQLite target must not exist or be empty, and the
//! restored database is opened (integrity check, migrations) before the command says
//! it is done.

use anyhow::{bail, Context};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::str::FromStr;

#[derive(clap::Args)]
pub struct BackupArgs {
    /// The database to copy: `sqlite://FILE` or `postgres://USER:PASS@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://ssdbase.db")]
    database_url: String,
    /// Where the backup goes; an existing file is never overwritten.
    #[arg(long)]
    to: PathBuf,
}

#[derive(clap::Args)]
pub struct RestoreArgs {
    /// A file written by `ssdbase backup`.
    #[arg(long)]
    from: PathBuf,
    /// The database to restore into: `sqlite://FILE` (must not exist or be empty) or
    /// `postgres://USER:PASS@HOST/DB` (an existing database; SSDBase's tables in it are
    /// replaced).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://ssdbase.db")]
    database_url: String,
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the async runtime")
}

fn finish(what: anyhow::Result<String>) -> ExitCode {
    match what {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ssdbase: {e:#}");
            ExitCode::FAILURE
        }
    }
}

pub fn run_backup(args: &BackupArgs) -> ExitCode {
    finish(runtime().and_then(|rt| rt.block_on(backup(&args.database_url, &args.to))))
}

pub fn run_restore(args: &RestoreArgs) -> ExitCode {
    finish(runtime().and_then(|rt| rt.block_on(restore(&args.from, &args.database_url))))
}

enum Backend {
    Sqlite(Box<SqliteConnectOptions>),
    Postgres,
}

fn backend(url: &str) -> anyhow::Result<Backend> {
    if url.starts_with("sqlite:") {
        Ok(Backend::Sqlite(Box::new(SqliteConnectOptions::from_str(url).context("the SQLite URL")?)))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Backend::Postgres)
    } else {
        bail!("unsupported database URL {url:?}: expected sqlite:FILE or postgres://...")
    }
}

async fn backup(url: &str, to: &Path) -> anyhow::Result<String> {
    if to.exists() {
        bail!("{} exists: a backup never overwrites a file; choose a new name", to.display());
    }
    match backend(url)? {
        Backend::Sqlite(options) => {
            let file = options.get_filename().to_path_buf();
            if !file.is_file() {
                bail!("no SQLite database at {}", file.display());
            }
            let mut conn = (*options)
                .create_if_missing(false)
                .busy_timeout(std::time::Duration::from_secs(30))
                .connect()
                .await
                .with_context(|| format!("opening {}", file.display()))?;
            let target = to.to_str().with_context(|| format!("{} is not UTF-8", to.display()))?;
            sqlx::query("VACUUM INTO ?")
                .bind(target)
                .execute(&mut conn)
                .await
                .with_context(|| format!("VACUUM INTO {}", to.display()))?;
            conn.close().await?;
            let mut copy = SqliteConnectOptions::new()
                .filename(to)
                .connect()
                .await
                .with_context(|| format!("opening the copy {}", to.display()))?;
            sqlx::query("DELETE FROM ocr_jobs").execute(&mut copy).await?;
            sqlx::query("VACUUM").execute(&mut copy).await.context("vacuuming the copy")?;
            copy.close().await?;
            Ok(format!("backed up {} to {} (SQLite database file)", file.display(), to.display()))
        }
        Backend::Postgres => {
            let out = to.to_str().with_context(|| format!("{} is not UTF-8", to.display()))?;
            run_tool(
                "pg_dump",
                &[
                    "--format=custom",
                    "--no-owner",
                    "--exclude-table-data=ocr_jobs",
                    "--file",
                    out,
                    "--dbname",
                    url,
                ],
                "backing up the PostgreSQL database",
            )?;
            Ok(format!(
                "backed up {} to {} (pg_dump custom format; restore with `ssdbase restore` or pg_restore)",
                crate::serve_cmd::redact(url),
                to.display()
            ))
        }
    }
}

async fn restore(from: &Path, url: &str) -> anyhow::Result<String> {
    if !from.is_file() {
        bail!("no backup at {}", from.display());
    }
    match backend(url)? {
        Backend::Sqlite(options) => {
            let target = options.get_filename().to_path_buf();
            restore_sqlite_file(from, &target)?;
            // Open it: integrity check, then the migrations (a backup of an older
            // version is brought up to date), so a bad copy fails here, not in serve.
            let mut conn = options.clone().connect().await.context("opening the restored database")?;
            let check: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&mut conn).await?;
            if check != "ok" {
                bail!("the restored database {} fails its integrity check: {check}", target.display());
            }
            conn.close().await?;
            let results = check_opens(url).await?;
            Ok(format!(
                "restored {} into {} ({results} visible results on catalogue drives)",
                from.display(),
                target.display()
            ))
        }
        Backend::Postgres => {
            let file = from.to_str().with_context(|| format!("{} is not UTF-8", from.display()))?;
            run_tool(
                "pg_restore",
                &[
                    "--clean",
                    "--if-exists",
                    "--no-owner",
                    "--exit-on-error",
                    "--single-transaction",
                    "--dbname",
                    url,
                    file,
                ],
                "restoring into the PostgreSQL database",
            )?;
            let results = check_opens(url).await?;
            Ok(format!(
                "restored {} into {} ({results} visible results on catalogue drives)",
                from.display(),
                crate::serve_cmd::redact(url)
            ))
        }
    }
}

/// Copies the backup into place when the target does not exist or is an empty file:
/// first to a temporary file beside it, then renamed, so the target is never half
/// written and no partial copy is left behind.
fn restore_sqlite_file(from: &Path, target: &Path) -> anyhow::Result<()> {
    let occupied = |p: &Path| std::fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false);
    if occupied(target) {
        bail!(
            "{} exists and is not empty: restore into a new file (a restore never overwrites data)",
            target.display()
        );
    }
    let wal = PathBuf::from(format!("{}-wal", target.display()));
    if occupied(&wal) {
        bail!("{} exists: the target has uncommitted data; restore into a new file", wal.display());
    }
    // Beside the target (a rename stays on its filesystem); removed if anything fails.
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("making a temporary file in {}", dir.display()))?;
    let mut source = std::fs::File::open(from).with_context(|| format!("opening {}", from.display()))?;
    std::io::copy(&mut source, temp.as_file_mut())
        .with_context(|| format!("copying {} beside {}", from.display(), target.display()))?;
    temp.as_file().sync_all().context("syncing the copy")?;
    temp.persist(target).with_context(|| format!("moving the copy to {}", target.display()))?;
    Ok(())
}

/// Opens the restored database as `serve` would (migrations included) and counts its
/// results.
async fn check_opens(url: &str) -> anyhow::Result<usize> {
    let storage = ssdbase::storage::connect(url).await.context("opening the restored database")?;
    let drives = storage.list_drives().await.context("reading the restored database")?;
    Ok(drives.iter().map(|d| d.result_count as usize).sum())
}

/// `postgres://user:secret@host/db` → (`postgres://user@host/db`, `secret`, percent-decoded).
fn split_password(text: &str) -> Option<(String, String)> {
    let mut url = url::Url::parse(text).ok().filter(|u| matches!(u.scheme(), "postgres" | "postgresql"))?;
    let password = percent_encoding::percent_decode_str(url.password()?).decode_utf8_lossy().into_owned();
    url.set_password(None).ok()?;
    Some((url.into(), password))
}

/// Runs one PostgreSQL client program, naming it and the Debian package when missing.
/// The database URL is passed without its password (any user on the machine can read a
/// process's arguments); the password goes in `PGPASSWORD`.
fn run_tool(program: &str, args: &[&str], what: &str) -> anyhow::Result<()> {
    let mut command = Command::new(program);
    for a in args {
        match split_password(a) {
            Some((url, password)) => {
                command.arg(url).env("PGPASSWORD", password);
            }
            None => {
                command.arg(a);
            }
        }
    }
    let out = match command.output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{program} is not installed: {what} needs PostgreSQL's client programs \
             (Debian: `apt-get install postgresql-client`, of the server's major version or newer)"
        ),
        Err(e) => return Err(e).with_context(|| format!("running {program}")),
    };
    if !out.status.success() {
        bail!("{program} failed ({}) {what}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_password_leaves_the_command_line() {
        assert_eq!(
            super::split_password("postgres://u:s%40cr%3At@h:5432/db?sslmode=disable"),
            Some(("postgres://u@h:5432/db?sslmode=disable".into(), "s@cr:t".into()))
        );
        assert_eq!(super::split_password("postgres://u@h/db"), None);
        assert_eq!(super::split_password("--clean"), None);
    }
}
