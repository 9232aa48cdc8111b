//! One physical drive's facts, put together from its sysfs directory, the devices above
//! it in sysfs (PCI function, ATA port, SCSI host, USB device and interface, NVMe
//! controller, MMC card), udev's database, smartctl and nvme-cli.
//!
//! Where several sources tell the same thing, the one nearest the drive wins: smartctl
//! and nvme-cli read the drive's identify data whole; udev copies it (ata_id) or the
//! SCSI inquiry; sysfs has the SCSI inquiry, which cuts a SATA model to 16 characters and
//! its firmware to 4, and for a drive behind a USB bridge names the bridge.

use crate::naming;
use crate::pci_ids::{self, parse_id};
use crate::smartctl::{self, SmartctlInfo};
use crate::sysfs::{is_pci_address, numbered};
use crate::udev::UdevDevice;
use crate::{clean_text, nvme, sata_gbps, Facts, Prober, Source, Sourced};
use bench::{Link, LinkPower, StorageMode};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the drive is attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    Sata,
    /// Parallel ATA, or an ATA link that reports no SATA speed.
    Ata,
    Nvme,
    Usb,
    /// An SD or MMC card, or eMMC.
    Mmc,
    Virtio,
    /// SCSI or SAS.
    Scsi,
    Loop,
    /// A block device with no hardware under it (zram, ram disks, nbd).
    Virtual,
    Unknown,
}

impl std::fmt::Display for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Transport::Sata => "SATA",
            Transport::Ata => "ATA",
            Transport::Nvme => "NVMe",
            Transport::Usb => "USB",
            Transport::Mmc => "MMC/SD",
            Transport::Virtio => "virtio",
            Transport::Scsi => "SCSI",
            Transport::Loop => "loop",
            Transport::Virtual => "virtual",
            Transport::Unknown => "unknown",
        })
    }
}

/// The device a drive hangs off: a PCI function (a SATA or USB host controller, an SD
/// host, a virtio function, or for NVMe the drive itself), or on boards without PCI for
/// it, a platform device (a Raspberry Pi's SD host `fe340000.mmc`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Controller {
    /// `0000:00:17.0`, or a platform device's name.
    pub address: String,
    /// `8086:a352`; `None` for a platform device.
    pub pci_id: Option<Sourced<String>>,
    /// pci.ids' vendor and device name, or the ids when pci.ids is missing; a platform
    /// device's name and the device-tree `compatible` it was matched by.
    pub name: Sourced<String>,
    /// The kernel driver bound to it: `ahci`, `nvme`, `xhci_hcd`, `sdhci-pci`.
    pub driver: Option<Sourced<String>>,
    pub mode: Option<Sourced<StorageMode>>,
    /// Its own PCIe link, when it has one.
    pub link: Option<Sourced<Link>>,
}

/// One physical drive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drive {
    /// Its block device: `sda`, `nvme0n1`, `mmcblk0`.
    pub name: String,
    pub transport: Sourced<Transport>,
    pub vendor: Option<Sourced<String>>,
    pub model: Option<Sourced<String>>,
    pub firmware: Option<Sourced<String>>,
    pub capacity_bytes: Option<Sourced<u64>>,
    /// [`naming::serial_hash`] of the serial number; the serial itself is not kept.
    pub serial_hash: Option<Sourced<String>>,
    pub rotational: Option<Sourced<bool>>,
    /// The drive-side link: SATA speed, the NVMe drive's PCIe link, or the USB speed.
    pub link: Option<Sourced<Link>>,
    pub link_power: Option<Sourced<LinkPower>>,
    /// A USB drive's bridge: its USB ids and the names it gives.
    pub usb_bridge: Option<Sourced<String>>,
    /// Whether the USB bridge runs the UAS driver (rather than usb-storage).
    pub uas: Option<Sourced<bool>>,
    pub controller: Option<Controller>,
}

impl Drive {
    /// The capacity in decimal GB as drive makers write it ([`naming::marketed_gb`]).
    pub fn capacity_gb(&self) -> Option<u32> {
        naming::marketed_gb(self.capacity_bytes.as_ref()?.value)
    }

