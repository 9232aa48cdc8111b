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
//!
//! Each change also marks its drives' factor effects stale (`effects::mark_stale`).
//!
//! This module is the persistence (SQL, maintenance, rebuild); the columns' binary layout
//! is [`codec`], pure encoding and decoding.

mod codec;

use super::sql::{placeholders, value_rows, Param, RawMetric};
use super::{MetricRow, NewResult, StorageResult};
use api_types::Aggregates;
use bench::difference::FigureValues;
use bench::{DataPattern, PlatformGroup, TestKey};
use codec::{decode, decode_pool, encode, pool_text, PoolColumns, TestSamples};
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

/// A pool's summary and, per test, its values thinned to
/// [`bench::difference::DIFFERENCE_POINTS`] order statistics per figure (all of them in a
/// pool of no more).
pub type PoolWithQuantiles = (PoolSummary, BTreeMap<TestKey, FigureValues>);

/// A drive's samples in one pool, while it is built from metric rows.
struct PoolSamples {
    tests: BTreeMap<TestKey, TestSamples>,
}

/// Version of the `summaries`/`samples` binary layout (`codec`) and of what is built
/// with them (v5: each pool's leaderboard lines in `pool_figures`, each drive's
/// `result_count`). The `quantiles` column (migration 0022) needs no new one: a row
/// without it reads its samples, which give the same differences.
const FORMAT: &str = "v5";

/// What the stored summary's mark says: the binary layout and the platform group's fields
/// (a pool is keyed by its group). A database marked otherwise is rebuilt on start-up, so
/// adding a group field to `bench::FIELDS` rebuilds it without anyone bumping a version.
fn layout() -> String {
    format!("{FORMAT};{}", bench::fields::group_layout())
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

/// A pool's leaderboard lines (`pool_figures` rows): per test with MB/s, its median and
/// count, as [`super::PoolSummary`]'s aggregates give them.
fn figure_rows(
    sku: &str,
    pool: &str,
    tests: &BTreeMap<TestKey, TestSamples>,
    link_kind: Option<&str>,
) -> StorageResult<Vec<Vec<Param>>> {
    let is_array = codec::pool_is_array(pool)?;
    Ok(tests
        .iter()
        .filter_map(|(key, t)| {
            let mbps = t.summary()[0]?;
            Some(vec![
                Param::Text(Some(sku.to_string())),
                Param::Text(Some(pool.to_string())),
                Param::Text(Some(key.id())),
                Param::Int(Some(i64::from(is_array))),
                Param::Float(Some(mbps.median)),
                Param::Int(Some(mbps.count as i64)),
                Param::Text(link_kind.map(str::to_string)),
            ])
        })
        .collect())
}

const MARKED: &str = "SELECT value FROM app_meta WHERE key = 'test_samples'";
const SET_MARK: &str = "INSERT INTO app_meta (key, value) VALUES ('test_samples', $1) \
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";
const DRIVES_WITH_RESULTS: &str =
    "SELECT DISTINCT drive_sku FROM results WHERE drive_sku IS NOT NULL ORDER BY drive_sku";
/// Drives built per statement and transaction by `build_if_missing`: the metrics of this
/// many drives are read at once (about a megabyte each for the most popular), and SQLite's
/// cost per statement grows with the square of its parameters.
const BUILD_DRIVES: usize = crate::sql::SQLITE_INSERT_PARAMS;
/// Where a summary build keeps the definitions of the lines' indexes it dropped (name to
/// `CREATE INDEX`, as JSON) until it builds them again.
const DEFERRED_KEY: &str = "summary_deferred_indexes";
const DEFERRED_INDEXES: &str = "SELECT value FROM app_meta WHERE key = 'summary_deferred_indexes'";
const SAVE_DEFERRED_INDEXES: &str =
    "INSERT INTO app_meta (key, value) VALUES ('summary_deferred_indexes', $1) \
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";
const FORGET_DEFERRED_INDEXES: &str = "DELETE FROM app_meta WHERE key = 'summary_deferred_indexes'";
/// Every test's totals from its lines, as one change row each (on a summary just built).
const TOTALS_FROM_LINES: &str = "INSERT INTO test_total_changes (test, drives, lines, ranked, results) \
     SELECT test, COUNT(DISTINCT drive_sku), COUNT(*), SUM(CASE WHEN n >= 3 THEN 1 ELSE 0 END), SUM(n) \
     FROM pool_figures GROUP BY test";
const DELETE_DRIVE: &str = "DELETE FROM test_samples WHERE drive_sku = $1";
const DELETE_DRIVE_FIGURES: &str = "DELETE FROM pool_figures WHERE drive_sku = $1";
/// A drive's visible results: the sum of its pools' (a result is in one pool).
const UPDATE_RESULT_COUNT: &str = "UPDATE drives SET result_count = \
     (SELECT COALESCE(SUM(result_count), 0) FROM test_samples WHERE drive_sku = $1) WHERE id = $1";
const FIGURE_COLUMNS: &[&str] = &["drive_sku", "pool", "test", "is_array", "median_mbps", "n", "link_kind"];
const UPSERT_FIGURES: &str =
    " ON CONFLICT (drive_sku, pool, test) DO UPDATE SET median_mbps = excluded.median_mbps, \
     n = excluded.n, link_kind = excluded.link_kind";
/// The columns of a pool's row, in the order [`upsert_pools_sql`] binds them.
const POOL_COLUMNS: usize = 6;

/// Pools read or written by one statement at most (a popular pool's columns are
/// megabytes, so a whole import is not sent at once).
const POOLS_PER_STATEMENT: usize = 64;

/// Reads the given (drive, pool) pairs. A join, because SQLite answers
/// `(drive_sku, pool) IN (VALUES ...)` by scanning the whole table.
fn select_pools_sql(n: usize) -> String {
    format!(
        "SELECT t.drive_sku, t.pool, t.summaries, t.samples FROM (VALUES {}) AS v \
         JOIN test_samples t ON t.drive_sku = v.column1 AND t.pool = v.column2",
        value_rows(0, 2, n)
    )
}

/// Writes `n` pools: drive, pool, result count, summaries, samples and quantiles, row
/// after row.
fn upsert_pools_sql(n: usize) -> String {
    format!(
        "INSERT INTO test_samples (drive_sku, pool, result_count, summaries, samples, quantiles) VALUES {} \
         ON CONFLICT (drive_sku, pool) DO UPDATE SET result_count = excluded.result_count, \
         summaries = excluded.summaries, samples = excluded.samples, quantiles = excluded.quantiles",
        value_rows(0, POOL_COLUMNS, n)
    )
}

fn pools_with_quantiles_sql(n: usize) -> String {
    format!(
        "SELECT drive_sku, pool, summaries, COALESCE(quantiles, samples) FROM test_samples WHERE drive_sku IN ({}) \
         ORDER BY drive_sku, pool",
        placeholders(0, n)
    )
}

fn pools_for_drives_sql(n: usize) -> String {
    format!(
        "SELECT drive_sku, pool, summaries FROM test_samples WHERE drive_sku IN ({}) ORDER BY drive_sku, pool",
        placeholders(0, n)
    )
}

/// The pools named by `n` (drive, pool) pairs, with the summaries compare reads.
fn select_pool_summaries_sql(n: usize) -> String {
    format!(
        "SELECT t.drive_sku, t.pool, t.summaries FROM (VALUES {}) AS v \
         JOIN test_samples t ON t.drive_sku = v.column1 AND t.pool = v.column2",
        value_rows(0, 2, n)
    )
}

/// The leaderboards' default floor of results per line, and the bound of the partial
/// indexes of migration 0017 (`pool_figures_ranked_3`, `pool_figures_thin`).
pub const RANKED_FLOOR: usize = 3;

/// What a drive filter asks of leaderboard lines (`pool_figures f`): an interface kind
/// of the line's own copy of it (`link_kind`, migration 0021: SATA lines rank last, and
/// their own index finds them without reading down the whole ranking), anything else of
/// the drives (`drives d`), joined then.
struct LineFilter {
    conditions: String,
    join: bool,
}

impl LineFilter {
    /// `filter`'s conditions, their values pushed to `params`.
    fn of(filter: &api_types::DriveFilter, params: &mut crate::sql::Params) -> LineFilter {
        let kind = filter.interface.as_deref().filter(|w| crate::sql::names_link_kind(w));
        let mut conditions = String::new();
        if let Some(k) = kind {
            conditions += &format!(" AND f.link_kind = {}", params.push(Param::Text(Some(k.to_lowercase()))));
        }
        let rest = api_types::DriveFilter {
            interface: if kind.is_some() { None } else { filter.interface.clone() },
            ..filter.clone()
        };
        let on_drives = crate::sql::drive_filter_sql(&rest, params);
        LineFilter { join: !on_drives.is_empty(), conditions: conditions + &on_drives }
    }

    /// The lines, joined to their drives when a condition tests them.
    fn lines(&self) -> &'static str {
        if self.join {
            "pool_figures f JOIN drives d ON d.id = f.drive_sku"
        } else {
            "pool_figures f"
        }
    }
}

