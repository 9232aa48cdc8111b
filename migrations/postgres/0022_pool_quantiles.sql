-- Each pool's tests with their values thinned to `bench::difference::DIFFERENCE_POINTS`
-- order statistics per figure (the `samples` layout): all that compare's differences
-- read, so that a compare of popular drives no longer fetches and decodes their every
-- value (megabytes at 1,000,000 results). Filled by the summary build its new layout
-- (`summary::FORMAT` v6) starts at the first start-up after this migration; uncompressed
-- and out of line like `summaries`.
ALTER TABLE test_samples ADD COLUMN quantiles BYTEA NOT NULL DEFAULT ''::bytea;
ALTER TABLE test_samples ALTER COLUMN quantiles SET STORAGE EXTERNAL;
