//! Lighter readings of answers, for the site: the same JSON decoded without the parts a
//! page does not show, so that their decoders are not in that page's download (the site
//! has a size budget, BENCHMARKS.md "Site size"). Each is checked against the full type below.

use crate::{FirmwareSeen, TestSummary};
use bench::{ControllerTag, DriveSku, NandTag};
use serde::Deserialize;

/// [`DrivePage`](crate::DrivePage) as the drive page reads it, asked with
/// `results=false`: the page shows the count and its results from `/results?drive=`
/// (which it loads for its charts anyway).
#[derive(Debug, Clone, Deserialize)]
pub struct DrivePageView {
    pub drive: DriveSku,
    pub result_count: usize,
    #[serde(default)]
    pub firmware: Vec<FirmwareSeen>,
    pub tests: Vec<TestSummary>,
}

/// [`DriveList`](crate::DriveList) as the drive search, compare's picker and the
/// controller page read it: each drive's name, controller and NAND and its result count,
/// read as flat fields. The full type's `#[serde(flatten)]` of the whole `DriveSku` made
/// serde buffer every drive and read it again, and that reader sat in every page's
/// download (the drive search is on every page).
#[derive(Debug, Clone, Deserialize)]
pub struct DriveListView {
    pub drives: Vec<DriveItemView>,
}

/// One drive of a [`DriveListView`].
#[derive(Debug, Clone, Deserialize)]
pub struct DriveItemView {
    pub id: String,
    pub vendor: String,
    pub model: String,
    pub capacity_gb: u32,
    #[serde(default)]
    pub controller: ControllerTag,
    #[serde(default)]
    pub nand: NandTag,
    #[serde(default = "reviewed")]
    pub reviewed: bool,
    pub result_count: i64,
}

fn reviewed() -> bool {
    true
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
            "result_count": 2,
            "results": [result.clone(), result],
            "platforms": [],
            "firmware": [{"firmware": "0006", "result_ids": [7, 7], "first_submitted": 1, "last_submitted": 1}],
            "tests": [],
        });
        let full: DrivePage = serde_json::from_value(page.clone()).unwrap();
        let view: DrivePageView = serde_json::from_str(&serde_json::to_string(&full).unwrap()).unwrap();
        assert_eq!(view.drive, full.drive);
        assert_eq!(view.result_count, full.result_count);
        assert_eq!((view.firmware, view.tests), (full.firmware, full.tests));
    }

    #[test]
    fn a_drive_list_reads_as_its_view() {
        let list = json!({"drives": [{"id": "x-1gb", "vendor": "X", "model": "One", "part_number": null, "capacity_gb": 1,
            "interface": null, "controller": {"vendor": "Marvell", "model": "88SS9174", "stepping": "BKK2"},
            "nand": {"vendor": "Micron", "process_nm": 34, "cell": "MLC", "interface": null}, "dram_mb": 256,
            "rated": {}, "form_factor": "2.5in", "firmware": ["0006"], "reviewed": false,
            "url": "/api/v1/drives/x-1gb", "result_count": 3}]});
        let full: crate::DriveList = serde_json::from_value(list).unwrap();
        let view: DriveListView = serde_json::from_str(&serde_json::to_string(&full).unwrap()).unwrap();
        let (f, v) = (&full.drives[0], &view.drives[0]);
        assert_eq!(
            (&v.id, &v.vendor, &v.model, v.capacity_gb),
            (&f.drive.id, &f.drive.vendor, &f.drive.model, 1)
        );
        assert_eq!(
            (&v.controller, &v.nand, v.reviewed, v.result_count),
            (&f.drive.controller, &f.drive.nand, false, 3)
        );
    }
}
