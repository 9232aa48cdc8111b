//! fio JSON, ORION, AS SSD and HD Tune: the real samples in `shared/corpus/real` with
//! values read by hand from each file, plus synthetic inputs for what the samples do
//! not show (several jobs, group reporting, several summaries, IOPS mode, decimal
//! commas, HD Tune Pro, broken and truncated input).

use bench::text::Document;
use bench::{
    parse_bytes, parse_document, parse_str, Access, BenchResult, Format, Metric, Op, ParseError, Stat, Tool,
};
mod common;

use common::corpus;
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------

/// One expected metric, every field spelled out.
struct M {
    label: &'static str,
    access: Access,
    block: u64,
    qd: u32,
    threads: u32,
    op: Op,
    mbps: Option<f64>,
    iops: Option<f64>,
    lat_us: Option<f64>,
    mix: Option<u8>,
    stat: Option<Stat>,
}

/// A metric with its test parameters and no values yet.
fn m(label: &'static str, access: Access, block: u64, qd: u32, threads: u32, op: Op) -> M {
    M { label, access, block, qd, threads, op, mbps: None, iops: None, lat_us: None, mix: None, stat: None }
}

impl M {
    fn mbps(self, v: f64) -> M {
        M { mbps: Some(v), ..self }
    }
    fn iops(self, v: f64) -> M {
        M { iops: Some(v), ..self }
    }
    fn lat(self, us: f64) -> M {
        M { lat_us: Some(us), ..self }
    }
    fn mix(self, read_percent: u8) -> M {
        M { mix: Some(read_percent), ..self }
    }
    fn stat(self, s: Stat) -> M {
        M { stat: Some(s), ..self }
    }
}

/// One expected result.
struct R {
    tool: Tool,
    version: Option<&'static str>,
    profile: Option<&'static str>,
    date: Option<&'static str>,
    target: Option<&'static str>,
    comment: Option<&'static str>,
    test_size: Option<u64>,
    not_run: &'static [&'static str],
    metrics: Vec<M>,
}

fn r(tool: Tool) -> R {
    R {
        tool,
        version: None,
        profile: None,
        date: None,
        target: None,
        comment: None,
        test_size: None,
        not_run: &[],
        metrics: Vec::new(),
    }
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * 1024 * 1024;

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0),
        _ => false,
    }
}

fn check_metric(ctx: &str, got: &Metric, want: &M) {
    let ctx = format!("{ctx}, metric {:?}", want.label);
    assert_eq!(got.label, want.label, "{ctx}: label");
    assert_eq!(got.access, want.access, "{ctx}: access");
    assert_eq!(got.block_size, want.block, "{ctx}: block size");
    assert_eq!(got.queue_depth, want.qd, "{ctx}: queue depth");
    assert_eq!(got.threads, want.threads, "{ctx}: threads");
    assert_eq!(got.op, want.op, "{ctx}: op");
    assert!(close(got.mbps, want.mbps), "{ctx}: mbps {:?} != {:?}", got.mbps, want.mbps);
    assert!(close(got.iops, want.iops), "{ctx}: iops {:?} != {:?}", got.iops, want.iops);
    assert!(close(got.latency_us, want.lat_us), "{ctx}: latency {:?} != {:?}", got.latency_us, want.lat_us);
    assert_eq!(got.mix_read_percent, want.mix, "{ctx}: mix read percent");
    assert_eq!(got.stat, want.stat, "{ctx}: stat");
}

