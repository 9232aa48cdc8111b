//! Home: what SSDBase is, drive search as you type (the server's, reviewed and community
//! drives), the classic comparisons from the
//! source articles, the latest results.

use super::Opening;
use super::{loaded, DriveSearch};
use crate::api::{self, platform_label, ListResponse};
use api_types::pages;
use leptos::prelude::*;
use leptos_router::components::A;

/// The questions the seed articles asked, one click each.
const CLASSICS: &[(&str, &str, &str)] = &[
    (
        "C300 vs M2S vs SF-2281",
        "Marvell 88SS9174 twice and SandForce, same test, side by side",
        "/compare?drives=crucial-realssd-c300-128gb,plextor-px-m2s-128gb,patriot-wildfire-120gb",
    ),
    (
        "One drive on ICH10R vs U3S6 vs SB850",
        "Plextor M2S 256 GB on Intel, a Marvell add-in card and AMD",
        "/drives/plextor-px-m2s-256gb#platforms",
    ),
    (
        "RAID 0 of 2 and 4 drives vs one",
        "C300 64 GB alone and striped on ICH10R and a 3ware card",
        "/drives/crucial-realssd-c300-64gb#platforms",
    ),
    (
        "Random vs 0-fill data",
        "SandForce compresses: Patriot Wildfire with both patterns",
        "/drives/patriot-wildfire-120gb#platforms",
    ),
];

#[component]
pub fn Home() -> impl IntoView {
    let latest = LocalResource::new(|| api::get::<ListResponse>("/results?limit=8"));

    view! {
        <section class="hero">
            <Opening opening=&pages::HOME />
            <DriveSearch placeholder="Search a drive by vendor, model or part number (e.g. C300, PX-128M2S, CT500P2SSD8)" />
            <p>
                <A href="/drives">"Every drive"</A>
                " with its result count and key figures · "
                <A href="/leaderboard">"Leaderboards"</A>
                ": drives ranked in one test at a time"
            </p>
        </section>
        <section>
            <h2>"Classic comparisons"</h2>
            <ul class="cards">
                {CLASSICS
                    .iter()
                    .map(|(title, what, href)| {
                        view! {
                            <li>
                                <A href=*href>
                                    <strong>{*title}</strong>
                                    <span>{*what}</span>
                                </A>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
        <section>
            <h2>"Latest results"</h2>
            <div class="table-wrap" style:min-height="300px">
                {loaded(latest, 300, |list: ListResponse| {
                    view! {
                        <table>
                            <thead>
                                <tr>
                                    <th scope="col">"Result"</th>
                                    <th scope="col">"Drive"</th>
                                    <th scope="col">"Platform"</th>
                                    <th scope="col">"Tool"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {list
                                    .results
                                    .into_iter()
                                    .map(|r| {
                                        view! {
                                            <tr>
                                                <td>
                                                    <A href=format!("/results/{}", r.id)>{format!("#{}", r.id)}</A>
                                                </td>
                                                <td>{pages::drive_label(&r.tags)}</td>
                                                <td>{platform_label(&r.tags)}</td>
                                                <td>
                                                    {format!(
                                                        "{} {}",
                                                        r.result.tool.name(),
                                                        r.result.tool_version.clone().unwrap_or_default(),
                                                    )}
                                                </td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    }
                })}
            </div>
            <p>
                <A href="/results">"Browse all results"</A>
                " · "
                <A href="/submit">"Submit yours"</A>
            </p>
        </section>
    }
}
