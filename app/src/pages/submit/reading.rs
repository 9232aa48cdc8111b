//! The screenshot path of the submit page: the image is queued at `POST /ocr`, its job
//! polled (queue position, stage, progress bar) until it is read or fails, and the
//! recognised values shown beside the image in an editable table, the doubtful ones
//! highlighted. What the person checked is published with the job's id.

use crate::api::{self, ApiError, OcrJob};
use crate::pages::sleep;
use crate::screenshot::{self, LOW_CONFIDENCE};
use bench::BenchResult;
use leptos::lazy;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// What the page needs of a finished reading: the recognised result and each metric's
/// confidence, in metric order.
#[derive(Clone)]
pub struct Read {
    result: BenchResult,
    confidence: Vec<f32>,
    /// The server's proposal of the drive the window's comment row names (as for text).
    named: Option<String>,
    /// The settings' inputs, first as read ([`screenshot::settings_html`]).
    settings_html: String,
}

/// Decodes a finished job's recognition, and asks which drive its comment row names.
async fn read_recognition(job: &OcrJob) -> Option<Read> {
    let r = job.recognised()?;
    let confidence = r.result.metrics.iter().map(|m| r.confidence_of(&m.label)).collect();
    // The comment with the capacity of the volume the window's drive box shows, when the
    // comment names none ("Crucial MX500" on "D: 0% (0/466GiB)": a 500 GB MX500).
    let capacity = r.settings.drive.as_deref().and_then(bench::identity::capacity_of_volume);
    let named = match r.settings.comment.as_deref() {
        Some(comment) => super::named_drive(vec![comment.to_string()], capacity).await,
        None => None,
    };
    // The settings' inputs as HTML text made here, in the reading's lazy piece of the
    // wasm: the code that writes them is fetched with it, not with the submit page.
    let settings_html = screenshot::settings_html(&screenshot::setting_texts(&r.result));
    Some(Read { result: r.result, confidence, named, settings_html })
}

/// The screenshot being read, if the user gave one instead of text.
#[derive(Clone)]
enum Shot {
    Uploading,
    /// The job, and once it is done, what was read (both boxed: a result is large).
    Job(Box<OcrJob>, Option<Box<Read>>),
    Refused(ApiError),
}

/// The screenshot reading of the page, if the person gave an image instead of text.
#[derive(Clone, Copy)]
pub struct Reading {
    shot: RwSignal<Option<Shot>>,
    /// The person's values for the recognised metrics, in metric order, then their test
    /// count, test size and target (`screenshot::SETTINGS`), first as read.
    values: RwSignal<Vec<String>>,
    /// Bumped by every new file, so a superseded job stops being polled. The polling
    /// task outlives the page when the user navigates away: it reads this with `try_`
    /// and stops once the page (and this value) is gone.
    generation: StoredValue<u32>,
    /// The recognised result with the person's values, once a reading is done.
    checked: Memo<Option<Result<BenchResult, String>>>,
}

impl Reading {
    pub fn new() -> Reading {
        let shot = RwSignal::new(None::<Shot>);
        let values = RwSignal::new(Vec::<String>::new());
        let checked = Memo::new(move |_| match shot.get() {
            Some(Shot::Job(_, Some(read))) => Some(values.with(|v| check(&read.result, v))),
            _ => None,
        });
        Reading { shot, values, generation: StoredValue::new(0), checked }
    }

    /// Whether the page is on the screenshot path.
    pub fn active(&self) -> bool {
        self.shot.with(Option::is_some)
    }

    pub fn active_untracked(&self) -> bool {
        self.shot.with_untracked(Option::is_some)
    }

    /// The proposal of the drive the screenshot's comment row names, once read.
    pub fn named(&self) -> Option<String> {
        self.shot.with(|s| match s {
            Some(Shot::Job(_, Some(read))) => read.named.clone(),
            _ => None,
        })
    }

    /// Whether the checked values can be published.
    pub fn ready(&self) -> bool {
        matches!(self.checked.get(), Some(Ok(_)))
    }

