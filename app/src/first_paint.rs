//! Taking over from the page the server sent. The server puts the site's menu and the
//! page's opening in the body (`server::html::first_paint`, an element `#first-paint`)
//! so that a reader sees them before this code arrives. The app mounts beside it, hidden
//! but laid out (so charts measure their real width), and swaps itself in once the page
//! it routed to has drawn its heading or an error: in that same frame, so the opening a
//! reader sees never blinks or moves. When the server's first paint shows more than the
//! opening (a leaderboard's table), it names what the app must have drawn too
//! (`data-drawn`). A page that draws neither is shown after [`LONGEST_MS`] anyway.

use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The server's element (`server::html::first_paint::ID`).
const ID: &str = "first-paint";
/// The app's page is drawn once it shows its heading, or what the first paint's
/// `data-drawn` names (selectors separated by `;`, each of which must be there).
const DRAWN: &str = "main h1";
/// What the app shows when it cannot draw the page: it takes over at once.
const FAILED: &str = "main [role=alert]";
/// The class that keeps the app hidden but laid out (style.css).
const HIDDEN: &str = "taking-over";
/// The longest the server's opening stays in place of a page that draws no heading.
const LONGEST_MS: i32 = 4000;

/// Whether the server's first paint is still what the reader sees (the app has not taken
/// over yet): true only while the page first opens.
pub fn showing() -> bool {
    document().get_element_by_id(ID).is_some()
}

/// Mounts `app`: beside the server's first paint, taking over from it, when there is one.
pub fn mount<V: IntoView + 'static>(app: fn() -> V) {
    let document = document();
    let (Some(first), Some(body)) = (document.get_element_by_id(ID), document.body()) else {
        leptos::mount::mount_to_body(app);
        return;
    };
    let wanted: Vec<String> = first
        .get_attribute("data-drawn")
        .unwrap_or_else(|| DRAWN.to_string())
        .split(';')
        .map(str::to_string)
        .collect();
    let Ok(root) = document.create_element("div") else { return };
    root.set_class_name(HIDDEN);
    let _ = body.append_child(&root);
    let root: web_sys::HtmlElement = root.unchecked_into();
    leptos::mount::mount_to(root.clone(), app).forget();

    let done = Rc::new(Cell::new(false));
    let take_over = {
        let (done, root) = (done.clone(), root.clone());
        move || {
            if !done.replace(true) {
                first.remove();
                root.remove_attribute("class").ok();
            }
        }
    };
    let drawn = {
        let root = root.clone();
        let shows = move |selector: &str| root.query_selector(selector).ok().flatten().is_some();
        move || shows(FAILED) || wanted.iter().all(|s| shows(s))
    };
    if drawn() {
        take_over();
        return;
    }
    // Called after the DOM changed and before the browser paints it.
    let on_change = {
        let take_over = take_over.clone();
        Closure::<dyn FnMut(js_sys::Array, web_sys::MutationObserver)>::new(
            move |_: js_sys::Array, observer: web_sys::MutationObserver| {
                if drawn() {
                    take_over();
                    observer.disconnect();
                }
            },
        )
    };
    let Ok(observer) = web_sys::MutationObserver::new(on_change.as_ref().unchecked_ref()) else {
        take_over();
        return;
    };
    on_change.forget();
    let options = web_sys::MutationObserverInit::new();
    options.set_child_list(true);
    options.set_subtree(true);
    if observer.observe_with_options(&root, &options).is_err() {
        take_over();
        return;
    }
    let give_up = Closure::once_into_js(move || {
        observer.disconnect();
        take_over();
    });
    let _ =
        window().set_timeout_with_callback_and_timeout_and_arguments_0(give_up.unchecked_ref(), LONGEST_MS);
}
