//! The probe on the machine running the tests: its root filesystem, and a loop device
//! holding ext4 (needs root: an ignored test that `cargo xtask test` runs as root). Only
//! what holds on any Linux machine is asserted.

use probe::{probe, Layer, Probe};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The filesystem type mountinfo gives the mount at `mount_point` (the last one there).
fn fstype_at(mount_point: &str) -> Option<String> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
    mountinfo.lines().rev().find_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        (before.split(' ').nth(4)? == mount_point).then(|| after.split(' ').next().map(str::to_string))?
    })
}

#[test]
fn the_root_filesystem_of_this_machine() {
    let found = probe(Path::new("/"));
    let tags = found.tags();
    let release = fs::read_to_string("/proc/sys/kernel/osrelease").unwrap();
    assert_eq!(tags.platform.driver_version.as_deref(), Some(release.trim()));
    assert!(tags.platform.os.as_deref().is_some_and(|os| os.ends_with(&format!("Linux {}", release.trim()))));
    assert_eq!(tags.platform.filesystem, fstype_at("/"));
    assert!(tags.platform.allocation_unit_bytes.is_some_and(|b| b >= 512));
    // Whatever the drive, the text and the JSON come out.
    let report = found.report();
    assert!(report.contains("Platform:"), "{report}");
    println!("{report}");
    serde_json::to_string(&found.facts()).unwrap();
}

fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program).args(args).output().map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A 64 MiB file holding ext4 on a loop device, mounted on a temporary directory; all of
/// it undone when dropped, in reverse order, whatever the test did (the directory with
/// the image and the mount point last, as a field).
struct LoopFilesystem {
    image: PathBuf,
    mount_point: PathBuf,
    device: Option<String>,
    mounted: bool,
    _dir: tempfile::TempDir,
}

impl LoopFilesystem {
    fn new() -> Result<LoopFilesystem, String> {
        let dir = tempfile::Builder::new().prefix("probe-loop-test-").tempdir().map_err(|e| e.to_string())?;
        let mut fixture = LoopFilesystem {
            image: dir.path().join("image"),
            mount_point: dir.path().join("mnt"),
            device: None,
            mounted: false,
            _dir: dir,
        };
        let file = fs::File::create(&fixture.image).map_err(|e| e.to_string())?;
        file.set_len(64 * 1024 * 1024).map_err(|e| e.to_string())?;
        fs::create_dir(&fixture.mount_point).map_err(|e| e.to_string())?;
        let image = fixture.image.to_str().ok_or("temp path is not UTF-8")?.to_string();
        fixture.device = Some(run("losetup", &["-f", "--show", &image])?);
        let device = fixture.device.clone().unwrap_or_default();
        run("mkfs.ext4", &["-q", "-b", "4096", &device])?;
        run("mount", &[&device, fixture.mount_point.to_str().ok_or("temp path is not UTF-8")?])?;
        fixture.mounted = true;
        Ok(fixture)
    }
}

impl Drop for LoopFilesystem {
    fn drop(&mut self) {
        if self.mounted {
            let _ = run("umount", &[self.mount_point.to_str().unwrap_or_default()]);
        }
        if let Some(device) = &self.device {
            let _ = run("losetup", &["-d", device]);
        }
    }
}

fn loop_layer(found: &Probe) -> Option<(&str, Option<&str>)> {
    found.layers.iter().find_map(|l| match l {
        Layer::Loop { device, backing_file } => {
            Some((device.as_str(), backing_file.as_ref().map(|b| b.value.as_str())))
        }
        _ => None,
    })
}

#[test]
#[ignore = "needs root: a loop device (cargo xtask test runs it as root)"]
fn a_loop_device_holding_ext4() {
    assert!(
        rustix::process::geteuid().is_root(),
        "this test makes a loop device, which needs root: run it as root, as `cargo xtask test` does"
    );
    let fixture = LoopFilesystem::new().unwrap_or_else(|e| panic!("could not set up a loop device: {e}"));
    let device = fixture.device.clone().unwrap();
    let found = probe(&fixture.mount_point);
    println!("{}", found.report());
    let tags = found.tags();
    assert_eq!(tags.platform.filesystem.as_deref(), Some("ext4"));
    assert_eq!(tags.platform.allocation_unit_bytes, Some(4096));
    let (loop_name, backing) = loop_layer(&found).expect("a loop layer");
    assert_eq!(Path::new(&device).file_name().unwrap().to_str(), Some(loop_name));
    // The kernel keeps the backing file's resolved path.
    let image = fs::canonicalize(&fixture.image).unwrap();
    assert_eq!(backing, image.to_str());
    let transport =
        found.facts().into_iter().find(|f| f.field == "transport" && f.device.as_deref() == Some(loop_name));
    assert_eq!(transport.map(|f| f.value).as_deref(), Some("loop"));
    // The backing file's own filesystem is followed to whatever holds /tmp here; the
    // drive under it, if any, is a drive, never the loop device itself.
    assert!(found.drives.iter().all(|d| d.name != loop_name));

    // The loop device itself as the target.
    let found = probe(Path::new(&device));
    assert_eq!(found.filesystem, None);
    assert_eq!(loop_layer(&found).map(|l| l.0), Some(loop_name));
    drop(fixture);
}
