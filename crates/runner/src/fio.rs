//! The fio program: finding it, its version, running one job file, killing it.

use crate::error::RunError;
use rustix::process::{kill_process, Pid, Signal};
use std::env;
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How often the cancel flag (and fio's jobs, and the progress tick) are looked at while
/// fio runs; fio's exit itself ends the wait at once (`wait_timeout`).
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
/// while it does. On `cancel`, fio and every job process it forked are stopped, and the
/// answer is `Err(RunError::Cancelled)`.
///
/// fio stays in the caller's process group, so a Ctrl-C at a terminal reaches it too
/// (fio then stops its jobs), even if the caller installed no handler.
pub(crate) fn run(
    fio: &Path,
    job: &str,
    extra: &[&str],
    cancel: &AtomicBool,
    running: &mut dyn FnMut(u32),
    tick_every: Duration,
) -> Result<Finished, RunError> {
    let child = Command::new(fio)
        .arg("--output-format=json")
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => RunError::FioMissing,
            _ => RunError::Io { path: fio.to_path_buf(), source: e },
        })?;
    let pid = child.id();
    // From here on, leaving this function in any way but fio's own exit (an error, a
    // panic in `running`) stops fio and its jobs.
    let mut fio_process = Fio { child, jobs: Vec::new(), running: true };
    // The job file is a few hundred bytes: one write, then EOF.
    if let Some(mut stdin) = fio_process.child.stdin.take() {
        let _ = stdin.write_all(job.as_bytes());
    }
    let stdout = reader(fio_process.child.stdout.take());
    let stderr = reader(fio_process.child.stderr.take());
    running(pid);

    let mut last_tick = Instant::now();
    let mut polls = 0u32;
    let status = loop {
        if cancel.load(Ordering::SeqCst) {
            fio_process.stop();
            let _ = stdout.join();
            let _ = stderr.join();
            return Err(RunError::Cancelled);
        }
        match fio_process.child.wait_timeout(POLL) {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(RunError::Io { path: fio.to_path_buf(), source: e }),
        }
        // fio forks its jobs once set up: note them (every 100 ms), to stop them should
        // fio itself die.
        if polls.is_multiple_of(20) {
            fio_process.note_jobs();
        }
        polls = polls.wrapping_add(1);
        if last_tick.elapsed() >= tick_every {
            last_tick = Instant::now();
            running(pid);
        }
    };
    fio_process.running = false;
    if !status.success() {
        // fio died or failed: jobs it forked may still be running, orphaned.
        fio_process.kill_jobs();
    }
    let finished = Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    // A Ctrl-C at a terminal reaches fio as well: it stops early and exits normally.
    if cancel.load(Ordering::SeqCst) {
        return Err(RunError::Cancelled);
    }
    Ok(finished)
}

/// A running fio and the job processes it forked (one per `numjobs`). fio's jobs start
/// sessions of their own (`setsid`), so signalling fio's process group would miss them:
/// they are noted by process id and start time (so a reused id is never signalled).
struct Fio {
    child: Child,
    jobs: Vec<(Pid, u64)>,
    /// fio has not been reaped yet.
    running: bool,
}

impl Fio {
    /// fio's children now (`/proc/<pid>/task/<pid>/children`).
    fn note_jobs(&mut self) {
        let pid = self.child.id();
        let Ok(list) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) else {
            return;
        };
        for job in list.split_whitespace().filter_map(|p| p.parse().ok().and_then(Pid::from_raw)) {
            if let Some(start) = start_time(job) {
                if !self.jobs.contains(&(job, start)) {
                    self.jobs.push((job, start));
                }
            }
        }
    }

    /// Asks fio to stop (SIGTERM: fio ends its jobs and exits, as KDiskMark's
    /// `QProcess::terminate`, helper.cpp:296), kills what is left after 2 s, reaps fio.
    fn stop(&mut self) {
        if !self.running {
            return;
        }
        self.note_jobs();
        // Our own child, not reaped yet: its id is still its.
        let _ = kill_process(Pid::from_child(&self.child), Signal::TERM);
        let _ = self.child.wait_timeout(Duration::from_secs(2));
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.running = false;
        self.kill_jobs();
    }

    /// SIGKILL to every noted job still alive, then wait (at most 2 s) until they are
    /// gone, so that the test file is not held open by a dying job when it is removed.
    fn kill_jobs(&mut self) {
        let alive = |&(pid, start): &(Pid, u64)| start_time(pid) == Some(start) && !is_zombie(pid);
        for &(pid, _) in self.jobs.iter().filter(|j| alive(j)) {
            // A process fio forked, identified by its start time.
            let _ = kill_process(pid, Signal::KILL);
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        while self.jobs.iter().any(alive) && Instant::now() < deadline {
            thread::sleep(POLL);
        }
    }
}

impl Drop for Fio {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `/proc/<pid>/stat` field 22, the start time in clock ticks: with the id, it names one
/// process.
fn start_time(pid: Pid) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_pid())).ok()?;
    // The command (field 2) is in parentheses and may hold spaces: count after it.
    let after = stat.get(stat.rfind(')')? + 2..)?;
    after.split(' ').nth(19)?.parse().ok()
}

/// A process that exited and waits for its parent (or init) to reap it.
fn is_zombie(pid: Pid) -> bool {
    std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_pid()))
        .ok()
        .and_then(|s| s.rfind(')').map(|i| s.get(i + 2..).is_some_and(|rest| rest.starts_with('Z'))))
        .unwrap_or(true)
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

/// `exit status 1`, `killed by signal 9 (SIGKILL)`.
pub(crate) fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal} ({})", signal_name(signal)),
        (None, None) => status.to_string(),
    }
}

fn signal_name(signal: i32) -> &'static str {
    [
        (Signal::KILL, "SIGKILL"),
        (Signal::TERM, "SIGTERM"),
        (Signal::INT, "SIGINT"),
        (Signal::SEGV, "SIGSEGV"),
        (Signal::ABORT, "SIGABRT"),
        (Signal::BUS, "SIGBUS"),
        (Signal::HUP, "SIGHUP"),
    ]
    .into_iter()
    .find_map(|(s, name)| (s.as_raw() == signal).then_some(name))
    .unwrap_or("signal")
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
