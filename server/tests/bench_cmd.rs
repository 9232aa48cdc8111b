//! `ssdbase bench` end to end: the real binary measures a real filesystem with the real
//! fio, probes it, sends the result to a real `ssdbase serve`, and the result appears on
//! its drive's page with the runner's record. A loop device holding ext4 when running as
//! root (loop devices need it), else a plain directory.

mod common;

use common::http;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A short run: the smallest size, one pass of one second per test, no pauses.
const QUICK: &[&str] = &["--size", "16MiB", "--passes", "1", "--time", "1", "--interval", "0"];

fn ssdbase_bench(target: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .arg("bench")
        .arg(target)
        .args(QUICK)
        .args(extra)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// An ext4 filesystem on a loop device, mounted on a temporary directory; unmounted,
/// detached and deleted when dropped. `None` (saying so) when not root; as root, a loop
/// device that cannot be made fails the test rather than being skipped.
struct LoopExt4 {
    device: String,
    mount: PathBuf,
    /// Holds the image and the mount point; removed after `drop` detached the device.
    _dir: tempfile::TempDir,
}

impl LoopExt4 {
    fn make(mib: u64) -> Option<LoopExt4> {
        let run = |cmd: &mut Command| cmd.output().ok().filter(|o| o.status.success());
        if !run(Command::new("id").arg("-u")).is_some_and(|o| o.stdout.starts_with(b"0\n")) {
            println!("not root: a plain directory instead of ext4 on a loop device");
            return None;
        }
        let dir = tempdir("loop");
        let image = dir.path().join("disk.img");
        std::fs::File::create(&image).unwrap().set_len(mib * 1024 * 1024).unwrap();
        let out = run(Command::new("losetup").args(["-f", "--show"]).arg(&image))
            .unwrap_or_else(|| panic!("losetup -f --show {}: failed as root", image.display()));
        let device = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let mount = dir.path().join("mnt");
        std::fs::create_dir_all(&mount).unwrap();
        let fs = LoopExt4 { device, mount, _dir: dir };
        assert!(run(Command::new("mkfs.ext4").args(["-q", &fs.device])).is_some(), "mkfs.ext4 {}", fs.device);
        assert!(run(Command::new("mount").arg(&fs.device).arg(&fs.mount)).is_some(), "mount {}", fs.device);
        Some(fs)
    }
}

impl Drop for LoopExt4 {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.mount).status();
        let _ = Command::new("losetup").args(["-d", &self.device]).status();
    }
}

