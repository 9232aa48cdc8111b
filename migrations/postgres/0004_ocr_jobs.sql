-- Screenshot recognition jobs: a durable queue in the database, so that a restart loses
-- no job and several servers on one database share the work.
CREATE TABLE ocr_jobs (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    content_hash TEXT NOT NULL UNIQUE, -- sha256 of image, hex: the same image is one job
    media_type   TEXT NOT NULL,        -- image/png, image/jpeg, ...
    image        BYTEA NOT NULL,        -- the upload byte for byte
    status       TEXT NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'running', 'done', 'failed')),
    stage        TEXT,                 -- what the worker is doing, for the progress bar
    progress     DOUBLE PRECISION NOT NULL DEFAULT 0,
    attempts     BIGINT NOT NULL DEFAULT 0,
    lease_until  BIGINT,              -- a running job whose lease ran out is taken again
    created_at   BIGINT NOT NULL,
    finished_at  BIGINT,
    result       TEXT,                 -- the recognition as JSON when done
    error        TEXT                  -- why it failed
);
CREATE INDEX ocr_jobs_pending ON ocr_jobs (status, id);
