//! Values as a window prints them, in the language it runs in. CrystalDiskMark and
//! KDiskMark format numbers with the system's locale: `1816.90`, `1,816.90` (English),
//! `1.816,90` (German), `1 816,90` (French, Russian: a space or a narrow no-break
//! space), `1'816.90` (Swiss), `816,90`. A reading is split into digit groups and the
//! marks between them; each way it can be read is an [`Interpretation`]. The window's
//! decimal mark is the one its values that read only one way agree on
//! ([`window_mark`]), and a value that still reads two ways under it (`1,816` in a
//! window whose every value has three decimals) is [`Read::ambiguous`]: never certain.

/// The marks a value can hold between its digits. A narrow no-break space, a no-break
/// space or a thin space is a space; a typographic apostrophe is an apostrophe.
const GROUP_MARKS: [char; 4] = ['.', ',', ' ', '\''];

/// One way to read a printed number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interpretation {
    /// The value in plain form: ASCII digits with `.` before the decimals (`1816.90`).
    pub plain: String,
    /// The mark read as the decimal mark (`.` or `,`), if the value has decimals.
    pub decimal: Option<char>,
    /// The mark read as the thousands separator, if the value has groups.
    pub group: Option<char>,
}

impl Interpretation {
    pub fn value(&self) -> Option<f64> {
        self.plain.parse::<f64>().ok().filter(|v| v.is_finite())
    }

    /// Digits after the decimal mark; `None` for a whole number.
    pub fn decimals(&self) -> Option<usize> {
        self.plain.split_once('.').map(|(_, f)| f.len())
    }

    /// Whether the value is printed as CrystalDiskMark 3-6 print theirs: four figures
    /// and at least one decimal, at most three (`4164.1`, `256.7`, `17.28`, `0.683`).
    pub fn four_figures(&self) -> bool {
        self.decimals() == Some(4usize.saturating_sub(self.whole_digits()).clamp(1, 3))
    }

    /// Digits before the decimal mark.
    pub fn whole_digits(&self) -> usize {
        self.plain.split_once('.').map_or(self.plain.len(), |(i, _)| i.len())
    }

    /// Whether this reading fits a window whose decimal mark is `mark`: it uses that mark
    /// for decimals, or has no decimals and does not group with it.
    fn fits(&self, mark: char) -> bool {
        self.decimal == Some(mark) || self.decimal.is_none() && self.group != Some(mark)
    }
}

/// A value read under the window's decimal mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    pub interpretation: Interpretation,
    /// Another reading fits the window as well (`1,816`: 1816 or 1.816).
    pub ambiguous: bool,
}

/// The text with every kind of space as one space and typographic apostrophes as `'`.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        let c = match c {
            '\u{202F}' | '\u{00A0}' | '\u{2009}' | '\t' => ' ',
            '\u{2019}' | '\u{2032}' | '`' | '\u{00B4}' => '\'',
            c => c,
        };
        // Tesseract may put two spaces in a wide gap.
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    out
}

