//! fio JSON output (`--output-format=json`, `json+`, or `json,normal`, where fio's text
//! report surrounds the JSON object).
//!
//! One JSON object is one fio run and becomes one [`BenchResult`]; a paste may hold
//! several. With `--status-interval`, fio prints the run so far every interval and then
//! the whole run: those snapshots are one result (the whole run's figures), with each
//! test's rate over every interval in `over_time`. Each job's `read` and `write` sections with I/O become one [`Metric`] each.
//!
//! Decisions:
//! * `trim` sections are skipped: SSDBase has no trim operation, and counting trims as
//!   writes would put them next to real write numbers. A run whose only I/O is trim is
//!   an error ("no job with read or write I/O").
//! * Job options are the job's `job options` over the `global options`, with fio's
//!   defaults for what is unset (`rw=read`, `bs=4k`, `iodepth=1`, `numjobs=1`).
//! * `threads` is `numjobs` only with `group_reporting` (fio then merges the clones
//!   into one entry); otherwise every entry is one process and `threads` is 1.
//! * With an explicitly synchronous `ioengine` (`sync`, `psync`, ...) fio never has more
//!   than one I/O in flight per job, whatever `iodepth` says, so the queue depth is 1.
//! * Latency is the mean of `lat_ns` (submission + completion), falling back to
//!   `clat_ns`, and to the microsecond `lat`/`clat` of fio 2.x.
//! * Latency percentiles are `clat_ns.percentile` (completion latency, what fio prints
//!   by default), else `lat_ns.percentile` (with `lat_percentiles=1`), in microseconds.
//! * `comment` records `ioengine` and `direct` when set: buffered and direct I/O
//!   numbers differ wildly and nothing else in the result says which it was.

use super::common::{rescale, truncate, Format, ParseError};
use crate::model::{
    Access, BenchResult, LatencyPercentile, LatencySpread, Metric, Op, TimePoint, TimeSeries, Tool,
};
use crate::text::Document;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// At most this many JSON objects are read from one input: a run sampled every second
/// (`--status-interval=1`) for a quarter of an hour, or that many separate runs.
const MAX_RUNS: usize = 1024;
/// At most this many `{` are tried when looking for the object around a marker.
const MAX_BRACE_TRIES: usize = 256;

#[derive(Deserialize)]
struct FioOutput {
    #[serde(rename = "fio version")]
    version: Option<String>,
    timestamp: Option<f64>,
    /// fio 3.x: the same instant in milliseconds.
    timestamp_ms: Option<f64>,
    time: Option<String>,
    #[serde(rename = "global options", default)]
    global: BTreeMap<String, Value>,
    #[serde(default)]
    jobs: Vec<Job>,
    #[serde(default)]
    disk_util: Vec<DiskUtil>,
}

#[derive(Deserialize)]
struct Job {
    jobname: Option<String>,
    #[serde(rename = "job options", default)]
    options: BTreeMap<String, Value>,
    read: Option<Direction>,
    write: Option<Direction>,
    /// Milliseconds the job has run (fio 3.x).
    job_runtime: Option<f64>,
}

impl Job {
    /// The job's read or write section (fio reports a mixed job in both).
    fn direction(&self, op: Op) -> Option<&Direction> {
        match op {
            Op::Read => self.read.as_ref(),
            Op::Write => self.write.as_ref(),
            Op::Mix => None,
        }
    }

    /// Milliseconds the job has run: `job_runtime`, else its longer direction's.
    fn runtime_ms(&self) -> Option<f64> {
        self.job_runtime.or_else(|| {
            [&self.read, &self.write].into_iter().flatten().filter_map(|d| d.runtime).reduce(f64::max)
        })
    }
}

#[derive(Deserialize)]
struct Direction {
    io_bytes: Option<f64>,
    bw_bytes: Option<f64>,
    /// KiB/s (the only bandwidth before fio 3).
    bw: Option<f64>,
    iops: Option<f64>,
    /// I/Os completed (fio 3.x).
    total_ios: Option<f64>,
    /// Milliseconds this direction has run.
    runtime: Option<f64>,
    lat_ns: Option<Latency>,
    clat_ns: Option<Latency>,
    /// fio 2.x: microseconds.
    lat: Option<Latency>,
    clat: Option<Latency>,
}

