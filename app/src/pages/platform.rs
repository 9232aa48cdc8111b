//! A platform (a chipset, e.g. AMD SB850): every drive measured on it with its result
//! count, one click from comparing them there, test by comparable test.

use super::loaded;
use crate::api::{self, encode, ListResponse};
use api_types::pages::drive_label;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use std::collections::BTreeMap;

/// Results read for one platform page; beyond this the page says it shows the newest.
const LIMIT: usize = 500;

#[component]
pub fn PlatformPage() -> impl IntoView {
    let params = use_params_map();
    let chipset = move || params.with(|p| p.get("chipset").unwrap_or_default());
    let results = LocalResource::new(move || {
        let chipset = chipset();
        async move {
            api::get::<ListResponse>(&format!("/results?chipset={}&limit={LIMIT}", encode(&chipset))).await
        }
    });
    view! {
        <section>
            <h1>{move || format!("Measured on {}", chipset())}</h1>
            {move || {
                let chipset = chipset();
                loaded(results, 200, move |list: ListResponse| {
                    // Per drive: catalogue id (if any), label, results, tools used.
                    let mut drives: BTreeMap<String, (Option<String>, usize, Vec<String>)> = BTreeMap::new();
                    for r in &list.results {
                        let e = drives.entry(drive_label(&r.tags)).or_insert((r.tags.drive.sku.clone(), 0, Vec::new()));
                        e.1 += 1;
                        let tool = r.result.tool.name().to_string();
                        if !e.2.contains(&tool) {
                            e.2.push(tool);
                        }
                    }
                    let ids: Vec<String> = drives.values().filter_map(|d| d.0.clone()).collect();
                    let compare = format!("/compare?drives={}&chipset={}", ids.join(","), encode(&chipset));
                    let filtered = format!("/results?chipset={}", encode(&chipset));
                    let truncated = list.next_cursor.is_some();
                    view! {
                        {drives.is_empty().then(|| view! { <p class="empty">"No result was measured on this chipset."</p> })}
                        {(ids.len() > 1).then(|| view! {
                            <p><A href=compare>{format!("Compare the {} catalogue drives on {chipset}, test by test", ids.len())}</A></p>
                        })}
                        <p class="muted">
                            {format!("{} result(s){}. ", list.results.len(), if truncated { " (the newest)" } else { "" })}
                            <A href=filtered>"Browse them"</A>
                        </p>
                        <div class="table-wrap">
                            <table>
                                <thead>
                                    <tr>
                                        <th scope="col">"Drive"</th>
                                        <th scope="col">"Tools"</th>
                                        <th scope="col" class="num">"Results"</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    {drives.into_iter().map(|(label, (sku, count, tools))| view! {
                                        <tr>
                                            <td>{match sku {
                                                Some(id) => view! { <A href=format!("/drives/{id}")>{label}</A> }.into_any(),
                                                None => label.into_any(),
                                            }}</td>
                                            <td>{tools.join(", ")}</td>
                                            <td class="num">{count}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    }
                })
            }}
        </section>
    }
}
