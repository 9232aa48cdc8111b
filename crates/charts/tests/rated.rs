//! Rated vs measured: the table rows from the seed data, the charts drawn from the same
//! rows, and the chart's labels inside its width at every width.

use bench::analysis::{measured_for, summarize, RatedFigure};
use bench::seeds::{seed_dataset, Dataset};
use charts::*;
use plotters::prelude::*;
use plotters::style::FontDesc;

fn seeds() -> Dataset {
    seed_dataset().expect("the seed dataset loads")
}

/// The C300's three capacities with every seed result (no flags).
fn c300_rows(data: &Dataset, split: bool) -> Vec<api_types::RatedTableRow> {
    let skus: Vec<_> = [64, 128, 256]
        .iter()
        .map(|cap| data.drives.iter().find(|d| d.id == format!("crucial-realssd-c300-{cap}gb")).unwrap())
        .collect();
    let family: Vec<RatedDrive> = skus
        .iter()
        .map(|sku| {
            let samples = data
                .results
                .iter()
                .enumerate()
                .filter(|(_, r)| r.tags.drive.sku.as_deref() == Some(sku.id.as_str()))
                .map(|(i, r)| RatedSample { id: i as i64, result: &r.result, tags: &r.tags })
                .collect();
            (*sku, samples)
        })
        .collect();
    rated_rows(&family, split)
}

/// The C300 write rows read rated 70 / 140 / 215 MB/s beside the median, MAD and count of
/// each capacity's single-drive results, and the chart draws exactly those rows.
#[test]
fn the_table_rows_are_what_the_charts_draw() {
    let data = seeds();
    let rows = c300_rows(&data, false);
    let write: Vec<_> = rows.iter().filter(|r| r.figure == RatedFigure::SeqWriteMbps).collect();
    assert_eq!(write.iter().map(|r| r.rated).collect::<Vec<_>>(), [Some(70.0), Some(140.0), Some(215.0)]);
    for row in &write {
        let singles: Vec<(usize, f64)> = data
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.tags.drive.sku.as_deref() == Some(row.drive.as_str()) && r.tags.raid.is_none())
            .filter_map(|(i, r)| measured_for(&r.result, RatedFigure::SeqWriteMbps).map(|(_, v)| (i, v)))
            .collect();
        let s = summarize(&singles.iter().map(|x| x.1).collect::<Vec<_>>()).unwrap();
        assert_eq!(row.measured, Some(s), "{}", row.drive_label);
        assert_eq!(row.result_ids, singles.iter().map(|x| x.0 as i64).collect::<Vec<_>>());
        assert_eq!(row.gap_percent, Some((s.median / row.rated.unwrap() - 1.0) * 100.0));
        assert_eq!(row.tests.iter().map(|t| t.count).sum::<usize>(), s.count, "every result names its test");
        assert_eq!(row.platforms.iter().map(|t| t.count).sum::<usize>(), s.count);
        assert!(row.pool.is_none());
    }
    let charts = rated_charts(&rows);
    let (_, chart) = charts.iter().find(|c| c.0 == "seq-write").unwrap();
    for (bar, row) in chart.rows.iter().zip(&write) {
        assert_eq!(bar.label, format!("{} GB", row.capacity_gb));
        assert_eq!(Some(bar.rated), row.rated);
        assert_eq!(bar.measured, row.measured.map(|m| m.median));
        assert_eq!(bar.count, row.measured.unwrap().count);
    }
    assert_eq!(family_charts_figures(&rows), charts.iter().map(|c| c.0).collect::<Vec<_>>());

    // Split per platform group and data pattern, the pools' counts add up to the whole.
    let split = c300_rows(&data, true);
    for row in &write {
        let parts: Vec<_> = split.iter().filter(|r| r.figure == row.figure && r.drive == row.drive).collect();
        assert!(parts.iter().all(|r| r.pool.is_some()));
        assert_eq!(
            parts.iter().map(|r| r.measured.unwrap().count).sum::<usize>(),
            row.measured.unwrap().count
        );
    }
}

fn family_charts_figures(rows: &[api_types::RatedTableRow]) -> Vec<&'static str> {
    RATED_FIGURES
        .iter()
        .filter(|f| rows.iter().any(|r| r.figure == f.0 && r.rated.is_some()))
        .map(|f| f.1)
        .collect()
}

/// A drive rated for a figure nobody measured gets a row without a measurement; one
/// measured but not rated a row without a rating. Neither is a zero.
#[test]
fn missing_ratings_and_measurements_stay_missing() {
    let data = seeds();
    let mut sku = data.drives.iter().find(|d| d.id == "crucial-realssd-c300-64gb").unwrap().clone();
    sku.rated.seq_write_mbps = None;
    sku.rated.rnd4k_write_iops = Some(12345.0);
    let results: Vec<_> =
        data.results.iter().filter(|r| r.tags.drive.sku.as_deref() == Some(sku.id.as_str())).collect();
    // Only the results without any 4K write test: the 4K write rating is not measured.
    let samples: Vec<RatedSample> = results
        .iter()
        .filter(|r| measured_for(&r.result, RatedFigure::Rnd4kWriteIops).is_none())
        .map(|r| RatedSample { id: 1, result: &r.result, tags: &r.tags })
        .collect();
    let rows = rated_rows(&[(&sku, samples)], false);
    let write = rows.iter().find(|r| r.figure == RatedFigure::SeqWriteMbps).expect("a write row");
    assert_eq!(write.rated, None, "not rated");
    assert!(write.measured.is_some() && write.gap_percent.is_none());
    let iops = rows.iter().find(|r| r.figure == RatedFigure::Rnd4kWriteIops).expect("a 4K write row");
    assert_eq!((iops.rated, iops.measured, iops.gap_percent), (Some(12345.0), None, None), "no measurement");
    assert!(iops.result_ids.is_empty());
    // The chart has no bar for the unrated figure and an empty one for the unmeasured.
    let charts = rated_charts(&rows);
    assert!(charts.iter().all(|c| c.0 != "seq-write"));
    let (_, c) = charts.iter().find(|c| c.0 == "rnd4k-write").unwrap();
    assert_eq!(c.rows[0].measured, None);
}