fn check_results(ctx: &str, got: &[BenchResult], want: &[R]) {
    assert_eq!(got.len(), want.len(), "{ctx}: number of results: {got:#?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ctx = format!("{ctx}, result {i}");
        assert_eq!(g.tool, w.tool, "{ctx}: tool");
        assert_eq!(g.tool_version.as_deref(), w.version, "{ctx}: tool version");
        assert_eq!(g.profile.as_deref(), w.profile, "{ctx}: profile");
        assert_eq!(g.date.as_deref(), w.date, "{ctx}: date");
        assert_eq!(g.target.as_deref(), w.target, "{ctx}: target");
        assert_eq!(g.comment.as_deref(), w.comment, "{ctx}: comment");
        assert_eq!(g.test_size_bytes, w.test_size, "{ctx}: test size");
        assert_eq!(g.not_run, w.not_run, "{ctx}: not run");
        assert_eq!(g.passes, None, "{ctx}: passes");
        assert_eq!(g.os, None, "{ctx}: os");
        let labels: Vec<&str> = g.metrics.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(g.metrics.len(), w.metrics.len(), "{ctx}: metrics {labels:?}");
        for (gm, wm) in g.metrics.iter().zip(&w.metrics) {
            check_metric(&ctx, gm, wm);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The real samples
// ---------------------------------------------------------------------------------------

/// Every file of the four formats, with the results read by hand from its text.
fn corpus_expectations() -> Vec<(&'static str, Format, Vec<R>)> {
    use Access::{Rnd, Seq};
    use Op::{Read, Write};
    vec![
        (
            // json,normal: 3 lines of text, the JSON object, fio's text report.
            "fio/01__unknown_id64433026118__fio-3.42_json+normal_cbt_randwrite_qd1_nvme.txt",
            Format::FioJson,
            vec![R {
                version: Some("fio-3.42-6-g219f"),
                // timestamp 1783516072; "time" shows 09:07:52 local (UTC-4).
                date: Some("2026-07-08T13:07:52Z"),
                // No filename option: the device from disk_util.
                target: Some("nvme8n13"),
                comment: Some("ioengine=libaio, direct=1"),
                metrics: vec![
                    // rw=randwrite, bs=4096B, iodepth=1, numjobs=1; bw_bytes 5096143,
                    // iops 1244.175582, lat_ns mean 800770.079563. read/trim are zero.
                    m("/dev/nvme8n13 write", Rnd, 4096, 1, 1, Write)
                        .mbps(5.096143)
                        .iops(1244.175582)
                        .lat(800.770079563),
                ],
                ..r(Tool::Fio)
            }],
        ),
        (
            "orion/01__unknown_id10910067870__11.1.0.7.0_summary_run_simple_vdc.txt",
            Format::Orion,
            vec![R {
                version: Some("11.1.0.7.0"),
                profile: Some("simple"),
                target: Some("/dev/vdc"),
                metrics: vec![
                    // Large IO size 1024 KB, "Large Random IOs", Write: 0%.
                    m("Maximum Large MBPS", Rnd, MIB, 2, 1, Read).mbps(255.88),
                    // Small IO size 8 KB.
                    m("Maximum Small IOPS", Rnd, 8 * KIB, 5, 1, Read).iops(14741.0),
                    // 11g: 0.33 ms without a unit.
                    m("Minimum Small Latency", Rnd, 8 * KIB, 4, 1, Read).lat(330.0),
                ],
                ..r(Tool::Orion)
            }],
        ),
        (
            "asssd/01__unknown_id14171726121__2.0.7316_samsung970evoplus_mbps.txt",
            Format::AsSsd,
            vec![R {
                version: Some("2.0.7316.34247"),
                date: Some("2024/11/28 14:18:03"),
                target: Some("Samsung SSD 970 EVO Plus 250GB (1B2QEXM7, stornvme, 232.88 GB)"),
                comment: Some("Score: Read 1126, Write 1368, Total 3046"),
                metrics: vec![
                    m("Sequential Read", Seq, 16 * MIB, 1, 1, Read).mbps(2863.65),
                    m("Sequential Write", Seq, 16 * MIB, 1, 1, Write).mbps(2127.69),
                    m("4K Read", Rnd, 4 * KIB, 1, 1, Read).mbps(49.57),
                    m("4K Write", Rnd, 4 * KIB, 1, 1, Write).mbps(89.19),
                    m("4K-64Threads Read", Rnd, 4 * KIB, 1, 64, Read).mbps(790.21),
                    m("4K-64Threads Write", Rnd, 4 * KIB, 1, 64, Write).mbps(1066.48),
                    m("Access Times Read", Rnd, 4 * KIB, 1, 1, Read).lat(90.0).stat(Stat::Access),
                    m("Access Times Write", Rnd, 512, 1, 1, Write).lat(46.0).stat(Stat::Access),
                ],
                ..r(Tool::AsSsd)
            }],
        ),
        (
            "hdtune/01__unknown_id33227735827__hdtune_free_840evo.txt",
            Format::HdTune,
            vec![R {
                target: Some("Samsung SSD 840 EVO 120G"),
                comment: Some("CPU Usage: 27.2%"),
                metrics: vec![
                    m("Transfer Rate Minimum", Seq, 64 * KIB, 1, 1, Read).mbps(1.0).stat(Stat::Min),
                    m("Transfer Rate Maximum", Seq, 64 * KIB, 1, 1, Read).mbps(449.1).stat(Stat::Max),
                    m("Transfer Rate Average", Seq, 64 * KIB, 1, 1, Read).mbps(308.1).stat(Stat::Avg),
                    m("Access Time", Rnd, 512, 1, 1, Read).lat(400.0),
                    m("Burst Rate", Seq, 64 * KIB, 1, 1, Read).mbps(196.7).stat(Stat::Burst),
                ],
                ..r(Tool::HdTune)
            }],
        ),
    ]
}

#[test]
fn real_samples_parse_to_the_values_in_their_text() {
    let dir = corpus();
    let expectations = corpus_expectations();
    let mut seen = Vec::new();
    for sub in ["fio", "orion", "asssd", "hdtune"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(sub).display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for path in files {
            let name = format!("{sub}/{}", path.file_name().unwrap().to_string_lossy());
            let Some((_, format, want)) = expectations.iter().find(|(f, _, _)| *f == name) else {
                panic!(
                    "{name}: new corpus file without hand-read expectations; add it to corpus_expectations()"
                );
            };
            let bytes = std::fs::read(&path).unwrap();
            let doc = Document::from_bytes(&bytes);
            assert_eq!(bench::detect(&doc), Some(*format), "{name}: detected format");
            let got = parse_bytes(&bytes, None).unwrap_or_else(|e| panic!("{name}: {e}"));
            check_results(&name, &got, want);
            // Parsing with the format given says the same.
            assert_eq!(parse_bytes(&bytes, Some(*format)).unwrap(), got, "{name}");
            seen.push(name);
        }
    }
    for (name, _, _) in &expectations {
        assert!(seen.iter().any(|s| s == name), "{name}: expected corpus file is missing");
    }
}

// ---------------------------------------------------------------------------------------
// fio
// ---------------------------------------------------------------------------------------

/// A fio 3.x run with three jobs, in `json,normal` form: text before and after.
const FIO_THREE_JOBS: &str = r#"seqread: (g=0): rw=read, bs=(R) 1024KiB-1024KiB, ioengine=libaio, iodepth=8
randwrite: (g=1): rw=randwrite, bs=(W) 4096B-4096B, ioengine=libaio, iodepth=32
fio-3.36
Starting 3 processes
{
  "fio version" : "fio-3.36",
  "timestamp" : 1700000000,
  "time" : "Tue Nov 14 22:13:20 2023",
  "global options" : {
    "ioengine" : "libaio",
    "direct" : "1",
    "size" : "1G",
    "filename" : "/dev/nvme0n1",
    "runtime" : "30"
  },
  "jobs" : [
    {
      "jobname" : "seqread",
      "groupid" : 0,
      "job options" : { "name" : "seqread", "rw" : "read", "bs" : "1m", "iodepth" : "8" },
      "read" : { "io_bytes" : 99614720000, "bw_bytes" : 3320490666, "bw" : 3242666,
                 "iops" : 3166.666667,
                 "clat_ns" : { "mean" : 2520000.5, "N" : 95000,
                               "bins" : { "2506752" : 12000, "2539520" : 83000 } },
                 "lat_ns" : { "mean" : 2526000.25, "N" : 95000 } },
      "write" : { "io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0,
                  "lat_ns" : { "mean" : 0.0, "N" : 0 } },
      "trim" : { "io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0 }
    },
    {
      "jobname" : "randwrite",
      "groupid" : 1,
      "job options" : { "name" : "randwrite", "rw" : "randwrite", "bs" : "4k", "iodepth" : "32", "stonewall" : "" },
      "read" : { "io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0 },
      "write" : { "io_bytes" : 12582912000, "bw_bytes" : 419430400, "iops" : 102400.0,
                  "clat_ns" : { "mean" : 310000.0, "N" : 3072000 },
                  "lat_ns" : { "mean" : 312500.0, "N" : 3072000 } },
      "trim" : { "io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0 }
    },
    {
      "jobname" : "mixed",
      "groupid" : 2,
      "job options" : { "name" : "mixed", "rw" : "randrw", "rwmixread" : "70", "bs" : "4KiB", "iodepth" : "16", "stonewall" : "" },
      "read" : { "io_bytes" : 4404019200, "bw_bytes" : 146800640, "iops" : 35840.0,
                 "clat_ns" : { "mean" : 330000.0, "N" : 1075200 } },
      "write" : { "io_bytes" : 1887436800, "bw_bytes" : 62914560, "iops" : 15360.0,
                  "clat_ns" : { "mean" : 270000.0, "N" : 460800 } },
      "trim" : { "io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0 }
    }
  ],
  "disk_util" : [ { "name" : "nvme0n1", "util" : 99.0 } ]
}

seqread: (groupid=0, jobs=1): err= 0: pid=1000: Tue Nov 14 22:13:20 2023
  read: IOPS=3167, BW=3167MiB/s (3320MB/s)(92.8GiB/30001msec)
"#;

#[test]
fn fio_several_jobs_and_a_mixed_job() {
    use Access::{Rnd, Seq};
    use Op::{Read, Write};
    let got = parse_str(FIO_THREE_JOBS, None).unwrap();
    check_results(
        "fio three jobs",
        &got,
        &[R {
            version: Some("fio-3.36"),
            date: Some("2023-11-14T22:13:20Z"),
            target: Some("/dev/nvme0n1"),
            comment: Some("ioengine=libaio, direct=1"),
            test_size: Some(GIB),
            metrics: vec![
                // lat_ns is preferred over clat_ns.
                m("seqread read", Seq, MIB, 8, 1, Read).mbps(3320.490666).iops(3166.666667).lat(2526.00025),
                m("randwrite write", Rnd, 4 * KIB, 32, 1, Write).mbps(419.4304).iops(102400.0).lat(312.5),
                // No lat_ns: clat_ns.
                m("mixed read", Rnd, 4 * KIB, 16, 1, Read).mbps(146.80064).iops(35840.0).lat(330.0).mix(70),
                m("mixed write", Rnd, 4 * KIB, 16, 1, Write).mbps(62.91456).iops(15360.0).lat(270.0).mix(70),
            ],
            ..r(Tool::Fio)
        }],
    );
}

#[test]
fn fio_group_reporting_counts_numjobs_as_threads() {
    let text = r#"{
  "fio version" : "fio-3.28",
  "time" : "Mon Jan  3 10:00:00 2022",
  "global options" : { "rw" : "randread", "bs" : "4k,64k", "iodepth" : "32", "numjobs" : "4",
                       "group_reporting" : "", "rwmixwrite" : "30" },
  "jobs" : [
    { "jobname" : "4k-rr", "job options" : { "name" : "4k-rr" },
      "read" : { "io_bytes" : 4294967296, "bw_bytes" : 1431655765, "iops" : 349525.333,
                 "lat_ns" : { "mean" : 365.5, "N" : 1 } },
      "write" : { "io_bytes" : 0, "bw_bytes" : 0, "iops" : 0.0 } }
  ]
}"#;
    let got = parse_str(text, None).unwrap();
    check_results(
        "fio group_reporting",
        &got,
        &[R {
            version: Some("fio-3.28"),
            // No timestamp: the printed time, whitespace collapsed.
            date: Some("Mon Jan 3 10:00:00 2022"),
            metrics: vec![m("4k-rr read", Access::Rnd, 4 * KIB, 32, 4, Op::Read)
                .mbps(1431.655765)
                .iops(349525.333)
                .lat(0.3655)],
            ..r(Tool::Fio)
        }],
    );

    // The same job without group_reporting: each entry is one process.
    let without = text.replace("\"group_reporting\" : \"\", ", "");
    let got = parse_str(&without, None).unwrap();
    assert_eq!(got[0].metrics[0].threads, 1);

    // With a synchronous engine only one I/O is ever in flight.
    let sync = text.replace("\"iodepth\" : \"32\"", "\"iodepth\" : \"32\", \"ioengine\" : \"psync\"");
    let got = parse_str(&sync, None).unwrap();
    assert_eq!(got[0].metrics[0].queue_depth, 1);
    assert_eq!(got[0].comment.as_deref(), Some("ioengine=psync"));
}

#[test]
fn fio_2x_bandwidth_in_kib_and_latency_in_us() {
    let text = r#"{ "fio version" : "fio-2.2.10", "timestamp" : 1451606400,
  "jobs" : [ { "jobname" : "seq", "job options" : { "rw" : "write", "bs" : "128k", "size" : "4g" },
    "read" : { "io_bytes" : 0, "bw" : 0, "iops" : 0 },
    "write" : { "io_bytes" : 4194304, "bw" : 500000, "iops" : 3906.25,
                "clat" : { "mean" : 250.0 }, "lat" : { "mean" : 255.5 } } } ] }"#;
    let got = parse_str(text, None).unwrap();
    check_results(
        "fio 2.x",
        &got,
        &[R {
            version: Some("fio-2.2.10"),
            date: Some("2016-01-01T00:00:00Z"),
            test_size: Some(4 * GIB),
            metrics: vec![m("seq write", Access::Seq, 128 * KIB, 1, 1, Op::Write)
                .mbps(512.0)
                .iops(3906.25)
                .lat(255.5)],
            ..r(Tool::Fio)
        }],
    );
}

#[test]
fn fio_several_runs_in_one_paste() {
    let run = |name: &str, ts: u64| {
        format!(
            r#"{{ "fio version" : "fio-3.35", "timestamp" : {ts}, "jobs" : [ {{ "jobname" : "{name}",
  "job options" : {{ "rw" : "randread" }},
  "read" : {{ "io_bytes" : 1000, "bw_bytes" : 2000000, "iops" : 488.28 }} }} ] }}"#
        )
    };
    let text = format!("run 1\n{}\nrun 2\n{}\n", run("a", 0), run("b", 86400));
    let got = parse_str(&text, None).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].metrics[0].label, "a read");
    assert_eq!(got[1].metrics[0].label, "b read");
    assert_eq!(got[1].date.as_deref(), Some("1970-01-02T00:00:00Z"));
    // fio's defaults: bs=4k, iodepth=1.
    assert_eq!(got[0].metrics[0].block_size, 4096);
    assert_eq!(got[0].metrics[0].queue_depth, 1);
}