/// One test's (`$1`) leaderboard lines (`$2`: of arrays or not) with at least
/// `min_results` results whose drives pass `filter`, fastest first (ties by drive and
/// pool); the count and the filter's values are pushed to `params`. At or above the
/// floor the literal `n >= 3` lets both databases read the partial index of those lines;
/// below it, the index of every line. At 1 and at the floor no line's count is compared
/// beyond the literal: both indexes hold the drive and pool, so a board walking down the
/// ranking to test each line's drive reads no line's row (23 to 7 ms for 50 SATA lines at
/// 100,000 drives on SQLite).
fn ranked_sql(
    min_results: usize,
    params: &mut crate::sql::Params,
    filter: &api_types::DriveFilter,
) -> String {
    let mut count = |at_least: &str| {
        format!("{at_least} AND f.n >= {}", params.push(Param::Int(Some(min_results as i64))))
    };
    let floor = match min_results {
        ..=1 => String::new(),
        RANKED_FLOOR => format!(" AND f.n >= {RANKED_FLOOR}"),
        n if n > RANKED_FLOOR => count(&format!(" AND f.n >= {RANKED_FLOOR}")),
        _ => count(""),
    };
    let filter = LineFilter::of(filter, params);
    format!(
        "SELECT f.drive_sku, f.pool FROM {} WHERE f.test = $1 AND f.is_array = $2{floor}{} \
         ORDER BY f.median_mbps DESC, f.drive_sku, f.pool",
        filter.lines(),
        filter.conditions
    )
}

/// Counts one test's lines with fewer than `$2` results that `filter` keeps (its values
/// from `$3`); up to the floor from the partial index of thin lines.
fn thin_sql(min_results: usize, filter: &LineFilter) -> String {
    let floor =
        if min_results <= RANKED_FLOOR { format!(" AND f.n < {RANKED_FLOOR}") } else { String::new() };
    format!(
        "SELECT COUNT(*) FROM {} WHERE f.test = $1{floor} AND f.n < $2{}",
        filter.lines(),
        filter.conditions
    )
}

