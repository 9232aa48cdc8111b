//! SSDBase's persistence behind one trait, with one implementation per backend (SQLite,
//! the embedded default, and PostgreSQL). Nothing here is generic over the database: the
//! SQL text and its parameters are built once in [`sql`], and each backend binds them.
//! The server (`ssdbase`, which re-exports this crate as `ssdbase::storage`) keeps HTTP
//! and the commands; nothing here depends on it.
//!
//! Both backends keep the same tables (see the workspace's `migrations/`, embedded here):
//! the catalogue (`drives`), uploads byte for byte (`submissions`), tool runs with their
//! tags (`results`) and one row per measured number keyed by its test descriptor
//! (`metrics`).

pub mod catalogue;
pub mod duplicates;
pub mod effects;
mod jobs;
mod postgres;
pub mod search;
pub mod sql;
mod sqlite;
pub mod summary;

// A screenshot reading's provenance is stored as the API shows it.
pub use api_types::{Correction, Provenance, SettingCorrection};
pub use bench::difference::FigureValues;
pub use catalogue::{Decided, Merged, ProposalRow};
pub use jobs::{ClaimedJob, NewOcrJob, OcrJobRow, OcrJobs};
pub use postgres::PgStorage;
pub use sql::{cursor_after, enum_name};
pub use sqlite::SqliteStorage;
pub use summary::{PoolSummary, PoolWithQuantiles};

use api_types::{CatalogueChange, DriveProposal, ProposalStatus, RunnerRecord};
use async_trait::async_trait;
use bench::analysis::Flag;
use bench::{
    BenchResult, DataPattern, DriveSku, Field, FieldValue, Observation, PlatformGroup, Tags, TestKey,
};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// sha256 of `bytes` as lowercase hex: how content hashes (uploads, observations,
/// screenshots) and edit-token hashes are stored.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// What the database layer can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A row whose JSON or enum text no longer reads: a bug or a hand-edited database.
    #[error("stored data does not read back: {0}")]
    Corrupt(String),
    /// The SQLite group-commit task is gone (the runtime is shutting down).
    #[error("the database writer stopped")]
    WriterStopped,
}

impl StorageError {
    /// A result refers to a drive that is not there (a foreign key of `results`): the
    /// drive was merged into another between identifying it and storing the result. The
    /// submission can be identified and stored again; nothing was stored.
    pub fn is_drive_gone(&self) -> bool {
        matches!(self, StorageError::Db(e)
            if e.as_database_error().is_some_and(|d| d.kind() == sqlx::error::ErrorKind::ForeignKeyViolation))
    }
}

pub type StorageResult<T> = Result<T, StorageError>;

/// One result to store, with everything the server derived from it.
#[derive(Debug, Clone)]
pub struct NewResult {
    pub result: BenchResult,
    /// `result` serialised, when the caller has that text already (the canonical text a
    /// public-format upload is hashed by): stored as is rather than serialised again, which
    /// for a result with a long series over time is a good part of its submission. Must be
    /// exactly `serde_json::to_string(&result)`; debug builds check it on every insert.
    pub result_json: Option<String>,
    pub tags: Tags,
    pub source: Option<String>,
    pub flags: Vec<Flag>,
    /// The community drive this result's tags created (`tags.drive.sku` is its id):
    /// stored with its keys, unless it exists, in the transaction that stores the result.
    pub new_drive: Option<DriveSku>,
}

/// One upload: its original bytes and the results parsed from them.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    /// The upload exactly as received.
    pub body: Vec<u8>,
    /// sha256 of `body`, lowercase hex; equal hashes are the same upload.
    pub content_hash: String,
    pub format: Option<String>,
    /// sha256 of the secret edit token, lowercase hex (the token itself is never stored).
    pub edit_token_hash: String,
    pub client: Option<String>,
    pub created_at: i64,
    pub results: Vec<NewResult>,
    /// Set when the results were read from a screenshot rather than parsed from a file.
    pub provenance: Option<Provenance>,
    /// Set when `ssdbase bench` sent the result, with how it says it measured it.
    pub runner: Option<RunnerRecord>,
}

/// What a result's upload was, without its bytes.
#[derive(Debug, Clone)]
pub struct UploadInfo {
    /// `cdm`, `fio`, ... for result files, `json`, or the media type of a screenshot.
    pub format: Option<String>,
    pub provenance: Option<Provenance>,
    pub runner: Option<RunnerRecord>,
}

