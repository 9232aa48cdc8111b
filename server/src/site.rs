//! Serving the built website (`trunk build` writes it to `dist/`).
//!
//! Every path that is not a file gets `index.html`, so that deep links such as
//! `/drives/crucial-realssd-c300-64gb` load the app, which then routes in the browser.
//! Answers are compressed when the client accepts it (the wasm shrinks to about a third):
//! from the `.br` or `.gz` file beside the asset when the build wrote them (`cargo
//! xtask`'s Trunk hook writes Brotli at quality 11, and gzip with zopfli, 6 % smaller than
//! gzip -6; no compression work per request: gzipping the 1.2 MB wasm took ~0.65 s per
//! request in a debug build), Brotli first when the client takes both, and gzipped on
//! the fly otherwise.
//! The drive, compare and result pages get the same `index.html` with the page's title,
//! Open Graph and Twitter card tags and oEmbed link in its head (`api::share`), since
//! link-preview crawlers run no wasm; a page the API does not know gets it unchanged.
//! Every page whose heading is known without the app (`api_types::pages`, or the API's
//! for a drive, comparison or result) shows it, with the site's menu, in its body from
//! the start (`html::first_paint`): a reader sees it as soon as the HTML and CSS are in.
//! A leaderboard shows its test's table there too.
//! Every page also names, in its head, the files its code arrives in (`preload.json`,
//! written by the site build: the wasm-split loader and the page's route's chunks), so
//! that the browser fetches them beside the main module, not after it ran; the site's
//! start script fetches them after the first paint (`with_preloads`).
//! Trunk puts a content hash in the names of the wasm, JS and CSS it emits, so those may
//! be cached for good; the pages are never stored, everything else is revalidated, or a
//! new release would load stale assets.

use crate::api::share::{self, Page};
use crate::api::state::AppState;
use crate::html::first_paint;
use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::path::Path;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

/// The site in `dir`, for `Router::fallback_service`.
pub fn router(dir: &Path) -> Router {
    let site = dir.to_path_buf();
    let index = axum::routing::get(move |uri: Uri| async move {
        page_html(&site, uri.path(), PageParts::default()).await
    });
    // `/` too is a page (with its first paint), not the directory's `index.html` as it is.
    let files = ServeDir::new(dir)
        .append_index_html_on_directories(false)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(index);
    Router::new()
        .fallback_service(files)
        .layer(axum::middleware::map_response(cache_control))
        .layer(CompressionLayer::new().gzip(true))
}

async fn cache_control(mut res: Response) -> Response {
    let hashed = res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|t| {
        ["application/wasm", "text/javascript", "application/javascript", "text/css"]
            .iter()
            .any(|h| t.starts_with(h))
    });
    let html =
        res.headers().get(header::CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    let cache = if hashed {
        "public, max-age=31536000, immutable"
    } else if html {
        PAGE_CACHE
    } else {
        "no-cache"
    };
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if html {
        res.headers_mut().insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    }
    res
}

/// The pages (`index.html`, with or without a link preview) are never stored: they are
/// small, a new release must replace them at once, and a page read on a shared computer
/// stays off its disk. (`Pragma` for HTTP/1.0 caches.)
const PAGE_CACHE: &str = "no-store, max-age=0";

/// True when `dir` holds a built site.
pub fn is_built(dir: &Path) -> bool {
    dir.join("index.html").is_file()
}

/// `/drives/{id}` with its link preview.
pub async fn drive_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    UrlPath(id): UrlPath<String>,
) -> Response {
    page(&state, &headers, uri.path(), Some(Page::Drive(id))).await
}

/// `/compare?drives=...` with its link preview.
pub async fn compare_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    RawQuery(q): RawQuery,
) -> Response {
    page(&state, &headers, uri.path(), Some(Page::Compare(q.unwrap_or_default()))).await
}

/// `/results/{id}` with its link preview.
pub async fn result_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    UrlPath(id): UrlPath<String>,
) -> Response {
    page(&state, &headers, uri.path(), id.parse().ok().map(Page::Result)).await
}

/// `/leaderboard?...` with its test's table in its first paint.
pub async fn leaderboard_page(State(state): State<AppState>, uri: Uri, RawQuery(q): RawQuery) -> Response {
    let Some(dir) = state.site.as_deref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let lead = share::leaderboard_lead(&state, &q.unwrap_or_default()).await;
    let parts = PageParts {
        data: Some(share::leaderboard_data()),
        lead: lead.map(|l| (l, Some(first_paint::LEADERBOARD_DRAWN))),
        ..Default::default()
    };
    page_html(dir, uri.path(), parts).await
}

/// The app's `index.html` for `path`, with `page`'s link preview in its head when the
/// API knows the page (never cached: new results change the figures).
async fn page(state: &AppState, headers: &HeaderMap, path: &str, page: Option<Page>) -> Response {
    let Some(dir) = state.site.as_deref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let data = page.as_ref().and_then(share::page_data);
    let mut meta = match page {
        Some(p) => share::page_meta(state, &p).await.ok(),
        None => None,
    };
    let lead = meta.as_mut().and_then(|m| Some((m.lead.take()?, m.drawn)));
    let preview = meta.map(|meta| (meta, share::base_url(state, headers)));
    page_html(dir, path, PageParts { preview, data, lead }).await
}

