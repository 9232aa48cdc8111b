//! How the site's pages open, written once: the main menu, and each page's heading and
//! the paragraph under it where they do not depend on data. The app draws them; the
//! server puts them in the HTML it sends for the page (`server::html::first_paint`), so a
//! reader sees the page's opening as soon as the HTML and CSS arrive instead of after the
//! app's code (about 300 KB, 1.5 s on a slow phone network), and the app then takes over
//! the same text in the same place.

use crate::links;

/// The main menu: (path, label), in order.
pub const NAV: &[(&str, &str)] = &[
    ("/drives", "Drives"),
    ("/leaderboard", "Leaderboards"),
    ("/results", "Results"),
    ("/compare", "Compare"),
    ("/effects", "Effects"),
    ("/submit", "Submit"),
    ("/measure", "Measure"),
];

/// A run of an opening paragraph: plain text, or a link within the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    Text(&'static str),
    /// (path, text)
    Link(&'static str, &'static str),
}

/// A page's heading and the paragraph under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    pub heading: &'static str,
    /// The paragraph's class: `lead` (larger) or `muted`.
    pub class: &'static str,
    pub paragraph: &'static [Run],
}

pub const HOME: Opening = Opening {
    heading: "SSDBase",
    class: "lead",
    paragraph: &[Run::Text(
        "One place to publish, compare and chart SSD benchmark results — only like with like, always with sample counts.",
    )],
};

pub const RESULTS: Opening = Opening {
    heading: "Results",
    class: "muted",
    paragraph: &[Run::Text(
        "Every published result, newest first unless sorted otherwise. Filters and sort stay in the address, so any view is a permalink; the table downloads as CSV.",
    )],
};

pub const DRIVES: Opening = Opening {
    heading: "Drives",
    class: "muted",
    paragraph: &[
        Run::Text(
            "Every drive SSDBase has results or a catalogue entry for: reviewed drives, and community drives that submitters named (not reviewed yet). To rank drives, open a test's ",
        ),
        Run::Link("/leaderboard", "leaderboard"),
        Run::Text(": key figures here may come from different tests."),
    ],
};

pub const LEADERBOARD: Opening = Opening {
    heading: "Leaderboards",
    class: "muted",
    paragraph: &[
        Run::Text(
            "Drives ranked in one test at a time: the same tool family, access, block size, queue depth, threads and operation. Numbers from different tests are never ranked together. Every drive's key figures: ",
        ),
        Run::Link("/drives", "Drives"),
        Run::Text("."),
    ],
};

pub const COMPARE: Opening = Opening {
    heading: "Compare drives",
    class: "muted",
    paragraph: &[Run::Text(
        "Only equal tests are set side by side (tool family, access, block size, queue depth, threads, operation), and results pool only within one platform and data pattern. Bars are medians with their MAD; n is the number of results.",
    )],
};

pub const EFFECTS: Opening = Opening {
    heading: "Effects",
    class: "muted",
    paragraph: &[Run::Text(
        "What changes a drive's results: the same drive measured with two values of one field (chipset, driver, firmware, data pattern…) and everything else the same, test by test, combined over every drive measured both ways. Each effect has its 95 % interval and a verdict; with too few results nothing is claimed.",
    )],
};

pub const SUBMIT: Opening = Opening {
    heading: "Submit a result",
    class: "muted",
    paragraph: &[Run::Text(
        "Paste a CrystalDiskMark, KDiskMark, fio, ORION, AS SSD or HD Tune export, or drop the file. It is read here first; nothing is sent until you press Submit. A screenshot of CrystalDiskMark or KDiskMark (PNG, JPEG, GIF, BMP, WebP) is read on the server; you check the values before publishing.",
    )],
};

/// The opening of the page at `path` (no query), when it does not depend on data.
pub fn opening(path: &str) -> Option<&'static Opening> {
    Some(match path.trim_end_matches('/') {
        "" => &HOME,
        "/results" => &RESULTS,
        "/drives" => &DRIVES,
        "/leaderboard" => &LEADERBOARD,
        "/compare" => &COMPARE,
        "/effects" => &EFFECTS,
        "/submit" => &SUBMIT,
        _ => return None,
    })
}

/// The drive filters the drives index and the leaderboards offer: (the API's parameter,
/// label, example), then `reviewed` with its [`REVIEWED`] choices.
pub const DRIVE_FILTERS: &[(&str, &str, &str)] = &[
    ("vendor", "Vendor", "Crucial"),
    ("interface", "Interface", "sata, pcie, pcie-3-x4"),
    ("controller", "Controller", "88SS9174"),
    ("nand", "NAND vendor", "Micron"),
];

/// The `reviewed` filter's choices: (value, label).
pub const REVIEWED: &[(&str, &str)] =
    &[("", "all drives"), ("true", "reviewed"), ("false", "not reviewed yet (community)")];

/// Whether a page's query (name, value pairs) sets a drive filter (its form is then shown
/// unfolded).
pub fn filters_set(params: &[(String, String)]) -> bool {
    params.iter().any(|(k, v)| !v.is_empty() && (k == "reviewed" || DRIVE_FILTERS.iter().any(|f| f.0 == k)))
}

