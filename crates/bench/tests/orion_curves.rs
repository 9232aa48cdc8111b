//! ORION's matrix files (`_iops.csv`, `_lat.csv`, `_mbps.csv`) and the 12c+ latency
//! histogram, from the real files in `tests/data/orion` (sources in its README): every
//! load point the files hold is imported, and the curves' points are the files' numbers,
//! read here independently of the parser.

use bench::curves::load_curves;
use bench::{parse_str, parse_str_named, Access, BenchResult, Format, Op};

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/orion/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const IOPS: &str = "mytest_20190329_1057_iops.csv";
const LAT: &str = "mytest_20190329_1057_lat.csv";
const MBPS: &str = "mytest_20190329_1057_mbps.csv";

/// A matrix file read plainly: the column loads of its first line, then for each row
/// its large-I/O load and the values it has, as `(large, small, value)`.
fn matrix_cells(text: &str) -> Vec<(u32, u32, f64)> {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let columns: Vec<u32> = header.split(',').skip(1).map(|c| c.trim().parse().unwrap()).collect();
    let mut cells = Vec::new();
    for line in lines {
        let mut fields = line.split(',');
        let large: u32 = fields.next().unwrap().trim().parse().unwrap();
        for (small, value) in columns.iter().zip(fields) {
            cells.push((large, *small, value.trim().parse().unwrap()));
        }
    }
    cells
}

fn only_result(results: Vec<BenchResult>) -> BenchResult {
    assert_eq!(results.len(), 1, "{results:#?}");
    results.into_iter().next().unwrap()
}

/// `_iops.csv`: the `Large = 0` row is one curve of 8 KiB random reads at queue depths
/// 1 to 5, each point the file's IOPS.
#[test]
fn the_iops_file_is_a_curve_of_its_numbers() {
    let text = data(IOPS);
    let cells = matrix_cells(&text);
    assert_eq!(cells.len(), 5, "{cells:?}");
    let result = only_result(parse_str_named(&text, Some(IOPS), None).unwrap());
    assert_eq!(result.repeated_test(), None);
    let curves = load_curves(&result);
    assert_eq!(curves.len(), 1, "{curves:?}");
    let curve = &curves[0];
    assert_eq!((curve.key.access, curve.key.block_size, curve.key.op), (Access::Rnd, 8 * KIB, Op::Read));
    let got: Vec<(u32, Option<f64>)> = curve.points.iter().map(|p| (p.queue_depth, p.iops)).collect();
    let want: Vec<(u32, Option<f64>)> = cells
        .iter()
        .map(|&(large, small, v)| {
            assert_eq!(large, 0);
            (small, Some(v))
        })
        .collect();
    assert_eq!(got, want);
    assert!(curve.points.iter().all(|p| p.threads == 1 && p.latency_us.is_none() && p.mbps.is_none()));
}

/// `_lat.csv` of 11.1: milliseconds, kept as microseconds.
#[test]
fn the_latency_file_is_a_curve_of_its_numbers_in_microseconds() {
    let text = data(LAT);
    let cells = matrix_cells(&text);
    assert_eq!(cells.len(), 5, "{cells:?}");
    let result = only_result(parse_str_named(&text, Some(LAT), None).unwrap());
    let curves = load_curves(&result);
    assert_eq!(curves.len(), 1, "{curves:?}");
    let got: Vec<(u32, Option<f64>)> =
        curves[0].points.iter().map(|p| (p.queue_depth, p.latency_us)).collect();
    let want: Vec<(u32, Option<f64>)> =
        cells.iter().map(|&(_, small, ms)| (small, Some(bench::parse::rescale(ms, 1000.0)))).collect();
    assert_eq!(got, want);
}

