-- The twin of PostgreSQL's 0023. Drive search as people type (`store::catalogue`
-- `search_text`): each drive's names, part numbers, line names and controller as one
-- folded text (`bench::identity::search_text`), indexed by FTS5's trigram tokenizer,
-- which matches any substring of three characters or more: a word's prefix ("C300",
-- "wildfire"), a part number in any spacing (its compact form is in the text). The
-- words of every text are kept apart, trigram-indexed too, to correct one typo of a
-- query's word. Both are filled from the drives by the start-up that rebuilds the
-- drive keys (`bench::identity::LAYOUT` changed with this).
CREATE TABLE drive_search (
    drive_id TEXT PRIMARY KEY REFERENCES drives (id) ON DELETE CASCADE,
    body     TEXT NOT NULL
);
CREATE VIRTUAL TABLE drive_search_fts USING fts5 (
    body, content = 'drive_search', content_rowid = 'rowid', tokenize = 'trigram'
);
CREATE TRIGGER drive_search_insert AFTER INSERT ON drive_search BEGIN
    INSERT INTO drive_search_fts (rowid, body) VALUES (new.rowid, new.body);
END;
CREATE TRIGGER drive_search_delete AFTER DELETE ON drive_search BEGIN
    INSERT INTO drive_search_fts (drive_search_fts, rowid, body) VALUES ('delete', old.rowid, old.body);
END;
CREATE TRIGGER drive_search_update AFTER UPDATE ON drive_search BEGIN
    INSERT INTO drive_search_fts (drive_search_fts, rowid, body) VALUES ('delete', old.rowid, old.body);
    INSERT INTO drive_search_fts (rowid, body) VALUES (new.rowid, new.body);
END;

CREATE TABLE drive_search_words (word TEXT PRIMARY KEY);
CREATE VIRTUAL TABLE drive_search_words_fts USING fts5 (
    word, content = 'drive_search_words', content_rowid = 'rowid', tokenize = 'trigram'
);
CREATE TRIGGER drive_search_words_insert AFTER INSERT ON drive_search_words BEGIN
    INSERT INTO drive_search_words_fts (rowid, word) VALUES (new.rowid, new.word);
END;
CREATE TRIGGER drive_search_words_delete AFTER DELETE ON drive_search_words BEGIN
    INSERT INTO drive_search_words_fts (drive_search_words_fts, rowid, word) VALUES ('delete', old.rowid, old.word);
END;

-- Drives in search rank order: a query that matches many drives walks them by rank and
-- stops at a page (`store::search::FEW_MATCHES`).
CREATE INDEX drives_by_rank ON drives (reviewed DESC, result_count DESC, id);
