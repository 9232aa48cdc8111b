-- The twin of SQLite's 0023. Drive search as people type: each drive's names, part
-- numbers, line names and controller as one folded text (`bench::identity::search_text`),
-- indexed by pg_trgm (a trusted extension: a database's owner may create it), whose GIN
-- index answers LIKE '%word%' for words of three characters or more. The words of every
-- text are kept apart, trigram-indexed too, to correct one typo of a query's word. Both
-- are filled from the drives by the start-up that rebuilds the drive keys
-- (`bench::identity::LAYOUT` changed with this).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE drive_search (
    drive_id TEXT PRIMARY KEY REFERENCES drives (id) ON DELETE CASCADE,
    body     TEXT NOT NULL
);
CREATE INDEX drive_search_body ON drive_search USING gin (body gin_trgm_ops);
CREATE TABLE drive_search_words (word TEXT PRIMARY KEY);
CREATE INDEX drive_search_words_trgm ON drive_search_words USING gin (word gin_trgm_ops);
