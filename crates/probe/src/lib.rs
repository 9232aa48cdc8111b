//! Identifies, on Linux, the drive under a benchmark target and the platform around it,
//! so `ssdbase bench` can tag its result: which drive (model, vendor, capacity,
//! firmware, transport), on which controller, driver and link, in which RAID set, under
//! which filesystem, kernel and distribution.
//!
//! Every fact says where it came from ([`Source`]), so a reader tells a measurement
//! (sysfs's negotiated link) from a claim (a model string). Reads go through a root
//! directory ([`probe_at`]): `/` on the machine, a fixture tree in tests; external
//! programs go through [`Tools`]. Nothing here needs root except smartctl and nvme, and
//! without them the sysfs facts stay. A drive's serial number is never kept: only its
//! salted hash ([`naming::serial_hash`]).
//!
//! Modules, one per source: `sysfs` (reading through the root, block-device topology),
//! `udev`, `smartctl`, `nvme`, `pci_ids`, `mounts` (`/proc/self/mountinfo`), `platform`
//! (CPU, DMI, kernel, os-release), `tools` (running the programs); `drive` puts one
//! drive's facts together, `naming` holds the vendor table, capacity rule and serial
//! hash, `report` the text shown before anything is sent.

mod drive;
pub mod mounts;
pub mod naming;
mod nvme;
mod pci_ids;
mod platform;
mod report;
mod smartctl;
mod sysfs;
mod tools;
mod udev;

pub use drive::{Controller, Drive, Transport};
pub use platform::Host;
pub use tools::{RealTools, ToolError, Tools};

use bench::{Link, LinkPower, StorageMode};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use sysfs::Root;

/// How a fact was obtained. Paths are the machine's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum Source {
    /// A sysfs attribute the kernel reports.
    Sysfs(String),
    /// udev's database entry (`/run/udev/data/b8:0`).
    Udev(String),
    /// `smartctl --json -i`.
    Smartctl,
    /// `nvme id-ctrl -o json`.
    NvmeCli,
    /// A name from the pci.ids database at this path.
    PciIds(String),
    /// `/proc/self/mountinfo`.
    ProcMounts,
    /// statvfs(3) on the target.
    Statvfs,
    /// The firmware's DMI table (`/sys/class/dmi/id/...`).
    Dmi(String),
    /// A file under `/proc` other than mountinfo.
    Proc(String),
    /// `/etc/os-release`.
    OsRelease(String),
    /// The benchmark target as given (`/dev/sdb`).
    Target,
    /// Worked out from other facts by a rule, said in words.
    Derived(String),
}

impl Source {
    fn sysfs(path: &Path) -> Source {
        Source::Sysfs(path.display().to_string())
    }

    fn proc(path: &Path) -> Source {
        Source::Proc(path.display().to_string())
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Sysfs(p) => write!(f, "sysfs {p}"),
            Source::Udev(p) => write!(f, "udev {p}"),
            Source::Smartctl => f.write_str("smartctl"),
            Source::NvmeCli => f.write_str("nvme id-ctrl"),
            Source::PciIds(p) => write!(f, "pci.ids {p}"),
            Source::ProcMounts => f.write_str("/proc/self/mountinfo"),
            Source::Statvfs => f.write_str("statvfs"),
            Source::Dmi(p) => write!(f, "DMI {p}"),
            Source::Proc(p) => f.write_str(p),
            Source::OsRelease(p) => f.write_str(p),
            Source::Target => f.write_str("the target"),
            Source::Derived(how) => write!(f, "derived: {how}"),
        }
    }
}

/// A value and how it was obtained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Sourced<T> {
    pub fn new(value: T, source: Source) -> Sourced<T> {
        Sourced { value, source }
    }
}

