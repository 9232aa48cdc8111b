//! The site's Content Security Policy held on every page walked; and a page whose code
//! cannot be fetched says so.

use crate::world::World;
use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use std::path::Path;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// `ssdbase_csp_reports_total` of the server: the violations of its Content Security
/// Policy that Chromium reported (`report-uri`) since it started.
pub fn csp_reports(w: &World) -> Result<u64> {
    let text = ureq::get(format!("http://{}/metrics", w.metrics)).call()?.body_mut().read_to_string()?;
    let line = text
        .lines()
        .find(|l| l.starts_with("ssdbase_csp_reports_total "))
        .with_context(|| format!("no ssdbase_csp_reports_total in the metrics: {text}"))?;
    Ok(line["ssdbase_csp_reports_total ".len()..].trim().parse()?)
}

/// Every page walked above ran under the site's Content Security Policy (no inline
/// script, no inline style, only the site's own files) and Chromium reported no
/// violation; and it would have: a style attribute set on the page now is refused and
/// reported.
pub async fn no_page_broke_the_content_security_policy(w: &World) -> Result<()> {
    // Reports are sent after the violation, asynchronously.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = csp_reports(w)?;
    ensure!(
        before == 0,
        "Chromium reported {before} CSP violations on the pages walked (the server logged them)"
    );
    w.goto("/drives").await?;
    w.wait("main").await?;
    let applied = w
        .client
        .execute(
            "document.body.setAttribute('style', 'outline: 3px solid red');\
             return getComputedStyle(document.body).outlineStyle;",
            vec![],
        )
        .await?;
    ensure!(applied.as_str() != Some("solid"), "an inline style was applied: the CSP does not hold");
    let started = Instant::now();
    while csp_reports(w)? == 0 {
        ensure!(
            started.elapsed() < Duration::from_secs(15),
            "Chromium reported no violation of an inline style: the count of 0 above proves nothing"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    println!("e2e: no CSP violation on any page walked; a deliberate one was refused and reported");
    Ok(())
}

/// A copy of the built `site` (removed when dropped) without the submit page's own piece of the wasm, as if
/// it could not be fetched.
pub fn site_without_the_submit_page(site: &Path) -> Result<TempDir> {
    let copy = tempfile::Builder::new().prefix("ssdbase_e2e_site_copy_").tempdir()?;
    let mut removed = 0;
    for entry in std::fs::read_dir(site)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if name.starts_with("split___submit_route_view") {
            removed += 1;
        } else if path.is_file() {
            std::fs::copy(&path, copy.path().join(&name))?;
        }
    }
    ensure!(removed > 0, "the built site has a lazily loaded submit page in {}", site.display());
    Ok(copy)
}

/// The home page works; the submit page, whose code is missing, says that the page
/// stopped and offers to reload, instead of silently not reacting.
pub async fn a_page_whose_code_cannot_load_says_so(w: &World) -> Result<()> {
    w.goto("/").await?;
    w.wait("table tbody tr").await?;
    ensure!(w.client.find_all(Locator::Css(".crashed")).await?.is_empty(), "the home page works");
    w.client.find(Locator::Css("nav a[href='/submit']")).await?.click().await?;
    let banner = w.wait(".crashed").await?.text().await?;
    ensure!(banner.contains("Reload the page"), "{banner}");
    w.shot("submit-code-missing").await?;
    Ok(())
}
