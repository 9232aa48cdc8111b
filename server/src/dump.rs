//! The public dataset as files: `ssdbase dump --to DIR` writes it, `ssdbase import DIR`
//! reads it back into an empty database.
//!
//! Layout, version 1 (documented in docs/operating.md, "Open data dumps"; fields are only ever
//! added):
//! - `manifest.json`: `{"format": "ssdbase-dump", "version": 1, "created_at": UNIX,
//!   "files": {"drives.jsonl.gz": N, "observations.jsonl.gz": N, "results.csv.gz": N,
//!   "results.jsonl.gz": N}}` (lines per file; for the CSV, rows without the header)
//! - `drives.jsonl.gz`: the catalogue, one drive per line (specs, ratings, sources).
//! - `observations.jsonl.gz`: the sources' observations, one per line.
//! - `results.jsonl.gz`: every visible result, oldest first: `{"id", "created_at",
//!   "source", "tags", "flags", "result", "test_keys"}` where `result` is the public
//!   result format and `test_keys[i]` the comparability key of `result.metrics[i]`.
//! - `results.csv.gz`: the same results, one row per metric, with a header row: the
//!   columns of `GET /api/v1/results?format=csv` (formula-like cells get a leading
//!   apostrophe).
//!
//! Never in a dump: hidden results, edit tokens (or their hashes), client addresses,
//! uploaded files, moderation notes.

use crate::storage::{Cursor, DynStorage, FilterKind, ResultQuery, Sort};
use anyhow::{bail, Context};
use bench::analysis::Flag;
use bench::{BenchResult, DriveSku, Observation, Tags, TestKey};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

pub const FORMAT: &str = "ssdbase-dump";
pub const VERSION: u32 = 1;
pub const MANIFEST: &str = "manifest.json";
pub const DRIVES: &str = "drives.jsonl.gz";
pub const OBSERVATIONS: &str = "observations.jsonl.gz";
pub const RESULTS: &str = "results.jsonl.gz";
pub const RESULTS_CSV: &str = "results.csv.gz";

#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub created_at: i64,
    /// Lines per file.
    pub files: std::collections::BTreeMap<String, usize>,
}

/// One line of `results.jsonl.gz`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DumpedResult {
    pub id: i64,
    pub created_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub tags: Tags,
    #[serde(default)]
    pub flags: Vec<Flag>,
    pub result: BenchResult,
    #[serde(default)]
    pub test_keys: Vec<TestKey>,
}

/// What a dump holds, read back.
pub struct Dump {
    pub drives: Vec<DriveSku>,
    pub observations: Vec<Observation>,
    pub results: Vec<DumpedResult>,
}

const PAGE: i64 = 1000;

