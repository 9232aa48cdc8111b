//! `GET /api/v1/compare?drives=a,b,c[&filters]`: per comparable test (equal `TestKey`),
//! per drive, per platform group and data pattern, the aggregates and the ids of every
//! underlying result. A test that only some drives have is listed with the others marked
//! missing, never dropped and never matched to a different test. Results pool only
//! within one platform group and data pattern (a C300 on ICH10R and on a Marvell card,
//! or an SF-2281 with 0-fill and with random data, are different measurements), and any
//! tag filter of `GET /api/v1/results` narrows which results take part.

use super::browse::{OutputFormat, TagFilters};
use super::embed::{self, ChartStyle, ChartTheme, ChartWidth};
use super::extract::{read_query, FilteredQuery};
use super::state::AppState;
use crate::aggregate::{GroupKey, Pools};
use crate::csv_table::{self, CsvTable};
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorItem};
use crate::storage::{FigureValues, Filter};
use api_types::links::{self, api_drive as drive_url};
use api_types::{
    Aggregates, CellDifference, ComparedDrive, ComparedPool, ComparedTest, Comparison, DriveCell, Figure,
    PoolCell, COMPARE_RESULT_IDS,
};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::difference::{headline_difference, DIFFERENCE_POINTS};
use bench::TestKey;
use serde::Deserialize;
use std::collections::BTreeMap;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(compare)).routes(routes!(chart_svg)).routes(routes!(chart_png))
}

pub const MAX_DRIVES: usize = 12;

/// `GET /compare`'s and `GET /compare/rated`'s own parameters (their tag filters are
/// [`TagFilters`]).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct CompareParams {
    /// 1 to 12 catalogue drive ids, comma-separated
    #[param(inline)]
    drives: DriveIds,
    /// `json` (default) or `csv`: one row per test, drive, platform group and data pattern
    /// (a missing test is a row marked missing), with each figure's median, MAD and count
    /// and the result ids
    #[param(inline)]
    pub(super) format: Option<OutputFormat>,
    /// `drive`: one pool per drive, every platform and data pattern merged (pools marked
    /// `merged`); default `none`: pools kept apart per platform group and data pattern
    #[param(inline)]
    merge: Option<MergeMode>,
}

/// The chart embeds' parameters (`GET /compare/chart.svg|png`, the link preview), besides
/// the tag filters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ChartParams {
    /// 1 to 12 catalogue drive ids, comma-separated
    #[param(inline)]
    drives: DriveIds,
    /// What the bars show (default `mbps`)
    #[param(inline)]
    figure: Option<ChartFigure>,
    /// Only these tests, comma-separated names or ids (`SEQ 1MiB Q1T1 read`)
    #[param(example = "SEQ 1MiB Q1T1 read,SEQ 1MiB Q1T1 write")]
    tests: Option<String>,
    /// Only pools on these chipsets or storage controllers, comma-separated (`SB850,Z68`)
    #[param(example = "ICH10R,SB850")]
    platforms: Option<String>,
    /// Only these data patterns, comma-separated: `random`, `zero-fill`, `one-fill`, `unknown`
    #[param(inline)]
    patterns: Option<PatternNames>,
    /// `drive`: one pool per drive, every platform and data pattern merged (default: kept apart)
    #[param(inline)]
    merge: Option<MergeMode>,
    /// Colours (default `light`)
    #[param(inline)]
    theme: Option<ChartTheme>,
    /// Pixels (default 720); the height follows from the data
    #[param(inline)]
    width: Option<ChartWidth>,
}

/// `drives`: 1 to `MAX_DRIVES` catalogue ids, comma-separated; spaces around ids and
/// empty items are dropped, and an id given twice counts once.
#[derive(Debug, Clone)]
pub(super) struct DriveIds(Vec<String>);

impl DriveIds {
    pub(super) fn ids(&self) -> &[String] {
        &self.0
    }
}

