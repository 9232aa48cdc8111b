//! The `/api/v1/results` routes: browse (`GET /results`, `?format=csv`) and one result
//! (`GET /results/{id}`) here; submit in `submit.rs`; edit, delete, hide and restore in
//! `edit.rs`.

use super::browse::{format_cursor, list_request, ListFigures, ListParams, OutputFormat, ResultFilters};
use super::extract::{FilteredQuery, NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use super::submit;
use crate::csv_table;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::storage::{cursor_after, ResultFigures, StoredResult};
use api_types::links::api_result as result_url;
use api_types::{ListResponse, ResultView, RunnerRecord, UploadView};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, submit::submit))
        .routes(routes!(get_one))
        .routes(routes!(upload))
        .routes(routes!(runner_record))
}

// ---------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------

/// A stored result as the API shows it (without its upload's description). A function,
/// not a `From`: both types belong to other crates (`store`, `api-types`).
pub(crate) fn result_view(r: StoredResult) -> ResultView {
    ResultView {
        id: r.id,
        url: result_url(r.id),
        submission_id: r.submission_id,
        created_at: r.created_at,
        hidden: r.hidden,
        hidden_reason: r.hidden_reason,
        source: r.source,
        test_names: r.result.keyed_metrics().map(|(k, _)| k.short_name()).collect(),
        result: r.result,
        tags: r.tags,
        flags: r.flags,
        upload_url: format!("{}/upload", result_url(r.id)),
        upload: None,
    }
}

/// One result
///
/// A hidden result is 404 with a detail saying it was hidden, except for the moderator
/// (admin token), who sees it with `hidden` and `hidden_reason`.
#[utoipa::path(
    get,
    path = "/results/{id}",
    operation_id = "get_result",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    security((), ("admin_token" = [])),
    responses(
        (status = 200, description = "The result", body = ResultView),
        (status = 400, description = "The id is not a whole number", body = ErrorBody),
        (status = 404, description = "No such result, or it was hidden by a moderator", body = ErrorBody),
    )
)]
async fn get_one(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
) -> ApiResult<Json<ResultView>> {
    let r = visible_result(&state, &headers, id).await?;
    let mut view = result_view(r);
    view.upload = state.storage.upload_info(id).await?.map(|u| UploadView {
        format: u.format,
        ocr: u.provenance,
        runner: u.runner,
    });
    Ok(Json(view))
}

/// A stored result the caller may see: hidden ones only for the moderator.
pub(super) async fn visible_result(
    state: &AppState,
    headers: &HeaderMap,
    id: i64,
) -> ApiResult<StoredResult> {
    match state.storage.get_result(id).await? {
        Some(r) if !r.hidden || state.is_admin(headers) => Ok(r),
        Some(_) => {
            Err(ApiError::not_found(format!("result {id} was hidden by a moderator"), Some("id".into())))
        }
        None => Err(ApiError::not_found(format!("no result {id}"), Some("id".into()))),
    }
}

/// A result's original upload
///
/// The upload byte for byte. Result files go out as plain text (or bytes when not
/// UTF-8), screenshots as their image type, always with `nosniff` so that no browser
/// renders an upload as a page.
#[utoipa::path(
    get,
    path = "/results/{id}/upload",
    operation_id = "get_result_upload",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    security((), ("admin_token" = [])),
    responses(
        (status = 200, description = "The upload as received",
            content(("text/plain"), ("application/json"), ("application/octet-stream"), ("image/png"),
                ("image/jpeg"), ("image/gif"), ("image/bmp"), ("image/webp")),
            headers(("content-disposition" = String, description = "`inline` with a file name"))),
        (status = 400, description = "The id is not a whole number", body = ErrorBody),
        (status = 404, description = "No such result, or it was hidden by a moderator", body = ErrorBody),
    )
)]
async fn upload(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
) -> ApiResult<Response> {
    visible_result(&state, &headers, id).await?;
    let (format, body) = state
        .storage
        .upload_body(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no result {id}"), None))?;
    let (content_type, ext) = match format.as_deref() {
        Some(media) if media.starts_with("image/") => (media.to_string(), media.trim_start_matches("image/")),
        Some("json") => ("application/json".to_string(), "json"),
        _ if std::str::from_utf8(&body).is_ok() => ("text/plain; charset=utf-8".to_string(), "txt"),
        _ => ("application/octet-stream".to_string(), "txt"),
    };
    let disposition = format!("inline; filename=\"ssdbase-result-{id}-upload.{ext}\"");
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_str(&content_type).map_err(anyhow::Error::from)?),
            (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
        ],
        body,
    )
        .into_response())
}