/// One fact, flat, for storing with a result and showing to the person submitting it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fact {
    /// The public field name: as in `bench::FIELDS` where the fact fills a tag
    /// (`vendor`, `model`, `capacity_gb`, `firmware`, `storage_controller`, `driver`,
    /// `driver_version`, `mode`, `link`, `host_link`, `link_power`, `raid_level`,
    /// `raid_members`, `os`, `filesystem`), else the `Platform` field's name (`cpu`,
    /// `motherboard`, `allocation_unit_bytes`) or a name of its own (`transport`,
    /// `rotational`, `usb_bridge`, `uas`, `serial_hash`, `loop_backing_file`, ...).
    /// A `Cow` only so facts read back from JSON; the probe writes static names.
    pub field: Cow<'static, str>,
    pub value: String,
    pub source: Source,
    /// The block device the fact is about (`sda`, `md0`), when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// A block device between the target and the drives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Layer {
    /// A partition of a whole disk.
    Partition { device: String, disk: String, source: Source },
    /// Linux software RAID.
    Md(MdRaid),
    /// A device-mapper device (LVM, dm-crypt, dm-raid): its name and members.
    DeviceMapper { device: String, name: Option<Sourced<String>>, members: Vec<String> },
    /// A loop device and the file behind it.
    Loop { device: String, backing_file: Option<Sourced<String>> },
}

/// An md array.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MdRaid {
    pub device: String,
    /// As md says it: `raid0`, `raid1`, `raid10`, `linear`.
    pub level_name: Sourced<String>,
    /// The number `bench::Raid` takes; `None` for `linear` and other non-RAID levels.
    pub level: Option<u8>,
    /// `md/raid_disks`, else the members found in `slaves/`.
    pub members: Option<Sourced<u8>>,
    /// `md/chunk_size`; 0 (RAID 1) reads as not found.
    pub chunk_bytes: Option<Sourced<u32>>,
    /// The member block devices (`sdg1`, `sdh1`).
    pub member_devices: Vec<String>,
}

/// Everything found about one benchmark target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// The target as given, except that a `/dev/disk/by-id` name, which carries the
    /// drive's serial number, is replaced by the device it links to.
    pub target: PathBuf,
    /// The filesystem type holding a directory target (`ext4`).
    pub filesystem: Option<Sourced<String>>,
    pub mount_point: Option<Sourced<String>>,
    /// What is mounted there (`/dev/nvme0n1p2`).
    pub mount_source: Option<Sourced<String>>,
    /// The filesystem's block size (statvfs `f_bsize`).
    pub allocation_unit_bytes: Option<Sourced<u32>>,
    /// The block device the target is or lives on (`nvme0n1p2`, `md0`, `loop3`).
    pub block_device: Option<Sourced<String>>,
    /// What lies between that device and the drives, top down.
    pub layers: Vec<Layer>,
    /// The physical drives under the target: one, or each member of a RAID set.
    pub drives: Vec<Drive>,
    pub host: Host,
    /// What could not be found or run, for the person reading the report.
    pub notes: Vec<String>,
}

/// Probes the machine itself. The target is a directory or a block device (`/dev/sdb`).
pub fn probe(target: &Path) -> Probe {
    // The kernel's own resolution first: mountinfo lists resolved paths.
    let resolved = std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
    probe_at(Path::new("/"), &resolved, &RealTools)
}

/// `path`, unless it is a `/dev/disk/by-id` name: those spell the serial number
/// (`ata-WD_Red_SA500_2.5_4TB_2433274A1T13`), so the device they link to stands in.
fn without_serial(root: &Root, path: &Path) -> PathBuf {
    if path.starts_with("/dev/disk/by-id") {
        root.canonical(path).unwrap_or_else(|| PathBuf::from("/dev/disk/by-id/(a link)"))
    } else {
        path.to_path_buf()
    }
}