    pub(crate) fn facts(&self, facts: &mut Facts) {
        let device = Some(self.name.as_str());
        facts.push("transport", self.transport.value.to_string(), self.transport.source.clone(), device);
        facts.add("vendor", &self.vendor, device);
        facts.add("model", &self.model, device);
        facts.add("firmware", &self.firmware, device);
        facts.add("capacity_bytes", &self.capacity_bytes, device);
        if let (Some(gb), Some(bytes)) = (self.capacity_gb(), &self.capacity_bytes) {
            let how = format!("{} bytes in marketed decimal GB (IDEMA LBA count)", bytes.value);
            facts.push("capacity_gb", gb.to_string(), Source::Derived(how), device);
        }
        facts.add("serial_hash", &self.serial_hash, device);
        facts.add("rotational", &self.rotational, device);
        facts.add("link", &self.link, device);
        facts.add("link_power", &self.link_power, device);
        facts.add("usb_bridge", &self.usb_bridge, device);
        facts.add("uas", &self.uas, device);
        if let Some(c) = &self.controller {
            facts.add("storage_controller", &Some(c.name.clone()), device);
            facts.add("controller_pci_id", &c.pci_id, device);
            facts.add("driver", &c.driver, device);
            facts.add("mode", &c.mode, device);
            let field = if self.transport.value == Transport::Nvme { "pcie_link" } else { "host_link" };
            facts.add(field, &c.link, device);
        }
    }
}

/// Where a drive sits in sysfs: the devices above its block directory that matter.
#[derive(Debug, Default)]
struct Topology {
    pci: Option<PathBuf>,
    /// The nearest platform device with a driver, for drives with no PCI device above.
    platform_device: Option<PathBuf>,
    usb_device: Option<PathBuf>,
    usb_interface: Option<PathBuf>,
    /// `ataN` and its directory.
    ata_port: Option<(u32, PathBuf)>,
    /// `hostN` and its directory.
    scsi_host: Option<(u32, PathBuf)>,
    nvme_controller: Option<PathBuf>,
    mmc_card: Option<PathBuf>,
    virtio: bool,
    virtual_device: bool,
}

fn topology(prober: &Prober, dir: &Path) -> Topology {
    let root = &prober.root;
    let mut topology = Topology::default();
    // The devices above the block device, nearest first. With NVMe multipath the
    // namespace lives under a virtual subsystem device, which lists its controllers
    // (`nvme0`, links to the PCI side) beside it: the first stands for the drive's path.
    let nearest =
        multipath_controller(prober, dir).unwrap_or_else(|| dir.parent().unwrap_or(dir).to_path_buf());
    topology.virtual_device = nearest.starts_with("/sys/devices/virtual");
    for ancestor in nearest.ancestors() {
        let Some(name) = ancestor.file_name().and_then(|n| n.to_str()) else { continue };
        let parent_name = ancestor.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str());
        if topology.nvme_controller.is_none()
            && numbered(name, "nvme").is_some()
            && parent_name == Some("nvme")
        {
            topology.nvme_controller = Some(ancestor.to_path_buf());
        }
        if topology.mmc_card.is_none() && name.starts_with("mmc") && name.contains(':') {
            topology.mmc_card = Some(ancestor.to_path_buf());
        }
        if numbered(name, "virtio").is_some() {
            topology.virtio = true;
        }
        if topology.ata_port.is_none() {
            topology.ata_port = numbered(name, "ata").map(|n| (n, ancestor.to_path_buf()));
        }
        if topology.scsi_host.is_none() {
            topology.scsi_host = numbered(name, "host").map(|n| (n, ancestor.to_path_buf()));
        }
        if topology.usb_interface.is_none() && root.exists(&ancestor.join("bInterfaceClass")) {
            topology.usb_interface = Some(ancestor.to_path_buf());
        }
        if topology.usb_device.is_none()
            && root.exists(&ancestor.join("idVendor"))
            && root.exists(&ancestor.join("speed"))
        {
            topology.usb_device = Some(ancestor.to_path_buf());
        }
        if topology.pci.is_none() && is_pci_address(name) {
            topology.pci = Some(ancestor.to_path_buf());
        }
        // Platform devices are named `<address>.<function>` (`fe340000.mmc`); the SCSI
        // and MMC nodes below them, which have drivers too, have colons in their names.
        if topology.platform_device.is_none()
            && ancestor.starts_with("/sys/devices/platform")
            && !name.contains(':')
            && root.link_name(&ancestor.join("driver")).is_some()
        {
            topology.platform_device = Some(ancestor.to_path_buf());
        }
    }
    topology
}