/// `_mbps.csv`: values in the `Small = 0` column are large I/Os (1 MiB random by
/// default), queue depth = the `Large` count. The file is recognised from that column
/// alone, without its name. Two loads make no curve; both are metrics.
#[test]
fn the_mbps_file_keeps_its_points_even_without_its_name() {
    let text = data(MBPS);
    let cells = matrix_cells(&text);
    assert_eq!(cells.len(), 2, "{cells:?}");
    for name in [Some(MBPS), None] {
        let result = only_result(parse_str_named(&text, name, None).unwrap());
        let got: Vec<(Access, u64, u32, Op, Option<f64>)> =
            result.metrics.iter().map(|m| (m.access, m.block_size, m.queue_depth, m.op, m.mbps)).collect();
        let want: Vec<(Access, u64, u32, Op, Option<f64>)> = cells
            .iter()
            .map(|&(large, small, v)| {
                assert_eq!(small, 0);
                (Access::Rnd, MIB, large, Op::Read, Some(v))
            })
            .collect();
        assert_eq!(got, want, "{name:?}");
        assert!(load_curves(&result).is_empty());
    }
}

/// The console the files were printed in (`cat <file>` before each): one result, each
/// point with the IOPS and the latency of its two files, and the run's version and date
/// from the banner above.
#[test]
fn a_pasted_console_with_all_three_files_is_one_run() {
    let console = data("hftian_15766049_console.txt");
    assert_eq!(bench::detect(&bench::text::Document::from_text(console.clone())), Some(Format::Orion));
    let result = only_result(parse_str(&console, None).unwrap());
    assert_eq!(result.tool_version.as_deref(), Some("11.1.0.7.0"));
    assert_eq!(result.profile.as_deref(), Some("simple"));
    assert_eq!(result.date.as_deref(), Some("2019-03-29 10:57"));
    assert_eq!(result.repeated_test(), None);
    let iops = matrix_cells(&data(IOPS));
    let lat = matrix_cells(&data(LAT));
    let mbps = matrix_cells(&data(MBPS));
    assert_eq!(result.metrics.len(), iops.len() + mbps.len());

    let curves = load_curves(&result);
    assert_eq!(curves.len(), 1, "{curves:?}");
    let got: Vec<(u32, Option<f64>, Option<f64>)> =
        curves[0].points.iter().map(|p| (p.outstanding, p.iops, p.latency_us)).collect();
    let want: Vec<(u32, Option<f64>, Option<f64>)> = iops
        .iter()
        .zip(&lat)
        .map(|(&(_, small, v), &(_, lat_small, ms))| {
            assert_eq!(small, lat_small);
            (small, Some(v), Some(bench::parse::rescale(ms, 1000.0)))
        })
        .collect();
    assert_eq!(got, want);
    for &(large, _, v) in &mbps {
        let m = result.metrics.iter().find(|m| m.block_size == MIB && m.queue_depth == large).unwrap();
        assert_eq!(m.mbps, Some(v));
    }
}

/// Small-I/O values alone may be IOPS or latencies: without a name that is an error
/// that says so, at the matrix's line; a hint settles it.
#[test]
fn a_matrix_of_unknown_measure_asks_for_its_name() {
    let text = data(IOPS);
    let err = parse_str(&text, None).unwrap_err();
    assert_eq!((err.format, err.line), (Some(Format::Orion), Some(1)), "{err}");
    assert!(err.to_string().contains("_iops.csv"), "{err}");
    let hinted = only_result(parse_str_named(&text, Some("iops"), None).unwrap());
    assert_eq!(hinted.metrics.len(), 5);
    // A name that contradicts the matrix: MB/s where no large I/O ran.
    let err = parse_str_named(&text, Some("x_mbps.csv"), None).unwrap_err();
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.to_string().contains("Large > 0"), "{err}");
}

/// Garbled and truncated matrix lines: an error naming the line and what was there.
#[test]
fn broken_matrix_lines_are_errors_at_their_line() {
    let cases: &[(&str, Option<usize>, &str)] = &[
        ("Large/Small,      1,      2\n          0,   23x2,   4398\n", Some(2), "Small=1 and Large=0"),
        ("Large/Small,      1,      2\n          0,   2302,   4398,   5450\n", Some(2), "at most 2 values"),
        ("Large/Small,      1,     2x\n          0,   2302,   4398\n", Some(1), "\"2x\""),
        ("Large/Small,      1,      2\n         0x,   2302,   4398\n", Some(2), "large I/O count"),
        ("Large/Small,      1,      2\n          0,   2302,   -4398\n", Some(2), "Small=2 and Large=0"),
        ("Large/Small,      1,      2\n          0,   2302\n          0,   2303\n", Some(3), "second value"),
        // Cut off after its header: nothing to import.
        ("Large/Small,      1,      2\n", None, "matrix value"),
    ];
    for (input, line, needle) in cases {
        let err = parse_str_named(input, Some("t_iops.csv"), None).unwrap_err();
        assert_eq!(err.format, Some(Format::Orion), "{input}: {err}");
        assert_eq!(err.line, *line, "{input}: {err}");
        assert!(err.to_string().contains(needle), "{input}: {err}");
    }
}

