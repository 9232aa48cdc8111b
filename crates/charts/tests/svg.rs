//! Every chart kind rendered to SVG from the real seed dataset, checked for what a reader
//! must see: bars, names, values, sample counts, missing tests.

use bench::analysis::{interface_flags, measured_for, summarize, FlagKind, RatedFigure};
use bench::seeds::{seed_dataset, Dataset};
use bench::TestKey;
use charts::*;
use plotters::prelude::*;
use std::collections::BTreeMap;

fn seeds() -> Dataset {
    seed_dataset().expect("the seed dataset loads")
}

/// Renders with a fresh SVG backend and returns the document and the hit boxes.
fn render<F>(size: (u32, u32), draw: F) -> (String, Vec<HitBox>)
where
    F: FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Vec<HitBox>,
{
    register_native_fonts();
    let mut svg = String::new();
    let hits = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let hits = draw(&area);
        area.present().expect("svg presents");
        hits
    };
    (svg, hits)
}

/// The compare chart's input for `drives` the way `charts::compare::compare_panels` builds
/// it from the compare API: per test, one row per platform group and data pattern (the
/// pools the server aggregates) with a bar per drive measured there; a test only one pool
/// has is listed, not drawn.
fn compare_chart(data: &Dataset, drives: &[&str]) -> ComparePanels {
    // test → pool label → drive → samples
    let mut samples: BTreeMap<TestKey, BTreeMap<String, BTreeMap<usize, Vec<f64>>>> = BTreeMap::new();
    for (d, drive) in drives.iter().enumerate() {
        for r in data.results.iter().filter(|r| r.tags.drive.sku.as_deref() == Some(drive)) {
            let label =
                api_types::pool_label(&bench::PlatformGroup::of(&r.tags).label(), r.result.data_pattern);
            for (key, m) in r.result.keyed_metrics() {
                if let Some(v) = m.mbps {
                    samples
                        .entry(key)
                        .or_default()
                        .entry(label.clone())
                        .or_default()
                        .entry(d)
                        .or_default()
                        .push(v);
                }
            }
        }
    }
    let mut panels = Vec::new();
    let mut also_measured = Vec::new();
    for (t, (key, rows)) in samples.into_iter().enumerate() {
        let pools: usize = rows.values().map(BTreeMap::len).sum();
        let rows: Vec<PanelRow> = rows
            .into_iter()
            .map(|(label, per_drive)| PanelRow {
                label,
                bars: per_drive
                    .into_iter()
                    .map(|(drive, v)| {
                        let s = summarize(&v).unwrap();
                        PanelBar { drive, pool: 0, value: s.median, spread: s.mad, count: s.count, vs: None }
                    })
                    .collect(),
            })
            .collect();
        if pools < 2 {
            also_measured.push(format!(
                "{}: {} n={}",
                key.short_name(),
                rows[0].label,
                rows[0].bars[0].count
            ));
        } else {
            panels.push(Panel { test: t, title: key.short_name(), rows });
        }
    }
    ComparePanels {
        unit: "MB/s".into(),
        drives: drives.iter().map(|d| d.to_string()).collect(),
        panels,
        common: vec![],
        also_measured,
    }
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// The text of every `<text>` element, in order.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
        .collect()
}

#[test]
fn compare_chart_sets_drives_side_by_side_per_test_and_platform() {
    let data = seeds();
    let drives = ["crucial-realssd-c300-256gb", "plextor-px-m2s-256gb", "patriot-wildfire-120gb"];
    let chart = compare_chart(&data, &drives);
    assert!(chart.panels.len() >= 2, "the seeds have several comparable tests: {:?}", chart.panels);
    // The articles' comparison: C300 and M2S on the same U3S6 card with 0-fill data.
    let write = chart.panels.iter().find(|p| p.title == "SEQ 1MiB Q1T1 write").expect("a write panel");
    let u3s6 =
        write.rows.iter().find(|r| r.label.starts_with("ASUS U3S6") && r.label.ends_with("0-fill")).unwrap();
    assert_eq!(u3s6.bars.iter().map(|b| b.drive).collect::<Vec<_>>(), [0, 1], "C300 and M2S side by side");

    let height = compare_panels_height(&chart, 800);
    let (svg, hits) = render((800, height), |area| draw_compare_panels(area, &chart, &Theme::LIGHT).unwrap());
    let t = texts(&svg);
    for name in &chart.drives {
        assert!(t.contains(name), "legend names {name}");
    }
    let bars: Vec<&PanelBar> = chart.panels.iter().flat_map(|p| &p.rows).flat_map(|r| &r.bars).collect();
    for p in &chart.panels {
        assert!(t.contains(&format!("{} · MB/s", p.title)), "panel {} is titled", p.title);
    }
    for b in &bars {
        let label = format!("{} n={}", format_value(b.value), b.count);
        assert!(t.contains(&label), "bar label {label:?}");
    }
    assert!(!t.iter().any(|s| s == "missing"), "no missing slots");
    assert_eq!(hits.len(), bars.len(), "one hit box per bar");
    // Colour means the drive: each drive's colour fills its bars and its legend swatch.
    for (d, colour) in Theme::LIGHT.series.iter().take(3).enumerate() {
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", colour.0, colour.1, colour.2);
        assert_eq!(count(&svg, &fill), 1 + bars.iter().filter(|b| b.drive == d).count(), "drive {d}");
    }
    // Single-pool tests are listed under the chart.
    assert!(!chart.also_measured.is_empty());
    assert!(t.iter().any(|s| s.starts_with("Also measured")));
    // Hit boxes sit inside the picture and map back to the right bar.
    let first = hits[0];
    assert!(first.y1 <= height as i32 && first.x0 >= 0 && first.x1 <= 800);
    assert_eq!(hit(&hits, first.x0 + 1, first.y0 + 1).map(|h| (h.group, h.item)), Some((0, 0)));
}

