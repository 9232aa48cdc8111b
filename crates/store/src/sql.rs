//! The SQL both backends run, written once with numbered placeholders (`$1`, `$2`, ...),
//! and the parameters it binds. Both backends take the text as it is: PostgreSQL numbers
//! its parameters so, and sqlx's SQLite driver binds `$N` to the N-th argument. A `$N`
//! beyond the arguments bound is silently NULL in SQLite, so every statement built at run
//! time numbers its placeholders from the parameters it has pushed so far ([`Params`],
//! [`placeholders`]), and the tests below check that each one's highest `$N` is its
//! parameter count.
//! Public so that bulk loaders (the server benchmark's 1,000,000-result fixture) write
//! exactly the rows and values that [`super::Storage::submit`] writes.

use super::{
    Cursor, DriveOrder, FilterKind, NewResult, NewSubmission, ResultFigures, ResultQuery, Sort, StorageError,
    StoredResult,
};
use bench::fields::Kind;
use bench::{BenchResult, DriveSku, FieldValue, Metric, Observation, PlatformGroup, TestKey, FIELDS};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::LazyLock;

/// A bound value. Every variant binds the same way in SQLite and PostgreSQL.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    Text(Option<String>),
    Int(Option<i64>),
    Float(Option<f64>),
    Bytes(Option<Vec<u8>>),
}

impl From<&FieldValue> for Param {
    fn from(v: &FieldValue) -> Param {
        match v {
            FieldValue::Text(s) => Param::Text(Some(s.clone())),
            FieldValue::Int(i) => Param::Int(Some(*i)),
        }
    }
}

