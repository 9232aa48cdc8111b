//! The drive pages: a drive the catalogue lacks (named from its export, submitted,
//! proposed, reviewed by a moderator, compared, searched, listed), the drives index
//! sorted and filtered through the URL, and a test's leaderboard.

use crate::world::{api_call, cdm8, post_result, report_download, shared, World};
use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use serde_json::{json, Value};

/// A drive the catalogue lacks (the Crucial P2, a real export): the submit page's drive
/// search fills the drive id; submitted with vendor, model and capacity it creates a
/// community drive, whose page says "not reviewed yet" with its result count and shows
/// what its results were tagged with, disagreements included; compare names it beside
/// the C300 256 GB; home's search finds it; the results list shows its key figures.
pub async fn a_drive_the_catalogue_lacks(w: &World) -> Result<()> {
    const P2: &str = "crucial-p2-500gb";
    let file = shared().join(
        "corpus/real/cdm8/10__soerenmetje_CrystalDiskMark-Parser__8.0.2_x64_crucial_p2_x370_nvme_profile.txt",
    );
    w.goto("/submit").await?;
    w.wait("#result-text").await?;
    w.client.find(Locator::Css("input[type=file]")).await?.send_keys(&file.display().to_string()).await?;
    ensure!(w.wait("h3.understood").await?.text().await?.contains("CrystalDiskMark 8.0.2"));

    // The export's comment names its drive ("Crucial P2 2TB @ PCIe 3.0 x4"): the page
    // offers it, as the server would identify it, and fills the tags only when asked.
    let named = w.wait("#named-drive").await?.text().await?;
    ensure!(
        named.contains("Crucial P2 2TB @ PCIe 3.0 x4")
            && named.contains("Crucial P2 2000 GB")
            && named.contains("not in SSDBase yet"),
        "the drive the file names: {named}"
    );
    ensure!(w.input_value("vendor").await?.is_empty(), "nothing is filled before the person confirms");
    w.client.find(Locator::Css("#named-drive button")).await?.click().await?;
    for (field, value) in [("vendor", "Crucial"), ("model", "P2"), ("capacity_gb", "2000")] {
        let got = w.input_value(field).await?;
        ensure!(got == value, "Use this drive fills {field} with {value:?}, not {got:?}");
    }
    w.shot("submit-named-drive").await?;
    // This submitter's P2 is the 500 GB one: they correct what the file says (below).
    w.clear_inputs(&["vendor", "model", "capacity_gb"]).await?;

    // The search as you type: picking a drive found fills the drive id.
    w.client.find(Locator::Css("fieldset.tags input[type=search]")).await?.send_keys("RealSSD C300").await?;
    w.wait_xpath("//fieldset//ul[@class='matches']//button[contains(., '256 GB')]").await?.click().await?;
    let drive = w.client.find(Locator::Css("input[name=drive]")).await?;
    ensure!(
        drive.prop("value").await?.as_deref() == Some("crucial-realssd-c300-256gb"),
        "the pick fills the drive id: {:?}",
        drive.prop("value").await?
    );
    w.shot("submit-drive-search").await?;
    // The keyboard picks too: ArrowDown marks the first match, Enter takes it (and does
    // not send the form).
    w.clear_inputs(&["drive"]).await?;
    let key = |k: fantoccini::key::Key| char::from(k).to_string();
    let search = w.client.find(Locator::Css("fieldset.tags input[type=search]")).await?;
    search.send_keys(&key(fantoccini::key::Key::Down)).await?;
    w.wait("#drive-match-0[aria-selected=true]").await?;
    let marked = w.client.find(Locator::Css("#drive-match-0 button")).await?.text().await?;
    search.send_keys(&key(fantoccini::key::Key::Enter)).await?;
    let picked = w.input_value("drive").await?;
    ensure!(
        picked.starts_with("crucial-realssd-c300-")
            && marked.contains(&picked["crucial-realssd-c300-".len()..].replace("gb", " GB")),
        "Enter picks the marked match {marked:?}: {picked:?}"
    );
    ensure!(w.client.find(Locator::Css("#submit-answer")).await.is_err(), "Enter did not send the form");
    // This one is not in the catalogue: no id, its name instead.
    w.clear_inputs(&["drive"]).await?;
    w.client.find(Locator::Css("input[name=vendor]")).await?.send_keys("Crucial").await?;
    w.client.find(Locator::Css("input[name=model]")).await?.send_keys("P2").await?;
    w.client.find(Locator::Css("input[name=capacity_gb]")).await?.send_keys("500").await?;
    w.client.find(Locator::Css("input[name=controller]")).await?.send_keys("SM2263").await?;
    w.client.find(Locator::Css("#submit")).await?.click().await?;
    let answer = w.wait("#submit-answer").await?.text().await?;
    ensure!(answer.contains("Stored"), "the server stored it: {answer}");
    // A second submitter of the same drive says another controller.
    post_result(
        w,
        &cdm8("06__soerenmetje_CrystalDiskMark-Parser__8.0.1_x64_wd_blue_3d_comment.txt")?,
        json!({"drive": {"vendor": "Crucial", "model": "P2", "capacity_gb": 500}, "controller": {"model": "SM2263EN"}}),
    )
    .await?;

    w.goto(&format!("/drives/{P2}")).await?;
    let badge = w.wait("#not-reviewed").await?.text().await?;
    report_download(w, "community drive", true).await?;
    ensure!(badge.contains("Not reviewed yet") && badge.contains("n = 2 results"), "{badge}");
    ensure!(w.wait("#as-submitted").await?.text().await? == "As submitted, n=2");
    let page = w.body_text().await?;
    ensure!(page.contains("Crucial P2 500 GB"), "{page}");
    ensure!(page.contains("SM2263 (1), SM2263EN (1)"), "the disagreement is shown: {page}");
    w.shot("community-drive").await?;

    // The drives index lists it among the community drives, with its count.
    w.goto("/drives?reviewed=false").await?;
    let row = w.wait(&format!("table.index tr[data-drive='{P2}']")).await?.text().await?;
    ensure!(row.contains("not reviewed yet") && row.contains("Crucial") && row.contains("500 GB"), "{row}");
    let count =
        w.client.find(Locator::Css(&format!("tr[data-drive='{P2}'] a[href='/results?drive={P2}']"))).await?;
    ensure!(count.text().await? == "2", "its result count: {row}");

    // Someone proposes its rated figures through the drive page's form, which opens filled
    // with what the drive has; a figure sent without its source is refused at its
    // source's field; sent with it, the proposal waits for a moderator, who accepts it;
    // then the drive page shows rated vs measured, and the drive is reviewed.
    w.goto(&format!("/drives/{P2}")).await?;
    w.wait("#propose-link").await?;
    let source = "https://www.crucial.com/ssd/p2/CT500P2SSD8";
    w.client.find(Locator::Css("#propose-link")).await?.click().await?;
    w.wait("form.propose input[name='rated/seq_read_mbps']").await?;
    // Opened by its address, for the download it needs alone.
    w.goto(&format!("/drives/{P2}/propose")).await?;
    w.wait("form.propose input[name='rated/seq_read_mbps']").await?;
    report_download(w, "propose a change", true).await?;
    let value = |css: &'static str| async move {
        let el = w.client.find(Locator::Css(css)).await?;
        anyhow::Ok(el.prop("value").await?.unwrap_or_default())
    };
    ensure!(
        value("input[name=vendor]").await? == "Crucial" && value("input[name=capacity_gb]").await? == "500",
        "the form opens with what the drive has"
    );
    // On a phone the form is one column that fits the screen.
    w.client.set_window_size(390, 844).await?;
    let overflow =
        w.client.execute("return document.documentElement.scrollWidth - window.innerWidth;", vec![]).await?;
    ensure!(overflow.as_i64().unwrap_or(1) <= 0, "the form fits a 390 px wide phone (overflow {overflow})");
    w.shot("propose-phone").await?;
    w.client.set_window_size(1200, 1600).await?;
    let type_in = |name: &'static str, text: &'static str| async move {
        let css = format!("form.propose [name='{name}']");
        w.client.find(Locator::Css(&css)).await?.send_keys(text).await?;
        anyhow::Ok(())
    };
    type_in("rated/seq_read_mbps", "2300").await?;
    type_in("rated/seq_write_mbps", "940").await?;
    type_in("rated/seq_write_source", source).await?;
    type_in("comment", "the maker's product page").await?;
    w.client.find(Locator::Css("#propose")).await?.click().await?;
    let refusal = w
        .wait_xpath("//small[@id='p-rated-seq_read_source-problem' and contains(., 'needs its source')]")
        .await?
        .text()
        .await?;
    ensure!(refusal.contains("seq_read_mbps needs its source"), "refused at the source's field: {refusal}");
    ensure!(w.client.find(Locator::Css("#propose-answer")).await.is_err(), "nothing stored without a source");
    w.shot("propose-refused").await?;
    type_in("rated/seq_read_source", source).await?;
    w.client.find(Locator::Css("#propose")).await?.click().await?;
    let answer = w.wait("#propose-answer").await?;
    let text = answer.text().await?;
    ensure!(text.contains("waiting for a moderator"), "{text}");
    ensure!(
        w.client.find(Locator::Css("#p-rated-seq_read_source-problem")).await?.text().await?.is_empty(),
        "the refusal is gone once the source is given"
    );
    let link = answer.find(Locator::Css("a")).await?.attr("href").await?.unwrap_or_default();
    let id: i64 = link
        .rsplit('/')
        .next()
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("the proposal's link: {link}"))?;
    ensure!(text.contains(&format!("#{id}")), "the proposal's id is shown: {text}");
    w.shot("propose-sent").await?;
    let proposal = api_call(w, "GET", &format!("/proposals/{id}"), Value::Null, false).await?;
    ensure!(
        proposal["proposal"]["rated"]["seq_read_source"] == source
            && proposal["proposal"]["vendor"].is_null()
            && proposal["status"] == "open",
        "only what changed was proposed: {proposal}"
    );
    w.goto(&format!("/drives/{P2}")).await?;
    w.wait("#not-reviewed").await?;
    w.wait_xpath("//td[contains(., 'not rated')]").await?;
    let before = w.body_text().await?;
    ensure!(!before.contains("2300 MB/s"), "nothing changes before a moderator accepts: {before}");
    let accepted = api_call(w, "POST", &format!("/proposals/{id}/accept"), json!({}), true).await?;
    ensure!(accepted["status"] == "accepted", "{accepted}");
    w.goto(&format!("/drives/{P2}")).await?;
    let rated = w.wait_xpath("//table[.//td[contains(., '2300')]]").await?.text().await?;
    ensure!(rated.contains("2300") && rated.contains("Sequential read"), "rated vs measured: {rated}");
    ensure!(w.client.find(Locator::Css("#not-reviewed")).await.is_err(), "reviewed now");
    w.shot("community-drive-rated").await?;

    // Compare names both drives, in the picker and in the table.
    w.goto(&format!("/compare?drives={P2},crucial-realssd-c300-256gb")).await?;
    let table = w.wait("table.compare").await?.text().await?;
    let chips = w.client.find(Locator::Css("ul.chips")).await?.text().await?;
    for name in ["Crucial P2 500 GB", "Crucial RealSSD C300 256 GB"] {
        ensure!(table.contains(name) && chips.contains(name), "{name} named: {chips}\n{table}");
    }
    ensure!(!chips.contains(P2), "drives are named, not shown by id: {chips}");
    w.shot("compare-community").await?;

    // Home's search finds it, no longer marked as not reviewed (a moderator accepted its
    // ratings above).
    w.goto("/").await?;
    // Waited for: the app mounts after the document has loaded (a busy machine shows it).
    w.wait("input[type=search]").await?.send_keys("crucial p2").await?;
    let hit = w.wait(&format!(".matches a[href='/drives/{P2}']")).await?;
    ensure!(hit.text().await? == "Crucial P2 500 GB");
    let matches = w.client.find(Locator::Css(".matches")).await?.text().await?;
    ensure!(matches.contains("2 results") && !matches.contains("not reviewed yet"), "{matches}");

    // The results list shows each result's key figures with their tests.
    w.goto(&format!("/results?drive={P2}")).await?;
    w.wait("table.results tbody tr").await?;
    let rows = w.client.find(Locator::Css("table.results")).await?.text().await?;
    for figure in ["2293", "2011", "58.36", "220.5", "1MiB Q8T1", "RND 4KiB Q1T1 read"] {
        ensure!(rows.contains(figure), "the results list shows {figure}: {rows}");
    }
    w.shot("results-key-figures").await?;
    Ok(())
}

