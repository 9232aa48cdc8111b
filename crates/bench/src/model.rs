//! The domain: what one benchmark run measured (`BenchResult`), what it ran on (`Tags`),
//! and the catalogue of drive SKUs with their rated specifications (`DriveSku`).
//!
//! `BenchResult` serialises to SSDBase's public result format (the JSON printed by
//! `ssdbase parse` and accepted by the API). Its field names are a contract: add optional
//! fields if needed, never rename or remove one.

use serde::{Deserialize, Serialize};

/// The program that produced a result, as recognised from its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Tool {
    #[serde(rename = "crystaldiskmark")]
    CrystalDiskMark,
    #[serde(rename = "kdiskmark")]
    KDiskMark,
    #[serde(rename = "fio")]
    Fio,
    #[serde(rename = "orion")]
    Orion,
    #[serde(rename = "as-ssd")]
    AsSsd,
    #[serde(rename = "hd-tune")]
    HdTune,
    #[serde(rename = "atto")]
    Atto,
    /// `ssdbase bench`: fio run as KDiskMark or CrystalDiskMark would, on Linux (its
    /// `engine` is fio's version). As with every tool, this is what the result says
    /// measured it.
    #[serde(rename = "ssdbase-bench")]
    SsdbaseBench,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::CrystalDiskMark => "CrystalDiskMark",
            Tool::KDiskMark => "KDiskMark",
            Tool::Fio => "fio",
            Tool::Orion => "ORION",
            Tool::AsSsd => "AS SSD Benchmark",
            Tool::HdTune => "HD Tune",
            Tool::Atto => "ATTO Disk Benchmark",
            Tool::SsdbaseBench => "ssdbase bench",
        }
    }
}

/// The measuring method behind a number. Two numbers are only comparable when their
/// families match, even at identical parameters: CrystalDiskMark 2.x/3.x used its own
/// I/O loop, 4.x onwards drives Microsoft DiskSpd, KDiskMark and plain fio both run fio.
/// KDiskMark and fio share a family on purpose: KDiskMark is a fio front end and its
/// numbers are fio's own bandwidth, IOPS and latency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ToolFamily {
    /// CrystalDiskMark 2.x and 3.x (own Win32 I/O engine).
    CdmNative,
    /// CrystalDiskMark 4.x and later (DiskSpd engine).
    CdmDiskspd,
    /// fio, directly or through KDiskMark.
    Fio,
    Orion,
    AsSsd,
    HdTune,
    Atto,
    /// fio through the page cache (`direct=0`), as `ssdbase bench --buffered` runs it
    /// where O_DIRECT is impossible: the cache is measured with the drive, so these
    /// numbers never pool with direct I/O.
    FioBuffered,
}

impl ToolFamily {
    /// Its name in JSON and URLs: `cdm-native`, `fio`, `hd-tune`.
    pub fn id(self) -> &'static str {
        match self {
            ToolFamily::CdmNative => "cdm-native",
            ToolFamily::CdmDiskspd => "cdm-diskspd",
            ToolFamily::Fio => "fio",
            ToolFamily::Orion => "orion",
            ToolFamily::AsSsd => "as-ssd",
            ToolFamily::HdTune => "hd-tune",
            ToolFamily::Atto => "atto",
            ToolFamily::FioBuffered => "fio-buffered",
        }
    }
}

impl ToolFamily {
    /// The family of a tool at a version (`None` when the version is unknown).
    pub fn of(tool: Tool, version: Option<&str>) -> ToolFamily {
        match tool {
            Tool::CrystalDiskMark => {
                let major = version
                    .and_then(|v| v.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|m| m.parse::<u32>().ok());
                match major {
                    Some(m) if m <= 3 => ToolFamily::CdmNative,
                    _ => ToolFamily::CdmDiskspd,
                }
            }
            // The runner is fio under a front end, as KDiskMark is: the same tests pool.
            Tool::KDiskMark | Tool::Fio | Tool::SsdbaseBench => ToolFamily::Fio,
            Tool::Orion => ToolFamily::Orion,
            Tool::AsSsd => ToolFamily::AsSsd,
            Tool::HdTune => ToolFamily::HdTune,
            Tool::Atto => ToolFamily::Atto,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Access {
    Seq,
    Rnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Op {
    Read,
    Write,
    /// A mixed read/write test; the read share is in `Metric::mix_read_percent`.
    Mix,
}

/// Which statistic of a run a number is, for tools that print several per test
/// (HD Tune's minimum/maximum/average transfer rate, its burst rate, AS SSD's access
/// times). `None` means the tool's single headline figure for that test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Stat {
    Min,
    Max,
    Avg,
    Burst,
    /// AS SSD's access times: the mean time of single requests in a run of their own
    /// (reads across the whole drive, writes within a 1 GiB file), not the latency of
    /// the throughput test with the same block size.
    Access,
    /// The average of the steady-state window (SNIA PTS 2.0.2: five rounds within 20 %
    /// of their average, drifting less than 10 %) of a sustained run.
    Steady,
    /// The average of the last five rounds of a sustained run that never reached steady
    /// state: what the drive did when the round limit stopped it, never called steady.
    Unsettled,
    /// The write rate after the drive's write cache filled (`bench::cache`).
    #[serde(rename = "after-cache")]
    AfterCache,
}

impl Stat {
    /// How a test's name ends for this statistic: `after cache` in `SEQ 1MiB Q8T1 write
    /// after cache`.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Min => "min",
            Stat::Max => "max",
            Stat::Avg => "avg",
            Stat::Burst => "burst",
            Stat::Access => "access time",
            Stat::Steady => "steady state",
            Stat::Unsettled => "unsettled",
            Stat::AfterCache => "after cache",
        }
    }
}

/// The content written during write tests. It matters: SandForce and Indilinx
/// controllers compress, so 0-fill writes can be several times faster than random ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DataPattern {
    Random,
    ZeroFill,
    OneFill,
}

