-- The combined effects whose drives' effects changed since they were combined
-- (store/src/effects.rs): a refresh of a drive marks the effects it touched here, in its
-- transaction, and the combination of every marked effect runs apart, once for many
-- drives (combining reads every drive's unit of an effect: once per drive was the
-- first build's whole cost at 1,000,000 results).
CREATE TABLE effects_touched (
    factor  TEXT NOT NULL,
    value_a TEXT NOT NULL,
    value_b TEXT NOT NULL,
    test    TEXT NOT NULL,
    figure  TEXT NOT NULL,
    PRIMARY KEY (factor, value_a, value_b, test, figure)
);