#[test]
fn three_drives_four_platforms_four_tests_fit_800_by_600() {
    // The shape an article figure has: C300 vs M2S vs WILDFIRE on four platforms.
    let bar = |drive| PanelBar {
        drive,
        pool: 0,
        value: 250.0 + drive as f64 * 60.0,
        spread: 4.0,
        count: 3,
        vs: None,
    };
    let row = |label: &str| PanelRow { label: label.into(), bars: (0..3).map(bar).collect() };
    let platforms = [
        "Intel ICH10R · IMSM · RAID · sata-3 · 0-fill",
        "ASUS U3S6 (Marvell 88SE9123) on ICH10R · Marvell · AHCI · sata-6 · pcie-2-x4 host · random",
        "AMD SB850 · ATi AHCI · AHCI · sata-6 · pattern unknown",
        "Intel Z68 (chipset SATA) · Intel AHCI · AHCI · sata-6 · random",
    ];
    let panels = ["SEQ 1MiB Q1T1 read", "SEQ 1MiB Q1T1 write", "RND 4KiB Q1T1 read", "RND 4KiB Q32T1 read"]
        .iter()
        .enumerate()
        .map(|(t, title)| Panel {
            test: t,
            title: title.to_string(),
            rows: platforms.iter().map(|p| row(p)).collect(),
        })
        .collect();
    let chart = ComparePanels {
        unit: "MB/s".into(),
        drives: vec![
            "Crucial RealSSD C300 256 GB".into(),
            "Plextor PX-M2S 256 GB".into(),
            "Patriot WILDFIRE 120 GB".into(),
        ],
        panels,
        common: vec![],
        also_measured: vec![],
    };
    let height = compare_panels_height(&chart, 800);
    assert!(height <= 600, "{height} px");
    let (svg, hits) = render((800, height), |area| draw_compare_panels(area, &chart, &Theme::LIGHT).unwrap());
    assert_eq!(hits.len(), 48);
    // Every label fits its column: the longest platform is broken into two lines, cut
    // with an ellipsis rather than running into the bars.
    for h in &hits {
        assert!(h.x1 <= 800 && h.y1 <= height as i32, "{h:?}");
    }
    assert!(texts(&svg).iter().any(|s| s.starts_with("ASUS U3S6")));
}

#[test]
fn compare_chart_draws_at_phone_width_and_in_the_dark_theme() {
    let data = seeds();
    let chart = compare_chart(&data, &["crucial-realssd-c300-256gb", "plextor-px-m2s-256gb"]);
    let (svg, hits) = render((340, compare_panels_height(&chart, 340)), |area| {
        draw_compare_panels(area, &chart, &Theme::DARK).unwrap()
    });
    assert!(svg.contains("fill=\"#18181B\""), "dark background");
    // Every bar stays inside the 340 px.
    for h in &hits {
        assert!(h.x0 >= 0 && h.x1 <= 340, "{h:?}");
    }
    assert!(texts(&svg).iter().any(|s| s.starts_with("SEQ")));
}

#[test]
fn more_drives_than_colours_are_numbered() {
    let data = seeds();
    let drives = [
        "crucial-realssd-c300-64gb",
        "crucial-realssd-c300-128gb",
        "crucial-realssd-c300-256gb",
        "plextor-px-m2s-128gb",
        "plextor-px-m2s-256gb",
        "patriot-wildfire-120gb",
        "crucial-realssd-c400-128gb",
    ];
    let chart = compare_chart(&data, &drives);
    assert!(chart.drives.len() > Theme::LIGHT.series.len());
    let (svg, _) = render((800, compare_panels_height(&chart, 800)), |area| {
        draw_compare_panels(area, &chart, &Theme::LIGHT).unwrap()
    });
    let t = texts(&svg);
    assert!(t.contains(&format!("7. {}", chart.drives[6])), "legend entries are numbered");
    for b in chart.panels.iter().flat_map(|p| &p.rows).flat_map(|r| &r.bars) {
        let label = format!("{}: {} n={}", b.drive + 1, format_value(b.value), b.count);
        assert!(t.contains(&label), "{label}");
    }
}