/// [`LEADERBOARD_TESTS`] of the drives passing `conditions` (of `sql::drive_filter_sql`,
/// their parameters from `$1`), grouped from their lines: the kept totals are every
/// drive's. From the drives' side (a filter's drives by their index, then each one's
/// lines by key), never a scan of every line.
fn filtered_tests_sql(conditions: &str) -> String {
    format!(
        "SELECT f.test, CAST(COUNT(DISTINCT f.drive_sku) AS BIGINT), \
         CAST(SUM(CASE WHEN f.n >= {RANKED_FLOOR} THEN 1 ELSE 0 END) AS BIGINT), CAST(SUM(f.n) AS BIGINT) \
         FROM pool_figures f JOIN drives d ON d.id = f.drive_sku WHERE TRUE{conditions} GROUP BY f.test ORDER BY f.test"
    )
}

/// Per test: its drives, its lines of at least [`RANKED_FLOOR`] results and its results
/// (`n` counts a line's results with MB/s, as the leaderboards do): the sum of the
/// changes `write_figures` appends (migration 0018), folded from time to time by
/// `fold_totals`.
const LEADERBOARD_TESTS: &str = "SELECT test, CAST(SUM(drives) AS BIGINT), CAST(SUM(ranked) AS BIGINT), \
     CAST(SUM(results) AS BIGINT) FROM test_total_changes GROUP BY test HAVING SUM(drives) > 0 ORDER BY test";
/// One drive's part of the test totals: per test it has lines in, its lines, those of at
/// least [`RANKED_FLOOR`] results and their results.
const DRIVE_TOTALS: &str = "SELECT test, CAST(COUNT(*) AS BIGINT), \
     CAST(SUM(CASE WHEN n >= 3 THEN 1 ELSE 0 END) AS BIGINT), CAST(SUM(n) AS BIGINT) \
     FROM pool_figures WHERE drive_sku = $1 GROUP BY test";
/// One test's lines and lines of at least [`RANKED_FLOOR`] results, from its totals: a
/// default board's count of the lines it leaves out, without counting them.
const TEST_LINES: &str =
    "SELECT CAST(COALESCE(SUM(lines), 0) AS BIGINT), CAST(COALESCE(SUM(ranked), 0) AS BIGINT) \
     FROM test_total_changes WHERE test = $1";
/// Appended, never updated: two transactions adding to one test's totals never wait for
/// each other's rows (an upsert of one row per test did, and two submissions of several
/// results, each locking its tests' rows as it went, deadlocked on PostgreSQL).
const ADD_TO_TOTALS: &str =
    "INSERT INTO test_total_changes (test, drives, lines, ranked, results) VALUES ($1, $2, $3, $4, $5)";
const TOTAL_CHANGES: &str = "SELECT COUNT(*) FROM test_total_changes";
/// Takes every change row a snapshot sees (one statement, so PostgreSQL removes exactly
/// the rows it returns; rows committed meanwhile stay for the next fold).
const TAKE_TOTAL_CHANGES: &str =
    "DELETE FROM test_total_changes RETURNING test, drives, lines, ranked, results";
/// Change rows beyond which a write folds them into one row per test: the tests list
/// groups every row, so this bounds its work (a few hundred tests, a few thousand rows).
const FOLD_AT: i64 = 4096;

/// A test's totals (`test_total_changes`' columns), or a change of them: drives with a
/// line in it, its lines, those of at least [`RANKED_FLOOR`] results, and their results.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Totals {
    drives: i64,
    lines: i64,
    ranked: i64,
    results: i64,
}

impl Totals {
    /// Adds `other` times `sign` (1 or -1).
    fn add(&mut self, other: Totals, sign: i64) {
        self.drives += sign * other.drives;
        self.lines += sign * other.lines;
        self.ranked += sign * other.ranked;
        self.results += sign * other.results;
    }
}

/// Per test, a drive's part of its totals (`drives` 1; a test it has no line in is not
/// there).
type DriveTotals = BTreeMap<String, Totals>;

