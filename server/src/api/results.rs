//! The `/api/v1/results` routes: browse (`GET /results`, `?format=csv`) and one result
//! (`GET /results/{id}`) here; submit in `submit.rs`; edit, delete, hide and restore in
//! `edit.rs`.

use super::extract::{PathParam, QueryPairs};
use super::{edit, result_url, submit, AppState};
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorItem};
use crate::storage::{
    cursor_after, Cursor, FilterKind, FilterValue, ResultQuery, Sort, StoredResult, METRIC_FILTERS,
    RESULT_FILTERS, RESULT_SORTS,
};
use api_types::{ListResponse, ResultView, UploadView};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, submit::submit))
        .routes(routes!(get_one, edit::edit, edit::delete))
        .routes(routes!(upload))
        .routes(routes!(edit::hide))
        .routes(routes!(edit::restore))
}

// ---------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------

/// A stored result as the API shows it (without its upload's description).
impl From<StoredResult> for ResultView {
    fn from(r: StoredResult) -> ResultView {
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
    let mut view = ResultView::from(r);
    view.upload =
        state.storage.upload_info(id).await?.map(|u| UploadView { format: u.format, ocr: u.provenance });
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
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
        ],
        body,
    )
        .into_response())
}

pub(super) const DEFAULT_LIMIT: i64 = 50;
pub(super) const MAX_LIMIT: i64 = 500;

/// `json` (the default) or `csv` (formula-like cells prefixed with an apostrophe).
#[derive(Debug, Clone, Copy, PartialEq, utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
pub(super) enum OutputFormat {
    Json,
    Csv,
}

impl OutputFormat {
    /// The `format` query parameter.
    pub(super) fn parse(name: &str, v: &str) -> Result<OutputFormat, ErrorItem> {
        match v {
            "json" => Ok(OutputFormat::Json),
            "csv" => Ok(OutputFormat::Csv),
            _ => Err(ErrorItem {
                detail: format!("format must be json or csv, not {v:?}"),
                pointer: Some(name.to_string()),
            }),
        }
    }
}

/// A CSV answer (RFC 4180 lines) offered as a download named `file`.
pub(super) fn csv_response(file: &'static str, body: String) -> Response {
    let disposition = format!("attachment; filename=\"{file}\"");
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8")),
            (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).expect("ascii file name")),
        ],
        body,
    )
        .into_response()
}

/// One CSV cell: quoted when it holds a separator, quote or line break; a leading
/// apostrophe when a spreadsheet would read it as a formula.
pub(super) fn csv_cell(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) && s.parse::<f64>().is_err() {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// One `name=value` filter as the column and typed value it compares.
pub(super) fn filter_value(
    kind: FilterKind,
    name: &str,
    v: &str,
) -> Result<(&'static str, FilterValue), ErrorItem> {
    match kind {
        FilterKind::Text(col) => Ok((col, FilterValue::Text(v.to_string()))),
        FilterKind::Int(col) => v.parse::<i64>().map(|i| (col, FilterValue::Int(i))).map_err(|_| ErrorItem {
            detail: format!("{name} must be a whole number, not {v:?}"),
            pointer: Some(name.to_string()),
        }),
    }
}

/// `newest` (the default), `oldest`, or a column of [`RESULT_SORTS`], `-` first for
/// descending.
fn parse_sort(v: &str) -> Option<Sort> {
    let (name, descending) = match v {
        "newest" => ("created", true),
        "oldest" => ("created", false),
        _ => v.strip_prefix('-').map_or((v, false), |n| (n, true)),
    };
    RESULT_SORTS.iter().find(|(n, _)| *n == name).map(|(_, column)| Sort { column: *column, descending })
}

/// A cursor is the last result's id, then (for sorts other than `created`) a dot and its
/// sort value: `1234` or `1234.Crucial RealSSD C300`.
fn format_cursor(c: &Cursor, sort: Sort) -> String {
    match &c.value {
        // A bare id is a cursor of its own (the page after that result, looked up), so
        // only the id sort, whose value is the id, leaves the value out.
        FilterValue::Int(_) if sort.column == FilterKind::Int("id") => c.id.to_string(),
        FilterValue::Int(v) => format!("{}.{v}", c.id),
        FilterValue::Text(v) => format!("{}.{v}", c.id),
    }
}

/// The document's pattern for `cursor`: a result id (up to 18 digits), then optionally a
/// dot and anything. Every string it matches is read by [`parse_cursor`].
pub(crate) const CURSOR_PATTERN: &str = r"^[0-9]{1,18}(\..*)?$";

/// Where a page starts: after a position given whole, or after the position of a result
/// the server must look up (a cursor with only an id, or with a value that is not of the
/// sort's type: from another sort, or written by hand).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PageStart {
    After(Cursor),
    AfterResult(i64),
}

