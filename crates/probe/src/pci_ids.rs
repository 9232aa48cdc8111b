//! Names of PCI vendors and devices from the pci.ids database (Debian's `hwdata` or
//! `pciutils` package): vendor lines `vvvv  Name`, device lines `\tdddd  Name` under their
//! vendor, subsystem lines indented twice, and from the first `C ` line on, device
//! classes, which end the search. The file is ~1.5 MB, read line by line and only as far
//! as the vendor asked for.

use crate::sysfs::Root;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Where distributions keep pci.ids, in the order looked at.
pub const LOCATIONS: &[&str] = &["/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"];

/// Largest pci.ids read; the real one is under 2 MB.
const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// What pci.ids says about one vendor and device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PciName {
    pub vendor: String,
    /// `None` when the vendor is listed but not the device.
    pub device: Option<String>,
    /// The database file the names came from.
    pub database: PathBuf,
}

/// The first pci.ids found under `root`, as the machine's path.
pub fn database(root: &Root) -> Option<PathBuf> {
    LOCATIONS.iter().map(Path::new).find(|p| root.host_file(p).is_some()).map(Path::to_path_buf)
}

/// Looks `vendor:device` up in the database at `path` (the machine's path).
pub fn lookup(root: &Root, path: &Path, vendor: u16, device: u16) -> Option<PciName> {
    let file = File::open(root.host_file(path)?).ok()?;
    let mut lines = BufReader::new(file.take(MAX_BYTES)).split(b'\n');
    let vendor_hex = format!("{vendor:04x}");
    let device_hex = format!("{device:04x}");
    let mut vendor_name = None;
    for line in lines.by_ref() {
        let line = String::from_utf8_lossy(&line.ok()?).into_owned();
        if line.starts_with("C ") {
            return None;
        }
        if let Some(name) = entry(&line, &vendor_hex) {
            vendor_name = Some(name);
            break;
        }
    }
    let vendor_name = vendor_name?;
    let mut device_name = None;
    for line in lines {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line).into_owned();
        if !line.starts_with('\t') && !line.starts_with('#') && !line.trim().is_empty() {
            break; // the next vendor
        }
        if let Some(rest) = line.strip_prefix('\t').filter(|r| !r.starts_with('\t')) {
            if let Some(name) = entry(rest, &device_hex) {
                device_name = Some(name);
                break;
            }
        }
    }
    Some(PciName { vendor: vendor_name, device: device_name, database: path.to_path_buf() })
}

/// The name on a line `hhhh  Name` whose id is `id` (lower-case hex).
fn entry(line: &str, id: &str) -> Option<String> {
    let rest = line.strip_prefix(id)?;
    let name = rest.strip_prefix("  ")?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// A sysfs id file's value: `0x8086` → 0x8086.
pub fn parse_id(text: &str) -> Option<u16> {
    u16::from_str_radix(text.trim().strip_prefix("0x")?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_from_sysfs_form() {
        assert_eq!(parse_id("0x8086\n"), Some(0x8086));
        assert_eq!(parse_id("8086"), None);
        assert_eq!(parse_id("0xzzzz"), None);
    }

    #[test]
    fn an_entry_needs_its_two_spaces() {
        assert_eq!(entry("8086  Intel Corporation", "8086").as_deref(), Some("Intel Corporation"));
        assert_eq!(entry("80861  Other", "8086"), None);
    }
}
