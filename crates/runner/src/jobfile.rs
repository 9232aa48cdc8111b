//! fio job files: the text fio runs, kept with the result so anyone can run the same test.
//!
//! One job file per test and operation, one job in it, as KDiskMark starts one fio per
//! test and pass with the options on the command line (helper.cpp:219-237); a job file
//! says the same and is what gets stored. fio reads every `key=value` line as the
//! command-line option `--key=value`.

use crate::profiles::{Method, TestSpec};
use bench::{Access, DataPattern, Op};
use std::fmt::Write as _;
use std::path::Path;

/// What one fio run measures, on what, and how.
#[derive(Debug, Clone)]
pub struct JobParams<'a> {
    pub method: Method,
    pub test: TestSpec,
    pub op: Op,
    /// The test file or the block device.
    pub filename: &'a Path,
    pub size_bytes: u64,
    pub pattern: DataPattern,
    /// `direct=0`: through the page cache.
    pub buffered: bool,
    /// Seconds of this pass (the measure time, or the warm-up's).
    pub runtime_secs: u32,
}

/// The test file exists before fio runs (the runner creates it; a device is a device):
/// if it is gone, fio must fail, not create a new file (in a directory made again, or a
/// regular file in `/dev` where a device was). Not KDiskMark's; changes no figure.
const NO_CREATE: &str = "allow_file_create=0";

/// fio's `filename` treats `:` as a separator of several files; a literal one is `\:`.
pub(crate) fn fio_filename(path: &Path) -> String {
    path.to_string_lossy().replace(':', "\\:")
}

/// The `rw=` of a test (KDiskMark's `getRW*`, global.cpp:53-81).
pub(crate) fn rw(access: Access, op: Op) -> &'static str {
    match (access, op) {
        (Access::Seq, Op::Read) => "read",
        (Access::Seq, Op::Write) => "write",
        (Access::Seq, Op::Mix) => "rw",
        (Access::Rnd, Op::Read) => "randread",
        (Access::Rnd, Op::Write) => "randwrite",
        (Access::Rnd, Op::Mix) => "randrw",
    }
}

fn flag(b: bool) -> u8 {
    u8::from(b)
}

/// The job file of one pass of one test.
pub fn test_job(p: &JobParams) -> String {
    let rw = rw(p.test.access, p.op);
    let zero = flag(p.pattern == DataPattern::ZeroFill);
    let direct = flag(!p.buffered);
    let mut s = String::new();
    let _ = writeln!(s, "; ssdbase bench: {} {} ({:?} method)", p.test.short_name(), rw, p.method);
    // KDiskMark names the job after its rw (helper.cpp:229, `--name=%1`).
    let _ = writeln!(s, "[{rw}]");
    let _ = writeln!(s, "filename={}", fio_filename(p.filename));
    let _ = writeln!(s, "{NO_CREATE}");
    // KDiskMark passes the size in MiB (`--size=%1m`, helper.cpp:230).
    let _ = writeln!(s, "size={}m", p.size_bytes / (1024 * 1024));
    match p.method {
        Method::KDiskMark => {
            // helper.cpp:221-237, in its order. `refill_buffers` is KDiskMark's "continuous
            // generation", off by default (appsettings.cpp:233-235); `direct` its "bypass
            // cache", on by default (appsettings.cpp:221-224); `rwmixread` its mix ratio,
            // 70 by default (appsettings.cpp:206-209), passed to every test.
            let _ = writeln!(s, "ioengine=libaio");
            let _ = writeln!(s, "randrepeat=0");
            let _ = writeln!(s, "refill_buffers=0");
            let _ = writeln!(s, "end_fsync=1");
            let _ = writeln!(s, "direct={direct}");
            let _ = writeln!(s, "rwmixread=70");
            let _ = writeln!(s, "zero_buffers={zero}");
            let _ = writeln!(s, "bs={}k", p.test.block_kib);
            // No `time_based`: a pass ends after `runtime` or one sweep of `size`.
            let _ = writeln!(s, "runtime={}", p.runtime_secs);
        }
        Method::Cdm8 => {
            // DiskSpd `-b%dK -o%d -t%d -W0 -S -w0|-w100 [-r]` + `-Z%dK` or `-Z` + `-d`
            // (DiskBench.cpp:770-882, 909): unbuffered (`-S`), no warm-up inside the run
            // (`-W0`), random offsets with replacement (`-r`), a random write buffer that
            // is not regenerated (`-Z<block>K`) or zeros (`-Z`), for `-d` seconds.
            let _ = writeln!(s, "ioengine=libaio");
            let _ = writeln!(s, "direct={direct}");
            let _ = writeln!(s, "randrepeat=0");
            if p.test.access == Access::Rnd {
                let _ = writeln!(s, "norandommap=1");
            }
            let _ = writeln!(s, "refill_buffers=0");
            let _ = writeln!(s, "zero_buffers={zero}");
            let _ = writeln!(s, "bs={}k", p.test.block_kib);
            let _ = writeln!(s, "time_based=1");
            let _ = writeln!(s, "runtime={}", p.runtime_secs);
        }
    }
    let _ = writeln!(s, "rw={rw}");
    let _ = writeln!(s, "iodepth={}", p.test.queue_depth);
    let _ = writeln!(s, "numjobs={}", p.test.threads);
    // One merged entry for all threads (KDiskMark since 56e0ce2, helper.cpp:237).
    let _ = writeln!(s, "group_reporting");
    s
}

