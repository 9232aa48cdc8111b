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
    /// sha256 of the secret key the uploader gets, hex: the only way to the job.
    pub key_hash: String,
    /// The uploader's address, for the cap on one client's waiting jobs.
    pub client: Option<String>,
    /// sha256 of `image`, hex.
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
    /// Queues an image as a job of its own (the same image uploaded twice is two jobs:
    /// an upload reveals nothing about anyone else's); returns its id.
    async fn enqueue_ocr(&self, job: &NewOcrJob) -> StorageResult<i64>;

    /// Takes the oldest queued job, or a running one whose lease expired, and leases it
    /// to the caller until `now + lease_secs`.
    async fn claim_ocr(&self, now: i64, lease_secs: i64) -> StorageResult<Option<ClaimedJob>>;

    /// Records progress and renews the lease of a running job.
    async fn ocr_progress(&self, id: i64, progress: f64, stage: &str, lease_until: i64) -> StorageResult<()>;

    /// Ends a running job with its recognition (JSON) or an error message.
    async fn finish_ocr(&self, id: i64, outcome: Result<String, String>, now: i64) -> StorageResult<()>;

    /// The job whose key hashes to `key_hash` (its sequential id finds nothing).
    async fn get_ocr(&self, key_hash: &str) -> StorageResult<Option<OcrJobRow>>;

    /// How many jobs wait for a worker.
    async fn queued_ocr_jobs(&self) -> StorageResult<i64>;

    /// How many of `client`'s jobs wait or run.
    async fn pending_ocr_jobs_of(&self, client: &str) -> StorageResult<i64>;

    /// The uploaded image of the job whose key hashes to `key_hash`, with its media type.
    async fn ocr_image(&self, key_hash: &str) -> StorageResult<Option<(String, Vec<u8>)>>;

    /// Records that `submission_id` was published from job `id`: the retention sweep
    /// keeps it, and deleting the submission deletes it.
    async fn mark_ocr_published(&self, id: i64, submission_id: i64) -> StorageResult<()>;

    /// Deletes every unpublished job created before `before` (unix seconds), its image
    /// with it; returns how many.
    async fn sweep_unpublished_ocr(&self, before: i64) -> StorageResult<u64>;
}

const INSERT: &str = "INSERT INTO ocr_jobs (key_hash, client, content_hash, media_type, image, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";
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
     FROM ocr_jobs j WHERE key_hash = $1";
const QUEUED: &str = "SELECT COUNT(*) FROM ocr_jobs WHERE status = 'queued'";
const PENDING_OF: &str =
    "SELECT COUNT(*) FROM ocr_jobs WHERE client = $1 AND status IN ('queued', 'running')";
const IMAGE: &str = "SELECT media_type, image FROM ocr_jobs WHERE key_hash = $1";
const PUBLISHED: &str = "UPDATE ocr_jobs SET submission_id = $1 WHERE id = $2";
const SWEEP: &str = "DELETE FROM ocr_jobs WHERE submission_id IS NULL AND created_at < $1";
/// The jobs a deleted submission was published from go with it (bind its id).
pub(crate) const DELETE_JOBS_OF_SUBMISSION: &str = "DELETE FROM ocr_jobs WHERE submission_id = $1";

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
            async fn enqueue_ocr(&self, job: &NewOcrJob) -> StorageResult<i64> {
                let row = sqlx::query(INSERT)
                    .bind(&job.key_hash)
                    .bind(&job.client)
                    .bind(&job.content_hash)
                    .bind(&job.media_type)
                    .bind(&job.image)
                    .bind(job.created_at)
                    .fetch_one(&self.$writer)
                    .await?;
                Ok(row.try_get(0)?)
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

            async fn get_ocr(&self, key_hash: &str) -> StorageResult<Option<OcrJobRow>> {
                let Some(r) = sqlx::query(GET).bind(key_hash).fetch_optional(&self.pool).await? else {
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

            async fn pending_ocr_jobs_of(&self, client: &str) -> StorageResult<i64> {
                Ok(sqlx::query(PENDING_OF).bind(client).fetch_one(&self.pool).await?.try_get(0)?)
            }

            async fn ocr_image(&self, key_hash: &str) -> StorageResult<Option<(String, Vec<u8>)>> {
                let row = sqlx::query(IMAGE).bind(key_hash).fetch_optional(&self.pool).await?;
                row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
            }

            async fn mark_ocr_published(&self, id: i64, submission_id: i64) -> StorageResult<()> {
                sqlx::query(PUBLISHED).bind(submission_id).bind(id).execute(&self.$writer).await?;
                Ok(())
            }

            async fn sweep_unpublished_ocr(&self, before: i64) -> StorageResult<u64> {
                Ok(sqlx::query(SWEEP).bind(before).execute(&self.$writer).await?.rows_affected())
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
        for (sql, params) in [
            (INSERT, 6),
            (PROGRESS, 4),
            (FINISH, 5),
            (GET, 1),
            (QUEUED, 0),
            (PENDING_OF, 1),
            (IMAGE, 1),
            (PUBLISHED, 2),
            (SWEEP, 1),
            (DELETE_JOBS_OF_SUBMISSION, 1),
        ] {
            assert_numbered(sql, params);
        }
    }

    /// SQLite's queue writes take its one writer connection, as every SQLite write does:
    /// while another holds it they wait their turn, and reads still answer.
    #[tokio::test]
    async fn sqlite_queue_writes_go_through_the_writer() {
        let dir = tempfile::Builder::new().prefix("ssdbase-jobs-").tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("queue.sqlite").display());
        let storage = SqliteStorage::connect(&url).await.unwrap();
        let job = NewOcrJob {
            key_hash: "k1".into(),
            client: None,
            content_hash: "ab".into(),
            media_type: "image/png".into(),
            image: vec![1, 2, 3],
            created_at: 0,
        };
        let id = storage.enqueue_ocr(&job).await.unwrap();

        let held = storage.writer.acquire().await.unwrap();
        let waits = |done: Result<(), tokio::time::error::Elapsed>| assert!(done.is_err(), "did not wait");
        let a_while = std::time::Duration::from_millis(200);
        let other = NewOcrJob { key_hash: "k2".into(), ..job.clone() };
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
        assert_eq!(storage.get_ocr("k1").await.unwrap().unwrap().status, JobStatus::Queued);
        assert!(storage.ocr_image("k1").await.unwrap().is_some());
        drop(held);

        assert_eq!(storage.claim_ocr(1, 60).await.unwrap().unwrap().id, id);
        storage.finish_ocr(id, Ok("{}".into()), 2).await.unwrap();
        assert_eq!(storage.get_ocr("k1").await.unwrap().unwrap().status, JobStatus::Done);
        drop(storage);
    }
}
