//! Browsing what the community measured: `GET /api/v1/drives/index` (every drive,
//! reviewed or community, with its result count and its key figures, filterable and
//! sortable) and `GET /api/v1/leaderboard` (one comparable test, drives ranked by their
//! median, each with n). Both read the compare summary (`test_samples`): per drive and
//! pool (platform group and data pattern) per test, the median and count.
//!
//! Comparability: a number is only ever ranked against numbers of the same test
//! (`TestKey`: tool family, access, block, queue depth, threads, operation) measured in
//! one pool, and every figure says which test and pool it is and how many results it
//! stands on.

use super::extract::{Bounded, FilteredQuery, NoQuery, TypedQuery};
use super::state::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::storage::{DriveOrder, DriveRow, PoolSummary};
use api_types::links::api_drive as drive_url;
use api_types::{
    Aggregates, CacheLeaderboard, CacheRow, DriveFilter, DriveIndex, FilterSuggestions, IndexRow, KeyFigures,
    Leaderboard, LeaderboardRow, LeaderboardTests, PoolFigure,
};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::analysis::Summary;
use bench::{Access, DriveSku, Op, Stat, TestKey};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(index))
        .routes(routes!(suggestions))
        .routes(routes!(leaderboard))
        .routes(routes!(cache))
        .routes(routes!(tests))
}

/// The fewest results a leaderboard line needs unless `min_results` says otherwise.
/// (The floor the summary's partial indexes are built for.)
pub const DEFAULT_MIN_RESULTS: usize = crate::storage::summary::RANKED_FLOOR;

/// The drives index's own parameters (its filters are [`DriveFilter`]).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct IndexParams {
    /// By name (default) or result count, `-` for the other way
    #[param(inline)]
    sort: Option<IndexSort>,
    /// Drives per page (default 100)
    #[param(inline)]
    limit: Option<IndexPageSize>,
    /// Drives skipped before the page (default 0)
    #[param(inline)]
    offset: Option<Offset>,
}

/// Drives an index page holds by default, and at most.
const INDEX_PAGE: usize = 100;
const INDEX_PAGE_MAX: u64 = 500;
type IndexPageSize = Bounded<1, INDEX_PAGE_MAX>;
/// Up to the largest integer JSON numbers carry exactly (2^53 - 1): a bound the API
/// document states and the server holds (schemathesis found an unbounded `offset` the
/// document allowed and u64 could not hold).
type Offset = Bounded<0, 9_007_199_254_740_991>;

/// The drives index's orders.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum IndexSort {
    #[default]
    #[serde(rename = "name")]
    Name,
    #[serde(rename = "-name")]
    NameDescending,
    #[serde(rename = "results")]
    Results,
    #[serde(rename = "-results")]
    ResultsAscending,
}

impl IndexSort {
    /// The order's name, as `sort=` gives it.
    pub fn name(self) -> &'static str {
        match self {
            IndexSort::Name => "name",
            IndexSort::NameDescending => "-name",
            IndexSort::Results => "results",
            IndexSort::ResultsAscending => "-results",
        }
    }
}

fn figure(pool: &PoolSummary, key: &TestKey, a: &Aggregates) -> Option<PoolFigure> {
    let Summary { median, count, .. } = a.mbps?;
    Some(PoolFigure {
        test: key.id(),
        platform: pool.platform.clone(),
        data_pattern: pool.data_pattern,
        median_mbps: median,
        n: count,
        result_ids: a.result_ids.clone(),
    })
}

/// A drive's key figures from its pools: per figure, the test measured most often, and
/// of it the pool with the most results. Only the drive alone: pools of arrays (RAID
/// sets of it) measure several drives.
fn key_figures(pools: &[&PoolSummary]) -> KeyFigures {
    let pools: Vec<&PoolSummary> = pools.iter().copied().filter(|p| p.platform.array().is_none()).collect();
    let best = |wanted: &dyn Fn(&TestKey) -> bool| -> Option<PoolFigure> {
        let mut per_test: BTreeMap<TestKey, usize> = BTreeMap::new();
        for p in &pools {
            for (k, a) in &p.tests {
                if wanted(k) && a.mbps.is_some() {
                    *per_test.entry(*k).or_default() += a.result_ids.len();
                }
            }
        }
        // Most results first; ties to the larger block and queue (the headline test).
        let test = per_test.into_iter().max_by_key(|(k, n)| (*n, k.block_size, k.queue_depth))?.0;
        pools.iter().filter_map(|p| p.tests.get(&test).and_then(|a| figure(p, &test, a))).max_by_key(|f| f.n)
    };
    let rnd4k_q1 = |k: &TestKey, op: Op| {
        k.access == Access::Rnd && k.block_size == 4096 && k.queue_depth == 1 && k.threads == 1 && k.op == op
    };
    KeyFigures {
        seq_read: best(&|k| k.access == Access::Seq && k.op == Op::Read && k.stat.is_none()),
        seq_write: best(&|k| k.access == Access::Seq && k.op == Op::Write && k.stat.is_none()),
        rnd4k_q1_read: best(&|k| rnd4k_q1(k, Op::Read) && k.stat.is_none()),
        rnd4k_q1_write: best(&|k| rnd4k_q1(k, Op::Write) && k.stat.is_none()),
    }
}

