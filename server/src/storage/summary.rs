//! The per-drive sample summary (`test_samples`, migration 0003): for each catalogue
//! drive, platform group and data pattern (a "pool", the finest set of results whose
//! numbers are comparable), per test key, the ids of the visible results and their
//! values, each figure kept sorted. Compare reads one row per pool instead of every
//! metric row of every result (a popular drive has tens of thousands), and the median
//! and MAD it computes stay exact because every value is there.
//!
//! It is derived data, so it is maintained inside the storage layer, in the same
//! transaction as each change to results:
//! - [`add_result`] / [`add_results`] when results are stored (PostgreSQL's
//!   `insert_submission`; SQLite's `store_on` once per transaction, seeds included);
//! - `refresh_summaries_for(drive skus)` (one per backend, below) whenever a stored
//!   result changes visibility, tags or existence: hide, restore, delete, tag edits
//!   (call it with the old and the new drive), and after bulk loads that bypass
//!   `submit`. It rebuilds those drives' rows from `metrics`.
//! - On start-up, a database whose `app_meta` has no `test_samples` mark (one migrated
//!   from before 0003, or bulk-loaded) is rebuilt once for every drive.
//!
//! Writers of one drive are serialised: SQLite has one writer at a time, and the
//! PostgreSQL side takes a transaction-scoped advisory lock on the drive first, so two
//! concurrent submissions never lose each other's samples.

use super::sql::{enum_from_name, enum_name, numbered, Param, RawMetric};
use super::{MetricRow, NewResult, StorageError, StorageResult};
use api_types::Aggregates;
use bench::analysis::{summarize, Summary};
use bench::{DataPattern, PlatformGroup, TestKey};
use std::collections::{BTreeMap, HashMap};

/// One drive's tests in one platform group and data pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolSummary {
    pub drive_sku: String,
    pub platform: PlatformGroup,
    pub data_pattern: Option<DataPattern>,
    /// Per test, the visible results' ids (ascending) and the median, MAD, min, max and
    /// count of each figure, computed when the pool was written, exactly as
    /// `analysis::summarize` computes them from every value: what compare shows.
    pub tests: BTreeMap<TestKey, Aggregates>,
}

/// Every value of one test in one pool, kept for maintenance: ids ascending, each
/// figure's values ascending (figures are summarised one by one, so they need not stay
/// aligned, and sorted input makes the summaries cheap to recompute).
#[derive(Debug, Clone, Default, PartialEq)]
struct TestSamples {
    result_ids: Vec<i64>,
    mbps: Vec<f64>,
    iops: Vec<f64>,
    latency_us: Vec<f64>,
    /// The summaries as stored, while no value was added: a group commit touches a few
    /// tests of a pool, and only those are summarised again.
    stored: Option<[Option<Summary>; 3]>,
}

impl TestSamples {
    fn add(&mut self, result_id: i64, mbps: Option<f64>, iops: Option<f64>, latency_us: Option<f64>) {
        self.stored = None;
        if let Err(at) = self.result_ids.binary_search(&result_id) {
            self.result_ids.insert(at, result_id);
        }
        for (values, v) in
            [(&mut self.mbps, mbps), (&mut self.iops, iops), (&mut self.latency_us, latency_us)]
        {
            if let Some(v) = v {
                let at = values.partition_point(|x| x.total_cmp(&v).is_lt());
                values.insert(at, v);
            }
        }
    }

    fn summary(&self) -> [Option<Summary>; 3] {
        self.stored.unwrap_or_else(|| self.summarise())
    }

    fn summarise(&self) -> [Option<Summary>; 3] {
        [summarize(&self.mbps), summarize(&self.iops), summarize(&self.latency_us)]
    }
}

/// A drive's samples in one pool, while it is built from metric rows.
struct PoolSamples {
    tests: BTreeMap<TestKey, TestSamples>,
}

/// The `pool` column: the platform group and data pattern as JSON.
fn pool_text(platform: &PlatformGroup, data_pattern: Option<DataPattern>) -> String {
    serde_json::to_string(&(platform, data_pattern)).expect("pools serialise")
}