/// What changing drives' lines from `before` to `after` (their [`DriveTotals`], drive by
/// drive) adds to each test's totals, changed tests only.
fn totals_change(before: &[DriveTotals], after: &[DriveTotals]) -> BTreeMap<String, Totals> {
    let mut change: BTreeMap<String, Totals> = BTreeMap::new();
    for (totals, sign) in before.iter().map(|t| (t, -1)).chain(after.iter().map(|t| (t, 1))) {
        for (test, t) in totals {
            change.entry(test.clone()).or_default().add(*t, sign);
        }
    }
    change.retain(|_, c| *c != Totals::default());
    change
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

/// The same functions for both backends: only binding, the advisory locks, the
/// checkpoints of a build and where the catalogue of indexes is differ.
macro_rules! backend {
    ($name:ident, $db:ty, $conn:ty, $pool:ty, $lock:expr, $fold_lock:expr, $checkpoint:expr, $line_indexes:expr, $build_lock:expr, $after_build:expr) => {
        pub mod $name {
            use super::*;
            use sqlx::Row;

            // The backend's own parameter binding.
            use crate::$name::bind;

            /// Takes the summary's lock of each of these drives (sorted, once each) for
            /// the rest of the transaction: PostgreSQL's advisory lock, nothing on SQLite
            /// (one writer at a time). Every lock first, in key order: a re-tag from
            /// drive A to B and another from B to A, locking as they went, each held the
            /// lock the other waited for (PostgreSQL aborted one, a 500, found by the soak
            /// test). The lock comes before the drive's row is written (its
            /// `result_count`), so a transaction that writes a drive's row and then its
            /// summary (a merge) must take this lock before the row's.
            pub async fn lock_drives(conn: &mut $conn, drive_skus: &[&String]) -> StorageResult<()> {
                let Some(lock) = $lock else { return Ok(()) };
                let mut sorted = drive_skus.to_vec();
                sorted.sort();
                sorted.dedup();
                for sku in sorted {
                    sqlx::query(lock).bind(sku).execute(&mut *conn).await?;
                }
                Ok(())
            }

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
                let mut skus: Vec<&String> = by_pool.keys().map(|(sku, _)| sku).collect();
                skus.dedup();
                lock_drives(conn, &skus).await?;
                crate::effects::$name::mark_stale(&mut *conn, &skus).await?;
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
                    let sql = select_pools_sql(chunk.len());
                    for row in bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await? {
                        let tests = decode(row.try_get(2)?, row.try_get(3)?)?;
                        stored.insert((row.try_get(0)?, row.try_get(1)?), tests);
                    }
                }
                let touched: Vec<String> = skus.iter().map(|s| s.to_string()).collect();
                let before = drive_totals(conn, &touched).await?;
                let kinds = link_kinds(conn, &touched).await?;
                let mut rows = Vec::with_capacity(by_pool.len());
                let mut figures = Vec::new();
                for (key, new) in by_pool {
                    let mut tests = stored.remove(&key).unwrap_or_default();
                    merge(&mut tests, new);
                    let PoolColumns { summaries, samples, quantiles } = encode(&tests);
                    let (sku, pool) = key;
                    figures.extend(figure_rows(&sku, &pool, &tests, kinds.get(&sku).and_then(Option::as_deref))?);
                    rows.push([
                        Param::Text(Some(sku)),
                        Param::Text(Some(pool)),
                        Param::Int(Some(result_count(&tests))),
                        Param::Bytes(Some(summaries)),
                        Param::Bytes(Some(samples)),
                        Param::Bytes(quantiles),
                    ]);
                }
                let mut rows = rows.into_iter().peekable();
                while rows.peek().is_some() {
                    let chunk: Vec<[Param; POOL_COLUMNS]> = rows.by_ref().take(POOLS_PER_STATEMENT).collect();
                    let sql = upsert_pools_sql(chunk.len());
                    bind(sqlx::query(&sql), chunk.into_iter().flatten().collect())
                        .execute(&mut *conn)
                        .await?;
                }
                write_figures(conn, figures, &touched, before).await
            }

            /// The link kind of each of these drives (`drives.filter_link_kind`), which
            /// their leaderboard lines are written with.
            async fn link_kinds(
                conn: &mut $conn,
                drive_skus: &[String],
            ) -> StorageResult<HashMap<String, Option<String>>> {
                let mut kinds = HashMap::new();
                for chunk in drive_skus.chunks(crate::sql::SQLITE_INSERT_PARAMS) {
                    let sql = format!(
                        "SELECT id, filter_link_kind FROM drives WHERE id IN ({})",
                        placeholders(0, chunk.len())
                    );
                    let params = chunk.iter().map(|s| Param::Text(Some(s.clone()))).collect();
                    for r in bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await? {
                        kinds.insert(r.try_get(0)?, r.try_get(1)?);
                    }
                }
                Ok(kinds)
            }

            /// Each drive's part of the test totals as its lines are now.
            async fn drive_totals(
                conn: &mut $conn,
                drive_skus: &[String],
            ) -> StorageResult<Vec<DriveTotals>> {
                let mut out = Vec::with_capacity(drive_skus.len());
                for sku in drive_skus {
                    let rows: Vec<(String, i64, i64, i64)> =
                        sqlx::query_as(DRIVE_TOTALS).bind(sku).fetch_all(&mut *conn).await?;
                    out.push(
                        rows.into_iter()
                            .map(|(test, lines, ranked, results)| (test, Totals { drives: 1, lines, ranked, results }))
                            .collect(),
                    );
                }
                Ok(out)
            }

            /// Writes pools' leaderboard lines (`figure_rows`) and the result counts of
            /// their drives, after their `test_samples` rows, and moves the test totals by
            /// what the drives' lines changed since they were `before` (read by
            /// [`drive_totals`] before any of their lines changed). The totals are written
            /// in test order, so that two transactions never wait for each other's rows.
            async fn write_figures(
                conn: &mut $conn,
                figures: Vec<Vec<Param>>,
                drive_skus: &[String],
                before: Vec<DriveTotals>,
            ) -> StorageResult<()> {
                let statements = crate::sql::insert_rows(
                    "pool_figures",
                    FIGURE_COLUMNS,
                    figures,
                    crate::sql::SQLITE_INSERT_PARAMS,
                    UPSERT_FIGURES,
                );
                for (text, params) in statements {
                    bind(sqlx::query(&text), params).execute(&mut *conn).await?;
                }
                for sku in drive_skus {
                    sqlx::query(UPDATE_RESULT_COUNT).bind(sku).execute(&mut *conn).await?;
                }
                let after = drive_totals(conn, drive_skus).await?;
                append_totals(conn, totals_change(&before, &after)).await?;
                let changes: i64 = sqlx::query_scalar(TOTAL_CHANGES).fetch_one(&mut *conn).await?;
                if changes > FOLD_AT {
                    fold_totals(conn).await?;
                }
                Ok(())
            }

            /// Replaces the test totals' change rows by one row per test (their sums).
            /// On PostgreSQL one writer folds at a time (an advisory lock, tried: a writer
            /// that does not get it leaves the folding to the one that has it), so no
            /// two folds ever wait for each other's rows; the rows taken are only those
            /// committed before, which no writer locks.
            pub async fn fold_totals(conn: &mut $conn) -> StorageResult<()> {
                if let Some(lock) = $fold_lock {
                    let got: bool = sqlx::query_scalar(lock).fetch_one(&mut *conn).await?;
                    if !got {
                        return Ok(());
                    }
                }
                let taken: Vec<(String, i64, i64, i64, i64)> =
                    sqlx::query_as(TAKE_TOTAL_CHANGES).fetch_all(&mut *conn).await?;
                let mut sums: BTreeMap<String, Totals> = BTreeMap::new();
                for (test, drives, lines, ranked, results) in taken {
                    sums.entry(test).or_default().add(Totals { drives, lines, ranked, results }, 1);
                }
                sums.retain(|_, s| *s != Totals::default());
                append_totals(conn, sums).await
            }

            /// Appends one change row per test.
            async fn append_totals(conn: &mut $conn, changes: BTreeMap<String, Totals>) -> StorageResult<()> {
                for (test, Totals { drives, lines, ranked, results }) in changes {
                    sqlx::query(ADD_TO_TOTALS)
                        .bind(&test)
                        .bind(drives)
                        .bind(lines)
                        .bind(ranked)
                        .bind(results)
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
                lock_drives(conn, &drive_skus).await?;
                crate::effects::$name::mark_stale(&mut *conn, &drive_skus).await?;
                let upsert = upsert_pools_sql(1);
                let owned: Vec<String> = drive_skus.iter().map(|s| s.to_string()).collect();
                let kinds = link_kinds(conn, &owned).await?;
                for sku in drive_skus {
                    let one = std::slice::from_ref(sku);
                    let before = drive_totals(conn, one).await?;
                    sqlx::query(DELETE_DRIVE).bind(sku).execute(&mut *conn).await?;
                    sqlx::query(DELETE_DRIVE_FIGURES).bind(sku).execute(&mut *conn).await?;
                    let mut figures = Vec::new();
                    let (sql, params) =
                        super::super::sql::metrics_for_drives_sql(std::slice::from_ref(sku), &[]);
                    let rows = bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await?;
                    let metrics = rows
                        .iter()
                        .map(|r| <RawMetric as sqlx::FromRow<_>>::from_row(r)?.decode())
                        .collect::<StorageResult<Vec<_>>>()?;
                    for (pool, p) in pools_of(metrics) {
                        figures.extend(figure_rows(sku, &pool, &p.tests, kinds.get(sku).and_then(Option::as_deref))?);
                        let PoolColumns { summaries, samples, quantiles } = encode(&p.tests);
                        sqlx::query(&upsert)
                            .bind(sku)
                            .bind(&pool)
                            .bind(result_count(&p.tests))
                            .bind(summaries)
                            .bind(samples)
                            .bind(quantiles)
                            .execute(&mut *conn)
                            .await?;
                    }
                    write_figures(conn, figures, one, before).await?;
                }
                Ok(())
            }

            /// Builds every drive's pools when the database has none in the current
            /// layout (migrated from before 0003, bulk-loaded, or written by a server
            /// with another [`layout`]). Returns how many drives it built.
            pub async fn build_if_missing(pool: &$pool) -> StorageResult<usize> {
                let marked: Option<String> = sqlx::query_scalar(MARKED).fetch_optional(pool).await?;
                if marked == Some(layout()) {
                    return Ok(0);
                }
                // Servers sharing a PostgreSQL database build it one at a time: a session
                // lock on a connection of its own, held for the whole build (its
                // transactions are many) and let go with the connection if the server
                // dies. The next one finds the mark and builds nothing. SQLite has one
                // server per file.
                let Some((lock, unlock)) = $build_lock else { return build_all(pool).await };
                let mut holder = pool.acquire().await?;
                sqlx::query(lock).execute(&mut *holder).await?;
                let marked: Option<String> = sqlx::query_scalar(MARKED).fetch_optional(pool).await?;
                let built = if marked == Some(layout()) { Ok(0) } else { build_all(pool).await };
                sqlx::query(unlock).execute(&mut *holder).await?;
                built
            }

            /// [`build_if_missing`]'s build, its mark found missing.
            async fn build_all(pool: &$pool) -> StorageResult<usize> {
                // The lines' secondary indexes are built after the lines: inserted into
                // them, each line went to a random place of each (they are ordered by
                // test and figure); built after, the summary of 200,000 results took
                // 41.5 and 53.3 s on SQLite against 139.5 s (BENCHMARKS.md).
                // Their definitions wait in `app_meta` meanwhile, so a build cut short
                // still builds them at its next try.
                let mut tx = pool.begin().await?;
                let saved: Option<String> =
                    sqlx::query_scalar(DEFERRED_INDEXES).fetch_optional(&mut *tx).await?;
                let mut deferred: BTreeMap<String, String> = match saved {
                    Some(json) => serde_json::from_str(&json)
                        .map_err(|e| crate::StorageError::Corrupt(format!("{DEFERRED_KEY}: {e}")))?,
                    None => BTreeMap::new(),
                };
                let found: Vec<(String, String)> = sqlx::query_as($line_indexes).fetch_all(&mut *tx).await?;
                for (name, create) in found {
                    sqlx::query(&format!("DROP INDEX {name}")).execute(&mut *tx).await?;
                    deferred.insert(name, create);
                }
                let json = serde_json::to_string(&deferred).expect("index definitions serialise");
                sqlx::query(SAVE_DEFERRED_INDEXES).bind(json).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM test_samples").execute(&mut *tx).await?;
                sqlx::query("DELETE FROM pool_figures").execute(&mut *tx).await?;
                sqlx::query("DELETE FROM test_total_changes").execute(&mut *tx).await?;
                tx.commit().await?;
                let drives: Vec<String> = sqlx::query_scalar(DRIVES_WITH_RESULTS).fetch_all(pool).await?;
                for chunk in drives.chunks(BUILD_DRIVES) {
                    let mut tx = pool.begin().await?;
                    build_drives(&mut *tx, chunk).await?;
                    tx.commit().await?;
                    if let Some(checkpoint) = $checkpoint {
                        sqlx::query(checkpoint).execute(pool).await?;
                    }
                }
                sqlx::query(TOTALS_FROM_LINES).execute(pool).await?;
                let mut tx = pool.begin().await?;
                for create in deferred.values() {
                    sqlx::query(create).execute(&mut *tx).await?;
                }
                sqlx::query(FORGET_DEFERRED_INDEXES).execute(&mut *tx).await?;
                sqlx::query(SET_MARK).bind(layout()).execute(&mut *tx).await?;
                tx.commit().await?;
                if let Some(after) = $after_build {
                    sqlx::query(after).execute(pool).await?;
                }
                Ok(drives.len())
            }

            /// Writes the pools, lines and result counts of drives that have none yet
            /// (`build_if_missing`): their metrics read by one statement, their rows
            /// written by multi-row statements. The test totals are left to the caller,
            /// which sums every line once at the end.
            async fn build_drives(conn: &mut $conn, drive_skus: &[String]) -> StorageResult<()> {
                let skus: Vec<&String> = drive_skus.iter().collect();
                crate::effects::$name::mark_stale(&mut *conn, &skus).await?;
                let (sql, params) = super::super::sql::metrics_for_drives_sql(drive_skus, &[]);
                let rows = bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await?;
                let mut by_drive: BTreeMap<String, Vec<MetricRow>> = BTreeMap::new();
                for r in &rows {
                    let m = <RawMetric as sqlx::FromRow<_>>::from_row(r)?.decode()?;
                    by_drive.entry(m.drive_sku.clone()).or_default().push(m);
                }
                drop(rows);
                let mut pools = Vec::new();
                let mut figures = Vec::new();
                let kinds = link_kinds(conn, drive_skus).await?;
                for (sku, metrics) in by_drive {
                    let kind = kinds.get(&sku).and_then(Option::as_deref);
                    for (pool, p) in pools_of(metrics) {
                        figures.extend(figure_rows(&sku, &pool, &p.tests, kind)?);
                        let PoolColumns { summaries, samples, quantiles } = encode(&p.tests);
                        pools.push(vec![
                            Param::Text(Some(sku.clone())),
                            Param::Text(Some(pool)),
                            Param::Int(Some(result_count(&p.tests))),
                            Param::Bytes(Some(summaries)),
                            Param::Bytes(Some(samples)),
                            Param::Bytes(quantiles),
                        ]);
                    }
                }
                for rows in [
                    crate::sql::insert_rows(
                        "test_samples",
                        &["drive_sku", "pool", "result_count", "summaries", "samples", "quantiles"],
                        pools,
                        crate::sql::SQLITE_INSERT_PARAMS,
                        "",
                    ),
                    crate::sql::insert_rows(
                        "pool_figures",
                        FIGURE_COLUMNS,
                        figures,
                        crate::sql::SQLITE_INSERT_PARAMS,
                        "",
                    ),
                ] {
                    for (text, params) in rows {
                        bind(sqlx::query(&text), params).execute(&mut *conn).await?;
                    }
                }
                let sql = format!(
                    "UPDATE drives SET result_count = (SELECT COALESCE(SUM(result_count), 0) FROM test_samples \
                     WHERE drive_sku = drives.id) WHERE id IN ({})",
                    placeholders(0, drive_skus.len())
                );
                let params = drive_skus.iter().map(|s| Param::Text(Some(s.clone()))).collect();
                bind(sqlx::query(&sql), params).execute(&mut *conn).await?;
                Ok(())
            }

            /// Every pool of these drives.
            pub async fn pools_for_drives(
                pool: &$pool,
                drive_skus: &[String],
            ) -> StorageResult<Vec<PoolSummary>> {
                // In lists of at most SQLITE_INSERT_PARAMS ids: a list of every drive (an
                // index of 100,000) is over both databases' parameter limits, and SQLite's
                // cost per statement grows with the square of its parameters.
                let mut keys = HashMap::new();
                let mut out = Vec::new();
                for chunk in drive_skus.chunks(crate::sql::SQLITE_INSERT_PARAMS) {
                    let sql = pools_for_drives_sql(chunk.len());
                    let params = chunk.iter().map(|s| Param::Text(Some(s.clone()))).collect();
                    for r in bind(sqlx::query(&sql), params).fetch_all(pool).await? {
                        let bytes: &[u8] = r.try_get(2)?;
                        out.push(decode_pool(r.try_get(0)?, r.try_get(1)?, bytes, &mut keys)?);
                    }
                }
                Ok(out)
            }

            /// A leaderboard's lines: the pools measured in `test` (the drives alone, or
            /// RAID sets of them when `arrays`) with at least `min_results` results,
            /// fastest first (ties by drive, then pool), the first `limit` of the drives
            /// `filter` keeps. Read from `pool_figures` (joined to the drives for a
            /// filter), so only those lines' pools are decoded.
            pub async fn ranked_pools(
                pool: &$pool,
                test: &str,
                arrays: bool,
                min_results: usize,
                filter: &api_types::DriveFilter,
                limit: usize,
            ) -> StorageResult<Vec<PoolSummary>> {
                // Through `bind`: a test holding NUL matches nothing instead of failing.
                let mut params = crate::sql::Params::default();
                params.push(Param::Text(Some(test.to_string())));
                params.push(Param::Int(Some(i64::from(arrays))));
                let ranked = ranked_sql(min_results, &mut params, filter);
                let sql = format!("{ranked} LIMIT {}", params.push(Param::Int(Some(limit as i64))));
                let mut lines: Vec<(String, String)> = Vec::new();
                for r in bind(sqlx::query(&sql), params.into_vec()).fetch_all(pool).await? {
                    lines.push((r.try_get(0)?, r.try_get(1)?));
                }
                let mut read = HashMap::new();
                let mut keys = HashMap::new();
                for chunk in lines.chunks(POOLS_PER_STATEMENT) {
                    let params = chunk
                        .iter()
                        .flat_map(|(sku, p)| [Param::Text(Some(sku.clone())), Param::Text(Some(p.clone()))])
                        .collect();
                    let sql = select_pool_summaries_sql(chunk.len());
                    for r in bind(sqlx::query(&sql), params).fetch_all(pool).await? {
                        let (sku, p): (String, String) = (r.try_get(0)?, r.try_get(1)?);
                        let summary = decode_pool(sku.clone(), &p, r.try_get(2)?, &mut keys)?;
                        read.insert((sku, p), summary);
                    }
                }
                Ok(lines.into_iter().filter_map(|line| read.remove(&line)).collect())
            }

            /// How many lines of `test` (drives alone and RAID sets) have fewer than
            /// `min_results` results, of the drives `filter` keeps.
            pub async fn thin_lines(
                pool: &$pool,
                test: &str,
                min_results: usize,
                filter: &api_types::DriveFilter,
            ) -> StorageResult<usize> {
                // Every line has a result; at the floor, every drive's lines are the
                // kept totals' lines less their ranked ones.
                if min_results <= 1 {
                    return Ok(0);
                }
                if min_results == RANKED_FLOOR && filter.is_empty() {
                    // Through `bind`: a test holding NUL matches nothing instead of failing.
                    let row = bind(sqlx::query(TEST_LINES), vec![Param::Text(Some(test.to_string()))])
                        .fetch_one(pool)
                        .await?;
                    let (lines, ranked): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
                    return Ok(usize::try_from(lines - ranked).unwrap_or(0));
                }
                let mut params = crate::sql::Params::default();
                params.push(Param::Text(Some(test.to_string())));
                params.push(Param::Int(Some(min_results as i64)));
                let sql = thin_sql(min_results, &LineFilter::of(filter, &mut params));
                let n: i64 = bind(sqlx::query(&sql), params.into_vec()).fetch_one(pool).await?.try_get(0)?;
                Ok(n as usize)
            }

            /// Every test measured on the drives `filter` keeps, in test order, with its
            /// drives, ranked lines and results: every drive's from the kept totals,
            /// a filter's grouped from its drives' lines in `pool_figures`.
            pub async fn leaderboard_tests(
                pool: &$pool,
                filter: &api_types::DriveFilter,
            ) -> StorageResult<Vec<api_types::LeaderboardTest>> {
                let as_usize = |n: i64| usize::try_from(n).unwrap_or(0);
                let mut params = crate::sql::Params::default();
                let sql = match filter.is_empty() {
                    true => LEADERBOARD_TESTS.to_string(),
                    false => filtered_tests_sql(&crate::sql::drive_filter_sql(filter, &mut params)),
                };
                let rows = bind(sqlx::query(&sql), params.into_vec()).fetch_all(pool).await?;
                rows.iter()
                    .map(|r| {
                        Ok(api_types::LeaderboardTest {
                            test: r.try_get(0)?,
                            drives: as_usize(r.try_get(1)?),
                            ranked: as_usize(r.try_get(2)?),
                            results: as_usize(r.try_get(3)?),
                        })
                    })
                    .collect()
            }

            /// Every pool of these drives with its tests' quantiles: the summaries and
            /// quantiles columns of each row, its samples where it has no quantiles (a
            /// pool of few values, or one written before migration 0022).
            pub async fn pools_with_quantiles(
                pool: &$pool,
                drive_skus: &[String],
            ) -> StorageResult<Vec<PoolWithQuantiles>> {
                let mut out = Vec::new();
                for chunk in drive_skus.chunks(crate::sql::SQLITE_INSERT_PARAMS) {
                    let sql = pools_with_quantiles_sql(chunk.len());
                    let params = chunk.iter().map(|s| Param::Text(Some(s.clone()))).collect();
                    for r in bind(sqlx::query(&sql), params).fetch_all(pool).await? {
                        let (summaries, quantiles): (&[u8], &[u8]) = (r.try_get(2)?, r.try_get(3)?);
                        out.push(codec::decode_pool_quantiles(
                            r.try_get(0)?,
                            r.try_get(1)?,
                            summaries,
                            quantiles,
                        )?);
                    }
                }
                Ok(out)
            }
        }
    };
}

