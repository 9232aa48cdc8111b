//! Every CSV the server writes, in one dialect: RFC 4180 by the `csv` crate (CRLF line
//! ends, quotes only where needed), with cells a spreadsheet would read as a formula
//! defused by a leading apostrophe; offered as a download. And the results CSV (API and
//! dumps), one line per metric.

use crate::storage::StoredResult;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A CSV answer offered as a download named `file`.
pub fn response(file: &'static str, body: String) -> Response {
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

/// A CSV text being written: a header line, then rows.
pub struct CsvTable {
    writer: csv::Writer<Vec<u8>>,
}

impl CsvTable {
    /// A table with `columns` as its header line (none when `header` is false: a
    /// continuation of a table already started).
    pub fn new(columns: impl IntoIterator<Item = impl AsRef<str>>, header: bool) -> CsvTable {
        let writer = csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).from_writer(Vec::new());
        let mut table = CsvTable { writer };
        if header {
            table.row(columns);
        }
        table
    }

    /// One line: each cell quoted where needed, a formula-like cell defused.
    pub fn row(&mut self, cells: impl IntoIterator<Item = impl AsRef<str>>) {
        // Writing to memory cannot fail.
        for cell in cells {
            self.writer.write_field(defused(cell.as_ref()).as_bytes()).expect("a CSV cell in memory");
        }
        self.writer.write_record(None::<&[u8]>).expect("a CSV line in memory");
    }

    pub fn finish(self) -> String {
        let bytes = self.writer.into_inner().expect("a CSV text in memory");
        String::from_utf8(bytes).expect("UTF-8 cells make a UTF-8 text")
    }
}

/// `s`, with a leading apostrophe when a spreadsheet would read it as a formula.
fn defused(s: &str) -> std::borrow::Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@']) && s.parse::<f64>().is_err() {
        format!("'{s}").into()
    } else {
        s.into()
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
pub fn results(rows: &[StoredResult], header: bool) -> String {
    fn opt<T: ToString>(v: &Option<T>) -> String {
        v.as_ref().map(T::to_string).unwrap_or_default()
    }
    fn name<T: Serialize>(v: &Option<T>) -> String {
        v.as_ref().map(crate::storage::enum_name).unwrap_or_default()
    }
    let columns = std::iter::once("result_id").chain(bench::FIELDS.iter().map(|f| f.name));
    let mut table = CsvTable::new(columns.chain(CSV_METRIC_COLUMNS.iter().copied()), header);
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
            table.row(std::iter::once(r.id.to_string()).chain(fields.iter().cloned()).chain(metric));
        }
    }
    table.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_dialect_quotes_only_where_needed_and_defuses_formulas() {
        let mut t = CsvTable::new(["a", "b", "c"], true);
        t.row(["x,y", "say \"hi\"", "line\nbreak"]);
        t.row(["=SUM(A1)", "-1.5", "@x"]);
        assert_eq!(
            t.finish(),
            "a,b,c\r\n\"x,y\",\"say \"\"hi\"\"\",\"line\nbreak\"\r\n'=SUM(A1),-1.5,'@x\r\n"
        );
        assert_eq!(CsvTable::new(["a"], false).finish(), "");
    }
}
