//! Oracle ORION: the `<test>_summary.txt` file (10g/11g/12c+), the console output of
//! 12c and later, several runs per paste, and the matrix files `<test>_iops.csv`,
//! `_mbps.csv` and `_lat.csv` with every load point of a run (see below).
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
//! * 12c+ prints `min=`, `max=` and `std dev=` in those detail lines: they are the
//!   metric's latency spread, and the maximum joins its latency percentiles as the 100th
//!   (every I/O completed within it).
//! * 12c+ prints a `Small Read / Write Latency Histogram @ Small=N and Large=M`: buckets
//!   (`64 - 128 us: 1112243 ( 91.12%)`) with their counts and the running share of I/Os.
//!   Each bucket's upper edge with the share ORION printed for it becomes a percentile
//!   of the metric at that point (`91.12 % within 128 µs`), from the read column for a
//!   read run and the write column for a write run (a mix has no single column). Shares
//!   printed as 0.00 % or 100.00 % are rounding, not statements, and are left out; the
//!   100th percentile is the detail line's maximum. The shares are not the round ones
//!   (99, 99.9) fio prints, so `percentile_at(.., 99.0)` finds them only by chance: a
//!   bucket says only that the 99th percentile lies within it. The buckets themselves,
//!   with their counts, are the spread's histogram (a mix counts both columns: every I/O
//!   of its test), from which [`crate::LatencySpread::bucket_of_percentile`] finds any
//!   percentile's bucket.
//!
//! ## The matrix files: `<test>_iops.csv`, `<test>_mbps.csv`, `<test>_lat.csv`
//!
//! ORION 10g/11g writes every load point it ran as a matrix, one file per measure:
//!
//! ```text
//! Large/Small,      1,      2,      3,      4,      5
//!           0,   2302,   4398,   5450,   6006,   6210
//!           1
//! ```
//!
//! The first line names the columns (outstanding small I/Os), each further line starts
//! with its row's outstanding large I/Os and has one value per column it ran; a row
//! without values was not run. Decisions:
//! * The measure is in the file's name only. It is taken from, in this order: a line
//!   before the matrix naming such a file (`cat mytest_iops.csv` in a pasted console), the
//!   name the input was uploaded under ([`super::parse_str_named`]), and the matrix
//!   itself: values in the `Small = 0` column are large-I/O MB/s (IOPS and latency are
//!   small-I/O measures; `_mbps.csv` is the only file with that column). A matrix of
//!   small-I/O values alone could be IOPS or latencies: an error says so and asks for
//!   the name.
//! * Points on the `Large = 0` row are small random I/Os (block = the small size, 8 KiB
//!   unless a summary above says otherwise), queue depth = the `Small` count; points in
//!   the `Small = 0` column are large I/Os (1 MiB random unless stated), queue depth = the
//!   `Large` count, as for the summary's result lines. Threads are 1.
//! * Interior points (both counts > 0) are a mixed load: small I/Os under a background of
//!   large ones. A metric has no field for the background (such a point would share its
//!   test key with the pure point of the same count), so they are the result's
//!   `mixed_loads`, each with the figure of each matrix file: kept and shown, never
//!   compared.
//! * The files of one run, pasted or uploaded together, become one result: each point
//!   one metric, with the IOPS, latency and MB/s that the files give for it. A second
//!   file of a measure already read starts the next result.
//! * Settings (sizes, write share, large I/O pattern, version, run, date) come from the
//!   summary or console banner above the matrix when there is one, else ORION's
//!   defaults.
//! * `_lat.csv` of 11g holds milliseconds (the real 11.1.0.7 file's 0.43 at one small
//!   I/O, beside a summary printing `Minimum Small Latency=0.33` in ms); later versions
//!   say `microseconds` in the file's header, which is then followed.
//! * A value that cannot be (MB/s where no large I/O ran, IOPS or latency where no small
//!   I/O ran), a cell that is no number, a row with more values than columns: an error
//!   naming the line.

use super::common::{number, rescale, truncate, Format, ParseError};
use crate::model::{
    Access, BenchResult, LatencyBucket, LatencyPercentile, LatencySpread, Metric, MixedLoad, Op, Tool,
};
use crate::re::Regex;
use crate::text::Document;
use std::sync::OnceLock;

const KIB: u64 = 1024;

#[derive(Default, Clone)]
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
    histogram: Option<Histogram>,
}

