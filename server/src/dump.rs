//! The public dataset as files: `ssdbase dump --to DIR` writes it, `ssdbase import DIR`
//! reads it back into an empty database.
//!
//! Layout, version 1 (documented in README.md; fields are only ever added):
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

use crate::storage::{Cursor, DynStorage, FilterKind, FilterValue, ResultQuery, Sort};
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

    let mut out = GzEncoder::new(std::fs::File::create(dir.join(RESULTS))?, flate2::Compression::default());
    let mut csv =
        GzEncoder::new(std::fs::File::create(dir.join(RESULTS_CSV))?, flate2::Compression::default());
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
        let rows = crate::api::results_csv(&page, query.after.is_none());
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
        match page.last() {
            Some(last) if page.len() as i64 == PAGE => {
                query.after = Some(Cursor { value: FilterValue::Int(last.id), id: last.id })
            }
            _ => break,
        }
    }
    out.finish()?.sync_all()?;
    files.insert(RESULTS.to_string(), count);
    csv.finish()?.sync_all()?;
    files.insert(RESULTS_CSV.to_string(), csv_rows);

    let manifest =
        Manifest { format: FORMAT.into(), version: VERSION, created_at: crate::ingest::now_unix(), files };
    std::fs::write(dir.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?)?;
    Ok(manifest)
}

fn write_lines<'a, T: Serialize + 'a>(
    path: &Path,
    items: impl Iterator<Item = &'a T>,
) -> anyhow::Result<usize> {
    let mut out = GzEncoder::new(std::fs::File::create(path)?, flate2::Compression::default());
    let mut n = 0;
    for item in items {
        serde_json::to_writer(&mut out, item)?;
        out.write_all(b"\n")?;
        n += 1;
    }
    out.finish()?.sync_all()?;
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
