//! Every way a benchmark can be refused or fail, each saying what and where.

use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    // --- the plan ---
    #[error("passes must be 1 to 9 (KDiskMark's range), not {0}")]
    Passes(u32),
    #[error("test size {size}: {reason}")]
    Size { size: String, reason: String },
    #[error("data pattern {0:?} is not offered: random or zero-fill")]
    Pattern(bench::DataPattern),
    #[error(
        "measure time must be 1 to 600 seconds and the interval at most 600, not {measure} and {interval}"
    )]
    Times { measure: u32, interval: u32 },

    // --- fio ---
    #[error(
        "fio was not found on PATH; it does the disk I/O, so install it first: \
         sudo apt-get install fio (Debian, Ubuntu, Raspberry Pi OS), sudo dnf install fio (Fedora), \
         sudo pacman -S fio (Arch), sudo apk add fio (Alpine), sudo zypper install fio (openSUSE)"
    )]
    FioMissing,
    #[error("{program}: `fio --version` printed {printed:?}, not a fio version")]
    FioVersion { program: PathBuf, printed: String },

    // --- the target, before anything is written ---
    #[error("{0}: no such file or directory")]
    NotFound(PathBuf),
    #[error(
        "{0}: not a directory (a benchmark target is a directory on a mounted filesystem, or a block device)"
    )]
    NotADirectory(PathBuf),
    #[error("{0}: not a block device")]
    NotABlockDevice(PathBuf),
    #[error("{0}: a path fio cannot take (line break or NUL in it)")]
    BadPath(PathBuf),
    #[error("{device}: writing to a raw device destroys its data; refused unless --destructive is given")]
    NotConfirmed { device: PathBuf },
    #[error("{device}: {what} is mounted on {mount_point}; unmount it first")]
    Mounted { device: PathBuf, what: String, mount_point: String },
    #[error("{device}: in use by {holder}")]
    InUse { device: PathBuf, holder: String },
    #[error("{path}: {available} bytes available, the test needs {needed}")]
    NoRoom { path: PathBuf, available: u64, needed: u64 },
    #[error("{path}: on {fs_type}, which keeps files in memory: direct I/O would measure RAM, not a drive; give --buffered to run there anyway (the result is then marked buffered)")]
    InMemory { path: PathBuf, fs_type: &'static str },
    #[error("{path}: this filesystem does not support O_DIRECT ({source}); give --buffered to run through the page cache (the result is then marked buffered)")]
    NoDirectIo { path: PathBuf, source: io::Error },
    #[error("{0}: read-only filesystem")]
    ReadOnly(PathBuf),
    #[error("{path}: permission denied ({source})")]
    NoPermission { path: PathBuf, source: io::Error },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },

    // --- while running ---
    #[error("{0}")]
    Load(String),
    #[error("cancelled")]
    Cancelled,
    #[error("fio failed during {test}: {status}; its stderr ends: {stderr_tail}")]
    FioFailed { test: String, status: String, stderr_tail: String },
    #[error(
        "disk full: fio ran out of space (ENOSPC) on {path} during {test}; its stderr ends: {stderr_tail}"
    )]
    DiskFull { test: String, path: PathBuf, stderr_tail: String },
    #[error("the target vanished during {test}: {path} is gone (unmounted, deleted or the device removed)")]
    TargetVanished { test: String, path: PathBuf },
    #[error("fio's output for {test} could not be read: {detail}")]
    BadOutput { test: String, detail: String },
}

impl RunError {
    /// An I/O error at `path`, sorted into the errors a person can act on.
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> RunError {
        let path = path.into();
        use rustix::io::Errno;
        match Errno::from_io_error(&source) {
            Some(Errno::ACCESS | Errno::PERM) => RunError::NoPermission { path, source },
            Some(Errno::ROFS) => RunError::ReadOnly(path),
            Some(Errno::NOENT) => RunError::NotFound(path),
            _ => RunError::Io { path, source },
        }
    }
}