/// One result line, kept until the whole summary (its sizes, write share) is read.
#[derive(Clone)]
struct Row {
    kind: Kind,
    label: String,
    value: f64,
    small: u32,
    large: u32,
    latency_us: Option<f64>,
    /// The detail line's `min=`, `max=` and `std dev=`, µs.
    min_us: Option<f64>,
    max_us: Option<f64>,
    stddev_us: Option<f64>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    LargeMbps,
    SmallIops,
    SmallLatency,
}

/// `Small Read / Write Latency Histogram @ Small=2 and Large=0` and its buckets.
#[derive(Clone)]
struct Histogram {
    small: u32,
    large: u32,
    buckets: Vec<Bucket>,
}

#[derive(Clone)]
struct Bucket {
    /// Edges, µs.
    lower_us: f64,
    upper_us: f64,
    /// The I/Os counted in it, reads and writes.
    reads: u64,
    writes: u64,
    /// The running share of I/Os ORION printed, reads and writes.
    read_percent: f64,
    write_percent: f64,
}

/// What one matrix file holds; only its name says so for sure.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Measure {
    Iops,
    Mbps,
    Latency,
}

impl Measure {
    /// From a file name or a bare hint: `mytest_20190329_1057_iops.csv`, `lat`, `mbps.csv`.
    fn from_name(name: &str) -> Option<Measure> {
        let name = name.trim().to_ascii_lowercase();
        let name = name.rsplit(['/', '\\']).next().unwrap_or("");
        let stem = name.strip_suffix(".csv").unwrap_or(name);
        [("iops", Measure::Iops), ("mbps", Measure::Mbps), ("lat", Measure::Latency)]
            .into_iter()
            .find_map(|(suffix, m)| (stem == suffix || stem.ends_with(&format!("_{suffix}"))).then_some(m))
    }

    fn name(self) -> &'static str {
        match self {
            Measure::Iops => "IOPS",
            Measure::Mbps => "MB/s",
            Measure::Latency => "latency",
        }
    }
}

/// The last matrix file a line names (`cat mytest_20190329_1057_iops.csv`).
fn measure_named_in(text: &str) -> Option<Measure> {
    text.split_whitespace()
        .filter(|t| t.to_ascii_lowercase().ends_with(".csv"))
        .filter_map(Measure::from_name)
        .next_back()
}

/// A matrix being read: its header and the values of its rows.
struct Matrix {
    line: usize,
    /// Named by a line above it.
    measure: Option<Measure>,
    /// Its header said `microseconds`.
    micro: bool,
    columns: Vec<u32>,
    /// (large, small, value, line)
    cells: Vec<(u32, u32, f64, usize)>,
}

/// The matrix files of one run, merged point by point.
struct MatrixRun {
    line: usize,
    settings: Summary,
    measures: Vec<Measure>,
    points: Vec<Point>,
}

struct Point {
    large: u32,
    small: u32,
    iops: Option<f64>,
    mbps: Option<f64>,
    latency_us: Option<f64>,
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

/// `min=128.415 us`, `max=1924.721 us`, `std dev=13.566 us` within a detail line.
fn detail_spread() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)(?-u:\b)(min|max|std[[:space:]]*dev)[[:space:]]*=[[:space:]]*([0-9][0-9.,]*)[[:space:]]*(us|usecs|ms|msecs)(?-u:\b)",
        )
        .unwrap()
    })
}

fn histogram_header() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^Small Read[[:space:]]*/[[:space:]]*Write Latency Histogram[[:space:]]*@[[:space:]]*Small[[:space:]]*=[[:space:]]*([0-9]+)[[:space:]]*and[[:space:]]*Large[[:space:]]*=[[:space:]]*([0-9]+)",
        )
        .unwrap()
    })
}

/// `64 - 128 us: 1112243 ( 91.12%) 0 ( 0.00%)`: edges, then reads and writes, each a
/// count with the running share.
fn histogram_bucket() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)^([0-9]+)[[:space:]]*-[[:space:]]*([0-9]+)[[:space:]]*(us|ms)[[:space:]]*:[[:space:]]*([0-9]+)[[:space:]]*\([[:space:]]*([0-9][0-9.]*)[[:space:]]*%[[:space:]]*\)[[:space:]]*([0-9]+)[[:space:]]*\([[:space:]]*([0-9][0-9.]*)[[:space:]]*%[[:space:]]*\)",
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

