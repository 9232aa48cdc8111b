//! The probe on fixture trees built from real published outputs (see
//! tests/fixtures/ORIGINS.md), on a tree with most files missing, and on garbage.

use bench::{Link, LinkPower, StorageMode};
use probe::{probe_at, Layer, Probe, Source, ToolError, Tools, Transport};
use std::cell::RefCell;
use std::fs;
use std::path::{Path, PathBuf};

/// Answers from a fixture's `tools/` directory: `smartctl-<device>.json`,
/// `nvme-<controller>.json`, `block_size`. A missing file is a program not installed.
struct FixtureTools {
    dir: PathBuf,
    /// Every smartctl call: the device and its `-d` type.
    smartctl_calls: RefCell<Vec<(String, Option<String>)>>,
}

impl FixtureTools {
    fn new(dir: PathBuf) -> FixtureTools {
        FixtureTools { dir, smartctl_calls: RefCell::new(Vec::new()) }
    }

    fn answer(
        &self,
        file: String,
        program: &'static str,
        package: &'static str,
    ) -> Result<String, ToolError> {
        fs::read_to_string(self.dir.join(file)).map_err(|_| ToolError::NotInstalled { program, package })
    }
}

fn base(device: &Path) -> String {
    device.file_name().unwrap().to_string_lossy().into_owned()
}

impl Tools for FixtureTools {
    fn smartctl(&self, device: &Path, device_type: Option<&str>) -> Result<String, ToolError> {
        self.smartctl_calls
            .borrow_mut()
            .push((device.display().to_string(), device_type.map(str::to_string)));
        self.answer(format!("smartctl-{}.json", base(device)), "smartctl", "smartmontools")
    }

    fn nvme_id_ctrl(&self, device: &Path) -> Result<String, ToolError> {
        self.answer(format!("nvme-{}.json", base(device)), "nvme", "nvme-cli")
    }