fn key_text(k: &TestKey) -> String {
    format!(
        "{}/{}/{}/{}/{}/{}/{}/{}",
        enum_name(&k.family),
        enum_name(&k.access),
        k.block_size,
        k.queue_depth,
        k.threads,
        enum_name(&k.op),
        k.mix_read_percent.map(|m| m.to_string()).unwrap_or_default(),
        k.stat.as_ref().map(enum_name).unwrap_or_default(),
    )
}

fn parse_key(s: &str) -> Result<TestKey, StorageError> {
    let bad = || StorageError::Corrupt(format!("test key {s:?}"));
    let f: Vec<&str> = s.split('/').collect();
    if f.len() != 8 {
        return Err(bad());
    }
    Ok(TestKey {
        family: enum_from_name(f[0])?,
        access: enum_from_name(f[1])?,
        block_size: f[2].parse().map_err(|_| bad())?,
        queue_depth: f[3].parse().map_err(|_| bad())?,
        threads: f[4].parse().map_err(|_| bad())?,
        op: enum_from_name(f[5])?,
        mix_read_percent: if f[6].is_empty() { None } else { Some(f[6].parse().map_err(|_| bad())?) },
        stat: if f[7].is_empty() { None } else { Some(enum_from_name(f[7])?) },
    })
}

/// Version of the `summaries`/`samples` layout; a database holding another is rebuilt on
/// start-up.
const FORMAT: &str = "v4";

/// Marks an id list that repeats an earlier test's list of the same row.
const SAME_IDS_AS: u32 = 1 << 31;

/// The `summaries` and `samples` columns, little-endian with u32 lengths. `summaries` is
/// what compare reads, per test in key order: key text, result ids, and per figure its
/// summary (a presence byte, then count, median, MAD, min, max). `samples` is what
/// maintenance needs, per test in the same order: each figure's sorted values. Binary
/// because a popular pool holds thousands of numbers and compare must not spend its
/// time parsing text or sorting; two columns so that compare does not fetch the values.
///
/// Result ids are most of `summaries` and what PostgreSQL spends compare's time reading
/// (three popular drives: 1.7 MB as plain i64s at 1,000,000 results), so they are
/// compact: ascending ids as LEB128 varint gaps (one or two bytes instead of eight), and
/// a test whose ids equal an earlier test's in the row (the usual case: a result runs
/// every test of its tool) as `SAME_IDS_AS | index` instead of the list.
fn encode(tests: &BTreeMap<TestKey, TestSamples>) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::new();
    out.extend((tests.len() as u32).to_le_bytes());
    let mut lists: Vec<&[i64]> = Vec::with_capacity(tests.len());
    for (key, s) in tests {
        let k = key_text(key);
        out.extend((k.len() as u32).to_le_bytes());
        out.extend(k.as_bytes());
        match lists.iter().position(|l| *l == s.result_ids.as_slice()) {
            Some(i) => out.extend((SAME_IDS_AS | i as u32).to_le_bytes()),
            None => {
                out.extend((s.result_ids.len() as u32).to_le_bytes());
                let mut previous = 0;
                for &id in &s.result_ids {
                    put_varint(&mut out, id.wrapping_sub(previous) as u64);
                    previous = id;
                }
            }
        }
        lists.push(&s.result_ids);
        for summary in s.summary() {
            match summary {
                None => out.push(0),
                Some(m) => {
                    out.push(1);
                    out.extend((m.count as u64).to_le_bytes());
                    for v in [m.median, m.mad, m.min, m.max] {
                        out.extend(v.to_le_bytes());
                    }
                }
            }
        }
    }
    let mut samples = Vec::new();
    for s in tests.values() {
        for values in [&s.mbps, &s.iops, &s.latency_us] {
            samples.extend((values.len() as u32).to_le_bytes());
            values.iter().for_each(|v| samples.extend(v.to_le_bytes()));
        }
    }
    (out, samples)
}

