//! The catalogue after seeding: drives with the keys they are known under
//! (`drive_aliases`, see `bench::identity`) and their reads by list, key and search,
//! proposals and their decisions, merges, and the history of every change (migrations
//! 0008 and 0010).
//!
//! A drive's keys are derived from its JSON: written with it, replaced whenever it
//! changes, and rebuilt for every drive at start-up when `bench::identity::LAYOUT` (the
//! key rules) differs from the one that made them. Accepting a proposal or merging
//! drives happens in one transaction that also rewrites what is derived from the drive:
//! its keys, and its results' drive tags and rated flags (merges also move the compare
//! summary).

use super::sql::{self, from_json, Param, RawResult};
use super::{DriveRow, NewResult, StorageResult, StoredResult};
use api_types::{CatalogueChange, ChangeAction, DriveProposal, ProposalStatus};
use bench::DriveSku;

/// A stored proposal as read.
#[derive(Debug, Clone, PartialEq)]
pub struct ProposalRow {
    pub id: i64,
    pub proposal: DriveProposal,
    pub warnings: Vec<String>,
    pub status: ProposalStatus,
    pub created_at: i64,
    pub decided_at: Option<i64>,
    pub reason: Option<String>,
}

/// What deciding a proposal did.
#[derive(Debug, Clone, PartialEq)]
pub enum Decided {
    /// No proposal has this id.
    NotFound,
    /// It was decided before (its status).
    AlreadyDecided(ProposalStatus),
    /// It cannot be applied to the catalogue as it is now (the drive it changes was
    /// merged away, a new drive's id is taken): nothing changed, it stays open.
    Conflict(String),
    /// Accepted: the drive as it now reads.
    Accepted(Box<DriveSku>),
    Rejected,
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq)]
pub enum Merged {
    /// One of the two drives does not exist (its id).
    NotFound(String),
    /// Results (visible and hidden) moved to the drive that took over.
    Moved(i64),
}

const INSERT_PROPOSAL: &str =
    "INSERT INTO drive_proposals (drive_id, body, warnings, status, client, created_at) \
     VALUES ($1, $2, $3, 'open', $4, $5) RETURNING id";
const PROPOSAL_COLUMNS: &str = "id, body, warnings, status, created_at, decided_at, reason";
const DECIDE: &str = "UPDATE drive_proposals SET status = $2, decided_at = $3, reason = $4 \
     WHERE id = $1 AND status = 'open' RETURNING body";
const PROPOSAL_STATUS: &str = "SELECT status FROM drive_proposals WHERE id = $1";
const DRIVE_SPEC: &str = "SELECT spec FROM drives WHERE id = $1";
const UPDATE_DRIVE: &str = "UPDATE drives SET vendor = $2, model = $3, part_number = $4, capacity_gb = $5, \
     controller = $6, spec = $7, reviewed = ($8 = 1), filter_vendor = $9, filter_link = $10, \
     filter_link_kind = $11, filter_controller = $12, filter_nand = $13 WHERE id = $1";
const DELETE_KEYS_OF: &str = "DELETE FROM drive_aliases WHERE drive_id = $1";
const MOVE_OBSERVATIONS: &str = "UPDATE observations SET drive_sku = $2 WHERE drive_sku = $1";
const DELETE_DRIVE: &str = "DELETE FROM drives WHERE id = $1";
/// A community drive with no result (hidden ones included) and no observation left: its
/// keys and search row go with it (`ON DELETE CASCADE`).
const DELETE_ABANDONED: &str = "DELETE FROM drives WHERE id = $1 AND reviewed = FALSE \
     AND NOT EXISTS (SELECT 1 FROM results WHERE drive_sku = $2) \
     AND NOT EXISTS (SELECT 1 FROM observations WHERE drive_sku = $3)";
const INSERT_CHANGE: &str = "INSERT INTO catalogue_changes \
     (drive_id, action, proposal_id, merged_into, before, after, sources, reason, at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
const CHANGE_COLUMNS: &str =
    "id, drive_id, action, proposal_id, merged_into, before, after, sources, reason, at";

