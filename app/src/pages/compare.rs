//! Compare: pick drives; per comparable test one panel, in it one row per platform and
//! data pattern with a bar per drive (drawn by `charts::draw_compare_panels` on a canvas,
//! the very chart the embeds render), and the table beneath, where a test a drive lacks
//! is shown as missing. Pointing at (or tapping) a bar shows what it summarises.

use super::rated::RatedHtml;
use super::Opening;
use super::{DriveSearch, Embed, ErrorBox, Later, Loading};
use crate::api::{self, Comparison, Figure, PoolCell};
use crate::chart::{ChartCanvas, DrawFn, HeightFn};
use api_types::ComparedTest;
use api_types::{links, pages};

use charts::compare::{bar_at, cell_of, cell_of_bar, compare_panels, series_of, Selection, Series};
use charts::{compare_panels_height, draw_compare_panels, format_value, HitBox};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use std::sync::Arc;

/// The drive ids a compare URL's query names.
fn drive_ids(q: &ParamsMap) -> Vec<String> {
    links::compared_drives(&q.get("drives").unwrap_or_default())
}

/// The tag filters (a subset of the API's) and `merge` a compare URL's query sets, which
/// the page passes to the API.
fn tag_filters(q: &ParamsMap) -> Vec<(String, String)> {
    links::compare_filters(|k| q.get(k))
}

/// Starts loading the comparison the current URL asks for (the route's `data()`, while
/// the page's code is still being fetched).
pub fn prefetch() {
    let q = use_query_map().get_untracked();
    if let Some(path) = links::comparison(&drive_ids(&q), &tag_filters(&q)) {
        api::prefetch(&path);
    }
}