/// One measured number, with the test that produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Metric {
    /// The row label exactly as the tool printed it (whitespace collapsed).
    pub label: String,
    pub access: Access,
    /// Transfer block size in bytes.
    pub block_size: u64,
    pub queue_depth: u32,
    pub threads: u32,
    pub op: Op,
    /// Decimal MB/s (10^6 bytes/s), as printed.
    pub mbps: Option<f64>,
    pub iops: Option<f64>,
    /// Mean latency in microseconds.
    pub latency_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(maximum = 255))]
    pub mix_read_percent: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stat: Option<Stat>,
    /// The completion-latency percentiles the tool printed (fio's `clat percentiles`),
    /// lowest first: how long the slowest I/Os waited, which a mean hides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub latency_percentiles: Vec<LatencyPercentile>,
    /// The spread of the latencies the tool printed beside their mean: the fastest and
    /// slowest I/O, the standard deviation and a histogram, as far as it printed them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_spread: Option<LatencySpread>,
}

/// How a test's latencies spread, as its tool printed them (ORION 12c+'s `min=`, `max=`,
/// `std dev=` and latency histogram; fio's completion-latency `min`, `max`, `stddev`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LatencySpread {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_us: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stddev_us: Option<f64>,
    /// The buckets the tool counted the I/Os in, lowest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub histogram: Vec<LatencyBucket>,
}

/// `count` I/Os completed in `from_us` to `to_us` microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LatencyBucket {
    pub from_us: f64,
    pub to_us: f64,
    pub count: u64,
}

impl LatencySpread {
    /// The bucket in which `percent` % of the counted I/Os had completed: a histogram
    /// says only that the percentile lies within it, not where.
    pub fn bucket_of_percentile(&self, percent: f64) -> Option<LatencyBucket> {
        let total: u64 = self.histogram.iter().map(|b| b.count).sum();
        if total == 0 || !(0.0..=100.0).contains(&percent) {
            return None;
        }
        let mut within = 0u64;
        self.histogram.iter().copied().find(|b| {
            within += b.count;
            b.count > 0 && within as f64 * 100.0 >= percent * total as f64
        })
    }
}

/// `percent` % of a test's I/Os completed within `us` microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LatencyPercentile {
    pub percent: f64,
    pub us: f64,
}

/// The latency within which `percent` % of the I/Os completed, when `percentiles` has
/// that percentile.
pub fn percentile_at(percentiles: &[LatencyPercentile], percent: f64) -> Option<f64> {
    percentiles.iter().find(|p| (p.percent - percent).abs() < 1e-9).map(|p| p.us)
}

impl Metric {
    /// The latency within which `percent` % of the I/Os completed, when the tool printed
    /// that percentile.
    pub fn latency_percentile(&self, percent: f64) -> Option<f64> {
        percentile_at(&self.latency_percentiles, percent)
    }
}

/// The canonical description of a test: only numbers with equal `TestKey`s may be put
/// side by side. Built from a metric plus its result's tool family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TestKey {
    pub family: ToolFamily,
    pub access: Access,
    pub block_size: u64,
    pub queue_depth: u32,
    pub threads: u32,
    pub op: Op,
    #[cfg_attr(feature = "openapi", schema(maximum = 255))]
    pub mix_read_percent: Option<u8>,
    pub stat: Option<Stat>,
}

impl TestKey {
    pub fn of(family: ToolFamily, m: &Metric) -> TestKey {
        TestKey {
            family,
            access: m.access,
            block_size: m.block_size,
            queue_depth: m.queue_depth,
            threads: m.threads,
            op: m.op,
            mix_read_percent: m.mix_read_percent,
            stat: m.stat,
        }
    }

    /// The test's name in URLs: its tool family and short name, `cdm-diskspd SEQ 1MiB
    /// Q8T1 read`; two different tests never share it.
    pub fn id(&self) -> String {
        format!("{} {}", self.family.id(), self.short_name())
    }

    /// A short human name such as `SEQ 1MiB Q8T1 read` or `RND 4KiB Q32T16 write`.
    pub fn short_name(&self) -> String {
        test_name(
            self.access,
            self.block_size,
            Some((self.queue_depth, self.threads)),
            self.op,
            self.mix_read_percent,
            self.stat,
        )
    }
}

