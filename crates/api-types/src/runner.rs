//! How `ssdbase bench` says it measured a result: sent with the result by the runner,
//! stored with its upload, shown on the result's page. The server cannot prove where an
//! upload came from, so this is what the upload says, shown as "measured with ssdbase
//! bench", never as verified.

use crate::ErrorItem;
use serde::{Deserialize, Serialize};

/// The runner's account of one run: its version, fio's, the fio job of every test, and
/// every fact about the drive and platform with where the probe read it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RunnerRecord {
    /// `ssdbase bench`'s version, e.g. `0.1.0`.
    pub runner_version: String,
    /// As `fio --version` printed it, e.g. `fio-3.33`.
    pub fio_version: String,
    /// fio ran without O_DIRECT (`--buffered`, on a filesystem that refuses it): the
    /// page cache was measured with the drive.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub buffered: bool,
    /// The fio job file of each test, in the order they ran.
    pub jobs: Vec<RunnerJob>,
    /// What the probe found, each with where it was read.
    #[serde(default)]
    pub facts: Vec<ProbedFact>,
    /// Tag fields the person set by hand (`--tag`), over or besides what the probe found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub typed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RunnerJob {
    /// The test as the result labels it, e.g. `SEQ1M Q8T1 read`.
    pub test: String,
    /// The fio job file, as fio read it.
    pub job: String,
}

/// One thing the probe found: `field` is a tag field's public name (`drive_model`,
/// `link`) or a fact without one (`transport`, `rotational`, `usb_bridge`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ProbedFact {
    pub field: String,
    pub value: String,
    /// Where it was read: `sysfs /sys/block/sda/device/model`, `smartctl --json`, …
    pub source: String,
}

/// Limits on a record, so that one upload cannot store megabytes of it: far above what
/// the runner sends (4 to 8 tests of one short job file each, a few dozen facts).
pub const MAX_JOBS: usize = 64;
pub const MAX_JOB_BYTES: usize = 4096;
pub const MAX_FACTS: usize = 200;
pub const MAX_TEXT: usize = 300;

impl RunnerRecord {
    /// What is wrong with the record, each at its pointer under `at` (`runner`).
    pub fn problems(&self, at: &str) -> Vec<ErrorItem> {
        let mut out = Vec::new();
        let mut bad =
            |pointer: String, detail: String| out.push(ErrorItem { detail, pointer: Some(pointer) });
        let text = |s: &str, max: usize| {
            if s.trim().is_empty() {
                Some("is empty".to_string())
            } else if s.len() > max {
                Some(format!("is {} bytes long; at most {max}", s.len()))
            } else if s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
                Some("holds control characters".to_string())
            } else {
                None
            }
        };
        for (name, value) in [("runner_version", &self.runner_version), ("fio_version", &self.fio_version)] {
            if let Some(why) = text(value, MAX_TEXT) {
                bad(format!("{at}.{name}"), format!("{name} {why}"));
            }
        }
        if self.jobs.is_empty() {
            bad(format!("{at}.jobs"), "a run has at least one job".into());
        }
        if self.jobs.len() > MAX_JOBS {
            bad(format!("{at}.jobs"), format!("{} jobs; at most {MAX_JOBS}", self.jobs.len()));
        }
        for (i, job) in self.jobs.iter().enumerate().take(MAX_JOBS) {
            if let Some(why) = text(&job.test, MAX_TEXT) {
                bad(format!("{at}.jobs[{i}].test"), format!("the test {why}"));
            }
            if let Some(why) = text(&job.job, MAX_JOB_BYTES) {
                bad(format!("{at}.jobs[{i}].job"), format!("the job file {why}"));
            }
        }
        if self.facts.len() > MAX_FACTS {
            bad(format!("{at}.facts"), format!("{} facts; at most {MAX_FACTS}", self.facts.len()));
        }
        for (i, fact) in self.facts.iter().enumerate().take(MAX_FACTS) {
            for (name, value) in [("field", &fact.field), ("value", &fact.value), ("source", &fact.source)] {
                if let Some(why) = text(value, MAX_TEXT) {
                    bad(format!("{at}.facts[{i}].{name}"), format!("the fact's {name} {why}"));
                }
            }
        }
        for (i, field) in self.typed.iter().enumerate().take(MAX_FACTS) {
            if let Some(why) = text(field, MAX_TEXT) {
                bad(format!("{at}.typed[{i}]"), format!("the typed field {why}"));
            }
        }
        out
    }

    /// The facts of `field`, where the probe found it.
    pub fn fact(&self, field: &str) -> Option<&ProbedFact> {
        self.facts.iter().find(|f| f.field == field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> RunnerRecord {
        RunnerRecord {
            runner_version: "0.1.0".into(),
            fio_version: "fio-3.33".into(),
            buffered: false,
            jobs: vec![RunnerJob { test: "SEQ1M Q8T1 read".into(), job: "[global]\nrw=read\n".into() }],
            facts: vec![ProbedFact {
                field: "drive_model".into(),
                value: "Samsung SSD 860 EVO 500GB".into(),
                source: "sysfs /sys/block/sda/device/model".into(),
            }],
            typed: vec![],
        }
    }

    #[test]
    fn a_runners_record_passes_and_junk_is_refused_at_its_pointer() {
        assert!(record().problems("runner").is_empty());
        let mut r = record();
        r.fio_version = " ".into();
        r.jobs[0].job = "x".repeat(MAX_JOB_BYTES + 1);
        r.facts[0].value = "a\u{7}b".into();
        let pointers: Vec<_> = r.problems("runner").into_iter().filter_map(|e| e.pointer).collect();
        assert_eq!(pointers, ["runner.fio_version", "runner.jobs[0].job", "runner.facts[0].value"]);
        let none = RunnerRecord { jobs: vec![], ..record() };
        assert_eq!(none.problems("[1].runner")[0].pointer.as_deref(), Some("[1].runner.jobs"));
    }

    #[test]
    fn unknown_keys_are_refused_and_defaults_read() {
        let json = r#"{"runner_version":"0.1.0","fio_version":"fio-3.33","jobs":[{"test":"t","job":"j"}]}"#;
        let r: RunnerRecord = serde_json::from_str(json).unwrap();
        assert!(!r.buffered && r.facts.is_empty() && r.typed.is_empty());
        assert!(serde_json::from_str::<RunnerRecord>(
            &json.replace("\"jobs\"", "\"verified\":true,\"jobs\"")
        )
        .is_err());
    }
}

/// `GET /runner`: the standalone runner (`ssdbase-bench`) this server offers for
/// download, one static Linux binary per processor, each with its SHA-256.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RunnerDownloads {
    /// Empty when this server offers none (`serve --runner-dir` not given or empty).
    pub files: Vec<RunnerDownload>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RunnerDownload {
    /// The processor it runs on, as `uname -m` prints it: `x86_64` or `aarch64`.
    pub arch: String,
    /// The file's name, e.g. `ssdbase-bench-x86_64-linux`.
    pub name: String,
    pub bytes: u64,
    /// Lowercase hex, as `sha256sum` prints it.
    pub sha256: String,
    /// Where to download it (a stable path under the API; `{url}.sha256` is the checksum
    /// line `sha256sum -c` reads).
    pub url: String,
}
