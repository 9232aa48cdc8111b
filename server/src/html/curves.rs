//! A result's behaviour under load as the result page shows it: each test it measured at
//! several loads as a table (outstanding I/Os, IOPS, MB/s, mean and tail latency) with
//! its knee, and the latency percentiles, spread and histogram the tool printed for each
//! test.

use api_types::{LoadBehaviour, LoadCurveView, SampledTest, TestPercentiles};
use bench::cache::WriteCache;
use bench::steady::{Steadiness, Window};
use bench::LatencySpread;
use maud::{html, Markup};

/// The percentiles shown in the tables: the median and the tail fio prints by default.
const SHOWN_PERCENTILES: [f64; 5] = [50.0, 90.0, 99.0, 99.9, 99.99];

/// One figure of a test's latency spread (its minimum, maximum or standard deviation).
type SpreadFigure = fn(&LatencySpread) -> Option<f64>;

/// A result's curves and percentiles; empty when it has neither.
pub fn load_behaviour(load: &LoadBehaviour) -> Markup {
    let shown: Vec<f64> = SHOWN_PERCENTILES
        .into_iter()
        .filter(|p| load.percentiles.iter().any(|t| bench::percentile_at(&t.percentiles, *p).is_some()))
        .collect();
    let spread = |t: &TestPercentiles, f: SpreadFigure| t.spread.as_ref().and_then(f);
    let spreads: [(&str, SpreadFigure); 3] =
        [("Min", |s| s.min_us), ("Max", |s| s.max_us), ("Std dev", |s| s.stddev_us)];
    let spreads: Vec<_> = spreads
        .into_iter()
        .filter(|(_, f)| load.percentiles.iter().any(|t| spread(t, *f).is_some()))
        .collect();
    html! {
        @for curve in &load.curves { (curve_table(curve)) }
        @for sampled in &load.over_time { (sampled_table(sampled)) }
        @if !load.mixed_loads.is_empty() { (mixed_table(&load.mixed_loads)) }
        @if !shown.is_empty() || !spreads.is_empty() {
            h3 { "Completion latency: percentiles and spread" }
            p.note {
                @if !shown.is_empty() {
                    "How long the slowest I/Os waited: 99 % of a test's I/Os completed within \
                     its p99 figure, which a mean hides. "
                }
                @if !spreads.is_empty() { "Min and max are the fastest and the slowest I/O." }
            }
            div.table-wrap { table #latency-percentiles {
                thead { tr {
                    th scope="col" { "Test" }
                    @for p in &shown { th scope="col" { "p" (percent_text(*p)) " (µs)" } }
                    @for (name, _) in &spreads { th scope="col" { (name) " (µs)" } }
                } }
                tbody {
                    @for t in &load.percentiles {
                        tr {
                            th scope="row" { (t.test) }
                            @for p in &shown { td.num { (figure(bench::percentile_at(&t.percentiles, *p))) } }
                            @for (_, f) in &spreads { td.num { (figure(spread(t, *f))) } }
                        }
                    }
                }
            } }
        }
        @for t in &load.percentiles {
            @if let Some(s) = t.spread.as_ref().filter(|s| !s.histogram.is_empty()) { (histogram_table(&t.test, s)) }
        }
    }
}

/// A test's latency histogram as its tool counted it: each bucket's I/Os and the share of
/// all of them that had completed by its upper edge.
fn histogram_table(test: &str, spread: &LatencySpread) -> Markup {
    let total: u64 = spread.histogram.iter().map(|b| b.count).sum();
    let mut within = 0u64;
    let rows: Vec<(&bench::LatencyBucket, f64)> = spread
        .histogram
        .iter()
        .map(|b| {
            within += b.count;
            (b, if total == 0 { 0.0 } else { within as f64 * 100.0 / total as f64 })
        })
        .collect();
    html! {
        h3 { "Latency histogram: " (test) }
        p.note { (total) " I/Os counted. A percentile lies in the first bucket whose running share reaches it." }
        div.table-wrap { table.latency-histogram {
            thead { tr {
                th scope="col" { "Latency (µs)" }
                th scope="col" { "I/Os" }
                th scope="col" { "Completed by its end" }
            } }
            tbody {
                @for (b, share) in &rows {
                    tr {
                        th scope="row" { (charts::format_value(b.from_us)) " – " (charts::format_value(b.to_us)) }
                        td.num { (b.count) }
                        td.num { (format!("{share:.2} %")) }
                    }
                }
            }
        } }
    }
}

