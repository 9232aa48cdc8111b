//! A leaderboard (`/leaderboard?test=...`): one test's drives ranked by median, a line per
//! drive and pool with n, thin lines left out and counted (and shown when asked:
//! `min_results=1`). The tests offered come from `GET /leaderboard/tests`; the table is
//! the server's HTML, as on the drives index.

use super::drives_index::{href_with, param, query_string, server_html, use_page_params, DriveFilters};
use super::Opening;
use crate::api;
use api_types::pages;
use api_types::LeaderboardTests;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let params = use_page_params();
    let tests = LocalResource::new(|| api::get::<LeaderboardTests>("/leaderboard/tests"));
    let navigate = use_navigate();
    // No test in the URL: the one with the most ranked lines, put into the URL (replacing
    // the entry) so the view is a permalink.
    let choose = navigate.clone();
    Effect::new(move || {
        if param(params, "test").is_some() {
            return;
        }
        if let Some(Ok(t)) = tests.get() {
            if let Some(first) = t.tests.first() {
                let href = href_with("/leaderboard", &params.get_untracked(), "test", &first.test, &[]);
                choose(&href, NavigateOptions { replace: true, scroll: false, ..Default::default() });
            }
        }
    });
    let on_test = move |ev: leptos::ev::Event| {
        let href =
            href_with("/leaderboard", &params.get_untracked(), "test", &event_target_value(&ev), &["limit"]);
        navigate(&href, NavigateOptions { scroll: false, ..Default::default() });
    };
    let test = move || param(params, "test").unwrap_or_default();
    let picker = move || match tests.get() {
        None => view! { <span class="muted">"Loading the tests…"</span> }.into_any(),
        Some(Err(e)) => view! { <span class="error">{e.to_string()}</span> }.into_any(),
        Some(Ok(t)) if t.tests.is_empty() => {
            view! { <span class="muted">"No results yet."</span> }.into_any()
        }
        Some(Ok(t)) => {
            let on_test = on_test.clone();
            view! {
                <label>
                    "Test "
                    <select name="test" on:change=on_test>
                        {t.tests
                            .into_iter()
                            .map(|t| {
                                let label = pages::leaderboard_test_label(&t);
                                let id = t.test.clone();
                                view! { <option value=t.test selected=move || test() == id>{label}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
            }
            .into_any()
        }
    };
    view! {
        <section>
            <Opening opening=&pages::LEADERBOARD />
            <div class="toolbar">{picker}</div>
            <DriveFilters params=params path="/leaderboard" keep=&["test"] drop=&["limit"] />
            <div class="table-slot">
                {server_html(320, move || {
                    let p = params.get();
                    p.iter()
                        .any(|(k, _)| k == "test")
                        .then(|| format!("/leaderboard?{}", query_string(&p)))
                })}
            </div>
        </section>
    }
}