/// `SEQ 1MiB Q8T1 read`, or without a load (`None`) `RND 4KiB read`: the one way tests are
/// named, for a test and for a load curve of one.
pub fn test_name(
    access: Access,
    block_size: u64,
    load: Option<(u32, u32)>,
    op: Op,
    mix_read_percent: Option<u8>,
    stat: Option<Stat>,
) -> String {
    let access = match access {
        Access::Seq => "SEQ",
        Access::Rnd => "RND",
    };
    let op = match (op, mix_read_percent) {
        // A mixed job's reads and writes, as fio reports them: apart, named by their mix
        // (never the same name as a pure read or write test).
        (Op::Read, Some(p)) => format!("read in mix {p}/{}", 100 - u32::from(p)),
        (Op::Write, Some(p)) => format!("write in mix {p}/{}", 100 - u32::from(p)),
        (Op::Read, None) => "read".to_string(),
        (Op::Write, None) => "write".to_string(),
        (Op::Mix, Some(p)) => format!("mix {p}/{}", 100 - u32::from(p)),
        (Op::Mix, None) => "mix".to_string(),
    };
    let stat = stat.map(|s| format!(" {}", s.name())).unwrap_or_default();
    let load = load.map(|(qd, t)| format!(" Q{qd}T{t}")).unwrap_or_default();
    format!("{access} {}{load} {op}{stat}", format_block_size(block_size))
}

/// `4096` → `4KiB`, `1048576` → `1MiB`, `512` → `512B`.
pub fn format_block_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{}MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{}KiB", bytes / KIB)
    } else {
        format!("{bytes}B")
    }
}

/// Everything one tool run reported: SSDBase's public result format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BenchResult {
    pub tool: Tool,
    /// The version exactly as printed, e.g. `3.0.1 x64`, `8.0.4 Shizuku Edition x64`.
    pub tool_version: Option<String>,
    /// The tool's profile or preset (`Default`, `Peak`, `Real`, `Demo`, ...).
    pub profile: Option<String>,
    pub test_size_bytes: Option<u64>,
    /// How many times each test ran (CrystalDiskMark's `(x5)`).
    pub passes: Option<u32>,
    pub data_pattern: Option<DataPattern>,
    /// When the run happened, as printed by the tool (local time, no zone).
    pub date: Option<String>,
    pub os: Option<String>,
    pub comment: Option<String>,
    pub metrics: Vec<Metric>,
    /// Where the tool said it ran: drive letter and usage, device path, drive name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The engine under a front end, e.g. `fio-3.30` under KDiskMark.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Labels of rows the tool printed as all zeros: tests that were not run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
    /// The measuring method, when the layout proves it but no version was printed (a
    /// header-less CrystalDiskMark 3 paste). Otherwise derived from tool and version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<ToolFamily>,
    /// What the file says about the drive and the platform it measured, each where it
    /// says it: the parsers' reading, which the server uses to identify the drive and
    /// fill tags the submitter left empty (`Tags::read_from_file`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<FileFact>,
    /// Tests sampled while they ran (fio's `--status-interval` snapshots): how a figure
    /// moved over the run, which its one number for the whole run hides.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub over_time: Vec<TimeSeries>,
    /// Loads of two kinds at once (ORION's mixed-load matrices: small random I/Os under a
    /// background of large ones), kept as printed. A point is no one test at one load, so
    /// it is shown with its result and never compared or ranked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mixed_loads: Vec<MixedLoad>,
}

/// One point of a mixed load: `small` small random I/Os and `large` large I/Os in
/// flight together, and what each kind did (each matrix file gives one figure).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MixedLoad {
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub small: u32,
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub large: u32,
    /// The small I/Os' operations per second.
    pub small_iops: Option<f64>,
    /// The small I/Os' mean latency, µs.
    pub small_latency_us: Option<f64>,
    /// The large I/Os' decimal MB/s.
    pub large_mbps: Option<f64>,
}

/// One test of a result sampled over its run. Each point is the rate over the interval
/// that ended there, so a write cache filling up shows as a step down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TimeSeries {
    /// The test: the index of its metric in the result's `metrics`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub metric: usize,
    /// In time order.
    pub points: Vec<TimePoint>,
    /// Seconds the drive was left idle before this run, when it repeats an earlier
    /// series of the same test (`ssdbase bench --profile cache` writes again after a
    /// pause, to see how much of the write cache came back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false, minimum = 0))]
    pub after_idle_secs: Option<f64>,
}

/// The figures of one interval of a sampled run. Written as a row, `[secs, bytes, mbps]`
/// or `[secs, bytes, mbps, iops]`: a run sampled every second for an hour is 3,600 of
/// them, and the row is about half the bytes of the object (`{"secs": .., "bytes": ..}`),
/// which is read too. Every stage of a submission (reading, hashing, storing) and of a
/// reader's answer works on those bytes.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct TimePoint {
    /// Seconds since the test started, at the interval's end.
    pub secs: f64,
    /// Bytes the test had read or written by then.
    pub bytes: u64,
    /// Decimal MB/s over the interval.
    pub mbps: f64,
    /// Operations per second over the interval, where the tool counted them.
    #[serde(default)]
    pub iops: Option<f64>,
}

