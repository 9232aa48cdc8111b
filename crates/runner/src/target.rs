//! Where the benchmark writes: the checks that refuse a target before anything is
//! written, and the test file that is removed whatever happens.

use crate::error::RunError;
use rustix::fs::{AtFlags, Mode, OFlags, StatVfsMountFlags};
use rustix::io::Errno;
use std::ffi::CString;
use std::fs;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// What the benchmark runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A directory on a mounted filesystem: a test file is created in it and removed after.
    Dir(PathBuf),
    /// An unmounted block device, overwritten from its start (needs `destructive`).
    Device(PathBuf),
}

impl Target {
    pub fn path(&self) -> &Path {
        match self {
            Target::Dir(p) | Target::Device(p) => p,
        }
    }
}

/// Room kept beyond the test size: the filesystem's own blocks for the file (extent tree,
/// journal) must fit too, or fio's layout ends in ENOSPC.
const HEADROOM: u64 = 4 << 20;

/// `statfs` magic numbers of filesystems that keep files in memory (linux/magic.h).
const TMPFS_MAGIC: i64 = 0x0102_1994;
const RAMFS_MAGIC: i64 = 0x8584_58f6;

fn cstring(path: &Path) -> Result<CString, RunError> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| RunError::BadPath(path.to_path_buf()))
}

fn refuse_unusable_path(path: &Path) -> Result<(), RunError> {
    if path.as_os_str().as_bytes().iter().any(|b| *b == b'\n' || *b == b'\r' || *b == 0) {
        return Err(RunError::BadPath(path.to_path_buf()));
    }
    Ok(())
}

/// Bytes a test file in `dir` may take: what the filesystem has free for this user,
/// less the headroom every test leaves.
pub fn available_bytes(dir: &Path) -> Result<u64, RunError> {
    let c = cstring(dir)?;
    let vfs = rustix::fs::statvfs(c.as_c_str()).map_err(|e| RunError::io(dir, e.into()))?;
    Ok(vfs.f_bavail.saturating_mul(vfs.f_frsize).saturating_sub(HEADROOM))
}

/// A directory target: exists, writable, room for the test, O_DIRECT possible (unless
/// `buffered`), not in memory (unless `buffered`).
pub(crate) fn check_dir(dir: &Path, size_bytes: u64, buffered: bool) -> Result<(), RunError> {
    refuse_unusable_path(dir)?;
    let meta = fs::metadata(dir).map_err(|e| RunError::io(dir, e))?;
    if !meta.is_dir() {
        return Err(RunError::NotADirectory(dir.to_path_buf()));
    }
    let c = cstring(dir)?;

    let vfs = rustix::fs::statvfs(c.as_c_str()).map_err(|e| RunError::io(dir, e.into()))?;
    // A read-only mount, bind mounts included (the flag is the mount's, not the device's).
    if vfs.f_flag.contains(StatVfsMountFlags::RDONLY) {
        return Err(RunError::ReadOnly(dir.to_path_buf()));
    }
    let available = vfs.f_bavail.saturating_mul(vfs.f_frsize);
    let needed = size_bytes + HEADROOM;
    if available < needed {
        return Err(RunError::NoRoom { path: dir.to_path_buf(), available, needed });
    }

    let sfs = rustix::fs::statfs(c.as_c_str()).map_err(|e| RunError::io(dir, e.into()))?;
    #[allow(clippy::unnecessary_cast, reason = "f_type's width differs between architectures")]
    let fs_type = match sfs.f_type as i64 {
        TMPFS_MAGIC => Some("tmpfs"),
        RAMFS_MAGIC => Some("ramfs"),
        _ => None,
    };
    // tmpfs accepts O_DIRECT since Linux 6.6, but what it measures is memory.
    if let (Some(fs_type), false) = (fs_type, buffered) {
        return Err(RunError::InMemory { path: dir.to_path_buf(), fs_type });
    }

    // Create a file the way the test file will be opened: this finds permission
    // problems and a filesystem without O_DIRECT (EINVAL) before anything is measured.
    let probe = dir.join(format!(".ssdbase-bench-probe-{}", std::process::id()));
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    if !buffered {
        options.custom_flags(o_flags(OFlags::DIRECT));
    }
    let opened = options.open(&probe);
    let _ = fs::remove_file(&probe);
    match opened {
        Ok(_) => Ok(()),
        Err(e) if e.raw_os_error() == Some(Errno::INVAL.raw_os_error()) => {
            Err(RunError::NoDirectIo { path: dir.to_path_buf(), source: e })
        }
        Err(e) => Err(RunError::io(dir, e)),
    }
}

