//! CrystalDiskMark (2.x–9.x) and KDiskMark (1.x–3.x) text exports.
//!
//! The layouts are described in `shared/corpus/real/FORMATS.md`. This parser works on
//! cleaned lines (see [`crate::text`]): whitespace runs are collapsed, so nothing here
//! depends on column alignment, and paste decorations are already gone.
//!
//! # What a line can be
//! * a title: `CrystalDiskMark <version> (C) …`, `KDiskMark (<version>): …`,
//!   `Flexible I/O Tester (fio-3.30): …` (the engine under KDiskMark);
//! * a section (7.x, 8.x, 9.x, KDiskMark): `[Read]`, `[Write]`, `[Mix] Read 70%/Write 30%`;
//! * a result row, in one of two families:
//!   - "legacy" rows (2.x–6.x and the 7.0 beta), `<label> : <values>` where the label is
//!     `Sequential|Seq|Random` + `Read|Write|Mix` + optional block size + optional
//!     `(QD=n)`, `(Q= n,T= n)` or `(T= n)`;
//!   - "sectioned" rows (7.x, 8.x, 9.x, KDiskMark), `<SEQ|RND|Sequential|Random> <size>
//!     (Q= n, T= n): <values>`, whose operation comes from the section above them.
//!     KDiskMark prints a space between the block size and its unit (`1 MiB`), CDM does
//!     not (`1MiB`);
//! * `<MB/s> MB/s [<IOPS> IOPS] <<latency> us>` values, IOPS and latency optional;
//! * metadata: `Test :`/`Test:`/`Test Size :`, `Date`, `OS`, `Profile`, `Mode`, `Comment`,
//!   `Target`, `Mix Ratio`, 2.x's `::Comment::`.
//!
//! Anything else (prose around a paste, dash rules, unit legends) is ignored, but a line
//! that starts like a result row and does not parse is an error at that line. "Starts like
//! a row" means: a sectioned kind + size + `(Q=`; or a legacy label with a block size or a
//! `(…)` part, or any legacy label followed by `:` and a number or `MB/s`. So
//! `Random Read 4KB (QD=1) : fast` is an error, `Random Read performance: great` is prose.
//!
//! # Label convention
//! `Metric::label` is the row label as printed, whitespace collapsed, without the `:` that
//! separates it from the values. Rows of sectioned layouts get the section name in front,
//! so that labels stay unique within a result:
//! * `Random Read 4KB (QD=32)` (3.x), `Sequential Read (Q= 32,T= 1)` (5.x);
//! * `Read SEQ 1MiB (Q= 8, T= 1)`, `Write RND 4KiB (Q= 32, T=16)` (8.x);
//! * `Mix Sequential 1MiB (Q= 8, T= 1)` (7.x `[Mix]` section);
//! * `Read Sequential 1 MiB (Q= 8, T= 1)` (KDiskMark).
//!
//! # Canonical test descriptors
//! * 2.x/3.x: `Sequential` = SEQ 1 MiB Q1T1; `512KB` = RND 512 KiB Q1T1; `4KB` and
//!   `4KB (QD=1)` = RND 4 KiB Q1T1; `4KB (QD=32)` = RND 4 KiB Q32T1. "KB" is 1024 bytes
//!   here: the 3.x engine (`DiskBench.cpp`) allocates `size * 1024` byte buffers and a
//!   `DISK_TEST_MAX_BUFFER_SIZE` of `1024*1024` for sequential transfers.
//! * 4.x–6.x: `Sequential … (Q= n,T= n)` = SEQ 128 KiB; `Sequential … (T= n)` = SEQ 1 MiB
//!   Q1; `Random … 4KiB (Q= n,T= n)` = RND 4 KiB; an explicit size wins.
//! * sectioned layouts: access, size, Q and T as printed, op from the section.
//!
//! # Test size
//! `Test : 1000 MB` (2.x/3.x) means 1000 MiB: CrystalDiskMark 3's `DiskBench.cpp` computes
//! `DiskTestSize = _tstoi(m_ValueTestSize) * 1024 * 1024` from the same value that
//! `OnEditCopy` prints with `"%d MB"`. So MB and GB in a test size are binary, like the
//! MiB/GiB of later versions.
//!
//! # Data pattern
//! `<0Fill>` → zero fill, `<1Fill>` → 0xFF fill. Otherwise CrystalDiskMark 3.x and later
//! write random data (their default). 2.x exports print no test-data mode at all (even
//! builds that had a 0-fill menu), so the pattern is unknown there; a header-less paste
//! whose rows have the 2.x shape (`Random Read 4KB` without `(QD=…)`) is treated the same.
//! KDiskMark does not print its test-data setting either: unknown.
//!
//! # Several runs
//! A new title, a `[Read]` after rows, a row after the run's trailing metadata, or a row
//! whose label the current run already holds each start a new result.
//!
//! # Comments
//! `Comment: …` (7.x, 8.x) anywhere in the run; 2.x: the line after `::Comment::`; 3.x–7.x:
//! the line right after the `OS` line, when it is not empty and not another known line
//! (a paste with prose glued directly under the OS line will have that prose taken as the
//! comment; blank-line-separated prose is not).

