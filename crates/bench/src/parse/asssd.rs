//! AS SSD Benchmark: the text of its "copy results" (1.x and 2.x), English or German,
//! MB/s or IOPS mode, several drives per paste.
//!
//! ```text
//! AS SSD Benchmark 2.0.7316.34247
//! Name: Samsung SSD 970 EVO Plus 250GB
//! Firmware: 1B2QEXM7 / Controller: stornvme / Offset: ... / Size: 232.88 GB
//! Date: 2024/11/28 14:18:03
//! Sequential:    Read: 2863.65 MB/s   Write: 2127.69 MB/s
//! 4K:            Read: 49.57 MB/s     Write: 89.19 MB/s
//! 4K-64Threads:  (1.x: 4K-64Thrd:)
//! Access Times:  Read: 0.090 ms       Write: 0.046 ms   (1.x: Acc.time:)
//! Score:         Read: 1126  Write: 1368  Total: 3046
//! ```
//! (one value per line, sections separated by dash rules).
//!
//! Tests: Sequential = sequential 16 MiB, QD1, 1 thread; 4K = random 4 KiB QD1 T1;
//! 4K-64Thrd = random 4 KiB, QD1 in each of 64 threads; access time read = random 4 KiB
//! reads across the drive's whole span, write = random 512 B writes within a 1 GiB file
//! (latency, ms → µs; `stat: access`, a test of its own beside 4K's throughput). The
//! access-time method as AS SSD's author describes it ("der Lesezugriff über die gesamte
//! Kapazität der SSD … der Schreibzugriffstest … mit einer 1 GB großen Testdatei",
//! alex-is.de's program page, quoted at softwaredownloadweb.com/2023/06/05/as-ssd-benchmark-2-0-7316-herunterladen)
//! and as a second, independent account gives the block sizes ("random read total
//! address range in 4KB, write in 512B … to the reserved 1GB address range",
//! topic.alibabacloud.com/a/…ssd-detection-tool-as-ssd-parameters_8_8_31386554.html).
//!
//! Decisions:
//! * Labels are the section and the row as printed: `Sequential Read`, `4K-64Thrd Write`.
//! * Scores are AS SSD's own weighting, not measurements: they go into `comment` as
//!   `Score: Read 1126, Write 1368, Total 3046` and nowhere else.
//! * A row printed as zero or without a number (test deselected) goes to `not_run`.
//! * Target: `Name (Firmware, Controller, Size)` from whichever of those are printed.
//! * A new result starts at each `AS SSD Benchmark` title, or at a `Name:` line that
//!   follows results.

use super::common::{number, rescale, truncate, Format, ParseError};
use crate::model::{Access, BenchResult, FileFact, Metric, Op, Stat, Tool};
use crate::text::Document;

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Seq,
    K4,
    K4T64,
    Access,
    Score,
    /// A heading this parser does not know: its rows are skipped.
    Other,
}

#[derive(Default)]
struct Drive {
    line: usize,
    result: Option<BenchResult>,
    name: Option<String>,
    firmware: Option<String>,
    controller: Option<String>,
    size: Option<String>,
    scores: Vec<String>,
    facts: Vec<FileFact>,
}

impl Drive {
    fn result(&mut self) -> &mut BenchResult {
        self.result.get_or_insert_with(|| BenchResult::new(Tool::AsSsd))
    }

    fn has_rows(&self) -> bool {
        self.result.as_ref().is_some_and(|r| !r.metrics.is_empty() || !r.not_run.is_empty())
            || !self.scores.is_empty()
    }

    /// The result, if it measured anything (scores alone are not a result).
    fn finish(mut self) -> Option<BenchResult> {
        let measured = self.result.as_ref().is_some_and(|r| !r.metrics.is_empty() || !r.not_run.is_empty());
        if !measured {
            return None;
        }
        let details: Vec<String> = [self.firmware.take(), self.controller.take(), self.size.take()]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect();
        let target = match (self.name.take(), details.is_empty()) {
            (Some(name), true) => Some(name),
            (Some(name), false) => Some(format!("{name} ({})", details.join(", "))),
            (None, false) => Some(details.join(", ")),
            (None, true) => None,
        };
        let scores = std::mem::take(&mut self.scores);
        let mut result = self.result.take()?;
        result.target = target;
        result.facts = std::mem::take(&mut self.facts);
        if !scores.is_empty() {
            result.comment = Some(format!("Score: {}", scores.join(", ")));
        }
        Some(result)
    }
}

