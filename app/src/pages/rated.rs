//! A rated-vs-measured table: the server renders it (`/fragments` + the table's API
//! path: the rows of `charts::rated_rows`, which the drive page's rated charts also draw,
//! with the rule and the CSV and JSON links), the page shows it as it comes. No table
//! code in the wasm, and the site and the HTML embed print the same table.

use super::{ErrorBox, Loading};
use crate::api;
use leptos::prelude::*;

/// The rated table at API path `data` (`/drives/ID/rated`, `/compare/rated?...`,
/// `/controllers/MODEL/rated`), or any other table the server renders under
/// `/fragments` (`/drives/ID/observations`, `/results/ID/runner`).
#[component]
pub fn RatedHtml(data: String) -> impl IntoView {
    let html = LocalResource::new(move || {
        let path = data.clone();
        async move { api::get_fragment(&path).await }
    });
    move || match html.get() {
        None => view! { <Loading height=200 /> }.into_any(),
        Some(Err(e)) => view! { <ErrorBox error=e /> }.into_any(),
        Some(Ok(h)) => view! { <div class="rated-table" inner_html=h></div> }.into_any(),
    }
}