/// `(x, anchor, text)` of every `<text>` element of an SVG document.
fn text_elements(svg: &str) -> Vec<(f64, String, String)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let (attrs, rest) = t.split_once('>')?;
            let attr = |name: &str| {
                let start = attrs.find(&format!(" {name}=\""))? + name.len() + 3;
                Some(attrs[start..].split('"').next()?.to_string())
            };
            let x: f64 = attr("x")?.parse().ok()?;
            let anchor = attr("text-anchor").unwrap_or_else(|| "start".into());
            let body = rest.split_once("</text>")?.0.trim();
            let body = body.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
            Some((x, anchor, body))
        })
        .collect()
}

/// At every width the embeds allow (and the phone widths of the site), each label's box,
/// measured with the font it is drawn in, lies within the chart: the figures right of the
/// bars used to run off the right edge.
#[test]
fn rated_chart_labels_stay_inside_the_chart_at_every_width() {
    register_native_fonts();
    let data = seeds();
    let mut rows = c300_rows(&data, false);
    // The longest notes a row can carry.
    for r in rows.iter_mut() {
        let n = r.measured.map_or(0, |m| m.count);
        r.flags = ["interface ceiling", "cache-inflated", "far above rated", "0-fill data"]
            .map(|name| api_types::Tally { name: name.into(), count: n })
            .into();
    }
    let font = FontDesc::new(FontFamily::SansSerif, 12.0, FontStyle::Normal);
    // And 4K IOPS in the hundred thousands (the M5 Pro's ratings), the widest figures.
    let iops = RatedBars {
        figure: "Random 4K write".into(),
        unit: "IOPS".into(),
        rows: vec![
            RatedRow {
                label: "128 GB".into(),
                rated: 82000.0,
                measured: Some(123456.0),
                count: 1234,
                note: None,
            },
            RatedRow { label: "512 GB".into(), rated: 100000.0, measured: None, count: 0, note: None },
        ],
    };
    for chart in rated_charts(&rows).into_iter().map(|c| c.1).chain([iops]) {
        for width in [300u32, 320, 360, 480, 600, 720, 1024, 1600] {
            let mut svg = String::new();
            {
                let area =
                    SVGBackend::with_string(&mut svg, (width, rated_bars_height(&chart))).into_drawing_area();
                let hits = draw_rated_bars(&area, &chart, &Theme::LIGHT).unwrap();
                assert!(hits.iter().all(|h| h.x0 >= 0 && h.x1 <= width as i32));
                area.present().unwrap();
            }
            let texts = text_elements(&svg);
            assert!(texts.len() > chart.rows.len() * 2, "{svg}");
            for (x, anchor, t) in texts {
                let (w, _) = font.box_size(&t).unwrap();
                let w = f64::from(w);
                let (left, right) = match anchor.as_str() {
                    "middle" => (x - w / 2.0, x + w / 2.0),
                    "end" => (x - w, x),
                    _ => (x, x + w),
                };
                assert!(
                    left >= 0.0 && right <= f64::from(width),
                    "{t:?} spans {left:.0}..{right:.0} in a {width} px {} chart",
                    chart.figure
                );
            }
        }
    }
}

/// Flags belong to the matched metric itself. CrystalDiskMark 6+ labels a test's read and
/// write rows alike (`Sequential 1MiB (Q= 8, T= 1)`): a read pinned at the SATA 6 Gb/s
/// ceiling must not mark the write of the same label, which is far below it.
#[test]
fn a_flag_of_the_read_does_not_mark_the_write_of_the_same_label() {
    use bench::{Access, Link, Metric, Op, Tool};
    let metric = |op: Op, mbps: f64| Metric {
        label: "Sequential 1MiB (Q= 8, T= 1)".into(),
        access: Access::Seq,
        block_size: 1 << 20,
        queue_depth: 8,
        threads: 1,
        op,
        mbps: Some(mbps),
        iops: None,
        latency_us: None,
        mix_read_percent: None,
        stat: None,
        latency_percentiles: Vec::new(),
        latency_spread: None,
    };
    let mut result = bench::BenchResult::new(Tool::CrystalDiskMark);
    result.tool_version = Some("8.0.4 x64".into());
    result.metrics = vec![metric(Op::Read, 540.0), metric(Op::Write, 260.0)];
    let mut tags = bench::Tags::default();
    tags.platform.link = Some(Link::Sata { gbps: 6.0 });
    let data = seeds();
    let mut sku = data.drives.iter().find(|d| d.id == "patriot-wildfire-120gb").unwrap().clone();
    sku.rated.seq_read_mbps = Some(555.0);
    sku.rated.seq_write_mbps = Some(520.0);
    let rows = rated_rows(&[(&sku, vec![RatedSample { id: 7, result: &result, tags: &tags }])], false);
    let of = |f: RatedFigure| rows.iter().find(|r| r.figure == f).unwrap();
    let names = |f: RatedFigure| of(f).flags.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(RatedFigure::SeqReadMbps), ["interface ceiling"]);
    assert!(names(RatedFigure::SeqWriteMbps).is_empty(), "{:?}", of(RatedFigure::SeqWriteMbps));
}
