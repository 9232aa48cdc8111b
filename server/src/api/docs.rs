//! `/api/docs`: the API reference a reader can try, Swagger UI over the served OpenAPI
//! document (`/api/v1/openapi.json`). Swagger UI because its "Try it out" sends real
//! requests from the page, and `utoipa-swagger-ui` (the utoipa project's own, as the
//! document is utoipa's) ships its files in the binary with `vendored`: served by
//! SSDBase itself, no CDN, no download at build time. Its page has its own Content
//! Security Policy, the site's without the site's wasm and inline loader (Swagger UI
//! needs neither and runs only its own files) and with one inline style allowed by hash
//! (`DOCS_CSP`).

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::{Arc, LazyLock};
use utoipa_swagger_ui::Config;

/// Where the page is; its files are under it.
pub const PATH: &str = "/api/docs";

/// What Swagger UI reads: the served document, every operation tried at once.
static CONFIG: LazyLock<Arc<Config<'static>>> = LazyLock::new(|| {
    Arc::new(
        Config::new([format!("{}/openapi.json", super::API_PREFIX)])
            .try_it_out_enabled(true)
            .display_operation_id(true)
            .display_request_duration(true)
            .deep_linking(true),
    )
});

/// The page's policy (see the module's comment): scripts, styles and fonts from this
/// server only, Swagger UI's icons as `data:` images, requests to this server. Its one
/// exception is the one inline style Swagger UI 5.32.6 (`utoipa-swagger-ui-vendored`
/// 0.2) inserts, allowed by its hash rather than all inline styles: headless Chromium
/// reported exactly that one on the page, an operation opened and tried. Another
/// version's style is refused and reported, and the browser test fails on the report.
const DOCS_CSP: &str = "default-src 'self'; script-src 'self' 'report-sample'; \
     style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=' 'report-sample'; \
     img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'; report-uri /csp-report";

/// `/api/docs` → `/api/docs/` (the page's files are relative to it).
pub async fn redirect() -> Redirect {
    Redirect::permanent(&format!("{PATH}/"))
}

/// The page (`/api/docs/`).
pub async fn index() -> Response {
    file("")
}

/// One of its files (`/api/docs/swagger-ui-bundle.js`, …).
pub async fn asset(Path(name): Path<String>) -> Response {
    file(&name)
}

fn file(name: &str) -> Response {
    match utoipa_swagger_ui::serve(name, CONFIG.clone()) {
        Ok(Some(f)) => {
            let mut res = (StatusCode::OK, f.bytes.into_owned()).into_response();
            let h = res.headers_mut();
            if let Ok(kind) = HeaderValue::from_str(&f.content_type) {
                h.insert(header::CONTENT_TYPE, kind);
            }
            if f.content_type.starts_with("text/html") {
                h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(DOCS_CSP));
            }
            res
        }
        Ok(None) => crate::error::error_response(StatusCode::NOT_FOUND, "no such file of the API reference"),
        Err(e) => {
            tracing::error!("the API reference's {name:?}: {e}");
            crate::error::error_response(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the API reference could not be served",
            )
        }
    }
}