/// The first controller of an NVMe namespace under a multipath subsystem.
fn multipath_controller(prober: &Prober, dir: &Path) -> Option<PathBuf> {
    if !dir.starts_with("/sys/devices/virtual/nvme-subsystem") {
        return None;
    }
    let subsystem = dir.parent()?;
    let root = &prober.root;
    root.list(subsystem)
        .into_iter()
        .filter(|n| numbered(n, "nvme").is_some())
        .find_map(|n| root.canonical(&subsystem.join(n)))
}

/// What the identity sources said, before choosing.
struct Identity {
    smartctl: Option<SmartctlInfo>,
    nvme: Option<nvme::NvmeIdCtrl>,
    udev: Option<UdevDevice>,
}

pub(crate) fn identify(prober: &mut Prober, name: &str, dir: &Path) -> Drive {
    let topology = topology(prober, dir);
    let root = prober.root.clone();
    let dev = root.read(&dir.join("dev"));
    let udev = dev.as_deref().and_then(|d| UdevDevice::read(&root, d));
    if udev.is_none() {
        prober.note(format!("no udev database entry for {name} (/run/udev/data)"));
    }
    let sata_link = topology.ata_port.as_ref().and_then(|(n, port)| sata_link(prober, *n, port));
    let mut transport = transport_of(&topology, sata_link.is_some(), dir);
    let smartctl = match transport.value {
        Transport::Sata | Transport::Ata | Transport::Nvme | Transport::Usb | Transport::Scsi => {
            // Behind a USB bridge smartctl must be told to speak SAT.
            let device_type = (transport.value == Transport::Usb).then_some("sat");
            ask_smartctl(prober, name, device_type)
        }
        _ => None,
    };
    let nvme = match (&topology.nvme_controller, transport.value) {
        (Some(controller), Transport::Nvme) => ask_nvme(prober, controller),
        _ => None,
    };
    let identity = Identity { smartctl, nvme, udev };
    // An ATA port whose link speed sysfs does not show is still SATA when the drive or
    // udev's ata_id says so.
    if transport.value == Transport::Ata {
        if identity.smartctl.as_ref().is_some_and(|s| s.sata_gbps.is_some()) {
            transport = Sourced::new(Transport::Sata, Source::Smartctl);
        } else if let Some(u) = identity.udev.as_ref().filter(|u| u.get("ID_ATA_SATA") == Some("1")) {
            transport = Sourced::new(Transport::Sata, Source::Udev(u.path.display().to_string()));
        }
    }
    let mut drive = Drive {
        name: name.to_string(),
        transport,
        vendor: None,
        model: None,
        firmware: None,
        capacity_bytes: capacity(&root, dir, &identity),
        serial_hash: None,
        rotational: rotational(&root, dir, &identity),
        link: None,
        link_power: None,
        usb_bridge: None,
        uas: None,
        controller: None,
    };
    identify_strings(prober, &mut drive, dir, &topology, &identity);
    match drive.transport.value {
        Transport::Sata | Transport::Ata => {
            drive.link = sata_link.or_else(|| {
                let gbps = identity.smartctl.as_ref()?.sata_gbps?;
                Some(Sourced::new(Link::Sata { gbps }, Source::Smartctl))
            });
            drive.link_power =
                topology.scsi_host.as_ref().and_then(|(n, host)| sata_link_power(&root, *n, host));
        }
        Transport::Nvme => {
            let pci = topology.pci.clone();
            drive.link = pci.as_deref().and_then(|p| pcie_link(&root, p));
            drive.link_power = pci.as_deref().and_then(|p| aspm(&root, p));
        }
        Transport::Usb => usb(prober, &mut drive, &topology, &identity),
        _ => {}
    }
    drive.controller = match (&topology.pci, &topology.platform_device) {
        (Some(pci), _) => Some(controller(prober, pci)),
        (None, Some(device)) => Some(platform_controller(&root, device)),
        (None, None) => None,
    };
    for (what, missing) in [
        ("model", drive.model.is_none()),
        ("firmware", drive.firmware.is_none()),
        ("capacity", drive.capacity_bytes.is_none()),
        // Virtual disks and SD hosts have no link sysfs can show.
        ("link", drive.link.is_none() && has_link(drive.transport.value)),
        ("controller", drive.controller.is_none()),
    ] {
        if missing {
            prober.note(format!("{name}: {what} not found"));
        }
    }
    drive
}

