//! The effects page (`/effects`): the seeds' random against 0-fill story, a row's drives,
//! the field picker as the URL, and the page on a phone.

use crate::world::{report_download, World};
use anyhow::{ensure, Result};
use fantoccini::Locator;

/// The data pattern's effects list the SEQ 1MiB write (random → zero-fill) with "too few
/// results" (the seeds hold one result a side), each row with its interval mark; its
/// drives link opens the drives behind it, the WILDFIRE among them; the picker changes
/// the field in the URL; on a phone the table scrolls inside its frame.
pub async fn the_effects_of_a_field_and_the_drives_behind_one(w: &World) -> Result<()> {
    w.goto("/effects?factor=data_pattern").await?;
    w.wait("table.effects tbody tr").await?;
    report_download(w, "effects", true).await?;
    let rows = w.client.find_all(Locator::Css("table.effects tbody tr")).await?;
    let mut write_row = None;
    for row in rows {
        let text = row.text().await?;
        ensure!(text.contains("random → zero-fill"), "a data pattern row: {text}");
        ensure!(row.find(Locator::Css("svg.interval-mark circle")).await.is_ok(), "an interval mark: {text}");
        if text.contains("cdm-native SEQ 1MiB Q1T1 write") {
            ensure!(text.contains("too few results"), "one result a side claims nothing: {text}");
            write_row = Some(row);
        }
    }
    let write_row = write_row.ok_or_else(|| anyhow::anyhow!("no SEQ 1MiB write row"))?;
    w.shot("effects").await?;

    write_row.find(Locator::Css("td.num a")).await?.click().await?;
    w.wait_xpath("//table[contains(@class,'effects')]//a[contains(., 'WILDFIRE')]").await?;
    let url = w.url().await;
    ensure!(url.contains("test=cdm-native%20SEQ%201MiB%20Q1T1%20write"), "a permalink of the effect: {url}");
    let text = w.body_text().await?;
    ensure!(
        text.contains("Patriot WILDFIRE 120 GB") && text.contains("×2.19"),
        "the WILDFIRE's 0-fill write: {text}"
    );
    w.shot("effects-drives").await?;

    // The picker: every field, in the URL.
    w.goto("/effects?factor=data_pattern").await?;
    let select = w.wait("select[name=factor]").await?;
    select.select_by_value("").await?;
    w.wait_xpath("//h2[.='Data pattern']").await?;
    ensure!(!w.url().await.contains("factor="), "every field: {}", w.url().await);

    // On a phone: the page fits, the table scrolls in its frame.
    w.client.set_window_size(390, 844).await?;
    w.goto("/effects?factor=data_pattern").await?;
    w.wait("table.effects tbody tr").await?;
    let overflow = w
        .client
        .execute("return document.documentElement.scrollWidth - document.documentElement.clientWidth", vec![])
        .await?;
    ensure!(overflow.as_i64() == Some(0), "the page is wider than a phone by {overflow}px");
    w.shot("effects-phone").await?;
    Ok(())
}