    fn block_size(&self, _path: &Path) -> Option<u64> {
        fs::read_to_string(self.dir.join("block_size")).ok()?.trim().parse().ok()
    }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn probe_fixture(name: &str, target: &str) -> (Probe, FixtureTools) {
    let tools = FixtureTools::new(fixture(name).join("tools"));
    let found = probe_at(&fixture(name).join("root"), Path::new(target), &tools);
    // Shown when a test fails (or with --nocapture).
    println!("{}", found.report());
    (found, tools)
}

/// The value and source of the first fact named `field` (about `device`, when given).
fn fact(found: &Probe, field: &str, device: Option<&str>) -> Option<(String, Source)> {
    found
        .facts()
        .into_iter()
        .find(|f| f.field == field && (device.is_none() || f.device.as_deref() == device))
        .map(|f| (f.value, f.source))
}

/// Everything the probe hands out, as text: its JSON, its facts' JSON, its tags' JSON and
/// its report.
fn everything_shown(found: &Probe) -> String {
    [
        serde_json::to_string(found).unwrap(),
        serde_json::to_string(&found.facts()).unwrap(),
        serde_json::to_string(&found.tags()).unwrap(),
        found.report(),
        format!("{found:?}"),
    ]
    .join("\n")
}

fn assert_no_serial(found: &Probe, serials: &[&str]) {
    let shown = everything_shown(found);
    for serial in serials {
        assert!(!shown.contains(serial), "serial {serial} leaked:\n{shown}");
    }
}

/// Facts named after a tag use the tag's public name from `bench::FIELDS`.
fn assert_tag_fields_are_public_names(found: &Probe) {
    let tag_fields = [
        "vendor",
        "model",
        "capacity_gb",
        "firmware",
        "storage_controller",
        "driver",
        "driver_version",
        "mode",
        "link",
        "host_link",
        "link_power",
        "raid_level",
        "raid_members",
        "os",
        "filesystem",
    ];
    for f in found.facts() {
        if tag_fields.contains(&f.field.as_ref()) {
            assert!(
                bench::FIELDS.iter().any(|field| field.name == f.field),
                "{} is not in bench::FIELDS",
                f.field
            );
        }
    }
}

#[test]
fn sata_ssd_on_intel_ahci() {
    let (found, tools) = probe_fixture("sata-ahci", "/srv/bench");
    let tags = found.tags();
    assert_eq!(tags.drive.vendor.as_deref(), Some("Western Digital"));
    assert_eq!(tags.drive.model.as_deref(), Some("WD Red SA500 2.5 4TB"));
    assert_eq!(tags.drive.capacity_gb, Some(4000));
    assert_eq!(tags.firmware.as_deref(), Some("540400WD"));
    let p = &tags.platform;
    assert_eq!(
        p.storage_controller.as_deref(),
        Some("Intel Corporation Sunrise Point-LP SATA Controller [AHCI mode]")
    );
    assert_eq!(p.driver.as_deref(), Some("ahci"));
    assert_eq!(p.mode, Some(StorageMode::Ahci));
    assert_eq!(p.link, Some(Link::Sata { gbps: 6.0 }));
    assert_eq!(p.host_link, None);
    assert_eq!(p.link_power, Some(LinkPower::LpmMedPowerWithDipm));
    assert_eq!(p.cpu.as_deref(), Some("Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz"));
    assert_eq!(p.motherboard.as_deref(), Some("Dell Inc. 07PXPY"));
    assert_eq!(p.driver_version.as_deref(), Some("6.1.0-18-amd64"));
    assert_eq!(p.os.as_deref(), Some("Debian GNU/Linux 12 (bookworm), Linux 6.1.0-18-amd64"));
    assert_eq!(p.filesystem.as_deref(), Some("ext4"));
    assert_eq!(p.allocation_unit_bytes, Some(4096));
    assert_eq!(tags.raid, None);

    // The partition under the target resolves to its disk.
    assert_eq!(found.block_device.as_ref().map(|b| b.value.as_str()), Some("sda1"));
    assert!(
        matches!(&found.layers[..], [Layer::Partition { device, disk, .. }] if device == "sda1" && disk == "sda")
    );
    assert_eq!(found.drives.len(), 1);

    // Each fact says where it came from: the whole model from smartctl, not sysfs's 16
    // characters; the link from sysfs; the name from pci.ids.
    assert_eq!(fact(&found, "model", Some("sda")).unwrap().1, Source::Smartctl);
    assert_eq!(fact(&found, "transport", Some("sda")).unwrap().0, "SATA");
    assert!(
        matches!(fact(&found, "link", Some("sda")).unwrap(), (v, Source::Sysfs(p)) if v == "sata-6" && p.ends_with("sata_spd"))
    );
    assert!(matches!(fact(&found, "storage_controller", None).unwrap().1, Source::PciIds(_)));
    assert!(matches!(fact(&found, "rotational", Some("sda")).unwrap(), (v, Source::Udev(_)) if v == "false"));
    assert!(matches!(fact(&found, "filesystem", None).unwrap().1, Source::ProcMounts));
    assert!(fact(&found, "serial_hash", Some("sda")).is_some());
    assert_eq!(tools.smartctl_calls.borrow().as_slice(), [("/dev/sda".to_string(), None)]);
    assert_no_serial(&found, &["2433274A1T13"]);
    assert_tag_fields_are_public_names(&found);
    let report = found.report();
    assert!(
        report.contains("Drive: WD Red SA500 2.5 4TB (SATA, AHCI, 6 Gb/s) firmware 540400WD, 4000 GB"),
        "{report}"
    );
}

#[test]
fn sata_without_smartctl_falls_back_to_udev_and_sysfs() {
    // The same machine, smartctl missing: udev's full model, and the note says so.
    let tools = FixtureTools::new(fixture("sata-ahci").join("no-tools"));
    let found = probe_at(&fixture("sata-ahci").join("root"), Path::new("/srv/bench"), &tools);
    let tags = found.tags();
    assert_eq!(tags.drive.model.as_deref(), Some("WD Red SA500 2.5 4TB"));
    assert_eq!(tags.firmware.as_deref(), Some("540400WD"));
    assert!(matches!(fact(&found, "model", Some("sda")).unwrap().1, Source::Udev(_)));
    assert!(
        found.notes.iter().any(|n| n.contains("smartctl is not installed (Debian package smartmontools)")),
        "{:?}",
        found.notes
    );
    assert_eq!(tags.platform.allocation_unit_bytes, None);
}

#[test]
fn a_partition_given_as_the_target_resolves_to_its_disk() {
    let (found, _) = probe_fixture("sata-ahci", "/dev/sda1");
    assert_eq!(found.filesystem, None);
    assert_eq!(found.drives.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["sda"]);
    assert!(matches!(&found.layers[..], [Layer::Partition { disk, .. }] if disk == "sda"));
    assert_eq!(found.tags().drive.capacity_gb, Some(4000));
}

#[test]
fn a_device_mapper_volume_resolves_to_its_partition_and_disk() {
    let (found, _) = probe_fixture("sata-ahci", "/srv/lvm");
    assert_eq!(found.tags().platform.filesystem.as_deref(), Some("xfs"));
    assert_eq!(found.mount_source.as_ref().map(|m| m.value.as_str()), Some("/dev/mapper/vg0-data"));
    assert_eq!(found.block_device.as_ref().map(|b| b.value.as_str()), Some("dm-0"));
    match &found.layers[..] {
        [Layer::DeviceMapper { device, name, members }, Layer::Partition { device: partition, disk, .. }] => {
            assert_eq!((device.as_str(), members.as_slice()), ("dm-0", ["sda2".to_string()].as_slice()));
            assert_eq!(name.as_ref().map(|n| n.value.as_str()), Some("vg0-data"));
            assert_eq!((partition.as_str(), disk.as_str()), ("sda2", "sda"));
        }
        layers => panic!("{layers:?}"),
    }
    assert_eq!(found.tags().drive.model.as_deref(), Some("WD Red SA500 2.5 4TB"));
    assert_eq!(found.tags().raid, None);
    assert_eq!(fact(&found, "dm_name", Some("dm-0")).unwrap().0, "vg0-data");
}

#[test]
fn nvme_drive_on_pcie_3_x4() {
    let (found, tools) = probe_fixture("nvme", "/home/bench");
    let tags = found.tags();
    assert_eq!(tags.drive.vendor.as_deref(), Some("Western Digital"));
    assert_eq!(tags.drive.model.as_deref(), Some("WDC PC SN730 SDBQNTY-256G-1001"));
    assert_eq!(tags.drive.capacity_gb, Some(256));
    assert_eq!(tags.firmware.as_deref(), Some("11170101"));
    let p = &tags.platform;
    assert_eq!(
        p.storage_controller.as_deref(),
        Some("Sandisk Corp SanDisk Extreme Pro / WD Black SN750 / PC SN730 / Red SN700 NVMe SSD")
    );
    assert_eq!(p.driver.as_deref(), Some("nvme"));
    assert_eq!(p.mode, Some(StorageMode::Nvme));
    assert_eq!(p.link, Some(Link::Pcie { gen: 3, lanes: 4 }));
    assert_eq!(p.host_link, None);
    assert_eq!(p.link_power, Some(LinkPower::AspmL1));
    // btrfs gives its subvolumes anonymous device numbers: the device comes from the
    // mount's source.
    assert_eq!(p.filesystem.as_deref(), Some("btrfs"));
    assert!(
        matches!(&found.layers[..], [Layer::Partition { device, disk, .. }] if device == "nvme0n1p2" && disk == "nvme0n1")
    );
    assert_eq!(fact(&found, "model", Some("nvme0n1")).unwrap().1, Source::NvmeCli);
    assert_eq!(fact(&found, "transport", Some("nvme0n1")).unwrap().0, "NVMe");
    // No smartctl in this fixture: it was asked, is reported missing, and sysfs and
    // nvme-cli facts stay.
    assert_eq!(tools.smartctl_calls.borrow().len(), 1);
    assert!(found.notes.iter().any(|n| n.contains("smartmontools")), "{:?}", found.notes);
    // Nothing about the host in this tree: said, not guessed.
    assert_eq!(p.cpu, None);
    assert_eq!(p.os, None);
    assert!(found.notes.iter().any(|n| n.contains("kernel release not found")));
    assert_no_serial(&found, &["1951B3444502"]);
    assert_tag_fields_are_public_names(&found);
}

#[test]
fn nvme_drive_without_nvme_cli_keeps_the_sysfs_identity() {
    let tools = FixtureTools::new(fixture("nvme").join("no-tools"));
    let found = probe_at(&fixture("nvme").join("root"), Path::new("/home/bench"), &tools);
    let tags = found.tags();
    assert_eq!(tags.drive.model.as_deref(), Some("WDC PC SN730 SDBQNTY-256G-1001"));
    assert_eq!(tags.firmware.as_deref(), Some("11170101"));
    assert!(matches!(fact(&found, "model", None).unwrap().1, Source::Sysfs(p) if p.ends_with("nvme0/model")));
    assert!(found.notes.iter().any(|n| n.contains("nvme is not installed (Debian package nvme-cli)")));
    assert_no_serial(&found, &["1951B3444502"]);
}

#[test]
fn sata_ssd_behind_a_usb_3_uas_bridge() {
    let (found, tools) = probe_fixture("usb-uas", "/dev/disk/by-id/usb-ASMT_2115_123456789394-0:0");
    // The by-id name spells the bridge's serial: the device it links to stands in.
    assert_eq!(found.target, Path::new("/dev/sdb"));
    assert_eq!(found.block_device.as_ref().map(|b| b.value.as_str()), Some("sdb"));
    let tags = found.tags();
    // The drive's own identity through SAT, not the bridge's "ASMT 2115".
    assert_eq!(tags.drive.vendor.as_deref(), Some("Intel"));
    assert_eq!(tags.drive.model.as_deref(), Some("INTEL SSDSC2CT240A4"));
    assert_eq!(tags.drive.capacity_gb, Some(240));
    assert_eq!(tags.firmware.as_deref(), Some("335u"));
    assert_eq!(tools.smartctl_calls.borrow().as_slice(), [("/dev/sdb".to_string(), Some("sat".to_string()))]);
    let p = &tags.platform;
    // pci.ids lists a12f under two vendors: the name is Intel's.
    assert_eq!(
        p.storage_controller.as_deref(),
        Some("Intel Corporation 100/C230 Series Chipset Family USB 3.0 xHCI Controller")
    );
    assert_eq!(p.driver.as_deref(), Some("xhci_hcd"));
    assert_eq!(p.mode, None);
    assert_eq!(p.link, Some(Link::Usb { gbps: 5.0 }));
    assert_eq!(p.filesystem, None);
    assert_eq!(fact(&found, "transport", Some("sdb")).unwrap().0, "USB");
    assert!(
        matches!(fact(&found, "uas", Some("sdb")).unwrap(), (v, Source::Sysfs(p)) if v == "true" && p.ends_with("2-1:1.0/driver"))
    );
    assert_eq!(fact(&found, "usb_bridge", Some("sdb")).unwrap().0, "174c:55aa asmedia ASMT1153e");
    // smartctl says the SSD does not spin, though the bridge's SCSI layer says it does.
    assert_eq!(fact(&found, "rotational", Some("sdb")).unwrap(), ("false".to_string(), Source::Smartctl));
    assert_no_serial(&found, &["CVKI3206029X240DGN", "123456789394"]);
    assert_tag_fields_are_public_names(&found);
    assert!(found.report().contains("(USB, UAS, USB 5 Gb/s)"), "{}", found.report());
}

#[test]
fn usb_bridge_without_smartctl_says_the_model_may_be_the_bridges() {
    let tools = FixtureTools::new(fixture("usb-uas").join("no-tools"));
    let found = probe_at(&fixture("usb-uas").join("root"), Path::new("/dev/sdb"), &tools);
    assert_eq!(found.tags().drive.model.as_deref(), Some("2115"));
    assert_eq!(found.tags().drive.vendor, None);
    assert!(found.notes.iter().any(|n| n.contains("may be the bridge's")), "{:?}", found.notes);
}

#[test]
fn md_raid0_of_two_sata_ssds() {
    let (found, _) = probe_fixture("md-raid0", "/mnt/raid");
    let tags = found.tags();
    let raid = tags.raid.clone().expect("a RAID");
    assert_eq!((raid.level, raid.members, raid.stripe_bytes), (0, 2, Some(524_288)));
    let md = found.md_raid().unwrap();
    assert_eq!(md.member_devices, ["sdg", "sdh"]);
    assert_eq!(found.drives.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["sdg", "sdh"]);
    for drive in &found.drives {
        assert_eq!(drive.model.as_ref().unwrap().value, "Samsung SSD 860 EVO 500GB");
        assert_eq!(drive.capacity_gb(), Some(500));
        assert_eq!(drive.link.as_ref().unwrap().value, Link::Sata { gbps: 6.0 });
    }
    assert_eq!(tags.drive.vendor.as_deref(), Some("Samsung"));
    assert_eq!(tags.drive.model.as_deref(), Some("Samsung SSD 860 EVO 500GB"));
    assert_eq!(tags.drive.capacity_gb, Some(500));
    assert_eq!(tags.firmware.as_deref(), Some("RVT04B6Q"));
    let p = &tags.platform;
    assert_eq!(
        p.storage_controller.as_deref(),
        Some("Intel Corporation 8 Series/C220 Series Chipset Family 6-port SATA Controller 1 [AHCI mode]")
    );
    assert_eq!(p.link_power, Some(LinkPower::LpmMaxPerformance));
    assert_eq!(p.filesystem.as_deref(), Some("xfs"));
    assert_eq!(fact(&found, "raid_level", Some("md0")).unwrap().0, "0");
    assert_eq!(fact(&found, "raid_members", Some("md0")).unwrap().0, "2");
    assert_eq!(fact(&found, "raid_stripe_bytes", Some("md0")).unwrap().0, "524288");
    // Both members' facts, each under its own device.
    assert!(fact(&found, "model", Some("sdh")).is_some());
    assert_no_serial(&found, &["S3Z1NB0K310557", "S3Z1NB0K310601"]);
    assert_tag_fields_are_public_names(&found);
}

#[test]
fn sd_card_on_a_pci_card_reader() {
    let (found, _) = probe_fixture("sd-card", "/media/user/3961-3035");
    let tags = found.tags();
    assert_eq!(tags.drive.model.as_deref(), Some("SL32G"));
    assert_eq!(tags.drive.vendor.as_deref(), Some("SanDisk"));
    assert_eq!(tags.drive.capacity_gb, Some(32));
    assert_eq!(tags.firmware, None);
    let p = &tags.platform;
    assert_eq!(p.storage_controller.as_deref(), Some("O2 Micro, Inc. OZ711 SD/MMC Card Reader Controller"));
    assert_eq!(p.driver.as_deref(), Some("sdhci-pci"));
    assert_eq!(p.link, None);
    assert_eq!(p.host_link, Some(Link::Pcie { gen: 1, lanes: 1 }));
    assert_eq!(p.filesystem.as_deref(), Some("vfat"));
    assert_eq!(p.allocation_unit_bytes, Some(32768));
    assert_eq!(fact(&found, "transport", Some("mmcblk0")).unwrap().0, "MMC/SD");
    assert!(matches!(fact(&found, "vendor", None).unwrap().1, Source::Sysfs(p) if p.ends_with("manfid")));
    assert!(matches!(&found.layers[..], [Layer::Partition { disk, .. }] if disk == "mmcblk0"));
    assert_no_serial(&found, &["0x9f3c2a81", "9f3c2a81"]);
}

/// A scratch directory removed when dropped (on a panic too).
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        Scratch(tempfile::Builder::new().prefix(&format!("probe-test-{name}-")).tempdir().unwrap())
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn file(&self, path: &str, bytes: &[u8]) {
        let path = self.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    fn link(&self, path: &str, target: &str) {
        let path = self.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
    }
}

/// A tree like a virtual machine's: a virtio disk with no model, no ATA link, no udev, no
/// DMI, no pci.ids, no os-release.
#[test]
fn a_tree_with_most_files_missing_probes_and_says_what_it_lacks() {
    let tree = Scratch::new("bare");
    let dir = "sys/devices/pci0000:00/0000:00:02.0";
    tree.file(&format!("{dir}/vendor"), b"0x1af4\n");
    tree.file(&format!("{dir}/device"), b"0x1042\n");
    tree.file(&format!("{dir}/virtio1/block/vda/dev"), b"254:0\n");
    tree.file(&format!("{dir}/virtio1/block/vda/size"), b"536870912\n");
    tree.file(&format!("{dir}/virtio1/block/vda/queue/rotational"), b"1\n");
    tree.link("sys/class/block/vda", "../../devices/pci0000:00/0000:00:02.0/virtio1/block/vda");
    tree.file("proc/self/mountinfo", b"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n");
    let tools = FixtureTools::new(tree.path().join("no-tools"));
    let found = probe_at(tree.path(), Path::new("/var/tmp"), &tools);
    let tags = found.tags();
    assert_eq!(tags.platform.filesystem.as_deref(), Some("ext4"));
    assert_eq!(found.block_device.as_ref().map(|b| b.value.as_str()), Some("vda"));
    assert_eq!(found.drives.len(), 1);
    assert_eq!(found.drives[0].transport.value, Transport::Virtio);
    assert_eq!(tags.drive.model, None);
    assert_eq!(tags.drive.capacity_gb, Some(275));
    assert_eq!(tags.platform.storage_controller.as_deref(), Some("PCI 1af4:1042"));
    assert_eq!(tags.platform.driver, None);
    // virtio is not asked about with smartctl.
    assert!(tools.smartctl_calls.borrow().is_empty());
    for lacking in [
        "vda: model not found",
        "pci.ids not found",
        "distribution not found",
        "motherboard not found",
        "no udev database entry",
    ] {
        assert!(found.notes.iter().any(|n| n.contains(lacking)), "{lacking} not in {:?}", found.notes);
    }
    assert!(found.report().contains("Drive: unknown model (virtio), 275 GB"), "{}", found.report());

    // An empty root: nothing at all, still no error.
    let empty = Scratch::new("empty");
    let found = probe_at(empty.path(), Path::new("/"), &tools);
    assert!(found.drives.is_empty());
    assert!(found.notes.iter().any(|n| n.contains("mountinfo not readable")));
    assert!(!found.report().is_empty());
}

/// With native NVMe multipath (Debian's kernels enable it), the namespace lives under a
/// virtual subsystem device that lists its controllers; the PCI side is found through
/// them.
#[test]
fn an_nvme_namespace_under_a_multipath_subsystem() {
    let tree = Scratch::new("multipath");
    let pci = "sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0";
    let subsystem = "sys/devices/virtual/nvme-subsystem/nvme-subsys0";
    tree.file(&format!("{pci}/vendor"), b"0x15b7\n");
    tree.file(&format!("{pci}/device"), b"0x5006\n");
    tree.file(&format!("{pci}/current_link_speed"), b"16.0 GT/s PCIe\n");
    tree.file(&format!("{pci}/current_link_width"), b"4\n");
    tree.link(&format!("{pci}/driver"), "../../../../bus/pci/drivers/nvme");
    tree.file(&format!("{pci}/nvme/nvme0/model"), b"WDC PC SN730 SDBQNTY-256G-1001          \n");
    tree.file(&format!("{pci}/nvme/nvme0/firmware_rev"), b"11170101\n");
    tree.link(&format!("{subsystem}/nvme0"), "../../../pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0");
    tree.file(&format!("{subsystem}/nvme0n1/dev"), b"259:0\n");
    tree.file(&format!("{subsystem}/nvme0n1/size"), b"500118192\n");
    tree.link("sys/class/block/nvme0n1", "../../devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1");
    let tools = FixtureTools::new(tree.path().join("no-tools"));
    let found = probe_at(tree.path(), Path::new("/dev/nvme0n1"), &tools);
    let tags = found.tags();
    assert_eq!(found.drives[0].transport.value, Transport::Nvme);
    assert_eq!(tags.drive.model.as_deref(), Some("WDC PC SN730 SDBQNTY-256G-1001"));
    assert_eq!(tags.drive.capacity_gb, Some(256));
    assert_eq!(tags.platform.link, Some(Link::Pcie { gen: 4, lanes: 4 }));
    assert_eq!(tags.platform.driver.as_deref(), Some("nvme"));
    assert_eq!(tags.platform.mode, Some(StorageMode::Nvme));
}

/// A board without PCI for its SD card (a Raspberry Pi 5's layout, as its sysfs shows it:
/// `../devices/platform/soc@107c000000/1000fff000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0`):
/// the controller is the platform device, the board comes from the device tree.
#[test]
fn an_sd_card_on_a_platform_sd_host() {
    let tree = Scratch::new("pi");
    let host = "sys/devices/platform/soc@107c000000/1000fff000.mmc";
    let card = format!("{host}/mmc_host/mmc0/mmc0:aaaa");
    tree.file(&format!("{host}/of_node/compatible"), b"brcm,bcm2712-sdhci\0brcm,sdhci-brcmstb\0");
    tree.link(&format!("{host}/driver"), "../../../../bus/platform/drivers/sdhci-brcmstb");
    tree.link(&format!("{card}/driver"), "../../../../../../../bus/mmc/drivers/mmcblk");
    tree.file(&format!("{card}/name"), b"SL32G\n");
    tree.file(&format!("{card}/type"), b"SD\n");
    tree.file(&format!("{card}/manfid"), b"0x000003\n");
    tree.file(&format!("{card}/block/mmcblk0/dev"), b"179:0\n");
    tree.file(&format!("{card}/block/mmcblk0/size"), b"62333952\n");
    tree.file(&format!("{card}/block/mmcblk0/mmcblk0p2/partition"), b"2\n");
    tree.link(
        "sys/class/block/mmcblk0p2",
        &format!("../../{}/block/mmcblk0/mmcblk0p2", card.trim_start_matches("sys/")),
    );
    tree.file("sys/firmware/devicetree/base/model", b"Raspberry Pi 5 Model B Rev 1.0\0");
    tree.file("proc/self/mountinfo", b"27 1 179:2 / / rw,noatime - ext4 /dev/mmcblk0p2 rw\n");
    let tools = FixtureTools::new(tree.path().join("no-tools"));
    let found = probe_at(tree.path(), Path::new("/home/pi"), &tools);
    let tags = found.tags();
    assert_eq!(tags.drive.model.as_deref(), Some("SL32G"));
    assert_eq!(tags.drive.vendor.as_deref(), Some("SanDisk"));
    assert_eq!(tags.platform.storage_controller.as_deref(), Some("1000fff000.mmc (brcm,bcm2712-sdhci)"));
    assert_eq!(tags.platform.driver.as_deref(), Some("sdhci-brcmstb"));
    assert_eq!(tags.platform.motherboard.as_deref(), Some("Raspberry Pi 5 Model B Rev 1.0"));
    assert_eq!(fact(&found, "controller_pci_id", None), None);
    assert!(tools.smartctl_calls.borrow().is_empty());
}

/// Malformed files read as not found: no panic, no garbage in the tags.
#[test]
fn garbage_in_every_file_does_not_panic() {
    let tree = Scratch::new("garbage");
    let pci = "sys/devices/pci0000:00/0000:00:1f.2";
    let disk = format!("{pci}/ata1/host0/target0:0:0/0:0:0:0/block/sda");
    tree.file(&format!("{pci}/vendor"), b"0xZZZZ");
    tree.file(&format!("{pci}/device"), &[0xff, 0xfe, 0x00]);
    tree.file(&format!("{pci}/class"), b"not a class");
    tree.file(&format!("{pci}/current_link_speed"), b"fast");
    tree.file(&format!("{pci}/current_link_width"), b"-4");
    tree.file(&format!("{pci}/ata1/link1/ata_link/link1/sata_spd"), b"\xff\xfe garbage Gbps");
    tree.file(&format!("{pci}/ata1/host0/scsi_host/host0/link_power_management_policy"), b"\0\0\0");
    tree.file(&format!("{pci}/ata1/host0/target0:0:0/0:0:0:0/model"), &[b'S', 0xc3, 0x28, b'D']);
    // A huge vendor file: read only up to the cap.
    tree.file(&format!("{pci}/ata1/host0/target0:0:0/0:0:0:0/vendor"), &vec![b'A'; 4 * 1024 * 1024]);
    tree.file(&format!("{disk}/size"), b"-12abc");
    tree.file(&format!("{disk}/dev"), b"8:0");
    tree.file(&format!("{disk}/queue/rotational"), b"maybe");
    tree.link("sys/class/block/sda", &format!("../../{}", disk.trim_start_matches("sys/")));
    tree.file("run/udev/data/b8:0", &[0xff, b'\n', b'E', b':', 0xfe, b'=', b'\n', b'E', b':', b'I', b'D']);
    tree.file("usr/share/misc/pci.ids", &[0xff; 10000]);
    tree.file("proc/cpuinfo", &[0xff; 100]);
    tree.file("proc/sys/kernel/osrelease", b"6.1.0 with spaces");
    tree.file("etc/os-release", b"PRETTY_NAME=\"\"\n");
    tree.file(
        "proc/self/mountinfo",
        b"garbage\n\n - - -\n1 2 x:y / / - ext4 /dev/sda\n27 1 8:0 / / rw - ext4 /dev/sda rw\n",
    );
    // Two md arrays listing each other as members, many times over.
    for (name, other) in [("md8", "md9"), ("md9", "md8")] {
        tree.file(&format!("sys/devices/virtual/block/{name}/md/level"), b"raid0");
        for i in 0..50 {
            tree.link(
                &format!("sys/devices/virtual/block/{name}/slaves/{other}x{i}"),
                &format!("../../{other}"),
            );
            // Each alias a block device name of its own, all one directory.
            tree.link(
                &format!("sys/class/block/{other}x{i}"),
                &format!("../../devices/virtual/block/{other}"),
            );
        }
        tree.link(&format!("sys/class/block/{name}"), &format!("../../devices/virtual/block/{name}"));
    }
    // A symlink loop where a block device should be.
    tree.link("sys/class/block/loopy", "loopy2");
    tree.link("sys/class/block/loopy2", "loopy");
    let tools_dir = Scratch::new("garbage-tools");
    tools_dir.file("smartctl-sda.json", b"{\"model_name\": 12, \"user_capacity\": {\"bytes\": -1}}");
    tools_dir.file("block_size", b"99999999999999999999");
    let tools = FixtureTools::new(tools_dir.path().to_path_buf());
    let found = probe_at(tree.path(), Path::new("/srv"), &tools);
    let tags = found.tags();
    assert_eq!(found.drives.len(), 1);
    assert_eq!(tags.drive.model, None);
    assert_eq!(tags.drive.capacity_gb, None);
    assert_eq!(tags.platform.link, None);
    assert_eq!(tags.platform.link_power, None);
    assert_eq!(tags.platform.host_link, None);
    assert_eq!(tags.platform.cpu, None);
    assert_eq!(tags.platform.os, None);
    assert_eq!(tags.platform.allocation_unit_bytes, None);
    assert_eq!(tags.platform.filesystem.as_deref(), Some("ext4"));
    // A vendor file of 4 MiB is read up to the cap, and too long to be a name.
    assert_eq!(tags.drive.vendor, None);
    let _ = found.report();
    let _ = serde_json::to_string(&found).unwrap();

    let crossed = probe_at(tree.path(), Path::new("/dev/md8"), &tools);
    assert!(crossed.drives.is_empty());

    let looped = probe_at(tree.path(), Path::new("/dev/loopy"), &tools);
    assert!(looped.drives.is_empty());
    assert!(looped.notes.iter().any(|n| n.contains("loopy")), "{:?}", looped.notes);
}

#[test]
fn facts_serialise_and_read_back() {
    let (found, _) = probe_fixture("sata-ahci", "/srv/bench");
    let json = serde_json::to_string(&found.facts()).unwrap();
    let back: Vec<probe::Fact> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, found.facts());
    let probe_back: Probe = serde_json::from_str(&serde_json::to_string(&found).unwrap()).unwrap();
    assert_eq!(probe_back, found);
}
