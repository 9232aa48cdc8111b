//! The screenshot flow's logic, apart from the page: which files are images, which
//! number of a recognised metric the person checks, and the result with their
//! corrections applied (what `POST /results` publishes with the `ocr_job`).

use bench::{BenchResult, Metric};

/// Below this confidence a recognised value is highlighted for the person to check.
pub const LOW_CONFIDENCE: f32 = 0.9;

/// PNG, JPEG, GIF, BMP or WebP by their first bytes: the formats `POST /ocr` accepts
/// (the server checks again; this only routes a dropped file to the screenshot flow).
pub fn is_image(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(b"\xff\xd8\xff")
        || bytes.starts_with(b"GIF87a")
        || bytes.starts_with(b"GIF89a")
        || bytes.starts_with(b"BM")
        || (bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP")
}

/// The number a screenshot shows for a metric: MB/s, or IOPS / µs in the profiles that
/// print those. `(field, unit, value)`.
pub fn shown_value(m: &Metric) -> Option<(&'static str, &'static str, f64)> {
    [("mbps", "MB/s", m.mbps), ("iops", "IOPS", m.iops), ("latency_us", "µs", m.latency_us)]
        .into_iter()
        .find_map(|(field, unit, v)| Some((field, unit, v?)))
}

/// A typed value: `19,730.47` and ` 550.2 ` are numbers; empty means "drop this test".
fn parse_value(text: &str) -> Result<Option<f64>, ()> {
    let t: String = text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
        _ => Err(()),
    }
}

/// The settings of a run the review table shows for editing, in the order of its inputs:
/// the result's field (as `Provenance::settings_corrected` names it) and its label.
pub const SETTINGS: [(&str, &str); 3] =
    [("passes", "Test count"), ("test_size_bytes", "Test size"), ("target", "Target")];

/// The person's texts for [`SETTINGS`], in that order.
pub type SettingTexts = [String; 3];

/// The settings of `r` as the inputs show them: empty when the screenshot's settings bar
/// did not give one (so an untouched input publishes exactly what was read).
pub fn setting_texts(r: &BenchResult) -> SettingTexts {
    [
        r.passes.map(|p| p.to_string()).unwrap_or_default(),
        r.test_size_bytes.map(size_text).unwrap_or_default(),
        r.target.clone().unwrap_or_default(),
    ]
}

/// The settings' inputs as HTML, each starting from `texts` (one not read is empty and
/// flagged "not read: check", like a doubtful value); `data-index` is its place in
/// [`SETTINGS`]. The texts come from a screenshot, so they are escaped.
pub fn settings_html(texts: &SettingTexts) -> String {
    // Escaped here rather than with the share panel's helper: a function two lazy
    // pieces of the wasm use becomes a chunk of its own both download.
    let attr = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    let mut html = String::from("<legend>Settings</legend>");
    for (i, ((field, label), text)) in SETTINGS.iter().zip(texts).enumerate() {
        let (low, note) = if text.is_empty() { (" low", " (not read: check)") } else { ("", "") };
        let (mode, hint) = [("numeric", "1–99"), ("text", "e.g. 1 GiB"), ("text", "e.g. C:")][i];
        html += &format!(
            "<label class=\"setting{low}\"><span>{label}{note}</span><input id=\"ocr-setting-{field}\" \
             data-index=\"{i}\" inputmode=\"{mode}\" placeholder=\"{hint}\" value=\"{}\"></label>",
            attr(text)
        );
    }
    html
}

const UNITS: [(&str, u64); 4] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];

/// A test size as the tools' menus write it: `1 GiB`, `64 MiB`, `4000 MiB` (the largest
/// binary unit it is a whole number of; bytes when it is none).
pub fn size_text(bytes: u64) -> String {
    match UNITS.iter().find(|(_, u)| bytes > 0 && bytes.is_multiple_of(*u)) {
        Some((name, u)) => format!("{} {name}", bytes / u),
        None => format!("{bytes} B"),
    }
}