/// `count` placeholders numbered after the `bound` parameters a statement has so far:
/// `placeholders(2, 3)` is `$3, $4, $5`.
pub fn placeholders(bound: usize, count: usize) -> String {
    (bound + 1..=bound + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}

/// `rows` rows of `columns` placeholders each, numbered after `bound` parameters:
/// `value_rows(0, 2, 2)` is `($1, $2), ($3, $4)`.
pub fn value_rows(bound: usize, columns: usize, rows: usize) -> String {
    (0..rows)
        .map(|r| format!("({})", placeholders(bound + r * columns, columns)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The parameters of a statement being built, each pushed where its placeholder is
/// written, so that a placeholder's number is its parameter's position.
#[derive(Debug, Default)]
pub struct Params(Vec<Param>);

impl Params {
    /// Adds a parameter and returns its placeholder (`$N`, N its 1-based position).
    pub fn push(&mut self, p: Param) -> String {
        self.0.push(p);
        format!("${}", self.0.len())
    }

    /// Adds parameters and returns their placeholders, comma-separated.
    pub fn extend(&mut self, ps: impl IntoIterator<Item = Param>) -> String {
        let bound = self.0.len();
        self.0.extend(ps);
        placeholders(bound, self.0.len() - bound)
    }

    pub fn into_vec(self) -> Vec<Param> {
        self.0
    }
}

pub use bench::fields::unit_name as enum_name;

pub fn enum_from_name<T: DeserializeOwned>(s: &str) -> Result<T, StorageError> {
    bench::fields::from_unit_name(s).map_err(StorageError::Corrupt)
}

pub fn from_json<T: DeserializeOwned>(s: &str) -> Result<T, StorageError> {
    serde_json::from_str(s).map_err(|e| StorageError::Corrupt(e.to_string()))
}

pub fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("domain types always serialise")
}

fn int<T: TryInto<i64>>(v: Option<T>) -> Param {
    Param::Int(v.and_then(|v| v.try_into().ok()))
}

// ---------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------

pub const INSERT_META_SEEDED: &str =
    "INSERT INTO app_meta (key, value) VALUES ('seeded', $1) ON CONFLICT (key) DO NOTHING";

pub const COUNT_DATA: &str = "SELECT (SELECT COUNT(*) FROM drives) + (SELECT COUNT(*) FROM submissions)";

pub const INSERT_DRIVE: &str =
    "INSERT INTO drives (id, vendor, model, part_number, capacity_gb, controller, spec, \
     reviewed, filter_vendor, filter_link, filter_link_kind, filter_controller, filter_nand) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8 = 1, $9, $10, $11, $12, $13)";

/// A drive's row in `INSERT_DRIVE`'s order (`reviewed`, the 8th, as 0 or 1).
pub fn drive_params(d: &DriveSku) -> Vec<Param> {
    let mut params = vec![
        Param::Text(Some(d.id.clone())),
        Param::Text(Some(d.vendor.clone())),
        Param::Text(Some(d.model.clone())),
        Param::Text(d.part_number.clone()),
        int(Some(d.capacity_gb)),
        Param::Text(d.controller.model.clone()),
        Param::Text(Some(to_json(d))),
        int(Some(u32::from(d.reviewed))),
    ];
    params.extend(filter_values(d).map(Param::Text));
    params
}

/// What the drive filters compare (migration 0019): vendor, link id, link kind,
/// controller model and NAND vendor, lower-cased.
pub fn filter_values(d: &DriveSku) -> [Option<String>; 5] {
    let link = d.interface.map(|l| l.id().to_lowercase());
    let kind = link.as_deref().map(|l| l.split('-').next().unwrap_or(l).to_string());
    let lower = |s: Option<&String>| s.map(|s| s.to_lowercase());
    [
        Some(d.vendor.to_lowercase()),
        link,
        kind,
        lower(d.controller.model.as_ref()),
        lower(d.nand.vendor.as_ref()),
    ]
}

/// Sets a stored drive's filter columns (`$1` its id, then [`filter_values`]).
pub const SET_DRIVE_FILTERS: &str = "UPDATE drives SET filter_vendor = $2, filter_link = $3, \
     filter_link_kind = $4, filter_controller = $5, filter_nand = $6 WHERE id = $1";
/// What `app_meta` says about the filter columns: the [`FILTERS_LAYOUT`] that filled them.
pub const DRIVE_FILTERS_LAYOUT: &str = "SELECT value FROM app_meta WHERE key = 'drive_filters'";
pub const SET_DRIVE_FILTERS_LAYOUT: &str = "INSERT INTO app_meta (key, value) VALUES ('drive_filters', $1) \
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";
/// Changes when [`filter_values`] does: every drive's filter columns (and its lines' link
/// kind) are written again.
pub const FILTERS_LAYOUT: &str = "2";
/// Every drive's id and JSON, a page at a time after id `$1`, `$2` of them.
pub const DRIVE_SPECS_AFTER: &str = "SELECT id, spec FROM drives WHERE id > $1 ORDER BY id LIMIT $2";

/// Whether an interface filter names a link kind (`sata`), not a link id (`sata-6`):
/// every id has a `-`, no kind has.
pub fn names_link_kind(interface: &str) -> bool {
    !interface.contains('-')
}

/// A drive's leaderboard lines take its link kind (`pool_figures.link_kind`, migration
/// 0021) where they do not have it: a drive whose interface changed, or lines stored
/// before the column. `$1` the drive.
pub const SET_LINE_KIND: &str = "UPDATE pool_figures SET link_kind = \
     (SELECT filter_link_kind FROM drives WHERE id = $1) WHERE drive_sku = $1 \
     AND COALESCE(link_kind, '') <> COALESCE((SELECT filter_link_kind FROM drives WHERE id = $1), '')";

/// The conditions `filter` puts on the drives table (aliased `d`), each beginning ` AND `,
/// their values pushed to `params`. Empty for an empty filter.
pub fn drive_filter_sql(filter: &api_types::DriveFilter, params: &mut Params) -> String {
    let api_types::DriveFilter { vendor, interface, controller, nand, reviewed } = filter;
    let lower = |s: &String| Param::Text(Some(s.to_lowercase()));
    let mut sql = String::new();
    for (column, want) in
        [("filter_vendor", vendor), ("filter_controller", controller), ("filter_nand", nand)]
    {
        if let Some(w) = want {
            sql += &format!(" AND d.{column} = {}", params.push(lower(w)));
        }
    }
    if let Some(w) = interface {
        // A link id or a kind: one column, so one index finds the drives.
        let column = if names_link_kind(w) { "filter_link_kind" } else { "filter_link" };
        sql += &format!(" AND d.{column} = {}", params.push(lower(w)));
    }
    if let Some(r) = reviewed {
        sql += &format!(" AND d.reviewed = ({} = 1)", params.push(int(Some(u32::from(*r)))));
    }
    sql
}

/// Every key a drive is known under (`bench::identity::keys_of`), as rows of
/// `DRIVE_KEY_COLUMNS`.
pub fn drive_key_rows(d: &DriveSku) -> Vec<Vec<Param>> {
    bench::identity::keys_of(d)
        .into_iter()
        .map(|k| vec![Param::Text(Some(k)), Param::Text(Some(d.id.clone()))])
        .collect()
}

pub const DRIVE_KEY_COLUMNS: &[&str] = &["key", "drive_id"];

/// What `app_meta` says about the stored drive keys: the `bench::identity::LAYOUT` that
/// made them.
pub const DRIVE_KEYS_LAYOUT: &str = "SELECT value FROM app_meta WHERE key = 'drive_keys'";
pub const SET_DRIVE_KEYS_LAYOUT: &str = "INSERT INTO app_meta (key, value) VALUES ('drive_keys', $1) \
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";
pub const DELETE_DRIVE_KEYS: &str = "DELETE FROM drive_aliases";
pub const ALL_DRIVE_SPECS: &str = "SELECT spec FROM drives ORDER BY id";

/// The drives known under any of `n` keys, as (key, drive id) rows.
/// The drives known under any of `$1..$n`, as (key, drive spec) rows: the keys and the
/// drives they lead to in one round trip, since a submission naming its drive asks this
/// on its way to being stored.
pub fn drives_by_keys_sql(n: usize) -> String {
    format!(
        "SELECT a.key, d.spec FROM drive_aliases a JOIN drives d ON d.id = a.drive_id \
         WHERE a.key IN ({}) ORDER BY a.key, a.drive_id",
        placeholders(0, n)
    )
}

/// Drives with a key in [`$1`, `$2`) (a prefix range of `bench::identity::search_ranges`),
/// reviewed ones first, at most `$3`, with their visible result counts. The keys read are
/// capped: a short prefix of a popular vendor matches many keys, and a page of drives is
/// all the search shows: 200 keys hold the API's most, 50 drives, unless drives have
/// more than 4 keys under one prefix (a vendor's name begins 2 or 3 of a drive's keys).
/// The cap is what a search costs at scale (`cargo xtask bench-server`, 100,000 drives):
/// each key read is a primary-key lookup of its drive and a row to sort; and from about
/// 1,000 keys up PostgreSQL's planner chose a hash join over a sequential scan of every
/// drive instead (2,000 keys: 60-160 ms a search; 500: 3-4 ms; 200: 1-2 ms).
pub const SEARCH_DRIVES: &str = "SELECT d.spec, \
     (SELECT COUNT(*) FROM results r WHERE r.drive_sku = d.id AND r.hidden = FALSE) AS result_count \
     FROM drives d WHERE d.id IN \
     (SELECT drive_id FROM drive_aliases WHERE key >= $1 AND key < $2 ORDER BY key LIMIT 200) \
     ORDER BY d.reviewed DESC, d.vendor, d.model, d.capacity_gb, d.id LIMIT $3";

/// Adds a catalogue drive unless its id is known (`ssdbase import` of a dataset).
pub const INSERT_DRIVE_IF_NEW: &str =
    "INSERT INTO drives (id, vendor, model, part_number, capacity_gb, controller, \
     spec, reviewed, filter_vendor, filter_link, filter_link_kind, filter_controller, filter_nand) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8 = 1, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING";

/// Adds a source's observation unless the same one is stored (a repeated import).
pub const INSERT_OBSERVATION_IF_NEW: &str =
    "INSERT INTO observations (content_hash, drive_sku, drive_vendor, drive_model, body) \
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (content_hash) DO NOTHING";

pub fn observation_params(o: &Observation) -> Vec<Param> {
    let body = to_json(o);
    let drive = &o.tags.drive;
    vec![
        Param::Text(Some(crate::sha256_hex(body.as_bytes()))),
        Param::Text(drive.sku.clone()),
        Param::Text(drive.vendor.clone()),
        Param::Text(drive.model.clone()),
        Param::Text(Some(body)),
    ]
}

/// A drive's observations (`$1`, `$2`, `$3` = its id, vendor, model): its own, and those that name
/// only its model line, in the order they were stored.
pub const OBSERVATIONS_OF_DRIVE: &str = "SELECT body FROM observations WHERE drive_sku = $1 \
     OR (drive_sku IS NULL AND drive_vendor = $2 AND drive_model = $3) ORDER BY id";

/// Every observation, in the order they were stored.
pub const ALL_OBSERVATIONS: &str = "SELECT body FROM observations ORDER BY id";

/// The columns of `submissions` an insert fills, in the order of [`submission_params`].
pub const SUBMISSION_COLUMNS: &[&str] =
    &["content_hash", "body", "format", "edit_token_hash", "client", "created_at", "provenance", "runner"];

pub const INSERT_SUBMISSION: &str =
    "INSERT INTO submissions (content_hash, body, format, edit_token_hash, client, created_at, provenance, runner) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (content_hash) DO NOTHING RETURNING id";

pub fn submission_params(s: &NewSubmission) -> Vec<Param> {
    vec![
        Param::Text(Some(s.content_hash.clone())),
        Param::Bytes(Some(s.body.clone())),
        Param::Text(s.format.clone()),
        Param::Text(Some(s.edit_token_hash.clone())),
        Param::Text(s.client.clone()),
        Param::Int(Some(s.created_at)),
        Param::Text(s.provenance.as_ref().map(to_json)),
        Param::Text(s.runner.as_ref().map(to_json)),
    ]
}

/// The upload a result came from: its format (media type for images), provenance, and
/// (only with [`UPLOAD_BODY_OF_RESULT`]) its bytes.
pub const UPLOAD_INFO_OF_RESULT: &str =
    "SELECT s.format, s.provenance, s.runner FROM results r JOIN submissions s ON s.id = r.submission_id WHERE r.id = $1";
pub const UPLOAD_BODY_OF_RESULT: &str =
    "SELECT s.format, s.body FROM results r JOIN submissions s ON s.id = r.submission_id WHERE r.id = $1";

pub const SUBMISSION_BY_HASH: &str = "SELECT id FROM submissions WHERE content_hash = $1";
pub const RESULT_IDS_OF_SUBMISSION: &str = "SELECT id FROM results WHERE submission_id = $1 ORDER BY ordinal";

/// The columns of `results` an insert fills, in the order of [`result_params`]: where the
/// result belongs, a column per field of [`bench::FIELDS`], then the result and its burst
/// figures as JSON.
pub static RESULT_COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut columns = vec!["submission_id", "ordinal", "created_at"];
    columns.extend(FIELDS.iter().map(|f| f.column));
    columns.extend(["source", "tags", "result", "burst", "flags"]);
    columns
});

/// A field's value bound to its column (NULL typed as the column is).
fn field_param(kind: Kind, v: Option<FieldValue>) -> Param {
    match (kind, v) {
        (_, Some(FieldValue::Text(s))) => Param::Text(Some(s)),
        (_, Some(FieldValue::Int(i))) => Param::Int(Some(i)),
        (Kind::Text, None) => Param::Text(None),
        (Kind::Int, None) => Param::Int(None),
    }
}

pub fn insert_result_sql() -> String {
    format!(
        "INSERT INTO results ({}) VALUES ({}) RETURNING id",
        RESULT_COLUMNS.join(", "),
        placeholders(0, RESULT_COLUMNS.len())
    )
}

/// The result as its column stores it: the text the caller serialised, or serialised now.
fn result_json(r: &NewResult) -> String {
    match &r.result_json {
        Some(json) => {
            debug_assert_eq!(*json, to_json(&r.result), "result_json is not the result's JSON");
            json.clone()
        }
        None => to_json(&r.result),
    }
}

/// The result's burst figures as their column stores them ([`ResultFigures::Burst`]):
/// `None` when they are the whole result (no sweep, no series over time).
pub fn burst_json(result: &BenchResult) -> Option<String> {
    let mut burst = result.clone();
    bench::curves::keep_burst_only(&mut burst);
    (burst.metrics.len() < result.metrics.len() || !result.over_time.is_empty()).then(|| to_json(&burst))
}

pub fn result_params(r: &NewResult, submission_id: i64, ordinal: usize, created_at: i64) -> Vec<Param> {
    let mut params = vec![Param::Int(Some(submission_id)), int(Some(ordinal)), Param::Int(Some(created_at))];
    params.extend(FIELDS.iter().map(|f| field_param(f.kind, f.value(&r.tags, &r.result))));
    params.extend([
        Param::Text(r.source.clone()),
        Param::Text(Some(to_json(&r.tags))),
        Param::Text(Some(result_json(r))),
        Param::Text(burst_json(&r.result)),
        Param::Text(Some(to_json(&r.flags))),
    ]);
    debug_assert_eq!(params.len(), RESULT_COLUMNS.len());
    params
}

/// The columns a tag correction rewrites: everything after `submission_id`,
/// `ordinal` and `created_at`, i.e. every filter column, the tags, result and flags.
const UPDATABLE_FROM: usize = 3;

pub fn update_result_sql() -> String {
    let columns = &RESULT_COLUMNS[UPDATABLE_FROM..];
    let sets: Vec<String> = columns.iter().enumerate().map(|(i, c)| format!("{c} = ${}", i + 1)).collect();
    format!("UPDATE results SET {} WHERE id = ${}", sets.join(", "), columns.len() + 1)
}

pub fn update_result_params(id: i64, r: &NewResult) -> Vec<Param> {
    let mut params = result_params(r, 0, 0, 0).split_off(UPDATABLE_FROM);
    params.push(Param::Int(Some(id)));
    params
}

/// The catalogue drive a result names (for refreshing its compare summary).
pub const DRIVE_OF_RESULT: &str = "SELECT drive_sku FROM results WHERE id = $1";

pub const SUBMISSION_OF_RESULT: &str = "SELECT submission_id FROM results WHERE id = $1";

pub const RESULT_OWNER: &str = "SELECT r.submission_id, s.edit_token_hash \
     FROM results r JOIN submissions s ON s.id = r.submission_id WHERE r.id = $1";

pub const DELETE_METRICS_OF_RESULT: &str = "DELETE FROM metrics WHERE result_id = $1";
pub const DELETE_RESULT: &str = "DELETE FROM results WHERE id = $1";
/// Deletes a submission that has no result left (bind its id twice).
pub const DELETE_EMPTY_SUBMISSION: &str =
    "DELETE FROM submissions WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM results WHERE submission_id = $2)";

pub const HIDE_RESULT: &str =
    "UPDATE results SET hidden = TRUE, hidden_reason = $1, hidden_at = $2 WHERE id = $3";
pub const RESTORE_RESULT: &str =
    "UPDATE results SET hidden = FALSE, hidden_reason = NULL, hidden_at = NULL WHERE id = $1";

pub const INSERT_MODERATION_LOG: &str =
    "INSERT INTO moderation_log (result_id, action, actor, reason, created_at) VALUES ($1, $2, $3, $4, $5)";

pub fn moderation_log_params(
    result_id: i64,
    action: &str,
    actor: super::Actor,
    reason: Option<&str>,
    at: i64,
) -> Vec<Param> {
    vec![
        Param::Int(Some(result_id)),
        Param::Text(Some(action.to_string())),
        Param::Text(Some(actor.name().to_string())),
        Param::Text(reason.map(str::to_string)),
        Param::Int(Some(at)),
    ]
}

/// The columns of `metrics` an insert fills, in the order of [`metric_params`].
pub const METRIC_COLUMNS: &[&str] = &[
    "result_id",
    "ordinal",
    "label",
    "family",
    "access",
    "block_size",
    "queue_depth",
    "threads",
    "op",
    "mix_read_percent",
    "stat",
    "mbps",
    "iops",
    "latency_us",
];

/// Bound parameters per statement at most: SQLite allows 32,766 and PostgreSQL 65,535,
/// and multi-row inserts are split to stay under both.
pub const MAX_PARAMS: usize = 30_000;

/// Bound parameters per multi-row insert on SQLite (the group commit's, a bulk loader's).
/// SQLite keeps a statement's `$N` names in a list it searches from the start, when it
/// prepares the statement and again each time sqlx asks a parameter's name to bind it,
/// so a statement costs the square of its parameters: one insert of 20,000 parameters
/// took seconds where 20,000 `?` took milliseconds. Statements of a few hundred cost
/// little more than `?` did (the per-statement round trip and that square balance there).
pub const SQLITE_INSERT_PARAMS: usize = 256;

/// `INSERT INTO table (columns) VALUES ($1, ...), ... ` for `rows` rows, numbered row
/// after row (append any `ON CONFLICT` or `RETURNING`).
pub fn insert_values_sql(table: &str, columns: &[&str], rows: usize) -> String {
    format!("INSERT INTO {table} ({}) VALUES {}", columns.join(", "), value_rows(0, columns.len(), rows))
}

/// Inserts of `rows` (each a row's parameters in `columns` order) as multi-row statements
/// of at most `max_params` parameters each, `suffix` after each (`ON CONFLICT ...`).
pub fn insert_rows(
    table: &str,
    columns: &[&str],
    rows: Vec<Vec<Param>>,
    max_params: usize,
    suffix: &str,
) -> Vec<(String, Vec<Param>)> {
    let per = (max_params / columns.len()).max(1);
    let mut rows = rows.into_iter().peekable();
    let mut statements = Vec::new();
    while rows.peek().is_some() {
        let chunk: Vec<Vec<Param>> = rows.by_ref().take(per).collect();
        let text = insert_values_sql(table, columns, chunk.len()) + suffix;
        statements.push((text, chunk.into_iter().flatten().collect()));
    }
    statements
}

/// One multi-row insert for the metrics of a result (`None` when it has none).
pub fn insert_metrics(result_id: i64, result: &BenchResult) -> Option<(String, Vec<Param>)> {
    if result.metrics.is_empty() {
        return None;
    }
    let sql = insert_values_sql("metrics", METRIC_COLUMNS, result.metrics.len());
    let mut params = Vec::with_capacity(result.metrics.len() * METRIC_COLUMNS.len());
    metric_params(result_id, result, &mut params);
    Some((sql, params))
}

/// Appends the [`METRIC_COLUMNS`] values of every metric of a result.
pub fn metric_params(result_id: i64, result: &BenchResult, params: &mut Vec<Param>) {
    let family = enum_name(&result.family());
    for (i, m) in result.metrics.iter().enumerate() {
        let Metric { label, access, block_size, queue_depth, threads, op, mbps, iops, latency_us, .. } = m;
        params.extend([
            Param::Int(Some(result_id)),
            int(Some(i)),
            Param::Text(Some(label.clone())),
            Param::Text(Some(family.clone())),
            Param::Text(Some(enum_name(access))),
            int(Some(*block_size)),
            int(Some(*queue_depth)),
            int(Some(*threads)),
            Param::Text(Some(enum_name(op))),
            int(m.mix_read_percent),
            Param::Text(m.stat.as_ref().map(enum_name)),
            Param::Float(*mbps),
            Param::Float(*iops),
            Param::Float(*latency_us),
        ]);
    }
}

// ---------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------

/// The columns every result read selects, decoded by [`RawResult::decode`].
/// The columns of a [`RawResult`], its JSON read from `$result`.
macro_rules! result_select {
    ($result:literal) => {
        concat!(
            "SELECT r.id, r.submission_id, r.created_at, r.hidden, r.hidden_reason, r.hidden_at, r.source, ",
            "r.tags, ",
            $result,
            ", r.flags FROM results r"
        )
    };
}

pub const RESULT_SELECT: &str = result_select!("r.result");

/// [`RESULT_SELECT`] with each result's burst figures where its row has them.
pub const BURST_RESULT_SELECT: &str = result_select!("COALESCE(r.burst, r.result) AS result");

/// The select of `figures`.
fn result_select(figures: ResultFigures) -> &'static str {
    match figures {
        ResultFigures::All => RESULT_SELECT,
        ResultFigures::Burst => BURST_RESULT_SELECT,
    }
}