/// Probes through `root` (a directory standing for `/`), asking `tools` for what files
/// cannot tell. Never fails: what cannot be found is left out and said in `notes`.
pub fn probe_at(root: &Path, target: &Path, tools: &dyn Tools) -> Probe {
    let mut prober = Prober::new(Root::new(root), tools);
    let target = &without_serial(&prober.root, target);
    let mut found = Probe {
        target: target.to_path_buf(),
        filesystem: None,
        mount_point: None,
        mount_source: None,
        allocation_unit_bytes: None,
        block_device: None,
        layers: Vec::new(),
        drives: Vec::new(),
        host: platform::read(&prober.root),
        notes: Vec::new(),
    };
    if found.host.kernel.is_none() {
        prober.note("kernel release not found (/proc/sys/kernel/osrelease)".into());
    }
    if found.host.distribution.is_none() {
        prober.note("distribution not found (/etc/os-release)".into());
    }
    if found.host.cpu.is_none() {
        prober.note("CPU name not found (/proc/cpuinfo has no \"model name\")".into());
    }
    if found.host.motherboard.is_none() {
        prober.note("motherboard not found (no DMI in /sys/class/dmi/id)".into());
    }
    let device = if is_block_device_path(&prober.root, target) {
        let name = prober.root.canonical(target).unwrap_or_else(|| target.to_path_buf());
        name.file_name().and_then(|n| n.to_str()).map(|n| Sourced::new(n.to_string(), Source::Target))
    } else {
        prober.filesystem_of(target, &mut found)
    };
    match device {
        Some(device) => {
            let name = device.value.clone();
            found.block_device = Some(device);
            prober.resolve(&name, 0, &mut found);
        }
        None => prober.note(format!("no block device found under {}", target.display())),
    }
    if found.drives.is_empty() {
        prober.note("no physical drive found under the target".into());
    }
    found.notes.extend(prober.notes);
    found
}

/// The target names a block device rather than a directory.
fn is_block_device_path(root: &Root, target: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    match root.metadata(target) {
        Some(meta) => meta.file_type().is_block_device() || (target.starts_with("/dev") && !meta.is_dir()),
        // A fixture has no device nodes: a /dev path is taken for one.
        None => target.starts_with("/dev"),
    }
}

/// The probe's state while it walks: where it reads, what it asks, what it noticed.
struct Prober<'a> {
    root: Root,
    tools: &'a dyn Tools,
    pci_ids: Option<PathBuf>,
    notes: Vec<String>,
    /// Tools already reported missing, so a RAID of eight says it once.
    missing_tools: BTreeSet<String>,
    /// Block devices already followed: each is walked once, however many ways lead to
    /// it (and a malformed tree whose devices list each other as members ends).
    visited: BTreeSet<PathBuf>,
}

/// How deep layers may nest (dm on md on partitions on a loop file...) before the walk
/// stops: real stacks are a few deep, a loop of links is not a stack.
const MAX_DEPTH: usize = 8;

