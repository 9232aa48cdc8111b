//! A result's behaviour under load as the result page shows it: each test it measured at
//! several loads as a table (outstanding I/Os, IOPS, MB/s, mean and tail latency) with
//! its knee, and the latency percentiles the tool printed for each test.

use api_types::{LoadBehaviour, LoadCurveView};
use maud::{html, Markup};

/// The percentiles shown in the tables: the median and the tail fio prints by default.
const SHOWN_PERCENTILES: [f64; 5] = [50.0, 90.0, 99.0, 99.9, 99.99];

/// The percentile `percent` of a list, when it was printed.
fn at(percentiles: &[bench::LatencyPercentile], percent: f64) -> Option<f64> {
    percentiles.iter().find(|p| (p.percent - percent).abs() < 1e-9).map(|p| p.us)
}

/// A result's curves and percentiles; empty when it has neither.
pub fn load_behaviour(load: &LoadBehaviour) -> Markup {
    let shown: Vec<f64> = SHOWN_PERCENTILES
        .into_iter()
        .filter(|p| load.percentiles.iter().any(|t| at(&t.percentiles, *p).is_some()))
        .collect();
    html! {
        @for curve in &load.curves { (curve_table(curve)) }
        @if !shown.is_empty() {
            h3 { "Completion latency percentiles" }
            p.note { "How long the slowest I/Os waited: 99 % of a test's I/Os completed within \
                its p99 figure, which a mean hides." }
            div.table-wrap { table #latency-percentiles {
                thead { tr {
                    th scope="col" { "Test" }
                    @for p in &shown { th scope="col" { "p" (percent_text(*p)) " (µs)" } }
                } }
                tbody {
                    @for t in &load.percentiles {
                        tr {
                            th scope="row" { (t.test) }
                            @for p in &shown { td.num { (us_text(at(&t.percentiles, *p))) } }
                        }
                    }
                }
            } }
        }
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
                        td.num { (number(p.iops, 0)) }
                        td.num { (number(p.mbps, 1)) }
                        td.num { (us_text(p.latency_us)) }
                        @if p99 { td.num { (us_text(p.p99_us)) } }
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

fn us_text(us: Option<f64>) -> String {
    match us {
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
        None => "—".into(),
    }
}

fn number(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "—".into(), |v| format!("{v:.decimals$}"))
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
