//! Rated vs measured as tables: `GET /drives/{id}/rated` (the drive's model line, one row
//! per capacity and rated figure), `GET /compare/rated` (every compared drive, per
//! platform group and data pattern), `GET /controllers/{model}/rated` (every catalogue
//! drive on a controller), each as JSON or CSV; the reading functions behind them
//! (`drive_rated`, `compare_rated`, `controller_rated`) also feed the site's HTML
//! (`/fragments/...`) and the embed page `/embed/drives/{id}/rated`. Every table is
//! `charts::rated_rows`, the rows the drive page's rated charts (and
//! `/drives/{id}/rated.svg|png`) draw.

use super::browse::{FormatParams, OutputFormat, TagFilters};
use super::compare::{CompareParams, CompareQuery};
use super::extract::{FilteredQuery, PathParam, TypedQuery};
use super::state::AppState;
use crate::csv_table::{self, CsvTable};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::storage::{Filter, ResultQuery, StoredResult};
use api_types::links;
use api_types::{RatedTable, RatedTableRow};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::DriveSku;
use charts::{rated_rows, RatedSample, RATED_RULE};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(drive_table))
        .routes(routes!(compare_table))
        .routes(routes!(controller_table))
}

/// How many of a drive's latest results the drive page (and so every rated table) reads.
const DRIVE_PAGE_RESULTS: i64 = 500;

/// The results of drive `id` a rated table reads: the latest 500 visible ones, as
/// `GET /results?drive=ID&limit=500` lists them (the drive page reads the same), narrowed
/// by `filters`.
pub(super) async fn results_of(
    state: &AppState,
    id: &str,
    filters: &[Filter],
) -> ApiResult<Vec<StoredResult>> {
    let mut query = ResultQuery::latest_of_drive(id, DRIVE_PAGE_RESULTS);
    query.filters.extend(filters.iter().cloned());
    Ok(state.storage.list_results(&query).await?)
}

/// The rated table of `drives` with their results (split per platform group and data
/// pattern when `split`).
async fn table_of(
    state: &AppState,
    drives: &[DriveSku],
    filters: &[Filter],
    split: bool,
) -> ApiResult<RatedTable> {
    let mut results = Vec::new();
    for sku in drives {
        results.push(results_of(state, &sku.id, filters).await?);
    }
    let samples: Vec<charts::RatedDrive> = drives
        .iter()
        .zip(&results)
        .map(|(sku, rs)| {
            let samples =
                rs.iter().map(|r| RatedSample { id: r.id, result: &r.result, tags: &r.tags }).collect();
            (sku, samples)
        })
        .collect();
    Ok(RatedTable { rule: RATED_RULE.to_string(), rows: rated_rows(&samples, split) })
}

/// The model line of catalogue drive `id` (its capacities, smallest first).
async fn model_line(state: &AppState, id: &str) -> ApiResult<Vec<DriveSku>> {
    let drive =
        state.storage.get_drive(id).await?.ok_or_else(|| {
            ApiError::not_found(format!("no drive {id:?} in the catalogue"), Some("id".into()))
        })?;
    // By an index of the drives table: decoding the whole catalogue for a few drives
    // cost the drive page and its embeds 0.5 s at 100,000 drives after every change.
    Ok(state.storage.model_line(&drive.vendor, &drive.model).await?)
}

/// The rows of the rated table of drive `id`'s model line: what the drive page's rated
/// charts and their embeds draw.
pub(super) async fn model_line_rows(state: &AppState, id: &str) -> ApiResult<Vec<RatedTableRow>> {
    let line = model_line(state, id).await?;
    Ok(table_of(state, &line, &[], false).await?.rows)
}

/// The table in `format`, a CSV download named `file`.
fn answer(table: RatedTable, format: Option<OutputFormat>, file: &'static str) -> Response {
    match format.unwrap_or_default() {
        OutputFormat::Json => Json(table).into_response(),
        OutputFormat::Csv => csv_table::response(file, table_csv(&table)),
    }
}