/// A result row before its JSON is read. `FromRow` decodes it from either backend.
#[derive(sqlx::FromRow)]
pub struct RawResult {
    pub id: i64,
    pub submission_id: i64,
    pub created_at: i64,
    pub hidden: bool,
    pub hidden_reason: Option<String>,
    pub hidden_at: Option<i64>,
    pub source: Option<String>,
    pub tags: String,
    pub result: String,
    pub flags: String,
}

impl RawResult {
    pub fn decode(self) -> Result<StoredResult, StorageError> {
        Ok(StoredResult {
            id: self.id,
            submission_id: self.submission_id,
            created_at: self.created_at,
            hidden: self.hidden,
            hidden_reason: self.hidden_reason,
            hidden_at: self.hidden_at,
            source: self.source,
            tags: from_json(&self.tags)?,
            result: from_json(&self.result)?,
            flags: from_json(&self.flags)?,
        })
    }
}

pub fn get_result_sql() -> String {
    format!("{RESULT_SELECT} WHERE r.id = $1")
}

pub fn list_results_sql(q: &ResultQuery) -> (String, Vec<Param>) {
    let mut sql = String::from(result_select(q.figures));
    let mut params = Params::default();
    let mut conds: Vec<String> = Vec::new();
    if !q.include_hidden {
        conds.push("r.hidden = FALSE".into());
    }
    for (col, v) in &q.filters {
        conds.push(format!("r.{col} = {}", params.push(Param::from(v))));
    }
    if !q.metric_filters.is_empty() {
        let inner: Vec<String> = q
            .metric_filters
            .iter()
            .map(|(col, v)| format!("m.{col} = {}", params.push(Param::from(v))))
            .collect();
        conds.push(format!(
            "EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = r.id AND {})",
            inner.join(" AND ")
        ));
    }
    // Missing values sort as the smallest, the same in both backends (SQLite puts NULLs
    // first, PostgreSQL last), and keep the keyset comparison a plain `<`/`>`.
    let key = match q.sort.column {
        FilterKind::Int("id") => "r.id".to_string(),
        FilterKind::Int(col) => format!("COALESCE(r.{col}, -1)"),
        FilterKind::Text(col) => format!("COALESCE(r.{col}, '')"),
    };
    let (cmp, dir) = if q.sort.descending { ("<", "DESC") } else { (">", "ASC") };
    if let Some(after) = &q.after {
        if key == "r.id" {
            conds.push(format!("r.id {cmp} {}", params.push(Param::Int(Some(after.id)))));
        } else {
            let value = params.push(Param::from(&after.value));
            let same = params.push(Param::from(&after.value));
            let id = params.push(Param::Int(Some(after.id)));
            conds.push(format!("({key} {cmp} {value} OR ({key} = {same} AND r.id {cmp} {id}))"));
        }
    }
    if !conds.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conds.join(" AND "));
    }
    if key == "r.id" {
        sql.push_str(&format!(" ORDER BY r.id {dir}"));
    } else {
        sql.push_str(&format!(" ORDER BY {key} {dir}, r.id {dir}"));
    }
    sql.push_str(&format!(" LIMIT {}", params.push(Param::Int(Some(q.limit)))));
    (sql, params.into_vec())
}

