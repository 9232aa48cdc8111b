//! The browse query language of `GET /results` (and of the compare and rated routes'
//! tag filters): a filter per field of `bench::FIELDS` and per test descriptor, `sort`,
//! `cursor` (keyset pagination), `limit`, `include_hidden` and `format`. Unknown names
//! are errors, not silently ignored. The filters are tables ([`TagFilters`],
//! [`ResultFilters`]) that read and document themselves from the same lists.

use super::extract::Bounded;
use crate::error::{ApiError, ApiResult};
use crate::storage::{
    column_of, result_filter, result_sort, result_sorts, Cursor, Filter, FilterKind, ResultQuery, Sort,
    METRIC_FILTERS,
};
use bench::fields::{parse_value, Kind};
use bench::FieldValue;
use serde_json::json;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Required};

pub(super) const DEFAULT_LIMIT: u64 = 50;
pub(super) const MAX_LIMIT: u64 = 500;

/// `limit` of `GET /results`.
type PageSize = Bounded<1, MAX_LIMIT>;

/// `json` (the default) or `csv` (formula-like cells prefixed with an apostrophe).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum OutputFormat {
    #[default]
    Json,
    Csv,
}

/// An equality filter per field of [`bench::FIELDS`] (`drive`, `capacity_gb`,
/// `chipset`, ...), as `GET /results`, the comparisons and the rated tables take them,
/// and the filters as asked (`name`, `value`), for links that repeat them.
#[derive(Debug, Default)]
pub(crate) struct TagFilters {
    pub filters: Vec<Filter>,
    pub asked: Vec<(String, String)>,
}

impl<'de> serde::Deserialize<'de> for TagFilters {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = read_filters(d, result_filter)?;
        Ok(TagFilters { filters: read.iter().map(|(_, f)| f.clone()).collect(), asked: read_back(read) })
    }
}

impl utoipa::IntoParams for TagFilters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        bench::FIELDS
            .iter()
            .map(|f| {
                let description = format!(
                    "Only results whose {} equals this value, e.g. `{}`.",
                    f.label.to_lowercase(),
                    f.example
                );
                filter_parameter(f.name, column_of(f), &description)
            })
            .collect()
    }
}

/// [`TagFilters`] and a filter per test descriptor of a metric (`access`,
/// `block_size`, `queue_depth`, `threads`, `op`): what `GET /results` filters by.
#[derive(Debug, Default)]
pub(crate) struct ResultFilters {
    pub tags: Vec<Filter>,
    pub metrics: Vec<Filter>,
}

impl<'de> serde::Deserialize<'de> for ResultFilters {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let metric = |name: &str| METRIC_FILTERS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k);
        let read = read_filters(d, |name| result_filter(name).or_else(|| metric(name)))?;
        let (tags, metrics): (Vec<_>, Vec<_>) =
            read.into_iter().partition(|(name, _)| result_filter(name).is_some());
        let filters = |list: Vec<(String, Filter)>| list.into_iter().map(|(_, f)| f).collect();
        Ok(ResultFilters { tags: filters(tags), metrics: filters(metrics) })
    }
}

impl utoipa::IntoParams for ResultFilters {
    fn into_params(provider: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let mut list = TagFilters::into_params(provider);
        list.extend(METRIC_FILTERS.iter().map(|(name, kind)| {
            let description = format!("Only results with a metric whose test `{name}` equals this value.");
            filter_parameter(name, *kind, &description)
        }));
        list
    }
}