/// Appends `v` as an unsigned LEB128 varint.
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StorageError> {
        if self.0.len() < n {
            return Err(StorageError::Corrupt("test_samples row is truncated".into()));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn len(&mut self) -> Result<usize, StorageError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")) as usize)
    }

    fn eight(&mut self, n: usize) -> Result<impl Iterator<Item = [u8; 8]> + '_, StorageError> {
        let bytes = self.take(n.checked_mul(8).ok_or_else(|| StorageError::Corrupt("length".into()))?)?;
        Ok(bytes.chunks_exact(8).map(|c| c.try_into().expect("8 bytes")))
    }

    fn varint(&mut self) -> Result<u64, StorageError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1)?[0];
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(StorageError::Corrupt("varint longer than 64 bits".into()))
    }

    /// An id list as `encode` writes it; `earlier` are the row's lists read so far.
    fn ids(&mut self, earlier: &[(TestKey, Aggregates)]) -> Result<Vec<i64>, StorageError> {
        let n = self.len()? as u32;
        if n & SAME_IDS_AS != 0 {
            let i = (n & !SAME_IDS_AS) as usize;
            let (_, same) = earlier.get(i).ok_or_else(|| StorageError::Corrupt(format!("id list {i}")))?;
            return Ok(same.result_ids.clone());
        }
        // Each id takes at least a byte: a count beyond the row is corruption, not an
        // allocation to attempt.
        if n as usize > self.0.len() {
            return Err(StorageError::Corrupt("test_samples row is truncated".into()));
        }
        let mut ids = Vec::with_capacity(n as usize);
        let mut previous = 0i64;
        for _ in 0..n {
            previous = previous.wrapping_add(self.varint()? as i64);
            ids.push(previous);
        }
        Ok(ids)
    }

    fn summary(&mut self) -> Result<Option<Summary>, StorageError> {
        if self.take(1)?[0] == 0 {
            return Ok(None);
        }
        let count = u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")) as usize;
        let mut v = self.eight(4)?.map(f64::from_le_bytes);
        let mut next = || v.next().expect("four numbers");
        Ok(Some(Summary { count, median: next(), mad: next(), min: next(), max: next() }))
    }
}

/// Reads a `summaries` column; `keys` memoises key texts across rows.
fn decode_summaries<'a>(
    r: &mut Reader<'a>,
    keys: &mut HashMap<String, TestKey>,
) -> StorageResult<Vec<(TestKey, Aggregates)>> {
    let n = r.len()?;
    let mut tests = Vec::with_capacity(n);
    for _ in 0..n {
        let len = r.len()?;
        let text = std::str::from_utf8(r.take(len)?).map_err(|e| StorageError::Corrupt(e.to_string()))?;
        let key = match keys.get(text) {
            Some(k) => *k,
            None => {
                let k = parse_key(text)?;
                keys.insert(text.to_string(), k);
                k
            }
        };
        let result_ids = r.ids(&tests)?;
        let (mbps, iops, latency_us) = (r.summary()?, r.summary()?, r.summary()?);
        tests.push((key, Aggregates { result_ids, mbps, iops, latency_us }));
    }
    Ok(tests)
}

/// Reads a pool's two columns back into values.
fn decode(summaries: &[u8], samples: &[u8]) -> StorageResult<BTreeMap<TestKey, TestSamples>> {
    let summaries = decode_summaries(&mut Reader(summaries), &mut HashMap::new())?;
    let mut r = Reader(samples);
    let mut tests = BTreeMap::new();
    for (key, summary) in summaries {
        let mut figures = [Vec::new(), Vec::new(), Vec::new()];
        for f in &mut figures {
            let n = r.len()?;
            *f = r.eight(n)?.map(f64::from_le_bytes).collect();
        }
        let [mbps, iops, latency_us] = figures;
        let stored = Some([summary.mbps, summary.iops, summary.latency_us]);
        tests.insert(key, TestSamples { result_ids: summary.result_ids, mbps, iops, latency_us, stored });
    }
    Ok(tests)
}

/// Groups metric rows (as `metrics_for_drives` reads them) into pools.
fn pools_of(rows: impl IntoIterator<Item = MetricRow>) -> BTreeMap<String, PoolSamples> {
    let mut pools: BTreeMap<String, PoolSamples> = BTreeMap::new();
    for m in rows {
        let pool = pool_text(&m.platform, m.data_pattern);
        let entry = pools.entry(pool).or_insert_with(|| PoolSamples { tests: BTreeMap::new() });
        entry.tests.entry(m.key).or_default().add(m.result_id, m.mbps, m.iops, m.latency_us);
    }
    pools
}

