//! Catalogue contributions. Anyone: `POST /api/v1/proposals` (a new drive or a change to
//! one; every rated figure with its source), `GET /api/v1/proposals[/{id}]`. Moderators
//! (the admin token): `POST /api/v1/proposals/{id}/accept|reject`, and
//! `POST /api/v1/drives/{id}/merge` (a community drive into a catalogue drive, or
//! duplicates). Everyone: the history, `GET /api/v1/catalogue/history` and
//! `GET /api/v1/drives/{id}/history`, and the drives that are one drive,
//! `GET /api/v1/catalogue/duplicates`. A proposal changes nothing until it is accepted.

use super::extract::{JsonBody, NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use crate::api::client::ClientAddr;
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorItem};
use crate::ingest;
use crate::storage::{Decided, Merged, ProposalRow};
use api_types::links::api_drive as drive_url;
use api_types::{
    CatalogueHistory, DecisionBody, DriveListItem, DriveProposal, DuplicateGroup, DuplicateList, MergeBody,
    MergeResponse, Proposal, ProposalList, ProposalStatus,
};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(propose, list))
        .routes(routes!(get_one))
        .routes(routes!(accept))
        .routes(routes!(reject))
        .routes(routes!(merge))
        .routes(routes!(history))
        .routes(routes!(duplicates))
        .routes(routes!(drive_history))
}

fn proposal_url(id: i64) -> String {
    format!("{}/proposals/{id}", api_types::links::API)
}

fn view(row: ProposalRow) -> Proposal {
    Proposal {
        id: row.id,
        url: proposal_url(row.id),
        status: row.status,
        proposal: row.proposal,
        warnings: row.warnings,
        created_at: row.created_at,
        decided_at: row.decided_at,
        reason: row.reason,
    }
}

/// Propose a new drive or a change to one
///
/// Stored for a moderator to accept or reject; the catalogue does not change before.
/// Every rated figure needs its source (a URL or a document's name): a figure without one
/// is refused. What a moderator should look at is listed in `warnings`: a rated
/// sequential figure above the line rate of the drive's interface, names that another
/// drive already has.
#[utoipa::path(
    post,
    path = "/proposals",
    operation_id = "propose_drive",
    tag = "catalogue",
    request_body = DriveProposal,
    responses(
        (status = 201, description = "Stored for review", body = Proposal),
        (status = 400, description = "The JSON does not read", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 422, description = "What is wrong, each with where: a figure without its source, \
            a new drive without vendor, model or capacity, no such drive to change, junk text", body = ErrorBody),
        (status = 429, description = "This client's submission rate is used up", body = ErrorBody,
            headers(("retry-after" = u64, description = "Seconds until the next submission is allowed"))),
    )
)]
async fn propose(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    body: JsonBody<DriveProposal>,
) -> ApiResult<(StatusCode, Json<Proposal>)> {
    let client = client.and_then(|c| c.0 .0);
    state.check_submit_rate(client)?;
    let p = body.value;
    let mut problems = p.problems();
    let mut path = String::new();
    if ingest::find_nul(&serde_json::to_value(&p).expect("proposals serialise"), &mut path) {
        problems.push(ingest::nul_refused(path.trim_start_matches('.').replace('.', "/")));
    }
    let base = match &p.drive_id {
        Some(id) => {
            let d = state.storage.get_drive(id).await?;
            if d.is_none() {
                problems.push(ErrorItem {
                    detail: format!("no drive {id:?} to change (leave drive_id out to propose a new drive)"),
                    pointer: Some("drive_id".into()),
                });
            }
            d
        }
        None => None,
    };
    if !problems.is_empty() {
        return Err(ApiError::Unprocessable(problems));
    }
    let drive = p.apply(base.as_ref());
    if base.is_none() && state.storage.get_drive(&drive.id).await?.is_some() {
        return Err(ApiError::unprocessable(
            format!("drive {:?} exists: propose a change to it (drive_id)", drive.id),
            Some("drive_id".into()),
        ));
    }
    let mut warnings = p.warnings(&drive);
    // Names that already lead to another drive: perhaps the same drive, to merge.
    let keys = bench::identity::keys_of(&drive);
    let mut others: Vec<String> = state
        .storage
        .drives_by_keys(&keys)
        .await?
        .into_iter()
        .map(|(_, d)| d.id)
        .filter(|id| *id != drive.id)
        .collect();
    others.sort();
    others.dedup();
    if !others.is_empty() {
        warnings.push(format!("names it would have are also those of {}", others.join(", ")));
    }
    let at = ingest::now_unix();
    let id =
        state.storage.add_proposal(&p, &warnings, client.map(|ip| ip.to_string()).as_deref(), at).await?;
    let row = state
        .storage
        .get_proposal(id)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("proposal {id} vanished")))?;
    Ok((StatusCode::CREATED, Json(view(row))))
}