#[test]
fn a_run_is_measured_probed_sent_and_shown_on_its_drives_page() {
    let loop_fs = LoopExt4::make(128);
    let plain = loop_fs.is_none().then(|| tempdir("plain"));
    let (target, filesystem) = match (&loop_fs, &plain) {
        (Some(fs), _) => (fs.mount.clone(), Some("ext4")),
        (None, Some(dir)) => (dir.path().to_path_buf(), None),
        (None, None) => unreachable!("a plain directory without a loop device"),
    };
    let db_dir = tempdir("db");
    let db = db_dir.path().join("bench.sqlite");
    let (mut server, addr) = common::start_server(&format!("sqlite://{}", db.display()), &[], &[]);

    // What would be sent, as JSON: the result in the public format, the tags, the record.
    let out = ssdbase_bench(
        &target,
        &["--json", "--tag", "vendor=SSDBase", "--tag", "model=Loop Test", "--tag", "capacity_gb=1"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    let result = &body["result"];
    assert_eq!(result["tool"], "ssdbase-bench", "{body}");
    assert!(result["engine"].as_str().unwrap().starts_with("fio-"), "{body}");
    let metrics = result["metrics"].as_array().unwrap();
    assert!(metrics.len() >= 8, "KDiskMark's default set is 4 tests × read and write: {body}");
    assert!(metrics.iter().all(|m| m["mbps"].as_f64().is_some_and(|v| v > 0.0)), "{body}");
    let runner = &body["runner"];
    assert!(runner["fio_version"].as_str().unwrap().starts_with("fio-"), "{runner}");
    assert!(runner["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|j| j["job"].as_str().unwrap().contains("direct=1")));
    assert_eq!(runner["typed"], serde_json::json!(["vendor", "model", "capacity_gb"]));
    let fact = |field: &str| {
        runner["facts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["field"] == field)
            .map(|f| f["value"].as_str().unwrap().to_string())
    };
    assert_eq!(
        fact("driver_version").as_deref(),
        Some(std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap().trim())
    );
    if let Some(fs) = filesystem {
        assert_eq!(fact("filesystem").as_deref(), Some(fs), "{runner}");
        assert_eq!(body["tags"]["platform"]["filesystem"], fs);
    }
    // No test file is left behind.
    assert_eq!(leftovers(&target), Vec::<String>::new());

    // Sent to the server: stored, identified as a new drive, shown on its page.
    let url = format!("http://{addr}");
    let out = ssdbase_bench(
        &target,
        &["--tag", "vendor=SSDBase", "--tag", "model=Loop Test", "--tag", "capacity_gb=1", "--submit", &url],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("SEQ1M Q8T1"), "the table: {stdout}");
    let page = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Its drive's page: "))
        .unwrap_or_else(|| panic!("{}", text(&out)));
    let drive_id = page.rsplit('/').next().unwrap();
    let drive = http(addr, "GET", &format!("/api/v1/drives/{drive_id}"), &[], b"").unwrap();
    assert_eq!(drive.status, 200, "{}", drive.body);
    let drive = drive.json();
    assert_eq!(drive["drive"]["vendor"], "SSDBase", "{drive}");
    let id = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Stored as result "))
        .and_then(|l| l.split(':').next())
        .unwrap();
    let view = http(addr, "GET", &format!("/api/v1/results/{id}"), &[], b"").unwrap().json();
    assert_eq!(view["tags"]["drive"]["sku"], drive_id);
    assert_eq!(view["upload"]["runner"]["runner_version"], env!("CARGO_PKG_VERSION"));
    // Counted on its drive's page, and listed among its results.
    let on_page: Vec<String> =
        drive["results"].as_array().unwrap().iter().map(|r| r["id"].to_string()).collect();
    assert_eq!(on_page, [id.to_string()], "{drive}");
    assert_eq!(drive["results"][0]["tool"], "ssdbase-bench");
    let listed = http(addr, "GET", &format!("/api/v1/results?drive={drive_id}"), &[], b"").unwrap().json();
    let ids: Vec<String> =
        listed["results"].as_array().unwrap().iter().map(|r| r["id"].to_string()).collect();
    assert_eq!(ids, [id.to_string()], "{listed}");
    assert_eq!(leftovers(&target), Vec::<String>::new());
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn bad_requests_are_refused_before_anything_runs() {
    let dir = tempdir("refused");
    let refused = |extra: &[&str], says: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_ssdbase"))
            .arg("bench")
            .arg(dir.path())
            .args(extra)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "expected {says:?} in: {}", text(&out));
    };
    refused(&["--passes", "10"], "pass");
    refused(&["--size", "8MiB"], "16 MiB");
    refused(&["--profile", "atto"], "atto");
    refused(&["--tag", "colour=red"], "no tag field \"colour\"");
    refused(&["--tag", "capacity_gb=big"], "capacity_gb");
    refused(&["--raw-device", "--destructive"], "");
    // A tmpfs refuses O_DIRECT: refused unless --buffered.
    if Path::new("/dev/shm").is_dir() {
        let out = Command::new(env!("CARGO_BIN_EXE_ssdbase"))
            .args(["bench", "/dev/shm"])
            .args(QUICK)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{}", text(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--buffered"), "{}", text(&out));
        let out =
            ssdbase_bench(Path::new("/dev/shm"), &["--buffered", "--json", "--profile", "kdiskmark-peak"]);
        assert!(out.status.success(), "{}", text(&out));
        let body: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(body["result"]["family"], "fio-buffered", "never pooled with direct I/O");
        assert_eq!(body["runner"]["buffered"], true);
    }
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

/// A temporary directory, removed when dropped (also when an assertion failed).
fn tempdir(what: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("ssdbase-bench-{what}-")).tempdir().unwrap()
}

/// Files in `dir` other than the filesystem's own.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "lost+found")
        .collect()
}

#[test]
fn ctrl_c_stops_fio_and_leaves_nothing_behind() {
    use std::io::{BufRead, BufReader};
    let dir = tempdir("interrupted");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .arg("bench")
        .arg(dir.path())
        .args(["--size", "16MiB", "--passes", "3", "--time", "5", "--interval", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    // Interrupted while fio measures, with the test file in place.
    let measuring = lines.by_ref().map_while(Result::ok).find(|l| l.contains("pass 1 of 3"));
    assert!(measuring.is_some(), "no progress line before the end");
    assert_eq!(leftovers(dir.path()).len(), 1, "the test file is there while measuring");
    let started = std::time::Instant::now();
    send_signal(child.id(), "INT");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "stopped at once, not after the pass");
    assert!(rest.iter().any(|l| l.contains("cancelled")), "{rest:?}");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "the test file is removed");
    let fio_left = Command::new("pgrep").args(["-f", &dir.path().display().to_string()]).output().unwrap();
    assert!(fio_left.stdout.is_empty(), "fio still runs: {}", String::from_utf8_lossy(&fio_left.stdout));
}

/// `kill -SIG PID` through the kill program (no unsafe libc call in the test).
fn send_signal(pid: u32, signal: &str) {
    assert!(Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status().unwrap().success());
}