impl<'a> Prober<'a> {
    fn new(root: Root, tools: &'a dyn Tools) -> Prober<'a> {
        let pci_ids = pci_ids::database(&root);
        let mut prober = Prober {
            root,
            tools,
            pci_ids,
            notes: Vec::new(),
            missing_tools: BTreeSet::new(),
            visited: BTreeSet::new(),
        };
        if prober.pci_ids.is_none() {
            prober.note(
                "pci.ids not found (/usr/share/misc/pci.ids, /usr/share/hwdata/pci.ids): controllers named by their ids; Debian package pciutils or hwdata".into(),
            );
        }
        prober
    }

    fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    fn tool_failed(&mut self, error: &ToolError) {
        if self.missing_tools.insert(error.to_string()) {
            self.note(error.to_string());
        }
    }

    /// Every mount, from `/proc/self/mountinfo` (up to 8 MiB: a machine running many
    /// containers has thousands of mounts).
    fn mounts(&mut self) -> Option<Vec<mounts::Mount>> {
        match self.root.read_capped(Path::new("/proc/self/mountinfo"), 8 * 1024 * 1024) {
            Some(bytes) => Some(mounts::parse(&String::from_utf8_lossy(&bytes))),
            None => {
                self.note("/proc/self/mountinfo not readable: filesystem unknown".into());
                None
            }
        }
    }

    /// The mount holding a directory target: filesystem facts, and its block device.
    fn filesystem_of(&mut self, target: &Path, found: &mut Probe) -> Option<Sourced<String>> {
        let path = self.root.canonical(target).unwrap_or_else(|| target.to_path_buf());
        let mounts = self.mounts()?;
        let Some(mount) = mounts::containing(&mounts, &path) else {
            self.note(format!("no mount holds {}", path.display()));
            return None;
        };
        found.filesystem = Some(Sourced::new(mount.fstype.clone(), Source::ProcMounts));
        found.mount_point = Some(Sourced::new(mount.mount_point.display().to_string(), Source::ProcMounts));
        let source = without_serial(&self.root, Path::new(&mount.source)).display().to_string();
        found.mount_source = Some(Sourced::new(source, Source::ProcMounts));
        // A directory the benchmark has yet to make: its nearest existing parent is on the
        // same filesystem as long as no mount lies between (the mount was found above).
        let existing = target.ancestors().find(|p| self.root.exists(p)).unwrap_or(Path::new("/"));
        if existing != target {
            self.note(format!("{} does not exist yet: probed {}", target.display(), existing.display()));
        }
        match self.tools.block_size(existing).and_then(|b| u32::try_from(b).ok()) {
            Some(bytes) => found.allocation_unit_bytes = Some(Sourced::new(bytes, Source::Statvfs)),
            None => self.note(format!("allocation unit unknown (statvfs on {} failed)", existing.display())),
        }
        self.device_of_mount(mount)
    }

    /// The block device behind a mount: by its device number, else by its source path.
    fn device_of_mount(&mut self, mount: &mounts::Mount) -> Option<Sourced<String>> {
        let by_number = Path::new("/sys/dev/block").join(&mount.dev);
        if !mount.dev.starts_with("0:") {
            if let Some(dir) = self.root.canonical(&by_number) {
                if let Some(name) = dir.file_name().and_then(|n| n.to_str()) {
                    return Some(Sourced::new(name.to_string(), Source::sysfs(&by_number)));
                }
            }
        }
        let source = Path::new(&mount.source);
        if source.starts_with("/dev") {
            let resolved = self.root.canonical(source).unwrap_or_else(|| source.to_path_buf());
            let name = resolved.file_name().and_then(|n| n.to_str())?;
            if sysfs::block_dir(&self.root, name).is_some() {
                return Some(Sourced::new(name.to_string(), Source::ProcMounts));
            }
        }
        let source = without_serial(&self.root, Path::new(&mount.source));
        self.note(format!(
            "{} ({}) has no block device this probe can follow",
            source.display(),
            mount.fstype
        ));
        None
    }

    /// Follows a block device down to its drives, recording the layers on the way.
    fn resolve(&mut self, name: &str, depth: usize, found: &mut Probe) {
        match sysfs::block_dir(&self.root, name) {
            Some(dir) => self.resolve_at(name, &dir, depth, found),
            None => self.note(format!("block device {name} not in /sys/class/block")),
        }
    }

    /// [`Prober::resolve`] for a device whose sysfs directory is known.
    fn resolve_at(&mut self, name: &str, dir: &Path, depth: usize, found: &mut Probe) {
        if depth > MAX_DEPTH {
            self.note(format!("stopped following {name}: layers nest deeper than {MAX_DEPTH}"));
            return;
        }
        if !self.visited.insert(dir.to_path_buf()) {
            return;
        }
        if self.root.exists(&dir.join("partition")) {
            // A partition's directory sits in its disk's.
            let Some(disk_dir) = dir.parent() else { return };
            let Some(disk) = disk_dir.file_name().and_then(|n| n.to_str()) else { return };
            found.layers.push(Layer::Partition {
                device: name.to_string(),
                disk: disk.to_string(),
                source: Source::sysfs(&dir.join("partition")),
            });
            return self.resolve_at(disk, disk_dir, depth + 1, found);
        }
        let slaves: Vec<String> = self.root.list(&dir.join("slaves"));
        if let Some(level) = self.root.read(&dir.join("md/level")) {
            let md = self.md_raid(name, dir, level, &slaves);
            found.layers.push(Layer::Md(md));
            for member in slaves {
                self.resolve(&member, depth + 1, found);
            }
            return;
        }
        if self.root.exists(&dir.join("dm")) {
            let name_file = dir.join("dm/name");
            let dm_name = self.root.read(&name_file).map(|n| Sourced::new(n, Source::sysfs(&name_file)));
            found.layers.push(Layer::DeviceMapper {
                device: name.to_string(),
                name: dm_name,
                members: slaves.clone(),
            });
            if slaves.len() > 1 {
                self.note(format!("{name} is a device-mapper device over {} devices: its RAID level is not in sysfs (dmsetup table tells)", slaves.len()));
            }
            for member in slaves {
                self.resolve(&member, depth + 1, found);
            }
            return;
        }
        if self.root.exists(&dir.join("loop")) || sysfs::numbered(name, "loop").is_some() {
            return self.resolve_loop(name, dir, depth, found);
        }
        let drive = drive::identify(self, name, dir);
        found.drives.push(drive);
    }

    fn md_raid(&mut self, name: &str, dir: &Path, level_text: String, slaves: &[String]) -> MdRaid {
        let level_file = dir.join("md/level");
        let level = level_text.strip_prefix("raid").and_then(|n| n.parse::<u8>().ok());
        if level.is_none() {
            self.note(format!("{name} is md level {level_text}, not a RAID level"));
        }
        let disks_file = dir.join("md/raid_disks");
        let members = match self.root.read(&disks_file).and_then(|n| n.parse::<u8>().ok()) {
            Some(n) => Some(Sourced::new(n, Source::sysfs(&disks_file))),
            None => u8::try_from(slaves.len())
                .ok()
                .filter(|&n| n > 0)
                .map(|n| Sourced::new(n, Source::sysfs(&dir.join("slaves")))),
        };
        let chunk_file = dir.join("md/chunk_size");
        let chunk_bytes = self
            .root
            .read(&chunk_file)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| n > 0)
            .map(|n| Sourced::new(n, Source::sysfs(&chunk_file)));
        MdRaid {
            device: name.to_string(),
            level_name: Sourced::new(level_text, Source::sysfs(&level_file)),
            level,
            members,
            chunk_bytes,
            member_devices: slaves.to_vec(),
        }
    }

