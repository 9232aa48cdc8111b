//! `POST /api/v1/results`: one submission (a JSON object) or several (a JSON array, or
//! `multipart/form-data` with several file parts and one `tags` part).
//!
//! Several files are all-or-nothing: every file is read and checked first; if any is
//! bad the answer is 422 listing every problem (file, line, field) and nothing is
//! stored; otherwise all are stored in ONE transaction and the answer lists each file's
//! outcome (stored, or the existing duplicate).

use super::client::ClientAddr;
use super::extract::{media_type, parse_json, read_body};
use super::state::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorItem};
use crate::ingest::{self, Catalogue, Upload};
use crate::storage::{NewSubmission, Provenance, Submitted};
use api_types::links::api_result as result_url;
use api_types::{JobStatus, OtherDrive, RunnerRecord, SubmitBody, SubmitResponse, SubmittedResult};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use bench::{BenchResult, Format, Tags};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::net::{IpAddr, Ipv4Addr};

/// Most files in one request.
pub const MAX_FILES: usize = 100;

/// The JSON body of `POST /results`: one submission, or a list of 1 to 100 that is
/// stored all or nothing.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[allow(dead_code)] // describes the body that `submit` reads by hand
enum SubmitRequest {
    One(Box<SubmitBody>),
    Several(Vec<SubmitBody>),
}

/// The `multipart/form-data` body of `POST /results`: one part per file, all stored
/// or none.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // describes the parts that `read_multipart` reads by hand
struct SubmitForm {
    /// 1 to 100 files, one part each (named `file`, or any part with a file name): any
    /// format the parsers read, or one result in the public result format (JSON).
    #[schema(value_type = Vec<String>, format = Binary, min_items = 1, max_items = 100)]
    file: Vec<Vec<u8>>,
    /// Tags for every file (JSON).
    #[schema(nullable = false)]
    tags: Option<Tags>,
    /// Skip auto-detection: cdm, kdiskmark, fio, orion, asssd, hdtune.
    #[schema(nullable = false)]
    format: Option<String>,
    /// Where the numbers come from, for every file.
    #[schema(nullable = false)]
    source: Option<String>,
}

/// The answer to `POST /results`: a single JSON submission gets a [`SubmitResponse`],
/// a list or a multipart upload a [`BatchResponse`].
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
enum SubmitReply {
    One(SubmitResponse),
    Several(BatchResponse),
}

/// One file's outcome in a several-file submission.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct FileOutcome {
    /// Position in the request (0-based).
    index: usize,
    /// The part's file name (multipart) when it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    name: Option<String>,
    /// 201 stored now, 200 stored before (a duplicate).
    #[schema(minimum = 200, maximum = 201)]
    status: u16,
    #[serde(flatten)]
    submitted: SubmitResponse,
}

/// The answer to a several-file submission: 201 when any file was stored, else 200.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct BatchResponse {
    files: Vec<FileOutcome>,
}

/// One file as read from the request, before the catalogue is consulted.
#[derive(Clone)]
struct Item {
    name: Option<String>,
    /// Where this item's errors point: `""` (single), `[2]` (JSON array), `files[2]`.
    pointer: String,
    upload: Upload,
    tags: Tags,
    source: Option<String>,
    /// The key of the recognition job whose screenshot this result was read from.
    ocr_job: Option<String>,
    /// How `ssdbase bench` says it measured the result.
    runner: Option<RunnerRecord>,
}