/// A drive list's row: the drive's JSON and its visible result count.
fn drive_row(spec: String, result_count: i64) -> StorageResult<DriveRow> {
    Ok(DriveRow { drive: from_json(&spec)?, result_count })
}

fn results_of_drive_sql() -> String {
    format!("{} WHERE r.drive_sku = $1 ORDER BY r.id", sql::RESULT_SELECT)
}

fn proposal_from(
    (id, body, warnings, status, created_at, decided_at, reason): (
        i64,
        String,
        String,
        String,
        i64,
        Option<i64>,
        Option<String>,
    ),
) -> StorageResult<ProposalRow> {
    Ok(ProposalRow {
        id,
        proposal: from_json(&body)?,
        warnings: from_json(&warnings)?,
        status: status_from(&status)?,
        created_at,
        decided_at,
        reason,
    })
}

fn status_from(s: &str) -> StorageResult<ProposalStatus> {
    sql::enum_from_name(s)
}

/// A `catalogue_changes` row in `CHANGE_COLUMNS` order.
type ChangeRow = (
    i64,
    String,
    String,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    Option<String>,
    i64,
);

fn change_from(
    (id, drive_id, action, proposal_id, merged_into, before, after, sources, reason, at): ChangeRow,
) -> StorageResult<CatalogueChange> {
    Ok(CatalogueChange {
        id,
        drive_id,
        action: sql::enum_from_name::<ChangeAction>(&action)?,
        proposal_id,
        merged_into,
        before: before.as_deref().map(from_json).transpose()?,
        after: after.as_deref().map(from_json).transpose()?,
        sources: from_json(&sources)?,
        reason,
        at,
    })
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("catalogue types serialise")
}

/// A result of a drive whose facts changed, with its drive tags and rated flags as
/// `drive` gives them; its platform tags and everything else unchanged.
fn retagged(r: StoredResult, drive: &DriveSku, before: &DriveSku) -> NewResult {
    let mut tags = r.tags;
    let t = &mut tags.drive;
    t.sku = Some(drive.id.clone());
    t.vendor = Some(drive.vendor.clone());
    t.model = Some(drive.model.clone());
    t.capacity_gb = Some(drive.capacity_gb);
    // A part number the result had from its old drive follows the drive; one the
    // submitter typed stays.
    if t.part_number.is_none() || t.part_number == before.part_number {
        t.part_number.clone_from(&drive.part_number);
    }
    NewResult {
        flags: bench::analysis::flags_for(&r.result, &tags, Some(drive)),
        result: r.result,
        tags,
        source: r.source,
        new_drive: None,
        result_json: None,
    }
}

