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

/// The compare chart's input for `drives` the way the site builds it from the compare
/// API: one series per drive, platform group and data pattern (the pools the server
/// aggregates), MB/s medians per test, missing where a series lacks the test.
fn compare_chart(data: &Dataset, drives: &[&str]) -> GroupedBars {
    let mut samples: BTreeMap<TestKey, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut series: Vec<String> = Vec::new();
    for drive in drives {
        let mut pools: Vec<String> = Vec::new();
        for r in data.results.iter().filter(|r| r.tags.drive.sku.as_deref() == Some(drive)) {
            let pattern = format!("{:?}", r.result.data_pattern);
            let pool = format!("{drive} · {} · {pattern}", bench::PlatformGroup::of(&r.tags).label());
            for (key, m) in r.result.keyed_metrics() {
                if let Some(v) = m.mbps {
                    samples.entry(key).or_default().entry(pool.clone()).or_default().push(v);
                }
            }
            pools.push(pool);
        }
        pools.sort();
        pools.dedup();
        series.extend(pools);
    }
    GroupedBars {
        unit: "MB/s".into(),
        groups: samples
            .into_iter()
            .map(|(key, per_pool)| BarGroup {
                name: key.short_name(),
                bars: series
                    .iter()
                    .map(|p| match per_pool.get(p).and_then(|v| summarize(v)) {
                        Some(s) => Bar { value: Some(s.median), spread: Some(s.mad), count: s.count },
                        None => Bar { value: None, spread: None, count: 0 },
                    })
                    .collect(),
            })
            .collect(),
        series,
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
fn compare_chart_shows_every_test_with_values_counts_and_missing_slots() {
    let data = seeds();
    let drives = ["crucial-realssd-c300-128gb", "plextor-px-m2s-128gb", "patriot-wildfire-120gb"];
    let chart = compare_chart(&data, &drives);
    assert!(chart.groups.len() >= 4, "the seeds have several comparable tests: {:?}", chart.groups);
    let present: usize = chart.groups.iter().flat_map(|g| &g.bars).filter(|b| b.value.is_some()).count();
    let missing: usize = chart.groups.iter().flat_map(|g| &g.bars).filter(|b| b.value.is_none()).count();
    assert!(missing > 0, "SF-2281 results use another tool version, so some tests are missing");
    assert!(present > chart.groups.len(), "most tests have more than one drive");

    let height = grouped_bars_height(&chart, 640);
    let (svg, hits) = render((640, height), |area| draw_grouped_bars(area, &chart, &Theme::LIGHT).unwrap());
    let t = texts(&svg);
    // (Numbered when there are more series than colours.)
    for name in &chart.series {
        assert!(t.iter().any(|s| s.ends_with(name.as_str())), "legend names {name}");
    }
    for g in &chart.groups {
        assert!(t.contains(&g.name), "test {} is labelled", g.name);
        for b in g.bars.iter().filter_map(|b| Some((b.value?, b.count))) {
            let label = format!("{} n={}", format_value(b.0), b.1);
            assert!(t.iter().any(|s| s.ends_with(&label)), "bar label {label:?} in {}", g.name);
        }
    }
    assert_eq!(t.iter().filter(|s| s.as_str() == "missing").count(), missing);
    assert_eq!(t.iter().filter(|s| s.contains(" n=")).count(), present);
    // One filled rect per bar and per legend swatch, plus the background.
    let series_fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", 0, 114, 178);
    assert!(count(&svg, &series_fill) > chart.groups.iter().filter(|g| g.bars[0].value.is_some()).count());
    assert_eq!(hits.len(), chart.groups.len() * chart.series.len(), "one hit box per slot");
    // Hit boxes sit inside the picture and map back to the right slot.
    let first = hits[0];
    assert!(first.y1 <= height as i32 && first.x0 >= 0);
    assert_eq!(hit(&hits, first.x0 + 1, first.y0 + 1).map(|h| (h.group, h.item)), Some((0, 0)));
}

#[test]
fn compare_chart_draws_at_phone_width_and_in_the_dark_theme() {
    let data = seeds();
    let chart = compare_chart(&data, &["crucial-realssd-c300-64gb", "plextor-px-m2s-256gb"]);
    let (svg, hits) = render((340, grouped_bars_height(&chart, 340)), |area| {
        draw_grouped_bars(area, &chart, &Theme::DARK).unwrap()
    });
    // Narrow: every test name is written out in full on its own line.
    let t = texts(&svg);
    for g in &chart.groups {
        assert!(t.contains(&g.name), "{} in full at phone width", g.name);
    }
    assert!(svg.contains("fill=\"#18181B\""), "dark background");
    // Every bar stays inside the 340 px.
    for h in &hits {
        assert!(h.x0 >= 0 && h.x0 < 340, "{h:?}");
    }
    assert!(texts(&svg).iter().any(|s| s.starts_with("SEQ")));
}

#[test]
fn more_series_than_colours_are_numbered() {
    let data = seeds();
    let chart = compare_chart(&data, &["crucial-realssd-c300-64gb", "plextor-px-m2s-256gb"]);
    assert!(chart.series.len() > Theme::LIGHT.series.len(), "{:?}", chart.series);
    let (svg, _) = render((640, grouped_bars_height(&chart, 640)), |area| {
        draw_grouped_bars(area, &chart, &Theme::LIGHT).unwrap()
    });
    let t = texts(&svg);
    assert!(t.contains(&format!("7. {}", chart.series[6])), "legend entries are numbered");
    for g in &chart.groups {
        for (i, b) in g.bars.iter().enumerate() {
            if let Some(v) = b.value {
                let label = format!("{}: {} n={}", i + 1, format_value(v), b.count);
                assert!(t.contains(&label), "{label} in {}", g.name);
            }
        }
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
