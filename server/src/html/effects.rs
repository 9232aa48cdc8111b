//! The factor effects as the site shows them (`/effects`): per factor, a table of its
//! effects with a mark of each interval, and the drives behind one effect; and a drive's
//! firmware steps (its page); and where a result stands and why (the result page).

use api_types::links::{self, with_query};
use api_types::{
    EffectDrives, Effects, FactorEffect, FactorEffects, FirmwareHistory, FirmwareSeries, FirmwareStep,
    ResultStanding, TestStandingView,
};
use bench::difference::Verdict;
use bench::effects::Effect;
use maud::{html, Markup};

/// `×1.51 (+51 %)`.
pub fn ratio_text(r: f64) -> String {
    let percent = (r - 1.0) * 100.0;
    let sign = if percent >= 0.0 { "+" } else { "−" };
    format!("×{r:.2} ({sign}{:.0} %)", percent.abs())
}

/// `×1.48–1.55`, or a dash when there is no interval.
fn interval_text(low: Option<f64>, high: Option<f64>) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("×{l:.2}–{h:.2}"),
        _ => "—".to_string(),
    }
}

fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Clear => "verdict clear",
        Verdict::Likely => "verdict likely",
        Verdict::NoEvidence => "verdict none",
        Verdict::TooFewResults => "verdict few",
    }
}

/// Width of the interval mark, and the ratios at its ends (a log scale, 1 in the middle).
const MARK_WIDTH: f64 = 120.0;
const MARK_SPAN: f64 = 4.0;

/// A small mark of an effect on a log scale from ÷4 to ×4: a tick at 1 (no effect), the
/// 95 % interval as a bar, the ratio as a dot. Text beside it says the same in numbers.
pub fn interval_mark(e: &Effect) -> Markup {
    let x = |r: f64| {
        let t = (r.ln() / MARK_SPAN.ln()).clamp(-1.0, 1.0);
        format!("{:.1}", MARK_WIDTH / 2.0 * (1.0 + t))
    };
    html! {
        svg.interval-mark width=(MARK_WIDTH) height="14" viewBox=(format!("0 0 {MARK_WIDTH} 14")) aria-hidden="true" {
            line x1=(x(1.0)) x2=(x(1.0)) y1="1" y2="13" class="one" {}
            @if let (Some(l), Some(h)) = (e.low, e.high) {
                line x1=(x(l)) x2=(x(h)) y1="7" y2="7" class="range" {}
            }
            circle cx=(x(e.ratio)) cy="7" r="3.5" class=(verdict_class(e.verdict)) {}
        }
    }
}

/// The site's link to the drives behind one effect.
fn drives_href(f: &str, e: &FactorEffect) -> String {
    with_query(
        "/effects",
        [
            ("factor", f),
            ("a", e.a.as_str()),
            ("b", e.b.as_str()),
            ("test", e.test_id.as_str()),
            ("figure", e.figure.id()),
        ],
    )
}

fn effect_cells(e: &Effect) -> Markup {
    html! {
        td.num { (ratio_text(e.ratio)) }
        td { (interval_mark(e)) " " span.interval { (interval_text(e.low, e.high)) } }
        td { span class=(verdict_class(e.verdict)) { (e.verdict.words()) } }
    }
}

fn factor_table(f: &FactorEffects) -> Markup {
    html! {
        @if f.effects.is_empty() {
            p.empty { "No drive has been measured with two values of this field and everything else the same." }
        } @else {
            div.table-wrap { table.effects {
                thead { tr {
                    th scope="col" { "Test" }
                    th scope="col" { "From → to" }
                    th scope="col" class="num" { "Ratio" }
                    th scope="col" { "95 % interval" }
                    th scope="col" { "Verdict" }
                    th scope="col" class="num" { "Drives" }
                    th scope="col" class="num" { "Results" }
                } }
                tbody {
                    @for e in &f.effects {
                        tr {
                            th scope="row" { span.test { (e.test_id) } " " span.n { (e.figure.unit()) } }
                            td { (e.a) " → " (e.b) }
                            (effect_cells(&e.effect))
                            td.num {
                                a href=(drives_href(&f.factor, e)) { (e.effect.units) }
                                @if e.effect.weighed < e.effect.units { " " span.n { "(" (e.effect.weighed) " with an interval)" } }
                            }
                            td.num { (e.effect.n_a) " / " (e.effect.n_b) }
                        }
                    }
                }
            } }
        }
        @if f.left_out > 0 {
            p.left-out {
                (f.left_out) " pair" (if f.left_out == 1 { "" } else { "s" }) " of one drive's settings differ in "
                (f.label.to_lowercase()) " and in at least one other field: left out, since either could be the cause."
            }
        }
    }
}