/// The drives index: every drive, reviewed and community, with its result count and key
/// figures (each with n and its test); sorted and filtered through the URL, back and
/// forward included. A leaderboard of a test the seeds have: one test, lines with n, the
/// thin lines left out and counted, shown when asked.
pub async fn the_drives_index_and_a_leaderboard(w: &World) -> Result<()> {
    const EVO: &str = "samsung-840-evo-e2e-120gb";
    w.goto("/drives").await?;
    w.wait("table.index tbody tr").await?;
    report_download(w, "drives index", true).await?;
    let count = w.client.find(Locator::Css("p.count")).await?.text().await?;
    ensure!(count.contains("1 not reviewed yet"), "the 840 EVO e2e is the one community drive: {count}");
    let c300 =
        w.client.find(Locator::Css("tr[data-drive='crucial-realssd-c300-64gb']")).await?.text().await?;
    ensure!(c300.contains("Crucial") && c300.contains("64 GB") && c300.contains("reviewed"), "{c300}");
    ensure!(
        c300.contains("n=") && c300.contains("cdm-native SEQ"),
        "key figures name n and their test: {c300}"
    );
    let evo = w.client.find(Locator::Css(&format!("tr[data-drive='{EVO}']"))).await?.text().await?;
    ensure!(evo.contains("not reviewed yet") && evo.contains("n=1"), "{evo}");
    let note = w.body_text().await?;
    ensure!(note.contains("may come from different tests"), "the page says figures may be different tests");
    w.shot("drives-index").await?;
    // On a phone the table scrolls in its wrapper; the page itself does not overflow.
    w.client.set_window_size(390, 844).await?;
    let overflow =
        w.client.execute("return document.documentElement.scrollWidth - window.innerWidth;", vec![]).await?;
    w.shot("drives-index-phone").await?;
    w.client.set_window_size(1200, 1600).await?;
    ensure!(
        overflow.as_i64().unwrap_or(1) <= 0,
        "the drives index fits a 390 px wide phone (overflow {overflow})"
    );

    // Sorted by result count (the column's link), then back to the name order.
    let first_row = || async {
        Ok::<_, anyhow::Error>(
            w.client
                .find(Locator::Css("table.index tbody tr"))
                .await?
                .attr("data-drive")
                .await?
                .unwrap_or_default(),
        )
    };
    let by_name = first_row().await?;
    w.client
        .find(Locator::XPath("//table[@class='index']//th[contains(., 'Results')]/a"))
        .await?
        .click()
        .await?;
    w.wait_xpath("//table[@class='index']//th[contains(., 'Results')][@aria-sort='descending']").await?;
    ensure!(w.url().await.ends_with("/drives?sort=results"), "{}", w.url().await);
    let counts: Vec<i64> = w
        .client
        .execute(
            "return [...document.querySelectorAll('table.index tbody tr td:nth-child(6)')].map(td => +td.textContent);",
            vec![],
        )
        .await?
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    ensure!(counts.len() > 10 && counts.windows(2).all(|c| c[0] >= c[1]), "most results first: {counts:?}");
    ensure!(first_row().await? != by_name, "another order");
    w.client.back().await?;
    w.wait_xpath("//table[@class='index']//th[contains(., 'Results')][@aria-sort='none']").await?;
    ensure!(w.url().await.ends_with("/drives"), "back: {}", w.url().await);
    w.client.forward().await?;
    w.wait_xpath("//table[@class='index']//th[contains(., 'Results')][@aria-sort='descending']").await?;

    // Filters: community drives only, then SATA drives only, each a permalink.
    // Folded while no filter is set.
    ensure!(w.client.find(Locator::Css("details.filters")).await?.attr("open").await?.is_none());
    w.client.find(Locator::Css("details.filters summary")).await?.click().await?;
    let form = w.client.find(Locator::Css("form.drive-filters")).await?;
    form.find(Locator::Css("select[name=reviewed]")).await?.select_by_value("false").await?;
    form.find(Locator::Css("button[type=submit]")).await?.click().await?;
    w.wait_xpath("//p[@class='count'][starts-with(., '1 drive:')]").await?;
    ensure!(w.url().await.ends_with("/drives?sort=results&reviewed=false"), "{}", w.url().await);
    w.client.find(Locator::Css(&format!("tr[data-drive='{EVO}']"))).await?;
    w.client.find(Locator::LinkText("Clear")).await?.click().await?;
    w.wait_xpath("//p[@class='count'][not(starts-with(., '1 drive:'))]").await?;
    ensure!(w.url().await.ends_with("/drives?sort=results"), "Clear keeps the order: {}", w.url().await);
    w.client.find(Locator::Css("details.filters summary")).await?.click().await?;
    let form = w.client.find(Locator::Css("form.drive-filters")).await?;
    form.find(Locator::Css("input[name=interface]")).await?.send_keys("sata").await?;
    form.find(Locator::Css("button[type=submit]")).await?.click().await?;
    w.wait_xpath("//p[@class='count'][contains(., ' 0 not reviewed yet')]").await?;
    ensure!(w.url().await.ends_with("/drives?sort=results&interface=sata"), "{}", w.url().await);
    let links: Vec<String> = w
        .client
        .execute(
            "return [...document.querySelectorAll('table.index tbody tr td:nth-child(5)')].map(td => td.textContent);",
            vec![],
        )
        .await?
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    ensure!(!links.is_empty() && links.iter().all(|l| l.starts_with("sata-")), "SATA drives only: {links:?}");
    w.shot("drives-index-sata").await?;

    // A key figure links to its test's leaderboard.
    w.goto("/drives").await?;
    let figure =
        w.wait("tr[data-drive='crucial-realssd-c300-64gb'] td.num a[href^='/leaderboard?test=']").await?;
    figure.click().await?;
    w.wait("table.leaderboard tbody tr").await?;
    ensure!(w.url().await.contains("/leaderboard?test=cdm-native%20SEQ"), "{}", w.url().await);

    // The leaderboard of a seed test, opened directly.
    w.goto(&format!("/leaderboard?test={}", LEADERBOARD_TEST.replace(' ', "%20"))).await?;
    w.wait("table.leaderboard tbody tr").await?;
    report_download(w, "leaderboard", true).await?;
    let board = w.client.find(Locator::Css("table.leaderboard")).await?.text().await?;
    ensure!(board.contains("Median MB/s") && board.contains("n=4"), "lines with n: {board}");
    let ranked = w.client.find_all(Locator::Css("table.leaderboard tbody tr")).await?.len();
    let left_out = w.wait("p.left-out").await?.text().await?;
    ensure!(left_out.contains("with fewer than 3 results left out"), "{left_out}");
    let selected = w.client.find(Locator::Css("select[name=test]")).await?.prop("value").await?;
    ensure!(selected.as_deref() == Some(LEADERBOARD_TEST), "the test chosen: {selected:?}");
    w.shot("leaderboard").await?;
    w.client.find(Locator::LinkText("Show them")).await?.click().await?;
    w.wait_xpath("//p[@class='left-out'][contains(., 'Every line shown')]").await?;
    ensure!(w.url().await.ends_with("&min_results=1"), "{}", w.url().await);
    let all = w.client.find_all(Locator::Css("table.leaderboard tbody tr")).await?.len();
    let thin = w.client.find_all(Locator::Css("table.leaderboard tbody tr.thin")).await?.len();
    ensure!(all > ranked && thin == all - ranked, "the thin lines appear, marked: {ranked} + {thin} = {all}");
    ensure!(w.body_text().await?.contains("few results"));
    w.shot("leaderboard-every-line").await?;

    // Without a test, the page picks the one with the most ranked lines into the URL; the
    // interface filter keeps SATA drives.
    w.goto("/leaderboard?interface=sata").await?;
    w.wait("table.leaderboard tbody tr").await?;
    ensure!(w.url().await.contains("interface=sata&test="), "{}", w.url().await);
    Ok(())
}

/// A seed test with lines of at least three results and thinner ones.
pub const LEADERBOARD_TEST: &str = "cdm-native SEQ 1MiB Q1T1 read";