/// The cursor that continues a browse after `last` under `sort`: its sort column's value
/// as stored (the field's value, as on insert; missing as the smallest) and its id.
pub fn cursor_after(last: &StoredResult, sort: Sort) -> Cursor {
    let (col, missing) = match sort.column {
        FilterKind::Int("id") => return Cursor { value: FieldValue::Int(last.id), id: last.id },
        FilterKind::Int(col) => (col, FieldValue::Int(-1)),
        FilterKind::Text(col) => (col, FieldValue::Text(String::new())),
    };
    let field = FIELDS.iter().find(|f| f.column == col).expect("sort columns are fields");
    Cursor { value: field.value(&last.tags, &last.result).unwrap_or(missing), id: last.id }
}

pub const GET_DRIVE: &str = "SELECT spec FROM drives WHERE id = $1";

/// Every drive's spec, in name order.
pub const LIST_DRIVES: &str = "SELECT spec FROM drives ORDER BY vendor, model, capacity_gb, id";

/// What [`LIST_DRIVES`] would read, in two numbers: the drives' count and the newest
/// catalogue change (see `CatalogueCache`).
pub const CATALOGUE_FINGERPRINT: &str =
    "SELECT (SELECT COUNT(*) FROM drives), (SELECT COALESCE(MAX(id), 0) FROM catalogue_changes)";