/// Whether a transport has a link whose speed sysfs shows.
fn has_link(transport: Transport) -> bool {
    matches!(transport, Transport::Sata | Transport::Ata | Transport::Nvme | Transport::Usb)
}

fn transport_of(topology: &Topology, sata_speed_known: bool, dir: &Path) -> Sourced<Transport> {
    let (transport, evidence): (Transport, PathBuf) = if let Some(c) = &topology.nvme_controller {
        (Transport::Nvme, c.clone())
    } else if let Some(u) = &topology.usb_device {
        (Transport::Usb, u.clone())
    } else if let Some(m) = &topology.mmc_card {
        (Transport::Mmc, m.clone())
    } else if let Some((_, port)) = &topology.ata_port {
        (if sata_speed_known { Transport::Sata } else { Transport::Ata }, port.clone())
    } else if topology.virtio {
        (Transport::Virtio, dir.to_path_buf())
    } else if let Some((_, host)) = &topology.scsi_host {
        (Transport::Scsi, host.clone())
    } else if topology.virtual_device {
        (Transport::Virtual, dir.to_path_buf())
    } else {
        (Transport::Unknown, dir.to_path_buf())
    };
    Sourced::new(transport, Source::Sysfs(evidence.display().to_string()))
}

fn ask_smartctl(prober: &mut Prober, name: &str, device_type: Option<&str>) -> Option<SmartctlInfo> {
    let device = Path::new("/dev").join(name);
    match prober.tools.smartctl(&device, device_type) {
        Ok(json) => {
            let info = smartctl::parse(&json);
            if info.is_none() {
                prober.note(format!("smartctl gave no identity for {} (it needs root)", device.display()));
            }
            info
        }
        Err(e) => {
            prober.tool_failed(&e);
            None
        }
    }
}

fn ask_nvme(prober: &mut Prober, controller: &Path) -> Option<nvme::NvmeIdCtrl> {
    let device = Path::new("/dev").join(controller.file_name()?);
    match prober.tools.nvme_id_ctrl(&device) {
        Ok(json) => {
            let id = nvme::parse(&json);
            if id.is_none() {
                prober.note(format!("nvme id-ctrl gave no identity for {}", device.display()));
            }
            id
        }
        Err(e) => {
            prober.tool_failed(&e);
            None
        }
    }
}

/// The first of several candidates that was found.
fn first<T>(candidates: impl IntoIterator<Item = Option<Sourced<T>>>) -> Option<Sourced<T>> {
    candidates.into_iter().flatten().next()
}

