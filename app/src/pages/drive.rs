//! A drive: specs, rated vs measured per capacity (gap and the flags that explain it),
//! each test's distribution, and its results grouped by platform. The API gives the
//! specs, per-test aggregates and the rated vs measured rows (table and charts); the
//! per-result figures come from the results themselves, analysed in the browser by
//! `bench` (the same code the server runs).

use super::rated::RatedHtml;
use super::{loaded, Embed, ErrorBox, Later, Loading};
use crate::api::{self, format_date, pattern_label, platform_label, ListResponse, ResultView};
use crate::chart::{ChartCanvas, DrawFn, HeightFn};
use crate::pages::result::link_label;
// The drive's answer without the parts the page does not show (see `DrivePageView`).
use api_types::{DrivePageView as Page, RatedTable};
use bench::analysis::RatedFigure;
use bench::{ControllerTag, NandTag, Tags};
use charts::{
    distribution_height, draw_distribution, draw_rated_bars, drive_distributions, format_value,
    rated_bars_height, rated_charts,
};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The API path of a drive's page data: its count without its results, which the page
/// reads from `results_path` (a popular drive's every result, sent twice, was most of
/// the page's data).
fn page_path(id: &str) -> String {
    format!("/drives/{}?results=false", api::encode(id))
}

/// The API path of the rated vs measured table of a drive's model line (the server builds
/// it with `charts::rated_rows`; the page prints it and draws its charts from it).
fn rated_path(id: &str) -> String {
    format!("/drives/{}/rated", api::encode(id))
}

/// The API path of the drive's results (their burst figures: the curves are drawn by the
/// server under "Burst and sustained") that the distributions and platform tables read.
fn results_path(id: &str) -> String {
    format!("/results?drive={}&limit=500&figures=burst", api::encode(id))
}

/// Starts loading the drive the current URL names, its rated table and its results (the
/// route's `data()`, while the page's code is still being fetched).
pub fn prefetch() {
    if let Some(id) = use_params_map().get_untracked().get("id") {
        api::prefetch(&page_path(&id));
        api::prefetch(&rated_path(&id));
        api::prefetch(&results_path(&id));
    }
}

#[component]
pub fn DrivePage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let page = LocalResource::new(move || {
        let id = id.get();
        async move { api::get::<Page>(&page_path(&id)).await }
    });
    let rated = LocalResource::new(move || {
        let id = id.get();
        async move { api::get::<RatedTable>(&rated_path(&id)).await }
    });
    let mine = LocalResource::new(move || {
        let id = id.get();
        async move { api::get::<ListResponse>(&results_path(&id)).await.map(|l| l.results) }
    });

    view! {
        <section>
            {loaded(page, 260, |p: Page| view! { <Specs page=p /> })}
            // Only a community drive: a reviewed one's facts are the catalogue's.
            {move || {
                if !page.with(|p| matches!(p, Some(Ok(p)) if !p.drive.reviewed)) {
                    return None;
                }
                let results = mine.with(|m| m.as_ref().and_then(|m| m.as_ref().ok()).cloned())?;
                Some(view! { <AsSubmitted results=results /> })
            }}
            // The sections below the drive's facts appear once those are drawn: drawn
            // before, each would be pushed down the page as the facts arrive (a layout
            // shift of most of a phone's screen). Their data loads from the start.
            {move || page.with(|p| p.is_some()).then(|| view! {
                // In a task of its own after the facts: a phone's first screen holds only those.
                <Later>
                    <h2>"Rated vs measured, per capacity"</h2>
                    <p class="muted">
                        "The maker's rating against the best matching measurement of each result (single drives only, RAID excluded): the table, then the same rows as charts (the bar is the median over results, n their number)."
                    </p>
                    {move || match rated.get() {
                        None => view! { <Loading height=360 /> }.into_any(),
                        Some(Err(e)) => view! { <ErrorBox error=e /> }.into_any(),
                        Some(Ok(t)) => view! { <Rated drive=id.get_untracked() table=t /> }.into_any(),
                    }}
                    <h2 id="sustained">"Burst and sustained"</h2>
                    {move || view! { <RatedHtml data=format!("/compare/sustained?drives={}", api::encode(&id.get())) /> }}
                    <h2>"Distributions"</h2>
                    {move || match mine.get() {
                        None => view! { <Loading height=200 /> }.into_any(),
                        Some(Err(e)) => view! { <ErrorBox error=e /> }.into_any(),
                        Some(Ok(mine)) => {
                            view! { <Distributions drive=id.get_untracked() results=mine.clone() /> <ByPlatform results=mine /> }.into_any()
                        }
                    }}
                </Later>
            })}
        </section>
    }
}

