//! The JSON of `/api/v1/results`: a stored result and the browse page of them, the
//! submission body and answer, the tag correction and the delete answer, and how a
//! screenshot became a result (`Provenance`, also what the server stores for it).

use bench::analysis::Flag;
use bench::{BenchResult, Op, Tags};
use serde::{Deserialize, Serialize};

/// A stored result as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResultView {
    pub id: i64,
    /// `/api/v1/results/{id}`.
    pub url: String,
    pub submission_id: i64,
    /// Unix seconds.
    pub created_at: i64,
    /// Only ever true in a moderator's view: others get 404 for a hidden result.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub hidden: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub hidden_reason: Option<String>,
    /// Where the numbers come from (an article, a file name), when the submitter said.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub source: Option<String>,
    /// Each metric's comparable test, named (`SEQ 1MiB Q1T1 read`), in metric order.
    pub test_names: Vec<String>,
    pub result: BenchResult,
    pub tags: Tags,
    pub flags: Vec<Flag>,
    /// The original upload, byte for byte (a result file, JSON or a screenshot).
    pub upload_url: String,
    /// What the upload was and, for a screenshot, which values were corrected by hand
    /// (single-result view only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub upload: Option<UploadView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UploadView {
    /// `cdm`, `kdiskmark`, `fio`, ... `json`, or the media type of a screenshot.
    pub format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub ocr: Option<Provenance>,
    /// How `ssdbase bench` says it measured the result, when it sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub runner: Option<crate::RunnerRecord>,
}

/// How a screenshot became a result: the recognition job, and every value the person
/// publishing it changed from what was read (shown as hand-corrected on its page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Provenance {
    pub ocr_job: i64,
    /// The recogniser's lowest confidence over the values it read (0–1).
    pub confidence: f32,
    pub corrected: Vec<Correction>,
    /// Every setting of the run (test count, test size, target) the person publishing it
    /// changed from what the settings bar was read as. Absent in provenance stored before
    /// settings could be corrected.
    #[serde(default)]
    pub settings_corrected: Vec<SettingCorrection>,
}

impl Provenance {
    /// The correction of `field` of the metric `label`/`op`, if it was changed by hand.
    pub fn correction(&self, label: &str, op: Op, field: &str) -> Option<&Correction> {
        self.corrected.iter().find(|c| c.label == label && c.op == op && c.field == field)
    }
}

/// One value published differently from how it was recognised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Correction {
    /// The row (`SEQ1M Q8T1`, `4K QD32`) and column (`read`, `write`, `mix`).
    pub label: String,
    pub op: Op,
    /// `mbps`, `iops` or `latency_us`.
    pub field: String,
    pub recognised: Option<f64>,
    pub published: Option<f64>,
}

/// One setting of the run published differently from how the screenshot was read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingCorrection {
    /// The result's field: `passes`, `test_size_bytes` or `target`.
    pub field: String,
    /// As read and as published, as text (a number of passes or bytes, or the target);
    /// null when there was none.
    pub recognised: Option<String>,
    pub published: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListResponse {
    pub results: Vec<ResultView>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// A submission: a result file as text (any format the bench crate reads), or one
/// result in the public result format; with tags. Exactly one of `text` and `result`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SubmitBody {
    /// A result file as the tool wrote it (or as pasted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Skip auto-detection for `text`: cdm, kdiskmark, fio, orion, asssd, hdtune.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// One result in the public result format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<BenchResult>,
    /// What the result ran on; `tags.drive.sku` must name a catalogue drive, which then
    /// completes the drive tags.
    #[serde(default)]
    pub tags: Tags,
    /// Where the numbers come from: an article, a file name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Publishes a screenshot read by `POST /ocr`: the job's key (its `id`); `result`
    /// holds the values as the person checked (and maybe corrected) them; the stored
    /// upload is the image, public with the result from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ocr_job: Option<String>,
    /// Sent by `ssdbase bench` with `result`: how it measured it (stored with the upload
    /// and shown on the result's page as "measured with ssdbase bench").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<crate::RunnerRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubmittedResult {
    pub id: i64,
    pub url: String,
    pub flags: Vec<Flag>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubmitResponse {
    /// The first (usually the only) stored result.
    pub id: i64,
    pub url: String,
    /// Secret that allows correcting or deleting the submission later; only returned
    /// when the submission is new.
    pub edit_token: Option<String>,
    pub flags: Vec<Flag>,
    pub duplicate: bool,
    /// Every result of the submission (a pasted file may hold several runs).
    pub results: Vec<SubmittedResult>,
    /// A duplicate whose stored result is on another drive than this upload named: the
    /// upload changed nothing, and the stored result is corrected with its edit token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_drive: Option<Box<OtherDrive>>,
}

/// The drive a recognised upload's stored result is on, and the one the upload named.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OtherDrive {
    /// The stored result's drive, its id and its name.
    pub stored_id: Option<String>,
    pub stored: String,
    /// The drive this upload named (a drive SSDBase has or one it would have created).
    pub sent_id: Option<String>,
    pub sent: String,
    /// Where the stored result is corrected: its page, whose edit form takes the edit
    /// token given when it was first stored.
    pub correct_at: String,
}