/// Model, firmware, serial and vendor, each from the nearest source that has it.
fn identify_strings(
    prober: &mut Prober,
    drive: &mut Drive,
    dir: &Path,
    topology: &Topology,
    identity: &Identity,
) {
    let root = prober.root.clone();
    let sysfs = |path: PathBuf| {
        let value = clean_text(&root.read(&path)?)?;
        Some(Sourced::new(value, Source::Sysfs(path.display().to_string())))
    };
    let smart = identity.smartctl.as_ref();
    let nvme = identity.nvme.as_ref();
    let udev = identity.udev.as_ref();
    let udev_text = |key: &str| {
        let u = udev?;
        Some(Sourced::new(clean_text(&u.text(key)?)?, Source::Udev(u.path.display().to_string())))
    };
    let from = |value: Option<&String>, source: Source| value.map(|v| Sourced::new(v.clone(), source));
    // The sysfs strings of the device itself, by kind of device.
    let (sys_model, sys_firmware, sys_serial) = if let Some(controller) = &topology.nvme_controller {
        (
            sysfs(controller.join("model")),
            sysfs(controller.join("firmware_rev")),
            sysfs(controller.join("serial")),
        )
    } else if let Some(card) = &topology.mmc_card {
        (
            sysfs(card.join("name")),
            sysfs(card.join("fwrev")).filter(|f| f.value != "0x0"),
            sysfs(card.join("serial")),
        )
    } else {
        (sysfs(dir.join("device/model")), sysfs(dir.join("device/rev")), sysfs(dir.join("serial")))
    };
    drive.model = first([
        from(smart.and_then(|s| s.model.as_ref()), Source::Smartctl),
        from(nvme.and_then(|n| n.model.as_ref()), Source::NvmeCli),
        udev_text("ID_MODEL"),
        sys_model,
    ]);
    drive.firmware = first([
        from(smart.and_then(|s| s.firmware.as_ref()), Source::Smartctl),
        from(nvme.and_then(|n| n.firmware.as_ref()), Source::NvmeCli),
        udev_text("ID_REVISION"),
        sys_firmware,
    ]);
    let serial = first([
        from(smart.and_then(|s| s.serial.as_ref()), Source::Smartctl),
        from(nvme.and_then(|n| n.serial.as_ref()), Source::NvmeCli),
        udev_text("ID_SERIAL_SHORT"),
        sys_serial,
    ]);
    drive.serial_hash = serial.map(|s| Sourced::new(naming::serial_hash(&s.value), s.source));
    let is_usb = drive.transport.value == Transport::Usb;
    if is_usb && drive.model.as_ref().is_some_and(|m| matches!(m.source, Source::Sysfs(_) | Source::Udev(_)))
    {
        prober.note(format!(
            "{}: behind a USB bridge the model may be the bridge's; smartctl (Debian package smartmontools) reads the drive's own",
            drive.name
        ));
    }
    drive.vendor = vendor(prober, drive, dir, topology, identity, is_usb);
}

fn vendor(
    prober: &Prober,
    drive: &Drive,
    dir: &Path,
    topology: &Topology,
    identity: &Identity,
    is_usb: bool,
) -> Option<Sourced<String>> {
    let root = &prober.root;
    if let Some(model) = &drive.model {
        if let Some(vendor) = naming::vendor_from_model(&model.value) {
            let how = format!("named by the model string {:?}", model.value);
            return Some(Sourced::new(vendor.to_string(), Source::Derived(how)));
        }
    }
    if let Some(card) = &topology.mmc_card {
        let path = card.join("manfid");
        let manfid =
            root.read(&path).and_then(|m| u32::from_str_radix(m.trim_start_matches("0x"), 16).ok())?;
        let card_type = root.read(&card.join("type"))?;
        let vendor = naming::mmc_vendor(&card_type, manfid)?;
        return Some(Sourced::new(vendor.to_string(), Source::Sysfs(path.display().to_string())));
    }
    // The SCSI vendor is "ATA" for every ATA drive, and a USB bridge's own name behind
    // one; anything else is the maker as the drive reports it.
    if !is_usb && topology.nvme_controller.is_none() && !topology.virtio {
        let path = dir.join("device/vendor");
        if let Some(v) = root.read(&path).and_then(|v| clean_text(&v)).filter(|v| v != "ATA") {
            return Some(Sourced::new(v, Source::Sysfs(path.display().to_string())));
        }
    }
    // An NVMe drive's maker by its PCI vendor id (nvme-cli's `vid`, else the function's
    // subsystem vendor), named by pci.ids.
    if topology.nvme_controller.is_some() {
        let db = prober.pci_ids.as_deref()?;
        let pci = topology.pci.as_deref();
        let id = identity
            .nvme
            .as_ref()
            .and_then(|n| n.vendor_id)
            .or_else(|| parse_id(&root.read(&pci?.join("subsystem_vendor"))?))?;
        let name = pci_ids::lookup(root, db, id, 0)?;
        return Some(Sourced::new(name.vendor, Source::PciIds(db.display().to_string())));
    }
    None
}