#[test]
fn distribution_plot_shows_every_sample_and_the_median() {
    let data = seeds();
    // C300 128 GB sequential read per storage controller: the platform decides the number.
    let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut test = None;
    for r in data.results.iter().filter(|r| r.tags.drive.sku.as_deref() == Some("crucial-realssd-c300-128gb"))
    {
        for (key, m) in r.result.keyed_metrics() {
            if key.op == bench::Op::Read && key.access == bench::Access::Seq {
                let t = *test.get_or_insert(key);
                if t == key {
                    let platform =
                        r.tags.platform.storage_controller.clone().unwrap_or_else(|| "unknown".into());
                    groups.entry(platform).or_default().extend(m.mbps);
                }
            }
        }
    }
    let chart = Distribution {
        test: test.expect("C300 has a sequential read").short_name(),
        unit: "MB/s".into(),
        groups: groups.into_iter().map(|(label, values)| DistGroup { label, values }).collect(),
    };
    assert!(chart.groups.len() >= 2, "C300 128 GB was measured on several controllers");
    let samples: usize = chart.groups.iter().map(|g| g.values.len()).sum();
    let (svg, hits) = render((600, distribution_height(&chart)), |area| {
        draw_distribution(area, &chart, &Theme::LIGHT).unwrap()
    });
    assert_eq!(count(&svg, "<circle"), samples, "one dot per sample");
    assert_eq!(hits.iter().filter(|h| h.item != usize::MAX).count(), samples);
    let t = texts(&svg);
    assert!(t.contains(&chart.test));
    for g in &chart.groups {
        let s = summarize(&g.values).unwrap();
        assert!(t.contains(&g.label));
        assert!(t.contains(&format!("{} n={}", format_value(s.median), s.count)), "{}", g.label);
    }
}

#[test]
fn rated_vs_measured_shows_the_seed_figures_and_gaps() {
    let data = seeds();
    // C300 sequential write per capacity (rated 70/140/215 MB/s): the best random-data
    // measurement of each capacity on a SATA 6 Gb/s port.
    let mut rows = Vec::new();
    for cap in [64, 128, 256] {
        let id = format!("crucial-realssd-c300-{cap}gb");
        let sku = data.drives.iter().find(|d| d.id == id).unwrap();
        let measured: Vec<f64> = data
            .results
            .iter()
            .filter(|r| r.tags.drive.sku.as_deref() == Some(id.as_str()) && r.tags.raid.is_none())
            .filter_map(|r| measured_for(&r.result, RatedFigure::SeqWriteMbps).map(|(_, v)| v))
            .collect();
        rows.push(RatedRow {
            label: format!("{cap} GB"),
            rated: sku.rated.seq_write_mbps.unwrap(),
            measured: measured.iter().copied().reduce(f64::max),
            count: measured.len(),
            note: None,
        });
    }
    let chart = RatedBars { figure: "Sequential write".into(), unit: "MB/s".into(), rows };
    let (svg, hits) = render((600, rated_bars_height(&chart)), |area| {
        draw_rated_bars(area, &chart, &Theme::LIGHT).unwrap()
    });
    assert_eq!(hits.len(), 3);
    let t = texts(&svg);
    for row in &chart.rows {
        let m = row.measured.expect("every C300 capacity has a write measurement");
        let gap = row.gap_percent().unwrap();
        let label = format!("{} / {} {gap:+.1} % n={}", format_value(m), format_value(row.rated), row.count);
        assert!(t.contains(&label), "{label:?} in {t:?}");
    }
    // The 64 GB drive writes above its 70 MB/s rating.
    assert!(chart.rows[0].gap_percent().unwrap() > 0.0);
    assert!(t.iter().any(|s| s == "rated") && t.iter().any(|s| s == "measured"));
}