/// The drives index
///
/// Every drive, reviewed or community, with its visible result count and key figures
/// (each naming its test, pool and n), a page at a time (`limit`, default 100, at most
/// 500; `offset`; `total` counts every drive that passes the filters). Filters: `vendor`,
/// `interface` (a link id such as `pcie-3-x4`, or `sata`/`pcie`/`usb`), `controller`,
/// `nand` (vendor), `reviewed`; sort `name` (default) or `results` (most first), `-` for
/// the other way.
#[utoipa::path(
    get,
    path = "/drives/index",
    operation_id = "drives_index",
    tag = "drives",
    params(IndexParams, DriveFilter),
    responses(
        (status = 200, description = "The drives", body = DriveIndex),
        (status = 400, description = "An unknown parameter or value", body = ErrorBody),
    )
)]
async fn index(
    State(state): State<AppState>,
    FilteredQuery(params, filter): FilteredQuery<IndexParams, DriveFilter>,
) -> ApiResult<Json<DriveIndex>> {
    Ok(Json(drive_index(&state, params, filter).await?.0))
}

/// The drives index page that `params` and `filter` ask for, and its order. Only the
/// page's drives are read, by an index of the drives table (`drives.result_count` is kept
/// with the summary, the filters' columns with each drive).
pub(crate) async fn drive_index(
    state: &AppState,
    params: IndexParams,
    filter: DriveFilter,
) -> ApiResult<(DriveIndex, IndexSort)> {
    let sort = params.sort.unwrap_or_default();
    let limit = params.limit.map_or(INDEX_PAGE, Bounded::get);
    let offset = params.offset.map_or(0, Bounded::get);
    let storage = &state.storage;
    let order = match sort {
        IndexSort::Name => DriveOrder::Name,
        IndexSort::NameDescending => DriveOrder::NameDescending,
        IndexSort::Results => DriveOrder::MostResults,
        IndexSort::ResultsAscending => DriveOrder::FewestResults,
    };
    // Two statements at once: counting a catalogue is a scan on PostgreSQL.
    let (page, total) =
        tokio::try_join!(storage.drives_page(&filter, order, offset, limit), storage.drive_count(&filter))?;
    let ids: Vec<String> = page.iter().map(|d| d.drive.id.clone()).collect();
    let pools = storage.pools_for_drives(&ids).await?;
    let mut by_drive: BTreeMap<&str, Vec<&PoolSummary>> = BTreeMap::new();
    for p in &pools {
        by_drive.entry(p.drive_sku.as_str()).or_default().push(p);
    }
    let rows: Vec<IndexRow> = page
        .into_iter()
        .map(|DriveRow { drive: d, result_count }| {
            let key = key_figures(by_drive.get(d.id.as_str()).map(Vec::as_slice).unwrap_or(&[]));
            IndexRow {
                url: drive_url(&d.id),
                interface: d.interface.map(|l| l.id()),
                controller: d.controller.model,
                nand_vendor: d.nand.vendor,
                result_count,
                key,
                id: d.id,
                vendor: d.vendor,
                model: d.model,
                capacity_gb: d.capacity_gb,
                reviewed: d.reviewed,
            }
        })
        .collect();
    Ok((DriveIndex { drives: rows, total, offset, limit }, sort))
}

