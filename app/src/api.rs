//! The `/api/v1` JSON as the site reads it: every answer the site decodes is typed here
//! or, for the drive and compare answers the server and the chart embeds share, in
//! `api_types`; both reuse `bench`'s serde types (results, tags, flags, summaries) so that
//! a change of the API shows up in one place. The HTTP calls (browser only) are at the
//! bottom.

use bench::analysis::Flag;
use bench::{BenchResult, Op, PlatformGroup, Tags};
use serde::{Deserialize, Serialize};

pub use api_types::{pattern_label, Comparison, DriveList, DrivePage, Figure, FirmwareSeen, PoolCell};

pub const API: &str = "/api/v1";

/// Every 4xx/5xx body: `{"errors":[{"detail": ..., "pointer": ...}]}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ErrorBody {
    pub errors: Vec<ErrorItem>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ErrorItem {
    pub detail: String,
    #[serde(default)]
    pub pointer: Option<String>,
}

/// What went wrong with a request, as the pages show it.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiError {
    /// The server answered with an error status and its error list.
    Status { status: u16, errors: Vec<ErrorItem> },
    /// No answer (server down, offline) or an answer that is not the expected JSON.
    Network(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Status { status, errors } => {
                let details: Vec<String> = errors
                    .iter()
                    .map(|e| match &e.pointer {
                        Some(p) => format!("{} ({p})", e.detail),
                        None => e.detail.clone(),
                    })
                    .collect();
                write!(f, "{} (HTTP {status})", details.join("; "))
            }
            ApiError::Network(m) => write!(f, "{m}"),
        }
    }
}

// --- /results ----------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ResultView {
    pub id: i64,
    pub submission_id: i64,
    /// Unix seconds.
    pub created_at: i64,
    #[serde(default)]
    pub source: Option<String>,
    pub test_names: Vec<String>,
    pub result: BenchResult,
    pub tags: Tags,
    pub flags: Vec<Flag>,
    /// The original upload, byte for byte (a result file, JSON or a screenshot).
    #[serde(default)]
    pub upload_url: String,
    /// What the upload was (single-result view only).
    #[serde(default)]
    pub upload: Option<UploadView>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct UploadView {
    /// `cdm`, `fio`, ... `json`, or the media type of a screenshot.
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub ocr: Option<Provenance>,
}

/// How a screenshot became a result: its recognition job and the values changed by hand.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Provenance {
    pub ocr_job: i64,
    pub confidence: f32,
    pub corrected: Vec<Correction>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Correction {
    pub label: String,
    pub op: Op,
    /// `mbps`, `iops` or `latency_us`.
    pub field: String,
    pub recognised: Option<f64>,
    pub published: Option<f64>,
}

impl Provenance {
    /// The correction of `field` of the metric `label`/`op`, if it was changed by hand.
    pub fn correction(&self, label: &str, op: Op, field: &str) -> Option<&Correction> {
        self.corrected.iter().find(|c| c.label == label && c.op == op && c.field == field)
    }
}

// --- /ocr --------------------------------------------------------------------------------

/// `GET /ocr/{id}`: a screenshot's recognition job.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OcrJob {
    pub id: i64,
    /// `queued`, `running`, `done` or `failed`.
    pub status: String,
    #[serde(default)]
    pub stage: Option<String>,
    /// 0 to 1.
    pub progress: f64,
    /// Jobs queued before this one, while it waits.
    #[serde(default)]
    pub queue_position: Option<i64>,
    #[serde(default)]
    pub error: Option<String>,
    pub image_url: String,
    #[serde(default)]
    pub recognition: Option<Recognition>,
}

impl OcrJob {
    pub fn finished(&self) -> bool {
        matches!(self.status.as_str(), "done" | "failed")
    }
}

