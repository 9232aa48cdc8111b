//! CSV answers: RFC 4180 lines, offered as a download, with cells a spreadsheet would read
//! as a formula defused; and the results CSV, one line per metric.

use crate::storage::StoredResult;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A CSV answer (RFC 4180 lines) offered as a download named `file`.
pub(super) fn csv_response(file: &'static str, body: String) -> Response {
    let disposition = format!("attachment; filename=\"{file}\"");
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8")),
            (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).expect("ascii file name")),
        ],
        body,
    )
        .into_response()
}

/// One CSV cell: quoted when it holds a separator, quote or line break; a leading
/// apostrophe when a spreadsheet would read it as a formula.
pub(super) fn csv_cell(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) && s.parse::<f64>().is_err() {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// The CSV columns of each metric, after the result's id and its fields.
const CSV_METRIC_COLUMNS: &[&str] = &[
    "label",
    "test",
    "access",
    "block_size",
    "queue_depth",
    "threads",
    "op",
    "mix_read_percent",
    "stat",
    "mbps",
    "iops",
    "latency_us",
];

/// One CSV row per metric (RFC 4180 quoting): the result id, every field of
/// [`bench::FIELDS`] by its public name (a column is a filter of the same name), then the
/// metric. Cells that a spreadsheet would read as a formula get a leading apostrophe.
pub(crate) fn to_csv(rows: &[StoredResult], header: bool) -> String {
    fn opt<T: ToString>(v: &Option<T>) -> String {
        v.as_ref().map(T::to_string).unwrap_or_default()
    }
    fn name<T: Serialize>(v: &Option<T>) -> String {
        v.as_ref().map(crate::storage::enum_name).unwrap_or_default()
    }
    let mut out = String::new();
    if header {
        let names = std::iter::once("result_id").chain(bench::FIELDS.iter().map(|f| f.name));
        out.push_str(&names.chain(CSV_METRIC_COLUMNS.iter().copied()).collect::<Vec<_>>().join(","));
        out.push_str("\r\n");
    }
    for r in rows {
        let fields: Vec<String> = bench::FIELDS.iter().map(|f| opt(&f.value(&r.tags, &r.result))).collect();
        for (key, m) in r.result.keyed_metrics() {
            let metric = [
                m.label.clone(),
                key.short_name(),
                crate::storage::enum_name(&m.access),
                m.block_size.to_string(),
                m.queue_depth.to_string(),
                m.threads.to_string(),
                crate::storage::enum_name(&m.op),
                opt(&m.mix_read_percent),
                name(&m.stat),
                opt(&m.mbps),
                opt(&m.iops),
                opt(&m.latency_us),
            ];
            let cells = std::iter::once(r.id.to_string()).chain(fields.iter().cloned()).chain(metric);
            out.push_str(&cells.map(|c| csv_cell(&c)).collect::<Vec<_>>().join(","));
            out.push_str("\r\n");
        }
    }
    out
}