    /// A loop device: the file behind it, and the drive under that file's filesystem.
    fn resolve_loop(&mut self, name: &str, dir: &Path, depth: usize, found: &mut Probe) {
        let file = dir.join("loop/backing_file");
        let backing = self.root.read(&file);
        found.layers.push(Layer::Loop {
            device: name.to_string(),
            backing_file: backing.clone().map(|b| Sourced::new(b, Source::sysfs(&file))),
        });
        let Some(backing) = backing else {
            self.note(format!("{name} is a loop device with no backing file"));
            return;
        };
        // The kernel marks a file removed since it was attached.
        let path = PathBuf::from(backing.strip_suffix(" (deleted)").unwrap_or(&backing));
        let Some(mounts) = self.mounts() else { return };
        let Some(mount) = mounts::containing(&mounts, &path).cloned() else {
            self.note(format!("no mount holds {name}'s backing file"));
            return;
        };
        if let Some(device) = self.device_of_mount(&mount) {
            self.resolve(&device.value, depth + 1, found);
        }
    }
}

impl Probe {
    /// The drive the tags describe: the only one, or the model every RAID member shares.
    fn tagged_drive(&self) -> Option<&Drive> {
        let first = self.drives.first()?;
        let same = |d: &Drive| d.model.as_ref().map(|m| &m.value) == first.model.as_ref().map(|m| &m.value);
        self.drives.iter().all(same).then_some(first)
    }

