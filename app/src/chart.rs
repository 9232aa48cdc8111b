//! A `<canvas>` that draws one chart from the `charts` crate and reports which datum
//! the pointer is over. The caller gives the chart's height up front (the chart crate
//! computes it from the data), so the page does not jump when the drawing arrives; the
//! width follows the container and the chart is redrawn when the window resizes.

use crate::canvas::MeasuredCanvas;
use charts::{HitBox, Theme};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::sync::Arc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The chart's height in CSS pixels for a width.
pub type HeightFn = Arc<dyn Fn(u32) -> u32 + Send + Sync>;

/// Draws on the area and returns the hit boxes.
pub type DrawFn = Arc<dyn Fn(&DrawingArea<MeasuredCanvas, Shift>, &Theme) -> Vec<HitBox> + Send + Sync>;

/// The theme the system asks for.
pub fn theme() -> Theme {
    let dark =
        window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches());
    if dark {
        Theme::DARK
    } else {
        Theme::LIGHT
    }
}

/// Milliseconds since navigation start.
pub fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

#[component]
pub fn ChartCanvas(
    /// Height in CSS pixels for a width: charts lay out differently on phones.
    height: HeightFn,
    /// What the chart shows, for screen readers.
    label: String,
    draw: DrawFn,
    /// Called with the datum under the pointer (or tap), `None` when off every datum.
    #[prop(optional, into)]
    on_hit: Option<Callback<Option<HitBox>>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let hits = StoredValue::new(Vec::<HitBox>::new());
    let (resized, set_resized) = signal(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| set_resized.update(|n| *n += 1));
    on_cleanup(move || handle.remove());

    // A first guess from the window's width, so the space is reserved before measuring.
    let guess = window()
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .map_or(800, |w| (w as u32).min(1080).saturating_sub(32));
    let initial = height(guess);
    // Drawn once on screen or about to be (a chart below a phone's first screen costs
    // nothing until scrolled to), in a task of its own: the observer reports in a task
    // after the one that built the page, whose layout is then measured once, and the two
    // are shorter tasks than one (Lighthouse's TBT counts each task's time over 50 ms).
    let (seen, set_seen) = signal(false);
    let watcher = StoredValue::new_local(None::<OnScreen>);
    canvas.on_load(move |el| watcher.set_value(OnScreen::watch(&el, move || set_seen.set(true))));
    on_cleanup(move || watcher.set_value(None));
    Effect::new(move |_| {
        resized.track();
        if seen.get() {
            draw_now(canvas, &height, &draw, hits);
        }
    });

    // Keyboard: the arrow keys step through the data in reading order (hit boxes come
    // in drawing order), Escape clears; the page announces the choice like a tap's.
    let focused = StoredValue::new(None::<usize>);
    let pick = move |x: i32, y: i32| {
        if let Some(on_hit) = on_hit {
            let boxes = hits.get_value();
            let hit = charts::hit(&boxes, x, y);
            focused.set_value(hit.and_then(|h| boxes.iter().position(|b| *b == h)));
            on_hit.run(hit);
        }
    };
    let step = move |delta: i32| {
        let Some(on_hit) = on_hit else { return };
        let boxes = hits.get_value();
        let n = boxes.len() as i32;
        if n == 0 {
            return;
        }
        let next = match focused.get_value() {
            Some(i) => (i as i32 + delta).rem_euclid(n),
            None if delta > 0 => 0,
            None => n - 1,
        } as usize;
        focused.set_value(Some(next));
        on_hit.run(Some(boxes[next]));
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowRight" | "ArrowDown" => {
            ev.prevent_default();
            step(1);
        }
        "ArrowLeft" | "ArrowUp" => {
            ev.prevent_default();
            step(-1);
        }
        "Escape" => {
            focused.set_value(None);
            if let Some(on_hit) = on_hit {
                on_hit.run(None);
            }
        }
        _ => {}
    };
    let interactive = on_hit.is_some();
    let label = if interactive { format!("{label}. Arrow keys step through the bars.") } else { label };
    view! {
        <div class="chart" style:height=format!("{initial}px")>
            <canvas
                node_ref=canvas
                role="img"
                aria-label=label
                tabindex=interactive.then_some("0")
                on:keydown=on_key
                on:mousemove=move |ev| pick(ev.offset_x(), ev.offset_y())
                on:click=move |ev| pick(ev.offset_x(), ev.offset_y())
            ></canvas>
        </div>
    }
}

/// Sizes the canvas to its container and draws the chart on it.
fn draw_now(canvas: NodeRef<Canvas>, height: &HeightFn, draw: &DrawFn, hits: StoredValue<Vec<HitBox>>) {
    // The page may have gone since (a quick navigation): then there is nothing to draw.
    let Some(el) = canvas.try_get_untracked().flatten() else { return };
    let Some(container) = el.parent_element() else { return };
    let width = container.client_width().max(280) as u32;
    let h = height(width);
    // Sized here for the measured width (the guess above reserved the space, exact where
    // the page is narrower than its column), rather than through a signal; through the
    // CSSOM, which the site's CSP allows (a `style` attribute it refuses).
    if let Some(container) = container.dyn_ref::<web_sys::HtmlElement>() {
        let _ = container.style().set_property("height", &format!("{h}px"));
    }
    el.set_width(width);
    el.set_height(h);
    let Some(backend) = MeasuredCanvas::new(el.clone()) else { return };
    let area = backend.into_drawing_area();
    let drawn = draw(&area, &theme());
    let _ = area.present();
    let _ = hits.try_set_value(drawn);
    // Read by the end-to-end test: when the first chart was on screen.
    let _ = el.set_attribute("data-drawn-ms", &format!("{:.1}", now_ms()));
}

/// How far below (and above) the screen a chart starts being drawn, so that it is there
/// when scrolled to.
const AHEAD: &str = "300px 0px";

/// Calls back once an element is on screen or within [`AHEAD`] of it; stops watching when
/// dropped.
struct OnScreen {
    observer: web_sys::IntersectionObserver,
    _callback: Closure<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>,
}

impl OnScreen {
    /// Watches `el`; `None` (after calling `seen` at once) where the browser has no
    /// IntersectionObserver.
    fn watch(el: &web_sys::Element, seen: impl Fn() + Copy + 'static) -> Option<OnScreen> {
        let callback = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
            move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
                let on_screen = entries
                    .iter()
                    .any(|e| e.unchecked_into::<web_sys::IntersectionObserverEntry>().is_intersecting());
                if on_screen {
                    observer.disconnect();
                    seen();
                }
            },
        );
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(AHEAD);
        let observer =
            web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options).ok();
        let Some(observer) = observer else {
            seen();
            return None;
        };
        observer.observe(el);
        Some(OnScreen { observer, _callback: callback })
    }
}

impl Drop for OnScreen {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}
