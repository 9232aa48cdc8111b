//! Result-file parsers with format auto-detection.
//!
//! Every parser takes a cleaned [`Document`] (see [`crate::text`]) and returns the results
//! it found — a pasted file may hold several runs — or a [`ParseError`] that says where
//! and what. Parsers never panic and never loop without consuming input; the fuzz targets
//! in `crates/bench/fuzz` hold them to that.

mod asssd;
mod cdm;
mod common;
mod fio;
mod hdtune;
mod orion;

use crate::model::{BenchResult, FileFact};
use crate::text::Document;
pub(crate) use common::truncate;
pub use common::{number, rescale, Format, ParseError, UnknownFormat};

/// Recognises the format of a document from markers each tool prints.
pub fn detect(doc: &Document) -> Option<Format> {
    let has = |needle: &str| doc.lines.iter().any(|l| l.text.contains(needle));
    let trimmed = doc.raw.trim_start_matches('\u{feff}');
    if has("KDiskMark") || has("Flexible I/O Tester") || cdm::has_kdiskmark_rows(doc) {
        return Some(Format::KDiskMark);
    }
    if has("CrystalDiskMark") || has("crystalmark.info") || cdm::has_cdm_rows(doc) {
        return Some(Format::CrystalDiskMark);
    }
    if (has("\"fio version\"") || has("\"jobs\"")) && trimmed.contains('{') {
        return Some(Format::FioJson);
    }
    if has("RION VERSION")
        || has("ORacle IO Numbers")
        || has("Maximum Large MBPS")
        || has("Maximum Small IOPS")
        || has("Minimum Small Latency")
        || orion::has_matrix(doc)
    {
        return Some(Format::Orion);
    }
    if has("AS SSD") || has("4K-64Thrd") || has("4K-64Threads") {
        return Some(Format::AsSsd);
    }
    if has("HD Tune") || has("Transfer Rate Average") {
        return Some(Format::HdTune);
    }
    None
}

/// Parses raw bytes: decodes them, detects the format unless one is given, parses.
pub fn parse_bytes(bytes: &[u8], format: Option<Format>) -> Result<Vec<BenchResult>, ParseError> {
    parse_document(&Document::from_bytes(bytes), format)
}

pub fn parse_str(text: &str, format: Option<Format>) -> Result<Vec<BenchResult>, ParseError> {
    parse_document(&Document::from_text(text.to_string()), format)
}

pub fn parse_document(doc: &Document, format: Option<Format>) -> Result<Vec<BenchResult>, ParseError> {
    parse_document_named(doc, None, format)
}

/// [`parse_bytes`] with the name the input was uploaded under (`mytest_iops.csv`) or a
/// bare hint (`iops`, `mbps`, `lat`): ORION's matrix files say only in their name whether
/// they hold IOPS, MB/s or latencies. Other formats ignore it.
pub fn parse_bytes_named(
    bytes: &[u8],
    name: Option<&str>,
    format: Option<Format>,
) -> Result<Vec<BenchResult>, ParseError> {
    parse_document_named(&Document::from_bytes(bytes), name, format)
}

/// [`parse_str`] with a name, as [`parse_bytes_named`].
pub fn parse_str_named(
    text: &str,
    name: Option<&str>,
    format: Option<Format>,
) -> Result<Vec<BenchResult>, ParseError> {
    parse_document_named(&Document::from_text(text.to_string()), name, format)
}

pub fn parse_document_named(
    doc: &Document,
    name: Option<&str>,
    format: Option<Format>,
) -> Result<Vec<BenchResult>, ParseError> {
    let format = match format.or_else(|| detect(doc)) {
        Some(f) => f,
        None => {
            let first = doc.content_lines().next().map(|l| l.text.as_str()).unwrap_or("");
            return Err(ParseError::whole(
                None,
                "a CrystalDiskMark, KDiskMark, fio JSON, ORION, AS SSD or HD Tune result",
                if first.is_empty() {
                    "empty input".to_string()
                } else {
                    format!("text starting {:?}", truncate(first, 60))
                },
            ));
        }
    };
    let results = match format {
        Format::CrystalDiskMark | Format::KDiskMark => cdm::parse(doc, format),
        Format::FioJson => fio::parse(doc),
        Format::Orion => orion::parse(doc, name),
        Format::AsSsd => asssd::parse(doc),
        Format::HdTune => hdtune::parse(doc),
    }?;
    // A run whose every test printed zeros or dashes was not run: not a result. One rule
    // here instead of in every parser.
    let printed = results.len();
    let ran: Vec<BenchResult> = results
        .into_iter()
        .filter(|r| !r.metrics.is_empty())
        .map(|mut r| {
            add_printed_facts(doc, format, &mut r);
            r
        })
        .collect();
    if ran.is_empty() {
        let found =
            if printed == 0 { "none".to_string() } else { format!("{printed} run(s) with no test that ran") };
        return Err(ParseError::whole(Some(format), "at least one result with a test that ran", found));
    }
    Ok(ran)
}

