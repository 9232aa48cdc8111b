//! The names tests and tool families go by in URLs.

mod common;

use bench::seeds::seed_dataset;
use bench::ToolFamily;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn a_tool_familys_id_is_its_json_name() {
    for f in [
        ToolFamily::CdmNative,
        ToolFamily::CdmDiskspd,
        ToolFamily::Fio,
        ToolFamily::Orion,
        ToolFamily::AsSsd,
        ToolFamily::HdTune,
        ToolFamily::Atto,
        ToolFamily::FioBuffered,
    ] {
        assert_eq!(serde_json::to_value(f).unwrap(), f.id(), "{f:?}");
    }
}

/// Every test of the seed dataset and of the real corpus (every tool family, CDM 2.x to
/// 9.x with mixes and profiles, HD Tune's min/max/avg/burst) has an id of its own.
#[test]
fn no_two_tests_share_an_id() {
    let mut results: Vec<bench::BenchResult> =
        seed_dataset().unwrap().results.into_iter().map(|r| r.result).collect();
    let mut files = vec![common::corpus()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if let Ok(parsed) = bench::parse_bytes(&std::fs::read(&path).unwrap(), None) {
            results.extend(parsed);
        }
    }
    let mut ids: BTreeMap<String, BTreeSet<bench::TestKey>> = BTreeMap::new();
    for r in &results {
        for (k, _) in r.keyed_metrics() {
            ids.entry(k.id()).or_default().insert(k);
        }
    }
    assert!(ids.len() > 40, "{} tests", ids.len());
    for (id, keys) in &ids {
        assert_eq!(keys.len(), 1, "{id} names {keys:?}");
    }
}