/// ORION's mixed loads as its matrix: a row per count of large I/Os, a column per count
/// of small ones, each cell what was measured there (one figure per matrix file).
fn mixed_table(points: &[bench::MixedLoad]) -> Markup {
    let mut smalls: Vec<u32> = points.iter().map(|p| p.small).collect();
    let mut larges: Vec<u32> = points.iter().map(|p| p.large).collect();
    smalls.sort_unstable();
    smalls.dedup();
    larges.sort_unstable();
    larges.dedup();
    let cell = |p: &bench::MixedLoad| {
        let parts: Vec<String> = [
            p.small_iops.map(|v| format!("{} IOPS", charts::format_value(v))),
            p.small_latency_us.map(|v| format!("{} µs", charts::format_value(v))),
            p.large_mbps.map(|v| format!("{} MB/s", charts::format_value(v))),
        ]
        .into_iter()
        .flatten()
        .collect();
        parts.join(" · ")
    };
    html! {
        h3 { "Mixed loads: small and large I/Os at once" }
        p.note { "Each cell is one load of both kinds together: the small random I/Os' IOPS and latency, \
            the large I/Os' MB/s, as the run's matrix files give them. A mixed load is no single test, \
            so it is shown here and never compared." }
        div.table-wrap { table #mixed-loads {
            thead { tr {
                th scope="col" { "Large ↓ · small →" }
                @for s in &smalls { th scope="col" class="num" { (s) } }
            } }
            tbody {
                @for l in &larges {
                    tr {
                        th scope="row" { (l) }
                        @for s in &smalls {
                            td.num { @if let Some(p) = points.iter().find(|p| p.large == *l && p.small == *s) { (cell(p)) } }
                        }
                    }
                }
            }
        } }
    }
}

/// One test at its loads, the knee's row marked.
fn curve_table(curve: &LoadCurveView) -> Markup {
    let knee = curve.knee;
    let p99 = curve.points.iter().any(|p| p.p99_us.is_some());
    html! {
        h3 { (curve.test) " at " (curve.points.len()) " loads" }
        p.note {
            @match knee {
                Some(k) => {
                    "The knee is at " (curve.points[k].outstanding) " outstanding I/Os: from there on, each \
                     step added more latency than IOPS."
                }
                None if curve.points.iter().all(|p| p.latency_us.is_some()) => {
                    "No knee within these loads: the last step still added more IOPS than latency."
                }
                None => "Without latency figures, the knee cannot be found."
            }
        }
        div.table-wrap { table.load-curve {
            thead { tr {
                th scope="col" { "Outstanding I/Os" }
                th scope="col" { "Queue depth × threads" }
                th scope="col" { "IOPS" }
                th scope="col" { "MB/s" }
                th scope="col" { "Mean latency (µs)" }
                @if p99 { th scope="col" { "p99 (µs)" } }
            } }
            tbody {
                @for (i, p) in curve.points.iter().enumerate() {
                    tr class=[(knee == Some(i)).then_some("knee")] {
                        th scope="row" { (p.outstanding) @if knee == Some(i) { " (knee)" } }
                        td { (p.queue_depth) " × " (p.threads) }
                        td.num { (figure(p.iops)) }
                        td.num { (figure(p.mbps)) }
                        td.num { (figure(p.latency_us)) }
                        @if p99 { td.num { (figure(p.p99_us)) } }
                    }
                }
            }
        } }
    }
}

/// The most intervals a sampled test's table lists; longer runs are thinned evenly,
/// keeping the first and the last (the API's JSON has every one).
const MAX_ROWS: usize = 24;

