//! One result: what was measured, on what, its flags, where it came from, its permalink.

use super::tag_form::{TagDraft, TagInputs};
use super::{loaded, Flags, Later};
use crate::api::{self, format_date, pattern_label, platform_label, ResultView};
use crate::screenshot::size_text;
use api_types::pages::drive_label;
use bench::Tags;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

/// The API path of the result the URL's `id` names; `None` when it is not a number.
fn result_path(id: &str) -> Option<String> {
    id.parse::<i64>().ok().map(|id| format!("/results/{id}"))
}

/// Starts loading the result the current URL names (the route's `data()`, while the
/// page's code is still being fetched).
pub fn prefetch() {
    if let Some(path) = use_params_map().get_untracked().get("id").as_deref().and_then(result_path) {
        api::prefetch(&path);
    }
}

#[component]
pub fn ResultPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let res = LocalResource::new(move || {
        let id = id();
        async move {
            let Some(path) = result_path(&id) else {
                return Err(api::ApiError::Network(format!("{id:?} is not a result number")));
            };
            api::get::<ResultView>(&path).await
        }
    });
    view! { <section>{loaded(res, 500, show)}</section> }
}

fn show(r: ResultView) -> impl IntoView {
    let permalink = format!("{}/results/{}", window().location().origin().unwrap_or_default(), r.id);
    let json_href = format!("/api/v1/results/{}", r.id);
    let res = &r.result;
    let facts: Vec<(&str, String)> = [
        ("Tool", Some(format!("{} {}", res.tool.name(), res.tool_version.clone().unwrap_or_default()))),
        ("Method", Some(format!("{:?}", res.family()))),
        ("Profile", res.profile.clone()),
        ("Test size", res.test_size_bytes.map(size_text)),
        ("Passes", res.passes.map(|p| p.to_string())),
        ("Data pattern", Some(pattern_label(res.data_pattern).to_string())),
        ("Run date", res.date.clone()),
        ("OS (as printed)", res.os.clone()),
        ("Target", res.target.clone()),
        ("Engine", res.engine.clone()),
        ("Comment", res.comment.clone()),
        ("Added", Some(format_date(r.created_at))),
        ("Source", r.source.as_deref().map(bench::seeds::cite)),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
    .collect();
    let metrics = res.keyed_metrics().map(|(k, m)| (k.short_name(), m.clone())).collect::<Vec<_>>();
    let not_run = res.not_run.clone();
    let ocr = r.upload.as_ref().and_then(|u| u.ocr.clone());
    let corrected_count = ocr.as_ref().map_or(0, |o| o.corrected.len());
    // The editor's fields, shared with the drive notice's "Use this drive".
    let draft = RwSignal::new(TagDraft::of(&r.tags));
    let by_runner = res.tool == bench::Tool::SsdbaseBench;
    let under_load =
        res.metrics.iter().any(|m| !m.latency_percentiles.is_empty() || m.latency_spread.is_some())
            || !res.over_time.is_empty()
            || !bench::curves::load_curves(res).is_empty();
    let file_facts = file_facts(res, &r.tags);
    view! {
        <h1>{api_types::pages::result_heading(r.id, &r.tags)}</h1>
        // Also the server's first paint of this page (html::first_paint::result_lead).
        <p class="lead">{api_types::pages::result_lead(res, &r.tags)}</p>
        <p class="permalink">
            "Permalink: " <a href=permalink.clone()>{permalink.clone()}</a> " · "
            <a rel="external" href=json_href>"JSON"</a>
        </p>
        {drive_notice(&r.tags, res, draft)}
        <h2>"Flags"</h2>
        <Flags flags=r.flags.clone() />
        <h2>"Measurements"</h2>
        <div class="table-wrap">
            <table>
                <thead>
                    <tr>
                        <th scope="col">"Test"</th>
                        <th scope="col">"As printed"</th>
                        <th scope="col" class="num">"MB/s"</th>
                        <th scope="col" class="num">"IOPS"</th>
                        <th scope="col" class="num">"Latency µs"</th>
                    </tr>
                </thead>
                <tbody>
                    {metrics
                        .into_iter()
                        .map(|(name, m)| {
                            // A value changed by hand after screenshot recognition is marked,
                            // with what was read, so readers can weigh it.
                            let cell = |field: &str, v: Option<f64>| {
                                let text = v.map(charts::format_value).unwrap_or_else(|| "—".into());
                                match ocr.as_ref().and_then(|o| o.correction(&m.label, m.op, field)) {
                                    Some(c) => {
                                        let was = c.recognised.map(charts::format_value).unwrap_or_else(|| "nothing".into());
                                        view! {
                                            <td class="num corrected" title=format!("corrected by hand; the screenshot was read as {was}")>
                                                {text} <span aria-hidden="true">" ✎"</span>
                                                <span class="sr-only">{format!(" (corrected by hand; read as {was})")}</span>
                                            </td>
                                        }
                                        .into_any()
                                    }
                                    None => view! { <td class="num">{text}</td> }.into_any(),
                                }
                            };
                            view! {
                                <tr>
                                    <td>{name}</td>
                                    <td>{m.label.clone()}</td>
                                    {cell("mbps", m.mbps)}
                                    {cell("iops", m.iops)}
                                    {cell("latency_us", m.latency_us)}
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
        // Below the first screen: built in a task of its own.
        <Later>
            {(!not_run.is_empty()).then(|| view! { <p class="muted">"Not run: " {not_run.join(", ")}</p> })}
            {ocr.is_some().then(|| view! {
                <p class="muted" id="ocr-note">
                    {match corrected_count {
                        0 => "Read from a screenshot (below); the submitter changed none of the values read.".to_string(),
                        n => format!("Read from a screenshot (below); {n} value(s) marked ✎ were corrected by hand."),
                    }}
                </p>
            })}
            // The runner's record as the server renders it: its decoder stays out of every
            // page that reads results.
            {by_runner.then(|| view! {
                <h2 id="runner">"Measured with ssdbase bench"</h2>
                <super::rated::RatedHtml data=format!("/results/{}/runner", r.id) />
            })}
            // A sweep's curves, the latency percentiles and spread, and the tests sampled over
            // their run, as the server renders them.
            {under_load.then(|| view! {
                <h2 id="under-load">"Under load"</h2>
                <super::rated::RatedHtml data=format!("/results/{}/load", r.id) />
            })}
            // Where it stands in its drive's pool and what may explain a difference: the
            // server's table.
            <super::rated::RatedHtml data=format!("/results/{}/standing", r.id) />
            <h2>"Measured on"</h2>
            <Tags tags=r.tags.clone() />
            {file_facts}
            <dl class="facts">
                {facts.into_iter().map(|(k, v)| view! { <dt>{k}</dt> <dd>{v}</dd> }).collect_view()}
            </dl>
            <EditBox r=r.clone() draft=draft />
            <h2>"Original upload"</h2>
            {r.upload.as_ref().and_then(|u| u.ocr.as_ref()).map(|_| view! {
                <figure class="upload-shot">
                    <img src=r.upload_url.clone() alt="The screenshot this result was read from" loading="lazy" />
                </figure>
            })}
            <p>
                {format!("Submission #{} is stored byte for byte: ", r.submission_id)}
                <a rel="external" href=format!("/api/v1/results/{}/upload", r.id)>"the file as it was uploaded"</a>
                "; what was understood from it is above, and as "
                <a rel="external" href=format!("/api/v1/results/{}", r.id)>"JSON"</a>
                "."
            </p>
        </Later>
    }
}

/// When the result belongs to no drive (none named, or the name matched several), says
/// so, links the drives it might be, and asks its uploader to name it with the edit
/// token: such a result stays out of every drive's figures until someone does. When its
/// file names a drive SSDBase does not have yet, the server's proposal ("Named in the
/// upload: … Use this drive") fills the editor's drive fields for the token holder.
fn drive_notice(
    tags: &Tags,
    result: &bench::BenchResult,
    draft: RwSignal<TagDraft>,
) -> Option<impl IntoView> {
    use bench::DriveMatch;
    let d = &tags.drive;
    if d.sku.is_some() {
        return None;
    }
    let ambiguous = d.identified_by == Some(DriveMatch::Ambiguous);
    let what = if ambiguous {
        "The drive named for this result matches several drives, and SSDBase does not guess: it belongs to none of them yet and counts in no drive's figures."
    } else {
        "The drive of this result is unknown: the submission did not name it fully (vendor, model and capacity, or a catalogue id), so it counts in no drive's figures."
    };
    let candidates = d.candidates.clone();
    let texts = if ambiguous { Vec::new() } else { bench::identity::texts_naming_a_drive(result) };
    let capacity = bench::identity::upload_capacity(result);
    let proposal = LocalResource::new(move || super::submit::named_drive(texts.clone(), capacity));
    // Opens the editor below and puts the cursor in its drive field.
    let open_editor = move |_: ()| {
        let doc = document();
        if let Some(details) = doc.get_element_by_id("edit") {
            let _ = details.set_attribute("open", "");
            details.scroll_into_view();
        }
        if let Some(input) = doc
            .query_selector("#edit input[name=drive]")
            .ok()
            .flatten()
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = input.focus();
        }
    };
    Some(view! {
        <div class="notice" role="note" id="drive-notice">
            <p><strong>{if ambiguous { "Which drive? " } else { "Drive unknown. " }}</strong>{what}</p>
            {(!candidates.is_empty()).then(|| view! {
                <p>
                    "It could be: "
                    {candidates
                        .into_iter()
                        .map(|c| view! { <A href=format!("/drives/{c}")>{c.clone()}</A> " " })
                        .collect_view()}
                </p>
            })}
            <div on:click=move |ev| {
                if super::submit::fill_from_named_drive(&ev, draft) {
                    open_editor(());
                }
            } inner_html=move || proposal.get().flatten().unwrap_or_default()></div>
            <p>
                "Did you upload it? Name the drive with the edit token you were given: "
                <button type="button" on:click=move |_| open_editor(())>"Name the drive"</button>
                " (the drive field takes a catalogue id, or vendor, model and capacity)."
            </p>
        </div>
    })
}

/// What the result's file says about the drive and platform, where it says it, and
/// which tags it filled (the submitter left them empty): a reader tells what the file
/// printed from what someone typed.
fn file_facts(result: &bench::BenchResult, tags: &Tags) -> Option<impl IntoView> {
    if result.facts.is_empty() {
        return None;
    }
    let filled = |field: &str| {
        let tag = match field {
            "model" | "capacity_gb" | "comment" => "drive",
            other => other,
        };
        tags.read_from_file.iter().any(|f| f == tag)
    };
    let rows = result
        .facts
        .iter()
        .map(|f| {
            let used = if filled(&f.field) { "filled this result's tag" } else { "" };
            view! {
                <tr>
                    <td>{f.field.replace('_', " ")}</td>
                    <td>{f.value.clone()}</td>
                    <td>{f.source.clone()}</td>
                    <td>{used}</td>
                </tr>
            }
        })
        .collect_view();
    Some(view! {
        <h3 id="file-facts">"What the file says"</h3>
        <div class="table-wrap">
            <table>
                <thead>
                    <tr>
                        <th scope="col">"Fact"</th>
                        <th scope="col">"As printed"</th>
                        <th scope="col">"Where"</th>
                        <th scope="col">"Used"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    })
}

/// Correct the tags or delete the result, with the edit token the submitter was given.
#[component]
fn EditBox(r: ResultView, draft: RwSignal<TagDraft>) -> impl IntoView {
    let id = r.id;
    let token = RwSignal::new(String::new());
    let (status, set_status) = signal(None::<Result<String, String>>);
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let tags = match draft.get_untracked().tags() {
            Ok(tags) => tags,
            Err(errors) => return set_status.set(Some(Err(errors.join(" ")))),
        };
        let tok = token.get_untracked();
        leptos::task::spawn_local(async move {
            set_status.set(Some(match api::edit(id, &tok, &api::EditBody { tags }).await {
                Ok(v) => {
                    draft.set(TagDraft::of(&v.tags));
                    Ok(format!(
                        "Saved: result #{id} now has these tags and {} flag(s). Reload to see them above.",
                        v.flags.len()
                    ))
                }
                Err(e) => Err(e.to_string()),
            }));
        });
    };
    let delete = move |_| {
        if !window()
            .confirm_with_message(&format!("Delete result #{id}? This cannot be undone."))
            .unwrap_or(false)
        {
            return;
        }
        let tok = token.get_untracked();
        leptos::task::spawn_local(async move {
            set_status.set(Some(match api::delete(id, &tok).await {
                Ok(d) => Ok(format!(
                    "Deleted result #{}{}.",
                    d.deleted,
                    if d.submission_deleted { " and its upload" } else { "" }
                )),
                Err(e) => Err(e.to_string()),
            }));
        });
    };
    view! {
        <details class="edit" id="edit">
            <summary>"Correct or delete (needs the edit token)"</summary>
            <form on:submit=save class="filter-grid">
                <label>
                    <span>"Edit token"</span>
                    <input type="password" autocomplete="off" prop:value=token on:input=move |ev| token.set(event_target_value(&ev)) />
                </label>
                <TagInputs draft=draft />
                <div class="actions">
                    <button type="submit">"Save tags"</button>
                    <button type="button" class="danger" on:click=delete>"Delete result"</button>
                </div>
            </form>
            <div aria-live="polite">
                {move || status.get().map(|s| match s {
                    Ok(m) => view! { <div class="ok" role="status">{m}</div> }.into_any(),
                    Err(e) => view! { <div class="error" role="alert">{e}</div> }.into_any(),
                })}
            </div>
        </details>
    }
}

#[component]
fn Tags(tags: Tags) -> impl IntoView {
    let p = &tags.platform;
    // A tag the server filled from the result's file says so (its line is under "What
    // the file says").
    let read = |field: &str, value: Option<String>| {
        let from_file = tags.read_from_file.iter().any(|f| f == field);
        value.map(|v| if from_file { format!("{v} (read from the file)") } else { v })
    };
    // The drive and the platform in a line each, linked to their pages; then what the
    // tags say beyond `bench::FIELDS` (CPU, motherboard); then every tag field of
    // `bench::FIELDS` that is set, as stored (links in words), so a new field shows here
    // without a change.
    let mut rows: Vec<(&str, Option<String>, Option<String>)> = vec![
        (
            "Drive",
            read("drive", Some(drive_label(&tags))),
            tags.drive.sku.clone().map(|s| format!("/drives/{s}")),
        ),
        (
            "Platform",
            Some(platform_label(&tags)),
            p.chipset.as_ref().map(|c| format!("/platforms/{}", crate::api::encode(c))),
        ),
        ("CPU", p.cpu.clone(), None),
        ("Motherboard", p.motherboard.clone(), None),
        ("Controller vendor", tags.controller.as_ref().and_then(|c| c.vendor.clone()), None),
    ];
    rows.extend(bench::FIELDS.iter().filter(|f| f.is_tag()).map(|f| {
        let value = f.tag_value(&tags).map(|v| v.to_string());
        let shown = match f.name {
            "link" | "host_link" => value.map(|id| bench::Link::from_id(&id).map_or(id, link_label)),
            _ => value,
        };
        (f.label, read(f.name, shown), None)
    }));
    view! {
        <dl class="facts">
            {rows
                .into_iter()
                .filter_map(|(k, v, href)| Some((k, v?, href)))
                .map(|(k, v, href)| {
                    let value = match href {
                        Some(h) => view! { <A href=h>{v}</A> }.into_any(),
                        None => v.into_any(),
                    };
                    view! { <dt>{k}</dt> <dd>{value}</dd> }
                })
                .collect_view()}
        </dl>
    }
}

pub fn link_label(l: bench::Link) -> String {
    match l {
        bench::Link::Sata { gbps } => format!("SATA {gbps} Gb/s"),
        bench::Link::Pcie { gen, lanes } => format!("PCIe {gen}.0 x{lanes}"),
        bench::Link::Usb { gbps } => format!("USB {gbps} Gb/s"),
    }
}