#[derive(Deserialize)]
struct Latency {
    mean: Option<f64>,
    min: Option<f64>,
    max: Option<f64>,
    stddev: Option<f64>,
    /// `"99.900000": 1234` (nanoseconds; microseconds in fio 2.x), present when fio
    /// printed the percentiles (its default for completion latency).
    percentile: Option<BTreeMap<String, f64>>,
}

impl Latency {
    /// The percentiles in microseconds, lowest first. fio prints 0 for a percentile no
    /// I/O reached (a job with no completions): those are left out.
    fn percentiles(&self, to_us: f64) -> Vec<LatencyPercentile> {
        let mut found: Vec<LatencyPercentile> = self
            .percentile
            .iter()
            .flatten()
            .filter_map(|(percent, value)| {
                let percent: f64 = percent.trim().parse().ok()?;
                ((0.0..=100.0).contains(&percent) && value.is_finite() && *value > 0.0)
                    .then(|| LatencyPercentile { percent, us: value * to_us })
            })
            .collect();
        found.sort_by(|a, b| a.percent.total_cmp(&b.percent));
        found
    }

    /// The fastest and slowest I/O and the standard deviation, in microseconds; absent
    /// when fio printed none of them (or zeros: a direction without completions).
    fn spread(&self, to_us: f64) -> Option<LatencySpread> {
        let us = |v: Option<f64>| v.filter(|v| v.is_finite() && *v >= 0.0).map(|v| rescale(v, to_us));
        let spread = LatencySpread {
            min_us: us(self.min),
            max_us: us(self.max).filter(|v| *v > 0.0),
            stddev_us: us(self.stddev),
            histogram: Vec::new(),
        };
        spread.max_us.is_some().then_some(spread)
    }
}

#[derive(Deserialize)]
struct DiskUtil {
    name: Option<String>,
}

pub(super) fn parse(doc: &Document) -> Result<Vec<BenchResult>, ParseError> {
    match parse_text(&doc.raw) {
        Ok(results) => Ok(results),
        // Quoting, list bullets or line numbers around the JSON make the raw text
        // invalid; the cleaned lines (one per input line, so line numbers still hold)
        // may be valid JSON again.
        Err(raw_err) => {
            let cleaned: Vec<&str> = doc.lines.iter().map(|l| l.text.as_str()).collect();
            parse_text(&cleaned.join("\n")).map_err(|_| raw_err)
        }
    }
}

fn parse_text(text: &str) -> Result<Vec<BenchResult>, ParseError> {
    let objects = find_objects(text);
    if objects.is_empty() {
        return Err(ParseError::whole(
            Some(Format::FioJson),
            "a fio JSON object with \"fio version\" or \"jobs\"",
            "no such object",
        ));
    }
    let mut runs: Vec<(FioOutput, usize)> = Vec::new();
    for (start, end) in objects {
        let slice = &text[start..end.unwrap_or(text.len())];
        let out: FioOutput = serde_json::from_str(slice).map_err(|e| json_error(text, start, slice, &e))?;
        runs.push((out, line_at(text, start)));
    }
    // `--status-interval` prints the run so far every interval, then the whole run:
    // snapshots of one run are one result, sampled over time, not several results.
    let mut results = Vec::new();
    let mut chain: Vec<FioOutput> = Vec::new();
    let mut chain_line = 0;
    for (out, line) in runs {
        if chain.last().is_some_and(|prev| continues(prev, &out)) {
            chain.push(out);
            continue;
        }
        if !chain.is_empty() {
            results.push(convert_run(std::mem::take(&mut chain), chain_line)?);
        }
        chain_line = line;
        chain.push(out);
    }
    results.push(convert_run(chain, chain_line)?);
    Ok(results)
}

