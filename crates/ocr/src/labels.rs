//! Row-button text → a canonical test label and the test it names.
//!
//! Buttons are never translated, and their grammar is small: `SEQ1M Q8T1`, `RND4K Q32T16`,
//! Peak/Real profile rows `RND4K (IOPS)` / `RND4K (μs)`, CrystalDiskMark 5/6 `Seq Q32T1`,
//! `4K Q8T8`, `Seq`, `4K`, and 3.x `Seq`, `512K`, `4K`, `4K QD32`. OCR confusions in digit
//! positions (I/l/| for 1, O for 0, S for 5, B for 8) are undone by the grammar, not by
//! guessing words.

use bench::Access;
use regex_lite::Regex;
use std::sync::OnceLock;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

/// What a row measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A test of its own, the values in the window's unit.
    Test { access: Access, block_size: u64, queue_depth: u32, threads: u32 },
    /// Peak/Real profiles: IOPS of the nearest test row above with this access and block.
    Iops { access: Access, block_size: u64 },
    /// Peak/Real profiles: mean latency in µs of that test.
    Latency { access: Access, block_size: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// As drawn, lines joined by one space: `SEQ1M Q8T1`, `RND4K (μs)`, `4K QD32`.
    pub text: String,
    pub kind: RowKind,
}

fn re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // On the compacted, upper-cased text. D = a digit or a letter OCR confuses with one.
    RE.get_or_init(|| {
        let d = "[0-9OILSBZ|]";
        Regex::new(&format!(
            r"^(SEQ|RND)({d}{{1,4}})(K|M)(?:Q({d}{{1,3}})T({d}{{1,3}})|\((IOPS|[0-9A-Z]{{0,2}}S)\))?$|^(SEQ|{d}{{1,3}}K)(?:QD({d}{{1,3}})|Q({d}{{1,3}})T({d}{{1,3}}))?$"
        ))
        .expect("label grammar compiles")
    })
}

/// A number in a label. Sizes, queue depths and thread counts are powers of two in every
/// preset, so when the letter-for-digit reading is not one but the reading without the
/// confusable letters is (`QI1T1`: the serif of a `1` read as `I` as well), that wins.
fn digits(s: &str) -> Option<u32> {
    let mapped = digits_mapped(s)?;
    if mapped.is_power_of_two() {
        return Some(mapped);
    }
    // `S` is a 5 or an 8 at small sizes.
    if s.contains('S') {
        if let Some(n) = digits_mapped(&s.replace('S', "8")).filter(|n| n.is_power_of_two()) {
            return Some(n);
        }
    }
    let bare: String = s.chars().filter(char::is_ascii_digit).collect();
    match bare.parse::<u32>() {
        Ok(n) if n.is_power_of_two() && bare.len() < s.len() => Some(n),
        _ => Some(mapped),
    }
}

fn digits_mapped(s: &str) -> Option<u32> {
    let fixed: String = s
        .chars()
        .map(|c| match c {
            'O' => '0',
            'I' | 'L' | '|' => '1',
            'S' => '5',
            'B' => '8',
            'Z' => '2',
            c => c,
        })
        .collect();
    fixed.parse().ok().filter(|n| *n > 0)
}

/// True when every number in the label is a power of two, as in every preset and custom
/// setting the tools offer; a reading that is not is probably a misreading.
pub fn plausible(label: &Label) -> bool {
    match label.kind {
        RowKind::Test { block_size, queue_depth, threads, .. } => {
            block_size.is_power_of_two() && queue_depth.is_power_of_two() && threads.is_power_of_two()
        }
        RowKind::Iops { block_size, .. } | RowKind::Latency { block_size, .. } => {
            block_size.is_power_of_two()
        }
    }
}

