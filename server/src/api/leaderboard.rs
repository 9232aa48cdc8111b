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
    Aggregates, CacheLeaderboard, CacheRow, DriveIndex, FilterSuggestions, IndexRow, KeyFigures, Leaderboard,
    LeaderboardRow, LeaderboardTests, PoolFigure,
};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::analysis::Summary;
use bench::{Access, DriveSku, Op, Stat, TestKey};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
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

/// Which drives the index, the leaderboards and their tests list: filters they share.
/// Text compares without case.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct DriveFilter {
    /// Only this vendor (any case)
    vendor: Option<String>,
    /// A link id (`sata-6`, `pcie-3-x4`) or a kind (`sata`, `pcie`, `usb`)
    interface: Option<String>,
    /// Only this controller model (any case)
    controller: Option<String>,
    /// Only this NAND vendor (any case)
    nand: Option<String>,
    /// Only reviewed (true) or community (false) drives
    reviewed: Option<bool>,
}

impl DriveFilter {
    /// Whether it keeps every drive.
    fn is_empty(&self) -> bool {
        let DriveFilter { vendor, interface, controller, nand, reviewed } = self;
        vendor.is_none()
            && interface.is_none()
            && controller.is_none()
            && nand.is_none()
            && reviewed.is_none()
    }