    /// The first md array under the target.
    pub fn md_raid(&self) -> Option<&MdRaid> {
        self.layers.iter().find_map(|l| match l {
            Layer::Md(md) => Some(md),
            _ => None,
        })
    }

    /// `os` as the tags hold it: the distribution and the kernel.
    fn os(&self) -> Option<String> {
        let kernel = self.host.kernel.as_ref().map(|k| format!("Linux {}", k.value));
        match (&self.host.distribution, kernel) {
            (Some(d), Some(k)) => Some(format!("{}, {k}", d.value)),
            (Some(d), None) => Some(d.value.clone()),
            (None, k) => k,
        }
    }

    /// The SSDBase tags this probe fills; what it did not find stays empty.
    pub fn tags(&self) -> bench::Tags {
        let mut tags = bench::Tags::default();
        let platform = &mut tags.platform;
        platform.cpu = self.host.cpu.as_ref().map(|c| c.value.clone());
        platform.motherboard = self.host.motherboard.as_ref().map(|m| m.value.clone());
        platform.driver_version = self.host.kernel.as_ref().map(|k| k.value.clone());
        platform.os = self.os();
        platform.filesystem = self.filesystem.as_ref().map(|f| f.value.clone());
        platform.allocation_unit_bytes = self.allocation_unit_bytes.as_ref().map(|a| a.value);
        if let Some(drive) = self.tagged_drive() {
            tags.drive.vendor = drive.vendor.as_ref().map(|v| v.value.clone());
            tags.drive.model = drive.model.as_ref().map(|m| m.value.clone());
            tags.drive.capacity_gb = drive.capacity_gb();
            tags.firmware = drive.firmware.as_ref().map(|f| f.value.clone());
        }
        if let Some(drive) = self.drives.first() {
            platform.link = drive.link.as_ref().map(|l| l.value);
            platform.link_power = drive.link_power.as_ref().map(|l| l.value);
            if let Some(controller) = &drive.controller {
                platform.storage_controller = Some(controller.name.value.clone());
                platform.driver = controller.driver.as_ref().map(|d| d.value.clone());
                platform.mode = controller.mode.as_ref().map(|m| m.value);
                // The drive's own PCIe link is `link`; a controller's is the host side.
                if drive.transport.value != Transport::Nvme {
                    platform.host_link = controller.link.as_ref().map(|l| l.value);
                }
            }
        }
        if let Some(md) = self.md_raid() {
            if let Some(level) = md.level {
                tags.raid = Some(bench::Raid {
                    level,
                    members: md.members.as_ref().map(|m| m.value).unwrap_or(0),
                    stripe_bytes: md.chunk_bytes.as_ref().map(|c| c.value),
                });
            }
        }
        tags
    }