use super::common::{number, truncate, Format, ParseError};
use crate::model::{Access, BenchResult, DataPattern, Metric, Op, Tool, ToolFamily};
use crate::re::{Captures, Regex};
use crate::text::Document;
use std::sync::OnceLock;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * 1024 * 1024;

/// Longest found-text quoted in an error.
const FOUND_MAX: usize = 100;

fn compiled(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("the pattern is a valid regex"))
}

/// `CrystalDiskMark 8.0.1 x64 (UWP) (C) 2007-2021 hiyohiyo`: the version is everything
/// between the product name and the first ` (C)`.
fn cdm_title() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"CrystalDiskMark ([^[:space:]].*?) \(C\)")
}

/// `KDiskMark (3.0.0): https://github.com/JonMagon/KDiskMark`
fn kdm_title() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"KDiskMark \(([^()[:space:]][^()]*)\)")
}

/// `Flexible I/O Tester (fio-3.30): https://github.com/axboe/fio`
fn fio_title() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"Flexible I/O Tester \(([^()[:space:]][^()]*)\)")
}

/// `[Read]`, `[Write]`, `[Mix] Read 70%/Write 30%` (the rest is parsed separately).
fn section() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^\[(Read|Write|Mix)\](.*)$")
}

/// The read share in a mix description: `Read 70%/Write 30%`, `Read 70%, Write 30%`.
fn read_percent() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"Read ([0-9]{1,3}) ?%")
}

/// The start of a sectioned row: `SEQ 1MiB (Q=`, `Random 4 KiB (Q=` (prose such as
/// `Sequential 4KB writes are slow` does not match).
fn sectioned_head() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^(?:SEQ|RND|Sequential|Random) [0-9]+ ?[KMG]i?B \(Q=")
}

/// A whole sectioned label (the text before the `:`):
/// kind, block size, optional space (KDiskMark), unit, queue depth, threads.
fn sectioned_label() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(
        &RE,
        r"^(SEQ|RND|Sequential|Random) ([0-9]{1,7})( ?)(KiB|MiB|GiB|KB|MB) \(Q= ?([0-9]{1,5}), ?T= ?([0-9]{1,5})\)$",
    )
}

/// KDiskMark rows for detection: a space between the block size and its unit.
fn kdm_row() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^(?:Sequential|Random) [0-9]+ [KM]iB \(Q= ?[0-9]+, ?T= ?[0-9]+\) ?:")
}

/// CrystalDiskMark 7.x–9.x rows for detection: no space between size and unit.
fn cdm_sectioned_row() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^(?:SEQ|RND|Sequential|Random) [0-9]+[KM]iB \(Q= ?[0-9]+, ?T= ?[0-9]+\) ?:")
}

/// The start of a legacy (2.x–6.x) row: `Sequential Read`, `Random Write 4KiB`, `Seq Mix`.
fn legacy_head() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^(?:Sequential|Seq|Random) (?:Read|Write|Mix)(?-u:\b)")
}

/// A whole legacy label: kind, op, optional block size + unit, then one of `(QD=n)`,
/// `(Q= n,T= n)` or `(T= n)`.
fn legacy_label() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(
        &RE,
        r"^(Sequential|Seq|Random) (Read|Write|Mix)(?: ([0-9]{1,7}) ?(KiB|MiB|KB|MB))?(?: \((?:QD= ?([0-9]{1,5})|Q= ?([0-9]{1,5}), ?T= ?([0-9]{1,5})|T= ?([0-9]{1,5}))\))?$",
    )
}