/// ORION 19.3's console: the detail lines' maxima and the histogram's buckets become the
/// metrics' percentiles, each bucket's upper edge with the share ORION printed for it.
#[test]
fn the_histogram_and_maxima_are_percentiles() {
    let text = data("orion-19.3_console_simple_histogram.txt");
    let result = only_result(parse_str(&text, None).unwrap());
    // `       64 - 128        us:         1112243 ( 91.12%)              0 (  0.00%)`
    let printed: Vec<(f64, f64)> = text
        .lines()
        .filter(|l| l.trim_end().ends_with("%)") && l.contains(" us:"))
        .map(|l| {
            let (edges, counts) = l.split_once(" us:").unwrap();
            let upper: f64 = edges.split('-').nth(1).unwrap().trim().parse().unwrap();
            let read_share: f64 =
                counts.split('(').nth(1).unwrap().split('%').next().unwrap().trim().parse().unwrap();
            (read_share, upper)
        })
        .filter(|&(share, _)| share > 0.0 && share < 100.0)
        .collect();
    assert_eq!(printed.len(), 4, "{printed:?}");

    let latency = result.metrics.iter().find(|m| m.label == "Minimum Small Latency").unwrap();
    assert_eq!((latency.queue_depth, latency.latency_us), (2, Some(97.677)));
    let mut want: Vec<(f64, f64)> = printed.clone();
    want.push((100.0, 2133.198));
    let got: Vec<(f64, f64)> = latency.latency_percentiles.iter().map(|p| (p.percent, p.us)).collect();
    assert_eq!(got, want);
    assert_eq!(latency.latency_percentile(99.5), Some(256.0));

    let iops = result.metrics.iter().find(|m| m.label == "Maximum Small IOPS").unwrap();
    let got: Vec<(f64, f64)> = iops.latency_percentiles.iter().map(|p| (p.percent, p.us)).collect();
    assert_eq!(got, [(100.0, 1924.721)]);
    assert_eq!(iops.latency_us, Some(169.594));
    bench::parse::check_well_formed(&[result]).unwrap();
}