/// Writes the public dataset into `dir` (created; must not hold files). Returns the
/// manifest.
pub async fn write(storage: &DynStorage, dir: &Path) -> anyhow::Result<Manifest> {
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        bail!("{} is not empty: a dump goes into a new or empty directory", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut files = std::collections::BTreeMap::new();

    let drives: Vec<DriveSku> = storage.list_drives().await?.into_iter().map(|d| d.drive).collect();
    files.insert(DRIVES.to_string(), write_lines(&dir.join(DRIVES), drives.iter())?);
    let observations = storage.list_observations().await?;
    files.insert(OBSERVATIONS.to_string(), write_lines(&dir.join(OBSERVATIONS), observations.iter())?);

    let mut out = gzip_file(&dir.join(RESULTS))?;
    let mut csv = gzip_file(&dir.join(RESULTS_CSV))?;
    let mut count = 0;
    let mut csv_rows = 0;
    let mut query = ResultQuery {
        sort: Sort { column: FilterKind::Int("id"), descending: false },
        limit: PAGE,
        include_hidden: false,
        ..ResultQuery::default()
    };
    loop {
        let page = storage.list_results(&query).await?;
        // Compressing a page takes milliseconds: off the async workers when a server dumps.
        outside_async(|| -> anyhow::Result<()> {
            let rows = crate::csv_table::results(&page, query.after.is_none());
            csv_rows += page.iter().map(|r| r.result.metrics.len()).sum::<usize>();
            csv.write_all(rows.as_bytes())?;
            for r in &page {
                let line = DumpedResult {
                    id: r.id,
                    created_at: r.created_at,
                    source: r.source.clone(),
                    tags: r.tags.clone(),
                    flags: r.flags.clone(),
                    test_keys: r.result.keyed_metrics().map(|(k, _)| k).collect(),
                    result: r.result.clone(),
                };
                serde_json::to_writer(&mut out, &line)?;
                out.write_all(b"\n")?;
                count += 1;
            }
            Ok(())
        })?;
        match page.last() {
            Some(last) if page.len() as i64 == PAGE => {
                query.after = Some(Cursor { value: bench::FieldValue::Int(last.id), id: last.id })
            }
            _ => break,
        }
    }
    finish(out)?;
    files.insert(RESULTS.to_string(), count);
    finish(csv)?;
    files.insert(RESULTS_CSV.to_string(), csv_rows);

    let manifest =
        Manifest { format: FORMAT.into(), version: VERSION, created_at: crate::ingest::now_unix(), files };
    std::fs::write(dir.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?)?;
    Ok(manifest)
}

/// Runs blocking work (compression, file writes) where it does not stall other requests:
/// `block_in_place` on the server's multi-threaded runtime, as is elsewhere (the CLI and
/// the tests' single-threaded runtimes, where nothing else waits).
fn outside_async<R>(f: impl FnOnce() -> R) -> R {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// A new gzipped file, written through a buffer: serde writes a line in dozens of small
/// pieces, and the encoder zero-fills its output buffer on every write it is given (that
/// was most of a serving machine's CPU while it dumped).
fn gzip_file(path: &Path) -> std::io::Result<std::io::BufWriter<GzEncoder<std::fs::File>>> {
    let file = std::fs::File::create(path)?;
    Ok(std::io::BufWriter::with_capacity(1 << 16, GzEncoder::new(file, flate2::Compression::default())))
}

/// Ends a [`gzip_file`] and syncs it to disk.
fn finish(out: std::io::BufWriter<GzEncoder<std::fs::File>>) -> std::io::Result<()> {
    out.into_inner().map_err(std::io::IntoInnerError::into_error)?.finish()?.sync_all()
}

fn write_lines<'a, T: Serialize + 'a>(
    path: &Path,
    items: impl Iterator<Item = &'a T>,
) -> anyhow::Result<usize> {
    let mut out = gzip_file(path)?;
    let mut n = 0;
    for item in items {
        serde_json::to_writer(&mut out, item)?;
        out.write_all(b"\n")?;
        n += 1;
    }
    finish(out)?;
    Ok(n)
}

/// Whether `dir` is a dump (has a manifest of this format).
pub fn is_dump(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
        && std::fs::read(dir.join(MANIFEST))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| v["format"] == FORMAT)
}

/// Reads a dump, checking its version and line counts.
pub fn read(dir: &Path) -> anyhow::Result<Dump> {
    let manifest: Manifest = serde_json::from_slice(&std::fs::read(dir.join(MANIFEST))?)
        .with_context(|| format!("{}", dir.join(MANIFEST).display()))?;
    if manifest.format != FORMAT || manifest.version != VERSION {
        bail!(
            "{}: {} version {} is not one this ssdbase reads ({FORMAT} version {VERSION})",
            dir.display(),
            manifest.format,
            manifest.version
        );
    }
    let dump = Dump {
        drives: read_lines(&dir.join(DRIVES))?,
        observations: read_lines(&dir.join(OBSERVATIONS))?,
        results: read_lines(&dir.join(RESULTS))?,
    };
    for (file, n) in
        [(DRIVES, dump.drives.len()), (OBSERVATIONS, dump.observations.len()), (RESULTS, dump.results.len())]
    {
        if manifest.files.get(file) != Some(&n) {
            bail!(
                "{file}: {n} lines, the manifest says {:?}: the dump is incomplete",
                manifest.files.get(file)
            );
        }
    }
    Ok(dump)
}

fn read_lines<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(GzDecoder::new(file)).lines().enumerate() {
        let line = line.with_context(|| format!("{}: reading line {}", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(serde_json::from_str(&line).with_context(|| format!("{} line {}", path.display(), i + 1))?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Published dumps: what `serve` regenerates on a schedule and `GET /api/v1/dumps` serves
// ---------------------------------------------------------------------------------------

/// A dump directory of a server's `--dump-dir`: `DIR/<created_at>/` (unix seconds), each
/// a complete dump. A dump is written into `DIR/.partial-<created_at>/` and renamed into
/// place when complete, so a reader never sees half a dump.
#[derive(Debug, Clone)]
pub struct Published {
    pub dir: std::path::PathBuf,
}

/// How many published dumps are kept (newest first); older ones are deleted.
pub const KEEP: usize = 3;

impl Published {
    /// The complete dumps, newest first, with their manifests. A folder whose manifest
    /// does not read is skipped.
    pub fn list(&self) -> Vec<(i64, Manifest)> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut found: Vec<(i64, Manifest)> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str()?.parse::<i64>().ok())
            .filter_map(|stamp| {
                let bytes = std::fs::read(self.dir.join(stamp.to_string()).join(MANIFEST)).ok()?;
                Some((stamp, serde_json::from_slice(&bytes).ok()?))
            })
            .collect();
        found.sort_by_key(|(stamp, _)| std::cmp::Reverse(*stamp));
        found
    }

    /// The path of `file` of the dump `stamp`, if that dump exists and `file` is one of
    /// its files (never a path built from anything else).
    pub fn file(&self, stamp: i64, file: &str) -> Option<std::path::PathBuf> {
        let known = [MANIFEST, DRIVES, OBSERVATIONS, RESULTS, RESULTS_CSV];
        let name = known.into_iter().find(|k| *k == file)?;
        let path = self.dir.join(stamp.to_string()).join(name);
        path.is_file().then_some(path)
    }

    /// Writes a new dump and publishes it, then deletes all but the newest [`KEEP`].
    pub async fn regenerate(&self, storage: &DynStorage) -> anyhow::Result<(i64, Manifest)> {
        std::fs::create_dir_all(&self.dir).with_context(|| format!("creating {}", self.dir.display()))?;
        let stamp = crate::ingest::now_unix();
        let partial = self.dir.join(format!(".partial-{stamp}"));
        if partial.exists() {
            std::fs::remove_dir_all(&partial)?;
        }
        let manifest = match write(storage, &partial).await {
            Ok(m) => m,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&partial);
                return Err(e);
            }
        };
        let done = self.dir.join(stamp.to_string());
        if done.exists() {
            // A second dump within the same second: the first one stands.
            std::fs::remove_dir_all(&partial)?;
        } else {
            std::fs::rename(&partial, &done)?;
        }
        // Another server sharing the directory may prune at the same time: a dump already
        // gone is no error.
        for (old, _) in self.list().into_iter().skip(KEEP) {
            let _ = std::fs::remove_dir_all(self.dir.join(old.to_string()));
        }
        // Leftovers of a server killed while dumping (an hour old: another server's dump
        // in progress is younger).
        for entry in std::fs::read_dir(&self.dir)?.filter_map(|e| e.ok()) {
            let name = entry.file_name();
            let started = name.to_str().and_then(|n| n.strip_prefix(".partial-")?.parse::<i64>().ok());
            if started.is_some_and(|t| t < stamp - 3600) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        Ok((stamp, manifest))
    }

    /// Keeps the published dumps fresh: writes one at start when the newest is older than
    /// `every` (or there is none), then once every `every`. Failures are logged and tried
    /// again at the next turn; they never stop the server.
    pub fn spawn_schedule(self, storage: DynStorage, every: std::time::Duration) {
        tokio::spawn(async move {
            loop {
                let age = self.list().first().map(|(stamp, _)| crate::ingest::now_unix() - stamp);
                let due = age.is_none_or(|a| a < 0 || a as u64 >= every.as_secs());
                let mut failed = false;
                if due {
                    let started = std::time::Instant::now();
                    match self.regenerate(&storage).await {
                        Ok((stamp, m)) => tracing::info!(
                            "dump {stamp} published in {:.1} s ({} results) under {}",
                            started.elapsed().as_secs_f64(),
                            m.files.get(RESULTS).copied().unwrap_or(0),
                            self.dir.display()
                        ),
                        Err(e) => {
                            failed = true;
                            tracing::error!("regenerating the dump in {}: {e:#}", self.dir.display())
                        }
                    }
                }
                let age = self.list().first().map_or(0, |(stamp, _)| crate::ingest::now_unix() - stamp);
                let mut wait = every.as_secs().saturating_sub(age.max(0) as u64).max(1);
                if failed {
                    // Not a tight loop on a full disk: try again in a minute at the soonest.
                    wait = wait.max(60).min(every.as_secs().max(1));
                }
                tokio::time::sleep(std::time::Duration::from_secs(wait)).await;
            }
        });
    }
}
