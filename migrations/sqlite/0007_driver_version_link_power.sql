-- Two tags people filter and group by (bench::FIELDS): the kernel or driver version, and
-- the link power management state (PCIe ASPM or SATA LPM) the drive was measured with.
-- Older results did not record them: NULL, as their tags JSON has neither.
ALTER TABLE results ADD COLUMN driver_version TEXT;
ALTER TABLE results ADD COLUMN link_power TEXT;
