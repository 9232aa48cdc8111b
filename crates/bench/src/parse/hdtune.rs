//! HD Tune and HD Tune Pro: the text of the benchmark tab's "copy to clipboard".
//!
//! ```text
//! HD Tune: Samsung SSD 840 EVO 120G Benchmark          (Pro: "HD Tune Pro: ... Benchmark")
//! Transfer Rate Minimum : 1.0 MB/sec
//! Transfer Rate Maximum : 449.1 MB/sec
//! Transfer Rate Average : 308.1 MB/sec
//! Access Time           : 0.4 ms
//! Burst Rate            : 196.7 MB/sec
//! CPU Usage             : 27.2%
//! ```
//!
//! Transfer rates are sequential reads (64 KiB blocks unless a `Block size` line says
//! otherwise, QD1, one thread) with `stat` Min/Max/Avg; the burst rate is the same test
//! with `stat` Burst; the access time is random 512 B reads (ms → µs).
//!
//! Decisions:
//! * A heading line that mentions writing (`Write`, `Write transfer rate`, `Test: Write`)
//!   makes the following rows writes, one that mentions reading switches back; rows of
//!   the other direction before it become a result of their own.
//! * `CPU Usage` is not a drive measurement: it goes into `comment` (`CPU Usage: 27.2%`).
//! * Rows printed as zero go to `not_run`.
//! * Each `HD Tune...: <drive> Benchmark` title starts a result; a repeated row (a
//!   second run under the same title, e.g. read then write) starts another one for the
//!   same drive.
//! * `tool_version` is the version when printed (`HD Tune Pro 5.75` → `Pro 5.75`,
//!   `HD Tune 2.55` → `2.55`), or `Pro` alone when only the edition is known.

use super::asssd::{locale_number, uses_decimal_comma};
use super::common::{rescale, truncate, Format, ParseError};
use crate::model::{Access, BenchResult, FileFact, Metric, Op, Stat, Tool};
use crate::re::Regex;
use crate::text::Document;
use std::sync::OnceLock;

const DEFAULT_BLOCK: u64 = 64 * 1024;

fn title_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)^HD[[:space:]]?Tune([[:space:]]+Pro)?(?:[[:space:]]+v?([0-9]+\.[0-9]+[[:word:]]*))?[[:space:]]*:[[:space:]]*(.*?)(?:[[:space:]]+Benchmark)?[[:space:]]*$")
            .unwrap()
    })
}

fn version_anywhere() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?-u:\b)HD[[:space:]]?Tune([[:space:]]+Pro)?[[:space:]]+v?([0-9]+\.[0-9]+[[:word:]]*)",
        )
        .unwrap()
    })
}

fn row_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^(Transfer Rate Minimum|Transfer Rate Maximum|Transfer Rate Average|Access Time|Burst Rate|CPU Usage)[[:space:]]*:?[[:space:]]*(.*)$",
        )
        .unwrap()
    })
}

fn block_size_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?i)^Block[[:space:]]*size[[:space:]]*:?[[:space:]]*([0-9.,]+)[[:space:]]*(B|KB|KiB|K|MB|MiB|M)(?-u:\b)").unwrap())
}

struct Run {
    result: BenchResult,
    labels: Vec<String>,
}

impl Run {
    fn new(target: Option<String>, version: Option<String>) -> Run {
        let mut result = BenchResult::new(Tool::HdTune);
        result.target = target;
        result.tool_version = version;
        Run { result, labels: Vec::new() }
    }

    /// The next run under the same title: same drive, version and facts.
    fn next(&self) -> Run {
        let mut next = Run::new(self.result.target.clone(), self.result.tool_version.clone());
        next.result.facts = self.result.facts.clone();
        next
    }

    fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// HD Tune Pro's information copy: `Capacity : 120.0 GB` (decimal, as the drive's
/// label gives it), `Size:` in some versions.
fn capacity_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^(?:Capacity|Size)[[:space:]]*:[[:space:]]*([0-9.,]+)[[:space:]]*(GB|TB)[[:space:]]*$",
        )
        .unwrap()
    })
}