/// Every factor's effects (or the one asked).
pub fn effects(e: &Effects, factor: Option<&str>) -> Markup {
    html! {
        @if e.pending_drives > 0 || e.pending_effects > 0 {
            p.notice { "The latest results of "
                @if e.pending_drives > 0 { (e.pending_drives) " drive" (if e.pending_drives == 1 { "" } else { "s" }) }
                @else { "some drives" }
                " are still being counted; this page will include them in a moment." }
        }
        @for f in &e.factors {
            @if factor.is_some() || !f.effects.is_empty() {
                section.factor {
                    h2 { (f.label) }
                    (factor_table(f))
                    @if factor.is_some() && !f.effects.is_empty() {
                        @let chart = |ext: &str| with_query(&format!("{}/effects/chart.{ext}", links::API), [("factor", f.factor.as_str())]);
                        figure.effects-chart {
                            img src=(chart("svg")) alt=(format!("{}: each effect's ratio and 95 % interval", f.label)) loading="lazy" width="720";
                            figcaption.muted { "Embed this chart: " a rel="external" href=(chart("svg")) { "SVG" } " · " a rel="external" href=(chart("png")) { "PNG" } }
                        }
                    }
                }
            }
        }
        @if factor.is_none() && e.factors.iter().all(|f| f.effects.is_empty()) {
            p.empty { "No effect has been measured yet: no drive has results that differ in one field only." }
        }
        details.method { summary { "How effects are measured" } p { (e.method) } }
        p.muted {
            "As data: "
            a rel="external" href=(with_query(&format!("{}/effects", links::API), factor.map(|f| ("factor", f)))) { "JSON" }
            " · "
            a rel="external" href=(with_query(&format!("{}/effects", links::API), factor.map(|f| ("factor", f)).into_iter().chain([("format", "csv")]))) { "CSV" }
        }
    }
}

/// The drives behind one effect, each with its own.
pub fn effect_drives(d: &EffectDrives) -> Markup {
    let c = &d.combined;
    html! {
        p {
            (d.label) " " strong { (c.a) } " → " strong { (c.b) } " on " span.test { (c.test_id) } " (" (c.figure.unit()) "): "
            strong { (ratio_text(c.effect.ratio)) } ", 95 % interval " (interval_text(c.effect.low, c.effect.high)) ", "
            span class=(verdict_class(c.effect.verdict)) { (c.effect.verdict.words()) } ", over "
            (c.effect.units) " drive" (if c.effect.units == 1 { "" } else { "s" }) "."
        }
        div.table-wrap { table.effects {
            thead { tr {
                th scope="col" { "Drive" }
                th scope="col" class="num" { "Ratio" }
                th scope="col" { "95 % interval" }
                th scope="col" { "Verdict" }
                th scope="col" class="num" { "Results " (c.a) " / " (c.b) }
                th scope="col" class="num" { "Settings paired" }
            } }
            tbody {
                @for x in &d.drives {
                    tr {
                        th scope="row" { a href=(links::drive(&x.drive)) { (x.drive_label) } }
                        (effect_cells(&x.effect))
                        td.num { (x.effect.n_a) " / " (x.effect.n_b) }
                        td.num { (x.effect.units) }
                    }
                }
            }
        } }
        p.muted {
            a href=(with_query("/effects", [("factor", d.factor.as_str())])) { "Every effect of " (d.label.to_lowercase()) }
            " · as data: "
            a rel="external" href=(c.drives_url) { "JSON" }
        }
    }
}

/// The drive page's firmware history (empty when fewer than two versions were measured
/// in one pool): per pool, a table of tests against versions, each cell the median and n,
/// a change beyond the noise marked in the later version's cell.
pub fn firmware(h: &FirmwareHistory) -> Markup {
    if h.series.is_empty() {
        return html! {};
    }
    let mut pools: Vec<(String, Vec<&FirmwareSeries>)> = Vec::new();
    for s in &h.series {
        let label = api_types::pool_label(&s.platform_label, s.data_pattern);
        match pools.iter_mut().find(|(l, _)| *l == label) {
            Some((_, list)) => list.push(s),
            None => pools.push((label, vec![s])),
        }
    }
    html! {
        h2 #firmware-steps { "Firmware over time" }
        p.muted { (h.method) }
        @for (pool, series) in &pools {
            h3 { (pool) }
            div.table-wrap { table.firmware-steps {
                thead { tr {
                    th scope="col" { "Test" }
                    @for v in &h.versions { th scope="col" class="num" { (v) } }
                } }
                tbody {
                    @for s in series {
                        tr {
                            th scope="row" { span.test { (s.test_id) } " " span.n { (s.figure.unit()) } }
                            @for (v, p) in h.versions.iter().zip(&s.points) {
                                td.num {
                                    @if let Some(p) = p {
                                        (charts::format_value(p.median)) " " span.n { (super::n_text(p.n)) }
                                        @if let Some(step) = s.steps.iter().find(|st| st.to == *v) {
                                            (step_mark(step))
                                        }
                                    } @else { span.n { "—" } }
                                }
                            }
                        }
                    }
                }
            } }
        }
    }
}

