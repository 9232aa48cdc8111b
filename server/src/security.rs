//! What a public site owes its readers' browsers, on every answer (one middleware,
//! [`headers`]), and what happens when a handler panics ([`panic_answer`]).
//!
//! - `Content-Security-Policy`: the site's pages may run only the site's own scripts and
//!   wasm (`'wasm-unsafe-eval'` lets the browser compile it) plus the exact inline
//!   scripts of the built `index.html` (Trunk's loader), by hash; styles and images only
//!   from the site; no inline script, no `eval`, no plugin; frames only from the site;
//!   violations are reported to [`CSP_REPORT_PATH`] (logged and counted in the metrics).
//!   The embed pages set their own policy (their inline style by hash, any site may
//!   frame them); SVG answers may be shown by any site but run nothing; everything
//!   else (JSON, CSV, images) loads nothing and is framed by nobody.
//! - `X-Frame-Options: DENY` (older browsers' `frame-ancestors`) except where any site
//!   may frame; `X-Content-Type-Options: nosniff`; `Referrer-Policy:
//!   strict-origin-when-cross-origin` (a screenshot job's key is in its URL and must not
//!   leak to other sites); HTML pages are isolated from other windows (COOP, COEP),
//!   never stored by caches (`no-store`), and turn off the obsolete XSS auditor.
//! - `Strict-Transport-Security` when the public URL (`serve --public-url`) is https.

use crate::api::client::ClientAddr;
use crate::error::error_response;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Arc;

/// Where browsers send the site's CSP violations (outside `/api/v1`: it is the
/// browser's, not a client's).
pub const CSP_REPORT_PATH: &str = "/csp-report";

/// What answers from anything but an HTML page or an SVG get: they load nothing, and no
/// page frames them.
const INERT_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// SVG charts: any site may show (and frame) them; nothing in them runs or loads.
const SVG_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *";

/// The headers of this server's answers, fixed at start-up.
#[derive(Debug, Clone)]
pub struct Headers {
    /// The site pages' policy, with the hashes of the built `index.html`'s inline scripts.
    site_csp: HeaderValue,
    /// `--public-url` is https: browsers are told to come back over https only.
    hsts: bool,
}

impl Headers {
    /// The headers for the built site in `site` (its `index.html`'s inline scripts are
    /// allowed by hash) and a public URL.
    pub fn new(site: Option<&Path>, public_url: Option<&str>) -> Headers {
        let index = site.and_then(|dir| std::fs::read_to_string(dir.join("index.html")).ok());
        let policy = site_csp(index.as_deref().unwrap_or(""));
        Headers {
            site_csp: HeaderValue::from_str(&policy).expect("the policy is ASCII"),
            hsts: public_url.is_some_and(|u| u.starts_with("https://")),
        }
    }
}

/// `'sha256-…'`: the CSP source that allows exactly this inline script or style.
pub fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes())))
}

/// The site pages' policy for a built `index.html`.
pub fn site_csp(index_html: &str) -> String {
    let scripts: String =
        inline_elements(index_html, "script").iter().map(|s| format!(" {}", csp_hash(s))).collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{scripts} 'report-sample'; style-src 'self' 'report-sample'; \
         img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; \
         base-uri 'none'; form-action 'self'; frame-src 'self'; frame-ancestors 'none'; \
         report-uri {CSP_REPORT_PATH}"
    )
}

/// An embed page's policy: no script, the page's own inline `style` by hash, images from
/// this server, and any site may frame it.
pub fn embed_csp(style: &str) -> HeaderValue {
    let policy = format!(
        "default-src 'none'; img-src 'self'; style-src {}; base-uri 'none'; form-action 'none'; \
         frame-ancestors *",
        csp_hash(style)
    );
    HeaderValue::from_str(&policy).expect("the policy is ASCII")
}

