//! The standalone `ssdbase-bench` binary as a person meets it: its version, and without
//! fio a refusal that says how to install it, before anything is probed or written.

use std::process::Command;

fn ssdbase_bench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ssdbase-bench"))
}

#[test]
fn says_its_version() {
    let out = ssdbase_bench().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("ssdbase-bench {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn without_fio_it_refuses_and_says_how_to_install_it() {
    let target = tempfile::tempdir().unwrap();
    // A PATH without fio (an empty directory): the binary finds no fio there.
    let empty = tempfile::tempdir().unwrap();
    let out = ssdbase_bench().arg(target.path()).env("PATH", empty.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.starts_with("ssdbase-bench: fio was not found on PATH"), "{stderr}");
    for how in ["sudo apt-get install fio", "sudo dnf install fio", "sudo pacman -S fio"] {
        assert!(stderr.contains(how), "{how:?} in {stderr}");
    }
    assert!(out.stdout.is_empty(), "nothing probed or measured: {}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0, "nothing written");
}