const CSV_COLUMNS: &[&str] = &[
    "figure",
    "unit",
    "drive",
    "drive_label",
    "capacity_gb",
    "pool",
    "rated",
    "measured_median",
    "measured_mad",
    "n",
    "gap_percent",
    "missing",
    "flags",
    "platforms",
    "tests",
    "result_ids",
];

/// One CSV line per row, with the columns of [`CSV_COLUMNS`]; a missing rating or
/// measurement is an empty cell named in `missing` (`not rated`, `no measurement`).
fn table_csv(t: &RatedTable) -> String {
    let mut table = CsvTable::new(CSV_COLUMNS, true);
    let num = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for r in &t.rows {
        let missing = match (r.rated, r.measured) {
            (None, _) => "not rated",
            (_, None) => "no measurement",
            _ => "",
        };
        let cells = [
            r.figure_id.clone(),
            r.unit.clone(),
            r.drive.clone(),
            r.drive_label.clone(),
            r.capacity_gb.to_string(),
            r.pool.clone().unwrap_or_default(),
            num(r.rated),
            num(r.measured.map(|m| m.median)),
            num(r.measured.map(|m| m.mad)),
            r.measured.map_or(0, |m| m.count).to_string(),
            r.gap_percent.map(|g| format!("{g:.1}")).unwrap_or_default(),
            missing.to_string(),
            r.flags.iter().map(|f| format!("{} {}", f.name, f.count)).collect::<Vec<_>>().join("; "),
            api_types::tallies_text(&r.platforms),
            api_types::tallies_text(&r.tests),
            r.result_ids.iter().map(i64::to_string).collect::<Vec<_>>().join(" "),
        ];
        table.row(cells);
    }
    table.finish()
}

