//! What a page shows before the app's code has arrived: the site's header and menu and the
//! page's opening (heading and first paragraph, `api_types::pages`), in the same markup
//! the app draws them in. It is put first in the body of the page's `index.html`; the app
//! mounts beside it, hidden, and removes it once it has drawn the page's heading, so the
//! text a reader already sees stays where it is (no layout shift) and is never drawn
//! twice. A browser without scripts keeps it, with working links.

use api_types::pages::{Opening, PageLink, Run, NAV};
use maud::{html, Markup};

/// The element the app looks for (`app::main`) and removes when it takes over.
pub const ID: &str = "first-paint";

/// The header and `heading` with `opening`'s paragraph, if any, then `lead` (what else
/// the page shows under its heading), for the page at `path`.
pub fn markup(path: &str, heading: &str, opening: Option<&Opening>, lead: Option<&Markup>) -> Markup {
    html! {
        div id=(ID) {
            header class="top" {
                a class="skip" href="#main" { "Skip to content" }
                a href="/" class="brand" aria-current=[(path == "/").then_some("page")] { "SSDBase" }
                nav aria-label="Main" {
                    // Marked as the app's links mark themselves: the page and the pages under it.
                    @for (href, label) in NAV {
                        a href=(href) aria-current=[under(path, href).then_some("page")] { (label) }
                    }
                }
            }
            main id="main" {
                section class=[(path == "/").then_some("hero")] {
                    h1 { (heading) }
                    @if let Some(o) = opening {
                        p class=(o.class) {
                            @for run in o.paragraph {
                                @match run {
                                    Run::Text(t) => (t),
                                    Run::Link(href, text) => a href=(href) { (text) },
                                }
                            }
                        }
                    }
                    @if let Some(lead) = lead {
                        (lead)
                    }
                }
            }
        }
    }
}

/// The links under a page's heading, as the app's `PageLinks` draws them.
pub fn page_links(links: &[PageLink]) -> Markup {
    html! {
        p class="page-links" {
            @for (i, l) in links.iter().enumerate() {
                a href=(l.href) id=[l.id] { (l.text) }
                @if i + 1 < links.len() { " · " }
            }
        }
    }
}

/// A result's figures under its heading, as the app's result page draws them.
pub fn result_lead(result: &bench::BenchResult, tags: &bench::Tags) -> Markup {
    html! { p class="lead" { (api_types::pages::result_lead(result, tags)) } }
}

/// Whether `path` is `section` or a page under it.
fn under(path: &str, section: &str) -> bool {
    path.strip_prefix(section).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `index` (the built site's `index.html`) with `first_paint` as the body's first child.
pub fn into_body(mut index: String, first_paint: &Markup) -> String {
    let Some(open) = index.find("<body") else { return index };
    let Some(end) = index[open..].find('>').map(|e| open + e + 1) else { return index };
    index.insert_str(end, &first_paint.0);
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use api_types::pages;

    #[test]
    fn the_opening_comes_first_in_the_body_with_every_text_escaped() {
        let index = "<html><head></head><body class=\"x\"><noscript>n</noscript></body></html>";
        let page = into_body(index.to_string(), &markup("/drives/x", "<A & B> 64 GB", None, None));
        let body = &page[page.find("<body class=\"x\">").unwrap()..];
        assert!(
            body.starts_with("<body class=\"x\"><div id=\"first-paint\"><header class=\"top\">"),
            "{body}"
        );
        assert!(body.contains("<h1>&lt;A &amp; B&gt; 64 GB</h1>"), "{body}");
        assert!(body.ends_with("<noscript>n</noscript></body></html>"), "{body}");
        assert!(!body.contains("<p"), "no paragraph without an opening: {body}");
    }

    #[test]
    fn a_static_page_gets_its_paragraph_and_its_menu_entry_marked() {
        let html =
            markup("/leaderboard", pages::LEADERBOARD.heading, Some(&pages::LEADERBOARD), None).into_string();
        assert!(html.contains("<a href=\"/leaderboard\" aria-current=\"page\">Leaderboards</a>"), "{html}");
        assert!(html.contains("<a href=\"/drives\">Drives</a>"), "{html}");
        let drive = markup("/drives/x", "X", None, None).into_string();
        assert!(drive.contains("<a href=\"/drives\" aria-current=\"page\">Drives</a>"), "{drive}");
        assert!(!under("/drivesx", "/drives") && under("/drives", "/drives"));
        let links = page_links(&pages::drive_links("a&b", Some("<m>"))).into_string();
        assert!(links.starts_with("<p class=\"page-links\"><a href=\"/controllers/%3Cm%3E\">Every drive on the &lt;m&gt;</a> · "), "{links}");
        assert!(links.ends_with("<a href=\"/drives/a%26b/propose\" id=\"propose-link\">Propose a correction or rated figures</a></p>"), "{links}");
        assert!(html.contains("<p class=\"muted\">Drives ranked in one test at a time"), "{html}");
        // The paragraph's link, inside the paragraph.
        assert!(html.contains("key figures: <a href=\"/drives\">Drives</a>.</p>"), "{html}");
    }
}