/// One line of the firmware history: the version (linking to its results), how many
/// results and when they were submitted.
fn firmware_item(drive: &str, f: crate::api::FirmwareSeen) -> impl IntoView {
    let n = f.result_ids.len();
    let when = if f.first_submitted == f.last_submitted {
        format_date(f.first_submitted)
    } else {
        format!("{} to {}", format_date(f.first_submitted), format_date(f.last_submitted))
    };
    let counts = format!(" · {n} result{} · submitted {when}", if n == 1 { "" } else { "s" });
    match f.firmware {
        Some(fw) => {
            let href = format!("/results?drive={drive}&firmware={}", crate::api::encode(&fw));
            view! { <li><A href=href>{fw}</A>{counts}</li> }.into_any()
        }
        None => view! { <li>"not tagged"{counts}</li> }.into_any(),
    }
}

/// `Marvell 88SS9174 stepping BKK2`; empty when nothing is known.
fn controller_text(c: &ControllerTag) -> String {
    let stepping = c.stepping.clone().map(|s| format!("stepping {s}"));
    [c.vendor.clone(), c.model.clone(), stepping].into_iter().flatten().collect::<Vec<_>>().join(" ")
}

/// `Micron 34 nm MLC ONFI 2.x`; empty when nothing is known.
fn nand_text(n: &NandTag) -> String {
    [
        n.vendor.clone(),
        n.process_nm.map(|n| format!("{n} nm")),
        n.cell.map(|c| format!("{c:?}").to_ascii_uppercase()),
        n.interface.clone(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ")
}

/// One fact of a result's tags, as text.
type TagFact = fn(&Tags) -> Option<String>;

/// A community drive's facts as its results were tagged: per fact every value given with
/// how many results give it, most first, and how many give none, so that submitters who
/// disagree are seen (`SM2263 (3), SM2263EN (1)`), not settled silently. Facts no result
/// gives are left out.
fn as_submitted(results: &[ResultView]) -> Vec<(&'static str, String)> {
    let facts: [(&'static str, TagFact); 4] = [
        ("Controller", |t| t.controller.as_ref().map(controller_text)),
        ("NAND", |t| t.nand.as_ref().map(nand_text)),
        ("DRAM", |t| t.dram_mb.map(|m| format!("{m} MB"))),
        ("Firmware", |t| t.firmware.clone()),
    ];
    facts
        .into_iter()
        .filter_map(|(name, get)| {
            let mut counts: BTreeMap<String, usize> = BTreeMap::new();
            let mut untagged = 0;
            for r in results {
                match get(&r.tags).filter(|v| !v.is_empty()) {
                    Some(v) => *counts.entry(v).or_default() += 1,
                    None => untagged += 1,
                }
            }
            let mut counts: Vec<(String, usize)> = counts.into_iter().collect();
            // Most results first; equal counts in name order (the map's).
            counts.sort_by_key(|c| std::cmp::Reverse(c.1));
            let mut text: Vec<String> = counts.iter().map(|(v, n)| format!("{v} ({n})")).collect();
            if text.is_empty() {
                return None;
            }
            if untagged > 0 {
                text.push(format!("not tagged ({untagged})"));
            }
            Some((name, text.join(", ")))
        })
        .collect()
}

/// The "as submitted" facts of a community drive, from the results the page has.
#[component]
fn AsSubmitted(results: Vec<ResultView>) -> impl IntoView {
    let facts = as_submitted(&results);
    view! {
        <h2 id="as-submitted">{format!("As submitted, n={}", results.len())}</h2>
        {if facts.is_empty() {
            view! { <p class="muted">"No result of this drive was tagged with its controller, NAND, DRAM or firmware."</p> }.into_any()
        } else {
            view! {
                <dl class="facts">
                    {facts.into_iter().map(|(k, v)| view! { <dt>{k}</dt> <dd>{v}</dd> }).collect_view()}
                </dl>
            }
            .into_any()
        }}
    }
}

#[component]
fn Specs(page: Page) -> impl IntoView {
    let d = page.drive;
    let title = api_types::pages::drive_heading(&d.vendor, &d.model, d.capacity_gb);
    let controller = controller_text(&d.controller);
    let nand = nand_text(&d.nand);
    let r = &d.rated;
    let rated = [
        r.seq_read_mbps.map(|v| format!("read {} MB/s", format_value(v))),
        r.seq_write_mbps.map(|v| format!("write {} MB/s", format_value(v))),
        r.rnd4k_read_iops.map(|v| format!("4K read {} IOPS", format_value(v))),
        r.rnd4k_write_iops.map(|v| format!("4K write {} IOPS", format_value(v))),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let specs: Vec<(&str, String)> = [
        ("Part number", d.part_number.clone()),
        ("Interface", d.interface.map(link_label)),
        ("Controller", (!controller.is_empty()).then_some(controller)),
        ("NAND", (!nand.is_empty()).then_some(nand)),
        ("DRAM", d.dram_mb.map(|m| format!("{m} MB"))),
        ("Form factor", d.form_factor.map(|f| f.label().to_string())),
        ("Firmware versions", (!d.firmware.is_empty()).then(|| d.firmware.join(", "))),
        ("Rated", (!rated.is_empty()).then_some(rated)),
        ("Results", Some(page.result_count.to_string())),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
    .collect();
    let firmware = page.firmware.clone();
    // Firmware steps exist only between two tagged versions.
    let versions = firmware.iter().filter(|f| f.firmware.is_some()).count();
    let drive_id = d.id.clone();
    let tests = page.tests;
    let n = page.result_count;
    view! {
        <h1>{title}</h1>
        <super::PageLinks links=api_types::pages::drive_links(&d.id, d.controller.model.as_deref()) />
        {(!d.reviewed).then(|| view! {
            <p class="notice" id="not-reviewed">
                <strong>"Not reviewed yet"</strong>
                {format!(" · n = {n} result{} · ", if n == 1 { "" } else { "s" })}
                "a community drive, created by a submission: no moderator has checked its facts, which are what its results were tagged with (below)."
            </p>
        })}
        <dl class="facts">
            {specs.into_iter().map(|(k, v)| view! { <dt>{k}</dt> <dd>{v}</dd> }).collect_view()}
            {(!firmware.is_empty()).then(|| view! {
                <dt>"Firmware measured"</dt>
                <dd>
                    <ul class="firmware">
                        {firmware.into_iter().map(|f| firmware_item(&drive_id, f)).collect_view()}
                    </ul>
                </dd>
            })}
        </dl>
        <h2>"Every test, per platform and data pattern"</h2>
        <p class="muted">"Tests a result measured at four or more loads are drawn as curves under Burst and sustained."</p>
        <div class="table-wrap" inner_html=tests_table(&tests)></div>
        // Each test per firmware version, changes beyond the noise marked: the server's table.
        {(versions >= 2).then(|| view! { <RatedHtml data=format!("/drives/{}/firmware", api::encode(&drive_id)) /> })}
        // The sources' bounds and approximations: the server's table, as it comes.
        <RatedHtml data=format!("/drives/{}/observations", api::encode(&drive_id)) />
    }
}

/// Every test per platform and data pattern (median, MAD, n) as HTML text (maud, every
/// text escaped): the same table as Leptos views was about 1 KB more of the page's
/// download (BENCHMARKS.md "Site size").
fn tests_table(tests: &[api_types::TestSummary]) -> String {
    let cells = |a: &api_types::Aggregates| {
        let (s, unit) = match (a.mbps, a.iops, a.latency_us) {
            (Some(s), _, _) => (Some(s), "MB/s"),
            (None, Some(s), _) => (Some(s), "IOPS"),
            (None, None, s) => (s, "µs"),
        };
        s.map_or_else(Default::default, |s| {
            (format!("{} {unit}", format_value(s.median)), format_value(s.mad), s.count.to_string())
        })
    };
    maud::html! {
        table {
            thead { tr {
                th scope="col" { "Test" } th scope="col" { "Platform · data" }
                th scope="col" class="num" { "Median" } th scope="col" class="num" { "MAD" }
                th scope="col" class="num" { "n" }
                th scope="col" title="Against the group with the most results of the test: ratio, 95 % interval, verdict" { "Against the most measured" }
            } }
            tbody {
                @for t in tests { @for g in &t.groups {
                    @let (median, mad, n) = cells(&g.aggregates);
                    tr {
                        th scope="row" { (t.name) } td { (g.label()) }
                        td.num { (median) } td.num { (mad) } td.num { (n) }
                        td {
                            @if g.reference { span.vs { "reference" } }
                            @if let Some(d) = g.vs_reference {
                                span class=(format!("vs {}", d.verdict.words().replace(' ', "-"))) {
                                    (format!("×{:.2}", d.ratio))
                                    @if let (Some(low), Some(high)) = (d.low, d.high) { (format!(" [{low:.2}–{high:.2}]")) }
                                    " " (d.verdict.words())
                                }
                            }
                        }
                    }
                } }
            }
        }
    }
    .into_string()
}

#[component]
fn Rated(drive: String, table: RatedTable) -> impl IntoView {
    let charts = rated_charts(&table.rows);
    if table.rows.is_empty() {
        return view! { <p class="muted">"The maker's ratings for this drive are not in the catalogue, and no result measured a rated figure."</p> }
            .into_any();
    }
    let data = format!("/drives/{}/rated", api::encode(&drive));
    let html = format!("/embed{data}");
    view! {
        <RatedHtml data=data />
        <p class="muted">
            "Embed this table: " <a href=html>"the table as an HTML page"</a> " for an iframe, kept current by the server."
        </p>
        <div class="grid2">
            {charts
                .into_iter()
                .map(|(figure, c)| {
                    let h = rated_bars_height(&c);
                    let height: HeightFn = Arc::new(move |_| h);
                    let label = format!(
                        "{}: {}",
                        c.figure,
                        c.rows
                            .iter()
                            .map(|r| format!(
                                "{} rated {} measured {}",
                                r.label,
                                format_value(r.rated),
                                r.measured.map(format_value).unwrap_or_else(|| "none".into())
                            ))
                            .collect::<Vec<_>>()
                            .join("; ")
                    );
                    let alt = format!("{} rated vs measured per capacity, SSDBase", c.figure);
                    let draw: DrawFn = Arc::new(move |area, theme| draw_rated_bars(area, &c, theme).unwrap_or_default());
                    view! {
                        <div>
                            <ChartCanvas height=height label=label draw=draw />
                            <Embed
                                page=format!("/drives/{drive}")
                                image=format!("/drives/{}/rated", api::encode(&drive))
                                query=format!("figure={figure}")
                                alt=alt
                                frame=format!("/embed/drives/{}?figure={figure}", api::encode(&drive))
                                csv=format!("{}/results?drive={}&format=csv", api::API, api::encode(&drive))
                                json=format!("{}/drives/{}", api::API, api::encode(&drive))
                            />
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
    .into_any()
}

#[component]
fn Distributions(drive: String, results: Vec<ResultView>) -> impl IntoView {
    let all = drive_distributions(&results.iter().map(|r| (&r.result, &r.tags)).collect::<Vec<_>>());
    if all.is_empty() {
        return view! { <p class="muted">"No results yet."</p> }.into_any();
    }
    let names: Vec<String> = all.iter().map(|(_, d)| d.test.clone()).collect();
    let (pick, set_pick) = signal(0usize);
    let all = Arc::new(all);
    let chart = move || {
        let (key, d) = all.get(pick.get())?.clone();
        let h = distribution_height(&d);
        let height: HeightFn = Arc::new(move |_| h);
        let label = format!("Distribution of {} per platform", d.test);
        let alt = format!("{label}, SSDBase");
        let draw: DrawFn =
            Arc::new(move |area, theme| draw_distribution(area, &d, theme).unwrap_or_default());
        Some(view! {
            <ChartCanvas height=height label=label draw=draw />
            <Embed
                page=format!("/drives/{drive}")
                image=format!("/drives/{}/distribution", api::encode(&drive))
                query=format!("test={}", api::encode(&key.id()))
                alt=alt
                frame=format!("/embed/drives/{}?test={}", api::encode(&drive), api::encode(&key.id()))
                csv=format!("{}/results?drive={}&format=csv", api::API, api::encode(&drive))
                json=format!("{}/drives/{}", api::API, api::encode(&drive))
            />
        })
    };
    view! {
        <label>
            "Test "
            <select on:change=move |ev| set_pick.set(event_target_value(&ev).parse().unwrap_or(0))>
                {names.into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string()>{n}</option> }).collect_view()}
            </select>
        </label>
        <p class="muted">"Each dot is one result; the box spans median ± MAD, the whiskers min to max."</p>
        {chart}
    }
    .into_any()
}

#[component]
fn ByPlatform(results: Vec<ResultView>) -> impl IntoView {
    let mut groups: BTreeMap<String, Vec<ResultView>> = BTreeMap::new();
    for r in results {
        groups.entry(platform_label(&r.tags)).or_default().push(r);
    }
    let best = |r: &ResultView, f: RatedFigure| {
        bench::analysis::measured_for(&r.result, f)
            .map(|(_, v)| format_value(v))
            .unwrap_or_else(|| "—".into())
    };
    view! {
        <h2 id="platforms">"Results by platform"</h2>
        {groups
            .into_iter()
            .map(|(platform, rs)| {
                let chipset = rs.first().and_then(|r| r.tags.platform.chipset.clone());
                view! {
                    <h3>
                        {format!("{platform} ({} results)", rs.len())}
                        {chipset.map(|c| view! {
                            " · " <A href=format!("/platforms/{}", crate::api::encode(&c))>{format!("every drive on {c}")}</A>
                        })}
                    </h3>
                    <div class="table-wrap">
                        <table>
                            <thead>
                                <tr>
                                    <th scope="col">"Result"</th>
                                    <th scope="col">"Tool"</th>
                                    <th scope="col">"Data"</th>
                                    <th scope="col" class="num">"Seq read MB/s"</th>
                                    <th scope="col" class="num">"Seq write MB/s"</th>
                                    <th scope="col">"Flags"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {rs
                                    .into_iter()
                                    .map(|r| {
                                        let flags = r.flags.iter().map(|f| f.kind.name()).collect::<Vec<_>>().join(", ");
                                        view! {
                                            <tr>
                                                <td><A href=format!("/results/{}", r.id)>{format!("#{}", r.id)}</A></td>
                                                <td>{format!("{} {}", r.result.tool.name(), r.result.tool_version.clone().unwrap_or_default())}</td>
                                                <td>{pattern_label(r.result.data_pattern)}</td>
                                                <td class="num">{best(&r, RatedFigure::SeqReadMbps)}</td>
                                                <td class="num">{best(&r, RatedFigure::SeqWriteMbps)}</td>
                                                <td>{flags}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })
            .collect_view()}
    }
}
