-- Drive identity (bench::identity): every key a drive is known under (its name, part
-- numbers, the model strings operating systems report, aliases), community drives
-- beside the reviewed catalogue, and how each result's drive was identified.
-- The keys are derived from the drives' JSON and rebuilt at start-up when the key rules
-- change (app_meta 'drive_keys'), so this migration leaves the table empty.
CREATE TABLE drive_aliases (
    key      TEXT NOT NULL, -- "n:vendor|model|gb" or "p:compact"
    drive_id TEXT NOT NULL REFERENCES drives (id) ON DELETE CASCADE,
    PRIMARY KEY (key, drive_id)
);
CREATE INDEX drive_aliases_by_drive ON drive_aliases (drive_id);

-- False for a drive a submission created (bench::DriveSku::reviewed).
ALTER TABLE drives ADD COLUMN reviewed INTEGER NOT NULL DEFAULT 1;

-- bench::DriveMatch, the FIELDS entry identified_by.
ALTER TABLE results ADD COLUMN drive_identified_by TEXT;
