//! Screenshot recognition: `POST /api/v1/ocr` queues an image (the body, as sent) and
//! answers 202 at once with the job's secret key; `GET /api/v1/ocr/{key}` reports the
//! queue position, progress and, when done, the recognised values for the user to check
//! before publishing; `GET /api/v1/ocr/{key}/image` returns the image as uploaded.
//!
//! A screenshot is often a whole desktop (file names, chats, mail): until a result is
//! published from it, only its uploader can read it. The key (256 random bits) is the
//! only way to a job — its sequential id is never shown and finds nothing —, the answers
//! are `Cache-Control: private, no-store`, an unknown key and a malformed one get the
//! same 404, and only the hash of the key is stored. Once published, the image is
//! public as the result's upload (`/results/{id}/upload`, hidden with a hidden result).

use super::client::ClientAddr;
use super::state::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::ingest;
use crate::storage::{NewOcrJob, OcrJobRow};
use api_types::{OcrJob, RecognitionJson};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(upload)).routes(routes!(status)).routes(routes!(image))
}

/// The image formats accepted, by the media type they are stored and served with.
const MEDIA_TYPES: &[(image::ImageFormat, &str)] = &[
    (image::ImageFormat::Png, "image/png"),
    (image::ImageFormat::Jpeg, "image/jpeg"),
    (image::ImageFormat::Gif, "image/gif"),
    (image::ImageFormat::Bmp, "image/bmp"),
    (image::ImageFormat::WebP, "image/webp"),
];

/// Uploads beyond this many waiting jobs are turned away (503) instead of growing the
/// queue without bound.
pub const MAX_QUEUED: i64 = 1000;

/// How long a client at its cap of waiting jobs is told to wait (about one job's time).
const PENDING_RETRY_SECS: u64 = 30;

/// What every answer about a job carries: only its uploader may see it, and no cache
/// between may keep it.
const PRIVATE: HeaderValue = HeaderValue::from_static("private, no-store");

fn job_url(key: &str) -> String {
    format!("{}/ocr/{key}", api_types::links::API)
}

/// The hash a job's key is stored as (also how publishing finds the job). Any text
/// hashes, so a malformed key costs the same lookup as a wrong one and gets the same
/// answer.
pub(super) fn key_hash(key: &str) -> String {
    ingest::sha256_hex(key.as_bytes())
}

/// The one answer for every key that leads to no job.
fn no_such_job() -> ApiError {
    ApiError::not_found("no recognition job with this key", Some("id".into()))
}

/// The job as the API shows it, under the key its uploader holds; the recognition goes
/// out as the JSON text it was stored as.
fn job_view(key: &str, row: OcrJobRow) -> OcrJob {
    OcrJob {
        id: key.to_string(),
        status: row.status,
        stage: row.stage,
        progress: row.progress,
        queue_position: row.queue_position,
        attempts: row.attempts,
        media_type: row.media_type,
        created_at: row.created_at,
        finished_at: row.finished_at,
        error: row.error,
        url: job_url(key),
        image_url: format!("{}/image", job_url(key)),
        recognition: row.result.and_then(RecognitionJson::from_json),
    }
}