impl<'de> Deserialize<'de> for DriveIds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let mut ids: Vec<String> = Vec::new();
        for id in text.split(',').map(|s| s.trim_matches(' ')).filter(|s| !s.is_empty()) {
            if !ids.iter().any(|i| i == id) {
                ids.push(id.to_string());
            }
        }
        if ids.is_empty() || ids.len() > MAX_DRIVES {
            let detail = format!("must list 1 to {MAX_DRIVES} catalogue ids, comma-separated");
            return Err(serde::de::Error::custom(detail));
        }
        Ok(DriveIds(ids))
    }
}

/// What [`DriveIds`] reads: the first item with a character other than a space.
impl utoipa::PartialSchema for DriveIds {
    fn schema() -> RefOr<Schema> {
        let pattern = format!("^[^,]*[^, ][^,]*(,[^,]*){{0,{}}}$", MAX_DRIVES - 1);
        ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .pattern(Some(pattern))
            .examples(["crucial-realssd-c300-64gb,plextor-px-m2s-64gb"])
            .into()
    }
}

impl utoipa::ToSchema for DriveIds {}

/// `patterns`: data pattern names, comma-separated, spaces around them allowed, empty
/// items ignored, as `charts::compare::Selection::read` reads them.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub(super) struct PatternNames(String);

impl utoipa::PartialSchema for PatternNames {
    fn schema() -> RefOr<Schema> {
        let name = format!("({}) *", charts::compare::PATTERN_NAMES.join("|"));
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(format!("^ *({name})?(, *({name})?)*$")))
            .examples(["random,unknown"])
            .into()
    }
}

impl utoipa::ToSchema for PatternNames {}

/// `figure` of a chart.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
enum ChartFigure {
    Mbps,
    Iops,
    Latency,
}

impl From<ChartFigure> for Figure {
    fn from(f: ChartFigure) -> Figure {
        match f {
            ChartFigure::Mbps => Figure::Mbps,
            ChartFigure::Iops => Figure::Iops,
            ChartFigure::Latency => Figure::Latency,
        }
    }
}

/// `merge` of a comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum MergeMode {
    Drive,
    #[default]
    None,
}

/// What a compare request asks for: drives, tag filters and whether pools merge per
/// drive.
pub(super) struct CompareQuery {
    pub(super) ids: Vec<String>,
    pub(super) filters: Vec<Filter>,
    pub(super) merge: bool,
}

impl CompareQuery {
    fn new(drives: &DriveIds, merge: Option<MergeMode>, filters: TagFilters) -> CompareQuery {
        CompareQuery {
            ids: drives.0.clone(),
            filters: filters.filters,
            merge: merge == Some(MergeMode::Drive),
        }
    }

    pub(super) fn of(params: &CompareParams, filters: TagFilters) -> CompareQuery {
        CompareQuery::new(&params.drives, params.merge, filters)
    }