/// A legacy row for detection: label, colon, a number and `MB/s`.
fn legacy_row() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^(?:Sequential|Seq|Random) (?:Read|Write|Mix)(?-u:\b)[^:]* ?: ?[0-9][0-9.,]* MB/s")
}

/// The values after the label's colon: MB/s, then optional `[IOPS]` and `<latency us>`.
/// Wide numbers touch the brackets (`[1060963.4 IOPS]`, `<635043.04 us>`).
fn values() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(
        &RE,
        r"^([0-9][0-9.,]*) MB/s(?: ?\[ ?([0-9][0-9.,]*) IOPS\])?(?: ?< ?([0-9][0-9.,]*) (?:us|µs)>)?$",
    )
}

/// `Test : 1000 MB [C: …] (x5)`, `Test: 1 GiB (x5) …`, 2.x's `Test Size : 100 MB`.
fn test_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^Test( Size)? ?: ?([0-9]{1,9}) ?(MB|MiB|GB|GiB)(?-u:\b)(.*)$")
}

/// The pass count in a test line: `(x5)`.
fn passes_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"\(x([0-9]{1,6})\)")
}

/// The drive in a test line: `[C: 33.0% (39.3/119.1 GB)]`, `[C: 91% (202/223GiB)]`.
fn target_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"\[([A-Za-z]: [^\[\]]*)\]")
}

/// Other `key : value` metadata lines (the value may be empty: `Mode:`).
fn meta_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    compiled(&RE, r"^(Date|OS|Profile|Mode|Time|Comment|Target|Mix Ratio) ?:(?: ?(.*))?$")
}

pub(super) fn has_kdiskmark_rows(doc: &Document) -> bool {
    doc.lines.iter().any(|l| kdm_row().is_match(&l.text))
}

pub(super) fn has_cdm_rows(doc: &Document) -> bool {
    doc.lines.iter().any(|l| cdm_sectioned_row().is_match(&l.text) || legacy_row().is_match(&l.text))
}

/// The row shape seen in a run, used when no title says what wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// 2.x–6.x `label : values` rows.
    Legacy,
    /// 7.x `Sequential 1MiB`/`Random 4KiB` sectioned rows.
    Cdm7,
    /// 8.x/9.x `SEQ 1MiB`/`RND 4KiB` sectioned rows.
    Cdm8,
    /// KDiskMark `Sequential 1 MiB` sectioned rows.
    Kdm,
}

/// A result being assembled.
struct Run {
    res: BenchResult,
    /// Tool named by a title line.
    titled: Option<Tool>,
    style: Option<Style>,
    /// Rows seen, run or not.
    rows: usize,
    first_row_line: usize,
    /// Metadata followed the rows: the next row belongs to another run.
    after_rows: bool,
    /// The current section: op, read share, name for labels.
    section: Option<(Op, Option<u8>, &'static str)>,
    /// 2.x evidence: a `Test Size` line or a `Random Read 4KB` row without `(QD=…)`.
    looks_2x: bool,
    /// A row had the 2.x/3.x shape (no `(Q= n,T= n)`/`(T= n)`): CrystalDiskMark's own
    /// I/O engine, which 4.x replaced with DiskSpd.
    native_engine_rows: bool,
    mix_ratio: Option<u8>,
    fill: Option<DataPattern>,
    /// Index of the line that may hold a free-text comment.
    comment_slot: Option<usize>,
    /// The slot was announced by 2.x's `::Comment::` (always a comment).
    comment_forced: bool,
}

impl Run {
    fn new(tool: Option<Tool>) -> Run {
        Run {
            res: BenchResult::new(tool.unwrap_or(Tool::CrystalDiskMark)),
            titled: tool,
            style: None,
            rows: 0,
            first_row_line: 0,
            after_rows: false,
            section: None,
            looks_2x: false,
            native_engine_rows: false,
            mix_ratio: None,
            fill: None,
            comment_slot: None,
            comment_forced: false,
        }
    }

    fn major(&self) -> Option<u32> {
        let v = self.res.tool_version.as_deref()?;
        let digits: String = v.chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse().ok()
    }

    fn tool(&self) -> Tool {
        match (self.titled, self.style) {
            (Some(t), _) => t,
            (None, Some(Style::Kdm)) => Tool::KDiskMark,
            _ => Tool::CrystalDiskMark,
        }
    }

