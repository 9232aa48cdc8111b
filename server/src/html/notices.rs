//! Short accounts the site shows as they come: the drive an upload names (submit page)
//! and how `ssdbase bench` says it measured a result (result page).

use api_types::{DriveIdentification, RunnerRecord};
use bench::DriveMatch;
use maud::{html, Markup};

/// The submit page's proposal of the drive an upload names: what the text says, which
/// drive that is, and a button whose `data-` attributes are the tag fields and values it
/// fills. Empty when the text names nothing.
pub fn named_drive(found: &DriveIdentification) -> Markup {
    let said = html! { "Named in the upload: \u{201c}" (found.query) "\u{201d}. " };
    match (&found.drive, found.identified_by) {
        (_, DriveMatch::Unknown) => html! {},
        (Some(d), how) if how != DriveMatch::Ambiguous => {
            let status = match (found.exists, d.reviewed) {
                (false, _) => "is not in SSDBase yet: naming it gives the drive a page of its own.",
                (true, false) => "is in SSDBase (not reviewed yet).",
                (true, true) => "is in SSDBase.",
            };
            html! {
                p #named-drive .notice role="note" {
                    (said) strong { (d.vendor) " " (d.model) " " (d.capacity_gb) " GB" } " " (status) " "
                    @if found.exists {
                        button type="button" data-drive=(d.id) { "Use this drive" }
                    } @else {
                        button type="button" data-drive="" data-vendor=(d.vendor) data-model=(d.model)
                            data-capacity_gb=(d.capacity_gb) { "Use this drive" }
                    }
                }
            }
        }
        _ => html! {
            p #named-drive .notice role="note" {
                (said) "It could be any of " strong { (found.candidates.join(", ")) }
                ": pick the right one with the search below."
            }
        },
    }
}

/// The runner's record as the result page shows it, worded as the upload's account: the
/// server cannot prove where an upload came from.
pub fn runner_record(run: &RunnerRecord) -> Markup {
    let io = if run.buffered {
        " through the page cache (buffered: never compared with direct I/O)"
    } else {
        " (direct I/O)"
    };
    html! {
        p {
            "The upload says ssdbase bench " (run.runner_version) " measured this result with "
            (run.fio_version) (io) ", and found the facts below itself; SSDBase cannot prove where an \
             upload came from."
        }
        div.table-wrap { table #runner-facts {
            thead { tr { th scope="col" { "Fact" } th scope="col" { "Value" } th scope="col" { "How it was found" } } }
            tbody {
                @for f in &run.facts {
                    tr { td { (f.field.replace('_', " ")) } td { (f.value) } td { (f.source) } }
                }
                @for field in &run.typed {
                    tr { td { (field.replace('_', " ")) } td { "(see the tags)" } td { "typed by hand (--tag)" } }
                }
            }
        } }
        @for j in &run.jobs {
            details.fio-job { summary { "fio job: " (j.test) } pre { (j.job) } }
        }
    }
}