fn capacity(root: &crate::sysfs::Root, dir: &Path, identity: &Identity) -> Option<Sourced<u64>> {
    // sysfs counts 512-byte sectors whatever the drive's block size.
    let path = dir.join("size");
    let from_sysfs = root
        .read(&path)
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|&s| s > 0)
        .and_then(|s| s.checked_mul(512));
    if let Some(bytes) = from_sysfs {
        return Some(Sourced::new(bytes, Source::Sysfs(path.display().to_string())));
    }
    if let Some(bytes) = identity.smartctl.as_ref().and_then(|s| s.capacity_bytes) {
        return Some(Sourced::new(bytes, Source::Smartctl));
    }
    identity.nvme.as_ref().and_then(|n| n.total_capacity_bytes).map(|b| Sourced::new(b, Source::NvmeCli))
}

fn rotational(root: &crate::sysfs::Root, dir: &Path, identity: &Identity) -> Option<Sourced<bool>> {
    if let Some(rpm) = identity.smartctl.as_ref().and_then(|s| s.rotation_rpm) {
        return Some(Sourced::new(rpm != 0, Source::Smartctl));
    }
    if let Some(udev) = &identity.udev {
        if let Some(rpm) = udev.get("ID_ATA_ROTATION_RATE_RPM").and_then(|r| r.parse::<u64>().ok()) {
            return Some(Sourced::new(rpm != 0, Source::Udev(udev.path.display().to_string())));
        }
    }
    // The kernel's flag, which virtual disks and many USB bridges set to 1 for SSDs too.
    let path = dir.join("queue/rotational");
    let flag = root.read(&path)?;
    let value = match flag.as_str() {
        "0" => false,
        "1" => true,
        _ => return None,
    };
    Some(Sourced::new(value, Source::Sysfs(path.display().to_string())))
}

/// The negotiated SATA speed of ATA port `n`.
fn sata_link(prober: &Prober, n: u32, port: &Path) -> Option<Sourced<Link>> {
    // The link directory is also reachable under the port: ataN/linkN/ata_link/linkN.
    let candidates = [
        PathBuf::from(format!("/sys/class/ata_link/link{n}/sata_spd")),
        port.join(format!("link{n}/ata_link/link{n}/sata_spd")),
    ];
    candidates.into_iter().find_map(|path| {
        let gbps = sata_gbps(&prober.root.read(&path)?)?;
        Some(Sourced::new(Link::Sata { gbps }, Source::Sysfs(path.display().to_string())))
    })
}

/// SATA link power management of SCSI host `n` (libata's policy names).
fn sata_link_power(root: &crate::sysfs::Root, n: u32, host: &Path) -> Option<Sourced<LinkPower>> {
    let candidates = [
        PathBuf::from(format!("/sys/class/scsi_host/host{n}/link_power_management_policy")),
        host.join(format!("scsi_host/host{n}/link_power_management_policy")),
    ];
    candidates.into_iter().find_map(|path| {
        let policy = match root.read(&path)?.as_str() {
            "max_performance" => LinkPower::LpmMaxPerformance,
            "medium_power" => LinkPower::LpmMediumPower,
            "med_power_with_dipm" => LinkPower::LpmMedPowerWithDipm,
            "min_power" => LinkPower::LpmMinPower,
            _ => return None, // keep_firmware_settings: whatever the firmware chose
        };
        Some(Sourced::new(policy, Source::Sysfs(path.display().to_string())))
    })
}

/// A PCI function's negotiated PCIe link.
fn pcie_link(root: &crate::sysfs::Root, pci: &Path) -> Option<Sourced<Link>> {
    let speed_file = pci.join("current_link_speed");
    let gen = pcie_generation(&root.read(&speed_file)?)?;
    let lanes = root.read(&pci.join("current_link_width"))?.parse::<u8>().ok().filter(|&l| l > 0)?;
    Some(Sourced::new(Link::Pcie { gen, lanes }, Source::Sysfs(speed_file.display().to_string())))
}

