//! Without fio, `runner::check` and `runner::run` say that fio is missing and how to
//! install it, and leave no test file. `PATH` is the whole process's, so the check runs
//! in a child of this program started with `PATH` leading nowhere. This file has its own
//! `main` (`harness = false`): the child half is a part of the one test, not a test that
//! passes on its own in every run.

mod common;

use runner::{Profile, RunError, Target};
use std::process::Command;
use std::sync::atomic::AtomicBool;

fn main() {
    if std::env::var_os("RUNNER_TEST_CHILD").is_some() {
        child();
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .env("PATH", "/nonexistent")
        .env("RUNNER_TEST_CHILD", "1")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{printed}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(printed.contains("child checked"), "{printed}");
    println!("test fio_missing_names_the_program_and_the_package ... ok");
}

/// The check itself, with `PATH` leading nowhere.
fn child() {
    let dir = common::scratch("nofio");
    let profile: Profile = "kdiskmark-real".parse().unwrap();
    let plan = common::quick_plan(Target::Dir(dir.path().to_path_buf()), profile);
    let err = runner::check(&plan).unwrap_err();
    assert!(matches!(err, RunError::FioMissing), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("fio was not found")
            && message.contains("apt-get install fio")
            && message.contains("apk add fio"),
        "{message}"
    );
    let err = runner::run(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
    assert!(matches!(err, RunError::FioMissing), "{err}");
    assert!(common::leftovers(dir.path()).is_empty());
    println!("child checked: {message}");
}