    /// The job and the result as checked, when they can be published.
    pub fn checked_untracked(&self) -> Option<(String, BenchResult)> {
        match (self.shot.get_untracked(), self.checked.get_untracked()) {
            (Some(Shot::Job(job, _)), Some(Ok(result))) => Some((job.id, result)),
            _ => None,
        }
    }

    /// Leaves the screenshot path (the person typed or chose text): a job still being
    /// polled is forgotten.
    pub fn stop(&self) {
        self.generation.try_update_value(|g| *g += 1);
        self.shot.set(None);
    }

    /// Queues the image, then polls its job until it is done or failed.
    pub fn read(&self, bytes: Vec<u8>) {
        let Some(gen) = self.generation.try_update_value(|g| {
            *g += 1;
            *g
        }) else {
            return;
        };
        self.shot.set(Some(Shot::Uploading));
        let reading = *self;
        spawn_local(async move { upload_and_poll(reading, bytes, gen).await });
    }
}

/// Uploads the image and polls its job until it is done or failed, as long as the page
/// still shows reading number `gen`. `#[lazy]`: the upload, the job's decoding and the
/// reading's types (rows, cells, layout, settings) are a piece of the wasm of their own,
/// fetched when an image is chosen, not with the page (most people paste text).
#[lazy]
async fn upload_and_poll(reading: Reading, bytes: Vec<u8>, gen: u32) {
    let Reading { shot, values, generation, .. } = reading;
    let mut job = match api::upload_screenshot(&bytes).await {
        Ok(job) => job,
        Err(e) => return shot.set(Some(Shot::Refused(e))),
    };
    loop {
        if generation.try_get_value() != Some(gen) {
            return;
        }
        if job.finished() {
            let read = read_recognition(&job).await;
            if let Some(r) = &read {
                values.set(
                    r.result
                        .metrics
                        .iter()
                        .map(|m| screenshot::shown_value(m).map(|v| v.2.to_string()).unwrap_or_default())
                        .chain(screenshot::setting_texts(&r.result))
                        .collect(),
                );
            }
            shot.set(Some(Shot::Job(Box::new(job), read.map(Box::new))));
            return;
        }
        shot.set(Some(Shot::Job(Box::new(job.clone()), None)));
        sleep(400).await;
        match api::get::<OcrJob>(&format!("/ocr/{}", job.id)).await {
            Ok(j) => job = j,
            // A lost poll is retried; the job lives on in the server's queue.
            Err(_) => sleep(1000).await,
        }
    }
}

/// The reading's state, when there is one.
#[component]
pub fn ReadingView(reading: Reading) -> impl IntoView {
    let Reading { shot, values, checked, .. } = reading;
    move || shot.get().map(|s| view! { <Screenshot shot=s values=values checked=checked /> })
}