/// Submit results
///
/// One result file as text or one result in the public format (a JSON object); or
/// several at once (a JSON array of such objects, or `multipart/form-data` with one part
/// per file). Several files are all or nothing: if any is bad the answer is 422 listing
/// every problem and nothing is stored. The same upload again is recognised (200,
/// `duplicate: true`, the stored ids, no edit token).
#[utoipa::path(
    post,
    path = "/results",
    operation_id = "submit_results",
    tag = "results",
    request_body(
        description = "One submission or a list (JSON), or files (multipart)",
        content(
            (SubmitRequest = "application/json"),
            (SubmitForm = "multipart/form-data", encoding(("tags" = (content_type = "application/json")))),
        )
    ),
    responses(
        (status = 201, description = "Stored (for several files: at least one was new); new files carry their edit token",
            body = SubmitReply,
            headers(("location" = String, description = "Single submissions: the URL of the stored result"))),
        (status = 200, description = "Stored before: every file was a duplicate", body = SubmitReply),
        (status = 400, description = "The JSON or multipart body does not read", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit (4 MiB by default)", body = ErrorBody),
        (status = 415, description = "Neither application/json nor multipart/form-data", body = ErrorBody),
        (status = 409, description = "A drive the submission names was merged into another twice while it was stored: nothing was stored, send it again", body = ErrorBody),
        (status = 422, description = "A file does not parse, a field is wrong or a drive unknown: every problem, with where (`[2].text line 7`, `files[1] line 7`, `tags.drive.sku`)",
            body = ErrorBody),
        (status = 429, description = "This client's submission rate is used up", body = ErrorBody,
            headers(("retry-after" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn submit(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    headers: HeaderMap,
    req: Request,
) -> ApiResult<Response> {
    // The peer, or behind a trusted proxy the client it names (api::client).
    let client_ip = client.and_then(|c| c.0 .0);
    let ip = client_ip.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    if let Some(limiter) = &state.limiter {
        limiter.check(ip, 1)?;
    }
    let client = client_ip.map(|ip| ip.to_string());
    match media_type(&headers).as_str() {
        "application/json" => {
            let raw = read_body(req, &()).await?;
            if raw.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
                let parts: Vec<Box<RawValue>> = parse_json(&raw, "")?;
                let mut items = Vec::new();
                let mut errors = Vec::new();
                check_count(parts.len())?;
                for (i, part) in parts.iter().enumerate() {
                    let pointer = format!("[{i}]");
                    match parse_json::<SubmitBody>(part.get().as_bytes(), &pointer)
                        .and_then(|b| item_from_body(b, part.get().as_bytes(), pointer))
                    {
                        Ok(item) => items.push(item),
                        Err(e) => errors.extend(error_items(e)?),
                    }
                }
                store_batch(&state, items, errors, client, ip).await
            } else {
                let body: SubmitBody = parse_json(&raw, "")?;
                let item = item_from_body(body, &raw, String::new())?;
                let (status, body) = store_one(&state, item, client).await?;
                let location = HeaderValue::from_str(&body.url).expect("urls are ascii");
                let mut res = (status, Json(SubmitReply::One(body))).into_response();
                if status == StatusCode::CREATED {
                    res.headers_mut().insert(header::LOCATION, location);
                }
                Ok(res)
            }
        }
        "multipart/form-data" => {
            let multipart = Multipart::from_request(req, &())
                .await
                .map_err(|e| ApiError::bad_request(e.body_text(), None))?;
            let (items, errors) = read_multipart(multipart).await?;
            store_batch(&state, items, errors, client, ip).await
        }
        _ => Err(ApiError::UnsupportedMediaType(
            "expected Content-Type: application/json (one submission or an array of them) or \
             multipart/form-data (file parts and a tags part)"
                .into(),
        )),
    }
}

fn check_count(n: usize) -> ApiResult<()> {
    match n {
        0 => Err(ApiError::unprocessable("no submissions in the list", None)),
        n if n > MAX_FILES => {
            Err(ApiError::unprocessable(format!("{n} submissions in one request; at most {MAX_FILES}"), None))
        }
        _ => Ok(()),
    }
}

/// The error items of a per-item failure; failures of the whole request pass through.
fn error_items(e: ApiError) -> ApiResult<Vec<ErrorItem>> {
    match e {
        ApiError::Unprocessable(items) => Ok(items),
        other => Err(other),
    }
}

/// Prefixes a pointer with the item's position: `[2]` + `text line 7` → `[2].text line 7`.
fn under(prefix: &str, pointer: &str) -> String {
    match (prefix.is_empty(), pointer.is_empty()) {
        (true, _) => pointer.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) => format!("{prefix}.{pointer}"),
    }
}

fn parse_format(id: &str, pointer: &str) -> ApiResult<Format> {
    id.parse().map_err(|e: bench::UnknownFormat| {
        ApiError::unprocessable(e.to_string(), Some(under(pointer, "format")))
    })
}

fn item_from_body(req: SubmitBody, raw: &[u8], pointer: String) -> ApiResult<Item> {
    if let Some(runner) = &req.runner {
        // The runner sends its own result; a result file or a screenshot reading was
        // measured by something else, whatever a record beside it would say.
        if req.result.is_none() || req.ocr_job.is_some() {
            return Err(ApiError::unprocessable(
                "runner comes only with result (what ssdbase bench measured), not with text or ocr_job",
                Some(under(&pointer, "runner")),
            ));
        }
        let problems = runner.problems(&under(&pointer, "runner"));
        if !problems.is_empty() {
            return Err(ApiError::Unprocessable(problems));
        }
    }
    let upload = match (req.text, req.result) {
        (Some(_), None) | (None, None) if req.ocr_job.is_some() => {
            return Err(ApiError::unprocessable(
                "publishing a screenshot needs result: the values as checked against the image",
                Some(under(&pointer, "result")),
            ))
        }
        (Some(text), None) => {
            let format = req.format.as_deref().map(|f| parse_format(f, &pointer)).transpose()?;
            ingest::upload_from_text(text, format).map_err(|e| {
                let at = match e.line {
                    Some(line) => format!("text line {line}"),
                    None => "text".to_string(),
                };
                ApiError::unprocessable(e.to_string(), Some(under(&pointer, &at)))
            })?
        }
        (None, Some(result)) => {
            if req.format.is_some() {
                return Err(ApiError::unprocessable(
                    "format applies to text only",
                    Some(under(&pointer, "format")),
                ));
            }
            ingest::upload_from_result(result, raw.to_vec())
                .map_err(|e| ApiError::unprocessable(e, Some(under(&pointer, "result.metrics"))))?
        }
        (Some(_), Some(_)) => {
            return Err(ApiError::unprocessable(
                "send either text or result, not both",
                Some(under(&pointer, "result")),
            ))
        }
        (None, None) => {
            return Err(ApiError::unprocessable(
                "missing the result: send text (a result file) or result (public result format)",
                Some(under(&pointer, "text")),
            ))
        }
    };
    Ok(Item {
        name: None,
        pointer,
        upload,
        tags: req.tags,
        source: req.source,
        ocr_job: req.ocr_job,
        runner: req.runner,
    })
}

/// Reads `file` parts (any part with a file name counts as one), one optional `tags`
/// part (JSON, applies to every file), `format` and `source`.
async fn read_multipart(mut multipart: Multipart) -> ApiResult<(Vec<Item>, Vec<ErrorItem>)> {
    let mut files = Vec::new();
    let mut tags = Tags::default();
    let mut format = None;
    let mut source = None;
    let bad_part = |e: axum::extract::multipart::MultipartError| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge("the request body is too large".into())
        } else {
            ApiError::bad_request(format!("malformed multipart body: {}", e.body_text()), None)
        }
    };
    while let Some(field) = multipart.next_field().await.map_err(bad_part)? {
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        let data = field.bytes().await.map_err(bad_part)?;
        let text = |data: &[u8]| {
            String::from_utf8(data.to_vec())
                .map_err(|_| ApiError::unprocessable("not UTF-8 text", Some(name.clone())))
        };
        match name.as_str() {
            "tags" => tags = parse_json(&data, "tags")?,
            "format" => format = Some(parse_format(text(&data)?.trim(), "")?),
            "source" => source = Some(text(&data)?),
            "file" | "files" | "file[]" | "files[]" => files.push((file_name, data)),
            _ if file_name.is_some() => files.push((file_name, data)),
            other => {
                return Err(ApiError::unprocessable(
                    format!("unknown part {other:?}: expected file parts, tags, format or source"),
                    Some(other.to_string()),
                ))
            }
        }
    }
    check_count(files.len())?;
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for (i, (name, data)) in files.into_iter().enumerate() {
        let pointer = format!("files[{i}]");
        let label = name.clone().unwrap_or_else(|| pointer.clone());
        // A file may also be one result in the public result format.
        let upload = match serde_json::from_slice::<BenchResult>(&data) {
            Ok(result) => ingest::upload_from_result(result, data.to_vec())
                .map_err(|e| ErrorItem { detail: format!("{label}: {e}"), pointer: Some(pointer.clone()) }),
            Err(_) => {
                ingest::upload_from_file(data.to_vec(), name.as_deref(), format).map_err(|e| ErrorItem {
                    detail: format!("{label}: {e}"),
                    pointer: Some(match e.line {
                        Some(line) => format!("{pointer} line {line}"),
                        None => pointer.clone(),
                    }),
                })
            }
        };
        match upload {
            Ok(upload) => items.push(Item {
                name,
                pointer,
                upload,
                tags: tags.clone(),
                source: source.clone(),
                ocr_job: None,
                runner: None,
            }),
            Err(e) => errors.push(e),
        }
    }
    Ok((items, errors))
}

/// Checks an item against the catalogue and what the database can store, and builds
/// its submission. Errors point into the item.
async fn prepare(state: &AppState, item: Item, client: Option<String>) -> ApiResult<(NewSubmission, String)> {
    let Item { pointer, mut upload, tags, source, ocr_job, runner, .. } = item;
    let fail = |detail: String, at: String| {
        ApiError::Unprocessable(vec![ErrorItem { detail, pointer: Some(under(&pointer, &at)) }])
    };
    let provenance = match ocr_job {
        Some(key) => Some(
            from_screenshot(state, &key, &mut upload)
                .await
                .map_err(|detail| fail(detail, "ocr_job".into()))?,
        ),
        None => None,
    };
    let tagged =
        ingest::tag(&mut Catalogue::stored(&*state.storage), tags, &upload.results, source.as_deref())
            .await
            .map_err(|refused| match refused.into_item() {
                Ok(e) => fail(e.detail, e.pointer.unwrap_or_default()),
                Err(e) => ApiError::Storage(e),
            })?;
    let (mut submission, token) = tagged.submission(upload, source, client);
    submission.provenance = provenance;
    submission.runner = runner;
    Ok((submission, token))
}

/// Makes a checked screenshot reading the upload: the stored bytes become the image
/// (so the same screenshot published twice is recognised as a duplicate), and every
/// value that differs from what was recognised is recorded as corrected by hand.
async fn from_screenshot(state: &AppState, key: &str, upload: &mut Upload) -> Result<Provenance, String> {
    let internal = |e: crate::storage::StorageError| {
        tracing::error!("storage error: {e}");
        "internal error".to_string()
    };
    // The key, as the job's own routes take it; never echoed (it is a secret).
    const NO_JOB: &str =
        "no recognition job with this key (unpublished screenshots are deleted after a few days)";
    let key_hash = super::ocr::key_hash(key);
    let Some(status) = state.storage.get_ocr(&key_hash).await.map_err(internal)? else {
        return Err(NO_JOB.into());
    };
    let job = status.id;
    let recognition = match (status.status, status.result) {
        (JobStatus::Done, Some(json)) => json,
        (JobStatus::Failed, _) => {
            return Err(format!(
                "the recognition job failed ({}); enter the values as a result file instead",
                status.error.unwrap_or_default()
            ))
        }
        _ => return Err("the recognition job has not finished; wait for it, then publish".into()),
    };
    #[derive(Deserialize)]
    struct Recognised {
        result: BenchResult,
        confidence: f32,
    }
    let recognised: Recognised = serde_json::from_str(&recognition)
        .map_err(|e| format!("the recognition job holds no readable result: {e}"))?;
    let (media_type, image) =
        state.storage.ocr_image(&key_hash).await.map_err(internal)?.ok_or_else(|| NO_JOB.to_string())?;
    let published = upload.results.first().ok_or("no result to publish")?;
    let provenance = Provenance {
        ocr_job: job,
        confidence: recognised.confidence,
        corrected: ingest::corrections(&recognised.result, published),
        settings_corrected: ingest::setting_corrections(&recognised.result, published),
    };
    upload.content_hash = ingest::sha256_hex(&image);
    upload.body = image;
    upload.format = Some(media_type);
    Ok(provenance)
}

/// What a submission whose drive was merged away twice while being stored is told.
const DRIVE_MERGED: &str =
    "a drive this submission names was merged into another while it was stored; nothing was stored, send it again";

/// Identifies and stores one submission.
async fn store_one(
    state: &AppState,
    item: Item,
    client: Option<String>,
) -> ApiResult<(StatusCode, SubmitResponse)> {
    let (mut prepared, mut outcomes) = prepare_and_store(state, vec![item], Vec::new(), client).await?;
    let ((submission, token), outcome) = (prepared.remove(0), outcomes.remove(0));
    respond(state, outcome, &submission, token).await
}

/// Identifies the submissions' drives and stores them, one through `Storage::submit`
/// (SQLite's group commit), several in one transaction; or, when any of them or the
/// `errors` already found is wrong, stores nothing and answers every problem. A drive
/// merged into another between its identification and the insert (a moderator's merge
/// racing the submission) fails the insert without storing anything; the submissions
/// are then identified again, once, and land on the drive that took over.
async fn prepare_and_store(
    state: &AppState,
    items: Vec<Item>,
    mut errors: Vec<ErrorItem>,
    client: Option<String>,
) -> ApiResult<(Vec<(NewSubmission, String)>, Vec<Submitted>)> {
    let mut again = Some(items.clone());
    let mut items = items;
    loop {
        let mut prepared = Vec::with_capacity(items.len());
        for item in items {
            match prepare(state, item, client.clone()).await {
                Ok(p) => prepared.push(p),
                Err(e) => errors.extend(error_items(e)?),
            }
        }
        if !errors.is_empty() {
            return Err(ApiError::Unprocessable(errors));
        }
        let stored = match prepared.as_slice() {
            [(one, _)] => state.storage.submit(one).await.map(|outcome| vec![outcome]),
            all => {
                let submissions: Vec<NewSubmission> = all.iter().map(|(s, _)| s.clone()).collect();
                state.storage.store_batch(&[], &[], &submissions).await
            }
        };
        match stored {
            Ok(outcomes) => return Ok((prepared, outcomes)),
            Err(e) if e.is_drive_gone() => match again.take() {
                Some(retry) => items = retry,
                None => return Err(ApiError::Conflict(DRIVE_MERGED.into())),
            },
            Err(e) => return Err(e.into()),
        }
    }
}

async fn store_batch(
    state: &AppState,
    items: Vec<Item>,
    errors: Vec<ErrorItem>,
    client: Option<String>,
    ip: IpAddr,
) -> ApiResult<Response> {
    if let Some(limiter) = &state.limiter {
        // Every file counts; the first was charged on arrival.
        let n = items.len() + errors.len();
        if n > 1 {
            limiter.check(ip, (n - 1) as u32)?;
        }
    }
    let names: Vec<Option<String>> = items.iter().map(|i| i.name.clone()).collect();
    let (prepared, outcomes) = prepare_and_store(state, items, errors, client).await?;
    let mut files = Vec::with_capacity(outcomes.len());
    let mut any_stored = false;
    for (index, ((outcome, (submission, token)), name)) in
        outcomes.into_iter().zip(prepared).zip(names).enumerate()
    {
        let (status, submitted) = respond(state, outcome, &submission, token).await?;
        any_stored |= status == StatusCode::CREATED;
        files.push(FileOutcome { index, name, status: status.as_u16(), submitted });
    }
    let status = if any_stored { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(SubmitReply::Several(BatchResponse { files }))).into_response())
}

