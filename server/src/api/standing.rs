//! Why is this result different? `GET /results/{id}/standing`: where a result stands in
//! its drive's pool on each test, the fields in which it differs from its drive's usual
//! values (`bench::standing`), and the measured factor effect of each (`/effects`).

use super::extract::{NoQuery, PathParam, TypedQuery};
use super::results::visible_result;
use super::state::AppState;
use crate::error::{ApiResult, ErrorBody};
use api_types::{ResultStanding, StandingEffect, TestStandingView, UnusualField};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use bench::difference::Verdict;
use bench::effects::Effect;
use bench::standing::{setting_of, standing, unusual_factors};
use bench::{BenchResult, PlatformGroup};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_standing))
}

/// Why a result is different
///
/// Where the result stands among its drive's results on the same platform group and data
/// pattern, test by test (its value, the pool's median, n, and its percentile), the
/// fields in which it differs from the drive's most common values, and for each the
/// measured effect of the usual value against its own (`/effects`) on its tests, where
/// one was measured. `explained` is false when no clear or likely effect bears on it.
#[utoipa::path(
    get,
    path = "/results/{id}/standing",
    operation_id = "result_standing",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    responses(
        (status = 200, description = "Where it stands, and why", body = ResultStanding),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
        (status = 404, description = "No such result, or it was hidden by a moderator", body = ErrorBody),
    )
)]
async fn get_standing(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<ResultStanding>> {
    Ok(Json(standing_of(&state, &headers, id).await?))
}

/// Result `id`'s standing, when the caller may see it.
pub(crate) async fn standing_of(state: &AppState, headers: &HeaderMap, id: i64) -> ApiResult<ResultStanding> {
    let r = visible_result(state, headers, id).await?;
    let group = PlatformGroup::of(&r.tags);
    let pool_label = api_types::pool_label(&group.label(), r.result.data_pattern);
    let Some(drive) = r.tags.drive.sku.clone() else {
        return Ok(ResultStanding {
            result: id,
            drive: None,
            pool_label,
            tests: Vec::new(),
            unusual: Vec::new(),
            explained: false,
        });
    };
    let results = state
        .storage
        .results_for_drives(std::slice::from_ref(&drive), crate::storage::ResultFigures::All)
        .await?;
    let pool: Vec<&BenchResult> = results
        .iter()
        .filter(|o| PlatformGroup::of(&o.tags) == group && o.result.data_pattern == r.result.data_pattern)
        .map(|o| &o.result)
        .collect();
    let tests = standing(&r.result, &pool);
    let settings: Vec<_> = results.iter().map(|o| setting_of(&o.tags, &o.result)).collect();
    let mut unusual = Vec::new();
    for u in unusual_factors(&setting_of(&r.tags, &r.result), &settings) {
        let snapshot = state.storage.effects(Some(u.factor)).await?;
        let (a, b) = if u.usual < u.value { (&u.usual, &u.value) } else { (&u.value, &u.usual) };
        let effects = snapshot
            .effects
            .iter()
            .filter(|(k, _)| {
                &k.a == a && &k.b == b && tests.iter().any(|t| t.test == k.test && t.figure == k.figure)
            })
            .map(|(k, e)| {
                let (test_id, drives_url) = (k.test.id(), super::effects::drives_url(k));
                // Stored as a → b; read as usual → this result's value.
                let effect = if *a == u.usual { *e } else { inverted(e) };
                StandingEffect { test_id, effect, drives_url }
            })
            .collect();
        unusual.push(UnusualField {
            field: u.factor.to_string(),
            label: super::effects::label(u.factor),
            value: u.value,
            usual: u.usual,
            usual_count: u.usual_count,
            known: u.known,
            effects,
        });
    }
    let explained = unusual
        .iter()
        .flat_map(|u| &u.effects)
        .any(|e| matches!(e.effect.verdict, Verdict::Clear | Verdict::Likely));
    let tests = tests
        .into_iter()
        .map(|t| TestStandingView {
            test_id: t.test.id(),
            figure: t.figure,
            value: t.value,
            median: t.median,
            n: t.n,
            percentile: t.percentile,
        })
        .collect();
    Ok(ResultStanding { result: id, drive: Some(drive), pool_label, tests, unusual, explained })
}

/// The effect of `b` → `a` from that of `a` → `b`.
fn inverted(e: &Effect) -> Effect {
    Effect {
        ratio: 1.0 / e.ratio,
        low: e.high.map(|h| 1.0 / h),
        high: e.low.map(|l| 1.0 / l),
        n_a: e.n_b,
        n_b: e.n_a,
        ..*e
    }
}
