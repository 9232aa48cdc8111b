-- Moderation and editing (issue 3): why a result is hidden, and a log of every
-- moderator action. SQLite twin of postgres/0002_moderation.sql.

ALTER TABLE results ADD COLUMN hidden_reason TEXT;
ALTER TABLE results ADD COLUMN hidden_at INTEGER;

-- Who did what to which result, and why. Kept when the result is deleted (no foreign
-- key), so a moderator can still see what happened to it.
CREATE TABLE moderation_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    result_id  INTEGER NOT NULL,
    action     TEXT NOT NULL, -- hide | restore | edit | delete
    actor      TEXT NOT NULL, -- admin | owner
    reason     TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX moderation_log_by_result ON moderation_log (result_id, id);