backend!(
    sqlite,
    sqlx::Sqlite,
    sqlx::SqliteConnection,
    sqlx::SqlitePool,
    None::<&str>,
    None::<&str>,
    // Between two transactions of a build: with one transaction after another, the
    // storage's background checkpoints never found the WAL wholly copied when the next
    // began, so SQLite never started it over (6 GB at 200,000 results, 29 GB at
    // 1,000,000 and growing).
    Some(crate::sqlite::CHECKPOINT_TRUNCATE),
    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'pool_figures' AND sql IS NOT NULL",
    None::<(&str, &str)>,
    None::<&str>
);
backend!(
    postgres,
    sqlx::Postgres,
    sqlx::PgConnection,
    sqlx::PgPool,
    Some("SELECT pg_advisory_xact_lock(hashtext($1))"),
    // Two 32-bit keys: a key space apart from the drives' 64-bit ones.
    Some("SELECT pg_try_advisory_xact_lock(18, 0)"),
    None::<&str>,
    // Not the primary key's index (a constraint's).
    "SELECT indexname::text, indexdef FROM pg_indexes i WHERE schemaname = current_schema() \
     AND tablename = 'pool_figures' AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)",
    Some(("SELECT pg_advisory_lock(18, 1)", "SELECT pg_advisory_unlock(18, 1)")),
    // The build wrote every row of these: until the visibility map and the statistics
    // know them (autovacuum, minutes later), index-only scans read the rows too (a count
    // of one test's thin lines at 100,000 drives took 63 ms just after a build, 8 ms
    // once vacuumed) and plans guess.
    Some("VACUUM (ANALYZE) pool_figures, test_samples, test_total_changes, drives")
);

