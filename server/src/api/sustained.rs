//! Burst and sustained: `GET /compare/sustained` (one drive for the drive page, up to
//! twelve for compare) sets each drive's burst figures beside what the same tests did
//! over time (the rate after the write cache, its size, steady state) and answers the
//! runs behind them; `GET /compare/sustained.svg|png` draws them: the write-saturation
//! chart (MB/s over GiB written) or a sweep's latency against IOPS, one line per run,
//! coloured by drive.

use super::browse::{OutputFormat, TagFilters};
use super::compare::DriveIds;
use super::embed::{self, ChartStyle, ChartTheme, ChartWidth};
use super::extract::FilteredQuery;
use super::load::curve_view;
use super::state::AppState;
use crate::csv_table::{self, CsvTable};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::storage::StoredResult;
use api_types::{DriveCurve, Pooled, SaturationRun, Sustained, SustainedRow};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::cache::{recovered_after_idle, write_cache, WriteCache};
use bench::{Op, Stat, TestKey};
use serde::Deserialize;
use std::collections::BTreeMap;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(sustained)).routes(routes!(chart_svg)).routes(routes!(chart_png))
}

/// `GET /compare/sustained`'s own parameters (its tag filters are [`TagFilters`]).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct SustainedParams {
    /// 1 to 12 catalogue drive ids, comma-separated
    #[param(inline)]
    pub(super) drives: DriveIds,
    /// `json` (default) or `csv`: one row per drive and test with each figure's median
    /// and n
    #[param(inline)]
    format: Option<OutputFormat>,
}

