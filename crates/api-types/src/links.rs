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
