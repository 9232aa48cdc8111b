//! Submit: paste text or drop a file; `bench` parses it right here and shows what it
//! understood (or the line it stumbled on) before anything is sent; then tags, and the
//! server's answer shown plainly.
//!
//! A dropped or chosen image (PNG, JPEG, GIF, BMP, WebP) takes the screenshot path
//! instead (`reading.rs`).

mod reading;

use super::tag_form::{recent_suggestions, TagDraft, TagInputs};
use super::Opening;
use super::{DriveSearch, Flags, Later};
use crate::api::{self, ApiError, SubmitBody, SubmitResponse};
use crate::screenshot;
use api_types::pages;
use bench::{BenchResult, Format, ParseError};
use leptos::lazy;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use reading::{Reading, ReadingView};
use wasm_bindgen::JsCast;

/// What the page understood of a text: its parse, and the drive the upload names.
#[derive(Clone, PartialEq)]
struct Understood {
    parse: Result<Vec<BenchResult>, ParseError>,
    /// The drive named in the upload as the server identifies it, for the person to
    /// confirm (never applied unasked): the server's HTML proposal, whose button carries
    /// the tag values it fills.
    named: Option<String>,
}

/// The browser-side parse of `text`, and the drive it names. `#[lazy]`: the parsers (and
/// their regex engine) are a piece of the wasm of their own, fetched when the first text
/// arrives rather than with the page; the drive lookup rides along.
#[lazy]
async fn understand(text: String, format: Option<Format>) -> Understood {
    let parse = bench::parse_str(&text, format);
    let named = match &parse {
        Ok(results) => {
            let capacity = results.iter().find_map(bench::identity::upload_capacity);
            named_drive(results.iter().flat_map(bench::identity::texts_naming_a_drive).collect(), capacity)
                .await
        }
        Err(_) => None,
    };
    Understood { parse, named }
}

impl Understood {
    /// Whether there is a parse to send (the page's understanding, if any, parsed).
    fn sendable(u: &Option<Understood>) -> bool {
        matches!(u, Some(Understood { parse: Ok(_), .. }))
    }
}

/// What the page understands of `text`, or nothing for empty text (without fetching the
/// parsers).
async fn preview(text: String, format: Option<Format>) -> Option<Understood> {
    if text.trim().is_empty() {
        return None;
    }
    Some(understand(text, format).await)
}

/// The server's proposal of the drive an upload's texts name (the model a tool printed,
/// comments, a screenshot's comment row) from `GET /drives/identify` as HTML: which text reads as
/// a drive, and how that drive is found, is the server's, so neither drive identity's
/// code nor a decoder of its answer is in this page's download. `capacity_gb`: the
/// capacity the upload shows (`bench::identity::upload_capacity`), for a text that names
/// a drive without one. Nothing when none does.
pub(super) async fn named_drive(mut texts: Vec<String>, capacity_gb: Option<u32>) -> Option<String> {
    texts.dedup();
    if texts.is_empty() {
        return None;
    }
    let mut query: Vec<String> = texts.iter().take(4).map(|t| format!("text={}", api::encode(t))).collect();
    query.extend(capacity_gb.map(|gb| format!("capacity_gb={gb}")));
    let html = api::get_fragment(&format!("/drives/identify?{}", query.join("&"))).await.ok()?;
    (!html.is_empty()).then_some(html)
}

/// Fills the tag fields a clicked "Use this drive" button names in its `data-` attributes
/// (one handler on the element holding the server's proposal: the submit page's tags
/// fieldset, the result page's drive notice). Whether a button was clicked.
pub(super) fn fill_from_named_drive(ev: &leptos::ev::MouseEvent, form: RwSignal<TagDraft>) -> bool {
    let Some(button) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    if !button.has_attribute("data-drive") {
        return false;
    }
    form.update(|f| f.set_each(|name| button.get_attribute(&format!("data-{name}"))));
    true
}

/// The lines around `line` (1-based), numbered, for an error message.
fn excerpt(text: &str, line: usize) -> Vec<(usize, String, bool)> {
    let from = line.saturating_sub(2).max(1);
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string(), i + 1 == line))
        .filter(|(n, _, _)| *n >= from && *n <= line + 2)
        .collect()
}

