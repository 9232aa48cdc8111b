-- SSDBase schema, PostgreSQL. Times are unix seconds (UTC); JSON is stored as text
-- so that both backends hand the same strings to serde.

CREATE TABLE app_meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

-- The catalogue: one row per orderable drive (a model at one capacity).
CREATE TABLE drives (
    id          TEXT PRIMARY KEY NOT NULL,
    vendor      TEXT NOT NULL,
    model       TEXT NOT NULL,
    part_number TEXT,
    capacity_gb BIGINT NOT NULL,
    controller  TEXT,
    spec        TEXT NOT NULL -- the whole DriveSku as JSON
);
CREATE INDEX drives_by_name ON drives (vendor, model, capacity_gb);

-- What a client uploaded, byte for byte.
CREATE TABLE submissions (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    content_hash    TEXT NOT NULL UNIQUE, -- sha256, hex
    body            BYTEA NOT NULL,
    format          TEXT,
    edit_token_hash TEXT NOT NULL,        -- sha256 of the secret edit token, hex
    client          TEXT,
    created_at      BIGINT NOT NULL
);

-- One tool run with its tags; the columns worth filtering are copied out of the JSON.
CREATE TABLE results (
    id                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    submission_id       BIGINT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    ordinal             BIGINT NOT NULL,
    created_at          BIGINT NOT NULL,
    hidden              BOOLEAN NOT NULL DEFAULT FALSE,
    drive_sku           TEXT REFERENCES drives (id),
    drive_vendor        TEXT,
    drive_model         TEXT,
    drive_part_number   TEXT,
    drive_capacity_gb   BIGINT,
    controller          TEXT,
    controller_stepping TEXT,
    nand_vendor         TEXT,
    firmware            TEXT,
    chipset             TEXT,
    storage_controller  TEXT,
    driver              TEXT,
    mode                TEXT,
    link                TEXT,
    host_link           TEXT,
    raid_level          BIGINT,
    raid_members        BIGINT,
    os                  TEXT,
    filesystem          TEXT,
    tool                TEXT NOT NULL,
    tool_version        TEXT,
    family              TEXT NOT NULL,
    data_pattern        TEXT,
    test_size_bytes     BIGINT,
    source              TEXT,
    tags                TEXT NOT NULL, -- Tags as JSON
    result              TEXT NOT NULL, -- BenchResult as JSON (the public result format)
    flags               TEXT NOT NULL  -- analysis flags as JSON
);
CREATE INDEX results_by_submission ON results (submission_id, ordinal);
CREATE INDEX results_by_drive ON results (drive_sku, hidden, id);
CREATE INDEX results_by_model ON results (drive_vendor, drive_model, drive_capacity_gb);
CREATE INDEX results_by_tool ON results (tool, tool_version);
CREATE INDEX results_by_chipset ON results (chipset);
CREATE INDEX results_by_controller ON results (controller);

-- One measured number per row, keyed by the canonical test descriptor (TestKey).
CREATE TABLE metrics (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    result_id        BIGINT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    ordinal          BIGINT NOT NULL,
    label            TEXT NOT NULL,
    family           TEXT NOT NULL,
    access           TEXT NOT NULL,
    block_size       BIGINT NOT NULL,
    queue_depth      BIGINT NOT NULL,
    threads          BIGINT NOT NULL,
    op               TEXT NOT NULL,
    mix_read_percent BIGINT,
    stat             TEXT,
    mbps             DOUBLE PRECISION,
    iops             DOUBLE PRECISION,
    latency_us       DOUBLE PRECISION
);
CREATE INDEX metrics_by_result ON metrics (result_id, ordinal);
CREATE INDEX metrics_by_test ON metrics (family, access, block_size, queue_depth, threads, op, result_id);
