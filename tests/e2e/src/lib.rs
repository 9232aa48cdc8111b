//! See tests/site/main.rs: the site in headless Chromium against `ssdbase serve`.
