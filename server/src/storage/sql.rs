//! The SQL both backends run, written once with `?` placeholders, and the parameters
//! it binds. PostgreSQL numbers the placeholders (`$1`, `$2`, ...) with [`numbered`].
//! Public so that bulk loaders (the server benchmark's 1,000,000-result fixture) write
//! exactly the rows and values that [`super::Storage::submit`] writes.

use super::{Cursor, FilterKind, NewResult, NewSubmission, ResultQuery, Sort, StorageError, StoredResult};
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
    Bytes(Vec<u8>),
}

impl From<&FieldValue> for Param {
    fn from(v: &FieldValue) -> Param {
        match v {
            FieldValue::Text(s) => Param::Text(Some(s.clone())),
            FieldValue::Int(i) => Param::Int(Some(*i)),
        }
    }
}

/// `?` → `$1`, `$2`, ... (the SQL here never has `?` inside string literals).
pub fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(c);
        }
    }
    out
}

fn placeholders(n: usize) -> String {
    vec!["?"; n].join(", ")
}

pub use bench::fields::unit_name as enum_name;

pub fn enum_from_name<T: DeserializeOwned>(s: &str) -> Result<T, StorageError> {
    serde_json::from_value(serde_json::Value::String(s.to_string()))
        .map_err(|e| StorageError::Corrupt(format!("{s:?}: {e}")))
}

pub fn from_json<T: DeserializeOwned>(s: &str) -> Result<T, StorageError> {
    serde_json::from_str(s).map_err(|e| StorageError::Corrupt(e.to_string()))
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("domain types always serialise")
}

fn int<T: TryInto<i64>>(v: Option<T>) -> Param {
    Param::Int(v.and_then(|v| v.try_into().ok()))
}

// ---------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------

pub const INSERT_META_SEEDED: &str =
    "INSERT INTO app_meta (key, value) VALUES ('seeded', ?) ON CONFLICT (key) DO NOTHING";

pub const COUNT_DATA: &str = "SELECT (SELECT COUNT(*) FROM drives) + (SELECT COUNT(*) FROM submissions)";

pub const INSERT_DRIVE: &str =
    "INSERT INTO drives (id, vendor, model, part_number, capacity_gb, controller, spec) \
     VALUES (?, ?, ?, ?, ?, ?, ?)";

pub fn drive_params(d: &DriveSku) -> Vec<Param> {
    vec![
        Param::Text(Some(d.id.clone())),
        Param::Text(Some(d.vendor.clone())),
        Param::Text(Some(d.model.clone())),
        Param::Text(d.part_number.clone()),
        int(Some(d.capacity_gb)),
        Param::Text(d.controller.model.clone()),
        Param::Text(Some(to_json(d))),
    ]
}

/// Adds a catalogue drive unless its id is known (`ssdbase import` of a dataset).
pub const INSERT_DRIVE_IF_NEW: &str =
    "INSERT INTO drives (id, vendor, model, part_number, capacity_gb, controller, spec) \
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";

/// Adds a source's observation unless the same one is stored (a repeated import).
pub const INSERT_OBSERVATION_IF_NEW: &str =
    "INSERT INTO observations (content_hash, drive_sku, drive_vendor, drive_model, body) \
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (content_hash) DO NOTHING";

pub fn observation_params(o: &Observation) -> Vec<Param> {
    let body = to_json(o);
    let drive = &o.tags.drive;
    vec![
        Param::Text(Some(crate::ingest::sha256_hex(body.as_bytes()))),
        Param::Text(drive.sku.clone()),
        Param::Text(drive.vendor.clone()),
        Param::Text(drive.model.clone()),
        Param::Text(Some(body)),
    ]
}

/// A drive's observations (`?` = its id, vendor, model): its own, and those that name
/// only its model line, in the order they were stored.
pub const OBSERVATIONS_OF_DRIVE: &str = "SELECT body FROM observations WHERE drive_sku = ? \
     OR (drive_sku IS NULL AND drive_vendor = ? AND drive_model = ?) ORDER BY id";

/// Every observation, in the order they were stored.
pub const ALL_OBSERVATIONS: &str = "SELECT body FROM observations ORDER BY id";

/// The columns of `submissions` an insert fills, in the order of [`submission_params`].
pub const SUBMISSION_COLUMNS: &[&str] =
    &["content_hash", "body", "format", "edit_token_hash", "client", "created_at", "provenance"];

pub const INSERT_SUBMISSION: &str =
    "INSERT INTO submissions (content_hash, body, format, edit_token_hash, client, created_at, provenance) \
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (content_hash) DO NOTHING RETURNING id";