pub(super) fn parse(doc: &Document) -> Result<Vec<BenchResult>, ParseError> {
    let decimal_comma = uses_decimal_comma(doc);
    let mut results = Vec::new();
    let mut run = Run::new(None, None);
    let mut op = Op::Read;
    let mut block = DEFAULT_BLOCK;
    let mut first_line = None;
    // The version printed somewhere else (a window title), applied to every result.
    let mut printed_version: Option<String> = None;

    for line in doc.content_lines() {
        let text = line.text.as_str();
        first_line.get_or_insert(line.no);

        if let Some(c) = version_anywhere().captures(text) {
            let pro = c.get(1).is_some();
            let v = &c[2];
            printed_version = Some(if pro { format!("Pro {v}") } else { v.to_string() });
        }

        if let Some(c) = title_line().captures(text) {
            let pro = c.get(1).is_some();
            let version = match (c.get(2), pro) {
                (Some(v), true) => Some(format!("Pro {}", v.as_str())),
                (Some(v), false) => Some(v.as_str().to_string()),
                (None, true) => Some("Pro".to_string()),
                (None, false) => None,
            };
            let target = Some(c[3].trim().to_string()).filter(|t| !t.is_empty());
            let mut new = Run::new(target.clone(), version);
            new.result.facts.extend(target.map(|t| FileFact::at("model", t, line.no, text)));
            let old = std::mem::replace(&mut run, new);
            if !old.is_empty() {
                results.push(old.result);
            }
            op = Op::Read;
            block = DEFAULT_BLOCK;
            continue;
        }

        if let Some(c) = capacity_line().captures(text) {
            let scale = if c[2].eq_ignore_ascii_case("TB") { 1e12 } else { 1e9 };
            let gb = locale_number(&c[1], decimal_comma)
                .and_then(|v| crate::identity::marketed_gb((v * scale) as u64));
            if let Some(gb) = gb {
                run.result.facts.push(FileFact::at("capacity_gb", gb.to_string(), line.no, text));
            }
            continue;
        }

        if let Some(c) = block_size_line().captures(text) {
            if let Some(v) = locale_number(&c[1], decimal_comma) {
                let unit = c[2].to_ascii_lowercase();
                let scale = match unit.chars().next() {
                    Some('k') => 1024.0,
                    Some('m') => 1024.0 * 1024.0,
                    _ => 1.0,
                };
                let bytes = v * scale;
                if (1.0..1e12).contains(&bytes) {
                    block = bytes.round() as u64;
                }
            }
            continue;
        }

        let Some(c) = row_line().captures(text) else {
            // A heading: `Write`, `Read transfer rate`, `Test: Write`.
            let lower = text.to_ascii_lowercase();
            let words: Vec<&str> =
                lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
            let heading_op = if words.len() > 4 {
                None
            } else if words.iter().any(|w| *w == "write" || *w == "schreiben") {
                Some(Op::Write)
            } else if words.iter().any(|w| *w == "read" || *w == "lesen") {
                Some(Op::Read)
            } else {
                None
            };
            if let Some(new_op) = heading_op.filter(|o| *o != op) {
                // Rows so far were the other direction: they are a run of their own.
                if !run.is_empty() {
                    let next = run.next();
                    results.push(std::mem::replace(&mut run, next).result);
                }
                op = new_op;
            }
            continue;
        };

        let label = c[1].to_string();
        let value = c[2].trim();
        if run.labels.iter().any(|l| l.eq_ignore_ascii_case(&label)) {
            // The same row again: a second benchmark of the same drive.
            let next = run.next();
            results.push(std::mem::replace(&mut run, next).result);
        }
        run.labels.push(label.clone());

        let mut words = value.split_whitespace();
        let num_text = words.next().unwrap_or("");
        let unit = words.collect::<String>().to_ascii_lowercase();
        let lower_label = label.to_ascii_lowercase();

        if lower_label == "cpu usage" {
            let comment = format!("CPU Usage: {value}");
            run.result.comment = Some(match run.result.comment.take() {
                Some(c) => format!("{c}; {comment}"),
                None => comment,
            });
            continue;
        }

        let (num_text, unit) = match num_text.find(|c: char| c.is_alphabetic()) {
            // `0.4ms`, `449.1MB/sec`
            Some(i) if unit.is_empty() => (&num_text[..i], num_text[i..].to_ascii_lowercase()),
            _ => (num_text, unit),
        };
        let Some(v) = locale_number(num_text, decimal_comma) else {
            return Err(ParseError::at(
                Format::HdTune,
                line.no,
                "a number with MB/s or ms",
                format!("{:?}", truncate(text, 80)),
            ));
        };
        if v == 0.0 {
            run.result.not_run.push(label);
            continue;
        }

        let mut metric = Metric {
            label,
            access: Access::Seq,
            block_size: block,
            queue_depth: 1,
            threads: 1,
            op,
            mbps: None,
            iops: None,
            latency_us: None,
            mix_read_percent: None,
            stat: None,
            latency_percentiles: Vec::new(),
            latency_spread: None,
        };
        if lower_label == "access time" {
            let us = match unit.as_str() {
                "ms" | "" => rescale(v, 1000.0),
                "us" | "µs" => v,
                _ => return Err(unit_error(line.no, text, "ms")),
            };
            metric.access = Access::Rnd;
            metric.block_size = 512;
            metric.latency_us = Some(us);
        } else {
            let scale = match unit.trim_end_matches("ec") {
                "mb/s" | "" => 1.0,
                "gb/s" => 1000.0,
                "kb/s" => 0.001,
                _ => return Err(unit_error(line.no, text, "MB/s")),
            };
            metric.mbps = Some(rescale(v, scale));
            metric.stat = Some(match lower_label.as_str() {
                "transfer rate minimum" => Stat::Min,
                "transfer rate maximum" => Stat::Max,
                "transfer rate average" => Stat::Avg,
                _ => Stat::Burst,
            });
        }
        run.result.metrics.push(metric);
    }
    if !run.is_empty() {
        results.push(run.result);
    }
    results.retain(|r| !r.metrics.is_empty() || !r.not_run.is_empty());

    if results.is_empty() {
        return Err(ParseError::at(
            Format::HdTune,
            first_line.unwrap_or(1),
            "HD Tune rows (Transfer Rate, Access Time, Burst Rate)",
            "none",
        ));
    }
    if let Some(v) = printed_version {
        for r in &mut results {
            // A printed version beats a bare edition taken from the title.
            if r.tool_version.is_none() || r.tool_version.as_deref() == Some("Pro") {
                r.tool_version = Some(v.clone());
            }
        }
    }
    Ok(results)
}

fn unit_error(line: usize, text: &str, unit: &str) -> ParseError {
    ParseError::at(Format::HdTune, line, format!("a value in {unit}"), format!("{:?}", truncate(text, 80)))
}
