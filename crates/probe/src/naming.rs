//! How a drive is named for SSDBase: its vendor when the system only gives a model
//! string, its capacity as drive makers write it, and the serial as a salted hash.

use sha2::{Digest, Sha256};

/// Vendors named by a model string's first word, as operating systems report models
/// ("Samsung SSD 860 EVO 500GB", "WDC WDS500G2B0A-00SM50", "INTEL SSDSC2CT240A4").
/// Small on purpose: a vendor not listed stays unknown rather than guessed. (`bench`'s
/// identity table folds names into keys; this one gives the name a person reads.)
const VENDOR_WORDS: &[(&str, &str)] = &[
    ("adata", "ADATA"),
    ("corsair", "Corsair"),
    ("crucial", "Crucial"),
    ("hgst", "HGST"),
    ("hitachi", "Hitachi"),
    ("intel", "Intel"),
    ("kingston", "Kingston"),
    ("kioxia", "Kioxia"),
    ("lexar", "Lexar"),
    ("micron", "Micron"),
    ("plextor", "Plextor"),
    ("samsung", "Samsung"),
    ("sandisk", "SanDisk"),
    ("seagate", "Seagate"),
    ("sk", "SK hynix"),
    ("hynix", "SK hynix"),
    ("toshiba", "Toshiba"),
    ("transcend", "Transcend"),
    ("wd", "Western Digital"),
    ("wdc", "Western Digital"),
    ("wd_black", "Western Digital"),
];

/// Vendors named by a part number alone, as drives report themselves without a vendor
/// word ("CT500P2SSD8", "SSDPEKNW010T8", "ST2000DM008-2FR102"): (prefix, whether a digit
/// must follow it, vendor).
const PART_PREFIXES: &[(&str, bool, &str)] = &[
    ("CT", true, "Crucial"),
    ("MTFD", false, "Micron"),
    ("SSDSC", false, "Intel"),
    ("SSDPE", false, "Intel"),
    ("MZ-", false, "Samsung"),
    ("MZ7", false, "Samsung"),
    ("MZV", false, "Samsung"),
    ("SA400", false, "Kingston"),
    ("SKC", true, "Kingston"),
    ("SNV", true, "Kingston"),
    ("ST", true, "Seagate"),
    ("WDS", true, "Western Digital"),
    ("WD", true, "Western Digital"),
    ("HFS", true, "SK hynix"),
    ("SDSSD", false, "SanDisk"),
];

/// The vendor a model string names, when it does.
pub fn vendor_from_model(model: &str) -> Option<&'static str> {
    let first = model.split_whitespace().next()?;
    let word = first.to_ascii_lowercase();
    if let Some(&(_, vendor)) = VENDOR_WORDS.iter().find(|(w, _)| *w == word) {
        return Some(vendor);
    }
    let upper = first.to_ascii_uppercase();
    PART_PREFIXES.iter().find_map(|&(prefix, digit_follows, vendor)| {
        let rest = upper.strip_prefix(prefix)?;
        (!digit_follows || rest.starts_with(|c: char| c.is_ascii_digit())).then_some(vendor)
    })
}

/// Card makers by the CID's manufacturer id (sysfs `manfid`), as the kernel's
/// `drivers/mmc/core/card.h` names them (`CID_MANFID_*`). SD cards and MMC/eMMC number
/// their makers apart, so the card's `type` picks the table; ids not listed stay unknown.
pub fn mmc_vendor(card_type: &str, manfid: u32) -> Option<&'static str> {
    Some(match (card_type, manfid) {
        ("SD", 0x03) => "SanDisk",
        ("SD", 0x9f) => "Kingston",
        ("MMC", 0x02) => "SanDisk",
        ("MMC", 0x11) => "Toshiba",
        ("MMC", 0x13) => "Micron",
        ("MMC", 0x15) => "Samsung",
        ("MMC", 0x70) => "Kingston",
        ("MMC", 0x90) => "SK hynix",
        _ => return None,
    })
}

/// The capacity as drive makers write it (shared with the parsers, which fold what a
/// tool printed the same way).
pub use bench::identity::marketed_gb;

/// Salt of the serial hash. It is a constant of this crate, public like the code, so it
/// keeps nothing secret from someone who guesses a serial and hashes it; what it does is
/// make SSDBase's hashes differ from a plain SHA-256 of the serial, which other databases
/// publish, so the hash cannot be joined with them without this code. Changing it
/// changes every hash (two uploads of one drive would no longer match).
pub const SERIAL_SALT: &str = "ssdbase-probe-serial-v1:";

/// Hex SHA-256 of the salt followed by the serial (whitespace trimmed). The serial itself
/// is never kept.
pub fn serial_hash(serial: &str) -> String {
    let digest = Sha256::new().chain_update(SERIAL_SALT).chain_update(serial.trim()).finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendors_from_model_strings() {
        assert_eq!(vendor_from_model("Samsung SSD 860 EVO 500GB"), Some("Samsung"));
        assert_eq!(vendor_from_model("CT500P2SSD8"), Some("Crucial"));
        assert_eq!(vendor_from_model("INTEL SSDSC2CT240A4"), Some("Intel"));
        assert_eq!(vendor_from_model("WDC WDS500G2B0A-00SM50"), Some("Western Digital"));
        assert_eq!(vendor_from_model("WD Red SA500 2.5 4TB"), Some("Western Digital"));
        assert_eq!(vendor_from_model("SSDPEKNW010T8"), Some("Intel"));
        assert_eq!(vendor_from_model("ST2000DM008-2FR102"), Some("Seagate"));
        assert_eq!(vendor_from_model("CTX"), None);
        assert_eq!(vendor_from_model("STORAGE DEVICE"), None);
        assert_eq!(vendor_from_model("2115"), None);
        assert_eq!(vendor_from_model(""), None);
    }

    #[test]
    fn capacities_as_marketed() {
        assert_eq!(marketed_gb(500_107_862_016), Some(500));
        assert_eq!(marketed_gb(4_000_787_030_016), Some(4000));
        assert_eq!(marketed_gb(480_103_981_056), Some(480));
        assert_eq!(marketed_gb(256_060_514_304), Some(256));
        assert_eq!(marketed_gb(240_057_409_536), Some(240));
        assert_eq!(marketed_gb(1_000_204_886_016), Some(1000));
        assert_eq!(marketed_gb(8_001_563_222_016), Some(8000));
        assert_eq!(marketed_gb(63_864_569_856), Some(64));
        assert_eq!(marketed_gb(31_914_983_424), Some(32));
        assert_eq!(marketed_gb(0), None);
        assert_eq!(marketed_gb(u64::MAX), None);
    }

    #[test]
    fn the_serial_hash_is_salted() {
        let hash = serial_hash("S3Z9NB0K123456");
        assert_eq!(hash.len(), 64);
        assert_eq!(hash, serial_hash(" S3Z9NB0K123456 "));
        let plain: String = Sha256::digest("S3Z9NB0K123456").iter().map(|b| format!("{b:02x}")).collect();
        assert_ne!(hash, plain);
    }
}
