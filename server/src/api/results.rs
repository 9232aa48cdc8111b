//! `POST /api/v1/results` (submit), `GET /api/v1/results` (browse, `?format=csv`) and
//! `GET /api/v1/results/{id}`.

use super::extract::{JsonBody, PathParam, QueryPairs};
use super::{result_url, AppState};
use crate::error::{ApiError, ApiResult, ErrorItem};
use crate::ingest;
use crate::storage::{
    cursor_after, Cursor, FilterKind, FilterValue, NewResult, NewSubmission, ResultQuery, Sort, StoredResult,
    Submitted, METRIC_FILTERS, RESULT_FILTERS, RESULT_SORTS,
};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use bench::analysis::Flag;
use bench::text::Document;
use bench::{BenchResult, Format, Tags};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;

pub fn router() -> Router<AppState> {
    Router::new().route("/results", get(list).post(submit)).route("/results/{id}", get(get_one))
}

// ---------------------------------------------------------------------------------------
// Submit
// ---------------------------------------------------------------------------------------

/// A submission: a result file as text (any format the bench crate reads), or one
/// result in the public result format; with tags.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitBody {
    text: Option<String>,
    /// Skip auto-detection for `text`: cdm, kdiskmark, fio, orion, asssd, hdtune.
    format: Option<String>,
    result: Option<BenchResult>,
    #[serde(default)]
    tags: Tags,
    source: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SubmittedResult {
    id: i64,
    url: String,
    flags: Vec<Flag>,
}

#[derive(Debug, Serialize)]
pub struct SubmitResponse {
    /// The first (usually the only) stored result.
    id: i64,
    url: String,
    /// Secret that allows correcting or deleting the submission later; only returned
    /// when the submission is new.
    edit_token: Option<String>,
    flags: Vec<Flag>,
    duplicate: bool,
    /// Every result of the submission (a pasted file may hold several runs).
    results: Vec<SubmittedResult>,
}

