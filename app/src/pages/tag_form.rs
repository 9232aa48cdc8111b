//! The one form for a result's tags, on the submit page and in the result page's editor:
//! an input per editable field of `bench::FIELDS` (its label, its example as the
//! placeholder, a choice list where the field has one), read and written through the
//! field's own accessors. A new tag field appears here without a change to this file.

use bench::fields::Input;
use bench::{Field, Tags, FIELDS};
use leptos::prelude::*;
use std::collections::BTreeMap;

/// The fields the forms offer, in `FIELDS` order.
fn editable() -> impl Iterator<Item = &'static Field> {
    FIELDS.iter().filter(|f| f.is_editable())
}

/// What the form holds: the tags it started from, and the text of every editable field.
/// The fields the form does not show (NAND, stepping, ...) keep their values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TagDraft {
    base: Tags,
    texts: BTreeMap<&'static str, String>,
}

impl TagDraft {
    pub fn of(tags: &Tags) -> TagDraft {
        let texts =
            editable().map(|f| (f.name, f.tag_value(tags).map(|v| v.to_string()).unwrap_or_default()));
        TagDraft { base: tags.clone(), texts: texts.collect() }
    }

    fn text(&self, name: &str) -> String {
        self.texts.get(name).cloned().unwrap_or_default()
    }

    /// The tags as edited, or what is wrong with each field that cannot be read.
    pub fn tags(&self) -> Result<Tags, Vec<String>> {
        let mut tags = self.base.clone();
        let errors: Vec<String> =
            editable().filter_map(|f| f.set_text(&mut tags, &self.text(f.name)).err()).collect();
        if errors.is_empty() {
            Ok(tags)
        } else {
            Err(errors)
        }
    }
}

/// Known values per field (by name) that a text input suggests, each with an optional
/// label (the catalogue drive's name for its id).
pub type Suggestions = BTreeMap<&'static str, BTreeMap<String, String>>;

/// Adds every editable field's value in these tags to the suggestions.
pub fn suggest_from(s: &mut Suggestions, tags: &Tags, result: &bench::BenchResult) {
    for f in editable().filter(|f| f.input == Input::Text) {
        if let Some(v) = f.value(tags, result) {
            s.entry(f.name).or_default().entry(v.to_string()).or_default();
        }
    }
}

/// The inputs (labels for a `.filter-grid`), bound to `draft`; text fields offer
/// `suggestions` in a `<datalist id="{name}-values">`.
#[component]
pub fn TagInputs(
    draft: RwSignal<TagDraft>,
    #[prop(optional, into)] suggestions: Option<Signal<Suggestions>>,
) -> impl IntoView {
    let input = move |f: &'static Field| {
        let value = move || draft.with(|d| d.text(f.name));
        let put = move |ev: leptos::ev::Event| {
            draft.update(|d| {
                d.texts.insert(f.name, event_target_value(&ev));
            })
        };
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
                view! {
                    <label>
                        <span>{f.label}</span>
                        <input name=f.name list=list placeholder=f.example prop:value=value on:input=put />
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
                    .filter(|f| f.input == Input::Text)
                    .map(|f| {
                        let options = s.get(f.name).cloned().unwrap_or_default();
                        view! {
                            <datalist id=format!("{}-values", f.name)>
                                {options
                                    .into_iter()
                                    .map(|(v, label)| view! { <option value=v>{label}</option> })
                                    .collect_view()}
                            </datalist>
                        }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        {datalists}
        {editable().map(input).collect_view()}
    }
}
