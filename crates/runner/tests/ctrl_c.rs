//! Ctrl-C as a command line gets it: a SIGINT handler sets the cancel flag.

mod common;

use runner::{RunError, Target};
use std::sync::atomic::{AtomicBool, Ordering};

static CANCEL: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    CANCEL.store(true, Ordering::SeqCst);
}

#[test]
fn sigint_cancels_kills_fio_and_removes_the_test_file() {
    let _fio = common::fio_lock();
    // SAFETY: the handler only stores to an atomic.
    unsafe { libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t) };
    let dir = common::scratch("sigint");
    let plan = common::long_plan(Target::Dir(dir.path().to_path_buf()));
    let mut seen: Option<(u32, Vec<u32>)> = None;
    let err = runner::run(
        &plan,
        &mut |p| {
            // Ctrl-C to this process while fio's job measures the second test.
            if seen.is_none() && common::random_read_running(p) {
                let pid = p.fio_pid.unwrap();
                seen = Some((pid, common::fio_jobs(pid)));
                // Signalling ourselves.
                rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::INT)
                    .unwrap();
            }
        },
        &CANCEL,
    )
    .unwrap_err();
    assert!(matches!(err, RunError::Cancelled), "{err}");
    assert!(common::leftovers(dir.path()).is_empty());
    let (pid, jobs) = seen.unwrap();
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "fio {pid} stopped and reaped");
    assert!(jobs.iter().all(|j| common::gone(*j)), "fio's jobs {jobs:?} stopped");
}
