//! What the probe asks the running system beyond reading files: the external programs
//! smartctl and nvme, and statvfs(3). Tests answer from fixture files instead.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// How long an external program may take: identify commands answer in well under a
/// second, a drive that hangs them must not hang the benchmark.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Most output read from a program; identify answers are a few KiB.
const MAX_OUTPUT: u64 = 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    #[error("{program} is not installed (Debian package {package})")]
    NotInstalled { program: &'static str, package: &'static str },
    #[error("{program} did not answer within {seconds} s")]
    TimedOut { program: &'static str, seconds: u64 },
    #[error("{program} failed: {detail}")]
    Failed { program: &'static str, detail: String },
}

pub trait Tools {
    /// `smartctl --json -i [-d <device_type>] <device>`'s output.
    fn smartctl(&self, device: &Path, device_type: Option<&str>) -> Result<String, ToolError>;
    /// `nvme id-ctrl -o json <device>`'s output.
    fn nvme_id_ctrl(&self, device: &Path) -> Result<String, ToolError>;
    /// The filesystem block size (statvfs `f_bsize`) of the filesystem holding `path`.
    fn block_size(&self, path: &Path) -> Option<u64>;
}

/// The machine itself: runs the programs, asks the kernel.
pub struct RealTools;

impl Tools for RealTools {
    fn smartctl(&self, device: &Path, device_type: Option<&str>) -> Result<String, ToolError> {
        let mut args = vec!["--json", "-i"];
        if let Some(t) = device_type {
            args.extend(["-d", t]);
        }
        let device = device
            .to_str()
            .ok_or(ToolError::Failed { program: "smartctl", detail: "device path is not UTF-8".into() })?;
        args.push(device);
        // smartctl's exit status is a bit mask that includes the drive's health; its JSON
        // is read whatever the status, and judged by what it contains.
        run("smartctl", "smartmontools", &args, false)
    }

    fn nvme_id_ctrl(&self, device: &Path) -> Result<String, ToolError> {
        let device = device
            .to_str()
            .ok_or(ToolError::Failed { program: "nvme", detail: "device path is not UTF-8".into() })?;
        run("nvme", "nvme-cli", &["id-ctrl", "-o", "json", device], true)
    }

    fn block_size(&self, path: &Path) -> Option<u64> {
        let stat = rustix::fs::statvfs(path).ok()?;
        (stat.f_bsize > 0).then_some(stat.f_bsize)
    }
}

/// Runs `program` with a [`TIMEOUT`], its standard output as text. `need_success`: a
/// non-zero exit status is a failure.
fn run(
    program: &'static str,
    package: &'static str,
    args: &[&str],
    need_success: bool,
) -> Result<String, ToolError> {
    let failed = |detail: String| ToolError::Failed { program, detail };
    let mut child = match Command::new(program)
        .args(args)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ToolError::NotInstalled { program, package })
        }
        Err(e) => return Err(failed(e.to_string())),
    };
    // Read the output on its own thread, so a program that fills the pipe cannot stall
    // the wait below.
    let stdout = child.stdout.take().ok_or_else(|| failed("no standard output".into()))?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.take(MAX_OUTPUT).read_to_end(&mut out);
        out
    });
    let status = match child.wait_timeout(TIMEOUT) {
        Ok(Some(status)) => status,
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ToolError::TimedOut { program, seconds: TIMEOUT.as_secs() });
        }
        Err(e) => return Err(failed(e.to_string())),
    };
    let out = reader.join().map_err(|_| failed("reading its output failed".into()))?;
    if need_success && !status.success() {
        return Err(failed(format!("exit status {}", status.code().unwrap_or(-1))));
    }
    String::from_utf8(out).map_err(|_| failed("output is not UTF-8".into()))
}
