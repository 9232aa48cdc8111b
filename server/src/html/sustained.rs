//! "Burst and sustained" as the drive and compare pages show it: per drive and test the
//! burst median beside the figures measured over time, each with n, then the
//! write-saturation and sweep charts (server-drawn SVG, with their embed and data links).

use api_types::links::{self, with_query};
use api_types::{CacheLeaderboard, Pooled, Sustained};
use maud::{html, Markup};

/// The section for `answer`; `asked` are the query pairs that asked for it (drives and
/// filters), repeated in the chart and data links.
pub fn sustained(answer: &Sustained, asked: &[(String, String)]) -> Markup {
    // The API's answers (charts, data) and the site's own pages (the iframe embeds), each
    // with the parameters the fragment was asked with.
    let page_link = |path: &str, extra: &[(&str, &str)]| {
        with_query(path, asked.iter().map(|(k, v)| (k.as_str(), v.as_str())).chain(extra.iter().copied()))
    };
    let link = |path: &str, extra: &[(&str, &str)]| page_link(&format!("{}{path}", links::API), extra);
    let (saturation_tests, sweep_tests) = (answer.saturation_tests(), answer.sweep_tests());
    let many = answer.drives.len() > 1;
    html! {
        @if answer.rows.is_empty() && answer.saturation.is_empty() && answer.curves.is_empty() {
            p.empty {
                "Nothing measured over time or under load yet. "
                code { "ssdbase bench DIR --profile cache" } " (the write cache's size and the rate after it), "
                code { "--profile sustained" } " (steady state) and " code { "--profile sweep" }
                " (IOPS and latency at each queue depth) measure it; see Measure your drive."
            }
        } @else {
            @if !answer.rows.is_empty() {
                p.note {
                    "Each figure is a median over results, with n. Burst: the test as burst tools run it \
                     (seconds). After cache: the write rate once the drive's write cache was full. \
                     Steady state: SNIA PTS 2.0.2's five rounds within 20 % of their average; runs that \
                     never got there are counted apart, never as steady."
                }
                div.table-wrap { table.sustained {
                    thead { tr {
                        @if many { th scope="col" { "Drive" } }
                        th scope="col" { "Test" }
                        th scope="col" { "Burst" }
                        th scope="col" { "After cache" }
                        th scope="col" { "Cache (GiB)" }
                        th scope="col" { "Cache back after idle" }
                        th scope="col" { "Steady state" }
                        th scope="col" { "Runs not settled" }
                    } }
                    tbody {
                        @for r in &answer.rows {
                            tr {
                                @if many { td { (r.drive) } }
                                th scope="row" { (r.test) }
                                td.num { (cell(&r.burst, &r.unit)) }
                                td.num { (cell(&r.after_cache, &r.unit)) }
                                td.num { (cell(&r.cache_gib, "")) }
                                td.num { (percent_cell(&r.recovered)) }
                                td.num { (cell(&r.steady, &r.unit)) }
                                td.num { (r.unsettled) }
                            }
                        }
                    }
                } }
            }
            @for test in &saturation_tests {
                @let chart = |ext: &str| link(&format!("/compare/sustained.{ext}"), &[("chart", "saturation"), ("test", test)]);
                @let iframe = page_link("/embed/compare/sustained", &[("chart", "saturation"), ("test", test)]);
                figure.sustained-chart {
                    img src=(chart("svg")) alt=(format!("{test}: MB/s over the GiB written, one line per run")) loading="lazy" width="720";
                    figcaption.muted { "Write saturation, " (test) ". Embed: " a rel="external" href=(chart("svg")) { "SVG" } " · " a rel="external" href=(chart("png")) { "PNG" } " · " a rel="external" href=(iframe) { "iframe" } }
                }
            }
            @for test in &sweep_tests {
                @let chart = |ext: &str| link(&format!("/compare/sustained.{ext}"), &[("chart", "sweep"), ("test", test)]);
                @let iframe = page_link("/embed/compare/sustained", &[("chart", "sweep"), ("test", test)]);
                figure.sustained-chart {
                    img src=(chart("svg")) alt=(format!("{test}: mean latency against IOPS at each load, one line per run")) loading="lazy" width="720";
                    figcaption.muted { "Load sweep, " (test) ". Embed: " a rel="external" href=(chart("svg")) { "SVG" } " · " a rel="external" href=(chart("png")) { "PNG" } " · " a rel="external" href=(iframe) { "iframe" } }
                }
            }
            p.muted {
                "As data: " a rel="external" href=(link("/compare/sustained", &[])) { "JSON" }
                " · " a rel="external" href=(link("/compare/sustained", &[("format", "csv")])) { "CSV" }
            }
        }
    }
}

/// The write caches of one test, ranked (under the test's after-cache leaderboard).
pub fn cache_ranking(c: &CacheLeaderboard) -> Markup {
    html! {
        h2 { "Write cache, " (c.test) }
        @if c.rows.is_empty() {
            p.empty { "No run of this test found a write cache on the drives these filters keep." }
        } @else {
            p.muted {
                "The same runs ranked by the cache they found (" code { "ssdbase bench --profile cache" } "): \
                 the GiB written before the rate fell for good, the rate after it and the share back after \
                 the idle pause, each a median over the drive's runs with n. Every line is shown."
            }
            div.table-wrap { table.leaderboard.cache {
                thead { tr {
                    th scope="col" class="num" { "#" } th scope="col" { "Drive" }
                    th scope="col" class="num" { "Cache (GiB)" } th scope="col" class="num" { "After cache" }
                    th scope="col" class="num" { "Back after idle" }
                } }
                tbody {
                    @for r in &c.rows {
                        tr {
                            td.num { (r.rank) }
                            th scope="row" { a href=(links::drive(&r.drive_id)) { (r.name) } }
                            td.num { (cell(&Some(r.cache_gib.clone()), "")) }
                            td.num { (cell(&r.after_cache, &r.unit)) }
                            td.num { (percent_cell(&r.recovered)) }
                        }
                    }
                }
            } }
        }
        p.muted {
            "As data: " a rel="external" href=(with_query(&format!("{}/leaderboard/cache", links::API), [("test", c.test.as_str())])) { "JSON" }
        }
    }
}

/// `412.3 MB/s (n=3)`, or `—`.
fn cell(p: &Option<Pooled>, unit: &str) -> Markup {
    match p {
        Some(p) => html! {
            (charts::format_value(p.median)) @if !unit.is_empty() { " " (unit) } " "
            span.n { "(n=" (p.n) ")" }
        },
        None => html! { "—" },
    }
}

fn percent_cell(p: &Option<Pooled>) -> Markup {
    match p {
        Some(p) => html! { (format!("{:.0} %", p.median * 100.0)) " " span.n { "(n=" (p.n) ")" } },
        None => html! { "—" },
    }
}
