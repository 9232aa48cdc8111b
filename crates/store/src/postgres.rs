//! PostgreSQL, for several servers on one database.

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
use sqlx::postgres::{PgArguments, PgConnection, PgPoolOptions};
use sqlx::{FromRow, PgPool, Postgres, Row};

/// How this backend writes a drive's search row.
pub use crate::search::POSTGRES_UPSERT as SEARCH_UPSERT;

type Query<'q> = sqlx::query::Query<'q, Postgres, PgArguments>;

/// Binds in order. A text holding NUL (U+0000), which PostgreSQL refuses in any text
/// value, can only come from a query (`ingest::check_storable` keeps it out of everything
/// stored) and so can equal nothing stored: it is bound as SQL NULL, which no `=`, `IN`
/// or row comparison matches, instead of failing the request (SQLite takes it as is).
pub(super) fn bind(q: Query<'_>, params: Vec<Param>) -> Query<'_> {
    params.into_iter().fold(q, |q, p| match p {
        Param::Text(v) => q.bind(v.filter(|t| !t.contains('\0'))),
        Param::Int(v) => q.bind(v),
        Param::Float(v) => q.bind(v),
        Param::Bytes(v) => q.bind(v),
    })
}

pub struct PgStorage {
    pub(super) pool: PgPool,
    drives: super::DriveCache,
    /// The decoded catalogue for `list_drives`.
    catalogue: super::CatalogueCache,
}

impl PgStorage {
    /// Connects and applies the migrations.
    pub async fn connect(url: &str) -> StorageResult<PgStorage> {
        let pool = PgPoolOptions::new().max_connections(8).connect(url).await?;
        sqlx::migrate!("../../migrations/postgres").run(&pool).await?;
        summary::postgres::build_if_missing(&pool).await?;
        super::effects::postgres::mark_all_if_missing(&pool).await?;
        let rebuilt = catalogue::postgres::rebuild_keys_if_stale(&pool).await?;
        catalogue::postgres::fill_filters_if_stale(&pool, None).await?;
        let storage = PgStorage { pool, drives: Default::default(), catalogue: Default::default() };
        if rebuilt {
            super::duplicates::merge_after_upgrade(&storage).await?;
        }
        Ok(storage)
    }

    /// Writes observations not stored yet on an open transaction.
    async fn insert_observations(conn: &mut PgConnection, observations: &[Observation]) -> StorageResult<()> {
        for o in observations {
            bind(sqlx::query(sql::INSERT_OBSERVATION_IF_NEW), sql::observation_params(o))
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// Writes a submission on an open transaction; `None` when its hash is known.
    async fn insert_submission(
        conn: &mut PgConnection,
        s: &NewSubmission,
    ) -> StorageResult<Option<(i64, Vec<i64>)>> {
        let Some(row) = bind(sqlx::query(sql::INSERT_SUBMISSION), sql::submission_params(s))
            .fetch_optional(&mut *conn)
            .await?
        else {
            return Ok(None);
        };
        let submission_id: i64 = row.try_get(0)?;
        for d in s.results.iter().filter_map(|r| r.new_drive.as_ref()) {
            catalogue::postgres::insert_drive(&mut *conn, sql::INSERT_DRIVE_IF_NEW, d).await?;
        }
        let insert = sql::insert_result_sql();
        let mut ids = Vec::with_capacity(s.results.len());
        for (i, r) in s.results.iter().enumerate() {
            let id: i64 = bind(sqlx::query(&insert), sql::result_params(r, submission_id, i, s.created_at))
                .fetch_one(&mut *conn)
                .await?
                .try_get(0)?;
            summary::postgres::add_result(&mut *conn, id, r).await?;
            if let Some((metrics_sql, params)) = sql::insert_metrics(id, &r.result) {
                bind(sqlx::query(&metrics_sql), params).execute(&mut *conn).await?;
            }
            ids.push(id);
        }
        Ok(Some((submission_id, ids)))
    }

    /// The stored submission with this content hash and its result ids.
    async fn existing(conn: &mut PgConnection, content_hash: &str) -> StorageResult<Option<(i64, Vec<i64>)>> {
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
    async fn drive_of(conn: &mut PgConnection, id: i64) -> StorageResult<Option<String>> {
        let row = sqlx::query(sql::DRIVE_OF_RESULT).bind(id).fetch_optional(&mut *conn).await?;
        Ok(match row {
            Some(r) => r.try_get(0)?,
            None => None,
        })
    }

    async fn log(
        conn: &mut PgConnection,
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
impl Storage for PgStorage {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn pool_stats(&self) -> Vec<crate::PoolStats> {
        vec![super::pool_stats("postgres", &self.pool)]
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
        let mut tx = self.pool.begin().await?;
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
            catalogue::postgres::insert_drive(&mut tx, sql::INSERT_DRIVE, d).await?;
        }
        Self::insert_observations(&mut tx, observations).await?;
        for s in submissions {
            Self::insert_submission(&mut tx, s).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn store_batch(
        &self,
        drives: &[DriveSku],
        observations: &[Observation],
        submissions: &[NewSubmission],
    ) -> StorageResult<Vec<Submitted>> {
        let mut tx = self.pool.begin().await?;
        for d in drives {
            catalogue::postgres::insert_drive(&mut tx, sql::INSERT_DRIVE_IF_NEW, d).await?;
        }
        Self::insert_observations(&mut tx, observations).await?;
        let mut outcomes = Vec::with_capacity(submissions.len());
        for s in submissions {
            outcomes.push(match Self::insert_submission(&mut tx, s).await? {
                Some((submission_id, result_ids)) => Submitted::Stored { submission_id, result_ids },
                None => {
                    let (submission_id, result_ids) = Self::existing(&mut tx, &s.content_hash)
                        .await?
                        .ok_or_else(|| super::StorageError::Corrupt("duplicate hash vanished".into()))?;
                    Submitted::Duplicate { submission_id, result_ids }
                }
            });
        }
        tx.commit().await?;
        Ok(outcomes)
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
        let mut tx = self.pool.begin().await?;
        // The drive it named before, so that both drives' compare summaries follow.
        let before = Self::drive_of(&mut tx, id).await?;
        if let Some(d) = &update.new_drive {
            catalogue::postgres::insert_drive(&mut tx, sql::INSERT_DRIVE_IF_NEW, d).await?;
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
        summary::postgres::refresh_summaries_for(&mut tx, &drives).await?;
        // A community drive the edit left without results was a wrong name: it goes.
        let after = update.tags.drive.sku.as_deref();
        let removed = catalogue::postgres::remove_if_abandoned(&mut tx, before.as_deref(), after).await?;
        Self::log(&mut tx, id, "edit", actor, None, at).await?;
        tx.commit().await?;
        if let Some(gone) = removed {
            self.drives.forget(&gone);
        }
        Ok(true)
    }

    async fn delete_result(&self, id: i64, actor: Actor, at: i64) -> StorageResult<Option<Deleted>> {
        let mut tx = self.pool.begin().await?;
        // A write first (as in the SQLite twin, where it takes the write lock at once).
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
        summary::postgres::refresh_summaries_for(&mut tx, drive.as_slice()).await?;
        Self::log(&mut tx, id, "delete", actor, None, at).await?;
        tx.commit().await?;
        Ok(Some(Deleted { submission_deleted: gone > 0 }))
    }

    async fn set_hidden(&self, id: i64, hidden: bool, reason: Option<&str>, at: i64) -> StorageResult<bool> {
        let mut tx = self.pool.begin().await?;
        let q = if hidden {
            sqlx::query(sql::HIDE_RESULT).bind(reason).bind(at).bind(id)
        } else {
            sqlx::query(sql::RESTORE_RESULT).bind(id)
        };
        if q.execute(&mut *tx).await?.rows_affected() == 0 {
            return Ok(false);
        }
        let drive = Self::drive_of(&mut tx, id).await?;
        summary::postgres::refresh_summaries_for(&mut tx, drive.as_slice()).await?;
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

    async fn get_drive(&self, id: &str) -> StorageResult<Option<DriveSku>> {
        let read = async {
            // Through `bind`: an id holding NUL finds nothing instead of failing.
            let row = bind(sqlx::query(sql::GET_DRIVE), vec![Param::Text(Some(id.to_string()))])
                .fetch_optional(&self.pool)
                .await?;
            Ok(row.map(|r| r.try_get::<String, _>(0)).transpose()?)
        };
        self.drives.get_or_read(id, read).await
    }

    async fn list_drives(&self) -> StorageResult<Vec<DriveRow>> {
        catalogue::postgres::list_drives(&mut *self.pool.acquire().await?, &self.catalogue).await
    }

    async fn drives_page(
        &self,
        filter: &api_types::DriveFilter,
        order: crate::DriveOrder,
        offset: usize,
        limit: usize,
    ) -> StorageResult<Vec<DriveRow>> {
        catalogue::postgres::drives_page(&mut *self.pool.acquire().await?, filter, order, offset, limit).await
    }

    async fn model_line(&self, vendor: &str, model: &str) -> StorageResult<Vec<DriveSku>> {
        catalogue::postgres::drives_where(&mut *self.pool.acquire().await?, sql::MODEL_LINE, &[vendor, model])
            .await
    }

    async fn drives_on_controller(&self, model: &str) -> StorageResult<Vec<DriveSku>> {
        catalogue::postgres::drives_where(&mut *self.pool.acquire().await?, sql::ON_CONTROLLER, &[model])
            .await
    }

    async fn drive_count(&self, filter: &api_types::DriveFilter) -> StorageResult<usize> {
        catalogue::postgres::drive_count(&mut *self.pool.acquire().await?, filter).await
    }

    async fn catalogue(&self) -> StorageResult<std::sync::Arc<Vec<DriveSku>>> {
        catalogue::postgres::catalogue(&mut *self.pool.acquire().await?, &self.catalogue).await
    }

    async fn result_counts(&self, ids: &[String]) -> StorageResult<std::collections::HashMap<String, i64>> {
        catalogue::postgres::result_counts(&mut *self.pool.acquire().await?, ids).await
    }

    async fn ranked_pools(
        &self,
        test: &str,
        arrays: bool,
        min_results: usize,
        filter: &api_types::DriveFilter,
        limit: usize,
    ) -> StorageResult<Vec<super::PoolSummary>> {
        summary::postgres::ranked_pools(&self.pool, test, arrays, min_results, filter, limit).await
    }

    async fn leaderboard_tests(
        &self,
        filter: &api_types::DriveFilter,
    ) -> StorageResult<Vec<api_types::LeaderboardTest>> {
        summary::postgres::leaderboard_tests(&self.pool, filter).await
    }

    async fn thin_lines(
        &self,
        test: &str,
        min_results: usize,
        filter: &api_types::DriveFilter,
    ) -> StorageResult<usize> {
        summary::postgres::thin_lines(&self.pool, test, min_results, filter).await
    }

    async fn drives_by_keys(&self, keys: &[String]) -> StorageResult<Vec<(String, DriveSku)>> {
        catalogue::postgres::drives_by_keys(&mut *self.pool.acquire().await?, keys).await
    }

    async fn search_drives(&self, from: &str, to: &str, limit: i64) -> StorageResult<Vec<DriveRow>> {
        catalogue::postgres::search_drives(&mut *self.pool.acquire().await?, from, to, limit).await
    }

    async fn drives_by_text(
        &self,
        query: &bench::identity::SearchQuery,
        limit: i64,
    ) -> StorageResult<Option<Vec<(DriveRow, String)>>> {
        let Some((text, params)) = crate::search::postgres_sql(query, limit) else { return Ok(None) };
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
        let rows: Vec<(String,)> = sqlx::query_as(crate::search::POSTGRES_SIMILAR)
            .bind(word)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(|(w,)| w).collect())
    }

    async fn add_proposal(
        &self,
        proposal: &DriveProposal,
        warnings: &[String],
        client: Option<&str>,
        at: i64,
    ) -> StorageResult<i64> {
        let mut tx = self.pool.begin().await?;
        let id = catalogue::postgres::add_proposal(&mut tx, proposal, warnings, client, at).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn get_proposal(&self, id: i64) -> StorageResult<Option<ProposalRow>> {
        catalogue::postgres::proposal(&mut *self.pool.acquire().await?, id).await
    }

    async fn list_proposals(&self, status: Option<ProposalStatus>) -> StorageResult<Vec<ProposalRow>> {
        catalogue::postgres::proposals(&mut *self.pool.acquire().await?, status).await
    }

    async fn decide_proposal(
        &self,
        id: i64,
        accept: bool,
        reason: Option<&str>,
        at: i64,
    ) -> StorageResult<Decided> {
        let mut tx = self.pool.begin().await?;
        let decided = catalogue::postgres::decide(&mut tx, id, accept, reason, at).await?;
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
        let mut tx = self.pool.begin().await?;
        // Submissions store results of `from` under a key-share lock of its row (their
        // foreign key). Locking it first makes a racing submission either finish before
        // the merge, whose results then move with the others, or wait for it and find
        // the drive gone (`StorageError::is_drive_gone`, identified again by the server);
        // without the lock the merge's own delete failed on a result stored meanwhile.
        sqlx::query("SELECT id FROM drives WHERE id = $1 FOR UPDATE").bind(from).execute(&mut *tx).await?;
        // The summary's locks of both drives before `into`'s row is written: a submission
        // to `into` holds its lock and then writes that row's result count, so taking
        // them the other way round would wait on each other.
        let (from_id, into_id) = (from.to_string(), into.to_string());
        summary::postgres::lock_drives(&mut tx, &[&from_id, &into_id]).await?;
        let merged = catalogue::postgres::merge(&mut tx, from, into, reason, at).await?;
        if let Merged::Moved(_) = merged {
            summary::postgres::refresh_summaries_for(&mut tx, &[from.to_string(), into.to_string()]).await?;
            tx.commit().await?;
            self.drives.forget(from);
            self.drives.forget(into);
        }
        Ok(merged)
    }

    async fn catalogue_history(&self, drive_id: Option<&str>) -> StorageResult<Vec<CatalogueChange>> {
        catalogue::postgres::history(&mut *self.pool.acquire().await?, drive_id).await
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
        summary::postgres::pools_for_drives(&self.pool, ids).await
    }

    async fn pools_with_quantiles(&self, ids: &[String]) -> StorageResult<Vec<super::PoolWithQuantiles>> {
        summary::postgres::pools_with_quantiles(&self.pool, ids).await
    }

    async fn refresh_effects(&self, max_drives: usize) -> StorageResult<usize> {
        super::effects::postgres::refresh(&self.pool, &self.pool, max_drives).await
    }

    async fn combine_effects(&self) -> StorageResult<usize> {
        super::effects::postgres::combine_touched(&self.pool).await
    }

    async fn effects(&self, factor: Option<&str>) -> StorageResult<super::effects::EffectsSnapshot> {
        super::effects::postgres::snapshot(&self.pool, factor).await
    }

    async fn effect_drives(
        &self,
        key: &super::effects::EffectKey,
    ) -> StorageResult<Vec<super::effects::EffectDrive>> {
        super::effects::postgres::drives_of(&self.pool, key).await
    }
}