/// Which proposals `GET /proposals` lists.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ProposalsParams {
    /// Only proposals with this status
    status: Option<ProposalStatus>,
}

/// Proposals
///
/// Every proposal, oldest first; `status` narrows to open, accepted or rejected ones.
#[utoipa::path(
    get,
    path = "/proposals",
    operation_id = "list_proposals",
    tag = "catalogue",
    params(ProposalsParams),
    responses(
        (status = 200, description = "The proposals", body = ProposalList),
        (status = 400, description = "An unknown status or parameter", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    TypedQuery(ProposalsParams { status }): TypedQuery<ProposalsParams>,
) -> ApiResult<Json<ProposalList>> {
    let proposals = state.storage.list_proposals(status).await?.into_iter().map(view).collect();
    Ok(Json(ProposalList { proposals }))
}

/// One proposal
#[utoipa::path(
    get,
    path = "/proposals/{id}",
    operation_id = "get_proposal",
    tag = "catalogue",
    params(("id" = i64, Path, description = "Proposal id")),
    responses(
        (status = 200, description = "The proposal", body = Proposal),
        (status = 400, description = "The id does not read, or a parameter was given", body = ErrorBody),
        (status = 404, description = "No such proposal", body = ErrorBody),
    )
)]
async fn get_one(
    State(state): State<AppState>,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<Proposal>> {
    let row = state.storage.get_proposal(id).await?.ok_or_else(|| no_proposal(id))?;
    Ok(Json(view(row)))
}

/// A moderator's reason as stored: trimmed, none when blank; NUL refused.
fn moderator_reason(reason: Option<&str>) -> ApiResult<Option<&str>> {
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    if reason.is_some_and(|r| r.contains('\0')) {
        return Err(ApiError::Unprocessable(vec![ingest::nul_refused("reason".into())]));
    }
    Ok(reason)
}

fn no_proposal(id: i64) -> ApiError {
    ApiError::not_found(format!("no proposal {id}"), Some("id".into()))
}

async fn decide(
    state: &AppState,
    headers: &HeaderMap,
    id: i64,
    accept: bool,
    body: DecisionBody,
) -> ApiResult<Json<Proposal>> {
    state.require_admin(headers)?;
    let reason = moderator_reason(body.reason.as_deref())?;
    match state.storage.decide_proposal(id, accept, reason, ingest::now_unix()).await? {
        Decided::NotFound => return Err(no_proposal(id)),
        Decided::AlreadyDecided(s) => {
            return Err(ApiError::Conflict(format!(
                "proposal {id} was {} before",
                bench::fields::unit_name(&s)
            )))
        }
        Decided::Conflict(why) => return Err(ApiError::Conflict(why)),
        Decided::Accepted(_) | Decided::Rejected => {}
    }
    let row = state.storage.get_proposal(id).await?.ok_or_else(|| no_proposal(id))?;
    Ok(Json(view(row)))
}

/// Accept a proposal (moderators)
///
/// Applies it in one transaction: the drive (new, or changed where the proposal says),
/// its names, its results' drive tags and rated flags, and an entry in the history.
#[utoipa::path(
    post,
    path = "/proposals/{id}/accept",
    operation_id = "accept_proposal",
    tag = "moderation",
    params(("id" = i64, Path, description = "Proposal id")),
    request_body = DecisionBody,
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "Accepted: the proposal as it now stands", body = Proposal),
        (status = 400, description = "The id or the JSON does not read", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "Not the admin token, or the server has none", body = ErrorBody),
        (status = 404, description = "No such proposal", body = ErrorBody),
        (status = 409, description = "Decided before, or no longer applicable (its drive merged away, a new drive's id taken)", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 422, description = "Text that cannot be stored", body = ErrorBody),
    )
)]
async fn accept(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    body: JsonBody<DecisionBody>,
) -> ApiResult<Json<Proposal>> {
    decide(&state, &headers, id, true, body.value).await
}

/// Reject a proposal (moderators)
#[utoipa::path(
    post,
    path = "/proposals/{id}/reject",
    operation_id = "reject_proposal",
    tag = "moderation",
    params(("id" = i64, Path, description = "Proposal id")),
    request_body = DecisionBody,
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "Rejected", body = Proposal),
        (status = 400, description = "The id or the JSON does not read", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "Not the admin token, or the server has none", body = ErrorBody),
        (status = 404, description = "No such proposal", body = ErrorBody),
        (status = 409, description = "Decided before", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 422, description = "Text that cannot be stored", body = ErrorBody),
    )
)]
async fn reject(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<i64>,
    body: JsonBody<DecisionBody>,
) -> ApiResult<Json<Proposal>> {
    decide(&state, &headers, id, false, body.value).await
}

