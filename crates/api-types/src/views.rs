//! Lighter readings of answers, for the site: the same JSON decoded without the parts a
//! page does not show, so that their decoders are not in that page's download (the site
//! has a size budget, README "Site size"). Each is checked against the full type below.

use crate::{FirmwareSeen, TestSummary};
use bench::DriveSku;
use serde::de::IgnoredAny;
use serde::Deserialize;

/// [`DrivePage`](crate::DrivePage) as the drive page reads it. The page counts the
/// per-result list but shows its results from `/results?drive=` (which it loads for its
/// charts anyway), and skips the platform grouping: decoding them cost the page 3 KB.
#[derive(Debug, Clone, Deserialize)]
pub struct DrivePageView {
    pub drive: DriveSku,
    /// One entry per visible result, not decoded: the page shows only their number.
    pub results: Vec<IgnoredAny>,
    #[serde(default)]
    pub firmware: Vec<FirmwareSeen>,
    pub tests: Vec<TestSummary>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DrivePage;
    use serde_json::json;

    #[test]
    fn a_drive_page_reads_as_its_view() {
        let result = json!({"id": 7, "url": "/api/v1/results/7", "platform_label": "ICH10R", "tool": "crystaldiskmark",
            "tool_version": "3.0", "data_pattern": "random", "test_size_bytes": 1073741824, "firmware": "0006",
            "submitted_at": 1, "platform": {"chipset": "ICH10R"}, "source": null, "flags": [], "rated_vs_measured": []});
        let page = json!({
            "drive": {"id": "x-1gb", "vendor": "X", "model": "One", "part_number": null, "capacity_gb": 1,
                      "interface": null, "dram_mb": null, "reviewed": false},
            "results": [result.clone(), result],
            "platforms": [],
            "firmware": [{"firmware": "0006", "result_ids": [7, 7], "first_submitted": 1, "last_submitted": 1}],
            "tests": [],
        });
        let full: DrivePage = serde_json::from_value(page.clone()).unwrap();
        let view: DrivePageView = serde_json::from_str(&serde_json::to_string(&full).unwrap()).unwrap();
        assert_eq!(view.drive, full.drive);
        assert_eq!(view.results.len(), full.results.len());
        assert_eq!((view.firmware, view.tests), (full.firmware, full.tests));
    }
}
