//! What the sources say besides tool results (`bench::Observation`: bounds, approximations,
//! figures whose test the text leaves open, practical tests): `GET /observations` (every
//! one) and `GET /drives/{id}/observations` (a drive's own and its model line's), as
//! JSON, CSV or the HTML table the drive page shows, so the site carries no table code.
//! Never part of an aggregate.

use super::browse::{FormatParams, OutputFormat};
use super::drives::catalogue_drive;
use super::extract::{NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use crate::csv_table::{self, CsvTable};
use crate::error::{ApiResult, ErrorBody};
use crate::html::tables::observation_platform;
use api_types::{pattern_label, ObservationList};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bench::Observation;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(of_drive))
}

/// What the sources report beyond tool results
///
/// Every observation of the seed articles and imported datasets: figures given only as a
/// bound (`kind` `at-least`, `at-most`) or an approximation (`about`), figures whose test
/// the text leaves open (read or write not stated), practical tests (copy times,
/// DelayRatio), latencies. Each with its tags, data pattern when stated, and source.
/// Never part of any aggregate.
#[utoipa::path(
    get,
    path = "/observations",
    operation_id = "list_observations",
    tag = "drives",
    responses(
        (status = 200, description = "Every observation, in the order stored", body = ObservationList),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<ObservationList>> {
    Ok(Json(ObservationList { observations: state.storage.list_observations().await? }))
}

/// What the sources say about a drive besides tool results
///
/// The drive's own observations and those that name only its model line (vendor and
/// model, no capacity), in the order stored: JSON or CSV.
#[utoipa::path(
    get,
    path = "/drives/{id}/observations",
    operation_id = "drive_observations",
    tag = "drives",
    params(
        ("id" = String, Path, description = "Catalogue id, e.g. `plextor-px-m2s-256gb`"),
        FormatParams,
    ),
    responses(
        (status = 200, description = "The drive's observations",
            content((ObservationList = "application/json"), (String = "text/csv"))),
        (status = 400, description = "An unknown parameter or format", body = ErrorBody),
        (status = 404, description = "No such drive in the catalogue", body = ErrorBody),
    )
)]
async fn of_drive(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(FormatParams { format }): TypedQuery<FormatParams>,
) -> ApiResult<Response> {
    let observations = observations_of_drive(&state, &id).await?;
    Ok(match format.unwrap_or_default() {
        OutputFormat::Json => Json(ObservationList { observations }).into_response(),
        OutputFormat::Csv => csv_table::response("observations.csv", csv(&observations)),
    })
}

/// Catalogue drive `id`'s own observations and those of its model line.
pub(crate) async fn observations_of_drive(state: &AppState, id: &str) -> ApiResult<Vec<Observation>> {
    let drive = catalogue_drive(state, id).await?;
    Ok(state.storage.observations_of_drive(&drive).await?)
}

const CSV_COLUMNS: &[&str] =
    &["name", "kind", "value", "unit", "data_pattern", "drive", "platform", "note", "source"];

fn csv(observations: &[Observation]) -> String {
    let mut table = CsvTable::new(CSV_COLUMNS, true);
    for o in observations {
        let row = [
            o.name.clone(),
            o.kind.words().to_string(),
            o.value.to_string(),
            o.unit.clone(),
            o.data_pattern.map(|p| pattern_label(Some(p)).to_string()).unwrap_or_default(),
            o.tags.drive.sku.clone().unwrap_or_default(),
            observation_platform(o),
            o.note.clone().unwrap_or_default(),
            o.source.clone().unwrap_or_default(),
        ];
        table.row(row);
    }
    table.finish()
}