/// A matrix file's first line: `Large/Small,      1,      2, ...`.
fn is_matrix_header(text: &str) -> bool {
    let mut fields = text.split(',');
    fields.next().is_some_and(|f| f.trim().eq_ignore_ascii_case("Large/Small"))
        && fields.next().is_some_and(|f| f.trim().parse::<u32>().is_ok())
}

/// Whether a document holds an ORION matrix (for format detection).
pub(super) fn has_matrix(doc: &Document) -> bool {
    doc.content_lines().any(|l| is_matrix_header(&l.text))
}

/// `name`, when given, is what the input was uploaded as: a matrix file's name says what
/// it holds.
pub(super) fn parse(doc: &Document, name: Option<&str>) -> Result<Vec<BenchResult>, ParseError> {
    let hint = name.and_then(Measure::from_name);
    let mut summaries: Vec<Summary> = Vec::new();
    let mut cur = Summary::default();
    let mut last_header_line = None;
    let mut matrix: Option<Matrix> = None;
    let mut runs: Vec<MatrixRun> = Vec::new();
    // What the lines since the last matrix said about the next one.
    let mut named: Option<Measure> = None;
    let mut micro = false;

    for line in doc.content_lines() {
        // Markdown emphasis pasted around numbers (`***MBPS=867.73***`).
        let text = line.text.replace('*', "");
        let text = text.trim();
        let lower = text.to_ascii_lowercase();

        if let Some(m) = matrix.as_mut() {
            if is_matrix_row(text) {
                matrix_row(m, text, line.no)?;
                continue;
            }
            if let Some(m) = matrix.take() {
                finish_matrix(m, hint, &cur, &mut runs)?;
            }
        }
        if is_matrix_header(text) {
            matrix = Some(matrix_header(text, line.no, named.take(), std::mem::take(&mut micro))?);
            continue;
        }
        if let Some(m) = measure_named_in(text) {
            named = Some(m);
        }
        if lower.contains("microseconds") {
            micro = true;
        }

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
            cur.rows.push(Row {
                kind,
                label: c[1].to_string(),
                value,
                small,
                large,
                latency_us: None,
                min_us: None,
                max_us: None,
                stddev_us: None,
            });
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
            let (mut min, mut max, mut stddev) = (None, None, None);
            for m in detail_spread().captures_iter(text) {
                let scale = if m[3].to_ascii_lowercase().starts_with('m') { 1000.0 } else { 1.0 };
                let value = number(&m[2]).map(|v| rescale(v, scale));
                match m[1].to_ascii_lowercase().as_str() {
                    "min" => min = min.or(value),
                    "max" => max = max.or(value),
                    _ => stddev = stddev.or(value),
                }
            }
            let point = (c[4].parse::<u32>().ok(), c[5].parse::<u32>().ok());
            let read = c[1].eq_ignore_ascii_case("read");
            let write_percent = cur.write_percent.unwrap_or(0);
            // Only a pure-read or pure-write run has one latency per point.
            let matches_op = (read && write_percent == 0) || (!read && write_percent == 100);
            if let Some(row) = cur.rows.last_mut() {
                if matches_op && point == (Some(row.small), Some(row.large)) && row.kind != Kind::LargeMbps {
                    if row.kind == Kind::SmallIops && row.latency_us.is_none() {
                        row.latency_us = avg;
                    }
                    if row.max_us.is_none() {
                        (row.min_us, row.max_us, row.stddev_us) = (min, max, stddev);
                    }
                }
            }
            continue;
        }

        if let Some(c) = histogram_header().captures(text) {
            if let (Ok(small), Ok(large)) = (c[1].parse(), c[2].parse()) {
                cur.histogram = Some(Histogram { small, large, buckets: Vec::new() });
            }
            continue;
        }
        if let Some(c) = histogram_bucket().captures(text) {
            let (lower, upper) = (number(&c[1]), number(&c[2]));
            let (reads, writes) = (c[4].parse::<u64>().ok(), c[6].parse::<u64>().ok());
            let (read_percent, write_percent) = (number(&c[5]), number(&c[7]));
            let (
                Some(lower),
                Some(upper),
                Some(reads),
                Some(writes),
                Some(read_percent),
                Some(write_percent),
            ) = (lower, upper, reads, writes, read_percent, write_percent)
            else {
                return Err(ParseError::at(
                    Format::Orion,
                    line.no,
                    "'<from> - <to> us: <count> (<share>%) <count> (<share>%)'",
                    format!("{:?}", truncate(text, 80)),
                ));
            };
            let scale = if c[3].eq_ignore_ascii_case("ms") { 1000.0 } else { 1.0 };
            if let Some(h) = cur.histogram.as_mut() {
                h.buckets.push(Bucket {
                    lower_us: rescale(lower, scale),
                    upper_us: rescale(upper, scale),
                    reads,
                    writes,
                    read_percent,
                    write_percent,
                });
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
        // Everything else (`Small Columns:, 0`, `Total Data Points: 8`, the histogram's
        // column titles, `Calibration will take ...`) carries nothing SSDBase records.
    }
    if let Some(m) = matrix.take() {
        finish_matrix(m, hint, &cur, &mut runs)?;
    }
    summaries.push(cur);

    let first_line = summaries.iter().map(|s| s.line).find(|&l| l > 0);
    let mut results: Vec<(usize, BenchResult)> =
        summaries.into_iter().filter(|s| !s.rows.is_empty()).map(|s| (s.line, into_result(s))).collect();
    results.extend(runs.into_iter().filter(|r| !r.points.is_empty()).map(|r| (r.line, run_result(r))));
    // In the order they were printed.
    results.sort_by_key(|(line, _)| *line);
    if results.is_empty() {
        let expected = "an ORION result line (Maximum Large MBPS, Maximum Small IOPS or Minimum Small Latency) or a matrix value";
        return Err(match first_line {
            Some(l) => ParseError::at(Format::Orion, l, expected, "a summary without results"),
            None => ParseError::whole(Some(Format::Orion), expected, "none"),
        });
    }
    Ok(results.into_iter().map(|(_, r)| r).collect())
}

fn matrix_header(
    text: &str,
    line: usize,
    measure: Option<Measure>,
    micro: bool,
) -> Result<Matrix, ParseError> {
    let mut columns = Vec::new();
    for field in text.split(',').skip(1).map(str::trim) {
        // A trailing comma leaves an empty field.
        if field.is_empty() {
            continue;
        }
        let Ok(small) = field.parse::<u32>() else {
            return Err(ParseError::at(
                Format::Orion,
                line,
                "outstanding small I/O counts after 'Large/Small,'",
                format!("{:?}", truncate(field, 40)),
            ));
        };
        columns.push(small);
    }
    Ok(Matrix { line, measure, micro, columns, cells: Vec::new() })
}

/// A matrix row starts with its `Large` count: a lone number, or a digit and a comma
/// (which is then a row, however garbled). Anything else ends the matrix.
fn is_matrix_row(text: &str) -> bool {
    let first = text.split(',').next().unwrap_or("").trim();
    (!first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()))
        || (text.starts_with(|c: char| c.is_ascii_digit()) && text.contains(','))
}