/// Merge a drive into another (moderators)
///
/// In one transaction: this drive's results (hidden ones too) and observations move to
/// `into`, its name, part number and aliases become `into`'s aliases (so later
/// submissions naming it land on `into`), both drives' compare summaries are rebuilt, and
/// this drive is deleted; the history records it.
#[utoipa::path(
    post,
    path = "/drives/{id}/merge",
    operation_id = "merge_drive",
    tag = "moderation",
    params(("id" = String, Path, description = "The drive merged away")),
    request_body = MergeBody,
    security(("admin_token" = [])),
    responses(
        (status = 200, description = "Merged", body = MergeResponse),
        (status = 400, description = "The JSON does not read", body = ErrorBody),
        (status = 401, description = "No bearer token", body = ErrorBody,
            headers(("www-authenticate" = String, description = "`Bearer`"))),
        (status = 403, description = "Not the admin token, or the server has none", body = ErrorBody),
        (status = 404, description = "No such drive (either)", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "Not application/json", body = ErrorBody),
        (status = 422, description = "A drive merged into itself, or text that cannot be stored", body = ErrorBody),
    )
)]
async fn merge(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParam(id): PathParam<String>,
    body: JsonBody<MergeBody>,
) -> ApiResult<Json<MergeResponse>> {
    state.require_admin(&headers)?;
    let MergeBody { into, reason } = body.value;
    if into == id {
        return Err(ApiError::unprocessable("a drive cannot be merged into itself", Some("into".into())));
    }
    let reason = moderator_reason(reason.as_deref())?;
    match state.storage.merge_drives(&id, &into, reason, ingest::now_unix()).await? {
        Merged::NotFound(which) => {
            let at = if which == id { "id" } else { "into" };
            Err(ApiError::not_found(format!("no drive {which:?}"), Some(at.into())))
        }
        Merged::Moved(moved_results) => {
            Ok(Json(MergeResponse { url: drive_url(&into), into, moved_results }))
        }
    }
}

/// Drives that are one drive
///
/// Drives the identity rules say are one (same model line and capacity, or same vendor,
/// model and capacity), each group with its drives' visible result counts and, when at
/// most one of them is reviewed, the drive the others merge into. A moderator merges
/// them with `POST /drives/{id}/merge`; every result keeps its upload and history.
#[utoipa::path(
    get,
    path = "/catalogue/duplicates",
    operation_id = "drive_duplicates",
    tag = "catalogue",
    responses(
        (status = 200, description = "The groups (none is an empty list)", body = DuplicateList),
        (status = 400, description = "A parameter was given", body = ErrorBody),
    )
)]
async fn duplicates(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<DuplicateList>> {
    let groups = crate::storage::duplicates::find(state.storage.as_ref())
        .await?
        .into_iter()
        .map(|g| DuplicateGroup {
            keys: g.keys,
            drives: g.drives.into_iter().map(DriveListItem::from).collect(),
            into: g.into,
        })
        .collect();
    Ok(Json(DuplicateList { groups }))
}

/// The catalogue's history
///
/// Every change the catalogue went through, oldest first: drives created and changed by
/// accepted proposals (with the proposal and the sources of the figures it set), and
/// merges.
#[utoipa::path(
    get,
    path = "/catalogue/history",
    operation_id = "catalogue_history",
    tag = "catalogue",
    responses(
        (status = 200, description = "The history", body = CatalogueHistory),
        (status = 400, description = "A parameter was given", body = ErrorBody),
    )
)]
async fn history(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<CatalogueHistory>> {
    Ok(Json(CatalogueHistory { changes: state.storage.catalogue_history(None).await? }))
}

/// A drive's history
///
/// The drive's own changes and the merges into it, oldest first. A drive merged away
/// keeps its history here.
#[utoipa::path(
    get,
    path = "/drives/{id}/history",
    operation_id = "drive_history",
    tag = "catalogue",
    params(("id" = String, Path, description = "Drive id")),
    responses(
        (status = 200, description = "The history (empty for a drive never changed)", body = CatalogueHistory),
        (status = 400, description = "A parameter was given", body = ErrorBody),
    )
)]
async fn drive_history(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<CatalogueHistory>> {
    Ok(Json(CatalogueHistory { changes: state.storage.catalogue_history(Some(&id)).await? }))
}