impl Serialize for TimePoint {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut row = serializer.serialize_tuple(if self.iops.is_some() { 4 } else { 3 })?;
        row.serialize_element(&self.secs)?;
        row.serialize_element(&self.bytes)?;
        row.serialize_element(&self.mbps)?;
        if let Some(iops) = &self.iops {
            row.serialize_element(iops)?;
        }
        row.end()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for TimePoint {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, SchemaType, Type};
        let number =
            |description: &str| ObjectBuilder::new().schema_type(Type::Number).description(Some(description));
        let bytes = || {
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0))
                .description(Some("Bytes the test had read or written by then"))
        };
        let iops = || {
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::Number, Type::Null]))
                .description(Some("Operations per second over the interval, where the tool counted them"))
        };
        let secs = "Seconds since the test started, at the interval's end";
        let mbps = "Decimal MB/s over the interval";
        let row = ArrayBuilder::new()
            .prefix_items([
                utoipa::openapi::schema::Schema::from(number(secs)),
                bytes().into(),
                number(mbps).into(),
                iops().into(),
            ])
            .items(utoipa::openapi::schema::ArrayItems::False)
            .min_items(Some(3))
            .max_items(Some(4))
            .description(Some("`[secs, bytes, mbps]` or `[secs, bytes, mbps, iops]`, as written"));
        let object = ObjectBuilder::new()
            .property("secs", number(secs))
            .required("secs")
            .property("bytes", bytes())
            .required("bytes")
            .property("mbps", number(mbps))
            .required("mbps")
            .property("iops", iops())
            .description(Some("The same figures by name, as read"));
        OneOfBuilder::new()
            .item(row)
            .item(object)
            .description(Some("The figures of one interval of a sampled run"))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for TimePoint {}

/// One thing an uploaded file says about what it measured: `field` is a tag field's
/// public name (`model`, `capacity_gb`, `firmware`, `driver`, `os`) or `comment` and
/// `target` (free text the tool printed), `value` as printed (a capacity folded to the
/// marketed GB), `source` where: `line 2 "Name: Samsung SSD 970 EVO Plus 250GB"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileFact {
    pub field: String,
    pub value: String,
    pub source: String,
}

impl FileFact {
    /// A fact read on line `line` (1-based) whose text was `printed`.
    pub fn at(field: &str, value: impl Into<String>, line: usize, printed: &str) -> FileFact {
        FileFact {
            field: field.into(),
            value: value.into(),
            source: format!("line {line}: {}", printed.trim()),
        }
    }
}

impl BenchResult {
    pub fn new(tool: Tool) -> BenchResult {
        BenchResult {
            tool,
            tool_version: None,
            profile: None,
            test_size_bytes: None,
            passes: None,
            data_pattern: None,
            date: None,
            os: None,
            comment: None,
            metrics: Vec::new(),
            target: None,
            engine: None,
            not_run: Vec::new(),
            family: None,
            facts: Vec::new(),
            over_time: Vec::new(),
            mixed_loads: Vec::new(),
        }
    }

    /// The first fact of `field`, if the file said it.
    pub fn fact(&self, field: &str) -> Option<&FileFact> {
        self.facts.iter().find(|f| f.field == field)
    }

    pub fn family(&self) -> ToolFamily {
        self.family.unwrap_or_else(|| ToolFamily::of(self.tool, self.tool_version.as_deref()))
    }

    /// The first test this result holds twice: its key and the two metrics' indices. A
    /// result holds each test once (two numbers for one test would be counted twice in
    /// every pool), so ingest refuses such a result.
    pub fn repeated_test(&self) -> Option<(TestKey, usize, usize)> {
        let keys: Vec<TestKey> = self.keyed_metrics().map(|(k, _)| k).collect();
        keys.iter().enumerate().find_map(|(j, k)| keys[..j].iter().position(|e| e == k).map(|i| (*k, i, j)))
    }

    /// Each metric with its canonical test key.
    pub fn keyed_metrics(&self) -> impl Iterator<Item = (TestKey, &Metric)> {
        let family = self.family();
        self.metrics.iter().map(move |m| (TestKey::of(family, m), m))
    }
}

// ---------------------------------------------------------------------------------------
// Tags: what a result ran on. Every field is optional: pasted results rarely say it all.
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Tags {
    pub drive: DriveTag,
    pub controller: Option<ControllerTag>,
    pub nand: Option<NandTag>,
    pub dram_mb: Option<u32>,
    pub firmware: Option<String>,
    pub platform: Platform,
    pub raid: Option<Raid>,
    pub conditions: Conditions,
    /// The tag fields the server filled from what the result's file says
    /// (`BenchResult::facts`) because the submitter left them empty: `drive` (found by
    /// the model the file names, `identified_by: named-in-upload`), `firmware`, `driver`,
    /// `os`. Set by the server, never taken from the submitter.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_from_file: Vec<String>,
}