pub fn submission_params(s: &NewSubmission) -> Vec<Param> {
    vec![
        Param::Text(Some(s.content_hash.clone())),
        Param::Bytes(s.body.clone()),
        Param::Text(s.format.clone()),
        Param::Text(Some(s.edit_token_hash.clone())),
        Param::Text(s.client.clone()),
        Param::Int(Some(s.created_at)),
        Param::Text(s.provenance.as_ref().map(to_json)),
    ]
}

/// The upload a result came from: its format (media type for images), provenance, and
/// (only with [`UPLOAD_BODY_OF_RESULT`]) its bytes.
pub const UPLOAD_INFO_OF_RESULT: &str =
    "SELECT s.format, s.provenance FROM results r JOIN submissions s ON s.id = r.submission_id WHERE r.id = ?";
pub const UPLOAD_BODY_OF_RESULT: &str =
    "SELECT s.format, s.body FROM results r JOIN submissions s ON s.id = r.submission_id WHERE r.id = ?";

pub const SUBMISSION_BY_HASH: &str = "SELECT id FROM submissions WHERE content_hash = ?";
pub const RESULT_IDS_OF_SUBMISSION: &str = "SELECT id FROM results WHERE submission_id = ? ORDER BY ordinal";

/// The columns of `results` an insert fills, in the order of [`result_params`]: where the
/// result belongs, a column per field of [`bench::FIELDS`], then the result as JSON.
pub static RESULT_COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut columns = vec!["submission_id", "ordinal", "created_at"];
    columns.extend(FIELDS.iter().map(|f| f.column));
    columns.extend(["source", "tags", "result", "flags"]);
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
        placeholders(RESULT_COLUMNS.len())
    )
}

pub fn result_params(r: &NewResult, submission_id: i64, ordinal: usize, created_at: i64) -> Vec<Param> {
    let mut params = vec![Param::Int(Some(submission_id)), int(Some(ordinal)), Param::Int(Some(created_at))];
    params.extend(FIELDS.iter().map(|f| field_param(f.kind, f.value(&r.tags, &r.result))));
    params.extend([
        Param::Text(r.source.clone()),
        Param::Text(Some(to_json(&r.tags))),
        Param::Text(Some(to_json(&r.result))),
        Param::Text(Some(to_json(&r.flags))),
    ]);
    debug_assert_eq!(params.len(), RESULT_COLUMNS.len());
    params
}

/// The columns a tag correction rewrites: everything after `submission_id`,
/// `ordinal` and `created_at`, i.e. every filter column, the tags, result and flags.
const UPDATABLE_FROM: usize = 3;

pub fn update_result_sql() -> String {
    let sets: Vec<String> = RESULT_COLUMNS[UPDATABLE_FROM..].iter().map(|c| format!("{c} = ?")).collect();
    format!("UPDATE results SET {} WHERE id = ?", sets.join(", "))
}

pub fn update_result_params(id: i64, r: &NewResult) -> Vec<Param> {
    let mut params = result_params(r, 0, 0, 0).split_off(UPDATABLE_FROM);
    params.push(Param::Int(Some(id)));
    params
}

/// The catalogue drive a result names (for refreshing its compare summary).
pub const DRIVE_OF_RESULT: &str = "SELECT drive_sku FROM results WHERE id = ?";

pub const SUBMISSION_OF_RESULT: &str = "SELECT submission_id FROM results WHERE id = ?";

pub const RESULT_OWNER: &str = "SELECT r.submission_id, s.edit_token_hash \
     FROM results r JOIN submissions s ON s.id = r.submission_id WHERE r.id = ?";

pub const DELETE_METRICS_OF_RESULT: &str = "DELETE FROM metrics WHERE result_id = ?";
pub const DELETE_RESULT: &str = "DELETE FROM results WHERE id = ?";
/// Deletes a submission that has no result left (bind its id twice).
pub const DELETE_EMPTY_SUBMISSION: &str =
    "DELETE FROM submissions WHERE id = ? AND NOT EXISTS (SELECT 1 FROM results WHERE submission_id = ?)";

pub const HIDE_RESULT: &str =
    "UPDATE results SET hidden = TRUE, hidden_reason = ?, hidden_at = ? WHERE id = ?";
pub const RESTORE_RESULT: &str =
    "UPDATE results SET hidden = FALSE, hidden_reason = NULL, hidden_at = NULL WHERE id = ?";

pub const INSERT_MODERATION_LOG: &str =
    "INSERT INTO moderation_log (result_id, action, actor, reason, created_at) VALUES (?, ?, ?, ?, ?)";

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

