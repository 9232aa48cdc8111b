//! Oracle ORION: the `<test>_summary.txt` file (10g/11g/12c+) and the console output of
//! 12c and later, several runs per paste.
//!
//! A summary starts at its version line (`ORION VERSION 11.1.0.7.0`, seen as well with
//! its first letter lost: `RION VERSION`, or `ORION: ORacle IO Numbers -- Version ...` on
//! the console) or, when that is missing, at its command line; it becomes one
//! [`BenchResult`] with up to three metrics:
//!
//! * `Maximum Large MBPS=255.88 @ Small=0 and Large=2`: large I/Os (random or
//!   sequential streams, from `IO Types`/`-type`), queue depth = the `Large` count;
//! * `Maximum Small IOPS=14741 @ Small=5 and Large=0`: small random I/Os, queue depth
//!   = the `Small` count;
//! * `Minimum Small Latency=0.33 @ Small=4 and Large=0`: small random I/Os; 11g prints
//!   milliseconds without a unit, later versions `usecs`.
//!
//! Decisions:
//! * ORION runs one process: threads are always 1. For sequential streams the `Large`
//!   count is the number of streams (each with `-num_streamIO` I/Os in flight); it is
//!   still recorded as the queue depth so that all ORION large-I/O numbers key alike.
//! * Without size lines or `-size_small`/`-size_large`, ORION's defaults apply (8 KiB
//!   small, 1 MiB large, random large I/O, 0% writes).
//! * The operation comes from `Write: N%` (or `-write N`): 0 → read, 100 → write,
//!   otherwise a mix with `mix_read_percent = 100 - N`.
//! * 12c+ prints `Small Read Latency: avg=... us ... @ Small=N and Large=M` after the
//!   IOPS line; when its point is the IOPS line's point, its mean becomes that metric's
//!   latency.
//! * Summaries without any result line (a failed start, a cut-off last summary) are
//!   dropped when other summaries have results; alone they are an error.

use super::{number, rescale, truncate, Format, ParseError};
use crate::model::{Access, BenchResult, Metric, Op, Tool};
use crate::re::Regex;
use crate::text::Document;
use std::sync::OnceLock;

const KIB: u64 = 1024;

#[derive(Default)]
struct Summary {
    /// First line of the summary, for errors.
    line: usize,
    header_seen: bool,
    version: Option<String>,
    run: Option<String>,
    date: Option<String>,
    small_kib: Option<u64>,
    large_kib: Option<u64>,
    large_access: Option<Access>,
    write_percent: Option<u8>,
    targets: Vec<String>,
    rows: Vec<Row>,
}

/// One result line, kept until the whole summary (its sizes, write share) is read.
struct Row {
    kind: Kind,
    label: String,
    value: f64,
    small: u32,
    large: u32,
    latency_us: Option<f64>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    LargeMbps,
    SmallIops,
    SmallLatency,
}

fn result_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^(Maximum Large MBPS|Maximum Small IOPS|Minimum Small Latency)[[:space:]]*=[[:space:]]*([0-9][0-9.,]*)[[:space:]]*([a-z]*)[[:space:]]*@[[:space:]]*Small[[:space:]]*=[[:space:]]*([0-9]+)[[:space:]]*and[[:space:]]*Large[[:space:]]*=[[:space:]]*([0-9]+)",
        )
        .unwrap()
    })
}

fn detail_latency() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^Small (Read|Write) Latency:[[:space:]]*avg[[:space:]]*=[[:space:]]*([0-9][0-9.,]*)[[:space:]]*(us|usecs|ms|msecs)(?-u:\b).*@[[:space:]]*Small[[:space:]]*=[[:space:]]*([0-9]+)[[:space:]]*and[[:space:]]*Large[[:space:]]*=[[:space:]]*([0-9]+)",
        )
        .unwrap()
    })
}

fn size_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)^(Small|Large) IO size:[[:space:]]*([0-9]+)[[:space:]]*(KB|K|MB|M)?(?-u:\b)")
            .unwrap()
    })
}

/// `testname_20211113_1809`, printed under the console version line.
fn run_stamp() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^[^[:space:]]*_([0-9]{4})([0-9]{2})([0-9]{2})_([0-9]{2})([0-9]{2})$").unwrap()
    })
}

