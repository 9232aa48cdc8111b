-- Each pool's tests with their values thinned to `bench::difference::DIFFERENCE_POINTS`
-- order statistics per figure (the `samples` layout): all that compare's differences
-- read, so that a compare of popular drives no longer fetches and decodes their every
-- value. NULL where thinning keeps every value (most pools: their samples say the same)
-- and on rows written before, which compare reads their samples for (the same
-- differences); a pool gets it when it is next written. Uncompressed and out of line,
-- like `summaries`.
ALTER TABLE test_samples ADD COLUMN quantiles BYTEA;
ALTER TABLE test_samples ALTER COLUMN quantiles SET STORAGE EXTERNAL;