/// Whether `next` is a later snapshot of the run `prev` is one of: the same jobs with the
/// same options, no less run and done in each, and started before `prev` was printed (a
/// separate later run starts after the earlier one ended).
fn continues(prev: &FioOutput, next: &FioOutput) -> bool {
    let (Some(printed), Some(next_printed)) = (prev.timestamp_ms, next.timestamp_ms) else {
        return false;
    };
    let same_jobs = prev.version == next.version
        && prev.global == next.global
        && prev.jobs.len() == next.jobs.len()
        && prev.jobs.iter().zip(&next.jobs).all(|(a, b)| a.jobname == b.jobname && a.options == b.options);
    if !same_jobs || next.jobs.is_empty() {
        return false;
    }
    let io = |d: &Option<Direction>| d.as_ref().and_then(|d| d.io_bytes).unwrap_or(0.0);
    let no_less = prev.jobs.iter().zip(&next.jobs).all(|(a, b)| {
        b.runtime_ms() >= a.runtime_ms() && io(&b.read) >= io(&a.read) && io(&b.write) >= io(&a.write)
    });
    let ran = next.jobs.iter().filter_map(Job::runtime_ms).reduce(f64::max).unwrap_or(0.0);
    no_less && next_printed - ran < printed
}

/// One run: its last (whole-run) figures, and when it was printed at intervals, each
/// test's rate over every interval.
fn convert_run(chain: Vec<FioOutput>, line: usize) -> Result<BenchResult, ParseError> {
    let over_time = if chain.len() > 1 { time_series(&chain) } else { Vec::new() };
    let last = chain.into_iter().last().expect("a run has at least one object");
    let mut result = convert(last, line)?;
    // Only series of metrics the result has (a direction with I/O in the whole run).
    result.over_time = over_time.into_iter().filter(|s| s.metric < result.metrics.len()).collect();
    Ok(result)
}

/// Each test's rate over the intervals of a sampled run, indexed as [`convert`] orders
/// the metrics of the last snapshot (each job's read, then its write, those with I/O).
fn time_series(chain: &[FioOutput]) -> Vec<TimeSeries> {
    let last = chain.last().expect("a run has at least one object");
    let mut series = Vec::new();
    let mut metric = 0;
    for (j, job) in last.jobs.iter().enumerate() {
        for op in [Op::Read, Op::Write] {
            if !job.direction(op).is_some_and(did_io) {
                continue;
            }
            let mut points = Vec::new();
            let (mut t0, mut bytes0, mut ios0) = (0.0, 0.0, 0.0);
            for snapshot in chain {
                let Some(d) = snapshot.jobs[j].direction(op) else { continue };
                let (Some(t), Some(bytes)) = (d.runtime, d.io_bytes) else { continue };
                if t <= t0 || bytes < bytes0 {
                    continue;
                }
                let secs = (t - t0) / 1000.0;
                let ios = d.total_ios;
                points.push(TimePoint {
                    secs: t / 1000.0,
                    bytes: bytes as u64,
                    mbps: (bytes - bytes0) / secs / 1e6,
                    iops: ios.map(|n| (n - ios0) / secs),
                });
                (t0, bytes0, ios0) = (t, bytes, ios.unwrap_or(0.0));
            }
            if points.len() > 1 {
                series.push(TimeSeries { metric, points, after_idle_secs: None });
            }
            metric += 1;
        }
    }
    series
}

fn did_io(d: &Direction) -> bool {
    d.io_bytes.is_some_and(|b| b > 0.0) || d.iops.is_some_and(|i| i > 0.0)
}

/// `(start, end)` byte ranges of the top-level fio objects; `end` is `None` when the
/// object is not closed before the end of the text (truncated input).
fn find_objects(text: &str) -> Vec<(usize, Option<usize>)> {
    let mut markers = key_positions(text, "\"fio version\"");
    if markers.is_empty() {
        markers = key_positions(text, "\"jobs\"");
    }
    // Bytes the brace matcher may look at in all: normal input needs one pass over its
    // object; hostile input (thousands of unclosed `{`) must not cost quadratic time.
    let mut budget = text.len().saturating_mul(4).max(1 << 20);
    let mut found = Vec::new();
    let mut pos = 0;
    for marker in markers {
        if found.len() >= MAX_RUNS {
            break;
        }
        if marker < pos {
            continue;
        }
        let candidates = text[pos..marker].rmatch_indices('{').take(MAX_BRACE_TRIES);
        let mut hit = None;
        for (i, _) in candidates {
            let start = pos + i;
            let Some(end) = matching_brace(text, start, &mut budget) else {
                return found;
            };
            if end.is_none_or(|e| e > marker) {
                hit = Some((start, end));
                break;
            }
        }
        // No hit: a marker outside any object (prose quoting `"jobs":`); go on.
        if let Some((start, end)) = hit {
            found.push((start, end));
            match end {
                Some(e) => pos = e,
                None => break,
            }
        }
    }
    found
}

