//! The results page's state as it lives in the URL (`/results?vendor=Crucial&sort=oldest`),
//! so that every view is a permalink. Only names the API knows pass through to it.

/// Filters the results page offers: every field of `bench::FIELDS` (each is an API
/// filter of the same name).
pub fn filters() -> impl Iterator<Item = &'static bench::Field> {
    bench::FIELDS.iter()
}

/// Parameters the results page passes to the API besides filters.
const PASSED: &[&str] = &["sort", "cursor", "limit"];

/// Orders the API offers (`sort=`; a leading `-` is descending), with a label: newest and
/// oldest, then each sortable field of `bench::FIELDS` both ways.
pub fn sorts() -> Vec<(String, String)> {
    let mut out =
        vec![("newest".to_string(), "newest first".to_string()), ("oldest".into(), "oldest first".into())];
    for f in bench::FIELDS.iter().filter(|f| f.sort) {
        out.push((f.name.to_string(), format!("{} ↑", f.label)));
        out.push((format!("-{}", f.name), format!("{} ↓", f.label)));
    }
    out
}

/// The sort a column header switches to: ascending first, descending when the column
/// is already sorted ascending.
pub fn toggle_sort(current: &str, column: &str) -> String {
    if column == "created" {
        return if current == "newest" || current.is_empty() { "oldest".into() } else { "newest".into() };
    }
    if current == column {
        format!("-{column}")
    } else {
        column.to_string()
    }
}

/// The API query string for a page URL's parameters: known filters and paging only,
/// non-empty values only, percent-encoded.
pub fn api_query(params: &[(String, String)]) -> String {
    let parts: Vec<String> = params
        .iter()
        .filter(|(k, v)| !v.is_empty() && (filters().any(|f| f.name == k) || PASSED.contains(&k.as_str())))
        .map(|(k, v)| format!("{k}={}", crate::api::encode(v)))
        .collect();
    parts.join("&")
}

/// The page URL with `key` set to `value` (removed when empty); changing anything but
/// the cursor goes back to the first page.
pub fn with_param(params: &[(String, String)], key: &str, value: &str) -> String {
    let mut out: Vec<(String, String)> =
        params.iter().filter(|(k, _)| k != key && (key == "cursor" || k != "cursor")).cloned().collect();
    if !value.is_empty() {
        out.push((key.to_string(), value.to_string()));
    }
    let q: Vec<String> = out.iter().map(|(k, v)| format!("{k}={}", crate::api::encode(v))).collect();
    if q.is_empty() {
        "/results".to_string()
    } else {
        format!("/results?{}", q.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn only_known_parameters_reach_the_api() {
        let q = p(&[("vendor", "Crucial"), ("colour", "red"), ("chipset", ""), ("cursor", "12")]);
        assert_eq!(api_query(&q), "vendor=Crucial&cursor=12");
    }

    #[test]
    fn every_field_filters_and_sortable_ones_sort() {
        assert_eq!(
            api_query(&p(&[("link_power", "aspm-l1"), ("driver_version", "6.8")])),
            "link_power=aspm-l1&driver_version=6.8"
        );
        let sorts = sorts();
        assert!(sorts.iter().any(|(v, _)| v == "-driver_version"));
        assert!(!sorts.iter().any(|(v, _)| v == "firmware"), "firmware is not a sort");
    }

    #[test]
    fn headers_toggle_the_direction() {
        assert_eq!(toggle_sort("", "drive"), "drive");
        assert_eq!(toggle_sort("drive", "drive"), "-drive");
        assert_eq!(toggle_sort("-drive", "drive"), "drive");
        assert_eq!(toggle_sort("newest", "created"), "oldest");
        assert_eq!(toggle_sort("oldest", "created"), "newest");
    }

    #[test]
    fn changing_a_filter_resets_the_page() {
        let q = p(&[("vendor", "Crucial"), ("cursor", "12")]);
        assert_eq!(with_param(&q, "os", "Windows 7"), "/results?vendor=Crucial&os=Windows%207");
        assert_eq!(with_param(&q, "cursor", "40"), "/results?vendor=Crucial&cursor=40");
        assert_eq!(with_param(&p(&[("vendor", "x")]), "vendor", ""), "/results");
    }
}
