//! The probe as text for the person about to submit: what will be sent, each fact with
//! where it came from, and what could not be found.

use crate::{Drive, Layer, Probe, Transport};
use bench::Link;
use std::fmt::Write;

/// A link as people say it: "6 Gb/s", "PCIe 3 x4", "USB 5 Gb/s".
fn link_text(link: &Link) -> String {
    match *link {
        Link::Sata { gbps } => format!("{gbps} Gb/s"),
        Link::Pcie { gen, lanes } => format!("PCIe {gen} x{lanes}"),
        Link::Usb { gbps } => format!("USB {gbps} Gb/s"),
    }
}

/// "Samsung SSD 860 EVO 500GB (SATA, AHCI, 6 Gb/s) firmware RVT04B6Q, 500 GB".
fn drive_line(drive: &Drive) -> String {
    let model = drive.model.as_ref().map_or("unknown model", |m| m.value.as_str());
    let mut attached = Vec::new();
    attached.push(drive.transport.value.to_string());
    if let Some(mode) = drive.controller.as_ref().and_then(|c| c.mode.as_ref()) {
        attached.push(crate::ShowValue::show(&mode.value));
    }
    if drive.transport.value == Transport::Usb {
        match drive.uas.as_ref().map(|u| u.value) {
            Some(true) => attached.push("UAS".into()),
            Some(false) => attached.push("usb-storage".into()),
            None => {}
        }
    }
    if let Some(link) = &drive.link {
        attached.push(link_text(&link.value));
    }
    let mut line = format!("{model} ({})", attached.join(", "));
    if let Some(firmware) = &drive.firmware {
        let _ = write!(line, " firmware {}", firmware.value);
    }
    if let Some(gb) = drive.capacity_gb() {
        let _ = write!(line, ", {gb} GB");
    }
    line
}

pub(crate) fn render(probe: &Probe) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Target: {}", probe.target.display());
    for layer in &probe.layers {
        let _ = match layer {
            Layer::Partition { device, disk, .. } => writeln!(out, "Partition: {device} of {disk}"),
            Layer::Md(md) => writeln!(
                out,
                "RAID: {} {} of {} ({})",
                md.device,
                md.level_name.value,
                md.members.as_ref().map_or("?".into(), |m| m.value.to_string()),
                md.member_devices.join(", ")
            ),
            Layer::DeviceMapper { device, name, members } => writeln!(
                out,
                "Device mapper: {device} {} over {}",
                name.as_ref().map_or("", |n| n.value.as_str()),
                members.join(", ")
            ),
            Layer::Loop { device, backing_file } => writeln!(
                out,
                "Loop device: {device} backed by {}",
                backing_file.as_ref().map_or("an unknown file", |b| b.value.as_str())
            ),
        };
    }
    for drive in &probe.drives {
        let _ = writeln!(out, "Drive: {}", drive_line(drive));
    }
    if probe.drives.is_empty() {
        let _ = writeln!(out, "Drive: not found");
    }
    let tags = probe.tags();
    let platform = &tags.platform;
    let mut parts = Vec::new();
    if let Some(c) = &platform.storage_controller {
        parts.push(match &platform.driver {
            Some(d) => format!("{c} ({d})"),
            None => c.clone(),
        });
    }
    parts.extend(platform.cpu.clone());
    parts.extend(platform.motherboard.clone());
    parts.extend(platform.os.clone());
    if let Some(fs) = &platform.filesystem {
        parts.push(match platform.allocation_unit_bytes {
            Some(unit) => format!("{fs}, {unit}-byte blocks"),
            None => fs.clone(),
        });
    }
    let _ = writeln!(out, "Platform: {}", if parts.is_empty() { "unknown".into() } else { parts.join("; ") });
    let _ = writeln!(out, "Facts (value, then where it came from):");
    for fact in probe.facts() {
        let field = match &fact.device {
            Some(device) => format!("{device} {}", fact.field),
            None => fact.field.to_string(),
        };
        let _ = writeln!(out, "  {field:<28} {:<44} {}", fact.value, fact.source);
    }
    if !probe.notes.is_empty() {
        let _ = writeln!(out, "Not found or not run:");
        for note in &probe.notes {
            let _ = writeln!(out, "  {note}");
        }
    }
    out
}