/// The answer for one stored (201) or recognised (200) submission.
async fn respond(
    state: &AppState,
    outcome: Submitted,
    submission: &NewSubmission,
    edit_token: String,
) -> ApiResult<(StatusCode, SubmitResponse)> {
    crate::metrics::global().submission(matches!(outcome, Submitted::Duplicate { .. }));
    if let Some(provenance) = &submission.provenance {
        // The screenshot is published: the retention sweep keeps its job, and deleting
        // the submission deletes it. (Its image is already the submission's upload.)
        let (Submitted::Stored { submission_id, .. } | Submitted::Duplicate { submission_id, .. }) = &outcome;
        state.storage.mark_ocr_published(provenance.ocr_job, *submission_id).await?;
    }
    let mut other_drive = None;
    let (status, results, edit_token) = match outcome {
        Submitted::Stored { result_ids, .. } => {
            let results = result_ids
                .iter()
                .zip(&submission.results)
                .map(|(&id, r)| SubmittedResult { id, url: result_url(id), flags: r.flags.clone() })
                .collect();
            (StatusCode::CREATED, results, Some(edit_token))
        }
        Submitted::Duplicate { result_ids, .. } => {
            let mut results = Vec::new();
            for id in result_ids {
                let stored = state.storage.get_result(id).await?;
                if other_drive.is_none() {
                    let sent = submission.results.get(results.len());
                    other_drive =
                        stored.as_ref().zip(sent).and_then(|(s, n)| differing_drive(&s.tags, n, id));
                }
                let flags = stored.map(|r| r.flags).unwrap_or_default();
                results.push(SubmittedResult { id, url: result_url(id), flags });
            }
            (StatusCode::OK, results, None)
        }
    };
    let first = results.first().ok_or_else(|| anyhow::anyhow!("stored submission without results"))?;
    let body = SubmitResponse {
        id: first.id,
        url: first.url.clone(),
        edit_token,
        flags: first.flags.clone(),
        duplicate: status == StatusCode::OK,
        results,
        other_drive,
    };
    Ok((status, body))
}

/// The stored result's drive and the one a resent upload named, when they differ (the
/// drive was named wrongly the first time, or is named better now): the submitter is told
/// that nothing moved and where to correct it.
fn differing_drive(
    stored: &bench::Tags,
    sent: &crate::storage::NewResult,
    id: i64,
) -> Option<Box<OtherDrive>> {
    let sent_id = sent.new_drive.as_ref().map(|d| d.id.clone()).or_else(|| sent.tags.drive.sku.clone());
    if sent_id.is_none() || sent_id == stored.drive.sku {
        return None;
    }
    Some(Box::new(OtherDrive {
        stored_id: stored.drive.sku.clone(),
        stored: api_types::pages::drive_label(stored),
        sent_id,
        sent: api_types::pages::drive_label(&sent.tags),
        correct_at: api_types::links::result(id),
    }))
}