/// The PCIe generation of a transfer rate as sysfs writes it (`8.0 GT/s PCIe`, `16 GT/s`).
fn pcie_generation(text: &str) -> Option<u8> {
    let rate: f32 = text.split_whitespace().next()?.parse().ok()?;
    Some(match rate {
        r if (r - 2.5).abs() < 0.01 => 1,
        r if (r - 5.0).abs() < 0.01 => 2,
        r if (r - 8.0).abs() < 0.01 => 3,
        r if (r - 16.0).abs() < 0.01 => 4,
        r if (r - 32.0).abs() < 0.01 => 5,
        r if (r - 64.0).abs() < 0.01 => 6,
        _ => return None,
    })
}

/// PCIe ASPM as the kernel shows it per device (`link/l0s_aspm`, `link/l1_aspm`, since
/// Linux 5.5).
fn aspm(root: &crate::sysfs::Root, pci: &Path) -> Option<Sourced<LinkPower>> {
    let flag = |file: &str| match root.read(&pci.join("link").join(file)).as_deref() {
        Some("1") => Some(true),
        Some("0") => Some(false),
        _ => None,
    };
    let (l0s, l1) = (flag("l0s_aspm"), flag("l1_aspm"));
    let power = match (l0s.unwrap_or(false), l1.unwrap_or(false)) {
        _ if l0s.is_none() && l1.is_none() => return None,
        (false, false) => LinkPower::AspmDisabled,
        (true, false) => LinkPower::AspmL0s,
        (false, true) => LinkPower::AspmL1,
        (true, true) => LinkPower::AspmL0sL1,
    };
    Some(Sourced::new(power, Source::Sysfs(pci.join("link").display().to_string())))
}

/// A USB drive's link speed, bridge and driver.
fn usb(prober: &Prober, drive: &mut Drive, topology: &Topology, identity: &Identity) {
    let root = &prober.root;
    if let Some(device) = &topology.usb_device {
        let speed_file = device.join("speed");
        // Mb/s: 1.5, 12, 480, 5000, 10000, 20000.
        let mbps =
            root.read(&speed_file).and_then(|s| s.parse::<f32>().ok()).filter(|m| m.is_finite() && *m > 0.0);
        drive.link = mbps.map(|m| {
            Sourced::new(Link::Usb { gbps: m / 1000.0 }, Source::Sysfs(speed_file.display().to_string()))
        });
        let text = |file: &str| root.read(&device.join(file)).and_then(|v| clean_text(&v));
        if let (Some(vendor), Some(product)) = (text("idVendor"), text("idProduct")) {
            let names: Vec<String> = [text("manufacturer"), text("product")].into_iter().flatten().collect();
            let bridge = format!("{vendor}:{product} {}", names.join(" ")).trim().to_string();
            drive.usb_bridge = Some(Sourced::new(bridge, Source::Sysfs(device.display().to_string())));
        }
    }
    let from_sysfs = topology.usb_interface.as_ref().and_then(|interface| {
        let link = interface.join("driver");
        let driver = root.link_name(&link)?;
        Some(Sourced::new(driver == "uas", Source::Sysfs(link.display().to_string())))
    });
    drive.uas = from_sysfs.or_else(|| {
        let udev = identity.udev.as_ref()?;
        let driver = udev.get("ID_USB_DRIVER")?;
        Some(Sourced::new(driver == "uas", Source::Udev(udev.path.display().to_string())))
    });
}

