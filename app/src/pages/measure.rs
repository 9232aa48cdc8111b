//! "Measure your drive": the one command that downloads the standalone runner from this
//! server (`GET /runner`), checks its SHA-256, and measures a directory's drive with fio,
//! sending the result here, the way the Raspberry Pi storage benchmark is run.

use super::loaded;
use crate::api;
use api_types::{RunnerDownload, RunnerDownloads};
use leptos::prelude::*;

/// `text` as one word for a POSIX shell, quoted where it must be (`shlex`). A NUL, which
/// no path holds and no shell word can, is left out.
fn shell_word(text: &str) -> String {
    let text = text.replace('\0', "");
    shlex::try_quote(&text).map_or_else(|_| text.clone(), |q| q.into_owned())
}

/// The command: into the directory, the binary for this machine's processor and its
/// checksum line, checked, run on `.` and sent to `origin`. `uname -m` picks the binary,
/// so one command serves every machine the server has a build for.
pub fn command(origin: &str, dir: &str) -> String {
    let base = format!("{origin}{}/runner", api::API);
    format!(
        "cd {dir} && f=ssdbase-bench-$(uname -m)-linux && curl -fLO {base}/$f -O {base}/$f.sha256 && \
         sha256sum -c $f.sha256 && chmod +x $f && ./$f . --submit {origin}",
        dir = shell_word(dir),
    )
}

/// Which machines a binary is for, in a reader's words.
fn machines(arch: &str) -> &'static str {
    match arch {
        "x86_64" => "PCs and servers with Intel or AMD processors",
        "aarch64" => "64-bit ARM: Raspberry Pi 3, 4 and 5 with a 64-bit OS, ARM servers",
        _ => "",
    }
}

/// Starts the downloads' request while the page's code loads.
pub fn prefetch() {
    api::prefetch("/runner");
}

#[component]
pub fn MeasurePage() -> impl IntoView {
    let downloads = LocalResource::new(|| api::get::<RunnerDownloads>("/runner"));
    let origin = window().location().origin().unwrap_or_default();
    let (dir, set_dir) = signal(String::from("/mnt/ssd"));
    view! {
        <section class="measure">
            <h1>"Measure your drive"</h1>
            <p class="lead">
                "ssdbase-bench measures the drive under a directory on Linux with fio, as KDiskMark does "
                "(sequential and random 4 KiB reads and writes at its queue depths, the best of five passes), "
                "finds out which drive, controller and platform it is (model, firmware, link, chipset, OS, "
                "filesystem), and sends the result here, where it gets its drive's page."
            </p>
            <p>
                "It needs fio (" <code>"sudo apt-get install fio"</code> " on Debian, Ubuntu and Raspberry Pi OS) "
                "and writes a 1 GiB test file in the directory, removed when it ends or is stopped with Ctrl-C. "
                "Run as root it also reads smartctl and nvme-cli when they are installed. It takes about "
                "ten minutes."
            </p>
            {loaded(downloads, 160, move |found: RunnerDownloads| {
                if found.files.is_empty() {
                    return view! {
                        <p class="empty">
                            "This server offers no runner download yet. Its operator builds it with "
                            <code>"cargo xtask runner-dist"</code> "."
                        </p>
                    }
                    .into_any();
                }
                let origin = origin.clone();
                view! {
                    <label>
                        "A directory on the drive to measure"
                        <input
                            type="text"
                            spellcheck="false"
                            prop:value=dir
                            on:input=move |ev| set_dir.set(event_target_value(&ev))
                        />
                    </label>
                    <p>"Then, in a terminal on that machine:"</p>
                    <pre class="command" id="measure-command"><code>{move || command(&origin, dir.get().trim())}</code></pre>
                    <p class="muted">
                        "It downloads the binary for the machine's processor, checks it against the SHA-256 "
                        "below, and prints the drive it found and its results before sending them, with the "
                        "result's page and the edit token that lets you correct or delete it."
                    </p>
                    <h2>"The downloads"</h2>
                    <div class="table-wrap">
                        <table id="runner-downloads">
                            <thead>
                                <tr>
                                    <th scope="col">"For"</th>
                                    <th scope="col" class="num">"Size"</th>
                                    <th scope="col">"SHA-256"</th>
                                </tr>
                            </thead>
                            <tbody>
                                {found.files.into_iter().map(download_row).collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
                .into_any()
            })}
        </section>
    }
}

fn download_row(d: RunnerDownload) -> impl IntoView {
    let size = format!("{:.1} MB", d.bytes as f64 / 1e6);
    view! {
        <tr>
            <td>
                <a href=d.url.clone() download="">{d.name.clone()}</a>
                <span class="vs">{format!("{}: {}", d.arch, machines(&d.arch))}</span>
            </td>
            <td class="num">{size}</td>
            <td class="hash"><code>{d.sha256}</code></td>
        </tr>
    }
}