#[component]
pub fn Compare() -> impl IntoView {
    let query = use_query_map();
    let ids = Memo::new(move |_| query.with(drive_ids));
    let figure = Memo::new(move |_| {
        let f = query.with(|q| q.get("figure")).unwrap_or_default();
        Figure::from_id(&f).unwrap_or(Figure::Mbps)
    });
    let selection = Memo::new(move |_| query.with(|q| selection_of(q, figure.get())));
    // Burst (the bar charts) or sustained (the server's table and line charts).
    let sustained = Memo::new(move |_| query.with(|q| q.get("view")).as_deref() == Some("sustained"));
    // Tag filters narrow which results pool (the API takes every results filter).
    let filters = Memo::new(move |_| query.with(tag_filters));
    let href = move |ids: &[String], figure: Figure| {
        // The chart's own choices stay with the view (and its embed).
        let choices: Vec<(&str, String)> = Selection::PARAMS
            .iter()
            .map(|&k| (k, query.with_untracked(|q| q.get(k)).unwrap_or_default()))
            .collect();
        links::compare_page(ids, figure, &filters.get_untracked(), &choices)
    };
    let comparison = LocalResource::new(move || {
        let path = links::comparison(&ids.get(), &filters.get()).filter(|_| !sustained.get());
        async move {
            match path {
                Some(path) => api::get::<Comparison>(&path).await.map(Some),
                None => Ok(None),
            }
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
        h.push_str(&links::filters_query(&f));
        nav_filter(&h, Default::default());
    };
    let set_chipset = set_filter.clone();
    let set_merge = set_filter.clone();
    let current = move |key: &str| {
        filters.with(|f| f.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default())
    };
    let navigate = use_navigate();
    let nav = navigate.clone();
    // A drive picked in the search (the page never downloads the whole catalogue).
    let add = move |id: String| {
        let mut now = ids.get_untracked();
        if !id.is_empty() && !now.contains(&id) {
            now.push(id);
            nav(&href(&now, figure.get_untracked()), Default::default());
        }
    };
    let nav = navigate.clone();
    let set_figure = move |f: Figure| nav(&href(&ids.get_untracked(), f), Default::default());
    let selected = RwSignal::new(None::<(usize, usize)>);
    // A compared drive by its name (vendor, model, capacity) once the comparison has
    // loaded; its id until then, and for a drive the comparison does not know.
    let name_of = move |id: &str| -> String {
        let compared = comparison.with(|c| {
            let c = c.as_ref()?.as_ref().ok()?.as_ref()?;
            c.drives.iter().find(|d| d.id == id).map(|d| d.label())
        });
        compared.unwrap_or_else(|| id.to_string())
    };

    view! {
        <section>
            <Opening opening=&pages::COMPARE />
            <div class="picker">
                <ul class="chips" aria-label="Compared drives">
                    {move || {
                        let now = ids.get();
                        now.clone()
                            .into_iter()
                            .map(|id| {
                                let rest: Vec<String> = now.iter().filter(|x| **x != id).cloned().collect();
                                let remove = href(&rest, figure.get_untracked());
                                let name = name_of(&id);
                                let remove_label = format!("Remove {name}");
                                view! {
                                    <li>
                                        <A href=format!("/drives/{id}")>{name}</A>
                                        <A href=remove attr:aria-label=remove_label attr:class="x">"×"</A>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
                <DriveSearch placeholder="Add a drive by model…" pick=Callback::new(add) />
                <label>
                    "Data "
                    <select on:change=move |ev| set_filter("data_pattern", event_target_value(&ev))>
                        {pages::COMPARE_PATTERNS
                            .iter()
                            .map(|&(v, l)| view! { <option value=v selected=move || current("data_pattern") == v>{l}</option> })
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
                <label>
                    <input
                        type="checkbox"
                        prop:checked=move || current("merge") == "drive"
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            set_merge("merge", if on { "drive".into() } else { String::new() })
                        }
                    />
                    {pages::MERGE_LABEL}
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
            {move || {
                links::comparison(&ids.get(), &filters.get()).map(|_| {
                    let burst = href(&ids.get(), figure.get());
                    let over_time = format!("{burst}&view=sustained");
                    view! {
                        <div class="seg" role="group" aria-label="Burst or sustained">
                            <a href=burst aria-current=(!sustained.get()).then_some("page")>"Burst"</a>
                            <a href=over_time aria-current=sustained.get().then_some("page")>"Sustained"</a>
                        </div>
                    }
                })
            }}
            {move || {
                sustained.get().then(|| links::comparison(&ids.get(), &filters.get())).flatten().map(|p| {
                    view! {
                        <h2>"Burst and sustained"</h2>
                        <RatedHtml data=p.replacen("/compare?", "/compare/sustained?", 1) />
                    }
                })
            }}
            {move || (!sustained.get()).then(|| match comparison.get() {
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
                Some(Ok(Some(c))) => {
                    let page = href(&ids.get(), figure.get());
                    view! { <Comparison c=c selection=selection.get() page=page selected=selected /> }.into_any()
                }
            })}
            {move || {
                links::comparison(&ids.get(), &filters.get()).map(|p| {
                    view! {
                        <h2>"Rated vs measured"</h2>
                        <p class="muted">"How far each drive falls from its own rating, per platform group and data pattern."</p>
                        <RatedHtml data=p.replacen("/compare?", "/compare/rated?", 1) />
                    }
                })
            }}
        </section>
    }
}

/// The chart's choices in a compare URL: `tests`, `platforms`, `patterns` (comma lists).
fn selection_of(q: &ParamsMap, figure: Figure) -> Selection {
    let mut selection = Selection::of(figure);
    for k in Selection::PARAMS {
        // A pattern name that does not read is left out (the embed would refuse it).
        let _ = selection.read(k, &q.get(k).unwrap_or_default());
    }
    selection
}

#[component]
fn Comparison(
    c: Comparison,
    selection: Selection,
    /// This view's path and query (`/compare?drives=...`), which the embed repeats.
    page: String,
    selected: RwSignal<Option<(usize, usize)>>,
) -> impl IntoView {
    let figure = selection.figure;
    let series = series_of(&c);
    let chart = compare_panels(&c, &selection);
    let sized = chart.clone();
    let height: HeightFn = Arc::new(move |w| compare_panels_height(&sized, w));
    let label = chart.label();
    let drawn = chart.clone();
    let draw: DrawFn =
        Arc::new(move |area, theme| draw_compare_panels(area, &drawn, theme).unwrap_or_default());
    let on_hit = move |h: Option<HitBox>| selected.set(h.map(|h| (h.group, h.item)));
    let shown = Arc::new((c.clone(), chart.clone()));
    let detail = move || {
        let (g, i) = selected.get()?;
        let (c, chart) = &*shown;
        let (panel, bar) = bar_at(chart, g, i)?;
        let test = c.tests.get(panel.test)?;
        let cell = cell_of_bar(c, panel, bar)?;
        let pool = c.pool_of(cell).map(|p| p.label()).unwrap_or_default();
        let s_label = format!("{} · {pool}", chart.drives.get(bar.drive).cloned().unwrap_or_default());
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
        let lines: Vec<String> = [f(cell.mbps, "MB/s"), f(cell.iops, "IOPS"), f(cell.latency_us, "µs")]
            .into_iter()
            .flatten()
            .collect();
        // A popular drive's pool holds thousands of results: the answer lists the newest.
        let ids = c.result_ids(cell).to_vec();
        let more = c.results(cell).saturating_sub(ids.len());
        let drive = c.drives.get(bar.drive).map(|d| d.id.clone()).unwrap_or_default();
        Some(
            view! {
                <p>
                    <strong>{format!("{s_label} · {}", test.name)}</strong>
                    {lines.into_iter().map(|l| view! { <br /> {l} }).collect_view()}
                    <br />
                    "From results "
                    {ids
                        .into_iter()
                        .map(|id| view! { <A href=format!("/results/{id}")>{format!("#{id}")}</A> " " })
                        .collect_view()}
                    {(more > 0).then(|| view! {
                        <A href=format!("/results?drive={drive}")>{format!("and {more} more")}</A>
                    })}
                </p>
            }
            .into_any(),
        )
    };
    let empty = chart.panels.is_empty();
    let single: Vec<String> = chart.also_measured.clone();
    view! {
        {if empty {
            view! {
                <p class="empty">{format!("No test in {} has two pools to compare under these choices.", figure.unit())}</p>
                {(!single.is_empty()).then(|| view! {
                    <p class="muted">"Measured by one pool only: " {single.join("; ")}</p>
                })}
            }.into_any()
        } else {
            view! {
                <ChartCanvas height=height label=label.clone() draw=draw on_hit=on_hit />
                <Embed
                    page=page.clone()
                    image="/compare/chart"
                    query=query_of(&page, true)
                    alt=label
                    frame=format!("/embed/compare?{}", query_of(&page, true))
                    csv=export(&page, "csv")
                    json=export(&page, "json")
                />
            }
            .into_any()
        }}
        <div class="detail" aria-live="polite">
            {move || detail().unwrap_or_else(|| view! { <p class="muted">"Point at or tap a bar for the results behind it."</p> }.into_any())}
        </div>
        <Later>
            <Table c=c series=series />
        </Later>
        <p class="muted">
            "This comparison as data: "
            <a href=export(&page, "csv") download="compare.csv">"CSV"</a>
            " · "
            <a href=export(&page, "json")>"JSON"</a>
        </p>
    }
}

/// The compare API's URL for the view at `page` (`/compare?...`) in `format`: the same
/// drives, filters and merging; the chart's own choices are left out.
fn export(page: &str, format: &str) -> String {
    format!("{}/compare?{}&format={format}", api::API, query_of(page, false))
}

/// The query of the view at `page` (`/compare?...`), with or without the chart's own
/// choices (`figure`, `tests`, `platforms`, `patterns`).
fn query_of(page: &str, with_chart: bool) -> String {
    let query = page.split_once('?').map(|(_, q)| q).unwrap_or_default();
    // The chart's own choices (the API never sees them): `figure` and the selection.
    let chart_only = |p: &str| {
        let k = p.split('=').next().unwrap_or_default();
        k == "figure" || Selection::PARAMS.contains(&k)
    };
    let kept: Vec<&str> =
        query.split('&').filter(|p| !p.is_empty() && (with_chart || !chart_only(p))).collect();
    kept.join("&")
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
                            let cells = c.tests.iter().map(|t| cell(cell_of(t, &s), t, &c)).collect_view();
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

fn cell(g: Option<&PoolCell>, t: &ComparedTest, c: &Comparison) -> impl IntoView {
    let Some(a) = g else {
        return view! { <td class="num missing">"missing"</td> }.into_any();
    };
    let main = a
        .mbps
        .map(|s| (s, "MB/s", Figure::Mbps))
        .or(a.iops.map(|s| (s, "IOPS", Figure::Iops)))
        .or(a.latency_us.map(|s| (s, "µs", Figure::Latency)));
    match main {
        Some((s, unit, figure)) => {
            let versus =
                a.vs_reference.as_ref().and_then(|v| Some((v.of(figure)?, c.pools.get(v.reference_pool)?)));
            // The pool the others of this test stand against.
            let reference = t.drives.iter().flat_map(|d| &d.groups).find_map(|g| g.vs_reference.as_ref());
            let is_reference = reference.is_some_and(|v| v.reference_pool == a.pool);
            view! {
                <td class="num">
                    {format!("{} {unit}", format_value(s.median))}
                    <span class="n">{format!(" n={}", s.count)}</span>
                    {(s.mad > 0.0).then(|| view! { <span class="n">{format!(" ±{}", format_value(s.mad))}</span> })}
                    {is_reference.then(|| {
                        view! {
                            <span class="vs" title="the other pools of this test are given as × this one">
                                "reference"
                            </span>
                        }
                    })}
                    {versus.map(|(d, reference)| {
                        let interval = match (d.low, d.high) {
                            (Some(low), Some(high)) => format!(" [{low:.2}–{high:.2}]"),
                            _ => String::new(),
                        };
                        let against = format!("against {} · {}, 95 % interval", reference.drive, reference.label());
                        view! {
                            <span class=format!("vs {}", d.verdict.words().replace(' ', "-")) title=against>
                                {format!("×{:.2}{interval} {}", d.ratio, d.verdict.words())}
                            </span>
                        }
                    })}
                </td>
            }
            .into_any()
        }
        None => view! { <td class="num missing">"no figure"</td> }.into_any(),
    }
}