/// Visible results per drive that has any (`drives.result_count`, kept with the summary).
pub const RESULT_COUNTS: &str = "SELECT id, result_count FROM drives WHERE result_count > 0";

/// A page of the catalogue (spec and visible result count) in each [`DriveOrder`],
/// `LIMIT $1 OFFSET $2`, of the drives passing `conditions` (of [`drive_filter_sql`],
/// its parameters after those two); each order is an index of `drives`.
pub fn drives_page_sql(order: DriveOrder, conditions: &str) -> String {
    let by = match order {
        DriveOrder::Name => "vendor, model, capacity_gb, id",
        DriveOrder::NameDescending => "vendor DESC, model DESC, capacity_gb DESC, id DESC",
        DriveOrder::MostResults => "result_count DESC, vendor, model, capacity_gb, id",
        DriveOrder::FewestResults => "result_count, vendor, model, capacity_gb, id",
    };
    format!("SELECT spec, result_count FROM drives d WHERE TRUE{conditions} ORDER BY {by} LIMIT $1 OFFSET $2")
}

/// How many drives pass `conditions` (of [`drive_filter_sql`], its parameters from `$1`).
pub fn count_drives_sql(conditions: &str) -> String {
    format!("SELECT COUNT(*) FROM drives d WHERE TRUE{conditions}")
}