/// The outcome of [`Storage::submit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    Stored {
        submission_id: i64,
        result_ids: Vec<i64>,
    },
    /// The same content was stored before: nothing was written.
    Duplicate {
        submission_id: i64,
        result_ids: Vec<i64>,
    },
}

/// A stored result as read back.
#[derive(Debug, Clone)]
pub struct StoredResult {
    pub id: i64,
    pub submission_id: i64,
    pub created_at: i64,
    pub hidden: bool,
    /// Why a moderator hid it (only while hidden).
    pub hidden_reason: Option<String>,
    pub hidden_at: Option<i64>,
    pub source: Option<String>,
    pub result: BenchResult,
    pub tags: Tags,
    pub flags: Vec<Flag>,
}

/// What the edit-token check needs to know about a stored result.
#[derive(Debug, Clone)]
pub struct ResultOwner {
    pub submission_id: i64,
    /// sha256 of the submission's edit token, lowercase hex.
    pub edit_token_hash: String,
}

/// Who changed a stored result, for the moderation log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// The holder of the submission's edit token.
    Owner,
    /// The holder of the server's admin token.
    Admin,
}

impl Actor {
    pub fn name(self) -> &'static str {
        match self {
            Actor::Owner => "owner",
            Actor::Admin => "admin",
        }
    }
}

/// Drives by id, as read: every submission names or finds its drive, so this saves a
/// read per `POST /results`. A drive changes only when a moderator accepts a proposal or
/// merges drives, which forget it here at once; another server on the same PostgreSQL
/// database sees the change when its copy is [`DRIVE_CACHE_TTL`] old. An unknown id is
/// asked again every time (another server may add it).
#[derive(Debug, Default)]
struct DriveCache(std::sync::RwLock<std::collections::HashMap<String, (DriveSku, std::time::Instant)>>);

/// How long a drive read stays in a [`DriveCache`].
const DRIVE_CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(10);

impl DriveCache {
    /// The drive `id` from memory, or else decoded from the catalogue row's JSON that
    /// `read` fetches (`None`: no such drive) and remembered.
    async fn get_or_read(
        &self,
        id: &str,
        read: impl std::future::Future<Output = StorageResult<Option<String>>>,
    ) -> StorageResult<Option<DriveSku>> {
        if let Some((d, at)) = self.0.read().unwrap_or_else(|e| e.into_inner()).get(id) {
            if at.elapsed() < DRIVE_CACHE_TTL {
                return Ok(Some(d.clone()));
            }
        }
        let Some(spec) = read.await? else {
            self.forget(id);
            return Ok(None);
        };
        let drive: DriveSku = sql::from_json(&spec)?;
        self.0
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(drive.id.clone(), (drive.clone(), std::time::Instant::now()));
        Ok(Some(drive))
    }

    /// Drops drive `id` (changed or merged away).
    fn forget(&self, id: &str) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).remove(id);
    }
}

/// The whole catalogue decoded, in name order, as of a fingerprint of the `drives` table:
/// its row count and the newest catalogue change. Every write of a drive's spec goes with
/// a change (an accepted proposal, a merge) and every other write adds a row (seeds,
/// imports, community drives), so a fingerprint read before the specs says whether the
/// copy is still the database's, also when another server changed it. The index and
/// leaderboards list every drive per request: decoding 100,000 drives' JSON each time
/// was most of their second.
#[derive(Debug, Default)]
struct CatalogueCache(std::sync::Mutex<Option<(CatalogueFingerprint, std::sync::Arc<Vec<DriveSku>>)>>);

/// The drives' count and the newest catalogue change's id.
type CatalogueFingerprint = (i64, i64);

impl CatalogueCache {
    fn get(&self, fingerprint: CatalogueFingerprint) -> Option<std::sync::Arc<Vec<DriveSku>>> {
        match &*self.0.lock().unwrap_or_else(|e| e.into_inner()) {
            Some((at, drives)) if *at == fingerprint => Some(drives.clone()),
            _ => None,
        }
    }

    fn set(&self, fingerprint: CatalogueFingerprint, drives: std::sync::Arc<Vec<DriveSku>>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((fingerprint, drives));
    }
}

/// What [`Storage::delete_result`] removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deleted {
    /// The result was its submission's last one, so the upload went too.
    pub submission_deleted: bool,
}

