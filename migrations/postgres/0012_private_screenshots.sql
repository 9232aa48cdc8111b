-- Screenshots stay private until published (issue 31). A job is found by the hash of the
-- secret key its uploader got (`key_hash`), never by its sequential id; the same image
-- uploaded twice is two jobs, so that an upload reveals nothing about anyone else's;
-- `client` is the uploader's address for the per-client cap on waiting jobs; and
-- `submission_id` is the submission published from the job (NULL: unpublished, deleted
-- by the retention sweep). Jobs from before have no key: they keep an unmatchable
-- `none:ID` and leave with the sweep.
ALTER TABLE ocr_jobs DROP CONSTRAINT ocr_jobs_content_hash_key;
ALTER TABLE ocr_jobs ADD COLUMN key_hash TEXT;
UPDATE ocr_jobs SET key_hash = 'none:' || id;
ALTER TABLE ocr_jobs ALTER COLUMN key_hash SET NOT NULL;
ALTER TABLE ocr_jobs ADD CONSTRAINT ocr_jobs_key_hash_key UNIQUE (key_hash);
ALTER TABLE ocr_jobs ADD COLUMN client TEXT;
ALTER TABLE ocr_jobs ADD COLUMN submission_id BIGINT;
CREATE INDEX ocr_jobs_client ON ocr_jobs (client, status);
CREATE INDEX ocr_jobs_unpublished ON ocr_jobs (created_at) WHERE submission_id IS NULL;
CREATE INDEX ocr_jobs_submission ON ocr_jobs (submission_id);
