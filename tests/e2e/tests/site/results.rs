//! The results pages: the submitted export found through a filtered permalink, its
//! result page, its tags corrected with the edit token, its upload; results whose drive
//! is unknown or ambiguous say so.

use crate::world::{cdm8, post_result, report_download, World};
use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use serde_json::json;

pub async fn find_it_in_the_results(w: &World, id: i64, token: &str) -> Result<()> {
    // A permalink with a filter, loaded directly (a deep link served by ssdbase).
    w.goto("/results?model=840%20EVO%20e2e").await?;
    let link = w.wait(&format!("a[href='/results/{id}']")).await?;
    let table = w.client.find(Locator::Css("table.results")).await?.text().await?;
    ensure!(table.contains("Samsung 840 EVO e2e 120 GB"), "{table}");
    ensure!(table.lines().filter(|l| l.contains('#')).count() == 1, "only the filtered result: {table}");
    w.shot("results-filtered").await?;

    link.click().await?;
    w.wait_xpath(&format!("//main//h1[contains(., 'Result #{id}')]")).await?;
    let body = w.body_text().await?;
    ensure!(
        body.contains("SEQ 1MiB Q8T1 read") && body.contains("534.4"),
        "the result page shows the numbers"
    );
    ensure!(body.contains("X370") && body.contains("SATA 6 Gb/s"), "and the tags");
    ensure!(
        body.contains("6.8.0-45-generic") && body.contains("lpm-max-performance"),
        "and the kernel version and link power management the form derived from bench::FIELDS sent: {body}"
    );
    ensure!(body.contains(&format!("/results/{id}")), "and its permalink");
    w.shot("result").await?;

    // Correcting the tags needs the edit token: a wrong one is refused, the right one works.
    w.client.find(Locator::Css("details.edit summary")).await?.click().await?;
    let token_input = w.client.find(Locator::Css("details.edit input[type=password]")).await?;
    token_input.send_keys("not-the-token").await?;
    w.client.find(Locator::XPath("//details[@class='edit']//button[@type='submit']")).await?.click().await?;
    let refused = w.wait("details.edit .error").await?.text().await?;
    ensure!(refused.contains("403") || refused.contains("401"), "a wrong token is refused: {refused}");
    token_input.clear().await?;
    token_input.send_keys(token).await?;
    w.client.execute(
        "const i = [...document.querySelectorAll('details.edit label')].find(l => l.textContent.startsWith('Firmware')).querySelector('input');
         i.value = 'EXT0BB6Q'; i.dispatchEvent(new Event('input', {bubbles: true}));",
        vec![],
    ).await?;
    w.client.find(Locator::XPath("//details[@class='edit']//button[@type='submit']")).await?.click().await?;
    let saved = w.wait("details.edit .ok").await?.text().await?;
    ensure!(saved.contains("Saved"), "{saved}");
    w.reload().await?;
    w.wait("main h1").await?;
    ensure!(w.body_text().await?.contains("EXT0BB6Q"), "the corrected firmware is stored");

    // The original upload, byte for byte, one click away.
    w.client.find(Locator::LinkText("the file as it was uploaded")).await?.click().await?;
    let original = w.client.find(Locator::Css("body")).await?.text().await?;
    ensure!(
        original.contains("CrystalDiskMark 8.0.1 x64") && original.contains("534.383"),
        "the upload: {original}"
    );

    // The unfiltered list, newest first, starts with it.
    w.goto("/results").await?;
    let first = w.wait("table.results tbody tr").await?.text().await?;
    report_download(w, "results", true).await?;
    ensure!(first.contains(&format!("#{id}")), "newest first: {first}");
    w.shot("results").await?;
    Ok(())
}

/// A result whose drive is not named, and one whose name matches two drives: their pages
/// say so, list the candidates, and open the tag editor to name the drive.
pub async fn results_without_a_drive_say_so(w: &World) -> Result<()> {
    let unknown =
        post_result(w, &cdm8("01__unknown_id20477005223__8.0.0_uwp_sata_ssd.txt")?, json!({})).await?;
    w.goto(&format!("/results/{unknown}")).await?;
    let notice = w.wait("#drive-notice").await?.text().await?;
    ensure!(notice.contains("Drive unknown") && notice.contains("edit token"), "{notice}");
    w.client.find(Locator::XPath("//*[@id='drive-notice']//button")).await?.click().await?;
    ensure!(
        w.client.find(Locator::Css("details#edit")).await?.attr("open").await?.is_some(),
        "the button opens the tag editor"
    );
    w.shot("result-drive-unknown").await?;

    // The name says the 128 GB M2S, the part number the 256 GB one.
    let ambiguous = post_result(
        w,
        &cdm8("02__unknown_id20477005223__8.0.0_uwp_nvme_sp512.txt")?,
        json!({"drive": {"vendor": "Plextor", "model": "PX-M2S", "capacity_gb": 128, "part_number": "PX-256M2S"}}),
    )
    .await?;
    w.goto(&format!("/results/{ambiguous}")).await?;
    let notice = w.wait("#drive-notice").await?.text().await?;
    ensure!(notice.contains("matches several drives"), "{notice}");
    for id in ["plextor-px-m2s-128gb", "plextor-px-m2s-256gb"] {
        w.client
            .find(Locator::Css(&format!("#drive-notice a[href='/drives/{id}']")))
            .await
            .with_context(|| format!("{id} is offered: {notice}"))?;
    }
    Ok(())
}