/// The drives of one model line (vendor and model), smallest first (`drives_by_name`).
pub const MODEL_LINE: &str =
    "SELECT spec FROM drives WHERE vendor = $1 AND model = $2 ORDER BY capacity_gb, id";
/// The drives on one controller model, in name order.
pub const ON_CONTROLLER: &str =
    "SELECT spec FROM drives WHERE controller = $1 ORDER BY vendor, model, capacity_gb, id";

/// The visible result counts of `n` drives.
pub fn result_counts_sql(n: usize) -> String {
    format!("SELECT id, result_count FROM drives WHERE id IN ({})", placeholders(0, n))
}

pub fn results_for_drives_sql(n: usize, figures: ResultFigures) -> String {
    format!(
        "{} WHERE r.drive_sku IN ({}) AND r.hidden = FALSE ORDER BY r.id",
        result_select(figures),
        placeholders(0, n)
    )
}

/// Every metric of the visible results of some drives, with the platform group and data
/// pattern columns of its result, narrowed by equality filters on `results` columns.
pub fn metrics_for_drives_sql(ids: &[String], filters: &[super::Filter]) -> (String, Vec<Param>) {
    let mut params = Params::default();
    let mut sql = format!(
        "SELECT {METRIC_ROW_COLUMNS}, {} FROM results r JOIN metrics m ON m.result_id = r.id \
         WHERE r.drive_sku IN ({}) AND r.hidden = FALSE",
        group_columns(),
        params.extend(ids.iter().map(|i| Param::Text(Some(i.clone()))))
    );
    for (col, v) in filters {
        sql.push_str(&format!(" AND r.{col} = {}", params.push(Param::from(v))));
    }
    sql.push_str(" ORDER BY r.id, m.ordinal");
    (sql, params.into_vec())
}

fn num<T: TryFrom<i64>>(v: i64) -> Result<T, StorageError> {
    T::try_from(v).map_err(|_| StorageError::Corrupt(format!("number {v} out of range")))
}

/// The columns of a [`RawMetric`] besides its platform group's (`r.` and `m.` prefixed).
pub const METRIC_ROW_COLUMNS: &str =
    "m.result_id, r.drive_sku, r.data_pattern, m.family, m.access, m.block_size, \
     m.queue_depth, m.threads, m.op, m.mix_read_percent, m.stat, m.mbps, m.iops, m.latency_us";

/// The platform group's columns of `results r`, in [`bench::fields::GROUP`] order.
pub fn group_columns() -> String {
    bench::fields::GROUP.iter().map(|f| format!("r.{}", f.column)).collect::<Vec<_>>().join(", ")
}

/// A metrics row (selected as [`METRIC_ROW_COLUMNS`] and [`group_columns`]) before its enum
/// texts are read.
pub struct RawMetric {
    pub result_id: i64,
    pub drive_sku: String,
    pub data_pattern: Option<String>,
    pub platform: Vec<Option<FieldValue>>,
    pub family: String,
    pub access: String,
    pub block_size: i64,
    pub queue_depth: i64,
    pub threads: i64,
    pub op: String,
    pub mix_read_percent: Option<i64>,
    pub stat: Option<String>,
    pub mbps: Option<f64>,
    pub iops: Option<f64>,
    pub latency_us: Option<f64>,
}

