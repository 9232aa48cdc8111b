//! The seed dataset: every measurement of the source articles in `../shared/seeds`,
//! transcribed with full tags, plus the rated specifications of the drives they test.
//! The server loads it into an empty database so a new user sees real comparisons.
//!
//! The data lives in `crates/bench/data/seeds/*.json` (one file per study) and is
//! compiled in, so it is available in the browser and on the server alike.

use crate::model::{DriveSku, Observation, TaggedResult};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A set of drives, results and observations, as shipped in the seed files and as
/// accepted by `ssdbase import`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Dataset {
    pub drives: Vec<DriveSku>,
    pub results: Vec<TaggedResult>,
    pub observations: Vec<Observation>,
}

/// The seed files, by name, compiled into the crate.
pub const SEED_FILES: &[(&str, &str)] = &[
    ("c300_m2s.json", include_str!("../data/seeds/c300_m2s.json")),
    ("wildfire_sf2281.json", include_str!("../data/seeds/wildfire_sf2281.json")),
    ("vertex_indilinx.json", include_str!("../data/seeds/vertex_indilinx.json")),
    ("m5pro.json", include_str!("../data/seeds/m5pro.json")),
];

/// The whole seed dataset, checked: every file parses, drive ids are unique and every
/// result that names a catalogue SKU names one that exists.
pub fn seed_dataset() -> Result<Dataset, String> {
    let mut all = Dataset::default();
    for (name, text) in SEED_FILES {
        let part: Dataset = serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))?;
        all.drives.extend(part.drives);
        all.results.extend(part.results);
        all.observations.extend(part.observations);
    }
    all.validate()?;
    Ok(all)
}

impl Dataset {
    /// Checks the dataset's internal references.
    pub fn validate(&self) -> Result<(), String> {
        let mut ids = HashSet::new();
        for d in &self.drives {
            if !ids.insert(d.id.as_str()) {
                return Err(format!("drive id {:?} is defined twice", d.id));
            }
        }
        let tags = self
            .results
            .iter()
            .map(|r| (&r.tags, r.source.as_deref()))
            .chain(self.observations.iter().map(|o| (&o.tags, o.source.as_deref())));
        for (t, source) in tags {
            if let Some(sku) = &t.drive.sku {
                if !ids.contains(sku.as_str()) {
                    return Err(format!("{}: unknown drive sku {sku:?}", source.unwrap_or("?")));
                }
            }
        }
        for r in &self.results {
            if r.result.metrics.is_empty() {
                return Err(format!("{}: a result without metrics", r.source.as_deref().unwrap_or("?")));
            }
        }
        Ok(())
    }

    /// Number of measured values (MB/s, IOPS and latency figures) in the results.
    pub fn measurement_count(&self) -> usize {
        self.results
            .iter()
            .flat_map(|r| &r.result.metrics)
            .map(|m| {
                usize::from(m.mbps.is_some())
                    + usize::from(m.iops.is_some())
                    + usize::from(m.latency_us.is_some())
            })
            .sum()
    }
}