    /// Whether the line after `OS` may be a free-text comment (3.x–7.x).
    fn comment_follows_os(&self) -> bool {
        if self.tool() != Tool::CrystalDiskMark {
            return false;
        }
        match self.major() {
            Some(m) => (3..=7).contains(&m),
            None => matches!(self.style, Some(Style::Legacy | Style::Cdm7)),
        }
    }

    fn has_label(&self, label: &str) -> bool {
        self.res.metrics.iter().any(|m| m.label == label) || self.res.not_run.iter().any(|l| l == label)
    }

    /// The finished result, `None` for a run without rows, an error when nothing ran.
    fn finish(mut self, format: Format) -> Result<Option<BenchResult>, ParseError> {
        if self.rows == 0 {
            return Ok(None);
        }
        if self.res.metrics.is_empty() {
            return Err(ParseError::at(
                format,
                self.first_row_line,
                "at least one test that ran",
                format!("{} rows, all zero", self.rows),
            ));
        }
        let tool = self.tool();
        self.res.tool = tool;
        if tool == Tool::CrystalDiskMark && self.major().is_none() {
            self.res.family = Some(match self.style {
                Some(Style::Legacy) if self.native_engine_rows => ToolFamily::CdmNative,
                _ => ToolFamily::CdmDiskspd,
            });
        }
        self.res.data_pattern = match (self.fill, tool) {
            (Some(p), _) => Some(p),
            (None, Tool::KDiskMark) => None,
            (None, _) => match self.major() {
                Some(m) if m >= 3 => Some(DataPattern::Random),
                Some(_) => None,
                None if self.looks_2x => None,
                None => Some(DataPattern::Random),
            },
        };
        if let Some(p) = self.mix_ratio {
            for m in &mut self.res.metrics {
                if m.op == Op::Mix && m.mix_read_percent.is_none() {
                    m.mix_read_percent = Some(p);
                }
            }
        }
        Ok(Some(self.res))
    }
}

/// A parsed row, before it is filed under a run.
struct Row {
    label: String,
    style: Style,
    access: Access,
    block_size: u64,
    queue_depth: u32,
    threads: u32,
    /// `None` for sectioned rows: the op comes from the section.
    op: Option<Op>,
    mbps: f64,
    iops: Option<f64>,
    latency_us: Option<f64>,
    /// A 2.x-shaped `Random Read 4KB` (no queue depth).
    plain_4kb: bool,
    /// Legacy row without `(Q= n,T= n)` or `(T= n)`: the 2.x/3.x engine.
    native_engine: bool,
}

struct Parser<'a> {
    doc: &'a Document,
    format: Format,
    runs: Vec<BenchResult>,
    cur: Option<Run>,
}

pub(super) fn parse(doc: &Document, format: Format) -> Result<Vec<BenchResult>, ParseError> {
    let mut p = Parser { doc, format, runs: Vec::new(), cur: None };
    for i in 0..doc.lines.len() {
        p.line(i)?;
    }
    p.close()?;
    if p.runs.is_empty() {
        let what = match format {
            Format::KDiskMark => "KDiskMark result rows",
            _ => "CrystalDiskMark result rows",
        };
        return Err(ParseError::whole(Some(format), what, "none"));
    }
    Ok(p.runs)
}