#[test]
fn fio_json_quoted_in_a_forum_post_is_read_from_the_cleaned_lines() {
    let quoted: String = FIO_THREE_JOBS.lines().map(|l| format!("> {l}\n")).collect();
    let got = parse_str(&quoted, None).unwrap();
    assert_eq!(got[0].metrics.len(), 4);
    assert_eq!(got[0].metrics[1].label, "randwrite write");
}

#[test]
fn fio_errors_say_where() {
    // (input, line the error must name, text the message must contain)
    let cases: &[(&str, Option<usize>, &str)] = &[
        // A missing comma on line 4.
        (
            "fio-3.36\n{\n  \"fio version\" : \"fio-3.36\",\n  \"jobs\" : [ { \"jobname\" : \"x\" \"read\" : {} } ]\n}\n",
            Some(4),
            "expected",
        ),
        // Cut off inside the object that starts on line 2.
        (
            "fio-3.36\n{\n  \"fio version\" : \"fio-3.36\",\n  \"jobs\" : [ { \"jobname\" : \"x\",\n",
            Some(5),
            "end of input",
        ),
        // Valid JSON, but no job did read or write I/O (only trim).
        (
            "{ \"fio version\" : \"fio-3.36\", \"jobs\" : [ { \"jobname\" : \"t\",\n \"job options\" : { \"rw\" : \"trim\" },\n \"read\" : { \"io_bytes\" : 0 }, \"write\" : { \"io_bytes\" : 0 }, \"trim\" : { \"io_bytes\" : 4096, \"iops\" : 10 } } ] }",
            Some(1),
            "without read or write I/O",
        ),
        ("{ \"fio version\" : \"fio-3.36\", \"jobs\" : [] }", Some(1), "no jobs"),
        // A wrong type for a field SSDBase reads.
        (
            "{ \"fio version\" : \"fio-3.36\",\n \"jobs\" : [ { \"jobname\" : \"x\",\n \"read\" : { \"iops\" : \"fast\" } } ] }",
            Some(3),
            "invalid type",
        ),
    ];
    for (input, line, needle) in cases {
        let err = parse_str(input, Some(Format::FioJson)).unwrap_err();
        assert_eq!(err.format, Some(Format::FioJson), "{input}");
        assert_eq!(err.line, *line, "{input}: {err}");
        assert!(err.to_string().contains(needle), "{input}: {err}");
    }
    let err = parse_str("no json here", Some(Format::FioJson)).unwrap_err();
    assert_eq!(err.format, Some(Format::FioJson));
}

