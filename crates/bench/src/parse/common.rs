//! What every parser shares: the formats SSDBase reads, the error that says where and
//! what, and how printed numbers are read. Apart from the parsers' dispatch (`parse`),
//! so that the parsers stand on it and the dispatch on them, without a cycle.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A result-file format SSDBase reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// CrystalDiskMark 2.x–9.x text export (also the KDiskMark text export, whose
    /// layout follows CrystalDiskMark 7/8).
    CrystalDiskMark,
    KDiskMark,
    /// fio `--output-format=json` or `json+`, possibly with normal text around it.
    FioJson,
    Orion,
    AsSsd,
    HdTune,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::CrystalDiskMark,
        Format::KDiskMark,
        Format::FioJson,
        Format::Orion,
        Format::AsSsd,
        Format::HdTune,
    ];

    /// The name used on the command line and in the API (`--format cdm`).
    pub fn id(self) -> &'static str {
        match self {
            Format::CrystalDiskMark => "cdm",
            Format::KDiskMark => "kdiskmark",
            Format::FioJson => "fio",
            Format::Orion => "orion",
            Format::AsSsd => "asssd",
            Format::HdTune => "hdtune",
        }
    }

    pub fn from_id(id: &str) -> Option<Format> {
        let id = id.to_ascii_lowercase();
        Format::ALL.into_iter().find(|f| f.id() == id || f.to_string().to_ascii_lowercase() == id)
    }
}

/// A format name that is none of [`Format::ALL`]; says which ones are.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
        write!(f, "unknown format {:?}; expected one of {}", self.0, ids.join(", "))
    }
}

impl std::error::Error for UnknownFormat {}

/// The one reading of a format name (`cdm`, `CrystalDiskMark`, ...), for the command line,
/// the API and the site alike.
impl std::str::FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::from_id(s).ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::CrystalDiskMark => "CrystalDiskMark",
            Format::KDiskMark => "KDiskMark",
            Format::FioJson => "fio JSON",
            Format::Orion => "ORION",
            Format::AsSsd => "AS SSD",
            Format::HdTune => "HD Tune",
        })
    }
}

/// Why an input could not be read: where, what was expected, what was there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    pub format: Option<Format>,
    /// 1-based line of the input, when the problem is on one line.
    pub line: Option<usize>,
    pub expected: String,
    pub found: String,
}

impl ParseError {
    pub fn at(format: Format, line: usize, expected: impl Into<String>, found: impl Into<String>) -> Self {
        ParseError { format: Some(format), line: Some(line), expected: expected.into(), found: found.into() }
    }

    pub fn whole(format: Option<Format>, expected: impl Into<String>, found: impl Into<String>) -> Self {
        ParseError { format, line: None, expected: expected.into(), found: found.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(format) = self.format {
            write!(f, "{format}: ")?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "expected {}, found {}", self.expected, self.found)
    }
}

impl std::error::Error for ParseError {}

/// At most `max` characters of `s`, for error messages.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// A printed value converted to another unit (ms → µs, GB/s → MB/s) without binary
/// floating-point noise: `4.046 ms` is 4046 µs, not 4046.0000000000005. Tools print at
/// most a few decimals, so rounding to 1e-6 of the target unit loses nothing.
pub fn rescale(value: f64, factor: f64) -> f64 {
    let exact = value * factor;
    let rounded = (exact * 1e6).round() / 1e6;
    if rounded.is_finite() {
        rounded
    } else {
        exact
    }
}

/// Parses a printed, non-negative number: `1,234.5`, `19,730.47` (thousands separators) and the
/// decimal comma of some locales (`2863,65`).
pub fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    let v = if s.contains('.') {
        s.replace(',', "").parse::<f64>().ok()
    } else if s.matches(',').count() == 1 && s.split(',').nth(1).is_some_and(|f| f.len() != 3) {
        s.replace(',', ".").parse::<f64>().ok()
    } else {
        s.replace(',', "").parse::<f64>().ok()
    }?;
    // No benchmark prints a negative speed, IOPS or latency: a minus sign is damage.
    (v.is_finite() && v >= 0.0).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_every_printed_form() {
        assert_eq!(number("505.825"), Some(505.825));
        assert_eq!(number("19,730.47"), Some(19730.47));
        assert_eq!(number("2863,65"), Some(2863.65));
        assert_eq!(number("1,234"), Some(1234.0));
        assert_eq!(number("1060963.4"), Some(1060963.4));
        assert_eq!(number("x"), None);
        assert_eq!(number("inf"), None);
        assert_eq!(number("-0.4"), None);
    }

    #[test]
    fn rescaling_keeps_printed_digits() {
        assert_eq!(rescale(4.046, 1000.0), 4046.0);
        assert_eq!(rescale(0.33, 1000.0), 330.0);
        assert_eq!(rescale(1.2, 1000.0), 1200.0);
        assert_eq!(rescale(1e308, 1000.0), f64::INFINITY);
    }
}
