//! The screenshot recognition queue, kept in the database (`ocr_jobs`): an upload is a
//! row before the client hears back, a worker claims a job with a lease and renews it
//! with every progress report, and a job whose lease ran out (its server was killed or
//! restarted) is claimed again. Nothing about the queue lives in a server's memory, so a
//! restart loses no job and several servers on one database share the work.

use super::{PgStorage, SqliteStorage, StorageResult};
use api_types::JobStatus;
use async_trait::async_trait;
use sqlx::Row;

/// An image to recognise.
#[derive(Debug, Clone)]
pub struct NewOcrJob {
    /// sha256 of `image`, hex: the same image uploaded twice is one job.
    pub content_hash: String,
    pub media_type: String,
    pub image: Vec<u8>,
    pub created_at: i64,
}

/// A job a worker now holds until `lease_until`.
#[derive(Debug, Clone)]
pub struct ClaimedJob {
    pub id: i64,
    pub image: Vec<u8>,
    /// How many times the job was claimed, this time included.
    pub attempts: i64,
}

/// The `status` column: the names the API uses too (`JobStatus`'s serde names).
fn status_from_db(s: &str) -> StorageResult<JobStatus> {
    super::sql::enum_from_name(s)
}

/// A job's row without the image: what the API's `api_types::OcrJob` is made from.
#[derive(Debug, Clone)]
pub struct OcrJobRow {
    pub id: i64,
    pub status: JobStatus,
    pub stage: Option<String>,
    /// 0 to 1.
    pub progress: f64,
    /// Jobs queued before this one, while it waits.
    pub queue_position: Option<i64>,
    pub attempts: i64,
    pub media_type: String,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    /// The recognition as JSON text, when done.
    pub result: Option<String>,
    pub error: Option<String>,
}

#[async_trait]
pub trait OcrJobs: Send + Sync {
    /// Queues an image; returns its job id and whether the job is new (false: the same
    /// image was queued before and that job is returned).
    async fn enqueue_ocr(&self, job: &NewOcrJob) -> StorageResult<(i64, bool)>;

    /// Takes the oldest queued job, or a running one whose lease expired, and leases it
    /// to the caller until `now + lease_secs`.
    async fn claim_ocr(&self, now: i64, lease_secs: i64) -> StorageResult<Option<ClaimedJob>>;

    /// Records progress and renews the lease of a running job.
    async fn ocr_progress(&self, id: i64, progress: f64, stage: &str, lease_until: i64) -> StorageResult<()>;

    /// Ends a running job with its recognition (JSON) or an error message.
    async fn finish_ocr(&self, id: i64, outcome: Result<String, String>, now: i64) -> StorageResult<()>;

    async fn get_ocr(&self, id: i64) -> StorageResult<Option<OcrJobRow>>;

    /// How many jobs wait for a worker.
    async fn queued_ocr_jobs(&self) -> StorageResult<i64>;

    /// The uploaded image and its media type.
    async fn ocr_image(&self, id: i64) -> StorageResult<Option<(String, Vec<u8>)>>;
}

const INSERT: &str =
    "INSERT INTO ocr_jobs (content_hash, media_type, image, created_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (content_hash) DO NOTHING RETURNING id";
const BY_HASH: &str = "SELECT id FROM ocr_jobs WHERE content_hash = $1";
/// `{lock}` is empty for SQLite (one writer at a time already) and `FOR UPDATE SKIP
/// LOCKED` for PostgreSQL, so that concurrent workers never take the same job.
const CLAIM: &str = "UPDATE ocr_jobs SET status = 'running', lease_until = $1, attempts = attempts + 1, \
     stage = 'starting' WHERE id = (SELECT id FROM ocr_jobs \
     WHERE status = 'queued' OR (status = 'running' AND lease_until < $2) ORDER BY id LIMIT 1 {lock}) \
     RETURNING id, image, attempts";
