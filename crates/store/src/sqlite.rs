//! The embedded default: one SQLite file, WAL journal, foreign keys on.

use super::catalogue;
use super::sql::{self, Param, RawMetric, RawResult};
use super::summary;
use super::{
    Actor, Deleted, DriveRow, Filter, MetricRow, NewResult, NewSubmission, ResultOwner, ResultQuery, Storage,
    StorageResult, StoredResult, Submitted, UploadInfo,
};
use super::{Decided, Merged, ProposalRow, ResultFigures};
use api_types::{CatalogueChange, DriveProposal, ProposalStatus};
use async_trait::async_trait;
use bench::{DriveSku, Observation};
use sqlx::sqlite::{
    SqliteArguments, SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{ConnectOptions, FromRow, Row, Sqlite, SqlitePool};
use std::collections::HashMap;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, watch};

/// A checkpoint that copies the whole WAL and starts it over, run by long writes
/// (the summary build, filling the drive filters) between their transactions: with one
/// transaction after another, the background passive checkpoints never find the WAL
/// wholly copied, so SQLite never starts it over and it grows by all they write.
pub const CHECKPOINT_TRUNCATE: &str = "PRAGMA wal_checkpoint(TRUNCATE)";

/// How this backend writes a drive's search row.
pub use crate::search::SQLITE_UPSERT as SEARCH_UPSERT;

type Query<'q> = sqlx::query::Query<'q, Sqlite, SqliteArguments<'q>>;

pub(super) fn bind(q: Query<'_>, params: Vec<Param>) -> Query<'_> {
    params.into_iter().fold(q, |q, p| match p {
        Param::Text(v) => q.bind(v),
        Param::Int(v) => q.bind(v),
        Param::Float(v) => q.bind(v),
        Param::Bytes(v) => q.bind(v),
    })
}

pub struct SqliteStorage {
    /// Readers: in WAL mode they run beside the writer and never wait for it.
    pub(super) pool: SqlitePool,
    /// The one connection that stores results. SQLite has one writer at a time; queueing
    /// writers here (in order, woken as soon as the connection is free) rather than in
    /// SQLite's busy handler (which retries with sleeps of up to 100 ms) keeps many
    /// concurrent submitters at the speed of one. Every SQLite write goes through it,
    /// the screenshot queue's included.
    pub(super) writer: SqlitePool,
    /// Single submissions (`submit`, what `POST /results` does) go to the group-commit
    /// task ([`group_writer`]) rather than taking the writer one by one.
    groups: mpsc::Sender<Pending>,
    /// Dropped with the storage, which stops the [`checkpointer`].
    _checkpoints: watch::Sender<()>,
    drives: super::DriveCache,
    /// The decoded catalogue for `list_drives`.
    catalogue: super::CatalogueCache,
}

/// A submission waiting for the group commit, and where its outcome goes.
struct Pending {
    submission: NewSubmission,
    done: oneshot::Sender<StorageResult<Submitted>>,
}

/// At most this many submissions share one transaction: enough to amortise the
/// commit across 16+ concurrent clients, small enough that one group stays a few ms.
const GROUP_MAX: usize = 64;

/// Group commit: takes every submission queued while the previous transaction ran (up
/// to [`GROUP_MAX`]), stores them in ONE transaction, and answers each only after that
/// transaction committed, so an acknowledged submission is as durable as with its own
/// transaction (WAL, `synchronous = NORMAL`: it survives a kill -9). One submitter
/// alone sees no wait (the group is whatever is queued, never a timer). When the group
/// fails as a whole, each is retried in its own transaction, so one bad submission
/// gets its own error and never takes the others with it.
async fn group_writer(writer: SqlitePool, mut queue: mpsc::Receiver<Pending>) {
    while let Some(first) = queue.recv().await {
        tokio::task::yield_now().await;
        let mut group = vec![first];
        while group.len() < GROUP_MAX {
            match queue.try_recv() {
                Ok(p) => group.push(p),
                Err(_) => break,
            }
        }
        let (submissions, answers): (Vec<NewSubmission>, Vec<_>) =
            group.into_iter().map(|p| (p.submission, p.done)).unzip();
        let outcomes = match SqliteStorage::store_group(&writer, &[], &[], &submissions).await {
            Ok(outcomes) => outcomes.into_iter().map(Ok).collect(),
            Err(_) if submissions.len() > 1 => {
                let mut each = Vec::with_capacity(submissions.len());
                for s in &submissions {
                    let one = SqliteStorage::store_group(&writer, &[], &[], std::slice::from_ref(s)).await;
                    each.push(one.map(|mut o| o.pop().expect("one outcome per submission")));
                }
                each
            }
            Err(e) => vec![Err(e)],
        };
        for (answer, outcome) in answers.into_iter().zip(outcomes) {
            // The submitter may have gone (client disconnected): its data is stored anyway.
            let _ = answer.send(outcome);
        }
    }
}

/// How often the [`checkpointer`] copies the WAL into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// Copies committed WAL pages into the database file on a connection of its own, every
/// [`CHECKPOINT_EVERY`], until the storage is dropped. PASSIVE: it never waits for, nor
/// holds up, the writer or the readers; what it cannot copy yet it copies next time. The
/// WAL is the durable copy meanwhile, so a crash between checkpoints loses nothing.
async fn checkpointer(mut conn: SqliteConnection, mut stop: watch::Receiver<()>) {
    let mut every = tokio::time::interval(CHECKPOINT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            _ = every.tick() => {
                if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&mut conn).await {
                    tracing::warn!("SQLite checkpoint failed (retried in {CHECKPOINT_EVERY:?}): {e}");
                }
            }
        }
    }
}