/// A block-device target: a block device, confirmed destructive, nothing of it mounted
/// (itself or a partition), held (LVM, dm-crypt, RAID) or used as swap, large enough.
pub(crate) fn check_device(
    device: &Path,
    size_bytes: u64,
    destructive: bool,
    buffered: bool,
) -> Result<(), RunError> {
    refuse_unusable_path(device)?;
    if !destructive {
        return Err(RunError::NotConfirmed { device: device.to_path_buf() });
    }
    let meta = fs::metadata(device).map_err(|e| RunError::io(device, e))?;
    if !meta.file_type().is_block_device() {
        return Err(RunError::NotABlockDevice(device.to_path_buf()));
    }
    let rdev = meta.rdev();
    let sys = PathBuf::from(format!("/sys/dev/block/{}:{}", major(rdev), minor(rdev)));

    // The device and its partitions, as (major:minor, name).
    let mut parts = vec![(rdev, "the device".to_string())];
    if let Ok(entries) = fs::read_dir(&sys) {
        for entry in entries.flatten() {
            let dir = entry.path();
            if dir.join("partition").exists() {
                if let Some(dev) = read_dev(&dir.join("dev")) {
                    parts.push((dev, format!("its partition {}", entry.file_name().to_string_lossy())));
                }
            }
        }
    }

    let mountinfo =
        fs::read_to_string("/proc/self/mountinfo").map_err(|e| RunError::io("/proc/self/mountinfo", e))?;
    for mount in probe::mounts::parse(&mountinfo) {
        let mount_dev = mount.dev_numbers().map(|(major, minor)| rustix::fs::makedev(major, minor));
        // By device number, and by source path for filesystems whose st_dev is anonymous
        // (btrfs).
        let source_dev = Path::new(&mount.source)
            .is_absolute()
            .then(|| fs::metadata(&mount.source).ok())
            .flatten()
            .and_then(|m| m.file_type().is_block_device().then(|| m.rdev()));
        for (dev, what) in &parts {
            if mount_dev == Some(*dev) || source_dev == Some(*dev) {
                return Err(RunError::Mounted {
                    device: device.to_path_buf(),
                    what: what.clone(),
                    mount_point: mount.mount_point.display().to_string(),
                });
            }
        }
    }

    for (dev, what) in &parts {
        let holders = PathBuf::from(format!("/sys/dev/block/{}:{}/holders", major(*dev), minor(*dev)));
        if let Some(holder) = fs::read_dir(&holders).ok().and_then(|mut d| d.next()).and_then(Result::ok) {
            return Err(RunError::InUse {
                device: device.to_path_buf(),
                holder: format!("{} ({what} is held by it)", holder.file_name().to_string_lossy()),
            });
        }
    }

    if let Ok(swaps) = fs::read_to_string("/proc/swaps") {
        for line in swaps.lines().skip(1) {
            let Some(name) = line.split_whitespace().next() else { continue };
            let swap_dev = fs::metadata(probe::mounts::unescape(name)).ok().map(|m| m.rdev());
            if let Some((_, what)) = parts.iter().find(|(dev, _)| Some(*dev) == swap_dev) {
                return Err(RunError::InUse {
                    device: device.to_path_buf(),
                    holder: format!("swap ({what})"),
                });
            }
        }
    }

    let sectors: u64 =
        fs::read_to_string(sys.join("size")).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    let available = sectors * 512;
    if available < size_bytes {
        return Err(RunError::NoRoom { path: device.to_path_buf(), available, needed: size_bytes });
    }

    // The kernel's own word: an exclusive open fails with EBUSY while anything (a
    // filesystem, device mapper, md, swap) claims the device.
    let mut flags = OFlags::EXCL;
    if !buffered {
        flags |= OFlags::DIRECT;
    }
    match fs::OpenOptions::new().read(true).custom_flags(o_flags(flags)).open(device) {
        Ok(_) => Ok(()),
        Err(e) if e.raw_os_error() == Some(Errno::BUSY.raw_os_error()) => Err(RunError::InUse {
            device: device.to_path_buf(),
            holder: "the kernel (an exclusive open was refused: mounted, swap, or part of a volume)".into(),
        }),
        Err(e) if e.raw_os_error() == Some(Errno::INVAL.raw_os_error()) => {
            Err(RunError::NoDirectIo { path: device.to_path_buf(), source: e })
        }
        Err(e) => Err(RunError::io(device, e)),
    }
}

