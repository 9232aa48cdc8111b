//! Turning uploaded bytes into clean lines.
//!
//! Real result text has been through clipboards, editors, blogs and forums before it
//! reaches us: UTF-16 files with a BOM, CRLF, whitespace runs collapsed to one space,
//! list bullets and line numbers prepended, `> ` or `// ` quoting, HTML or markdown
//! wrappers, table pipes. Everything here undoes those transformations generically, so
//! that parsers see one canonical form: each line trimmed, whitespace runs collapsed to
//! a single space, decorations removed, and the original line number kept for errors.

use crate::re::Regex;
use std::sync::OnceLock;

/// One cleaned line and where it was in the input (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub no: usize,
    pub text: String,
}

/// An input ready for the parsers: the decoded text and its cleaned lines.
#[derive(Debug, Clone)]
pub struct Document {
    /// The decoded text, unmodified (fio JSON is parsed from this).
    pub raw: String,
    /// Cleaned lines; empty lines are kept so that blank-line structure survives.
    pub lines: Vec<Line>,
}

impl Document {
    pub fn from_bytes(bytes: &[u8]) -> Document {
        Document::from_text(decode(bytes))
    }

    pub fn from_text(raw: String) -> Document {
        let lines =
            split_lines(&raw).enumerate().map(|(i, l)| Line { no: i + 1, text: clean_line(l) }).collect();
        Document { raw, lines }
    }

    /// Lines that have content after cleaning.
    pub fn content_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().filter(|l| !l.text.is_empty())
    }
}

/// Decodes UTF-8 (with or without BOM) and UTF-16 (LE/BE with BOM, or LE without one,
/// recognised by its zero high bytes). Invalid sequences become U+FFFD rather than
/// failing: a parser can still report exactly which line it could not read.
pub fn decode(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return decode_utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return decode_utf16(rest, u16::from_be_bytes);
    }
    if looks_like_bomless_utf16le(bytes) {
        return decode_utf16(bytes, u16::from_le_bytes);
    }
    String::from_utf8_lossy(bytes).into_owned()
}

fn decode_utf16(bytes: &[u8], from: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| from([c[0], c[1]]));
    let mut s: String = char::decode_utf16(units).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    if bytes.len() % 2 == 1 {
        s.push(char::REPLACEMENT_CHARACTER);
    }
    s
}

/// ASCII text in UTF-16LE has a zero in every odd byte.
fn looks_like_bomless_utf16le(bytes: &[u8]) -> bool {
    if bytes.len() < 8 {
        return false;
    }
    let sample = &bytes[..bytes.len().min(512) & !1];
    let odd_zeros = sample.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let even_zeros = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    odd_zeros * 10 >= sample.len() / 2 * 9 && even_zeros == 0
}

fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    // CRLF, LF and lone CR (old Mac pastes) all end a line.
    text.split('\n').flat_map(|l| {
        let l = l.strip_suffix('\r').unwrap_or(l);
        l.split('\r')
    })
}

fn html_tag() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Only real HTML element names: CrystalDiskMark itself prints `<0Fill>`,
    // `<DefaultAffinity=DISABLED>` and `< 48.38 us>`, which must survive.
    RE.get_or_init(|| {
        Regex::new(
            r"(?i)</?(?:blockquote|p|br|pre|code|div|span|td|tr|th|table|tbody|thead|li|ul|ol|b|i|u|strong|em|font|a|hr|h[1-6]|sup|sub|tt|small|big|center|samp|kbd|dl|dt|dd|section|article|figure|figcaption|wbr)(?:[[:space:]][^<>]*)?/?>",
        )
        .unwrap()
    })
}

fn line_prefix() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // One decoration at the start of a line; applied repeatedly.
    //  - quote marks: `>`, `//`, `#` comment marks, `;`
    //  - list bullets: `- `, `+ `, `• `, `・`, `* ` (but not CrystalDiskMark's `* MB/s`/`* KB`)
    //  - line numbers: `12. `, `12: `, `12) `, `12 | `, `[12] `
    //  - table pipes: `|`
    RE.get_or_init(|| {
        Regex::new(
            r"^(?:>+|//+|#+[[:space:]]|;+[[:space:]]|-[[:space:]]|\+[[:space:]]|•|・|\*[[:space:]](?:[^MK]|[MK][^B])|[0-9]{1,5}(?:[.:)]|[[:space:]]*\|)[[:space:]]|\[[0-9]{1,5}\][[:space:]]|\|)",
        )
        .unwrap()
    })
}

