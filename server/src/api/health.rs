//! `GET /api/v1/health`: the server answers and its database does.

use super::state::AppState;
use crate::error::{ApiResult, ErrorBody};
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Health {
    /// Always `ok` (a failing database answers 500 instead).
    #[schema(example = "ok")]
    status: &'static str,
    /// `sqlite` or `postgres`.
    #[schema(example = "sqlite")]
    backend: &'static str,
    /// The server's version.
    version: &'static str,
}

/// The server and its database answer.
#[utoipa::path(
    get,
    path = "/health",
    operation_id = "health",
    tag = "health",
    responses(
        (status = 200, description = "The server and its database answer", body = Health),
        (status = 500, description = "The database does not answer", body = ErrorBody),
    )
)]
async fn health(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    state.storage.ping().await?;
    Ok(Json(Health { status: "ok", backend: state.storage.backend(), version: env!("CARGO_PKG_VERSION") }))
}