/// A typed test size: a whole number and a unit, `1 GiB`, `64MiB`, `4000 MB`, `1g`.
/// `MB`/`GB` are binary here: CrystalDiskMark's menus say `MB` for MiB (3.x's `4000MB`
/// writes 4000 MiB), and the recogniser and the text parser read them so too; a typed
/// size must mean what the same text in the screenshot means. Without a unit it is
/// refused rather than guessed. 1 MiB to 1 TiB: the tools offer 16 MiB–64 GiB, the
/// bounds only catch slips such as a missing or wrong unit.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t: String = text.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.to_ascii_lowercase().trim_end_matches('b').trim_end_matches('i') {
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => 0,
    };
    // One message for every way it can be wrong (missing or unknown unit, not a whole
    // number, out of range): it says what a valid size looks like.
    match number.parse::<u64>().ok().and_then(|n| n.checked_mul(1 << shift)) {
        Some(bytes) if shift > 0 && ((1 << 20)..=(1 << 40)).contains(&bytes) => Ok(bytes),
        _ => Err(format!(
            "test size {text:?}: write a whole number of MiB or GiB (1 MiB to 1 TiB), e.g. 1 GiB"
        )),
    }
}

/// A typed test count (passes): 1–99, as the recogniser accepts (CrystalDiskMark offers
/// 1–9, KDiskMark more); empty means "not known".
fn parse_count(text: &str) -> Result<Option<u32>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<u32>() {
        Ok(n) if (1..=99).contains(&n) => Ok(Some(n)),
        _ => Err(format!("test count {text:?}: expected a whole number from 1 to 99")),
    }
}

