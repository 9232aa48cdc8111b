//! Compare: pick drives; per comparable test one group of bars (drawn by
//! `charts::draw_grouped_bars` on a canvas) and the table beneath. A test a drive lacks
//! is shown as missing. Pointing at (or tapping) a bar shows what it summarises.

use super::{drive_list, ErrorBox, Loading};
use crate::api::{self, Comparison};
use crate::chart::{ChartCanvas, DrawFn, HeightFn};
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

/// The chart's input: every test where some drive has this figure.
fn chart_of(c: &Comparison, figure: Figure) -> GroupedBars {
    GroupedBars {
        unit: figure.unit().into(),
        series: c.drives.iter().map(|d| d.label()).collect(),
        groups: c
            .tests
            .iter()
            .filter(|t| t.drives.iter().any(|d| figure.of(&d.aggregates).is_some()))
            .map(|t| BarGroup {
                name: t.name.clone(),
                bars: t
                    .drives
                    .iter()
                    .map(|d| match figure.of(&d.aggregates) {
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
    let href = move |ids: &[String], figure: Figure| {
        let mut h = format!("/compare?drives={}", ids.join(","));
        if figure != Figure::Mbps {
            h.push_str(&format!("&figure={}", figure.id()));
        }
        h
    };
    let comparison = LocalResource::new(move || {
        let ids = ids.get();
        async move {
            if ids.is_empty() {
                return Ok(None);
            }
            let list: Vec<String> = ids.iter().map(|i| api::encode(i)).collect();
            api::get::<Comparison>(&format!("/compare?drives={}", list.join(","))).await.map(Some)
        }
    });
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
                "Only equal tests are set side by side (tool family, access, block size, queue depth, threads, operation). Bars are medians with their MAD; n is the number of results."
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
    let chart = chart_of(&c, figure);
    let sized = chart.clone();
    let height: HeightFn = Arc::new(move |w| grouped_bars_height(&sized, w));
    let label = format!(
        "Bar chart of {} per test for {}",
        figure.unit(),
        c.drives.iter().map(|d| d.label()).collect::<Vec<_>>().join(", ")
    );
    let drawn = chart.clone();
    let draw: DrawFn =
        Arc::new(move |area, theme| draw_grouped_bars(area, &drawn, theme).unwrap_or_default());
    let on_hit = move |h: Option<HitBox>| selected.set(h.map(|h| (h.group, h.item)));
    let shown = Arc::new(c.clone());
    let chart_tests: Vec<String> = chart.groups.iter().map(|g| g.name.clone()).collect();
    let detail = move || {
        let (g, i) = selected.get()?;
        let name = chart_tests.get(g)?;
        let test = shown.tests.iter().find(|t| &t.name == name)?;
        let cell = test.drives.get(i)?;
        let drive = shown.drives.get(i)?;
        Some(if cell.missing {
            view! { <p>{format!("{} has no result with {}.", drive.label(), test.name)}</p> }.into_any()
        } else {
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
            let lines: Vec<String> = [
                f(cell.aggregates.mbps, "MB/s"),
                f(cell.aggregates.iops, "IOPS"),
                f(cell.aggregates.latency_us, "µs"),
            ]
            .into_iter()
            .flatten()
            .collect();
            view! {
                <p>
                    <strong>{format!("{} · {}", drive.label(), test.name)}</strong>
                    {lines.into_iter().map(|l| view! { <br /> {l} }).collect_view()}
                    <br />
                    "From results "
                    {cell
                        .aggregates
                        .result_ids
                        .iter()
                        .map(|id| view! { <A href=format!("/results/{id}")>{format!("#{id}")}</A> " " })
                        .collect_view()}
                </p>
            }
            .into_any()
        })
    };
    let empty = chart.groups.is_empty();
    view! {
        {if empty {
            view! { <p class="empty">{format!("None of these drives has a result in {}.", figure.unit())}</p> }.into_any()
        } else {
            view! { <ChartCanvas height=height label=label draw=draw on_hit=on_hit /> }.into_any()
        }}
        <div class="detail" aria-live="polite">
            {move || detail().unwrap_or_else(|| view! { <p class="muted">"Point at or tap a bar for the results behind it."</p> }.into_any())}
        </div>
        <Table c=c />
    }
}

#[component]
fn Table(c: Comparison) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="compare">
                <thead>
                    <tr>
                        <th scope="col">"Test"</th>
                        {c
                            .drives
                            .clone()
                            .into_iter()
                            .map(|d| view! { <th scope="col" class="num"><A href=format!("/drives/{}", d.id)>{d.label()}</A></th> })
                            .collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {c
                        .tests
                        .into_iter()
                        .map(|t| {
                            view! {
                                <tr>
                                    <th scope="row">{t.name}</th>
                                    {t.drives.into_iter().map(|d| cell(&d)).collect_view()}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

fn cell(d: &api::DriveCell) -> impl IntoView {
    if d.missing {
        return view! { <td class="num missing">"missing"</td> }.into_any();
    }
    let a = &d.aggregates;
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