pub(super) fn parse(doc: &Document) -> Result<Vec<BenchResult>, ParseError> {
    let decimal_comma = uses_decimal_comma(doc);
    let mut results = Vec::new();
    let mut drive = Drive::default();
    let mut section: Option<(Section, String)> = None;
    let mut first_line = None;

    for line in doc.content_lines() {
        let text = line.text.as_str();
        if text.chars().all(|c| c == '-' || c == '=' || c == ' ') {
            continue;
        }
        first_line.get_or_insert(line.no);

        if let Some(rest) = strip_prefix_ci(text, "AS SSD Benchmark") {
            if drive.has_rows() {
                results.extend(std::mem::take(&mut drive).finish());
            }
            drive.line = line.no;
            let version = rest.trim_start_matches([':', ' ']).trim();
            if version.starts_with(|c: char| c.is_ascii_digit()) {
                drive.result().tool_version = Some(version.to_string());
            }
            section = None;
            continue;
        }

        let Some((key, value)) = text.split_once(':') else {
            continue;
        };
        let key = key.trim();
        let value = value.trim();
        let key_lower = key.to_ascii_lowercase();

        // A section heading: `Sequential:`, `4K-64Thrd:`, `Access Times:`, `Score:`.
        if value.is_empty() {
            if let Some(s) = section_of(&key_lower) {
                section = Some((s, key.to_string()));
            }
            continue;
        }

        match key_lower.as_str() {
            "name" => {
                if drive.has_rows() {
                    let version = drive.result.as_ref().and_then(|r| r.tool_version.clone());
                    results.extend(std::mem::take(&mut drive).finish());
                    // A second drive in the same paste, without its own title.
                    drive.result().tool_version = version;
                }
                drive.line = line.no;
                drive.name = Some(value.to_string());
                drive.facts.push(FileFact::at("model", value, line.no, text));
                section = None;
                continue;
            }
            "firmware" => {
                drive.firmware = Some(value.to_string());
                drive.facts.push(FileFact::at("firmware", value, line.no, text));
                continue;
            }
            "controller" => {
                // The Windows driver of the drive's controller (`stornvme`, `iaStorVD`,
                // `storahci`, `secnvme`), which AS SSD names "Controller".
                drive.controller = Some(value.to_string());
                drive.facts.push(FileFact::at("driver", value, line.no, text));
                continue;
            }
            "size" | "größe" | "groesse" => {
                drive.size = Some(value.to_string());
                // AS SSD prints binary gigabytes under "GB" (a 250 GB drive: `232.88 GB`).
                let gib = value.split_whitespace().next().and_then(|v| locale_number(v, decimal_comma));
                if let Some(gb) = gib.and_then(|g| crate::identity::marketed_gb((g * GIB) as u64)) {
                    drive.facts.push(FileFact::at("capacity_gb", gb.to_string(), line.no, text));
                }
                continue;
            }
            "date" | "datum" => {
                drive.result().date = Some(value.to_string());
                continue;
            }
            _ => {}
        }

        let Some((sect, heading)) = &section else {
            continue;
        };
        let op = match key_lower.as_str() {
            "read" | "lesen" => Some(Op::Read),
            "write" | "schreiben" => Some(Op::Write),
            _ => None,
        };

        if *sect == Section::Score {
            let num = value.split_whitespace().next().and_then(|v| locale_number(v, decimal_comma));
            if let Some(n) = num {
                drive.scores.push(format!("{key} {n}"));
            }
            continue;
        }
        if *sect == Section::Other {
            continue;
        }
        let Some(op) = op else { continue };

        let label = format!("{heading} {key}");
        let mut words = value.split_whitespace();
        let num_text = words.next().unwrap_or("");
        let unit = words.collect::<Vec<_>>().join(" ").to_ascii_lowercase();
        let Some(v) = locale_number(num_text, decimal_comma) else {
            if matches!(num_text, "-" | "--" | "---" | "n/a" | "N/A") {
                drive.result().not_run.push(label);
                continue;
            }
            return Err(ParseError::at(
                Format::AsSsd,
                line.no,
                "a number with MB/s, iops or ms",
                format!("{:?}", truncate(text, 80)),
            ));
        };
        if v == 0.0 {
            drive.result().not_run.push(label);
            continue;
        }

        let (access, block_size, threads) = match (sect, op) {
            (Section::Seq, _) => (Access::Seq, 16 * 1024 * 1024, 1),
            (Section::K4, _) => (Access::Rnd, 4096, 1),
            (Section::K4T64, _) => (Access::Rnd, 4096, 64),
            (Section::Access, Op::Read) => (Access::Rnd, 4096, 1),
            (Section::Access, _) => (Access::Rnd, 512, 1),
            _ => (Access::Rnd, 4096, 1),
        };
        let stat = (*sect == Section::Access).then_some(Stat::Access);
        let mut metric = Metric {
            label,
            access,
            block_size,
            queue_depth: 1,
            threads,
            op,
            mbps: None,
            iops: None,
            latency_us: None,
            mix_read_percent: None,
            stat,
            latency_percentiles: Vec::new(),
            latency_spread: None,
        };
        match unit.as_str() {
            "mb/s" | "mbps" | "mb/sec" => metric.mbps = Some(v),
            "iops" => metric.iops = Some(v),
            "ms" => metric.latency_us = Some(rescale(v, 1000.0)),
            "µs" | "us" => metric.latency_us = Some(v),
            // No unit: access times are in ms, everything else in MB/s.
            "" if *sect == Section::Access => metric.latency_us = Some(rescale(v, 1000.0)),
            "" => metric.mbps = Some(v),
            _ => {
                return Err(ParseError::at(
                    Format::AsSsd,
                    line.no,
                    "a value in MB/s, iops or ms",
                    format!("{:?}", truncate(text, 80)),
                ))
            }
        }
        drive.result().metrics.push(metric);
    }
    results.extend(drive.finish());

    if results.is_empty() {
        return Err(ParseError::at(
            Format::AsSsd,
            first_line.unwrap_or(1),
            "AS SSD result rows (Sequential, 4K, 4K-64Thrd, Access Times)",
            "none",
        ));
    }
    Ok(results)
}

