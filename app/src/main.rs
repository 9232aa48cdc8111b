//! The SSDBase website: a Leptos client-side-rendered app, built by Trunk into `dist/`
//! and served by `ssdbase serve`. It talks only to `/api/v1` (decoded in `api`), draws
//! charts from the `charts` crate on canvases and parses pasted results with `bench`
//! before anything is sent.

// Natively only these modules' unit tests use them: the site itself is wasm32.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code, unused_imports))]
mod api;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod proposal;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod query;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod screenshot;

#[cfg(target_arch = "wasm32")]
mod canvas;
#[cfg(target_arch = "wasm32")]
mod chart;
#[cfg(target_arch = "wasm32")]
mod first_paint;
#[cfg(target_arch = "wasm32")]
mod pages;

#[cfg(target_arch = "wasm32")]
fn main() {
    std::panic::set_hook(Box::new(show_crash));
    // Mounted in a task of its own, after the one that compiled and started the module:
    // two shorter tasks instead of one long one, during which the page answers input
    // (Lighthouse's TBT counts the time of each task over 50 ms).
    leptos::prelude::set_timeout(|| first_paint::mount(pages::App), std::time::Duration::ZERO);
}

/// A panic stops the whole app (`panic = "abort"`), for instance when a lazily loaded
/// piece of the wasm cannot be fetched: say so on the page, with a way out, instead of
/// leaving a page that silently no longer reacts.
#[cfg(target_arch = "wasm32")]
fn show_crash(info: &std::panic::PanicHookInfo) {
    web_sys::console::error_1(&info.to_string().into());
    let body = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body());
    if let Some(body) = body {
        let _ = body.insert_adjacent_html(
            "afterbegin",
            r#"<div class="crashed" role="alert">SSDBase stopped working on this page (a part of it could not be loaded, or a bug). <a href="">Reload the page</a></div>"#,
        );
    }
}

/// Natively there is nothing to run: the site is WebAssembly, built by `trunk build`.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the SSDBase site runs in a browser: build it with `trunk build` (cargo xtask run does)");
}