pub(super) fn parse(doc: &Document) -> Result<Vec<BenchResult>, ParseError> {
    let mut summaries: Vec<Summary> = Vec::new();
    let mut cur = Summary::default();
    let mut last_header_line = None;

    for line in doc.content_lines() {
        // Markdown emphasis pasted around numbers (`***MBPS=867.73***`).
        let text = line.text.replace('*', "");
        let text = text.trim();
        let lower = text.to_ascii_lowercase();

        if let Some(version) = header_version(text) {
            if cur.header_seen || !cur.rows.is_empty() {
                summaries.push(std::mem::take(&mut cur));
            }
            if cur.line == 0 {
                cur.line = line.no;
            }
            cur.header_seen = true;
            cur.version = version;
            last_header_line = Some(line.no);
            continue;
        }

        if is_command_line(text) {
            // A command after results belongs to the next run.
            if !cur.rows.is_empty() {
                summaries.push(std::mem::take(&mut cur));
            }
            if cur.line == 0 {
                cur.line = line.no;
            }
            apply_command(&mut cur, text);
            continue;
        }

        if let Some(c) = result_line().captures(text) {
            let kind = match c[1].to_ascii_lowercase().as_str() {
                "maximum large mbps" => Kind::LargeMbps,
                "maximum small iops" => Kind::SmallIops,
                _ => Kind::SmallLatency,
            };
            let value = number(&c[2]).ok_or_else(|| {
                ParseError::at(
                    Format::Orion,
                    line.no,
                    "a number after '='",
                    format!("{:?}", truncate(text, 80)),
                )
            })?;
            let unit = c[3].to_ascii_lowercase();
            let value = match (kind, unit.as_str()) {
                (Kind::SmallLatency, "us" | "usec" | "usecs") => value,
                // 11g: milliseconds, no unit.
                (Kind::SmallLatency, "" | "ms" | "msec" | "msecs") => rescale(value, 1000.0),
                (Kind::SmallLatency, _) => {
                    return Err(ParseError::at(
                        Format::Orion,
                        line.no,
                        "a latency in usecs or ms",
                        format!("{:?}", truncate(text, 80)),
                    ))
                }
                _ => value,
            };
            let (Some(small), Some(large)) = (c[4].parse().ok(), c[5].parse().ok()) else {
                return Err(ParseError::at(
                    Format::Orion,
                    line.no,
                    "outstanding I/O counts",
                    format!("{:?}", truncate(text, 80)),
                ));
            };
            if cur.line == 0 {
                cur.line = line.no;
            }
            cur.rows.push(Row { kind, label: c[1].to_string(), value, small, large, latency_us: None });
            continue;
        }
        if lower.starts_with("maximum large mbps")
            || lower.starts_with("maximum small iops")
            || lower.starts_with("minimum small latency")
        {
            return Err(ParseError::at(
                Format::Orion,
                line.no,
                "'<name>=<number> @ Small=<n> and Large=<n>'",
                format!("{:?}", truncate(text, 80)),
            ));
        }

        if let Some(c) = detail_latency().captures(text) {
            let scale = if c[3].to_ascii_lowercase().starts_with('m') { 1000.0 } else { 1.0 };
            let avg = number(&c[2]).map(|v| rescale(v, scale));
            let point = (c[4].parse::<u32>().ok(), c[5].parse::<u32>().ok());
            let read = c[1].eq_ignore_ascii_case("read");
            let write_percent = cur.write_percent.unwrap_or(0);
            // Only a pure-read or pure-write run has one latency per point.
            let matches_op = (read && write_percent == 0) || (!read && write_percent == 100);
            if let (Some(avg), Some(row)) = (avg, cur.rows.last_mut()) {
                if row.kind == Kind::SmallIops
                    && matches_op
                    && row.latency_us.is_none()
                    && point == (Some(row.small), Some(row.large))
                {
                    row.latency_us = Some(avg);
                }
            }
            continue;
        }

        if let Some(c) = size_line().captures(text) {
            let kib = c[2].parse::<u64>().ok().map(|v| match c.get(3) {
                Some(u) if u.as_str().to_ascii_uppercase().starts_with('M') => v * 1024,
                _ => v,
            });
            if c[1].eq_ignore_ascii_case("small") {
                cur.small_kib = kib;
            } else {
                cur.large_kib = kib;
            }
            continue;
        }
        if lower.starts_with("io types:") {
            if let Some(access) = large_access_from_types(&lower) {
                cur.large_access = Some(access);
            }
            continue;
        }
        if let Some(rest) = lower.strip_prefix("writes:").or_else(|| lower.strip_prefix("write:")) {
            cur.write_percent = percent(rest);
            continue;
        }
        if let Some(rest) = text.strip_prefix("Name:") {
            // `Name: /dev/vdc Size: 751619276800` (the separator may be a tab).
            let name = match rest.find("Size:") {
                Some(i) => &rest[..i],
                None => rest,
            };
            let name = name.trim();
            if !name.is_empty() && !cur.targets.iter().any(|t| t == name) {
                cur.targets.push(name.to_string());
            }
            continue;
        }
        if cur.date.is_none() && last_header_line.is_some_and(|h| h + 3 > line.no) {
            if let Some(c) = run_stamp().captures(text) {
                cur.date = Some(format!("{}-{}-{} {}:{}", &c[1], &c[2], &c[3], &c[4], &c[5]));
            }
        }
        // Everything else (`Small Columns:, 0`, `Total Data Points: 8`, histograms,
        // `Calibration will take ...`) carries nothing SSDBase records.
    }
    summaries.push(cur);

    let first_line = summaries.iter().map(|s| s.line).find(|&l| l > 0);
    let results: Vec<BenchResult> =
        summaries.into_iter().filter(|s| !s.rows.is_empty()).map(into_result).collect();
    if results.is_empty() {
        let expected =
            "an ORION result line (Maximum Large MBPS, Maximum Small IOPS or Minimum Small Latency)";
        return Err(match first_line {
            Some(l) => ParseError::at(Format::Orion, l, expected, "a summary without results"),
            None => ParseError::whole(Some(Format::Orion), expected, "none"),
        });
    }
    Ok(results)
}