/// `recognised` with the person's settings and values in place: `settings` are the texts
/// of [`SETTINGS`] (an emptied one publishes none), `texts[i]` the value of metric `i`
/// (an emptied value drops its test); a setting or value that does not parse is an error
/// naming it.
pub fn corrected(
    recognised: &BenchResult,
    texts: &[String],
    settings: &[String],
) -> Result<BenchResult, String> {
    let mut out = recognised.clone();
    let setting = |i: usize| settings.get(i).map_or("", |s| s.trim());
    out.passes = parse_count(setting(0))?;
    out.test_size_bytes = match setting(1) {
        "" => None,
        t => Some(parse_size(t)?),
    };
    out.target = Some(setting(2)).filter(|t| !t.is_empty()).map(str::to_string);
    out.metrics.clear();
    for (m, text) in recognised.metrics.iter().zip(texts) {
        let Some((field, unit, _)) = shown_value(m) else {
            out.metrics.push(m.clone());
            continue;
        };
        let value = parse_value(text)
            .map_err(|()| format!("{} {:?}: {text:?} is not a number of {unit}", m.label, m.op))?;
        let Some(value) = value else { continue };
        let mut m = m.clone();
        match field {
            "mbps" => m.mbps = Some(value),
            "iops" => m.iops = Some(value),
            _ => m.latency_us = Some(value),
        }
        out.metrics.push(m);
    }
    if out.metrics.is_empty() {
        return Err("every value is empty: there is nothing to publish".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recognised() -> BenchResult {
        bench::parse_str(CDM8, None).unwrap().remove(0)
    }

    const CDM8: &str = "------------------------------------------------------------------------------
CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo
                                  Crystal Dew World: https://crystalmark.info/
------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
  SEQ    1MiB (Q=  8, T= 1):   560.123 MB/s [    534.2 IOPS] < 14944.37 us>
  SEQ    1MiB (Q=  1, T= 1):   520.567 MB/s [    496.5 IOPS] <  2012.11 us>
  RND    4KiB (Q= 32, T= 1):   390.456 MB/s [  95326.2 IOPS] <   335.41 us>
  RND    4KiB (Q=  1, T= 1):    40.123 MB/s [   9795.7 IOPS] <   101.93 us>

[Write]
  SEQ    1MiB (Q=  8, T= 1):   510.789 MB/s [    487.1 IOPS] < 16314.09 us>
  SEQ    1MiB (Q=  1, T= 1):   480.123 MB/s [    457.9 IOPS] <  2180.01 us>
  RND    4KiB (Q= 32, T= 1):   350.456 MB/s [  85560.5 IOPS] <   373.50 us>
  RND    4KiB (Q=  1, T= 1):    90.123 MB/s [  22002.7 IOPS] <    45.26 us>

Profile: Default
   Test: 1 GiB (x5) [C: 37% (77/209GiB)]
   Mode: [Admin]
   Time: Measure 5 sec / Interval 5 sec 
";

    #[test]
    fn images_are_known_by_their_first_bytes() {
        assert!(is_image(b"\x89PNG\r\n\x1a\n...."));
        assert!(is_image(b"\xff\xd8\xff\xe0"));
        assert!(is_image(b"GIF89a"));
        assert!(is_image(b"RIFF\0\0\0\0WEBPVP8 "));
        assert!(!is_image(b"CrystalDiskMark 8.0.4"));
        assert!(!is_image(b"RIFF\0\0\0\0WAVE"));
    }

    #[test]
    fn corrections_replace_drop_and_refuse() {
        let r = recognised();
        let mut texts: Vec<String> =
            r.metrics.iter().map(|m| shown_value(m).unwrap().2.to_string()).collect();
        let settings = setting_texts(&r);
        assert_eq!(corrected(&r, &texts, &settings).unwrap(), r, "unchanged values give the reading back");
        texts[0] = "1,234.5".into();
        texts[1] = " ".into();
        let c = corrected(&r, &texts, &settings).unwrap();
        assert_eq!(c.metrics.len(), r.metrics.len() - 1);
        assert_eq!(c.metrics[0].mbps, Some(1234.5));
        assert_eq!(c.metrics[1], r.metrics[2]);
        texts[2] = "fast".into();
        let e = corrected(&r, &texts, &settings).unwrap_err();
        assert!(e.contains(&r.metrics[2].label) && e.contains("\"fast\""), "{e}");
        assert!(corrected(&r, &vec![String::new(); r.metrics.len()], &settings).is_err());
    }

    #[test]
    fn sizes_read_as_the_tools_write_them() {
        for (text, bytes) in [
            ("1 GiB", 1u64 << 30),
            ("1GiB", 1 << 30),
            (" 64 MiB ", 64 << 20),
            ("4000 MB", 4000 << 20),
            ("4000MB", 4000 << 20),
            ("32GB", 32 << 30),
            ("512m", 512 << 20),
            ("1,024 MiB", 1 << 30),
            ("1 TiB", 1 << 40),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for text in [
            "",
            "1",
            "GiB",
            "1.5 GiB",
            "1 GiBs",
            "-1 GiB",
            "0 GiB",
            "512 KiB",
            "2 TiB",
            "lots",
            "99999999999999999999 GiB",
        ] {
            let e = parse_size(text).unwrap_err();
            assert!(e.contains(&format!("{text:?}")), "{e}");
        }
        // What is shown reads back as the same size.
        for bytes in [1u64 << 30, 64 << 20, 4000 << 20, 32 << 30, 1536 << 20] {
            assert_eq!(parse_size(&size_text(bytes)), Ok(bytes), "{}", size_text(bytes));
        }
        assert_eq!(size_text(1 << 30), "1 GiB");
        assert_eq!(size_text(4000 << 20), "4000 MiB");
        assert_eq!(size_text(1000), "1000 B");
    }

    #[test]
    fn settings_inputs_start_from_the_reading_escaped() {
        let html = settings_html(&["5".into(), String::new(), "C: \"<b>\" & co".into()]);
        assert_eq!(html.matches("<input ").count(), 3);
        assert!(
            html.contains(
                r#"id="ocr-setting-passes" data-index="0" inputmode="numeric" placeholder="1–99" value="5""#
            ),
            "{html}"
        );
        assert!(html.contains(r#"<label class="setting low"><span>Test size (not read: check)</span><input id="ocr-setting-test_size_bytes" data-index="1""#), "{html}");
        assert!(html.contains(r#"value="C: &quot;&lt;b>&quot; &amp; co""#), "{html}");
        assert_eq!(html.matches(" low").count(), 1, "only the unread setting is flagged");
    }

    #[test]
    fn settings_as_typed_are_published() {
        let r = recognised();
        assert_eq!((r.passes, r.test_size_bytes), (Some(5), Some(1 << 30)), "the export's settings");
        let texts: Vec<String> = r.metrics.iter().map(|m| shown_value(m).unwrap().2.to_string()).collect();
        let settings = setting_texts(&r);
        assert_eq!(settings[..2], ["5".to_string(), "1 GiB".to_string()]);
        let c = corrected(&r, &texts, &["3".into(), "4 GiB".into(), " D: ".into()]).unwrap();
        assert_eq!((c.passes, c.test_size_bytes, c.target.as_deref()), (Some(3), Some(4 << 30), Some("D:")));
        assert_eq!(c.metrics, r.metrics, "the values are untouched");
        let c = corrected(&r, &texts, &[" ".into(), String::new(), String::new()]).unwrap();
        assert_eq!(
            (c.passes, c.test_size_bytes, c.target),
            (None, None, None),
            "emptied settings are not published"
        );
        for (bad, named) in [
            (["0", "1 GiB", ""], "\"0\""),
            (["100", "1 GiB", ""], "\"100\""),
            (["5", "1 GB of data", ""], "\"1 GB of data\""),
        ] {
            let e = corrected(&r, &texts, &bad.map(String::from)).unwrap_err();
            assert!(e.contains(named), "{e}");
        }
    }
}
