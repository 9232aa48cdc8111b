//! The drives index (`/drives`): every drive, reviewed or community, with its result count
//! and key figures, filterable and sortable; and what it shares with the leaderboard page:
//! the URL as the state (its query is passed to the API as it is, so every view is a
//! permalink and back/forward work), the drive filter form, and the table as the server
//! renders it (`/fragments/...`: no table code or JSON decoding in the wasm; its links to
//! other views are plain links the router follows).

use super::Opening;
use super::{ErrorBox, Loading};
use crate::api;
use api_types::pages;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use wasm_bindgen::JsCast;

/// The page URL's query as (name, value) pairs.
pub type Params = Memo<Vec<(String, String)>>;

pub fn use_page_params() -> Params {
    let query = use_query_map();
    Memo::new(move |_| {
        query.with(|q| {
            q.into_iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
    })
}

/// `name=value&...`, percent-encoded.
pub fn query_string(params: &[(String, String)]) -> String {
    params.iter().map(|(k, v)| format!("{k}={}", api::encode(v))).collect::<Vec<_>>().join("&")
}

/// Page `path` with `key` set to `value` (removed when empty) and the `drop`ped names gone.
pub fn href_with(path: &str, params: &[(String, String)], key: &str, value: &str, drop: &[&str]) -> String {
    let mut p: Vec<(String, String)> =
        params.iter().filter(|(k, _)| k != key && !drop.contains(&k.as_str())).cloned().collect();
    if !value.is_empty() {
        p.push((key.to_string(), value.to_string()));
    }
    if p.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", query_string(&p))
    }
}

pub fn param(params: Params, name: &str) -> Option<String> {
    params.with(|p| p.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
}

/// The HTML the API renders at `path` (a function of the page's state, `None` while it
/// cannot be asked yet), shown as it comes; the previous view stays until the next one
/// has arrived.
pub fn server_html(height: u32, path: impl Fn() -> Option<String> + Send + Sync + 'static) -> impl IntoView {
    let html = LocalResource::new(move || {
        let path = path();
        async move {
            match path {
                Some(p) => Some(api::get_fragment(&p).await),
                None => None,
            }
        }
    });
    move || match html.get().flatten() {
        None => view! { <Loading height=height /> }.into_any(),
        Some(Err(e)) => view! { <ErrorBox error=e /> }.into_any(),
        Some(Ok(h)) => view! { <div class="server-table" inner_html=h></div> }.into_any(),
    }
}

/// The drive filters (folded unless one is set): vendor, interface, controller, NAND (each suggesting the values of
/// every drive, from the server's datalists at `/fragments/drives/suggestions`) and reviewed. Applying them
/// navigates to `path` with them set (the other parameters but `drop` kept); "Clear"
/// keeps only the `keep` parameters.
#[component]
pub fn DriveFilters(
    params: Params,
    path: &'static str,
    keep: &'static [&'static str],
    drop: &'static [&'static str],
) -> impl IntoView {
    let navigate = use_navigate();
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(form) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlFormElement>().ok()) else {
            return;
        };
        let value = |name: &str| {
            let el = form.elements().named_item(name)?;
            let v = match el.dyn_into::<web_sys::HtmlInputElement>() {
                Ok(i) => i.value(),
                Err(el) => el.dyn_into::<web_sys::HtmlSelectElement>().ok()?.value(),
            };
            Some(v.trim().to_string())
        };
        let mut p: Vec<(String, String)> = params
            .get_untracked()
            .into_iter()
            .filter(|(k, _)| {
                !drop.contains(&k.as_str())
                    && k != "reviewed"
                    && !pages::DRIVE_FILTERS.iter().any(|f| f.0 == k)
            })
            .collect();
        for name in pages::DRIVE_FILTERS.iter().map(|f| f.0).chain(["reviewed"]) {
            if let Some(v) = value(name).filter(|v| !v.is_empty()) {
                p.push((name.to_string(), v));
            }
        }
        navigate(&href_with(path, &p, "", "", &[]), Default::default());
    };
    let clear = move || {
        let kept: Vec<(String, String)> =
            params.get().into_iter().filter(|(k, _)| keep.contains(&k.as_str())).collect();
        href_with(path, &kept, "", "", &[])
    };
    let reviewed = move || param(params, "reviewed").unwrap_or_default();
    // Folded away unless a filter is set: on a phone the form would fill the screen.
    let filtered = move || params.with(|p| pages::filters_set(p));
    view! {
        <details class="filters" open=filtered>
            <summary>"Filters"</summary>
            <form class="filter-grid drive-filters" on:submit=on_submit>
                {pages::DRIVE_FILTERS
                    .iter()
                    .map(|&(name, label, example)| {
                        view! {
                            <label>
                                <span>{label}</span>
                                <input
                                    name=name
                                    list=format!("index-{name}")
                                    placeholder=example
                                    prop:value=move || param(params, name).unwrap_or_default()
                                />
                            </label>
                        }
                    })
                    .collect_view()}
                <label>
                    <span>"Reviewed"</span>
                    <select name="reviewed">
                        {pages::REVIEWED
                            .iter()
                            .map(|&(v, label)| view! { <option value=v selected=move || reviewed() == v>{label}</option> })
                            .collect_view()}
                    </select>
                </label>
                <div class="actions">
                    <button type="submit">"Apply filters"</button>
                    <A href=clear>"Clear"</A>
                </div>
            </form>
            {suggestions()}
        </details>
    }
}

/// The `<datalist>`s the filter inputs name (`index-vendor`, ...), as the server renders
/// them; the inputs work without them until they arrive.
fn suggestions() -> impl IntoView {
    let lists =
        LocalResource::new(|| async { api::get_fragment("/drives/suggestions").await.unwrap_or_default() });
    move || view! { <div hidden inner_html=lists.get().unwrap_or_default()></div> }
}

/// The orders the index offers (the API's `sort`).
const SORTS: &[(&str, &str)] = &[
    ("name", "name A–Z"),
    ("-name", "name Z–A"),
    ("results", "most results"),
    ("-results", "fewest results"),
];

#[component]
pub fn DrivesIndex() -> impl IntoView {
    let params = use_page_params();
    let navigate = use_navigate();
    let sort = move || param(params, "sort").unwrap_or_else(|| "name".into());
    let on_sort = move |ev: leptos::ev::Event| {
        let href = href_with("/drives", &params.get_untracked(), "sort", &event_target_value(&ev), &[]);
        navigate(&href, NavigateOptions { scroll: false, ..Default::default() });
    };
    view! {
        <section>
            <Opening opening=&pages::DRIVES />
            <DriveFilters params=params path="/drives" keep=&["sort"] drop=&[] />
            <div class="toolbar">
                <label>
                    "Sort "
                    <select name="sort" on:change=on_sort>
                        {SORTS
                            .iter()
                            .map(|&(v, label)| view! { <option value=v selected=move || sort() == v>{label}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <div style:min-height="420px">
                {server_html(420, move || Some(format!("/drives/index?{}", query_string(&params.get()))))}
            </div>
        </section>
    }
}