impl SqliteStorage {
    /// Opens (creating if missing) the database file and applies the migrations.
    pub async fn connect(url: &str) -> StorageResult<SqliteStorage> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // With WAL, NORMAL writes each commit to the WAL file without an fsync (the
            // WAL is synced at checkpoints). A committed submission therefore survives a
            // kill -9 of the server: it is in the file, held by the OS. Only an OS crash
            // or power cut can lose the last commits since the previous checkpoint
            // (never corrupting the database). FULL would fsync every commit and cap
            // ingest at the disk's fsync rate.
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10))
            // No connection checkpoints by itself: SQLite would do it inside the commit
            // that takes the WAL past 1,000 pages, holding the one writer while it copies
            // pages and syncs the file. The [`checkpointer`] does it beside the writer.
            .pragma("wal_autocheckpoint", "0");
        // No memory map (`mmap_size` stays 0): in WAL mode a connection that finds the
        // database changed since its last read drops its whole mapping (and its page
        // cache) before reading again, and with a write every few milliseconds that is
        // every read. Unmapping costs a munmap with TLB shootdowns on every core and
        // the pages are faulted in again, more than reading them from the OS cache:
        // with a 1 GiB map, submissions naming a random drive of 100,000 ran at 0.79
        // of the seed catalogue's rate with the drive id given and 0.87 naming it; in
        // four runs without one, at 0.87-0.97 and 0.89-0.96 (`cargo xtask bench-server`;
        // perf showed the munmaps and faults).
        // The writer overwrites what it deletes (`secure_delete`): a swept screenshot or a
        // deleted upload leaves no bytes in the file's free pages.
        let writer_options = options.clone().pragma("secure_delete", "ON");
        let writer = SqlitePoolOptions::new().max_connections(1).connect_with(writer_options).await?;
        // Checkpoints from the start: a migration may rewrite a large table, and with
        // no connection checkpointing by itself the WAL would keep all of it (a summary
        // built whole also checkpoints after each of its transactions: summary.rs).
        let (checkpoints, stop) = watch::channel(());
        tokio::spawn(checkpointer(options.connect().await?, stop));
        sqlx::migrate!("../../migrations/sqlite").run(&writer).await?;
        summary::sqlite::build_if_missing(&writer).await?;
        super::effects::sqlite::mark_all_if_missing(&writer).await?;
        let rebuilt = catalogue::sqlite::rebuild_keys_if_stale(&writer).await?;
        catalogue::sqlite::fill_filters_if_stale(&writer, Some(CHECKPOINT_TRUNCATE)).await?;
        let pool = SqlitePoolOptions::new().max_connections(8).connect_with(options.clone()).await?;
        let (groups, queue) = mpsc::channel(4 * GROUP_MAX);
        tokio::spawn(group_writer(writer.clone(), queue));
        let storage = SqliteStorage {
            pool,
            writer,
            groups,
            _checkpoints: checkpoints,
            drives: Default::default(),
            catalogue: Default::default(),
        };
        if rebuilt {
            super::duplicates::merge_after_upgrade(&storage).await?;
        }
        Ok(storage)
    }

    /// Stores catalogue drives not yet known and submissions in one transaction: all of
    /// them, or on any error none (see [`Storage::store_batch`]).
    ///
    /// Each table gets one multi-row statement for the whole group, not one per row:
    /// every statement is a round trip to sqlx's SQLite worker thread (about 50 µs here,
    /// `SELECT 1` included), which per-row statements paid several times per submission.
    async fn store_group(
        writer: &SqlitePool,
        drives: &[DriveSku],
        observations: &[Observation],
        submissions: &[NewSubmission],
    ) -> StorageResult<Vec<Submitted>> {
        let mut tx = writer.begin().await?;
        for d in drives {
            catalogue::sqlite::insert_drive(&mut tx, sql::INSERT_DRIVE_IF_NEW, d).await?;
        }
        Self::insert_observations(&mut tx, observations).await?;
        let outcomes = Self::store_on(&mut tx, submissions).await?;
        tx.commit().await?;
        Ok(outcomes)
    }

    /// Writes observations not stored yet on an open transaction.
    async fn insert_observations(
        tx: &mut SqliteConnection,
        observations: &[Observation],
    ) -> StorageResult<()> {
        for o in observations {
            bind(sqlx::query(sql::INSERT_OBSERVATION_IF_NEW), sql::observation_params(o))
                .execute(&mut *tx)
                .await?;
        }
        Ok(())
    }

    /// Stores submissions, with their compare summaries, on an open transaction (see
    /// [`Self::store_group`]).
    async fn store_on(
        tx: &mut SqliteConnection,
        submissions: &[NewSubmission],
    ) -> StorageResult<Vec<Submitted>> {
        // Submissions: a hash stored before inserts nothing; of equal uploads within the
        // group only the first is sent, the others are its duplicates.
        let mut first_of_hash: HashMap<&str, usize> = HashMap::new();
        let new: Vec<usize> = (0..submissions.len())
            .filter(|&i| *first_of_hash.entry(&submissions[i].content_hash).or_insert(i) == i)
            .collect();
        let mut stored_id: HashMap<String, i64> = HashMap::new();
        for rows in Self::insert_many(
            &mut *tx,
            "submissions",
            sql::SUBMISSION_COLUMNS,
            new.iter().map(|&i| sql::submission_params(&submissions[i])).collect(),
            " ON CONFLICT (content_hash) DO NOTHING RETURNING id, content_hash",
        )
        .await?
        {
            stored_id.insert(rows.try_get(1)?, rows.try_get(0)?);
        }
        // Which submissions this group stores, with their new ids.
        let stored: Vec<(usize, i64)> = new
            .iter()
            .filter_map(|&i| stored_id.get(&submissions[i].content_hash).map(|&id| (i, id)))
            .collect();

        // The community drives their tags created, then results, then their metrics.
        for (i, _) in &stored {
            for d in submissions[*i].results.iter().filter_map(|r| r.new_drive.as_ref()) {
                catalogue::sqlite::insert_drive(&mut *tx, sql::INSERT_DRIVE_IF_NEW, d).await?;
            }
        }
        let result_rows = stored
            .iter()
            .flat_map(|&(i, sid)| {
                let s = &submissions[i];
                s.results.iter().enumerate().map(move |(o, r)| sql::result_params(r, sid, o, s.created_at))
            })
            .collect();
        let mut result_id: HashMap<(i64, i64), i64> = HashMap::new();
        for row in Self::insert_many(
            &mut *tx,
            "results",
            &sql::RESULT_COLUMNS,
            result_rows,
            " RETURNING id, submission_id, ordinal",
        )
        .await?
        {
            result_id.insert((row.try_get(1)?, row.try_get(2)?), row.try_get(0)?);
        }
        let mut ids_of: HashMap<usize, Vec<i64>> = HashMap::new();
        let mut metric_rows = Vec::new();
        let mut summarised = Vec::new();
        for &(i, sid) in &stored {
            let mut ids = Vec::with_capacity(submissions[i].results.len());
            for (o, r) in submissions[i].results.iter().enumerate() {
                let id = *result_id.get(&(sid, o as i64)).ok_or_else(|| {
                    super::StorageError::Corrupt("an inserted result was not returned".into())
                })?;
                let mut params = Vec::new();
                sql::metric_params(id, &r.result, &mut params);
                metric_rows.extend(params.chunks(sql::METRIC_COLUMNS.len()).map(<[Param]>::to_vec));
                summarised.push((id, r));
                ids.push(id);
            }
            ids_of.insert(i, ids);
        }
        Self::insert_many(&mut *tx, "metrics", sql::METRIC_COLUMNS, metric_rows, "").await?;
        // Each pool the group touches is read and written once.
        summary::sqlite::add_results(&mut *tx, &summarised).await?;

        let mut outcomes = Vec::with_capacity(submissions.len());
        for (i, s) in submissions.iter().enumerate() {
            outcomes.push(match (ids_of.get(&i), stored_id.get(&s.content_hash)) {
                (Some(ids), Some(&submission_id)) => {
                    Submitted::Stored { submission_id, result_ids: ids.clone() }
                }
                // Equal to an upload stored earlier in this group.
                (None, Some(&submission_id)) => {
                    let first = first_of_hash[s.content_hash.as_str()];
                    Submitted::Duplicate { submission_id, result_ids: ids_of[&first].clone() }
                }
                _ => {
                    let (submission_id, result_ids) = Self::existing(&mut *tx, &s.content_hash)
                        .await?
                        .ok_or_else(|| super::StorageError::Corrupt("duplicate hash vanished".into()))?;
                    Submitted::Duplicate { submission_id, result_ids }
                }
            });
        }
        Ok(outcomes)
    }

    /// Inserts `rows` (each a row's parameters in `columns` order) with multi-row
    /// statements of about [`sql::SQLITE_INSERT_PARAMS`] parameters; `suffix` follows each
    /// (`ON CONFLICT`, `RETURNING`). Returns the rows `RETURNING` gives, in no particular
    /// order.
    async fn insert_many(
        conn: &mut SqliteConnection,
        table: &str,
        columns: &[&str],
        rows: Vec<Vec<Param>>,
        suffix: &str,
    ) -> StorageResult<Vec<sqlx::sqlite::SqliteRow>> {
        let mut returned = Vec::new();
        for (text, params) in sql::insert_rows(table, columns, rows, sql::SQLITE_INSERT_PARAMS, suffix) {
            returned.extend(bind(sqlx::query(&text), params).fetch_all(&mut *conn).await?);
        }
        Ok(returned)
    }

    /// The stored submission with this content hash and its result ids.
    async fn existing(
        conn: &mut SqliteConnection,
        content_hash: &str,
    ) -> StorageResult<Option<(i64, Vec<i64>)>> {
        let Some(row) =
            sqlx::query(sql::SUBMISSION_BY_HASH).bind(content_hash).fetch_optional(&mut *conn).await?
        else {
            return Ok(None);
        };
        let id: i64 = row.try_get(0)?;
        let ids = sqlx::query(sql::RESULT_IDS_OF_SUBMISSION)
            .bind(id)
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(|r| r.try_get(0))
            .collect::<sqlx::Result<Vec<i64>>>()?;
        Ok(Some((id, ids)))
    }

    /// The catalogue drive a result names, if any.
    async fn drive_of(conn: &mut SqliteConnection, id: i64) -> StorageResult<Option<String>> {
        let row = sqlx::query(sql::DRIVE_OF_RESULT).bind(id).fetch_optional(&mut *conn).await?;
        Ok(match row {
            Some(r) => r.try_get(0)?,
            None => None,
        })
    }

    async fn log(
        conn: &mut SqliteConnection,
        result_id: i64,
        action: &str,
        actor: Actor,
        reason: Option<&str>,
        at: i64,
    ) -> StorageResult<()> {
        bind(
            sqlx::query(sql::INSERT_MODERATION_LOG),
            sql::moderation_log_params(result_id, action, actor, reason, at),
        )
        .execute(&mut *conn)
        .await?;
        Ok(())
    }
}