/// Every way `text` reads as a printed non-negative number; empty when it is none.
pub fn interpretations(text: &str) -> Vec<Interpretation> {
    let text = normalise(text);
    // Digit runs and the single marks between them.
    let mut runs: Vec<&str> = Vec::new();
    let mut marks: Vec<char> = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c.is_ascii_digit() {
            continue;
        }
        if !GROUP_MARKS.contains(&c) || i == start {
            return Vec::new();
        }
        runs.push(&text[start..i]);
        marks.push(c);
        start = i + c.len_utf8();
    }
    if start >= text.len() {
        return Vec::new();
    }
    runs.push(&text[start..]);

    // Runs separated by `group`: the first of one to three digits, the others of three.
    let grouped = |runs: &[&str], marks: &[char], group: char| {
        runs[0].len() <= 3 && runs[1..].iter().all(|r| r.len() == 3) && marks.iter().all(|m| *m == group)
    };
    // A leading zero only in `0` itself (`0.45`).
    let whole_ok = |digits: &str| !(digits.len() > 1 && digits.starts_with('0'));
    let mut out = Vec::new();
    let k = marks.len();
    if k == 0 {
        if whole_ok(runs[0]) {
            out.push(Interpretation { plain: runs[0].to_string(), decimal: None, group: None });
        }
        return out;
    }
    // The last mark as the decimal mark.
    let last = marks[k - 1];
    let frac = runs[k];
    if matches!(last, '.' | ',') && (1..=3).contains(&frac.len()) {
        let whole: String = runs[..k].concat();
        let group = (k > 1).then_some(marks[0]);
        let groups_ok = k == 1 || (grouped(&runs[..k], &marks[..k - 1], marks[0]) && marks[0] != last);
        if groups_ok && whole_ok(&whole) {
            out.push(Interpretation { plain: format!("{whole}.{frac}"), decimal: Some(last), group });
        }
    }
    // Every mark a thousands separator.
    if grouped(&runs, &marks, marks[0]) && whole_ok(&runs.concat()) {
        out.push(Interpretation { plain: runs.concat(), decimal: None, group: Some(marks[0]) });
    }
    out
}

/// Whether `text` reads as a number in some locale.
pub fn plausible(text: &str) -> bool {
    !interpretations(text).is_empty()
}

/// The value in a cell's reading: the whole text when it is a number, else its last word
/// when that is a number of three digits or more (a mark of the row button or of the
/// cell's border read before the value: `m 48.58`, `31 1828.3`).
pub fn value_part(text: &str) -> &str {
    if plausible(text) {
        return text;
    }
    match text.trim_end().rsplit_once(char::is_whitespace) {
        Some((_, last)) if plausible(last) && last.chars().filter(char::is_ascii_digit).count() >= 3 => last,
        _ => text,
    }
}

/// The decimal mark most of the texts that read only one way use, or `None` when they
/// do not tell (no such text, or as many for `.` as for `,`).
pub fn window_mark<'a>(texts: impl IntoIterator<Item = &'a str>) -> Option<char> {
    let (mut point, mut comma) = (0, 0);
    for t in texts {
        if let [only] = interpretations(t).as_slice() {
            match only.decimal {
                Some('.') => point += 1,
                Some(',') => comma += 1,
                _ => {}
            }
        }
    }
    match point.cmp(&comma) {
        std::cmp::Ordering::Greater => Some('.'),
        std::cmp::Ordering::Less => Some(','),
        std::cmp::Ordering::Equal => None,
    }
}

/// `text` read in a window whose decimal mark is `mark` (unknown: `None`): the reading
/// that fits, marked ambiguous when another fits too; `None` when none does.
pub fn read_as(text: &str, mark: Option<char>) -> Option<Read> {
    let mut fitting = interpretations(text).into_iter().filter(|i| mark.is_none_or(|m| i.fits(m)));
    let first = fitting.next()?;
    Some(Read { interpretation: first, ambiguous: fitting.next().is_some() })
}