/// The job that writes the test data before the tests. For a file, KDiskMark's
/// `prepareBenchmarkFile` (helper.cpp:192-198): fio lays the file out and stops
/// (`create_only`). fio lays out nothing on a block device, so there the region is written
/// once sequentially, so that read tests read the chosen pattern too.
pub fn prepare_job(
    filename: &Path,
    size_bytes: u64,
    pattern: DataPattern,
    device: bool,
    buffered: bool,
) -> String {
    let zero = flag(pattern == DataPattern::ZeroFill);
    let mut s = String::new();
    let _ = writeln!(s, "; ssdbase bench: write the test data");
    let _ = writeln!(s, "[prepare]");
    let _ = writeln!(s, "filename={}", fio_filename(filename));
    // fio lays a file out by removing the (empty) one there and writing a new one, so
    // only a device's preparation may forbid creating files.
    if device {
        let _ = writeln!(s, "{NO_CREATE}");
    }
    let _ = writeln!(s, "size={}m", size_bytes / (1024 * 1024));
    let _ = writeln!(s, "zero_buffers={zero}");
    if device {
        let _ = writeln!(s, "rw=write");
        let _ = writeln!(s, "bs=1m");
        let _ = writeln!(s, "ioengine=libaio");
        let _ = writeln!(s, "iodepth=8");
        let _ = writeln!(s, "direct={}", flag(!buffered));
    } else {
        let _ = writeln!(s, "create_only=1");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::TestSpec;

    #[test]
    fn a_kdiskmark_job_has_kdiskmarks_options() {
        let test = TestSpec { access: Access::Rnd, block_kib: 4, queue_depth: 32, threads: 16 };
        let job = test_job(&JobParams {
            method: Method::KDiskMark,
            test,
            op: Op::Write,
            filename: Path::new("/mnt/a:b/x.tmp"),
            size_bytes: 1 << 30,
            pattern: DataPattern::ZeroFill,
            buffered: false,
            runtime_secs: 5,
        });
        for line in [
            "[randwrite]",
            "filename=/mnt/a\\:b/x.tmp",
            "size=1024m",
            "ioengine=libaio",
            "randrepeat=0",
            "refill_buffers=0",
            "end_fsync=1",
            "direct=1",
            "zero_buffers=1",
            "bs=4k",
            "runtime=5",
            "iodepth=32",
            "numjobs=16",
            "group_reporting",
        ] {
            assert!(job.lines().any(|l| l == line), "{line} missing from\n{job}");
        }
        assert!(!job.contains("time_based"));
    }

    #[test]
    fn a_cdm_job_runs_for_its_time() {
        let test = TestSpec { access: Access::Seq, block_kib: 1024, queue_depth: 8, threads: 1 };
        let job = test_job(&JobParams {
            method: Method::Cdm8,
            test,
            op: Op::Read,
            filename: Path::new("/t/x"),
            size_bytes: 64 << 20,
            pattern: DataPattern::Random,
            buffered: true,
            runtime_secs: 5,
        });
        assert!(
            job.contains("\ntime_based=1\n") && job.contains("\ndirect=0\n") && job.contains("\nrw=read\n")
        );
        assert!(!job.contains("norandommap"), "sequential");
    }
}