#[component]
pub fn Submit() -> impl IntoView {
    let (text, set_text) = signal(String::new());
    let (format, set_format) = signal(None::<Format>);
    // The latest text's parse; while a newer one runs, the previous answer stays shown.
    let parsing = LocalResource::new(move || preview(text.get(), format.get()));
    let parsed = Memo::new(move |_| parsing.get().flatten());
    let parsed_ok = move || parsed.with(Understood::sendable);
    let form = RwSignal::new(TagDraft::default());
    let (source, set_source) = signal(String::new());
    let (tag_errors, set_tag_errors) = signal(Vec::<String>::new());
    let (answer, set_answer) = signal(None::<Result<SubmitResponse, ApiError>>);
    let (sending, set_sending) = signal(false);
    let (dragging, set_dragging) = signal(false);
    let suggestions = recent_suggestions();
    // The tags as the form holds them, or nothing after saying what is wrong.
    let checked_tags = move || match form.get_untracked().tags() {
        Ok(tags) => {
            set_tag_errors.set(Vec::new());
            Some(tags)
        }
        Err(errors) => {
            set_tag_errors.set(errors);
            None
        }
    };
    let source_text = move || Some(source.get_untracked()).filter(|s| !s.trim().is_empty());
    let reading = Reading::new();
    // A file's bytes go through bench's decoder (UTF-16 exports, BOMs) into the text box;
    // an image goes to the screenshot reader.
    let load_file = move |file: web_sys::File| {
        spawn_local(async move {
            let Ok(buf) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await else { return };
            let bytes = js_sys::Uint8Array::new(&buf).to_vec();
            set_answer.set(None);
            if screenshot::is_image(&bytes) {
                set_text.set(String::new());
                reading.read(bytes);
            } else {
                reading.stop();
                set_text.set(bench::text::decode(&bytes));
            }
        });
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = ev.target().unwrap().unchecked_into();
        if let Some(f) = input.files().and_then(|l| l.get(0)) {
            load_file(f);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        if let Some(f) = ev.data_transfer().and_then(|d| d.files()).and_then(|l| l.get(0)) {
            load_file(f);
        }
    };

    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        if reading.active_untracked() {
            let Some((job_id, result)) = reading.checked_untracked() else { return };
            let Some(tags) = checked_tags() else { return };
            let body = SubmitBody {
                result: Some(result),
                tags,
                ocr_job: Some(job_id),
                source: source_text(),
                ..SubmitBody::default()
            };
            set_sending.set(true);
            spawn_local(async move {
                set_answer.set(Some(api::publish_screenshot(&body).await));
                set_sending.set(false);
            });
            return;
        }
        if !parsed.with_untracked(Understood::sendable) {
            return;
        }
        let Some(tags) = checked_tags() else { return };
        let body = SubmitBody {
            text: Some(text.get_untracked()),
            format: format.get_untracked().map(|f| f.id().to_string()),
            tags,
            source: source_text(),
            ..SubmitBody::default()
        };
        set_sending.set(true);
        spawn_local(async move {
            let res = api::submit(&body).await;
            set_answer.set(Some(res));
            set_sending.set(false);
        });
    };

    view! {
        <section>
            <Opening opening=&pages::SUBMIT />
            <form on:submit=send class="submit">
                <div
                    class="drop"
                    class:dragging=dragging
                    on:dragover=move |ev: leptos::ev::DragEvent| {
                        ev.prevent_default();
                        set_dragging.set(true);
                    }
                    on:dragleave=move |_| set_dragging.set(false)
                    on:drop=on_drop
                >
                    <label for="result-text">"Result text"</label>
                    <textarea
                        id="result-text"
                        name="text"
                        rows="14"
                        spellcheck="false"
                        placeholder="Paste the tool's text output here, or drop a file on this box"
                        prop:value=text
                        on:input=move |ev| {
                            set_text.set(event_target_value(&ev));
                            set_answer.set(None);
                            reading.stop();
                        }
                    ></textarea>
                    <div class="row">
                        <label>
                            "…or choose a file "
                            <input type="file" name="file" accept=".txt,.log,.json,.csv,text/*,image/png,image/jpeg,image/gif,image/bmp,image/webp" on:change=on_file />
                        </label>
                        <label>
                            "Format "
                            <select name="format" on:change=move |ev| set_format.set(Format::from_id(&event_target_value(&ev)))>
                                <option value="">"detect"</option>
                                {Format::ALL.into_iter().map(|f| view! { <option value=f.id()>{f.to_string()}</option> }).collect_view()}
                            </select>
                        </label>
                    </div>
                </div>
                <div class="preview" aria-live="polite">
                    <ReadingView reading=reading />
                    {move || (!reading.active()).then(|| match parsed.get().map(|u| u.parse) {
                        None => view! { <p class="muted">"The preview appears here."</p> }.into_any(),
                        Some(Err(e)) => {
                            let lines = e.line.map(|l| text.with_untracked(|t| excerpt(t, l))).unwrap_or_default();
                            view! {
                                <div class="error" role="alert" id="parse-error">
                                    <strong>{match e.line { Some(l) => format!("Line {l}: "), None => String::new() }}</strong>
                                    {e.to_string()}
                                    <pre class="excerpt">
                                        {lines
                                            .into_iter()
                                            .map(|(n, l, bad)| view! { <span class:bad=bad>{format!("{n:>4} │ {l}\n")}</span> })
                                            .collect_view()}
                                    </pre>
                                </div>
                            }
                            .into_any()
                        }
                        Some(Ok(results)) => view! { <Preview results=results /> }.into_any(),
                    })}
                </div>
                <fieldset class="tags" on:click=move |ev| { fill_from_named_drive(&ev, form); }>
                    <legend>"What it ran on (optional, but it makes the result comparable)"</legend>
                    <p class="muted">
                        "Find the drive by vendor, model, part number or the name your system shows; picking one fills the drive id. A drive SSDBase does not know yet: give its vendor, model and capacity, and it gets a page of its own."
                    </p>
                    <div inner_html=move || {
                        reading.named().or_else(|| parsed.with(|u| u.as_ref().and_then(|u| u.named.clone())))
                    }></div>
                    <DriveSearch
                        placeholder="Search a drive (e.g. C300, CT500P2SSD8)"
                        pick=Callback::new(move |id: String| form.update(|d| d.set("drive", &id)))
                    />
                    <div class="filter-grid">
                        // Below the first screen: the many fields in a task of their own.
                        <Later>
                            <TagInputs draft=form suggestions=suggestions />
                        </Later>
                        <label>
                            <span>"Source (URL or note)"</span>
                            <input name="source" prop:value=source on:input=move |ev| set_source.set(event_target_value(&ev)) />
                        </label>
                    </div>
                    {move || {
                        let errors = tag_errors.get();
                        (!errors.is_empty()).then(|| view! {
                            <div class="error" role="alert" id="tag-errors">
                                {errors.into_iter().map(|e| view! { <p>{e}</p> }).collect_view()}
                            </div>
                        })
                    }}
                </fieldset>
                <button
                    type="submit"
                    id="submit"
                    disabled=move || {
                        sending.get()
                            || if reading.active() {
                                !reading.ready()
                            } else {
                                !parsed_ok()
                            }
                    }
                >
                    {move || match (sending.get(), reading.active()) {
                        (true, _) => "Sending…",
                        (false, true) => "Publish the checked values",
                        (false, false) => "Submit",
                    }}
                </button>
            </form>
            <div class="answer" aria-live="polite">
                {move || answer.get().map(|a| match a {
                    Err(e) => view! {
                        <div class="error" role="alert">
                            <strong>"Not stored: "</strong>
                            {e.to_string()}
                        </div>
                    }.into_any(),
                    Ok(r) => view! { <Answer r=r /> }.into_any(),
                })}
            </div>
        </section>
    }
}

