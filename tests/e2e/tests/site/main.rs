//! The site end to end: the Trunk-built `dist/` served by a real `ssdbase serve` on a
//! fresh SQLite file, driven in Debian's headless Chromium through chromedriver.
//!
//! `cargo xtask test` builds the site and the server first and sets `SSDBASE_SITE_DIR`
//! and `SSDBASE_BIN`; run alone, the test builds the server itself and expects a built
//! site in `dist/`. Screenshots of the main pages land in `target/e2e-screenshots/`.
//! The time from navigation to the first drawn compare chart is printed.
//!
//! One server and one browser walk the site page by page (a module per page), in the
//! order below: later pages find what earlier ones stored, and the last one checks that
//! no page walked broke the Content Security Policy. A page whose checks fail (an error
//! or a panic) is reported with a screenshot `failure-<page>.png`, and the walk goes on,
//! so that one broken page hides no other; the test then fails naming every page that
//! failed, and each page that could not run because one before it stored nothing.

mod compare;
mod csp;
mod drives;
mod effects;
mod measured;
mod pages;
mod phone;
mod results;
mod submit;
mod world;

use anyhow::{anyhow, bail, ensure, Result};
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use world::{root, World};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_in_a_real_browser() -> Result<()> {
    let site = std::env::var_os("SSDBASE_SITE_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("dist"));
    ensure!(
        site.join("index.html").is_file(),
        "no built site in {} (cargo xtask test builds it with trunk)",
        site.display()
    );
    let mut walk = Walk::default();
    let w = Arc::new(World::start(&site, "site").await?);
    walk.page(
        &w,
        "compare",
        |w| async move { compare::compare_draws_the_chart_and_the_seed_figures(&w).await },
    )
    .await;
    let submitted = walk
        .page(&w, "submit: a CrystalDiskMark export", |w| async move {
            submit::submit_a_crystaldiskmark_export(&w).await
        })
        .await;
    let found = "results: the export found, its tags corrected, its upload shown";
    match submitted {
        Some((id, token)) => {
            walk.page(
                &w,
                found,
                move |w| async move { results::find_it_in_the_results(&w, id, &token).await },
            )
            .await;
        }
        None => walk.not_run(found, "the submit page stored no export"),
    };
    walk.page(&w, "drive: one the catalogue lacks, proposed and reviewed", |w| async move {
        drives::a_drive_the_catalogue_lacks(&w).await
    })
    .await;
    walk.page(&w, "drives index and leaderboard", |w| async move {
        drives::the_drives_index_and_a_leaderboard(&w).await
    })
    .await;
    walk.page(&w, "effects: a field's effects and the drives behind one", |w| async move {
        effects::the_effects_of_a_field_and_the_drives_behind_one(&w).await
    })
    .await;
    walk.page(
        &w,
        "results without a drive",
        |w| async move { results::results_without_a_drive_say_so(&w).await },
    )
    .await;
    walk.page(&w, "submit: a screenshot", |w| async move { submit::publish_a_screenshot(&w).await }).await;
    walk.page(
        &w,
        "submit: a desktop capture",
        |w| async move { submit::publish_a_desktop_capture(&w).await },
    )
    .await;
    walk.page(&w, "result: measured with ssdbase bench", |w| async move {
        measured::a_drive_measured_with_ssdbase_bench(&w).await
    })
    .await;
    walk.page(&w, "measure your drive: the page's command on a loop device", |w| async move {
        measured::the_measure_page_command_measures_a_drive(&w).await
    })
    .await;
    walk.page(&w, "burst and sustained: two drives measured for their write cache", |w| async move {
        measured::drives_measured_for_their_cache_show_burst_and_sustained(&w).await
    })
    .await;
    walk.page(&w, "home, drive, controller, platform, propose and not-found pages", |w| async move {
        pages::the_other_pages(&w).await
    })
    .await;
    walk.page(&w, "every page on a phone, 360 and 390 px", |w| async move {
        phone::every_page_fits_a_phone(&w).await
    })
    .await;
    // Last: it counts the violations of every page walked above.
    walk.page(&w, "content security policy", |w| async move {
        csp::no_page_broke_the_content_security_policy(&w).await
    })
    .await;
    close(w).await;

    // After the walk above, not beside it, so that a second browser does not slow the
    // figures it prints.
    let broken = csp::site_without_the_submit_page(&site)?;
    let w = Arc::new(World::start(broken.path(), "broken").await?);
    walk.page(&w, "a page whose code cannot load", |w| async move {
        csp::a_page_whose_code_cannot_load_says_so(&w).await
    })
    .await;
    close(w).await;
    walk.finish()
}

/// Ends a world's browser, then (dropped) its server, driver and files.
async fn close(w: Arc<World>) {
    w.client.clone().close().await.ok();
}

/// The pages walked so far: how many passed, what failed.
#[derive(Default)]
struct Walk {
    passed: usize,
    failed: Vec<String>,
}

impl Walk {
    /// Runs one page's checks on its own task (so that a panic is reported as this page's
    /// failure, not the end of the walk), at the desktop window size whatever the page
    /// before left; on failure takes a screenshot and goes on. What the page answers, when
    /// it passed.
    async fn page<T, F, Fut>(&mut self, w: &Arc<World>, name: &str, check: F) -> Option<T>
    where
        F: FnOnce(Arc<World>) -> Fut,
        Fut: Future<Output = Result<T>> + Send + 'static,
        T: Send + 'static,
    {
        println!("e2e: {name} ...");
        let started = Instant::now();
        let outcome = match w.client.set_window_size(1200, 1600).await {
            Err(e) => Err(anyhow!("the browser does not answer: {e}")),
            Ok(()) => match tokio::spawn(check(w.clone())).await {
                Ok(outcome) => outcome,
                Err(e) if e.is_panic() => Err(anyhow!("panicked: {}", panic_text(e.into_panic()))),
                Err(e) => Err(anyhow!("{e}")),
            },
        };
        let secs = started.elapsed().as_secs_f64();
        match outcome {
            Ok(answer) => {
                println!("e2e: {name}: ok ({secs:.1} s)");
                self.passed += 1;
                Some(answer)
            }
            Err(e) => {
                let shot: String = format!("failure-{name}")
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
                    .collect();
                let _ = w.shot(&shot).await;
                println!("e2e: {name}: FAILED ({secs:.1} s): {e:#}");
                self.failed.push(format!("{name}: {e:#}\n    (screenshot {shot}.png)"));
                None
            }
        }
    }

    /// A page that could not be walked: counted as failed, with the reason.
    fn not_run(&mut self, name: &str, why: &str) {
        println!("e2e: {name}: NOT RUN: {why}");
        self.failed.push(format!("{name}: not run: {why}"));
    }

    fn finish(self) -> Result<()> {
        let total = self.passed + self.failed.len();
        if self.failed.is_empty() {
            println!("e2e: every page passed ({total})");
            return Ok(());
        }
        bail!("{} of {total} pages failed:\n  - {}", self.failed.len(), self.failed.join("\n  - "))
    }
}

/// A panic's message, when it is text.
fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => payload.downcast_ref::<&str>().map_or("(no message)".into(), |s| s.to_string()),
    }
}