#[async_trait]
impl Storage for SqliteStorage {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn pool_stats(&self) -> Vec<crate::PoolStats> {
        vec![super::pool_stats("sqlite-read", &self.pool), super::pool_stats("sqlite-write", &self.writer)]
    }

    async fn ping(&self) -> StorageResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn seed_if_empty(
        &self,
        drives: &[DriveSku],
        observations: &[Observation],
        submissions: &[NewSubmission],
    ) -> StorageResult<bool> {
        let mut tx = self.writer.begin().await?;
        let marked = sqlx::query(sql::INSERT_META_SEEDED).bind("1").execute(&mut *tx).await?.rows_affected();
        if marked == 0 {
            return Ok(false); // seeded before (or by another server right now)
        }
        let count: i64 = sqlx::query(sql::COUNT_DATA).fetch_one(&mut *tx).await?.try_get(0)?;
        if count > 0 {
            tx.commit().await?; // data without the mark: never seed over it
            return Ok(false);
        }
        for d in drives {
            catalogue::sqlite::insert_drive(&mut tx, sql::INSERT_DRIVE, d).await?;
        }
        Self::insert_observations(&mut tx, observations).await?;
        Self::store_on(&mut tx, submissions).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn submit(&self, submission: &NewSubmission) -> StorageResult<Submitted> {
        let (done, outcome) = oneshot::channel();
        let pending = Pending { submission: submission.clone(), done };
        self.groups.send(pending).await.map_err(|_| super::StorageError::WriterStopped)?;
        outcome.await.map_err(|_| super::StorageError::WriterStopped)?
    }

    async fn store_batch(
        &self,
        drives: &[DriveSku],
        observations: &[Observation],
        submissions: &[NewSubmission],
    ) -> StorageResult<Vec<Submitted>> {
        Self::store_group(&self.writer, drives, observations, submissions).await
    }

    async fn observations_of_drive(&self, drive: &DriveSku) -> StorageResult<Vec<Observation>> {
        let rows = sqlx::query(sql::OBSERVATIONS_OF_DRIVE)
            .bind(&drive.id)
            .bind(&drive.vendor)
            .bind(&drive.model)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| sql::from_json(&r.try_get::<String, _>(0)?)).collect()
    }