/// Burst and sustained
///
/// Per drive and test, the burst median beside what the test did over time, each a
/// median over results with its n: the write rate after the cache filled, the cache's
/// size in GiB and the share of it back after an idle pause (`ssdbase bench --profile
/// cache`), the steady-state figure (SNIA PTS 2.0.2, `--profile sustained`) and how many
/// sustained runs never settled. Then every write sampled over its run and every test
/// measured at three or more loads (`--profile sweep`, fio job files sweeping `iodepth`,
/// ORION), each with its drive and result. The same tag filters as `GET /compare` narrow
/// which results take part.
#[utoipa::path(
    get,
    path = "/compare/sustained",
    operation_id = "compare_sustained",
    tag = "drives",
    params(SustainedParams, TagFilters),
    responses(
        (status = 200, description = "The figures and runs (empty when no result measured over time or load)",
            content((Sustained = "application/json"), (String = "text/csv"))),
        (status = 400, description = "No drives, too many, an unknown parameter or a filter value that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn sustained(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<SustainedParams, TagFilters>,
) -> ApiResult<Response> {
    let answer = sustained_of(&state, params.drives.ids(), filters).await?;
    Ok(match params.format.unwrap_or_default() {
        OutputFormat::Json => Json(answer).into_response(),
        OutputFormat::Csv => csv_table::response("sustained.csv", csv(&answer)),
    })
}

/// The answer for drives `ids`, their results narrowed by `filters`.
pub(crate) async fn sustained_of(
    state: &AppState,
    ids: &[String],
    filters: TagFilters,
) -> ApiResult<Sustained> {
    let mut drives = Vec::new();
    for drive in super::compare::catalogue_drives(state, ids).await? {
        let results = super::rated::results_of(state, &drive.id, &filters.filters).await?;
        drives.push((drive.id, results));
    }
    Ok(sustained_answer(&drives))
}

/// What a drive's results say, gathered per test before the medians.
#[derive(Default)]
struct Gathered {
    burst: Vec<(i64, f64)>,
    after_cache: Vec<(i64, f64)>,
    cache_gib: Vec<(i64, f64)>,
    recovered: Vec<(i64, f64)>,
    steady: Vec<(i64, f64)>,
    unsettled: usize,
    /// Whether some result measured the test over time (else no row).
    over_time: bool,
}

/// The test without its statistic: what burst and sustained figures share.
fn base(key: TestKey) -> TestKey {
    TestKey { stat: None, ..key }
}

/// The figure a row shows for a test: MB/s for large blocks, IOPS for small ones.
fn figure(key: &TestKey, m: &bench::Metric) -> Option<f64> {
    if key.block_size >= 64 * 1024 {
        m.mbps
    } else {
        m.iops.or_else(|| m.mbps.map(|mbps| mbps * 1e6 / key.block_size.max(1) as f64))
    }
}

fn sustained_answer(drives: &[(String, Vec<StoredResult>)]) -> Sustained {
    let mut rows = Vec::new();
    let mut saturation = Vec::new();
    let mut curves = Vec::new();
    for (drive, results) in drives {
        let mut tests: BTreeMap<TestKey, Gathered> = BTreeMap::new();
        for stored in results {
            let r = &stored.result;
            let family = r.family();
            for m in &r.metrics {
                let key = TestKey::of(family, m);
                let g = tests.entry(base(key)).or_default();
                let Some(v) = figure(&key, m) else { continue };
                match m.stat {
                    None => g.burst.push((stored.id, v)),
                    Some(Stat::AfterCache) => {
                        g.after_cache.push((stored.id, v));
                        g.over_time = true;
                    }
                    Some(Stat::Steady) => {
                        g.steady.push((stored.id, v));
                        g.over_time = true;
                    }
                    Some(Stat::Unsettled) => {
                        g.unsettled += 1;
                        g.over_time = true;
                    }
                    Some(_) => {}
                }
            }
            for series in &r.over_time {
                let Some(m) = r.metrics.get(series.metric) else { continue };
                let key = TestKey::of(family, m);
                // First writes only (a repeat after idle gives `recovered`), and not the
                // rounds of a sustained run.
                let sustained_rounds = matches!(m.stat, Some(Stat::Steady | Stat::Unsettled));
                if key.op != Op::Write || series.after_idle_secs.is_some() || sustained_rounds {
                    continue;
                }
                let cache = write_cache(&series.points);
                let g = tests.entry(base(key)).or_default();
                g.over_time = true;
                if let Some(WriteCache::Found { cache_bytes, .. }) = cache {
                    g.cache_gib.push((stored.id, cache_bytes as f64 / (1u64 << 30) as f64));
                    if let Some(back) = recovered_after_idle(&r.over_time, series.metric) {
                        g.recovered.push((stored.id, back));
                    }
                }
                saturation.push(SaturationRun {
                    drive: drive.clone(),
                    result: stored.id,
                    test: key.short_name(),
                    key,
                    points: series.points.clone(),
                    cache,
                });
            }
            for curve in bench::curves::load_curves(r) {
                curves.push(DriveCurve { drive: drive.clone(), result: stored.id, curve: curve_view(curve) });
            }
        }
        for (key, g) in tests {
            if !g.over_time {
                continue;
            }
            let unit = if key.block_size >= 64 * 1024 { "MB/s" } else { "IOPS" };
            rows.push(SustainedRow {
                drive: drive.clone(),
                test: key.short_name(),
                key,
                unit: unit.into(),
                burst: pooled(g.burst),
                after_cache: pooled(g.after_cache),
                cache_gib: pooled(g.cache_gib),
                recovered: pooled(g.recovered),
                steady: pooled(g.steady),
                unsettled: g.unsettled,
            });
        }
    }
    Sustained { drives: drives.iter().map(|(id, _)| id.clone()).collect(), rows, saturation, curves }
}

/// The median of the values, with their results; none without values.
fn pooled(mut values: Vec<(i64, f64)>) -> Option<Pooled> {
    values.retain(|(_, v)| v.is_finite());
    if values.is_empty() {
        return None;
    }
    let mut sorted: Vec<f64> = values.iter().map(|(_, v)| *v).collect();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
    let mut results: Vec<i64> = values.iter().map(|(id, _)| *id).collect();
    results.sort_unstable();
    results.dedup();
    Some(Pooled { median, n, results })
}

const CSV_COLUMNS: &[&str] = &[
    "drive",
    "test",
    "test_id",
    "unit",
    "burst_median",
    "burst_n",
    "after_cache_median",
    "after_cache_n",
    "cache_gib_median",
    "cache_gib_n",
    "recovered_median",
    "recovered_n",
    "steady_median",
    "steady_n",
    "unsettled_runs",
];

fn csv(answer: &Sustained) -> String {
    let mut table = CsvTable::new(CSV_COLUMNS, true);
    let cells = |p: &Option<Pooled>| match p {
        Some(p) => [p.median.to_string(), p.n.to_string()],
        None => [String::new(), "0".into()],
    };
    for r in &answer.rows {
        let mut row = vec![r.drive.clone(), r.test.clone(), r.key.id(), r.unit.clone()];
        for p in [&r.burst, &r.after_cache, &r.cache_gib, &r.recovered, &r.steady] {
            row.extend(cells(p));
        }
        row.push(r.unsettled.to_string());
        table.row(row);
    }
    table.finish()
}

/// Which chart of `GET /compare/sustained.svg|png`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum SustainedChart {
    /// MB/s over GiB written, one line per write sampled over its run.
    Saturation,
    /// Mean latency against IOPS over a load sweep, one line per run, its knee ringed.
    Sweep,
}