/// The browse filter a public (query-string) name means: a field of [`bench::FIELDS`],
/// compared on its column. Every field filters.
pub fn result_filter(name: &str) -> Option<FilterKind> {
    bench::fields::field(name).map(column_of)
}

/// A field's column with its type.
pub fn column_of(f: &Field) -> FilterKind {
    match f.kind {
        bench::fields::Kind::Text => FilterKind::Text(f.column),
        bench::fields::Kind::Int => FilterKind::Int(f.column),
    }
}

/// Filters on the test descriptor: a result matches when one of its metrics does.
pub const METRIC_FILTERS: &[(&str, FilterKind)] = &[
    ("access", FilterKind::Text("access")),
    ("block_size", FilterKind::Int("block_size")),
    ("queue_depth", FilterKind::Int("queue_depth")),
    ("threads", FilterKind::Int("threads")),
    ("op", FilterKind::Text("op")),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKind {
    Text(&'static str),
    Int(&'static str),
}

/// An equality filter: a column and the value it must hold.
pub type Filter = (&'static str, FieldValue);

/// The sort a public name means (`sort=name`, without its `-`): `created` (the result
/// id), or a field of [`bench::FIELDS`] marked `sort`. Missing values sort as the
/// smallest (`''` or -1) so that keyset pagination needs no NULL special cases.
pub fn result_sort(name: &str) -> Option<FilterKind> {
    if name == "created" {
        return Some(FilterKind::Int("id"));
    }
    bench::fields::sort_field(name).map(column_of)
}

/// Every sort name, `created` first, then the sortable fields in [`bench::FIELDS`] order.
pub fn result_sorts() -> impl Iterator<Item = &'static str> {
    std::iter::once("created").chain(bench::FIELDS.iter().filter(|f| f.sort).map(|f| f.name))
}

/// The order of a browse: one column of [`result_sort`], ties broken by result id in
/// the same direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    pub column: FilterKind,
    pub descending: bool,
}

impl Default for Sort {
    /// Newest first.
    fn default() -> Sort {
        Sort { column: FilterKind::Int("id"), descending: true }
    }
}

/// Where the previous page ended: the last result's sort value and id.
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    pub value: FieldValue,
    pub id: i64,
}

/// A browse query over results: equality filters, one sort column, keyset pagination.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultQuery {
    /// (column, value) pairs on `results`.
    pub filters: Vec<Filter>,
    /// (column, value) pairs on `metrics`: some metric of the result must match all.
    pub metric_filters: Vec<Filter>,
    pub sort: Sort,
    /// Continue after this position (exclusive).
    pub after: Option<Cursor>,
    pub limit: i64,
    pub include_hidden: bool,
    pub figures: ResultFigures,
}

/// How much of each result a read returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ResultFigures {
    /// Each result as stored.
    #[default]
    All,
    /// Each result's burst figures: without the points of its load sweeps and its series
    /// over time (`bench::curves::keep_burst_only`), read from the column that keeps them
    /// for the results that have either. A row stored before that column comes whole:
    /// callers still fold it (`keep_burst_only` leaves burst figures as they are).
    Burst,
}

impl ResultQuery {
    /// The latest `limit` visible results of catalogue drive `id`, as
    /// `GET /results?drive=ID&limit=N` lists them.
    pub fn latest_of_drive(id: &str, limit: i64) -> ResultQuery {
        ResultQuery {
            filters: vec![("drive_sku", FieldValue::Text(id.to_string()))],
            limit,
            ..Default::default()
        }
    }
}

/// One measured number with its result, drive and canonical test key.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricRow {
    pub result_id: i64,
    pub drive_sku: String,
    pub platform: PlatformGroup,
    pub data_pattern: Option<DataPattern>,
    pub key: TestKey,
    pub mbps: Option<f64>,
    pub iops: Option<f64>,
    pub latency_us: Option<f64>,
}

/// The orders the catalogue can be read in a page at a time ([`Storage::drives_page`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriveOrder {
    /// By vendor, model, capacity and id.
    Name,
    NameDescending,
    /// Most visible results first, ties in name order.
    MostResults,
    /// Fewest visible results first, ties in name order.
    FewestResults,
}

/// A catalogue entry with how many visible results it has.
#[derive(Debug, Clone)]
pub struct DriveRow {
    pub drive: DriveSku,
    pub result_count: i64,
}