/// The drive page's charts from a model line: the C300's three capacities with every
/// seed result. Per rated figure one chart, per capacity the rating, the median of the
/// single-drive results (RAID sets left out) with their count, and the flags on the
/// charted metric counted in the note.
#[test]
fn a_model_lines_rated_charts_come_from_its_single_drive_results() {
    let data = seeds();
    let skus: Vec<_> = [64, 128, 256]
        .map(|cap| {
            data.drives.iter().find(|d| d.id == format!("crucial-realssd-c300-{cap}gb")).unwrap().clone()
        })
        .into();
    let family: Vec<_> = skus
        .iter()
        .map(|sku| {
            let samples = data
                .results
                .iter()
                .enumerate()
                .filter(|(_, r)| r.tags.drive.sku.as_deref() == Some(sku.id.as_str()))
                .map(|(i, r)| RatedSample { id: i as i64, result: &r.result, tags: &r.tags })
                .collect();
            (sku, samples)
        })
        .collect();
    let charts = family_charts(&family);

    let rated_figures: Vec<&str> = RATED_FIGURES
        .iter()
        .filter(|f| skus.iter().any(|s| f.0.of(&s.rated).is_some()))
        .map(|f| f.1)
        .collect();
    assert_eq!(charts.iter().map(|c| c.0).collect::<Vec<_>>(), rated_figures, "one chart per rated figure");
    let (_, write) = charts.iter().find(|c| c.0 == "seq-write").expect("the C300 has a write rating");
    assert_eq!(
        write.rows.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(),
        ["64 GB", "128 GB", "256 GB"]
    );
    for (row, sku) in write.rows.iter().zip(&skus) {
        assert_eq!(Some(row.rated), sku.rated.seq_write_mbps);
        let singles: Vec<f64> = data
            .results
            .iter()
            .filter(|r| r.tags.drive.sku.as_deref() == Some(sku.id.as_str()) && r.tags.raid.is_none())
            .filter_map(|r| measured_for(&r.result, RatedFigure::SeqWriteMbps).map(|(_, v)| v))
            .collect();
        assert_eq!(row.count, singles.len(), "{}: single drives only", row.label);
        assert_eq!(row.measured, summarize(&singles).map(|s| s.median), "{}", row.label);
    }
    let all_64 =
        data.results.iter().filter(|r| r.tags.drive.sku.as_deref() == Some(skus[0].id.as_str())).count();
    assert!(write.rows[0].count < all_64, "the 64 GB drive's RAID results are left out");
    // The note counts the flags of the charted metric: the 64 GB drive's reads on SATA
    // 3 Gb/s ports sit at the link's ceiling (277 MB/s), its writes nowhere near it.
    let (_, read) = charts.iter().find(|c| c.0 == "seq-read").expect("the C300 has a read rating");
    let pinned = data
        .results
        .iter()
        .filter(|r| r.tags.drive.sku.as_deref() == Some(skus[0].id.as_str()) && r.tags.raid.is_none())
        .filter(|r| {
            let (m, _) = measured_for(&r.result, RatedFigure::SeqReadMbps).unwrap();
            interface_flags(&r.result, &r.tags)
                .iter()
                .any(|f| f.kind == FlagKind::InterfaceCeiling && f.label == m.label)
        })
        .count();
    assert!(pinned > 0);
    let note = read.rows[0].note.clone().unwrap_or_default();
    assert!(note.contains(&format!("interface ceiling: {pinned} of {}", read.rows[0].count)), "{note}");
    for row in &write.rows {
        assert!(!row.note.clone().unwrap_or_default().contains("interface ceiling"), "{row:?}");
    }
}

#[test]
fn bars_carry_their_difference_from_the_reference_as_a_mark() {
    use bench::difference::{Difference, Verdict};
    let d = |ratio: f64, verdict| Difference {
        ratio,
        low: Some(ratio * 0.97),
        high: Some(ratio * 1.03),
        verdict,
        n_a: 8,
        n_b: 8,
    };
    let bars = vec![
        PanelBar {
            drive: 0,
            pool: 0,
            value: 400.0,
            spread: 2.0,
            count: 8,
            vs: Some(BarDifference::Reference),
        },
        PanelBar {
            drive: 1,
            pool: 1,
            value: 440.0,
            spread: 2.0,
            count: 8,
            vs: Some(BarDifference::Against(d(1.1, Verdict::Clear))),
        },
        PanelBar {
            drive: 2,
            pool: 2,
            value: 401.0,
            spread: 2.0,
            count: 8,
            vs: Some(BarDifference::Against(d(1.0, Verdict::NoEvidence))),
        },
    ];
    let chart = ComparePanels {
        unit: "MB/s".into(),
        drives: vec!["A".into(), "B".into(), "C".into()],
        panels: vec![Panel {
            test: 0,
            title: "SEQ 1MiB Q1T1 read".into(),
            rows: vec![PanelRow { label: "Z68".into(), bars }],
        }],
        common: vec![],
        also_measured: vec![],
    };
    let height = compare_panels_height(&chart, 600);
    let (svg, hits) = render((600, height), |area| draw_compare_panels(area, &chart, &Theme::LIGHT).unwrap());
    assert_eq!(texts(&svg).iter().filter(|t| t.as_str() == "ref").count(), 1, "the reference says so");
    // One dot per compared bar, the clear one filled, the other an outline.
    assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
    assert!(hits.iter().all(|h| h.x1 <= 600), "{hits:?}");
}