/// Which drive was measured. `sku` points into the catalogue when the exact capacity
/// variant is known (it is what "rated vs measured" compares against).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct DriveTag {
    pub sku: Option<String>,
    pub vendor: Option<String>,
    pub model: Option<String>,
    /// Manufacturer part number, e.g. `CTFDDAC064MAG-1G1`, `PX-128M2S`.
    pub part_number: Option<String>,
    pub capacity_gb: Option<u32>,
    /// How `sku` was found: set by the server when it stores the result, never taken from
    /// the submitter.
    pub identified_by: Option<DriveMatch>,
    /// The drives an ambiguous identity matched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct ControllerTag {
    pub vendor: Option<String>,
    /// e.g. `88SS9174`, `SF-2281`, `Barefoot`.
    pub model: Option<String>,
    /// Silicon revision, e.g. `BJP2` vs `BKK2` of the 88SS9174.
    pub stepping: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum CellType {
    Slc,
    Mlc,
    Tlc,
    Qlc,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct NandTag {
    pub vendor: Option<String>,
    pub process_nm: Option<u32>,
    pub cell: Option<CellType>,
    /// e.g. `Toggle DDR`, `ONFI 2.x`, `asynchronous`.
    pub interface: Option<String>,
    /// Where a catalogue drive's NAND facts come from, as for [`RatedSpec`]'s sources;
    /// results do not set it (their tags are what was submitted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum StorageMode {
    Ide,
    Ahci,
    Raid,
    #[serde(rename = "NVMe")]
    Nvme,
}

/// Link power management in effect: PCIe Active State Power Management (as Linux's
/// `lspci -vv` "LnkCtl: ASPM" reports it) or SATA Link Power Management (Linux's
/// `link_power_management_policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum LinkPower {
    AspmDisabled,
    AspmL0s,
    AspmL1,
    AspmL0sL1,
    LpmMaxPerformance,
    LpmMediumPower,
    LpmMedPowerWithDipm,
    LpmMinPower,
}

/// A physical link, drive side or host side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Link {
    /// SATA at 1.5, 3 or 6 Gb/s.
    Sata {
        #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1000))]
        gbps: f32,
    },
    /// PCI Express generation and negotiated lanes.
    Pcie {
        #[cfg_attr(feature = "openapi", schema(maximum = 255))]
        gen: u8,
        #[cfg_attr(feature = "openapi", schema(maximum = 255))]
        lanes: u8,
    },
    /// USB with its signalling rate in Gb/s (0.48, 5, 10, 20).
    Usb {
        #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1000))]
        gbps: f32,
    },
}

impl Link {
    /// A short id, used in filters and grouping keys: `sata-6`, `sata-1.5`, `pcie-2-x1`,
    /// `usb-5`.
    pub fn id(&self) -> String {
        match *self {
            Link::Sata { gbps } => format!("sata-{gbps}"),
            Link::Pcie { gen, lanes } => format!("pcie-{gen}-x{lanes}"),
            Link::Usb { gbps } => format!("usb-{gbps}"),
        }
    }

    /// The link of a [`Link::id`].
    pub fn from_id(id: &str) -> Result<Link, String> {
        let bad = || format!("{id:?} is not a link: write sata-6, pcie-4-x4 or usb-10");
        let number = |s: &str| s.parse::<f32>().ok().filter(|g| g.is_finite() && *g > 0.0).ok_or_else(bad);
        if let Some(gbps) = id.strip_prefix("sata-") {
            return Ok(Link::Sata { gbps: number(gbps)? });
        }
        if let Some(gbps) = id.strip_prefix("usb-") {
            return Ok(Link::Usb { gbps: number(gbps)? });
        }
        let (gen, lanes) = id.strip_prefix("pcie-").and_then(|s| s.split_once("-x")).ok_or_else(bad)?;
        Ok(Link::Pcie { gen: gen.parse().map_err(|_| bad())?, lanes: lanes.parse().map_err(|_| bad())? })
    }

    /// The most any drive could ever move over this link, in decimal MB/s: the line rate
    /// after its encoding (SATA and USB 5 Gb/s 8b/10b, PCIe Gen1-2 8b/10b and Gen3+
    /// 128b/130b, USB 10-20 Gb/s 128b/132b), before packet overhead. A maker's rating
    /// above it is not a measurement of anything.
    pub fn line_rate_mbps(&self) -> f64 {
        match *self {
            Link::Sata { gbps } => f64::from(gbps) * 100.0,
            Link::Pcie { gen, lanes } => {
                let per_lane = match gen {
                    1 => 250.0,
                    2 => 500.0,
                    3 => 984.6,
                    4 => 1969.2,
                    _ => 3938.5,
                };
                per_lane * f64::from(lanes.max(1))
            }
            Link::Usb { gbps } if gbps <= 5.0 => f64::from(gbps) * 100.0,
            Link::Usb { gbps } => f64::from(gbps) * 1000.0 / 8.0 * 128.0 / 132.0,
        }
    }