/// Reads a label from OCR text of one row button (one or two lines).
pub fn parse(text: &str) -> Option<Label> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            'µ' | 'μ' => 'U',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    // Stray marks at the ends (button borders read as `|`, `_`, `-`, `.`).
    let compact = compact
        .trim_matches(|c: char| matches!(c, '_' | '-' | '.' | '—' | '~' | '\'' | '"' | ',' | '‘' | '’'));
    let c = re().captures(compact)?;
    let get = |i: usize| c.get(i).map(|m| m.as_str());
    if let Some(kind) = get(1) {
        let access = if kind == "SEQ" { Access::Seq } else { Access::Rnd };
        let n = digits(get(2)?)?;
        let (unit, block_size) = match get(3)? {
            "K" => ("K", u64::from(n) * KIB),
            _ => ("M", u64::from(n) * MIB),
        };
        let head = format!("{kind}{n}{unit}");
        if let (Some(q), Some(t)) = (get(4), get(5)) {
            let (q, t) = (digits(q)?, digits(t)?);
            return Some(Label {
                text: format!("{head} Q{q}T{t}"),
                kind: RowKind::Test { access, block_size, queue_depth: q, threads: t },
            });
        }
        return match get(6) {
            Some(p) if p.contains("PS") && p.len() >= 3 => {
                Some(Label { text: format!("{head} (IOPS)"), kind: RowKind::Iops { access, block_size } })
            }
            Some(_) => {
                Some(Label { text: format!("{head} (μs)"), kind: RowKind::Latency { access, block_size } })
            }
            // A bare `SEQ1M`: the second line was lost; not enough to name the test.
            None => None,
        };
    }
    // CrystalDiskMark 2.x–6.x buttons.
    let head = get(7)?;
    let (name, access, block_size) = if head == "SEQ" {
        ("Seq".to_string(), Access::Seq, None)
    } else {
        let n = digits(head.trim_end_matches('K'))?;
        (format!("{n}K"), Access::Rnd, Some(u64::from(n) * KIB))
    };
    let (text, block_size, queue_depth, threads) = match (get(8), get(9), get(10)) {
        (Some(qd), ..) => {
            let qd = digits(qd)?;
            (format!("{name} QD{qd}"), block_size.unwrap_or(MIB), qd, 1)
        }
        (_, Some(q), Some(t)) => {
            let (q, t) = (digits(q)?, digits(t)?);
            // 5.x/6.x: the multi-queue sequential test is 128 KiB.
            (format!("{name} Q{q}T{t}"), block_size.unwrap_or(128 * KIB), q, t)
        }
        _ => (name, block_size.unwrap_or(MIB), 1, 1),
    };
    Some(Label { text, kind: RowKind::Test { access, block_size, queue_depth, threads } })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Option<String> {
        parse(s).map(|l| l.text)
    }

    #[test]
    fn labels_in_every_layout_and_common_misreadings() {
        assert_eq!(text("SEQ1M\nQ8T1"), Some("SEQ1M Q8T1".into()));
        assert_eq!(text("SEQIM\nQ1Tl"), Some("SEQ1M Q1T1".into()));
        assert_eq!(text("RND4K\nQ32T16"), Some("RND4K Q32T16".into()));
        assert_eq!(text("SEQ128K Q128T32"), Some("SEQ128K Q128T32".into()));
        assert_eq!(text("RND4K\n(IOPS)"), Some("RND4K (IOPS)".into()));
        assert_eq!(text("RND4K\n(µs)"), Some("RND4K (μs)".into()));
        assert_eq!(text("Seq"), Some("Seq".into()));
        assert_eq!(text("512K"), Some("512K".into()));
        assert_eq!(text("4K\nQD32"), Some("4K QD32".into()));
        assert_eq!(text("Seq\nQ32T1"), Some("Seq Q32T1".into()));
        assert_eq!(text("SEQ1M"), None);
        assert_eq!(text("SEQIM QsT1"), Some("SEQ1M Q8T1".into()));
        assert_eq!(text("RND4K QI1T1"), Some("RND4K Q1T1".into()));
        assert_eq!(text("Read"), None);
        let l = parse("4K QD32").unwrap();
        assert_eq!(
            l.kind,
            RowKind::Test { access: Access::Rnd, block_size: 4096, queue_depth: 32, threads: 1 }
        );
        let l = parse("Seq Q32T1").unwrap();
        assert_eq!(
            l.kind,
            RowKind::Test { access: Access::Seq, block_size: 131072, queue_depth: 32, threads: 1 }
        );
    }
}