/// One test over its run: whether it settled, and its rate interval by interval.
fn sampled_table(sampled: &SampledTest) -> Markup {
    let points = &sampled.points;
    let step = points.len().div_ceil(MAX_ROWS).max(1);
    let shown: Vec<usize> = (0..points.len()).filter(|i| i % step == 0 || *i + 1 == points.len()).collect();
    let secs = |i: usize| points.get(i).map_or(0.0, |p| p.secs);
    let window_text = |w: &Window| {
        format!(
            "{:.0}–{:.0} s: {:.1} MB/s on average, spread {:.0} %, drift {:.0} %",
            if w.from == 0 { 0.0 } else { secs(w.from - 1) },
            secs(w.to),
            w.average,
            w.data_excursion * 100.0,
            w.slope_excursion * 100.0
        )
    };
    let gib = |bytes: u64| format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64);
    html! {
        h3 {
            (sampled.test) " over " (format!("{:.0}", points.last().map_or(0.0, |p| p.secs))) " s"
            @if let Some(idle) = sampled.after_idle_secs { ", again after " (format!("{idle:.0}")) " s idle" }
        }
        @match &sampled.write_cache {
            Some(WriteCache::Found { cache_bytes, fell_at_secs, in_cache_mbps, after_cache_mbps }) => {
                p.write-cache {
                    "Write cache: " strong { (gib(*cache_bytes)) } " written at "
                    (charts::format_value(*in_cache_mbps)) " MB/s before the rate fell (at "
                    (format!("{fell_at_secs:.1}")) " s) and stayed at "
                    strong { (charts::format_value(*after_cache_mbps)) " MB/s" } "."
                    @if let Some(back) = sampled.cache_recovered {
                        " After the idle pause " (format!("{:.0}", back * 100.0)) " % of the first run's cache came back."
                    }
                }
            }
            Some(WriteCache::NotFound { written_bytes, mbps }) => {
                p.write-cache {
                    "No write cache found: the rate never fell below "
                    (format!("{:.0}", bench::cache::FALL_FRACTION * 100.0)) " % of its start and stayed there over "
                    (gib(*written_bytes)) " (" (charts::format_value(*mbps)) " MB/s on average): no cache, or one larger than what was written."
                    @if let Some(back) = sampled.cache_recovered {
                        " At least " (format!("{:.0}", back * 100.0)) " % of the first run's cache came back."
                    }
                }
            }
            None => {}
        }
        p.note {
            @match &sampled.steadiness {
                Steadiness::Reached { window } => {
                    "Steady state reached (SNIA PTS: five intervals within 20 % of their average, \
                     drifting less than 10 %): " (window_text(window)) "."
                }
                Steadiness::NotReached { last: Some(window) } => {
                    "Steady state not reached; the last five intervals: " (window_text(window)) "."
                }
                Steadiness::NotReached { last: None } => {
                    "Too few intervals to tell whether it reached steady state (five are needed)."
                }
            }
            @if step > 1 { " One interval in " (step) " is listed." }
        }
        div.table-wrap { table.over-time {
            thead { tr {
                th scope="col" { "Seconds" }
                th scope="col" { "GiB moved" }
                th scope="col" { "MB/s in the interval" }
                th scope="col" { "IOPS in the interval" }
            } }
            tbody {
                @for i in shown {
                    @let p = &points[i];
                    tr {
                        th scope="row" { (format!("{:.1}", p.secs)) }
                        td.num { (format!("{:.2}", p.bytes as f64 / (1u64 << 30) as f64)) }
                        td.num { (charts::format_value(p.mbps)) }
                        td.num { (figure(p.iops)) }
                    }
                }
            }
        } }
    }
}

/// `99.9`, `50`.
fn percent_text(p: f64) -> String {
    let text = format!("{p:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A figure as every table of the site prints it (`charts::format_value`), or `—`.
fn figure(v: Option<f64>) -> String {
    v.map_or_else(|| "—".into(), charts::format_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_named_as_fio_names_them() {
        assert_eq!(percent_text(99.9), "99.9");
        assert_eq!(percent_text(50.0), "50");
        assert_eq!(percent_text(99.99), "99.99");
    }
}
