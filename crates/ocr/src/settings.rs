//! The title bar (tool and version) and the settings bar (test count, test size, drive,
//! unit, mix ratio), read from text: whatever the UI language, these strings are not
//! translated.

use crate::Settings;
use regex_lite::Regex;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("settings pattern compiles"))
}

fn version_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // CrystalDiskMark's versions run from 2.x to 9.x: a major version of two digits is
    // a lost dot (`8.0.4` read as `80.4`), so none is taken from such a text.
    re(&RE, r"(?:^|[^\d.])([1-9]\.\d{1,2}(?:\.\d{1,2})?[a-z]?)(?:[^\d.]|$)")
}

fn size_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Count and size sit in two combo boxes; a drive's "(used/total GiB)" must never read
    // as them, so neither number may follow a bracket or slash, nor the gap hold a slash.
    re(&RE, r"(?:^|[^\d.(/])(\d{1,2})[^\d/]{1,8}?(\d{1,5}) ?(MiB|GiB|MB|GB|KiB|TiB)(?:[^A-Za-z)]|$)")
}

/// A drive as CrystalDiskMark shows it (`C: 37% (77/209GiB)`) or KDiskMark (`/ 45%
/// (104.75/227.74 GiB)`, its path maybe cut off inside the widget).
fn drive_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r"([A-Z]): ?(\d{1,3}) ?% ?\(([\d.,]+)/([\d.,]+) ?([KMGT]i?B)[)}\]]|(/\S*?) ?(\d{1,3})% ?\(([\d.,]+)/([\d.,]+) ?([KMGT]i?B)[)}\]]|(/\S* \d{1,3}% \([\d.,/ ]*)",
    )
}

/// The drive in `t` as the tool prints it (spacing restored: CrystalDiskMark writes no
/// space before the unit, KDiskMark one; the closing parenthesis, often read as `}` or
/// `]` beside the combo box's arrow, restored), and where it ends in `t`.
fn find_drive(t: &str) -> Option<(String, std::ops::Range<usize>)> {
    let c = drive_re().captures(t)?;
    let range = c.get(0)?.range();
    let text = if let Some(letter) = c.get(1) {
        format!("{}: {}% ({}/{}{})", letter.as_str(), &c[2], &c[3], &c[4], &c[5])
    } else if let Some(path) = c.get(6) {
        // KDiskMark prints both sizes with the same decimal separator: where they differ,
        // one was misread (`0,02/3.58`), and the other is right.
        let (mut used, mut total) = (c[8].to_string(), c[9].to_string());
        if used.contains(',') != total.contains(',') {
            used = used.replace(',', ".");
            total = total.replace(',', ".");
        }
        format!("{} {}% ({used}/{total} {})", path.as_str(), &c[7], &c[10])
    } else {
        c[11].trim().to_string()
    };
    Some((text, range))
}

fn unit_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"(MiB/s|GiB/s|MB/s|GB/s|IOPS|[μµ]s)")
}

fn mix_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"R ?(\d{1,3})% ?/ ?W ?(\d{1,3})%")
}

/// Tool, version and title from the title line (if any).
pub fn title(line: &str) -> (Option<bench::Tool>, Option<String>) {
    if !line.contains("iskMark") && !line.contains("DiskMar") {
        return (None, None);
    }
    if line.contains("KDisk") {
        return (Some(bench::Tool::KDiskMark), None);
    }
    let version = version_re().captures(line).map(|c| {
        let mut v = c[1].to_string();
        if line.contains("Shizuku") {
            v.push_str(" Shizuku Edition");
        }
        for arch in ["x64", "x86", "ARM64", "A64"] {
            if line.contains(arch) {
                v.push(' ');
                v.push_str(arch);
                break;
            }
        }
        v
    });
    (Some(bench::Tool::CrystalDiskMark), version)
}

/// The test count box: one digit 1–9 and the box's arrow, which Tesseract reads as
/// anything from `v` to `¥`, `M` or (KDiskMark's up/down arrows) a second digit; a `1`
/// in this font often reads as `t`, `T`, `l` or `I`, which only counts when the arrow
/// follows it (alone it is as likely a stray border or the end of "All").
fn count_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^\W{0,2}(?:([1-9])\s?[0-9oO]?|([tTlI])\s?[vVyY])\s?[vVyYwWM~+\-»«¥^*.:;,'_“”‘’\s]{0,4}$")
}

fn box_size_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^\W{0,2}(\d{1,5})( ?)(MiB|GiB|MB|GB|KiB|TiB)")
}