// ---------------------------------------------------------------------------------------
// ORION
// ---------------------------------------------------------------------------------------

/// Two summary files pasted one after the other: 11.1 (ms latency without unit) and a
/// later one (sequential large streams, 100% writes, other sizes, usecs, two LUNs).
const ORION_TWO_SUMMARIES: &str = "ORION VERSION 11.1.0.7.0

Commandline:
-run simple

This maps to this test:
Test: orion
Small IO size: 8 KB
Large IO size: 1024 KB
IO Types: Small Random IOs, Large Random IOs
Simulated Array Type: CONCAT
Write: 0%
Cache Size: Not Entered
Duration for each Data Point: 60 seconds
Small Columns:,      0
Large Columns:,      0,      1,      2
Total Data Points: 8

Name: /dev/vdb\tSize: 21474836480
1 FILEs found.

Maximum Large MBPS=1554.54 @ Small=0 and Large=2
Maximum Small IOPS=19019 @ Small=5 and Large=0
Minimum Small Latency=0.26 @ Small=5 and Large=0

ORION VERSION 11.2.0.3.0

Command line:
-run advanced -testname seqw -num_disks 2 -type seq -write 100 -size_small 4 -size_large 512 -matrix basic

These options enable these settings:
Test: seqw
Small IO size: 4 KB
Large IO size: 512 KB
IO types: small random IOs, large sequential streams
Number of Concurrent IOs Per Stream: 4
Force streams to separate disks: No
Simulated array type: CONCAT
Write: 100%
Cache size: not specified
Duration for each data point: 60 seconds
Small Columns:,      0,      1,      2,      3,      4,      5,      6,      7,      8,      9,     10
Large Columns:,      0,      1,      2,      3,      4
Total Data Points: 21

