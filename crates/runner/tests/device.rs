//! Block-device targets (root only: loop devices).

mod common;

use runner::{Profile, RunError, Target};
use std::io::{Seek, SeekFrom, Write};
use std::sync::atomic::AtomicBool;

fn demo() -> Profile {
    "kdiskmark-demo".parse().unwrap()
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn an_unmounted_device_is_measured_only_when_destructive() {
    common::needs_root();
    let _fio = common::fio_lock();
    let dev = common::LoopDevice::new(64);
    let mut plan = common::quick_plan(Target::Device(dev.device.clone()), demo());
    let err = runner::check(&plan).unwrap_err();
    println!("{err}");
    assert!(matches!(err, RunError::NotConfirmed { .. }), "{err}");

    plan.destructive = true;
    let run = runner::run(&plan, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    println!("{}", runner::cdm_table(&run.result));
    assert_eq!(run.result.target.as_deref(), Some(dev.device.to_str().unwrap()));
    assert!(run
        .prepare_job_file
        .as_deref()
        .is_some_and(|j| j.contains("rw=write") && j.contains("allow_file_create=0")));
    assert_eq!(run.result.metrics.len(), 2);
    // The prepared region holds written data (random, so not all zeros).
    let head = std::fs::read(dev.image()).unwrap();
    assert!(head[..1 << 20].iter().any(|b| *b != 0));
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn a_mounted_device_is_refused() {
    common::needs_root();
    let fs_ = common::LoopFs::new(32);
    let mut plan = common::quick_plan(Target::Device(fs_.device.device.clone()), demo());
    plan.destructive = true;
    let err = runner::check(&plan).unwrap_err();
    println!("{err}");
    assert!(
        matches!(&err, RunError::Mounted { mount_point, .. } if *mount_point == fs_.mount_point.to_str().unwrap()),
        "{err}"
    );
}

#[test]
#[ignore = "needs root: loop devices and mounts (cargo xtask test runs it as root)"]
fn a_device_with_a_mounted_partition_is_refused() {
    common::needs_root();
    let scratch = common::scratch("parted");
    let image = scratch.path().join("image");
    // A 64 MiB image with an MBR: one Linux partition from sector 2048 to the end.
    let mut file = std::fs::File::create(&image).unwrap();
    file.set_len(64 << 20).unwrap();
    let sectors: u32 = (64 << 20) / 512 - 2048;
    let mut entry = [0u8; 16];
    entry[4] = 0x83;
    entry[8..12].copy_from_slice(&2048u32.to_le_bytes());
    entry[12..16].copy_from_slice(&sectors.to_le_bytes());
    file.seek(SeekFrom::Start(446)).unwrap();
    file.write_all(&entry).unwrap();
    file.seek(SeekFrom::Start(510)).unwrap();
    file.write_all(&[0x55, 0xAA]).unwrap();
    drop(file);
    let device = common::sh("losetup", &["-f", "--show", "-P", image.to_str().unwrap()]);
    let partition = format!("{device}p1");
    if !std::path::Path::new(&partition).exists() {
        common::sh("losetup", &["-d", &device]);
        eprintln!(
            "skipped: this kernel made no partition device for an MBR partition table (no partition support)"
        );
        return;
    }
    let mount_point = scratch.path().join("mnt");
    std::fs::create_dir(&mount_point).unwrap();
    let outcome = std::panic::catch_unwind(|| {
        common::sh("mkfs.ext4", &["-q", &partition]);
        common::sh("mount", &[&partition, mount_point.to_str().unwrap()]);
        let mut plan = common::quick_plan(Target::Device(device.clone().into()), demo());
        plan.destructive = true;
        let err = runner::check(&plan);
        common::sh("umount", &[mount_point.to_str().unwrap()]);
        err
    });
    common::sh("losetup", &["-d", &device]);
    let err = outcome.unwrap().unwrap_err();
    println!("{err}");
    assert!(matches!(&err, RunError::Mounted { what, .. } if what.contains("partition")), "{err}");
}

#[test]
fn a_character_device_is_not_a_block_device() {
    let mut plan = common::quick_plan(Target::Device("/dev/null".into()), demo());
    plan.destructive = true;
    let err = runner::check(&plan).unwrap_err();
    assert!(matches!(err, RunError::NotABlockDevice(_)), "{err}");
}