/// The contents of the inline `<tag>` elements of `html` (those without `src`), as the
/// browser hashes them: the exact text between the tags.
fn inline_elements<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        let Some(end_of_open) = after.find('>') else { break };
        let attributes = &after[..end_of_open];
        let body = &after[end_of_open + 1..];
        let Some(end) = body.find(&close) else { break };
        // `<scripts>` or `<script-x>` are other tags; `src=` loads a file the policy
        // allows as 'self'.
        let is_tag = attributes.is_empty() || attributes.starts_with(|c: char| c.is_ascii_whitespace());
        if is_tag && !attributes.contains("src=") {
            found.push(&body[..end]);
        }
        rest = &body[end + close.len()..];
    }
    found
}

fn content_type(headers: &HeaderMap) -> &str {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// Middleware: the headers above, on every answer.
pub async fn headers(State(policy): State<Arc<Headers>>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let kind = content_type(h);
    let html = kind.starts_with("text/html");
    let svg = kind.starts_with("image/svg+xml");
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        let csp = if html {
            policy.site_csp.clone()
        } else if svg {
            HeaderValue::from_static(SVG_CSP)
        } else {
            HeaderValue::from_static(INERT_CSP)
        };
        h.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    let framable = h
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("frame-ancestors *"));
    if framable {
        // Other sites show these (in frames, as images), also sites that isolate
        // themselves with `Cross-Origin-Embedder-Policy`.
        h.insert("cross-origin-resource-policy", HeaderValue::from_static("cross-origin"));
    } else {
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    if html {
        h.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
        h.insert("cross-origin-embedder-policy", HeaderValue::from_static("require-corp"));
        h.insert(header::X_XSS_PROTECTION, HeaderValue::from_static("0"));
    }
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    if policy.hsts {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        );
    }
    res
}

/// What tower-http's `CatchPanic` layer answers for a handler that panicked: a 500 with
/// the JSON error body, instead of a dropped connection. The panic hook ([`log_panics`])
/// has logged the panic with its backtrace in the request's span; the answer's
/// `x-request-id` names it, and the server goes on serving.
pub fn panic_answer(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    crate::metrics::global().panic();
    error_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal error: the server logged it under the request id this answer's x-request-id header gives",
    )
}

/// Installs the process's panic hook: every panic is logged (in the request's span, so
/// with its request id) with its backtrace.
pub fn log_panics() {
    std::panic::set_hook(Box::new(|info| {
        let backtrace = std::backtrace::Backtrace::force_capture();
        tracing::error!(panic = %info, %backtrace, "panic");
    }));
}

/// The largest CSP report read; real ones are well under 2 KB.
const MAX_REPORT_BYTES: usize = 16 * 1024;

/// `POST /csp-report`: a browser reports what the site's policy blocked. Logged (the
/// page, the directive and what was blocked) and counted
/// (`ssdbase_csp_reports_total`), so that a policy that breaks the site is seen.
pub async fn csp_report(client: Option<axum::Extension<ClientAddr>>, body: axum::body::Bytes) -> Response {
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX_REPORT_BYTES)]);
    let client = client.and_then(|c| c.0 .0).map(|ip| ip.to_string()).unwrap_or_default();
    crate::metrics::global().csp_report();
    tracing::warn!(client, report = %text, "content security policy violation reported");
    StatusCode::NO_CONTENT.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_inline_scripts_are_hashed() {
        let html = "<head><script type=\"module\">import init from '/a.js';init();</script>\
                    <script src=\"/b.js\"></script><scripts>x</scripts><style>p{}</style></head>";
        assert_eq!(inline_elements(html, "script"), vec!["import init from '/a.js';init();"]);
        assert_eq!(inline_elements(html, "style"), vec!["p{}"]);
        let csp = site_csp(html);
        assert!(csp.contains(&csp_hash("import init from '/a.js';init();")), "{csp}");
        assert_eq!(csp.matches("'sha256-").count(), 1, "{csp}");
        assert!(!csp.contains("unsafe-inline") && !csp.contains("'unsafe-eval'"), "{csp}");
    }

    #[test]
    fn hashes_are_as_browsers_compute_them() {
        // The CSP specification's own example: `alert('Hello, world.');`.
        assert_eq!(
            csp_hash("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
    }
}
