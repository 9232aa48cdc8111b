//! The test sets: KDiskMark's profiles and presets and CrystalDiskMark 8's, each test
//! with its access, block size, queue depth and threads, and how each method turns its
//! passes into one figure.
//!
//! Sources (cited below by file and line):
//! * KDiskMark `JonMagon/KDiskMark` @ e78d3c759d54d30f17d1861cd80257cc638496f3
//!   (`src/appsettings.cpp`, `src/benchmark.cpp`, `src/benchmark.h`, `src/helper.cpp`,
//!   `src/mainwindow.cpp`, `src/mainwindow.ui`).
//! * CrystalDiskMark 8.0.2 `hiyohiyo/CrystalDiskMark` @ 0fc04d5399ba4a5f24d9d129abb74716d1948338
//!   (`DiskMarkDlg.cpp`, `DiskBench.cpp`), the commit FORMATS.md cites for 8.x.
//!
//! The two programs ship the same test sets: KDiskMark's `defaultBenchmarkParams`
//! (appsettings.cpp:326-376) is CrystalDiskMark 8's `SettingsQueuesThreads` (DiskMarkDlg.cpp:
//! 1154-1200) test for test, "Standard" being CDM's "Default" setting and "NVMe SSD" its
//! "NVMe SSD Ver.8" setting. What differs is the method (see [`Method`]).

use bench::{Access, Op};
use std::fmt;
use std::str::FromStr;

/// One test of a set: CrystalDiskMark's `BenchType`/`BenchSize`/`BenchQueues`/
/// `BenchThreads`, KDiskMark's `BenchmarkParams` (global.h:33-44).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TestSpec {
    pub access: Access,
    /// KiB, as both programs store it (`BlockSize; // KiB`, global.h:35).
    pub block_kib: u32,
    pub queue_depth: u32,
    pub threads: u32,
}

const fn seq(block_kib: u32, queue_depth: u32, threads: u32) -> TestSpec {
    TestSpec { access: Access::Seq, block_kib, queue_depth, threads }
}

const fn rnd(block_kib: u32, queue_depth: u32, threads: u32) -> TestSpec {
    TestSpec { access: Access::Rnd, block_kib, queue_depth, threads }
}

impl TestSpec {
    pub fn block_bytes(&self) -> u64 {
        u64::from(self.block_kib) * 1024
    }

    /// CrystalDiskMark's button name, `SEQ1M Q8T1`, `RND4K Q32T16`, `SEQ128K Q32T1`
    /// (KDiskMark's `getBenchmarkButtonText`, global.cpp:22-32, prints the same).
    pub fn short_name(&self) -> String {
        let kind = match self.access {
            Access::Seq => "SEQ",
            Access::Rnd => "RND",
        };
        let size = if self.block_kib >= 1024 && self.block_kib.is_multiple_of(1024) {
            format!("{}M", self.block_kib / 1024)
        } else {
            format!("{}K", self.block_kib)
        };
        format!("{kind}{size} Q{}T{}", self.queue_depth, self.threads)
    }

    /// The row label an export of `method` prints, whitespace collapsed and with the
    /// section in front, exactly as `bench`'s parser labels rows of that export:
    /// `Read Sequential 1 MiB (Q= 8, T= 1)` (KDiskMark, mainwindow.cpp:562-577) or
    /// `Read SEQ 1MiB (Q= 8, T= 1)` (CrystalDiskMark 8, DiskMarkDlg.cpp:2750-2770).
    pub fn row_label(&self, method: Method, op: Op) -> String {
        let section = match op {
            Op::Read => "Read",
            Op::Write => "Write",
            Op::Mix => "Mix",
        };
        let (number, unit) =
            if self.block_kib >= 1024 { (self.block_kib / 1024, "MiB") } else { (self.block_kib, "KiB") };
        // Both print Q three wide and T two wide (`%3d`, `%2d`; `rightJustified(3)`,
        // `rightJustified(2)`): collapsed, `Q= 8`, `Q= 32`, `T= 1`, `T=16`.
        let q = if self.queue_depth < 100 {
            format!("Q= {}", self.queue_depth)
        } else {
            format!("Q={}", self.queue_depth)
        };
        let t =
            if self.threads < 10 { format!("T= {}", self.threads) } else { format!("T={}", self.threads) };
        match method {
            Method::KDiskMark => {
                let kind = if self.access == Access::Seq { "Sequential" } else { "Random" };
                format!("{section} {kind} {number} {unit} ({q}, {t})")
            }
            Method::Cdm8 => {
                let kind = if self.access == Access::Seq { "SEQ" } else { "RND" };
                format!("{section} {kind} {number}{unit} ({q}, {t})")
            }
        }
    }
}

