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
    re(&RE, r"(\d{1,2}\.\d{1,2}(?:\.\d{1,2})?[a-z]?)")
}

fn size_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // Count and size sit in two combo boxes; a drive's "(used/total GiB)" must never read
    // as them, so neither number may follow a bracket or slash, nor the gap hold a slash.
    re(&RE, r"(?:^|[^\d.(/])(\d{1,2})[^\d/]{0,8}?(\d{1,5}) ?(MiB|GiB|MB|GB|KiB|TiB)(?:[^A-Za-z)]|$)")
}

fn drive_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"([A-Z]: ?\d{1,3}% ?\([\d.,]+/[\d.,]+ ?[KMGT]i?B\)|/\S* \d{1,3}% \([^)]*\)?)")
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

fn count_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^\W{0,2}(\d{1,2})\W{0,3}[v~]?\W{0,3}$")
}

fn box_size_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^\W{0,2}(\d{1,5})( ?)(MiB|GiB|MB|GB|KiB|TiB)")
}

/// Fills the settings from the strip read one combo box at a time: each box holds one
/// setting, so each text is classified on its own.
pub fn parse_boxes(boxes: &[String], s: &mut Settings) {
    for b in boxes {
        let t = b.trim().replace("|:", "I:").replace("l:", "I:");
        if s.test_count.is_none() && s.test_size.is_none() {
            if let Some(c) = count_re().captures(&t) {
                s.test_count = c[1].parse().ok().filter(|n| (1..=99).contains(n));
                continue;
            }
        }
        if s.test_size.is_none() && s.drive.is_none() {
            if let Some(c) = box_size_re().captures(&t) {
                s.test_size = Some(format!("{}{}{}", &c[1], &c[2], &c[3]));
                continue;
            }
        }
        if s.drive.is_none() {
            if let Some(c) = drive_re().captures(&t) {
                s.drive = Some(c[1].trim().to_string());
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

/// Fills the settings from texts of the settings strip, best source first.
pub fn parse_bar(texts: &[String], s: &mut Settings) {
    for t in texts {
        // `|:` and `l:` are how a drive letter I reads at small sizes.
        let t = t.replace("|:", "I:").replace("l:", "I:");
        if s.drive.is_none() {
            s.drive = drive_re().captures(&t).map(|c| c[1].trim().to_string());
        }
        let before_drive = drive_re().find(&t).map_or(t.as_str(), |m| &t[..m.start()]);
        if s.test_size.is_none() {
            if let Some(c) = size_re().captures(before_drive) {
                s.test_count = c[1].parse().ok().filter(|n| (1..=99).contains(n));
                let sep = if t.contains(&format!("{} {}", &c[2], &c[3])) { " " } else { "" };
                s.test_size = Some(format!("{}{sep}{}", &c[2], &c[3]));
            }
        }
        let after_drive = drive_re().find(&t).map_or("", |m| &t[m.end()..]);
        if s.unit.is_none() {
            s.unit = unit_re().captures(after_drive).map(|c| c[1].replace('µ', "μ"));
        }
        if s.mix_ratio.is_none() {
            s.mix_ratio = mix_re().captures(&t).map(|c| format!("R{}%/W{}%", &c[1], &c[2]));
        }
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
    fn a_drive_text_is_never_read_as_count_and_size() {
        // The drive box alone, its colon lost, so the drive pattern does not match.
        for text in ["C 37% (77/209GiB)", "C: 37% (77/209GiB", "37% (77/209GiB)"] {
            let mut s = Settings::default();
            parse_bar(&[text.into()], &mut s);
            assert_eq!((s.test_count, s.test_size.as_deref()), (None, None), "{text}");
        }
    }
}
