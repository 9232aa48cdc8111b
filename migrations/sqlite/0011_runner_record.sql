-- How `ssdbase bench` says it measured an upload's result (api_types::RunnerRecord as
-- JSON): runner and fio versions, the fio job of each test, the probed facts with where
-- each was read. NULL for every upload the runner did not send.
ALTER TABLE submissions ADD COLUMN runner TEXT;
