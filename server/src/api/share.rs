//! Sharing: what a pasted link shows elsewhere.
//!
//! - Link previews: the site's deep links (`/drives/{id}`, `/compare?drives=...`,
//!   `/results/{id}`) are answered with the app's `index.html` carrying Open Graph and
//!   Twitter card tags ([`page_meta`], `html::share::with_head`; served by `crate::site`), whose
//!   image is a 1200 × 630 PNG of the page's chart (`GET /api/v1/drives/{id}/preview.png`,
//!   `/compare/preview.png`, `/results/{id}/preview.png`).
//! - oEmbed 1.0 (`GET /api/v1/oembed?url=`) for drive and compare pages, discovered by the
//!   `<link rel="alternate" type="application/json+oembed">` in the same heads: a `rich`
//!   answer whose `html` is an iframe of
//! - the embed pages `/embed/drives/{id}` and `/embed/compare?drives=...`: the chart's
//!   SVG at 100 % width with a link back, no script, no wasm, framable from anywhere.
//!
//! - What a page's HTML shows before its code has arrived, where that needs data: a
//!   drive's links, a result's figures ([`page_meta`]), a leaderboard's table
//!   ([`leaderboard_lead`]), and the API answer the start script fetches ([`page_data`]).
//!
//! The markup (head tags, oEmbed's iframe, the embed pages) is `crate::html::share`'s;
//! here are the routes and the data each needs.

use super::browse::TagFilters;
use super::drives::{self, HeadlineChart};
use super::embed;
use super::extract::{FilteredQuery, NoQuery, PathParam, TypedQuery};
use super::state::AppState;
use super::{compare, results};
use crate::error::{error_response, ApiError, ApiResult, ErrorBody};
use crate::html;
use api_types::links::{self, API as API_PREFIX};
use api_types::pages::{self, drive_heading};
use api_types::{Aggregates, Comparison};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use bench::PlatformGroup;
use charts::Theme;
use maud::Markup;
use serde::Serialize;
use std::collections::BTreeSet;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(drive_preview))
        .routes(routes!(compare_preview))
        .routes(routes!(result_preview))
        .routes(routes!(oembed))
}

/// The iframe pages, outside `/api` (they are pages, not API answers).
pub fn pages() -> Router<AppState> {
    Router::new()
        .route("/embed/drives/{id}", get(drive_embed_page))
        .route("/embed/compare", get(compare_embed_page))
        .route("/embed/drives/{id}/rated", get(rated_embed_page))
        .route("/embed/compare/sustained", get(sustained_embed_page))
}

pub use crate::html::share::{PageMeta, PREVIEW_H, PREVIEW_W};
/// The iframe an oEmbed answer offers, unless the consumer asks for less.
const OEMBED_W: u32 = 720;
const OEMBED_H: u32 = 540;

/// The first `max` characters of `s`, with an ellipsis when cut.
fn clip(s: &str, max: usize) -> String {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s[..i].trim_end()),
        None => s,
    }
}

/// `title` in at most two lines of about `max` characters, broken between words (before
/// a "vs", so that each line starts with a drive); the second clipped when it is still
/// too long.
fn title_lines(title: &str, max: usize) -> Vec<String> {
    let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    if title.chars().count() <= max {
        return vec![title];
    }
    let words: Vec<&str> = title.split(' ').collect();
    let mut first = String::new();
    let mut taken = 0;
    for w in &words {
        let len = first.chars().count() + usize::from(!first.is_empty()) + w.chars().count();
        if len > max && taken > 0 {
            break;
        }
        if !first.is_empty() {
            first.push(' ');
        }
        first.push_str(w);
        taken += 1;
    }
    if taken > 1 && words[taken - 1] == "vs" {
        taken -= 1;
        first.truncate(first.len() - " vs".len());
    }
    let first = clip(&first, max);
    match words.get(taken..).filter(|rest| !rest.is_empty()) {
        Some(rest) => vec![first, clip(&rest.join(" "), max)],
        None => vec![first],
    }
}

/// This server's absolute URL, without a trailing slash: `serve --public-url`, else the
/// request's `Host` (and `X-Forwarded-Proto: https` from a proxy), else `localhost`.
pub fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = state.public_url.as_deref() {
        return url.trim_end_matches('/').to_string();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b)))
        .unwrap_or("localhost");
    let https = headers.get("x-forwarded-proto").is_some_and(|p| p.as_bytes().eq_ignore_ascii_case(b"https"));
    format!("{}://{host}", if https { "https" } else { "http" })
}