    /// Whether drive `d` passes. Text compares without case; `interface` is a link id
    /// (`pcie-3-x4`) or its kind alone (`sata`, `pcie`, `usb`).
    fn keeps(&self, d: &DriveSku) -> bool {
        // Called for every drive of the catalogue per request: a filter that is not set
        // costs nothing (no link id is written out for it).
        let is = |want: &Option<String>, have: Option<&str>| {
            want.as_ref().is_none_or(|w| have.is_some_and(|h| h.to_lowercase() == w.to_lowercase()))
        };
        let interface_ok = || {
            self.interface.as_ref().is_none_or(|w| {
                let w = w.to_lowercase();
                let link = d.interface.map(|l| l.id());
                let kind = link.as_deref().map(|l| l.split('-').next().unwrap_or(l));
                link.as_deref() == Some(w.as_str()) || kind == Some(w.as_str())
            })
        };
        self.reviewed.is_none_or(|r| r == d.reviewed)
            && is(&self.vendor, Some(&d.vendor))
            && is(&self.controller, d.controller.model.as_deref())
            && is(&self.nand, d.nand.vendor.as_deref())
            && interface_ok()
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
/// page's drives have their counts and figures read. Without a filter the page is read
/// by an index of the drives table (`drives.result_count` is kept with the summary);
/// a filter runs over the shared decoded catalogue.
pub(crate) async fn drive_index(
    state: &AppState,
    params: IndexParams,
    filter: DriveFilter,
) -> ApiResult<(DriveIndex, IndexSort)> {
    let sort = params.sort.unwrap_or_default();
    let limit = params.limit.map_or(INDEX_PAGE, Bounded::get);
    let offset = params.offset.map_or(0, Bounded::get);
    let storage = &state.storage;
    let (page, total): (Vec<DriveRow>, usize) = if filter.is_empty() {
        let order = match sort {
            IndexSort::Name => DriveOrder::Name,
            IndexSort::NameDescending => DriveOrder::NameDescending,
            IndexSort::Results => DriveOrder::MostResults,
            IndexSort::ResultsAscending => DriveOrder::FewestResults,
        };
        // Two statements at once: counting a catalogue is a scan on PostgreSQL.
        tokio::try_join!(storage.drives_page(order, offset, limit), storage.drive_count())?
    } else {
        let catalogue = storage.catalogue().await?;
        let kept: Vec<&DriveSku> = catalogue.iter().filter(|d| filter.keeps(d)).collect();
        let total = kept.len();
        let counted: Vec<(&DriveSku, i64)> = match sort {
            IndexSort::Name | IndexSort::NameDescending => {
                // The catalogue is in name order already.
                let page: Vec<&DriveSku> = if sort == IndexSort::Name {
                    kept.into_iter().skip(offset).take(limit).collect()
                } else {
                    kept.into_iter().rev().skip(offset).take(limit).collect()
                };
                let ids: Vec<String> = page.iter().map(|d| d.id.clone()).collect();
                let counts = storage.result_counts(&ids).await?;
                page.into_iter().map(|d| (d, counts.get(&d.id).copied().unwrap_or(0))).collect()
            }
            IndexSort::Results | IndexSort::ResultsAscending => {
                let keep: HashSet<String> = kept.iter().map(|d| d.id.clone()).collect();
                let most_first = sort == IndexSort::Results;
                let ranked = storage.drives_by_results(most_first, &keep, offset, limit).await?;
                let by_id = drives_named(&catalogue, ranked.iter().map(|(id, _)| id.as_str()));
                ranked.iter().filter_map(|(id, n)| Some((*by_id.get(id.as_str())?, *n))).collect()
            }
        };
        let page = counted.into_iter().map(|(d, n)| DriveRow { drive: d.clone(), result_count: n }).collect();
        (page, total)
    };
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

/// The catalogue's drives of these ids, by id: one pass over the catalogue for a page.
fn drives_named<'a, 'b>(
    catalogue: &'a [DriveSku],
    ids: impl Iterator<Item = &'b str>,
) -> HashMap<&'a str, &'a DriveSku> {
    let wanted: HashSet<&str> = ids.collect();
    catalogue.iter().filter(|d| wanted.contains(d.id.as_str())).map(|d| (d.id.as_str(), d)).collect()
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
    let keep = kept_ids(state, &filter).await?;
    let singles = storage.ranked_pools(&test, false, min_results, keep.as_ref(), limit).await?;
    let arrays = storage.ranked_pools(&test, true, min_results, keep.as_ref(), limit).await?;
    let left_out = storage.thin_lines(&test, min_results, keep.as_ref()).await?;
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

/// The ids of the drives `filter` keeps, read from the decoded catalogue; `None` (every
/// drive) without a filter, when the catalogue is not read at all.
async fn kept_ids(state: &AppState, filter: &DriveFilter) -> ApiResult<Option<HashSet<String>>> {
    if filter.is_empty() {
        return Ok(None);
    }
    let catalogue = state.storage.catalogue().await?;
    Ok(Some(catalogue.iter().filter(|d| filter.keeps(d)).map(|d| d.id.clone()).collect()))
}

/// The drives `filter` keeps that have results, by id, and their pools from the summary
/// (a drive without results has no line: its pools are not read).
async fn measured_pools(
    state: &AppState,
    filter: &DriveFilter,
) -> ApiResult<(BTreeMap<String, DriveSku>, Vec<PoolSummary>)> {
    let drives: BTreeMap<String, DriveSku> = state
        .storage
        .list_drives()
        .await?
        .into_iter()
        .filter(|d| d.result_count > 0 && filter.keeps(&d.drive))
        .map(|d| (d.drive.id.clone(), d.drive))
        .collect();
    let ids: Vec<String> = drives.keys().cloned().collect();
    let pools = state.storage.pools_for_drives(&ids).await?;
    Ok((drives, pools))
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
/// `filter` keeps. The drives are those whose pools hold the test's after-cache figure
/// (the summary says which, without reading a result); only theirs are read.
pub(crate) async fn cache_leaderboard_of(
    state: &AppState,
    test: &str,
    filter: &DriveFilter,
) -> ApiResult<CacheLeaderboard> {
    let after_cache_of_test =
        |k: &TestKey| k.stat == Some(Stat::AfterCache) && TestKey { stat: None, ..*k }.id() == test;
    let (drives, pools) = measured_pools(state, filter).await?;
    let measured: BTreeSet<String> = pools
        .into_iter()
        .filter(|p| p.tests.iter().any(|(k, _)| after_cache_of_test(k)))
        .map(|p| p.drive_sku)
        .collect();
    let mut rows = Vec::new();
    for id in measured {
        let answer =
            super::sustained::sustained_of(state, std::slice::from_ref(&id), Default::default()).await?;
        let Some(row) = answer.rows.into_iter().find(|r| r.key.id() == test) else { continue };
        let Some(cache_gib) = row.cache_gib else { continue };
        let d = &drives[&id];
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
    let keep = kept_ids(state, filter).await?;
    // Read from the summary's leaderboard lines, not from every drive's pools.
    let mut tests = state.storage.leaderboard_tests(keep.as_ref()).await?;
    tests.sort_by(|a, b| (b.ranked, b.drives).cmp(&(a.ranked, a.drives)).then_with(|| a.test.cmp(&b.test)));
    Ok(LeaderboardTests { tests })
}
