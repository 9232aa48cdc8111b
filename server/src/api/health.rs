//! `GET /api/v1/health`: the server answers and its database does.

use super::AppState;
use crate::error::ApiResult;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

async fn health(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    state.storage.ping().await?;
    Ok(Json(json!({
        "status": "ok",
        "backend": state.storage.backend(),
        "version": env!("CARGO_PKG_VERSION"),
    })))
}