/// Decoded by column name from either backend's rows; the group columns are the group
/// fields' (which [`bench::FIELDS`] says), so they are read in a loop.
impl<'r, R: sqlx::Row> sqlx::FromRow<'r, R> for RawMetric
where
    &'r str: sqlx::ColumnIndex<R>,
    String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    f64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    fn from_row(row: &'r R) -> Result<RawMetric, sqlx::Error> {
        let platform = bench::fields::GROUP
            .iter()
            .map(|f| {
                Ok(match f.kind {
                    Kind::Text => row.try_get::<Option<String>, _>(f.column)?.map(FieldValue::Text),
                    Kind::Int => row.try_get::<Option<i64>, _>(f.column)?.map(FieldValue::Int),
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok(RawMetric {
            result_id: row.try_get("result_id")?,
            drive_sku: row.try_get("drive_sku")?,
            data_pattern: row.try_get("data_pattern")?,
            platform,
            family: row.try_get("family")?,
            access: row.try_get("access")?,
            block_size: row.try_get("block_size")?,
            queue_depth: row.try_get("queue_depth")?,
            threads: row.try_get("threads")?,
            op: row.try_get("op")?,
            mix_read_percent: row.try_get("mix_read_percent")?,
            stat: row.try_get("stat")?,
            mbps: row.try_get("mbps")?,
            iops: row.try_get("iops")?,
            latency_us: row.try_get("latency_us")?,
        })
    }
}

impl RawMetric {
    pub fn decode(self) -> Result<super::MetricRow, StorageError> {
        Ok(super::MetricRow {
            result_id: self.result_id,
            drive_sku: self.drive_sku,
            data_pattern: self.data_pattern.as_deref().map(enum_from_name).transpose()?,
            platform: PlatformGroup::from_values(self.platform),
            key: TestKey {
                family: enum_from_name(&self.family)?,
                access: enum_from_name(&self.access)?,
                block_size: num(self.block_size)?,
                queue_depth: num(self.queue_depth)?,
                threads: num(self.threads)?,
                op: enum_from_name(&self.op)?,
                mix_read_percent: self.mix_read_percent.map(num).transpose()?,
                stat: self.stat.as_deref().map(enum_from_name).transpose()?,
            },
            mbps: self.mbps,
            iops: self.iops,
            latency_us: self.latency_us,
        })
    }
}

/// Checks that a statement's placeholders are exactly `$1` to `$params` (each at least
/// once): a number beyond the parameters bound would be NULL in SQLite, and one left out
/// a parameter PostgreSQL cannot type.
#[cfg(test)]
pub(crate) fn assert_numbered(sql: &str, params: usize) {
    let mut used = std::collections::BTreeSet::new();
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        rest = &rest[at + 1..];
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        assert!(digits > 0, "a `$` that is no placeholder in {sql}");
        used.insert(rest[..digits].parse::<usize>().unwrap());
    }
    assert_eq!(used.last().copied().unwrap_or(0), params, "highest placeholder vs parameters in {sql}");
    assert_eq!(used.len(), params, "a placeholder missing in {sql}");
    assert!(!sql.contains('?'), "an unnumbered placeholder in {sql}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Actor;

    /// A result with a sweep or a series keeps its burst figures beside it, as
    /// `keep_burst_only` makes them; a result that is all burst figures has none.
    #[test]
    fn burst_figures_are_stored_for_sweeps_and_series_only() {
        let data = |name: &str| {
            std::fs::read_to_string(format!("{}/../bench/tests/data/{name}", env!("CARGO_MANIFEST_DIR")))
                .unwrap()
        };
        let sweep =
            bench::parse_str(&data("fio-3.33_randread_4k_qd1-16_sweep.json"), None).unwrap().remove(0);
        let mut folded = sweep.clone();
        bench::curves::keep_burst_only(&mut folded);
        assert!(folded.metrics.len() < sweep.metrics.len());
        assert_eq!(burst_json(&sweep), Some(to_json(&folded)));

        let body: serde_json::Value =
            serde_json::from_str(&data("ssdbase-bench-0.1.0_cache_throttled-loop-256MiB.json")).unwrap();
        let cache: BenchResult = serde_json::from_value(body["result"].clone()).unwrap();
        let burst: BenchResult = serde_json::from_str(&burst_json(&cache).unwrap()).unwrap();
        assert_eq!((burst.metrics, burst.over_time.len()), (cache.metrics.clone(), 0));

        let plain = BenchResult { over_time: Vec::new(), ..cache };
        assert_eq!(burst_json(&plain), None);
    }

    fn seeds() -> bench::seeds::Dataset {
        bench::seeds::seed_dataset().unwrap()
    }

    /// A seed result with metrics, as stored.
    fn new_result() -> NewResult {
        let r = seeds().results.into_iter().find(|r| r.result.metrics.len() > 2).unwrap();
        NewResult {
            result: r.result,
            result_json: None,
            tags: r.tags,
            source: r.source,
            flags: vec![],
            new_drive: None,
        }
    }

    #[test]
    fn placeholders_are_numbered_after_those_bound() {
        assert_eq!(placeholders(2, 3), "$3, $4, $5");
        assert_eq!(value_rows(1, 2, 2), "($2, $3), ($4, $5)");
        let mut params = Params::default();
        assert_eq!(params.push(Param::Int(Some(1))), "$1");
        assert_eq!(params.extend([Param::Int(Some(2)), Param::Int(Some(3))]), "$2, $3");
        assert_eq!(params.into_vec().len(), 3);
    }

    #[test]
    fn static_statements_are_numbered_for_their_parameters() {
        // Every filter set (5 parameters), after `before` parameters of the statement's own.
        let every_filter = |before: usize| {
            let mut params = Params::default();
            (0..before).for_each(|_| _ = params.push(Param::Int(Some(0))));
            let text = |s: &str| Some(s.to_string());
            let filter = api_types::DriveFilter {
                vendor: text("Crucial"),
                interface: text("sata"),
                controller: text("C300"),
                nand: text("Micron"),
                reviewed: Some(true),
            };
            drive_filter_sql(&filter, &mut params)
        };
        let ds = seeds();
        let drive = drive_params(&ds.drives[0]).len();
        assert_numbered(INSERT_DRIVE, drive);
        assert_numbered(INSERT_DRIVE_IF_NEW, drive);
        assert_numbered(INSERT_OBSERVATION_IF_NEW, observation_params(&ds.observations[0]).len());
        let submission = NewSubmission {
            body: b"x".to_vec(),
            content_hash: "h".into(),
            format: None,
            edit_token_hash: "t".into(),
            client: None,
            created_at: 0,
            results: vec![],
            provenance: None,
            runner: None,
        };
        assert_numbered(INSERT_SUBMISSION, submission_params(&submission).len());
        assert!(INSERT_SUBMISSION.contains(&format!("({})", SUBMISSION_COLUMNS.join(", "))));
        assert_eq!(SUBMISSION_COLUMNS.len(), submission_params(&submission).len());
        assert_numbered(
            INSERT_MODERATION_LOG,
            moderation_log_params(1, "hide", Actor::Admin, Some("spam"), 0).len(),
        );
        for (sql, params) in [
            (INSERT_META_SEEDED, 1),
            (COUNT_DATA, 0),
            (OBSERVATIONS_OF_DRIVE, 3),
            (ALL_OBSERVATIONS, 0),
            (UPLOAD_INFO_OF_RESULT, 1),
            (UPLOAD_BODY_OF_RESULT, 1),
            (SUBMISSION_BY_HASH, 1),
            (RESULT_IDS_OF_SUBMISSION, 1),
            (DRIVE_OF_RESULT, 1),
            (SUBMISSION_OF_RESULT, 1),
            (RESULT_OWNER, 1),
            (DELETE_METRICS_OF_RESULT, 1),
            (DELETE_RESULT, 1),
            (DELETE_EMPTY_SUBMISSION, 2),
            (HIDE_RESULT, 3),
            (RESTORE_RESULT, 1),
            (GET_DRIVE, 1),
            (LIST_DRIVES, 0),
            (CATALOGUE_FINGERPRINT, 0),
            (RESULT_COUNTS, 0),
            (&result_counts_sql(3), 3),
            (&drives_page_sql(DriveOrder::Name, ""), 2),
            (&drives_page_sql(DriveOrder::FewestResults, &every_filter(2)), 2 + 5),
            (&count_drives_sql(&every_filter(0)), 5),
            (SET_DRIVE_FILTERS, 6),
            (SET_LINE_KIND, 1),
            (DRIVE_FILTERS_LAYOUT, 0),
            (SET_DRIVE_FILTERS_LAYOUT, 1),
            (DRIVE_SPECS_AFTER, 2),
            (MODEL_LINE, 2),
            (ON_CONTROLLER, 1),
            (DRIVE_KEYS_LAYOUT, 0),
            (SET_DRIVE_KEYS_LAYOUT, 1),
            (DELETE_DRIVE_KEYS, 0),
            (ALL_DRIVE_SPECS, 0),
            (&drives_by_keys_sql(3), 3),
            (SEARCH_DRIVES, 3),
            (&get_result_sql(), 1),
        ] {
            assert_numbered(sql, params);
        }
    }

    #[test]
    fn inserts_are_numbered_for_their_parameters() {
        let r = new_result();
        let params = result_params(&r, 1, 0, 0);
        assert_eq!(params.len(), RESULT_COLUMNS.len());
        assert_numbered(&insert_result_sql(), params.len());

        let (sql, params) = insert_metrics(5, &r.result).unwrap();
        assert_eq!(params.len(), r.result.metrics.len() * METRIC_COLUMNS.len());
        assert_numbered(&sql, params.len());

        // Several rows, as the SQLite group commit inserts them.
        assert_eq!(insert_values_sql("t", &["a", "b"], 2), "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)");
        let rows = 3;
        let mut params = Vec::new();
        for id in 0..rows {
            params.extend(result_params(&r, id, 0, 0));
        }
        assert_numbered(&insert_values_sql("results", &RESULT_COLUMNS, rows as usize), params.len());
    }

    #[test]
    fn updates_bind_every_column_they_set() {
        let sql = update_result_sql();
        let r = new_result();
        assert_numbered(&sql, update_result_params(7, &r).len());
        assert!(sql.starts_with("UPDATE results SET drive_sku = $1,"), "{sql}");
        assert_eq!(update_result_params(7, &r).last(), Some(&Param::Int(Some(7))));
        assert!(sql.ends_with(&format!("WHERE id = ${}", update_result_params(7, &r).len())), "{sql}");
    }

    #[test]
    fn browse_queries_are_numbered_as_their_parameters_are_pushed() {
        let text = |s: &str| FieldValue::Text(s.into());
        let filtered = ResultQuery {
            filters: vec![("drive_sku", text("a")), ("drive_capacity_gb", FieldValue::Int(256))],
            metric_filters: vec![("access", text("rnd")), ("queue_depth", FieldValue::Int(32))],
            limit: 20,
            ..Default::default()
        };
        let by_column = Sort { column: FilterKind::Text("drive_sku"), descending: false };
        let after = Some(Cursor { value: text("b"), id: 9 });
        for q in [
            ResultQuery { limit: 5, ..Default::default() },
            filtered.clone(),
            ResultQuery { after: Some(Cursor { value: FieldValue::Int(9), id: 9 }), ..filtered.clone() },
            ResultQuery { sort: by_column, after: after.clone(), ..filtered.clone() },
            ResultQuery { sort: by_column, after, include_hidden: true, ..Default::default() },
        ] {
            let (sql, params) = list_results_sql(&q);
            assert_numbered(&sql, params.len());
            // The limit is the last parameter.
            assert!(sql.ends_with(&format!("LIMIT ${}", params.len())), "{sql}");
            assert_eq!(params.last(), Some(&Param::Int(Some(q.limit))));
        }
        // Filters in the order they are written.
        let (sql, params) = list_results_sql(&filtered);
        assert!(sql.contains("r.drive_sku = $1 AND r.drive_capacity_gb = $2"), "{sql}");
        assert!(sql.contains("m.access = $3 AND m.queue_depth = $4"), "{sql}");
        assert_eq!(params[2], Param::Text(Some("rnd".into())));
    }

    #[test]
    fn drive_reads_are_numbered_for_their_parameters() {
        let ids = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let filters = [("chipset", FieldValue::Text("x".into())), ("drive_capacity_gb", FieldValue::Int(1))];
        for filters in [&[][..], &filters[..]] {
            let (sql, params) = metrics_for_drives_sql(&ids, filters);
            assert_numbered(&sql, params.len());
            assert_eq!(params.len(), ids.len() + filters.len());
        }
        assert_numbered(&results_for_drives_sql(3, ResultFigures::All), 3);
    }
}
