//! `ssdbase import FILE|DIR... [--database-url URL] [--tags JSON|FILE] [--format F]`:
//! loads result files (any format the bench crate reads, or one result in the public
//! result format) and datasets (`bench::seeds::Dataset` JSON: drives and tagged
//! results) straight into the database.
//!
//! Each file is stored in one transaction, all of it or nothing. A result file's tags
//! come from its sidecar `FILE.tags.json` (or `STEM.tags.json`), else from `--tags`.
//! Directories are walked recursively, in name order; sidecars are not inputs.

use anyhow::Context;
use bench::seeds::Dataset;
use bench::{BenchResult, Format, Tags};
use indicatif::{ProgressBar, ProgressStyle};
use ssdbase::ingest::{self, Catalogue, Refused};
use ssdbase::storage::{DynStorage, Submitted};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ImportArgs {
    /// Result files, dataset JSON files, or directories of them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// `sqlite://FILE` (created when missing) or `postgres://USER:PASS@HOST/DB`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://ssdbase.db")]
    database_url: String,
    /// Tags for result files without a sidecar: JSON text, or a file holding it.
    #[arg(long)]
    tags: Option<String>,
    /// Skip auto-detection: cdm, kdiskmark, fio, orion, asssd or hdtune.
    #[arg(long)]
    format: Option<Format>,
}

const SIDECAR: &str = ".tags.json";

/// What happened to the files.
#[derive(Debug, Default)]
struct Summary {
    files: usize,
    stored: usize,
    duplicates: usize,
    /// `file: reason` (the reason names the line where there is one).
    failed: Vec<String>,
}

