-- The twin of PostgreSQL's 0017. What the drives index and the leaderboards read, kept
-- with the compare summary (`test_samples`) in the same transaction as every change
-- (store/src/summary.rs), so that neither decodes every pool of the catalogue per
-- request (at 100,000 drives that was 130-540 ms a request).
--
-- A drive's visible results, the sum of its pools' counts (a result is in one pool).
ALTER TABLE drives ADD COLUMN result_count INTEGER NOT NULL DEFAULT 0;
UPDATE drives SET result_count =
    (SELECT COUNT(*) FROM results r WHERE r.drive_sku = drives.id AND r.hidden = FALSE);
-- The index a page at a time in name order (either way), and sorted by results, most or
-- fewest first, ties in name order.
DROP INDEX drives_by_name;
CREATE INDEX drives_by_name ON drives (vendor, model, capacity_gb, id);
CREATE INDEX drives_by_most_results ON drives (result_count DESC, vendor, model, capacity_gb, id);
CREATE INDEX drives_by_fewest_results ON drives (result_count, vendor, model, capacity_gb, id);

-- Per pool and test (`TestKey::id`), the median MB/s and its count: one line of a
-- leaderboard. Filled when the summary is rebuilt (its layout mark changed with this).
CREATE TABLE pool_figures (
    drive_sku   TEXT NOT NULL,
    pool        TEXT NOT NULL,
    test        TEXT NOT NULL,
    is_array    INTEGER NOT NULL, -- 1: the pool's platform is a RAID set of the drive
    median_mbps REAL NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (drive_sku, pool, test)
);
-- A leaderboard: one test's lines, fastest first (ties by drive and pool); apart, the
-- lines of 3 results or more (the leaderboards' default floor), which a default board
-- reads without passing the thin lines, most of a catalogue's.
CREATE INDEX pool_figures_ranked ON pool_figures (test, is_array, median_mbps DESC, drive_sku, pool);
CREATE INDEX pool_figures_ranked_3 ON pool_figures (test, is_array, median_mbps DESC, drive_sku, pool)
    WHERE n >= 3;
-- Its "left out" count at that floor: the lines of fewer than 3 results.
CREATE INDEX pool_figures_thin ON pool_figures (test, n) WHERE n < 3;
