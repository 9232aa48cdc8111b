//! `smartctl --json -i <device>` (smartmontools 7): the drive's own identify data, which
//! for a SATA drive is more than sysfs shows (the SCSI layer cuts the model to 16
//! characters and the firmware to 4), and which reaches a SATA drive behind a USB bridge
//! (`-d sat`) whose sysfs strings are the bridge's.

use serde_json::Value;

/// What the probe takes from smartctl's answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SmartctlInfo {
    pub model: Option<String>,
    pub firmware: Option<String>,
    /// Only ever hashed (see `serial_hash`).
    pub serial: Option<String>,
    pub capacity_bytes: Option<u64>,
    /// `rotation_rate`: 0 for a solid-state drive, the spindle speed otherwise.
    pub rotation_rpm: Option<u64>,
    /// The SATA link as the drive reports it ("6.0 Gb/s"), in Gb/s.
    pub sata_gbps: Option<f32>,
    /// `device.protocol`: "ATA", "NVMe", "SCSI".
    pub protocol: Option<String>,
}

/// Reads smartctl's JSON; `None` when it is not JSON or names no drive (smartctl answers
/// with JSON even when it could not open the device).
pub fn parse(json: &str) -> Option<SmartctlInfo> {
    let v: Value = serde_json::from_str(json).ok()?;
    let text = |ptr: &str| v.pointer(ptr).and_then(Value::as_str).and_then(crate::clean_text);
    let info = SmartctlInfo {
        model: text("/model_name").or_else(|| text("/scsi_model_name")),
        firmware: text("/firmware_version").or_else(|| text("/scsi_revision")),
        serial: text("/serial_number"),
        capacity_bytes: v.pointer("/user_capacity/bytes").and_then(Value::as_u64).filter(|&b| b > 0),
        rotation_rpm: v.pointer("/rotation_rate").and_then(Value::as_u64),
        sata_gbps: text("/interface_speed/current/string").and_then(|s| crate::sata_gbps(&s)),
        protocol: text("/device/protocol"),
    };
    info.model.is_some().then_some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_without_a_model_is_no_answer() {
        assert_eq!(parse(r#"{"smartctl":{"exit_status":2},"device":{"name":"/dev/sda"}}"#), None);
        assert_eq!(parse("Smartctl open device: /dev/sda failed"), None);
    }
}