/// `INSERT INTO table (columns) VALUES (?, ...), ... ` for `rows` rows (append any
/// `ON CONFLICT` or `RETURNING`).
pub fn insert_values_sql(table: &str, columns: &[&str], rows: usize) -> String {
    let row = format!("({})", placeholders(columns.len()));
    format!("INSERT INTO {table} ({}) VALUES {}", columns.join(", "), vec![row; rows].join(", "))
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
pub const RESULT_SELECT: &str =
    "SELECT r.id, r.submission_id, r.created_at, r.hidden, r.hidden_reason, r.hidden_at, r.source, r.tags, \
     r.result, r.flags FROM results r";

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
    format!("{RESULT_SELECT} WHERE r.id = ?")
}

pub fn list_results_sql(q: &ResultQuery) -> (String, Vec<Param>) {
    let mut sql = String::from(RESULT_SELECT);
    let mut params = Vec::new();
    let mut conds: Vec<String> = Vec::new();
    if !q.include_hidden {
        conds.push("r.hidden = FALSE".into());
    }
    for (col, v) in &q.filters {
        conds.push(format!("r.{col} = ?"));
        params.push(Param::from(v));
    }
    if !q.metric_filters.is_empty() {
        let inner: Vec<String> = q.metric_filters.iter().map(|(col, _)| format!("m.{col} = ?")).collect();
        conds.push(format!(
            "EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = r.id AND {})",
            inner.join(" AND ")
        ));
        params.extend(q.metric_filters.iter().map(|(_, v)| Param::from(v)));
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
            conds.push(format!("r.id {cmp} ?"));
            params.push(Param::Int(Some(after.id)));
        } else {
            conds.push(format!("({key} {cmp} ? OR ({key} = ? AND r.id {cmp} ?))"));
            params.extend([Param::from(&after.value), Param::from(&after.value), Param::Int(Some(after.id))]);
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
    sql.push_str(" LIMIT ?");
    params.push(Param::Int(Some(q.limit)));
    (sql, params)
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

pub const GET_DRIVE: &str = "SELECT spec FROM drives WHERE id = ?";

pub const LIST_DRIVES: &str = "SELECT d.spec, \
     (SELECT COUNT(*) FROM results r WHERE r.drive_sku = d.id AND r.hidden = FALSE) AS result_count \
     FROM drives d ORDER BY d.vendor, d.model, d.capacity_gb, d.id";

pub fn results_for_drives_sql(n: usize) -> String {
    format!("{RESULT_SELECT} WHERE r.drive_sku IN ({}) AND r.hidden = FALSE ORDER BY r.id", placeholders(n))
}

/// Every metric of the visible results of some drives, with the platform group and data
/// pattern columns of its result, narrowed by equality filters on `results` columns.
pub fn metrics_for_drives_sql(ids: &[String], filters: &[super::Filter]) -> (String, Vec<Param>) {
    let mut sql = format!(
        "SELECT {METRIC_ROW_COLUMNS}, {} FROM results r JOIN metrics m ON m.result_id = r.id \
         WHERE r.drive_sku IN ({}) AND r.hidden = FALSE",
        group_columns(),
        placeholders(ids.len())
    );
    let mut params: Vec<Param> = ids.iter().map(|i| Param::Text(Some(i.clone()))).collect();
    for (col, v) in filters {
        sql.push_str(&format!(" AND r.{col} = ?"));
        params.push(Param::from(v));
    }
    sql.push_str(" ORDER BY r.id, m.ordinal");
    (sql, params)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        assert_eq!(numbered("a = ? AND b IN (?, ?)"), "a = $1 AND b IN ($2, $3)");
    }

    #[test]
    fn insert_lists_match_their_parameters() {
        let sql = insert_result_sql();
        assert_eq!(sql.matches('?').count(), RESULT_COLUMNS.len());
        let r = NewResult {
            result: BenchResult::new(bench::Tool::Fio),
            tags: Default::default(),
            source: None,
            flags: vec![],
        };
        assert_eq!(result_params(&r, 1, 0, 0).len(), RESULT_COLUMNS.len());
        assert!(INSERT_SUBMISSION.contains(&format!("({})", SUBMISSION_COLUMNS.join(", "))));
        assert_eq!(INSERT_SUBMISSION.matches('?').count(), SUBMISSION_COLUMNS.len());
        assert_eq!(insert_values_sql("t", &["a", "b"], 2), "INSERT INTO t (a, b) VALUES (?, ?), (?, ?)");
    }

    #[test]
    fn updates_bind_every_column_they_set() {
        let sql = update_result_sql();
        let r = NewResult {
            result: BenchResult::new(bench::Tool::Fio),
            tags: Default::default(),
            source: None,
            flags: vec![],
        };
        assert_eq!(sql.matches('?').count(), update_result_params(7, &r).len());
        assert!(sql.starts_with("UPDATE results SET drive_sku = ?"), "{sql}");
        assert_eq!(update_result_params(7, &r).last(), Some(&Param::Int(Some(7))));
    }
}