/// Open flags as `OpenOptionsExt::custom_flags` takes them.
fn o_flags(flags: OFlags) -> i32 {
    flags.bits() as i32
}

fn major(dev: u64) -> u64 {
    u64::from(rustix::fs::major(dev))
}

fn minor(dev: u64) -> u64 {
    u64::from(rustix::fs::minor(dev))
}

/// `/sys/.../dev`: `8:1`.
fn read_dev(path: &Path) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    let (ma, mi) = text.trim().split_once(':')?;
    Some(rustix::fs::makedev(ma.parse().ok()?, mi.parse().ok()?))
}

/// The test file in a directory target. Created empty (fio lays it out), removed when
/// dropped: on success, error, cancel and panic alike. The directory is held open, so the
/// file is removed through it even when the directory's path no longer leads there (the
/// filesystem lazily unmounted, the directory renamed).
pub(crate) struct TestFile {
    dir: OwnedFd,
    dir_path: PathBuf,
    dir_identity: Option<Identity>,
    created_at: std::time::SystemTime,
    name: CString,
    path: PathBuf,
}

impl TestFile {
    pub fn create(dir: &Path) -> Result<TestFile, RunError> {
        let created_at = std::time::SystemTime::now();
        let nanos = created_at.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        // KDiskMark: `kdiskmark-XXXXXX.tmp` (helper.cpp:185).
        let name = format!("ssdbase-bench-{}-{nanos:08x}.tmp", std::process::id());
        let c_dir = cstring(dir)?;
        let dir_fd = rustix::fs::open(
            c_dir.as_c_str(),
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| RunError::io(dir, e.into()))?;
        let c_name = CString::new(name.clone()).expect("no NUL in a generated name");
        // Closed at once: fio opens the file by name.
        drop(
            rustix::fs::openat(
                &dir_fd,
                c_name.as_c_str(),
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o600),
            )
            .map_err(|e| RunError::io(dir, e.into()))?,
        );
        Ok(TestFile {
            dir: dir_fd,
            dir_path: dir.to_path_buf(),
            dir_identity: Identity::of(dir),
            created_at,
            name: c_name,
            path: dir.join(name),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TestFile {
    fn drop(&mut self) {
        let _ = rustix::fs::unlinkat(&self.dir, self.name.as_c_str(), AtFlags::empty());
        // fio makes the directories of a `filename` that do not exist: if the directory
        // was deleted during the run, fio may have made one in its place, perhaps with a
        // test file of our unique name in it. The file is ours whatever the directory;
        // the directory only if it was born after the test file (a mount point the
        // filesystem was unmounted from is the user's, empty or not).
        if let Some(original) = self.dir_identity {
            if !original.still_at(&self.dir_path) {
                let _ = fs::remove_file(&self.path);
                let born = fs::metadata(&self.dir_path).and_then(|m| m.created());
                if born.is_ok_and(|born| born >= self.created_at) {
                    let _ = fs::remove_dir(&self.dir_path);
                }
            }
        }
    }
}

/// What fio is given by name, identified once, so that a path that now leads elsewhere
/// (the directory deleted and made again, a filesystem unmounted, a device replaced) is
/// told from the target itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    dev: u64,
    ino: u64,
    rdev: u64,
}

impl Identity {
    pub fn of(path: &Path) -> Option<Identity> {
        let m = fs::metadata(path).ok()?;
        Some(Identity { dev: m.dev(), ino: m.ino(), rdev: m.rdev() })
    }

    /// Whether `path` still leads to this file or device: fio opens it by name for every
    /// pass.
    pub fn still_at(&self, path: &Path) -> bool {
        Identity::of(path) == Some(*self)
    }
}