/// `None` unless `s` matches [`CURSOR_PATTERN`].
fn parse_cursor(s: &str, sort: Sort) -> Option<PageStart> {
    let (id, value) = s.split_once('.').map_or((s, None), |(id, v)| (id, Some(v)));
    if id.is_empty() || id.len() > 18 || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let id: i64 = id.parse().ok()?;
    let value = match (sort.column, value) {
        (FilterKind::Int("id"), _) => Some(FilterValue::Int(id)),
        (FilterKind::Int(_), Some(v)) => v.parse().ok().map(FilterValue::Int),
        (FilterKind::Text(_), Some(v)) => Some(FilterValue::Text(v.to_string())),
        _ => None,
    };
    Some(match value {
        Some(value) => PageStart::After(Cursor { value, id }),
        None => PageStart::AfterResult(id),
    })
}

/// Reads the browse query string: every tag filter by its public name, test
/// descriptor filters, `sort` (`newest`, the default, or `oldest`), `cursor`, `limit`
/// and `format` (`json` or `csv`). Unknown names are errors, not silently ignored.
pub(crate) fn parse_list_query(pairs: &[(String, String)]) -> ApiResult<(ResultQuery, OutputFormat)> {
    parse_list_request(pairs).map(|(q, f, _)| (q, f))
}

/// [`parse_list_query`] with the cursor that still needs its result looked up.
fn parse_list_request(pairs: &[(String, String)]) -> ApiResult<(ResultQuery, OutputFormat, Option<i64>)> {
    let mut q = ResultQuery { limit: DEFAULT_LIMIT, ..Default::default() };
    let mut format = OutputFormat::Json;
    let mut cursor: Option<String> = None;
    let mut errors = Vec::new();
    let bad = |name: &str, detail: String| ErrorItem { detail, pointer: Some(name.to_string()) };
    for (name, v) in pairs {
        let name = name.as_str();
        if let Some((_, kind)) = RESULT_FILTERS.iter().find(|(n, _)| *n == name) {
            match filter_value(*kind, name, v) {
                Ok(f) => q.filters.push(f),
                Err(e) => errors.push(e),
            }
        } else if let Some((_, kind)) = METRIC_FILTERS.iter().find(|(n, _)| *n == name) {
            match filter_value(*kind, name, v) {
                Ok(f) => q.metric_filters.push(f),
                Err(e) => errors.push(e),
            }
        } else {
            match name {
                "sort" => match parse_sort(v) {
                    Some(sort) => q.sort = sort,
                    None => {
                        let names: Vec<&str> = RESULT_SORTS.iter().map(|(n, _)| *n).collect();
                        errors.push(bad(
                            name,
                            format!(
                                "sort must be newest, oldest, or one of {} (prefix - for descending), not {v:?}",
                                names.join(", ")
                            ),
                        ))
                    }
                },
                "cursor" => cursor = Some(v.clone()),
                "limit" => match v.parse::<i64>() {
                    Ok(n) if (1..=MAX_LIMIT).contains(&n) => q.limit = n,
                    _ => errors.push(bad(name, format!("limit must be 1 to {MAX_LIMIT}, not {v:?}"))),
                },
                "include_hidden" => match v.as_str() {
                    "true" | "1" => q.include_hidden = true,
                    "false" | "0" => q.include_hidden = false,
                    _ => errors.push(bad(name, format!("include_hidden must be true or false, not {v:?}"))),
                },
                "format" => match OutputFormat::parse(name, v) {
                    Ok(f) => format = f,
                    Err(e) => errors.push(e),
                },
                _ => {
                    let known: Vec<&str> = RESULT_FILTERS
                        .iter()
                        .chain(METRIC_FILTERS)
                        .map(|(n, _)| *n)
                        .chain(["sort", "cursor", "limit", "format", "include_hidden"])
                        .collect();
                    errors
                        .push(bad(name, format!("unknown parameter {name:?}; known: {}", known.join(", "))));
                }
            }
        }
    }
    // The cursor is read last: its value's type depends on the sort column.
    let mut after_result = None;
    if let Some(c) = cursor {
        match parse_cursor(&c, q.sort) {
            Some(PageStart::After(after)) => q.after = Some(after),
            Some(PageStart::AfterResult(id)) => after_result = Some(id),
            None => errors.push(bad(
                "cursor",
                format!("not a cursor (a result id, optionally a dot and its sort value): {c:?}"),
            )),
        }
    }
    if errors.is_empty() {
        Ok((q, format, after_result))
    } else {
        Err(ApiError::BadRequest(errors))
    }
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
    // The filters, `sort` and `limit` are added from the tables the handler reads
    // (`api::openapi::finish`), so the document cannot drift from what is accepted.
    params(
        ("cursor" = Option<String>, Query, example = "1234",
            description = "`next_cursor` of the previous page (a result id, then for sorts other than \
                `newest`/`oldest` a dot and its sort value); a bare result id starts after that result \
                in any sort"),
        ("format" = inline(Option<OutputFormat>), Query),
        ("include_hidden" = Option<bool>, Query,
            description = "Also list hidden results (moderators only: send the admin token)"),
    ),
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
    QueryPairs(pairs): QueryPairs,
) -> ApiResult<Response> {
    let (mut q, format, after_result) = parse_list_request(&pairs)?;
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
    Ok(match format {
        OutputFormat::Json => {
            Json(ListResponse { results: rows.into_iter().map(ResultView::from).collect(), next_cursor })
                .into_response()
        }
        OutputFormat::Csv => {
            let mut res = csv_response("results.csv", to_csv(&rows, true));
            if let Some(c) = next_cursor {
                // A text cursor may hold anything a user typed: percent-encode it for the header.
                let encoded: String = form_urlencoded::byte_serialize(c.as_bytes()).collect();
                res.headers_mut().insert("x-next-cursor", HeaderValue::from_str(&encoded).expect("ascii"));
            }
            res
        }
    })
}