    async fn list_observations(&self) -> StorageResult<Vec<Observation>> {
        let rows = sqlx::query(sql::ALL_OBSERVATIONS).fetch_all(&self.pool).await?;
        rows.iter().map(|r| sql::from_json(&r.try_get::<String, _>(0)?)).collect()
    }

    async fn upload_info(&self, result_id: i64) -> StorageResult<Option<UploadInfo>> {
        let row = sqlx::query(sql::UPLOAD_INFO_OF_RESULT).bind(result_id).fetch_optional(&self.pool).await?;
        row.map(|r| {
            let provenance: Option<String> = r.try_get(1)?;
            Ok(UploadInfo {
                format: r.try_get(0)?,
                provenance: provenance.as_deref().map(sql::from_json).transpose()?,
                runner: r.try_get::<Option<String>, _>(2)?.as_deref().map(sql::from_json).transpose()?,
            })
        })
        .transpose()
    }

    async fn upload_body(&self, result_id: i64) -> StorageResult<Option<(Option<String>, Vec<u8>)>> {
        let row = sqlx::query(sql::UPLOAD_BODY_OF_RESULT).bind(result_id).fetch_optional(&self.pool).await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    async fn result_owner(&self, id: i64) -> StorageResult<Option<ResultOwner>> {
        let row = sqlx::query(sql::RESULT_OWNER).bind(id).fetch_optional(&self.pool).await?;
        row.map(|r| Ok(ResultOwner { submission_id: r.try_get(0)?, edit_token_hash: r.try_get(1)? }))
            .transpose()
    }

    async fn update_result(&self, id: i64, update: &NewResult, actor: Actor, at: i64) -> StorageResult<bool> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        // The drive it named before, so that both drives' compare summaries follow.
        let before = Self::drive_of(&mut tx, id).await?;
        if let Some(d) = &update.new_drive {
            catalogue::sqlite::insert_drive(&mut tx, sql::INSERT_DRIVE_IF_NEW, d).await?;
        }
        let sql = sql::update_result_sql();
        let changed = bind(sqlx::query(&sql), sql::update_result_params(id, update))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if changed == 0 {
            return Ok(false);
        }
        let mut drives: Vec<String> = before.iter().cloned().chain(update.tags.drive.sku.clone()).collect();
        drives.dedup();
        summary::sqlite::refresh_summaries_for(&mut tx, &drives).await?;
        // A community drive the edit left without results was a wrong name: it goes.
        let after = update.tags.drive.sku.as_deref();
        let removed = catalogue::sqlite::remove_if_abandoned(&mut tx, before.as_deref(), after).await?;
        Self::log(&mut tx, id, "edit", actor, None, at).await?;
        tx.commit().await?;
        if let Some(gone) = removed {
            self.drives.forget(&gone);
        }
        Ok(true)
    }

