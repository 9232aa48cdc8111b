//! Every page on a phone: at 360 and 390 px wide, no page scrolls sideways, and the
//! leaderboard's ranked figure (median and n) is on screen without scrolling its table.
//! A screenshot of each page at each width lands in `target/e2e-screenshots/phone-*`.

use crate::world::World;
use anyhow::{ensure, Context, Result};
use std::time::{Duration, Instant};

const C300: &str = "crucial-realssd-c300-256gb";
const COMPARE: &str = "crucial-realssd-c300-256gb,plextor-px-m2s-256gb,patriot-wildfire-120gb";

pub async fn every_page_fits_a_phone(w: &World) -> Result<()> {
    let first: serde_json::Value = serde_json::from_str(
        &ureq::get(&format!("{}/api/v1/results?limit=1", w.base)).call()?.body_mut().read_to_string()?,
    )?;
    let result = first["results"][0]["id"].as_i64().context("a stored result")?;
    let pages = [
        ("home", "/".to_string()),
        ("results", "/results".to_string()),
        ("drives", "/drives".to_string()),
        ("leaderboard", "/leaderboard".to_string()),
        ("drive", format!("/drives/{C300}")),
        ("compare", format!("/compare?drives={COMPARE}")),
        ("result", format!("/results/{result}")),
        ("effects", "/effects".to_string()),
        ("submit", "/submit".to_string()),
        ("measure", "/measure".to_string()),
    ];
    let mut problems = Vec::new();
    for width in [360, 390] {
        w.client.set_window_size(width, 800).await?;
        for (name, path) in &pages {
            w.goto(path).await?;
            w.wait("main h1").await?;
            settle(w).await?;
            let overflow = w
                .client
                .execute(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
                    vec![],
                )
                .await?
                .as_i64()
                .unwrap_or(1);
            if overflow > 0 {
                let culprits = w.client.execute(WIDER_THAN_THE_SCREEN, vec![]).await?;
                problems.push(format!(
                    "{name} at {width} px scrolls sideways by {overflow} px: {}",
                    culprits.as_str().unwrap_or("?")
                ));
            }
            if *name == "leaderboard" {
                for column in ["Median MB/s", "n"] {
                    let right = w
                        .client
                        .execute(
                            "const th = [...document.querySelectorAll('table.leaderboard thead th')]
                                 .find(t => t.textContent.trim() === arguments[0]);
                             return th ? th.getBoundingClientRect().right - document.documentElement.clientWidth : null;",
                            vec![column.into()],
                        )
                        .await?;
                    match right.as_f64() {
                        Some(past) if past <= 0.0 => {}
                        Some(past) => problems.push(format!(
                            "leaderboard at {width} px: {column:?} is {past:.0} px off screen"
                        )),
                        None => problems.push(format!("leaderboard at {width} px: no {column:?} column")),
                    }
                }
            }
            w.shot(&format!("phone-{width}-{name}")).await?;
        }
    }
    ensure!(problems.is_empty(), "on a phone:\n  {}", problems.join("\n  "));
    Ok(())
}

/// The outermost elements reaching past the screen's right edge (not those inside a box
/// that scrolls by itself, as a table's wrapper does), with how far: what to fix.
const WIDER_THAN_THE_SCREEN: &str = r#"
    const vw = document.documentElement.clientWidth;
    const past = e => e.getBoundingClientRect().right - vw > 0.5;
    const scrolls = e => { for (let a = e.parentElement; a; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return true; } return false; };
    const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
        (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
    return [...document.querySelectorAll('body *')]
        .filter(e => past(e) && !scrolls(e) && !(e.parentElement && past(e.parentElement)))
        .slice(0, 6)
        .map(e => name(e) + ' +' + Math.round(e.getBoundingClientRect().right - vw) + ' px')
        .join(', ');
"#;

/// Waits (at most 10 s) until no loading placeholder is left on the page.
async fn settle(w: &World) -> Result<()> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        let loading =
            w.client.execute("return document.querySelectorAll('main .loading').length", vec![]).await?;
        if loading.as_i64() == Some(0) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}