/// ORION 19.3's console: each detail line's minimum, maximum and standard deviation, and
/// the histogram's buckets with their counts, are the spread of the metric at that point;
/// a percentile found from the counts lies in the bucket whose printed share first
/// reaches it.
#[test]
fn the_detail_lines_and_histogram_are_the_latency_spread() {
    let text = data("orion-19.3_console_simple_histogram.txt");
    let result = only_result(parse_str(&text, None).unwrap());
    // `Small Read Latency: avg=97.677 us, min=63.652 us, max=2133.198 us, std dev=47.348 us @ ...`
    let field = |line: &str, name: &str| -> f64 {
        let after = line.split(&format!("{name}=")).nth(1).unwrap();
        after.split(" us").next().unwrap().trim().parse().unwrap()
    };
    let details: Vec<(u32, f64, f64, f64)> = text
        .lines()
        .filter(|l| l.starts_with("Small Read Latency:"))
        .map(|l| {
            let small: u32 =
                l.split("Small=").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
            (small, field(l, "min"), field(l, "max"), field(l, "std dev"))
        })
        .collect();
    assert_eq!(details.len(), 2);
    for (small, min, max, stddev) in details {
        let m = result.metrics.iter().find(|m| m.queue_depth == small).unwrap();
        let spread = m.latency_spread.as_ref().unwrap();
        assert_eq!(
            (spread.min_us, spread.max_us, spread.stddev_us),
            (Some(min), Some(max), Some(stddev)),
            "Small={small}"
        );
    }

    // `       64 - 128        us:         1112243 ( 91.12%)              0 (  0.00%)`
    let buckets: Vec<(f64, f64, u64, f64)> = text
        .lines()
        .filter(|l| l.trim_end().ends_with("%)") && l.contains(" us:"))
        .map(|l| {
            let (edges, counts) = l.split_once(" us:").unwrap();
            let (from, to) = edges.split_once('-').unwrap();
            let (count, share) = counts.split_once('(').unwrap();
            let share: f64 = share.split('%').next().unwrap().trim().parse().unwrap();
            (from.trim().parse().unwrap(), to.trim().parse().unwrap(), count.trim().parse().unwrap(), share)
        })
        .collect();
    assert_eq!(buckets.len(), 9);
    let latency = result.metrics.iter().find(|m| m.label == "Minimum Small Latency").unwrap();
    let spread = latency.latency_spread.as_ref().unwrap();
    let got: Vec<(f64, f64, u64)> = spread.histogram.iter().map(|b| (b.from_us, b.to_us, b.count)).collect();
    let want: Vec<(f64, f64, u64)> = buckets.iter().map(|&(f, t, c, _)| (f, t, c)).collect();
    assert_eq!(got, want);
    for percent in [50.0, 90.0, 99.0, 99.9, 99.99] {
        let bucket = spread.bucket_of_percentile(percent).unwrap();
        // ORION's shares are rounded to 0.01 %: the first bucket printed at or above the
        // percentile, give or take that rounding.
        let printed = buckets.iter().find(|b| b.3 >= percent - 0.005).unwrap();
        assert_eq!((bucket.from_us, bucket.to_us), (printed.0, printed.1), "p{percent}");
    }
    // The IOPS point printed its detail line but no histogram.
    let iops = result.metrics.iter().find(|m| m.label == "Maximum Small IOPS").unwrap();
    assert!(iops.latency_spread.as_ref().unwrap().histogram.is_empty());
    bench::parse::check_well_formed(&[result]).unwrap();
}

/// Every cut of the real files (an upload or paste that stopped early) is read or refused,
/// never a panic, and what is read keeps the parsers' promises.
#[test]
fn every_prefix_of_the_real_files_is_read_or_refused() {
    for name in [IOPS, LAT, MBPS, "hftian_15766049_console.txt", "orion-19.3_console_simple_histogram.txt"] {
        let text = data(name);
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            for hint in [Some(name), None] {
                if let Ok(results) = parse_str_named(&text[..end], hint, Some(Format::Orion)) {
                    bench::parse::check_well_formed(&results)
                        .unwrap_or_else(|e| panic!("{name}[..{end}]: {e}"));
                    assert!(results.iter().all(|r| r.repeated_test().is_none()), "{name}[..{end}]");
                }
            }
        }
    }
}

/// A `-run normal` matrix also holds mixed loads (both counts above 0): in ORION's own
/// layout (the real files' header and padding, with interior rows as a normal run fills
/// them), the pure row and column stay metrics and every interior cell is a mixed-load
/// point with the file's figure, read here independently of the parser.
#[test]
fn interior_cells_are_mixed_loads_with_the_files_numbers() {
    let iops = "Large/Small,      1,      2,      3\n          0,   2302,   4398,   5450\n          1,   1810,   3502,   4391\n          2,   1533,   2987,   3904\n";
    let mbps = "Large/Small,      0,      1,      2\n          1, 271.58, 250.14, 230.52\n          2, 374.26, 351.20, 320.93\n";
    for (name, text) in [(IOPS, iops), (MBPS, mbps)] {
        let result = only_result(parse_str_named(text, Some(name), None).unwrap());
        bench::parse::check_well_formed(std::slice::from_ref(&result)).unwrap();
        let cells = matrix_cells(text);
        let interior: Vec<(u32, u32, f64)> = cells.iter().copied().filter(|c| c.0 > 0 && c.1 > 0).collect();
        let got: Vec<(u32, u32, f64)> = result
            .mixed_loads
            .iter()
            .map(|p| (p.large, p.small, if name == IOPS { p.small_iops } else { p.large_mbps }.unwrap()))
            .collect();
        assert_eq!(got, interior, "{name}");
        assert_eq!(result.metrics.len(), cells.len() - interior.len(), "{name}: the pure points are metrics");
        assert!(result.metrics.iter().all(|m| m.label.contains("Small=0") || m.label.contains("Large=0")));
    }
}