fn controller(prober: &mut Prober, pci: &Path) -> Controller {
    let root = prober.root.clone();
    let address = pci.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let vendor_file = pci.join("vendor");
    let vendor = root.read(&vendor_file).and_then(|v| parse_id(&v));
    let device = root.read(&pci.join("device")).and_then(|v| parse_id(&v));
    let ids = match (vendor, device) {
        (Some(v), Some(d)) => format!("{v:04x}:{d:04x}"),
        _ => "unknown".to_string(),
    };
    let pci_id = Some(Sourced::new(ids.clone(), Source::Sysfs(vendor_file.display().to_string())));
    let named = match (vendor, device, prober.pci_ids.as_deref()) {
        (Some(v), Some(d), Some(db)) => pci_ids::lookup(&root, db, v, d),
        _ => None,
    };
    let name = match named {
        Some(n) => {
            let text = match &n.device {
                Some(device) => format!("{} {device}", n.vendor),
                None => format!("{} device {:04x}", n.vendor, device.unwrap_or(0)),
            };
            Sourced::new(text, Source::PciIds(n.database.display().to_string()))
        }
        None => Sourced::new(format!("PCI {ids}"), Source::Sysfs(vendor_file.display().to_string())),
    };
    let driver_link = pci.join("driver");
    let driver = root
        .link_name(&driver_link)
        .map(|d| Sourced::new(d, Source::Sysfs(driver_link.display().to_string())));
    let class =
        root.read(&pci.join("class")).and_then(|c| u32::from_str_radix(c.trim_start_matches("0x"), 16).ok());
    let mode = driver.as_ref().and_then(|d| {
        let mode = storage_mode(&d.value, class)?;
        Some(Sourced::new(
            mode,
            Source::Derived(format!("driver {} and PCI class {:06x}", d.value, class.unwrap_or(0))),
        ))
    });
    Controller { address, pci_id, name, driver, mode, link: pcie_link(&root, pci) }
}

/// A controller that is not on PCI: a platform device, named by its sysfs name and the
/// first device-tree `compatible` string.
fn platform_controller(root: &crate::sysfs::Root, device: &Path) -> Controller {
    let address = device.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let compatible_file = device.join("of_node/compatible");
    // A list of NUL-terminated strings, most specific first.
    let compatible = root
        .read_bytes(&compatible_file)
        .and_then(|b| b.split(|&c| c == 0).next().map(|s| String::from_utf8_lossy(s).into_owned()))
        .and_then(|s| clean_text(&s));
    let name = match compatible {
        Some(c) => {
            Sourced::new(format!("{address} ({c})"), Source::Sysfs(compatible_file.display().to_string()))
        }
        None => Sourced::new(address.clone(), Source::Sysfs(device.display().to_string())),
    };
    let driver_link = device.join("driver");
    let driver = root
        .link_name(&driver_link)
        .map(|d| Sourced::new(d, Source::Sysfs(driver_link.display().to_string())));
    let mode = driver.as_ref().and_then(|d| {
        let mode = storage_mode(&d.value, None)?;
        Some(Sourced::new(mode, Source::Derived(format!("driver {}", d.value))))
    });
    Controller { address, pci_id: None, name, driver, mode, link: None }
}

/// The storage mode a driver and PCI class mean: the AHCI driver also runs Intel's
/// RAID-mode controllers, which say so in their class (0x0104xx, RAID bus controller).
fn storage_mode(driver: &str, class: Option<u32>) -> Option<StorageMode> {
    let raid_class = class.is_some_and(|c| c >> 8 == 0x0104);
    Some(match driver {
        "ahci" if raid_class => StorageMode::Raid,
        "ahci" => StorageMode::Ahci,
        // Platform AHCI drivers: ahci-qoriq, ahci_imx, ahci-mvebu, ...
        d if d.starts_with("ahci") => StorageMode::Ahci,
        "nvme" => StorageMode::Nvme,
        "ata_piix" => StorageMode::Ide,
        d if d.starts_with("pata_") => StorageMode::Ide,
        "megaraid_sas" | "aacraid" | "hpsa" | "smartpqi" | "arcmsr" => StorageMode::Raid,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_rates_name_generations() {
        assert_eq!(pcie_generation("8.0 GT/s PCIe"), Some(3));
        assert_eq!(pcie_generation("16.0 GT/s PCIe"), Some(4));
        assert_eq!(pcie_generation("2.5 GT/s"), Some(1));
        assert_eq!(pcie_generation("5 GT/s"), Some(2));
        assert_eq!(pcie_generation("Unknown"), None);
        assert_eq!(pcie_generation("7.0 GT/s"), None);
    }

    #[test]
    fn modes_from_driver_and_class() {
        assert_eq!(storage_mode("ahci", Some(0x010601)), Some(StorageMode::Ahci));
        assert_eq!(storage_mode("ahci", Some(0x010400)), Some(StorageMode::Raid));
        assert_eq!(storage_mode("nvme", Some(0x010802)), Some(StorageMode::Nvme));
        assert_eq!(storage_mode("xhci_hcd", Some(0x0c0330)), None);
    }
}
