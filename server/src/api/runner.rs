//! The standalone runner offered for download (`serve --runner-dir`, which `cargo xtask
//! runner-dist` fills): `GET /runner` lists its binaries with their SHA-256,
//! `GET /runner/{file}` downloads one, or its `.sha256` line for `sha256sum -c`. The
//! "Measure your drive" page builds its one command from these.

use super::extract::{NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use api_types::links::API as API_PREFIX;
use api_types::{RunnerDownload, RunnerDownloads};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::path::Path;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The processors a runner is built for, in the order the page lists them.
pub const ARCHES: [&str; 2] = ["x86_64", "aarch64"];

/// `ssdbase-bench-x86_64-linux`: the binary's file name for `arch`.
pub fn binary_name(arch: &str) -> String {
    format!("ssdbase-bench-{arch}-linux")
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(download))
}

/// The runner's downloads
///
/// `ssdbase-bench`, the benchmark runner on its own: a static Linux binary per processor
/// that identifies the drive under a directory, measures it with fio and sends the result
/// here. Each with its size and SHA-256.
#[utoipa::path(
    get,
    path = "/runner",
    operation_id = "list_runner_downloads",
    tag = "meta",
    responses(
        (status = 200, description = "The binaries offered (none when this server offers none)", body = RunnerDownloads),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<RunnerDownloads>> {
    let files = match state.runner_dir.as_deref() {
        Some(dir) => ARCHES.iter().filter_map(|arch| offered(dir, arch)).collect(),
        None => Vec::new(),
    };
    Ok(Json(RunnerDownloads { files }))
}

/// The binary for `arch` in `dir` with the hash its `.sha256` file gives; `None` when
/// either is missing or the checksum line is not one for this file.
fn offered(dir: &Path, arch: &str) -> Option<RunnerDownload> {
    let name = binary_name(arch);
    let bytes = std::fs::metadata(dir.join(&name)).ok().filter(|m| m.is_file())?.len();
    let line = std::fs::read_to_string(dir.join(format!("{name}.sha256"))).ok()?;
    let sha256 = checksum_of(&line, &name)?;
    Some(RunnerDownload {
        arch: arch.to_string(),
        url: format!("{API_PREFIX}/runner/{name}"),
        name,
        bytes,
        sha256,
    })
}

/// The hash in a `sha256sum` line `<64 hex>  <name>` naming `name`.
fn checksum_of(line: &str, name: &str) -> Option<String> {
    let (hash, file) = line.trim_end().split_once("  ")?;
    (file == name && hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| hash.to_ascii_lowercase())
}

/// Download the runner
///
/// The binary (`ssdbase-bench-x86_64-linux`, `ssdbase-bench-aarch64-linux`) or its
/// checksum line (the same name with `.sha256`, for `sha256sum -c`). Revalidated on every
/// fetch: the path stays the same across releases.
#[utoipa::path(
    get,
    path = "/runner/{file}",
    operation_id = "download_runner",
    tag = "meta",
    params(
        ("file" = String, Path, pattern = r"^ssdbase-bench-(x86_64|aarch64)-linux(\.sha256)?$",
            description = "A binary's name from `GET /runner`, or it with `.sha256`"),
    ),
    responses(
        (status = 200, description = "The binary, or its checksum line",
            content((Vec<u8> = "application/octet-stream"), (String = "text/plain"))),
        (status = 206, description = "The byte range asked for with `Range`"),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
        (status = 404, description = "No such file (or this server offers no runner)", body = ErrorBody),
    )
)]
async fn download(
    State(state): State<AppState>,
    PathParam(file): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
    req: Request,
) -> ApiResult<Response> {
    let dir = state.runner_dir.as_deref().ok_or_else(|| {
        ApiError::not_found("this server offers no runner download (serve --runner-dir)", None)
    })?;
    // Only the names this route documents: never a path the client chose.
    let checksum = file.ends_with(".sha256");
    let known =
        ARCHES.iter().map(|a| binary_name(a)).find(|n| file.strip_suffix(".sha256").unwrap_or(&file) == n);
    let Some(name) = known else {
        return Err(ApiError::not_found(format!("no runner file {file:?} (see GET /runner)"), None));
    };
    let path = dir.join(&file);
    if !path.is_file() {
        return Err(ApiError::not_found(format!("this server has no {file} (see GET /runner)"), None));
    }
    let mut res = tower_http::services::ServeFile::new(&path)
        .try_call(req)
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("reading {}: {e}", path.display())))?
        .map(axum::body::Body::new);
    let headers = res.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, no-cache"));
    let kind = if checksum { "text/plain; charset=utf-8" } else { "application/octet-stream" };
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    let shown = if checksum { format!("{name}.sha256") } else { name };
    let disposition = format!("attachment; filename=\"{shown}\"");
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).expect("ascii name"));
    Ok(res.into_response())
}

#[cfg(test)]
mod tests {
    use super::checksum_of;

    #[test]
    fn reads_a_sha256sum_line_for_its_own_file_only() {
        let hash = "ab".repeat(32);
        let line = format!("{hash}  ssdbase-bench-x86_64-linux\n");
        assert_eq!(checksum_of(&line, "ssdbase-bench-x86_64-linux"), Some(hash.clone()));
        assert_eq!(checksum_of(&line, "ssdbase-bench-aarch64-linux"), None);
        assert_eq!(checksum_of("abc  ssdbase-bench-x86_64-linux", "ssdbase-bench-x86_64-linux"), None);
    }
}
