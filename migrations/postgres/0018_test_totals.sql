-- The twin of SQLite's 0018. Per test, what the leaderboards' test picker shows: how
-- many drives have a line in it, how many lines have 3 results or more (a default
-- board's lines) and the results of its lines, as rows of changes that add up to it.
-- Each change to a drive's lines appends its difference in the same transaction (never
-- an update of a shared row, which two writers could take in opposite orders), and a
-- writer folds them into one row per test once there are a few thousand
-- (store/src/summary.rs). The list is then a sum of a few thousand rows instead of a
-- grouping of every line (1.2 s at 100,000 drives on SQLite, paid by every leaderboard
-- page).
CREATE TABLE test_total_changes (
    test    TEXT NOT NULL,
    drives  BIGINT NOT NULL,
    ranked  BIGINT NOT NULL,
    results BIGINT NOT NULL
);
INSERT INTO test_total_changes (test, drives, ranked, results)
    SELECT test, COUNT(DISTINCT drive_sku), SUM(CASE WHEN n >= 3 THEN 1 ELSE 0 END), SUM(n)
    FROM pool_figures GROUP BY test;
