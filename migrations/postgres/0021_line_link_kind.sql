-- The twin of SQLite's 0021. Each leaderboard line holds its drive's link kind
-- (`drives.filter_link_kind`: sata, pcie, usb), so that a board of one kind reads that
-- kind's lines fastest first from their own index instead of reading down the whole
-- ranking to test each line's drive (SATA lines rank last: 67 ms for 50 of them at
-- 1,000,000 results on SQLite). Written with the lines (`summary::figure_rows`), again
-- when a drive's interface changes (`sql::SET_LINE_KIND`), and for the lines already
-- stored at start-up (`catalogue::fill_filters_if_stale`).
ALTER TABLE pool_figures ADD COLUMN link_kind TEXT;
CREATE INDEX pool_figures_by_link_kind ON pool_figures
    (test, link_kind, is_array, median_mbps DESC, drive_sku, pool, n);
-- A board's count of the thin lines it leaves out, of one kind or of drives joined,
-- from this index alone.
DROP INDEX pool_figures_thin;
CREATE INDEX pool_figures_thin ON pool_figures (test, link_kind, n, drive_sku) WHERE n < 3;