/// What the recogniser read: the result in the public format plus, per row and column,
/// how sure it was.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Recognition {
    pub result: BenchResult,
    #[serde(default)]
    pub rows: Vec<RowReading>,
    /// The lowest confidence of any value that went into `result` (0–1).
    #[serde(default)]
    pub confidence: f32,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RowReading {
    /// Canonical label (`SEQ1M Q8T1`), `None` when unreadable.
    #[serde(default)]
    pub label: Option<String>,
    pub cells: Vec<CellReading>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CellReading {
    /// `Read`, `Write` or `Mix`.
    pub column: String,
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

/// `POST /results` body publishing a checked screenshot reading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScreenshotSubmission {
    pub result: BenchResult,
    pub tags: Tags,
    pub ocr_job: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ResultList {
    pub results: Vec<ResultView>,
    pub next_cursor: Option<String>,
}

/// `POST /results` body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Submission {
    pub text: String,
    /// Skips detection: `cdm`, `kdiskmark`, `fio`, `orion`, `asssd`, `hdtune`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    pub tags: Tags,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SubmittedResult {
    pub id: i64,
    pub flags: Vec<Flag>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SubmitResponse {
    pub id: i64,
    pub edit_token: Option<String>,
    pub flags: Vec<Flag>,
    pub duplicate: bool,
    pub results: Vec<SubmittedResult>,
}

/// `PATCH /results/{id}` body: the corrected tags, replacing the old ones whole.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Edit {
    pub tags: Tags,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Deleted {
    pub deleted: i64,
    /// True when this was the submission's last result, so its upload is gone too.
    pub submission_deleted: bool,
}

/// Unix seconds as `YYYY-MM-DD` (UTC), without a date library.
pub fn format_date(unix: i64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The platform group of a result in a few words, as the server labels its pools.
pub fn platform_label(tags: &Tags) -> String {
    PlatformGroup::of(tags).label()
}

/// Percent-encodes a query value (RFC 3986 unreserved characters stay).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(target_arch = "wasm32")]
pub use http::*;

#[cfg(target_arch = "wasm32")]
mod http {
    use super::*;
    use futures::future::{FutureExt, LocalBoxFuture, Shared};
    use gloo_net::http::{Request, Response};
    use serde::de::DeserializeOwned;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// An answer's status and body.
    async fn read(res: Response) -> Result<(u16, String), ApiError> {
        let text = res.text().await.map_err(|e| ApiError::Network(format!("reading the answer: {e}")))?;
        Ok((res.status(), text))
    }

    async fn decode<T: DeserializeOwned>(res: Response) -> Result<T, ApiError> {
        let (status, text) = read(res).await?;
        decode_text(status, &text)
    }

    fn decode_text<T: DeserializeOwned>(status: u16, text: &str) -> Result<T, ApiError> {
        if (200..300).contains(&status) {
            serde_json::from_str(text)
                .map_err(|e| ApiError::Network(format!("unexpected answer from the server: {e}")))
        } else {
            let errors = serde_json::from_str::<ErrorBody>(text).map(|b| b.errors).unwrap_or_else(|_| {
                vec![ErrorItem { detail: format!("the server answered {status}"), pointer: None }]
            });
            Err(ApiError::Status { status, errors })
        }
    }

    fn network(e: gloo_net::Error) -> ApiError {
        ApiError::Network(format!("cannot reach the server: {e}"))
    }

    /// A GET's status and body, shareable between the prefetch and the page that reads it.
    type Answer = Shared<LocalBoxFuture<'static, Result<(u16, Rc<str>), ApiError>>>;

    thread_local! {
        /// GETs started before the page that reads them has loaded (by a lazy route's
        /// `data()`, while the page's code is fetched), by path; each is read once.
        static PREFETCHED: RefCell<Vec<(String, Answer)>> = const { RefCell::new(Vec::new()) };
    }

    async fn fetch_text(path: String) -> Result<(u16, Rc<str>), ApiError> {
        let (status, text) =
            read(Request::get(&format!("{API}{path}")).send().await.map_err(network)?).await?;
        Ok((status, text.into()))
    }

    /// Starts `GET /api/v1{path}` now, for the next [`get`] of the same path.
    pub fn prefetch(path: &str) {
        let answer = fetch_text(path.to_string()).boxed_local().shared();
        leptos::task::spawn_local(answer.clone().map(drop));
        PREFETCHED.with_borrow_mut(|p| {
            p.retain(|(k, _)| k != path);
            p.push((path.to_string(), answer));
        });
    }

    /// `GET /api/v1{path}` decoded as `T` (the prefetched answer when there is one).
    pub async fn get<T: DeserializeOwned>(path: &str) -> Result<T, ApiError> {
        let prefetched =
            PREFETCHED.with_borrow_mut(|p| p.iter().position(|(k, _)| k == path).map(|i| p.swap_remove(i).1));
        let (status, text) = match prefetched {
            Some(answer) => answer.await?,
            None => fetch_text(path.to_string()).await?,
        };
        decode_text(status, &text)
    }

    /// `GET /api/v1{path}` as text (an HTML table the server renders); errors as [`get`].
    pub async fn get_text(path: &str) -> Result<String, ApiError> {
        let (status, text) = fetch_text(path.to_string()).await?;
        if (200..300).contains(&status) {
            Ok(text.to_string())
        } else {
            decode_text::<()>(status, &text).map(|_| String::new())
        }
    }

    /// Corrects a result's tags with its submission's edit token.
    pub async fn edit(id: i64, token: &str, body: &Edit) -> Result<ResultView, ApiError> {
        let req = Request::patch(&format!("{API}/results/{id}"))
            .header("Authorization", &format!("Bearer {}", token.trim()))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the tags: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    /// Deletes a result with its submission's edit token.
    pub async fn delete(id: i64, token: &str) -> Result<Deleted, ApiError> {
        let res = Request::delete(&format!("{API}/results/{id}"))
            .header("Authorization", &format!("Bearer {}", token.trim()))
            .send()
            .await
            .map_err(network)?;
        decode(res).await
    }

    /// Queues a screenshot (the image bytes as the body) for recognition.
    pub async fn upload_screenshot(bytes: &[u8]) -> Result<OcrJob, ApiError> {
        let body = js_sys::Uint8Array::from(bytes);
        let req = Request::post(&format!("{API}/ocr"))
            .body(body)
            .map_err(|e| ApiError::Network(format!("cannot send the image: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    /// Publishes a checked screenshot reading.
    pub async fn publish_screenshot(body: &ScreenshotSubmission) -> Result<SubmitResponse, ApiError> {
        let req = Request::post(&format!("{API}/results"))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the result: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }

    pub async fn submit(body: &Submission) -> Result<SubmitResponse, ApiError> {
        let req = Request::post(&format!("{API}/results"))
            .json(body)
            .map_err(|e| ApiError::Network(format!("cannot encode the submission: {e}")))?;
        decode(req.send().await.map_err(network)?).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(format_date(0), "1970-01-01");
        assert_eq!(format_date(1_700_000_000), "2023-11-14");
        assert_eq!(format_date(951_782_400), "2000-02-29");
    }

    #[test]
    fn query_values_are_escaped() {
        assert_eq!(encode("ASUS U3S6 (Marvell)"), "ASUS%20U3S6%20%28Marvell%29");
        assert_eq!(encode("a&b=c"), "a%26b%3Dc");
    }

    #[test]
    fn api_shapes_decode() {
        let compare = r#"{"drives":[{"id":"a","url":"/api/v1/drives/a","vendor":"Crucial","model":"C300","capacity_gb":64}],
          "pools":[{"drive":"a","platform":{"chipset":"ICH10R","storage_controller":null,"driver":null,"mode":null,"link":null,"host_link":null,"raid_level":null,"raid_members":null},
            "platform_label":"ICH10R","data_pattern":"random","result_ids":[1,2,3]}],
          "tests":[{"key":{"family":"cdm-native","access":"seq","block_size":1048576,"queue_depth":1,"threads":1,"op":"read","mix_read_percent":null,"stat":null},
          "name":"SEQ 1MiB Q1T1 read","drives":[{"drive":"a","missing":false,"groups":[{"pool":0,
          "mbps":{"count":2,"median":270.0,"mad":3.0,"min":267.0,"max":273.0},"iops":null,"latency_us":null,"result_ids":[1,2]}]},
          {"drive":"b","missing":true,"groups":[]}]}]}"#;
        let c: Comparison = serde_json::from_str(compare).unwrap();
        let cell = &c.tests[0].drives[0].groups[0];
        assert_eq!(cell.mbps.unwrap().count, 2);
        assert_eq!(c.pool_of(cell).unwrap().label(), "ICH10R · random");
        assert_eq!(c.result_ids(cell), [1, 2]);
        assert!(c.tests[0].drives[1].missing);
        let err: ErrorBody =
            serde_json::from_str(r#"{"errors":[{"detail":"bad","pointer":"text line 3"}]}"#).unwrap();
        assert_eq!(err.errors[0].pointer.as_deref(), Some("text line 3"));
    }

    #[test]
    fn screenshot_jobs_and_provenance_decode() {
        let job = r#"{"id":7,"status":"done","stage":"done","progress":1.0,"queue_position":null,"attempts":1,
          "media_type":"image/png","created_at":1,"finished_at":2,"error":null,"url":"/api/v1/ocr/7",
          "image_url":"/api/v1/ocr/7/image","recognition":{"result":{"tool":"crystaldiskmark","metrics":[
          {"label":"Read SEQ1M Q8T1","access":"seq","block_size":1048576,"queue_depth":8,"threads":1,"op":"read","mbps":560.41,"iops":null,"latency_us":null},
          {"label":"Write SEQ1M Q8T1","access":"seq","block_size":1048576,"queue_depth":8,"threads":1,"op":"write","mbps":513.47,"iops":null,"latency_us":null}]},
          "layout":{"family":"crystaldiskmark-7+"},"settings":{},"confidence":0.62,
          "rows":[{"label":"SEQ1M Q8T1","label_confidence":0.95,"label_raw":"SEQ1M Q8T1","unit":"MB/s","cells":[
            {"column":"Read","text":"560.41","value":560.41,"confidence":0.98,"rect":{}},
            {"column":"Write","text":"513.47","value":513.47,"confidence":0.62,"rect":{}}]}]}}"#;
        let job: OcrJob = serde_json::from_str(job).unwrap();
        assert!(job.finished());
        let r = job.recognition.unwrap();
        assert_eq!(r.confidence_of("Read SEQ1M Q8T1"), 0.98);
        assert_eq!(r.confidence_of("Write SEQ1M Q8T1"), 0.62);
        assert_eq!(r.confidence_of("Read RND4K Q1T1"), 1.0, "a value without a reading is not flagged");
        let queued: OcrJob = serde_json::from_str(
            r#"{"id":8,"status":"queued","stage":null,"progress":0,"queue_position":3,"error":null,"image_url":"/x"}"#,
        )
        .unwrap();
        assert!(!queued.finished() && queued.queue_position == Some(3));
        let p: Provenance = serde_json::from_str(
            r#"{"ocr_job":7,"confidence":0.62,"corrected":[{"label":"SEQ1M Q8T1","op":"write","field":"mbps","recognised":513.47,"published":514.47}]}"#,
        )
        .unwrap();
        assert_eq!(p.correction("SEQ1M Q8T1", Op::Write, "mbps").unwrap().published, Some(514.47));
        assert!(p.correction("SEQ1M Q8T1", Op::Read, "mbps").is_none());
    }
}
