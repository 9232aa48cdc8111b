//! Changing stored results. With the submission's edit token (`Authorization: Bearer`):
//! `PATCH /api/v1/results/{id}` corrects the tags, `DELETE /api/v1/results/{id}` deletes
//! the result. With the admin token: `POST /api/v1/results/{id}/hide` and `/restore`,
//! and the admin may also edit and delete. Missing token 401, wrong token 403.

use super::auth::{self, bearer};
use super::extract::{JsonBody, PathParam};
use super::state::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::ingest::{self, Catalogue};
use crate::storage::Actor;
use api_types::{DeleteResponse, EditBody, ResultView};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use bench::Tags;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Changing, hiding, restoring and deleting a result (`/results/{id}`), beside its reading
/// (`api::results`).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(edit, delete)).routes(routes!(hide)).routes(routes!(restore))
}

/// `restore` body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModerationBody {
    /// Why (optional). Written to the moderation log.
    reason: Option<String>,
}

/// `hide` body: a reason is required.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HideBody {
    /// Why, with at least one character that is not white space (Unicode's, as Rust's
    /// `char::is_whitespace`, which the handler trims). Written to the moderation log.
    #[serde(default)]
    #[schema(
        required = true,
        pattern = r"^[^\u0000]*[^\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000][^\u0000]*$"
    )]
    reason: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ModerationResponse {
    id: i64,
    hidden: bool,
    reason: Option<String>,
}

fn no_result(id: i64) -> ApiError {
    ApiError::not_found(format!("no result {id}"), Some("id".into()))
}

/// Who may change result `id`: the admin, or the holder of its submission's edit token.
async fn authorize(state: &AppState, headers: &HeaderMap, id: i64) -> ApiResult<Actor> {
    let token = bearer(headers)?;
    let owner = state.storage.result_owner(id).await?;
    if state.is_admin(headers) {
        owner.map(|_| Actor::Admin).ok_or_else(|| no_result(id))
    } else if owner.is_some_and(|o| auth::matches_hex(token, &o.edit_token_hash)) {
        Ok(Actor::Owner)
    } else {
        // Whether result `id` exists is told only to those who may change it.
        Err(ApiError::Forbidden(format!("the token is not the edit token of result {id}")))
    }
}

/// Correct a result's tags
///
/// Replaces the tags whole; the catalogue completes them, and the flags and filter
/// columns are derived again. With the submission's edit token, or the admin token.
#[utoipa::path(
    patch,
    path = "/results/{id}",
    operation_id = "edit_result",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    request_body = EditBody,
    security(("edit_token" = []), ("admin_token" = [])),
    responses(
        (status = 200, description = "The updated result", body = ResultView),
        (status = 400, description = "The id or the JSON does not read", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "The token is not this result's edit token nor the admin token", body = ErrorBody),
        (status = 404, description = "No such result (said only to the admin: any other token gets 403)",
            body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 409, description = "The drive the tags name was merged into another meanwhile: nothing changed, send it again", body = ErrorBody),
        (status = 422, description = "A tag is wrong or names an unknown drive", body = ErrorBody),
    )
)]
pub async fn edit(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    body: JsonBody<EditBody>,
) -> ApiResult<Json<ResultView>> {
    let actor = authorize(&state, &headers, id).await?;
    let stored = state.storage.get_result(id).await?.ok_or_else(|| no_result(id))?;
    let update = ingest::tag(
        &mut Catalogue::stored(&*state.storage),
        body.value.tags,
        std::slice::from_ref(&stored.result),
        stored.source.as_deref(),
    )
    .await
    .map_err(|refused| match refused.into_item() {
        Ok(e) => ApiError::Unprocessable(vec![e]),
        Err(e) => ApiError::from(e),
    })?
    .result(0, stored.result, None, stored.source);
    let updated =
        match state.storage.update_result(id, &update, actor, ingest::now_unix()).await {
            // The drive it names was merged into another between the lookup and the write:
            // nothing changed, and the same correction sent again finds the drive that took over.
            Err(e) if e.is_drive_gone() => return Err(ApiError::Conflict(
                "the drive these tags name was merged into another meanwhile; nothing changed, send it again"
                    .into(),
            )),
            updated => updated?,
        };
    if !updated {
        return Err(no_result(id));
    }
    let updated = state.storage.get_result(id).await?.ok_or_else(|| no_result(id))?;
    Ok(Json(super::results::result_view(updated)))
}

