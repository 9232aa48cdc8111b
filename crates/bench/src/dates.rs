//! Dates from Unix seconds (UTC), as SSDBase prints them, by the `time` crate: one place
//! for the parsers (fio's timestamps) and the site (the day a result was sent).

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Unix seconds → `2026-07-08T09:07:52Z`; `None` outside the years 1970 to 9999.
pub fn rfc3339_utc(secs: f64) -> Option<String> {
    if !(0.0..253_402_300_800.0).contains(&secs) {
        return None;
    }
    OffsetDateTime::from_unix_timestamp(secs.floor() as i64).ok()?.format(&Rfc3339).ok()
}

/// Unix seconds → the UTC day, `2023-11-14` (the number as it is when no date has it).
pub fn utc_day(secs: i64) -> String {
    OffsetDateTime::from_unix_timestamp(secs).map_or_else(|_| secs.to_string(), |t| t.date().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_unix_seconds() {
        assert_eq!(rfc3339_utc(0.0).as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(rfc3339_utc(951_782_400.0).as_deref(), Some("2000-02-29T00:00:00Z"));
        assert_eq!(rfc3339_utc(1_783_516_072.0).as_deref(), Some("2026-07-08T13:07:52Z"));
        assert_eq!(rfc3339_utc(1_783_516_072.9).as_deref(), Some("2026-07-08T13:07:52Z"));
        assert_eq!(rfc3339_utc(-1.0), None);
        assert_eq!(rfc3339_utc(f64::NAN), None);
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(1_700_000_000), "2023-11-14");
        assert_eq!(utc_day(951_782_400), "2000-02-29");
        assert_eq!(utc_day(-86_400), "1969-12-31");
    }
}
