//! What the chart embeds share (`/compare/chart.*`, `/drives/{id}/rated.*`): the
//! `theme` and `width` parameters, and a chart drawn by its `charts` function into an SVG
//! or PNG answer that any site may embed.

use super::extract::Bounded;
use crate::error::{ApiError, ApiResult};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use charts::render::PixelBackend;
use charts::Theme;
use headers::{ETag, HeaderMapExt, IfNoneMatch};
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, SVGBackend};

/// `theme` of a chart.
#[derive(Debug, Clone, Copy, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChartTheme {
    Light,
    Dark,
}

/// `width` of a chart in pixels.
pub type ChartWidth = Bounded<320, 1600>;

/// How an embedded chart is drawn: colours and width in pixels (the height follows
/// from the data).
#[derive(Debug, Clone, Copy)]
pub struct ChartStyle {
    pub theme: &'static Theme,
    pub width: u32,
}

impl ChartStyle {
    /// The style a chart's `theme` and `width` ask for (light and 720 pixels by default).
    pub fn new(theme: Option<ChartTheme>, width: Option<ChartWidth>) -> ChartStyle {
        ChartStyle {
            theme: match theme {
                Some(ChartTheme::Dark) => &Theme::DARK,
                _ => &Theme::LIGHT,
            },
            width: width.map_or(720, |w| w.0 as u32),
        }
    }
}

/// `draw` (a chart `height` pixels tall) with `caption` beneath, as an SVG answer.
pub async fn svg<F>(style: ChartStyle, height: u32, caption: String, draw: F) -> ApiResult<Response>
where
    F: FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String> + Send + 'static,
{
    // Laying out and writing a chart takes milliseconds of CPU: off the async workers.
    let svg = tokio::task::spawn_blocking(move || {
        charts::render::to_svg(style.width, height, style.theme, &caption, draw)
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(anyhow::Error::msg)?;
    Ok(image_response("image/svg+xml", svg.into_bytes()))
}

/// `draw` (a chart `height` pixels tall) with `caption` beneath, as a PNG answer.
pub async fn png<F>(style: ChartStyle, height: u32, caption: String, draw: F) -> ApiResult<Response>
where
    F: FnOnce(&DrawingArea<PixelBackend<'_>, Shift>) -> Result<(), String> + Send + 'static,
{
    // Rasterising and deflating take milliseconds of CPU: off the async workers.
    let png = tokio::task::spawn_blocking(move || -> anyhow::Result<Vec<u8>> {
        let rgb = charts::render::to_rgb(style.width, height, style.theme, &caption, draw)
            .map_err(anyhow::Error::msg)?;
        encode_png(&rgb, style.width, height + charts::render::CAPTION_H)
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(ApiError::from)?;
    Ok(image_response("image/png", png))
}

/// An ETag known before drawing: a hash of what decides a chart's pixels (its kind, the
/// data it is drawn from, how it is drawn) and of this server process, since another
/// release may draw the same data differently. A current `If-None-Match` is then answered
/// with [`not_modified`] without drawing; a change to the results changes the data.
pub fn data_etag(kind: &str, data: &impl serde::Serialize, drawing: &str) -> String {
    static PROCESS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let process = PROCESS.get_or_init(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        format!("{}:{}", std::process::id(), now.as_nanos())
    });
    let mut bytes = format!("{kind}\n{process}\n{drawing}\n").into_bytes();
    serde_json::to_writer(&mut bytes, data).expect("API types always serialise");
    etag_of(&bytes)
}

/// A strong ETag naming `bytes`: a quoted, shortened SHA-256.
fn etag_of(bytes: &[u8]) -> String {
    format!("\"{}\"", &crate::ingest::sha256_hex(bytes)[..32])
}

/// 304 with `etag` when the request's `If-None-Match` names it.
pub fn not_modified(headers: &HeaderMap, etag: &str) -> Option<Response> {
    let (wanted, tag) = (headers.typed_get::<IfNoneMatch>()?, etag.parse::<ETag>().ok()?);
    if !names(&wanted, &tag) {
        return None;
    }
    let mut res = StatusCode::NOT_MODIFIED.into_response();
    let h = res.headers_mut();
    h.insert(header::ETAG, HeaderValue::from_str(etag).expect("hex is a valid header value"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"));
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    Some(res)
}

/// Replaces an image answer's ETag (the hash of its bytes) by `etag` from [`data_etag`].
pub fn set_etag(res: &mut Response, etag: &str) {
    res.headers_mut().insert(header::ETAG, HeaderValue::from_str(etag).expect("hex is a valid header value"));
}

/// An image answer: typed, never sniffed, cacheable for a few minutes (new results change
/// the chart, so not for long), embeddable from any site, with an ETag (a hash of the
/// bytes) so that a cache revalidates with `If-None-Match` and gets 304 while the chart is
/// unchanged (`api::conditional_get`).
pub(super) fn image_response(content_type: &'static str, body: Vec<u8>) -> Response {
    let etag = etag_of(&body);
    (
        [
            (header::ETAG, HeaderValue::from_str(&etag).expect("hex is a valid header value")),
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300")),
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*")),
        ],
        body,
    )
        .into_response()
}

/// RGB rows `width` × `height` as a PNG file.
pub(super) fn encode_png(rgb: &[u8], width: u32, height: u32) -> anyhow::Result<Vec<u8>> {
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        rgb,
        width,
        height,
        image::ExtendedColorType::Rgb8,
    )?;
    Ok(png)
}

/// Whether the client's `If-None-Match` names `etag` (`*`, or one of its tags by weak
/// comparison, as RFC 9110 asks): its copy is current.
pub(super) fn names(if_none_match: &IfNoneMatch, etag: &ETag) -> bool {
    !if_none_match.precondition_passes(etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_lists_and_weak_tags() {
        let m = |wanted: &str, etag: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(wanted).unwrap());
            names(&h.typed_get::<IfNoneMatch>().unwrap(), &etag.parse().unwrap())
        };
        assert!(m(r#""abc""#, r#""abc""#));
        assert!(m(r#""x", W/"abc""#, r#""abc""#));
        assert!(m("*", r#""abc""#));
        assert!(!m(r#""abcd""#, r#""abc""#));
    }
}