fn section_of(heading: &str) -> Option<Section> {
    let h = heading.trim();
    Some(if matches!(h, "seq" | "sequential" | "sequentiell") {
        Section::Seq
    } else if h == "4k" {
        Section::K4
    } else if h.starts_with("4k-64") {
        Section::K4T64
    } else if h.starts_with("acc") || h.starts_with("zugriff") {
        Section::Access
    } else if matches!(h, "score" | "ergebnis" | "punkte" | "gesamt") {
        Section::Score
    } else {
        Section::Other
    })
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &s[prefix.len()..])
}

/// True when the values are printed with a decimal comma (`2863,65 MB/s`, `0,090 ms`).
/// The shared [`number`] reads `0,090` as 90 (a thousands group); in a decimal-comma
/// text it is 0.09.
pub(super) fn uses_decimal_comma(doc: &Document) -> bool {
    doc.content_lines().any(|l| {
        let value = match l.text.split_once(':') {
            Some((_, v)) => v.trim(),
            None => return false,
        };
        let first = value.split_whitespace().next().unwrap_or("");
        has_decimal_comma(first)
    })
}

/// `2863,65`, `1,5`, `0,090`: a comma that cannot be a thousands separator.
pub(super) fn has_decimal_comma(s: &str) -> bool {
    let Some((int, frac)) = s.split_once(',') else {
        return false;
    };
    !int.is_empty()
        && !frac.is_empty()
        && int.chars().all(|c| c.is_ascii_digit())
        && frac.chars().all(|c| c.is_ascii_digit())
        && (frac.len() != 3 || int == "0")
}

/// A printed number in the document's locale: with `decimal_comma`, `.` groups
/// thousands and `,` is the decimal point; otherwise the shared [`number`] rules.
pub(super) fn locale_number(s: &str, decimal_comma: bool) -> Option<f64> {
    if decimal_comma {
        number(&s.replace('.', "").replace(',', "."))
    } else {
        number(s)
    }
}
