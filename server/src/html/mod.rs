//! Every HTML the server writes, with maud: templates checked at compile time, and every
//! value escaped where it enters markup unless a template says otherwise with
//! `PreEscaped` (only ever for this crate's own constants: styles). Links come from
//! `api_types::links`, which percent-encodes. This module renders what it is given; it
//! reads nothing and knows no route handler.
//!
//! - [`tables`]: the site's table fragments (rated vs measured, the sources'
//!   observations) and the rated table's standalone embed page;
//! - [`catalogue`]: the drives index and a leaderboard as the site shows them;
//! - [`effects`]: the factor effects and the drives behind one;
//! - [`notices`]: the drive an upload names (submit page) and the runner's account of a
//!   result (result page);
//! - [`first_paint`]: a page's menu and opening in the body of the HTML the site is
//!   served as, shown until the app has drawn the page;
//! - [`share`]: the link-preview head tags, oEmbed's iframe and the chart embed pages.

pub mod catalogue;
pub mod curves;
pub mod effects;
pub mod first_paint;
pub mod notices;
pub mod share;
pub mod sustained;
pub mod tables;

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
pub use maud::Markup;

/// A fragment or page for the site or an embed: typed, never sniffed, no script and no
/// outside resource, embeddable from any site, cacheable for a few minutes.
pub fn response(html: Markup) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300")),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*")),
            (header::CONTENT_SECURITY_POLICY, tables::PAGE_CSP.clone()),
        ],
        html.into_string(),
    )
        .into_response()
}

/// A sample count as every figure shows it.
fn n_text(n: usize) -> String {
    format!("n={n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Markup, both quotes and an entity, in every text a template writes.
    const HOSTILE: &str = "\"'><script>alert(1)</script>&amp;";

    fn assert_escaped(html: &str, what: &str) {
        assert!(!html.contains("<script"), "{what}: {html}");
        assert!(!html.contains("\"'>"), "{what}: an attribute was closed: {html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;"),
            "{what}: the text is shown: {html}"
        );
    }

    #[test]
    fn observations_and_notices_escape_every_text() {
        let o: bench::Observation = serde_json::from_value(serde_json::json!({
            "name": HOSTILE, "value": 1.5, "kind": "about", "unit": HOSTILE, "note": HOSTILE, "source": HOSTILE,
            "tags": {"platform": {"chipset": HOSTILE}}
        }))
        .unwrap();
        assert_escaped(&tables::observations(&[o]).into_string(), "observations");

        let run: api_types::RunnerRecord = serde_json::from_value(serde_json::json!({
            "runner_version": HOSTILE, "fio_version": HOSTILE,
            "jobs": [{"test": HOSTILE, "job": HOSTILE}],
            "facts": [{"field": HOSTILE, "value": HOSTILE, "source": HOSTILE}],
            "typed": [HOSTILE]
        }))
        .unwrap();
        assert_escaped(&notices::runner_record(&run).into_string(), "runner record");

        let page = tables::page(HOSTILE, maud::html! { p { (HOSTILE) } }).into_string();
        assert_escaped(&page, "rated page");
    }
}