/// A page of the site that has a preview.
#[derive(Debug, Clone)]
pub enum Page {
    Drive(String),
    /// The compare page's query string (drives, tag filters, chart parameters).
    Compare(String),
    Result(i64),
}

/// An aggregate's headline number: the MB/s median, else the IOPS median, with its unit
/// and count.
fn headline(a: &Aggregates) -> Option<(f64, &'static str, usize)> {
    a.mbps
        .as_ref()
        .map(|s| (s.median, "MB/s", s.count))
        .or_else(|| a.iops.as_ref().map(|s| (s.median, "IOPS", s.count)))
}

/// The title, key figures and links of `page`; 404 (or 400) as the page's API would.
pub async fn page_meta(state: &AppState, page: &Page) -> ApiResult<PageMeta> {
    match page {
        Page::Drive(id) => drive_meta(state, id).await,
        Page::Compare(query) => {
            let (c, selection) = compare::comparison_of(state, query).await?;
            let (page, image) = (same_query("/compare", query), same_query("/compare/preview.png", query));
            let mut meta = compare_meta(&c, page, image);
            let chart = charts::compare::compare_panels(&c, &selection);
            let pairs = super::extract::asked(query);
            meta.lead = Some(html::first_paint::compare_lead(&c, &chart, selection.figure, &pairs, query));
            // With the chart in the first paint, the app takes over once it has drawn its own.
            meta.drawn = (!chart.panels.is_empty()).then_some(html::first_paint::COMPARE_DRAWN);
            Ok(meta)
        }
        Page::Result(id) => result_meta(state, *id).await,
    }
}

/// The API answer (its URL's path and query) that the site's page asks for first, when
/// the server can tell it from the page's address, written as the page writes it: the
/// site's start script fetches it beside the page's code (`site.rs`).
pub fn page_data(page: &Page) -> Option<String> {
    match page {
        Page::Compare(query) => {
            let pairs = super::extract::asked(query);
            let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            let ids = links::compared_drives(&get("drives").unwrap_or_default());
            links::comparison(&ids, &links::compare_filters(get)).map(|path| format!("{API_PREFIX}{path}"))
        }
        Page::Drive(_) | Page::Result(_) => None,
    }
}

