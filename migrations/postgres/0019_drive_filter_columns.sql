-- The twin of SQLite's 0019. What the drives index's and leaderboards' filters
-- compare (`api_types::DriveFilter`), as columns of the drive written with it
-- (`sql::drive_params`), so that a filtered page is one statement joining the drives
-- instead of a filter over the decoded catalogue in the server (at 100,000 drives a
-- leaderboard of SATA drives read down the whole ranking: 0.2-0.6 s a request).
-- Lower-cased by Rust (`str::to_lowercase`), as the filter's values are; the interface
-- as its link id (`sata-6`) and kind (`sata`). Filled for the drives already stored at
-- start-up (`catalogue::fill_filters_if_stale`), since only Rust reads a link's id.
ALTER TABLE drives ADD COLUMN filter_vendor TEXT;
ALTER TABLE drives ADD COLUMN filter_link TEXT;
ALTER TABLE drives ADD COLUMN filter_link_kind TEXT;
ALTER TABLE drives ADD COLUMN filter_controller TEXT;
ALTER TABLE drives ADD COLUMN filter_nand TEXT;
-- A leaderboard line's drive tested without reading the drive's row (its JSON).
CREATE INDEX drives_filters ON drives
    (id, filter_link_kind, filter_link, filter_vendor, filter_controller, filter_nand, reviewed);
-- A filter's drives counted, and a page of them in name order, from one index each (a
-- count over the index above read every drive: 35-60 ms at 100,000 drives).
CREATE INDEX drives_by_link_kind ON drives (filter_link_kind, vendor, model, capacity_gb, id);
CREATE INDEX drives_by_link ON drives (filter_link, vendor, model, capacity_gb, id);
CREATE INDEX drives_by_vendor ON drives (filter_vendor, vendor, model, capacity_gb, id);
CREATE INDEX drives_by_controller ON drives (filter_controller, vendor, model, capacity_gb, id);
CREATE INDEX drives_by_nand ON drives (filter_nand, vendor, model, capacity_gb, id);
CREATE INDEX drives_by_reviewed ON drives (reviewed, vendor, model, capacity_gb, id);
-- A filtered board's count of thin lines tests each line's drive: the drive from the
-- index, not from each line's row (58 to 14 ms a count at 100,000 drives on SQLite).
DROP INDEX pool_figures_thin;
CREATE INDEX pool_figures_thin ON pool_figures (test, n, drive_sku) WHERE n < 3;