/// The facts a result holds as text its tool printed, each at the first line printing
/// it: CrystalDiskMark's and KDiskMark's OS line, comment and target, the device or
/// file fio and ORION ran on. AS SSD and HD Tune print the drive itself; their parsers
/// give those facts as they read them. A value built by a parser rather than printed
/// (fio's engine summary, AS SSD's scores) is found on no line and is no fact.
fn add_printed_facts(doc: &Document, format: Format, r: &mut BenchResult) {
    let mut printed: Vec<(&str, String)> = Vec::new();
    if matches!(format, Format::CrystalDiskMark | Format::KDiskMark) {
        printed.extend(r.os.clone().map(|v| ("os", v)));
        printed.extend(r.comment.clone().map(|v| ("comment", v)));
    }
    if matches!(format, Format::CrystalDiskMark | Format::KDiskMark | Format::FioJson | Format::Orion) {
        // fio and ORION join several devices with ", ": each is printed on its own.
        let targets = r.target.iter().flat_map(|t| t.split(", ")).map(str::to_string);
        printed.extend(targets.map(|v| ("target", v)));
    }
    for (field, value) in printed {
        if value.trim().is_empty() || r.facts.iter().any(|f| f.field == field && f.value == value) {
            continue;
        }
        if let Some(line) = doc.content_lines().find(|l| l.text.contains(value.as_str())) {
            r.facts.push(FileFact::at(field, value, line.no, &truncate(&line.text, 200)));
        }
    }
}

/// The promises every parser keeps about what it returns: at least one result, every
/// result with at least one metric, every number finite and non-negative (a mixed load
/// with both kinds of I/O), and a
/// lossless trip through the public JSON format. Used by the fuzz targets and tests.
pub fn check_well_formed(results: &[BenchResult]) -> Result<(), String> {
    if results.is_empty() {
        return Err("no results (must be an error instead)".into());
    }
    for r in results {
        if r.metrics.is_empty() {
            return Err("a result without metrics".into());
        }
        for m in &r.metrics {
            for v in [m.mbps, m.iops, m.latency_us].into_iter().flatten() {
                if !(v.is_finite() && v >= 0.0) {
                    return Err(format!("value {v} in {m:?}"));
                }
            }
            if let Some(s) = &m.latency_spread {
                let ordered = s.min_us.zip(s.max_us).is_none_or(|(min, max)| min <= max)
                    && s.histogram.iter().all(|b| b.from_us <= b.to_us)
                    && s.histogram.windows(2).all(|w| w[0].to_us <= w[1].from_us);
                if !ordered {
                    return Err(format!("a latency spread out of order in {m:?}"));
                }
            }
        }
        for p in &r.mixed_loads {
            let figures = [p.small_iops, p.small_latency_us, p.large_mbps];
            if p.small == 0
                || p.large == 0
                || figures.into_iter().flatten().any(|v| !(v.is_finite() && v >= 0.0))
            {
                return Err(format!("a mixed load needs both kinds of I/O and finite figures: {p:?}"));
            }
        }
        // A series over time is thousands of plain numbers, which serde_json (with
        // `float_roundtrip`) writes and reads back exactly when they are finite: checked
        // as numbers, the rest of the result by a round trip.
        for (i, series) in r.over_time.iter().enumerate() {
            let finite = series.after_idle_secs.is_none_or(f64::is_finite)
                && series
                    .points
                    .iter()
                    .all(|p| p.secs.is_finite() && p.mbps.is_finite() && p.iops.is_none_or(f64::is_finite));
            if !finite {
                return Err(format!("series over time {i}: a value that is not finite"));
            }
        }
        let head = BenchResult { over_time: Vec::new(), ..r.clone() };
        let json = serde_json::to_string(&head).map_err(|e| e.to_string())?;
        let back: BenchResult = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        if back != head {
            return Err(format!("JSON round trip changed the result: {json}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series is checked as numbers: every finite value (awkward ones included) passes
    /// and reads back equal; one value that is not finite, anywhere, is refused.
    #[test]
    fn a_series_is_well_formed_when_every_number_is_finite() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/ssdbase-bench-0.1.0_cache_throttled-loop-256MiB.json"
        ))
        .unwrap();
        let body: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut r: BenchResult = serde_json::from_value(body["result"].clone()).unwrap();
        assert!(r.over_time[0].points.len() > 10);
        r.over_time[0].points[3].mbps = 0.1 + 0.2;
        r.over_time[0].points[4].secs = f64::MIN_POSITIVE;
        r.over_time[0].points[5].iops = Some(1e300);
        check_well_formed(std::slice::from_ref(&r)).unwrap();
        let back: BenchResult = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut r = r.clone();
            let last = r.over_time.len() - 1;
            let p = r.over_time[last].points.len() - 1;
            r.over_time[last].points[p].iops = Some(bad);
            let e = check_well_formed(&[r]).unwrap_err();
            assert!(e.contains(&format!("series over time {last}")), "{e}");
        }
    }

    #[test]
    fn unknown_input_is_a_clear_error() {
        let err = parse_str("hello world\n", None).unwrap_err();
        assert_eq!(err.format, None);
        assert!(err.to_string().contains("\"hello world\""), "{err}");
        let err = parse_str("", None).unwrap_err();
        assert!(err.to_string().contains("empty input"), "{err}");
    }
}
