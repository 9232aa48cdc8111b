//! Reading the machine's files through a root directory: `/` on the machine itself, a
//! fixture tree in tests. Paths given here are the machine's own ("/sys/block/sda");
//! symlinks, which sysfs uses everywhere (`../../devices/pci0000:00/...`), are resolved
//! against the root, so a fixture's links never lead out of it. Every read is capped and
//! every odd file (missing, not UTF-8, empty, a FIFO) reads as "not found".

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Longest file read: sysfs attributes are at most a page, os-release and cpuinfo a few
/// KiB; anything longer is not what we are looking for.
pub const MAX_READ: u64 = 64 * 1024;

/// Most symlinks followed while resolving one path (the kernel's own limit is 40).
const MAX_LINKS: usize = 40;

/// A directory standing for the machine's `/`.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
}

impl Root {
    pub fn new(dir: &Path) -> Root {
        Root { dir: dir.to_path_buf() }
    }

    /// Where the machine's `path` is on this host.
    fn host(&self, path: &Path) -> PathBuf {
        let relative: PathBuf = path.components().filter(|c| matches!(c, Component::Normal(_))).collect();
        self.dir.join(relative)
    }

    /// `path` with every symlink resolved inside the root, as the machine's absolute path;
    /// `None` when some component does not exist or the links loop.
    pub fn canonical(&self, path: &Path) -> Option<PathBuf> {
        let mut resolved = PathBuf::from("/");
        let mut pending: VecDeque<OsString> = normal_parts(path);
        let mut links = 0;
        while let Some(part) = pending.pop_front() {
            if part == ".." {
                resolved.pop();
                continue;
            }
            let candidate = resolved.join(&part);
            let meta = fs::symlink_metadata(self.host(&candidate)).ok()?;
            if !meta.file_type().is_symlink() {
                resolved = candidate;
                continue;
            }
            links += 1;
            if links > MAX_LINKS {
                return None;
            }
            let target = fs::read_link(self.host(&candidate)).ok()?;
            if target.is_absolute() {
                resolved = PathBuf::from("/");
            }
            let mut rest = normal_parts(&target);
            rest.extend(pending);
            pending = rest;
        }
        Some(resolved)
    }

    /// The text of a small regular file, trimmed of whitespace and NULs; `None` when it is
    /// missing, not a regular file, not UTF-8 or empty.
    pub fn read(&self, path: &Path) -> Option<String> {
        let bytes = self.read_bytes(path)?;
        let text = String::from_utf8(bytes).ok()?;
        let trimmed = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        (!trimmed.is_empty()).then(|| trimmed.to_string())
    }

    /// At most [`MAX_READ`] bytes of a regular file.
    pub fn read_bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.read_capped(path, MAX_READ)
    }

    /// At most `max` bytes of a regular file (mountinfo can outgrow [`MAX_READ`] on a
    /// machine running many containers).
    pub fn read_capped(&self, path: &Path, max: u64) -> Option<Vec<u8>> {
        let host = self.host(&self.canonical(path)?);
        // Only regular files: a FIFO or a device node would block or never end.
        if !fs::metadata(&host).ok()?.is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        fs::File::open(&host).ok()?.take(max).read_to_end(&mut bytes).ok()?;
        Some(bytes)
    }

    /// A file's host path, for readers that stream a large file themselves (pci.ids).
    pub fn host_file(&self, path: &Path) -> Option<PathBuf> {
        let host = self.host(&self.canonical(path)?);
        fs::metadata(&host).ok()?.is_file().then_some(host)
    }

    /// The metadata of what `path` leads to.
    pub fn metadata(&self, path: &Path) -> Option<fs::Metadata> {
        fs::metadata(self.host(&self.canonical(path)?)).ok()
    }

    pub fn exists(&self, path: &Path) -> bool {
        self.canonical(path).is_some()
    }

    /// The last component a symlink points to: a device's `driver` link names the driver.
    pub fn link_name(&self, path: &Path) -> Option<String> {
        let target = fs::read_link(self.host(path)).ok()?;
        Some(target.file_name()?.to_str()?.to_string())
    }

    /// The names in a directory, sorted; empty when it is missing.
    pub fn list(&self, path: &Path) -> Vec<String> {
        let Some(dir) = self.canonical(path) else { return Vec::new() };
        let Ok(entries) = fs::read_dir(self.host(&dir)) else { return Vec::new() };
        let mut names: Vec<String> = entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
        names.sort();
        names
    }
}

fn normal_parts(path: &Path) -> VecDeque<OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect()
}

/// A block device's directory in sysfs, resolved: `/sys/devices/.../block/sda`.
pub fn block_dir(root: &Root, name: &str) -> Option<PathBuf> {
    if name.is_empty() || name.contains('/') || name == ".." {
        return None;
    }
    root.canonical(&Path::new("/sys/class/block").join(name))
        .or_else(|| root.canonical(&Path::new("/sys/block").join(name)))
}

/// A PCI function's directory name: `0000:00:17.0`.
pub fn is_pci_address(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 12
        && b[4] == b':'
        && b[7] == b':'
        && b[10] == b'.'
        && [0, 1, 2, 3, 5, 6, 8, 9, 11].iter().all(|&i| b[i].is_ascii_hexdigit())
}

/// `name` is `prefix` followed by digits only (`ata3`, `host0`, `virtio1`).
pub fn numbered(name: &str, prefix: &str) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pci_addresses_are_recognised() {
        assert!(is_pci_address("0000:00:17.0"));
        assert!(is_pci_address("0000:3d:00.0"));
        assert!(!is_pci_address("pci0000:00"));
        assert!(!is_pci_address("0000:00:17"));
    }

    #[test]
    fn numbered_names() {
        assert_eq!(numbered("ata3", "ata"), Some(3));
        assert_eq!(numbered("ata", "ata"), None);
        assert_eq!(numbered("ata3x", "ata"), None);
        assert_eq!(numbered("host12", "host"), Some(12));
    }
}
