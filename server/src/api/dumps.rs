//! The open data dumps a server publishes (`serve --dump-dir`, regenerated every
//! `--dump-every-hours`; layout in `crate::dump` and docs/operating.md): `GET /dumps` lists them,
//! `GET /dumps/{dump}/{file}` downloads one file of one dump, `latest` naming the newest.

use super::extract::{NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use crate::dump::{Manifest, Published};
use crate::error::{ApiError, ApiResult, ErrorBody};
use api_types::links::API as API_PREFIX;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(download))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DumpList {
    /// Whether this server publishes dumps at all (`serve --dump-dir`).
    pub enabled: bool,
    /// Hours between two dumps; null when dumps are off.
    pub every_hours: Option<f64>,
    /// The dump layout's version (`manifest.json` `version`).
    pub layout_version: u32,
    /// The published dumps, newest first (at most three are kept).
    pub dumps: Vec<DumpView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DumpView {
    /// Unix seconds when the dump was taken; also its name in download URLs.
    pub created_at: i64,
    pub files: Vec<DumpFile>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct DumpFile {
    /// `manifest.json`, `drives.jsonl.gz`, `observations.jsonl.gz`, `results.jsonl.gz`
    /// or `results.csv.gz`.
    pub name: String,
    /// Lines (for the CSV, rows without the header); null for the manifest.
    pub lines: Option<usize>,
    pub bytes: u64,
    /// Where to download it (this dump's own URL, which never changes).
    pub url: String,
}

/// The open data dumps
///
/// The whole public dataset (visible results with their tags, metrics and test keys, the
/// catalogue with its sources, the sources' observations) as gzipped JSON Lines and CSV,
/// regenerated on a schedule. Never in a dump: hidden results, edit tokens, client
/// addresses, uploaded files. `ssdbase import DIR` loads a downloaded dump (all its files
/// in one directory) into an empty SSDBase.
#[utoipa::path(
    get,
    path = "/dumps",
    operation_id = "list_dumps",
    tag = "meta",
    responses(
        (status = 200, description = "The published dumps, newest first", body = DumpList),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
    )
)]
async fn list(
    State(state): State<AppState>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Json<DumpList>> {
    let Some(published) = state.dumps.as_deref() else {
        return Ok(Json(DumpList {
            enabled: false,
            every_hours: None,
            layout_version: crate::dump::VERSION,
            dumps: Vec::new(),
        }));
    };
    let dumps =
        published.list().into_iter().map(|(stamp, manifest)| view(published, stamp, &manifest)).collect();
    Ok(Json(DumpList {
        enabled: true,
        every_hours: state.dump_every.map(|d| d.as_secs_f64() / 3600.0),
        layout_version: crate::dump::VERSION,
        dumps,
    }))
}

fn view(published: &Published, stamp: i64, manifest: &Manifest) -> DumpView {
    let mut names = vec![crate::dump::MANIFEST.to_string()];
    names.extend(manifest.files.keys().cloned());
    let files = names
        .into_iter()
        .filter_map(|name| {
            let bytes = std::fs::metadata(published.file(stamp, &name)?).ok()?.len();
            Some(DumpFile {
                lines: manifest.files.get(&name).copied(),
                url: format!("{API_PREFIX}/dumps/{stamp}/{name}"),
                bytes,
                name,
            })
        })
        .collect();
    DumpView { created_at: stamp, files }
}

/// Download one file of a dump
///
/// A dated dump's files never change (cached for a year); `latest` is the newest dump
/// (revalidate: it changes with every regeneration). Byte ranges are honoured.
#[utoipa::path(
    get,
    path = "/dumps/{dump}/{file}",
    operation_id = "download_dump_file",
    tag = "meta",
    params(
        ("dump" = String, Path, pattern = r"^(latest|[0-9]{1,12})$",
            description = "`created_at` of a dump from `GET /dumps`, or `latest`"),
        ("file" = String, Path,
            pattern = r"^(manifest\.json|drives\.jsonl\.gz|observations\.jsonl\.gz|results\.jsonl\.gz|results\.csv\.gz)$",
            description = "One of the dump's files"),
    ),
    responses(
        (status = 200, description = "The file: gzip, or the manifest as JSON",
            content((Vec<u8> = "application/gzip"), (Object = "application/json"))),
        (status = 206, description = "The byte range asked for with `Range`"),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
        (status = 404, description = "No such dump or file (or this server publishes none)", body = ErrorBody),
    )
)]
async fn download(
    State(state): State<AppState>,
    PathParam((dump, file)): PathParam<(String, String)>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
    req: Request,
) -> ApiResult<Response> {
    let published = state
        .dumps
        .as_deref()
        .ok_or_else(|| ApiError::not_found("this server publishes no dumps (serve --dump-dir)", None))?;
    let stamp = match dump.as_str() {
        "latest" => published.list().first().map(|(stamp, _)| *stamp).ok_or_else(|| {
            ApiError::not_found("no dump published yet: the first is written shortly after start", None)
        })?,
        s => s.parse::<i64>().map_err(|_| {
            ApiError::not_found(format!("no dump {s:?}: name one from GET /dumps, or latest"), None)
        })?,
    };
    let path = published.file(stamp, &file).ok_or_else(|| {
        ApiError::not_found(format!("no file {file:?} in dump {stamp} (see GET /dumps)"), None)
    })?;
    let mut res = tower_http::services::ServeFile::new(&path)
        .try_call(req)
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("reading {}: {e}", path.display())))?
        .map(axum::body::Body::new);
    let headers = res.headers_mut();
    let cache = if dump == "latest" { "public, no-cache" } else { "public, max-age=31536000, immutable" };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    let disposition = format!("attachment; filename=\"ssdbase-{stamp}-{file}\"");
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).expect("ascii name"));
    Ok(res.into_response())
}
