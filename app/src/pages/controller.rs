//! A controller: every catalogue drive built on it (e.g. the Marvell 88SS9174 in the C300,
//! M2S, C400 and Intel 510), one click from comparing them all.

use super::rated::RatedHtml;
use super::{drive_list, loaded};
use crate::api::DriveListView;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

#[component]
pub fn ControllerPage() -> impl IntoView {
    let params = use_params_map();
    let model = move || params.with(|p| p.get("model").unwrap_or_default());
    let drives = drive_list();
    view! {
        <section>
            <h1>{move || format!("Controller {}", model())}</h1>
            {move || {
                let model = model();
                loaded(drives, 200, move |list: DriveListView| {
                    let mut on: Vec<_> = list
                        .drives
                        .into_iter()
                        .filter(|d| d.controller.model.as_deref() == Some(model.as_str()))
                        .collect();
                    on.sort_by(|a, b| (&a.vendor, &a.model, a.capacity_gb).cmp(&(&b.vendor, &b.model, b.capacity_gb)));
                    let measured: Vec<String> = on.iter().filter(|d| d.result_count > 0).map(|d| d.id.clone()).collect();
                    let compare = format!("/compare?drives={}", measured.join(","));
                    let none = on.is_empty();
                    view! {
                        {none.then(|| view! { <p class="empty">"No catalogue drive has this controller."</p> })}
                        {(!measured.is_empty()).then(|| view! {
                            <p><A href=compare>{format!("Compare the {} measured drives side by side", measured.len())}</A></p>
                        })}
                        <div class="table-wrap">
                            <table>
                                <thead>
                                    <tr>
                                        <th scope="col">"Drive"</th>
                                        <th scope="col">"Stepping"</th>
                                        <th scope="col">"NAND"</th>
                                        <th scope="col" class="num">"Results"</th>
                                    </tr>
                                </thead>
                                <tbody>
                                    {on.into_iter().map(|d| {
                                        let nand = [d.nand.vendor.clone(), d.nand.process_nm.map(|n| format!("{n} nm"))]
                                            .into_iter().flatten().collect::<Vec<_>>().join(" ");
                                        view! {
                                            <tr>
                                                <td><A href=format!("/drives/{}", d.id)>{format!("{} {} {} GB", d.vendor, d.model, d.capacity_gb)}</A></td>
                                                <td>{d.controller.stepping.clone().unwrap_or_default()}</td>
                                                <td>{nand}</td>
                                                <td class="num">{d.result_count}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    }
                })
            }}
            <h2>"Rated vs measured"</h2>
            <p class="muted">"Every drive on this controller with its maker's ratings beside what it measured."</p>
            {move || view! { <RatedHtml data=format!("/controllers/{}/rated", crate::api::encode(&model())) /> }}
        </section>
    }
}