/// Byte offsets of `name` used as an object key (followed by `:`).
fn key_positions(text: &str, name: &str) -> Vec<usize> {
    text.match_indices(name)
        .map(|(p, _)| p)
        .filter(|&p| text[p + name.len()..].trim_start().starts_with(':'))
        .collect()
}

/// The index just past the `}` matching the `{` at `start`, skipping JSON strings:
/// `Some(Some(end))`, `Some(None)` when the text ends first (a truncated object), `None`
/// when the budget ran out.
fn matching_brace(text: &str, start: usize, budget: &mut usize) -> Option<Option<usize>> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let bytes = text.as_bytes().get(start..).unwrap_or(&[]);
    for (i, &b) in bytes.iter().enumerate() {
        *budget = budget.checked_sub(1)?;
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(Some(start + i + 1));
                }
            }
            _ => {}
        }
    }
    Some(None)
}

/// 1-based line of a byte offset, counting LF, CRLF and lone CR as [`Document`] does.
fn line_at(text: &str, offset: usize) -> usize {
    let bytes = &text.as_bytes()[..offset.min(text.len())];
    let mut line = 1;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            line += 1;
        }
    }
    line
}

fn json_error(text: &str, start: usize, slice: &str, err: &serde_json::Error) -> ParseError {
    // serde counts lines within the slice, and only LF ends one.
    let offset_in_slice: usize =
        slice.split_inclusive('\n').take(err.line().saturating_sub(1)).map(str::len).sum();
    let line = line_at(text, start + offset_in_slice);
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message.as_str(),
    };
    let found = if err.is_eof() {
        format!("end of input: {message} (truncated?)")
    } else {
        let text_of_line = slice[offset_in_slice..].lines().next().unwrap_or("").trim();
        format!("{message} in {:?}", truncate(text_of_line, 60))
    };
    ParseError::at(Format::FioJson, line, "valid fio JSON", found)
}

/// A job's options: its own over the global ones, values as strings.
struct Options<'a> {
    job: &'a BTreeMap<String, Value>,
    global: &'a BTreeMap<String, Value>,
}

impl Options<'_> {
    fn get(&self, key: &str) -> Option<String> {
        let v = self.job.get(key).or_else(|| self.global.get(key))?;
        match v {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    fn get_any(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| self.get(k))
    }

    /// Boolean options are present without a value (`"group_reporting" : ""`) or `1`.
    fn flag(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| !matches!(v.as_str(), "0" | "false"))
    }

    fn uint(&self, key: &str) -> Option<u32> {
        self.get(key)?.parse().ok()
    }
}

fn convert(out: FioOutput, line: usize) -> Result<BenchResult, ParseError> {
    let mut result = BenchResult::new(Tool::Fio);
    result.tool_version = out.version.clone().filter(|v| !v.is_empty());
    result.date = out
        .timestamp
        .and_then(crate::dates::rfc3339_utc)
        .or_else(|| out.time.as_deref().map(collapse).filter(|t| !t.is_empty()));

    let mut sizes = Vec::new();
    let mut targets: Vec<String> = Vec::new();
    let mut engines: Vec<String> = Vec::new();
    for job in &out.jobs {
        let opts = Options { job: &job.options, global: &out.global };
        let kb_base = if opts.get("kb_base").as_deref() == Some("1000") { 1000 } else { 1024 };
        sizes.push(opts.get("size").and_then(|s| parse_size(&s, kb_base)));
        for key in ["filename", "directory"] {
            if let Some(t) = opts.get(key).filter(|t| !t.is_empty()) {
                if !targets.contains(&t) {
                    targets.push(t);
                }
                break;
            }
        }
        let mut engine = Vec::new();
        if let Some(e) = opts.get("ioengine") {
            engine.push(format!("ioengine={e}"));
        }
        if let Some(d) = opts.get("direct") {
            engine.push(format!("direct={}", if d.is_empty() { "1" } else { &d }));
        }
        let engine = engine.join(", ");
        if !engine.is_empty() && !engines.contains(&engine) {
            engines.push(engine);
        }
        result.metrics.extend(job_metrics(job, &opts, kb_base));
    }

    if result.metrics.is_empty() {
        return Err(ParseError::at(
            Format::FioJson,
            line,
            "a job with read or write I/O (trim is not recorded)",
            if out.jobs.is_empty() {
                "no jobs".to_string()
            } else {
                format!("{} job(s) without read or write I/O", out.jobs.len())
            },
        ));
    }

    // The test size is the result's only when every job used the same one.
    if let Some(Some(first)) = sizes.first() {
        if sizes.iter().all(|s| *s == Some(*first)) {
            result.test_size_bytes = Some(*first);
        }
    }
    if targets.is_empty() {
        targets = out.disk_util.iter().filter_map(|d| d.name.clone()).filter(|n| !n.is_empty()).collect();
    }
    if !targets.is_empty() {
        result.target = Some(targets.join(", "));
    }
    if !engines.is_empty() {
        result.comment = Some(engines.join("; "));
    }
    Ok(result)
}

