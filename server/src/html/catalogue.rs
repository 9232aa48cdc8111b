//! The drives index and a leaderboard as the site shows them: HTML fragments with
//! relative links to the site's pages, so the site's wasm carries no table code and no
//! decoder of these answers. The links that change the view (a column's sort, the lines
//! left out, the next page) are the same page with one parameter changed, built from the
//! request's own parameters: the site passes its URL's query to the API as it is, so the
//! page and the API read the same names.

use super::n_text;
use api_types::{
    links, pattern_label, DriveIndex, FilterSuggestions, IndexRow, Leaderboard, LeaderboardRow, PoolFigure,
};
use maud::{html, Markup};

/// The site page `path` with the request's parameters (`format` dropped), `key` set to
/// `value` or removed (`None`).
fn page_href(path: &str, pairs: &[(String, String)], key: &str, value: Option<&str>) -> String {
    let kept = pairs.iter().filter(|(k, _)| k != "format" && k != key).map(|(k, v)| (k.as_str(), v.as_str()));
    links::with_query(path, kept.chain(value.map(|v| (key, v))))
}

/// The filter fields' suggestions: `<datalist id="index-vendor">` etc., named by the
/// site's inputs.
pub fn suggestions(s: &FilterSuggestions) -> Markup {
    let lists = [
        ("vendor", &s.vendor),
        ("interface", &s.interface),
        ("controller", &s.controller),
        ("nand", &s.nand),
    ];
    html! {
        @for (name, values) in lists {
            datalist id={ "index-" (name) } {
                @for v in values { option value=(v) {} }
            }
        }
    }
}

/// A key figure's cell: the median (linking to its test's leaderboard), n, and under it
/// which test, platform group and data pattern it is.
fn figure_cell(f: Option<&PoolFigure>) -> Markup {
    let Some(f) = f else {
        return html! { td class="num missing" { "not measured" } };
    };
    html! {
        td class="num fig" {
            a href=(links::leaderboard_of(&f.test)) { (charts::format_value(f.median_mbps)) }
            " "
            span.n { (n_text(f.n)) }
            span class="n test" { (f.test) }
            span class="n test" { (f.platform.label()) " · " (pattern_label(f.data_pattern)) }
        }
    }
}

/// A sortable header: a link to the same page sorted by `by` (descending when it is
/// already sorted ascending), with `aria-sort`.
fn sort_header(label: &str, by: &str, sort: &str, pairs: &[(String, String)], class: Option<&str>) -> Markup {
    let (state, next) = if sort == by {
        ("ascending", format!("-{by}"))
    } else if sort.strip_prefix('-') == Some(by) {
        ("descending", by.to_string())
    } else {
        ("none", by.to_string())
    };
    // Result counts read best most first: "results" is the API's most-first order.
    let state = match (by, state) {
        ("results", "ascending") => "descending",
        ("results", "descending") => "ascending",
        (_, s) => s,
    };
    html! {
        th scope="col" class=[class] aria-sort=(state) {
            a href=(page_href("/drives", pairs, "sort", Some(&next))) data-noscroll { (label) }
        }
    }
}