Name: /dev/sdb\tSize: 107374182400
Name: /dev/sdc\tSize: 107374182400
2 files found.

Maximum Large MBPS=812.40 @ Small=0 and Large=4
Maximum Small IOPS=52311 @ Small=10 and Large=0
Minimum Small Latency=61.73 usecs @ Small=1 and Large=0
";

#[test]
fn orion_two_summaries_in_one_file() {
    use Access::{Rnd, Seq};
    let got = parse_str(ORION_TWO_SUMMARIES, None).unwrap();
    check_results(
        "orion two summaries",
        &got,
        &[
            R {
                version: Some("11.1.0.7.0"),
                profile: Some("simple"),
                target: Some("/dev/vdb"),
                metrics: vec![
                    m("Maximum Large MBPS", Rnd, MIB, 2, 1, Op::Read).mbps(1554.54),
                    // At the same point: one test's IOPS and latency, one metric.
                    m("Maximum Small IOPS / Minimum Small Latency", Rnd, 8 * KIB, 5, 1, Op::Read)
                        .iops(19019.0)
                        .lat(260.0),
                ],
                ..r(Tool::Orion)
            },
            R {
                version: Some("11.2.0.3.0"),
                profile: Some("advanced"),
                target: Some("/dev/sdb, /dev/sdc"),
                metrics: vec![
                    m("Maximum Large MBPS", Seq, 512 * KIB, 4, 1, Op::Write).mbps(812.40),
                    m("Maximum Small IOPS", Rnd, 4 * KIB, 10, 1, Op::Write).iops(52311.0),
                    m("Minimum Small Latency", Rnd, 4 * KIB, 1, 1, Op::Write).lat(61.73),
                ],
                ..r(Tool::Orion)
            },
        ],
    );
}

/// ORION 12c+ console output: the command, a version banner, the run stamp, results
/// with detail latency lines; a mixed OLTP run follows.
const ORION_CONSOLE: &str = "$ orion -run simple -testname mytest -hugenotneeded
ORION: ORacle IO Numbers -- Version RDBMS_19.3.0.0.0DBRU_LINUX.X64_190417
mytest_20211113_1809
Calibration will take approximately 44 minutes.
Using a large value for -cache_size may take longer.

Setting ftype=0
Maximum Large MBPS=1571.33 @ Small=0 and Large=5

Maximum Small IOPS=58778 @ Small=10 and Large=0
Small Read Latency: avg=169.594 us, min=128.415 us, max=1924.721 us, std dev=13.566 us @ Small=10 and Large=0

Minimum Small Latency=97.677 usecs @ Small=2 and Large=0
Small Read Latency: avg=97.677 us, min=63.652 us, max=2133.198 us, std dev=47.348 us @ Small=2 and Large=0
Small Read / Write Latency Histogram @ Small=2 and Large=0
        Latency:                         # of IOs (read)          # of IOs (write)
        0 - 32         us:               0 (  0.00%)              0 (  0.00%)
$ orion -run oltp -write 50 -testname test1-4 -num_disks 4 -hugenotneeded
ORION: ORacle IO Numbers -- Version 12.2.0.1.0
Maximum Small IOPS=918 @ Small=68 and Large=0
Small Read Latency: avg=74069.660 us, min=62642.274 us, max=180620.254 us, std dev=12263.553 us @ Small=68 and Large=0
Small Write Latency: avg=73935.104 us, min=62631.574 us, max=187240.852 us, std dev=12174.669 us @ Small=68 and Large=0
Minimum Small Latency=4409.929 usecs @ Small=4 and Large=0
";

