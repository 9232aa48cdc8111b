//! Compare: pick drives; per comparable test one group of bars (drawn by
//! `charts::draw_grouped_bars` on a canvas) and the table beneath. A test a drive lacks
//! is shown as missing. Pointing at (or tapping) a bar shows what it summarises.

use super::{drive_list, ErrorBox, Loading};
use crate::api::{self, ComparedTest, Comparison, GroupCell};
use crate::chart::{ChartCanvas, DrawFn, HeightFn};
/// Tag filters the compare page offers (a subset of the API's).
const FILTERS: &[(&str, &str)] =
    &[("data_pattern", "Data"), ("chipset", "Chipset"), ("storage_controller", "Storage controller")];

use charts::{draw_grouped_bars, format_value, grouped_bars_height, Bar, BarGroup, GroupedBars, HitBox};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use std::sync::Arc;

/// Which figure the chart plots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Figure {
    Mbps,
    Iops,
    Latency,
}

impl Figure {
    const ALL: [Figure; 3] = [Figure::Mbps, Figure::Iops, Figure::Latency];

    fn id(self) -> &'static str {
        match self {
            Figure::Mbps => "mbps",
            Figure::Iops => "iops",
            Figure::Latency => "latency",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Figure::Mbps => "MB/s",
            Figure::Iops => "IOPS",
            Figure::Latency => "µs latency",
        }
    }

    fn of(self, a: &api::Aggregates) -> Option<bench::analysis::Summary> {
        match self {
            Figure::Mbps => a.mbps,
            Figure::Iops => a.iops,
            Figure::Latency => a.latency_us,
        }
    }
}

/// One bar series: a drive measured on one platform group with one data pattern, the
/// finest pool the server aggregates. Numbers from different pools are never merged.
#[derive(Debug, Clone, PartialEq)]
struct Series {
    /// Index into the comparison's drives.
    drive: usize,
    /// The pool's label (`ICH10R · random`); `None` for a drive without any result.
    group: Option<String>,
    label: String,
}

fn series_of(c: &Comparison) -> Vec<Series> {
    let mut out = Vec::new();
    for (i, d) in c.drives.iter().enumerate() {
        let mut groups: Vec<String> = c
            .tests
            .iter()
            .filter_map(|t| t.drives.get(i))
            .flat_map(|cell| cell.groups.iter().map(GroupCell::label))
            .collect();
        groups.sort();
        groups.dedup();
        if groups.is_empty() {
            out.push(Series { drive: i, group: None, label: format!("{} (no results)", d.label()) });
        }
        for g in groups {
            out.push(Series { drive: i, label: format!("{} · {g}", d.label()), group: Some(g) });
        }
    }
    out
}

fn cell_of<'a>(test: &'a ComparedTest, s: &Series) -> Option<&'a GroupCell> {
    let g = s.group.as_ref()?;
    test.drives.get(s.drive)?.groups.iter().find(|x| &x.label() == g)
}

/// The chart's input: every test where some series has this figure.
fn chart_of(c: &Comparison, series: &[Series], figure: Figure) -> GroupedBars {
    GroupedBars {
        unit: figure.unit().into(),
        series: series.iter().map(|s| s.label.clone()).collect(),
        groups: c
            .tests
            .iter()
            .filter(|t| series.iter().any(|s| cell_of(t, s).and_then(|g| figure.of(&g.aggregates)).is_some()))
            .map(|t| BarGroup {
                name: t.name.clone(),
                bars: series
                    .iter()
                    .map(|s| match cell_of(t, s).and_then(|g| figure.of(&g.aggregates)) {
                        Some(s) => Bar { value: Some(s.median), spread: Some(s.mad), count: s.count },
                        None => Bar { value: None, spread: None, count: 0 },
                    })
                    .collect(),
            })
            .collect(),
    }
}