const CSV_HEADER: &[&str] = &[
    "result_id",
    "drive_sku",
    "vendor",
    "model",
    "capacity_gb",
    "controller",
    "firmware",
    "chipset",
    "storage_controller",
    "driver",
    "os",
    "tool",
    "tool_version",
    "data_pattern",
    "test_size_bytes",
    "label",
    "test",
    "access",
    "block_size",
    "queue_depth",
    "threads",
    "op",
    "mix_read_percent",
    "stat",
    "mbps",
    "iops",
    "latency_us",
];

/// One CSV row per metric (RFC 4180 quoting). Cells that a spreadsheet would read as a
/// formula get a leading apostrophe.
pub(crate) fn to_csv(rows: &[StoredResult], header: bool) -> String {
    fn opt<T: ToString>(v: &Option<T>) -> String {
        v.as_ref().map(T::to_string).unwrap_or_default()
    }
    fn name<T: Serialize>(v: &Option<T>) -> String {
        v.as_ref().map(crate::storage::enum_name).unwrap_or_default()
    }
    let mut out = String::new();
    if header {
        out.push_str(&CSV_HEADER.join(","));
        out.push_str("\r\n");
    }
    for r in rows {
        let t = &r.tags;
        let res = &r.result;
        for (key, m) in res.keyed_metrics() {
            let cells = [
                r.id.to_string(),
                opt(&t.drive.sku),
                opt(&t.drive.vendor),
                opt(&t.drive.model),
                opt(&t.drive.capacity_gb),
                opt(&t.controller.as_ref().and_then(|c| c.model.clone())),
                opt(&t.firmware),
                opt(&t.platform.chipset),
                opt(&t.platform.storage_controller),
                opt(&t.platform.driver),
                opt(&t.platform.os.clone().or_else(|| res.os.clone())),
                crate::storage::enum_name(&res.tool),
                opt(&res.tool_version),
                name(&res.data_pattern),
                opt(&res.test_size_bytes),
                m.label.clone(),
                key.short_name(),
                crate::storage::enum_name(&m.access),
                m.block_size.to_string(),
                m.queue_depth.to_string(),
                m.threads.to_string(),
                crate::storage::enum_name(&m.op),
                opt(&m.mix_read_percent),
                name(&m.stat),
                opt(&m.mbps),
                opt(&m.iops),
                opt(&m.latency_us),
            ];
            let line: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
            out.push_str(&line.join(","));
            out.push_str("\r\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn a_cursor_whose_value_equals_its_id_reads_back() {
        let sort = Sort { column: FilterKind::Int("capacity_gb"), descending: true };
        let c = Cursor { value: FilterValue::Int(120), id: 120 };
        assert_eq!(parse_cursor(&format_cursor(&c, sort), sort), Some(PageStart::After(c)));
        let c = Cursor { value: FilterValue::Int(64), id: 120 };
        assert_eq!(parse_cursor(&format_cursor(&c, sort), sort), Some(PageStart::After(c)));
        // By id the value is the id and stays out; a bare id in another sort is looked up.
        let by_id = Sort { column: FilterKind::Int("id"), descending: true };
        let c = Cursor { value: FilterValue::Int(120), id: 120 };
        assert_eq!(format_cursor(&c, by_id), "120");
        assert_eq!(parse_cursor("120", by_id), Some(PageStart::After(c)));
        assert_eq!(parse_cursor("120", sort), Some(PageStart::AfterResult(120)));
    }

    #[test]
    fn list_query_reads_filters_and_rejects_unknown_names() {
        let (q, f) = parse_list_query(&pairs(&[
            ("drive", "x"),
            ("capacity_gb", "64"),
            ("block_size", "4096"),
            ("format", "csv"),
        ]))
        .unwrap();
        assert_eq!(f, OutputFormat::Csv);
        assert_eq!(q.filters.len(), 2);
        assert_eq!(q.metric_filters, vec![("block_size", FilterValue::Int(4096))]);
        let Err(ApiError::BadRequest(errs)) = parse_list_query(&pairs(&[("colour", "red"), ("limit", "0")]))
        else {
            panic!("expected 400")
        };
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].pointer.as_deref(), Some("colour"));
    }
}