/// Cleans one raw line into the canonical form described in the module docs.
pub fn clean_line(line: &str) -> String {
    let mut s = unescape_entities(&html_tag().replace_all(line, " "));
    // Collapse every kind of whitespace first, so the prefix rules see one shape.
    s = collapse_whitespace(&s);
    while let Some(m) = line_prefix().find(&s) {
        // `* X` matched one character of content to rule out `* MB/s`; keep it.
        let cut = if s.starts_with("* ") { 2 } else { m.end() };
        s = s[cut..].trim_start().to_string();
    }
    // Trailing table pipes (` | |`, ` |`) and markdown code fences.
    while let Some(rest) = s.strip_suffix('|') {
        s = rest.trim_end().to_string();
    }
    if s.starts_with("```") || s.starts_with("~~~") {
        s.clear();
    }
    s
}

fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(|c: char| c.is_whitespace() || c == '\u{a0}' || c == '\u{3000}') {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn unescape_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_utf16le_with_and_without_bom() {
        let text = "CrystalDiskMark 5.2.0\r\nx";
        let mut le: Vec<u8> = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(&le), text);
        assert_eq!(decode(&le[2..]), text);
        let mut be: Vec<u8> = vec![0xFE, 0xFF];
        be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode(&be), text);
        let mut utf8 = vec![0xEF, 0xBB, 0xBF];
        utf8.extend(text.as_bytes());
        assert_eq!(decode(&utf8), text);
    }

    #[test]
    fn strips_paste_decorations() {
        let cases = [
            ("  1. Sequential Read : 453.079 MB/s", "Sequential Read : 453.079 MB/s"),
            ("- Test : 1000 MB [C: 1.0% (1/2 GB)] (x5)", "Test : 1000 MB [C: 1.0% (1/2 GB)] (x5)"),
            ("// Random Read 4KiB (Q= 32,T= 1) :", "Random Read 4KiB (Q= 32,T= 1) :"),
            ("> > SEQ 1MiB (Q= 8, T= 1):", "SEQ 1MiB (Q= 8, T= 1):"),
            ("OS: Windows 10 Professional | |", "OS: Windows 10 Professional"),
            ("| [Read] |", "[Read]"),
            ("<blockquote>Sequential Read : 1.0 MB/s</blockquote>", "Sequential Read : 1.0 MB/s"),
            ("* MB/s = 1,000,000 bytes/s", "* MB/s = 1,000,000 bytes/s"),
            ("* KB = 1000 bytes, KiB = 1024 bytes", "* KB = 1000 bytes, KiB = 1024 bytes"),
            ("* Sequential Read : 1.0 MB/s", "Sequential Read : 1.0 MB/s"),
            (
                "  RND    4KiB (Q=  1, T= 1):    84.503 MB/s [  20630.6 IOPS] <    48.38 us>",
                "RND 4KiB (Q= 1, T= 1): 84.503 MB/s [ 20630.6 IOPS] < 48.38 us>",
            ),
            (
                "Test: 1 GiB (x5) <0Fill> [Interval: 5 sec] <DefaultAffinity=DISABLED>",
                "Test: 1 GiB (x5) <0Fill> [Interval: 5 sec] <DefaultAffinity=DISABLED>",
            ),
            ("```text", ""),
            ("Sequential&nbsp;Read&nbsp;:&nbsp;1.0 MB/s", "Sequential Read : 1.0 MB/s"),
            ("-----------------", "-----------------"),
        ];
        for (input, want) in cases {
            assert_eq!(clean_line(input), want, "input {input:?}");
        }
    }

    #[test]
    fn keeps_line_numbers_of_the_input() {
        let doc = Document::from_text("a\r\n\r\nb\rc\n".to_string());
        let got: Vec<(usize, &str)> = doc.lines.iter().map(|l| (l.no, l.text.as_str())).collect();
        assert_eq!(got, vec![(1, "a"), (2, ""), (3, "b"), (4, "c"), (5, "")]);
    }
}