/// What the leaderboard page at `query` shows under its opening before the app's code
/// arrives (`html::first_paint::leaderboard_lead`): the test asked, or the one the app
/// picks when none is (the first of the unfiltered `/leaderboard/tests`, as the app asks
/// for it), with its table. `None` when nothing has results yet or the query is not
/// one the API answers (the app says why).
pub async fn leaderboard_lead(state: &AppState, query: &str) -> Option<Markup> {
    // As the app reads its URL: empty parameters are not there.
    let mut asked: Vec<(String, String)> =
        super::extract::asked(query).into_iter().filter(|(_, v)| !v.is_empty()).collect();
    let tests = super::leaderboard::tests_of(state, &Default::default()).await.ok()?.tests;
    if tests.is_empty() {
        // The app says "No results yet" and shows no picker: nothing for it to take over.
        return None;
    }
    let chosen = match asked.iter().find(|(k, _)| k == "test") {
        Some((_, t)) => t.clone(),
        None => {
            let first = tests.first()?.test.clone();
            asked.push(("test".into(), first.clone()));
            first
        }
    };
    let query = links::with_query("", asked.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let table = super::fragments::leaderboard_table(state, query.trim_start_matches('?')).await.ok()?;
    Some(html::first_paint::leaderboard_lead(&tests, &chosen, &asked, table))
}

/// The API answer the leaderboard page's app asks for first.
pub fn leaderboard_data() -> String {
    format!("{API_PREFIX}/leaderboard/tests")
}

/// `path` with `query`'s parameters, each written as the site's links write them.
fn same_query(path: &str, query: &str) -> String {
    let pairs = super::extract::asked(query);
    links::with_query(path, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
}

async fn drive_meta(state: &AppState, id: &str) -> ApiResult<PageMeta> {
    let drive = drives::catalogue_drive(state, id).await?;
    let results = state
        .storage
        .results_for_drives(std::slice::from_ref(&drive.id), crate::storage::ResultFigures::All)
        .await?;
    let platforms: BTreeSet<PlatformGroup> = results.iter().map(|r| PlatformGroup::of(&r.tags)).collect();
    let mut tests = crate::aggregate::by_test(&results);
    let samples = |t: &api_types::TestSummary| -> usize {
        t.groups.iter().filter_map(|g| headline(&g.aggregates)).map(|h| h.2).sum()
    };
    tests.sort_by_key(|t| std::cmp::Reverse(samples(t)));
    let figures: Vec<String> = tests
        .iter()
        .take(3)
        .filter_map(|t| {
            // A single drive's pool before any array's (an array is not the drive), then
            // the one with most results.
            let best = t
                .groups
                .iter()
                .filter_map(|g| Some((headline(&g.aggregates)?, g)))
                .max_by_key(|(h, g)| (g.platform.array().is_none(), h.2))?;
            let ((median, unit, n), g) = best;
            Some(format!("{} {} {unit} (median, n={n}, {})", t.name, pages::figure(median), g.platform_label))
        })
        .collect();
    let name = drive_heading(&drive.vendor, &drive.model, drive.capacity_gb);
    let mut description = format!("{} results on {} platform groups", results.len(), platforms.len());
    if !figures.is_empty() {
        description.push_str(&format!(": {}", figures.join("; ")));
    }
    description.push_str(". Only equal tests are compared; n = results.");
    Ok(PageMeta {
        title: format!("{name} — SSDBase"),
        lead: Some(crate::html::first_paint::page_links(&pages::drive_links(
            &drive.id,
            drive.controller.model.as_deref(),
        ))),
        drawn: None,
        heading: name,
        description,
        path: format!("/drives/{}", drive.id),
        image: format!("/drives/{}/preview.png", drive.id),
        oembed: true,
    })
}

fn compare_meta(c: &Comparison, path: String, image: String) -> PageMeta {
    let short: Vec<String> = c.drives.iter().map(|d| format!("{} {} GB", d.model, d.capacity_gb)).collect();
    let names: Vec<String> =
        c.drives.iter().map(|d| drive_heading(&d.vendor, &d.model, d.capacity_gb)).collect();
    // The tests every drive has, the most measured first.
    let mut common: Vec<(usize, String)> = c
        .tests
        .iter()
        .filter(|t| t.drives.iter().all(|d| !d.missing))
        .map(|t| {
            let cells: Vec<Option<(f64, &str, usize)>> = t
                .drives
                .iter()
                .map(|d| {
                    d.groups
                        .iter()
                        .filter_map(|g| {
                            let a = Aggregates {
                                mbps: g.mbps,
                                iops: g.iops,
                                latency_us: None,
                                result_ids: Vec::new(),
                            };
                            headline(&a)
                        })
                        .max_by_key(|h| h.2)
                })
                .collect();
            let n: usize = cells.iter().flatten().map(|h| h.2).sum();
            let per_drive: Vec<String> = short
                .iter()
                .zip(&cells)
                .map(|(name, h)| match h {
                    Some((m, unit, n)) => format!("{name} {} {unit} (n={n})", pages::figure(*m)),
                    None => format!("{name} —"),
                })
                .collect();
            (n, format!("{}: {}", t.name, per_drive.join(", ")))
        })
        .collect();
    common.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    let counts: Vec<String> = c
        .drives
        .iter()
        .zip(&short)
        .map(|(d, name)| {
            // A result is in one pool of its drive.
            let n: usize = c.pools.iter().filter(|p| p.drive == d.id).map(|p| p.results).sum();
            format!("{name} n={n}")
        })
        .collect();
    let mut description = match common.len() {
        0 => "No test in common.".to_string(),
        _ => format!("{}.", common.iter().take(2).map(|(_, s)| s.as_str()).collect::<Vec<_>>().join(". ")),
    };
    description.push_str(&format!(
        " Medians of the largest pool; results: {}; {} tests in common of {}.",
        counts.join(", "),
        common.len(),
        c.tests.len()
    ));
    PageMeta {
        title: format!("{} — SSDBase comparison", names.join(" vs ")),
        heading: pages::COMPARE.heading.to_string(),
        lead: None,
        drawn: None,
        description,
        path,
        image,
        oembed: true,
    }
}

async fn result_meta(state: &AppState, id: i64) -> ApiResult<PageMeta> {
    let r = results::visible_result(state, &HeaderMap::new(), id).await?;
    let (title, lines) = result_text(&r);
    let mut description = lines.join("; ");
    if let Some(c) = r.result.comment.as_deref().filter(|c| !c.trim().is_empty()) {
        description.push_str(&format!(". Comment: {}", clip(c, 160)));
    }
    Ok(PageMeta {
        title: format!("{title} — SSDBase"),
        heading: pages::result_heading(id, &r.tags),
        lead: Some(crate::html::first_paint::result_lead(&r.result, &r.tags)),
        drawn: None,
        description,
        path: format!("/results/{id}"),
        image: format!("/results/{id}/preview.png"),
        oembed: false,
    })
}

/// A result's title (tool and drive) and its first figures with the platform.
fn result_text(r: &crate::storage::StoredResult) -> (String, Vec<String>) {
    let d = &r.tags.drive;
    let drive = match (&d.vendor, &d.model) {
        (Some(v), Some(m)) => {
            format!("{v} {m}{}", d.capacity_gb.map(|c| format!(" {c} GB")).unwrap_or_default())
        }
        (None, Some(m)) => m.clone(),
        _ => d.sku.clone().unwrap_or_else(|| "an unnamed drive".into()),
    };
    let tool = match &r.result.tool_version {
        Some(v) => format!("{} {v}", r.result.tool.name()),
        None => r.result.tool.name().to_string(),
    };
    let mut lines = pages::result_figures(&r.result, &r.tags);
    if let Some(platform) = lines.last_mut() {
        platform.push_str(" · one result (n=1)");
    }
    (clip(&format!("{tool}: {drive}"), 120), lines)
}

// ---------------------------------------------------------------------------------------
// Preview images
// ---------------------------------------------------------------------------------------

/// Where a framed chart starts: below the title.
const TITLE_H: u32 = 104;

/// `title` above a chart `w` × `h` (RGB rows) on a 1200 × 630 canvas of the theme's
/// background, as PNG (the chart brings its own caption, so the canvas has none: a
/// scaled-down chart would leave the start of a second one showing beside it): the chart scaled down to fit, but never below 60 % (its text must
/// stay readable in a preview), in which case its top is shown.
fn frame(title: &str, rgb: Vec<u8>, w: u32, h: u32, theme: &'static Theme) -> anyhow::Result<Vec<u8>> {
    use image::{imageops, ImageBuffer, Rgb};
    let src: ImageBuffer<Rgb<u8>, Vec<u8>> =
        ImageBuffer::from_raw(w, h, rgb).ok_or_else(|| anyhow::anyhow!("chart pixels of the wrong size"))?;
    let mut out: ImageBuffer<Rgb<u8>, Vec<u8>> =
        ImageBuffer::from_raw(PREVIEW_W, PREVIEW_H, card_rgb(title, &[], "", theme)?)
            .ok_or_else(|| anyhow::anyhow!("card pixels of the wrong size"))?;
    let room = PREVIEW_H - TITLE_H;
    let fit = (f64::from(PREVIEW_W) / f64::from(w)).min(f64::from(room) / f64::from(h));
    let scale = fit.clamp(0.6, 1.0);
    let (sw, sh) =
        (((f64::from(w) * scale).round() as u32).max(1), ((f64::from(h) * scale).round() as u32).max(1));
    let scaled =
        if scale < 1.0 { imageops::resize(&src, sw, sh, imageops::FilterType::Triangle) } else { src };
    let x = i64::from(PREVIEW_W.saturating_sub(sw) / 2);
    let y = i64::from(TITLE_H + room.saturating_sub(sh) / 2);
    imageops::replace(&mut out, &scaled, x, y);
    embed::encode_png(out.as_raw(), PREVIEW_W, PREVIEW_H)
}

/// A text card 1200 × 630 as PNG: `title` large, `lines` beneath, the caption at the foot.
fn card(title: &str, lines: &[String], theme: &'static Theme) -> anyhow::Result<Vec<u8>> {
    embed::encode_png(&card_rgb(title, lines, CARD_CAPTION, theme)?, PREVIEW_W, PREVIEW_H)
}

const CARD_CAPTION: &str = "SSDBase · SSD benchmark results";

/// Characters of the preview's title per line (44 px sans-serif across 1,104 px).
const TITLE_LINE: usize = 46;

/// [`card`] as RGB rows, with `caption` at its foot (none when empty). A title too long
/// for one line takes two, in a slightly smaller font, both above [`TITLE_H`].
fn card_rgb(title: &str, lines: &[String], caption: &str, theme: &'static Theme) -> anyhow::Result<Vec<u8>> {
    use plotters::prelude::*;
    let body = PREVIEW_H - charts::render::CAPTION_H;
    charts::render::to_rgb(PREVIEW_W, body, theme, caption, |area| {
        let err = |e: DrawingAreaErrorKind<_>| e.to_string();
        area.fill(&theme.background).map_err(err)?;
        let title = title_lines(title, TITLE_LINE);
        let (size, top, step) = if title.len() > 1 { (40, 8, 46) } else { (44, 36, 0) };
        for (i, line) in title.into_iter().enumerate() {
            let big = ("sans-serif", size).into_font().color(&theme.foreground);
            area.draw(&Text::new(line, (48, top + step * i as i32), big)).map_err(err)?;
        }
        for (i, line) in lines.iter().take(7).enumerate() {
            let style = ("sans-serif", 30).into_font().color(&theme.muted);
            area.draw(&Text::new(clip(line, 68), (48, 136 + 56 * i as i32), style)).map_err(err)?;
        }
        Ok(())
    })
    .map_err(anyhow::Error::msg)
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> anyhow::Result<T> + Send + 'static) -> ApiResult<T> {
    Ok(tokio::task::spawn_blocking(f).await.map_err(anyhow::Error::from)??)
}

/// A drive's link preview image
///
/// 1200 × 630 PNG for Open Graph and Twitter cards: the drive's headline chart (its model
/// line's rated vs measured, else its most measured test's distribution), or a card with
/// its name when it has no results.
#[utoipa::path(
    get,
    path = "/drives/{id}/preview.png",
    operation_id = "drive_preview_png",
    tag = "drives",
    params(("id" = String, Path, description = "Catalogue id, e.g. `crucial-realssd-c300-64gb`")),
    responses(
        (status = 200, description = "The preview, 1200 × 630", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the image's current `ETag`"),
        (status = 400, description = "A query parameter (this route takes none)", body = ErrorBody),
        (status = 404, description = "No such drive in the catalogue", body = ErrorBody),
    )
)]
async fn drive_preview(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    let drive = drives::catalogue_drive(&state, &id).await?;
    let title = drive_heading(&drive.vendor, &drive.model, drive.capacity_gb);
    let png = match drives::headline_chart(&state, &id).await? {
        Some(chart) => {
            let (rgb, h) = drives::headline_rgb(&state, &id, &chart, PREVIEW_W).await?;
            blocking(move || frame(&title, rgb, PREVIEW_W, h, &Theme::LIGHT)).await?
        }
        None => blocking(move || card(&title, &["No results yet".to_string()], &Theme::LIGHT)).await?,
    };
    Ok(embed::image_response("image/png", png))
}

/// A comparison's link preview image
///
/// 1200 × 630 PNG for Open Graph and Twitter cards: the compare chart of
/// `GET /compare/chart.png` with the same parameters, framed at 1200 × 630.
#[utoipa::path(
    get,
    path = "/compare/preview.png",
    operation_id = "compare_preview_png",
    tag = "drives",
    params(compare::ChartParams, TagFilters),
    responses(
        (status = 200, description = "The preview, 1200 × 630", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the image's current `ETag`"),
        (status = 400, description = "As for GET /compare/chart.png", body = ErrorBody),
        (status = 404, description = "A drive is not in the catalogue (pointer `drives[i]`)", body = ErrorBody),
    )
)]
async fn compare_preview(
    State(state): State<AppState>,
    FilteredQuery(params, filters): FilteredQuery<compare::ChartParams, TagFilters>,
) -> ApiResult<Response> {
    let (c, rgb, h, theme) = compare::chart_rgb(&state, params, filters, PREVIEW_W).await?;
    let title =
        c.drives.iter().map(|d| format!("{} {} GB", d.model, d.capacity_gb)).collect::<Vec<_>>().join(" vs ");
    let png = blocking(move || frame(&title, rgb, PREVIEW_W, h, theme)).await?;
    Ok(embed::image_response("image/png", png))
}

