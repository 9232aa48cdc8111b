-- Where an upload's results came from when they were not a result file: a screenshot
-- read by the OCR queue, with the values a person corrected before publishing (JSON).
ALTER TABLE submissions ADD COLUMN provenance TEXT;