fn row(r: &IndexRow) -> Markup {
    let about: Vec<&str> = [r.interface.as_deref(), r.controller.as_deref(), r.nand_vendor.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    html! {
        tr data-drive=(r.id) {
            td { (r.vendor) }
            th scope="row" { a href=(links::drive(&r.id)) { (r.model) } }
            td.num { (r.capacity_gb) " GB" }
            td {
                @if r.reviewed { "reviewed" } @else { span.community { "not reviewed yet" } }
            }
            td {
                @if about.is_empty() { span.n { "not known" } } @else { (about.join(" · ")) }
            }
            td.num {
                @if r.result_count > 0 {
                    a href=(links::results_of_drive(&r.id)) { (r.result_count) }
                } @else { "0" }
            }
            (figure_cell(r.key.seq_read.as_ref()))
            (figure_cell(r.key.seq_write.as_ref()))
            (figure_cell(r.key.rnd4k_q1_read.as_ref()))
            (figure_cell(r.key.rnd4k_q1_write.as_ref()))
        }
    }
}

/// The drives index as the site's `/drives` page shows it; `pairs` the request's
/// parameters.
pub fn index(index: &DriveIndex, pairs: &[(String, String)], sort: &str) -> Markup {
    let rows = &index.drives;
    let community = rows.iter().filter(|r| !r.reviewed).count();
    let shown = if rows.len() == index.total {
        format!("{} drive{}", index.total, if index.total == 1 { "" } else { "s" })
    } else {
        format!("Drives {}–{} of {}", index.offset + 1, index.offset + rows.len(), index.total)
    };
    // A new order starts at the first page.
    let pairs: &[(String, String)] =
        &pairs.iter().filter(|(k, _)| k != "offset").cloned().collect::<Vec<_>>();
    let sort = if sort.is_empty() { "name" } else { sort };
    html! {
        p.count {
            (shown) ": " (rows.len() - community) " reviewed, " (community)
            " not reviewed yet (community drives, named by their submitters)."
        }
        @if rows.is_empty() {
            p.empty { "No drive matches these filters." }
        } @else {
            div.table-wrap { table.index {
                thead { tr {
                    (sort_header("Vendor", "name", sort, pairs, None))
                    (sort_header("Model", "name", sort, pairs, None))
                    th scope="col" class="num" { "Capacity" }
                    th scope="col" { "Status" }
                    th scope="col" { "Interface · controller · NAND" }
                    (sort_header("Results", "results", sort, pairs, Some("num")))
                    @for (name, what) in [
                        ("Seq read", "MB/s, its most-measured sequential test"),
                        ("Seq write", "MB/s, its most-measured sequential test"),
                        ("RND 4KiB Q1T1 read", "MB/s"),
                        ("RND 4KiB Q1T1 write", "MB/s"),
                    ] {
                        th scope="col" class="num" { (name) " " span class="n test" { (what) } }
                    }
                } }
                tbody { @for r in rows { (row(r)) } }
            } }
            (pages(index, pairs))
            p.muted {
                "Each key figure is the median of the test the drive was measured with most often (n: its \
                 results, on the platform group and data pattern named under it). Figures in one column may \
                 come from different tests (tool, block size, queue depth, threads), so this list ranks \
                 nothing by them: each figure links to its test's leaderboard, which ranks drives in that \
                 one test only."
            }
            p.muted {
                "This list as data: "
                a rel="external" href=(page_href(&format!("{}/drives/index", links::API), pairs, "format", None)) { "JSON" }
            }
        }
    }
}

/// Links to the pages before and after this one, when there are any.
fn pages(index: &DriveIndex, pairs: &[(String, String)]) -> Markup {
    let previous = (index.offset > 0).then(|| index.offset.saturating_sub(index.limit));
    let next = (index.offset + index.drives.len() < index.total).then_some(index.offset + index.limit);
    let href = |offset: usize| page_href("/drives", pairs, "offset", Some(&offset.to_string()));
    html! {
        @if previous.is_some() || next.is_some() {
            p.pages {
                @if let Some(offset) = previous { a href=(href(offset)) { "← Previous" } }
                @if previous.is_some() && next.is_some() { " · " }
                @if let Some(offset) = next { a href=(href(offset)) { "Next →" } }
            }
        }
    }
}

/// A leaderboard as the site's `/leaderboard` page shows it: `limit` the most lines
/// asked, `max` the most it may ask, `min_default` the fewest results a line needs unless
/// the request said otherwise.
/// One ranked table of a leaderboard (single drives, or arrays labelled with their level
/// and members).
fn ranking(rows: &[LeaderboardRow], class: &str, min_default: usize) -> Markup {
    html! {
        div.table-wrap { table class=(class) {
            thead { tr {
                th scope="col" class="num" { "Rank" }
                th scope="col" { "Drive" }
                // The ranked figure and its n before the long platform text: on a phone
                // they are on screen without scrolling the table.
                th scope="col" class="num" { "Median MB/s" }
                th scope="col" class="num" { "n" }
                th scope="col" { "Platform · data" }
            } }
            tbody {
                @for r in rows {
                    @let thin = r.figure.n < min_default;
                    tr class=[thin.then_some("thin")] {
                        td.num { (r.rank) }
                        th scope="row" {
                            @if let Some(array) = &r.array { span.array { (array) " of " } }
                            a href=(links::drive(&r.drive_id)) { (r.name) }
                            @if !r.reviewed { " " span class="n community" { "not reviewed yet" } }
                        }
                        td.num { (charts::format_value(r.figure.median_mbps)) }
                        td.num {
                            a href=(links::results_of_drive(&r.drive_id)) { (n_text(r.figure.n)) }
                            @if thin { " " span.n { "few results" } }
                        }
                        td { (r.figure.platform.label()) " · " (pattern_label(r.figure.data_pattern)) }
                    }
                }
            }
        } }
    }
}

pub fn leaderboard(
    b: &Leaderboard,
    (limit, max, min_default): (usize, usize, usize),
    pairs: &[(String, String)],
) -> Markup {
    html! {
        p.muted {
            "Test " strong.test { (b.test) } ": one line per drive and platform group · data pattern \
             (numbers measured on different platforms are different measurements), ranked by the median \
             MB/s of its results; n is how many. Only this one test is ranked here."
        }
        @if b.rows.is_empty() && b.arrays.is_empty() {
            p.empty {
                @if b.left_out > 0 { "No line has " (b.min_results) " results yet." }
                @else { "Nobody has measured this test on the drives these filters keep." }
            }
        } @else {
            @if b.rows.is_empty() {
                p.empty { "No single drive has a line here yet; the arrays below are ranked apart." }
            } @else {
                (ranking(&b.rows, "leaderboard", min_default))
            }
            @if !b.arrays.is_empty() {
                h2.arrays { "Arrays (RAID sets), ranked apart" }
                p.muted { "Several drives striped or mirrored together measure the array, not one drive: they are never ranked among single drives." }
                (ranking(&b.arrays, "leaderboard arrays", min_default))
            }
            @if b.rows.len().max(b.arrays.len()) == limit && limit < max {
                p.muted {
                    "The first " (limit) " lines. "
                    a href=(page_href("/leaderboard", pairs, "limit", Some(&max.to_string()))) data-noscroll {
                        "Show up to " (max)
                    }
                }
            }
        }
        @if b.left_out > 0 {
            p.left-out {
                (b.left_out) " " (if b.left_out == 1 { "line" } else { "lines" }) " with fewer than "
                (b.min_results) " results left out. "
                a href=(page_href("/leaderboard", pairs, "min_results", Some("1"))) data-noscroll { "Show them" }
            }
        } @else if b.min_results < min_default {
            p.left-out {
                "Every line shown, also those with fewer than " (min_default) " results (marked). "
                a href=(page_href("/leaderboard", pairs, "min_results", None)) data-noscroll { "Leave them out" }
            }
        }
        p.muted {
            "This leaderboard as data: "
            a rel="external" href=(page_href(&format!("{}/leaderboard", links::API), pairs, "format", None)) { "JSON" }
        }
    }
}

/// The drives built on one controller (`drives`, each with its visible results), in name
/// order, as the controller page shows them: a link to compare the measured ones, then
/// one row per drive with its controller stepping and NAND.
pub fn controller_drives(drives: &[(bench::DriveSku, i64)]) -> Markup {
    let measured: Vec<String> = drives.iter().filter(|(_, n)| *n > 0).map(|(d, _)| d.id.clone()).collect();
    html! {
        @if drives.is_empty() {
            p class="empty" { "No catalogue drive has this controller." }
        }
        @if !measured.is_empty() {
            p {
                a href=(format!("/compare?drives={}", measured.join(","))) {
                    "Compare the " (measured.len()) " measured drives side by side"
                }
            }
        }
        div class="table-wrap" {
            table {
                thead {
                    tr {
                        th scope="col" { "Drive" }
                        th scope="col" { "Stepping" }
                        th scope="col" { "NAND" }
                        th scope="col" class="num" { "Results" }
                    }
                }
                tbody {
                    @for (d, n) in drives {
                        @let nand = [d.nand.vendor.clone(), d.nand.process_nm.map(|n| format!("{n} nm"))];
                        tr {
                            td { a href=(links::drive(&d.id)) { (d.vendor) " " (d.model) " " (d.capacity_gb) " GB" } }
                            td { (d.controller.stepping.as_deref().unwrap_or_default()) }
                            td { (nand.into_iter().flatten().collect::<Vec<_>>().join(" ")) }
                            td class="num" { (n) }
                        }
                    }
                }
            }
        }
    }
}
