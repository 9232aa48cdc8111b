//! `nvme id-ctrl -o json <device>` (nvme-cli): the Identify Controller data. Its strings
//! are the raw fixed-width fields, padded with spaces (`"mn" : "WDC PC SN730 ...     "`).

use serde_json::Value;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct NvmeIdCtrl {
    pub model: Option<String>,
    pub firmware: Option<String>,
    /// Only ever hashed (see `serial_hash`).
    pub serial: Option<String>,
    /// PCI vendor id of the drive's maker (`vid`).
    pub vendor_id: Option<u16>,
    /// Total NVM capacity in bytes (`tnvmcap`; 0 when the drive does not say).
    pub total_capacity_bytes: Option<u64>,
}

/// Reads nvme-cli's JSON; `None` when it is not JSON or has no model.
pub fn parse(json: &str) -> Option<NvmeIdCtrl> {
    let v: Value = serde_json::from_str(json).ok()?;
    let text = |key: &str| v.get(key).and_then(Value::as_str).and_then(crate::clean_text);
    let id = NvmeIdCtrl {
        model: text("mn"),
        firmware: text("fr"),
        serial: text("sn"),
        vendor_id: v.get("vid").and_then(Value::as_u64).and_then(|n| u16::try_from(n).ok()),
        total_capacity_bytes: v.get("tnvmcap").and_then(Value::as_u64).filter(|&b| b > 0),
    };
    id.model.is_some().then_some(id)
}
