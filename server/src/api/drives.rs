//! `GET /api/v1/drives` (the catalogue) and `GET /api/v1/drives/{id}`: a drive's specs,
//! its results with their platforms, per comparable test the median, MAD and count, and
//! each result's rated-vs-measured table.

use super::extract::PathParam;
use super::{result_url, AppState};
use crate::error::{ApiError, ApiResult};
use crate::storage::StoredResult;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use bench::analysis::{self, Flag, RatedVsMeasured, Summary};
use bench::{DriveSku, Platform, TestKey};
use serde::Serialize;
use std::collections::BTreeMap;

pub fn router() -> Router<AppState> {
    Router::new().route("/drives", get(list)).route("/drives/{id}", get(get_one))
}

#[derive(Debug, Serialize)]
struct DriveListItem {
    #[serde(flatten)]
    drive: DriveSku,
    url: String,
    result_count: i64,
}

#[derive(Debug, Serialize)]
struct DriveList {
    drives: Vec<DriveListItem>,
}

async fn list(State(state): State<AppState>) -> ApiResult<Json<DriveList>> {
    let drives = state
        .storage
        .list_drives()
        .await?
        .into_iter()
        .map(|d| DriveListItem { url: drive_url(&d.drive.id), result_count: d.result_count, drive: d.drive })
        .collect();
    Ok(Json(DriveList { drives }))
}

pub fn drive_url(id: &str) -> String {
    format!("{}/drives/{id}", super::API_PREFIX)
}

/// One comparable test with its aggregates.
#[derive(Debug, Clone, Serialize)]
pub struct TestSummary {
    pub key: TestKey,
    pub name: String,
    #[serde(flatten)]
    pub aggregates: Aggregates,
}

/// Median, MAD and count of each figure of one test over a set of results, and the
/// results they come from.
#[derive(Debug, Clone, Serialize)]
pub struct Aggregates {
    pub mbps: Option<Summary>,
    pub iops: Option<Summary>,
    pub latency_us: Option<Summary>,
    pub result_ids: Vec<i64>,
}

/// Samples of one test, gathered per result.
#[derive(Debug, Default)]
pub struct Samples {
    pub mbps: Vec<f64>,
    pub iops: Vec<f64>,
    pub latency_us: Vec<f64>,
    pub result_ids: Vec<i64>,
}

impl Samples {
    pub fn add(&mut self, result_id: i64, mbps: Option<f64>, iops: Option<f64>, latency_us: Option<f64>) {
        self.mbps.extend(mbps);
        self.iops.extend(iops);
        self.latency_us.extend(latency_us);
        if self.result_ids.last() != Some(&result_id) {
            self.result_ids.push(result_id);
        }
    }

    pub fn aggregate(self) -> Aggregates {
        Aggregates {
            mbps: analysis::summarize(&self.mbps),
            iops: analysis::summarize(&self.iops),
            latency_us: analysis::summarize(&self.latency_us),
            result_ids: self.result_ids,
        }
    }
}

#[derive(Debug, Serialize)]
struct DriveResult {
    id: i64,
    url: String,
    tool: bench::Tool,
    tool_version: Option<String>,
    data_pattern: Option<bench::DataPattern>,
    test_size_bytes: Option<u64>,
    platform: Platform,
    source: Option<String>,
    flags: Vec<Flag>,
    rated_vs_measured: Vec<RatedVsMeasured>,
}

#[derive(Debug, Serialize)]
struct DrivePage {
    drive: DriveSku,
    results: Vec<DriveResult>,
    tests: Vec<TestSummary>,
}

async fn get_one(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
) -> ApiResult<Json<DrivePage>> {
    let Some(drive) = state.storage.get_drive(&id).await? else {
        return Err(ApiError::not_found(format!("no drive {id:?} in the catalogue"), Some("id".into())));
    };
    let results = state.storage.results_for_drives(std::slice::from_ref(&id)).await?;
    let tests = summarize_by_test(&results);
    let results = results
        .into_iter()
        .map(|r| DriveResult {
            id: r.id,
            url: result_url(r.id),
            rated_vs_measured: analysis::rated_vs_measured(&r.result, &drive.rated),
            tool: r.result.tool,
            tool_version: r.result.tool_version,
            data_pattern: r.result.data_pattern,
            test_size_bytes: r.result.test_size_bytes,
            platform: r.tags.platform,
            source: r.source,
            flags: r.flags,
        })
        .collect();
    Ok(Json(DrivePage { drive, results, tests }))
}

fn summarize_by_test(results: &[StoredResult]) -> Vec<TestSummary> {
    let mut by_key: BTreeMap<TestKey, Samples> = BTreeMap::new();
    for r in results {
        for (key, m) in r.result.keyed_metrics() {
            by_key.entry(key).or_default().add(r.id, m.mbps, m.iops, m.latency_us);
        }
    }
    by_key
        .into_iter()
        .map(|(key, s)| TestSummary { key, name: key.short_name(), aggregates: s.aggregate() })
        .collect()
}