fn job_metrics(job: &Job, opts: &Options, kb_base: u64) -> Vec<Metric> {
    // `rw=randread:8` (an offset modifier) and fio's `readwrite` alias.
    let rw = opts.get_any(&["rw", "readwrite"]).unwrap_or_else(|| "read".to_string());
    let rw = rw.split(':').next().unwrap_or("").trim().to_ascii_lowercase();
    let access = if rw.starts_with("rand") { Access::Rnd } else { Access::Seq };
    let mixed = matches!(rw.as_str(), "rw" | "readwrite" | "randrw");
    let mix_read_percent = mixed.then(|| {
        opts.uint("rwmixread")
            .or_else(|| opts.uint("rwmixwrite").map(|w| 100u32.saturating_sub(w)))
            .unwrap_or(50)
            .min(100) as u8
    });

    let block_sizes = opts
        .get_any(&["bs", "blocksize"])
        .map(|bs| parse_block_sizes(&bs, kb_base))
        .unwrap_or([Some(4096); 3]);

    let sync_engine = opts.get("ioengine").is_some_and(|e| {
        matches!(
            e.as_str(),
            "sync" | "psync" | "vsync" | "pvsync" | "pvsync2" | "mmap" | "splice" | "ftruncate"
        )
    });
    let queue_depth = if sync_engine { 1 } else { opts.uint("iodepth").unwrap_or(1).max(1) };
    let threads = if opts.flag("group_reporting") { opts.uint("numjobs").unwrap_or(1).max(1) } else { 1 };
    let name = job.jobname.clone().unwrap_or_else(|| "job".to_string());

    let mut metrics = Vec::new();
    for (dir, op, word, bs) in
        [(&job.read, Op::Read, "read", block_sizes[0]), (&job.write, Op::Write, "write", block_sizes[1])]
    {
        let Some(d) = dir else { continue };
        if !did_io(d) {
            continue;
        }
        let mbps = d.bw_bytes.map(|b| b / 1e6).or_else(|| d.bw.map(|kib| kib * 1024.0 / 1e6));
        let latency_us = [(&d.lat_ns, 1e-3), (&d.clat_ns, 1e-3), (&d.lat, 1.0), (&d.clat, 1.0)]
            .into_iter()
            .find_map(|(l, scale)| l.as_ref().and_then(|l| l.mean).filter(|m| *m > 0.0).map(|m| m * scale));
        // Completion latency, as fio prints it by default; total latency when the job
        // asked for `lat_percentiles` instead. Its spread is of the same latency.
        let sources = [(&d.clat_ns, 1e-3), (&d.lat_ns, 1e-3), (&d.clat, 1.0), (&d.lat, 1.0)];
        let described = sources
            .iter()
            .filter_map(|(l, scale)| l.as_ref().map(|l| (l, l.percentiles(*scale), *scale)))
            .find(|(_, p, _)| !p.is_empty());
        let (latency_percentiles, latency_spread) = match described {
            Some((l, percentiles, scale)) => (percentiles, l.spread(scale)),
            None => {
                (Vec::new(), sources.iter().find_map(|(l, scale)| l.as_ref().and_then(|l| l.spread(*scale))))
            }
        };
        metrics.push(Metric {
            label: format!("{name} {word}"),
            access,
            block_size: bs.unwrap_or(4096),
            queue_depth,
            threads,
            op,
            mbps,
            iops: d.iops,
            latency_us,
            mix_read_percent,
            stat: None,
            latency_percentiles,
            latency_spread,
        });
    }
    metrics
}

