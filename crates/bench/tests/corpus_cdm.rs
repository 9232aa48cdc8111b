//! CrystalDiskMark and KDiskMark: every real sample of the corpus, parsed through format
//! auto-detection, against values read by hand from the files; then synthetic exports of
//! the layouts FORMATS.md describes but the corpus has no sample of.

use bench::{parse_bytes, parse_str, Access, BenchResult, DataPattern, Format, Op, Tool};
mod common;

use common::corpus;

const SEQ: Access = Access::Seq;
const RND: Access = Access::Rnd;
const RD: Op = Op::Read;
const WR: Op = Op::Write;
const MX: Op = Op::Mix;
const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * 1024 * 1024;
const CDM: Tool = Tool::CrystalDiskMark;
const KDM: Tool = Tool::KDiskMark;
const RANDOM: Option<DataPattern> = Some(DataPattern::Random);

fn read(rel: &str) -> Vec<u8> {
    let path = corpus().join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(rel: &str) -> String {
    String::from_utf8(read(rel)).expect("corpus files are UTF-8")
}

/// label, access, block size, QD, threads, op, MB/s, IOPS, latency µs.
type Row = (&'static str, Access, u64, u32, u32, Op, f64, Option<f64>, Option<f64>);

/// What a result must hold. `mix` is the read share expected on every Mix row.
struct Expect {
    tool: Tool,
    version: Option<&'static str>,
    profile: Option<&'static str>,
    size: Option<u64>,
    passes: Option<u32>,
    pattern: Option<DataPattern>,
    date: Option<&'static str>,
    os: Option<&'static str>,
    comment: Option<&'static str>,
    target: Option<&'static str>,
    engine: Option<&'static str>,
    not_run: &'static [&'static str],
    mix: Option<u8>,
    rows: &'static [Row],
}

#[rustfmt::skip]
const NONE: Expect = Expect {
    tool: CDM,
    version: None,
    profile: None,
    size: None,
    passes: None,
    pattern: None,
    date: None,
    os: None,
    comment: None,
    target: None,
    engine: None,
    not_run: &[],
    mix: None,
    rows: &[],
};

fn check(what: &str, r: &BenchResult, e: &Expect) {
    assert_eq!(r.tool, e.tool, "{what}: tool");
    assert_eq!(r.tool_version.as_deref(), e.version, "{what}: version");
    assert_eq!(r.profile.as_deref(), e.profile, "{what}: profile");
    assert_eq!(r.test_size_bytes, e.size, "{what}: test size");
    assert_eq!(r.passes, e.passes, "{what}: passes");
    assert_eq!(r.data_pattern, e.pattern, "{what}: data pattern");
    assert_eq!(r.date.as_deref(), e.date, "{what}: date");
    assert_eq!(r.os.as_deref(), e.os, "{what}: os");
    assert_eq!(r.comment.as_deref(), e.comment, "{what}: comment");
    assert_eq!(r.target.as_deref(), e.target, "{what}: target");
    assert_eq!(r.engine.as_deref(), e.engine, "{what}: engine");
    assert_eq!(r.not_run, e.not_run, "{what}: not_run");
    let labels: Vec<&str> = r.metrics.iter().map(|m| m.label.as_str()).collect();
    let want: Vec<&str> = e.rows.iter().map(|row| row.0).collect();
    assert_eq!(labels, want, "{what}: labels");
    for (m, &(label, access, bs, qd, t, op, mbps, iops, lat)) in r.metrics.iter().zip(e.rows) {
        let at = format!("{what}: {label}");
        assert_eq!(m.access, access, "{at}: access");
        assert_eq!(m.block_size, bs, "{at}: block size");
        assert_eq!(m.queue_depth, qd, "{at}: queue depth");
        assert_eq!(m.threads, t, "{at}: threads");
        assert_eq!(m.op, op, "{at}: op");
        assert_eq!(m.mbps, Some(mbps), "{at}: MB/s");
        assert_eq!(m.iops, iops, "{at}: IOPS");
        assert_eq!(m.latency_us, lat, "{at}: latency");
        let mix = if op == MX { e.mix } else { None };
        assert_eq!(m.mix_read_percent, mix, "{at}: mix read share");
        assert_eq!(m.stat, None, "{at}: stat");
    }
}

fn one(what: &str, results: Result<Vec<BenchResult>, bench::ParseError>, e: &Expect) {
    let results = results.unwrap_or_else(|err| panic!("{what}: {err}"));
    assert_eq!(results.len(), 1, "{what}: results");
    check(what, &results[0], e);
}

fn corpus_file(rel: &str, e: &Expect) {
    one(rel, parse_bytes(&read(rel), None), e);
}

// ---------------------------------------------------------------------------------------
// CrystalDiskMark 3.x
// ---------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn cdm3_01_full_export() {
    corpus_file(
        "cdm3/01__unknown_id20477005223__3.0.1_x64_prev_gen_pc_ssd.txt",
        &Expect {
            version: Some("3.0.1 x64"),
            size: Some(1000 * MIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2012/02/15 20:39:27"),
            os: Some("Windows 7 Ultimate Edition SP1 [6.1 Build 7601] (x64)"),
            target: Some("C: 33.0% (39.3/119.1 GB)"),
            rows: &[
                ("Sequential Read", SEQ, MIB, 1, 1, RD, 505.825, None, None),
                ("Sequential Write", SEQ, MIB, 1, 1, WR, 189.856, None, None),
                ("Random Read 512KB", RND, 512 * KIB, 1, 1, RD, 381.142, None, None),
                ("Random Write 512KB", RND, 512 * KIB, 1, 1, WR, 190.461, None, None),
                ("Random Read 4KB (QD=1)", RND, 4 * KIB, 1, 1, RD, 25.206, Some(6153.8), None),
                ("Random Write 4KB (QD=1)", RND, 4 * KIB, 1, 1, WR, 63.703, Some(15552.6), None),
                ("Random Read 4KB (QD=32)", RND, 4 * KIB, 32, 1, RD, 271.859, Some(66371.9), None),
                ("Random Write 4KB (QD=32)", RND, 4 * KIB, 32, 1, WR, 174.695, Some(42650.1), None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm3_04_blockquote_rows_only() {
    corpus_file(
        "cdm3/04__unknown_id4267296961__3.x_samsung850pro_blockquote_COLLAPSED.txt",
        &Expect {
            pattern: RANDOM,
            rows: &[
                ("Sequential Read", SEQ, MIB, 1, 1, RD, 520.557, None, None),
                ("Sequential Write", SEQ, MIB, 1, 1, WR, 489.836, None, None),
                ("Random Read 512KB", RND, 512 * KIB, 1, 1, RD, 407.993, None, None),
                ("Random Write 512KB", RND, 512 * KIB, 1, 1, WR, 465.648, None, None),
                ("Random Read 4KB (QD=1)", RND, 4 * KIB, 1, 1, RD, 24.216, Some(5912.1), None),
                ("Random Write 4KB (QD=1)", RND, 4 * KIB, 1, 1, WR, 71.216, Some(17386.7), None),
                ("Random Read 4KB (QD=32)", RND, 4 * KIB, 32, 1, RD, 398.378, Some(97260.3), None),
                ("Random Write 4KB (QD=32)", RND, 4 * KIB, 32, 1, WR, 331.571, Some(80950.0), None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm3_10_numbered_collapsed() {
    corpus_file(
        "cdm3/10__pastebin_nLyTADpy__3.0.3_x64_NUMBERED_COLLAPSED.txt",
        &Expect {
            version: Some("3.0.3 x64"),
            size: Some(1000 * MIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2014/05/16 20:34:15"),
            os: Some("Windows 7 Home Premium SP1 [6.1 Build 7601] (x64)"),
            target: Some("H: 85.2% (203.3/238.5 GB)"),
            rows: &[
                ("Sequential Read", SEQ, MIB, 1, 1, RD, 453.079, None, None),
                ("Sequential Write", SEQ, MIB, 1, 1, WR, 374.536, None, None),
                ("Random Read 512KB", RND, 512 * KIB, 1, 1, RD, 348.828, None, None),
                ("Random Write 512KB", RND, 512 * KIB, 1, 1, WR, 397.399, None, None),
                ("Random Read 4KB (QD=1)", RND, 4 * KIB, 1, 1, RD, 30.274, Some(7391.2), None),
                ("Random Write 4KB (QD=1)", RND, 4 * KIB, 1, 1, WR, 112.974, Some(27581.6), None),
                ("Random Read 4KB (QD=32)", RND, 4 * KIB, 32, 1, RD, 299.552, Some(73132.7), None),
                ("Random Write 4KB (QD=32)", RND, 4 * KIB, 32, 1, WR, 209.673, Some(51189.7), None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm3_13_list_prefix_hdd() {
    corpus_file(
        "cdm3/13__pastebin_XrkgJVUX__3.0.1_x64_hdd_LISTPREFIX_COLLAPSED.txt",
        &Expect {
            version: Some("3.0.1 x64"),
            size: Some(1000 * MIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2012/07/25 11:48:19"),
            os: Some("Windows 7 Ultimate Edition SP1 [6.1 Build 7601] (x64)"),
            target: Some("C: 16.0% (148.3/927.5 GB)"),
            rows: &[
                ("Sequential Read", SEQ, MIB, 1, 1, RD, 154.794, None, None),
                ("Sequential Write", SEQ, MIB, 1, 1, WR, 144.055, None, None),
                ("Random Read 512KB", RND, 512 * KIB, 1, 1, RD, 34.847, None, None),
                ("Random Write 512KB", RND, 512 * KIB, 1, 1, WR, 78.551, None, None),
                ("Random Read 4KB (QD=1)", RND, 4 * KIB, 1, 1, RD, 0.389, Some(95.0), None),
                ("Random Write 4KB (QD=1)", RND, 4 * KIB, 1, 1, WR, 1.172, Some(286.2), None),
                ("Random Read 4KB (QD=32)", RND, 4 * KIB, 32, 1, RD, 0.858, Some(209.5), None),
                ("Random Write 4KB (QD=32)", RND, 4 * KIB, 32, 1, WR, 1.378, Some(336.5), None),
            ],
            ..NONE
        },
    );
}

// ---------------------------------------------------------------------------------------
// CrystalDiskMark 5.x and 6.x
// ---------------------------------------------------------------------------------------

#[rustfmt::skip]
const CDM5_01: Expect = Expect {
    version: Some("5.2.0 x64"),
    size: Some(1024 * MIB),
    passes: Some(5),
    pattern: RANDOM,
    date: Some("2016/11/15 21:52:26"),
    os: Some("Windows 10 Professional [10.0 Build 14393] (x64)"),
    target: Some("E: 0.4% (26.4/7167.0 MiB)"),
    rows: &[
        ("Sequential Read (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, RD, 140.647, None, None),
        ("Sequential Write (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, WR, 89.082, None, None),
        ("Random Read 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, RD, 33.730, Some(8234.9), None),
        ("Random Write 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, WR, 15.586, Some(3805.2), None),
        ("Sequential Read (T= 1)", SEQ, MIB, 1, 1, RD, 156.034, None, None),
        ("Sequential Write (T= 1)", SEQ, MIB, 1, 1, WR, 96.884, None, None),
        ("Random Read 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, RD, 10.380, Some(2534.2), None),
        ("Random Write 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, WR, 15.317, Some(3739.5), None),
    ],
    ..NONE
};

#[test]
fn cdm5_01_comment_prefixed() {
    corpus_file("cdm5/01__unknown_id56221325514__5.2.0_comment_prefixed_amorphousdiskmark_src.txt", &CDM5_01);
}

#[test]
#[rustfmt::skip]
fn cdm5_04_only_sequential_ran() {
    corpus_file(
        "cdm5/04__pastebin_FJASyDpt__5.0.2_x86_seq_only_LISTPREFIX_COLLAPSED.txt",
        &Expect {
            version: Some("5.0.2"),
            size: Some(32768 * MIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2015/11/26 19:20:42"),
            os: Some("Windows 7 Professional [6.1 Build 7600] (x86)"),
            target: Some("F: 0.0% (0.1/2794.4 GiB)"),
            not_run: &[
                "Random Read 4KiB (Q= 32,T= 1)",
                "Random Write 4KiB (Q= 32,T= 1)",
                "Sequential Read (T= 1)",
                "Sequential Write (T= 1)",
                "Random Read 4KiB (Q= 1,T= 1)",
                "Random Write 4KiB (Q= 1,T= 1)",
            ],
            rows: &[
                ("Sequential Read (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, RD, 170.699, None, None),
                ("Sequential Write (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, WR, 143.125, None, None),
            ],
            ..NONE
        },
    );
}

#[rustfmt::skip]
const CDM6_01: Expect = Expect {
    version: Some("6.0.0 x64"),
    size: Some(1024 * MIB),
    passes: Some(5),
    pattern: RANDOM,
    date: Some("2019/04/01 11:33:09"),
    // The empty edition's double space is collapsed by cleaning.
    os: Some("Windows 10 [10.0 Build 14393] (x64)"),
    target: Some("I: 11.7% (14.0/119.2 GiB)"),
    rows: &[
        ("Sequential Read (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, RD, 91.559, None, None),
        ("Sequential Write (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, WR, 85.101, None, None),
        ("Random Read 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, RD, 7.892, Some(1926.8), None),
        ("Random Write 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, WR, 3.173, Some(774.7), None),
        ("Random Read 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, RD, 7.275, Some(1776.1), None),
        ("Random Write 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, WR, 3.017, Some(736.6), None),
        ("Random Read 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, RD, 5.297, Some(1293.2), None),
        ("Random Write 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, WR, 2.260, Some(551.8), None),
    ],
    ..NONE
};

const CDM6_01_PATH: &str = "cdm6/01__unknown_id42818225661__6.0.0_samsung_evo_plus_microsd.txt";

#[test]
fn cdm6_01_empty_comment_line() {
    corpus_file(CDM6_01_PATH, &CDM6_01);
}

#[test]
#[rustfmt::skip]
fn cdm6_03_usb_stick_list_prefix() {
    corpus_file(
        "cdm6/03__pastebin_U3BSy3He__6.0.0_x64_usb_stick_LISTPREFIX_COLLAPSED.txt",
        &Expect {
            version: Some("6.0.0 x64"),
            size: Some(100 * MIB),
            passes: Some(2),
            pattern: RANDOM,
            date: Some("2018/03/19 18:51:22"),
            os: Some("Windows 10 [10.0 Build 16299] (x64)"),
            target: Some("E: 94.1% (7123.3/7572.0 MiB)"),
            rows: &[
                ("Sequential Read (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, RD, 18.740, None, None),
                ("Sequential Write (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, WR, 16.040, None, None),
                ("Random Read 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, RD, 4.994, Some(1219.2), None),
                ("Random Write 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, WR, 2.645, Some(645.8), None),
                ("Random Read 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, RD, 4.447, Some(1085.7), None),
                ("Random Write 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, WR, 2.620, Some(639.6), None),
                ("Random Read 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, RD, 4.017, Some(980.7), None),
                ("Random Write 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, WR, 2.516, Some(614.3), None),
            ],
            ..NONE
        },
    );
}

// ---------------------------------------------------------------------------------------
// CrystalDiskMark 7.x
// ---------------------------------------------------------------------------------------

#[rustfmt::skip]
const CDM7_02: Expect = Expect {
    pattern: RANDOM,
    rows: &[
        ("Read Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 6835.432, Some(6518.8), Some(1225.31)),
        ("Read Sequential 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 3654.139, Some(3484.9), Some(286.54)),
        ("Read Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, RD, 4345.706, Some(1060963.4), Some(481.82)),
        ("Read Random 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 87.317, Some(21317.6), Some(46.78)),
        ("Write Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 4998.115, Some(4766.6), Some(1675.83)),
        ("Write Sequential 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 3689.889, Some(3519.0), Some(283.73)),
        ("Write Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, WR, 4040.302, Some(986401.9), Some(517.86)),
        ("Write Random 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 282.182, Some(68892.1), Some(14.44)),
    ],
    ..NONE
};

const CDM7_02_PATH: &str = "cdm7/02__unknown_id47247702999__7.x_samsung980pro_body_only_indent_stripped.txt";

#[test]
fn cdm7_02_body_only_with_drive_name() {
    corpus_file(CDM7_02_PATH, &CDM7_02);
}

#[test]
#[rustfmt::skip]
fn cdm7_04_numbered_collapsed() {
    corpus_file(
        "cdm7/04__pastebin_Z5K1qTpF__7.0.0_x64_sata_NUMBERED_COLLAPSED.txt",
        &Expect {
            version: Some("7.0.0 x64"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2020/07/08 13:52:03"),
            os: Some("Windows 10 Professional [10.0 Build 17763] (x64)"),
            rows: &[
                ("Read Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 556.607, Some(530.8), Some(15042.62)),
                ("Read Sequential 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 496.028, Some(473.0), Some(2111.24)),
                ("Read Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, RD, 266.491, Some(65061.3), Some(7858.41)),
                ("Read Random 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 42.799, Some(10449.0), Some(95.55)),
                ("Write Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 480.859, Some(458.6), Some(17347.08)),
                ("Write Sequential 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 423.029, Some(403.4), Some(2474.85)),
                ("Write Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, WR, 301.107, Some(73512.5), Some(6947.57)),
                ("Write Random 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 86.076, Some(21014.6), Some(47.42)),
            ],
            ..NONE
        },
    );
}

// ---------------------------------------------------------------------------------------
// CrystalDiskMark 8.x
// ---------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn cdm8_01_uwp_sata() {
    corpus_file(
        "cdm8/01__unknown_id20477005223__8.0.0_uwp_sata_ssd.txt",
        &Expect {
            version: Some("8.0.0 x64 (UWP)"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2020/12/13 22:27:52"),
            os: Some("Windows 10 Professional [10.0 Build 19042] (x64)"),
            target: Some("C: 91% (202/223GiB)"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 543.188, Some(518.0), Some(15407.04)),
                ("Read SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 510.084, Some(486.5), Some(2054.29)),
                ("Read RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 188.997, Some(46141.8), Some(683.02)),
                ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 27.355, Some(6678.5), Some(149.33)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 458.892, Some(437.6), Some(18204.11)),
                ("Write SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 427.376, Some(407.6), Some(2447.79)),
                ("Write RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 137.234, Some(33504.4), Some(951.08)),
                ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 66.421, Some(16216.1), Some(61.32)),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm8_02_uwp_nvme() {
    corpus_file(
        "cdm8/02__unknown_id20477005223__8.0.0_uwp_nvme_sp512.txt",
        &Expect {
            version: Some("8.0.0 x64 (UWP)"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2020/12/16 22:21:28"),
            os: Some("Windows 10 Professional [10.0 Build 19042] (x64)"),
            target: Some("C: 13% (63/476GiB)"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 2470.084, Some(2355.7), Some(3386.97)),
                ("Read SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 1372.023, Some(1308.5), Some(761.94)),
                ("Read RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 361.821, Some(88335.2), Some(350.75)),
                ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 41.069, Some(10026.6), Some(99.39)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 1949.277, Some(1859.0), Some(4290.26)),
                ("Write SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 1777.548, Some(1695.2), Some(588.90)),
                ("Write RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 255.716, Some(62430.7), Some(500.80)),
                ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 127.670, Some(31169.4), Some(31.86)),
            ],
            ..NONE
        },
    );
}

const CDM8_06_PATH: &str = "cdm8/06__soerenmetje_CrystalDiskMark-Parser__8.0.1_x64_wd_blue_3d_comment.txt";
#[rustfmt::skip]
const CDM8_06: Expect = Expect {
    version: Some("8.0.1 x64"),
    profile: Some("Default"),
    size: Some(GIB),
    passes: Some(5),
    pattern: RANDOM,
    date: Some("2021/06/22 17:19:21"),
    os: Some("Windows 10 [10.0 Build 19042] (x64)"),
    comment: Some("WD Blue 3D 1TB WDS100T2B0A"),
    target: Some("E: 96% (894/932GiB)"),
    rows: &[
        ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 531.458, Some(506.8), Some(15726.77)),
        ("Read SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 489.838, Some(467.1), Some(2139.41)),
        ("Read RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 269.406, Some(65772.9), Some(470.58)),
        ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 41.375, Some(10101.3), Some(98.75)),
        ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 498.656, Some(475.6), Some(16750.30)),
        ("Write SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 485.163, Some(462.7), Some(2159.18)),
        ("Write RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 222.691, Some(54367.9), Some(583.02)),
        ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 99.900, Some(24389.6), Some(40.73)),
    ],
    ..NONE
};

#[test]
fn cdm8_06_comment() {
    corpus_file(CDM8_06_PATH, &CDM8_06);
}

const CDM8_07_PATH: &str = "cdm8/07__soerenmetje_CrystalDiskMark-Parser__8.0.1_x64_samsung_840evo.txt";
#[rustfmt::skip]
const CDM8_07: Expect = Expect {
    version: Some("8.0.1 x64"),
    profile: Some("Default"),
    size: Some(GIB),
    passes: Some(5),
    pattern: RANDOM,
    date: Some("2021/06/22 16:34:54"),
    os: Some("Windows 10 [10.0 Build 19042] (x64)"),
    target: Some("C: 98% (109/111GiB)"),
    rows: &[
        ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 534.383, Some(509.6), Some(15662.75)),
        ("Read SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 504.314, Some(481.0), Some(2078.16)),
        ("Read RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 261.929, Some(63947.5), Some(484.28)),
        ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 38.578, Some(9418.5), Some(105.93)),
        ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 512.268, Some(488.5), Some(16310.10)),
        ("Write SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 489.005, Some(466.4), Some(2142.69)),
        ("Write RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 225.312, Some(55007.8), Some(576.63)),
        ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 101.729, Some(24836.2), Some(40.01)),
    ],
    ..NONE
};

#[test]
fn cdm8_07_no_comment() {
    corpus_file(CDM8_07_PATH, &CDM8_07);
}

#[test]
#[rustfmt::skip]
fn cdm8_10_nvme_preset_still_default_profile() {
    corpus_file(
        "cdm8/10__soerenmetje_CrystalDiskMark-Parser__8.0.2_x64_crucial_p2_x370_nvme_profile.txt",
        &Expect {
            version: Some("8.0.2 x64"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2021/06/27 17:28:12"),
            os: Some("Windows 10 Professional [10.0 Build 19041] (x64)"),
            comment: Some("Crucial P2 2TB @ PCIe 3.0 x4"),
            target: Some("D: 48% (893/1863GiB)"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 2293.007, Some(2186.8), Some(3611.16)),
                ("Read SEQ 128KiB (Q= 32, T= 1)", SEQ, 128 * KIB, 32, 1, RD, 2470.266, Some(18846.6), Some(1644.22)),
                ("Read RND 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, RD, 1158.079, Some(282734.1), Some(1803.18)),
                ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 58.357, Some(14247.3), Some(70.06)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 2011.334, Some(1918.2), Some(4155.21)),
                ("Write SEQ 128KiB (Q= 32, T= 1)", SEQ, 128 * KIB, 32, 1, WR, 2001.788, Some(15272.4), Some(2091.94)),
                ("Write RND 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, WR, 1795.237, Some(438290.3), Some(1167.29)),
                ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 220.477, Some(53827.4), Some(18.46)),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm8_11_gist_table_peak_profile() {
    corpus_file(
        "cdm8/11__gist_Stephanvs_4db9039e__8.0.1_uwp_peak_profile_GIST_TABLE_COLLAPSED.txt",
        &Expect {
            version: Some("8.0.1 x64 (UWP)"),
            profile: Some("Peak"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2021/04/20 9:12:57"),
            os: Some("Windows 10 Professional [10.0 Build 21359] (x64)"),
            target: Some("C: 78% (728/931GiB)"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 3562.856, Some(3397.8), Some(2353.16)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 3283.663, Some(3131.5), Some(2546.78)),
            ],
            ..NONE
        },
    );
}

// ---------------------------------------------------------------------------------------
// KDiskMark
// ---------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn kdiskmark_02_v3() {
    corpus_file(
        "kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt",
        &Expect {
            tool: KDM,
            version: Some("3.0.0"),
            engine: Some("fio-3.30"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            date: Some("2022-08-24 16:10:33"),
            os: Some("opensuse-tumbleweed 20220821 [linux 5.19.2-1-default]"),
            rows: &[
                ("Read Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 508.897, Some(497.0), Some(13840.05)),
                ("Read Sequential 1 MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 438.278, Some(428.0), Some(2280.14)),
                ("Read Random 4 KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 354.657, Some(88664.6), Some(352.37)),
                ("Read Random 4 KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 44.166, Some(11041.6), Some(88.48)),
                ("Write Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 460.312, Some(449.5), Some(15153.11)),
                ("Write Sequential 1 MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 333.085, Some(325.3), Some(2349.82)),
                ("Write Random 4 KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 315.170, Some(78792.5), Some(383.86)),
                ("Write Random 4 KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 91.040, Some(22760.3), Some(39.80)),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn kdiskmark_03_v2() {
    corpus_file(
        "kdiskmark/03__JonMagon_KDiskMark__README_2.3.0_example.txt",
        &Expect {
            tool: KDM,
            version: Some("2.3.0"),
            engine: Some("fio-3.28"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            date: Some("2021-11-02 13:17:41"),
            os: Some("opensuse-tumbleweed 20211031 [linux 5.14.14-1-default]"),
            rows: &[
                ("Read Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 550.145, Some(537.3), Some(14840.12)),
                ("Read Sequential 1 MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 456.261, Some(445.6), Some(2233.53)),
                ("Read Random 4 KiB (Q=32, T= 1)", RND, 4 * KIB, 32, 1, RD, 339.953, Some(84988.3), Some(377.48)),
                ("Read Random 4 KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 43.042, Some(10760.6), Some(90.69)),
                ("Write Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 522.410, Some(510.2), Some(15210.65)),
                ("Write Sequential 1 MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 371.278, Some(362.6), Some(2248.00)),
                ("Write Random 4 KiB (Q=32, T= 1)", RND, 4 * KIB, 32, 1, WR, 330.205, Some(82551.5), Some(387.88)),
                ("Write Random 4 KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 100.602, Some(25150.7), Some(36.40)),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn kdiskmark_04_v1() {
    corpus_file(
        "kdiskmark/04__JonMagon_KDiskMark__README_1.6.0_example.txt",
        &Expect {
            tool: KDM,
            version: Some("1.6.0"),
            engine: Some("fio-3.16"),
            profile: Some("Default"),
            size: Some(32 * MIB),
            passes: Some(5),
            date: Some("2020/09/05 18:31:47"),
            os: Some("neon 20.04 [linux 5.4.0-42-generic]"),
            rows: &[
                ("Read Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 542.516, Some(529.8), Some(14415.61)),
                ("Read Sequential 1 MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 452.596, Some(442.0), Some(2248.08)),
                ("Read Random 4 KiB (Q=32, T=16)", RND, 4 * KIB, 32, 16, RD, 271.553, Some(67889.0), Some(1955.57)),
                ("Read Random 4 KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 43.252, Some(10813.1), Some(90.34)),
                ("Write Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 513.605, Some(501.6), Some(15319.33)),
                ("Write Sequential 1 MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 428.900, Some(418.8), Some(2369.68)),
                ("Write Random 4 KiB (Q=32, T=16)", RND, 4 * KIB, 32, 16, WR, 165.142, Some(41286.6), Some(3091.38)),
                ("Write Random 4 KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 103.696, Some(25924.1), Some(36.71)),
            ],
            ..NONE
        },
    );
}

/// Every file of the six CrystalDiskMark/KDiskMark folders has a test above.
#[test]
fn every_corpus_file_is_covered() {
    let covered = [
        "cdm3/01",
        "cdm3/04",
        "cdm3/10",
        "cdm3/13",
        "cdm5/01",
        "cdm5/04",
        "cdm6/01",
        "cdm6/03",
        "cdm7/02",
        "cdm7/04",
        "cdm8/01",
        "cdm8/02",
        "cdm8/06",
        "cdm8/07",
        "cdm8/10",
        "cdm8/11",
        "kdiskmark/02",
        "kdiskmark/03",
        "kdiskmark/04",
    ];
    for dir in ["cdm3", "cdm5", "cdm6", "cdm7", "cdm8", "kdiskmark"] {
        for entry in std::fs::read_dir(corpus().join(dir)).expect("corpus folder") {
            let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
            let key = format!("{dir}/{}", name.split("__").next().unwrap_or(""));
            assert!(covered.contains(&key.as_str()), "no test for {dir}/{name}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Synthetic exports (layouts from FORMATS.md without a real sample)
// ---------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn cdm2_export_with_comment() {
    let text = "\
--------------------------------------------------
CrystalDiskMark 2.2 (C) 2007-2008 hiyohiyo
      Crystal Dew World : http://crystalmark.info/
--------------------------------------------------

   Sequential Read :   82.470 MB/s
  Sequential Write :   74.018 MB/s
 Random Read 512KB :   32.115 MB/s
Random Write 512KB :   40.886 MB/s
   Random Read 4KB :    0.638 MB/s
  Random Write 4KB :    1.327 MB/s

         Test Size : 100 MB
              Date : 2008/05/04 9:07:11
::Comment::
Seagate 7200.10 on ICH8
";
    one(
        "2.x",
        parse_str(text, None),
        &Expect {
            version: Some("2.2"),
            size: Some(100 * MIB),
            // 2.x prints no test-data mode: unknown.
            pattern: None,
            date: Some("2008/05/04 9:07:11"),
            comment: Some("Seagate 7200.10 on ICH8"),
            rows: &[
                ("Sequential Read", SEQ, MIB, 1, 1, RD, 82.470, None, None),
                ("Sequential Write", SEQ, MIB, 1, 1, WR, 74.018, None, None),
                ("Random Read 512KB", RND, 512 * KIB, 1, 1, RD, 32.115, None, None),
                ("Random Write 512KB", RND, 512 * KIB, 1, 1, WR, 40.886, None, None),
                ("Random Read 4KB", RND, 4 * KIB, 1, 1, RD, 0.638, None, None),
                ("Random Write 4KB", RND, 4 * KIB, 1, 1, WR, 1.327, None, None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm3_zero_fill_with_comment_and_iops_overflow() {
    let text = "\
-----------------------------------------------------------------------
CrystalDiskMark 3.0.2 x64 (C) 2007-2011 hiyohiyo
                           Crystal Dew World : http://crystalmark.info/
-----------------------------------------------------------------------
* MB/s = 1,000,000 byte/s [SATA/300 = 300,000,000 byte/s]

           Sequential Read :   270.120 MB/s
          Sequential Write :   255.430 MB/s
         Random Read 512KB :   210.700 MB/s
        Random Write 512KB :   240.010 MB/s
    Random Read 4KB (QD=1) :    30.001 MB/s [  7324.5 IOPS]
   Random Write 4KB (QD=1) :    90.500 MB/s [ 22094.7 IOPS]
   Random Read 4KB (QD=32) :   430.074 MB/s [104999.3 IOPS]
  Random Write 4KB (QD=32) :   250.000 MB/s [ 61035.2 IOPS]

  Test : 50 MB [D: 5.0% (5.9/119.2 GB)] (x9) <0Fill>
  Date : 2011/10/01 23:59:59
    OS : Windows 7 Professional SP1 [6.1 Build 7601] (x64)
  OCZ Vertex 3 120GB, fw 2.15
";
    one(
        "3.x 0Fill",
        parse_str(text, None),
        &Expect {
            version: Some("3.0.2 x64"),
            size: Some(50 * MIB),
            passes: Some(9),
            pattern: Some(DataPattern::ZeroFill),
            date: Some("2011/10/01 23:59:59"),
            os: Some("Windows 7 Professional SP1 [6.1 Build 7601] (x64)"),
            comment: Some("OCZ Vertex 3 120GB, fw 2.15"),
            target: Some("D: 5.0% (5.9/119.2 GB)"),
            rows: &[
                ("Sequential Read", SEQ, MIB, 1, 1, RD, 270.120, None, None),
                ("Sequential Write", SEQ, MIB, 1, 1, WR, 255.430, None, None),
                ("Random Read 512KB", RND, 512 * KIB, 1, 1, RD, 210.700, None, None),
                ("Random Write 512KB", RND, 512 * KIB, 1, 1, WR, 240.010, None, None),
                ("Random Read 4KB (QD=1)", RND, 4 * KIB, 1, 1, RD, 30.001, Some(7324.5), None),
                ("Random Write 4KB (QD=1)", RND, 4 * KIB, 1, 1, WR, 90.500, Some(22094.7), None),
                ("Random Read 4KB (QD=32)", RND, 4 * KIB, 32, 1, RD, 430.074, Some(104999.3), None),
                ("Random Write 4KB (QD=32)", RND, 4 * KIB, 32, 1, WR, 250.000, Some(61035.2), None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm4_export() {
    let text = "\
-----------------------------------------------------------------------
CrystalDiskMark 4.1.0 x64 (C) 2007-2015 hiyohiyo
                           Crystal Dew World : http://crystalmark.info/
-----------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

   Sequential Read (Q= 32,T= 1) :   186.338 MB/s
  Sequential Write (Q= 32,T= 1) :   181.902 MB/s
  Random Read 4KiB (Q= 32,T= 1) :     1.931 MB/s [   471.4 IOPS]
 Random Write 4KiB (Q= 32,T= 1) :     1.512 MB/s [   369.1 IOPS]
         Sequential Read (T= 1) :   178.270 MB/s
        Sequential Write (T= 1) :   175.443 MB/s
   Random Read 4KiB (Q= 1,T= 1) :     0.695 MB/s [   169.7 IOPS]
  Random Write 4KiB (Q= 1,T= 1) :     1.455 MB/s [   355.2 IOPS]

  Test : 1024 MiB [I: 15.6% (145.4/931.5 GiB)] (x3)  [Interval=5 sec]
  Date : 2015/08/30 14:02:10
    OS : Windows 8.1 Pro [6.3 Build 9600] (x64)
  WD Blue 1TB
";
    one(
        "4.x",
        parse_str(text, None),
        &Expect {
            version: Some("4.1.0 x64"),
            size: Some(1024 * MIB),
            passes: Some(3),
            pattern: RANDOM,
            date: Some("2015/08/30 14:02:10"),
            os: Some("Windows 8.1 Pro [6.3 Build 9600] (x64)"),
            comment: Some("WD Blue 1TB"),
            target: Some("I: 15.6% (145.4/931.5 GiB)"),
            rows: &[
                ("Sequential Read (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, RD, 186.338, None, None),
                ("Sequential Write (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, WR, 181.902, None, None),
                ("Random Read 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, RD, 1.931, Some(471.4), None),
                ("Random Write 4KiB (Q= 32,T= 1)", RND, 4 * KIB, 32, 1, WR, 1.512, Some(369.1), None),
                ("Sequential Read (T= 1)", SEQ, MIB, 1, 1, RD, 178.270, None, None),
                ("Sequential Write (T= 1)", SEQ, MIB, 1, 1, WR, 175.443, None, None),
                ("Random Read 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, RD, 0.695, Some(169.7), None),
                ("Random Write 4KiB (Q= 1,T= 1)", RND, 4 * KIB, 1, 1, WR, 1.455, Some(355.2), None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm6_pro_mode_with_mix_rows() {
    let text = "\
-----------------------------------------------------------------------
CrystalDiskMark 6.0.2 x64 (C) 2007-2018 hiyohiyo
                          Crystal Dew World : https://crystalmark.info/
-----------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

   Sequential Read (Q= 32,T= 1) :   560.100 MB/s
  Sequential Write (Q= 32,T= 1) :   520.200 MB/s
    Sequential Mix (Q= 32,T= 1) :   480.300 MB/s
  Random Read 4KiB (Q=  8,T= 8) :   390.400 MB/s [  95312.5 IOPS]
 Random Write 4KiB (Q=  8,T= 8) :   330.500 MB/s [  80688.5 IOPS]
   Random Mix 4KiB (Q=  8,T= 8) :   300.600 MB/s [  73388.7 IOPS]

  Mix Ratio : Read 70%, Write 30%
       Test : 1024 MiB [C: 26.4% (122.8/465.2 GiB)] (x5)  [Interval=5 sec]
       Date : 2018/12/15 0:48:36
         OS : Windows 10  [10.0 Build 17134] (x64)
  ";
    one(
        "6.x PRO",
        parse_str(text, None),
        &Expect {
            version: Some("6.0.2 x64"),
            size: Some(1024 * MIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2018/12/15 0:48:36"),
            os: Some("Windows 10 [10.0 Build 17134] (x64)"),
            target: Some("C: 26.4% (122.8/465.2 GiB)"),
            mix: Some(70),
            rows: &[
                ("Sequential Read (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, RD, 560.100, None, None),
                ("Sequential Write (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, WR, 520.200, None, None),
                ("Sequential Mix (Q= 32,T= 1)", SEQ, 128 * KIB, 32, 1, MX, 480.300, None, None),
                ("Random Read 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, RD, 390.400, Some(95312.5), None),
                ("Random Write 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, WR, 330.500, Some(80688.5), None),
                ("Random Mix 4KiB (Q= 8,T= 8)", RND, 4 * KIB, 8, 8, MX, 300.600, Some(73388.7), None),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn cdm7_mix_section_and_comment_after_os() {
    let text = "\
------------------------------------------------------------------------------
CrystalDiskMark 7.0.0 x64 (C) 2007-2019 hiyohiyo
                                  Crystal Dew World: https://crystalmark.info/
------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
Sequential 1MiB (Q=  8, T= 1):   101.514 MB/s [     96.8 IOPS] < 81970.32 us>
    Random 4KiB (Q= 32, T=16):     0.851 MB/s [    207.8 IOPS] <635043.04 us>

[Write]
Sequential 1MiB (Q=  8, T= 1):    91.001 MB/s [     86.8 IOPS] < 91004.20 us>
    Random 4KiB (Q= 32, T=16):     1.203 MB/s [    293.7 IOPS] <500101.11 us>

[Mix] Read 70%/Write 30%
Sequential 1MiB (Q=  8, T= 1):    95.250 MB/s [     90.8 IOPS] < 85000.00 us>
    Random 4KiB (Q= 32, T=16):     0.930 MB/s [    227.1 IOPS] <580000.50 us>

Profile: Default
   Test: 1 GiB (x5) [Interval: 5 sec] <DefaultAffinity=DISABLED>
   Date: 2020/01/03 11:44:51
     OS: Windows 10  [10.0 Build 18363] (x64)
USB stick on front panel
";
    one(
        "7.x Mix",
        parse_str(text, None),
        &Expect {
            version: Some("7.0.0 x64"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2020/01/03 11:44:51"),
            os: Some("Windows 10 [10.0 Build 18363] (x64)"),
            comment: Some("USB stick on front panel"),
            mix: Some(70),
            rows: &[
                ("Read Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 101.514, Some(96.8), Some(81970.32)),
                ("Read Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, RD, 0.851, Some(207.8), Some(635043.04)),
                ("Write Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 91.001, Some(86.8), Some(91004.20)),
                ("Write Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, WR, 1.203, Some(293.7), Some(500101.11)),
                ("Mix Sequential 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, MX, 95.250, Some(90.8), Some(85000.00)),
                ("Mix Random 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, MX, 0.930, Some(227.1), Some(580000.50)),
            ],
            ..NONE
        },
    );
}

/// An 8.x export with the given profile, Read/Write rows and Mode line.
#[rustfmt::skip]
fn cdm8_text(profile: &str, rows: &[&str], mode: &str) -> String {
    let mut s = String::from(
        "------------------------------------------------------------------------------\n\
         CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo\n\
         \x20                                 Crystal Dew World: https://crystalmark.info/\n\
         ------------------------------------------------------------------------------\n\
         * MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\n\
         * KB = 1000 bytes, KiB = 1024 bytes\n\n[Read]\n",
    );
    for section in ["Read", "Write"] {
        if section == "Write" {
            s.push_str("\n[Write]\n");
        }
        for row in rows {
            s.push_str(&row.replace("{op}", section));
            s.push('\n');
        }
    }
    s.push_str(&format!(
        "\nProfile: {profile}\n   Test: 1 GiB (x5) [C: 4% (79/1862GiB)]\n   Mode:{mode}\n   \
         Time: Measure 5 sec / Interval 5 sec \n   Date: 2024/01/06 5:41:48\n     \
         OS: Windows 11  [10.0 Build 22631] (x64)\n"
    ));
    s
}

#[test]
#[rustfmt::skip]
fn cdm8_peak_real_demo_profiles() {
    // The same numbers in both sections keep the synthetic text short.
    let peak = cdm8_text(
        "Peak",
        &[
            "  SEQ    1MiB (Q=  8, T= 1):  7427.749 MB/s [   7083.7 IOPS] <   987.81 us>",
            "  RND    4KiB (Q= 32, T=16):  4094.649 MB/s [ 999670.2 IOPS] <   494.56 us>",
        ],
        " [Admin]",
    );
    let real = cdm8_text(
        "Real",
        &[
            "  SEQ    1MiB (Q=  1, T= 1):  3521.004 MB/s [   3357.9 IOPS] <   297.57 us>",
            "  RND    4KiB (Q=  1, T= 1):    84.503 MB/s [  20630.6 IOPS] <    48.38 us>",
        ],
        " [Admin]",
    );
    let demo = cdm8_text(
        "Demo",
        &["  SEQ    1MiB (Q=  8, T= 1):  7427.749 MB/s [   7083.7 IOPS] <   987.81 us>"],
        "",
    );
    let base = Expect {
        version: Some("8.0.4 x64"),
        size: Some(GIB),
        passes: Some(5),
        pattern: RANDOM,
        date: Some("2024/01/06 5:41:48"),
        os: Some("Windows 11 [10.0 Build 22631] (x64)"),
        target: Some("C: 4% (79/1862GiB)"),
        ..NONE
    };
    one(
        "8.x Peak",
        parse_str(&peak, None),
        &Expect {
            profile: Some("Peak"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 7427.749, Some(7083.7), Some(987.81)),
                ("Read RND 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, RD, 4094.649, Some(999670.2), Some(494.56)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 7427.749, Some(7083.7), Some(987.81)),
                ("Write RND 4KiB (Q= 32, T=16)", RND, 4 * KIB, 32, 16, WR, 4094.649, Some(999670.2), Some(494.56)),
            ],
            ..base
        },
    );
    one(
        "8.x Real",
        parse_str(&real, None),
        &Expect {
            profile: Some("Real"),
            rows: &[
                ("Read SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, RD, 3521.004, Some(3357.9), Some(297.57)),
                ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 84.503, Some(20630.6), Some(48.38)),
                ("Write SEQ 1MiB (Q= 1, T= 1)", SEQ, MIB, 1, 1, WR, 3521.004, Some(3357.9), Some(297.57)),
                ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 84.503, Some(20630.6), Some(48.38)),
            ],
            ..base
        },
    );
    one(
        "8.x Demo",
        parse_str(&demo, None),
        &Expect {
            profile: Some("Demo"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 7427.749, Some(7083.7), Some(987.81)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 7427.749, Some(7083.7), Some(987.81)),
            ],
            ..base
        },
    );
}

#[test]
fn cdm8_zero_fill_mode_line() {
    let text = cdm8_text(
        "Default",
        &["  SEQ    1MiB (Q=  8, T= 1):   530.000 MB/s [    505.5 IOPS] < 15800.00 us>"],
        " [Admin] <0Fill>",
    );
    let results = parse_str(&text, None).expect("parses");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].data_pattern, Some(DataPattern::ZeroFill));
    assert_eq!(results[0].profile.as_deref(), Some("Default"));
}

#[test]
#[rustfmt::skip]
fn cdm9_export() {
    let text = "\
------------------------------------------------------------------------------
CrystalDiskMark 9.0.1 x64 (C) 2007-2025 hiyohiyo
                                  Crystal Dew World: https://crystalmark.info/
------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
  SEQ    1MiB (Q=  8, T= 1): 14012.330 MB/s [  13363.3 IOPS] <   598.33 us>
  SEQ  128KiB (Q= 32, T= 1): 13870.505 MB/s [ 105824.1 IOPS] <   302.28 us>
  RND    4KiB (Q= 32, T= 1):  3901.222 MB/s [ 952446.8 IOPS] <    33.52 us>
  RND    4KiB (Q=  1, T= 1):    95.010 MB/s [  23195.8 IOPS] <    43.06 us>

[Write]
  SEQ    1MiB (Q=  8, T= 1): 12501.882 MB/s [  11922.7 IOPS] <   670.63 us>
  SEQ  128KiB (Q= 32, T= 1): 12399.101 MB/s [  94597.6 IOPS] <   338.16 us>
  RND    4KiB (Q= 32, T= 1):  3302.650 MB/s [ 806311.0 IOPS] <    39.61 us>
  RND    4KiB (Q=  1, T= 1):   380.447 MB/s [  92882.6 IOPS] <    10.73 us>

Profile: Default
   Test: 1 GiB (x5) [C: 12% (223/1863GiB)]
   Mode: [Admin]
   Time: Measure 5 sec / Interval 5 sec 
   Date: 2025/03/02 21:05:09
     OS: Windows 11 Pro 24H2 [10.0 Build 26100] (x64)
Comment: Samsung 9100 PRO 2TB (PCIe 5.0 x4)
";
    one(
        "9.x",
        parse_str(text, None),
        &Expect {
            version: Some("9.0.1 x64"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            pattern: RANDOM,
            date: Some("2025/03/02 21:05:09"),
            os: Some("Windows 11 Pro 24H2 [10.0 Build 26100] (x64)"),
            comment: Some("Samsung 9100 PRO 2TB (PCIe 5.0 x4)"),
            target: Some("C: 12% (223/1863GiB)"),
            rows: &[
                ("Read SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 14012.330, Some(13363.3), Some(598.33)),
                ("Read SEQ 128KiB (Q= 32, T= 1)", SEQ, 128 * KIB, 32, 1, RD, 13870.505, Some(105824.1), Some(302.28)),
                ("Read RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 3901.222, Some(952446.8), Some(33.52)),
                ("Read RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, RD, 95.010, Some(23195.8), Some(43.06)),
                ("Write SEQ 1MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 12501.882, Some(11922.7), Some(670.63)),
                ("Write SEQ 128KiB (Q= 32, T= 1)", SEQ, 128 * KIB, 32, 1, WR, 12399.101, Some(94597.6), Some(338.16)),
                ("Write RND 4KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 3302.650, Some(806311.0), Some(39.61)),
                ("Write RND 4KiB (Q= 1, T= 1)", RND, 4 * KIB, 1, 1, WR, 380.447, Some(92882.6), Some(10.73)),
            ],
            ..NONE
        },
    );
}

#[test]
#[rustfmt::skip]
fn kdiskmark3_mix_section_and_target() {
    // 3.2-style: unindented metadata, a Target line, a latency wider than its field.
    let text = "\
                        KDiskMark (3.2.0): https://github.com/JonMagon/KDiskMark
                    Flexible I/O Tester (fio-3.36): https://github.com/axboe/fio
--------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
Sequential   1 MiB (Q=  8, T= 1):  3400.100 MB/s [   3242.6 IOPS] <  2466.31 us>
Random       4 KiB (Q= 32, T= 1):   900.200 MB/s [ 225050.0 IOPS] <   141.90 us>

[Write]
Sequential   1 MiB (Q=  8, T= 1):  2900.300 MB/s [   2765.9 IOPS] <  2891.47 us>
Random       4 KiB (Q= 32, T= 1):   700.400 MB/s [ 175100.0 IOPS] <   182.55 us>

[Mix] Read 70%/Write 30%
Sequential   1 MiB (Q=  8, T= 1):  1200.500 MB/s [   1144.9 IOPS] < 158255.28 us>
Random       4 KiB (Q= 32, T= 1):   400.600 MB/s [ 100150.0 IOPS] <   319.12 us>

Profile: Default [+Mix]
Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]
Date: 2024-05-01 08:09:10
OS: arch unknown [linux 6.8.9-arch1-1]
Target: / 4% (31.72/748.08 GiB)
";
    one(
        "KDiskMark 3.2 Mix",
        parse_str(text, None),
        &Expect {
            tool: KDM,
            version: Some("3.2.0"),
            engine: Some("fio-3.36"),
            profile: Some("Default"),
            size: Some(GIB),
            passes: Some(5),
            date: Some("2024-05-01 08:09:10"),
            os: Some("arch unknown [linux 6.8.9-arch1-1]"),
            target: Some("/ 4% (31.72/748.08 GiB)"),
            mix: Some(70),
            rows: &[
                ("Read Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, RD, 3400.100, Some(3242.6), Some(2466.31)),
                ("Read Random 4 KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, RD, 900.200, Some(225050.0), Some(141.90)),
                ("Write Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, WR, 2900.300, Some(2765.9), Some(2891.47)),
                ("Write Random 4 KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, WR, 700.400, Some(175100.0), Some(182.55)),
                ("Mix Sequential 1 MiB (Q= 8, T= 1)", SEQ, MIB, 8, 1, MX, 1200.500, Some(1144.9), Some(158255.28)),
                ("Mix Random 4 KiB (Q= 32, T= 1)", RND, 4 * KIB, 32, 1, MX, 400.600, Some(100150.0), Some(319.12)),
            ],
            ..NONE
        },
    );
}

#[test]
fn utf16le_bom_crlf_file() {
    let text = text(CDM6_01_PATH).replace('\n', "\r\n");
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    one("UTF-16LE", parse_bytes(&bytes, None), &CDM6_01);
}

#[test]
fn markdown_fenced_paste_with_prose_around() {
    let text = format!(
        "My new drive, results below:\n\n```text\n{}```\n\nNot bad for the price. Date: yesterday\n",
        text(CDM8_07_PATH)
    );
    one("markdown", parse_str(&text, None), &CDM8_07);
}

#[test]
fn html_wrapped_paste() {
    let body: Vec<String> = text(CDM5_01_PATH_PLAIN)
        .lines()
        .map(|l| l.strip_prefix("// ").or_else(|| l.strip_prefix("//")).unwrap_or(l).replace(' ', "&nbsp;"))
        .collect();
    let html =
        format!("<p>Benchmark:</p>\n<pre><code>{}</code></pre>\n<p>Thanks!</p>\n", body.join("<br />\n"));
    one("HTML", parse_str(&html, None), &CDM5_01);
}

const CDM5_01_PATH_PLAIN: &str =
    "cdm5/01__unknown_id56221325514__5.2.0_comment_prefixed_amorphousdiskmark_src.txt";

#[test]
fn two_exports_in_one_paste() {
    let text = format!("C: drive\n{}\nE: drive\n{}", text(CDM8_07_PATH), text(CDM8_06_PATH));
    let results = parse_str(&text, None).expect("parses");
    assert_eq!(results.len(), 2);
    check("first run", &results[0], &CDM8_07);
    check("second run", &results[1], &CDM8_06);
}

#[test]
fn two_headerless_runs() {
    // A second `[Read]` after a finished body starts a new result.
    let body = text(CDM7_02_PATH);
    let results = parse_str(&format!("{body}\n{body}"), None).expect("parses");
    assert_eq!(results.len(), 2);
    check("7.x first", &results[0], &CDM7_02);
    check("7.x second", &results[1], &CDM7_02);
    // Two blocks of 3.x rows: the repeated labels start a new result.
    let rows = text("cdm3/04__unknown_id4267296961__3.x_samsung850pro_blockquote_COLLAPSED.txt");
    let results = parse_str(&format!("{rows}{rows}"), None).expect("parses");
    assert_eq!(results.len(), 2);
    assert_eq!(results[1].metrics.len(), 8);
    assert_eq!(results[1].metrics[0].mbps, Some(520.557));
}

#[test]
fn prose_that_mentions_tests_is_not_a_row() {
    let text = format!(
        "Random Read performance: great.\nSequential 4KB writes are slow, see below.\n\n{}\n\
         Random Write: better than my old HDD.\nSequential Read: very fast\n",
        text(CDM8_07_PATH)
    );
    one("prose", parse_str(&text, None), &CDM8_07);
}

#[test]
fn headerless_paste_is_detected_and_keeps_no_version() {
    let text = "\
Crucial MX500 on the old laptop:
  SEQ    1MiB (Q=  8, T= 1):   560.000 MB/s [    534.1 IOPS] < 14956.01 us>
";
    // No section: the rows cannot be told Read from Write.
    let err = parse_str(text, None).unwrap_err();
    assert_eq!(err.format, Some(Format::CrystalDiskMark));
    assert_eq!(err.line, Some(2));

    let text = "Samsung 850 EVO\n[Read]\nSEQ 1MiB (Q= 8, T= 1): 560.000 MB/s [ 534.1 IOPS] < 14956.01 us>\n\nthanks\n";
    let doc = bench::text::Document::from_text(text.to_string());
    assert_eq!(bench::detect(&doc), Some(Format::CrystalDiskMark));
    let results = parse_str(text, None).expect("parses");
    assert_eq!(results[0].tool_version, None);
    assert_eq!(results[0].metrics[0].label, "Read SEQ 1MiB (Q= 8, T= 1)");

    let kdm = "[Write]\nRandom 4 KiB (Q= 1, T= 1): 100.602 MB/s [ 25150.7 IOPS] < 36.40 us>\n";
    let doc = bench::text::Document::from_text(kdm.to_string());
    assert_eq!(bench::detect(&doc), Some(Format::KDiskMark));
    let results = parse_str(kdm, None).expect("parses");
    assert_eq!(results[0].tool, KDM);
    assert_eq!(results[0].metrics[0].op, WR);

    let cdm5 = "Sequential Read (Q= 32,T= 1) : 140.647 MB/s\n";
    let doc = bench::text::Document::from_text(cdm5.to_string());
    assert_eq!(bench::detect(&doc), Some(Format::CrystalDiskMark));
}

#[test]
fn all_zero_run_is_an_error() {
    let text = "\
- CrystalDiskMark 5.0.2 (C) 2007-2015 hiyohiyo
- Sequential Read (Q= 32,T= 1) : 0.000 MB/s
- Sequential Write (Q= 32,T= 1) : 0.000 MB/s
- Random Read 4KiB (Q= 32,T= 1) : 0.000 MB/s [ 0.0 IOPS]
- Random Write 4KiB (Q= 32,T= 1) : 0.000 MB/s [ 0.0 IOPS]
- Sequential Read (T= 1) : 0.000 MB/s
- Sequential Write (T= 1) : 0.000 MB/s
- Random Read 4KiB (Q= 1,T= 1) : 0.000 MB/s [ 0.0 IOPS]
- Random Write 4KiB (Q= 1,T= 1) : 0.000 MB/s [ 0.0 IOPS]
- Test : 1024 MiB [F: 0.0% (0.1/2794.4 GiB)] (x5) [Interval=5 sec]
";
    let err = parse_str(text, None).unwrap_err();
    assert_eq!(err.format, Some(Format::CrystalDiskMark));
    assert_eq!(err.expected, "at least one test that ran");
    assert_eq!(err.found, "8 rows, all zero");
}

#[test]
fn malformed_row_is_an_error_at_its_line() {
    let mut lines: Vec<String> = text(CDM8_06_PATH).lines().map(str::to_string).collect();
    // Line 11 (1-based) is the first RND row of [Read]; cut its IOPS off.
    assert!(lines[10].contains("RND    4KiB (Q= 32, T= 1)"));
    lines[10] = "  RND    4KiB (Q= 32, T= 1):   269.406 MB/s [  65772.9".to_string();
    let err = parse_str(&lines.join("\n"), None).unwrap_err();
    assert_eq!(err.format, Some(Format::CrystalDiskMark));
    assert_eq!(err.line, Some(11));
    assert!(err.found.contains("269.406 MB/s"), "{err}");

    let err = parse_str(
        "CrystalDiskMark 3.0.1 x64 (C) 2007-2010 hiyohiyo\n\nRandom Read 4KB (QD=1) : fast\n",
        None,
    )
    .unwrap_err();
    assert_eq!(err.line, Some(3));
    let err =
        parse_str("CrystalDiskMark 6.0.0 (C) x\nRandom Read (Q= 32,T= 1) : 1.000 MB/s\n", None).unwrap_err();
    assert_eq!(err.line, Some(2));
}

#[test]
fn never_panics_on_cut_or_garbled_corpus_text() {
    for dir in ["cdm3", "cdm5", "cdm6", "cdm7", "cdm8", "kdiskmark"] {
        for entry in std::fs::read_dir(corpus().join(dir)).expect("corpus folder") {
            let text = std::fs::read_to_string(entry.expect("entry").path()).expect("UTF-8");
            // Every prefix, cut at every character boundary.
            for (i, _) in text.char_indices() {
                let _ = parse_str(&text[..i], None);
                let _ = parse_str(&text[..i], Some(Format::KDiskMark));
            }
            // Digits replaced with other characters.
            for junk in ["9", "µ", "", ".", ",", "99999999999999999999999"] {
                let _ = parse_str(&text.replace('5', junk), None);
            }
        }
    }
}

#[test]
fn headerless_pastes_keep_their_engine_family() {
    use bench::ToolFamily;
    // 3.x rows (cdm3/04 has no header): CrystalDiskMark's own engine, never DiskSpd.
    let rows = text("cdm3/04__unknown_id4267296961__3.x_samsung850pro_blockquote_COLLAPSED.txt");
    let r = &parse_str(&rows, None).expect("parses")[0];
    assert_eq!(r.tool_version, None);
    assert_eq!(r.family(), ToolFamily::CdmNative);
    // 5.x rows name Q and T: DiskSpd.
    let r = &parse_str("Sequential Read (Q= 32,T= 1) : 140.647 MB/s\n", None).expect("parses")[0];
    assert_eq!(r.family(), ToolFamily::CdmDiskspd);
    // 7.x body without header (cdm7/02): DiskSpd.
    let r = &parse_str(&text(CDM7_02_PATH), None).expect("parses")[0];
    assert_eq!(r.family(), ToolFamily::CdmDiskspd);
    // With a version printed, the version decides and no family is stored.
    let r =
        &parse_str(&text("cdm3/10__pastebin_nLyTADpy__3.0.3_x64_NUMBERED_COLLAPSED.txt"), None).unwrap()[0];
    assert_eq!((r.family, r.family()), (None, ToolFamily::CdmNative));
}
