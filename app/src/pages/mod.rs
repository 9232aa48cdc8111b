//! The pages and the pieces they share (loading and error states, flags).

mod compare;
mod controller;
mod drive;
mod drives_index;
mod duplicates;
mod effects;
mod home;
mod leaderboard;
mod measure;
mod platform;
mod propose;
mod rated;
mod result;
mod results;
mod submit;
mod tag_form;

use crate::api::{self, ApiError, DriveListView};
use bench::analysis::Flag;
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::{lazy_route, path, Lazy, LazyRoute};

#[component]
pub fn App() -> impl IntoView {
    // True while the next page's code and data load after a click: the old page stays
    // until the new one can be drawn, so a bar under the header says something happens.
    let (routing, set_routing) = signal(false);
    view! {
        <Router set_is_routing=set_routing>
            <div class="route-progress" class:active=routing aria-hidden="true"></div>
            <header class="top">
                <a class="skip" href="#main">"Skip to content"</a>
                <A href="/" attr:class="brand">"SSDBase"</A>
                <nav aria-label="Main">
                    {api_types::pages::NAV.iter().map(|(href, label)| view! { <A href=*href>{*label}</A> }).collect_view()}
                </nav>
            </header>
            <main id="main" aria-busy=move || if routing.get() { "true" } else { "false" }>
                // The page in a task of its own after the frame around it (see Later).
                <Later>
                    <Routes fallback=NotFound>
                        <Route path=path!("/") view=home::Home />
                        <Route path=path!("/results") view={Lazy::<BrowseRoute>::new()} />
                        <Route path=path!("/results/:id") view={Lazy::<ResultRoute>::new()} />
                        <Route path=path!("/drives") view={Lazy::<BrowseRoute>::new()} />
                        <Route path=path!("/drives/:id") view={Lazy::<DriveRoute>::new()} />
                        <Route path=path!("/leaderboard") view={Lazy::<BrowseRoute>::new()} />
                        <Route path=path!("/effects") view={Lazy::<BrowseRoute>::new()} />
                        <Route path=path!("/drives/:id/propose") view={Lazy::<BrowseRoute>::new()} />
                        <Route path=path!("/propose") view={Lazy::<BrowseRoute>::new()} />
                        <Route path=path!("/compare") view={Lazy::<CompareRoute>::new()} />
                        <Route path=path!("/controllers/:model") view={Lazy::<ControllerRoute>::new()} />
                        <Route path=path!("/platforms/:chipset") view=platform::PlatformPage />
                        <Route path=path!("/submit") view={Lazy::<SubmitRoute>::new()} />
                        <Route path=path!("/measure") view={Lazy::<MeasureRoute>::new()} />
                        <Route path=path!("/admin/duplicates") view={Lazy::<BrowseRoute>::new()} />
                    </Routes>
                </Later>
            </main>
            <footer class="foot">
                "SSDBase · data: "
                <a rel="external" href="/api/v1/results?format=csv">"CSV"</a>
                " · "
                <a rel="external" href="/api/v1/results">"JSON"</a>
                " · the whole dataset, daily: "
                <a rel="external" href="/api/v1/dumps/latest/results.csv.gz" download>"results.csv.gz"</a>
                " · "
                <a rel="external" href="/api/v1/dumps">"every file (JSON Lines)"</a>
            </footer>
        </Router>
    }
}

/// The heavier pages are lazily loaded pieces of the wasm (Leptos lazy routes, split by
/// `cargo xtask site-post-build`): a visit downloads the app's frame, the light pages
/// (home, platform) and the one heavy page it shows, not every page's code.
/// Splitting every page was worse: code shared by each different subset of pages becomes
/// a chunk of its own, and 125 small chunks cost more in per-file overhead (imports, call
/// shims, gzip) than they saved: home page 268 KB gzipped against 230 KB, submit page
/// 352 KB against 335 KB (KB = 1,024 bytes, same code).
///
/// `[prefetch]` names a function that starts the page's main request while its code is
/// still on the way (`data()` runs in the main module, before the piece has loaded).
macro_rules! lazy_page {
    ($($route:ident => $page:path $([$prefetch:path])?),* $(,)?) => {$(
        struct $route;

        #[lazy_route]
        impl LazyRoute for $route {
            fn data() -> Self {
                $($prefetch();)?
                $route
            }

            fn view(_this: Self) -> AnyView {
                // As the page first opens, built in a task after the one in which its
                // piece of the wasm arrived and was instantiated, while the server's
                // first paint is on screen. After a click, at once: built later, the
                // main area would show empty for a frame between the two pages.
                if crate::first_paint::showing() {
                    view! { <Later>{$page()}</Later> }.into_any()
                } else {
                    $page().into_any()
                }
            }
        }
    )*};
}

