//! What a page shows before the app's code has arrived: the site's header and menu and the
//! page's opening (heading and first paragraph, `api_types::pages`), in the same markup
//! the app draws them in. It is put first in the body of the page's `index.html`; the app
//! mounts beside it, hidden, and removes it once it has drawn the page's heading, so the
//! text a reader already sees stays where it is (no layout shift) and is never drawn
//! twice. A browser without scripts keeps it, with working links.

use api_types::pages::{self, Opening, PageLink, Run, NAV};
use maud::{html, Markup};

/// The element the app looks for (`app::main`) and removes when it takes over.
pub const ID: &str = "first-paint";

/// The header and `heading` with `opening`'s paragraph, if any, then `lead` (what else
/// the page shows under its heading), for the page at `path`. `drawn` names what the app
/// must have drawn before it takes over (selectors separated by `;`, `app::first_paint`)
/// when that is more than its heading: when the lead shows data the app fetches, the
/// server's copy stays until the app's is there.
pub fn markup(
    path: &str,
    heading: &str,
    opening: Option<&Opening>,
    lead: Option<&Markup>,
    drawn: Option<&str>,
) -> Markup {
    html! {
        div id=(ID) data-drawn=[drawn] {
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

/// What the app must have drawn before it takes over from [`leaderboard_lead`]: the test
/// picker and the table.
pub const LEADERBOARD_DRAWN: &str = "main select[name=test];main .server-table";

/// A leaderboard's toolbar (the picker of `tests`, `chosen` selected), drive filters and
/// `table` (the fragment the app shows) for the page's query `asked` (with its test), as the app draws
/// them. Its forms work without the app: they ask for the page itself (the picker's
/// button is shown only to a browser without scripts; with them the app takes over
/// before the reader has chosen).
pub fn leaderboard_lead(
    tests: &[api_types::LeaderboardTest],
    chosen: &str,
    asked: &[(String, String)],
    table: Markup,
) -> Markup {
    // As the app's links: another test keeps the other parameters but the number of
    // lines; the filters keep the test (and the others), not the number of lines.
    let pairs = |keep: &dyn Fn(&str) -> bool| -> Vec<(&str, &str)> {
        asked.iter().filter(|(k, _)| k != "limit" && keep(k)).map(|(k, v)| (k.as_str(), v.as_str())).collect()
    };
    let is_filter = |k: &str| k == "reviewed" || pages::DRIVE_FILTERS.iter().any(|f| f.0 == k);
    let others = pairs(&|k| k != "test");
    let kept = pairs(&|k| !is_filter(k));
    html! {
        form class="toolbar" method="get" action="/leaderboard" {
            label {
                "Test "
                select name="test" {
                    @for t in tests {
                        option value=(t.test) selected[t.test == chosen] { (pages::leaderboard_test_label(t)) }
                    }
                }
            }
            @for (k, v) in others {
                input type="hidden" name=(k) value=(v);
            }
            noscript { button type="submit" { "Show" } }
        }
        (drive_filters("/leaderboard", asked, &kept))
        div class="table-slot" {
            div class="server-table" { (table) }
        }
    }
}

/// The drive filters as the app's `DriveFilters` draws them (folded unless one is set),
/// a form asking for `path` with them and the `kept` parameters.
fn drive_filters(path: &str, asked: &[(String, String)], kept: &[(&str, &str)]) -> Markup {
    let value = |name: &str| asked.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str());
    let clear = api_types::links::with_query(path, kept.iter().copied());
    html! {
        details class="filters" open[pages::filters_set(asked)] {
            summary { "Filters" }
            form class="filter-grid drive-filters" method="get" action=(path) {
                @for (k, v) in kept {
                    input type="hidden" name=(k) value=(v);
                }
                @for &(name, label, example) in pages::DRIVE_FILTERS {
                    label {
                        span { (label) }
                        input name=(name) list=(format!("index-{name}")) placeholder=(example) value=(value(name));
                    }
                }
                label {
                    span { "Reviewed" }
                    select name="reviewed" {
                        @for &(v, label) in pages::REVIEWED {
                            option value=(v) selected[value("reviewed") == v] { (label) }
                        }
                    }
                }
                div class="actions" {
                    button type="submit" { "Apply filters" }
                    a href=(clear) { "Clear" }
                }
            }
        }
    }
}

/// What the app must have drawn before it takes over from [`compare_lead`]'s chart: its
/// own (the canvas, which a reader can point at).
pub const COMPARE_DRAWN: &str = "main canvas[data-drawn-ms]";

/// The widths the first paint's compare chart is drawn at, each with the narrowest
/// window it serves. The page's content is the window less 32 pixels, at most 1048
/// (style.css, `main`), and the chart takes two columns from 720 (`charts`' panels):
/// two columns at 1048, one at 640 for a tablet, and one at 380 for a phone; the browser
/// scales the one it picks to the width it has.
const CHART_WIDTHS: [(u32, u32); 3] = [(752, 1048), (500, 640), (0, 380)];

/// A compare page's picker and, when `chart` has panels, the chart, as the app draws
/// them, for the page's query `asked` (`query` as written). (Only the bar chart's view
/// gets here: the sustained view's `view=sustained` is not a chart's parameter, so the
/// server has no link preview or first paint beyond the opening for it.)
/// The chart is the server's drawing of it (`/api/v1/compare/chart.svg`: the same
/// function the app runs on its canvas) in a `<picture>` that lets the browser take the
/// width and theme it needs. The picker's controls are inert until the app has arrived
/// (nothing typed or picked is lost); its links work.
pub fn compare_lead(
    c: &api_types::Comparison,
    chart: &charts::ComparePanels,
    figure: bench::difference::Figure,
    asked: &[(String, String)],
    query: &str,
) -> Markup {
    use api_types::links;
    let get = |k: &str| asked.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let ids = links::compared_drives(&get("drives").unwrap_or_default());
    let filters = links::compare_filters(get);
    let choices: Vec<(&str, String)> =
        charts::compare::Selection::PARAMS.iter().map(|&k| (k, get(k).unwrap_or_default())).collect();
    let href = |ids: &[String], f| links::compare_page(ids, f, &filters, &choices);
    let current = |k: &str| filters.iter().find(|(n, _)| n == k).map_or("", |(_, v)| v.as_str());
    let name_of =
        |id: &str| c.drives.iter().find(|d| d.id == id).map_or_else(|| id.to_string(), |d| d.label());
    html! {
        div class="picker" {
            ul class="chips" aria-label="Compared drives" {
                @for id in &ids {
                    @let rest: Vec<String> = ids.iter().filter(|x| *x != id).cloned().collect();
                    @let name = name_of(id);
                    li {
                        a href=(format!("/drives/{id}")) { (name) }
                        a href=(href(&rest, figure)) aria-label=(format!("Remove {name}")) class="x" { "×" }
                    }
                }
            }
            label class="search" inert {
                span class="sr-only" { "Search drives" }
                input type="search" placeholder="Add a drive by model…";
            }
            ul class="matches" aria-live="polite" {}
            label inert {
                "Data "
                select {
                    @for &(v, l) in pages::COMPARE_PATTERNS {
                        option value=(v) selected[current("data_pattern") == v] { (l) }
                    }
                }
            }
            label inert {
                "Chipset "
                input size="10" placeholder="any" value=(current("chipset"));
            }
            label inert {
                input type="checkbox" checked[current("merge") == "drive"];
                (pages::MERGE_LABEL)
            }
            div class="seg" role="group" aria-label="Figure" inert {
                @for f in bench::difference::Figure::ALL {
                    button type="button" aria-pressed=((f == figure).to_string()) { (f.unit()) }
                }
            }
        }
        @if links::comparison(&ids, &filters).is_some() {
            @let burst = href(&ids, figure);
            div class="seg" role="group" aria-label="Burst or sustained" {
                a href=(burst) aria-current="page" { "Burst" }
                a href=(format!("{burst}&view=sustained")) { "Sustained" }
            }
        }
        @if !chart.panels.is_empty() {
            (chart_picture(chart, query))
        }
    }
}

/// The compare chart of the page's `query` as the server draws it, at [`CHART_WIDTHS`]
/// in both themes, the space for each reserved by its size.
fn chart_picture(chart: &charts::ComparePanels, query: &str) -> Markup {
    let src = |width: u32, dark: bool| {
        format!(
            "{}/compare/chart.svg?{query}&width={width}{}",
            api_types::links::API,
            if dark { "&theme=dark" } else { "" }
        )
    };
    let height = |width: u32| charts::compare_panels_height(chart, width) + charts::render::CAPTION_H;
    let (phone, phone_height) = (CHART_WIDTHS[2].1, height(CHART_WIDTHS[2].1));
    html! {
        div class="chart" {
            picture {
                @for (narrowest, width) in CHART_WIDTHS {
                    @let wide = (narrowest > 0).then(|| format!(" and (min-width: {narrowest}px)"));
                    source
                        media=(format!("(prefers-color-scheme: dark){}", wide.as_deref().unwrap_or("")))
                        srcset=(src(width, true)) width=(width) height=(height(width));
                    @if let Some(wide) = &wide {
                        source media=(wide.trim_start_matches(" and ")) srcset=(src(width, false))
                            width=(width) height=(height(width));
                    }
                }
                img src=(src(phone, false)) width=(phone) height=(phone_height) alt=(chart.label())
                    elementtiming="compare-chart";
            }
        }
    }
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

    #[test]
    fn the_opening_comes_first_in_the_body_with_every_text_escaped() {
        let index = "<html><head></head><body class=\"x\"><noscript>n</noscript></body></html>";
        let page = into_body(index.to_string(), &markup("/drives/x", "<A & B> 64 GB", None, None, None));
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
        let html = markup("/leaderboard", pages::LEADERBOARD.heading, Some(&pages::LEADERBOARD), None, None)
            .into_string();
        assert!(html.contains("<a href=\"/leaderboard\" aria-current=\"page\">Leaderboards</a>"), "{html}");
        assert!(html.contains("<a href=\"/drives\">Drives</a>"), "{html}");
        let drive = markup("/drives/x", "X", None, None, None).into_string();
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