/// A result's link preview image
///
/// 1200 × 630 PNG for Open Graph and Twitter cards: the tool, the drive, its first
/// figures and the platform.
#[utoipa::path(
    get,
    path = "/results/{id}/preview.png",
    operation_id = "result_preview_png",
    tag = "results",
    params(("id" = i64, Path, description = "Result id")),
    responses(
        (status = 200, description = "The preview, 1200 × 630", content(("image/png"))),
        (status = 304, description = "Not modified: `If-None-Match` names the image's current `ETag`"),
        (status = 400, description = "The id is not a whole number, or a query parameter", body = ErrorBody),
        (status = 404, description = "No such result, or it was hidden by a moderator", body = ErrorBody),
    )
)]
async fn result_preview(
    State(state): State<AppState>,
    PathParam(id): PathParam<i64>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    let r = results::visible_result(&state, &HeaderMap::new(), id).await?;
    let (title, lines) = result_text(&r);
    let png = blocking(move || card(&title, &lines, &Theme::LIGHT)).await?;
    Ok(embed::image_response("image/png", png))
}

// ---------------------------------------------------------------------------------------
// oEmbed
// ---------------------------------------------------------------------------------------

/// An oEmbed 1.0 answer of type `rich` (oembed.com).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OEmbed {
    /// Always `1.0`.
    pub version: String,
    /// Always `rich`: `html` is an iframe of the chart's embed page.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub provider_name: String,
    pub provider_url: String,
    /// An `<iframe>` of `/embed/...`, at most `maxwidth` × `maxheight`.
    pub html: String,
    pub width: u32,
    pub height: u32,
    /// The 1200 × 630 preview image.
    pub thumbnail_url: String,
    pub thumbnail_width: u32,
    pub thumbnail_height: u32,
    /// Seconds a consumer may cache this answer.
    pub cache_age: u32,
}

