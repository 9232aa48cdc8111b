//! Results: a filterable, sortable, paginated table. The URL holds the whole state
//! (filters, sort, page, order), so any view is a permalink.

use super::Opening;
use super::{loaded, Later};
use crate::api::{self, format_date, pattern_label, platform_label, ListResponse, ResultView};
use crate::query::{api_query, filters, sorts, toggle_sort, with_param};
use api_types::pages;
use bench::{format_block_size, Access, Metric, Op, Stat};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};

#[component]
pub fn Results() -> impl IntoView {
    let query = use_query_map();
    let params = Memo::new(move |_| {
        query.with(|q| q.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>())
    });
    let list = LocalResource::new(move || {
        let q = api_query(&params.get());
        async move { api::get::<ListResponse>(&format!("/results?{q}")).await }
    });
    let param = move |k: &str| params.with(|p| p.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()));
    let navigate = use_navigate();
    let go = move |href: String| navigate(&href, Default::default());

    let go_filters = go.clone();
    let on_filter = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(form) =
            ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlFormElement>(t).ok())
        else {
            return;
        };
        let mut p = params.get_untracked();
        for name in filters().map(|f| f.name) {
            let value = form
                .elements()
                .named_item(name)
                .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(el).ok())
                .map(|i| i.value())
                .unwrap_or_default();
            let href = with_param(&p, name, value.trim());
            p = parse_href(&href);
        }
        go_filters(with_param(&p, "cursor", ""));
    };
    let go_sort = go.clone();
    let go_limit = go;

    let csv_href = move || format!("/api/v1/results?{}&format=csv", api_query(&params.get()));
    view! {
        <section>
            <Opening opening=&pages::RESULTS />
            <details class="filters" open=move || params.with(|p| p.iter().any(|(k, _)| filters().any(|f| f.name == k)))>
                <summary>"Filters"</summary>
                <form on:submit=on_filter class="filter-grid">
                    {filters()
                        .map(|f| {
                            view! {
                                <label>
                                    <span>{f.label}</span>
                                    <input name=f.name placeholder=f.example prop:value=move || param(f.name).unwrap_or_default() />
                                </label>
                            }
                        })
                        .collect_view()}
                    <div class="actions">
                        <button type="submit">"Apply filters"</button>
                        <A href="/results">"Clear"</A>
                    </div>
                </form>
            </details>
            <div class="toolbar">
                <label>
                    "Sort "
                    <select on:change=move |ev| go_sort(with_param(&params.get_untracked(), "sort", &event_target_value(&ev)))>
                        {sorts()
                            .into_iter()
                            .map(|(v, label)| {
                                let selected = v.clone();
                                view! { <option value=v selected=move || param("sort").unwrap_or_else(|| "newest".into()) == selected>{label}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Per page "
                    <select on:change=move |ev| go_limit(with_param(&params.get_untracked(), "limit", &event_target_value(&ev)))>
                        {["25", "50", "100"]
                            .into_iter()
                            .map(|n| view! { <option value=n selected=move || param("limit").unwrap_or_else(|| "50".into()) == n>{n}</option> })
                            .collect_view()}
                    </select>
                </label>
                <a rel="external" href=csv_href>"Download CSV"</a>
            </div>
            <div class="table-wrap" style:min-height="420px">
                {loaded(list, 420, move |list: ListResponse| {
                    let mut rows = list.results;
                    // The rows a phone's first screen shows, then the rest in a task of its own.
                    let later = rows.split_off(rows.len().min(FIRST_ROWS));
                    let p = params.get_untracked();
                    let sort = param("sort").unwrap_or_default();
                    let header = |label: &'static str, column: &'static str| {
                        let href = with_param(&p, "sort", &toggle_sort(&sort, column));
                        let state = match (sort.as_str(), column) {
                            ("newest" | "", "created") => "descending",
                            ("oldest", "created") => "ascending",
                            (s, c) if s == c => "ascending",
                            (s, c) if s.strip_prefix('-') == Some(c) => "descending",
                            _ => "none",
                        };
                        view! { <th scope="col" aria-sort=state><A href=href>{label}</A></th> }
                    };
                    let next = list.next_cursor.map(|c| with_param(&params.get_untracked(), "cursor", &c));
                    let first = param("cursor").map(|_| with_param(&params.get_untracked(), "cursor", ""));
                    let empty = rows.is_empty();
                    view! {
                        <table class="results">
                            <thead>
                                <tr>
                                    <th scope="col">"Result"</th>
                                    {header("Added", "created")}
                                    {header("Drive", "model")}
                                    {header("Platform", "chipset")}
                                    {header("Tool", "tool")}
                                    <th scope="col">"Data"</th>
                                    <th scope="col" class="num">"Seq read" <span class="n test">"MB/s, first seq. test"</span></th>
                                    <th scope="col" class="num">"Seq write" <span class="n test">"MB/s, first seq. test"</span></th>
                                    <th scope="col" class="num">"RND 4KiB Q1T1 read" <span class="n test">"MB/s"</span></th>
                                    <th scope="col" class="num">"RND 4KiB Q1T1 write" <span class="n test">"MB/s"</span></th>
                                    <th scope="col" class="num">"Flags"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {rows.into_iter().map(row).collect_view()}
                            </tbody>
                            <Later>
                                <tbody>
                                    {later.into_iter().map(row).collect_view()}
                                </tbody>
                            </Later>
                        </table>
                        {empty.then(|| view! { <p class="muted">"No result matches these filters."</p> })}
                        <p class="muted">
                            "Key figures as each result's tool measured them: its first sequential test (block size, queue depth and threads beside the value, since tools differ) and its random 4 KiB test at queue depth 1 with one thread. Compare like with like on a drive's page or in Compare."
                        </p>
                        <nav class="pager" aria-label="Pages">
                            {first.map(|h| view! { <A href=h>"« First page"</A> })}
                            {next.map(|h| view! { <A href=h>"Next page »"</A> })}
                        </nav>
                    }
                })}
            </div>
        </section>
    }
}

/// How many rows are built with the page; the others follow in a task of their own.
const FIRST_ROWS: usize = 10;

fn row(r: ResultView) -> impl IntoView {
    let label = pages::drive_label(&r.tags);
    let drive = match r.tags.drive.sku.clone() {
        Some(sku) => view! { <A href=format!("/drives/{sku}")>{label}</A> }.into_any(),
        None => label.into_any(),
    };
    view! {
        <tr>
            <td>
                <A href=format!("/results/{}", r.id)>{format!("#{}", r.id)}</A>
            </td>
            <td>{format_date(r.created_at)}</td>
            <td class="drive">{drive}</td>
            <td>{platform_label(&r.tags)}</td>
            <td>{format!("{} {}", r.result.tool.name(), r.result.tool_version.clone().unwrap_or_default())}</td>
            <td>{pattern_label(r.result.data_pattern)}</td>
            {key_cell(&r.result.metrics, Access::Seq, Op::Read)}
            {key_cell(&r.result.metrics, Access::Seq, Op::Write)}
            {key_cell(&r.result.metrics, Access::Rnd, Op::Read)}
            {key_cell(&r.result.metrics, Access::Rnd, Op::Write)}
            <td class="num">{r.flags.len()}</td>
        </tr>
    }
}

/// A key figure's metric: the first sequential test of `op` (whatever its parameters), or
/// for random access the 4 KiB test at queue depth 1, one thread (the one every tool
/// runs). A tool's min/max/burst rows are not its result, so only plain (or average) rows.
fn key_metric(metrics: &[Metric], access: Access, op: Op) -> Option<&Metric> {
    metrics.iter().find(|m| {
        m.access == access
            && m.op == op
            && matches!(m.stat, None | Some(Stat::Avg))
            && (access == Access::Seq || (m.block_size == 4096 && m.queue_depth == 1 && m.threads == 1))
    })
}

/// A key figure's cell: MB/s (IOPS, said so, when the tool printed no MB/s); a sequential
/// figure names its test, since the column holds whichever the tool ran first.
fn key_cell(metrics: &[Metric], access: Access, op: Op) -> impl IntoView {
    let m = key_metric(metrics, access, op);
    let value = m.and_then(|m| match (m.mbps, m.iops) {
        (Some(v), _) => Some(charts::format_value(v)),
        (None, Some(v)) => Some(format!("{} IOPS", charts::format_value(v))),
        _ => None,
    });
    let test = m
        .filter(|_| access == Access::Seq)
        .map(|m| format!("{} Q{}T{}", format_block_size(m.block_size), m.queue_depth, m.threads));
    view! {
        <td class="num">{value.unwrap_or_else(|| "—".into())}<span class="n test">{test}</span></td>
    }
}

/// The parameters of a `/results?...` href built by [`with_param`].
fn parse_href(href: &str) -> Vec<(String, String)> {
    let Some((_, q)) = href.split_once('?') else { return Vec::new() };
    q.split('&')
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            let v = js_sys::decode_uri_component(v).ok()?.as_string()?;
            Some((k.to_string(), v))
        })
        .collect()
}