/// Filters from a map of `name=value`, each name's kind from `kind_of`; a value that
/// does not read is an error at its name.
fn read_filters<'de, D: serde::Deserializer<'de>>(
    d: D,
    kind_of: impl Fn(&str) -> Option<FilterKind>,
) -> Result<Vec<(String, Filter)>, D::Error> {
    use serde::de::{DeserializeSeed, Error, MapAccess, Visitor};
    struct Filters<K>(K);
    struct Value(FilterKind);
    impl<'de> DeserializeSeed<'de> for Value {
        type Value = Filter;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Filter, D::Error> {
            let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
            filter_value(self.0, &text).map_err(D::Error::custom)
        }
    }
    impl<'de, K: Fn(&str) -> Option<FilterKind>> Visitor<'de> for Filters<K> {
        type Value = Vec<(String, Filter)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("filters, name=value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut read = Vec::new();
            while let Some(name) = map.next_key::<String>()? {
                let kind = (self.0)(&name).ok_or_else(|| A::Error::custom(format!("no filter {name:?}")))?;
                read.push((name, map.next_value_seed(Value(kind))?));
            }
            Ok(read)
        }
    }
    d.deserialize_map(Filters(kind_of))
}

/// The filters as asked, text as text and numbers as digits.
fn read_back(read: Vec<(String, Filter)>) -> Vec<(String, String)> {
    read.into_iter()
        .map(|(name, (_, value))| {
            let value = match value {
                FieldValue::Text(t) => t,
                FieldValue::Int(i) => i.to_string(),
            };
            (name, value)
        })
        .collect()
}

/// One equality filter, typed as [`filter_value`] reads it.
fn filter_parameter(name: &str, kind: FilterKind, description: &str) -> Parameter {
    let schema = match kind {
        FilterKind::Text(_) => ObjectBuilder::new().schema_type(Type::String),
        FilterKind::Int(_) => ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64))),
    };
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

/// The parameter of a route that answers JSON or CSV, and takes nothing else.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct FormatParams {
    /// `json` (default) or `csv`
    #[param(inline)]
    pub format: Option<OutputFormat>,
}

/// `GET /results`' own parameters (its filters are [`ResultFilters`]).
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ListParams {
    /// `next_cursor` of the previous page (a result id, then for sorts other than
    /// `newest`/`oldest` a dot and its sort value); a bare result id starts after that
    /// result in any sort
    #[param(inline)]
    cursor: Option<PageCursor>,
    /// `json` (default) or `csv`
    #[param(inline)]
    format: Option<OutputFormat>,
    /// Also list hidden results (moderators only: send the admin token)
    include_hidden: Option<bool>,
    /// Order: `newest` (the default) or `oldest` first, or by a column, ascending, or
    /// descending with a leading `-`. Ties go by result id in the same direction.
    #[param(inline)]
    sort: Option<SortName>,
    /// Results per page (default 50)
    #[param(inline)]
    limit: Option<PageSize>,
    /// `all` (the default): each result as stored; `burst`: each result's burst figures
    /// only, without the points of its load curves and its series over time (which its
    /// own page, `GET /results/{id}`, has)
    #[param(inline)]
    pub(super) figures: Option<ListFigures>,
}

/// `figures` of `GET /results`: a result as stored, or only its burst figures (what a
/// drive page lists; a sweep of 64 loads or an hour sampled every second is hundreds of
/// times a burst result's size).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ListFigures {
    #[default]
    All,
    Burst,
}

/// `cursor`, as written: read by [`parse_cursor`] once the sort is known.
#[derive(Debug, serde::Deserialize)]
#[serde(transparent)]
pub(super) struct PageCursor(String);

impl utoipa::PartialSchema for PageCursor {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new().schema_type(Type::String).pattern(Some(CURSOR_PATTERN)).examples(["1234"]).into()
    }
}

impl utoipa::ToSchema for PageCursor {}

/// `sort`, as written: read by [`parse_sort`].
#[derive(Debug, serde::Deserialize)]
#[serde(transparent)]
pub(super) struct SortName(String);

/// Every sort [`parse_sort`] reads, and the old names permalinks still carry.
impl utoipa::PartialSchema for SortName {
    fn schema() -> RefOr<Schema> {
        let mut values = vec!["newest".to_string(), "oldest".to_string()];
        let aliases = bench::fields::SORT_ALIASES.iter().map(|(alias, _)| *alias);
        for name in result_sorts().chain(aliases) {
            values.push(name.to_string());
            values.push(format!("-{name}"));
        }
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(values))
            .default(Some(json!("newest")))
            .into()
    }
}

