-- Moderation and editing (issue 3): why a result is hidden, and a log of every
-- moderator action. PostgreSQL twin of sqlite/0002_moderation.sql.

ALTER TABLE results ADD COLUMN hidden_reason TEXT;
ALTER TABLE results ADD COLUMN hidden_at BIGINT;

-- Who did what to which result, and why. Kept when the result is deleted (no foreign
-- key), so a moderator can still see what happened to it.
CREATE TABLE moderation_log (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    result_id  BIGINT NOT NULL,
    action     TEXT NOT NULL, -- hide | restore | edit | delete
    actor      TEXT NOT NULL, -- admin | owner
    reason     TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX moderation_log_by_result ON moderation_log (result_id, id);