const PROGRESS: &str =
    "UPDATE ocr_jobs SET progress = $1, stage = $2, lease_until = $3 WHERE id = $4 AND status = 'running'";
const FINISH: &str =
    "UPDATE ocr_jobs SET status = $1, result = $2, error = $3, finished_at = $4, progress = 1, \
     stage = NULL, lease_until = NULL WHERE id = $5 AND status = 'running'";
const GET: &str = "SELECT id, status, stage, progress, attempts, media_type, created_at, finished_at, \
     result, error, CASE WHEN status = 'queued' THEN \
     (SELECT COUNT(*) FROM ocr_jobs q WHERE q.status = 'queued' AND q.id < j.id) END AS queue_position \
     FROM ocr_jobs j WHERE id = $1";
const QUEUED: &str = "SELECT COUNT(*) FROM ocr_jobs WHERE status = 'queued'";
const IMAGE: &str = "SELECT media_type, image FROM ocr_jobs WHERE id = $1";

fn finish_params(outcome: Result<String, String>) -> (&'static str, Option<String>, Option<String>) {
    match outcome {
        Ok(result) => ("done", Some(result), None),
        Err(error) => ("failed", None, Some(error)),
    }
}

/// One implementation for both backends: the SQL differs only in the claim's row lock,
/// and rows decode the same way. Writes (enqueue, claim, progress, finish) go to
/// `$writer`, reads to `pool`: for SQLite its one writer connection and its readers (as
/// every SQLite write, so that they queue in order instead of in SQLite's busy handler),
/// for PostgreSQL its pool for both.
macro_rules! impl_ocr_jobs {
    ($storage:ty, $writer:ident, $lock:expr) => {
        #[async_trait]
        impl OcrJobs for $storage {
            async fn enqueue_ocr(&self, job: &NewOcrJob) -> StorageResult<(i64, bool)> {
                let inserted = sqlx::query(INSERT)
                    .bind(&job.content_hash)
                    .bind(&job.media_type)
                    .bind(&job.image)
                    .bind(job.created_at)
                    .fetch_optional(&self.$writer)
                    .await?;
                if let Some(row) = inserted {
                    return Ok((row.try_get(0)?, true));
                }
                let row = sqlx::query(BY_HASH).bind(&job.content_hash).fetch_one(&self.$writer).await?;
                Ok((row.try_get(0)?, false))
            }

            async fn claim_ocr(&self, now: i64, lease_secs: i64) -> StorageResult<Option<ClaimedJob>> {
                let sql = CLAIM.replace("{lock}", $lock);
                let row =
                    sqlx::query(&sql).bind(now + lease_secs).bind(now).fetch_optional(&self.$writer).await?;
                row.map(|r| {
                    Ok(ClaimedJob { id: r.try_get(0)?, image: r.try_get(1)?, attempts: r.try_get(2)? })
                })
                .transpose()
            }

            async fn ocr_progress(
                &self,
                id: i64,
                progress: f64,
                stage: &str,
                lease_until: i64,
            ) -> StorageResult<()> {
                sqlx::query(PROGRESS)
                    .bind(progress)
                    .bind(stage)
                    .bind(lease_until)
                    .bind(id)
                    .execute(&self.$writer)
                    .await?;
                Ok(())
            }

            async fn finish_ocr(
                &self,
                id: i64,
                outcome: Result<String, String>,
                now: i64,
            ) -> StorageResult<()> {
                let (status, result, error) = finish_params(outcome);
                sqlx::query(FINISH)
                    .bind(status)
                    .bind(result)
                    .bind(error)
                    .bind(now)
                    .bind(id)
                    .execute(&self.$writer)
                    .await?;
                Ok(())
            }

            async fn get_ocr(&self, id: i64) -> StorageResult<Option<OcrJobRow>> {
                let Some(r) = sqlx::query(GET).bind(id).fetch_optional(&self.pool).await? else {
                    return Ok(None);
                };
                Ok(Some(OcrJobRow {
                    id: r.try_get("id")?,
                    status: status_from_db(r.try_get("status")?)?,
                    stage: r.try_get("stage")?,
                    progress: r.try_get("progress")?,
                    attempts: r.try_get("attempts")?,
                    media_type: r.try_get("media_type")?,
                    created_at: r.try_get("created_at")?,
                    finished_at: r.try_get("finished_at")?,
                    result: r.try_get("result")?,
                    error: r.try_get("error")?,
                    queue_position: r.try_get("queue_position")?,
                }))
            }

            async fn queued_ocr_jobs(&self) -> StorageResult<i64> {
                Ok(sqlx::query(QUEUED).fetch_one(&self.pool).await?.try_get(0)?)
            }

            async fn ocr_image(&self, id: i64) -> StorageResult<Option<(String, Vec<u8>)>> {
                let row = sqlx::query(IMAGE).bind(id).fetch_optional(&self.pool).await?;
                row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
            }
        }
    };
}