/// What the filter fields suggest
///
/// Every catalogue drive's vendors, interfaces (link ids and their kinds: `sata-6`,
/// `sata`), controller models and NAND vendors, each sorted and once: the values the
/// drives index's and leaderboards' filters take.
#[utoipa::path(
    get,
    path = "/drives/suggestions",
    operation_id = "filter_suggestions",
    tag = "drives",
    responses(
        (status = 200, description = "The values", body = FilterSuggestions),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
    )
)]
async fn suggestions(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    let cache = [(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"))];
    Ok((cache, Json(filter_suggestions(&state).await?)).into_response())
}

/// Every catalogue drive's values for the filter fields.
pub(crate) async fn filter_suggestions(state: &AppState) -> ApiResult<FilterSuggestions> {
    let mut lists: [BTreeSet<String>; 4] = Default::default();
    for d in state.storage.catalogue().await?.iter() {
        if let Some(link) = d.interface {
            let id = link.id();
            lists[1].insert(id.split('-').next().unwrap_or_default().to_string());
            lists[1].insert(id);
        }
        lists[2].extend(d.controller.model.clone());
        lists[3].extend(d.nand.vendor.clone());
        lists[0].insert(d.vendor.clone());
    }
    let [vendor, interface, controller, nand] = lists.map(|l| l.into_iter().collect());
    Ok(FilterSuggestions { vendor, interface, controller, nand })
}

/// Most lines a leaderboard answers.
pub(crate) const LEADERBOARD_MAX: u64 = 500;
type LeaderboardSize = Bounded<1, LEADERBOARD_MAX>;
type MinResults = Bounded<1, 1000>;

/// A leaderboard of one test
///
/// Drives ranked by their median MB/s in one test (`test`, as `TestKey::id` names it,
/// e.g. `cdm-diskspd SEQ 1MiB Q8T1 read`), one line per drive and pool (platform group
/// and data pattern: numbers from different platforms are different measurements), each
/// with n. Arrays (RAID sets of two or more drives) are ranked apart, in `arrays`, each
/// labelled with its level and members. Lines with fewer than `min_results` results (default 3) are left out and
/// counted, unless `min_results=1`. The index's filters apply to the drives.
#[utoipa::path(
    get,
    path = "/leaderboard",
    operation_id = "leaderboard",
    tag = "drives",
    params(LeaderboardParams, DriveFilter),
    responses(
        (status = 200, description = "The leaderboard (no line: nobody measured it yet)", body = Leaderboard),
        (status = 400, description = "No test, an unknown parameter or a value out of range", body = ErrorBody),
    )
)]
async fn leaderboard(
    State(state): State<AppState>,
    FilteredQuery(params, filter): FilteredQuery<LeaderboardParams, DriveFilter>,
) -> ApiResult<Json<Leaderboard>> {
    Ok(Json(leaderboard_of(&state, params, filter).await?.0))
}

/// A leaderboard's own parameters (its filters are [`DriveFilter`]).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct LeaderboardParams {
    /// The test, e.g. `cdm-diskspd SEQ 1MiB Q8T1 read`
    #[param(example = "cdm-diskspd SEQ 1MiB Q8T1 read")]
    test: String,
    /// Fewest results a line needs (default 3)
    #[param(inline)]
    min_results: Option<MinResults>,
    /// Most lines (default 50)
    #[param(inline)]
    limit: Option<LeaderboardSize>,
}

/// The leaderboard that `params` and `filter` ask for, and the most lines they asked.
/// Its lines come ranked from the summary's `pool_figures`; only theirs are decoded.
pub(crate) async fn leaderboard_of(
    state: &AppState,
    params: LeaderboardParams,
    filter: DriveFilter,
) -> ApiResult<(Leaderboard, usize)> {
    let LeaderboardParams { test, min_results, limit } = params;
    let min_results = min_results.map_or(DEFAULT_MIN_RESULTS, Bounded::get);
    let limit = limit.map_or(50, Bounded::get);
    let storage = &state.storage;
    let singles = storage.ranked_pools(&test, false, min_results, &filter, limit).await?;
    let arrays = storage.ranked_pools(&test, true, min_results, &filter, limit).await?;
    let left_out = storage.thin_lines(&test, min_results, &filter).await?;
    let mut drives: HashMap<String, DriveSku> = HashMap::new();
    for pool in singles.iter().chain(&arrays) {
        if !drives.contains_key(&pool.drive_sku) {
            if let Some(d) = storage.get_drive(&pool.drive_sku).await? {
                drives.insert(d.id.clone(), d);
            }
        }
    }
    // An array of drives is not one drive: ranked apart, each list from 1.
    let ranked = |pools: &[PoolSummary]| -> Vec<LeaderboardRow> {
        pools
            .iter()
            .filter_map(|pool| {
                let (key, a) = pool.tests.iter().find(|(k, _)| k.id() == test)?;
                Some((drives.get(pool.drive_sku.as_str())?, figure(pool, key, a)?))
            })
            .enumerate()
            .map(|(i, (d, figure))| LeaderboardRow {
                rank: i + 1,
                url: drive_url(&d.id),
                name: format!("{} {} {} GB", d.vendor, d.model, d.capacity_gb),
                reviewed: d.reviewed,
                array: figure.platform.array(),
                drive_id: d.id.clone(),
                figure,
            })
            .collect()
    };
    let board = Leaderboard { rows: ranked(&singles), arrays: ranked(&arrays), test, min_results, left_out };
    Ok((board, limit))
}