    /// `path` asking for this comparison again, with the tag filters as `asked`.
    pub(super) fn link(&self, path: &str, asked: &[(String, String)]) -> String {
        let drives = self.ids.join(",");
        let mut pairs = vec![("drives", drives.as_str())];
        if self.merge {
            pairs.push(("merge", "drive"));
        }
        pairs.extend(asked.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        links::with_query(path, pairs)
    }
}

/// How an embedded compare chart is drawn.
struct ChartOptions {
    selection: charts::compare::Selection,
    style: ChartStyle,
}

impl ChartParams {
    /// The comparison and the drawing these parameters ask for.
    fn read(self, filters: TagFilters) -> ApiResult<(CompareQuery, ChartOptions)> {
        let mut selection = charts::compare::Selection::of(self.figure.map_or(Figure::Mbps, Figure::from));
        let mut errors = Vec::new();
        let patterns = self.patterns.map(|p| p.0);
        for (name, value) in [("tests", &self.tests), ("platforms", &self.platforms), ("patterns", &patterns)]
        {
            if let Some(Some(Err(details))) = value.as_deref().map(|v| selection.read(name, v)) {
                errors.extend(
                    details.into_iter().map(|detail| ErrorItem { detail, pointer: Some(name.into()) }),
                );
            }
        }
        if !errors.is_empty() {
            return Err(ApiError::BadRequest(errors));
        }
        let q = CompareQuery::new(&self.drives, self.merge, filters);
        Ok((q, ChartOptions { selection, style: ChartStyle::new(self.theme, self.width) }))
    }
}

/// Compare drives
///
/// Per comparable test (equal test key), per requested drive, per platform group and
/// data pattern: median, MAD and count, how many results and the newest of their ids. A test
/// that only some drives have lists the others with `missing: true`. Any tag filter of
/// `GET /results` narrows which results take part; unknown parameters are errors.
#[utoipa::path(
    get,
    path = "/compare",
    operation_id = "compare_drives",
    tag = "drives",
    params(CompareParams, TagFilters),
    responses(
        (status = 200, description = "The comparison",
            content((Comparison = "application/json"), (String = "text/csv"))),
        (status = 400, description = "No drives, too many, an unknown parameter or a filter value that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn compare(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<CompareParams, TagFilters>,
) -> ApiResult<Response> {
    let q = CompareQuery::of(&params, filters);
    let c = comparison(&state, &q.ids, &q.filters, q.merge).await?;
    Ok(match params.format.unwrap_or_default() {
        OutputFormat::Json => Json(c).into_response(),
        OutputFormat::Csv => csv_table::response("compare.csv", compare_csv(&c)),
    })
}

const COMPARE_CSV_HEADER: &[&str] = &[
    "test",
    "family",
    "access",
    "block_size",
    "queue_depth",
    "threads",
    "op",
    "mix_read_percent",
    "stat",
    "drive",
    "platform",
    "data_pattern",
    "missing",
    "mbps_median",
    "mbps_mad",
    "mbps_n",
    "iops_median",
    "iops_mad",
    "iops_n",
    "latency_us_median",
    "latency_us_mad",
    "latency_us_n",
    "vs_pool",
    "mbps_ratio",
    "mbps_ratio_low",
    "mbps_ratio_high",
    "mbps_verdict",
    "iops_ratio",
    "iops_ratio_low",
    "iops_ratio_high",
    "iops_verdict",
    "latency_us_ratio",
    "latency_us_ratio_low",
    "latency_us_ratio_high",
    "latency_us_verdict",
    "results",
    "result_ids",
];

/// The comparison as CSV: per test, per drive, one row per platform group and data
/// pattern (the pools the aggregates come from), or one row marked missing; each row's
/// count of results and the newest of them, as in the JSON.
fn compare_csv(c: &Comparison) -> String {
    use crate::storage::enum_name as name;
    let mut table = CsvTable::new(COMPARE_CSV_HEADER, true);
    for t in &c.tests {
        let k = &t.key;
        let test = [
            t.name.clone(),
            name(&k.family),
            name(&k.access),
            k.block_size.to_string(),
            k.queue_depth.to_string(),
            k.threads.to_string(),
            name(&k.op),
            k.mix_read_percent.map(|p| p.to_string()).unwrap_or_default(),
            k.stat.as_ref().map(name).unwrap_or_default(),
        ];
        for cell in &t.drives {
            let mut rows: Vec<Vec<String>> = cell
                .groups
                .iter()
                .map(|g| {
                    let pool = c.pool_of(g);
                    let mut row = vec![
                        cell.drive.clone(),
                        pool.map(|p| p.platform_label.clone()).unwrap_or_default(),
                        pool.and_then(|p| p.data_pattern.as_ref()).map(name).unwrap_or_default(),
                        "false".into(),
                    ];
                    for s in [g.mbps, g.iops, g.latency_us] {
                        match s {
                            Some(s) => {
                                row.extend([s.median.to_string(), s.mad.to_string(), s.count.to_string()])
                            }
                            None => row.extend([String::new(), String::new(), String::new()]),
                        }
                    }
                    // Against the test's reference pool, by its label; empty on the reference.
                    let vs = g.vs_reference.as_ref();
                    let reference = vs.and_then(|v| c.pools.get(v.reference_pool));
                    row.push(reference.map(|p| format!("{} · {}", p.drive, p.label())).unwrap_or_default());
                    for figure in [Figure::Mbps, Figure::Iops, Figure::Latency] {
                        match vs.and_then(|v| v.of(figure)) {
                            Some(d) => {
                                let num = |x: Option<f64>| x.map(|x| x.to_string()).unwrap_or_default();
                                row.extend([
                                    d.ratio.to_string(),
                                    num(d.low),
                                    num(d.high),
                                    d.verdict.words().into(),
                                ])
                            }
                            None => row.extend(std::iter::repeat_n(String::new(), 4)),
                        }
                    }
                    row.push(c.results(g).to_string());
                    row.push(c.result_ids(g).iter().map(i64::to_string).collect::<Vec<_>>().join(" "));
                    row
                })
                .collect();
            if rows.is_empty() {
                let mut row = vec![cell.drive.clone(), String::new(), String::new(), "true".into()];
                row.extend(std::iter::repeat_n(String::new(), COMPARE_CSV_HEADER.len() - 13));
                rows.push(row);
            }
            for row in rows {
                table.row(test.iter().chain(&row));
            }
        }
    }
    table.finish()
}

/// The compare chart as SVG, for embedding
///
/// The chart the compare page draws, rendered by the same function: per comparable test
/// one group of bars (median with MAD whisker and sample count per drive, platform group
/// and data pattern; missing tests marked missing), with a caption naming SSDBase.
/// Takes `GET /compare`'s parameters plus `figure`, `theme` and `width`.
#[utoipa::path(
    get,
    path = "/compare/chart.svg",
    operation_id = "compare_chart_svg",
    tag = "drives",
    params(ChartParams, TagFilters),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "As for GET /compare, or a figure, theme or width that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn chart_svg(
    State(state): State<AppState>,
    headers: HeaderMap,
    FilteredQuery(params, filters): FilteredQuery<ChartParams, TagFilters>,
) -> ApiResult<Response> {
    let (options, c) = chart_input(&state, params, filters).await?;
    let etag = embed::data_etag("compare.svg", &c, &format!("{:?} {:?}", options.selection, options.style));
    if let Some(unchanged) = embed::not_modified(&headers, &etag) {
        return Ok(unchanged);
    }
    let (chart, height, caption) = embed_of(&c, &options);
    let theme = options.style.theme;
    let mut res = embed::svg(options.style, height, caption, move |area| {
        charts::draw_compare_panels(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await?;
    embed::set_etag(&mut res, &etag);
    Ok(res)
}

/// The compare chart as PNG, for embedding
///
/// The same chart as `GET /compare/chart.svg`, as a PNG image.
#[utoipa::path(
    get,
    path = "/compare/chart.png",
    operation_id = "compare_chart_png",
    tag = "drives",
    params(ChartParams, TagFilters),
    responses(
        (status = 200, description = "The chart", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "As for GET /compare, or a figure, theme or width that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn chart_png(
    State(state): State<AppState>,
    headers: HeaderMap,
    FilteredQuery(params, filters): FilteredQuery<ChartParams, TagFilters>,
) -> ApiResult<Response> {
    let (options, c) = chart_input(&state, params, filters).await?;
    let etag = embed::data_etag("compare.png", &c, &format!("{:?} {:?}", options.selection, options.style));
    if let Some(unchanged) = embed::not_modified(&headers, &etag) {
        return Ok(unchanged);
    }
    let (chart, height, caption) = embed_of(&c, &options);
    let theme = options.style.theme;
    let mut res = embed::png(options.style, height, caption, move |area| {
        charts::draw_compare_panels(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await?;
    embed::set_etag(&mut res, &etag);
    Ok(res)
}

async fn chart_input(
    state: &AppState,
    params: ChartParams,
    filters: TagFilters,
) -> ApiResult<(ChartOptions, Comparison)> {
    let (q, options) = params.read(filters)?;
    let c = comparison(state, &q.ids, &q.filters, q.merge).await?;
    Ok((options, c))
}

/// The chart, its height at the asked width, and its caption.
fn embed_of(c: &Comparison, options: &ChartOptions) -> (charts::ComparePanels, u32, String) {
    let chart = charts::compare::compare_panels(c, &options.selection);
    let height = charts::compare_panels_height(&chart, options.style.width);
    let caption = format!(
        "SSDBase · {} medians, whiskers ±MAD, n = results · only equal tests side by side",
        options.selection.figure.unit()
    );
    (chart, height, caption)
}

/// The compare chart that `query` asks for (as `GET /compare/chart.png` reads it), drawn
/// `width` pixels wide as RGB rows under its caption, with the comparison behind it and
/// the theme: what the link preview (`api::share`) frames at 1200 × 630.
pub(super) async fn chart_rgb(
    state: &AppState,
    params: ChartParams,
    filters: TagFilters,
    width: u32,
) -> ApiResult<(Comparison, Vec<u8>, u32, &'static charts::Theme)> {
    let (mut options, c) = chart_input(state, params, filters).await?;
    options.style.width = width;
    let (chart, height, caption) = embed_of(&c, &options);
    let theme = options.style.theme;
    let rgb = tokio::task::spawn_blocking(move || {
        charts::render::to_rgb(width, height, theme, &caption, |area| {
            charts::draw_compare_panels(area, &chart, theme).map(drop).map_err(|e| e.to_string())
        })
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(anyhow::Error::msg)?;
    Ok((c, rgb, height + charts::render::CAPTION_H, theme))
}

/// The comparison that a compare page's query asks for (the chart's parameters and tag
/// filters) and the chart's selection, for the link preview's text and the first paint.
pub(super) async fn comparison_of(
    state: &AppState,
    query: &str,
) -> ApiResult<(Comparison, charts::compare::Selection)> {
    let (params, filters) = read_query::<ChartParams, TagFilters>(query)?;
    let (options, c) = chart_input(state, params, filters).await?;
    Ok((c, options.selection))
}

/// The comparison of drives `ids` under `filters`, pooled per platform group and data
/// pattern or, with `merge`, per drive; 404 naming any drive not in the catalogue.
async fn comparison(
    state: &AppState,
    ids: &[String],
    filters: &[Filter],
    merge: bool,
) -> ApiResult<Comparison> {
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

    let position = |sku: &str| ids.iter().position(|id| id == sku);
    let mut pools: Vec<PoolTests> = Vec::new();
    if filters.is_empty() && !merge {
        // Unfiltered, the per-drive summary holds exactly these aggregates, a few rows
        // per drive instead of every metric row (storage::summary).
        for (pool, values) in state.storage.pools_with_quantiles(ids).await? {
            let Some(drive) = position(&pool.drive_sku) else { continue };
            pools.push(PoolTests {
                drive,
                group: (pool.platform, pool.data_pattern),
                tests: pool.tests,
                values,
            });
        }
    } else {
        let mut samples: Pools<(usize, GroupKey)> = Pools::default();
        for m in state.storage.metrics_for_drives(ids, filters).await? {
            let Some(drive) = position(&m.drive_sku) else { continue };
            // Merged: one group per drive, whatever the platform and data pattern, and one
            // per array of it (an array is not the drive).
            let group = if merge {
                (m.platform.array_only(), Default::default())
            } else {
                (m.platform, m.data_pattern)
            };
            samples.add((drive, group), m.key, m.result_id, m.mbps, m.iops, m.latency_us);
        }
        for ((drive, group), tests, values) in samples.aggregate_with_values() {
            pools.push(PoolTests { drive, group, tests, values });
        }
    }
    Ok(assemble(ids, drives, pools, merge))
}

/// One drive's aggregates in one platform group and data pattern, per test.
struct PoolTests {
    /// Index of the drive in the request.
    drive: usize,
    group: GroupKey,
    tests: BTreeMap<TestKey, Aggregates>,
    values: BTreeMap<TestKey, FigureValues>,
}

/// The answer from its pools: each pool listed once, per drive in the order asked for
/// and then in platform group and data pattern order, with the union of its tests'
/// result ids; each test's cells point to their pool and repeat ids only where they
/// differ from it. Pools and cells are addressed by index, never looked up by their
/// (string-laden) keys: at 1,000,000 results this is the bulk of compare's work.
fn assemble(
    ids: &[String],
    drives: Vec<ComparedDrive>,
    mut pools: Vec<PoolTests>,
    merged: bool,
) -> Comparison {
    pools.sort_by(|a, b| (a.drive, &a.group).cmp(&(b.drive, &b.group)));
    let mut compared = Vec::with_capacity(pools.len());
    // Per test, per requested drive, its cells in pool order, each with its values.
    let mut cells: BTreeMap<TestKey, Vec<Vec<(PoolCell, FigureValues)>>> = BTreeMap::new();
    for (index, mut pool) in pools.into_iter().enumerate() {
        let result_ids = union_of(pool.tests.values().map(|a| a.result_ids.as_slice()));
        for (key, a) in pool.tests {
            let own = a.result_ids != result_ids;
            let cell = PoolCell {
                pool: index,
                mbps: a.mbps,
                iops: a.iops,
                latency_us: a.latency_us,
                results: own.then_some(a.result_ids.len()),
                result_ids: own.then(|| newest(&a.result_ids)),
                vs_reference: None,
            };
            let values = pool.values.remove(&key).unwrap_or_default();
            cells.entry(key).or_insert_with(|| vec![Vec::new(); ids.len()])[pool.drive].push((cell, values));
        }
        let (platform, data_pattern) = pool.group;
        compared.push(ComparedPool {
            drive: ids[pool.drive].clone(),
            platform_label: match (merged, platform.array()) {
                (true, Some(array)) => format!("{array} · {}", api_types::MERGED_POOL_LABEL),
                (true, None) => api_types::MERGED_POOL_LABEL.to_string(),
                (false, _) => platform.label(),
            },
            platform,
            data_pattern,
            results: result_ids.len(),
            result_ids: newest(&result_ids),
            merged,
        });
    }
    // Which pools are arrays, and of what: a cell is set against a reference of its kind.
    let arrays: Vec<Option<String>> = compared.iter().map(|p| p.platform.array()).collect();
    let tests = cells
        .into_iter()
        .map(|(key, mut per_drive)| {
            against_reference(&mut per_drive, &arrays);
            ComparedTest {
                key,
                name: key.short_name(),
                drives: ids
                    .iter()
                    .zip(per_drive)
                    .map(|(id, cells)| {
                        let groups: Vec<PoolCell> = cells.into_iter().map(|(cell, _)| cell).collect();
                        DriveCell { drive: id.clone(), missing: groups.is_empty(), groups }
                    })
                    .collect(),
            }
        })
        .collect();
    Comparison { drives, pools: compared, tests }
}

/// Sets every cell of a test against its reference: the first drive (in the order asked)
/// that has the test in a pool of the cell's kind (one drive, or an array of the same
/// RAID level and members), its pool of that kind with the most results. Pools of many results are read at
/// [`DIFFERENCE_POINTS`] evenly spaced quantiles per side (what the summary stores), which
/// keeps a request's work bounded; the interval is then wider than all the values would
/// give. The values may come thinned already, so the cells' counts say which pool is
/// largest.
fn against_reference(per_drive: &mut [Vec<(PoolCell, FigureValues)>], arrays: &[Option<String>]) {
    let results = |c: &PoolCell| [c.mbps, c.iops, c.latency_us].iter().flatten().map(|s| s.count).max();
    // Per kind of pool (one drive, or an array of it), the reference: single drives are
    // never set against an array, nor an array against a single drive.
    let mut references: Vec<(&Option<String>, usize, FigureValues)> = Vec::new();
    for cells in per_drive.iter() {
        for (cell, _) in cells {
            let kind = &arrays[cell.pool];
            if references.iter().any(|(k, _, _)| *k == kind) {
                continue;
            }
            // The first drive with a pool of this kind: its pool of the kind with the most
            // results (the first of those).
            let Some((_, (best, values))) = cells
                .iter()
                .enumerate()
                .filter(|(_, (c, _))| arrays[c.pool] == *kind)
                .max_by_key(|(i, (c, _))| (results(c), usize::MAX - i))
            else {
                continue;
            };
            references.push((kind, best.pool, values.thinned(DIFFERENCE_POINTS)));
        }
    }
    for (cell, values) in per_drive.iter_mut().flatten() {
        let Some((_, reference_pool, reference)) =
            references.iter().find(|(k, _, _)| **k == arrays[cell.pool])
        else {
            continue;
        };
        let (reference_pool, reference) = (*reference_pool, reference);
        if cell.pool == reference_pool {
            continue;
        }
        // The headline figure only (MB/s, else IOPS, else latency, as the table shows a
        // cell): a popular drive's comparison has thousands of cells.
        let mut vs = CellDifference { reference_pool, mbps: None, iops: None, latency_us: None };
        match headline_difference(&values.thinned(DIFFERENCE_POINTS), reference) {
            Some((Figure::Mbps, d)) => vs.mbps = Some(d),
            Some((Figure::Iops, d)) => vs.iops = Some(d),
            Some((Figure::Latency, d)) => vs.latency_us = Some(d),
            None => {}
        }
        cell.vs_reference = Some(vs);
    }
}

/// The union of ascending id lists, ascending. A pool's tests usually share one list
/// (every result runs every test of its tool), so equal lists are merged once.
/// The newest [`COMPARE_RESULT_IDS`] of ascending `ids`, ascending.
fn newest(ids: &[i64]) -> Vec<i64> {
    ids[ids.len().saturating_sub(COMPARE_RESULT_IDS)..].to_vec()
}

fn union_of<'a>(lists: impl Iterator<Item = &'a [i64]>) -> Vec<i64> {
    let mut distinct: Vec<&[i64]> = Vec::new();
    for list in lists {
        if !distinct.contains(&list) {
            distinct.push(list);
        }
    }
    let Some((first, rest)) = distinct.split_first() else { return Vec::new() };
    let mut union = first.to_vec();
    for list in rest {
        let mut merged = Vec::with_capacity(union.len() + list.len());
        let (mut a, mut b) = (union.iter().peekable(), list.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(&&x), Some(&&y)) if x < y => a.next(),
                (Some(&&x), Some(&&y)) if x > y => b.next(),
                (Some(_), Some(_)) => {
                    b.next();
                    a.next()
                }
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            merged.extend(next);
        }
        union = merged;
    }
    union
}

/// Catalogue drives `ids` (a comparison's `drives`), or 404 naming each one missing as
/// `drives[i]`.
pub(super) async fn catalogue_drives(state: &AppState, ids: &[String]) -> ApiResult<Vec<bench::DriveSku>> {
    let mut drives = Vec::new();
    let mut unknown = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        match state.storage.get_drive(id).await? {
            Some(d) => drives.push(d),
            None => unknown.push(crate::error::ErrorItem {
                detail: format!("no drive {id:?} in the catalogue"),
                pointer: Some(format!("drives[{i}]")),
            }),
        }
    }
    if !unknown.is_empty() {
        return Err(ApiError::NotFound(unknown));
    }
    Ok(drives)
}

#[cfg(test)]
mod tests {
    use super::union_of;

    #[test]
    fn the_union_of_id_lists_is_ascending_and_distinct() {
        let lists: [&[i64]; 4] = [&[1, 4, 9], &[2, 4, 10, 11], &[1, 4, 9], &[]];
        assert_eq!(union_of(lists.into_iter()), vec![1, 2, 4, 9, 10, 11]);
        assert_eq!(union_of([&[3i64, 5][..]].into_iter()), vec![3, 5]);
        assert_eq!(union_of(std::iter::empty()), Vec::<i64>::new());
    }
}