/// oEmbed's query parameters.
#[derive(serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct OEmbedQuery {
    /// A drive page (`/drives/{id}`) or compare page (`/compare?drives=...`) of this site
    #[param(example = "http://localhost/drives/crucial-realssd-c300-64gb")]
    url: String,
    /// Widest iframe the consumer takes (default 720)
    #[param(minimum = 1)]
    maxwidth: Option<u32>,
    /// Tallest iframe the consumer takes (default 540)
    #[param(minimum = 1)]
    maxheight: Option<u32>,
    /// Only `json` (the default); `xml`, the other format of the oEmbed spec, answers 501
    /// (so it is not a value of the documented schema)
    #[param(pattern = "^json$")]
    format: Option<String>,
}

/// oEmbed for drive and compare pages
///
/// What WordPress, Discourse and other oEmbed consumers ask when an SSDBase link is
/// pasted: a `rich` answer whose `html` is an iframe of the chart's embed page, with the
/// preview image as thumbnail. Pages are discovered by the
/// `<link rel="alternate" type="application/json+oembed">` in their head.
#[utoipa::path(
    get,
    path = "/oembed",
    operation_id = "oembed",
    tag = "drives",
    params(OEmbedQuery),
    responses(
        (status = 200, description = "The embed", body = OEmbed),
        (status = 400, description = "No url, a size that is not a positive whole number, a format that is \
            not json or xml, or another parameter",
            body = ErrorBody),
        (status = 404, description = "The URL is not a drive or compare page of this site", body = ErrorBody),
        (status = 501, description = "format=xml, which this provider does not offer", body = ErrorBody),
    )
)]
async fn oembed(
    State(state): State<AppState>,
    headers: HeaderMap,
    TypedQuery(q): TypedQuery<OEmbedQuery>,
) -> ApiResult<Response> {
    for (name, size) in [("maxwidth", q.maxwidth), ("maxheight", q.maxheight)] {
        if size == Some(0) {
            return Err(ApiError::bad_request(
                format!("{name} 0 is not a positive whole number of pixels"),
                Some(name.into()),
            ));
        }
    }
    match q.format.as_deref() {
        None | Some("json") => {}
        // The oEmbed spec's answer to a format it names that a provider does not offer.
        Some("xml") => {
            return Ok(error_response(
                StatusCode::NOT_IMPLEMENTED,
                "format \"xml\" is not offered: only json",
            ))
        }
        Some(f) => {
            return Err(ApiError::bad_request(
                format!("format {f:?} is not an oEmbed format; this provider offers json"),
                Some("format".into()),
            ))
        }
    }
    let (url, maxwidth, maxheight) = (q.url.as_str(), q.maxwidth, q.maxheight);
    let base = base_url(&state, &headers);
    let not_ours = || {
        ApiError::not_found(
            format!("{url:?} is not a drive or compare page of this site ({base}/drives/ID, {base}/compare?drives=...)"),
            Some("url".into()),
        )
    };
    // The scheme may differ (a proxy in front); the host and port may not.
    let strip_scheme = |u: &str| u.split_once("://").map(|(_, rest)| rest.to_string());
    let (Some(host_base), Some(rest)) = (strip_scheme(&base), strip_scheme(url)) else {
        return Err(not_ours());
    };
    let Some(rest) = rest.strip_prefix(&host_base) else { return Err(not_ours()) };
    let rest = rest.split('#').next().unwrap_or_default();
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let page = match path.strip_prefix("/drives/") {
        Some(id) if !id.is_empty() && !id.contains('/') => Page::Drive(id.to_string()),
        _ if path == "/compare" => Page::Compare(query.to_string()),
        _ => return Err(not_ours()),
    };
    let meta = match page_meta(&state, &page).await {
        Ok(meta) => meta,
        Err(ApiError::BadRequest(_) | ApiError::NotFound(_)) => return Err(not_ours()),
        Err(e) => return Err(e),
    };
    let width = maxwidth.map_or(OEMBED_W, |m| m.min(OEMBED_W));
    let height = maxheight.map_or(OEMBED_H, |m| m.min(OEMBED_H));
    let html = html::share::oembed_iframe(&meta, &base, (width, height));
    let answer = OEmbed {
        version: "1.0".into(),
        kind: "rich".into(),
        title: meta.title,
        provider_name: "SSDBase".into(),
        provider_url: format!("{base}/"),
        html,
        width,
        height,
        thumbnail_url: format!("{base}{API_PREFIX}{}", meta.image),
        thumbnail_width: PREVIEW_W,
        thumbnail_height: PREVIEW_H,
        cache_age: 300,
    };
    Ok(([(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"))], Json(answer))
        .into_response())
}

// ---------------------------------------------------------------------------------------
// Embed pages
// ---------------------------------------------------------------------------------------

/// An embed page as an answer: framable from any site, cacheable for a few minutes.
fn embed_page(meta: &PageMeta, image: &str, base: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            (header::CONTENT_SECURITY_POLICY, html::share::EMBED_CSP.clone()),
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=300")),
        ],
        html::share::embed_page(meta, image, base).into_string(),
    )
        .into_response()
}

/// What a drive's embed page shows: by default its headline chart.
#[derive(serde::Deserialize, utoipa::IntoParams)]
struct DriveEmbedParams {
    /// The rated-vs-measured chart of this rated figure
    figure: Option<String>,
    /// The distribution of this test (a test id)
    test: Option<String>,
}

/// `/embed/drives/{id}[?figure=seq-write | ?test=...]`: one of the drive's charts for an
/// iframe: the rated-vs-measured chart of `figure`, the distribution of `test` (as the
/// chart embeds take them), or by default its headline chart.
async fn drive_embed_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    TypedQuery(params): TypedQuery<DriveEmbedParams>,
) -> ApiResult<Response> {
    let meta = drive_meta(&state, &id).await?;
    let asked = match params {
        DriveEmbedParams { figure: None, test: None } => None,
        DriveEmbedParams { figure: Some(value), test: None } => {
            match charts::RATED_FIGURES.iter().find(|f| f.1 == value) {
                Some(f) => Some(HeadlineChart::Rated(f.1)),
                None => {
                    return Err(ApiError::bad_request(
                        format!("figure {value:?} is not a rated figure"),
                        Some("figure".into()),
                    ))
                }
            }
        }
        DriveEmbedParams { figure: None, test: Some(test) } => Some(HeadlineChart::Distribution(test)),
        DriveEmbedParams { figure: Some(_), test: Some(_) } => {
            return Err(ApiError::bad_request("one of figure and test, not both", Some("test".into())))
        }
    };
    let chart = match asked {
        Some(chart) => Some(chart),
        None => drives::headline_chart(&state, &id).await?,
    };
    let image = match chart {
        Some(chart) => {
            let (path, query) = chart.embed(&id);
            // `embed` gives paths under /api/v1 already; the page adds the prefix.
            format!("{}.svg?{query}", path.trim_start_matches(API_PREFIX))
        }
        None => meta.image.clone(),
    };
    Ok(embed_page(&meta, &image, &base_url(&state, &headers)))
}

