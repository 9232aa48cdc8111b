//! The drives index and a leaderboard as the site shows them (`format=html`): HTML
//! fragments with relative links to the site's pages, so the site's wasm carries no table
//! code and no decoder of these answers (see README "Site size"). The links that change
//! the view (a column's sort, the lines left out) are the same page with one parameter
//! changed, built from the request's own parameters: the site passes its URL's query to
//! the API as it is, so the page and the API read the same names.

use super::super::rated::{esc, url_encode};
use super::{DriveIndex, IndexRow, Leaderboard, PoolFigure, DEFAULT_MIN_RESULTS};
use api_types::pattern_label;
use bench::DriveSku;
use std::collections::BTreeSet;

/// The site page `path` with the request's parameters (`format` dropped), `key` set to
/// `value` or removed (`None`); HTML-escaped for an attribute.
fn page_href(path: &str, pairs: &[(String, String)], key: &str, value: Option<&str>) -> String {
    let mut parts: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k != "format" && k != key)
        .map(|(k, v)| format!("{}={}", url_encode(k), url_encode(v)))
        .collect();
    if let Some(v) = value {
        parts.push(format!("{key}={}", url_encode(v)));
    }
    let href = if parts.is_empty() { path.to_string() } else { format!("{path}?{}", parts.join("&")) };
    esc(&href)
}

/// The values of every drive (not only those shown) that the filter fields suggest:
/// `<datalist id="index-vendor">` etc., referred to by the site's inputs.
fn datalists(all: &[&DriveSku]) -> String {
    let mut lists: [(&str, BTreeSet<String>); 4] = Default::default();
    lists[0].0 = "vendor";
    lists[1].0 = "interface";
    lists[2].0 = "controller";
    lists[3].0 = "nand";
    for d in all {
        lists[0].1.insert(d.vendor.clone());
        if let Some(link) = d.interface {
            let id = link.id();
            lists[1].1.insert(id.split('-').next().unwrap_or_default().to_string());
            lists[1].1.insert(id);
        }
        lists[2].1.extend(d.controller.model.clone());
        lists[3].1.extend(d.nand.vendor.clone());
    }
    let mut out = String::new();
    for (name, values) in &lists {
        out.push_str(&format!("<datalist id=\"index-{name}\">"));
        for v in values {
            out.push_str(&format!("<option value=\"{}\"></option>", esc(v)));
        }
        out.push_str("</datalist>");
    }
    out.push('\n');
    out
}

/// A sample count as every figure shows it.
fn n_text(n: usize) -> String {
    format!("n={n}")
}

/// A key figure's cell: the median (linking to its test's leaderboard), n, and under it
/// which test, platform group and data pattern it is.
fn figure_cell(f: Option<&PoolFigure>) -> String {
    let Some(f) = f else {
        return "<td class=\"num missing\">not measured</td>".to_string();
    };
    format!(
        "<td class=\"num fig\"><a href=\"/leaderboard?test={}\">{}</a> <span class=\"n\">{}</span>\
         <span class=\"n test\">{}</span><span class=\"n test\">{} · {}</span></td>",
        esc(&url_encode(&f.test)),
        esc(&charts::format_value(f.median_mbps)),
        n_text(f.n),
        esc(&f.test),
        esc(&f.platform.label()),
        pattern_label(f.data_pattern),
    )
}

/// A sortable header: a link to the same page sorted by `by` (descending when it is
/// already sorted ascending), with `aria-sort`.
fn sort_header(label: &str, by: &str, sort: &str, pairs: &[(String, String)], class: &str) -> String {
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
    format!(
        "<th scope=\"col\"{class} aria-sort=\"{state}\"><a href=\"{}\" data-noscroll>{label}</a></th>",
        page_href("/drives", pairs, "sort", Some(&next))
    )
}

