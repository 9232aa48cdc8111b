//! Persistence behind one trait, with one implementation per backend (SQLite, the
//! embedded default, and PostgreSQL). Nothing here is generic over the database: the
//! SQL text and its parameters are built once in [`sql`], and each backend binds them.
//!
//! Both backends keep the same tables (see `migrations/`): the catalogue (`drives`),
//! uploads byte for byte (`submissions`), tool runs with their tags (`results`) and one
//! row per measured number keyed by its test descriptor (`metrics`).

mod jobs;
mod postgres;
pub mod sql;
mod sqlite;
pub mod summary;

pub use jobs::{ClaimedJob, JobStatus, NewOcrJob, OcrJob, OcrJobs};
pub use postgres::PgStorage;
pub use sql::{cursor_after, enum_name};
pub use sqlite::SqliteStorage;
pub use summary::{PoolSummary, TestSummary};

use async_trait::async_trait;
use bench::analysis::Flag;
use bench::{BenchResult, DataPattern, DriveSku, PlatformGroup, Tags, TestKey};
use std::sync::Arc;

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
}

pub type StorageResult<T> = Result<T, StorageError>;

/// One result to store, with everything the server derived from it.
#[derive(Debug, Clone)]
pub struct NewResult {
    pub result: BenchResult,
    pub tags: Tags,
    pub source: Option<String>,
    pub flags: Vec<Flag>,
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
    pub source: Option<String>,
    pub result: BenchResult,
    pub tags: Tags,
    pub flags: Vec<Flag>,
}

/// A filterable column of `results`, by its public (query-string) name.
pub const RESULT_FILTERS: &[(&str, FilterKind)] = &[
    ("drive", FilterKind::Text("drive_sku")),
    ("vendor", FilterKind::Text("drive_vendor")),
    ("model", FilterKind::Text("drive_model")),
    ("part_number", FilterKind::Text("drive_part_number")),
    ("capacity_gb", FilterKind::Int("drive_capacity_gb")),
    ("controller", FilterKind::Text("controller")),
    ("stepping", FilterKind::Text("controller_stepping")),
    ("nand", FilterKind::Text("nand_vendor")),
    ("firmware", FilterKind::Text("firmware")),
    ("chipset", FilterKind::Text("chipset")),
    ("storage_controller", FilterKind::Text("storage_controller")),
    ("driver", FilterKind::Text("driver")),
    ("mode", FilterKind::Text("mode")),
    ("link", FilterKind::Text("link")),
    ("host_link", FilterKind::Text("host_link")),
    ("raid_level", FilterKind::Int("raid_level")),
    ("raid_members", FilterKind::Int("raid_members")),
    ("os", FilterKind::Text("os")),
    ("filesystem", FilterKind::Text("filesystem")),
    ("tool", FilterKind::Text("tool")),
    ("tool_version", FilterKind::Text("tool_version")),
    ("family", FilterKind::Text("family")),
    ("data_pattern", FilterKind::Text("data_pattern")),
    ("test_size_bytes", FilterKind::Int("test_size_bytes")),
];

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
pub type Filter = (&'static str, FilterValue);

/// A value a filter compares with.
#[derive(Debug, Clone, PartialEq)]
pub enum FilterValue {
    Text(String),
    Int(i64),
}

/// A column results can be sorted on, by its public name. Missing values sort as the
/// smallest (`''` or -1) so that keyset pagination needs no NULL special cases.
pub const RESULT_SORTS: &[(&str, FilterKind)] = &[
    ("created", FilterKind::Int("id")),
    ("drive", FilterKind::Text("drive_model")),
    ("vendor", FilterKind::Text("drive_vendor")),
    ("capacity_gb", FilterKind::Int("drive_capacity_gb")),
    ("controller", FilterKind::Text("controller")),
    ("chipset", FilterKind::Text("chipset")),
    ("storage_controller", FilterKind::Text("storage_controller")),
    ("tool", FilterKind::Text("tool")),
    ("tool_version", FilterKind::Text("tool_version")),
    ("test_size_bytes", FilterKind::Int("test_size_bytes")),
];

/// The order of a browse: one column of [`RESULT_SORTS`], ties broken by result id in
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
    pub value: FilterValue,
    pub id: i64,
}

/// A browse query over results: equality filters, one sort column, keyset pagination.
#[derive(Debug, Clone, Default)]
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

/// A catalogue entry with how many visible results it has.
#[derive(Debug, Clone)]
pub struct DriveRow {
    pub drive: DriveSku,
    pub result_count: i64,
}

/// Everything the server keeps; the screenshot queue is its own trait ([`OcrJobs`]).
#[async_trait]
pub trait Storage: OcrJobs + Send + Sync + 'static {
    /// Which backend this is (`sqlite` or `postgres`), for health checks and logs.
    fn backend(&self) -> &'static str;

    /// Cheap round trip to the database.
    async fn ping(&self) -> StorageResult<()>;

    /// Loads the seed catalogue and results in one transaction when the database has
    /// never been seeded and holds no data. Returns whether it loaded anything. Safe
    /// against several servers starting at once on one database.
    async fn seed_if_empty(&self, drives: &[DriveSku], submissions: &[NewSubmission]) -> StorageResult<bool>;

    /// Stores an upload and its results in one transaction, or recognises the same
    /// content hash and stores nothing.
    async fn submit(&self, submission: &NewSubmission) -> StorageResult<Submitted>;

    async fn get_result(&self, id: i64) -> StorageResult<Option<StoredResult>>;

    async fn list_results(&self, query: &ResultQuery) -> StorageResult<Vec<StoredResult>>;

    async fn get_drive(&self, id: &str) -> StorageResult<Option<DriveSku>>;

    async fn list_drives(&self) -> StorageResult<Vec<DriveRow>>;

    /// Visible results that name one of these catalogue drives, oldest first.
    async fn results_for_drives(&self, ids: &[String]) -> StorageResult<Vec<StoredResult>>;

    /// Every metric of the visible results of these catalogue drives whose results match
    /// every (column, value) filter on `results` (columns from [`RESULT_FILTERS`]).
    async fn metrics_for_drives(&self, ids: &[String], filters: &[Filter]) -> StorageResult<Vec<MetricRow>>;

    /// Per pool (platform group and data pattern) of these catalogue drives, per test,
    /// the visible results' ids and each figure's median, MAD, min, max and count, read
    /// from the `test_samples` summary: a few rows per drive instead of every metric row.
    async fn pools_for_drives(&self, ids: &[String]) -> StorageResult<Vec<PoolSummary>>;
}

pub type DynStorage = Arc<dyn Storage>;

/// Opens the database a URL names (`sqlite:...` or `postgres://...`), creating an
/// SQLite file when missing, and applies the migrations.
pub async fn connect(url: &str) -> anyhow::Result<DynStorage> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStorage::connect(url).await?))
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        Ok(Arc::new(PgStorage::connect(url).await?))
    } else {
        anyhow::bail!("unsupported database URL {url:?}: expected sqlite:FILE or postgres://...")
    }
}