#[component]
pub fn Compare() -> impl IntoView {
    let query = use_query_map();
    let ids = Memo::new(move |_| {
        query.with(|q| {
            q.get("drives")
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect::<Vec<_>>()
        })
    });
    let figure = Memo::new(move |_| {
        let f = query.with(|q| q.get("figure")).unwrap_or_default();
        Figure::ALL.into_iter().find(|x| x.id() == f).unwrap_or(Figure::Mbps)
    });
    // Tag filters narrow which results pool (the API takes every results filter).
    let filters = Memo::new(move |_| {
        query.with(|q| {
            FILTERS
                .iter()
                .filter_map(|(k, _)| Some((k.to_string(), q.get(k).filter(|v| !v.is_empty())?)))
                .collect::<Vec<_>>()
        })
    });
    let filter_query = move |f: &[(String, String)]| {
        f.iter().map(|(k, v)| format!("&{k}={}", api::encode(v))).collect::<String>()
    };
    let href = move |ids: &[String], figure: Figure| {
        let mut h = format!("/compare?drives={}", ids.join(","));
        if figure != Figure::Mbps {
            h.push_str(&format!("&figure={}", figure.id()));
        }
        h.push_str(&filter_query(&filters.get_untracked()));
        h
    };
    let comparison = LocalResource::new(move || {
        let ids = ids.get();
        let f = filter_query(&filters.get());
        async move {
            if ids.is_empty() {
                return Ok(None);
            }
            let list: Vec<String> = ids.iter().map(|i| api::encode(i)).collect();
            api::get::<Comparison>(&format!("/compare?drives={}{f}", list.join(","))).await.map(Some)
        }
    });
    let nav_filter = use_navigate();
    let set_filter = move |key: &'static str, value: String| {
        let mut h = format!("/compare?drives={}", ids.get_untracked().join(","));
        if figure.get_untracked() != Figure::Mbps {
            h.push_str(&format!("&figure={}", figure.get_untracked().id()));
        }
        let mut f: Vec<(String, String)> =
            filters.get_untracked().into_iter().filter(|(k, _)| k != key).collect();
        if !value.is_empty() {
            f.push((key.to_string(), value));
        }
        h.push_str(&filter_query(&f));
        nav_filter(&h, Default::default());
    };
    let set_chipset = set_filter.clone();
    let current = move |key: &str| {
        filters.with(|f| f.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default())
    };
    let drives = drive_list();
    let navigate = use_navigate();
    let nav = navigate.clone();
    let add = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        let mut now = ids.get_untracked();
        if !id.is_empty() && !now.contains(&id) {
            now.push(id);
            nav(&href(&now, figure.get_untracked()), Default::default());
        }
    };
    let nav = navigate.clone();
    let set_figure = move |f: Figure| nav(&href(&ids.get_untracked(), f), Default::default());
    let selected = RwSignal::new(None::<(usize, usize)>);

    view! {
        <section>
            <h1>"Compare drives"</h1>
            <p class="muted">
                "Only equal tests are set side by side (tool family, access, block size, queue depth, threads, operation), and results pool only within one platform and data pattern. Bars are medians with their MAD; n is the number of results."
            </p>
            <div class="picker">
                <ul class="chips" aria-label="Compared drives">
                    {move || {
                        let now = ids.get();
                        now.clone()
                            .into_iter()
                            .map(|id| {
                                let rest: Vec<String> = now.iter().filter(|x| **x != id).cloned().collect();
                                let remove = href(&rest, figure.get_untracked());
                                let remove_label = format!("Remove {id}");
                                view! {
                                    <li>
                                        <A href=format!("/drives/{id}")>{id}</A>
                                        <A href=remove attr:aria-label=remove_label attr:class="x">"×"</A>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
                <label>
                    <span class="sr-only">"Add a drive"</span>
                    <select on:change=add prop:value="">
                        <option value="">"Add a drive…"</option>
                        {move || {
                            drives
                                .get()
                                .and_then(|r| r.ok())
                                .map(|l| {
                                    l.drives
                                        .into_iter()
                                        .filter(|d| d.result_count > 0)
                                        .map(|d| {
                                            view! {
                                                <option value=d.drive.id.clone()>
                                                    {format!(
                                                        "{} {} {} GB ({} results)",
                                                        d.drive.vendor,
                                                        d.drive.model,
                                                        d.drive.capacity_gb,
                                                        d.result_count,
                                                    )}
                                                </option>
                                            }
                                        })
                                        .collect_view()
                                })
                        }}
                    </select>
                </label>
                <label>
                    "Data "
                    <select on:change=move |ev| set_filter("data_pattern", event_target_value(&ev))>
                        {[("", "any pattern"), ("random", "random"), ("zero-fill", "0-fill")]
                            .into_iter()
                            .map(|(v, l)| view! { <option value=v selected=move || current("data_pattern") == v>{l}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Chipset "
                    <input
                        size="10"
                        placeholder="any"
                        prop:value=move || current("chipset")
                        on:change=move |ev| set_chipset("chipset", event_target_value(&ev).trim().to_string())
                    />
                </label>
                <div class="seg" role="group" aria-label="Figure">
                    {Figure::ALL
                        .into_iter()
                        .map(|f| {
                            let set_figure = set_figure.clone();
                            view! {
                                <button
                                    type="button"
                                    aria-pressed=move || (figure.get() == f).to_string()
                                    on:click=move |_| set_figure(f)
                                >
                                    {f.unit()}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            {move || match comparison.get() {
                None => view! { <Loading height=400 what="Loading the comparison…" /> }.into_any(),
                Some(Err(e)) => view! { <ErrorBox error=e /> }.into_any(),
                Some(Ok(None)) => {
                    view! {
                        <p class="empty">
                            "Pick two or more drives above, or start from "
                            <A href="/compare?drives=crucial-realssd-c300-128gb,plextor-px-m2s-128gb,patriot-wildfire-120gb">
                                "C300 vs M2S vs SF-2281"
                            </A>
                            "."
                        </p>
                    }
                        .into_any()
                }
                Some(Ok(Some(c))) => view! { <Comparison c=c figure=figure.get() selected=selected /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn Comparison(c: Comparison, figure: Figure, selected: RwSignal<Option<(usize, usize)>>) -> impl IntoView {
    let series = series_of(&c);
    let chart = chart_of(&c, &series, figure);
    let sized = chart.clone();
    let height: HeightFn = Arc::new(move |w| grouped_bars_height(&sized, w));
    let label = format!(
        "Bar chart of {} per test for {}",
        figure.unit(),
        series.iter().map(|s| s.label.clone()).collect::<Vec<_>>().join(", ")
    );
    let drawn = chart.clone();
    let draw: DrawFn =
        Arc::new(move |area, theme| draw_grouped_bars(area, &drawn, theme).unwrap_or_default());
    let on_hit = move |h: Option<HitBox>| selected.set(h.map(|h| (h.group, h.item)));
    let shown = Arc::new((c.clone(), series.clone()));
    let chart_tests: Vec<String> = chart.groups.iter().map(|g| g.name.clone()).collect();
    let detail = move || {
        let (g, i) = selected.get()?;
        let (c, series) = &*shown;
        let name = chart_tests.get(g)?;
        let test = c.tests.iter().find(|t| &t.name == name)?;
        let s = series.get(i)?;
        let Some(cell) = cell_of(test, s) else {
            return Some(
                view! { <p>{format!("{} has no result with {}.", s.label, test.name)}</p> }.into_any(),
            );
        };
        let f = |s: Option<bench::analysis::Summary>, unit: &str| {
            s.map(|s| {
                format!(
                    "{} {unit} median (MAD {}, min {}, max {}, n={})",
                    format_value(s.median),
                    format_value(s.mad),
                    format_value(s.min),
                    format_value(s.max),
                    s.count
                )
            })
        };
        let a = &cell.aggregates;
        let lines: Vec<String> =
            [f(a.mbps, "MB/s"), f(a.iops, "IOPS"), f(a.latency_us, "µs")].into_iter().flatten().collect();
        let ids = a.result_ids.clone();
        Some(
            view! {
                <p>
                    <strong>{format!("{} · {}", s.label, test.name)}</strong>
                    {lines.into_iter().map(|l| view! { <br /> {l} }).collect_view()}
                    <br />
                    "From results "
                    {ids
                        .into_iter()
                        .map(|id| view! { <A href=format!("/results/{id}")>{format!("#{id}")}</A> " " })
                        .collect_view()}
                </p>
            }
            .into_any(),
        )
    };
    let empty = chart.groups.is_empty();
    view! {
        {if empty {
            view! { <p class="empty">{format!("None of these drives has a result in {} under these filters.", figure.unit())}</p> }.into_any()
        } else {
            view! { <ChartCanvas height=height label=label draw=draw on_hit=on_hit /> }.into_any()
        }}
        <div class="detail" aria-live="polite">
            {move || detail().unwrap_or_else(|| view! { <p class="muted">"Point at or tap a bar for the results behind it."</p> }.into_any())}
        </div>
        <Table c=c series=series />
    }
}

/// One row per series (drive · platform · data pattern), one column per test: series
/// labels are long, test names short, so this reads on narrow screens too.
#[component]
fn Table(c: Comparison, series: Vec<Series>) -> impl IntoView {
    let names: Vec<String> = c.tests.iter().map(|t| t.name.clone()).collect();
    view! {
        <div class="table-wrap">
            <table class="compare">
                <thead>
                    <tr>
                        <th scope="col">"Drive · platform · data"</th>
                        {names.into_iter().map(|n| view! { <th scope="col" class="num">{n}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {series
                        .into_iter()
                        .map(|s| {
                            let id = c.drives[s.drive].id.clone();
                            let cells = c.tests.iter().map(|t| cell(cell_of(t, &s))).collect_view();
                            view! {
                                <tr>
                                    <th scope="row" class="series">
                                        <A href=format!("/drives/{id}")>{s.label}</A>
                                    </th>
                                    {cells}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

fn cell(g: Option<&GroupCell>) -> impl IntoView {
    let Some(g) = g else {
        return view! { <td class="num missing">"missing"</td> }.into_any();
    };
    let a = &g.aggregates;
    let main =
        a.mbps.map(|s| (s, "MB/s")).or(a.iops.map(|s| (s, "IOPS"))).or(a.latency_us.map(|s| (s, "µs")));
    match main {
        Some((s, unit)) => view! {
            <td class="num">
                {format!("{} {unit}", format_value(s.median))}
                <span class="n">{format!(" n={}", s.count)}</span>
                {(s.mad > 0.0).then(|| view! { <span class="n">{format!(" ±{}", format_value(s.mad))}</span> })}
            </td>
        }
        .into_any(),
        None => view! { <td class="num missing">"no figure"</td> }.into_any(),
    }
}