pub fn run(args: &ImportArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ssdbase: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(import(args)) {
        Ok(summary) => {
            for f in &summary.failed {
                eprintln!("ssdbase: {f}");
            }
            println!(
                "imported {} files: {} results stored, {} duplicates, {} files failed",
                summary.files,
                summary.stored,
                summary.duplicates,
                summary.failed.len()
            );
            if summary.failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("ssdbase: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn import(args: &ImportArgs) -> anyhow::Result<Summary> {
    if let Some(dump) = args.paths.iter().find(|p| ssdbase::dump::is_dump(p)) {
        if args.paths.len() > 1 {
            anyhow::bail!("{} is a dump: import it alone, into an empty database", dump.display());
        }
        return import_dump(&args.database_url, dump).await;
    }
    let default_tags: Tags = match &args.tags {
        None => Tags::default(),
        Some(t) if t.trim_start().starts_with('{') => serde_json::from_str(t).context("--tags")?,
        Some(path) => {
            let text = std::fs::read(path).with_context(|| format!("--tags {path}"))?;
            serde_json::from_slice(&text).with_context(|| format!("--tags {path}"))?
        }
    };
    let mut files = Vec::new();
    for p in &args.paths {
        collect(p, &mut files).with_context(|| format!("reading {}", p.display()))?;
    }
    let storage = ssdbase::open(&args.database_url).await.context("opening the database")?;

    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{bar:40}] {pos}/{len} files {elapsed} {wide_msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let mut summary = Summary { files: files.len(), ..Summary::default() };
    for path in &files {
        bar.set_message(path.display().to_string());
        let name = path.display().to_string();
        match import_file(&storage, path, &default_tags, args.format).await {
            Ok(outcomes) => {
                for o in outcomes {
                    match o {
                        Submitted::Stored { result_ids, .. } => summary.stored += result_ids.len(),
                        Submitted::Duplicate { result_ids, .. } => summary.duplicates += result_ids.len(),
                    }
                }
            }
            Err(reason) => summary.failed.push(format!("{name}: {reason}")),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(summary)
}

/// Files under `path` (itself when a file), sidecars left out, in name order.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
        entries.sort();
        for e in entries {
            collect(&e, out)?;
        }
    } else if !path.to_string_lossy().ends_with(SIDECAR) {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// `run.txt.tags.json`, else `run.tags.json`.
fn sidecar_of(path: &Path) -> Option<PathBuf> {
    let full = PathBuf::from(format!("{}{SIDECAR}", path.display()));
    let stem = path.with_extension("").with_extension(SIDECAR.trim_start_matches('.'));
    [full, stem].into_iter().find(|p| p.is_file())
}

/// Stores one file in one transaction. The error says what and where.
async fn import_file(
    storage: &DynStorage,
    path: &Path,
    default_tags: &Tags,
    format: Option<Format>,
) -> Result<Vec<Submitted>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') && format.is_none() {
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| format!("line {}: invalid JSON: {e}", e.line()))?;
        if ["drives", "results", "observations"].iter().any(|k| value.get(k).is_some()) {
            let ds: Dataset = serde_json::from_value(value).map_err(|e| format!("not a dataset: {e}"))?;
            return import_dataset(storage, &ds).await;
        }
        let result: BenchResult =
            serde_json::from_value(value).map_err(|e| format!("not a result in the public format: {e}"))?;
        let upload = ingest::upload_from_result(result, bytes)?;
        return store_upload(storage, path, upload, default_tags).await;
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let upload = ingest::upload_from_file(bytes, name.as_deref(), format).map_err(|e| e.to_string())?;
    store_upload(storage, path, upload, default_tags).await
}

async fn store_upload(
    storage: &DynStorage,
    path: &Path,
    upload: ingest::Upload,
    default_tags: &Tags,
) -> Result<Vec<Submitted>, String> {
    let tags = match sidecar_of(path) {
        Some(side) => {
            let text = std::fs::read(&side).map_err(|e| format!("{}: {e}", side.display()))?;
            serde_json::from_slice(&text)
                .map_err(|e| format!("{}: line {}: {e}", side.display(), e.line()))?
        }
        None => default_tags.clone(),
    };
    let tagged = ingest::tag(&mut Catalogue::stored(&**storage), tags, &upload.results, None).await.map_err(
        |refused| match refused {
            Refused::UnknownDrive(id) => format!("unknown drive {id:?}: not in the catalogue"),
            Refused::Invalid(e) => pointed(e.detail, e.pointer),
            Refused::Storage(e) => e.to_string(),
        },
    )?;
    let source = Some(path.file_name().unwrap_or_default().to_string_lossy().into_owned());
    let (submission, _token) = tagged.submission(upload, source, Some("import".into()));
    print_file_facts(path, &submission);
    storage.store_batch(&[], &[], &[submission]).await.map_err(|e| e.to_string())
}

/// What each result's file said about its drive and platform, and which tags that
/// filled, one line each: the person importing sees what was read, not only counts.
fn print_file_facts(path: &Path, submission: &ssdbase::storage::NewSubmission) {
    let several = submission.results.len() > 1;
    for (i, r) in submission.results.iter().enumerate() {
        let at = if several {
            format!("{}: result {}", path.display(), i + 1)
        } else {
            path.display().to_string()
        };
        for f in &r.result.facts {
            println!("{at}: the file says {} {:?} ({})", f.field.replace('_', " "), f.value, f.source);
        }
        if r.tags.read_from_file.is_empty() {
            continue;
        }
        let filled: Vec<String> = r
            .tags
            .read_from_file
            .iter()
            .map(|field| match (field.as_str(), &r.tags.drive.sku) {
                ("drive", Some(sku)) => format!("drive {sku} (named in the upload)"),
                ("drive", None) => format!("drive: one of {}", r.tags.drive.candidates.join(", ")),
                (other, _) => other.to_string(),
            })
            .collect();
        println!("{at}: filled from the file: {}", filled.join(", "));
    }
}

/// A dataset: its new drives and all its results in one transaction.
async fn import_dataset(storage: &DynStorage, ds: &Dataset) -> Result<Vec<Submitted>, String> {
    let mut ids = HashSet::new();
    if let Some(d) = ds.drives.iter().find(|d| !ids.insert(&d.id)) {
        return Err(format!("drive id {:?} is defined twice", d.id));
    }
    let mut catalogue = Catalogue::with(&ds.drives, Some(&**storage));
    let submissions =
        ingest::dataset_submissions(ds, &mut catalogue, "import").await.map_err(dataset_refusal)?;
    for (i, o) in ds.observations.iter().enumerate() {
        if let Some(id) = &o.tags.drive.sku {
            if catalogue.drive(id).await.map_err(|e| e.to_string())?.is_none() {
                return Err(format!("observations[{i}]: unknown drive sku {id:?}"));
            }
        }
    }
    storage.store_batch(&ds.drives, &ds.observations, &submissions).await.map_err(|e| e.to_string())
}

/// Why a dataset's result `i` was refused, as `import` reports it.
fn dataset_refusal((i, refused): (usize, Refused)) -> String {
    match refused {
        Refused::UnknownDrive(id) => format!("results[{i}]: unknown drive sku {id:?}"),
        Refused::Invalid(e) => format!("results[{i}]: {}", pointed(e.detail, e.pointer)),
        Refused::Storage(e) => e.to_string(),
    }
}

fn pointed(detail: String, pointer: Option<String>) -> String {
    match pointer {
        Some(p) => format!("{p}: {detail}"),
        None => detail,
    }
}

/// A dump (`ssdbase dump`) into an EMPTY database, unseeded, in one transaction: the
/// catalogue, the observations and every result with its tags, so the drive pages and
/// comparisons come out as they were. Each result's stored upload is its dump line.
async fn import_dump(database_url: &str, dir: &Path) -> anyhow::Result<Summary> {
    let dump = ssdbase::dump::read(dir)?;
    // Not `ssdbase::open`: the seeds would land first. A database holding data is never
    // seeded later, so the dump stays exactly what the database holds.
    let storage = ssdbase::storage::connect(database_url).await.context("opening the database")?;
    let any_result = storage
        .list_results(&ssdbase::storage::ResultQuery { limit: 1, include_hidden: true, ..Default::default() })
        .await?;
    if !storage.list_drives().await?.is_empty() || !any_result.is_empty() {
        anyhow::bail!("the database is not empty: a dump imports only into a new, empty database");
    }
    let ds = Dataset {
        drives: dump.drives,
        observations: dump.observations,
        results: dump
            .results
            .iter()
            .map(|r| bench::TaggedResult {
                result: r.result.clone(),
                tags: r.tags.clone(),
                source: r.source.clone(),
            })
            .collect(),
    };
    // The database is empty: the catalogue is the dump's.
    let mut submissions = ingest::dataset_submissions(&ds, &mut Catalogue::with(&ds.drives, None), "dump")
        .await
        .map_err(|e| anyhow::anyhow!(dataset_refusal(e)))?;
    for (s, r) in submissions.iter_mut().zip(&dump.results) {
        // The dump line is the upload: unique per result (two results that read alike
        // stay two), and it keeps the original id and time for whoever looks.
        s.body = serde_json::to_vec(r)?;
        s.content_hash = ingest::sha256_hex(&s.body);
        s.created_at = r.created_at;
    }
    let outcomes = storage.store_batch(&ds.drives, &ds.observations, &submissions).await?;
    let mut summary = Summary { files: 1, ..Summary::default() };
    for o in outcomes {
        match o {
            Submitted::Stored { result_ids, .. } => summary.stored += result_ids.len(),
            Submitted::Duplicate { result_ids, .. } => summary.duplicates += result_ids.len(),
        }
    }
    Ok(summary)
}
