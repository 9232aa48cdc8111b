//! How a result behaved under load: `GET /results/{id}/load`, its tests measured at
//! several loads as curves with their knees (`bench::curves`) and the latency
//! percentiles its tool printed.

use super::extract::{NoQuery, PathParam, TypedQuery};
use super::results::visible_result;
use super::state::AppState;
use crate::error::{ApiResult, ErrorBody};
use api_types::{LoadBehaviour, LoadCurveView, SampledTest, TestPercentiles};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use bench::curves::{knee, load_curves};
use bench::{BenchResult, TestKey};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_load))
}

/// How a result behaved under load
///
/// Each test the result measured at three or more loads (outstanding I/Os = queue depth ×
/// threads: a fio job file sweeping `iodepth`, ORION's columns) as a curve, fewest
/// outstanding I/Os first, with its knee: the first point from which every further step
/// grew latency faster than IOPS. And the completion-latency percentiles the tool printed
/// for each test. Curves are of one test each: their `key` is the test without its load.
/// And each test sampled while it ran (fio's `--status-interval`): its MB/s over every
/// interval, and whether that reached steady state as SNIA's PTS 2.0.2 defines it (five
/// consecutive intervals within 20 % of their average, their fitted line moving less
/// than 10 % of it), or the last window when it did not.
#[utoipa::path(
    get,
    path = "/results/{id}/load",
    operation_id = "result_load",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    responses(
        (status = 200, description = "Its curves and percentiles (both empty when it has none)", body = LoadBehaviour),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
        (status = 404, description = "No such result, or it was hidden by a moderator", body = ErrorBody),
    )
)]
async fn get_load(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<LoadBehaviour>> {
    Ok(Json(load_of(&state, &headers, id).await?))
}

/// Result `id`'s behaviour under load, when the caller may see it.
pub(crate) async fn load_of(state: &AppState, headers: &HeaderMap, id: i64) -> ApiResult<LoadBehaviour> {
    let stored = visible_result(state, headers, id).await?;
    Ok(load_behaviour(id, &stored.result))
}

/// A curve as the API shows it: named, with its knee.
pub(crate) fn curve_view(c: bench::curves::LoadCurve) -> LoadCurveView {
    LoadCurveView { test: c.key.name(), key: c.key, knee: knee(&c.points), points: c.points }
}

fn load_behaviour(id: i64, result: &BenchResult) -> LoadBehaviour {
    let family = result.family();
    let curves = load_curves(result).into_iter().map(curve_view).collect();
    let percentiles = result
        .metrics
        .iter()
        .filter(|m| !m.latency_percentiles.is_empty() || m.latency_spread.is_some())
        .map(|m| {
            let key = TestKey::of(family, m);
            TestPercentiles {
                test: key.short_name(),
                key,
                percentiles: m.latency_percentiles.clone(),
                spread: m.latency_spread.clone(),
            }
        })
        .collect();
    let over_time = result
        .over_time
        .iter()
        .filter_map(|s| {
            let key = TestKey::of(family, result.metrics.get(s.metric)?);
            let rates: Vec<f64> = s.points.iter().map(|p| p.mbps).collect();
            let write_cache =
                (key.op == bench::Op::Write).then(|| bench::cache::write_cache(&s.points)).flatten();
            // A write repeated after idle is set against the test's first run.
            let cache_recovered = (key.op == bench::Op::Write && s.after_idle_secs.is_some())
                .then(|| bench::cache::recovered_after_idle(&result.over_time, s.metric))
                .flatten();
            Some(SampledTest {
                test: key.short_name(),
                key,
                points: s.points.clone(),
                steadiness: bench::steady::steady_state(&rates),
                write_cache,
                after_idle_secs: s.after_idle_secs,
                cache_recovered,
            })
        })
        .collect();
    LoadBehaviour { result: id, curves, percentiles, over_time, mixed_loads: result.mixed_loads.clone() }
}
