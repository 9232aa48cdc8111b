//! The fio program: finding it, its version, running one job file, killing it.

use crate::error::RunError;
use std::env;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How often a running fio is checked for exit and the cancel flag: half of it is, on
/// average, added to every fio run (20 ms made 12 ms per run, 3 % of a small profile).
const POLL: Duration = Duration::from_millis(5);
/// How much of fio's stderr an error quotes.
const STDERR_TAIL: usize = 600;

/// `fio` on `PATH` (KDiskMark starts `fio` by name too, benchmark.cpp:12).
pub(crate) fn locate() -> Result<PathBuf, RunError> {
    let path = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&path)
        .map(|dir| dir.join("fio"))
        .find(|candidate| is_executable(candidate))
        .ok_or(RunError::FioMissing)
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `fio --version`: `fio-3.33` (KDiskMark checks the same prefix, benchmark.cpp:27-30).
pub(crate) fn version(fio: &Path) -> Result<String, RunError> {
    let out =
        Command::new(fio).arg("--version").stdin(Stdio::null()).output().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => RunError::FioMissing,
            _ => RunError::Io { path: fio.to_path_buf(), source: e },
        })?;
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if out.status.success() && printed.starts_with("fio-") && !printed.contains(char::is_whitespace) {
        Ok(printed)
    } else {
        Err(RunError::FioVersion { program: fio.to_path_buf(), printed })
    }
}

/// How one fio run ended, when it was not cancelled.
pub(crate) struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs fio on `job` (given on stdin, fio's job file `-`) with JSON output to stdout.
/// `running` gets fio's process id once it runs and again about every `tick_every`
/// while it does. On `cancel`, fio and every job process it forked are
/// killed and reaped, and the answer is `Err(RunError::Cancelled)`.
pub(crate) fn run(
    fio: &Path,
    job: &str,
    cancel: &AtomicBool,
    running: &mut dyn FnMut(u32),
    tick_every: Duration,
) -> Result<Finished, RunError> {
    let child = Command::new(fio)
        .args(["--output-format=json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A process group of its own: fio forks a process per job (numjobs), and a cancel
        // must stop them all, not only the parent.
        .process_group(0)
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => RunError::FioMissing,
            _ => RunError::Io { path: fio.to_path_buf(), source: e },
        })?;
    let pid = child.id();
    // From here on, leaving this function in any way but fio's own exit (an error, a
    // panic in `running`) kills fio's process group.
    let mut fio_process = Group { child, running: true };
    // The job file is a few hundred bytes: one write, then EOF.
    if let Some(mut stdin) = fio_process.child.stdin.take() {
        let _ = stdin.write_all(job.as_bytes());
    }
    let stdout = reader(fio_process.child.stdout.take());
    let stderr = reader(fio_process.child.stderr.take());
    running(pid);

    let mut last_tick = Instant::now();
    let status = loop {
        if cancel.load(Ordering::SeqCst) {
            fio_process.kill();
            let _ = stdout.join();
            let _ = stderr.join();
            return Err(RunError::Cancelled);
        }
        match fio_process.child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(RunError::Io { path: fio.to_path_buf(), source: e }),
        }
        if last_tick.elapsed() >= tick_every {
            last_tick = Instant::now();
            running(pid);
        }
        thread::sleep(POLL);
    };
    fio_process.running = false;
    if !status.success() {
        // fio died or failed: its forked job processes may still be running.
        kill_group_members(pid as libc::pid_t);
    }
    Ok(Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// fio and the job processes it forks, one process group.
struct Group {
    child: Child,
    /// fio has not been reaped yet.
    running: bool,
}

impl Group {
    /// SIGKILL to the group, then reap fio; its job processes, orphaned, are killed by
    /// the same signal.
    fn kill(&mut self) {
        if self.running {
            let pgid = self.child.id() as libc::pid_t;
            // SAFETY: signalling the process group we created.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            let _ = self.child.wait();
            self.running = false;
            kill_group_members(pgid);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
    }
}

fn reader(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// SIGKILL to what is left of a process group, then wait (at most 2 s) until none of it
/// is left, so that the test file is not held open by a dying job when it is removed.
fn kill_group_members(pgid: libc::pid_t) {
    let deadline = Instant::now() + Duration::from_secs(2);
    // SAFETY: signalling the process group fio led; signal 0 only asks whether the group
    // still has members.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
        while libc::kill(-pgid, 0) == 0 && Instant::now() < deadline {
            thread::sleep(POLL);
        }
    }
}

/// `exit status 1`, `killed by signal 9 (SIGKILL)`.
pub(crate) fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal} ({})", signal_name(signal)),
        (None, None) => status.to_string(),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGHUP => "SIGHUP",
        _ => "signal",
    }
}

/// The last `STDERR_TAIL` bytes of stderr, on a character boundary, trimmed.
pub(crate) fn tail(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return "(nothing)".into();
    }
    let mut start = text.len().saturating_sub(STDERR_TAIL);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let cut = if start > 0 { "…" } else { "" };
    format!("{cut}{}", &text[start..])
}