/// Read a screenshot
///
/// Queues a CrystalDiskMark or KDiskMark screenshot (the image file as the body; its
/// content decides the type, not the header) and answers at once with the job to poll.
/// The job's `id` is a secret key, the only access to the job, its image and its
/// recognition until a result is published from it; unpublished jobs are deleted after
/// a few days (`serve --unpublished-days`). Each upload is a job of its own.
#[utoipa::path(
    post,
    path = "/ocr",
    operation_id = "upload_screenshot",
    tag = "ocr",
    request_body(
        description = "The image file, as is (required)",
        content(("image/png"), ("image/jpeg"), ("image/gif"), ("image/bmp"), ("image/webp"))
    ),
    responses(
        (status = 202, description = "Queued", body = OcrJob,
            headers(("location" = String, description = "The job's URL, with its key"))),
        (status = 413, description = "The image is larger than the limit", body = ErrorBody),
        (status = 422, description = "The body is empty, or its content is not a PNG, JPEG, GIF, BMP or WebP image (whatever the \
            Content-Type says)", body = ErrorBody),
        (status = 429, description = "This client uploads too fast or has too many images waiting; \
            `Retry-After` says when to try again", body = ErrorBody,
            headers(("retry-after" = u64, description = "Seconds to wait"))),
        (status = 503, description = "Too many images wait to be read; try again later", body = ErrorBody),
    )
)]
async fn upload(
    State(state): State<AppState>,
    client: Option<Extension<ClientAddr>>,
    body: Bytes,
) -> ApiResult<Response> {
    let client = client.and_then(|Extension(c)| c.0);
    state.check_ocr_upload_rate(client)?;
    if body.is_empty() {
        return Err(ApiError::unprocessable(
            "the request body is empty: send the image file as the body",
            None,
        ));
    }
    // The content decides, not the Content-Type header (browsers guess it from the name).
    let media_type = image::guess_format(&body)
        .ok()
        .and_then(|f| MEDIA_TYPES.iter().find(|(known, _)| *known == f))
        .map(|(_, m)| *m)
        .ok_or_else(|| {
            ApiError::unprocessable(
                "not a PNG, JPEG, GIF, BMP or WebP image: send a screenshot of CrystalDiskMark or KDiskMark",
                None,
            )
        })?;
    let client = client.map(|ip| ip.to_string());
    if let (Some(cap), Some(client)) = (state.ocr_pending_per_client, &client) {
        if state.storage.pending_ocr_jobs_of(client).await? >= i64::from(cap.get()) {
            return Err(ApiError::TooManyRequests {
                detail: format!(
                    "{cap} of your screenshots are still waiting to be read: wait for them, then upload more"
                ),
                retry_after_secs: PENDING_RETRY_SECS,
            });
        }
    }
    if state.storage.queued_ocr_jobs().await? >= MAX_QUEUED {
        return Err(ApiError::Busy(
            "too many screenshots are waiting to be read; try again in a minute".into(),
        ));
    }
    let (key, hash) = ingest::new_secret();
    let job = NewOcrJob {
        key_hash: hash,
        client,
        content_hash: ingest::sha256_hex(&body),
        media_type: media_type.to_string(),
        image: body.to_vec(),
        created_at: ingest::now_unix(),
    };
    state.storage.enqueue_ocr(&job).await?;
    state.queue.job_queued();
    let row = state
        .storage
        .get_ocr(&job.key_hash)
        .await?
        .ok_or_else(|| anyhow::anyhow!("an ocr job vanished after it was queued"))?;
    let view = job_view(&key, row);
    let location = HeaderValue::from_str(&view.url).expect("urls are ascii");
    Ok((StatusCode::ACCEPTED, [(header::LOCATION, location), (header::CACHE_CONTROL, PRIVATE)], Json(view))
        .into_response())
}

/// A screenshot's recognition
///
/// Queue position while it waits, progress while it runs, the recognised values when
/// done (for the user to check before publishing), or the error.
#[utoipa::path(
    get,
    path = "/ocr/{id}",
    operation_id = "get_screenshot_job",
    tag = "ocr",
    params(("id" = String, Path, description = "The job's key, as the upload answered it")),
    responses(
        (status = 200, description = "The job", body = OcrJob),
        (status = 404, description = "No job has this key (or it was deleted)", body = ErrorBody),
    )
)]
async fn status(State(state): State<AppState>, Path(key): Path<String>) -> ApiResult<Response> {
    let job = state.storage.get_ocr(&key_hash(&key)).await?.ok_or_else(no_such_job)?;
    Ok(([(header::CACHE_CONTROL, PRIVATE)], Json(job_view(&key, job))).into_response())
}

/// A screenshot as uploaded
#[utoipa::path(
    get,
    path = "/ocr/{id}/image",
    operation_id = "get_screenshot_image",
    tag = "ocr",
    params(("id" = String, Path, description = "The job's key, as the upload answered it")),
    responses(
        (status = 200, description = "The image, byte for byte, with the type it was recognised as",
            content(("image/png"), ("image/jpeg"), ("image/gif"), ("image/bmp"), ("image/webp"))),
        (status = 404, description = "No job has this key (or it was deleted)", body = ErrorBody),
    )
)]
async fn image(State(state): State<AppState>, Path(key): Path<String>) -> ApiResult<Response> {
    let (media_type, bytes) = state.storage.ocr_image(&key_hash(&key)).await?.ok_or_else(no_such_job)?;
    let media_type = HeaderValue::from_str(&media_type).map_err(anyhow::Error::from)?;
    Ok((
        [
            // Served as the image type it was sniffed as, never reinterpreted (every
            // answer is `nosniff`: `security::headers`).
            (header::CONTENT_TYPE, media_type),
            // Its uploader's only: a published result's image is public at the result's
            // upload URL instead, which follows the result's visibility.
            (header::CACHE_CONTROL, PRIVATE),
        ],
        bytes,
    )
        .into_response())
}
