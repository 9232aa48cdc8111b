-- The twin of PostgreSQL's 0016. A result's burst figures beside it: the result without the points of its load sweeps
-- and without its series over time (`bench::curves::keep_burst_only`), as JSON, for the
-- results that have either; NULL when the result is its burst figures already, and in
-- rows stored before this column (readers fold those themselves, as before). A drive
-- page's lists read this rather than decode every point of every sweep: a 64-load sweep
-- is 64 metrics, decoded by each request that lists the drive's results.
ALTER TABLE results ADD COLUMN burst TEXT;
