//! The one form for a result's tags, on the submit page and in the result page's editor:
//! an input per editable field of `bench::FIELDS` (its label, its example under the
//! input, a choice list where the field has one), read and written through the
//! field's own accessors. A new tag field appears here without a change to this file.

use bench::fields::Input;
use bench::{Field, Tags, FIELDS};
use leptos::prelude::*;
use std::collections::BTreeSet;

/// The fields the forms offer, in `FIELDS` order.
fn editable() -> impl Iterator<Item = &'static Field> {
    FIELDS.iter().filter(|f| f.is_editable())
}

/// What the form holds: the tags it started from, and the text of every editable field.
/// The fields the form does not show (NAND, stepping, ...) keep their values.
#[derive(Clone)]
pub struct TagDraft {
    base: Tags,
    /// One per field of [`editable`], in its order.
    texts: Vec<String>,
}

impl Default for TagDraft {
    fn default() -> TagDraft {
        TagDraft::of(&Tags::default())
    }
}

impl TagDraft {
    pub fn of(tags: &Tags) -> TagDraft {
        let texts = editable().map(|f| f.tag_value(tags).map(|v| v.to_string()).unwrap_or_default());
        TagDraft { base: tags.clone(), texts: texts.collect() }
    }

    /// Puts `text` into the field named `name` (the drive search fills `drive`).
    pub fn set(&mut self, name: &str, text: &str) {
        if let Some(i) = editable().position(|f| f.name == name) {
            self.texts[i] = text.to_string();
        }
    }

    /// Puts into every field the text `text_of` has for its name (a "Use this drive"
    /// button's `data-` attributes), leaving the others as they are.
    pub fn set_each(&mut self, text_of: impl Fn(&str) -> Option<String>) {
        for (f, text) in editable().zip(&mut self.texts) {
            if let Some(t) = text_of(f.name) {
                *text = t;
            }
        }
    }

    /// The tags as edited, or what is wrong with each field that cannot be read.
    pub fn tags(&self) -> Result<Tags, Vec<String>> {
        let mut tags = self.base.clone();
        let errors: Vec<String> =
            editable().zip(&self.texts).filter_map(|(f, text)| f.set_text(&mut tags, text).err()).collect();
        if errors.is_empty() {
            Ok(tags)
        } else {
            Err(errors)
        }
    }
}

/// Known values that the text inputs suggest: one set per field of [`editable`].
#[derive(Clone, PartialEq)]
pub struct Suggestions(Vec<BTreeSet<String>>);

impl Default for Suggestions {
    fn default() -> Suggestions {
        Suggestions(editable().map(|_| BTreeSet::new()).collect())
    }
}

impl Suggestions {
    /// Adds every editable field's value in these tags.
    pub fn add_from(&mut self, tags: &Tags, result: &bench::BenchResult) {
        for (f, values) in editable().zip(&mut self.0) {
            if let Some(v) = f.value(tags, result) {
                values.insert(v.to_string());
            }
        }
    }
}

/// Suggestions from the tags of the latest results (what people typed: vendors, models,
/// controllers, chipsets, ...; the seed results carry the catalogue's). Drive ids come
/// from the drive search beside the form instead of a list of the whole catalogue, whose
/// loading code cost the submit page 4 KB of its download.
pub fn recent_suggestions() -> Memo<Suggestions> {
    let recent = LocalResource::new(|| crate::api::get::<crate::api::ListResponse>("/results?limit=100"));
    Memo::new(move |_| {
        let mut s = Suggestions::default();
        if let Some(Ok(list)) = recent.get() {
            for r in &list.results {
                s.add_from(&r.tags, &r.result);
            }
        }
        s
    })
}

/// The inputs (labels for a `.filter-grid`), bound to `draft`; text fields offer
/// `suggestions` in a `<datalist id="{name}-values">`.
#[component]
pub fn TagInputs(
    draft: RwSignal<TagDraft>,
    #[prop(optional, into)] suggestions: Option<Signal<Suggestions>>,
) -> impl IntoView {
    let input = move |(i, f): (usize, &'static Field)| {
        let value = move || draft.with(|d| d.texts[i].clone());
        let put = move |ev: leptos::ev::Event| draft.update(|d| d.texts[i] = event_target_value(&ev));
        match f.input {
            Input::Choice(values) => {
                // A value a result already has stays selectable, listed or not.
                let options = move || {
                    let current = value();
                    let extra = (!current.is_empty() && !values.contains(&current.as_str()))
                        .then_some(current.clone());
                    values
                        .iter()
                        .map(|v| v.to_string())
                        .chain(extra)
                        .map(|v| {
                            let selected = v == current;
                            view! { <option value=v.clone() selected=selected>{v.clone()}</option> }
                        })
                        .collect_view()
                };
                view! {
                    <label>
                        <span>{f.label}</span>
                        <select name=f.name on:change=put>
                            <option value="" selected=move || value().is_empty()>"unknown"</option>
                            {options}
                        </select>
                    </label>
                }
                .into_any()
            }
            _ => {
                let list = suggestions.map(|_| format!("{}-values", f.name));
                // The example under the field, not inside it: grey text in an empty input
                // reads as a value already filled in.
                let example = format!("tag-{}-example", f.name);
                view! {
                    <label>
                        <span>{f.label}</span>
                        <input name=f.name list=list aria-describedby=example.clone() prop:value=value on:input=put />
                        <small class="example" id=example>{format!("e.g. {}", f.example)}</small>
                    </label>
                }
                .into_any()
            }
        }
    };
    let datalists = move || {
        suggestions.map(|s| {
            s.with(|s| {
                editable()
                    .zip(&s.0)
                    .filter(|(f, _)| f.input == Input::Text)
                    .map(|(f, values)| {
                        view! {
                            <datalist id=format!("{}-values", f.name)>
                                {values.iter().map(|v| view! { <option value=v.clone()></option> }).collect_view()}
                            </datalist>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        {datalists}
        {editable().enumerate().map(input).collect_view()}
    }
}
