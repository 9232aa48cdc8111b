//! What the screenshot recogniser read ([`Recognition`]: what `ocr::recognize` returns,
//! what `ssdbase ocr` prints, what the site shows for checking), as JSON.

use bench::{BenchResult, Tool};
use serde::{Deserialize, Serialize};

/// Everything read from one screenshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recognition {
    /// The result in SSDBase's public format: only values that were read, keyed by the
    /// row labels; rows that printed zero are in `not_run`.
    pub result: BenchResult,
    pub layout: Layout,
    pub settings: Settings,
    /// Every row as read, with per-value text and confidence, including values that could
    /// not be read or belong to rows whose label could not be read.
    pub rows: Vec<RowReading>,
    /// The lowest confidence of any value or label that went into `result` (0–1).
    pub confidence: f32,
}

impl Recognition {
    /// How sure the recogniser was of the value of metric `label` (its metrics are named
    /// `{column} {row label}`, e.g. `Read SEQ1M Q8T1`); 1 when there is no reading for it.
    /// The row label's own confidence is left out: labels are matched to the known rows,
    /// and what the person checks and edits here is the number.
    pub fn confidence_of(&self, label: &str) -> f32 {
        self.rows
            .iter()
            .filter_map(|r| Some((r.label.as_deref()?, r)))
            .flat_map(|(row, r)| r.cells.iter().map(move |c| (row, c)))
            .find(|(row, c)| {
                label.strip_suffix(row).and_then(|l| l.strip_suffix(' ')) == Some(c.column.as_str())
            })
            .map_or(1.0, |(_, c)| c.confidence)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    pub tool: Tool,
    /// `crystaldiskmark-3`, `crystaldiskmark-5`, `crystaldiskmark-7+`, `kdiskmark`.
    pub family: String,
    /// `default`, `nvme`, `peak`, `real`, `classic`, `custom`.
    pub preset: String,
    /// Column headings by position: `Read`, `Write` and, when present, `Mix`.
    pub columns: Vec<String>,
    pub rows: usize,
    /// Where the value grid is in the image (pixels), to show beside the values.
    pub grid: Rect,
    /// Value digit height relative to a CrystalDiskMark 8 window at 100 % (1.0 = 100 %).
    pub scale: f32,
    pub title_bar: bool,
}

/// The settings bar and title bar as drawn (`None`: not visible or not readable).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Settings {
    pub title: Option<String>,
    pub version: Option<String>,
    pub test_count: Option<u32>,
    pub test_size: Option<String>,
    pub drive: Option<String>,
    pub unit: Option<String>,
    pub mix_ratio: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowReading {
    /// Canonical label (`SEQ1M Q8T1`, `4K QD32`, `RND4K (μs)`), `None` when unreadable.
    pub label: Option<String>,
    pub label_confidence: f32,
    /// What the OCR read on the button, for a person correcting it.
    pub label_raw: String,
    /// The unit of this row's values (`MB/s`, `IOPS`, `μs`, ...).
    pub unit: String,
    pub cells: Vec<CellReading>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellReading {
    /// `Read`, `Write` or `Mix`.
    pub column: String,
    /// The value as drawn (`19,730.47`), `None` when no reading was a valid number.
    pub text: Option<String>,
    pub value: Option<f64>,
    /// 0–1: engine confidence, raised when independent readings agree, lowered when the
    /// number's format disagrees with the rest of the window.
    pub confidence: f32,
    pub rect: Rect,
}

/// A rectangle in image pixels (half-open: `x1`, `y1` excluded).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Rect {
    pub fn width(&self) -> i32 {
        self.x1 - self.x0
    }
    pub fn height(&self) -> i32 {
        self.y1 - self.y0
    }
    pub fn grow(self, by: i32) -> Rect {
        Rect { x0: self.x0 - by, y0: self.y0 - by, x1: self.x1 + by, y1: self.y1 + by }
    }
    pub fn contains(&self, o: &Rect) -> bool {
        self.x0 <= o.x0 && self.y0 <= o.y0 && self.x1 >= o.x1 && self.y1 >= o.y1
    }
    pub fn clip(self, w: u32, h: u32) -> Rect {
        Rect {
            x0: self.x0.clamp(0, w as i32),
            y0: self.y0.clamp(0, h as i32),
            x1: self.x1.clamp(0, w as i32),
            y1: self.y1.clamp(0, h as i32),
        }
    }
}
