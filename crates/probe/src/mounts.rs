//! `/proc/self/mountinfo`: which mount holds a path, its filesystem type, source and
//! device number. Lines are `id parent major:minor root mount-point options [optional
//! fields...] - fstype source super-options`, with spaces and other odd bytes in paths
//! written as octal escapes (`\040`).

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    pub mount_point: PathBuf,
    pub fstype: String,
    /// What was mounted: `/dev/sda1`, `/dev/mapper/vg-root`, `tmpfs`, `server:/export`.
    pub source: String,
    /// The `major:minor` of the device behind the filesystem (`0:NN` for filesystems
    /// without one, and for btrfs, whose subvolumes get anonymous numbers).
    pub dev: String,
}

impl Mount {
    /// The device's major and minor numbers (`dev`, `8:17` → (8, 17)).
    pub fn dev_numbers(&self) -> Option<(u32, u32)> {
        let (major, minor) = self.dev.split_once(':')?;
        Some((major.parse().ok()?, minor.parse().ok()?))
    }
}

/// Every mount in `mountinfo`, in the file's order; lines that do not parse are skipped.
pub fn parse(mountinfo: &str) -> Vec<Mount> {
    mountinfo.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<Mount> {
    let (before, after) = line.split_once(" - ")?;
    let fields: Vec<&str> = before.split(' ').collect();
    let mut after = after.split(' ');
    let dev = fields.get(2)?;
    dev.split_once(':').filter(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())?;
    Some(Mount {
        mount_point: PathBuf::from(unescape(fields.get(4)?)),
        fstype: after.next().filter(|s| !s.is_empty())?.to_string(),
        source: unescape(after.next()?),
        dev: dev.to_string(),
    })
}

/// Octal escapes (`\040` space, `\011` tab, `\012` newline, `\134` backslash) decoded,
/// as mountinfo and `/proc/swaps` write them.
pub fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let octal = bytes.get(i + 1..i + 4).and_then(|o| std::str::from_utf8(o).ok());
            if let Some(byte) = octal.and_then(|o| u8::from_str_radix(o, 8).ok()) {
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

/// The mount holding `path` (absolute, symlinks already resolved): the one with the
/// longest mount point above it; of several on one mount point, the last mounted, which
/// hides the others.
pub fn containing<'a>(mounts: &'a [Mount], path: &Path) -> Option<&'a Mount> {
    mounts
        .iter()
        .enumerate()
        .filter(|(_, m)| path.starts_with(&m.mount_point))
        .max_by_key(|(i, m)| (m.mount_point.components().count(), *i))
        .map(|(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "22 27 0:21 / /proc rw,relatime - proc proc rw\n\
        27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n\
        40 27 8:17 / /mnt/my\\040disk rw,relatime shared:1 - xfs /dev/sdb1 rw\n\
        41 40 0:50 / /mnt/my\\040disk/tmp rw - tmpfs tmpfs rw\n\
        garbage line\n";

    #[test]
    fn device_numbers_and_escapes_are_read() {
        let mounts = parse(SAMPLE);
        assert_eq!(mounts[2].dev_numbers(), Some((8, 17)));
        assert_eq!(mounts[2].mount_point, PathBuf::from("/mnt/my disk"));
        assert_eq!(unescape("/swap\\040file\\134x"), "/swap file\\x");
    }

    #[test]
    fn the_deepest_mount_holds_the_path() {
        let mounts = parse(SAMPLE);
        assert_eq!(mounts.len(), 4);
        let m = containing(&mounts, Path::new("/mnt/my disk/data")).unwrap();
        assert_eq!((m.fstype.as_str(), m.source.as_str(), m.dev.as_str()), ("xfs", "/dev/sdb1", "8:17"));
        assert_eq!(containing(&mounts, Path::new("/home")).unwrap().fstype, "ext4");
        assert_eq!(containing(&mounts, Path::new("/mnt/my disk/tmp/x")).unwrap().fstype, "tmpfs");
        // A path that merely starts with the same letters is not under the mount.
        assert_eq!(containing(&mounts, Path::new("/procfoo")).unwrap().fstype, "ext4");
    }
}
