//! Bad situations: each one a clear error, and no test file left behind.

mod common;

use runner::{Phase, Profile, RunError, Target};
use std::fs;
use std::sync::atomic::AtomicBool;

fn kdm_real() -> Profile {
    "kdiskmark-real".parse().unwrap()
}

#[test]
fn a_deleted_directory_ends_the_run_as_vanished() {
    let _fio = common::fio_lock();
    let dir = common::scratch("vanish");
    let target = dir.path().join("target");
    fs::create_dir(&target).unwrap();
    let mut plan = common::quick_plan(Target::Dir(target.clone()), kdm_real());
    plan.passes = 2;
    let mut deleted = false;
    let err = runner::run(
        &plan,
        &mut |p| {
            if p.phase == Phase::Measuring && !deleted {
                fs::remove_dir_all(&target).unwrap();
                deleted = true;
            }
        },
        &AtomicBool::new(false),
    )
    .unwrap_err();
    println!("{err}");
    assert!(matches!(&err, RunError::TargetVanished { test, .. } if test == "SEQ1M Q1T1 read"), "{err}");
    assert!(!target.exists());
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn an_unmounted_filesystem_ends_the_run_and_its_test_file_is_still_removed() {
    common::needs_root();
    let _fio = common::fio_lock();
    let mut fs_ = common::LoopFs::new(64);
    let plan = common::quick_plan(Target::Dir(fs_.mount_point.clone()), kdm_real());
    let mount_point = fs_.mount_point.clone();
    let mut detached = false;
    let err = runner::run(
        &plan,
        &mut |p| {
            if p.phase == Phase::Measuring && !detached {
                fs_.detach_lazily();
                detached = true;
            }
        },
        &AtomicBool::new(false),
    )
    .unwrap_err();
    println!("{err}");
    assert!(matches!(err, RunError::TargetVanished { .. }), "{err}");
    // The file was removed through the directory the runner held open: mount the
    // filesystem again and look.
    common::sh("mount", &[fs_.device.device.to_str().unwrap(), mount_point.to_str().unwrap()]);
    let left = common::leftovers(&mount_point);
    common::sh("umount", &[mount_point.to_str().unwrap()]);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn too_small_a_filesystem_is_refused_before_anything_is_written() {
    common::needs_root();
    let fs_ = common::LoopFs::new(32);
    let mut plan = common::quick_plan(Target::Dir(fs_.mount_point.clone()), kdm_real());
    plan.size_bytes = 64 << 20;
    let err = runner::check(&plan).unwrap_err();
    println!("{err}");
    assert!(matches!(&err, RunError::NoRoom { needed, .. } if *needed > 64 << 20), "{err}");
    let err = runner::run(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap_err();
    assert!(matches!(err, RunError::NoRoom { .. }));
    assert!(common::leftovers(&fs_.mount_point).is_empty());
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn a_filesystem_filling_up_during_the_run_is_reported_as_disk_full() {
    common::needs_root();
    let _fio = common::fio_lock();
    let fs_ = common::LoopFs::new(48);
    let plan = common::quick_plan(Target::Dir(fs_.mount_point.clone()), kdm_real());
    let filler_path = fs_.mount_point.join("filler");
    let mut filled = false;
    let err = runner::run(
        &plan,
        &mut |p| {
            // Another program takes all but 4 MiB while fio lays out the 16 MiB file.
            if p.phase == Phase::Preparing && !filled {
                filled = true;
                let filler = fs::File::create(&filler_path).unwrap();
                let vfs = rustix::fs::statvfs(filler_path.parent().unwrap()).unwrap();
                let free = vfs.f_bavail * vfs.f_frsize;
                rustix::fs::fallocate(&filler, rustix::fs::FallocateFlags::empty(), 0, free - (4 << 20))
                    .unwrap();
            }
        },
        &AtomicBool::new(false),
    )
    .unwrap_err();
    println!("{err}");
    assert!(matches!(&err, RunError::DiskFull { test, .. } if test == "preparing the test data"), "{err}");
    assert!(err.to_string().contains("ENOSPC"));
    assert!(common::leftovers(&fs_.mount_point).is_empty());
}

#[test]
fn a_killed_fio_is_an_error_naming_the_test_and_the_signal() {
    let _fio = common::fio_lock();
    let dir = common::scratch("killed");
    let plan = common::long_plan(Target::Dir(dir.path().to_path_buf()));
    let mut killed: Option<(u32, Vec<u32>)> = None;
    let err = runner::run(
        &plan,
        &mut |p| {
            if killed.is_none() && common::random_read_running(p) {
                let pid = p.fio_pid.unwrap();
                killed = Some((pid, common::fio_jobs(pid)));
                // The fio this test's run started (not its jobs).
                let pid = rustix::process::Pid::from_raw(pid as i32).unwrap();
                rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
            }
        },
        &AtomicBool::new(false),
    )
    .unwrap_err();
    println!("{err}");
    let message = err.to_string();
    assert!(matches!(err, RunError::FioFailed { .. }), "{message}");
    assert!(message.contains("RND4K Q1T1 read") && message.contains("signal 9"), "{message}");
    assert!(common::leftovers(dir.path()).is_empty());
    let (pid, jobs) = killed.expect("fio was killed while its job ran");
    assert!(!jobs.is_empty());
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "fio {pid} reaped");
    assert!(jobs.iter().all(|j| common::gone(*j)), "fio's orphaned jobs {jobs:?} stopped too");
}

#[test]
fn the_cancel_flag_stops_fio_and_its_jobs_and_removes_the_file() {
    let _fio = common::fio_lock();
    let dir = common::scratch("cancel");
    let plan = common::long_plan(Target::Dir(dir.path().to_path_buf()));
    let cancel = AtomicBool::new(false);
    let mut seen: Option<(u32, Vec<u32>, std::time::Instant)> = None;
    let err = runner::run(
        &plan,
        &mut |p| {
            if seen.is_none() && common::random_read_running(p) {
                let pid = p.fio_pid.unwrap();
                seen = Some((pid, common::fio_jobs(pid), std::time::Instant::now()));
                cancel.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        },
        &cancel,
    )
    .unwrap_err();
    assert!(matches!(err, RunError::Cancelled), "{err}");
    let (pid, jobs, at) = seen.expect("cancelled while fio's job ran");
    println!("cancelled in {:?}", at.elapsed());
    assert!(at.elapsed().as_millis() < 1500, "stopped at once, not at the end of the pass");
    assert!(common::leftovers(dir.path()).is_empty());
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "fio {pid} reaped");
    assert!(jobs.iter().all(|j| common::gone(*j)), "fio's jobs {jobs:?} stopped");
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn a_read_only_bind_mount_is_refused() {
    common::needs_root();
    let src = common::scratch("rosrc");
    let ro = common::Mounted::new("robind", &["--bind", src.path().to_str().unwrap()]);
    common::sh("mount", &["-o", "remount,bind,ro", ro.path.to_str().unwrap()]);
    let plan = common::quick_plan(Target::Dir(ro.path.clone()), kdm_real());
    let err = runner::check(&plan).unwrap_err();
    println!("{err}");
    assert!(matches!(&err, RunError::ReadOnly(p) if *p == ro.path), "{err}");
    assert!(common::leftovers(src.path()).is_empty());
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn a_directory_without_permission_is_refused() {
    common::needs_root();
    // Root may write anywhere it may write: an immutable directory stands in for a
    // directory the user has no permission on (EPERM).
    let fs_ = common::LoopFs::new(32);
    let dir = fs_.mount_point.join("locked");
    fs::create_dir(&dir).unwrap();
    common::sh("chattr", &["+i", dir.to_str().unwrap()]);
    let plan = common::quick_plan(Target::Dir(dir.clone()), kdm_real());
    let err = runner::check(&plan).unwrap_err();
    common::sh("chattr", &["-i", dir.to_str().unwrap()]);
    println!("{err}");
    assert!(matches!(err, RunError::NoPermission { .. }), "{err}");
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn tmpfs_is_refused_unless_buffered_and_then_marked_buffered() {
    common::needs_root();
    let _fio = common::fio_lock();
    let tmpfs = common::Mounted::new("tmpfs", &["-t", "tmpfs", "-o", "size=64m", "tmpfs"]);
    let mut plan = common::quick_plan(Target::Dir(tmpfs.path.clone()), "kdiskmark-demo".parse().unwrap());
    let err = runner::check(&plan).unwrap_err();
    println!("{err}");
    assert!(matches!(err, RunError::InMemory { fs_type: "tmpfs", .. }), "{err}");
    assert!(err.to_string().contains("--buffered"));

    plan.buffered = true;
    let run = runner::run(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    let r = &run.result;
    println!("{:?} {:?}\n{}", r.profile, r.comment, runner::cdm_table(r));
    assert_eq!(r.profile.as_deref(), Some("KDiskMark Demo [buffered]"));
    assert_eq!(r.family(), bench::ToolFamily::FioBuffered, "never pooled with direct I/O");
    assert!(r.comment.as_deref().unwrap().starts_with("ioengine=libaio, direct=0"));
    assert!(run.jobs.iter().all(|j| j.job_file.contains("\ndirect=0\n")));
    assert!(common::leftovers(&tmpfs.path).is_empty());
}

#[test]
fn plans_outside_the_ranges_are_refused() {
    let dir = common::scratch("ranges");
    let mut plan = common::quick_plan(Target::Dir(dir.path().to_path_buf()), kdm_real());
    plan.passes = 10;
    assert!(matches!(runner::check(&plan), Err(RunError::Passes(10))));
    plan.passes = 1;
    plan.size_bytes = 8 << 20;
    assert!(runner::check(&plan).unwrap_err().to_string().contains("16 MiB to 64 GiB"));
    plan.size_bytes = 16 << 20;
    plan.target = Target::Dir(dir.path().join("missing"));
    assert!(matches!(runner::check(&plan), Err(RunError::NotFound(_))));
    let file = dir.path().join("file");
    fs::write(&file, "x").unwrap();
    plan.target = Target::Dir(file);
    assert!(matches!(runner::check(&plan), Err(RunError::NotADirectory(_))));
}