impl utoipa::ToSchema for SortName {}

/// One filter of `kind` on value `v`: the column and the typed value it compares, read
/// as the tag forms read a field's value (`bench::fields::parse_value`).
fn filter_value(kind: FilterKind, v: &str) -> Result<Filter, String> {
    let (col, kind) = match kind {
        FilterKind::Text(col) => (col, Kind::Text),
        FilterKind::Int(col) => (col, Kind::Int),
    };
    parse_value(kind, col, v).map(|value| (col, value))
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

/// The browse query `GET /results` reads: its filters, `sort` (`newest`, the default,
/// `oldest` or a column), `cursor`, `limit` and `include_hidden`, the output format, and
/// a cursor's result id when the cursor's position must be looked up.
pub(super) fn list_request(
    params: ListParams,
    filters: ResultFilters,
) -> ApiResult<(ResultQuery, OutputFormat, Option<i64>)> {
    let mut q = ResultQuery {
        filters: filters.tags,
        metric_filters: filters.metrics,
        limit: params.limit.map_or(DEFAULT_LIMIT, |l| l.0) as i64,
        include_hidden: params.include_hidden.unwrap_or(false),
        ..Default::default()
    };
    let bad = |name: &str, detail: String| ApiError::bad_request(detail, Some(name.to_string()));
    if let Some(SortName(v)) = params.sort {
        q.sort = parse_sort(&v).ok_or_else(|| {
            let names: Vec<&str> = result_sorts().collect();
            bad(
                "sort",
                format!(
                    "sort must be newest, oldest, or one of {} (prefix - for descending), not {v:?}",
                    names.join(", ")
                ),
            )
        })?;
    }
    // The cursor is read after the sort: its value's type depends on the sort column.
    let mut after_result = None;
    if let Some(PageCursor(c)) = params.cursor {
        match parse_cursor(&c, q.sort) {
            Some(PageStart::After(after)) => q.after = Some(after),
            Some(PageStart::AfterResult(id)) => after_result = Some(id),
            None => {
                return Err(bad(
                    "cursor",
                    format!("not a cursor (a result id, optionally a dot and its sort value): {c:?}"),
                ))
            }
        }
    }
    Ok((q, params.format.unwrap_or_default(), after_result))
}

/// Reads a browse query string as `GET /results` does (tests, and callers that hold one).
#[cfg(test)]
pub(crate) fn parse_list_query(query: &str) -> ApiResult<(ResultQuery, OutputFormat)> {
    let (params, filters) = super::extract::read_query::<ListParams, ResultFilters>(query)?;
    list_request(params, filters).map(|(q, f, _)| (q, f))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (q, f) = parse_list_query("drive=x&capacity_gb=64&block_size=4096&format=csv").unwrap();
        assert_eq!(f, OutputFormat::Csv);
        assert_eq!(q.filters.len(), 2);
        assert_eq!(q.metric_filters, vec![("block_size", FieldValue::Int(4096))]);
        let Err(ApiError::BadRequest(errs)) = parse_list_query("colour=red&limit=0") else {
            panic!("expected 400")
        };
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].pointer.as_deref(), Some("colour"));
        assert_eq!(errs[1].pointer.as_deref(), Some("limit"));
        assert!(errs[1].detail.contains("from 1 to 500"), "{}", errs[1].detail);
        let Err(ApiError::BadRequest(errs)) = parse_list_query("limit=5&drive=a&limit=6&drive=b") else {
            panic!("expected 400")
        };
        let at: Vec<_> = errs.iter().map(|e| e.pointer.as_deref().unwrap()).collect();
        assert_eq!(at, ["limit", "drive"]);
        assert!(errs[0].detail.contains("twice"), "{}", errs[0].detail);
    }
}