    async fn delete_result(&self, id: i64, actor: Actor, at: i64) -> StorageResult<Option<Deleted>> {
        let mut tx = self.writer.begin().await?;
        // A write first: SQLite then takes the write lock at once instead of upgrading a
        // read transaction, which fails when another writer got in between.
        sqlx::query(sql::DELETE_METRICS_OF_RESULT).bind(id).execute(&mut *tx).await?;
        let Some(row) = sqlx::query(sql::SUBMISSION_OF_RESULT).bind(id).fetch_optional(&mut *tx).await?
        else {
            return Ok(None);
        };
        let submission_id: i64 = row.try_get(0)?;
        let drive = Self::drive_of(&mut tx, id).await?;
        sqlx::query(sql::DELETE_RESULT).bind(id).execute(&mut *tx).await?;
        let gone = sqlx::query(sql::DELETE_EMPTY_SUBMISSION)
            .bind(submission_id)
            .bind(submission_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone > 0 {
            // The screenshot it was published from goes with it.
            sqlx::query(crate::jobs::DELETE_JOBS_OF_SUBMISSION).bind(submission_id).execute(&mut *tx).await?;
        }
        summary::sqlite::refresh_summaries_for(&mut tx, drive.as_slice()).await?;
        Self::log(&mut tx, id, "delete", actor, None, at).await?;
        tx.commit().await?;
        Ok(Some(Deleted { submission_deleted: gone > 0 }))
    }

    async fn set_hidden(&self, id: i64, hidden: bool, reason: Option<&str>, at: i64) -> StorageResult<bool> {
        let mut tx = self.writer.begin().await?;
        let q = if hidden {
            sqlx::query(sql::HIDE_RESULT).bind(reason).bind(at).bind(id)
        } else {
            sqlx::query(sql::RESTORE_RESULT).bind(id)
        };
        if q.execute(&mut *tx).await?.rows_affected() == 0 {
            return Ok(false);
        }
        let drive = Self::drive_of(&mut tx, id).await?;
        summary::sqlite::refresh_summaries_for(&mut tx, drive.as_slice()).await?;
        let action = if hidden { "hide" } else { "restore" };
        Self::log(&mut tx, id, action, Actor::Admin, reason, at).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn get_result(&self, id: i64) -> StorageResult<Option<StoredResult>> {
        let sql = sql::get_result_sql();
        match sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await? {
            Some(row) => Ok(Some(RawResult::from_row(&row)?.decode()?)),
            None => Ok(None),
        }
    }

    async fn list_results(&self, q: &ResultQuery) -> StorageResult<Vec<StoredResult>> {
        let (sql, params) = sql::list_results_sql(q);
        let rows = bind(sqlx::query(&sql), params).fetch_all(&self.pool).await?;
        rows.iter().map(|r| RawResult::from_row(r)?.decode()).collect()
    }

    async fn get_drive(&self, id: &str) -> StorageResult<Option<DriveSku>> {
        let read = async {
            let row = sqlx::query(sql::GET_DRIVE).bind(id).fetch_optional(&self.pool).await?;
            Ok(row.map(|r| r.try_get::<String, _>(0)).transpose()?)
        };
        self.drives.get_or_read(id, read).await
    }

    async fn list_drives(&self) -> StorageResult<Vec<DriveRow>> {
        catalogue::sqlite::list_drives(&mut *self.pool.acquire().await?, &self.catalogue).await
    }

    async fn drives_page(
        &self,
        filter: &api_types::DriveFilter,
        order: crate::DriveOrder,
        offset: usize,
        limit: usize,
    ) -> StorageResult<Vec<DriveRow>> {
        catalogue::sqlite::drives_page(&mut *self.pool.acquire().await?, filter, order, offset, limit).await
    }

    async fn model_line(&self, vendor: &str, model: &str) -> StorageResult<Vec<DriveSku>> {
        catalogue::sqlite::drives_where(&mut *self.pool.acquire().await?, sql::MODEL_LINE, &[vendor, model])
            .await
    }

    async fn drives_on_controller(&self, model: &str) -> StorageResult<Vec<DriveSku>> {
        catalogue::sqlite::drives_where(&mut *self.pool.acquire().await?, sql::ON_CONTROLLER, &[model]).await
    }

    async fn drive_count(&self, filter: &api_types::DriveFilter) -> StorageResult<usize> {
        catalogue::sqlite::drive_count(&mut *self.pool.acquire().await?, filter).await
    }

    async fn catalogue(&self) -> StorageResult<std::sync::Arc<Vec<DriveSku>>> {
        catalogue::sqlite::catalogue(&mut *self.pool.acquire().await?, &self.catalogue).await
    }

    async fn result_counts(&self, ids: &[String]) -> StorageResult<std::collections::HashMap<String, i64>> {
        catalogue::sqlite::result_counts(&mut *self.pool.acquire().await?, ids).await
    }

    async fn ranked_pools(
        &self,
        test: &str,
        arrays: bool,
        min_results: usize,
        filter: &api_types::DriveFilter,
        limit: usize,
    ) -> StorageResult<Vec<super::PoolSummary>> {
        summary::sqlite::ranked_pools(&self.pool, test, arrays, min_results, filter, limit).await
    }

    async fn leaderboard_tests(
        &self,
        filter: &api_types::DriveFilter,
    ) -> StorageResult<Vec<api_types::LeaderboardTest>> {
        summary::sqlite::leaderboard_tests(&self.pool, filter).await
    }

    async fn thin_lines(
        &self,
        test: &str,
        min_results: usize,
        filter: &api_types::DriveFilter,
    ) -> StorageResult<usize> {
        summary::sqlite::thin_lines(&self.pool, test, min_results, filter).await
    }

    async fn drives_by_keys(&self, keys: &[String]) -> StorageResult<Vec<(String, DriveSku)>> {
        catalogue::sqlite::drives_by_keys(&mut *self.pool.acquire().await?, keys).await
    }

    async fn search_drives(&self, from: &str, to: &str, limit: i64) -> StorageResult<Vec<DriveRow>> {
        catalogue::sqlite::search_drives(&mut *self.pool.acquire().await?, from, to, limit).await
    }

    async fn drives_by_text(
        &self,
        query: &bench::identity::SearchQuery,
        limit: i64,
    ) -> StorageResult<Option<Vec<(DriveRow, String)>>> {
        let Some(fts) = crate::search::sqlite_match(query) else { return Ok(None) };
        let (text, params) = crate::search::sqlite_sql(query, fts, limit);
        let rows = bind(sqlx::query(&text), params).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| crate::search::row((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect::<StorageResult<Vec<_>>>()
            .map(Some)
    }

    async fn shared_key_drives(&self) -> StorageResult<Vec<(String, DriveRow)>> {
        let rows: Vec<(String, String, i64)> =
            sqlx::query_as(crate::duplicates::SHARED_KEYS).fetch_all(&self.pool).await?;
        rows.into_iter().map(crate::duplicates::row).collect()
    }

    async fn similar_words(&self, word: &str, limit: i64) -> StorageResult<Vec<String>> {
        let Some((text, params)) = crate::search::sqlite_similar_sql(word, limit) else {
            return Ok(Vec::new());
        };
        let rows = bind(sqlx::query(&text), params).fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    async fn add_proposal(
        &self,
        proposal: &DriveProposal,
        warnings: &[String],
        client: Option<&str>,
        at: i64,
    ) -> StorageResult<i64> {
        let mut tx = self.writer.begin().await?;
        let id = catalogue::sqlite::add_proposal(&mut tx, proposal, warnings, client, at).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn get_proposal(&self, id: i64) -> StorageResult<Option<ProposalRow>> {
        catalogue::sqlite::proposal(&mut *self.pool.acquire().await?, id).await
    }

    async fn list_proposals(&self, status: Option<ProposalStatus>) -> StorageResult<Vec<ProposalRow>> {
        catalogue::sqlite::proposals(&mut *self.pool.acquire().await?, status).await
    }

    async fn decide_proposal(
        &self,
        id: i64,
        accept: bool,
        reason: Option<&str>,
        at: i64,
    ) -> StorageResult<Decided> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let decided = catalogue::sqlite::decide(&mut tx, id, accept, reason, at).await?;
        if let Decided::Accepted(d) = &decided {
            tx.commit().await?;
            self.drives.forget(&d.id);
        } else if decided == Decided::Rejected {
            tx.commit().await?;
        }
        Ok(decided)
    }

    async fn merge_drives(
        &self,
        from: &str,
        into: &str,
        reason: Option<&str>,
        at: i64,
    ) -> StorageResult<Merged> {
        let mut tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let merged = catalogue::sqlite::merge(&mut tx, from, into, reason, at).await?;
        if let Merged::Moved(_) = merged {
            summary::sqlite::refresh_summaries_for(&mut tx, &[from.to_string(), into.to_string()]).await?;
            tx.commit().await?;
            self.drives.forget(from);
            self.drives.forget(into);
        }
        Ok(merged)
    }

    async fn catalogue_history(&self, drive_id: Option<&str>) -> StorageResult<Vec<CatalogueChange>> {
        catalogue::sqlite::history(&mut *self.pool.acquire().await?, drive_id).await
    }

    async fn results_for_drives(
        &self,
        ids: &[String],
        figures: ResultFigures,
    ) -> StorageResult<Vec<StoredResult>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = sql::results_for_drives_sql(ids.len(), figures);
        let params = ids.iter().map(|i| Param::Text(Some(i.clone()))).collect();
        let rows = bind(sqlx::query(&sql), params).fetch_all(&self.pool).await?;
        rows.iter().map(|r| RawResult::from_row(r)?.decode()).collect()
    }

    async fn metrics_for_drives(&self, ids: &[String], filters: &[Filter]) -> StorageResult<Vec<MetricRow>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let (sql, params) = sql::metrics_for_drives_sql(ids, filters);
        let rows = bind(sqlx::query(&sql), params).fetch_all(&self.pool).await?;
        rows.iter().map(|r| RawMetric::from_row(r)?.decode()).collect()
    }

    async fn pools_for_drives(&self, ids: &[String]) -> StorageResult<Vec<super::PoolSummary>> {
        summary::sqlite::pools_for_drives(&self.pool, ids).await
    }

    async fn pools_with_quantiles(&self, ids: &[String]) -> StorageResult<Vec<super::PoolWithQuantiles>> {
        summary::sqlite::pools_with_quantiles(&self.pool, ids).await
    }

    async fn refresh_effects(&self, max_drives: usize) -> StorageResult<usize> {
        super::effects::sqlite::refresh(&self.pool, &self.writer, max_drives).await
    }

    async fn combine_effects(&self) -> StorageResult<usize> {
        super::effects::sqlite::combine_touched(&self.writer).await
    }

    async fn effects(&self, factor: Option<&str>) -> StorageResult<super::effects::EffectsSnapshot> {
        super::effects::sqlite::snapshot(&self.pool, factor).await
    }

    async fn effect_drives(
        &self,
        key: &super::effects::EffectKey,
    ) -> StorageResult<Vec<super::effects::EffectDrive>> {
        super::effects::sqlite::drives_of(&self.pool, key).await
    }
}
