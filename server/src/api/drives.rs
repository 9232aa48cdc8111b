//! `GET /api/v1/drives` (the catalogue) and `GET /api/v1/drives/{id}`: a drive's specs,
//! its results with their platforms, per comparable test the median, MAD and count, and
//! each result's rated-vs-measured table.

use super::extract::PathParam;
use super::{result_url, AppState};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::storage::StoredResult;
use axum::extract::State;
use axum::Json;
use bench::analysis::{self, Flag, RatedVsMeasured, Summary};
use bench::{DataPattern, DriveSku, Platform, PlatformGroup, TestKey};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(get_one))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DriveListItem {
    #[serde(flatten)]
    drive: DriveSku,
    url: String,
    result_count: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DriveList {
    drives: Vec<DriveListItem>,
}

/// The drive catalogue
///
/// Every catalogue drive with its specs and how many visible results it has.
#[utoipa::path(
    get,
    path = "/drives",
    operation_id = "list_drives",
    tag = "drives",
    responses((status = 200, description = "The catalogue", body = DriveList))
)]
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

/// One comparable test with its aggregates, one per platform group and data pattern.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct TestSummary {
    pub key: TestKey,
    pub name: String,
    pub groups: Vec<GroupCell>,
}

/// The aggregates of one test over the results of one platform group and data pattern:
/// the finest pool in which numbers are comparable.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct GroupCell {
    pub platform: PlatformGroup,
    pub platform_label: String,
    /// `random`, `zero-fill`, ...; absent when the tool did not say.
    pub data_pattern: Option<DataPattern>,
    #[serde(flatten)]
    pub aggregates: Aggregates,
}

/// Where a sample pools: its platform group and data pattern.
pub type GroupKey = (PlatformGroup, Option<DataPattern>);

/// Samples of one test, per platform group and data pattern, in key order.
pub fn group_cells(groups: BTreeMap<GroupKey, Samples>) -> Vec<GroupCell> {
    group_cells_of(groups.into_iter().map(|(k, s)| (k, s.aggregate())).collect())
}

/// Aggregates of one test, per platform group and data pattern, in key order.
pub fn group_cells_of(groups: BTreeMap<GroupKey, Aggregates>) -> Vec<GroupCell> {
    groups
        .into_iter()
        .map(|((platform, data_pattern), aggregates)| GroupCell {
            platform_label: platform.label(),
            platform,
            data_pattern,
            aggregates,
        })
        .collect()
}

/// Median, MAD and count of each figure of one test over a set of results, and the
/// results they come from.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
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

impl From<crate::storage::TestSummary> for Aggregates {
    fn from(t: crate::storage::TestSummary) -> Aggregates {
        Aggregates { mbps: t.mbps, iops: t.iops, latency_us: t.latency_us, result_ids: t.result_ids }
    }
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DriveResult {
    id: i64,
    url: String,
    platform_label: String,
    tool: bench::Tool,
    tool_version: Option<String>,
    data_pattern: Option<bench::DataPattern>,
    test_size_bytes: Option<u64>,
    platform: Platform,
    source: Option<String>,
    flags: Vec<Flag>,
    rated_vs_measured: Vec<RatedVsMeasured>,
}

/// The results measured on one platform group.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PlatformResults {
    platform: PlatformGroup,
    platform_label: String,
    result_ids: Vec<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DrivePage {
    drive: DriveSku,
    /// Every visible result, oldest first.
    results: Vec<DriveResult>,
    /// The same results grouped by platform group, in group order.
    platforms: Vec<PlatformResults>,
    /// Per comparable test, per platform group and data pattern: median, MAD, count.
    tests: Vec<TestSummary>,
}

/// A drive's page
///
/// Its specs, its visible results with platform, flags and rated-vs-measured, the
/// results grouped by platform, and per comparable test the median, MAD and count per
/// platform group and data pattern.
#[utoipa::path(
    get,
    path = "/drives/{id}",
    operation_id = "get_drive",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`")),
    responses(
        (status = 200, description = "The drive's page", body = DrivePage),
        (status = 404, description = "No such drive in the catalogue", body = ErrorBody),
    )
)]
async fn get_one(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
) -> ApiResult<Json<DrivePage>> {
    let Some(drive) = state.storage.get_drive(&id).await? else {
        return Err(ApiError::not_found(format!("no drive {id:?} in the catalogue"), Some("id".into())));
    };
    let results = state.storage.results_for_drives(std::slice::from_ref(&id)).await?;
    let tests = summarize_by_test(&results);
    let mut platforms: BTreeMap<PlatformGroup, Vec<i64>> = BTreeMap::new();
    for r in &results {
        platforms.entry(PlatformGroup::of(&r.tags)).or_default().push(r.id);
    }
    let platforms = platforms
        .into_iter()
        .map(|(platform, result_ids)| PlatformResults {
            platform_label: platform.label(),
            platform,
            result_ids,
        })
        .collect();
    let results = results
        .into_iter()
        .map(|r| DriveResult {
            id: r.id,
            url: result_url(r.id),
            platform_label: PlatformGroup::of(&r.tags).label(),
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
    Ok(Json(DrivePage { drive, results, platforms, tests }))
}

fn summarize_by_test(results: &[StoredResult]) -> Vec<TestSummary> {
    let mut by_key: BTreeMap<TestKey, BTreeMap<GroupKey, Samples>> = BTreeMap::new();
    for r in results {
        let group = (PlatformGroup::of(&r.tags), r.result.data_pattern);
        for (key, m) in r.result.keyed_metrics() {
            by_key.entry(key).or_default().entry(group.clone()).or_default().add(
                r.id,
                m.mbps,
                m.iops,
                m.latency_us,
            );
        }
    }
    by_key
        .into_iter()
        .map(|(key, groups)| TestSummary { key, name: key.short_name(), groups: group_cells(groups) })
        .collect()
}
