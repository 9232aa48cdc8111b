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
            r"^(SEQ|RND)({d}{{1,4}})(K|M)(?:Q({d}{{1,3}})T({d}{{1,3}})|\((IOPS|[0-9A-Z]{{0,2}}S)\))?$|^(SEQ|{d}{{1,3}}K(?:IB)?)(?:QD({d}{{1,3}})|Q({d}{{1,3}})T({d}{{1,3}}))?$"
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
        // 6.x writes the unit out: `4KiB`.
        let (n, unit) = match head.strip_suffix("KIB") {
            Some(n) => (n, "KiB"),
            None => (head.trim_end_matches('K'), "K"),
        };
        let n = digits(n)?;
        (format!("{n}{unit}"), Access::Rnd, Some(u64::from(n) * KIB))
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

/// The row labels of the tools' presets, top to bottom: CrystalDiskMark 8–9 Default
/// (with the 8.0.0–8.0.4 `RND4K Q32T1` and the later `Q32T16`), NVMe SSD, Peak and Real
/// (KDiskMark draws the same labels for its Default, NVMe, Peak and Real sets),
/// CrystalDiskMark 7, 6 (`4KiB`), 5 and 3/4.
const PRESETS: &[&[&str]] = &[
    &["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T16", "RND4K Q1T1"],
    &["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"],
    &["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"],
    &["SEQ1M Q8T1", "RND4K Q32T16", "RND4K (IOPS)", "RND4K (μs)"],
    &["SEQ1M Q8T1", "RND4K Q32T1", "RND4K (IOPS)", "RND4K (μs)"],
    &["SEQ1M Q1T1", "RND4K Q1T1", "RND4K (IOPS)", "RND4K (μs)"],
    &["Seq Q32T1", "4KiB Q8T8", "4KiB Q32T1", "4KiB Q1T1"],
    &["Seq Q32T1", "4K Q8T8", "4K Q32T1", "4K"],
    &["Seq Q32T1", "4KiB Q32T1", "Seq", "4KiB"],
    &["Seq Q32T1", "4K Q32T1", "Seq", "4K"],
    &["Seq", "512K", "4K", "4K QD32"],
];

/// The most rows a window shows: four in every preset of every version.
pub fn most_rows() -> usize {
    PRESETS.iter().map(|p| p.len()).max().unwrap_or(0)
}

/// At most this edit distance per character for a guess from a preset: over the
/// guessed labels together, and for each one.
const MAX_DISTANCE_PER_CHAR: f32 = 0.4;
const MAX_ROW_DISTANCE_PER_CHAR: f32 = 0.6;
/// A preset guess must beat the next preset that would name a row differently by this.
const MIN_MARGIN: f32 = 1.0;

/// Fills the rows whose label could not be read (`read[i]` is `None`) from the tools'
/// presets, when the labels that were read and what OCR made of the others (`raw[i]`,
/// every text read on that button) fit one preset clearly better than any other. Small
/// or blurred buttons are often read as `SEQIP q1qT1` or `RND4K 23271`: not the
/// grammar, but close to exactly one label of the window's preset.
///
/// Returns the guessed labels (`None` where nothing is guessed); a guess is for a person
/// to confirm, never a reading.
pub fn guess_from_presets(read: &[Option<Label>], raw: &[Vec<String>]) -> Vec<Option<Label>> {
    let unread: Vec<usize> = (0..read.len()).filter(|&i| read[i].is_none()).collect();
    let mut none = vec![None; read.len()];
    if unread.is_empty() {
        return none;
    }
    // Every preset of the grid's height that agrees with the labels read, with its cost:
    // the distance of the unread rows' texts to its labels.
    let mut fits: Vec<(f32, &[&str])> = PRESETS
        .iter()
        .filter(|p| p.len() == read.len())
        .filter(|p| read.iter().zip(p.iter()).all(|(r, l)| r.as_ref().is_none_or(|r| r.text == *l)))
        .filter_map(|p| {
            let (mut cost, mut chars) = (0.0, 0.0);
            for &i in &unread {
                let d = raw[i].iter().map(|t| distance_within(t, p[i])).fold(f32::INFINITY, f32::min);
                let len = compact(p[i]).chars().count() as f32;
                if d > MAX_ROW_DISTANCE_PER_CHAR * len {
                    return None;
                }
                cost += d;
                chars += len;
            }
            (cost <= MAX_DISTANCE_PER_CHAR * chars).then_some((cost, *p))
        })
        .collect();
    fits.sort_by(|a, b| a.0.total_cmp(&b.0));
    let Some(&(best_cost, best)) = fits.first() else { return none };
    // A row is guessed when every preset that fits nearly as well names it the same: a
    // button between `Q32T1` and `Q32T16` stays unread, the rows around it do not.
    let close: Vec<&[&str]> = fits.iter().filter(|(c, _)| *c < best_cost + MIN_MARGIN).map(|f| f.1).collect();
    for &i in &unread {
        if close.iter().all(|p| p[i] == best[i]) {
            none[i] = parse(best[i]);
        }
    }
    none
}

/// Upper case without spaces, `μ` as `U`: the form labels are matched in.
fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            'µ' | 'μ' => 'U',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// Glyphs Tesseract takes for one another on small buttons.
const CONFUSED: &[&str] = &["1IL|!T7J", "0OQDC", "5S$", "8BS&", "2Z", "4A", "MNH", "KX", "6G", "UV"];

/// The `distance` to a label from the words of an OCR text that match it best (a run of
/// whole words): a themed button's art or a JPEG's smear around the text is read as
/// marks beside it (`y) SEQIM a Q8T1`, `oe APS) RND4K Qig1`), which are not the label's.
fn distance_within(ocr: &str, label: &str) -> f32 {
    let words: Vec<&str> = ocr.split_whitespace().collect();
    let mut best = distance(ocr, label);
    for from in 0..words.len() {
        for to in from + 1..=words.len() {
            best = best.min(distance(&words[from..to].join(" "), label));
        }
    }
    best
}