/// Delete a result
///
/// Deletes the result and its metrics, and the upload when it was its last result.
/// With the submission's edit token, or the admin token.
#[utoipa::path(
    delete,
    path = "/results/{id}",
    operation_id = "delete_result",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    security(("edit_token" = []), ("admin_token" = [])),
    responses(
        (status = 200, description = "Deleted", body = DeleteResponse),
        (status = 400, description = "The id is not a whole number", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "The token is not this result's edit token nor the admin token", body = ErrorBody),
        (status = 404, description = "No such result (said only to the admin: any other token gets 403)",
            body = ErrorBody),
    )
)]
pub async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
) -> ApiResult<Json<DeleteResponse>> {
    let actor = authorize(&state, &headers, id).await?;
    let deleted =
        state.storage.delete_result(id, actor, ingest::now_unix()).await?.ok_or_else(|| no_result(id))?;
    Ok(Json(DeleteResponse { deleted: id, submission_deleted: deleted.submission_deleted }))
}

/// Hide a result (moderators)
///
/// A hidden result leaves every aggregate and browse, and its page answers 404; it stays
/// in the database and can be restored. A reason is required.
#[utoipa::path(
    post,
    path = "/results/{id}/hide",
    operation_id = "hide_result",
    tag = "moderation",
    params(("id" = i64, Path, description = "Result id")),
    request_body = HideBody,
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "Hidden", body = ModerationResponse),
        (status = 400, description = "The id or the JSON does not read", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "Not the admin token, or the server has none", body = ErrorBody),
        (status = 404, description = "No such result", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 422, description = "No reason given", body = ErrorBody),
    )
)]
pub async fn hide(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    body: JsonBody<HideBody>,
) -> ApiResult<Json<ModerationResponse>> {
    state.require_admin(&headers)?;
    let reason = Some(body.value.reason.trim().to_string())
        .filter(|r| !r.is_empty())
        .ok_or_else(|| ApiError::unprocessable("say why the result is hidden", Some("reason".into())))?;
    moderate(&state, id, true, Some(reason)).await
}

/// Restore a hidden result (moderators)
#[utoipa::path(
    post,
    path = "/results/{id}/restore",
    operation_id = "restore_result",
    tag = "moderation",
    params(("id" = i64, Path, description = "Result id")),
    request_body = ModerationBody,
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "Visible again", body = ModerationResponse),
        (status = 400, description = "The id or the JSON does not read", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "Not the admin token, or the server has none", body = ErrorBody),
        (status = 404, description = "No such result", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 422, description = "The reason cannot be stored (NUL)", body = ErrorBody),
    )
)]
pub async fn restore(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    body: JsonBody<ModerationBody>,
) -> ApiResult<Json<ModerationResponse>> {
    state.require_admin(&headers)?;
    moderate(&state, id, false, body.value.reason).await
}

async fn moderate(
    state: &AppState,
    id: i64,
    hidden: bool,
    reason: Option<String>,
) -> ApiResult<Json<ModerationResponse>> {
    let tags = Tags::default();
    if let Some(r) = &reason {
        ingest::check_storable(&tags, &[], Some(r)).map_err(|mut e| {
            e.pointer = Some("reason".into());
            ApiError::Unprocessable(vec![e])
        })?;
    }
    if !state.storage.set_hidden(id, hidden, reason.as_deref(), ingest::now_unix()).await? {
        return Err(no_result(id));
    }
    Ok(Json(ModerationResponse { id, hidden, reason }))
}