/// `PATCH` body: the corrected tags, replacing the old ones whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct EditBody {
    pub tags: Tags,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeleteResponse {
    pub deleted: i64,
    /// True when this was the submission's last result, so its upload is gone too.
    pub submission_deleted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_are_found_by_metric_and_field() {
        let p: Provenance = serde_json::from_str(
            r#"{"ocr_job":7,"confidence":0.62,"corrected":[{"label":"SEQ1M Q8T1","op":"write","field":"mbps","recognised":513.47,"published":514.47}]}"#,
        )
        .unwrap();
        assert_eq!(p.correction("SEQ1M Q8T1", Op::Write, "mbps").unwrap().published, Some(514.47));
        assert!(p.correction("SEQ1M Q8T1", Op::Read, "mbps").is_none());
    }

    #[test]
    fn a_text_submission_sends_only_what_is_set() {
        let body = SubmitBody { text: Some("x".into()), ..SubmitBody::default() };
        let json = serde_json::to_value(&body).unwrap();
        assert_eq!(json["text"], "x");
        assert!(
            json.get("result").is_none() && json.get("ocr_job").is_none() && json.get("format").is_none()
        );
        let back: SubmitBody = serde_json::from_value(json).unwrap();
        assert_eq!(back, body);
    }
}

/// `GET /results/{id}/load`: what a result says about behaviour under load. Each test it
/// measured at three or more loads (a fio job file sweeping `iodepth`, ORION's columns)
/// as a curve with its knee, and the completion-latency percentiles the tool printed for
/// each test, and the tests sampled over their run. All empty for a result measured at
/// one load per test, once, without percentiles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LoadBehaviour {
    pub result: i64,
    pub curves: Vec<LoadCurveView>,
    pub percentiles: Vec<TestPercentiles>,
    /// Tests sampled while they ran, with whether their rate reached steady state.
    pub over_time: Vec<SampledTest>,
    /// Points of two kinds of I/O at once (ORION's mixed-load matrices), as printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mixed_loads: Vec<bench::MixedLoad>,
}

/// One test's rate over its run (`BenchResult::over_time`) and whether it settled: the
/// SNIA PTS 2.0.2 steady-state check over its intervals' MB/s (`bench::steady`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SampledTest {
    /// `SEQ 1MiB Q8T1 write`.
    pub test: String,
    pub key: bench::TestKey,
    pub points: Vec<bench::TimePoint>,
    pub steadiness: bench::steady::Steadiness,
    /// A write's cache (`bench::cache`): where the rate fell and stayed down, or that it
    /// never did. Absent for reads and for runs of fewer than three intervals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub write_cache: Option<bench::cache::WriteCache>,
    /// Seconds the drive was idle before this run, when it repeats the test's first run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false, minimum = 0))]
    pub after_idle_secs: Option<f64>,
    /// For a repeat after idle: the share of the first run's cache found again (1: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false, minimum = 0, maximum = 1))]
    pub cache_recovered: Option<f64>,
}

/// One test at several loads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LoadCurveView {
    /// `RND 4KiB read`: the test without its load.
    pub test: String,
    pub key: bench::curves::CurveKey,
    /// Fewest outstanding I/Os first.
    pub points: Vec<bench::curves::LoadPoint>,
    /// The index in `points` from which every further step grew latency faster than
    /// IOPS; absent when the curve scaled to its end or lacks latency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false, minimum = 0))]
    pub knee: Option<usize>,
}

/// The completion-latency percentiles and spread printed for one test of the result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TestPercentiles {
    /// `RND 4KiB Q1T1 write`.
    pub test: String,
    pub key: bench::TestKey,
    /// Lowest first.
    pub percentiles: Vec<bench::LatencyPercentile>,
    /// The fastest and slowest I/O, the standard deviation and the histogram, as far as
    /// the tool printed them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<bench::LatencySpread>,
}
