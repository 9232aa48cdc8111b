-- Figures a source reports that are not one benchmark tool's result (bench::Observation):
-- bounds ("above 420 MB/s"), approximations ("about 170 MB/s"), figures whose test the
-- text leaves open (read or write not stated), practical copy tests. Shown on the drive
-- page of their drive (drive_sku) or, when they name only a model line (drive_vendor and
-- drive_model, no capacity), on the page of every capacity of that line; never aggregated.
-- content_hash (SHA-256 of body) makes a repeated import a no-op.
CREATE TABLE observations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    content_hash TEXT NOT NULL UNIQUE,
    drive_sku    TEXT REFERENCES drives (id),
    drive_vendor TEXT,
    drive_model  TEXT,
    body         TEXT NOT NULL -- the whole Observation as JSON
);
CREATE INDEX observations_by_drive ON observations (drive_sku, id);
CREATE INDEX observations_by_model_line ON observations (drive_vendor, drive_model, id);