/// Edit distance from OCR text to a label, on their compacted forms; a substitution of
/// glyphs OCR confuses costs half.
pub fn distance(ocr: &str, label: &str) -> f32 {
    let a: Vec<char> = compact(ocr).chars().collect();
    let b: Vec<char> = compact(label).chars().collect();
    let sub = |x: char, y: char| {
        if x == y {
            0.0
        } else if CONFUSED.iter().any(|g| g.contains(x) && g.contains(y)) {
            0.5
        } else {
            1.0
        }
    };
    let mut prev: Vec<f32> = (0..=b.len()).map(|j| j as f32).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut cur = vec![(i + 1) as f32; b.len() + 1];
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + sub(x, y)).min(prev[j + 1] + 1.0).min(cur[j] + 1.0);
        }
        prev = cur;
    }
    prev[b.len()]
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
        assert_eq!(text("4KiB\nQ8T8"), Some("4KiB Q8T8".into()));
        assert_eq!(text("4KIB Q1T1"), Some("4KiB Q1T1".into()));
        assert_eq!(text("SEQ1M"), None);
        assert_eq!(text("SEQIM QsT1"), Some("SEQ1M Q8T1".into()));
        assert_eq!(text("RND4K QI1T1"), Some("RND4K Q1T1".into()));
        assert_eq!(text("Read"), None);
        let l = parse("4K QD32").unwrap();
        assert_eq!(
            l.kind,
            RowKind::Test { access: Access::Rnd, block_size: 4096, queue_depth: 32, threads: 1 }
        );
        let l = parse("4KiB Q32T1").unwrap();
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

    #[test]
    fn unread_labels_are_guessed_only_from_a_preset_that_fits_clearly() {
        let read = |t: &[&str]| t.iter().map(|t| parse(t).filter(plausible)).collect::<Vec<_>>();
        let raw = |t: &[&str]| t.iter().map(|t| vec![t.to_string()]).collect::<Vec<_>>();
        let texts = |g: Vec<Option<Label>>| g.into_iter().map(|l| l.map(|l| l.text)).collect::<Vec<_>>();
        // What Tesseract read on the buttons of a CrystalDiskMark 8 window at 80 %.
        let first = ["SEQ1M Q8T1", "SEQII q1q1", "RND4K 23271", "RND4K 1T1"];
        assert_eq!(
            texts(guess_from_presets(&read(&first), &raw(&first))),
            [None, Some("SEQ1M Q1T1".into()), Some("RND4K Q32T1".into()), Some("RND4K Q1T1".into())]
        );
        let none = ["SPQOP O8T", first[1], first[2], first[3]];
        assert_eq!(texts(guess_from_presets(&read(&none), &raw(&none)))[0].as_deref(), Some("SEQ1M Q8T1"));
        // `RND4K Q32T##` is as near to Q32T1 as to Q32T16: no guess for that row.
        let cut = ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T##", "RND4K Q1T1"];
        assert_eq!(texts(guess_from_presets(&read(&cut), &raw(&cut))), [None, None, None, None]);
        // ... while the rows around it, which every close preset names alike, are guessed.
        let blurred = ["SPQIM 8T1", "SEIM QT", "RND4AK Q32T1€", "RNDK Q"];
        assert_eq!(
            texts(guess_from_presets(&read(&blurred), &raw(&blurred))),
            [Some("SEQ1M Q8T1".into()), Some("SEQ1M Q1T1".into()), None, Some("RND4K Q1T1".into())]
        );
        // A label read that no preset has (a custom window): nothing is guessed.
        let custom = ["SEQ256K Q8T1", "xx", "RND4K (IOPS)", "RND4K (μs)"];
        assert_eq!(texts(guess_from_presets(&read(&custom), &raw(&custom))), [None, None, None, None]);
        // Text nowhere near a label: nothing is guessed.
        let junk = ["SEQ1M Q8T1", "Crucial", "RND4K Q32T16", "RND4K Q1T1"];
        assert_eq!(texts(guess_from_presets(&read(&junk), &raw(&junk))), [None, None, None, None]);
        // A themed window's buttons (a picture behind the text; real set 22, a
        // CrystalDiskMark 8.0.4 Shizuku window, at 85 %): the labels among marks of the
        // art, every text read on each button. Before, the marks counted against every
        // preset and no row was guessed.
        let themed: Vec<Vec<String>> = [
            &["4 SEQIM\nQs Q8T1 T", "l: Q8T1 EQIM Jk", "y) SEQIM a Q8T1"][..],
            &["SEQIM | Qiti Jk", "e 2 SEQIM\nNe R\nNe See", "SEQIM Qiti"],
            &["(Se\nq3271TT", "eS RND4K Q32T1 Jk", "q32T1"],
            &["RND4K af all Qig1 Jl", "oe APS) RND4K Qig1", "Pe\nee Q1TTee"],
        ]
        .iter()
        .map(|texts| texts.iter().map(|t| t.to_string()).collect())
        .collect();
        assert_eq!(
            texts(guess_from_presets(&[None, None, None, None], &themed)),
            [
                Some("SEQ1M Q8T1".into()),
                Some("SEQ1M Q1T1".into()),
                Some("RND4K Q32T1".into()),
                Some("RND4K Q1T1".into())
            ]
        );
        assert_eq!(distance("SEQIM Q1T1", "SEQ1M Q1T1"), 0.5);
        assert_eq!(distance("RND4K 23271", "RND4K Q32T1"), 1.5);
    }
}