/// fio's `bs=` list: read, write, trim. `bs=8k,32k` → 8k reads, 32k writes and trims;
/// a trailing comma leaves the rest at the default; an empty entry is the default.
fn parse_block_sizes(s: &str, kb_base: u64) -> [Option<u64>; 3] {
    const DEFAULT: u64 = 4096;
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let value = |p: &str| {
        if p.is_empty() {
            Some(DEFAULT)
        } else {
            // `4k-16k` (a range): the low end, the size most I/Os had to start from.
            parse_size(p.split('-').next().unwrap_or(p), kb_base)
        }
    };
    let trailing_comma = s.trim_end().ends_with(',');
    let mut out = [Some(DEFAULT); 3];
    let mut last = Some(DEFAULT);
    for (i, slot) in out.iter_mut().enumerate() {
        match parts.get(i) {
            Some(p) if !(trailing_comma && i + 1 == parts.len() && p.is_empty()) => {
                last = value(p);
                *slot = last;
            }
            _ => *slot = if trailing_comma { Some(DEFAULT) } else { last },
        }
    }
    out
}

/// A fio size: `4096`, `4096B`, `4k`, `4K`, `4KiB`, `1m`, `1M`, `2g`, `1.5g`. With fio's
/// default `kb_base=1024` every `k` is 1024; with `kb_base=1000` only the `KiB` forms are.
fn parse_size(s: &str, kb_base: u64) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let num: f64 = num.parse().ok()?;
    let unit = unit.trim().to_ascii_lowercase();
    let binary = unit.contains('i');
    let base = if binary { 1024 } else { kb_base } as f64;
    let power = match unit.trim_end_matches('b').trim_end_matches('i') {
        "" => 0,
        "k" => 1,
        "m" => 2,
        "g" => 3,
        "t" => 4,
        "p" => 5,
        _ => return None,
    };
    let bytes = num * base.powi(power);
    (1.0..1e19).contains(&bytes).then(|| bytes.round() as u64)
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_fio_notation() {
        for (s, want) in [
            ("4096", Some(4096)),
            ("4096B", Some(4096)),
            ("4k", Some(4096)),
            ("4K", Some(4096)),
            ("4KiB", Some(4096)),
            ("4kb", Some(4096)),
            ("128k", Some(131_072)),
            ("1m", Some(1_048_576)),
            ("1M", Some(1_048_576)),
            ("2g", Some(2_147_483_648)),
            ("100%", None),
            ("x", None),
            ("", None),
        ] {
            assert_eq!(parse_size(s, 1024), want, "{s}");
        }
        assert_eq!(parse_size("4k", 1000), Some(4000));
        assert_eq!(parse_size("4KiB", 1000), Some(4096));
    }

    #[test]
    fn block_size_lists() {
        let k = |n: u64| Some(n * 1024);
        assert_eq!(parse_block_sizes("256k", 1024), [k(256), k(256), k(256)]);
        assert_eq!(parse_block_sizes("8k,32k", 1024), [k(8), k(32), k(32)]);
        assert_eq!(parse_block_sizes("8k,32k,", 1024), [k(8), k(32), k(4)]);
        assert_eq!(parse_block_sizes(",8k", 1024), [k(4), k(8), k(8)]);
        assert_eq!(parse_block_sizes(",8k,", 1024), [k(4), k(8), k(4)]);
        assert_eq!(parse_block_sizes("4k-16k", 1024), [k(4), k(4), k(4)]);
    }

    #[test]
    fn objects_are_found_between_text() {
        let text = "pre {x} text\n{\n \"fio version\" : \"fio-3\", \"s\": \"}{\" }\ntail {";
        let objs = find_objects(text);
        assert_eq!(objs.len(), 1);
        let (s, e) = objs[0];
        assert!(text[s..e.unwrap()].starts_with("{\n \"fio version\""));
        assert!(text[s..e.unwrap()].ends_with("\"}{\" }"));
        assert_eq!(line_at(text, s), 2);
        assert_eq!(line_at("a\r\nb\rc", 6), 3);
    }
}