fn row(r: &IndexRow) -> String {
    let id = url_encode(&r.id);
    let status = if r.reviewed {
        "reviewed".to_string()
    } else {
        "<span class=\"community\">not reviewed yet</span>".to_string()
    };
    let about: Vec<String> = [r.interface.as_deref(), r.controller.as_deref(), r.nand_vendor.as_deref()]
        .into_iter()
        .flatten()
        .map(esc)
        .collect();
    let results = if r.result_count > 0 {
        format!("<a href=\"/results?drive={id}\">{}</a>", r.result_count)
    } else {
        "0".to_string()
    };
    format!(
        "<tr data-drive=\"{}\"><td>{}</td><th scope=\"row\"><a href=\"/drives/{id}\">{}</a></th>\
         <td class=\"num\">{} GB</td><td>{status}</td><td>{}</td><td class=\"num\">{results}</td>{}{}{}{}</tr>\n",
        esc(&r.id),
        esc(&r.vendor),
        esc(&r.model),
        r.capacity_gb,
        if about.is_empty() { "<span class=\"n\">not known</span>".to_string() } else { about.join(" · ") },
        figure_cell(r.key.seq_read.as_ref()),
        figure_cell(r.key.seq_write.as_ref()),
        figure_cell(r.key.rnd4k_q1_read.as_ref()),
        figure_cell(r.key.rnd4k_q1_write.as_ref()),
    )
}