#[cfg(test)]
mod tests {
    use super::codec::tests::key;
    use super::*;

    #[test]
    fn a_drive_moves_the_test_totals_by_what_its_lines_changed() {
        let totals = |v: &[(&str, i64, i64, i64)]| -> DriveTotals {
            v.iter()
                .map(|(test, lines, ranked, results)| {
                    (
                        test.to_string(),
                        Totals { drives: 1, lines: *lines, ranked: *ranked, results: *results },
                    )
                })
                .collect()
        };
        // Drive 1's line in A reaches 3 results, it gets a second line there (a new
        // platform) and a first line in B; drive 2 leaves A; drive 3 is unchanged.
        let before = [totals(&[("A", 1, 0, 2)]), totals(&[("A", 1, 1, 3)]), totals(&[("C", 1, 1, 4)])];
        let after = [totals(&[("A", 2, 1, 6), ("B", 1, 0, 1)]), totals(&[]), totals(&[("C", 1, 1, 4)])];
        let change = totals_change(&before, &after);
        let t = |drives, lines, ranked, results| Totals { drives, lines, ranked, results };
        let want: BTreeMap<String, Totals> =
            [("A".to_string(), t(-1, 0, 0, 1)), ("B".to_string(), t(1, 1, 0, 1))].into();
        assert_eq!(change, want);
        assert!(totals_change(&after, &after).is_empty());
    }

