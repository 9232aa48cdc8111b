//! See tests/site.rs: the site in headless Chromium against `ssdbase serve`.