lazy_page! {
    ResultRoute => result::ResultPage [result::prefetch],
    DriveRoute => drive::DrivePage [drive::prefetch],
    CompareRoute => compare::Compare [compare::prefetch],
    ControllerRoute => controller::ControllerPage,
    SubmitRoute => submit::Submit,
    MeasureRoute => measure::MeasurePage [measure::prefetch],
    BrowseRoute => browse,
}

/// The pages that browse the database, results, drives, leaderboards and effects, and the
/// proposal forms (`/propose`, `/drives/:id/propose`) are one lazy route (one piece of
/// the wasm), by their path: they use much the same code (the URL as their state, filter
/// forms, navigation), so as separate pieces the code each shares with other pages was
/// cut into more small chunks (a chunk per set of pages using it, each file with its own
/// overhead), which cost the compare page 7 KB for the index and leaderboard and put it
/// at 361 KB with the forms; together they add their own code to the results page.
fn browse() -> AnyView {
    let path = leptos_router::hooks::use_location().pathname.get_untracked();
    let path = path.trim_end_matches('/');
    if path == "/propose" {
        propose::ProposeNew().into_any()
    } else if path == "/admin/duplicates" {
        duplicates::DuplicatesPage().into_any()
    } else if path.ends_with("/propose") {
        propose::ProposeChange().into_any()
    } else if path.starts_with("/effects") {
        effects::EffectsPage().into_any()
    } else if path.starts_with("/leaderboard") {
        leaderboard::LeaderboardPage().into_any()
    } else if path.starts_with("/drives") {
        drives_index::DrivesIndex().into_any()
    } else {
        results::Results().into_any()
    }
}

#[component]
fn NotFound() -> impl IntoView {
    view! {
        <section>
            <h1>"Page not found"</h1>
            <p>"There is nothing at this address. " <A href="/">"Go to the start page"</A> "."</p>
        </section>
    }
}

/// A placeholder of fixed height while data loads, so that nothing jumps.
#[component]
pub fn Loading(
    #[prop(default = 120)] height: u32,
    #[prop(default = "Loading…")] what: &'static str,
) -> impl IntoView {
    view! {
        <div class="loading" style:min-height=format!("{height}px") role="status" aria-live="polite">
            {what}
        </div>
    }
}

/// Its children, built in a task of their own after the one that builds the page around
/// them: for what lies below the first screen (a long table under a chart), and the
/// routed page after the app's frame, so that building a page is several shorter tasks,
/// during which the page answers input, rather than one long one (Lighthouse's TBT
/// counts each task's time over 50 ms; BENCHMARKS.md "A page's first render in several
/// tasks").
#[component]
pub fn Later(children: Children) -> impl IntoView {
    let ready = RwSignal::new(false);
    // `try_set`: the page may be gone by then.
    set_timeout(move || _ = ready.try_set(true), std::time::Duration::ZERO);
    // Built once: `ready` turns true once, and only then does the closure run again.
    let children = std::sync::Mutex::new(Some(children));
    move || ready.get().then(|| children.lock().ok()?.take().map(|c| c())).flatten()
}

/// A page's heading and first paragraph, as `api_types::pages` writes them (the server
/// shows the same before this code has arrived: `first_paint`).
#[component]
pub fn Opening(opening: &'static api_types::pages::Opening) -> impl IntoView {
    use api_types::pages::Run;
    view! {
        <h1>{opening.heading}</h1>
        <p class=opening.class>
            {opening
                .paragraph
                .iter()
                .map(|run| match *run {
                    Run::Text(text) => text.into_any(),
                    Run::Link(href, text) => view! { <A href=href>{text}</A> }.into_any(),
                })
                .collect_view()}
        </p>
    }
}

/// The links under a page's heading (`api_types::pages`), as the server's first paint
/// draws them too.
#[component]
pub fn PageLinks(links: Vec<api_types::pages::PageLink>) -> impl IntoView {
    let last = links.len().saturating_sub(1);
    view! {
        <p class="page-links">
            {links
                .into_iter()
                .enumerate()
                .map(|(i, l)| view! { <A href=l.href attr:id=l.id>{l.text}</A> {(i < last).then_some(" · ")} })
                .collect_view()}
        </p>
    }
}

#[component]
pub fn ErrorBox(error: ApiError) -> impl IntoView {
    view! {
        <div class="error" role="alert">
            <strong>"Could not load this: "</strong>
            {error.to_string()}
        </div>
    }
}