    /// The sustained payload rate this link practically allows, in decimal MB/s:
    /// what results pile up against when the link, not the drive, is the limit.
    pub fn practical_ceiling_mbps(&self) -> f64 {
        match *self {
            // 8b/10b: 3 Gb/s → 300 MB/s raw, ~280 after protocol overhead.
            Link::Sata { gbps } if gbps <= 1.6 => 140.0,
            Link::Sata { gbps } if gbps <= 3.1 => 280.0,
            Link::Sata { .. } => 550.0,
            // Per lane raw: Gen1 250 MB/s, Gen2 500, Gen3 985, Gen4 1969, Gen5 3938. About
            // 80 % survives packet overhead: the seeds' C300 reads 204 MB/s through a
            // Gen1 x1 slot, and its SATA 6 Gb/s card manages 349 MB/s on Gen2 x1.
            Link::Pcie { gen, lanes } => {
                let per_lane = match gen {
                    1 => 250.0,
                    2 => 500.0,
                    3 => 985.0,
                    4 => 1969.0,
                    _ => 3938.0,
                };
                per_lane * f64::from(lanes.max(1)) * 0.8
            }
            Link::Usb { gbps } if gbps < 1.0 => 40.0,
            Link::Usb { gbps } if gbps <= 5.0 => 450.0,
            Link::Usb { gbps } if gbps <= 10.0 => 1050.0,
            Link::Usb { .. } => 2000.0,
        }
    }
}

/// The machine and I/O path a result was measured on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Platform {
    pub cpu: Option<String>,
    /// Chipset or southbridge: `ICH10R`, `SB850`, `Z68`, `SB950`, ...
    pub chipset: Option<String>,
    pub motherboard: Option<String>,
    /// The controller the drive hangs off: the chipset's own SATA ports, or an
    /// add-in card such as `ASUS U3S6` or `3ware 9750-8i`.
    pub storage_controller: Option<String>,
    /// True when the storage controller is an add-in card (its host link matters).
    pub add_in_card: bool,
    /// `IMSM`, `Marvell`, `Microsoft AHCI`, `AMD AHCI`, `LSI`, ...
    pub driver: Option<String>,
    pub mode: Option<StorageMode>,
    /// The kernel or driver version: `6.8.0-45-generic`, `iaStorA 11.2.0.1006`.
    pub driver_version: Option<String>,
    /// Link power management while measuring: PCIe ASPM or SATA LPM. A link that sleeps
    /// between requests adds its exit latency to every low-queue-depth access.
    pub link_power: Option<LinkPower>,
    /// Drive-side link (the SATA port speed).
    pub link: Option<Link>,
    /// Host-side link of an add-in card: the PCIe generation and lanes it negotiated
    /// in the slot it sits in (a x1 Gen2 card in a x1 Gen1 slot runs at Gen1 x1).
    pub host_link: Option<Link>,
    pub os: Option<String>,
    pub filesystem: Option<String>,
    pub allocation_unit_bytes: Option<u32>,
}

