//! A rated-vs-measured table as the API sends it (the rows of `charts::rated_rows`, which
//! the drive page's rated charts also draw) as a plain HTML table, the rule beneath.

use api_types::RatedTable;
use charts::rated_cells;
use leptos::prelude::*;

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
                        // Plain links (the router still catches them): smaller than `<A>`.
                        let results = r.measured.is_some().then(|| format!("/results?drive={}", crate::api::encode(&r.drive)));
                        let missing = |m: bool| if m { "num missing" } else { "num" };
                        let measured_class = missing(results.is_none());
                        let more = r.result_ids.len().saturating_sub(SHOWN);
                        view! {
                            <tr>
                                <td>{r.figure_name}</td>
                                <th scope="row"><a href=format!("/drives/{}", r.drive)>{r.drive_label}</a></th>
                                {pools.then(|| view! { <td>{r.pool.unwrap_or_default()}</td> })}
                                <td class=missing(r.rated.is_none())>{c.rated}</td>
                                <td class=measured_class><a href=results>{c.measured}</a></td>
                                <td class="num">{c.mad}</td>
                                <td class="num">{c.n}</td>
                                <td class="num">{c.gap}</td>
                                <td>{c.flags}</td>
                                <td>{c.measured_on}</td>
                                <td>
                                    {r.result_ids.iter().take(SHOWN).map(|id| view! { <a href=format!("/results/{id}")>{format!("#{id}")}</a> " " }).collect_view()}
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
