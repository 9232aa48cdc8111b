//! The moderators' duplicates page (`/admin/duplicates`): drives the identity rules say
//! are one drive (`GET /catalogue/duplicates`), each group with its drives' result
//! counts, merged through the merge route with the admin token. The token stays in this
//! tab only (`sessionStorage`); without it the page lists and merges nothing less, the
//! server refuses the merge.

use super::{loaded, ErrorBox};
use crate::api::{self, ApiError};
use api_types::{DuplicateGroup, DuplicateList};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;

const TOKEN_KEY: &str = "ssdbase-admin-token";

fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

#[component]
pub fn DuplicatesPage() -> impl IntoView {
    let token =
        RwSignal::new(session().and_then(|s| s.get_item(TOKEN_KEY).ok().flatten()).unwrap_or_default());
    let (reload, set_reload) = signal(0u32);
    let list = LocalResource::new(move || {
        reload.track();
        api::get::<DuplicateList>("/catalogue/duplicates")
    });
    let (outcome, set_outcome) = signal(None::<Result<String, ApiError>>);
    // Merges every other drive of the group into `into`, one request each, then lists
    // again.
    let merge = move |into: String, from: Vec<String>| {
        let token = token.get_untracked();
        spawn_local(async move {
            let mut moved = 0;
            for id in &from {
                match api::merge(id, &into, &token).await {
                    Ok(m) => moved += m.moved_results,
                    Err(e) => {
                        set_outcome.set(Some(Err(e)));
                        set_reload.update(|n| *n += 1);
                        return;
                    }
                }
            }
            set_outcome.set(Some(Ok(format!(
                "Merged {} into {into}: {moved} result(s) moved, with their uploads and history.",
                from.join(", ")
            ))));
            set_reload.update(|n| *n += 1);
        });
    };
    let group = move |g: DuplicateGroup| {
        let ids: Vec<String> = g.drives.iter().map(|d| d.drive.id.clone()).collect();
        let rows = g
            .drives
            .into_iter()
            .map(|d| {
                let id = d.drive.id.clone();
                let others: Vec<String> = ids.iter().filter(|o| **o != id).cloned().collect();
                let into = id.clone();
                let certain = g.into.as_deref() == Some(id.as_str());
                view! {
                    <tr>
                        <td><A href=format!("/drives/{id}")>{format!("{} {} {} GB", d.drive.vendor, d.drive.model, d.drive.capacity_gb)}</A></td>
                        <td><code>{id.clone()}</code></td>
                        <td>{if d.drive.reviewed { "reviewed" } else { "community" }}</td>
                        <td class="num">{d.result_count}</td>
                        <td>
                            <button type="button" class:primary=certain on:click=move |_| merge(into.clone(), others.clone())>
                                {if certain { "Merge the others into this (certain)" } else { "Merge the others into this" }}
                            </button>
                        </td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <section class="duplicate-group">
                <h2>{g.keys.join(", ")}</h2>
                {g.into.is_none().then(|| view! { <p class="muted">"Two reviewed drives: judge which is right before merging."</p> })}
                <div class="table-wrap">
                    <table>
                        <thead><tr><th scope="col">"Drive"</th><th scope="col">"Id"</th><th scope="col">"Kind"</th><th scope="col" class="num">"Results"</th><th scope="col">"Merge"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        }
    };
    view! {
        <h1>"Duplicate drives"</h1>
        <p>
            "Drives that the identity rules say are one drive: the same model line and capacity under two names. "
            "Merging moves every result, with its upload and history, to the drive kept; the merged drive's names "
            "become its aliases, so later uploads naming them land on it. Merging needs the admin token."
        </p>
        <label>
            "Admin token "
            <input
                type="password"
                autocomplete="off"
                prop:value=token
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    if let Some(s) = session() {
                        let _ = s.set_item(TOKEN_KEY, &t);
                    }
                    token.set(t);
                }
            />
        </label>
        <div aria-live="polite" id="merge-outcome">
            {move || outcome.get().map(|o| match o {
                Ok(text) => view! { <div class="ok" role="status">{text}</div> }.into_any(),
                Err(e) => view! { <ErrorBox error=e /> }.into_any(),
            })}
        </div>
        {loaded(list, 200, move |l: DuplicateList| {
            if l.groups.is_empty() {
                view! { <p id="no-duplicates">"No duplicate drives."</p> }.into_any()
            } else {
                l.groups.into_iter().map(group).collect_view().into_any()
            }
        })}
    }
}
