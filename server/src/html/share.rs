//! What a pasted link shows elsewhere: the Open Graph and Twitter card tags (and oEmbed's
//! discovery link) in the head of a deep link's `index.html`, oEmbed's iframe, and the
//! chart embed pages (`/embed/...`): the chart at full width with a link back, no script.

use api_types::links::{self, API};
use axum::http::HeaderValue;
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// The size link previews ask for (Open Graph's and Twitter's large image).
pub const PREVIEW_W: u32 = 1200;
pub const PREVIEW_H: u32 = 630;

/// What a link to a page previews as.
#[derive(Debug, Clone)]
pub struct PageMeta {
    pub title: String,
    /// The page's heading, as the app draws it (`api_types::pages`).
    pub heading: String,
    /// What the page shows under its heading, as the app draws it, in its first paint
    /// (`first_paint`), when the server knows it.
    pub lead: Option<Markup>,
    /// What the app must have drawn before it takes over from the first paint, when more
    /// than its heading (`first_paint::markup`'s `drawn`).
    pub drawn: Option<&'static str>,
    /// Key figures with their sample counts.
    pub description: String,
    /// The page on the site: path and query (encoded by `api_types::links`).
    pub path: String,
    /// The 1200 × 630 preview image: path and query under `/api/v1`.
    pub image: String,
    /// Whether oEmbed offers the page (drive and compare pages).
    pub oembed: bool,
}

/// The `<meta>` and `<link>` tags of `meta` with absolute URLs under `base`.
pub fn head_tags(meta: &PageMeta, base: &str) -> Markup {
    let url = format!("{base}{}", meta.path);
    let image = format!("{base}{API}{}", meta.image);
    let oembed =
        links::with_query(&format!("{base}{API}/oembed"), [("url", url.as_str()), ("format", "json")]);
    html! {
        meta name="description" content=(meta.description);
        meta property="og:type" content="website";
        meta property="og:site_name" content="SSDBase";
        meta property="og:title" content=(meta.title);
        meta property="og:description" content=(meta.description);
        meta property="og:url" content=(url);
        meta property="og:image" content=(image);
        meta property="og:image:type" content="image/png";
        meta property="og:image:width" content=(PREVIEW_W);
        meta property="og:image:height" content=(PREVIEW_H);
        meta property="og:image:alt" content=(meta.title);
        meta name="twitter:card" content="summary_large_image";
        meta name="twitter:title" content=(meta.title);
        meta name="twitter:description" content=(meta.description);
        meta name="twitter:image" content=(image);
        @if meta.oembed {
            link rel="alternate" type="application/json+oembed" href=(oembed) title=(meta.title);
        }
    }
}

/// The app's `index.html` (the site's own build, trusted) with `meta`'s title and tags
/// in its head.
pub fn with_head(index: &str, meta: &PageMeta, base: &str) -> String {
    let mut page = index.to_string();
    if let (Some(open), Some(close)) = (page.find("<title>"), page.find("</title>")) {
        if open < close {
            page.replace_range(open + "<title>".len()..close, &html! { (meta.title) }.into_string());
        }
    }
    let at = page.find("</head>").or_else(|| page.find("<body")).unwrap_or(0);
    page.insert_str(at, &head_tags(meta, base).into_string());
    page
}

/// oEmbed's `html`: an iframe of the page's embed, `width` × `height`.
pub fn oembed_iframe(meta: &PageMeta, base: &str, (width, height): (u32, u32)) -> String {
    html! {
        iframe src={ (base) "/embed" (meta.path) } width=(width) height=(height) style="border:0;max-width:100%"
            loading="lazy" title=(meta.title) {}
    }
    .into_string()
}

/// The embed pages' only style, allowed by its hash in [`EMBED_CSP`].
const EMBED_STYLE: &str = "body{margin:0;font:13px/1.4 system-ui,sans-serif;color:#1c1c1e;background:#fff}\
    img{display:block;width:100%;height:auto}p{margin:4px 8px}a{color:#0b57d0}";

/// Frames from any site may show these pages; they load the chart image and nothing else.
pub static EMBED_CSP: std::sync::LazyLock<HeaderValue> =
    std::sync::LazyLock::new(|| crate::security::embed_csp(EMBED_STYLE));

/// An embed page: the chart `image` (a path under `/api/v1`) at full width, linked to
/// the page on SSDBase, with the title and key figures beneath.
pub fn embed_page(meta: &PageMeta, image: &str, base: &str) -> Markup {
    let page = format!("{base}{}", meta.path);
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width,initial-scale=1";
                meta name="robots" content="noindex";
                title { (meta.title) }
                // A constant of this file, hashed into the page's CSP.
                style { (PreEscaped(EMBED_STYLE)) }
            }
            body {
                a href=(page) target="_blank" rel="noopener" { img src={ (API) (image) } alt=(meta.title); }
                p { a href=(page) target="_blank" rel="noopener" { (meta.title) } " · " (meta.description) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_gets_the_title_and_tags() {
        let meta = PageMeta {
            title: r#"<b>"'&"#.into(),
            heading: String::new(),
            lead: None,
            drawn: None,
            description: "d".into(),
            path: "/drives/x".into(),
            image: "/drives/x/preview.png".into(),
            oembed: true,
        };
        let html = with_head(
            "<html><head><title>SSDBase</title></head><body></body></html>",
            &meta,
            "https://s.example",
        );
        assert!(html.contains("<title>&lt;b&gt;&quot;'&amp;</title>"), "{html}");
        assert!(html.contains("content=\"https://s.example/api/v1/drives/x/preview.png\""), "{html}");
        assert!(html.contains(
            "href=\"https://s.example/api/v1/oembed?url=https%3A%2F%2Fs.example%2Fdrives%2Fx&amp;format=json\""
        ), "{html}");
        assert!(html.find("twitter:card").unwrap() < html.find("</head>").unwrap());
    }
}