/// Whether two texts are the same printed value but for the spaces and apostrophes that
/// group its digits (a narrow space is seen by one reading and not by another).
pub fn same_as_drawn(a: &str, b: &str) -> bool {
    let squash = |t: &str| normalise(t).chars().filter(|c| !matches!(c, ' ' | '\'')).collect::<String>();
    a == b || squash(a) == squash(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str, mark: Option<char>) -> Option<(String, bool)> {
        read_as(text, mark).map(|r| (r.interpretation.plain, r.ambiguous))
    }

    #[test]
    fn every_locale_the_tools_print_in() {
        for (text, mark, want) in [
            ("1816.90", '.', "1816.90"),
            ("1,816.90", '.', "1816.90"),
            ("1.816,90", ',', "1816.90"),
            ("1 816,90", ',', "1816.90"),
            ("1\u{202F}816,90", ',', "1816.90"),
            ("1\u{00A0}816,90", ',', "1816.90"),
            ("1'816.90", '.', "1816.90"),
            ("1\u{2019}816.90", '.', "1816.90"),
            ("816,90", ',', "816.90"),
            ("0,09", ',', "0.09"),
            ("12,345,678", '.', "12345678"),
            ("12.345.678", ',', "12345678"),
            ("3,534.31", '.', "3534.31"),
            ("0.045", '.', "0.045"),
            ("0,045", ',', "0.045"),
        ] {
            assert_eq!(
                plain(text, Some(mark)),
                Some((want.to_string(), false)),
                "{text:?} in a {mark} window"
            );
        }
    }

    #[test]
    fn a_mark_is_the_decimal_mark_only_where_the_window_says_so() {
        // In a window printing `1,816.90`, `1,816` is a whole number; in one printing
        // `816,90` it is a decimal; where the window does not tell, it is ambiguous.
        assert_eq!(plain("1,816", Some('.')), Some(("1816".into(), false)));
        assert_eq!(plain("1,816", Some(',')), Some(("1.816".into(), false)));
        assert_eq!(plain("1.816", Some(',')), Some(("1816".into(), false)));
        assert!(read_as("1,816", None).unwrap().ambiguous);
        assert!(read_as("1.816", None).unwrap().ambiguous);
        // A point in a comma window (or the other way round) with two decimals is a
        // misreading, not a value.
        assert_eq!(plain("453,75", Some('.')), None);
        assert_eq!(plain("453.75", Some(',')), None);
    }

    #[test]
    fn what_is_no_number() {
        for text in [
            "",
            ".",
            "12.",
            ".12",
            "1,,816",
            "1.816.90",
            "1,81.90",
            "12,3456.7",
            "1 816 ,90",
            "1816.9012",
            "0123",
            "00.45",
            "1.816,90.5",
            "12a",
            "1,816,9",
            "1'816'9",
            "0,123,456",
        ] {
            assert!(interpretations(text).is_empty(), "{text:?} read as {:?}", interpretations(text));
        }
        // Mixed group marks are no grouping.
        assert!(interpretations("1,234.567.890").is_empty());
        assert!(interpretations("1 234,567.89").is_empty());
    }

    #[test]
    fn the_window_mark_comes_from_values_that_read_one_way() {
        assert_eq!(window_mark(["1,816.90", "1,816", "453.75"]), Some('.'));
        assert_eq!(window_mark(["1 816,90", "12,5", "1.816"]), Some(','));
        // `1,816` and `1.816` each read two ways: they do not vote.
        assert_eq!(window_mark(["1,816", "1.816", "12"]), None);
        assert_eq!(window_mark(["12.50", "12,50"]), None);
    }

    #[test]
    fn crystaldiskmark_3_to_6_print_four_figures() {
        let four = |t: &str| interpretations(t)[0].four_figures();
        for t in ["4164.1", "256.7", "17.28", "0.683", "7.892", "12345.6"] {
            assert!(four(t), "{t}");
        }
        for t in ["453.75", "1234.56", "0.00", "1234", "7.89"] {
            assert!(!four(t), "{t}");
        }
    }

    #[test]
    fn a_mark_read_before_a_value_is_not_part_of_it() {
        // Cells of a CrystalDiskMark 6 window at 125 % (real set 12), whose first
        // column's crops reach into the row buttons.
        assert_eq!(value_part("m 48.58"), "48.58");
        assert_eq!(value_part("31 1828.3"), "1828.3");
        assert_eq!(value_part(", 62.90"), "62.90");
        // A value grouped by a space stays whole; a lone digit is no value.
        assert_eq!(value_part("1 816,90"), "1 816,90");
        assert_eq!(value_part("x 7"), "x 7");
    }

    #[test]
    fn grouping_spaces_do_not_make_a_different_value() {
        assert!(same_as_drawn("1816,90", "1 816,90"));
        assert!(same_as_drawn("1\u{202F}816,90", "1 816,90"));
        assert!(same_as_drawn("1'816.90", "1816.90"));
        assert!(!same_as_drawn("1,816.90", "1816.90"));
        assert!(!same_as_drawn("1816.90", "1816.80"));
    }
}
