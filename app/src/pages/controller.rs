//! A controller: every catalogue drive built on it (e.g. the Marvell 88SS9174 in the C300,
//! M2S, C400 and Intel 510), one click from comparing them all.

use super::rated::RatedHtml;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
pub fn ControllerPage() -> impl IntoView {
    let params = use_params_map();
    let model = move || params.with(|p| p.get("model").unwrap_or_default());
    view! {
        <section>
            <h1>{move || format!("Controller {}", model())}</h1>
            // The server's table of the drives on this controller (not the catalogue).
            {move || view! { <RatedHtml data=format!("/controllers/{}/drives", crate::api::encode(&model())) /> }}
            <h2>"Rated vs measured"</h2>
            <p class="muted">"Every drive on this controller with its maker's ratings beside what it measured."</p>
            {move || view! { <RatedHtml data=format!("/controllers/{}/rated", crate::api::encode(&model())) /> }}
        </section>
    }
}
