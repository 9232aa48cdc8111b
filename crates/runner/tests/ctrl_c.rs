//! Ctrl-C as a command line gets it: a SIGINT handler sets the cancel flag.

mod common;

use runner::{Phase, RunError, Target};
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
    let dir = common::Scratch::new("sigint");
    let mut plan = common::quick_plan(Target::Dir(dir.path.clone()), "kdiskmark".parse().unwrap());
    plan.measure_secs = 5;
    plan.size_bytes = 64 << 20;
    let mut fio_pid = None;
    let mut sent = false;
    let err = runner::run(
        &plan,
        &mut |p| {
            // The second test: Ctrl-C to this process while fio measures.
            if p.phase == Phase::Measuring && p.test == "SEQ1M Q1T1" && !sent {
                sent = true;
                fio_pid = p.fio_pid;
                // SAFETY: signalling ourselves.
                unsafe { libc::kill(libc::getpid(), libc::SIGINT) };
            }
        },
        &CANCEL,
    )
    .unwrap_err();
    assert!(matches!(err, RunError::Cancelled), "{err}");
    assert!(common::leftovers(&dir.path).is_empty());
    let pid = fio_pid.unwrap();
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "fio {pid} killed and reaped");
}
