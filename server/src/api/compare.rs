//! `GET /api/v1/compare?drives=a,b,c[&filters]`: per comparable test (equal `TestKey`),
//! per drive, per platform group and data pattern, the aggregates and the ids of every
//! underlying result. A test that only some drives have is listed with the others marked
//! missing, never dropped and never matched to a different test. Results pool only
//! within one platform group and data pattern (a C300 on ICH10R and on a Marvell card,
//! or an SF-2281 with 0-fill and with random data, are different measurements), and any
//! tag filter of `GET /api/v1/results` narrows which results take part.

use super::drives::{drive_url, group_cells_of, Aggregates, GroupCell, GroupKey, Samples};
use super::extract::QueryPairs;
use super::results::filter_value;
use super::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorItem};
use crate::storage::{Filter, RESULT_FILTERS};
use axum::extract::State;
use axum::Json;
use bench::TestKey;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(compare))
}

pub const MAX_DRIVES: usize = 12;

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct ComparedDrive {
    id: String,
    url: String,
    vendor: String,
    model: String,
    capacity_gb: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct DriveCell {
    drive: String,
    /// True when this drive has no result with this test (under the filters).
    missing: bool,
    /// One entry per platform group and data pattern the drive was measured with.
    groups: Vec<GroupCell>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct ComparedTest {
    key: TestKey,
    name: String,
    /// One entry per requested drive, in the order requested.
    drives: Vec<DriveCell>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct Comparison {
    drives: Vec<ComparedDrive>,
    tests: Vec<ComparedTest>,
}

/// `drives` plus tag filters, read from the query string.
fn parse_query(pairs: &[(String, String)]) -> ApiResult<(Vec<String>, Vec<Filter>)> {
    let mut ids: Vec<String> = Vec::new();
    let mut filters = Vec::new();
    let mut errors = Vec::new();
    for (name, value) in pairs {
        if name == "drives" {
            for id in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                if !ids.iter().any(|i| i == id) {
                    ids.push(id.to_string());
                }
            }
        } else if let Some((_, kind)) = RESULT_FILTERS.iter().find(|(n, _)| n == name) {
            match filter_value(*kind, name, value) {
                Ok(f) => filters.push(f),
                Err(e) => errors.push(e),
            }
        } else {
            let known: Vec<&str> = RESULT_FILTERS.iter().map(|(n, _)| *n).collect();
            errors.push(ErrorItem {
                detail: format!(
                    "unknown parameter {name:?}; expected drives or a tag filter: {}",
                    known.join(", ")
                ),
                pointer: Some(name.clone()),
            });
        }
    }
    if ids.is_empty() || ids.len() > MAX_DRIVES {
        errors.push(ErrorItem {
            detail: format!("drives must list 1 to {MAX_DRIVES} catalogue ids, comma-separated"),
            pointer: Some("drives".into()),
        });
    }
    if errors.is_empty() {
        Ok((ids, filters))
    } else {
        Err(ApiError::BadRequest(errors))
    }
}

/// Compare drives
///
/// Per comparable test (equal test key), per requested drive, per platform group and
/// data pattern: median, MAD and count and the ids of every underlying result. A test
/// that only some drives have lists the others with `missing: true`. Any tag filter of
/// `GET /results` narrows which results take part; unknown parameters are errors.
#[utoipa::path(
    get,
    path = "/compare",
    operation_id = "compare_drives",
    tag = "drives",
    // The tag filters are added from `RESULT_FILTERS` (`api::openapi::finish`).
    params(("drives" = String, Query, example = "crucial-realssd-c300-64gb,plextor-px-m2s-64gb",
        description = "1 to 12 catalogue drive ids, comma-separated")),
    responses(
        (status = 200, description = "The comparison", body = Comparison),
        (status = 400, description = "No drives, too many, an unknown parameter or a filter value that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn compare(
    State(state): State<AppState>,
    QueryPairs(pairs): QueryPairs,
) -> ApiResult<Json<Comparison>> {
    let (ids, filters) = parse_query(&pairs)?;
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

    // Per test, per drive, per platform group and data pattern.
    type PerDrive = BTreeMap<String, BTreeMap<GroupKey, Aggregates>>;
    let mut cells: BTreeMap<TestKey, PerDrive> = BTreeMap::new();
    if filters.is_empty() {
        // Unfiltered, the per-drive summary holds exactly these aggregates, a few rows
        // per drive instead of every metric row (storage::summary).
        for pool in state.storage.pools_for_drives(&ids).await? {
            for (key, test) in pool.tests {
                cells
                    .entry(key)
                    .or_default()
                    .entry(pool.drive_sku.clone())
                    .or_default()
                    .insert((pool.platform.clone(), pool.data_pattern), test.into());
            }
        }
    } else {
        let mut samples: BTreeMap<TestKey, BTreeMap<String, BTreeMap<GroupKey, Samples>>> = BTreeMap::new();
        for m in state.storage.metrics_for_drives(&ids, &filters).await? {
            samples
                .entry(m.key)
                .or_default()
                .entry(m.drive_sku)
                .or_default()
                .entry((m.platform, m.data_pattern))
                .or_default()
                .add(m.result_id, m.mbps, m.iops, m.latency_us);
        }
        for (key, per_drive) in samples {
            let per_drive = per_drive
                .into_iter()
                .map(|(d, groups)| (d, groups.into_iter().map(|(g, s)| (g, s.aggregate())).collect()))
                .collect();
            cells.insert(key, per_drive);
        }
    }
    let tests = cells
        .into_iter()
        .map(|(key, mut per_drive)| ComparedTest {
            key,
            name: key.short_name(),
            drives: ids
                .iter()
                .map(|id| {
                    let groups = per_drive.remove(id).map(group_cells_of).unwrap_or_default();
                    DriveCell { drive: id.clone(), missing: groups.is_empty(), groups }
                })
                .collect(),
        })
        .collect();
    Ok(Json(Comparison { drives, tests }))
}