/// Write caches, ranked
///
/// The drives whose runs found a write cache in one write test (`ssdbase bench --profile
/// cache`: `fio SEQ 1MiB Q8T1 write`, `fio RND 4KiB Q32T1 write`), largest cache first:
/// per drive the cache's size in GiB, the rate after it and the share back after the
/// idle pause, each a median over its runs with n. Only runs of the same test and tool
/// family are ranked together; the index's filters apply to the drives.
#[utoipa::path(
    get,
    path = "/leaderboard/cache",
    operation_id = "leaderboard_cache",
    tag = "drives",
    params(CacheParams, DriveFilter),
    responses(
        (status = 200, description = "The ranking (no line: nobody measured the test's cache yet)", body = CacheLeaderboard),
        (status = 400, description = "No test, an unknown parameter or a value out of range", body = ErrorBody),
    )
)]
async fn cache(
    State(state): State<AppState>,
    FilteredQuery(params, filter): FilteredQuery<CacheParams, DriveFilter>,
) -> ApiResult<Json<CacheLeaderboard>> {
    Ok(Json(cache_leaderboard_of(&state, &params.test, &filter).await?))
}

/// `GET /leaderboard/cache`'s own parameters (its filters are [`DriveFilter`]).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CacheParams {
    /// The write test, without a statistic, e.g. `fio SEQ 1MiB Q8T1 write`
    #[param(example = "fio SEQ 1MiB Q8T1 write")]
    test: String,
}

/// The write test whose after-cache rate leaderboard `test` (a test id) is, if it is one:
/// `fio SEQ 1MiB Q8T1 write` for `fio SEQ 1MiB Q8T1 write after cache`.
pub(crate) fn after_cache_of(test: &str) -> Option<&str> {
    test.strip_suffix(Stat::AfterCache.name())?.strip_suffix(' ')
}

/// The write caches found in `test` (a test id without statistic) on the drives
/// `filter` keeps, of at most [`LEADERBOARD_MAX`] drives. The drives are those with a
/// line of the test's after-cache figure in the summary (found without reading a
/// result); only theirs are read.
pub(crate) async fn cache_leaderboard_of(
    state: &AppState,
    test: &str,
    filter: &DriveFilter,
) -> ApiResult<CacheLeaderboard> {
    let after_cache = format!("{test} {}", Stat::AfterCache.name());
    let most = LEADERBOARD_MAX as usize;
    let mut measured = BTreeSet::new();
    for arrays in [false, true] {
        let lines = state.storage.ranked_pools(&after_cache, arrays, 1, filter, most).await?;
        measured.extend(lines.into_iter().map(|p| p.drive_sku));
    }
    let mut rows = Vec::new();
    for id in measured {
        let answer =
            super::sustained::sustained_of(state, std::slice::from_ref(&id), Default::default()).await?;
        let Some(row) = answer.rows.into_iter().find(|r| r.key.id() == test) else { continue };
        let Some(cache_gib) = row.cache_gib else { continue };
        let Some(d) = state.storage.get_drive(&id).await? else { continue };
        rows.push(CacheRow {
            rank: 0,
            name: format!("{} {} {} GB", d.vendor, d.model, d.capacity_gb),
            url: drive_url(&id),
            drive_id: id,
            cache_gib,
            after_cache: row.after_cache,
            unit: row.unit,
            recovered: row.recovered,
        });
    }
    rows.sort_by(|a, b| {
        b.cache_gib.median.total_cmp(&a.cache_gib.median).then_with(|| a.drive_id.cmp(&b.drive_id))
    });
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = i + 1;
    }
    Ok(CacheLeaderboard { test: test.to_string(), rows })
}

/// The tests with a leaderboard
///
/// Every test measured on the drives the filters keep (`TestKey::id`, the leaderboard's
/// `test=`), with how many drives have results in it, how many lines (drive, platform
/// group and data pattern) have at least 3 results (what its leaderboard shows by
/// default) and how many results there are; most ranked lines first, then most drives.
#[utoipa::path(
    get,
    path = "/leaderboard/tests",
    operation_id = "leaderboard_tests",
    tag = "drives",
    params(DriveFilter),
    responses(
        (status = 200, description = "The tests", body = LeaderboardTests),
        (status = 400, description = "An unknown parameter or value", body = ErrorBody),
    )
)]
async fn tests(
    State(state): State<AppState>,
    TypedQuery(filter): TypedQuery<DriveFilter>,
) -> ApiResult<Json<LeaderboardTests>> {
    Ok(Json(tests_of(&state, &filter).await?))
}

/// The tests with a leaderboard among the drives `filter` keeps, most ranked lines first.
pub(crate) async fn tests_of(state: &AppState, filter: &DriveFilter) -> ApiResult<LeaderboardTests> {
    // Read from the summary's leaderboard lines, not from every drive's pools.
    let mut tests = state.storage.leaderboard_tests(filter).await?;
    tests.sort_by(|a, b| (b.ranked, b.drives).cmp(&(a.ranked, a.drives)).then_with(|| a.test.cmp(&b.test)));
    Ok(LeaderboardTests { tests })
}