/// Undoes Tesseract's usual confusions in these strings: the `i` of a binary unit read
/// as `1`, `I`, `l`, `/` or `|` (`209G1B`, `32 MIB`), a `B` as `E` after `M` (`4000ME`), a
/// drive letter `I` as `|` or `l` and its colon as `;`, a `C` as `€` or `©`.
fn fix_confusions(t: &str) -> String {
    static UNIT: OnceLock<Regex> = OnceLock::new();
    static MEGA: OnceLock<Regex> = OnceLock::new();
    static LETTER: OnceLock<Regex> = OnceLock::new();
    let t = t.trim();
    let t = re(&UNIT, r"(\d ?[KMGT])[1Il/|!]B").replace_all(t, "${1}iB");
    let t = re(&MEGA, r"(\d ?M)E(\W|$)").replace_all(&t, "${1}B${2}");
    let t = re(&LETTER, r"(^|[^A-Za-z])([A-Z|l€©]) ?[:;] ?(\d{1,3}) ?%").replace_all(
        &t,
        |c: &regex_lite::Captures| {
            let letter = match &c[2] {
                "|" | "l" => "I",
                "€" | "©" => "C",
                l => l,
            };
            format!("{}{letter}: {}%", &c[1], &c[3])
        },
    );
    t.into_owned()
}

/// Fills the settings from the strip read one combo box at a time: each box holds one
/// setting, so each text is classified on its own.
pub fn parse_boxes(boxes: &[String], s: &mut Settings) {
    for b in boxes {
        let t = fix_confusions(b);
        if s.test_count.is_none() && s.test_size.is_none() {
            if let Some(c) = count_re().captures(&t) {
                s.test_count = match c.get(1) {
                    Some(d) => d.as_str().parse().ok(),
                    None => Some(1),
                };
                continue;
            }
        }
        if s.test_size.is_none() && s.drive.is_none() {
            if let Some(c) = box_size_re().captures(&t) {
                // No `continue`: a box whose border was not found may hold the drive too.
                s.test_size = Some(format!("{}{}{}", &c[1], &c[2], &c[3]));
            }
        }
        if s.drive.is_none() {
            if let Some((drive, at)) = find_drive(&t) {
                s.drive = Some(drive);
                // The unit box may have joined the drive's (no border between them).
                if s.unit.is_none() {
                    s.unit = unit_re().captures(&t[at.end..]).map(|c| c[1].replace('µ', "μ"));
                }
                continue;
            }
        }
        if s.mix_ratio.is_none() {
            if let Some(c) = mix_re().captures(&t) {
                s.mix_ratio = Some(format!("R{}%/W{}%", &c[1], &c[2]));
                continue;
            }
        }
        if s.unit.is_none() && s.drive.is_some() {
            if let Some(c) = unit_re().captures(&t) {
                s.unit = Some(c[1].replace('µ', "μ"));
            }
        }
    }
}

/// Whether `parse_bar` could add nothing to `s`: it fills only the fields still empty,
/// and these are all it reads (a window without a Mix column shows no mix ratio).
pub fn bar_adds_nothing(s: &Settings, mix_column: bool) -> bool {
    s.test_count.is_some()
        && s.test_size.is_some()
        && s.drive.is_some()
        && s.unit.is_some()
        && (s.mix_ratio.is_some() || !mix_column)
}

/// Fills the settings from texts of the settings strip, best source first.
pub fn parse_bar(texts: &[String], s: &mut Settings) {
    for t in texts {
        let t = fix_confusions(t);
        let drive = find_drive(&t);
        if s.drive.is_none() {
            s.drive = drive.as_ref().map(|d| d.0.clone());
        }
        let before_drive = drive.as_ref().map_or(t.as_str(), |d| &t[..d.1.start]);
        if s.test_size.is_none() || s.test_count.is_none() {
            if let Some(c) = size_re().captures(before_drive) {
                // Count and size are filled one at a time: a box read alone may have
                // given one of them already.
                // A count is taken beside the size already read, not beside another.
                let same_size = s
                    .test_size
                    .as_ref()
                    .is_none_or(|size| size.replace(' ', "") == format!("{}{}", &c[2], &c[3]));
                if s.test_count.is_none() && same_size {
                    s.test_count = c[1].parse().ok().filter(|n| (1..=9).contains(n));
                }
                if s.test_size.is_none() {
                    let sep = if t.contains(&format!("{} {}", &c[2], &c[3])) { " " } else { "" };
                    s.test_size = Some(format!("{}{sep}{}", &c[2], &c[3]));
                }
            }
        }
        let after_drive = drive.as_ref().map_or("", |d| &t[d.1.end..]);
        if s.unit.is_none() {
            s.unit = unit_re().captures(after_drive).map(|c| c[1].replace('µ', "μ"));
        }
        if s.mix_ratio.is_none() {
            s.mix_ratio = mix_re().captures(&t).map(|c| format!("R{}%/W{}%", &c[1], &c[2]));
        }
    }
}