/// `Some(version)` for a summary's first line.
fn header_version(text: &str) -> Option<Option<String>> {
    let upper = text.to_ascii_uppercase();
    let tail = if let Some(i) = upper.find("RION VERSION") {
        // Only at the start (`ORION VERSION`, or `RION VERSION` with the O lost).
        if i > 1 {
            return None;
        }
        &text[i + "RION VERSION".len()..]
    } else if let Some(i) = upper.find("ORACLE IO NUMBERS") {
        let rest = &text[i + "ORACLE IO NUMBERS".len()..];
        match rest.to_ascii_lowercase().find("version") {
            Some(j) => &rest[j + "version".len()..],
            None => "",
        }
    } else {
        return None;
    };
    let version = tail.trim_start_matches([' ', ':', '-']).trim();
    Some((!version.is_empty()).then(|| version.to_string()))
}

/// An ORION command line: `-run simple`, `./orion -run oltp -write 50 ...`.
fn is_command_line(text: &str) -> bool {
    text.split_whitespace().any(|t| t == "-run")
}

fn apply_command(s: &mut Summary, text: &str) {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    for pair in tokens.windows(2) {
        let value = pair[1];
        match pair[0] {
            "-run" => s.run = Some(value.to_string()),
            "-size_small" => s.small_kib = value.parse().ok().or(s.small_kib),
            "-size_large" => s.large_kib = value.parse().ok().or(s.large_kib),
            "-write" => s.write_percent = percent(value).or(s.write_percent),
            "-type" => match value.to_ascii_lowercase().as_str() {
                "seq" => s.large_access = Some(Access::Seq),
                "rand" => s.large_access = Some(Access::Rnd),
                _ => {}
            },
            _ => {}
        }
    }
}

/// `io types: small random ios, large sequential streams` → the large I/O pattern.
fn large_access_from_types(lower: &str) -> Option<Access> {
    let large = lower.split(',').find(|p| p.contains("large"))?;
    if large.contains("seq") {
        Some(Access::Seq)
    } else if large.contains("rand") {
        Some(Access::Rnd)
    } else {
        None
    }
}

fn percent(s: &str) -> Option<u8> {
    let v = number(s.trim().trim_end_matches('%'))?;
    (0.0..=100.0).contains(&v).then(|| v.round() as u8)
}

fn into_result(s: Summary) -> BenchResult {
    let mut r = BenchResult::new(Tool::Orion);
    r.tool_version = s.version;
    r.profile = s.run;
    r.date = s.date;
    if !s.targets.is_empty() {
        r.target = Some(s.targets.join(", "));
    }
    let write = s.write_percent.unwrap_or(0);
    let (op, mix_read_percent) = match write {
        0 => (Op::Read, None),
        100 => (Op::Write, None),
        w => (Op::Mix, Some(100 - w)),
    };
    let small = s.small_kib.unwrap_or(8).max(1) * KIB;
    let large = s.large_kib.unwrap_or(1024).max(1) * KIB;
    for row in s.rows {
        let metric = |access, block_size, queue_depth: u32| Metric {
            label: row.label.clone(),
            access,
            block_size,
            queue_depth: queue_depth.max(1),
            threads: 1,
            op,
            mbps: None,
            iops: None,
            latency_us: None,
            mix_read_percent,
            stat: None,
            latency_percentiles: Vec::new(),
        };
        let m = match row.kind {
            Kind::LargeMbps => Metric {
                mbps: Some(row.value),
                ..metric(s.large_access.unwrap_or(Access::Rnd), large, row.large)
            },
            Kind::SmallIops => Metric {
                iops: Some(row.value),
                latency_us: row.latency_us,
                ..metric(Access::Rnd, small, row.small)
            },
            Kind::SmallLatency => {
                Metric { latency_us: Some(row.value), ..metric(Access::Rnd, small, row.small) }
            }
        };
        r.metrics.push(m);
    }
    r
}
