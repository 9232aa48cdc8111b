//! The machine around the drive: CPU (`/proc/cpuinfo`), motherboard (DMI in
//! `/sys/class/dmi/id`, or the device tree's model on boards without DMI), kernel
//! (`/proc/sys/kernel/osrelease`) and distribution (`/etc/os-release`).

use crate::sysfs::Root;
use crate::{Source, Sourced};
use std::path::Path;

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Host {
    pub cpu: Option<Sourced<String>>,
    pub motherboard: Option<Sourced<String>>,
    /// The kernel release: `6.1.0-18-amd64`.
    pub kernel: Option<Sourced<String>>,
    /// The distribution's PRETTY_NAME: `Debian GNU/Linux 12 (bookworm)`.
    pub distribution: Option<Sourced<String>>,
}

pub fn read(root: &Root) -> Host {
    Host {
        cpu: cpu(root),
        motherboard: motherboard(root),
        kernel: kernel(root),
        distribution: distribution(root),
    }
}

fn cpu(root: &Root) -> Option<Sourced<String>> {
    let path = Path::new("/proc/cpuinfo");
    let text = root.read(path)?;
    // x86 says "model name"; arm64 kernels print no CPU name at all.
    let name = text.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name").then(|| crate::clean_text(value))?
    })?;
    Some(Sourced::new(name, Source::proc(path)))
}

/// Values firmware writers leave in DMI fields they did not fill.
fn placeholder(value: &str) -> bool {
    let v = value.to_ascii_lowercase();
    [
        "to be filled by o.e.m.",
        "default string",
        "system product name",
        "system manufacturer",
        "not applicable",
        "none",
        "n/a",
        "0123456789",
        "x.x",
    ]
    .contains(&v.as_str())
        || v.is_empty()
}

fn motherboard(root: &Root) -> Option<Sourced<String>> {
    let dmi = |file: &str| {
        let path = Path::new("/sys/class/dmi/id").join(file);
        root.read(&path).and_then(|v| crate::clean_text(&v)).filter(|v| !placeholder(v)).map(|v| (v, path))
    };
    // The board says more about a desktop's storage (its chipset's ports); a laptop or
    // server leaves the board fields vague and names itself in sys_vendor/product_name.
    for (vendor_file, name_file) in [("board_vendor", "board_name"), ("sys_vendor", "product_name")] {
        if let Some((name, path)) = dmi(name_file) {
            let text = match dmi(vendor_file) {
                Some((vendor, _)) if !name.starts_with(&vendor) => format!("{vendor} {name}"),
                _ => name,
            };
            return Some(Sourced::new(text, Source::Dmi(path.display().to_string())));
        }
    }
    let path = Path::new("/sys/firmware/devicetree/base/model");
    let model = root.read(path).and_then(|v| crate::clean_text(&v))?;
    Some(Sourced::new(model, Source::sysfs(path)))
}

fn kernel(root: &Root) -> Option<Sourced<String>> {
    let path = Path::new("/proc/sys/kernel/osrelease");
    let release = root.read(path)?;
    (!release.contains(char::is_whitespace)).then(|| Sourced::new(release, Source::proc(path)))
}

fn distribution(root: &Root) -> Option<Sourced<String>> {
    ["/etc/os-release", "/usr/lib/os-release"].iter().map(Path::new).find_map(|path| {
        let text = root.read(path)?;
        let value = text.lines().find_map(|l| l.strip_prefix("PRETTY_NAME="))?;
        let name = crate::clean_text(value.trim().trim_matches(|c| c == '"' || c == '\''))?;
        Some(Sourced::new(name, Source::OsRelease(path.display().to_string())))
    })
}