/// Whose way of running the tests: both through fio here, but the two programs differ in
/// how long a pass runs, whether a warm-up precedes it and which pass counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// KDiskMark: a pass ends after `runtime` seconds or one sweep of the test file,
    /// whichever comes first (helper.cpp:220-237: `--runtime` without `time_based`);
    /// no warm-up; the Default profile averages the passes, the others keep the best
    /// (benchmark.cpp:92-104).
    KDiskMark,
    /// CrystalDiskMark 8 (DiskSpd, re-created in fio): a pass runs for the whole measure
    /// time (`-d`, DiskBench.cpp:903 and 909), random offsets with replacement (DiskSpd `-r` has
    /// no coverage map: fio `norandommap`), a 5-second warm-up pass that does not count
    /// (DiskBench.cpp:894-899, `j == 0`), and the best pass counts: the highest MB/s and
    /// the lowest latency (DiskBench.cpp:913-923).
    Cdm8,
}

/// Which rows a run has: the two programs' menu of profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Set {
    /// Four tests (appsettings.cpp:330-348; DiskBench.cpp:136-174).
    Default,
    /// Sequential and random at high queue depth (appsettings.cpp:349-359;
    /// DiskBench.cpp:176-208, tests 4 and 5).
    Peak,
    /// Queue depth 1 (appsettings.cpp:360-367; DiskBench.cpp:210-242, tests 6 and 7).
    Real,
    /// One sequential test (appsettings.cpp:368-373; DiskBench.cpp:244-265, test 8).
    Demo,
}

/// KDiskMark's `BenchmarkPreset` (global.h:54-57), CrystalDiskMark's Settings menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// KDiskMark "Standard", CrystalDiskMark "Default" (DiskMarkDlg.cpp:1160-1165).
    Standard,
    /// "NVMe SSD" (DiskMarkDlg.cpp:1183-1188, "NVMe SSD Ver.8").
    Nvme,
}

/// A test set run one way: what `ssdbase bench --profile` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    pub method: Method,
    pub set: Set,
    pub preset: Preset,
}

/// How a test's passes become its figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    /// The mean of every figure over the passes (KDiskMark Default, benchmark.cpp:94-97
    /// sums, benchmark.cpp:130-133 divides by the pass count).
    Mean,
    /// The highest MB/s and IOPS and the lowest latency, each over the passes
    /// (`updateWithBetterValues`, benchmark.h:69-74; CrystalDiskMark's `maxScore` and
    /// `minLatency`, DiskBench.cpp:913-923).
    Best,
}

impl Profile {
    pub const fn new(method: Method, set: Set, preset: Preset) -> Profile {
        Profile { method, set, preset }
    }

    /// KDiskMark's default: Default profile, Standard preset (appsettings.cpp:86-89).
    pub const KDISKMARK: Profile = Profile::new(Method::KDiskMark, Set::Default, Preset::Standard);

    /// Every profile, in the order a help text lists them. The Real and Demo sets are the
    /// same under both presets, so they are listed once (Standard).
    pub fn all() -> Vec<Profile> {
        let mut all = Vec::new();
        for method in [Method::KDiskMark, Method::Cdm8] {
            for set in [Set::Default, Set::Peak, Set::Real, Set::Demo] {
                all.push(Profile { method, set, preset: Preset::Standard });
                if matches!(set, Set::Default | Set::Peak) {
                    all.push(Profile { method, set, preset: Preset::Nvme });
                }
            }
        }
        all
    }

    /// The tests of one operation, in the order both programs run them: every read test,
    /// then every write test (mainwindow.cpp:1199-1209; DiskBench.cpp:142-159).
    pub fn tests(&self) -> Vec<TestSpec> {
        let nvme = self.preset == Preset::Nvme;
        match self.set {
            // appsettings.cpp:333-346; DiskMarkDlg.cpp:1162-1165 and 1185-1188.
            Set::Default if nvme => vec![seq(1024, 8, 1), seq(128, 32, 1), rnd(4, 32, 16), rnd(4, 1, 1)],
            Set::Default => vec![seq(1024, 8, 1), seq(1024, 1, 1), rnd(4, 32, 1), rnd(4, 1, 1)],
            // appsettings.cpp:352-358; DiskMarkDlg.cpp tests 4 and 5.
            Set::Peak if nvme => vec![seq(1024, 8, 1), rnd(4, 32, 16)],
            Set::Peak => vec![seq(1024, 8, 1), rnd(4, 32, 1)],
            // appsettings.cpp:363-366 (the same for both presets); DiskMarkDlg.cpp tests 6, 7.
            Set::Real => vec![seq(1024, 1, 1), rnd(4, 1, 1)],
            // appsettings.cpp:371-372; DiskMarkDlg.cpp test 8.
            Set::Demo => vec![seq(1024, 8, 1)],
        }
    }

    /// Every (test, operation) in running order.
    pub fn runs(&self) -> Vec<(TestSpec, Op)> {
        let tests = self.tests();
        let reads = tests.iter().map(|t| (*t, Op::Read));
        let writes = tests.iter().map(|t| (*t, Op::Write));
        reads.chain(writes).collect()
    }