/// `/embed/drives/{id}/rated`: the rated-vs-measured table of a drive's model line as a
/// small page for an iframe; every measured value links to the drive's results on the
/// site.
async fn rated_embed_page(
    State(state): State<AppState>,
    PathParam(id): PathParam<String>,
    TypedQuery(NoQuery {}): TypedQuery<NoQuery>,
) -> ApiResult<Response> {
    let (t, title) = super::rated::drive_rated(&state, &id).await?;
    Ok(html::response(html::tables::page(&title, html::tables::rated(&t.table, &t.data, t.pools))))
}

/// `/embed/compare?drives=...`: the compare chart for an iframe (the compare chart's
/// parameters pass through).
async fn compare_embed_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let query = query.unwrap_or_default();
    let image = same_query("/compare/chart.svg", &query);
    let meta = page_meta(&state, &Page::Compare(query)).await?;
    Ok(embed_page(&meta, &image, &base_url(&state, &headers)))
}

/// `/embed/compare/sustained?drives=...&chart=saturation|sweep[&test=...]`: a burst-and-
/// sustained chart for an iframe (its parameters pass through, and are checked first:
/// a chart that is not there is the chart's own error, not a page with a broken image),
/// linking back to compare's Sustained view.
async fn sustained_embed_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let query = query.unwrap_or_default();
    let (params, filters) = super::extract::read_query::<super::sustained::SustainedChartParams, _>(&query)?;
    super::sustained::line_chart(&state, &params, filters).await?;
    let drives = params.drives.ids().join(",");
    let mut meta = page_meta(&state, &Page::Compare(format!("drives={}", links::encode(&drives)))).await?;
    meta.path = links::with_query("/compare", [("drives", drives.as_str()), ("view", "sustained")]);
    let image = same_query("/compare/sustained.svg", &query);
    Ok(embed_page(&meta, &image, &base_url(&state, &headers)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_long_titles() {
        assert_eq!(clip("a  b\nc", 10), "a b c");
        assert_eq!(clip("abcdefgh", 4), "abcd…");
    }

    #[test]
    fn a_long_title_takes_two_lines_each_starting_with_a_drive() {
        let three = "RealSSD C300 256 GB vs PX-M2S 256 GB vs WILDFIRE 120 GB";
        assert_eq!(
            title_lines(three, TITLE_LINE),
            ["RealSSD C300 256 GB vs PX-M2S 256 GB", "vs WILDFIRE 120 GB"]
        );
        assert_eq!(title_lines("C300 vs M2S", TITLE_LINE), ["C300 vs M2S"]);
        let long = ["a-very-long-model-name 256 GB"; 4].join(" vs ");
        let lines = title_lines(&long, TITLE_LINE);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.chars().count() <= TITLE_LINE + 1), "{lines:?}");
        assert!(lines[1].ends_with('…'), "{lines:?}");
    }

    /// Rows (in `y0..y1`) holding a pixel unlike the background, as runs of rows.
    fn inked_bands(rgb: &[u8], background: [u8; 3], y0: u32, y1: u32) -> usize {
        let row_inked = |y: u32| {
            let row = &rgb[(y * PREVIEW_W * 3) as usize..((y + 1) * PREVIEW_W * 3) as usize];
            row.chunks(3).any(|p| p != background)
        };
        (y0..y1).filter(|&y| row_inked(y) && (y == y0 || !row_inked(y - 1))).count()
    }

    /// A framed chart: the long title in two lines above it, and nothing of the canvas's
    /// own beside or under a scaled-down chart (it once showed the "SSD" of a second
    /// caption to the left of the chart's own).
    #[test]
    fn a_framed_chart_has_a_two_line_title_and_nothing_beside_it() {
        let theme = &Theme::LIGHT;
        let bg = [theme.background.0, theme.background.1, theme.background.2];
        // A chart taller than the room, so it is scaled down and centred: solid red.
        let (w, h) = (PREVIEW_W, 700);
        let chart = [200u8, 0, 0].repeat((w * h) as usize);
        let png =
            frame("RealSSD C300 256 GB vs PX-M2S 256 GB vs WILDFIRE 120 GB", chart, w, h, theme).unwrap();
        let rgb = image::load_from_memory(&png).unwrap().to_rgb8().into_raw();
        assert_eq!(inked_bands(&rgb, bg, 0, TITLE_H), 2, "two lines of title above the chart");
        let pixel = |x: u32, y: u32| &rgb[((y * PREVIEW_W + x) * 3) as usize..][..3];
        let red_columns: Vec<u32> =
            (0..PREVIEW_W).filter(|&x| pixel(x, PREVIEW_H - 5) == [200, 0, 0]).collect();
        let (left, right) = (red_columns[0], *red_columns.last().unwrap());
        assert!(left > 40, "the chart is scaled and centred: from x = {left}");
        for y in TITLE_H..PREVIEW_H {
            for x in (0..left).chain(right + 1..PREVIEW_W) {
                assert_eq!(pixel(x, y), bg, "({x}, {y}) beside the chart is background");
            }
        }
    }
}