fn result_count(tests: &BTreeMap<TestKey, TestSamples>) -> i64 {
    let mut ids: Vec<i64> = tests.values().flat_map(|t| t.result_ids.iter().copied()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.len() as i64
}

const MARKED: &str = "SELECT value FROM app_meta WHERE key = 'test_samples'";
const SET_MARK: &str = "INSERT INTO app_meta (key, value) VALUES ('test_samples', ?) \
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";
const DRIVES_WITH_RESULTS: &str = "SELECT DISTINCT drive_sku FROM results WHERE drive_sku IS NOT NULL";
const DELETE_DRIVE: &str = "DELETE FROM test_samples WHERE drive_sku = ?";
const UPSERT_POOL: &str = "INSERT INTO test_samples (drive_sku, pool, result_count, summaries, samples) \
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (drive_sku, pool) DO UPDATE SET result_count = excluded.result_count, \
     summaries = excluded.summaries, samples = excluded.samples";

/// Pools read or written by one statement at most (a popular pool's columns are
/// megabytes, so a whole import is not sent at once).
const POOLS_PER_STATEMENT: usize = 64;

/// Reads the given (drive, pool) pairs. A join, because SQLite answers
/// `(drive_sku, pool) IN (VALUES ...)` by scanning the whole table.
fn select_pools_sql(n: usize) -> String {
    format!(
        "SELECT t.drive_sku, t.pool, t.summaries, t.samples FROM (VALUES {}) AS v \
         JOIN test_samples t ON t.drive_sku = v.column1 AND t.pool = v.column2",
        vec!["(?, ?)"; n].join(", ")
    )
}

/// Writes `n` pools (parameters as for [`UPSERT_POOL`], row after row).
fn upsert_pools_sql(n: usize) -> String {
    UPSERT_POOL.replacen("(?, ?, ?, ?, ?)", &vec!["(?, ?, ?, ?, ?)"; n].join(", "), 1)
}

fn pools_for_drives_sql(n: usize) -> String {
    format!(
        "SELECT drive_sku, pool, summaries FROM test_samples WHERE drive_sku IN ({}) ORDER BY drive_sku, pool",
        vec!["?"; n].join(", ")
    )
}

fn decode_pool(
    drive_sku: String,
    pool: &str,
    summaries: &[u8],
    keys: &mut HashMap<String, TestKey>,
) -> StorageResult<PoolSummary> {
    let (platform, data_pattern): (PlatformGroup, Option<DataPattern>) =
        serde_json::from_str(pool).map_err(|e| StorageError::Corrupt(format!("pool {pool:?}: {e}")))?;
    let tests = decode_summaries(&mut Reader(summaries), keys)?.into_iter().collect();
    Ok(PoolSummary { drive_sku, platform, data_pattern, tests })
}

/// A new result's drive, pool and samples per test.
type NewPool = (String, String, Vec<(TestKey, TestSamples)>);

/// The pool of one new result and its samples, when it names a catalogue drive.
fn new_pool(result_id: i64, r: &NewResult) -> Option<NewPool> {
    let sku = r.tags.drive.sku.clone()?;
    let pool = pool_text(&PlatformGroup::of(&r.tags), r.result.data_pattern);
    let mut tests: BTreeMap<TestKey, TestSamples> = BTreeMap::new();
    for (key, m) in r.result.keyed_metrics() {
        tests.entry(key).or_default().add(result_id, m.mbps, m.iops, m.latency_us);
    }
    Some((sku, pool, tests.into_iter().collect()))
}

/// Merges the samples of new results into a stored pool. New values are appended and
/// the vector sorted again: the stable sort finds the two sorted runs and merges them
/// in linear time, where inserting each value in place would move the whole tail once
/// per value (a group commit brings many values to a pool of thousands).
fn merge(stored: &mut BTreeMap<TestKey, TestSamples>, new: Vec<(TestKey, TestSamples)>) {
    let mut touched = Vec::new();
    for (key, s) in new {
        let t = stored.entry(key).or_default();
        t.result_ids.extend(s.result_ids);
        t.mbps.extend(s.mbps);
        t.iops.extend(s.iops);
        t.latency_us.extend(s.latency_us);
        t.stored = None;
        touched.push(key);
    }
    touched.sort_unstable();
    touched.dedup();
    for key in touched {
        let t = stored.get_mut(&key).expect("touched above");
        t.result_ids.sort();
        t.result_ids.dedup();
        for values in [&mut t.mbps, &mut t.iops, &mut t.latency_us] {
            values.sort_by(f64::total_cmp);
        }
    }
}

/// The same functions for both backends: only placeholders, binding and the advisory
/// lock differ.
macro_rules! backend {
    ($name:ident, $db:ty, $conn:ty, $pool:ty, $sql:expr, $lock:expr) => {
        pub mod $name {
            use super::*;
            use sqlx::Row;

            // The backend's own parameter binding.
            use crate::storage::$name::bind;

            /// Adds a just-stored result to its drive's pool (nothing when it names no
            /// catalogue drive). Call inside the transaction that stored it.
            pub async fn add_result(conn: &mut $conn, result_id: i64, r: &NewResult) -> StorageResult<()> {
                add_results(conn, &[(result_id, r)]).await
            }

            /// Adds several just-stored results, reading and writing each pool they
            /// touch once (a group commit stores many results of the same drives).
            /// Call inside the transaction that stored them.
            pub async fn add_results(conn: &mut $conn, results: &[(i64, &NewResult)]) -> StorageResult<()> {
                let mut by_pool: BTreeMap<(String, String), Vec<(TestKey, TestSamples)>> = BTreeMap::new();
                for (id, r) in results {
                    if let Some((sku, pool, new)) = new_pool(*id, r) {
                        by_pool.entry((sku, pool)).or_default().extend(new);
                    }
                }
                if by_pool.is_empty() {
                    return Ok(());
                }
                if let Some(lock) = $lock {
                    // In key order, so that two writers never wait for each other in a cycle.
                    let mut skus: Vec<&String> = by_pool.keys().map(|(sku, _)| sku).collect();
                    skus.dedup();
                    for sku in skus {
                        sqlx::query(lock).bind(sku).execute(&mut *conn).await?;
                    }
                }
                // Every touched pool read in one statement and written in one (per chunk):
                // a statement is a round trip, and a group commit touches many pools.
                let keys: Vec<&(String, String)> = by_pool.keys().collect();
                let mut stored: HashMap<(String, String), BTreeMap<TestKey, TestSamples>> = HashMap::new();
                for chunk in keys.chunks(POOLS_PER_STATEMENT) {
                    let params = chunk
                        .iter()
                        .flat_map(|(sku, pool)| {
                            [Param::Text(Some(sku.clone())), Param::Text(Some(pool.clone()))]
                        })
                        .collect();
                    let sql = $sql(&select_pools_sql(chunk.len()));
                    for row in bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await? {
                        let tests = decode(row.try_get(2)?, row.try_get(3)?)?;
                        stored.insert((row.try_get(0)?, row.try_get(1)?), tests);
                    }
                }
                let mut rows = Vec::with_capacity(by_pool.len());
                for (key, new) in by_pool {
                    let mut tests = stored.remove(&key).unwrap_or_default();
                    merge(&mut tests, new);
                    let (summaries, samples) = encode(&tests);
                    let (sku, pool) = key;
                    rows.push([
                        Param::Text(Some(sku)),
                        Param::Text(Some(pool)),
                        Param::Int(Some(result_count(&tests))),
                        Param::Bytes(summaries),
                        Param::Bytes(samples),
                    ]);
                }
                let mut rows = rows.into_iter().peekable();
                while rows.peek().is_some() {
                    let chunk: Vec<[Param; 5]> = rows.by_ref().take(POOLS_PER_STATEMENT).collect();
                    let sql = $sql(&upsert_pools_sql(chunk.len()));
                    bind(sqlx::query(&sql), chunk.into_iter().flatten().collect())
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            }

            /// Rebuilds the pools of these drives from the visible results' metrics.
            /// Call inside the transaction of any change that hides, restores, deletes
            /// or re-tags results of these drives (old and new drive for a re-tag).
            pub async fn refresh_summaries_for(conn: &mut $conn, drive_skus: &[String]) -> StorageResult<()> {
                let mut drive_skus: Vec<&String> = drive_skus.iter().collect();
                drive_skus.sort();
                drive_skus.dedup();
                if let Some(lock) = $lock {
                    // Every lock first, in key order (as `add_results`): a re-tag from
                    // drive A to B and another from B to A, locking as they went, each
                    // held the lock the other waited for (PostgreSQL aborted one, a 500,
                    // found by the soak test).
                    for sku in &drive_skus {
                        sqlx::query(lock).bind(*sku).execute(&mut *conn).await?;
                    }
                }
                for sku in drive_skus {
                    sqlx::query(&$sql(DELETE_DRIVE)).bind(sku).execute(&mut *conn).await?;
                    let (sql, params) =
                        super::super::sql::metrics_for_drives_sql(std::slice::from_ref(sku), &[]);
                    let rows = bind(sqlx::query(&$sql(&sql)), params).fetch_all(&mut *conn).await?;
                    let metrics = rows
                        .iter()
                        .map(|r| <RawMetric as sqlx::FromRow<_>>::from_row(r)?.decode())
                        .collect::<StorageResult<Vec<_>>>()?;
                    for (pool, p) in pools_of(metrics) {
                        let (summaries, samples) = encode(&p.tests);
                        sqlx::query(&$sql(UPSERT_POOL))
                            .bind(sku)
                            .bind(&pool)
                            .bind(result_count(&p.tests))
                            .bind(summaries)
                            .bind(samples)
                            .execute(&mut *conn)
                            .await?;
                    }
                }
                Ok(())
            }

            /// Builds every drive's pools when the database has none in the current
            /// layout (migrated from before 0003, bulk-loaded, or written by a server
            /// with another [`FORMAT`]). Returns how many drives it built.
            pub async fn build_if_missing(pool: &$pool) -> StorageResult<usize> {
                let marked: Option<String> = sqlx::query_scalar(&$sql(MARKED)).fetch_optional(pool).await?;
                if marked.as_deref() == Some(FORMAT) {
                    return Ok(0);
                }
                sqlx::query("DELETE FROM test_samples").execute(pool).await?;
                let drives: Vec<String> = sqlx::query_scalar(DRIVES_WITH_RESULTS).fetch_all(pool).await?;
                for chunk in drives.chunks(64) {
                    let mut tx = pool.begin().await?;
                    refresh_summaries_for(&mut *tx, chunk).await?;
                    tx.commit().await?;
                }
                sqlx::query(&$sql(SET_MARK)).bind(FORMAT).execute(pool).await?;
                Ok(drives.len())
            }

            /// Every pool of these drives.
            pub async fn pools_for_drives(
                pool: &$pool,
                drive_skus: &[String],
            ) -> StorageResult<Vec<PoolSummary>> {
                if drive_skus.is_empty() {
                    return Ok(Vec::new());
                }
                let sql = $sql(&pools_for_drives_sql(drive_skus.len()));
                let params = drive_skus.iter().map(|s| Param::Text(Some(s.clone()))).collect();
                let rows = bind(sqlx::query(&sql), params).fetch_all(pool).await?;
                let mut keys = HashMap::new();
                rows.iter()
                    .map(|r| {
                        let bytes: &[u8] = r.try_get(2)?;
                        decode_pool(r.try_get(0)?, r.try_get(1)?, bytes, &mut keys)
                    })
                    .collect()
            }
        }
    };
}

fn as_is(sql: &str) -> String {
    sql.to_string()
}

backend!(sqlite, sqlx::Sqlite, sqlx::SqliteConnection, sqlx::SqlitePool, as_is, None::<&str>);
backend!(
    postgres,
    sqlx::Postgres,
    sqlx::PgConnection,
    sqlx::PgPool,
    numbered,
    Some("SELECT pg_advisory_xact_lock(hashtext($1))")
);

#[cfg(test)]
mod tests {
    use super::*;
    use bench::{Access, Op, ToolFamily};

    #[test]
    fn batched_pool_statements_have_a_placeholder_per_parameter() {
        assert_eq!(select_pools_sql(3).matches('?').count(), 6);
        let upsert = upsert_pools_sql(3);
        assert_eq!(upsert.matches('?').count(), 15);
        assert!(upsert.ends_with(&UPSERT_POOL[UPSERT_POOL.find(" ON CONFLICT").unwrap()..]), "{upsert}");
    }

    fn key(qd: u32) -> TestKey {
        TestKey {
            family: ToolFamily::CdmDiskspd,
            access: Access::Rnd,
            block_size: 4096,
            queue_depth: qd,
            threads: 1,
            op: Op::Read,
            mix_read_percent: None,
            stat: None,
        }
    }

    #[test]
    fn pools_round_trip_with_their_summaries() {
        let mut tests = BTreeMap::new();
        let mut s = TestSamples::default();
        s.add(7, Some(3.5), None, Some(90.0));
        s.add(3, Some(1.25), Some(300.0), None);
        s.add(5, Some(2.0), Some(100.0), Some(80.0));
        assert_eq!(s.result_ids, vec![3, 5, 7]);
        assert_eq!(s.mbps, vec![1.25, 2.0, 3.5]);
        tests.insert(key(1), s.clone());
        tests.insert(key(32), TestSamples::default());
        // The same ids as key(1): stored as a reference, read back as the list.
        tests.insert(key(4), s.clone());
        let mut far = TestSamples::default();
        far.add(1 << 40, Some(1.0), None, None);
        far.add(2, Some(1.0), None, None);
        tests.insert(key(8), far);
        let (bytes, values) = encode(&tests);
        let mut back = decode(&bytes, &values).unwrap();
        for t in back.values_mut() {
            // What was stored is what the values give: maintenance may reuse it.
            assert_eq!(t.stored.take(), Some(t.summarise()));
        }
        assert_eq!(back, tests);
        let summaries = decode_summaries(&mut Reader(&bytes), &mut HashMap::new()).unwrap();
        assert_eq!(summaries[0].0, key(1));
        assert_eq!(summaries[0].1.result_ids, vec![3, 5, 7]);
        assert_eq!(summaries[0].1.mbps, summarize(&[3.5, 1.25, 2.0]));
        assert_eq!(summaries[0].1.iops, summarize(&[300.0, 100.0]));
        assert_eq!(summaries[1].1.result_ids, vec![3, 5, 7], "a repeated list reads back");
        assert_eq!(summaries[2].1.result_ids, vec![2, 1 << 40], "a wide gap reads back");
        assert_eq!(summaries[3].1, Aggregates::default());
        assert!(decode(&bytes[..9], &values).is_err(), "truncated rows are errors");
        assert!(decode(&bytes, &values[..5]).is_err(), "truncated rows are errors");
    }

    #[test]
    fn id_lists_are_compact() {
        // 1,000 results spread over a million ids, each with the same eight tests.
        let mut tests = BTreeMap::new();
        for qd in [1, 2, 4, 8, 16, 32, 64, 128] {
            let mut s = TestSamples::default();
            (0..1000).for_each(|i| s.add(1 + i * 997, Some(1.0), None, None));
            tests.insert(key(qd), s);
        }
        let (bytes, _) = encode(&tests);
        // Plain i64s would be 64,000 bytes of ids; gaps of 997 take two bytes, once.
        assert!(bytes.len() < 2_000 + 8 * 100, "{} bytes", bytes.len());
        let back = decode_summaries(&mut Reader(&bytes), &mut HashMap::new()).unwrap();
        assert!(back.iter().all(|(k, t)| t.result_ids == tests[k].result_ids));
    }

    #[test]
    fn keys_read_back() {
        let mut k = key(32);
        assert_eq!(parse_key(&key_text(&k)).unwrap(), k);
        k.mix_read_percent = Some(70);
        k.stat = Some(bench::Stat::Max);
        assert_eq!(parse_key(&key_text(&k)).unwrap(), k);
        assert!(parse_key("cdm-diskspd/rnd").is_err());
    }

    #[test]
    fn merging_keeps_every_value_in_order() {
        let mut stored = BTreeMap::new();
        let mut a = TestSamples::default();
        a.add(1, Some(10.0), None, None);
        a.add(2, Some(30.0), None, None);
        stored.insert(key(1), a);
        let mut b = TestSamples::default();
        b.add(3, Some(20.0), None, None);
        merge(&mut stored, vec![(key(1), b.clone()), (key(32), b)]);
        assert_eq!(stored[&key(1)].mbps, vec![10.0, 20.0, 30.0]);
        assert_eq!(stored[&key(1)].result_ids, vec![1, 2, 3]);
        assert_eq!(stored[&key(32)].result_ids, vec![3]);
        assert_eq!(result_count(&stored), 3);
    }
}
