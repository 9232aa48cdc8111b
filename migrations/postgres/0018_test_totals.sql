-- The twin of SQLite's 0018. Per test, what the leaderboards' test picker shows: how
-- many drives have a line in it, how many lines have 3 results or more (a default
-- board's lines) and the results of its lines. Kept with `pool_figures` in the same
-- transaction, by each changed drive's difference (store/src/summary.rs), so that the
-- list is a read of one row per test instead of a grouping of every line (0.4 s at
-- 100,000 drives on SQLite, paid by every leaderboard page).
CREATE TABLE test_totals (
    test    TEXT PRIMARY KEY,
    drives  BIGINT NOT NULL,
    ranked  BIGINT NOT NULL,
    results BIGINT NOT NULL
);
INSERT INTO test_totals (test, drives, ranked, results)
    SELECT test, COUNT(DISTINCT drive_sku), SUM(CASE WHEN n >= 3 THEN 1 ELSE 0 END), SUM(n)
    FROM pool_figures GROUP BY test;