#[test]
fn orion_console_output_of_later_versions() {
    use Access::Rnd;
    let got = parse_str(ORION_CONSOLE, None).unwrap();
    check_results(
        "orion console",
        &got,
        &[
            R {
                version: Some("RDBMS_19.3.0.0.0DBRU_LINUX.X64_190417"),
                profile: Some("simple"),
                date: Some("2021-11-13 18:09"),
                metrics: vec![
                    // No size lines: ORION's defaults (1 MiB large, 8 KiB small, random).
                    m("Maximum Large MBPS", Rnd, MIB, 5, 1, Op::Read).mbps(1571.33),
                    // The detail line at the same point gives the IOPS run's latency.
                    m("Maximum Small IOPS", Rnd, 8 * KIB, 10, 1, Op::Read).iops(58778.0).lat(169.594),
                    m("Minimum Small Latency", Rnd, 8 * KIB, 2, 1, Op::Read).lat(97.677),
                ],
                ..r(Tool::Orion)
            },
            R {
                version: Some("12.2.0.1.0"),
                profile: Some("oltp"),
                metrics: vec![
                    // -write 50: a 50/50 mix; no single latency for the IOPS point.
                    m("Maximum Small IOPS", Rnd, 8 * KIB, 68, 1, Op::Mix).iops(918.0).mix(50),
                    m("Minimum Small Latency", Rnd, 8 * KIB, 4, 1, Op::Mix).lat(4409.929).mix(50),
                ],
                ..r(Tool::Orion)
            },
        ],
    );
}

#[test]
fn orion_errors_say_where() {
    let cases: &[(&str, Option<usize>)] = &[
        ("ORION VERSION 11.1.0.7.0\n\nMaximum Large MBPS=fast @ Small=0 and Large=2\n", Some(3)),
        ("ORION VERSION 11.1.0.7.0\nMaximum Small IOPS=14741 @ Sm", Some(2)),
        ("ORION VERSION 11.1.0.7.0\nMinimum Small Latency=0.33 parsecs @ Small=4 and Large=0\n", Some(2)),
        // A summary cut off before its results.
        ("\nORION VERSION 11.1.0.7.0\nCommandline:\n-run simple\n", Some(2)),
    ];
    for (input, line) in cases {
        let err = parse_str(input, None).unwrap_err();
        assert_eq!(err.format, Some(Format::Orion), "{input}: {err}");
        assert_eq!(err.line, *line, "{input}: {err}");
    }
}

// ---------------------------------------------------------------------------------------
// AS SSD
// ---------------------------------------------------------------------------------------

/// AS SSD 1.x in IOPS mode (`4K-64Thrd`, `Acc.time`), then a second drive.
const ASSSD_IOPS_TWO_DRIVES: &str = "AS SSD Benchmark 1.9.5986.35387
------------------------------
Name: INTEL SSDSA2CW120G3
Firmware: 4PC10362
Controller: iaStorA
Offset: 1024 K - OK
Size: 111.79 GB
Date: 2016-05-01 20:11:44
------------------------------
Sequential:
------------------------------
Read: 267.86 MB/s
Write: 129.39 MB/s
------------------------------
4K:
------------------------------
Read: 5419 iops
Write: 15517 iops
------------------------------
4K-64Thrd:
------------------------------
Read: 45221 iops
Write: 31002 iops
------------------------------
Acc.time:
------------------------------
Read: 0.087 ms
Write: 0.063 ms
------------------------------
Score:
------------------------------
Read: 317
Write: 321
Total: 788
------------------------------

Name: KINGSTON SNVS1000GB
Size: 931.51 GB
Sequential:
Read: 2107.11 MB/s
Write: 0.00 MB/s
";

#[test]
fn asssd_iops_mode_and_two_drives() {
    use Access::{Rnd, Seq};
    use Op::{Read, Write};
    let got = parse_str(ASSSD_IOPS_TWO_DRIVES, None).unwrap();
    check_results(
        "AS SSD IOPS mode",
        &got,
        &[
            R {
                version: Some("1.9.5986.35387"),
                date: Some("2016-05-01 20:11:44"),
                target: Some("INTEL SSDSA2CW120G3 (4PC10362, iaStorA, 111.79 GB)"),
                comment: Some("Score: Read 317, Write 321, Total 788"),
                metrics: vec![
                    m("Sequential Read", Seq, 16 * MIB, 1, 1, Read).mbps(267.86),
                    m("Sequential Write", Seq, 16 * MIB, 1, 1, Write).mbps(129.39),
                    m("4K Read", Rnd, 4 * KIB, 1, 1, Read).iops(5419.0),
                    m("4K Write", Rnd, 4 * KIB, 1, 1, Write).iops(15517.0),
                    m("4K-64Thrd Read", Rnd, 4 * KIB, 1, 64, Read).iops(45221.0),
                    m("4K-64Thrd Write", Rnd, 4 * KIB, 1, 64, Write).iops(31002.0),
                    m("Acc.time Read", Rnd, 4 * KIB, 1, 1, Read).lat(87.0).stat(Stat::Access),
                    m("Acc.time Write", Rnd, 512, 1, 1, Write).lat(63.0).stat(Stat::Access),
                ],
                ..r(Tool::AsSsd)
            },
            R {
                // The second drive shares the paste's title.
                version: Some("1.9.5986.35387"),
                target: Some("KINGSTON SNVS1000GB (931.51 GB)"),
                not_run: &["Sequential Write"],
                metrics: vec![m("Sequential Read", Seq, 16 * MIB, 1, 1, Read).mbps(2107.11)],
                ..r(Tool::AsSsd)
            },
        ],
    );
}