    #[test]
    fn pool_statements_are_numbered_for_their_parameters() {
        use crate::sql::assert_numbered;
        for n in [1, 3, POOLS_PER_STATEMENT] {
            assert_numbered(&select_pools_sql(n), 2 * n);
            assert_numbered(&upsert_pools_sql(n), POOL_COLUMNS * n);
            assert_numbered(&pools_for_drives_sql(n), n);
            assert_numbered(&select_pool_summaries_sql(n), 2 * n);
        }
        // A statement's parameters: `before` of its own, then the filter's.
        let crucial = api_types::DriveFilter { vendor: Some("Crucial".into()), ..Default::default() };
        let vendor = |before: usize| {
            let mut params = crate::sql::Params::default();
            (0..before).for_each(|_| _ = params.push(Param::Int(Some(0))));
            crate::sql::drive_filter_sql(&crucial, &mut params)
        };
        // The ranking's: test and arrays, the count when compared, the filter's.
        let ranked = |min_results: usize, filter: &api_types::DriveFilter| {
            let mut params = crate::sql::Params::default();
            (0..2).for_each(|_| _ = params.push(Param::Int(Some(0))));
            let sql = ranked_sql(min_results, &mut params, filter);
            (sql, params.into_vec().len())
        };
        let sata = api_types::DriveFilter { interface: Some("SATA".into()), ..Default::default() };
        let sata_of_crucial = api_types::DriveFilter { interface: Some("sata".into()), ..crucial.clone() };
        for min_results in [1, 2, RANKED_FLOOR, 10] {
            for filter in [&Default::default(), &crucial, &sata, &sata_of_crucial] {
                let (sql, params) = ranked(min_results, filter);
                assert_numbered(&sql, params);
            }
            for filter in [&Default::default(), &crucial, &sata, &sata_of_crucial] {
                let mut params = crate::sql::Params::default();
                (0..2).for_each(|_| _ = params.push(Param::Int(Some(0))));
                let sql = thin_sql(min_results, &LineFilter::of(filter, &mut params));
                assert_numbered(&sql, params.into_vec().len());
            }
        }
        assert_numbered(&filtered_tests_sql(&vendor(0)), 1);
        assert!(DRIVE_TOTALS.contains(&format!("n >= {RANKED_FLOOR}")));
        let every = api_types::DriveFilter::default();
        // At 1 and at the floor no line's count is compared beyond the index's bound.
        assert!(!ranked(1, &every).0.contains("f.n") && !ranked(RANKED_FLOOR, &every).0.contains("f.n >= $"));
        assert!(ranked(2, &every).0.contains("f.n >= $3") && ranked(10, &every).0.contains("f.n >= $3"));
        // The partial indexes are read only when the statement names their bound.
        assert!(
            ranked(RANKED_FLOOR, &every).0.contains("AND f.n >= 3")
                && !ranked(2, &every).0.contains("n >= 3")
        );
        let none = LineFilter { conditions: String::new(), join: false };
        assert!(
            thin_sql(RANKED_FLOOR, &none).contains("AND f.n < 3 AND")
                && !thin_sql(4, &none).contains("n < 3")
        );
        // A filter of the drives joins them; none, or an interface kind alone (the
        // lines' own column), reads the lines alone.
        assert!(ranked(1, &crucial).0.contains("JOIN drives d") && !ranked(1, &every).0.contains("JOIN"));
        let (kind_only, _) = ranked(1, &sata);
        assert!(kind_only.contains("f.link_kind = $3") && !kind_only.contains("JOIN"), "{kind_only}");
        let (both, _) = ranked(1, &sata_of_crucial);
        assert!(both.contains("f.link_kind = $3") && both.contains("d.filter_vendor = $4"), "{both}");
        assert!(upsert_pools_sql(2)
            .contains("VALUES ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12) ON CONFLICT"));
        for (sql, params) in [
            (MARKED, 0),
            (SET_MARK, 1),
            (DRIVES_WITH_RESULTS, 0),
            (DELETE_DRIVE, 1),
            (DELETE_DRIVE_FIGURES, 1),
            (UPDATE_RESULT_COUNT, 1),
            (LEADERBOARD_TESTS, 0),
            (DRIVE_TOTALS, 1),
            (TEST_LINES, 1),
            (ADD_TO_TOTALS, 5),
        ] {
            assert_numbered(sql, params);
        }
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
