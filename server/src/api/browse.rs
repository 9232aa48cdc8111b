//! The browse query language of `GET /results` (and of the compare and rated routes'
//! tag filters): a filter per field of `bench::FIELDS` and per test descriptor, `sort`,
//! `cursor` (keyset pagination), `limit`, `include_hidden` and `format`. Unknown names
//! are errors, not silently ignored.

use crate::error::{ApiError, ApiResult, ErrorItem};
use crate::storage::{
    result_filter, result_sort, result_sorts, Cursor, FilterKind, ResultQuery, Sort, METRIC_FILTERS,
};
use bench::FieldValue;

pub(super) const DEFAULT_LIMIT: i64 = 50;
pub(super) const MAX_LIMIT: i64 = 500;

/// `json` (the default) or `csv` (formula-like cells prefixed with an apostrophe).
#[derive(Debug, Clone, Copy, PartialEq, utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
pub(crate) enum OutputFormat {
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

/// One `name=value` filter as the column and typed value it compares.
pub(super) fn filter_value(
    kind: FilterKind,
    name: &str,
    v: &str,
) -> Result<(&'static str, FieldValue), ErrorItem> {
    match kind {
        FilterKind::Text(col) => Ok((col, FieldValue::Text(v.to_string()))),
        FilterKind::Int(col) => v.parse::<i64>().map(|i| (col, FieldValue::Int(i))).map_err(|_| ErrorItem {
            detail: format!("{name} must be a whole number, not {v:?}"),
            pointer: Some(name.to_string()),
        }),
    }
}

/// `newest` (the default), `oldest`, or a name of [`result_sorts`], `-` first for
/// descending.
fn parse_sort(v: &str) -> Option<Sort> {
    let (name, descending) = match v {
        "newest" => ("created", true),
        "oldest" => ("created", false),
        _ => v.strip_prefix('-').map_or((v, false), |n| (n, true)),
    };
    result_sort(name).map(|column| Sort { column, descending })
}

/// A cursor is the last result's id, then (for sorts other than `created`) a dot and its
/// sort value: `1234` or `1234.Crucial RealSSD C300`.
pub(super) fn format_cursor(c: &Cursor, sort: Sort) -> String {
    match &c.value {
        // A bare id is a cursor of its own (the page after that result, looked up), so
        // only the id sort, whose value is the id, leaves the value out.
        FieldValue::Int(_) if sort.column == FilterKind::Int("id") => c.id.to_string(),
        FieldValue::Int(v) => format!("{}.{v}", c.id),
        FieldValue::Text(v) => format!("{}.{v}", c.id),
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
        (FilterKind::Int("id"), _) => Some(FieldValue::Int(id)),
        (FilterKind::Int(_), Some(v)) => v.parse().ok().map(FieldValue::Int),
        (FilterKind::Text(_), Some(v)) => Some(FieldValue::Text(v.to_string())),
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
#[cfg(test)] // the handler reads the cursor too; callers that mean a query build it typed
pub(crate) fn parse_list_query(pairs: &[(String, String)]) -> ApiResult<(ResultQuery, OutputFormat)> {
    parse_list_request(pairs).map(|(q, f, _)| (q, f))
}

/// [`parse_list_query`] with the cursor that still needs its result looked up.
pub(super) fn parse_list_request(
    pairs: &[(String, String)],
) -> ApiResult<(ResultQuery, OutputFormat, Option<i64>)> {
    let mut q = ResultQuery { limit: DEFAULT_LIMIT, ..Default::default() };
    let mut format = OutputFormat::Json;
    let mut cursor: Option<String> = None;
    let mut errors = Vec::new();
    let bad = |name: &str, detail: String| ErrorItem { detail, pointer: Some(name.to_string()) };
    for (name, v) in pairs {
        let name = name.as_str();
        if let Some(kind) = result_filter(name) {
            match filter_value(kind, name, v) {
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
                        let names: Vec<&str> = result_sorts().collect();
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
                    let known: Vec<&str> = bench::FIELDS
                        .iter()
                        .map(|f| f.name)
                        .chain(METRIC_FILTERS.iter().map(|(n, _)| *n))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn a_cursor_whose_value_equals_its_id_reads_back() {
        let sort = Sort { column: FilterKind::Int("drive_capacity_gb"), descending: true };
        let c = Cursor { value: FieldValue::Int(120), id: 120 };
        assert_eq!(parse_cursor(&format_cursor(&c, sort), sort), Some(PageStart::After(c)));
        let c = Cursor { value: FieldValue::Int(64), id: 120 };
        assert_eq!(parse_cursor(&format_cursor(&c, sort), sort), Some(PageStart::After(c)));
        // By id the value is the id and stays out; a bare id in another sort is looked up.
        let by_id = Sort { column: FilterKind::Int("id"), descending: true };
        let c = Cursor { value: FieldValue::Int(120), id: 120 };
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
        assert_eq!(q.metric_filters, vec![("block_size", FieldValue::Int(4096))]);
        let Err(ApiError::BadRequest(errs)) = parse_list_query(&pairs(&[("colour", "red"), ("limit", "0")]))
        else {
            panic!("expected 400")
        };
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].pointer.as_deref(), Some("colour"));
    }
}