fn matrix_row(m: &mut Matrix, text: &str, line: usize) -> Result<(), ParseError> {
    let mut fields = text.split(',').map(str::trim);
    let first = fields.next().unwrap_or("");
    let Ok(large) = first.parse::<u32>() else {
        return Err(ParseError::at(
            Format::Orion,
            line,
            "a matrix row starting with its outstanding large I/O count",
            format!("{:?}", truncate(text, 80)),
        ));
    };
    for (i, field) in fields.enumerate() {
        // Not run at this point.
        if field.is_empty() {
            continue;
        }
        let Some(&small) = m.columns.get(i) else {
            return Err(ParseError::at(
                Format::Orion,
                line,
                format!("at most {} values, one per column of line {}", m.columns.len(), m.line),
                format!("{:?}", truncate(text, 80)),
            ));
        };
        let Some(value) = number(field) else {
            return Err(ParseError::at(
                Format::Orion,
                line,
                format!("a number at Small={small} and Large={large}"),
                format!("{:?}", truncate(field, 40)),
            ));
        };
        m.cells.push((large, small, value, line));
    }
    Ok(())
}

/// Decides what a finished matrix holds and merges its pure points into the run.
fn finish_matrix(
    m: Matrix,
    hint: Option<Measure>,
    settings: &Summary,
    runs: &mut Vec<MatrixRun>,
) -> Result<(), ParseError> {
    if m.cells.is_empty() {
        return Ok(());
    }
    // Only `_mbps.csv` has values where no small I/O ran.
    let structural = m.cells.iter().any(|c| c.1 == 0).then_some(Measure::Mbps);
    let Some(measure) = m.measure.or(hint).or(structural) else {
        return Err(ParseError::at(
            Format::Orion,
            m.line,
            "a matrix named by its file (<test>_iops.csv, <test>_lat.csv or <test>_mbps.csv): \
             small-I/O values alone may be IOPS or latencies",
            "a matrix without a name; give the file name",
        ));
    };
    for &(large, small, value, line) in &m.cells {
        let impossible = match measure {
            Measure::Mbps => large == 0,
            Measure::Iops | Measure::Latency => small == 0,
        };
        if impossible {
            let (needs, count) =
                if measure == Measure::Mbps { ("large", "Large") } else { ("small", "Small") };
            return Err(ParseError::at(
                Format::Orion,
                line,
                format!("{} only where {needs} I/Os ran ({count} > 0)", measure.name()),
                format!("{value} at Small={small} and Large={large}"),
            ));
        }
    }
    let new_run = match runs.last() {
        Some(run) => run.measures.contains(&measure),
        None => true,
    };
    if new_run {
        let mut settings = settings.clone();
        settings.rows.clear();
        settings.histogram = None;
        runs.push(MatrixRun { line: m.line, settings, measures: Vec::new(), points: Vec::new() });
    }
    let Some(run) = runs.last_mut() else { return Ok(()) };
    run.measures.push(measure);
    for (large, small, value, line) in m.cells {
        let value = match measure {
            Measure::Latency if !m.micro => rescale(value, 1000.0),
            _ => value,
        };
        let i = match run.points.iter().position(|p| p.large == large && p.small == small) {
            Some(i) => i,
            None => {
                run.points.push(Point { large, small, iops: None, mbps: None, latency_us: None });
                run.points.len() - 1
            }
        };
        let Some(p) = run.points.get_mut(i) else { continue };
        let slot = match measure {
            Measure::Iops => &mut p.iops,
            Measure::Mbps => &mut p.mbps,
            Measure::Latency => &mut p.latency_us,
        };
        if slot.is_some() {
            return Err(ParseError::at(
                Format::Orion,
                line,
                format!("one value per point (a column of line {} repeats)", m.line),
                format!("a second value at Small={small} and Large={large}"),
            ));
        }
        *slot = Some(value);
    }
    Ok(())
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

/// What every result of a summary's settings shares: the result, the operation and mix,
/// the small and large block sizes.
fn base_result(s: &Summary) -> (BenchResult, Op, Option<u8>, u64, u64) {
    let mut r = BenchResult::new(Tool::Orion);
    r.tool_version = s.version.clone();
    r.profile = s.run.clone();
    r.date = s.date.clone();
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
    (r, op, mix_read_percent, small, large)
}

fn metric(
    label: String,
    access: Access,
    block_size: u64,
    queue_depth: u32,
    op: Op,
    mix: Option<u8>,
) -> Metric {
    Metric {
        label,
        access,
        block_size,
        queue_depth: queue_depth.max(1),
        threads: 1,
        op,
        mbps: None,
        iops: None,
        latency_us: None,
        mix_read_percent: mix,
        stat: None,
        latency_percentiles: Vec::new(),
        latency_spread: None,
    }
}

/// The histogram's statements for one operation, then the maximum as the 100th percentile.
fn percentiles(histogram: Option<&Histogram>, op: Op, max_us: Option<f64>) -> Vec<LatencyPercentile> {
    let mut out: Vec<LatencyPercentile> = Vec::new();
    for b in histogram.map(|h| h.buckets.as_slice()).unwrap_or(&[]) {
        let percent = match op {
            Op::Read => b.read_percent,
            Op::Write => b.write_percent,
            _ => continue,
        };
        // 0.00 % and 100.00 % are rounded; a share already stated at a lower edge says
        // nothing new.
        if percent <= 0.0 || percent >= 100.0 || out.last().is_some_and(|p| p.percent >= percent) {
            continue;
        }
        out.push(LatencyPercentile { percent, us: b.upper_us });
    }
    if let Some(max) = max_us {
        out.push(LatencyPercentile { percent: 100.0, us: max });
    }
    out
}

/// The detail line's spread with the histogram's counts: a read run's reads, a write
/// run's writes, a mix's both (every I/O of its test).
fn spread(histogram: Option<&Histogram>, op: Op, row: &Row) -> Option<LatencySpread> {
    let histogram: Vec<LatencyBucket> = histogram
        .map(|h| h.buckets.as_slice())
        .unwrap_or(&[])
        .iter()
        .map(|b| LatencyBucket {
            from_us: b.lower_us,
            to_us: b.upper_us,
            count: match op {
                Op::Read => b.reads,
                Op::Write => b.writes,
                _ => b.reads + b.writes,
            },
        })
        .collect();
    let spread =
        LatencySpread { min_us: row.min_us, max_us: row.max_us, stddev_us: row.stddev_us, histogram };
    (spread != LatencySpread::default()).then_some(spread)
}

fn into_result(s: Summary) -> BenchResult {
    let (mut r, op, mix_read_percent, small, large) = base_result(&s);
    // The histogram belongs to the last small-I/O line printed for its point.
    let histogram_row = s.histogram.as_ref().and_then(|h| {
        s.rows
            .iter()
            .rposition(|row| row.kind != Kind::LargeMbps && row.small == h.small && row.large == h.large)
    });
    for (i, row) in s.rows.iter().enumerate() {
        let m = |access, block_size, queue_depth| {
            metric(row.label.clone(), access, block_size, queue_depth, op, mix_read_percent)
        };
        let histogram = if histogram_row == Some(i) { s.histogram.as_ref() } else { None };
        let m = match row.kind {
            Kind::LargeMbps => {
                Metric { mbps: Some(row.value), ..m(s.large_access.unwrap_or(Access::Rnd), large, row.large) }
            }
            Kind::SmallIops => Metric {
                iops: Some(row.value),
                latency_us: row.latency_us,
                latency_percentiles: percentiles(histogram, op, row.max_us),
                latency_spread: spread(histogram, op, row),
                ..m(Access::Rnd, small, row.small)
            },
            Kind::SmallLatency => Metric {
                latency_us: Some(row.value),
                latency_percentiles: percentiles(histogram, op, row.max_us),
                latency_spread: spread(histogram, op, row),
                ..m(Access::Rnd, small, row.small)
            },
        };
        // The smallest latency and the most IOPS at the same point are one test's
        // figures: one metric (two would be the same test twice, which a result cannot
        // hold). The IOPS line's own latency, when 12c+ printed one, is kept.
        let same_point = r.metrics.iter_mut().find(|o| {
            o.access == m.access
                && o.block_size == m.block_size
                && o.queue_depth == m.queue_depth
                && o.op == m.op
        });
        match same_point {
            Some(other) => {
                other.iops = other.iops.or(m.iops);
                other.latency_us = other.latency_us.or(m.latency_us);
                if other.latency_percentiles.is_empty() {
                    other.latency_percentiles = m.latency_percentiles;
                }
                if other.latency_spread.is_none() {
                    other.latency_spread = m.latency_spread;
                }
                other.label = format!("{} / {}", other.label, m.label);
            }
            None => r.metrics.push(m),
        }
    }
    r
}

/// A run's matrix points, fewest outstanding I/Os first: the small I/Os of the
/// `Large = 0` row, then the large I/Os of the `Small = 0` column.
fn run_result(mut run: MatrixRun) -> BenchResult {
    let (mut r, op, mix_read_percent, small, large) = base_result(&run.settings);
    run.points.sort_by_key(|p| (p.small == 0, p.large, p.small));
    // Mixed points (both counts > 0; see the module doc), by large then small count.
    let (mixed, pure): (Vec<Point>, Vec<Point>) =
        run.points.into_iter().partition(|p| p.large > 0 && p.small > 0);
    r.mixed_loads = mixed
        .into_iter()
        .map(|p| MixedLoad {
            small: p.small,
            large: p.large,
            small_iops: p.iops,
            small_latency_us: p.latency_us,
            large_mbps: p.mbps,
        })
        .collect();
    for p in pure {
        let label = format!("Small={} and Large={}", p.small, p.large);
        let m = if p.large == 0 {
            metric(label, Access::Rnd, small, p.small, op, mix_read_percent)
        } else {
            metric(
                label,
                run.settings.large_access.unwrap_or(Access::Rnd),
                large,
                p.large,
                op,
                mix_read_percent,
            )
        };
        r.metrics.push(Metric { iops: p.iops, mbps: p.mbps, latency_us: p.latency_us, ..m });
    }
    r
}
