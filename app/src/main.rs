//! The SSDBase website: a Leptos client-side-rendered app, built by Trunk into `dist/`
//! and served by `ssdbase serve`. It talks only to `/api/v1` (decoded in `api`), draws
//! charts from the `charts` crate on canvases and parses pasted results with `bench`
//! before anything is sent.

// Natively only these modules' unit tests use them: the site itself is wasm32.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code, unused_imports))]
mod api;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod query;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod screenshot;

#[cfg(target_arch = "wasm32")]
mod chart;
#[cfg(target_arch = "wasm32")]
mod pages;

#[cfg(target_arch = "wasm32")]
fn main() {
    leptos::mount::mount_to_body(pages::App);
}

/// Natively there is nothing to run: the site is WebAssembly, built by `trunk build`.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the SSDBase site runs in a browser: build it with `trunk build` (cargo xtask run does)");
}
