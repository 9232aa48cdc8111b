//! Screenshot recognition: `POST /api/v1/ocr` queues an image (the body, as sent) and
//! answers 202 at once; `GET /api/v1/ocr/{id}` reports the queue position, progress and,
//! when done, the recognised values for the user to check before publishing;
//! `GET /api/v1/ocr/{id}/image` returns the image as uploaded.

use super::extract::PathParam;
use super::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::ingest;
use crate::storage::{NewOcrJob, OcrJobRow};
use api_types::{OcrJob, RecognitionJson};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
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

fn job_url(id: i64) -> String {
    format!("{}/ocr/{id}", super::API_PREFIX)
}

/// The job as the API shows it; the recognition goes out as the JSON text it was stored
/// as.
fn job_view(row: OcrJobRow) -> OcrJob {
    OcrJob {
        id: row.id,
        status: row.status,
        stage: row.stage,
        progress: row.progress,
        queue_position: row.queue_position,
        attempts: row.attempts,
        media_type: row.media_type,
        created_at: row.created_at,
        finished_at: row.finished_at,
        error: row.error,
        url: job_url(row.id),
        image_url: format!("{}/image", job_url(row.id)),
        recognition: row.result.and_then(RecognitionJson::from_json),
    }
}

/// Read a screenshot
///
/// Queues a CrystalDiskMark or KDiskMark screenshot (the image file as the body; its
/// content decides the type, not the header) and answers at once with the job to poll.
/// The same image again is the same job (200).
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
            headers(("location" = String, description = "The job's URL"))),
        (status = 200, description = "This image was uploaded before: its job", body = OcrJob,
            headers(("location" = String, description = "The job's URL"))),
        (status = 413, description = "The image is larger than the limit", body = ErrorBody),
        (status = 422, description = "The body is empty, or its content is not a PNG, JPEG, GIF, BMP or WebP image (whatever the \
            Content-Type says)", body = ErrorBody),
        (status = 503, description = "Too many images wait to be read; try again later", body = ErrorBody),
    )
)]
async fn upload(State(state): State<AppState>, body: Bytes) -> ApiResult<Response> {
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
    if state.storage.queued_ocr_jobs().await? >= MAX_QUEUED {
        return Err(ApiError::Busy(
            "too many screenshots are waiting to be read; try again in a minute".into(),
        ));
    }
    let job = NewOcrJob {
        content_hash: ingest::sha256_hex(&body),
        media_type: media_type.to_string(),
        image: body.to_vec(),
        created_at: ingest::now_unix(),
    };
    let (id, new) = state.storage.enqueue_ocr(&job).await?;
    if new {
        state.queue.job_queued();
    }
    let view = job_view(
        state
            .storage
            .get_ocr(id)
            .await?
            .ok_or_else(|| anyhow::anyhow!("ocr job {id} vanished after it was queued"))?,
    );
    let location = HeaderValue::from_str(&view.url).expect("urls are ascii");
    let code = if new { StatusCode::ACCEPTED } else { StatusCode::OK };
    Ok((code, [(header::LOCATION, location)], Json(view)).into_response())
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
    params(("id" = i64, Path, description = "Job id")),
    responses(
        (status = 200, description = "The job", body = OcrJob),
        (status = 400, description = "The id is not a whole number", body = ErrorBody),
        (status = 404, description = "No such job", body = ErrorBody),
    )
)]
async fn status(State(state): State<AppState>, PathParam(id): PathParam<i64>) -> ApiResult<Json<OcrJob>> {
    match state.storage.get_ocr(id).await? {
        Some(job) => Ok(Json(job_view(job))),
        None => Err(ApiError::not_found(format!("no recognition job {id}"), Some("id".into()))),
    }
}

/// A screenshot as uploaded
#[utoipa::path(
    get,
    path = "/ocr/{id}/image",
    operation_id = "get_screenshot_image",
    tag = "ocr",
    params(("id" = i64, Path, description = "Job id")),
    responses(
        (status = 200, description = "The image, byte for byte, with the type it was recognised as",
            content(("image/png"), ("image/jpeg"), ("image/gif"), ("image/bmp"), ("image/webp"))),
        (status = 400, description = "The id is not a whole number", body = ErrorBody),
        (status = 404, description = "No such job", body = ErrorBody),
    )
)]
async fn image(State(state): State<AppState>, PathParam(id): PathParam<i64>) -> ApiResult<Response> {
    let Some((media_type, bytes)) = state.storage.ocr_image(id).await? else {
        return Err(ApiError::not_found(format!("no recognition job {id}"), Some("id".into())));
    };
    let media_type = HeaderValue::from_str(&media_type).map_err(anyhow::Error::from)?;
    Ok((
        [
            (header::CONTENT_TYPE, media_type),
            // Served as the image type it was sniffed as, never reinterpreted.
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable")),
        ],
        bytes,
    )
        .into_response())
}