/// The screenshot beside what was read from it: queue position and progress while it
/// is read, then the values to check (doubtful ones highlighted), or why it failed.
#[component]
fn Screenshot(
    shot: Shot,
    values: RwSignal<Vec<String>>,
    checked: Memo<Option<Result<BenchResult, String>>>,
) -> impl IntoView {
    let (job, read) = match shot {
        Shot::Uploading => {
            return view! { <p class="muted" id="ocr-status" role="status">"Sending the image…"</p> }
                .into_any()
        }
        Shot::Refused(e) => {
            return view! {
                <div class="error" role="alert" id="ocr-error">
                    <strong>"The image was not accepted: "</strong>
                    {e.to_string()}
                </div>
            }
            .into_any()
        }
        Shot::Job(job, read) => (*job, read),
    };
    let reading = match (job.status.id(), read) {
        ("failed", _) => view! {
            <div class="error" role="alert" id="ocr-error">
                <strong>"The screenshot could not be read: "</strong>
                {job.error.clone().unwrap_or_else(|| "no reason given".into())}
                <p>"Paste the tool's text export instead, or try a sharper, uncropped screenshot."</p>
            </div>
        }
        .into_any(),
        ("done", Some(r)) => {
            let rows = r
                .result
                .metrics
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let conf = r.confidence[i];
                    let unit = screenshot::shown_value(m).map_or("", |v| v.1);
                    let op_id = format!("{:?}", m.op).to_ascii_lowercase();
                    let name = m.label.clone();
                    let low = conf < LOW_CONFIDENCE;
                    view! {
                        <tr class:low=low>
                            <td>{m.label.clone()}</td>
                            <td class="num">
                                <input
                                    class="value"
                                    inputmode="decimal"
                                    aria-label=format!("{name} in {unit}")
                                    data-label=m.label.clone()
                                    data-op=op_id
                                    prop:value=move || values.with(|v| v.get(i).cloned().unwrap_or_default())
                                    on:input=move |ev| values.update(|v| if let Some(x) = v.get_mut(i) { *x = event_target_value(&ev) })
                                />
                            </td>
                            <td>{unit}</td>
                            <td class="num" title="how sure the reader was of this number">
                                {format!("{:.0} %", conf * 100.0)}
                                {low.then_some(" check")}
                            </td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <h3 class="understood">
                    {format!("Read: {} {} · {} tests", r.result.tool.name(), r.result.tool_version.clone().unwrap_or_default(), r.result.metrics.len())}
                </h3>
                <p class="muted">"Check the settings and every value against the image; highlighted ones the reader was unsure of. Empty a value to leave that test out."</p>
                {settings_editor(values, r.result.metrics.len(), r.settings_html.clone())}
                <div class="table-wrap">
                    <table id="ocr-values">
                        <thead><tr><th scope="col">"Test as read"</th><th scope="col" class="num">"Value"</th><th scope="col">"Unit"</th><th scope="col" class="num">"Confidence"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                {move || checked.get().and_then(Result::err).map(|e| view! { <div class="error" role="alert" id="ocr-check-error">{e}</div> })}
            }
            .into_any()
        }
        (status, _) => {
            let words = match (status, job.queue_position) {
                ("queued", Some(0)) => "Queued: next in line".to_string(),
                ("queued", Some(n)) => format!("Queued: {n} screenshot(s) ahead"),
                ("queued", None) => "Queued".to_string(),
                _ => format!("Reading: {}", job.stage.clone().unwrap_or_else(|| "starting".into())),
            };
            view! {
                <div id="ocr-status" role="status">
                    <p>{words}</p>
                    <progress max="1" value=job.progress aria-label="Recognition progress"></progress>
                </div>
            }
            .into_any()
        }
    };
    view! {
        <div class="shot" data-status=job.status.id()>
            <figure>
                <img src=job.image_url.clone() alt="The screenshot being read" />
            </figure>
            <div class="reading">{reading}</div>
        </div>
    }
    .into_any()
}

/// The run's settings as read from the settings bar, editable: what is typed here is
/// published. The inputs are HTML text ([`screenshot::settings_html`]) with one input
/// handler on their fieldset: typed elements would share Leptos' element code with the
/// results pages, and each function two lazy pieces share becomes a chunk both download
/// (three more files put the results list over its budget).
fn settings_editor(values: RwSignal<Vec<String>>, first: usize, html: String) -> AnyView {
    let typed = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let Some(i) = input.get_attribute("data-index").and_then(|i| i.parse::<usize>().ok()) else { return };
        values.update(|v| {
            if let Some(text) = v.get_mut(first + i) {
                *text = input.value();
            }
        });
    };
    view! { <fieldset id="ocr-settings" class="ocr-settings" inner_html=html on:input=typed></fieldset> }
        .into_any()
}

/// `recognised` with the person's values and settings in place ([`screenshot::corrected`]).
fn check(recognised: &BenchResult, values: &[String]) -> Result<BenchResult, String> {
    let first = recognised.metrics.len().min(values.len());
    let (texts, settings) = values.split_at(first);
    screenshot::corrected(recognised, texts, settings)
}