async fn submit(
    State(state): State<AppState>,
    connect: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: JsonBody<SubmitBody>,
) -> ApiResult<Response> {
    let JsonBody { value: req, raw } = body;
    let (results, stored_body, content_hash, format) = match (req.text, req.result) {
        (Some(text), None) => {
            let format = match req.format.as_deref() {
                None => None,
                Some(id) => Some(Format::from_id(id).ok_or_else(|| {
                    let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
                    ApiError::unprocessable(
                        format!("unknown format {id:?}; expected one of {}", ids.join(", ")),
                        Some("format".into()),
                    )
                })?),
            };
            let doc = Document::from_text(text.clone());
            let format = format.or_else(|| bench::detect(&doc));
            let results = bench::parse_document(&doc, format).map_err(|e| {
                let pointer = Some(match e.line {
                    Some(line) => format!("text line {line}"),
                    None => "text".to_string(),
                });
                ApiError::unprocessable(e.to_string(), pointer)
            })?;
            let bytes = text.into_bytes();
            let hash = ingest::sha256_hex(&bytes);
            (results, bytes, hash, format.map(|f| f.id().to_string()))
        }
        (None, Some(result)) => {
            if req.format.is_some() {
                return Err(ApiError::unprocessable("format applies to text only", Some("format".into())));
            }
            let results = vec![result];
            bench::parse::check_well_formed(&results)
                .map_err(|e| ApiError::unprocessable(e, Some("result.metrics".into())))?;
            // Equal results are equal uploads however the JSON was laid out.
            let canonical = serde_json::to_vec(&results[0]).expect("results serialise");
            (results, raw.to_vec(), ingest::sha256_hex(&canonical), Some("json".to_string()))
        }
        (Some(_), Some(_)) => {
            return Err(ApiError::unprocessable(
                "send either text or result, not both",
                Some("result".into()),
            ))
        }
        (None, None) => {
            return Err(ApiError::Unprocessable(vec![ErrorItem {
                detail: "missing the result: send text (a result file) or result (public result format)"
                    .into(),
                pointer: Some("text".into()),
            }]))
        }
    };

    let mut tags = req.tags;
    let sku = match tags.drive.sku.as_deref() {
        Some(id) => Some(state.storage.get_drive(id).await?.ok_or_else(|| {
            ApiError::unprocessable(
                format!("unknown drive {id:?}: not in the catalogue"),
                Some("tags.drive.sku".into()),
            )
        })?),
        None => None,
    };
    ingest::complete_tags(&mut tags, sku.as_ref());
    let (edit_token, edit_token_hash) = ingest::new_edit_token();
    let submission = NewSubmission {
        body: stored_body,
        content_hash,
        format,
        edit_token_hash,
        client: client_of(&headers, connect.map(|c| c.0 .0)),
        created_at: ingest::now_unix(),
        results: results
            .into_iter()
            .map(|result| NewResult {
                flags: ingest::flags_for(&result, &tags, sku.as_ref()),
                result,
                tags: tags.clone(),
                source: req.source.clone(),
            })
            .collect(),
    };
    match state.storage.submit(&submission).await? {
        Submitted::Stored { result_ids, .. } => {
            let results: Vec<SubmittedResult> = result_ids
                .iter()
                .zip(&submission.results)
                .map(|(&id, r)| SubmittedResult { id, url: result_url(id), flags: r.flags.clone() })
                .collect();
            let first = &results[0];
            let body = SubmitResponse {
                id: first.id,
                url: first.url.clone(),
                edit_token: Some(edit_token),
                flags: first.flags.clone(),
                duplicate: false,
                results,
            };
            let location = HeaderValue::from_str(&body.url).expect("urls are ascii");
            Ok((StatusCode::CREATED, [(header::LOCATION, location)], Json(body)).into_response())
        }
        Submitted::Duplicate { result_ids, .. } => {
            let mut results = Vec::new();
            for id in result_ids {
                let flags = state.storage.get_result(id).await?.map(|r| r.flags).unwrap_or_default();
                results.push(SubmittedResult { id, url: result_url(id), flags });
            }
            let first =
                results.first().ok_or_else(|| anyhow::anyhow!("stored submission without results"))?;
            let body = SubmitResponse {
                id: first.id,
                url: first.url.clone(),
                edit_token: None,
                flags: first.flags.clone(),
                duplicate: true,
                results,
            };
            Ok((StatusCode::OK, Json(body)).into_response())
        }
    }
}

/// Who sent a submission: the first `X-Forwarded-For` address (behind a proxy), else
/// the peer address.
fn client_of(headers: &HeaderMap, peer: Option<SocketAddr>) -> Option<String> {
    headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|s| s.trim().chars().take(64).collect())
        .or_else(|| peer.map(|p| p.ip().to_string()))
}

// ---------------------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------------------

/// A stored result as the API shows it.
#[derive(Debug, Serialize)]
pub struct ResultView {
    id: i64,
    url: String,
    submission_id: i64,
    created_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    test_names: Vec<String>,
    result: BenchResult,
    tags: Tags,
    flags: Vec<Flag>,
}

impl From<StoredResult> for ResultView {
    fn from(r: StoredResult) -> ResultView {
        ResultView {
            id: r.id,
            url: result_url(r.id),
            submission_id: r.submission_id,
            created_at: r.created_at,
            source: r.source,
            test_names: r.result.keyed_metrics().map(|(k, _)| k.short_name()).collect(),
            result: r.result,
            tags: r.tags,
            flags: r.flags,
        }
    }
}

async fn get_one(
    State(state): State<AppState>,
    PathParam(id): PathParam<i64>,
) -> ApiResult<Json<ResultView>> {
    match state.storage.get_result(id).await? {
        Some(r) if !r.hidden => Ok(Json(r.into())),
        _ => Err(ApiError::not_found(format!("no result {id}"), Some("id".into()))),
    }
}

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 500;

#[derive(Debug, Serialize)]
struct ListResponse {
    results: Vec<ResultView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    next_cursor: Option<String>,
}