/// Rated vs measured of a drive's model line
///
/// Per rated figure (sequential read and write, 4K read and write IOPS), per capacity of
/// the drive's model line: the maker's rating, the median, MAD and count of the
/// single-drive results' matched measurements, the gap in percent, and the flags, platforms
/// and tests behind it. `rule` says which results count and which test is matched to
/// which rating. The drive page's rated charts draw these rows.
///
/// `format=csv`: one line per row with the rating, the measured median, MAD and n, the
/// gap in percent, `missing` (`not rated` or `no measurement`, the number's cell then
/// empty), flags, platforms, tests and result ids.
#[utoipa::path(
    get,
    path = "/drives/{id}/rated",
    operation_id = "drive_rated_table",
    tag = "drives",
    params(
        ("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`"),
        FormatParams,
    ),
    responses(
        (status = 200, description = "The table", content((RatedTable = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A format that does not read, or another parameter", body = ErrorBody),
        (status = 404, description = "No such drive in the catalogue", body = ErrorBody),
    )
)]
async fn drive_table(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(FormatParams { format }): TypedQuery<FormatParams>,
) -> ApiResult<Response> {
    Ok(answer(drive_rated(&state, &id).await?.0.table, format, "rated.csv"))
}

/// A rated table with what the site's rendering of it names: its API path (without
/// `/api/v1`), which the HTML links as CSV and JSON, and whether it has a pool column.
pub(crate) struct RatedOf {
    pub table: RatedTable,
    pub data: String,
    pub pools: bool,
}

/// The rated table of drive `id`'s model line, and the line's name as the embed page's
/// title.
pub(crate) async fn drive_rated(state: &AppState, id: &str) -> ApiResult<(RatedOf, String)> {
    let line = model_line(state, id).await?;
    let title = line.first().map(|d| format!("{} {}: rated vs measured per capacity", d.vendor, d.model));
    let table = table_of(state, &line, &[], false).await?;
    let data = format!("/drives/{}/rated", links::encode(id));
    Ok((RatedOf { table, data, pools: false }, title.unwrap_or_default()))
}

/// Rated vs measured of compared drives
///
/// For every compared drive, per rated figure and per platform group and data pattern it
/// was measured in (the pools of `GET /compare`): the rating, the median, MAD and count of
/// the single-drive results' matched measurements, the gap in percent, flags and tests.
/// The same tag filters as `GET /compare` narrow which results take part.
///
/// `format=csv`: one line per row with the rating, the measured median, MAD and n, the
/// gap in percent, `missing` (`not rated` or `no measurement`, the number's cell then
/// empty), flags, platforms, tests and result ids.
#[utoipa::path(
    get,
    path = "/compare/rated",
    operation_id = "compare_rated_table",
    tag = "drives",
    params(CompareParams, TagFilters),
    responses(
        (status = 200, description = "The table", content((RatedTable = "application/json"), (String = "text/csv"))),
        (status = 400, description = "No drives, too many, an unknown parameter or a filter value that does not read",
            body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn compare_table(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<CompareParams, TagFilters>,
) -> ApiResult<Response> {
    let format = params.format;
    Ok(answer(compare_rated(&state, &params, filters).await?.table, format, "compare-rated.csv"))
}

/// The rated table of the comparison that `params` and `filters` ask for.
pub(crate) async fn compare_rated(
    state: &AppState,
    params: &CompareParams,
    filters: TagFilters,
) -> ApiResult<RatedOf> {
    let asked = filters.asked.clone();
    let q = CompareQuery::of(params, filters);
    let drives = super::compare::catalogue_drives(state, &q.ids).await?;
    Ok(RatedOf {
        table: table_of(state, &drives, &q.filters, !q.merge).await?,
        data: q.link("/compare/rated", &asked),
        pools: true,
    })
}

/// Rated vs measured of every drive on a controller
///
/// Every catalogue drive whose controller model is `model` (by vendor, model and
/// capacity), per rated figure: the rating, the median, MAD and count of the single-drive
/// results' matched measurements, the gap in percent, flags and tests. A controller no
/// catalogue drive has answers an empty table.
///
/// `format=csv`: one line per row with the rating, the measured median, MAD and n, the
/// gap in percent, `missing` (`not rated` or `no measurement`, the number's cell then
/// empty), flags, platforms, tests and result ids.
#[utoipa::path(
    get,
    path = "/controllers/{model}/rated",
    operation_id = "controller_rated_table",
    tag = "drives",
    params(
        ("model" = String, Path, description = "Controller model as the catalogue names it, e.g. `88SS9174`"),
        FormatParams,
    ),
    responses(
        (status = 200, description = "The table", content((RatedTable = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A format that does not read, or another parameter", body = ErrorBody),
    )
)]
async fn controller_table(
    State(state): State<AppState>,
    PathParam(model): PathParam<String>,
    TypedQuery(FormatParams { format }): TypedQuery<FormatParams>,
) -> ApiResult<Response> {
    Ok(answer(controller_rated(&state, &model).await?.table, format, "controller-rated.csv"))
}

/// The catalogue drives on controller `model`, in name order (vendor, model, capacity):
/// the controller page's table and its rated table list them alike.
pub(crate) async fn drives_on_controller(state: &AppState, model: &str) -> ApiResult<Vec<DriveSku>> {
    let mut drives: Vec<DriveSku> = state.storage.drives_on_controller(model).await?;
    drives.sort_by(|a, b| (&a.vendor, &a.model, a.capacity_gb).cmp(&(&b.vendor, &b.model, b.capacity_gb)));
    Ok(drives)
}

/// The rated table of every catalogue drive on controller `model`.
pub(crate) async fn controller_rated(state: &AppState, model: &str) -> ApiResult<RatedOf> {
    let drives = drives_on_controller(state, model).await?;
    Ok(RatedOf {
        table: table_of(state, &drives, &[], false).await?,
        data: format!("/controllers/{}/rated", links::encode(model)),
        pools: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drives_latest_results_are_what_the_browse_query_lists() {
        let (listed, _) = super::super::browse::parse_list_query("drive=x&limit=500").unwrap();
        assert_eq!(ResultQuery::latest_of_drive("x", DRIVE_PAGE_RESULTS), listed);
    }
}