/// What the server adds to the site's `index.html` for one page, beyond what every page
/// at its path gets (its static opening, its code's files).
#[derive(Default)]
struct PageParts {
    /// The link preview (its meta tags, the page's heading and lead) and the site's base URL.
    preview: Option<(share::PageMeta, String)>,
    /// The API answer its app asks for first (a URL's path and query), which the start
    /// script fetches with the page's code rather than after it has run (`<meta
    /// name="ssdbase-data">`, read by `cargo xtask site-post-build`'s script).
    data: Option<String>,
    /// What the page shows under its opening, and what the app must have drawn before it
    /// takes over when that is more than its heading (`first_paint::markup`'s `drawn`).
    lead: Option<(maud::Markup, Option<&'static str>)>,
}

/// `index.html` of the site in `dir` for the page at `path`, with its first paint, the
/// preloads of its route's code, and `parts`.
async fn page_html(dir: &Path, path: &str, parts: PageParts) -> Response {
    let PageParts { preview, data, lead } = parts;
    let file = dir.join("index.html");
    let index = match tokio::fs::read_to_string(&file).await {
        Ok(index) => index,
        Err(e) => {
            tracing::error!(error = %e, file = %file.display(), "cannot read the site's index.html");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    // What the page shows before its code arrives: its opening, when the page has one
    // for everyone (`api_types::pages`) or the API knows its heading.
    let opening = api_types::pages::opening(path);
    let heading = preview.as_ref().map(|(meta, _)| meta.heading.as_str()).or(opening.map(|o| o.heading));
    let index = match heading {
        Some(heading) => {
            let (lead, drawn) = lead.as_ref().map_or((None, None), |(lead, drawn)| (Some(lead), *drawn));
            first_paint::into_body(index, &first_paint::markup(path, heading, opening, lead, drawn))
        }
        None => index,
    };
    let mut html = match preview {
        Some((meta, base)) => crate::html::share::with_head(&index, &meta, &base),
        None => index,
    };
    if let (Some(url), Some(at)) = (data, html.find("</head>")) {
        html.insert_str(at, &maud::html! { meta name="ssdbase-data" content=(url); }.into_string());
    }
    let html = match tokio::fs::read(dir.join(PRELOADS)).await {
        Ok(json) => with_preloads(html, &json, path),
        // A site built without lazy routes has none: the page loads as before.
        Err(_) => html,
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            (header::CACHE_CONTROL, HeaderValue::from_static(PAGE_CACHE)),
            (header::PRAGMA, HeaderValue::from_static("no-cache")),
        ],
        html,
    )
        .into_response()
}

/// The site build's list of the files each lazy route's code arrives in.
const PRELOADS: &str = "preload.json";

#[derive(serde::Deserialize)]
struct Preloads {
    /// The wasm-split loader (a JS module), which fetches the chunks.
    loader: String,
    /// Route name (`drive` for the app's `DriveRoute`) -> its chunk files.
    routes: std::collections::HashMap<String, Vec<String>>,
    /// The app's paths and the route each shows, as its router declares them.
    paths: Vec<RoutePath>,
}

#[derive(serde::Deserialize)]
struct RoutePath {
    /// `/drives/:id`: a `:name` segment stands for any one segment.
    path: String,
    route: String,
}

impl RoutePath {
    fn matches(&self, path: &str) -> bool {
        let mut want = self.path.split('/');
        let mut got = path.split('/');
        loop {
            match (want.next(), got.next()) {
                (None, None) => return true,
                (Some(w), Some(g)) if w.starts_with(':') && !g.is_empty() => {}
                (Some(w), Some(g)) if w == g => {}
                _ => return false,
            }
        }
    }
}

/// `index` naming, before `</head>`, the loader and chunks of the route that shows `path`
/// (`<meta name="ssdbase-code" content="/FILE /FILE...">`). The site's start script
/// preloads them with the main module once the page's first paint is on screen (`cargo
/// xtask site-post-build`), so that they load beside it instead of after it has run, yet
/// leave the network to the style sheet until then. An unreadable manifest or unknown
/// route names none.
fn with_preloads(mut index: String, manifest: &[u8], path: &str) -> String {
    let Ok(preloads) = serde_json::from_slice::<Preloads>(manifest) else {
        tracing::warn!("the site's preload.json is not what the build writes; pages load without preloads");
        return index;
    };
    let route = preloads.paths.iter().find(|p| p.matches(path)).map(|p| p.route.as_str());
    let Some(files) = route.and_then(|r| preloads.routes.get(r)) else { return index };
    let names: Vec<String> =
        std::iter::once(&preloads.loader).chain(files).map(|f| format!("/{f}")).collect();
    let meta = maud::html! { meta name="ssdbase-code" content=(names.join(" ")); };
    if let Some(at) = index.find("</head>") {
        index.insert_str(at, &meta.into_string());
    }
    index
}
