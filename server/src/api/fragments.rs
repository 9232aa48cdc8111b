//! The site's HTML fragments, outside `/api/v1`: the API answers data (JSON, CSV); these
//! are the tables and notices as the site shows them, rendered by `crate::html` from the
//! same readings as the API's answers, so the site's wasm carries no table code. Each
//! is `/fragments` + the API path it renders, with the same parameters.

use super::browse::TagFilters;
use super::compare::CompareParams;
use super::extract::{asked, read_query, FilteredQuery, NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use super::{drives, effects, leaderboard, load, observations, rated, results, standing, sustained};
use crate::error::ApiResult;
use crate::html;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/fragments/drives/index", get(drive_index))
        .route("/fragments/drives/suggestions", get(suggestions))
        .route("/fragments/drives/identify", get(identify))
        .route("/fragments/drives/{id}/rated", get(drive_rated))
        .route("/fragments/drives/{id}/observations", get(observations))
        .route("/fragments/drives/{id}/firmware", get(firmware))
        .route("/fragments/leaderboard", get(leaderboard))
        .route("/fragments/compare/rated", get(compare_rated))
        .route("/fragments/compare/sustained", get(compare_sustained))
        .route("/fragments/controllers/{model}/rated", get(controller_rated))
        .route("/fragments/controllers/{model}/drives", get(controller_drives))
        .route("/fragments/results/{id}/runner", get(runner))
        .route("/fragments/results/{id}/standing", get(standing))
        .route("/fragments/results/{id}/load", get(load_behaviour))
        .route("/fragments/effects", get(effects_table))
        .route("/fragments/effects/drives", get(effect_drives))
}

/// The drives index (`/drives`): a page of drives with their key figures.
async fn drive_index(
    State(state): State<AppState>,
    FilteredQuery(params, filter): FilteredQuery<leaderboard::IndexParams, api_types::DriveFilter>,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let (index, sort) = leaderboard::drive_index(&state, params, filter).await?;
    Ok(html::response(html::catalogue::index(&index, &asked(&query.unwrap_or_default()), sort.name())))
}

/// The filter fields' suggestions, as `<datalist>`s the site's inputs name.
async fn suggestions(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(html::response(html::catalogue::suggestions(&leaderboard::filter_suggestions(&state).await?)))
}

/// A leaderboard of one test (`/leaderboard`).
async fn leaderboard(State(state): State<AppState>, RawQuery(query): RawQuery) -> ApiResult<Response> {
    Ok(html::response(leaderboard_table(&state, &query.unwrap_or_default()).await?))
}

/// The leaderboard that `query` (the page's, with its `test`) asks for, as the site shows
/// it: the fragment, and the first paint of the leaderboard page (`crate::site`).
pub(crate) async fn leaderboard_table(state: &AppState, query: &str) -> ApiResult<maud::Markup> {
    let (params, filter) = read_query::<leaderboard::LeaderboardParams, api_types::DriveFilter>(query)?;
    let cache_of = filter.clone();
    let (board, limit) = leaderboard::leaderboard_of(state, params, filter).await?;
    let limits = (limit, leaderboard::LEADERBOARD_MAX as usize, leaderboard::DEFAULT_MIN_RESULTS);
    let table = html::catalogue::leaderboard(&board, limits, &asked(query));
    // An after-cache rate's leaderboard: the same runs ranked by the cache they found, below.
    let caches = match leaderboard::after_cache_of(&board.test) {
        Some(test) => Some(leaderboard::cache_leaderboard_of(state, test, &cache_of).await?),
        None => None,
    };
    Ok(maud::html! { (table) @if let Some(c) = &caches { (html::sustained::cache_ranking(c)) } })
}

/// The submit page's proposal of the drive an upload names (empty when none).
async fn identify(
    State(state): State<AppState>,
    TypedQuery(params): TypedQuery<drives::IdentifyParams>,
) -> ApiResult<Response> {
    Ok(html::response(html::notices::named_drive(&drives::identify_of(&state, params).await?)))
}

fn rated_table(t: rated::RatedOf) -> Response {
    html::response(html::tables::rated(&t.table, &t.data, t.pools))
}

async fn drive_rated(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(rated_table(rated::drive_rated(&state, &id).await?.0))
}

async fn compare_rated(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<CompareParams, TagFilters>,
) -> ApiResult<Response> {
    Ok(rated_table(rated::compare_rated(&state, &params, filters).await?))
}

async fn compare_sustained(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<sustained::SustainedParams, TagFilters>,
) -> ApiResult<Response> {
    let mut asked = vec![("drives".to_string(), params.drives.ids().join(","))];
    asked.extend(filters.asked.iter().cloned());
    let answer = sustained::sustained_of(&state, params.drives.ids(), filters).await?;
    Ok(html::response(html::sustained::sustained(&answer, &asked)))
}

async fn controller_rated(
    State(state): State<AppState>,
    PathParam(model): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(rated_table(rated::controller_rated(&state, &model).await?))
}

/// The catalogue drives on controller `model` with their result counts (the controller
/// page's table: its drives, not the whole catalogue).
async fn controller_drives(
    State(state): State<AppState>,
    PathParam(model): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    let drives = rated::drives_on_controller(&state, &model).await?;
    let ids: Vec<String> = drives.iter().map(|d| d.id.clone()).collect();
    let counts = state.storage.result_counts(&ids).await?;
    let rows: Vec<(bench::DriveSku, i64)> = drives
        .into_iter()
        .map(|d| {
            let n = counts.get(&d.id).copied().unwrap_or(0);
            (d, n)
        })
        .collect();
    Ok(html::response(html::catalogue::controller_drives(&rows)))
}

/// What the sources say about a drive besides tool results (empty when nothing).
async fn observations(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    let found = observations::observations_of_drive(&state, &id).await?;
    Ok(html::response(html::tables::observations(&found)))
}

/// How `ssdbase bench` says it measured a result.
async fn runner(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(html::response(html::notices::runner_record(&results::runner_record_of(&state, &headers, id).await?)))
}

/// A result's tests under several loads and its latency percentiles (empty without).
async fn load_behaviour(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(html::response(html::curves::load_behaviour(&load::load_of(&state, &headers, id).await?)))
}

/// The factor effects, of one factor or all (`/effects`).
async fn effects_table(
    State(state): State<AppState>,
    TypedQuery(p): TypedQuery<effects::EffectsParams>,
) -> ApiResult<Response> {
    let factor = p.factor.map(|f| f.name());
    Ok(html::response(html::effects::effects(&effects::effects_of(&state, factor).await?, factor)))
}

/// The drives behind one effect.
async fn effect_drives(
    State(state): State<AppState>,
    TypedQuery(p): TypedQuery<effects::EffectParams>,
) -> ApiResult<Response> {
    Ok(html::response(html::effects::effect_drives(&effects::drives_of(&state, p).await?)))
}

/// A drive's firmware over time (empty when fewer than two versions share a test).
async fn firmware(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(html::response(html::effects::firmware(&drives::firmware_of(&state, &id).await?)))
}

/// Where a result stands in its drive's pool, and what may explain a difference.
async fn standing(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    Ok(html::response(html::effects::standing(&standing::standing_of(&state, &headers, id).await?)))
}