#[component]
fn Preview(results: Vec<BenchResult>) -> impl IntoView {
    view! {
        {results
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let head = format!(
                    "Run {}: {} {} · {} · {} tests",
                    i + 1,
                    r.tool.name(),
                    r.tool_version.clone().unwrap_or_default(),
                    api::pattern_label(r.data_pattern),
                    r.metrics.len()
                );
                let rows = r.keyed_metrics().map(|(k, m)| (k.short_name(), m.clone())).collect::<Vec<_>>();
                view! {
                    <h3 class="understood">{head}</h3>
                    <div class="table-wrap">
                        <table>
                            <thead><tr><th scope="col">"Test"</th><th scope="col">"As printed"</th><th scope="col" class="num">"MB/s"</th><th scope="col" class="num">"IOPS"</th></tr></thead>
                            <tbody>
                                {rows.into_iter().map(|(name, m)| view! {
                                    <tr>
                                        <td>{name}</td>
                                        <td>{m.label}</td>
                                        <td class="num">{m.mbps.map(charts::format_value)}</td>
                                        <td class="num">{m.iops.map(charts::format_value)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
            })
            .collect_view()}
    }
}

#[component]
fn Answer(r: SubmitResponse) -> impl IntoView {
    let href = format!("/results/{}", r.id);
    let others: Vec<i64> = r.results.iter().skip(1).map(|x| x.id).collect();
    view! {
        <div class="ok" role="status" id="submit-answer">
            {if r.duplicate {
                view! { <p><strong>"Already here: "</strong> "this exact upload was stored before, as " <A href=href.clone()>{format!("result #{}", r.id)}</A> "."</p> }.into_any()
            } else {
                view! { <p><strong>"Stored "</strong> "as " <A href=href.clone()>{format!("result #{}", r.id)}</A> "."</p> }.into_any()
            }}
            {r.other_drive.map(|o| view! {
                <p id="other-drive">
                    <strong>"On another drive: "</strong>
                    {format!("the stored result is on the {}, while this upload names the {}. Sending it again changed nothing. ", o.stored, o.sent)}
                    "If the " {o.sent.clone()} " is right, correct the drive on "
                    <A href=o.correct_at.clone()>"the result's page"</A>
                    " with the edit token you got when it was first stored."
                </p>
            })}
            {(!others.is_empty()).then(|| view! {
                <p>"The file held more runs, stored as "
                    {others.into_iter().map(|id| view! { <A href=format!("/results/{id}")>{format!("#{id}")}</A> " " }).collect_view()}
                </p>
            })}
            {r.edit_token.map(|t| view! {
                <p>"Edit token (keep it to correct or delete this result later; it is shown only once): " <code>{t}</code></p>
            })}
            <p>{format!("{} flag(s) raised{}", r.flags.len(), if r.flags.is_empty() { "." } else { ":" })}</p>
            <Flags flags=r.flags.clone() />
        </div>
    }
}
