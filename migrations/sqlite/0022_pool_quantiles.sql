-- The twin of PostgreSQL's 0022. Each pool's tests with their values thinned to
-- `bench::difference::DIFFERENCE_POINTS` order statistics per figure (the `samples`
-- layout): all that compare's differences read, so that a compare of popular drives no
-- longer fetches and decodes their every value. Filled by the summary build its new
-- layout (`summary::FORMAT` v6) starts at the first start-up after this migration.
ALTER TABLE test_samples ADD COLUMN quantiles BLOB NOT NULL DEFAULT X'';