/// The same functions for both backends (only parameter binding differs).
macro_rules! backend {
    ($name:ident, $conn:ty, $pool:ty) => {
        pub mod $name {
            use super::*;
            use crate::$name::bind;
            use sqlx::Row;

            /// Adds a drive (`insert`: `INSERT_DRIVE`, or `INSERT_DRIVE_IF_NEW` to leave a
            /// known id as it is) with every key it is known under.
            pub async fn insert_drive(conn: &mut $conn, insert: &str, d: &DriveSku) -> StorageResult<()> {
                bind(sqlx::query(insert), sql::drive_params(d)).execute(&mut *conn).await?;
                insert_keys(conn, d).await
            }

            /// A drive's keys and its search row (`search`).
            async fn insert_keys(conn: &mut $conn, d: &DriveSku) -> StorageResult<()> {
                insert_key_rows(conn, sql::drive_key_rows(d)).await?;
                write_search(conn, d).await
            }

            async fn write_search(conn: &mut $conn, d: &DriveSku) -> StorageResult<()> {
                for (text, params) in crate::search::write_statements(d, crate::$name::SEARCH_UPSERT) {
                    bind(sqlx::query(&text), params).execute(&mut *conn).await?;
                }
                Ok(())
            }

            async fn insert_key_rows(conn: &mut $conn, rows: Vec<Vec<Param>>) -> StorageResult<()> {
                let suffix = " ON CONFLICT DO NOTHING";
                // 256 parameters a statement suit both: SQLite's cost per `$N` grows
                // with the statement's parameters (see `sql::SQLITE_INSERT_PARAMS`).
                for (text, params) in sql::insert_rows(
                    "drive_aliases",
                    sql::DRIVE_KEY_COLUMNS,
                    rows,
                    sql::SQLITE_INSERT_PARAMS,
                    suffix,
                ) {
                    bind(sqlx::query(&text), params).execute(&mut *conn).await?;
                }
                Ok(())
            }

            /// Every drive with its visible result count, in name order; the drives
            /// decoded once per change of the catalogue (`CatalogueCache`).
            pub(crate) async fn list_drives(
                conn: &mut $conn,
                cache: &crate::CatalogueCache,
            ) -> StorageResult<Vec<DriveRow>> {
                let drives = catalogue(conn, cache).await?;
                let counts: std::collections::HashMap<String, i64> =
                    sqlx::query_as(sql::RESULT_COUNTS).fetch_all(&mut *conn).await?.into_iter().collect();
                Ok(drives
                    .iter()
                    .map(|d| DriveRow { drive: d.clone(), result_count: counts.get(&d.id).copied().unwrap_or(0) })
                    .collect())
            }

            /// The catalogue in name order, decoded once per change of it and shared.
            pub(crate) async fn catalogue(
                conn: &mut $conn,
                cache: &crate::CatalogueCache,
            ) -> StorageResult<std::sync::Arc<Vec<DriveSku>>> {
                let (count, change): (i64, i64) =
                    sqlx::query_as(sql::CATALOGUE_FINGERPRINT).fetch_one(&mut *conn).await?;
                if let Some(drives) = cache.get((count, change)) {
                    return Ok(drives);
                }
                let rows = sqlx::query(sql::LIST_DRIVES).fetch_all(&mut *conn).await?;
                let drives =
                    rows.iter().map(|r| from_json::<DriveSku>(r.try_get(0)?)).collect::<StorageResult<Vec<_>>>()?;
                let drives = std::sync::Arc::new(drives);
                cache.set((count, change), drives.clone());
                Ok(drives)
            }

            /// A page of the drives `filter` keeps in `order`, each with its visible
            /// results.
            pub async fn drives_page(
                conn: &mut $conn,
                filter: &api_types::DriveFilter,
                order: crate::DriveOrder,
                offset: usize,
                limit: usize,
            ) -> StorageResult<Vec<DriveRow>> {
                let mut params = sql::Params::default();
                params.push(Param::Int(Some(limit as i64)));
                params.push(Param::Int(Some(offset as i64)));
                let sql = sql::drives_page_sql(order, &sql::drive_filter_sql(filter, &mut params));
                let rows = bind(sqlx::query(&sql), params.into_vec()).fetch_all(&mut *conn).await?;
                rows.iter().map(|r| drive_row(r.try_get(0)?, r.try_get(1)?)).collect()
            }

            /// The drives a `SELECT spec` statement with these text parameters reads.
            pub async fn drives_where(conn: &mut $conn, sql: &str, params: &[&str]) -> StorageResult<Vec<DriveSku>> {
                let params = params.iter().map(|p| Param::Text(Some(p.to_string()))).collect();
                let rows = bind(sqlx::query(sql), params).fetch_all(&mut *conn).await?;
                rows.iter().map(|r| from_json(&r.try_get::<String, _>(0)?)).collect()
            }

            /// How many drives `filter` keeps.
            pub async fn drive_count(conn: &mut $conn, filter: &api_types::DriveFilter) -> StorageResult<usize> {
                let mut params = sql::Params::default();
                let sql = sql::count_drives_sql(&sql::drive_filter_sql(filter, &mut params));
                let n: i64 = bind(sqlx::query(&sql), params.into_vec()).fetch_one(&mut *conn).await?.try_get(0)?;
                Ok(n as usize)
            }

            /// The visible result counts of these drives (a drive that is not in the
            /// catalogue is left out).
            pub async fn result_counts(
                conn: &mut $conn,
                ids: &[String],
            ) -> StorageResult<std::collections::HashMap<String, i64>> {
                let mut counts = std::collections::HashMap::new();
                for chunk in ids.chunks(sql::SQLITE_INSERT_PARAMS) {
                    let params = chunk.iter().map(|i| Param::Text(Some(i.clone()))).collect();
                    let sql = sql::result_counts_sql(chunk.len());
                    for r in bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await? {
                        counts.insert(r.try_get(0)?, r.try_get(1)?);
                    }
                }
                Ok(counts)
            }

            /// The drives known under any of `keys`, as (key, drive id).
            pub async fn drives_by_keys(conn: &mut $conn, keys: &[String]) -> StorageResult<Vec<(String, DriveSku)>> {
                if keys.is_empty() {
                    return Ok(Vec::new());
                }
                let params = keys.iter().map(|k| Param::Text(Some(k.clone()))).collect();
                let sql = sql::drives_by_keys_sql(keys.len());
                let rows = bind(sqlx::query(&sql), params).fetch_all(&mut *conn).await?;
                rows.iter().map(|r| Ok((r.try_get(0)?, from_json(&r.try_get::<String, _>(1)?)?))).collect()
            }

            /// At most `limit` drives with a key in [`from`, `to`), reviewed first.
            pub async fn search_drives(
                conn: &mut $conn,
                from: &str,
                to: &str,
                limit: i64,
            ) -> StorageResult<Vec<DriveRow>> {
                let params =
                    vec![Param::Text(Some(from.into())), Param::Text(Some(to.into())), Param::Int(Some(limit))];
                let rows = bind(sqlx::query(sql::SEARCH_DRIVES), params).fetch_all(&mut *conn).await?;
                rows.iter().map(|r| drive_row(r.try_get(0)?, r.try_get(1)?)).collect()
            }

            /// Rebuilds every drive's keys and search rows when they were made by other
            /// rules than `bench::identity::LAYOUT` (or never: a database from before
            /// 0008); whether it did.
            pub async fn rebuild_keys_if_stale(pool: &$pool) -> StorageResult<bool> {
                let layout: Option<String> =
                    sqlx::query_scalar(sql::DRIVE_KEYS_LAYOUT).fetch_optional(pool).await?;
                if layout.as_deref() == Some(bench::identity::LAYOUT) {
                    return Ok(false);
                }
                let mut tx = pool.begin().await?;
                sqlx::query(sql::DELETE_DRIVE_KEYS).execute(&mut *tx).await?;
                for text in crate::search::DELETE_ALL {
                    sqlx::query(text).execute(&mut *tx).await?;
                }
                let specs: Vec<String> = sqlx::query_scalar(sql::ALL_DRIVE_SPECS).fetch_all(&mut *tx).await?;
                let mut rows = Vec::new();
                for spec in &specs {
                    let d = from_json::<DriveSku>(spec)?;
                    rows.extend(sql::drive_key_rows(&d));
                    write_search(&mut tx, &d).await?;
                }
                insert_key_rows(&mut tx, rows).await?;
                sqlx::query(sql::SET_DRIVE_KEYS_LAYOUT).bind(bench::identity::LAYOUT).execute(&mut *tx).await?;
                tx.commit().await?;
                Ok(true)
            }

            /// Writes every drive's filter columns (and its leaderboard lines' link
            /// kind) again when they were filled by another [`sql::FILTERS_LAYOUT`] (or
            /// never: a database from before 0019), a thousand drives a transaction,
            /// running `checkpoint` after each (SQLite: with one transaction after
            /// another its WAL is never started over, and at 1,000,000 results this
            /// rewrites every leaderboard line: the WAL reached 25 GB without it).
            pub async fn fill_filters_if_stale(pool: &$pool, checkpoint: Option<&str>) -> StorageResult<()> {
                let layout: Option<String> =
                    sqlx::query_scalar(sql::DRIVE_FILTERS_LAYOUT).fetch_optional(pool).await?;
                if layout.as_deref() == Some(sql::FILTERS_LAYOUT) {
                    return Ok(());
                }
                let mut after = String::new();
                loop {
                    let mut tx = pool.begin().await?;
                    let page: Vec<(String, String)> =
                        sqlx::query_as(sql::DRIVE_SPECS_AFTER).bind(&after).bind(1000_i64).fetch_all(&mut *tx).await?;
                    let Some((last, _)) = page.last() else { break };
                    after = last.clone();
                    for (id, spec) in &page {
                        let mut params = vec![Param::Text(Some(id.clone()))];
                        params.extend(sql::filter_values(&from_json::<DriveSku>(spec)?).map(Param::Text));
                        bind(sqlx::query(sql::SET_DRIVE_FILTERS), params).execute(&mut *tx).await?;
                        sqlx::query(sql::SET_LINE_KIND).bind(id).execute(&mut *tx).await?;
                    }
                    tx.commit().await?;
                    if let Some(checkpoint) = checkpoint {
                        sqlx::query(checkpoint).execute(pool).await?;
                    }
                }
                sqlx::query(sql::SET_DRIVE_FILTERS_LAYOUT).bind(sql::FILTERS_LAYOUT).execute(pool).await?;
                Ok(())
            }

            pub async fn add_proposal(
                conn: &mut $conn,
                p: &DriveProposal,
                warnings: &[String],
                client: Option<&str>,
                at: i64,
            ) -> StorageResult<i64> {
                let params = vec![
                    Param::Text(p.drive_id.clone()),
                    Param::Text(Some(json(p))),
                    Param::Text(Some(json(&warnings))),
                    Param::Text(client.map(str::to_string)),
                    Param::Int(Some(at)),
                ];
                Ok(bind(sqlx::query(INSERT_PROPOSAL), params).fetch_one(&mut *conn).await?.try_get(0)?)
            }

            pub async fn proposal(conn: &mut $conn, id: i64) -> StorageResult<Option<ProposalRow>> {
                let sql = format!("SELECT {PROPOSAL_COLUMNS} FROM drive_proposals WHERE id = $1");
                let row = sqlx::query_as(&sql).bind(id).fetch_optional(&mut *conn).await?;
                row.map(proposal_from).transpose()
            }

            /// Proposals with this status (all when `None`), oldest first.
            pub async fn proposals(
                conn: &mut $conn,
                status: Option<ProposalStatus>,
            ) -> StorageResult<Vec<ProposalRow>> {
                let rows = match status {
                    Some(s) => {
                        let sql = format!(
                            "SELECT {PROPOSAL_COLUMNS} FROM drive_proposals WHERE status = $1 ORDER BY id"
                        );
                        sqlx::query_as(&sql).bind(sql::enum_name(&s)).fetch_all(&mut *conn).await?
                    }
                    None => {
                        let sql = format!("SELECT {PROPOSAL_COLUMNS} FROM drive_proposals ORDER BY id");
                        sqlx::query_as(&sql).fetch_all(&mut *conn).await?
                    }
                };
                rows.into_iter().map(proposal_from).collect()
            }

            async fn drive(conn: &mut $conn, id: &str) -> StorageResult<Option<DriveSku>> {
                // Through `bind`: an id holding NUL finds nothing instead of failing.
                let row = bind(sqlx::query(DRIVE_SPEC), vec![Param::Text(Some(id.into()))])
                    .fetch_optional(&mut *conn)
                    .await?;
                row.map(|r| from_json(&r.try_get::<String, _>(0)?)).transpose()
            }

            /// Writes `after` over drive `before` (same id): its row, its keys, and its
            /// results' drive tags and rated flags.
            async fn rewrite_drive(conn: &mut $conn, before: &DriveSku, after: &DriveSku) -> StorageResult<()> {
                // `drive_params` is the insert's order, id first, as `UPDATE_DRIVE` takes it.
                bind(sqlx::query(UPDATE_DRIVE), sql::drive_params(after)).execute(&mut *conn).await?;
                sqlx::query(sql::SET_LINE_KIND).bind(&after.id).execute(&mut *conn).await?;
                sqlx::query(DELETE_KEYS_OF).bind(&after.id).execute(&mut *conn).await?;
                insert_keys(conn, after).await?;
                retag_results(conn, &before.id, before, after).await?;
                Ok(())
            }

            /// Re-tags every result (hidden too) of drive `of` for drive `after`; their
            /// count.
            async fn retag_results(
                conn: &mut $conn,
                of: &str,
                before: &DriveSku,
                after: &DriveSku,
            ) -> StorageResult<i64> {
                let rows: Vec<RawResult> = sqlx::query_as(&results_of_drive_sql()).bind(of).fetch_all(&mut *conn).await?;
                let update = sql::update_result_sql();
                let n = rows.len() as i64;
                for raw in rows {
                    let r = raw.decode()?;
                    let id = r.id;
                    let new = retagged(r, after, before);
                    bind(sqlx::query(&update), sql::update_result_params(id, &new)).execute(&mut *conn).await?;
                }
                Ok(n)
            }

            #[allow(clippy::too_many_arguments)]
            async fn log_change(
                conn: &mut $conn,
                drive_id: &str,
                action: ChangeAction,
                proposal_id: Option<i64>,
                merged_into: Option<&str>,
                before: Option<&DriveSku>,
                after: Option<&DriveSku>,
                sources: &[String],
                reason: Option<&str>,
                at: i64,
            ) -> StorageResult<()> {
                let params = vec![
                    Param::Text(Some(drive_id.into())),
                    Param::Text(Some(sql::enum_name(&action))),
                    Param::Int(proposal_id),
                    Param::Text(merged_into.map(Into::into)),
                    Param::Text(before.map(json)),
                    Param::Text(after.map(json)),
                    Param::Text(Some(json(&sources))),
                    Param::Text(reason.map(Into::into)),
                    Param::Int(Some(at)),
                ];
                bind(sqlx::query(INSERT_CHANGE), params).execute(&mut *conn).await?;
                Ok(())
            }

            /// Accepts or rejects an open proposal. Accepting applies it to the drive as it
            /// is now (or adds the new drive), with everything derived from the drive, and
            /// logs the change; the caller commits, or rolls back on `Conflict`.
            pub async fn decide(
                conn: &mut $conn,
                id: i64,
                accept: bool,
                reason: Option<&str>,
                at: i64,
            ) -> StorageResult<Decided> {
                let status = if accept { ProposalStatus::Accepted } else { ProposalStatus::Rejected };
                let params = vec![
                    Param::Int(Some(id)),
                    Param::Text(Some(sql::enum_name(&status))),
                    Param::Int(Some(at)),
                    Param::Text(reason.map(Into::into)),
                ];
                let body: Option<String> = bind(sqlx::query(DECIDE), params)
                    .fetch_optional(&mut *conn)
                    .await?
                    .map(|r| r.try_get(0))
                    .transpose()?;
                let Some(body) = body else {
                    let now: Option<String> =
                        sqlx::query_scalar(PROPOSAL_STATUS).bind(id).fetch_optional(&mut *conn).await?;
                    return Ok(match now {
                        None => Decided::NotFound,
                        Some(s) => Decided::AlreadyDecided(status_from(&s)?),
                    });
                };
                if !accept {
                    return Ok(Decided::Rejected);
                }
                let p: DriveProposal = from_json(&body)?;
                let sources = p.sources();
                match &p.drive_id {
                    Some(drive_id) => {
                        let Some(before) = drive(conn, drive_id).await? else {
                            return Ok(Decided::Conflict(format!(
                                "drive {drive_id:?} is no longer in the catalogue (merged into another?)"
                            )));
                        };
                        let after = p.apply(Some(&before));
                        rewrite_drive(conn, &before, &after).await?;
                        log_change(conn, drive_id, ChangeAction::Change, Some(id), None, Some(&before), Some(&after), &sources, reason, at).await?;
                        Ok(Decided::Accepted(Box::new(after)))
                    }
                    None => {
                        let new = p.apply(None);
                        if drive(conn, &new.id).await?.is_some() {
                            return Ok(Decided::Conflict(format!(
                                "drive {:?} exists: propose a change to it instead",
                                new.id
                            )));
                        }
                        insert_drive(conn, sql::INSERT_DRIVE, &new).await?;
                        log_change(conn, &new.id, ChangeAction::Create, Some(id), None, None, Some(&new), &sources, reason, at).await?;
                        Ok(Decided::Accepted(Box::new(new)))
                    }
                }
            }

            /// Merges drive `from` into drive `into`: `from`'s results (hidden too) and
            /// observations move to `into`, its name, part number and aliases become
            /// `into`'s aliases, and `from` is deleted. The caller refreshes both drives'
            /// compare summaries in the same transaction and commits.
            pub async fn merge(
                conn: &mut $conn,
                from: &str,
                into: &str,
                reason: Option<&str>,
                at: i64,
            ) -> StorageResult<Merged> {
                let Some(gone) = drive(conn, from).await? else { return Ok(Merged::NotFound(from.into())) };
                let Some(before) = drive(conn, into).await? else { return Ok(Merged::NotFound(into.into())) };
                let mut after = before.clone();
                let names = [format!("{} {} {}GB", gone.vendor, gone.model, gone.capacity_gb)]
                    .into_iter()
                    .chain(gone.part_number.clone())
                    .chain(gone.aliases.iter().cloned());
                for name in names {
                    if !after.aliases.contains(&name) {
                        after.aliases.push(name);
                    }
                }
                let moved = retag_results(conn, from, &gone, &after).await?;
                rewrite_drive(conn, &before, &after).await?;
                sqlx::query(MOVE_OBSERVATIONS).bind(from).bind(into).execute(&mut *conn).await?;
                sqlx::query(DELETE_DRIVE).bind(from).execute(&mut *conn).await?;
                log_change(conn, from, ChangeAction::Merge, None, Some(into), Some(&gone), Some(&after), &[], reason, at).await?;
                Ok(Merged::Moved(moved))
            }

            /// After a result moved from drive `before` to drive `after`: removes
            /// `before` when it is a community drive with no result and no observation
            /// left (its results were moved to the drive they name); the id removed.
            pub async fn remove_if_abandoned(
                conn: &mut $conn,
                before: Option<&str>,
                after: Option<&str>,
            ) -> StorageResult<Option<String>> {
                let Some(id) = before.filter(|b| Some(*b) != after) else { return Ok(None) };
                let gone = sqlx::query(DELETE_ABANDONED).bind(id).bind(id).bind(id).execute(&mut *conn).await?;
                Ok((gone.rows_affected() > 0).then(|| id.to_string()))
            }

            /// The catalogue's changes, of one drive or all, oldest first.
            pub async fn history(conn: &mut $conn, drive_id: Option<&str>) -> StorageResult<Vec<CatalogueChange>> {
                let rows = match drive_id {
                    Some(d) => {
                        // A drive's own changes and the merges into it.
                        let sql = format!(
                            "SELECT {CHANGE_COLUMNS} FROM catalogue_changes WHERE drive_id = $1 OR merged_into = $1 ORDER BY id"
                        );
                        let rows = bind(sqlx::query(&sql), vec![Param::Text(Some(d.into()))]).fetch_all(&mut *conn).await?;
                        rows.iter().map(|r| sqlx::FromRow::from_row(r)).collect::<Result<Vec<_>, _>>()?
                    }
                    None => {
                        let sql = format!("SELECT {CHANGE_COLUMNS} FROM catalogue_changes ORDER BY id");
                        sqlx::query_as(&sql).fetch_all(&mut *conn).await?
                    }
                };
                rows.into_iter().map(change_from).collect()
            }
        }
    };
}

backend!(sqlite, sqlx::SqliteConnection, sqlx::SqlitePool);
backend!(postgres, sqlx::PgConnection, sqlx::PgPool);

/// A catalogue change's statement texts are numbered for their parameters.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::assert_numbered;

    #[test]
    fn statements_are_numbered_for_their_parameters() {
        for (text, n) in [
            (INSERT_PROPOSAL, 5),
            (DECIDE, 4),
            (PROPOSAL_STATUS, 1),
            (DRIVE_SPEC, 1),
            (UPDATE_DRIVE, 13),
            (DELETE_KEYS_OF, 1),
            (MOVE_OBSERVATIONS, 2),
            (DELETE_DRIVE, 1),
            (DELETE_ABANDONED, 3),
            (INSERT_CHANGE, 9),
        ] {
            assert_numbered(text, n);
        }
        assert_numbered(&results_of_drive_sql(), 1);
    }
}