#[component]
pub fn Flags(flags: Vec<Flag>) -> impl IntoView {
    if flags.is_empty() {
        return view! { <p class="muted">"No flags: nothing about the path explains these numbers away."</p> }
            .into_any();
    }
    view! {
        <ul class="flags">
            {flags
                .into_iter()
                .map(|f| {
                    view! {
                        <li>
                            <span class=format!("flag {}", flag_class(&f))>{f.kind.name()}</span>
                            " "
                            <strong>{f.label}</strong>
                            ": "
                            {f.detail}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}

fn flag_class(f: &Flag) -> &'static str {
    use bench::analysis::FlagKind::*;
    match f.kind {
        InterfaceCeiling => "ceiling",
        CacheInflated | FarAboveRated | VolumeSize => "warn",
        CompressionSensitive => "info",
    }
}

/// Waits `ms` milliseconds (a `setTimeout` promise).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// How long typing must pause before the drive search asks the server: one request per
/// pause, not one per key.
const SEARCH_PAUSE_MS: i32 = 250;

/// Drive search as you type: vendor, model, part number or alias, reviewed and community
/// drives, answered by `GET /drives/search` once typing pauses. Without `pick` the drives
/// found link to their pages (home); with it they are buttons handing the drive id to
/// `pick` (the submit page fills its drive field). One component for both, in the main
/// module with home, so that the submit page's piece of the wasm carries only its use.
#[component]
pub fn DriveSearch(
    placeholder: &'static str,
    #[prop(optional)] pick: Option<Callback<String>>,
) -> impl IntoView {
    let (q, set_q) = signal(String::new());
    let found = LocalResource::new(move || {
        let typed = q.get();
        async move {
            let typed = typed.trim().to_string();
            if typed.is_empty() {
                return None;
            }
            sleep(SEARCH_PAUSE_MS).await;
            // Typed on meanwhile: a newer search replaces this one, so do not ask.
            if q.get_untracked().trim() != typed {
                return None;
            }
            Some(
                api::get::<DriveListView>(&format!("/drives/search?q={}&limit=8", api::encode(&typed))).await,
            )
        }
    });
    // The drives found, for the keyboard: ArrowDown and ArrowUp move through them,
    // Enter picks the one marked (or opens its page), Escape unmarks.
    let ids = Memo::new(move |_| match found.get().flatten() {
        Some(Ok(l)) => l.drives.into_iter().map(|d| d.id).collect::<Vec<_>>(),
        _ => Vec::new(),
    });
    let (active, set_active) = signal(None::<usize>);
    let navigate = leptos_router::hooks::use_navigate();
    let choose = move |id: String| match pick {
        Some(pick) => pick.run(id),
        None => navigate(&format!("/drives/{id}"), Default::default()),
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = ids.with(Vec::len);
        match ev.key().as_str() {
            "ArrowDown" if n > 0 => {
                ev.prevent_default();
                set_active.update(|a| *a = Some(a.map_or(0, |i| (i + 1).min(n - 1))));
            }
            "ArrowUp" if n > 0 => {
                ev.prevent_default();
                set_active.update(|a| *a = a.map(|i| i.saturating_sub(1)));
            }
            "Escape" => set_active.set(None),
            // Enter must not submit the form around it (the submit page's).
            "Enter" => {
                ev.prevent_default();
                if let Some(id) =
                    active.get_untracked().and_then(|i| ids.with_untracked(|v| v.get(i).cloned()))
                {
                    choose(id);
                }
            }
            _ => {}
        }
    };
    let item = move |(i, s): (usize, api_types::DriveItemView)| {
        let name = format!("{} {} {} GB", s.vendor, s.model, s.capacity_gb);
        let about = format!(
            " {} · {} results{}",
            s.controller.model.unwrap_or_default(),
            s.result_count,
            if s.reviewed { "" } else { " · not reviewed yet" }
        );
        let link = match pick {
            None => view! { <A href=format!("/drives/{}", s.id)>{name}</A> }.into_any(),
            Some(pick) => {
                let id = s.id.clone();
                view! { <button type="button" class="pick" on:click=move |_| pick.run(id.clone())>{name}</button> }
                    .into_any()
            }
        };
        let marked = move || active.get() == Some(i);
        view! {
            <li id=format!("drive-match-{i}") role="option" aria-selected=move || marked().to_string() class:active=marked>
                {link}<span class="muted">{about}</span>
            </li>
        }
    };
    view! {
        <label class="search">
            <span class="sr-only">"Search drives"</span>
            <input
                type="search"
                role="combobox"
                aria-controls="drive-matches"
                aria-autocomplete="list"
                aria-expanded=move || (!ids.with(Vec::is_empty)).to_string()
                aria-activedescendant=move || active.get().map(|i| format!("drive-match-{i}"))
                placeholder=placeholder
                prop:value=q
                on:input=move |ev| {
                    set_active.set(None);
                    set_q.set(event_target_value(&ev));
                }
                on:keydown=on_key
            />
        </label>
        <ul class="matches" id="drive-matches" role="listbox" aria-live="polite">
            {move || {
                found.get().flatten().map(|answer| match answer {
                    Err(e) => view! { <li class="muted">{e.to_string()}</li> }.into_any(),
                    Ok(l) if l.drives.is_empty() => view! { <li class="muted">"No drive matches."</li> }.into_any(),
                    Ok(l) => l.drives.into_iter().enumerate().map(item).collect_view().into_any(),
                })
            }}
        </ul>
    }
}

/// `Ok` value of a resource as a view, with loading and error states.
pub fn loaded<T, V>(
    res: LocalResource<Result<T, ApiError>>,
    height: u32,
    show: impl Fn(T) -> V + Send + Sync + 'static,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    move || match res.get() {
        None => view! { <Loading height=height /> }.into_any(),
        Some(Err(e)) => view! { <ErrorBox error=e /> }.into_any(),
        Some(Ok(v)) => show(v).into_any(),
    }
}

/// Links to a chart as an image (the server draws it with the same `charts` function)
/// and snippets to paste into an article, a forum post or a README, each linking back
/// to `page`: the image URL, HTML `<img>`, an `<iframe>` of the script-free embed page
/// `frame` (a site path), Markdown and BBCode; plus the data behind the chart (`csv`,
/// `json`: API URLs). `image` is the chart's API path without its extension
/// (`/compare/chart`), `query` its query.
#[component]
pub fn Embed(
    page: String,
    #[prop(into)] image: String,
    query: String,
    alt: String,
    frame: String,
    csv: String,
    json: String,
) -> impl IntoView {
    let origin = window().location().origin().unwrap_or_default();
    let image = |ext: &str, extra: &str| format!("{origin}{}{image}.{ext}?{query}{extra}", api::API);
    let (svg, png, dark) = (image("svg", ""), image("png", ""), image("svg", "&theme=dark"));
    let page = format!("{origin}{page}");
    let md_alt: String = alt.chars().filter(|c| !matches!(c, '[' | ']')).collect();
    // The HTML snippets with maud: every URL and the alt text escaped.
    let html = maud::html! { a href=(page) { img src=(svg) alt=(alt) width="720"; } }.into_string();
    let frame = format!("{origin}{frame}");
    let iframe = maud::html! {
        iframe src=(frame) width="720" height="540" style="border:0;max-width:100%" loading="lazy" title=(alt) {}
    }
    .into_string();
    let snippets = [
        ("Image URL", png.clone()),
        ("HTML", html),
        ("iframe", iframe),
        ("Markdown", format!("[![{md_alt}]({})]({})", png.replace(' ', "%20"), page.replace(' ', "%20"))),
        ("BBCode", format!("[url={page}][img]{png}[/img][/url]")),
    ];
    let copied = RwSignal::new("");
    let copy = move |text: String| {
        let done = window().navigator().clipboard().write_text(&text);
        leptos::task::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(done).await.is_ok();
            copied.set(if ok { "Copied." } else { "Copying was refused; select the text and copy it." });
        });
    };
    view! {
        <details class="embed">
            <summary>"Embed this chart"</summary>
            <p class="muted">
                "The server draws this chart as an image with the same code, so it stays current as results arrive: "
                <a href=svg>"SVG"</a>
                " · "
                <a href=png>"PNG"</a>
                " · "
                <a href=dark>"SVG, dark"</a>
                ". The data behind it: "
                <a href=csv download="">"CSV"</a>
                " · "
                <a href=json>"JSON"</a>
            </p>
            {snippets
                .into_iter()
                .map(|(name, text)| {
                    let t = text.clone();
                    view! {
                        <label class="snippet">
                            {name}
                            <textarea readonly=true data-snippet=name prop:value=text></textarea>
                        </label>
                        <button type="button" on:click=move |_| copy(t.clone())>{format!("Copy {name}")}</button>
                    }
                })
                .collect_view()}
            " "
            <span aria-live="polite">{move || copied.get()}</span>
        </details>
    }
}
