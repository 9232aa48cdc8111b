//! The site's URLs and the API's data links, in one place. Every path segment and query
//! value is percent-encoded here, by one rule, so that no caller builds a URL from raw
//! text: the server's HTML (tables, previews, embeds) and the site's own links use these.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Everything but RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) and the comma,
/// a sub-delimiter that is literal in both paths and queries: a drive list
/// (`drives=a,b`) stays readable.
const COMPONENT: &AsciiSet =
    &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~').remove(b',');

/// The API's prefix: `/api/v1`.
pub const API: &str = "/api/v1";

/// `s` as one path segment or one query name or value.
pub fn encode(s: &str) -> String {
    utf8_percent_encode(s, COMPONENT).to_string()
}

/// `path?name=value&...`, each name and value encoded; `path` alone when there is none.
pub fn with_query<'a>(path: &str, pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let query: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect();
    if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// The site's page of drive `id`.
pub fn drive(id: &str) -> String {
    format!("/drives/{}", encode(id))
}

/// The site's list of drive `id`'s results.
pub fn results_of_drive(id: &str) -> String {
    with_query("/results", [("drive", id)])
}

/// The site's page of result `id`.
pub fn result(id: i64) -> String {
    format!("/results/{id}")
}

/// The site's leaderboard of `test` (a test key's name).
pub fn leaderboard_of(test: &str) -> String {
    with_query("/leaderboard", [("test", test)])
}

/// The compare page's parameters that narrow its comparison, besides `drives`.
pub const COMPARE_FILTERS: &[&str] = &["data_pattern", "chipset", "storage_controller", "merge"];

/// The drive ids of a compare page's `drives` parameter (`a,b`), in order.
pub fn compared_drives(drives: &str) -> Vec<String> {
    drives.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// The [`COMPARE_FILTERS`] a compare page's query sets, `get` reading one of them.
pub fn compare_filters(get: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    COMPARE_FILTERS.iter().filter_map(|k| Some((k.to_string(), get(k).filter(|v| !v.is_empty())?))).collect()
}

/// `&name=value` for each filter.
pub fn filters_query(filters: &[(String, String)]) -> String {
    filters.iter().map(|(k, v)| format!("&{k}={}", encode(v))).collect()
}

/// The compare page of drives `ids` showing `figure` (MB/s, the default, is not written),
/// narrowed by `filters`, with the chart's own `choices` (its selection's parameters), as
/// the page's links write it (the app's and the server's first paint's alike).
pub fn compare_page(
    ids: &[String],
    figure: bench::difference::Figure,
    filters: &[(String, String)],
    choices: &[(&str, String)],
) -> String {
    let mut href = format!("/compare?drives={}", ids.join(","));
    if figure != bench::difference::Figure::Mbps {
        href.push_str(&format!("&figure={}", figure.id()));
    }
    href.push_str(&filters_query(filters));
    for (k, v) in choices.iter().filter(|(_, v)| !v.is_empty()) {
        href.push_str(&format!("&{k}={}", encode(v)));
    }
    href
}

/// The API path (under [`API`]) of the comparison of `ids` narrowed by `filters`: the
/// compare page's request, which the server also starts with the page (`site.rs`), so
/// both must write it alike. `None` before drives are picked.
pub fn comparison(ids: &[String], filters: &[(String, String)]) -> Option<String> {
    if ids.is_empty() {
        return None;
    }
    let list: Vec<String> = ids.iter().map(|i| encode(i)).collect();
    Some(format!("/compare?drives={}{}", list.join(","), filters_query(filters)))
}

/// The API's answer of drive `id` (`/api/v1/drives/{id}`).
pub fn api_drive(id: &str) -> String {
    format!("{API}/drives/{}", encode(id))
}

/// The API's answer of result `id` (`/api/v1/results/{id}`).
pub fn api_result(id: i64) -> String {
    format!("{API}/results/{id}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_compare_query_gives_the_comparison_it_shows() {
        let q = [("drives", " a b, ,c "), ("chipset", "ICH10R"), ("merge", ""), ("figure", "iops")];
        let get = |k: &str| q.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        let ids = super::compared_drives(&get("drives").unwrap());
        assert_eq!(ids, ["a b", "c"]);
        let filters = super::compare_filters(get);
        assert_eq!(super::comparison(&ids, &filters).unwrap(), "/compare?drives=a%20b,c&chipset=ICH10R");
        assert_eq!(super::comparison(&[], &filters), None);
    }

    use super::*;

    #[test]
    fn one_rule_for_segments_and_values() {
        assert_eq!(encode("crucial-realssd_c300.64~gb"), "crucial-realssd_c300.64~gb");
        assert_eq!(encode("a,b"), "a,b");
        assert_eq!(encode(r#"x"><script>&'/ ?#é"#), "x%22%3E%3Cscript%3E%26%27%2F%20%3F%23%C3%A9");
        assert_eq!(drive("a/b"), "/drives/a%2Fb");
        assert_eq!(with_query("/results", [("drive", "a&b=c")]), "/results?drive=a%26b%3Dc");
        assert_eq!(with_query("/drives", []), "/drives");
        assert_eq!(
            leaderboard_of("cdm-native SEQ 1MiB Q8T1 read"),
            "/leaderboard?test=cdm-native%20SEQ%201MiB%20Q8T1%20read"
        );
    }
}