impl Parser<'_> {
    fn close(&mut self) -> Result<(), ParseError> {
        if let Some(run) = self.cur.take() {
            if let Some(res) = run.finish(self.format)? {
                self.runs.push(res);
            }
        }
        Ok(())
    }

    /// Closes the current run and starts another.
    fn restart(&mut self, tool: Option<Tool>) -> Result<&mut Run, ParseError> {
        self.close()?;
        Ok(self.cur.insert(Run::new(tool)))
    }

    /// The current run, started header-less when there is none.
    fn current(&mut self) -> &mut Run {
        self.cur.get_or_insert_with(|| Run::new(None))
    }

    fn line(&mut self, i: usize) -> Result<(), ParseError> {
        let Some(line) = self.doc.lines.get(i) else {
            return Ok(());
        };
        let text = line.text.as_str();
        let no = line.no;
        // A comment slot only ever covers the line right after the one that opened it.
        let (slot, forced) = match self.cur.as_mut() {
            Some(run) if run.comment_slot == Some(i) => {
                run.comment_slot = None;
                (true, std::mem::take(&mut run.comment_forced))
            }
            _ => (false, false),
        };
        if text.is_empty() {
            if slot && forced {
                // 2.x: `::Comment::` may be followed by blank lines in a reflowed paste.
                if let Some(run) = self.cur.as_mut() {
                    run.comment_slot = Some(i + 1);
                    run.comment_forced = true;
                }
            }
            return Ok(());
        }
        if slot && forced {
            if let Some(run) = self.cur.as_mut() {
                run.res.comment.get_or_insert_with(|| text.to_string());
            }
            return Ok(());
        }

        // Titles.
        if let Some(c) = cdm_title().captures(text) {
            let version = cap(&c, 1).trim().to_string();
            let run = self.restart(Some(Tool::CrystalDiskMark))?;
            run.res.tool_version = Some(version);
            return Ok(());
        }
        if let Some(c) = kdm_title().captures(text) {
            let version = cap(&c, 1).trim().to_string();
            let run = self.restart(Some(Tool::KDiskMark))?;
            run.res.tool_version = Some(version);
            return Ok(());
        }
        if let Some(c) = fio_title().captures(text) {
            let engine = cap(&c, 1).trim().to_string();
            let reuse = matches!(&self.cur, Some(r) if r.rows == 0 && r.res.engine.is_none());
            let run = if reuse { self.current() } else { self.restart(Some(Tool::KDiskMark))? };
            run.titled.get_or_insert(Tool::KDiskMark);
            run.res.engine = Some(engine);
            return Ok(());
        }

        // Sections.
        if let Some(c) = section().captures(text) {
            let (op, name) = match cap(&c, 1) {
                "Read" => (Op::Read, "Read"),
                "Write" => (Op::Write, "Write"),
                _ => (Op::Mix, "Mix"),
            };
            let share = if op == Op::Mix { percent(cap(&c, 2)) } else { None };
            let new_run = op == Op::Read && self.cur.as_ref().is_some_and(|r| r.rows > 0);
            let run = if new_run { self.restart(None)? } else { self.current() };
            run.section = Some((op, share, name));
            return Ok(());
        }

        // Result rows.
        if let Some(row) = self.row(text, no)? {
            return self.add_row(row, no);
        }

        // Metadata.
        if let Some(c) = test_line().captures(text) {
            let Some(run) = self.cur.as_mut() else {
                return Ok(());
            };
            let n: u64 = cap(&c, 2).parse().unwrap_or(0);
            let unit = match cap(&c, 3) {
                "GB" | "GiB" => GIB,
                _ => MIB,
            };
            let rest = cap(&c, 4);
            if !cap(&c, 1).is_empty() {
                run.looks_2x = true;
            }
            if run.res.test_size_bytes.is_none() {
                run.res.test_size_bytes = n.checked_mul(unit);
            }
            if let Some(p) = passes_re().captures(rest) {
                run.res.passes = run.res.passes.or_else(|| cap(&p, 1).parse().ok());
            }
            if let Some(t) = target_re().captures(rest) {
                run.res.target.get_or_insert_with(|| cap(&t, 1).trim().to_string());
            }
            note_fill(run, rest);
            run.after_rows |= run.rows > 0;
            return Ok(());
        }
        if let Some(c) = meta_line().captures(text) {
            let Some(run) = self.cur.as_mut() else {
                return Ok(());
            };
            let value = cap(&c, 2).trim();
            let set = |field: &mut Option<String>| {
                if field.is_none() && !value.is_empty() {
                    *field = Some(value.to_string());
                }
            };
            match cap(&c, 1) {
                "Date" => set(&mut run.res.date),
                "OS" => {
                    set(&mut run.res.os);
                    run.comment_slot = Some(i + 1);
                    run.comment_forced = false;
                }
                "Profile" => {
                    // KDiskMark 3 appends ` [+Mix]` when the mix test ran; the mix
                    // rows themselves say that, so the profile keeps only its name.
                    let name = value.strip_suffix("[+Mix]").unwrap_or(value).trim();
                    if run.res.profile.is_none() && !name.is_empty() {
                        run.res.profile = Some(name.to_string());
                    }
                }
                "Comment" => set(&mut run.res.comment),
                "Target" => set(&mut run.res.target),
                "Mode" => note_fill(run, value),
                "Mix Ratio" => run.mix_ratio = run.mix_ratio.or(percent(value)),
                _ => {} // Time: measure/interval seconds, not modelled.
            }
            run.after_rows |= run.rows > 0;
            return Ok(());
        }
        if text == "::Comment::" {
            if let Some(run) = self.cur.as_mut() {
                run.comment_slot = Some(i + 1);
                run.comment_forced = true;
            }
            return Ok(());
        }

        // Free text right under the OS line: the 3.x–7.x comment.
        if slot && !is_decoration(text) {
            if let Some(run) = self.cur.as_mut() {
                if run.comment_follows_os() {
                    let comment = text.strip_prefix("Comment:").map(str::trim).unwrap_or(text);
                    if !comment.is_empty() {
                        run.res.comment.get_or_insert_with(|| comment.to_string());
                    }
                }
            }
        }
        Ok(())
    }

    /// Parses a result row; `Ok(None)` when the line is not one.
    fn row(&self, text: &str, no: usize) -> Result<Option<Row>, ParseError> {
        let sectioned = sectioned_head().is_match(text);
        let split = text.split_once(':');
        // A legacy row has a specific label (with a block size or a `(…)` part), or values
        // that start with a number or mention MB/s. Other `Random Read …: …` lines are prose
        // (`Random Read performance: great`, `Sequential Read: very fast`).
        let legacy = !sectioned
            && legacy_head().is_match(text)
            && split.is_some_and(|(l, r)| {
                let specific =
                    legacy_label().captures(l.trim()).is_some_and(|c| c.get(3).is_some() || l.contains('('));
                specific || r.trim_start().starts_with(|c: char| c.is_ascii_digit()) || r.contains("MB/s")
            });
        if !(sectioned || legacy) {
            return Ok(None);
        }
        let bad = |what: &str| ParseError::at(self.format, no, what, truncate(text, FOUND_MAX));
        let Some((label, rest)) = split else {
            return Err(bad("a result row `<test>: <MB/s> MB/s …`"));
        };
        let label = label.trim();
        let Some(v) = values().captures(rest.trim()) else {
            return Err(bad("result values `<MB/s> MB/s [<IOPS> IOPS] <<latency> us>`"));
        };
        let num = |i: usize, what: &str| -> Result<Option<f64>, ParseError> {
            match v.get(i) {
                None => Ok(None),
                Some(m) => number(m.as_str()).map(Some).ok_or_else(|| bad(what)),
            }
        };
        let mbps = num(1, "a number of MB/s")?.unwrap_or(0.0);
        let iops = num(2, "a number of IOPS")?;
        let latency_us = num(3, "a latency in microseconds")?;

        if sectioned {
            let Some(c) = sectioned_label().captures(label) else {
                return Err(bad("a test label such as `SEQ 1MiB (Q= 8, T= 1)`"));
            };
            let size = block_size(cap(&c, 2), cap(&c, 4)).ok_or_else(|| bad("a block size"))?;
            let kind = cap(&c, 1);
            let style = if !cap(&c, 3).is_empty() {
                Style::Kdm
            } else if kind == "SEQ" || kind == "RND" {
                Style::Cdm8
            } else {
                Style::Cdm7
            };
            return Ok(Some(Row {
                label: label.to_string(),
                style,
                access: if kind == "SEQ" || kind == "Sequential" { Access::Seq } else { Access::Rnd },
                block_size: size,
                queue_depth: count(cap(&c, 5)).ok_or_else(|| bad("a queue depth"))?,
                threads: count(cap(&c, 6)).ok_or_else(|| bad("a thread count"))?,
                op: None,
                mbps,
                iops,
                latency_us,
                plain_4kb: false,
                native_engine: false,
            }));
        }

        let Some(c) = legacy_label().captures(label) else {
            return Err(bad("a test label such as `Random Read 4KiB (Q= 32,T= 1)`"));
        };
        let access = if cap(&c, 1) == "Random" { Access::Rnd } else { Access::Seq };
        let op = match cap(&c, 2) {
            "Read" => Op::Read,
            "Write" => Op::Write,
            _ => Op::Mix,
        };
        let qd = c.get(5).map(|m| m.as_str());
        let (q, t) = (c.get(6).map(|m| m.as_str()), c.get(7).map(|m| m.as_str()));
        let t_only = c.get(8).map(|m| m.as_str());
        let (queue_depth, threads) = match (qd, q, t, t_only) {
            (Some(qd), ..) => (count(qd), Some(1)),
            (_, Some(q), Some(t), _) => (count(q), count(t)),
            (.., Some(t)) => (Some(1), count(t)),
            _ => (Some(1), Some(1)),
        };
        let queue_depth = queue_depth.ok_or_else(|| bad("a queue depth"))?;
        let threads = threads.ok_or_else(|| bad("a thread count"))?;
        let block_size = match (c.get(3), c.get(4)) {
            (Some(n), Some(u)) => block_size(n.as_str(), u.as_str()).ok_or_else(|| bad("a block size"))?,
            _ if access == Access::Rnd => return Err(bad("a block size in a random test label")),
            // 4.x–6.x: the configurable multi-queue sequential test is 128 KiB.
            _ if q.is_some() => 128 * KIB,
            // 2.x/3.x `Sequential Read`, 5.x `Sequential Read (T= 1)`: 1 MiB.
            _ => MIB,
        };
        Ok(Some(Row {
            label: label.to_string(),
            style: Style::Legacy,
            access,
            block_size,
            queue_depth,
            threads,
            op: Some(op),
            mbps,
            iops,
            latency_us,
            plain_4kb: access == Access::Rnd && block_size == 4 * KIB && qd.is_none() && q.is_none(),
            native_engine: q.is_none() && t_only.is_none(),
        }))
    }

    fn add_row(&mut self, row: Row, no: usize) -> Result<(), ParseError> {
        let format = self.format;
        let needs_new = match &self.cur {
            None => true,
            Some(r) => r.after_rows,
        };
        let mut run = if needs_new {
            let section = self.cur.as_ref().and_then(|r| r.section);
            let run = self.restart(None)?;
            // A block of rows after a finished run keeps the section it appeared in.
            if row.op.is_none() {
                run.section = section;
            }
            run
        } else {
            self.current()
        };
        let (op, share, label) = match row.op {
            Some(op) => (op, None, row.label.clone()),
            None => match run.section {
                Some((op, share, name)) => (op, share, format!("{name} {}", row.label)),
                None => {
                    return Err(ParseError::at(
                        format,
                        no,
                        "a [Read], [Write] or [Mix] section before the result rows",
                        truncate(&row.label, FOUND_MAX),
                    ))
                }
            },
        };
        if run.has_label(&label) {
            // The same test again: a second run pasted without its header.
            let section = run.section;
            run = self.restart(None)?;
            run.section = section;
        }
        if run.rows == 0 {
            run.first_row_line = no;
        }
        run.rows += 1;
        run.style.get_or_insert(row.style);
        run.looks_2x |= row.plain_4kb;
        run.native_engine_rows |= row.native_engine;
        let zero = row.mbps == 0.0 && row.iops.unwrap_or(0.0) == 0.0 && row.latency_us.unwrap_or(0.0) == 0.0;
        if zero {
            run.res.not_run.push(label);
        } else {
            run.res.metrics.push(Metric {
                label,
                access: row.access,
                block_size: row.block_size,
                queue_depth: row.queue_depth,
                threads: row.threads,
                op,
                mbps: Some(row.mbps),
                iops: row.iops,
                latency_us: row.latency_us,
                mix_read_percent: if op == Op::Mix { share } else { None },
                stat: None,
                latency_percentiles: Vec::new(),
                latency_spread: None,
            });
        }
        Ok(())
    }
}

fn cap<'t>(c: &Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

fn count(s: &str) -> Option<u32> {
    s.trim().parse().ok()
}

fn percent(s: &str) -> Option<u8> {
    let c = read_percent().captures(s)?;
    cap(&c, 1).parse::<u8>().ok().filter(|p| *p <= 100)
}

/// `4` `KiB` → 4096. "KB"/"MB" in labels are binary too (see the module docs).
fn block_size(n: &str, unit: &str) -> Option<u64> {
    let n: u64 = n.parse().ok()?;
    let unit = match unit {
        "KiB" | "KB" => KIB,
        "MiB" | "MB" => MIB,
        "GiB" => GIB,
        _ => return None,
    };
    n.checked_mul(unit).filter(|b| *b > 0)
}

fn note_fill(run: &mut Run, text: &str) {
    if text.contains("<0Fill>") {
        run.fill = Some(DataPattern::ZeroFill);
    } else if text.contains("<1Fill>") {
        run.fill = Some(DataPattern::OneFill);
    }
}

/// Export lines that carry no information: dash rules, the unit legend, the web address.
fn is_decoration(text: &str) -> bool {
    text.chars().all(|c| c == '-' || c == '=')
        || text.starts_with("* ")
        || text.starts_with("Crystal Dew World")
}