#[derive(Debug, PartialEq)]
enum OutputFormat {
    Json,
    Csv,
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
fn format_cursor(c: &Cursor) -> String {
    match &c.value {
        FilterValue::Int(v) if *v == c.id => c.id.to_string(),
        FilterValue::Int(v) => format!("{}.{v}", c.id),
        FilterValue::Text(v) => format!("{}.{v}", c.id),
    }
}

fn parse_cursor(s: &str, sort: Sort) -> Option<Cursor> {
    let (id, value) = match s.split_once('.') {
        Some((id, value)) => (id.parse().ok()?, Some(value)),
        None => (s.parse().ok()?, None),
    };
    let value = match (sort.column, value) {
        (FilterKind::Int("id"), None) => FilterValue::Int(id),
        (FilterKind::Int(_), Some(v)) => FilterValue::Int(v.parse().ok()?),
        (FilterKind::Text(_), Some(v)) => FilterValue::Text(v.to_string()),
        _ => return None,
    };
    Some(Cursor { value, id })
}

/// Reads the browse query string: every tag filter by its public name, test
/// descriptor filters, `sort` (`newest`, the default, or `oldest`), `cursor`, `limit`
/// and `format` (`json` or `csv`). Unknown names are errors, not silently ignored.
fn parse_list_query(pairs: &[(String, String)]) -> ApiResult<(ResultQuery, OutputFormat)> {
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
                "format" => match v.as_str() {
                    "json" => format = OutputFormat::Json,
                    "csv" => format = OutputFormat::Csv,
                    _ => errors.push(bad(name, format!("format must be json or csv, not {v:?}"))),
                },
                _ => {
                    let known: Vec<&str> = RESULT_FILTERS
                        .iter()
                        .chain(METRIC_FILTERS)
                        .map(|(n, _)| *n)
                        .chain(["sort", "cursor", "limit", "format"])
                        .collect();
                    errors
                        .push(bad(name, format!("unknown parameter {name:?}; known: {}", known.join(", "))));
                }
            }
        }
    }
    // The cursor is read last: its value's type depends on the sort column.
    if let Some(c) = cursor {
        match parse_cursor(&c, q.sort) {
            Some(after) => q.after = Some(after),
            None => {
                errors.push(bad("cursor", format!("not a cursor from a previous page of this sort: {c:?}")))
            }
        }
    }
    if errors.is_empty() {
        Ok((q, format))
    } else {
        Err(ApiError::BadRequest(errors))
    }
}

async fn list(State(state): State<AppState>, QueryPairs(pairs): QueryPairs) -> ApiResult<Response> {
    let (mut q, format) = parse_list_query(&pairs)?;
    let limit = q.limit;
    q.limit += 1; // one more tells whether there is a next page
    let mut rows = state.storage.list_results(&q).await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|r| format_cursor(&cursor_after(r, q.sort)))
    } else {
        None
    };
    Ok(match format {
        OutputFormat::Json => {
            Json(ListResponse { results: rows.into_iter().map(ResultView::from).collect(), next_cursor })
                .into_response()
        }
        OutputFormat::Csv => {
            let mut res = (
                [
                    (header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8")),
                    (
                        header::CONTENT_DISPOSITION,
                        HeaderValue::from_static("attachment; filename=\"results.csv\""),
                    ),
                ],
                to_csv(&rows),
            )
                .into_response();
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
fn to_csv(rows: &[StoredResult]) -> String {
    fn cell(s: &str) -> String {
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
    fn opt<T: ToString>(v: &Option<T>) -> String {
        v.as_ref().map(T::to_string).unwrap_or_default()
    }
    fn name<T: Serialize>(v: &Option<T>) -> String {
        v.as_ref().map(crate::storage::enum_name).unwrap_or_default()
    }
    let mut out = CSV_HEADER.join(",");
    out.push_str("\r\n");
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
            let line: Vec<String> = cells.iter().map(|c| cell(c)).collect();
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
