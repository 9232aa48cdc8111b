//! Factor effects (`/effects`): how much a chipset, driver, firmware, data pattern or
//! any other field that can change while the drive stays the same changes its results,
//! measured within drives and combined across them, each with its interval and verdict.
//! `?factor=` picks one field; `a`, `b`, `test` and `figure` (a row's link) show the
//! drives behind one effect. The URL is the state; the tables are the server's HTML.

use super::drives_index::{href_with, param, query_string, server_html, use_page_params};
use super::Opening;
use api_types::pages;
use bench::effects::FACTORS;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

#[component]
pub fn EffectsPage() -> impl IntoView {
    let params = use_page_params();
    let navigate = use_navigate();
    let on_factor = move |ev: leptos::ev::Event| {
        let href = href_with(
            "/effects",
            &params.get_untracked(),
            "factor",
            &event_target_value(&ev),
            &["a", "b", "test", "figure"],
        );
        navigate(&href, NavigateOptions { scroll: false, ..Default::default() });
    };
    let factor = move || param(params, "factor").unwrap_or_default();
    let label = |f: &'static str| bench::fields::field(f).map_or(f, |x| x.label);
    view! {
        <section>
            <Opening opening=&pages::EFFECTS />
            <div class="toolbar">
                <label>
                    "Field "
                    <select name="factor" on:change=on_factor>
                        <option value="" selected=move || factor().is_empty()>"Every field"</option>
                        {FACTORS
                            .iter()
                            .map(|f| {
                                view! { <option value=*f selected=move || factor() == *f>{label(f)}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <div style:min-height="320px">
                {server_html(320, move || {
                    let p = params.get();
                    let one = p.iter().any(|(k, _)| k == "test");
                    Some(if one {
                        format!("/effects/drives?{}", query_string(&p))
                    } else {
                        format!("/effects?{}", query_string(&p))
                    })
                })}
            </div>
        </section>
    }
}
