-- Screenshots stay private until published (issue 31). A job is found by the hash of the
-- secret key its uploader got (`key_hash`), never by its sequential id; the same image
-- uploaded twice is two jobs, so that an upload reveals nothing about anyone else's;
-- `client` is the uploader's address for the per-client cap on waiting jobs; and
-- `submission_id` is the submission published from the job (NULL: unpublished, deleted
-- by the retention sweep). Jobs from before have no key: they keep an unmatchable
-- `none:ID` and leave with the sweep.
-- SQLite cannot drop the old UNIQUE on content_hash: the table is rebuilt.
CREATE TABLE ocr_jobs_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    key_hash      TEXT NOT NULL UNIQUE, -- sha256 of the uploader's job key, hex
    client        TEXT,                 -- the uploader's IP address
    submission_id INTEGER,              -- the submission published from it
    content_hash  TEXT NOT NULL,        -- sha256 of image, hex
    media_type    TEXT NOT NULL,
    image         BLOB NOT NULL,
    status        TEXT NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued', 'running', 'done', 'failed')),
    stage         TEXT,
    progress      REAL NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    lease_until   INTEGER,
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    result        TEXT,
    error         TEXT
);
INSERT INTO ocr_jobs_new (id, key_hash, content_hash, media_type, image, status, stage, progress,
    attempts, lease_until, created_at, finished_at, result, error)
SELECT id, 'none:' || id, content_hash, media_type, image, status, stage, progress,
    attempts, lease_until, created_at, finished_at, result, error FROM ocr_jobs;
DROP TABLE ocr_jobs;
ALTER TABLE ocr_jobs_new RENAME TO ocr_jobs;
CREATE INDEX ocr_jobs_pending ON ocr_jobs (status, id);
CREATE INDEX ocr_jobs_client ON ocr_jobs (client, status);
CREATE INDEX ocr_jobs_unpublished ON ocr_jobs (created_at) WHERE submission_id IS NULL;
CREATE INDEX ocr_jobs_submission ON ocr_jobs (submission_id);