/// The chart embeds' parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct SustainedChartParams {
    /// 1 to 12 catalogue drive ids, comma-separated
    #[param(inline)]
    pub(super) drives: DriveIds,
    /// Which chart
    #[param(inline)]
    chart: SustainedChart,
    /// The test, with its tool family: for `saturation` a write as its runs name it (`fio
    /// SEQ 1MiB Q8T1 write avg`, default the first), for `sweep` the curve's test without
    /// its load (`fio RND 4KiB read`, default the first); without the family, the first
    /// family's. Only runs of the same test and tool family are drawn together
    #[param(example = "fio RND 4KiB read")]
    test: Option<String>,
    /// Colours (default `light`)
    #[param(inline)]
    theme: Option<ChartTheme>,
    /// Pixels (default 720); the height follows from the lines
    #[param(inline)]
    width: Option<ChartWidth>,
}

/// The burst-and-sustained chart as SVG, for embedding
///
/// `chart=saturation`: each write sampled over its run as MB/s over GiB written (a write
/// cache shows as a step down, its end ringed); `chart=sweep`: mean latency against IOPS
/// at each load of a sweep, its knee ringed. One line per run, coloured by drive.
#[utoipa::path(
    get,
    path = "/compare/sustained.svg",
    operation_id = "compare_sustained_chart_svg",
    tag = "drives",
    params(SustainedChartParams, TagFilters),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "No drives, no chart, an unknown parameter or a value that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue, or none of their results has such a run",
            body = ErrorBody),
    )
)]
async fn chart_svg(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<SustainedChartParams, TagFilters>,
) -> ApiResult<Response> {
    let style = ChartStyle::new(params.theme, params.width);
    let (chart, caption) = line_chart(&state, &params, filters).await?;
    let theme = style.theme;
    embed::svg(style, charts::line_chart_height(&chart), caption, move |area| {
        charts::draw_lines(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await
}

/// The burst-and-sustained chart as PNG, for embedding
///
/// The same chart as `GET /compare/sustained.svg`, as a PNG image.
#[utoipa::path(
    get,
    path = "/compare/sustained.png",
    operation_id = "compare_sustained_chart_png",
    tag = "drives",
    params(SustainedChartParams, TagFilters),
    responses(
        (status = 200, description = "The chart", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the chart's current `ETag`"),
        (status = 400, description = "No drives, no chart, an unknown parameter or a value that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue, or none of their results has such a run",
            body = ErrorBody),
    )
)]
async fn chart_png(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<SustainedChartParams, TagFilters>,
) -> ApiResult<Response> {
    let style = ChartStyle::new(params.theme, params.width);
    let (chart, caption) = line_chart(&state, &params, filters).await?;
    let theme = style.theme;
    embed::png(style, charts::line_chart_height(&chart), caption, move |area| {
        charts::draw_lines(area, &chart, theme).map(drop).map_err(|e| e.to_string())
    })
    .await
}

/// The chart `params` ask for and its caption.
pub(super) async fn line_chart(
    state: &AppState,
    params: &SustainedChartParams,
    filters: TagFilters,
) -> ApiResult<(charts::LineChart, String)> {
    let answer = sustained_of(state, params.drives.ids(), filters).await?;
    chart_of(&answer, params.chart, params.test.as_deref())
}

/// A run's line name: its drive, and the result it is.
fn run_name(drive: &str, result: i64) -> String {
    format!("{drive} · result {result}")
}

/// The chart of `answer`: every run of one test (the one asked, or the first found).
pub(crate) fn chart_of(
    answer: &Sustained,
    chart: SustainedChart,
    test: Option<&str>,
) -> ApiResult<(charts::LineChart, String)> {
    let color = |drive: &str| answer.drives.iter().position(|d| d == drive).unwrap_or(0);
    let none = |what: &str, known: Vec<String>| {
        let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        ApiError::not_found(
            format!("no result of these drives has {what}; theirs: {known}"),
            Some("test".into()),
        )
    };
    match chart {
        SustainedChart::Saturation => {
            let known = answer.saturation_tests();
            let wanted = test.map(str::to_string).or_else(|| known.first().cloned());
            // By id (with the tool family), or by the name alone (the first family's runs).
            let runs: Vec<&SaturationRun> = answer
                .saturation
                .iter()
                .filter(|s| wanted.as_ref().is_some_and(|w| *w == s.key.id() || *w == s.test))
                .collect();
            // Of one test and tool family: the first run's key decides.
            let Some(first) = runs.first() else {
                return Err(none(
                    &format!("a write sampled over time of {:?}", wanted.unwrap_or_default()),
                    known,
                ));
            };
            let series = runs
                .iter()
                .filter(|s| s.key == first.key)
                .map(|s| {
                    let gib = |bytes: u64| bytes as f64 / (1u64 << 30) as f64;
                    let points: Vec<(f64, f64)> = s.points.iter().map(|p| (gib(p.bytes), p.mbps)).collect();
                    // Ring the point where the cache ran out: the first interval past it.
                    let marked = match s.cache {
                        Some(WriteCache::Found { cache_bytes, .. }) => {
                            s.points.iter().position(|p| p.bytes >= cache_bytes)
                        }
                        _ => None,
                    };
                    charts::LineSeries {
                        name: run_name(&s.drive, s.result),
                        points,
                        marked,
                        color: color(&s.drive),
                    }
                })
                .collect();
            let caption = format!("SSDBase · {} over the GiB it wrote, one line per run", first.key.id());
            Ok((charts::LineChart { x_unit: "GiB written".into(), y_unit: "MB/s".into(), series }, caption))
        }
        SustainedChart::Sweep => {
            let known = answer.sweep_tests();
            let wanted = test.map(str::to_string).or_else(|| answer.curves.first().map(|c| c.curve.key.id()));
            // By id (with the tool family), or by the name alone (the first family's curves).
            let runs: Vec<&DriveCurve> = answer
                .curves
                .iter()
                .filter(|c| wanted.as_ref().is_some_and(|w| *w == c.curve.key.id() || *w == c.curve.test))
                .collect();
            let Some(first) = runs.first() else {
                return Err(none(&format!("a load curve of {:?}", wanted.unwrap_or_default()), known));
            };
            let series = runs
                .iter()
                .filter(|c| c.curve.key == first.curve.key)
                .map(|c| {
                    // Points without both figures are left out; the knee keeps its point.
                    let kept: Vec<(usize, (f64, f64))> = c
                        .curve
                        .points
                        .iter()
                        .enumerate()
                        .filter_map(|(i, p)| Some((i, (p.iops?, p.latency_us?))))
                        .collect();
                    charts::LineSeries {
                        name: run_name(&c.drive, c.result),
                        marked: c.curve.knee.and_then(|k| kept.iter().position(|(i, _)| *i == k)),
                        points: kept.into_iter().map(|(_, p)| p).collect(),
                        color: color(&c.drive),
                    }
                })
                .collect();
            let caption = format!(
                "SSDBase · {}: mean latency against IOPS at each load, the knee ringed",
                first.curve.key.id()
            );
            Ok((
                charts::LineChart { x_unit: "IOPS".into(), y_unit: "mean latency (µs)".into(), series },
                caption,
            ))
        }
    }
}