/// A drive as the API lists it: with its URL and visible result count.
impl From<DriveRow> for api_types::DriveListItem {
    fn from(d: DriveRow) -> Self {
        api_types::DriveListItem {
            url: api_types::links::api_drive(&d.drive.id),
            result_count: d.result_count,
            drive: d.drive,
        }
    }
}

/// Everything the server keeps; the screenshot queue is its own trait ([`OcrJobs`]).
#[async_trait]
pub trait Storage: OcrJobs + Send + Sync + 'static {
    /// Which backend this is (`sqlite` or `postgres`), for health checks and logs.
    fn backend(&self) -> &'static str;

    /// Cheap round trip to the database.
    async fn ping(&self) -> StorageResult<()>;

    /// How the connection pools are used right now (for `/metrics`).
    fn pool_stats(&self) -> Vec<PoolStats>;

    /// Loads the seed catalogue and results in one transaction when the database has
    /// never been seeded and holds no data. Returns whether it loaded anything. Safe
    /// against several servers starting at once on one database.
    async fn seed_if_empty(
        &self,
        drives: &[DriveSku],
        observations: &[Observation],
        submissions: &[NewSubmission],
    ) -> StorageResult<bool>;

    /// Stores an upload and its results in one transaction, or recognises the same
    /// content hash and stores nothing.
    async fn submit(&self, submission: &NewSubmission) -> StorageResult<Submitted> {
        let mut done = self.store_batch(&[], &[], std::slice::from_ref(submission)).await?;
        Ok(done.pop().expect("one outcome per submission"))
    }

    /// Stores several uploads in ONE transaction: all of them or (on any error) none.
    /// Catalogue drives not yet known are added first (`ssdbase import` of a dataset);
    /// known ids are left as they are; then the dataset's observations not yet stored.
    /// One outcome per submission, in order; an upload whose content hash is stored
    /// already (or appears earlier in the batch) is a [`Submitted::Duplicate`].
    async fn store_batch(
        &self,
        drives: &[DriveSku],
        observations: &[Observation],
        submissions: &[NewSubmission],
    ) -> StorageResult<Vec<Submitted>>;

    /// The sources' observations about one catalogue drive (bounds, approximations,
    /// practical tests): its own and those that name only its model line (vendor and
    /// model, no capacity), in the order they were stored.
    async fn observations_of_drive(&self, drive: &DriveSku) -> StorageResult<Vec<Observation>>;

    /// Every stored observation, in the order they were stored.
    async fn list_observations(&self) -> StorageResult<Vec<Observation>>;

    /// The format and provenance of the upload a result came from.
    async fn upload_info(&self, result_id: i64) -> StorageResult<Option<UploadInfo>>;

    /// The upload a result came from, byte for byte, with its format.
    async fn upload_body(&self, result_id: i64) -> StorageResult<Option<(Option<String>, Vec<u8>)>>;

    /// The submission and edit-token hash of a stored result (hidden or not).
    async fn result_owner(&self, id: i64) -> StorageResult<Option<ResultOwner>>;

    // -- Changes to stored results ------------------------------------------------------
    // After `store_batch`, results change only through the three methods below, each in
    // one transaction that also writes the moderation log. Anything derived from the
    // visible results (e.g. a per-drive summary table) must be maintained here, inside
    // the same transaction, and in `store_batch`.

    /// Replaces a result's tags and flags (and every filter column derived from them).
    /// `update.result` must be the stored result unchanged. False when there is no such id.
    async fn update_result(&self, id: i64, update: &NewResult, actor: Actor, at: i64) -> StorageResult<bool>;

    /// Deletes a result and its metrics, and its submission when no result is left.
    /// `None` when there is no such id.
    async fn delete_result(&self, id: i64, actor: Actor, at: i64) -> StorageResult<Option<Deleted>>;

    /// Hides (with a reason) or restores a result. False when there is no such id.
    async fn set_hidden(&self, id: i64, hidden: bool, reason: Option<&str>, at: i64) -> StorageResult<bool>;

    async fn get_result(&self, id: i64) -> StorageResult<Option<StoredResult>>;

    async fn list_results(&self, query: &ResultQuery) -> StorageResult<Vec<StoredResult>>;

    async fn get_drive(&self, id: &str) -> StorageResult<Option<DriveSku>>;

    async fn list_drives(&self) -> StorageResult<Vec<DriveRow>>;

    /// A page of the drives `filter` keeps in `order`: `limit` drives after `offset`,
    /// each with its visible result count. Only the page is read and decoded.
    async fn drives_page(
        &self,
        filter: &api_types::DriveFilter,
        order: DriveOrder,
        offset: usize,
        limit: usize,
    ) -> StorageResult<Vec<DriveRow>>;

    /// The drives of one model line (same vendor and model, as written), smallest first.
    async fn model_line(&self, vendor: &str, model: &str) -> StorageResult<Vec<DriveSku>>;

    /// The drives on one controller model (as written), in name order.
    async fn drives_on_controller(&self, model: &str) -> StorageResult<Vec<DriveSku>>;

    /// How many drives `filter` keeps (the catalogue's, with an empty filter).
    async fn drive_count(&self, filter: &api_types::DriveFilter) -> StorageResult<usize>;

    /// The catalogue in name order, decoded once per change of it and shared, without
    /// result counts: what a filter over every drive reads.
    async fn catalogue(&self) -> StorageResult<std::sync::Arc<Vec<DriveSku>>>;

    /// The visible result counts of these drives (one that is not in the catalogue is
    /// left out).
    async fn result_counts(&self, ids: &[String]) -> StorageResult<std::collections::HashMap<String, i64>>;

    /// A leaderboard's lines: the pools measured in `test` (`TestKey::id`; drives alone,
    /// or RAID sets of them when `arrays`) with at least `min_results` results, fastest
    /// median MB/s first (ties by drive id, then pool), the first `limit` of those of the
    /// drives `filter` keeps.
    async fn ranked_pools(
        &self,
        test: &str,
        arrays: bool,
        min_results: usize,
        filter: &api_types::DriveFilter,
        limit: usize,
    ) -> StorageResult<Vec<PoolSummary>>;

    /// Every test measured on the drives `filter` keeps, in test order, with how many
    /// drives have it, how many lines have at least [`summary::RANKED_FLOOR`] results and
    /// how many results it has.
    async fn leaderboard_tests(
        &self,
        filter: &api_types::DriveFilter,
    ) -> StorageResult<Vec<api_types::LeaderboardTest>>;

    /// How many lines of `test` (drives alone and RAID sets) have fewer than
    /// `min_results` results, of the drives `filter` keeps.
    async fn thin_lines(
        &self,
        test: &str,
        min_results: usize,
        filter: &api_types::DriveFilter,
    ) -> StorageResult<usize>;

    /// The drives known under any of `keys` (`bench::identity`'s `n:`/`p:` keys), as
    /// (key, drive) rows, a drive once per key it is known under.
    async fn drives_by_keys(&self, keys: &[String]) -> StorageResult<Vec<(String, DriveSku)>>;

    /// At most `limit` drives with a key in [`from`, `to`) (`bench::identity::search_ranges`),
    /// reviewed ones first, with their visible result counts.
    async fn search_drives(&self, from: &str, to: &str, limit: i64) -> StorageResult<Vec<DriveRow>>;

    /// At most `limit` drives whose search text (`bench::identity::search_text`) holds
    /// every term of `query`, reviewed first, then most results, each with its text;
    /// `None` when no term is long enough for the text index ([`search::find`] ranks
    /// and retries).
    async fn drives_by_text(
        &self,
        query: &bench::identity::SearchQuery,
        limit: i64,
    ) -> StorageResult<Option<Vec<(DriveRow, String)>>>;

    /// The drives that share a line (`l:`) or name (`n:`) key with another drive, as
    /// (key, drive) rows (`duplicates::SHARED_KEYS`).
    async fn shared_key_drives(&self) -> StorageResult<Vec<(String, DriveRow)>>;

    /// At most `limit` words of the search vocabulary that share trigrams with `word`,
    /// the nearest first: where one typo of it may be found.
    async fn similar_words(&self, word: &str, limit: i64) -> StorageResult<Vec<String>>;

    // -- Catalogue contributions (`catalogue`) --------------------------------------------

    /// Stores a proposal (checked by the caller) as open; its id. Changes no drive.
    async fn add_proposal(
        &self,
        proposal: &DriveProposal,
        warnings: &[String],
        client: Option<&str>,
        at: i64,
    ) -> StorageResult<i64>;

    async fn get_proposal(&self, id: i64) -> StorageResult<Option<ProposalRow>>;

    /// Proposals with this status (every one when `None`), oldest first.
    async fn list_proposals(&self, status: Option<ProposalStatus>) -> StorageResult<Vec<ProposalRow>>;

    /// Accepts (applying it to the catalogue, with the drive's keys, its results' drive
    /// tags and flags, and a history entry) or rejects an open proposal, in one
    /// transaction; on a conflict nothing changes.
    async fn decide_proposal(
        &self,
        id: i64,
        accept: bool,
        reason: Option<&str>,
        at: i64,
    ) -> StorageResult<Decided>;

    /// Merges drive `from` into `into` in one transaction: results, observations and
    /// names move, both compare summaries are rebuilt, `from` is deleted, the history
    /// records it.
    async fn merge_drives(
        &self,
        from: &str,
        into: &str,
        reason: Option<&str>,
        at: i64,
    ) -> StorageResult<Merged>;

    /// The catalogue's changes (of one drive and the merges into it, or all), oldest first.
    async fn catalogue_history(&self, drive_id: Option<&str>) -> StorageResult<Vec<CatalogueChange>>;

    /// Visible results that name one of these catalogue drives, oldest first, with
    /// `figures` of each.
    async fn results_for_drives(
        &self,
        ids: &[String],
        figures: ResultFigures,
    ) -> StorageResult<Vec<StoredResult>>;

    /// Every metric of the visible results of these catalogue drives whose results match
    /// every (column, value) filter on `results` (columns from [`result_filter`]).
    async fn metrics_for_drives(&self, ids: &[String], filters: &[Filter]) -> StorageResult<Vec<MetricRow>>;

    /// Per pool (platform group and data pattern) of these catalogue drives, per test,
    /// the visible results' ids and each figure's median, MAD, min, max and count, read
    /// from the `test_samples` summary: a few rows per drive instead of every metric row.
    async fn pools_for_drives(&self, ids: &[String]) -> StorageResult<Vec<PoolSummary>>;

    /// [`Storage::pools_for_drives`] with each test's values thinned to
    /// [`bench::difference::DIFFERENCE_POINTS`] order statistics per figure: what compare
    /// sets pools against each other with, stored so (`test_samples.quantiles`) that a
    /// popular drive's thousands of values are never read for it.
    async fn pools_with_quantiles(&self, ids: &[String]) -> StorageResult<Vec<PoolWithQuantiles>>;

    /// Recomputes the factor effects of up to `max_drives` drives whose results changed
    /// and marks the combined effects they touch ([`effects`]); returns how many drives
    /// it did, 0 when none was waiting.
    async fn refresh_effects(&self, max_drives: usize) -> StorageResult<usize>;

    /// Combines again every effect marked by [`Storage::refresh_effects`]; returns how
    /// many.
    async fn combine_effects(&self) -> StorageResult<usize>;

    /// The combined factor effects (of one factor, or all), with the pairs left out and
    /// the drives whose changes are not counted yet.
    async fn effects(&self, factor: Option<&str>) -> StorageResult<effects::EffectsSnapshot>;

    /// The drives behind one combined effect, each with its name and its own effect.
    async fn effect_drives(&self, key: &effects::EffectKey) -> StorageResult<Vec<effects::EffectDrive>>;
}

pub type DynStorage = Arc<dyn Storage>;

/// One database connection pool's use (for the server's `/metrics`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolStats {
    pub name: &'static str,
    pub size: u32,
    pub idle: u32,
    pub max: u32,
}

/// One sqlx pool's use, named.
pub(crate) fn pool_stats<DB: sqlx::Database>(name: &'static str, pool: &sqlx::Pool<DB>) -> PoolStats {
    PoolStats {
        name,
        size: pool.size(),
        idle: u32::try_from(pool.num_idle()).unwrap_or(u32::MAX),
        max: pool.options().get_max_connections(),
    }
}

/// Opens the database a URL names (`sqlite:...` or `postgres://...`), creating an
/// SQLite file when missing, and applies the migrations.
///
/// When the identity rules changed (`bench::identity::LAYOUT`), every drive's keys are
/// rebuilt and the drives the new rules say are one are merged where no moderator is
/// needed (`duplicates::merge_after_upgrade`).
pub async fn connect(url: &str) -> anyhow::Result<DynStorage> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStorage::connect(url).await?))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Arc::new(PgStorage::connect(url).await?))
    } else {
        anyhow::bail!("unsupported database URL {url:?}: expected sqlite:FILE or postgres://...")
    }
}