impl_ocr_jobs!(SqliteStorage, writer, "");
impl_ocr_jobs!(PgStorage, pool, "FOR UPDATE SKIP LOCKED");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::assert_numbered;

    #[test]
    fn statements_are_numbered_for_their_parameters() {
        for lock in ["", "FOR UPDATE SKIP LOCKED"] {
            assert_numbered(&CLAIM.replace("{lock}", lock), 2);
        }
        for (sql, params) in
            [(INSERT, 4), (BY_HASH, 1), (PROGRESS, 4), (FINISH, 5), (GET, 1), (QUEUED, 0), (IMAGE, 1)]
        {
            assert_numbered(sql, params);
        }
    }

    /// SQLite's queue writes take its one writer connection, as every SQLite write does:
    /// while another holds it they wait their turn, and reads still answer.
    #[tokio::test]
    async fn sqlite_queue_writes_go_through_the_writer() {
        let dir = std::env::temp_dir().join(format!("ssdbase-jobs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("queue.sqlite").display());
        let storage = SqliteStorage::connect(&url).await.unwrap();
        let job = NewOcrJob {
            content_hash: "ab".into(),
            media_type: "image/png".into(),
            image: vec![1, 2, 3],
            created_at: 0,
        };
        let (id, new) = storage.enqueue_ocr(&job).await.unwrap();
        assert!(new);

        let held = storage.writer.acquire().await.unwrap();
        let waits = |done: Result<(), tokio::time::error::Elapsed>| assert!(done.is_err(), "did not wait");
        let a_while = std::time::Duration::from_millis(200);
        let other = NewOcrJob { content_hash: "cd".into(), ..job.clone() };
        waits(
            tokio::time::timeout(a_while, async { storage.enqueue_ocr(&other).await.map(drop).unwrap() })
                .await,
        );
        waits(
            tokio::time::timeout(a_while, async { storage.claim_ocr(1, 60).await.map(drop).unwrap() }).await,
        );
        waits(
            tokio::time::timeout(a_while, async { storage.ocr_progress(id, 0.5, "x", 9).await.unwrap() })
                .await,
        );
        let finish = storage.finish_ocr(id, Err("x".into()), 2);
        waits(tokio::time::timeout(a_while, async { finish.await.unwrap() }).await);
        assert_eq!(storage.queued_ocr_jobs().await.unwrap(), 1);
        assert_eq!(storage.get_ocr(id).await.unwrap().unwrap().status, JobStatus::Queued);
        assert!(storage.ocr_image(id).await.unwrap().is_some());
        drop(held);

        assert_eq!(storage.claim_ocr(1, 60).await.unwrap().unwrap().id, id);
        storage.finish_ocr(id, Ok("{}".into()), 2).await.unwrap();
        assert_eq!(storage.get_ocr(id).await.unwrap().unwrap().status, JobStatus::Done);
        drop(storage);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