/// How `ssdbase bench` says it measured a result
///
/// The runner's record sent with the result (also in the result's `upload.runner`): its
/// version and fio's, each test's fio job, every fact it found with where it was read,
/// the fields typed by hand. 404 when the result did not come from the runner.
#[utoipa::path(
    get,
    path = "/results/{id}/runner",
    operation_id = "get_result_runner",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    security((), ("admin_token" = [])),
    responses(
        (status = 200, description = "The record", body = RunnerRecord),
        (status = 400, description = "The id is not a whole number, or any query parameter", body = ErrorBody),
        (status = 404, description = "No such result, hidden, or not measured by ssdbase bench", body = ErrorBody),
    )
)]
async fn runner_record(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<RunnerRecord>> {
    Ok(Json(runner_record_of(&state, &headers, id).await?))
}

/// The runner's record of visible result `id`; 404 when it has none.
pub(crate) async fn runner_record_of(
    state: &AppState,
    headers: &HeaderMap,
    id: i64,
) -> ApiResult<RunnerRecord> {
    visible_result(state, headers, id).await?;
    state.storage.upload_info(id).await?.and_then(|u| u.runner).ok_or_else(|| {
        ApiError::not_found(format!("result {id} was not sent by ssdbase bench"), Some("id".into()))
    })
}

/// Browse and search results
///
/// Every filter is an equality on a tag (`drive`, `capacity_gb`, `chipset`, ...) or on
/// the test descriptor of some metric (`access`, `block_size`, `queue_depth`, `threads`,
/// `op`); unknown parameters are errors (400), not ignored. `next_cursor` (JSON) or the
/// `X-Next-Cursor` header (CSV) continues with the next page.
#[utoipa::path(
    get,
    path = "/results",
    operation_id = "list_results",
    tag = "results",
    params(ListParams, ResultFilters),
    security((), ("admin_token" = [])),
    responses(
        (status = 200, description = "One page of results, newest first unless sorted otherwise",
            content((ListResponse = "application/json"), (String = "text/csv")),
            headers(("x-next-cursor" = String,
                description = "CSV only: the cursor of the next page, percent-encoded; absent on the last page"))),
        (status = 400, description = "An unknown parameter or a value that does not read; every problem is listed",
            body = ErrorBody),
        (status = 403, description = "include_hidden without the admin token", body = ErrorBody),
        (status = 404, description = "The cursor names a result that is not there (pointer `cursor`)",
            body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    FilteredQuery(params, filters): FilteredQuery<ListParams, ResultFilters>,
) -> ApiResult<Response> {
    let figures = params.figures.unwrap_or_default();
    let (mut q, format, after_result) = list_request(params, filters)?;
    if figures == ListFigures::Burst {
        q.figures = ResultFigures::Burst;
    }
    if q.include_hidden && !state.is_admin(&headers) {
        return Err(ApiError::Forbidden("include_hidden is for moderators (send the admin token)".into()));
    }
    if let Some(id) = after_result {
        let at = state.storage.get_result(id).await?.ok_or_else(|| {
            ApiError::not_found(
                format!("cursor: result {id} is not there (deleted?): start again without a cursor"),
                Some("cursor".into()),
            )
        })?;
        q.after = Some(cursor_after(&at, q.sort));
    }
    let limit = q.limit;
    q.limit += 1; // one more tells whether there is a next page
    let mut rows = state.storage.list_results(&q).await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|r| format_cursor(&cursor_after(r, q.sort), q.sort))
    } else {
        None
    };
    if figures == ListFigures::Burst {
        // Rows stored before the burst column come whole.
        for r in &mut rows {
            bench::curves::keep_burst_only(&mut r.result);
        }
    }
    Ok(match format {
        OutputFormat::Json => {
            Json(ListResponse { results: rows.into_iter().map(result_view).collect(), next_cursor })
                .into_response()
        }
        OutputFormat::Csv => {
            let mut res = csv_table::response("results.csv", csv_table::results(&rows, true));
            if let Some(c) = next_cursor {
                // A text cursor may hold anything a user typed: percent-encode it for the header.
                let encoded = api_types::links::encode(&c);
                res.headers_mut().insert("x-next-cursor", HeaderValue::from_str(&encoded).expect("ascii"));
            }
            res
        }
    })
}
