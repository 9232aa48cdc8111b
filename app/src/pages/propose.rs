//! Propose a new drive (`/propose`) or a change to one (`/drives/:id/propose`, the form
//! filled with what the drive has): every field `POST /api/v1/proposals` takes, each
//! rated figure beside its source. Only what differs from the drive is sent, as the
//! patch the API stores (`api_types::DriveProposal`); the server's problems appear at
//! the fields their JSON pointers name, its warnings and the proposal's id after it is
//! stored. Nothing changes before a moderator accepts it.

use super::loaded;
use crate::api::{self, ApiError, ErrorItem};
use crate::pages::result::link_label;
use crate::proposal::{
    input_of, proposal, texts_of, DriveOnly, Kind, Stored, CELLS, INPUTS, LINKS, SECTIONS,
};
use bench::{DriveSku, FormFactor, Link};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

/// The choices of a select: value and label.
fn choices(kind: Kind) -> Vec<(String, String)> {
    match kind {
        Kind::Interface => LINKS
            .iter()
            .map(|id| (id.to_string(), Link::from_id(id).map(link_label).unwrap_or_default()))
            .collect(),
        Kind::FormFactor => {
            FormFactor::ALL.iter().map(|(_, id, label)| (id.to_string(), label.to_string())).collect()
        }
        Kind::Cell => CELLS.iter().map(|(_, l)| (l.to_string(), l.to_string())).collect(),
        Kind::Text | Kind::Number => Vec::new(),
    }
}

/// `/propose`: a new drive.
#[component]
pub fn ProposeNew() -> impl IntoView {
    view! {
        <section>
            <h1>"Propose a new drive"</h1>
            <Intro />
            <ProposalForm base=None />
        </section>
    }
}

/// `/drives/:id/propose`: a change to a drive, the form filled with what it has.
#[component]
pub fn ProposeChange() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let page = LocalResource::new(move || {
        let id = id.get();
        async move { api::get::<DriveOnly>(&format!("/drives/{}", api::encode(&id))).await }
    });
    view! {
        <section>
            {loaded(page, 400, |p: DriveOnly| {
                let d = p.drive;
                let title = format!("Propose a change to the {} {} {} GB", d.vendor, d.model, d.capacity_gb);
                view! {
                    <h1>{title}</h1>
                    <p><A href=format!("/drives/{}", d.id)>"Back to the drive"</A></p>
                    <Intro />
                    <ProposalForm base=Some(d) />
                }
            })}
        </section>
    }
}

#[component]
fn Intro() -> impl IntoView {
    view! {
        <p class="muted">
            "Anyone may propose; a moderator checks it against its sources before the catalogue changes. Every rated figure needs its source: a URL or a document's name (a datasheet, a product page). Firmware versions and names are added to those the drive has."
        </p>
    }
}

#[component]
fn ProposalForm(base: Option<DriveSku>) -> impl IntoView {
    let start = base.as_ref().map(texts_of).unwrap_or_else(|| vec![String::new(); INPUTS.len()]);
    let texts = RwSignal::new(start);
    let errors = RwSignal::new(Vec::<ErrorItem>::new());
    let (answer, set_answer) = signal(None::<Stored>);
    let (sending, set_sending) = signal(false);
    let base = StoredValue::new(base);

    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let body = match base.with_value(|b| texts.with_untracked(|t| proposal(t, b.as_ref()))) {
            Ok(p) => p,
            Err(e) => {
                errors.set(e);
                return;
            }
        };
        set_sending.set(true);
        spawn_local(async move {
            match api::propose(&body).await {
                Ok(p) => {
                    errors.set(Vec::new());
                    set_answer.set(Some(p));
                }
                Err(ApiError::Status { errors: e, .. }) => errors.set(e),
                Err(e @ ApiError::Network(_)) => {
                    errors.set(vec![ErrorItem { detail: e.to_string(), pointer: None }])
                }
            }
            set_sending.set(false);
        });
    };

    let field = move |i: usize| {
        let f = &INPUTS[i];
        let id = format!("p-{}", f.at.replace('/', "-"));
        let problems = move || {
            errors.with(|e| {
                e.iter()
                    .filter(|e| e.pointer.as_deref().and_then(input_of) == Some(i))
                    .map(|e| e.detail.clone())
                    .collect::<Vec<_>>()
            })
        };
        let invalid = move || if problems().is_empty() { "false" } else { "true" };
        let value = move || texts.with(|t| t[i].clone());
        let put = move |ev: leptos::ev::Event| texts.update(|t| t[i] = event_target_value(&ev));
        let control = if f.kind == Kind::Text || f.kind == Kind::Number {
            let mode = if f.kind == Kind::Number { "decimal" } else { "text" };
            view! {
                <input id=id.clone() name=f.at inputmode=mode aria-invalid=invalid
                    aria-describedby=format!("{id}-example {id}-problem") prop:value=value on:input=put />
            }
            .into_any()
        } else {
            let options = choices(f.kind);
            let current = value();
            let extra = (!current.is_empty() && !options.iter().any(|(v, _)| *v == current))
                .then(|| (current.clone(), current.clone()));
            view! {
                <select id=id.clone() name=f.at aria-invalid=invalid aria-describedby=format!("{id}-problem") on:change=put>
                    <option value="" selected=current.is_empty()>"unknown"</option>
                    {options.into_iter().chain(extra).map(|(v, l)| {
                        let selected = v == current;
                        view! { <option value=v selected=selected>{l}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        };
        view! {
            <label class:invalid=move || !problems().is_empty()>
                <span>{f.label}</span>
                {control}
                // The example under the field: inside it, grey text reads as a value.
                {(!f.hint.is_empty()).then(|| view! {
                    <small class="example" id=format!("{id}-example")>{format!("e.g. {}", f.hint)}</small>
                })}
                <small class="problem" id=format!("{id}-problem") role="alert">
                    {move || problems().join("; ")}
                </small>
            </label>
        }
    };
    let general = move || {
        errors.with(|e| {
            e.iter()
                .filter(|e| e.pointer.as_deref().and_then(input_of).is_none())
                .map(|e| match &e.pointer {
                    Some(p) => format!("{} ({p})", e.detail),
                    None => e.detail.clone(),
                })
                .collect::<Vec<_>>()
        })
    };

    view! {
        <form class="propose" on:submit=send novalidate>
            {SECTIONS.iter().map(|(title, from, to)| view! {
                <fieldset class="tags">
                    <legend>{*title}</legend>
                    <div class="filter-grid">{(*from..*to).map(field).collect_view()}</div>
                </fieldset>
            }).collect_view()}
            {move || {
                let g = general();
                (!g.is_empty()).then(|| view! {
                    <div class="error" role="alert" id="propose-problems">
                        <ul>{g.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                    </div>
                })
            }}
            {move || (!errors.with(Vec::is_empty)).then(|| view! {
                <p class="problem" id="propose-refused">"Not sent: see the fields marked above."</p>
            })}
            <button type="submit" id="propose" disabled=sending>"Send the proposal"</button>
        </form>
        {move || answer.get().map(|p| {
            let href = format!("{}/proposals/{}", api::API, p.id);
            view! {
                <div class="ok" role="status" id="propose-answer">
                    <strong>{format!("Proposal #{} stored, waiting for a moderator.", p.id)}</strong>
                    " The catalogue changes when it is accepted. "
                    <a href=href.clone() rel="external">{href.clone()}</a>
                    {(!p.warnings.is_empty()).then(|| view! {
                        <p>"What the moderator will check first:"</p>
                        <ul class="warnings">{p.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}</ul>
                    })}
                </div>
            }
        })}
    }
}
