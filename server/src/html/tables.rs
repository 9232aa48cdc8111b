//! The site's tables as HTML fragments (the site inserts them as they come, so its wasm
//! carries no table code): rated vs measured, and what the sources say besides tool
//! results; and the rated table as a standalone page to embed.

use api_types::{links, pattern_label, RatedTable};
use axum::http::HeaderValue;
use bench::{Observation, PlatformGroup};
use charts::rated_cells;
use maud::{html, Markup, PreEscaped, DOCTYPE};

/// How many result links a row of the rated table lists before "+N more".
const SHOWN: usize = 6;

/// The rated table as the site shows it: one row per figure and drive (and pool when
/// `pools`), a missing number in words, each measurement linking to the drive's results
/// and to the results behind it; the rule and the data links beneath. `data` is the
/// table's API path (without `/api/v1` and `format`).
pub fn rated(t: &RatedTable, data: &str, pools: bool) -> Markup {
    if t.rows.is_empty() {
        return html! { p.empty { "No rated figure and no matching measurement." } };
    }
    let num = |missing: bool| if missing { "num missing" } else { "num" };
    let sep = if data.contains('?') { '&' } else { '?' };
    html! {
        div.table-wrap { table.rated {
            thead { tr {
                th scope="col" { "Figure" }
                th scope="col" { "Drive" }
                @if pools { th scope="col" { "Platform · data" } }
                th scope="col" class="num" { "Rated" }
                th scope="col" class="num" { "Measured median" }
                th scope="col" class="num" { "MAD" }
                th scope="col" class="num" { "n" }
                th scope="col" class="num" { "Gap" }
                th scope="col" { "Flags" }
                th scope="col" { "Measured on · tests" }
                th scope="col" { "Results" }
            } }
            tbody {
                @for r in &t.rows {
                    @let c = rated_cells(r);
                    tr {
                        td { (r.figure_name) }
                        th scope="row" { a href=(links::drive(&r.drive)) { (r.drive_label) } }
                        @if pools { td { (r.pool.as_deref().unwrap_or_default()) } }
                        td class=(num(r.rated.is_none())) { (c.rated) }
                        td class=(num(r.measured.is_none())) {
                            @if r.measured.is_some() {
                                a href=(links::results_of_drive(&r.drive)) { (c.measured) }
                            } @else { (c.measured) }
                        }
                        td.num { (c.mad) }
                        td.num { (c.n) }
                        td.num { (c.gap) }
                        td { (c.flags) }
                        td { (c.measured_on) }
                        td {
                            @for id in r.result_ids.iter().take(SHOWN) {
                                a href=(links::result(*id)) { "#" (id) } " "
                            }
                            @let more = r.result_ids.len().saturating_sub(SHOWN);
                            @if more > 0 { "+" (more) " more" }
                        }
                    }
                }
            }
        } }
        p.muted { (t.rule) }
        p.muted {
            "This table as data: "
            a href={ (links::API) (data) (sep) "format=csv" } download="rated.csv" { "CSV" }
            " · "
            a href={ (links::API) (data) } { "JSON" }
        }
    }
}

/// The standalone page's only style, allowed by its hash in [`PAGE_CSP`].
const PAGE_STYLE: &str = "body{font:14px sans-serif;margin:8px;color:#222}\
    h1{font-size:16px}table{border-collapse:collapse}\
    th,td{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}\
    .num{text-align:right;white-space:nowrap}.missing{color:#666;font-style:italic}\
    .muted{color:#666;font-size:12px;max-width:60em}";

/// The policy of every HTML fragment and table page: no script, no outside resource, only
/// the page's own style, and any site may frame it.
pub(super) static PAGE_CSP: std::sync::LazyLock<HeaderValue> =
    std::sync::LazyLock::new(|| crate::security::embed_csp(PAGE_STYLE));

/// `fragment` as a standalone page to embed (in an `<iframe>`): its links open in a new
/// tab.
pub fn page(title: &str, fragment: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                base target="_blank";
                title { (title) }
                // A constant of this file, hashed into the page's CSP.
                style { (PreEscaped(PAGE_STYLE)) }
            }
            body {
                h1 { (title) }
                (fragment)
                p.muted { "SSDBase" }
            }
        }
    }
}

/// The drive page's table of what the sources say besides tool results (empty when
/// there is nothing to show).
pub fn observations(observations: &[Observation]) -> Markup {
    if observations.is_empty() {
        return html! {};
    }
    html! {
        h2 #observations { "What the sources say besides tool results" }
        p.muted {
            "Bounds (≥ at least, ≤ at most), approximations (≈) and figures whose test the text leaves \
             open, as the articles word them; never pooled with the measured results."
        }
        div.table-wrap { table.observations {
            thead { tr {
                th scope="col" { "Figure · source" }
                th scope="col" class="num" { "Value" }
                th scope="col" { "Data" }
                th scope="col" { "Platform" }
            } }
            tbody {
                @for o in observations {
                    tr {
                        th scope="row" title=(o.note.as_deref().unwrap_or_default()) {
                            (o.name) br; span.muted { (o.source.as_deref().map(bench::seeds::cite).unwrap_or_default()) }
                        }
                        td.num title=(o.kind.words()) { (observation_value(o)) }
                        td { (observation_data(o)) }
                        td { (observation_platform(o)) }
                    }
                }
            }
        } }
    }
}

/// An observation's figure: `≥ 420 MB/s`, `≈ 170 MB/s`, `2.32 ratio`.
pub fn observation_value(o: &Observation) -> String {
    let v = charts::format_value(o.value);
    match o.kind.symbol() {
        "" => format!("{v} {}", o.unit),
        sign => format!("{sign} {v} {}", o.unit),
    }
}

/// An observation's data pattern where it matters (throughput) or is stated; else `—`.
pub fn observation_data(o: &Observation) -> &'static str {
    if matches!(o.unit.as_str(), "MB/s" | "IOPS") || o.data_pattern.is_some() {
        pattern_label(o.data_pattern)
    } else {
        "—"
    }
}

/// An observation's platform group, or `—` when the source names none.
pub fn observation_platform(o: &Observation) -> String {
    let group = PlatformGroup::of(&o.tags);
    if group == PlatformGroup::default() {
        "—".into()
    } else {
        group.label()
    }
}
