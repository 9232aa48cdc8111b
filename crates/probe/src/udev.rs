//! udev's database: `/run/udev/data/b<major>:<minor>`, one file per block device, whose
//! `E:KEY=value` lines are the properties `udevadm info` prints (ID_MODEL, ID_REVISION,
//! ID_SERIAL_SHORT, ID_BUS, ID_USB_DRIVER, ...). Values ending in `_ENC` escape bytes as
//! `\xNN` (a space is `\x20`) and keep the device's own spelling, where the plain ones
//! have spaces turned into underscores.

use crate::sysfs::Root;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One device's udev properties, and the file they came from.
#[derive(Debug, Clone, Default)]
pub struct UdevDevice {
    pub path: PathBuf,
    properties: BTreeMap<String, String>,
}

impl UdevDevice {
    /// The database entry of the block device `major:minor`, when udev keeps one.
    pub fn read(root: &Root, dev: &str) -> Option<UdevDevice> {
        let path = Path::new("/run/udev/data").join(format!("b{dev}"));
        let text = root.read(&path)?;
        Some(UdevDevice { properties: parse(&text), path })
    }

    /// A property as written, `None` when absent or empty.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties.get(key).map(String::as_str).filter(|v| !v.trim().is_empty())
    }

    /// A text property in the device's own spelling: the `_ENC` form decoded, else the
    /// plain form with its underscores read as spaces. Runs of spaces collapse.
    pub fn text(&self, key: &str) -> Option<String> {
        let decoded = match self.get(&format!("{key}_ENC")) {
            Some(enc) => decode(enc),
            None => self.get(key)?.replace('_', " "),
        };
        let words: Vec<&str> = decoded.split_whitespace().collect();
        (!words.is_empty()).then(|| words.join(" "))
    }
}

fn parse(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("E:")?.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// `\xNN` escapes decoded; anything else kept as it is.
pub fn decode(enc: &str) -> String {
    let bytes = enc.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'x') {
            let hex = bytes.get(i + 2..i + 4).and_then(|h| std::str::from_utf8(h).ok());
            if let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(byte);
                i += 4;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_values_get_their_spaces_back() {
        assert_eq!(decode(r"Samsung\x20SSD\x20860\x20EVO"), "Samsung SSD 860 EVO");
        assert_eq!(decode(r"a\xZZb\"), r"a\xZZb\");
        assert_eq!(decode(r"x\x2"), r"x\x2");
    }

    #[test]
    fn properties_are_read_from_e_lines_only() {
        let device = UdevDevice {
            path: PathBuf::new(),
            properties: parse(
                "S:disk/by-id/ata-X\nE:ID_MODEL=WD_Red\nE:ID_MODEL_ENC=WD\\x20Red\\x20\\x20\nI:123\n",
            ),
        };
        assert_eq!(device.text("ID_MODEL").as_deref(), Some("WD Red"));
        assert_eq!(device.get("disk/by-id/ata-X"), None);
    }
}