#[test]
fn asssd_decimal_commas_and_german_labels() {
    use Access::{Rnd, Seq};
    use Op::{Read, Write};
    let text = "AS SSD Benchmark 2.0.7316.34247
Name: Samsung SSD 860 EVO 500GB
Firmware: RVT04B6Q
Controller: storahci
Offset: 1024 K - OK
Größe: 465,76 GB
Datum: 28.11.2024 14:18:03
Sequentiell:
Lesen: 2863,65 MB/s
Schreiben: 2127,69 MB/s
4K:
Lesen: 49,57 MB/s
Schreiben: 89,19 MB/s
4K-64Thrd:
Lesen: 1.090,21 MB/s
Schreiben: 1066,48 MB/s
Zugriffszeit:
Lesen: 0,090 ms
Schreiben: 0,046 ms
Ergebnis:
Lesen: 1126
Schreiben: 1368
Gesamt: 3046
";
    let got = parse_bytes(text.as_bytes(), None).unwrap();
    check_results(
        "AS SSD decimal comma",
        &got,
        &[R {
            version: Some("2.0.7316.34247"),
            date: Some("28.11.2024 14:18:03"),
            target: Some("Samsung SSD 860 EVO 500GB (RVT04B6Q, storahci, 465,76 GB)"),
            comment: Some("Score: Lesen 1126, Schreiben 1368, Gesamt 3046"),
            metrics: vec![
                m("Sequentiell Lesen", Seq, 16 * MIB, 1, 1, Read).mbps(2863.65),
                m("Sequentiell Schreiben", Seq, 16 * MIB, 1, 1, Write).mbps(2127.69),
                m("4K Lesen", Rnd, 4 * KIB, 1, 1, Read).mbps(49.57),
                m("4K Schreiben", Rnd, 4 * KIB, 1, 1, Write).mbps(89.19),
                m("4K-64Thrd Lesen", Rnd, 4 * KIB, 1, 64, Read).mbps(1090.21),
                m("4K-64Thrd Schreiben", Rnd, 4 * KIB, 1, 64, Write).mbps(1066.48),
                // `0,090` is 0.09 ms here, not 90.
                m("Zugriffszeit Lesen", Rnd, 4 * KIB, 1, 1, Read).lat(90.0).stat(Stat::Access),
                m("Zugriffszeit Schreiben", Rnd, 512, 1, 1, Write).lat(46.0).stat(Stat::Access),
            ],
            ..r(Tool::AsSsd)
        }],
    );
}

#[test]
fn asssd_errors_say_where() {
    let cases: &[(&str, Option<usize>)] = &[
        ("AS SSD Benchmark 2.0\nSequential:\nRead: fast MB/s\n", Some(3)),
        ("AS SSD Benchmark 2.0\nSequential:\nRead: 12.5 furlongs\n", Some(3)),
        ("AS SSD Benchmark 2.0\nName: X\nFirmware: Y\n", Some(1)),
        // Scores alone are not measurements.
        ("AS SSD Benchmark 2.0\nScore:\nRead: 1126\nTotal: 3046\n", Some(1)),
    ];
    for (input, line) in cases {
        let err = parse_str(input, None).unwrap_err();
        assert_eq!(err.format, Some(Format::AsSsd), "{input}: {err}");
        assert_eq!(err.line, *line, "{input}: {err}");
    }
}

// ---------------------------------------------------------------------------------------
// HD Tune
// ---------------------------------------------------------------------------------------

#[test]
fn hdtune_pro_read_and_write_runs() {
    use Access::{Rnd, Seq};
    use Op::{Read, Write};
    let text = "HD Tune Pro 5.75 - Hard Disk/SSD Utility

HD Tune Pro: WDC WD10EZEX-00BN5A0 Benchmark

Test capacity: full
Block size : 512 KB

Read transfer rate
Transfer Rate Minimum : 0,1 MB/s
Transfer Rate Maximum : 203,4 MB/s
Transfer Rate Average : 151,9 MB/s
Access Time           : 13,2 ms
Burst Rate            : 172,5 MB/s
CPU Usage             : 1,2%

Write transfer rate
Transfer Rate Minimum : 35,6 MB/s
Transfer Rate Maximum : 199,1 MB/s
Transfer Rate Average : 148,0 MB/s
Access Time           : 0,0 ms
Burst Rate            : 152,3 MB/s
CPU Usage             : 1,5%
";
    let got = parse_str(text, None).unwrap();
    let block = 512 * KIB;
    check_results(
        "HD Tune Pro",
        &got,
        &[
            R {
                version: Some("Pro 5.75"),
                target: Some("WDC WD10EZEX-00BN5A0"),
                comment: Some("CPU Usage: 1,2%"),
                metrics: vec![
                    m("Transfer Rate Minimum", Seq, block, 1, 1, Read).mbps(0.1).stat(Stat::Min),
                    m("Transfer Rate Maximum", Seq, block, 1, 1, Read).mbps(203.4).stat(Stat::Max),
                    m("Transfer Rate Average", Seq, block, 1, 1, Read).mbps(151.9).stat(Stat::Avg),
                    m("Access Time", Rnd, 512, 1, 1, Read).lat(13200.0),
                    m("Burst Rate", Seq, block, 1, 1, Read).mbps(172.5).stat(Stat::Burst),
                ],
                ..r(Tool::HdTune)
            },
            R {
                version: Some("Pro 5.75"),
                target: Some("WDC WD10EZEX-00BN5A0"),
                comment: Some("CPU Usage: 1,5%"),
                not_run: &["Access Time"],
                metrics: vec![
                    m("Transfer Rate Minimum", Seq, block, 1, 1, Write).mbps(35.6).stat(Stat::Min),
                    m("Transfer Rate Maximum", Seq, block, 1, 1, Write).mbps(199.1).stat(Stat::Max),
                    m("Transfer Rate Average", Seq, block, 1, 1, Write).mbps(148.0).stat(Stat::Avg),
                    m("Burst Rate", Seq, block, 1, 1, Write).mbps(152.3).stat(Stat::Burst),
                ],
                ..r(Tool::HdTune)
            },
        ],
    );
}

