//! The other pages: home and its search, a catalogue drive's page (rated vs measured,
//! embeds, link preview, oEmbed), a controller's, a platform's, the proposal form for a
//! new drive, the observations table, and the not-found page.

use crate::world::{rated_table, report_download, World};
use anyhow::{ensure, Context, Result};
use fantoccini::Locator;
use serde_json::json;

pub async fn the_other_pages(w: &World) -> Result<()> {
    w.goto("/").await?;
    w.wait("table tbody tr").await?;
    report_download(w, "home", true).await?;
    let home = w.body_text().await?;
    ensure!(home.contains("C300 vs M2S vs SF-2281"), "the classic comparisons are one click away");
    // The server's drive search, as you type: a part number finds its drive.
    w.wait("input[type=search]").await?.send_keys("PX-128M2S").await?;
    let hit = w.wait(".matches a").await?.text().await?;
    ensure!(hit == "Plextor PX-M2S 128 GB", "search by part number: {hit}");
    w.shot("home").await?;
    // The keyboard opens the marked match's page: ArrowDown, then Enter.
    let key = |k: fantoccini::key::Key| char::from(k).to_string();
    let search = w.client.find(Locator::Css("input[type=search]")).await?;
    search.send_keys(&key(fantoccini::key::Key::Down)).await?;
    w.wait("#drive-match-0[aria-selected=true]").await?;
    search.send_keys(&key(fantoccini::key::Key::Enter)).await?;
    w.wait("#platforms").await?;
    let url = w.client.current_url().await?;
    ensure!(url.path() == "/drives/plextor-px-m2s-128gb", "Enter opens the marked drive: {url}");

    // The moderators' duplicates page lists what the identity rules join (or says there
    // is none) and asks for the admin token.
    w.goto("/admin/duplicates").await?;
    w.wait("#no-duplicates, .duplicate-group").await?;
    w.wait("input[type=password]").await?;

    // The API reference, served by SSDBase under its own policy: one request tried from
    // it answers.
    w.goto("/api/docs").await?;
    w.wait("#operations-health-health .opblock-summary").await?.click().await?;
    w.wait("#operations-health-health button.execute").await?.click().await?;
    let status = w
        .wait("#operations-health-health .live-responses-table tr.response .response-col_status")
        .await?
        .text()
        .await?;
    ensure!(status.trim().starts_with("200"), "GET /health tried from /api/docs: {status:?}");
    w.shot("api-docs").await?;

    w.goto("/drives/crucial-realssd-c300-64gb").await?;
    // Its charts lie below the first screen: each is drawn once scrolled to (or near).
    w.wait("canvas").await?;
    w.client.execute("document.querySelector('canvas').scrollIntoView();", vec![]).await?;
    w.wait("canvas[data-drawn-ms]").await?;
    w.wait("#platforms").await?;
    report_download(w, "drive", true).await?;
    let page = w.body_text().await?;
    ensure!(page.contains("Rated vs measured"), "{page}");
    // The rated vs measured table: the C300 64/128/256 GB write rows read rated 70 / 140 /
    // 215 MB/s beside the measured medians the charts (drawn from the same rows) show.
    let table = rated_table(w).await?;
    let write_chart = w
        .client
        .find(Locator::Css("canvas[aria-label^='Sequential write:']"))
        .await?
        .attr("aria-label")
        .await?
        .unwrap_or_default();
    for (cap, rated) in [(64, "70"), (128, "140"), (256, "215")] {
        let row = table
            .iter()
            .find(|r| r[0] == "Sequential write" && r[1].ends_with(&format!("C300 {cap} GB")))
            .with_context(|| format!("a C300 {cap} GB write row in {table:?}"))?;
        ensure!(row[2] == format!("{rated} MB/s"), "rated {rated} for {cap} GB: {row:?}");
        let measured = row[3].strip_suffix(" MB/s").with_context(|| format!("a measurement: {row:?}"))?;
        ensure!(
            write_chart.contains(&format!("{cap} GB rated {rated} measured {measured}")),
            "the chart shows the table's {measured} for {cap} GB: {write_chart}"
        );
        ensure!(row[5].parse::<usize>().is_ok_and(|n| n > 0), "n for {cap} GB: {row:?}");
        ensure!(row[6].ends_with(" %"), "the gap in percent: {row:?}");
    }
    ensure!(page.contains("Single drives only"), "the rule is stated under the table");
    ensure!(
        w.client.find(Locator::Css("table.rated td.num a[href^='/results?drive=']")).await.is_ok(),
        "measured values link to their results"
    );
    ensure!(
        page.contains("RAID 0 ×2") && page.contains("RAID 0 ×4"),
        "results grouped by platform incl. RAID"
    );
    w.shot("drive").await?;
    // Each rated-vs-measured chart can be embedded: the snippet points at the server's
    // rendering of that chart, which answers with an SVG that shows the drive's rows.
    let snippets = w.client.find_all(Locator::Css("details.embed textarea[data-snippet='HTML']")).await?;
    ensure!(!snippets.is_empty(), "the drive page offers its charts for embedding");
    // Read before leaving the page: the elements go with it.
    let last_snippet = snippets.last().expect("checked above").prop("value").await?.unwrap_or_default();
    let snippet = snippets[0].prop("value").await?.unwrap_or_default();
    let rated = "/api/v1/drives/crucial-realssd-c300-64gb/rated.svg?figure=";
    let src = snippet
        .split("src=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .with_context(|| format!("an image in the snippet {snippet}"))?;
    ensure!(src.contains(rated), "the snippet shows the server's rated chart: {snippet}");
    w.client.goto(src).await?;
    let text = w.client.execute("return document.documentElement.textContent;", vec![]).await?;
    let text = text.as_str().unwrap_or_default();
    ensure!(text.contains("64 GB") && text.contains("rated"), "the embedded rated chart: {text}");
    // The last snippet is the distribution chart's, of the test picked on the page.
    let snippet = last_snippet;
    let src =
        snippet.split("src=\"").nth(1).and_then(|s| s.split('"').next()).unwrap_or_default().to_string();
    ensure!(
        src.contains("/api/v1/drives/crucial-realssd-c300-64gb/distribution.svg?test="),
        "the distribution chart can be embedded too: {snippet}"
    );
    w.client.goto(&src).await?;
    let text = w.client.execute("return document.documentElement.textContent;", vec![]).await?;
    let text = text.as_str().unwrap_or_default();
    ensure!(text.contains("SEQ") && text.contains(" n="), "the embedded distribution chart: {text}");
    w.goto("/drives/crucial-realssd-c300-64gb").await?;
    w.wait("#platforms").await?;
    // The server put the page's link preview and oEmbed discovery into the head.
    let head = w
        .client
        .execute(
            r#"const m = (k) => (document.querySelector(`meta[property="${k}"], meta[name="${k}"]`) || {}).content;
               const o = document.querySelector('link[rel="alternate"][type="application/json+oembed"]');
               return {image: m('og:image'), card: m('twitter:card'), title: m('og:title'),
                       description: m('og:description'), oembed: o && o.href};"#,
            vec![],
        )
        .await?;
    let image = head["image"].as_str().unwrap_or_default();
    ensure!(
        image == format!("{}/api/v1/drives/crucial-realssd-c300-64gb/preview.png", w.base),
        "og:image in the drive page's head: {head}"
    );
    ensure!(head["card"] == "summary_large_image", "twitter:card: {head}");
    ensure!(head["description"].as_str().is_some_and(|d| d.contains("n=")), "key figures with n: {head}");
    let oembed = head["oembed"].as_str().with_context(|| format!("an oEmbed link in the head: {head}"))?;
    let answer =
        w.client.execute("return fetch(arguments[0]).then(r => r.json());", vec![json!(oembed)]).await?;
    ensure!(
        answer["type"] == "rich" && answer["html"].as_str().is_some_and(|h| h.contains("/embed/drives/")),
        "{answer}"
    );
    w.client.goto(image).await?;
    let size = w
        .client
        .execute("const i = document.images[0]; return [i.naturalWidth, i.naturalHeight];", vec![])
        .await?;
    ensure!(size == json!([1200, 630]), "the preview image is 1200 × 630: {size}");
    w.shot("drive-preview-image").await?;
    w.goto("/drives/crucial-realssd-c300-64gb").await?;
    w.wait("#platforms").await?;

    // Its controller's page: every drive on the Marvell 88SS9174, one click from comparing.
    w.client.find(Locator::XPath("//a[contains(., 'Every drive on the 88SS9174')]")).await?.click().await?;
    w.wait_xpath("//main//h1[contains(., 'Controller') and contains(., '88SS9174')]").await?;
    w.wait("main table tbody tr").await?;
    let controller = w.body_text().await?;
    for drive in ["RealSSD C300 64 GB", "PX-M2S 256 GB", "RealSSD C400 128 GB", "SSD 510 120 GB"] {
        ensure!(controller.contains(drive), "{drive} is on the 88SS9174 page: {controller}");
    }
    // Its rated vs measured table: every drive on the controller, a drive without a rating
    // shown as "not rated", never as zero.
    let table = rated_table(w).await?;
    for (drive, figure, rated) in [
        ("Crucial RealSSD C300 64 GB", "Sequential write", "70 MB/s"),
        ("Plextor PX-M2S 256 GB", "Sequential write", "300 MB/s"),
        // The 510's ratings are in no public source the seeds cite, so none is kept.
        ("Intel SSD 510 120 GB", "Sequential write", "not rated"),
        ("Crucial RealSSD C400 128 GB", "Sequential write", "not rated"),
    ] {
        ensure!(
            table.iter().any(|r| r[0] == figure && r[1] == drive && r[2] == rated),
            "{drive} {figure} rated {rated} on the controller page: {table:?}"
        );
    }
    // The PX-M2S 64 GB's rated write has no measurement in the seeds: said so, n = 0.
    ensure!(
        table.iter().any(|r| r[0] == "Sequential write"
            && r[1] == "Plextor PX-M2S 64 GB"
            && r[3] == "no measurement"
            && r[5] == "0"),
        "a rating without a measurement: {table:?}"
    );
    w.client.find(Locator::XPath("//a[contains(., 'measured drives side by side')]")).await?.click().await?;
    w.wait("canvas[data-drawn-ms]").await?;
    w.shot("controller-compare").await?;

    // A platform page: every drive measured on AMD SB850, one click from comparing there.
    w.goto("/platforms/SB850").await?;
    w.wait("main table tbody tr").await?;
    let platform = w.body_text().await?;
    for drive in ["RealSSD C300 256 GB", "PX-M2S 256 GB"] {
        ensure!(platform.contains(drive), "{drive} was measured on SB850: {platform}");
    }
    ensure!(!platform.contains("C300 64 GB"), "only drives measured on SB850 are listed: {platform}");
    w.shot("platform").await?;
    w.client.find(Locator::XPath("//a[contains(., 'catalogue drives on SB850')]")).await?.click().await?;
    w.wait("canvas[data-drawn-ms]").await?;
    ensure!(w.url().await.contains("chipset=SB850"), "the comparison keeps the platform: {}", w.url().await);

    // The catalogue's form factor where an article states it; a new drive's proposal form.
    w.goto("/drives/plextor-m5pro-256gb").await?;
    let facts = w.wait("dl.facts").await?.text().await?;
    ensure!(facts.contains("Form factor") && facts.contains("2.5\""), "the M5Pro is 2.5\": {facts}");
    w.goto("/controllers/88SS9174").await?;
    w.wait("main table tbody tr").await?;
    report_download(w, "controller", true).await?;
    w.goto("/propose").await?;
    w.wait("form.propose input[name=vendor]").await?;
    report_download(w, "propose a new drive", true).await?;
    ensure!(
        w.client.find(Locator::Css("input[name=vendor]")).await?.prop("value").await?.as_deref() == Some("")
    );

    // What the articles give only as bounds or approximations has its own table, with
    // its kind; what they do not state shows as unknown.
    w.goto("/drives/plextor-px-m2s-256gb").await?;
    w.wait("#observations").await?;
    let m2s = w.body_text().await?;
    for figure in ["≥ 300 MB/s", "≥ 420 MB/s", "≈ 300 MB/s", "read or write not stated", "pattern unknown"]
    {
        ensure!(m2s.contains(figure), "{figure:?} on the PX-256M2S page: {m2s}");
    }
    w.shot("drive-observations").await?;

    // An unknown page is the app's own not-found page; an unknown API path stays JSON.
    w.goto("/no/such/page").await?;
    ensure!(w.wait("main h1").await?.text().await? == "Page not found");

    // A page sent with its opening (the server's first paint): once the app has taken
    // over, one header, one main and one heading, the app's, shown.
    for path in
        ["/leaderboard", "/compare?drives=crucial-realssd-c300-128gb,plextor-px-m2s-128gb", "/results/1"]
    {
        let html = ureq::get(&format!("{}{path}", w.base)).call()?.body_mut().read_to_string()?;
        ensure!(html.contains("<div id=\"first-paint\""), "{path} is sent with its opening: {html}");
        w.goto(path).await?;
        // The leaderboard's table and the compare chart come with the page too: the app
        // shows its own in their place (one table, one chart).
        let counts = w
            .client
            .execute(
                "return ['header.top', 'main', 'main h1', '.taking-over', '.server-table table.leaderboard:not(.arrays):not(.cache)', \
                 '.chart', 'main picture'].map(s => document.querySelectorAll(s).length)",
                vec![],
            )
            .await?;
        let (table, chart) = match path {
            "/leaderboard" => (1, 0),
            "/results/1" => (0, counts[5].as_u64().unwrap_or(0)),
            _ => (0, 1),
        };
        ensure!(
            counts == serde_json::json!([1, 1, 1, 0, table, chart, 0]),
            "{path}: header, main, heading, hidden app, leaderboard table, chart, server's chart image: {counts}"
        );
    }
    Ok(())
}
