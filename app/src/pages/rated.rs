//! A rated-vs-measured table: the rows of `charts::rated_rows` (the drive page builds
//! them from its results, compare and controller read them from the API, which builds
//! them with the same function) as a plain HTML table, the rule beneath.

use api_types::RatedTable;
use charts::rated_cells;
use leptos::prelude::*;
use leptos_router::components::A;

/// How many result links a row lists before "+N more".
const SHOWN: usize = 6;

/// The table's rows as a table, its rule (from the API) beneath; `pools` adds the
/// platform group and data pattern column (compare); `data` is the API path of the same
/// table, offered as CSV and JSON.
#[component]
pub fn RatedTableView(table: RatedTable, #[prop(optional)] pools: bool, data: String) -> impl IntoView {
    let RatedTable { rule, rows } = table;
    if rows.is_empty() {
        return view! { <p class="empty">"No rated figure and no matching measurement."</p> }.into_any();
    }
    let api = crate::api::API;
    let sep = if data.contains('?') { '&' } else { '?' };
    view! {
        <div class="table-wrap">
            <table class="rated">
                <thead>
                    <tr>
                        <th scope="col">"Figure"</th>
                        <th scope="col">"Drive"</th>
                        {pools.then(|| view! { <th scope="col">"Platform · data"</th> })}
                        <th scope="col" class="num">"Rated"</th>
                        <th scope="col" class="num">"Measured median"</th>
                        <th scope="col" class="num">"MAD"</th>
                        <th scope="col" class="num">"n"</th>
                        <th scope="col" class="num">"Gap"</th>
                        <th scope="col">"Flags"</th>
                        <th scope="col">"Measured on · tests"</th>
                        <th scope="col">"Results"</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.into_iter().map(|r| {
                        let c = rated_cells(&r);
                        let measured = if r.measured.is_some() {
                            view! { <td class="num"><A href=format!("/results?drive={}", crate::api::encode(&r.drive))>{c.measured}</A></td> }.into_any()
                        } else {
                            view! { <td class="num missing">{c.measured}</td> }.into_any()
                        };
                        let more = r.result_ids.len().saturating_sub(SHOWN);
                        view! {
                            <tr>
                                <td>{r.figure_name}</td>
                                <th scope="row"><A href=format!("/drives/{}", r.drive)>{r.drive_label}</A></th>
                                {pools.then(|| view! { <td>{r.pool.unwrap_or_default()}</td> })}
                                <td class="num" class:missing=r.rated.is_none()>{c.rated}</td>
                                {measured}
                                <td class="num">{c.mad}</td>
                                <td class="num">{c.n}</td>
                                <td class="num">{c.gap}</td>
                                <td>{c.flags}</td>
                                <td>{c.measured_on}</td>
                                <td>
                                    {r.result_ids.iter().take(SHOWN).map(|id| view! { <A href=format!("/results/{id}")>{format!("#{id}")}</A> " " }).collect_view()}
                                    {(more > 0).then(|| format!("+{more} more"))}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <p class="muted">{rule}</p>
        <p class="muted">
            "This table as data: "
            <a href=format!("{api}{data}{sep}format=csv") download="rated.csv">"CSV"</a>
            " · "
            <a href=format!("{api}{data}")>"JSON"</a>
        </p>
    }
    .into_any()
}