    /// Every fact found, flat, each with its source.
    pub fn facts(&self) -> Vec<Fact> {
        let mut facts = Facts::default();
        let host = &self.host;
        facts.add("cpu", &host.cpu, None);
        facts.add("motherboard", &host.motherboard, None);
        facts.add("driver_version", &host.kernel, None);
        facts.add("distribution", &host.distribution, None);
        if let Some(os) = self.os() {
            facts.push("os", os, Source::Derived("the distribution and the kernel release".into()), None);
        }
        facts.add("filesystem", &self.filesystem, None);
        facts.add("mount_point", &self.mount_point, None);
        facts.add("mount_source", &self.mount_source, None);
        facts.add("allocation_unit_bytes", &self.allocation_unit_bytes, None);
        facts.add("block_device", &self.block_device, None);
        for layer in &self.layers {
            match layer {
                Layer::Partition { device, disk, source } => {
                    facts.push("partition_of", disk.clone(), source.clone(), Some(device));
                }
                Layer::Md(md) => {
                    let device = Some(md.device.as_str());
                    facts.add("raid", &Some(md.level_name.clone()), device);
                    if let Some(level) = md.level {
                        facts.push("raid_level", level.to_string(), md.level_name.source.clone(), device);
                    }
                    facts.add("raid_members", &md.members, device);
                    facts.add("raid_stripe_bytes", &md.chunk_bytes, device);
                    for member in &md.member_devices {
                        facts.push(
                            "raid_member",
                            member.clone(),
                            Source::sysfs(&Path::new("/sys/class/block").join(&md.device).join("slaves")),
                            device,
                        );
                    }
                }
                Layer::DeviceMapper { device, name, members } => {
                    facts.add("dm_name", name, Some(device));
                    for member in members {
                        facts.push(
                            "dm_member",
                            member.clone(),
                            Source::sysfs(&Path::new("/sys/class/block").join(device).join("slaves")),
                            Some(device),
                        );
                    }
                }
                Layer::Loop { device, backing_file } => {
                    facts.push(
                        "transport",
                        Transport::Loop.to_string(),
                        Source::sysfs(&Path::new("/sys/class/block").join(device).join("loop")),
                        Some(device),
                    );
                    facts.add("loop_backing_file", backing_file, Some(device));
                }
            }
        }
        for drive in &self.drives {
            drive.facts(&mut facts);
        }
        facts.0
    }

    /// The text shown before anything is sent: a summary line, then one line per fact
    /// with its source, then what was not found.
    pub fn report(&self) -> String {
        report::render(self)
    }
}

impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.report())
    }
}

/// Facts being listed.
#[derive(Default)]
struct Facts(Vec<Fact>);

impl Facts {
    fn push(&mut self, field: &'static str, value: String, source: Source, device: Option<&str>) {
        self.0.push(Fact { field: Cow::Borrowed(field), value, source, device: device.map(str::to_string) });
    }

    fn add<T: ShowValue>(&mut self, field: &'static str, found: &Option<Sourced<T>>, device: Option<&str>) {
        if let Some(found) = found {
            self.push(field, found.value.show(), found.source.clone(), device);
        }
    }
}

/// A fact's value as text.
trait ShowValue {
    fn show(&self) -> String;
}

impl ShowValue for String {
    fn show(&self) -> String {
        self.clone()
    }
}

impl ShowValue for u8 {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ShowValue for u32 {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ShowValue for u64 {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ShowValue for bool {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ShowValue for Transport {
    fn show(&self) -> String {
        self.to_string()
    }
}

impl ShowValue for Link {
    /// The link's id as `bench` writes it (`sata-6`, `pcie-3-x4`, `usb-5`).
    fn show(&self) -> String {
        self.id()
    }
}

impl ShowValue for LinkPower {
    fn show(&self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }
}

impl ShowValue for StorageMode {
    fn show(&self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }
}

/// A name as a source wrote it, made fit to show and store: runs of whitespace as one
/// space, trimmed; `None` when empty, longer than SSDBase accepts a name
/// (`bench::identity::MAX_LEN`), or holding control characters, all of which mean the
/// file was not what it should be.
pub(crate) fn clean_text(raw: &str) -> Option<String> {
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let fits = !text.is_empty() && text.chars().count() <= bench::identity::MAX_LEN;
    (fits && !text.chars().any(char::is_control)).then_some(text)
}

/// A SATA speed as sysfs (`6.0 Gbps`) or smartctl (`6.0 Gb/s`) writes it, in Gb/s.
pub(crate) fn sata_gbps(text: &str) -> Option<f32> {
    let number = text.split_whitespace().next()?;
    number.parse::<f32>().ok().filter(|g| g.is_finite() && *g > 0.0 && *g <= 100.0)
}