#[test]
fn hdtune_two_drives_and_title_without_version() {
    let text = "HD Tune Pro: ST2000DM001 Benchmark
Transfer Rate Average : 150.2 MB/s
HD Tune: Samsung SSD 850 EVO Benchmark
Transfer Rate Average : 481.7 MB/sec
Access Time : 0.048 ms
";
    let got = parse_str(text, None).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].tool_version.as_deref(), Some("Pro"));
    assert_eq!(got[0].target.as_deref(), Some("ST2000DM001"));
    assert_eq!(got[1].tool_version, None);
    assert_eq!(got[1].target.as_deref(), Some("Samsung SSD 850 EVO"));
    assert!(close(got[1].metrics[1].latency_us, Some(48.0)));
}

#[test]
fn hdtune_direction_headings_split_runs() {
    let text = "HD Tune Pro: Samsung SSD 850 EVO Benchmark
Read
Transfer Rate Average : 481.7 MB/s
Write
Transfer Rate Average : 455.0 MB/s
Burst Rate : 210.3 MB/s
";
    let got = parse_str(text, None).unwrap();
    let ops: Vec<Vec<(Op, &str)>> =
        got.iter().map(|r| r.metrics.iter().map(|m| (m.op, m.label.as_str())).collect()).collect();
    assert_eq!(
        ops,
        vec![
            vec![(Op::Read, "Transfer Rate Average")],
            vec![(Op::Write, "Transfer Rate Average"), (Op::Write, "Burst Rate")],
        ]
    );
    assert!(got.iter().all(|r| r.target.as_deref() == Some("Samsung SSD 850 EVO")));
}

#[test]
fn hdtune_errors_say_where() {
    let cases: &[(&str, Option<usize>)] = &[
        ("HD Tune: X Benchmark\nTransfer Rate Minimum : fast MB/sec\n", Some(2)),
        ("HD Tune: X Benchmark\nTransfer Rate Minimum : 12 furlongs\n", Some(2)),
        ("HD Tune: X Benchmark\nAccess Time :\n", Some(2)),
        ("HD Tune: X Benchmark\n", Some(1)),
    ];
    for (input, line) in cases {
        let err = parse_str(input, None).unwrap_err();
        assert_eq!(err.format, Some(Format::HdTune), "{input}: {err}");
        assert_eq!(err.line, *line, "{input}: {err}");
    }
}

// ---------------------------------------------------------------------------------------
// Robustness
// ---------------------------------------------------------------------------------------

/// Every prefix (and a few mangled variants) of every input of this file must parse or
/// fail with an error: never panic.
#[test]
fn truncated_and_mangled_inputs_never_panic() {
    let dir = corpus();
    let mut inputs: Vec<(String, String)> = vec![
        ("fio three jobs".into(), FIO_THREE_JOBS.into()),
        ("orion two".into(), ORION_TWO_SUMMARIES.into()),
        ("orion console".into(), ORION_CONSOLE.into()),
        ("asssd iops".into(), ASSSD_IOPS_TWO_DRIVES.into()),
    ];
    for sub in ["fio", "orion", "asssd", "hdtune"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            inputs.push((path.display().to_string(), String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    for (name, text) in &inputs {
        let formats =
            [None, Some(Format::FioJson), Some(Format::Orion), Some(Format::AsSsd), Some(Format::HdTune)];
        let step = (text.len() / 300).max(1);
        let cuts = (0..text.len()).step_by(step).filter(|&i| text.is_char_boundary(i));
        for cut in cuts {
            let doc = Document::from_text(text[..cut].to_string());
            for format in formats {
                let _ = parse_document(&doc, format);
            }
        }
        // Mangled: digits replaced, separators removed, lines doubled.
        for mangled in [
            text.replace(|c: char| c.is_ascii_digit(), "9"),
            text.replace(['=', ':', '@'], ""),
            text.replace('\n', "\n\n"),
            text.replace(' ', ""),
        ] {
            let doc = Document::from_text(mangled);
            for format in formats {
                let _ = parse_document(&doc, format);
            }
        }
        let _ = name;
    }
}

#[test]
fn a_cut_off_fio_object_is_an_error_with_a_line() {
    let path =
        corpus().join("fio/01__unknown_id64433026118__fio-3.42_json+normal_cbt_randwrite_qd1_nvme.txt");
    let text = std::fs::read_to_string(path).unwrap();
    // Cut in the middle of the write section (the object starts on line 4).
    let cut = text.find("\"slat_ns\"").unwrap() + 2000;
    let err: ParseError = parse_str(&text[..cut], None).unwrap_err();
    assert_eq!(err.format, Some(Format::FioJson));
    assert!(err.line.is_some_and(|l| l > 4), "{err}");
    assert!(err.to_string().contains("end of input"), "{err}");
}
