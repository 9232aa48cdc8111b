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

/// `recognised` with the person's values (`texts[i]` for metric `i`) in place: an
/// emptied value drops its test; a value that is not a number is an error naming it.
pub fn corrected(recognised: &BenchResult, texts: &[String]) -> Result<BenchResult, String> {
    let mut out = recognised.clone();
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
        assert_eq!(corrected(&r, &texts).unwrap(), r, "unchanged values give the reading back");
        texts[0] = "1,234.5".into();
        texts[1] = " ".into();
        let c = corrected(&r, &texts).unwrap();
        assert_eq!(c.metrics.len(), r.metrics.len() - 1);
        assert_eq!(c.metrics[0].mbps, Some(1234.5));
        assert_eq!(c.metrics[1], r.metrics[2]);
        texts[2] = "fast".into();
        let e = corrected(&r, &texts).unwrap_err();
        assert!(e.contains(&r.metrics[2].label) && e.contains("\"fast\""), "{e}");
        assert!(corrected(&r, &vec![String::new(); r.metrics.len()]).is_err());
    }
}
