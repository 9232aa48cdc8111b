//! `GET /api/v1/compare?drives=a,b,c`: per comparable test (equal `TestKey`), per drive,
//! the aggregates and the ids of every underlying result. A test that only some drives
//! have is listed with the others marked missing, never dropped and never matched to a
//! different test.

use super::drives::{drive_url, Aggregates, Samples};
use super::extract::QueryPairs;
use super::AppState;
use crate::error::{ApiError, ApiResult, ErrorItem};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use bench::TestKey;
use serde::Serialize;
use std::collections::BTreeMap;

pub fn router() -> Router<AppState> {
    Router::new().route("/compare", get(compare))
}

pub const MAX_DRIVES: usize = 12;

#[derive(Debug, Serialize)]
struct ComparedDrive {
    id: String,
    url: String,
    vendor: String,
    model: String,
    capacity_gb: u32,
}

#[derive(Debug, Serialize)]
struct DriveCell {
    drive: String,
    /// True when this drive has no result with this test.
    missing: bool,
    #[serde(flatten)]
    aggregates: Option<Aggregates>,
}

#[derive(Debug, Serialize)]
struct ComparedTest {
    key: TestKey,
    name: String,
    /// One entry per requested drive, in the order requested.
    drives: Vec<DriveCell>,
}

#[derive(Debug, Serialize)]
struct Comparison {
    drives: Vec<ComparedDrive>,
    tests: Vec<ComparedTest>,
}

async fn compare(
    State(state): State<AppState>,
    QueryPairs(pairs): QueryPairs,
) -> ApiResult<Json<Comparison>> {
    let mut ids: Vec<String> = Vec::new();
    for (name, value) in &pairs {
        if name != "drives" {
            return Err(ApiError::bad_request(
                format!("unknown parameter {name:?}; expected drives"),
                Some(name.clone()),
            ));
        }
        for id in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if !ids.iter().any(|i| i == id) {
                ids.push(id.to_string());
            }
        }
    }
    if ids.is_empty() || ids.len() > MAX_DRIVES {
        return Err(ApiError::bad_request(
            format!("drives must list 1 to {MAX_DRIVES} catalogue ids, comma-separated"),
            Some("drives".into()),
        ));
    }
    let mut drives = Vec::new();
    let mut unknown = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        match state.storage.get_drive(id).await? {
            Some(d) => drives.push(ComparedDrive {
                url: drive_url(&d.id),
                id: d.id,
                vendor: d.vendor,
                model: d.model,
                capacity_gb: d.capacity_gb,
            }),
            None => unknown.push(ErrorItem {
                detail: format!("no drive {id:?} in the catalogue"),
                pointer: Some(format!("drives[{i}]")),
            }),
        }
    }
    if !unknown.is_empty() {
        return Err(ApiError::NotFound(unknown));
    }

    let mut samples: BTreeMap<TestKey, BTreeMap<String, Samples>> = BTreeMap::new();
    for m in state.storage.metrics_for_drives(&ids).await? {
        samples.entry(m.key).or_default().entry(m.drive_sku).or_default().add(
            m.result_id,
            m.mbps,
            m.iops,
            m.latency_us,
        );
    }
    let tests = samples
        .into_iter()
        .map(|(key, mut per_drive)| ComparedTest {
            key,
            name: key.short_name(),
            drives: ids
                .iter()
                .map(|id| {
                    let aggregates = per_drive.remove(id).map(Samples::aggregate);
                    DriveCell { drive: id.clone(), missing: aggregates.is_none(), aggregates }
                })
                .collect(),
        })
        .collect();
    Ok(Json(Comparison { drives, tests }))
}