/// A leaderboard test as its picker offers it: `cdm-diskspd SEQ 1MiB Q8T1 read — 12
/// drives, 9 ranked lines`.
pub fn leaderboard_test_label(t: &crate::LeaderboardTest) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    format!("{} — {} drive{}, {} ranked line{}", t.test, t.drives, s(t.drives), t.ranked, s(t.ranked))
}

/// The compare page's data pattern choices: (the `data_pattern` filter's value, label).
pub const COMPARE_PATTERNS: &[(&str, &str)] =
    &[("", "any pattern"), ("random", "random"), ("zero-fill", "0-fill")];

/// The compare page's choice of one pool per drive (`merge=drive`).
pub const MERGE_LABEL: &str = " One pool per drive (platforms merged)";

/// The heading of a drive's page.
pub fn drive_heading(vendor: &str, model: &str, capacity_gb: u32) -> String {
    format!("{vendor} {model} {capacity_gb} GB")
}

/// A link of a page's opening: where, its text, and its element id if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageLink {
    pub href: String,
    pub text: String,
    pub id: Option<&'static str>,
}

/// The links under a drive page's heading, in order: its controller's drives (when the
/// controller is known), compare, its results, propose a correction.
pub fn drive_links(id: &str, controller_model: Option<&str>) -> Vec<PageLink> {
    let link = |href: String, text: String, id| PageLink { href, text, id };
    let mut out = Vec::new();
    if let Some(m) = controller_model {
        out.push(link(format!("/controllers/{}", links::encode(m)), format!("Every drive on the {m}"), None));
    }
    out.push(link(links::with_query("/compare", [("drives", id)]), "Compare with other drives".into(), None));
    out.push(link(links::results_of_drive(id), "All its results".into(), None));
    out.push(link(
        format!("{}/propose", links::drive(id)),
        "Propose a correction or rated figures".into(),
        Some("propose-link"),
    ));
    out
}

/// `Crucial RealSSD C300 64 GB`, from whatever a result's tags say of its drive.
pub fn drive_label(t: &bench::Tags) -> String {
    let d = &t.drive;
    let mut parts: Vec<String> = [d.vendor.clone(), d.model.clone()].into_iter().flatten().collect();
    if let Some(c) = d.capacity_gb {
        parts.push(format!("{c} GB"));
    }
    if parts.is_empty() {
        d.sku.clone().unwrap_or_else(|| "unknown drive".into())
    } else {
        parts.join(" ")
    }
}

/// `x` with a sensible number of digits for a headline: `512`, `37.4`.
pub fn figure(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// A result's first figures (up to four tests, MB/s or else IOPS) and then its platform
/// group: under the heading of its page, and in its link preview.
pub fn result_figures(result: &bench::BenchResult, tags: &bench::Tags) -> Vec<String> {
    let mut lines: Vec<String> = result
        .keyed_metrics()
        .filter_map(|(key, m)| {
            let (x, unit) = m.mbps.map(|x| (x, "MB/s")).or(m.iops.map(|x| (x, "IOPS")))?;
            Some(format!("{} {} {unit}", key.short_name(), figure(x)))
        })
        .take(4)
        .collect();
    lines.push(bench::PlatformGroup::of(tags).label());
    lines
}

/// The line under a result page's heading: its first figures, then its platform group.
pub fn result_lead(result: &bench::BenchResult, tags: &bench::Tags) -> String {
    let mut figures = result_figures(result, tags);
    let platform = figures.pop().unwrap_or_default();
    if figures.is_empty() {
        platform
    } else {
        format!("{} — {platform}", figures.join(" · "))
    }
}

/// The heading of result `id`'s page.
pub fn result_heading(id: i64, tags: &bench::Tags) -> String {
    format!("Result #{id} · {}", drive_label(tags))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_static_page_has_its_opening_and_no_other_does() {
        assert_eq!(opening("/"), Some(&HOME));
        assert_eq!(opening("/compare"), Some(&COMPARE));
        assert_eq!(opening("/leaderboard/"), Some(&LEADERBOARD));
        assert_eq!(opening("/drives/crucial-realssd-c300-64gb"), None);
        assert_eq!(opening("/results/1"), None);
        let c300 = drive_links("crucial-realssd-c300-64gb", Some("88SS9174 BKK2"));
        let hrefs: Vec<&str> = c300.iter().map(|l| l.href.as_str()).collect();
        assert_eq!(
            hrefs,
            [
                "/controllers/88SS9174%20BKK2",
                "/compare?drives=crucial-realssd-c300-64gb",
                "/results?drive=crucial-realssd-c300-64gb",
                "/drives/crucial-realssd-c300-64gb/propose"
            ]
        );
        assert_eq!(drive_links("x", None).len(), 3, "no controller, no controller link");
        // Every menu entry's page that opens the same way for everyone is listed.
        for (path, _) in NAV {
            assert!(opening(path).is_some() || *path == "/measure", "{path}");
        }
    }
}
