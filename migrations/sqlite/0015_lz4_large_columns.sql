-- The twin of PostgreSQL's 0015 (large columns compressed with LZ4 there): SQLite stores
-- a value as written, uncompressed, so there is nothing to change here.
SELECT 1;
