-- The twin of SQLite's 0020. Each test's totals also count its lines, so
-- that a default leaderboard's count of the lines it leaves out (fewer than 3 results)
-- is its lines less its ranked ones, read from the totals, instead of a count of its
-- thin lines (tens of thousands per test at 100,000 drives). The totals are grouped again
-- from the lines, as one change row per test.
ALTER TABLE test_total_changes ADD COLUMN lines BIGINT NOT NULL DEFAULT 0;
DELETE FROM test_total_changes;
INSERT INTO test_total_changes (test, drives, lines, ranked, results)
    SELECT test, COUNT(DISTINCT drive_sku), COUNT(*), SUM(CASE WHEN n >= 3 THEN 1 ELSE 0 END), SUM(n)
    FROM pool_figures GROUP BY test;
-- A board reads one test's rows.
CREATE INDEX test_total_changes_by_test ON test_total_changes (test);
