-- Per-drive sample summary for compare (server/src/storage/summary.rs): per catalogue
-- drive and pool (platform group + data pattern, as JSON), per test key the visible
-- results' ids, their precomputed aggregates and every value (sorted), in binary.
-- Derived from results and metrics; the storage layer keeps it in step in the same
-- transaction as every change, and builds it on start-up when app_meta has no
-- 'test_samples' mark of its layout (as after this migration on a database that
-- already holds results).
CREATE TABLE test_samples (
    drive_sku    TEXT NOT NULL,
    pool         TEXT NOT NULL,
    result_count INTEGER NOT NULL,
    summaries    BLOB NOT NULL, -- what compare reads: per test ids and median/MAD/...
    samples      BLOB NOT NULL, -- every value, sorted, for keeping the summaries exact
    PRIMARY KEY (drive_sku, pool)
);

-- Browse (GET /api/v1/results, newest first): an equality filter on a common tag plus
-- `hidden = FALSE`, then the id order, so that a page is a short backward walk of one
-- index instead of sorting every match (at 1,000,000 results a vendor filter matched
-- ~80,000 rows and took seconds). They replace 0001's single-column indexes.
DROP INDEX results_by_chipset;
DROP INDEX results_by_controller;
DROP INDEX results_by_tool;
CREATE INDEX results_by_chipset ON results (chipset, hidden, id);
CREATE INDEX results_by_controller ON results (controller, hidden, id);
CREATE INDEX results_by_tool ON results (tool, hidden, id);
CREATE INDEX results_by_vendor ON results (drive_vendor, hidden, id);
