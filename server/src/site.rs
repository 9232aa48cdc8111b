//! Serving the built website (`trunk build` writes it to `dist/`).
//!
//! Every path that is not a file gets `index.html`, so that deep links such as
//! `/drives/crucial-realssd-c300-64gb` load the app, which then routes in the browser.
//! Answers are gzipped when the client accepts it (the wasm shrinks to about a third):
//! from the `.gz` file beside the asset when the build wrote one (`cargo xtask`'s Trunk
//! hook writes them with zopfli, 6 % smaller than gzip -6 and no compression work per
//! request: gzipping the 1.2 MB wasm took ~0.65 s per request in a debug build), and on
//! the fly otherwise.
//! Trunk puts a content hash in the names of the wasm, JS and CSS it emits, so those may
//! be cached for good; everything else is revalidated, or a new release would load stale
//! assets.

use axum::http::{header, HeaderValue};
use axum::response::Response;
use axum::Router;
use std::path::Path;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// The site in `dir`, for `Router::fallback_service`.
pub fn router(dir: &Path) -> Router {
    let files = ServeDir::new(dir).precompressed_gzip().fallback(ServeFile::new(dir.join("index.html")));
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
    let cache = if hashed { "public, max-age=31536000, immutable" } else { "no-cache" };
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    res
}

/// True when `dir` holds a built site.
pub fn is_built(dir: &Path) -> bool {
    dir.join("index.html").is_file()
}
