-- Factor effects (issue 34; store/src/effects.rs): derived from results, kept in step
-- with them like test_samples. effects_stale names the drives whose results changed
-- since their effects were computed (marked in the changing transaction; the
-- generation lets a refresh clear only the mark it saw). effect_units holds each
-- drive's effect per factor, pair of values (value_a < value_b), test (TestKey JSON)
-- and figure; effect_left_out its setting pairs that differ in more than one factor;
-- effects the drives combined. Every drive is marked stale on start-up when app_meta
-- has no 'effects' mark of the current factor list.
CREATE TABLE effects_stale (
    drive_sku  TEXT PRIMARY KEY,
    generation BIGINT NOT NULL
);
CREATE TABLE effect_units (
    factor    TEXT NOT NULL,
    value_a   TEXT NOT NULL,
    value_b   TEXT NOT NULL,
    test      TEXT NOT NULL,
    figure    TEXT NOT NULL,
    drive_sku TEXT NOT NULL,
    effect    TEXT NOT NULL, -- bench::effects::Effect as JSON
    PRIMARY KEY (factor, value_a, value_b, test, figure, drive_sku)
);
CREATE INDEX effect_units_by_drive ON effect_units (drive_sku);
CREATE TABLE effect_left_out (
    drive_sku TEXT NOT NULL,
    factor    TEXT NOT NULL,
    pairs     BIGINT NOT NULL,
    PRIMARY KEY (drive_sku, factor)
);
CREATE TABLE effects (
    factor  TEXT NOT NULL,
    value_a TEXT NOT NULL,
    value_b TEXT NOT NULL,
    test    TEXT NOT NULL,
    figure  TEXT NOT NULL,
    effect  TEXT NOT NULL, -- the drives combined, bench::effects::Effect as JSON
    PRIMARY KEY (factor, value_a, value_b, test, figure)
);