impl Platform {
    /// The narrowest link on the path from the drive to the CPU.
    pub fn ceiling_mbps(&self) -> Option<f64> {
        [self.link, self.host_link].into_iter().flatten().map(|l| l.practical_ceiling_mbps()).reduce(f64::min)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Raid {
    /// RAID level as a number: 0, 1, 5, 10.
    #[cfg_attr(feature = "openapi", schema(maximum = 255))]
    pub level: u8,
    #[cfg_attr(feature = "openapi", schema(maximum = 255))]
    pub members: u8,
    pub stripe_bytes: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DriveState {
    Fresh,
    SecureErased,
    Used,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct Conditions {
    pub drive_state: Option<DriveState>,
    /// How full the drive was, in percent.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 100))]
    pub fill_percent: Option<f32>,
}

/// A result with its tags, as stored and as shipped in datasets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TaggedResult {
    pub result: BenchResult,
    #[serde(default)]
    pub tags: Tags,
    /// Where the numbers come from: an article and its section, a file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

// ---------------------------------------------------------------------------------------
// Catalogue: drive SKUs and what their makers promised.
// ---------------------------------------------------------------------------------------

/// What the maker rated one capacity variant at. Sequential figures in decimal MB/s,
/// random 4K figures in IOPS; any may be unknown.
///
/// Every figure carries its source (`*_source`): a URL, or a document's name — for the
/// seed articles their name as results cite it (`003_a275dc1d52d4bcd9 § …`). Several
/// sources are separated by `; `.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default)]
pub struct RatedSpec {
    pub seq_read_mbps: Option<f64>,
    pub seq_write_mbps: Option<f64>,
    pub rnd4k_read_iops: Option<f64>,
    pub rnd4k_write_iops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq_read_source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq_write_source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rnd4k_read_source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rnd4k_write_source: Option<String>,
}

impl RatedSpec {
    /// Each figure by its field name, with its value and its source.
    pub fn figures(&self) -> [(&'static str, Option<f64>, Option<&str>); 4] {
        [
            ("seq_read_mbps", self.seq_read_mbps, self.seq_read_source.as_deref()),
            ("seq_write_mbps", self.seq_write_mbps, self.seq_write_source.as_deref()),
            ("rnd4k_read_iops", self.rnd4k_read_iops, self.rnd4k_read_source.as_deref()),
            ("rnd4k_write_iops", self.rnd4k_write_iops, self.rnd4k_write_source.as_deref()),
        ]
    }
}

/// A drive's physical form: what slot or bay it fits. Named in JSON as makers and
/// retailers write it, lower case (`2.5in`, `m.2-2280`, `add-in-card`).
///
/// Read through [`FormFactor::from_id`] (`try_from = "String"`): serde's derived reader of
/// fifteen names, once per deserializer, was 1-2 KB of every page's download, since
/// the drive search decodes drives (BENCHMARKS.md "Site size").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(try_from = "String")]
pub enum FormFactor {
    /// 2.5-inch drive (SATA, SAS or U.2 connector aside: see the interface).
    #[serde(rename = "2.5in")]
    Inch2_5,
    #[serde(rename = "1.8in")]
    Inch1_8,
    #[serde(rename = "3.5in")]
    Inch3_5,
    #[serde(rename = "msata")]
    Msata,
    #[serde(rename = "m.2-2230")]
    M2_2230,
    #[serde(rename = "m.2-2242")]
    M2_2242,
    #[serde(rename = "m.2-2260")]
    M2_2260,
    #[serde(rename = "m.2-2280")]
    M2_2280,
    #[serde(rename = "m.2-22110")]
    M2_22110,
    /// U.2 (SFF-8639), 2.5-inch with a PCIe connector.
    #[serde(rename = "u.2")]
    U2,
    /// A PCIe add-in card (HHHL, FHHL, ...).
    #[serde(rename = "add-in-card")]
    AddInCard,
    #[serde(rename = "edsff-e1.s")]
    EdsffE1S,
    #[serde(rename = "edsff-e1.l")]
    EdsffE1L,
    #[serde(rename = "edsff-e3.s")]
    EdsffE3S,
    /// Soldered to the board as a BGA package.
    #[serde(rename = "bga")]
    Bga,
}

impl FormFactor {
    /// Every form factor with its JSON name and its label, in the order forms list them.
    pub const ALL: [(FormFactor, &'static str, &'static str); 15] = [
        (FormFactor::Inch2_5, "2.5in", "2.5\""),
        (FormFactor::M2_2280, "m.2-2280", "M.2 2280"),
        (FormFactor::M2_2242, "m.2-2242", "M.2 2242"),
        (FormFactor::M2_2230, "m.2-2230", "M.2 2230"),
        (FormFactor::M2_2260, "m.2-2260", "M.2 2260"),
        (FormFactor::M2_22110, "m.2-22110", "M.2 22110"),
        (FormFactor::Msata, "msata", "mSATA"),
        (FormFactor::Inch1_8, "1.8in", "1.8\""),
        (FormFactor::Inch3_5, "3.5in", "3.5\""),
        (FormFactor::U2, "u.2", "U.2"),
        (FormFactor::AddInCard, "add-in-card", "PCIe add-in card"),
        (FormFactor::EdsffE1S, "edsff-e1.s", "EDSFF E1.S"),
        (FormFactor::EdsffE1L, "edsff-e1.l", "EDSFF E1.L"),
        (FormFactor::EdsffE3S, "edsff-e3.s", "EDSFF E3.S"),
        (FormFactor::Bga, "bga", "BGA"),
    ];

    /// The JSON name, e.g. `m.2-2280`.
    pub fn id(self) -> &'static str {
        FormFactor::ALL.iter().find(|(f, _, _)| *f == self).map_or("", |(_, id, _)| id)
    }

    /// As people read it, e.g. `M.2 2280`, `2.5"`.
    pub fn label(self) -> &'static str {
        FormFactor::ALL.iter().find(|(f, _, _)| *f == self).map_or("", |(_, _, l)| l)
    }

    /// The form factor named `id` (its JSON name).
    pub fn from_id(id: &str) -> Option<FormFactor> {
        FormFactor::ALL.iter().find(|(_, i, _)| *i == id).map(|(f, _, _)| *f)
    }
}

impl TryFrom<String> for FormFactor {
    type Error = String;

    fn try_from(id: String) -> Result<FormFactor, String> {
        FormFactor::from_id(&id).ok_or_else(|| {
            let names: Vec<&str> = FormFactor::ALL.iter().map(|(_, id, _)| *id).collect();
            format!("unknown form factor {id:?}: one of {}", names.join(", "))
        })
    }
}

/// One orderable drive: a model at one capacity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DriveSku {
    /// Stable slug, e.g. `crucial-realssd-c300-64gb`.
    pub id: String,
    pub vendor: String,
    /// Model line, e.g. `RealSSD C300`.
    pub model: String,
    pub part_number: Option<String>,
    pub capacity_gb: u32,
    /// The drive's own interface, e.g. SATA 6 Gb/s.
    pub interface: Option<Link>,
    #[serde(default)]
    pub controller: ControllerTag,
    #[serde(default)]
    pub nand: NandTag,
    pub dram_mb: Option<u32>,
    #[serde(default)]
    pub rated: RatedSpec,
    /// What slot or bay it fits, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form_factor: Option<FormFactor>,
    /// Firmware versions known to exist for it (the catalogue's, from its maker or a
    /// moderator's sources; the versions its results were measured with are the drive
    /// page's firmware history).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub firmware: Vec<String>,
    /// Other names the drive goes by: the model string operating systems report
    /// (`Samsung SSD 990 PRO 2TB`, `INTEL SSDSC2MH120A2`), other part numbers, OEM names
    /// (`CFD CSSD-S6M128NM4Q`). Submissions naming any of them land on this drive
    /// (`identity::keys_of`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// False for a community drive: created by a submission that named a drive the
    /// catalogue did not have, its facts not reviewed by a moderator yet.
    #[serde(default = "reviewed_default")]
    pub reviewed: bool,
}

/// Drives written before community drives existed are the reviewed catalogue's.
fn reviewed_default() -> bool {
    true
}

/// How a result's drive was identified: what a reader needs to tell a drive the submitter
/// named from one SSDBase matched, created or could not decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DriveMatch {
    /// The submission named the drive's id.
    Given,
    /// Vendor, model line and capacity matched the drive's name.
    Name,
    /// A part number or an operating system's model string matched one of the drive's.
    Alias,
    /// Only after dropping a trailing firmware or revision word.
    Loose,
    /// Nothing matched: the submission created this community drive.
    Created,
    /// The submission named no drive; the model its file prints (AS SSD's `Name:`, HD
    /// Tune's title, a CrystalDiskMark comment) is exactly this drive.
    NamedInUpload,
    /// Several drives matched (listed in `candidates`): stored without a drive until
    /// someone decides.
    Ambiguous,
    /// The submission named no drive (or too little of one to create it).
    Unknown,
}

/// How exactly an observation's value is known: a figure the source prints, or only a
/// bound ("above 420 MB/s", "10 MB/s or less") or an approximation ("about 170 MB/s").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ObservationKind {
    #[default]
    Exact,
    /// A lower bound: the source says "above", "over", "reached", "a little over".
    AtLeast,
    /// An upper bound: "or less", "within", "never … or more".
    AtMost,
    /// Given only roughly: "about", "around", "nearly".
    About,
}