    pub fn aggregation(&self) -> Aggregation {
        match (self.method, self.set) {
            (Method::KDiskMark, Set::Default) => Aggregation::Mean,
            _ => Aggregation::Best,
        }
    }

    /// Seconds of the uncounted warm-up pass before each test's passes (CrystalDiskMark:
    /// `duration = 5` for `j == 0`, DiskBench.cpp:896-899; KDiskMark has none).
    pub fn warm_up_secs(&self) -> u32 {
        match self.method {
            Method::KDiskMark => 0,
            Method::Cdm8 => 5,
        }
    }

    /// The name stored as the result's `profile`: the program's own profile name, with
    /// the preset when it is not the standard one, e.g. `KDiskMark Peak Performance
    /// (NVMe SSD)`, `CrystalDiskMark 8 Default`. KDiskMark's names are its export's
    /// (mainwindow.cpp:637); CrystalDiskMark 8's are its export's `Profile:` line.
    pub fn name(&self) -> String {
        let (program, set) = match self.method {
            Method::KDiskMark => (
                "KDiskMark",
                match self.set {
                    Set::Default => "Default",
                    Set::Peak => "Peak Performance",
                    Set::Real => "Real World Performance",
                    Set::Demo => "Demo",
                },
            ),
            Method::Cdm8 => (
                "CrystalDiskMark 8",
                match self.set {
                    Set::Default => "Default",
                    Set::Peak => "Peak",
                    Set::Real => "Real",
                    Set::Demo => "Demo",
                },
            ),
        };
        // The Real and Demo sets are the same under both presets.
        let preset = match (self.preset, self.set) {
            (Preset::Nvme, Set::Default | Set::Peak) => " (NVMe SSD)",
            _ => "",
        };
        format!("{program} {set}{preset}")
    }

    /// The command-line name: `kdiskmark`, `kdiskmark-peak-nvme`, `cdm8-nvme`, `cdm8-real`.
    pub fn id(&self) -> String {
        let mut id = String::from(match self.method {
            Method::KDiskMark => "kdiskmark",
            Method::Cdm8 => "cdm8",
        });
        id.push_str(match self.set {
            Set::Default => "",
            Set::Peak => "-peak",
            Set::Real => "-real",
            Set::Demo => "-demo",
        });
        if self.preset == Preset::Nvme {
            id.push_str("-nvme");
        }
        id
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

/// A profile name that is none of [`Profile::all`]'s ids.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile {0:?}; expected one of {ids}", ids = Profile::all().iter().map(Profile::id).collect::<Vec<_>>().join(", "))]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Profile, UnknownProfile> {
        let wanted = s.trim().to_ascii_lowercase();
        Profile::all().into_iter().find(|p| p.id() == wanted).ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_sets_are_crystaldiskmark_8s() {
        let names = |p: Profile| p.tests().iter().map(TestSpec::short_name).collect::<Vec<_>>();
        let kdm = |set, preset| Profile::new(Method::KDiskMark, set, preset);
        assert_eq!(
            names(kdm(Set::Default, Preset::Standard)),
            ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
        );
        assert_eq!(
            names(kdm(Set::Default, Preset::Nvme)),
            ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"]
        );
        assert_eq!(names(kdm(Set::Peak, Preset::Standard)), ["SEQ1M Q8T1", "RND4K Q32T1"]);
        assert_eq!(names(kdm(Set::Peak, Preset::Nvme)), ["SEQ1M Q8T1", "RND4K Q32T16"]);
        assert_eq!(names(kdm(Set::Real, Preset::Nvme)), ["SEQ1M Q1T1", "RND4K Q1T1"]);
        assert_eq!(names(kdm(Set::Demo, Preset::Standard)), ["SEQ1M Q8T1"]);
    }

    #[test]
    fn ids_name_every_profile_once() {
        let all = Profile::all();
        for p in &all {
            assert_eq!(p.id().parse::<Profile>().unwrap(), *p);
        }
        let mut ids: Vec<String> = all.iter().map(Profile::id).collect();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        assert!("crystaldiskmark".parse::<Profile>().unwrap_err().to_string().contains("cdm8-nvme"));
    }

    #[test]
    fn labels_follow_each_export() {
        let t = seq(1024, 8, 1);
        assert_eq!(t.row_label(Method::KDiskMark, Op::Read), "Read Sequential 1 MiB (Q= 8, T= 1)");
        assert_eq!(t.row_label(Method::Cdm8, Op::Write), "Write SEQ 1MiB (Q= 8, T= 1)");
        assert_eq!(rnd(4, 32, 16).row_label(Method::Cdm8, Op::Read), "Read RND 4KiB (Q= 32, T=16)");
        assert_eq!(seq(128, 32, 1).short_name(), "SEQ128K Q32T1");
    }
}