/// The drives index as the site's `/drives` page shows it.
pub fn index(index: &DriveIndex, all: &[&DriveSku], pairs: &[(String, String)], sort: &str) -> String {
    let rows = &index.drives;
    let community = rows.iter().filter(|r| !r.reviewed).count();
    let shown = if rows.len() == index.total {
        format!("{} drive{}", index.total, if index.total == 1 { "" } else { "s" })
    } else {
        format!("Drives {}–{} of {}", index.offset + 1, index.offset + rows.len(), index.total)
    };
    let mut out = format!(
        "<p class=\"count\">{shown}: {} reviewed, {community} not reviewed yet (community drives, \
         named by their submitters).</p>\n",
        rows.len() - community,
    );
    // A new order starts at the first page.
    let pairs: &[(String, String)] =
        &pairs.iter().filter(|(k, _)| k != "offset").cloned().collect::<Vec<_>>();
    if rows.is_empty() {
        out.push_str("<p class=\"empty\">No drive matches these filters.</p>\n");
        out.push_str(&datalists(all));
        return out;
    }
    let sort = if sort.is_empty() { "name" } else { sort };
    out.push_str("<div class=\"table-wrap\"><table class=\"index\"><thead><tr>");
    out.push_str(&sort_header("Vendor", "name", sort, pairs, ""));
    out.push_str(&sort_header("Model", "name", sort, pairs, ""));
    out.push_str(
        "<th scope=\"col\" class=\"num\">Capacity</th><th scope=\"col\">Status</th>\
         <th scope=\"col\">Interface · controller · NAND</th>",
    );
    out.push_str(&sort_header("Results", "results", sort, pairs, " class=\"num\""));
    for (name, what) in [
        ("Seq read", "MB/s, its most-measured sequential test"),
        ("Seq write", "MB/s, its most-measured sequential test"),
        ("RND 4KiB Q1T1 read", "MB/s"),
        ("RND 4KiB Q1T1 write", "MB/s"),
    ] {
        out.push_str(&format!(
            "<th scope=\"col\" class=\"num\">{name} <span class=\"n test\">{what}</span></th>"
        ));
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in rows {
        out.push_str(&row(r));
    }
    out.push_str(&pages(index, pairs));
    let json = page_href("/api/v1/drives/index", pairs, "format", None);
    out.push_str(&format!(
        "</tbody></table></div>\n<p class=\"muted\">Each key figure is the median of the test the drive was \
         measured with most often (n: its results, on the platform group and data pattern named under it). \
         Figures in one column may come from different tests (tool, block size, queue depth, threads), so \
         this list ranks nothing by them: each figure links to its test's leaderboard, which ranks drives in \
         that one test only.</p>\n<p class=\"muted\">This list as data: <a rel=\"external\" href=\"{json}\">JSON</a></p>\n"
    ));
    out.push_str(&datalists(all));
    out
}

/// Links to the pages before and after this one, when there are any.
fn pages(index: &DriveIndex, pairs: &[(String, String)]) -> String {
    let link = |offset: usize, text: &str| {
        format!("<a href=\"{}\">{text}</a>", page_href("/drives", pairs, "offset", Some(&offset.to_string())))
    };
    let mut links = Vec::new();
    if index.offset > 0 {
        links.push(link(index.offset.saturating_sub(index.limit), "← Previous"));
    }
    if index.offset + index.drives.len() < index.total {
        links.push(link(index.offset + index.limit, "Next →"));
    }
    if links.is_empty() {
        return String::new();
    }
    format!("<p class=\"pages\">{}</p>\n", links.join(" · "))
}

/// A leaderboard as the site's `/leaderboard` page shows it; `limit` the most lines asked.
pub fn leaderboard(b: &Leaderboard, limit: usize, all: &[&DriveSku], pairs: &[(String, String)]) -> String {
    let plural = |n: usize, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
    let mut out = format!(
        "<p class=\"muted\">Test <strong class=\"test\">{}</strong>: one line per drive and platform group · data \
         pattern (numbers measured on different platforms are different measurements), ranked by the median \
         MB/s of its results; n is how many. Only this one test is ranked here.</p>\n",
        esc(&b.test)
    );
    if b.rows.is_empty() {
        out.push_str(&format!(
            "<p class=\"empty\">{}</p>\n",
            if b.left_out > 0 {
                format!("No line has {} results yet.", b.min_results)
            } else {
                "Nobody has measured this test on the drives these filters keep.".to_string()
            }
        ));
    } else {
        out.push_str(
            "<div class=\"table-wrap\"><table class=\"leaderboard\"><thead><tr><th scope=\"col\" \
             class=\"num\">Rank</th><th scope=\"col\">Drive</th><th scope=\"col\">Platform · data</th>\
             <th scope=\"col\" class=\"num\">Median MB/s</th><th scope=\"col\" class=\"num\">n</th></tr></thead>\
             <tbody>\n",
        );
        for r in &b.rows {
            let id = url_encode(&r.drive_id);
            let thin = r.figure.n < DEFAULT_MIN_RESULTS;
            out.push_str(&format!(
                "<tr{}><td class=\"num\">{}</td><th scope=\"row\"><a href=\"/drives/{id}\">{}</a>{}</th>\
                 <td>{} · {}</td><td class=\"num\">{}</td><td class=\"num\"><a href=\"/results?drive={id}\">{}</a>{}</td></tr>\n",
                if thin { " class=\"thin\"" } else { "" },
                r.rank,
                esc(&r.name),
                if r.reviewed { "" } else { " <span class=\"n community\">not reviewed yet</span>" },
                esc(&r.figure.platform.label()),
                pattern_label(r.figure.data_pattern),
                esc(&charts::format_value(r.figure.median_mbps)),
                n_text(r.figure.n),
                if thin { " <span class=\"n\">few results</span>" } else { "" },
            ));
        }
        out.push_str("</tbody></table></div>\n");
        if b.rows.len() == limit && limit < super::LEADERBOARD_MAX {
            out.push_str(&format!(
                "<p class=\"muted\">The first {limit} lines. <a href=\"{}\" data-noscroll>Show up to {}</a></p>\n",
                page_href("/leaderboard", pairs, "limit", Some(&super::LEADERBOARD_MAX.to_string())),
                super::LEADERBOARD_MAX
            ));
        }
    }
    if b.left_out > 0 {
        out.push_str(&format!(
            "<p class=\"left-out\">{} {} with fewer than {} results left out. \
             <a href=\"{}\" data-noscroll>Show them</a></p>\n",
            b.left_out,
            plural(b.left_out, "line", "lines"),
            b.min_results,
            page_href("/leaderboard", pairs, "min_results", Some("1")),
        ));
    } else if b.min_results < DEFAULT_MIN_RESULTS {
        out.push_str(&format!(
            "<p class=\"left-out\">Every line shown, also those with fewer than {DEFAULT_MIN_RESULTS} results \
             (marked). <a href=\"{}\" data-noscroll>Leave them out</a></p>\n",
            page_href("/leaderboard", pairs, "min_results", None),
        ));
    }
    let json = page_href("/api/v1/leaderboard", pairs, "format", None);
    out.push_str(&format!(
        "<p class=\"muted\">This leaderboard as data: <a rel=\"external\" href=\"{json}\">JSON</a></p>\n"
    ));
    out.push_str(&datalists(all));
    out
}