impl ObservationKind {
    /// The sign a table puts before the value: `≥ 420`, `≤ 10`, `≈ 170`.
    pub fn symbol(self) -> &'static str {
        match self {
            ObservationKind::Exact => "",
            ObservationKind::AtLeast => "≥",
            ObservationKind::AtMost => "≤",
            ObservationKind::About => "≈",
        }
    }

    /// The words for it: `at least`, `at most`, `about`, `exact`.
    pub fn words(self) -> &'static str {
        match self {
            ObservationKind::Exact => "exact",
            ObservationKind::AtLeast => "at least",
            ObservationKind::AtMost => "at most",
            ObservationKind::About => "about",
        }
    }
}

/// A figure an article reports that is not one benchmark tool's output, e.g. the
/// "DelayRatio" of a practical copy test (copy-paste time / (net write + net read time)),
/// or a benchmark figure the text gives only as a bound or an approximation ("Sequential
/// Read above 420 MB/s"), or without saying which test it is (read or write).
/// Kept beside results so that nothing a source measured is lost, but never mixed into
/// the per-test aggregates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Observation {
    /// What was measured, e.g. `DelayRatio`, `copy time`.
    pub name: String,
    pub value: f64,
    /// Whether `value` is exact, a bound or an approximation.
    #[serde(default)]
    pub kind: ObservationKind,
    /// The data written, where the figure is a benchmark's and the source says so;
    /// absent when it does not say (unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_pattern: Option<DataPattern>,
    /// Unit of `value`: `ratio`, `s`, `MB/s`, ...
    pub unit: String,
    /// The conditions in words, e.g. `copy of 2,000 small files within the drive`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default)]
    pub tags: Tags,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sampled interval is written as a row and read back equal, with or without its
    /// IOPS; the object form that runner 0.1.0 and earlier results wrote reads the same.
    #[test]
    fn a_time_point_is_a_row_and_the_object_form_still_reads() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/ssdbase-bench-0.1.0_cache_throttled-loop-256MiB.json"
        ))
        .unwrap();
        let body: serde_json::Value = serde_json::from_str(&text).unwrap();
        let written = &body["result"]["over_time"][0]["points"];
        assert!(written[0].is_object(), "the file has the object form: {}", written[0]);
        let points: Vec<TimePoint> = serde_json::from_value(written.clone()).unwrap();
        for (p, o) in points.iter().zip(written.as_array().unwrap()) {
            assert_eq!(
                (Some(p.secs), Some(p.bytes), Some(p.mbps), p.iops),
                (o["secs"].as_f64(), o["bytes"].as_u64(), o["mbps"].as_f64(), o["iops"].as_f64())
            );
            let row = serde_json::to_value(p).unwrap();
            assert_eq!(row, serde_json::json!([o["secs"], o["bytes"], o["mbps"], o["iops"]]));
            assert_eq!(serde_json::from_value::<TimePoint>(row).unwrap(), *p);
        }
        let without = TimePoint { iops: None, ..points[1] };
        let row = serde_json::to_string(&without).unwrap();
        assert_eq!(row.matches(',').count(), 2, "{row}");
        assert_eq!(serde_json::from_str::<TimePoint>(&row).unwrap(), without);
        assert!(serde_json::from_str::<TimePoint>("[1.0, 2]").is_err());
        assert!(serde_json::from_str::<TimePoint>("[1.0, 2, 3.0, 4.0, 5.0]").is_err());
    }

    #[test]
    fn links_have_short_ids() {
        assert_eq!(Link::Sata { gbps: 6.0 }.id(), "sata-6");
        assert_eq!(Link::Sata { gbps: 1.5 }.id(), "sata-1.5");
        assert_eq!(Link::Pcie { gen: 2, lanes: 1 }.id(), "pcie-2-x1");
    }
}