/// A step's mark in its later version's cell: the change with its interval when it is
/// one, else the ratio in muted text (what it measured, claimed as nothing).
fn step_mark(st: &FirmwareStep) -> Markup {
    let d = &st.difference;
    html! {
        @if st.change {
            span.step.change title=(format!("{} → {}: {}", st.from, st.to, d.verdict.words())) {
                (if d.ratio >= 1.0 { "▲ " } else { "▼ " }) (ratio_text(d.ratio)) " " span.interval { (interval_text(d.low, d.high)) }
            }
        } @else {
            span.step title=(format!("{} → {}: {}", st.from, st.to, d.verdict.words())) { (ratio_text(d.ratio)) ", " (d.verdict.words()) }
        }
    }
}

/// A result's standing in its drive's pool and what may explain a difference (the
/// result page's "Where it stands").
pub fn standing(s: &ResultStanding) -> Markup {
    let Some(drive) = &s.drive else {
        return html! {
            h2 #standing { "Where it stands" }
            p.muted { "This result has no catalogue drive, so it stands in no drive's pool." }
        };
    };
    let extreme = |t: &TestStandingView| t.n >= 5 && (t.percentile <= 10.0 || t.percentile >= 90.0);
    html! {
        h2 #standing { "Where it stands" }
        p.muted {
            "Among the results of " a href=(links::drive(drive)) { "its drive" } " on " strong { (s.pool_label) }
            " (the same platform group and data pattern), this one included."
        }
        div.table-wrap { table.standing {
            thead { tr {
                th scope="col" { "Test" }
                th scope="col" class="num" { "This result" }
                th scope="col" class="num" { "Pool median" }
                th scope="col" class="num" { "n" }
                th scope="col" class="num" { "Percentile" }
            } }
            tbody {
                @for t in &s.tests {
                    tr class=[extreme(t).then_some("extreme")] {
                        th scope="row" { span.test { (t.test_id) } " " span.n { (t.figure.unit()) } }
                        td.num { (charts::format_value(t.value)) }
                        td.num { (charts::format_value(t.median)) }
                        td.num { (super::n_text(t.n)) }
                        td.num {
                            (format!("{:.0}", t.percentile))
                            @if t.n < 5 { " " span.n { "(too few to say)" } }
                            @else if extreme(t) { " " span.n { (if t.percentile <= 10.0 { "unusually low" } else { "unusually high" }) } }
                        }
                    }
                }
            }
        } }
        h3 { "How it was measured differently" }
        @if s.unusual.is_empty() {
            p { "In every field it shares its drive's most common values (or they are unknown)." }
        } @else {
            ul.unusual {
                @for u in &s.unusual {
                    li {
                        strong { (u.label) } ": " (u.value) " (usual: " (u.usual) ", "
                        (u.usual_count) " of " (u.known) " results)"
                        @if u.effects.is_empty() {
                            span.n { " · no effect of " (u.usual) " → " (u.value) " measured on its tests" }
                        } @else {
                            ul { @for e in &u.effects {
                                li {
                                    span.test { (e.test_id) } ": " (ratio_text(e.effect.ratio)) " "
                                    span.interval { (interval_text(e.effect.low, e.effect.high)) } " · "
                                    span class=(verdict_class(e.effect.verdict)) { (e.effect.verdict.words()) }
                                    " · " (e.effect.units) " drive" (if e.effect.units == 1 { "" } else { "s" })
                                }
                            } }
                        }
                    }
                }
            }
        }
        @if !s.unusual.is_empty() { p.standing-verdict {
            @if s.explained {
                "A measured effect of a field it differs in bears on it (above): part of a difference may come from there."
            } @else {
                "Nothing measured explains a difference: no clear or likely effect of the fields it differs in has been measured."
            }
        } }
    }
}
