//! The JSON of `/api/v1/ocr`: a screenshot's recognition job, and the recognition itself
//! ([`Recognition`]: what `ocr::recognize` returns, what `ssdbase ocr` prints, what the
//! site shows for checking).

use bench::{BenchResult, Tool};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Done,
    Failed,
}

impl JobStatus {
    /// The name in the JSON: `queued`, `running`, `done` or `failed`.
    pub fn id(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Done => "done",
            JobStatus::Failed => "failed",
        }
    }

    /// Done or failed: nothing will change any more.
    pub fn finished(self) -> bool {
        matches!(self, JobStatus::Done | JobStatus::Failed)
    }
}

/// A job as its submitter sees it (without the image). Only its uploader can read it:
/// `id` is a secret key (256 random bits, hex) given once, in the answer to the upload;
/// no other way leads to the job, its image or its recognition until a result is
/// published from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OcrJob {
    /// The job's key: keep it private, it is the only access to the job.
    pub id: String,
    pub status: JobStatus,
    pub stage: Option<String>,
    /// 0 to 1.
    #[cfg_attr(feature = "openapi", schema(minimum = 0.0, maximum = 1.0))]
    pub progress: f64,
    /// Jobs queued before this one, while it waits.
    pub queue_position: Option<i64>,
    pub attempts: i64,
    pub media_type: String,
    pub created_at: i64,
    pub finished_at: Option<i64>,
    pub error: Option<String>,
    /// `/api/v1/ocr/{id}` (with the key): poll it for progress.
    pub url: String,
    /// `/api/v1/ocr/{id}/image`: the image as uploaded.
    pub image_url: String,
    /// The recognised result, its per-value confidences and layout, when done.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub recognition: Option<RecognitionJson>,
}

impl OcrJob {
    pub fn finished(&self) -> bool {
        self.status.finished()
    }

    /// The recognition, when done and readable.
    pub fn recognised(&self) -> Option<Recognition> {
        self.recognition.as_ref().and_then(|r| r.read().ok())
    }
}

/// A [`Recognition`] as the JSON text the queue stored, passed on unchanged: the server
/// does not read it back into the types (a recognition stored by an older or newer
/// reader is still shown as it was stored); [`RecognitionJson::read`] does, for whoever
/// shows it.
#[derive(Debug, Clone)]
pub struct RecognitionJson(Box<RawValue>);

impl RecognitionJson {
    /// Stored JSON text; `None` when it is not JSON.
    pub fn from_json(text: String) -> Option<RecognitionJson> {
        RawValue::from_string(text).ok().map(RecognitionJson)
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        self.0.get()
    }

    pub fn read(&self) -> Result<Recognition, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }
}

impl PartialEq for RecognitionJson {
    fn eq(&self, other: &Self) -> bool {
        self.json() == other.json()
    }
}

impl Serialize for RecognitionJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RecognitionJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(d).map(RecognitionJson)
    }
}

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
    /// The comment row under the results (CrystalDiskMark's comment box, e.g. "Samsung
    /// SSD 860"), which often names the drive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
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
    /// The same rectangle `dx` pixels further right and `dy` further down.
    pub fn moved(self, dx: i32, dy: i32) -> Rect {
        Rect { x0: self.x0 + dx, y0: self.y0 + dy, x1: self.x1 + dx, y1: self.y1 + dy }
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

#[cfg(test)]
mod tests {
    use super::*;

    const DONE: &str = r#"{"id":"k7","status":"done","stage":null,"progress":1.0,"queue_position":null,"attempts":1,"media_type":"image/png","created_at":1,"finished_at":2,"error":null,"url":"/api/v1/ocr/k7","image_url":"/api/v1/ocr/k7/image","recognition":{"confidence":0.6200000047683716,"layout":{"columns":["Read","Write"],"family":"crystaldiskmark-7+","grid":{"x0":1,"x1":9,"y0":2,"y1":8},"preset":"default","rows":1,"scale":1.0,"title_bar":true,"tool":"crystaldiskmark"},"result":{"tool":"crystaldiskmark","metrics":[{"label":"Read SEQ1M Q8T1","access":"seq","block_size":1048576,"queue_depth":8,"threads":1,"op":"read","mbps":560.41,"iops":null,"latency_us":null},{"label":"Write SEQ1M Q8T1","access":"seq","block_size":1048576,"queue_depth":8,"threads":1,"op":"write","mbps":513.47,"iops":null,"latency_us":null}]},"rows":[{"cells":[{"column":"Read","confidence":0.9800000190734863,"rect":{"x0":1,"x1":4,"y0":2,"y1":8},"text":"560.41","value":560.41},{"column":"Write","confidence":0.6200000047683716,"rect":{"x0":5,"x1":9,"y0":2,"y1":8},"text":"513.47","value":513.47}],"label":"SEQ1M Q8T1","label_confidence":0.95,"label_raw":"SEQ1M Q8T1","unit":"MB/s"}],"settings":{"drive":null,"mix_ratio":null,"test_count":null,"test_size":null,"title":null,"unit":null,"version":null}}}"#;

    #[test]
    fn a_stored_recognition_goes_out_as_stored_and_reads_as_the_types() {
        let job: OcrJob = serde_json::from_str(DONE).unwrap();
        assert!(job.finished());
        // Passed on byte for byte (key order, widened f32s), whatever the types would write.
        assert_eq!(serde_json::to_string(&job).unwrap(), DONE);
        let r = job.recognised().expect("a recognition");
        assert_eq!(r.confidence_of("Read SEQ1M Q8T1"), 0.98);
        assert_eq!(r.confidence_of("Write SEQ1M Q8T1"), 0.62);
        assert_eq!(r.confidence_of("Read RND4K Q1T1"), 1.0, "a value without a reading is not flagged");
        assert_eq!(r.layout.grid.width(), 8);
        // Not JSON: no recognition; JSON of another shape: passed on, but not read.
        assert!(RecognitionJson::from_json("{".into()).is_none());
        let other = RecognitionJson::from_json(r#"{"layout":"test"}"#.into()).unwrap();
        assert_eq!(other.json(), r#"{"layout":"test"}"#);
        assert!(other.read().is_err());
    }

    #[test]
    fn a_queued_job_is_not_finished() {
        let queued: OcrJob = serde_json::from_str(
            r#"{"id":"k8","status":"queued","stage":null,"progress":0.0,"queue_position":3,"attempts":0,"media_type":"image/png","created_at":1,"finished_at":null,"error":null,"url":"/api/v1/ocr/k8","image_url":"/api/v1/ocr/k8/image","recognition":null}"#,
        )
        .unwrap();
        assert!(!queued.finished() && queued.queue_position == Some(3));
        assert_eq!((queued.status.id(), queued.recognised()), ("queued", None));
    }
}