/// The test size as `tool` prints it: KDiskMark with a space before the unit (`1 GiB`),
/// CrystalDiskMark without (`1GiB`, `4000MB`). The space itself is too thin to be read
/// reliably, the tool is not.
pub fn size_as_printed(size: &str, tool: bench::Tool) -> String {
    let digits = size.trim_end_matches(|c: char| !c.is_ascii_digit()).trim();
    let unit = size[digits.len()..].trim();
    match tool {
        bench::Tool::KDiskMark => format!("{digits} {unit}"),
        _ => format!("{digits}{unit}"),
    }
}

/// The unit named in the column headers (`Read (MB/s)`, `Read [MiB/s]`).
pub fn header_unit(text: &str) -> Option<String> {
    unit_re().captures(text).map(|c| c[1].replace('µ', "μ"))
}

pub fn mix_read_percent(ratio: &str) -> Option<u8> {
    mix_re().captures(ratio).and_then(|c| c[1].parse().ok()).filter(|p| *p <= 100)
}

/// `1GiB` → bytes; `4000MB` is binary too (CrystalDiskMark's MB are MiB).
pub fn size_bytes(size: &str) -> Option<u64> {
    let t = size.replace(' ', "");
    let split = t.find(|c: char| !c.is_ascii_digit())?;
    let n: u64 = t[..split].parse().ok()?;
    let unit = match &t[split..] {
        "KiB" => 1 << 10,
        "MiB" | "MB" => 1 << 20,
        "GiB" | "GB" => 1 << 30,
        "TiB" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_boxes() {
        let mut s = Settings::default();
        let boxes = ["All", "5 v", "1GiB v", "C: 29% (37/126GiB) v", "MB/s v"].map(String::from);
        parse_boxes(&boxes, &mut s);
        assert_eq!(s.test_count, Some(5));
        assert_eq!(s.test_size.as_deref(), Some("1GiB"));
        assert_eq!(s.drive.as_deref(), Some("C: 29% (37/126GiB)"));
        assert_eq!(s.unit.as_deref(), Some("MB/s"));
    }

    #[test]
    fn settings_bar_texts() {
        let mut s = Settings::default();
        parse_bar(&["5 v||1GiB_ vy  |: 0% (0/1908GiB)  ¥|LMB/s_~| | R70%/W30%".into()], &mut s);
        assert_eq!(s.test_count, Some(5));
        assert_eq!(s.test_size.as_deref(), Some("1GiB"));
        assert_eq!(s.drive.as_deref(), Some("I: 0% (0/1908GiB)"));
        assert_eq!(s.unit.as_deref(), Some("MB/s"));
        assert_eq!(s.mix_ratio.as_deref(), Some("R70%/W30%"));
        let (tool, v) = title("CoystalDiskMark 8.0.4 x64 [Admin]");
        assert_eq!(tool, Some(bench::Tool::CrystalDiskMark));
        assert_eq!(v.as_deref(), Some("8.0.4 x64"));
        assert_eq!(size_bytes("4000MB"), Some(4000 << 20));
        assert_eq!(size_bytes("1 GiB"), Some(1 << 30));
    }

    #[test]
    fn a_closing_parenthesis_read_as_a_brace_or_bracket_still_ends_the_drive() {
        // Read so from a two-window desktop capture: the box's border and arrow beside
        // the parenthesis make it `}`; the unit box after it is then read too.
        for (text, drive) in [
            ("C: 37% (77/209GiB} ¥", "C: 37% (77/209GiB)"),
            ("C: 4% (79/1862GiB] v", "C: 4% (79/1862GiB)"),
            ("/ 0% (0.02/3.58 TiB}", "/ 0% (0.02/3.58 TiB)"),
        ] {
            let mut s = Settings::default();
            parse_boxes(&[text.to_string(), "MB/s v".to_string()], &mut s);
            assert_eq!(s.drive.as_deref(), Some(drive), "{text}");
            assert_eq!(s.unit.as_deref(), Some("MB/s"), "{text}");
        }
    }

    #[test]
    fn a_drive_text_is_never_read_as_count_and_size() {
        // The drive box alone, its colon lost, so the drive pattern does not match.
        for text in ["C 37% (77/209GiB)", "C: 37% (77/209GiB", "37% (77/209GiB)"] {
            let mut s = Settings::default();
            parse_bar(&[text.into()], &mut s);
            assert_eq!((s.test_count, s.test_size.as_deref()), (None, None), "{text}");
        }
    }
}

#[cfg(test)]
mod confusions {
    use super::*;

    fn boxes(texts: &[&str]) -> Settings {
        let mut s = Settings::default();
        parse_boxes(&texts.iter().map(|t| t.to_string()).collect::<Vec<_>>(), &mut s);
        s
    }

    /// Box readings as Tesseract gave them on the corpus, and what they say.
    #[test]
    fn misread_boxes_read_as_drawn() {
        let s = boxes(&["tv", "1GiB-", "C: 37% (77/209G1B) v", "MB/s +"]);
        assert_eq!(s.test_count, Some(1));
        assert_eq!(s.test_size.as_deref(), Some("1GiB"));
        assert_eq!(s.drive.as_deref(), Some("C: 37% (77/209GiB)"));
        assert_eq!(s.unit.as_deref(), Some("MB/s"));
        let s = boxes(&["3 Vv", "64MiB v", "C:4% (79/1862G/B) “"]);
        assert_eq!((s.test_count, s.drive.as_deref()), (Some(3), Some("C: 4% (79/1862GiB)")));
        assert_eq!(boxes(&["5M", "I; 3% (235/7454MIB)"]).drive.as_deref(), Some("I: 3% (235/7454MiB)"));
        assert_eq!(boxes(&["€:93% (110/118GiB) MB/s"]).drive.as_deref(), Some("C: 93% (110/118GiB)"));
        assert_eq!(boxes(&["€:93% (110/118GiB) MB/s"]).unit.as_deref(), Some("MB/s"));
        assert_eq!(boxes(&["5", "4000ME ad"]).test_size.as_deref(), Some("4000MB"));
        // KDiskMark's spin box: its up/down arrows read as a second digit.
        assert_eq!(boxes(&["55", "1 GiB"]).test_count, Some(5));
    }

    #[test]
    fn strays_are_no_count() {
        for stray in ["|", "All", "l", "UN All 3 .", "neip"] {
            assert_eq!(boxes(&[stray]).test_count, None, "{stray}");
        }
        // `32MiB` alone is one size, not a count of 3 and 2 MiB.
        let mut s = Settings { test_size: Some("32 MiB".into()), ..Settings::default() };
        parse_bar(&[">  .  32 MiB  v  MB/s".into()], &mut s);
        assert_eq!(s.test_count, None);
        let mut s = Settings::default();
        parse_bar(&["32MiB".into()], &mut s);
        assert_eq!((s.test_count, s.test_size), (None, None));
    }

    #[test]
    fn kdiskmark_drives() {
        let s = boxes(&["1GiB » /0% (0,02/3.58 TIB)~", "MB/s ~"]);
        assert_eq!(s.drive.as_deref(), Some("/ 0% (0.02/3.58 TiB)"));
        assert_eq!(s.unit.as_deref(), Some("MB/s"));
        // A path cut off inside the widget: the drive ends where the text does, and the
        // unit box after it is still read.
        let mut s = Settings::default();
        parse_bar(&["5 32 MiB fhome/jonmagon 63% (145.28/22 ~ MiB/s ~".into()], &mut s);
        assert_eq!(s.drive.as_deref(), Some("/jonmagon 63% (145.28/22"));
        assert_eq!(s.unit.as_deref(), Some("MiB/s"));
        assert_eq!((s.test_count, s.test_size.as_deref()), (Some(5), Some("32 MiB")));
    }

    #[test]
    fn versions_and_sizes() {
        assert_eq!(title("CoystalDiskMark 80.4 x64 [Admin]").1, None, "a lost dot is no version");
        assert_eq!(title("CrystalDiskMark 8.0.5 x64 [Admin]").1.as_deref(), Some("8.0.5 x64"));
        assert_eq!(title("CrystalDiskMark 3.0.1").1.as_deref(), Some("3.0.1"));
        assert_eq!(size_as_printed("1GiB", bench::Tool::KDiskMark), "1 GiB");
        assert_eq!(size_as_printed("32 MiB", bench::Tool::CrystalDiskMark), "32MiB");
        assert_eq!(size_as_printed("4000MB", bench::Tool::CrystalDiskMark), "4000MB");
    }
}
