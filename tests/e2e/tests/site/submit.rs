//! The submit page: a CrystalDiskMark export pasted (broken, then whole) and chosen as a
//! file, tagged and stored once; a screenshot read, checked against its labels,
//! corrected and published; an image without a benchmark window refused; a whole
//! desktop capture read and published with a corrected setting.

use crate::world::{report_download, shared, stored_result_id, World, WAIT};
use anyhow::{bail, ensure, Context, Result};
use fantoccini::Locator;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub async fn submit_a_crystaldiskmark_export(w: &World) -> Result<(i64, String)> {
    let file = shared()
        .join("corpus/real/cdm8/07__soerenmetje_CrystalDiskMark-Parser__8.0.1_x64_samsung_840evo.txt");
    ensure!(file.is_file(), "{} exists", file.display());
    w.goto("/submit").await?;
    // First a broken paste: the browser-side parser names the line.
    w.wait("#result-text").await?;
    report_download(w, "submit page", true).await?;
    let mut broken = std::fs::read_to_string(&file)?;
    broken = broken.replacen("534.383 MB/s", "534.383 MB/s garbage [", 1);
    set_text(w, &broken).await?;
    let err = w.wait("#parse-error").await?.text().await;
    // Whether the damaged line is rejected or read, the page must say what it understood.
    match err {
        Ok(text) => ensure!(text.contains("Line"), "a parse error names its line: {text}"),
        Err(_) => bail!("no parse error shown"),
    }
    report_download(w, "submit page with the parsers (fetched with the first text)", false).await?;

    // The real file, chosen through the file input: read and decoded by bench in the browser.
    let input = w.client.find(Locator::Css("input[type=file]")).await?;
    input.send_keys(&file.display().to_string()).await?;
    let understood = w.wait("h3.understood").await?.text().await?;
    ensure!(understood.contains("CrystalDiskMark 8.0.1"), "the preview names the tool: {understood}");
    ensure!(understood.contains("8 tests"), "the preview counts the tests: {understood}");
    let preview = w.client.find(Locator::Css(".preview")).await?.text().await?;
    ensure!(preview.contains("534.4") && preview.contains("RND 4KiB Q32T1 write"), "{preview}");

    // The free-text tags suggest what the catalogue and earlier results use.
    w.wait("datalist#chipset-values option[value='ICH10R']").await?;
    let controllers = w.client.find_all(Locator::Css("datalist#controller-values option")).await?;
    ensure!(!controllers.is_empty(), "catalogue controllers are suggested");
    ensure!(
        w.client.find(Locator::Css("input[name=chipset]")).await?.attr("list").await?.as_deref()
            == Some("chipset-values"),
        "the chipset field offers the suggestions"
    );
    w.client.find(Locator::Css("input[name=vendor]")).await?.send_keys("Samsung").await?;
    w.client.find(Locator::Css("input[name=model]")).await?.send_keys("840 EVO e2e").await?;
    w.client.find(Locator::Css("input[name=capacity_gb]")).await?.send_keys("120").await?;
    w.client.find(Locator::Css("input[name=chipset]")).await?.send_keys("X370").await?;
    w.client.find(Locator::Css("select[name=link]")).await?.select_by_value("sata-6").await?;
    w.client
        .find(Locator::Css("select[name=link_power]"))
        .await?
        .select_by_value("lpm-max-performance")
        .await?;
    w.client.find(Locator::Css("input[name=driver_version]")).await?.send_keys("6.8.0-45-generic").await?;
    w.client.find(Locator::Css("#submit")).await?.click().await?;
    let answer = w.wait("#submit-answer").await?.text().await?;
    w.shot("submit").await?;
    ensure!(answer.contains("Stored"), "the server stored it: {answer}");
    ensure!(answer.contains("Edit token"), "the edit token is shown once: {answer}");
    let token = w.client.find(Locator::Css("#submit-answer code")).await?.text().await?;
    ensure!(token.len() >= 16, "an edit token: {token:?}");
    let id = stored_result_id(&answer)?;

    // The same file again is recognised, not stored twice.
    w.client.find(Locator::Css("#submit")).await?.click().await?;
    let again = w.wait("#submit-answer").await?;
    w.client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::XPath("//*[@id='submit-answer'][contains(., 'Already here')]"))
        .await
        .with_context(|| "the duplicate is recognised".to_string())?;
    ensure!(again.text().await?.contains(&format!("#{id}")), "the duplicate points at the stored result");
    Ok((id, token))
}

pub async fn set_text(w: &World, text: &str) -> Result<()> {
    w.client
        .execute(
            "const t = document.querySelector('#result-text'); t.value = arguments[0];
             t.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![json!(text)],
        )
        .await?;
    Ok(())
}

/// Hand-checked values of a screenshot: `(row label, column, value)`.
pub type Labels = Vec<(String, String, f64)>;

/// The screenshot this test reads, and its hand-checked values from LABELS.json.
pub fn labelled_screenshot() -> Result<(PathBuf, Labels)> {
    const FILE: &str = "02__ame0011_blog-docusaurus__CrystalDiskMark_20230918123836_MX500.png";
    let dir = shared().join("corpus/screenshots");
    let labels: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("LABELS.json"))?)?;
    let image = labels["images"]
        .as_array()
        .and_then(|a| a.iter().find(|i| i["file"] == FILE))
        .with_context(|| format!("{FILE} in LABELS.json"))?;
    let mut values = Vec::new();
    for row in image["rows"].as_array().context("rows")? {
        for column in ["read", "write", "mix"] {
            if let Some(v) = row[column].as_f64() {
                values.push((row["label"].as_str().context("label")?.to_string(), column.to_string(), v));
            }
        }
    }
    Ok((dir.join(FILE), values))
}

/// Chooses `image` on the submit page and waits for its values table: the page shows the
/// queue position and progress first, and reading may take seconds on a busy machine.
/// `what` names the image in the errors.
pub async fn read_on_the_submit_page(w: &World, image: &Path, what: &str) -> Result<()> {
    w.goto("/submit").await?;
    w.wait("input[type=file]").await?.send_keys(&image.display().to_string()).await?;
    let table = match w
        .client
        .wait()
        .at_most(Duration::from_secs(120))
        .for_element(Locator::Css("#ocr-values, #ocr-error"))
        .await
    {
        Ok(el) => el,
        Err(e) => bail!("{what} was not read within 120 s ({e}): {}", w.body_text().await?),
    };
    ensure!(
        table.attr("id").await?.as_deref() == Some("ocr-values"),
        "{what} was read: {}",
        table.text().await?
    );
    Ok(())
}

/// One value of the review table as shown.
#[derive(Debug)]
pub struct ShownValue {
    /// The row's test and column, e.g. `Read SEQ1M Q8T1 read`.
    name: String,
    value: String,
    /// Highlighted as one the reader was unsure of.
    flagged: bool,
}

/// The review table's value for each of `labels`, beside its labelled value; fails when
/// the table shows more or fewer values than are labelled, or lacks one.
pub async fn shown_values(w: &World, labels: &Labels) -> Result<Vec<(f64, ShownValue)>> {
    let mut shown = Vec::new();
    for row in w.client.find_all(Locator::Css("#ocr-values tbody tr")).await? {
        let Ok(input) = row.find(Locator::Css("input.value")).await else { continue };
        let label = input.attr("data-label").await?.unwrap_or_default();
        let op = input.attr("data-op").await?.unwrap_or_default();
        let value = input.prop("value").await?.unwrap_or_default();
        let flagged = row.attr("class").await?.unwrap_or_default().split(' ').any(|c| c == "low");
        shown.push((label, op, value, flagged));
    }
    ensure!(
        shown.len() == labels.len(),
        "{} values shown, {} labelled: {shown:?}",
        shown.len(),
        labels.len()
    );
    let mut out = Vec::new();
    for (label, column, want) in labels {
        let at = shown
            .iter()
            .position(|(l, o, ..)| l.ends_with(&format!(" {label}")) && o == column)
            .with_context(|| format!("{label} {column} is in the table: {shown:?}"))?;
        let (l, o, value, flagged) = shown.swap_remove(at);
        out.push((*want, ShownValue { name: format!("{l} {o}"), value, flagged }));
    }
    Ok(out)
}

/// A CrystalDiskMark screenshot through the submit page: recognised on the server while
/// the page shows the job's state, the values checked against the hand-made labels, one
/// corrected, published, and the result page shows the image and the corrected mark.
pub async fn publish_a_screenshot(w: &World) -> Result<()> {
    let (file, labels) = labelled_screenshot()?;
    read_on_the_submit_page(w, &file, "the screenshot").await?;
    let width = image_width(w, ".shot img").await?;
    ensure!(width == 682, "the uploaded image is shown beside the values: {width} px wide");
    w.shot("submit-screenshot").await?;

    // Every labelled value is in the table, read exactly.
    for (want, got) in shown_values(w, &labels).await? {
        ensure!(
            got.value.parse::<f64>().ok() == Some(want),
            "{}: read {:?}, labelled {want}",
            got.name,
            got.value
        );
    }

    // Correct one value by hand, tag and publish.
    let (label, column, was) = &labels[0];
    let fixed = format!("{:.2}", was + 1.0);
    let first = w.client.find(Locator::Css("#ocr-values input.value")).await?;
    first.clear().await?;
    first.send_keys(&fixed).await?;
    w.client.find(Locator::Css("input[name=vendor]")).await?.send_keys("Crucial").await?;
    w.client.find(Locator::Css("input[name=model]")).await?.send_keys("MX500 e2e").await?;
    w.client.find(Locator::Css("#submit")).await?.click().await?;
    let answer = w.wait("#submit-answer").await?.text().await?;
    ensure!(answer.contains("Stored"), "the checked screenshot was published: {answer}");
    let id = stored_result_id(&answer)?;

    // Its page: the image as uploaded, and the one corrected value marked.
    w.goto(&format!("/results/{id}")).await?;
    let corrected = w.wait("td.corrected").await?.text().await?;
    report_download(w, "result", true).await?;
    ensure!(
        corrected.contains(&charts::format_value(was + 1.0)),
        "the corrected value is marked: {corrected}"
    );
    ensure!(
        w.client.find_all(Locator::Css("td.corrected")).await?.len() == 1,
        "only the corrected value ({label} {column}) is marked"
    );
    let note = w.wait("#ocr-note").await?.text().await?;
    ensure!(note.contains("1 value(s)"), "{note}");
    w.wait(".upload-shot img").await?;
    let width = image_width(w, ".upload-shot img").await?;
    ensure!(width == 682, "the result page shows the uploaded screenshot: {width} px wide");
    w.shot("result-screenshot").await?;

    // An image without a benchmark window (this site's own not-found page): the job
    // fails and the page says why, with nothing to publish.
    w.goto("/no/such/page").await?;
    w.wait("main h1").await?;
    let not_a_benchmark = w.tmp.path().join("not-a-benchmark.png");
    std::fs::write(&not_a_benchmark, w.client.screenshot().await?)?;
    w.goto("/submit").await?;
    w.wait("input[type=file]").await?.send_keys(&not_a_benchmark.display().to_string()).await?;
    let error =
        match w.client.wait().at_most(Duration::from_secs(120)).for_element(Locator::Css("#ocr-error")).await
        {
            Ok(el) => el.text().await?,
            Err(e) => bail!(
                "a screenshot without a benchmark window gave no error within 120 s ({e}): {}",
                w.body_text().await?
            ),
        };
    ensure!(error.contains("could not be read"), "the failure is said plainly: {error}");
    ensure!(
        w.client.find(Locator::Css("#submit")).await?.attr("disabled").await?.is_some(),
        "nothing to publish after a failed reading"
    );
    w.shot("submit-screenshot-failed").await?;
    Ok(())
}

/// A Print Screen of a whole desktop, as people post it: the labelled CrystalDiskMark
/// window somewhere on a wallpaper, made by the OCR bench's own generator
/// (`ocr::degrade`, kind `desktop`). The window is found and read; every value is either
/// exact or highlighted for checking; the settings bar is shown as read and editable; a
/// test count typed over the one read is published, and the result page marks it with
/// what the screenshot said.
pub async fn publish_a_desktop_capture(w: &World) -> Result<()> {
    use ocr::degrade::{self, Kind, Rng};
    let (file, labels) = labelled_screenshot()?;
    let name = file.file_name().and_then(|n| n.to_str()).context("file name")?.to_string();
    let original = degrade::decode_screenshot(&std::fs::read(&file)?)?;
    let made = degrade::degrade(&original, None, Kind::Desktop, &mut Rng::for_image(&name, Kind::Desktop));
    let (width, _) = image::ImageReader::new(std::io::Cursor::new(&made.bytes))
        .with_guessed_format()?
        .into_dimensions()?;
    ensure!(width >= 1280, "a whole desktop, not the window alone: {} ({width} px)", made.recipe);
    let capture = w.tmp.path().join(format!("desktop.{}", made.ext));
    std::fs::write(&capture, &made.bytes)?;

    read_on_the_submit_page(w, &capture, &format!("the window on the desktop ({})", made.recipe)).await?;
    w.shot("submit-desktop-capture").await?;

    // Every labelled value is shown; one the reader got wrong must be highlighted.
    let mut exact = 0;
    for (want, got) in shown_values(w, &labels).await? {
        if got.value.parse::<f64>().ok() == Some(want) {
            exact += 1;
        } else {
            ensure!(
                got.flagged,
                "{}: read {:?} (labelled {want}) without being highlighted",
                got.name,
                got.value
            );
        }
    }
    println!("e2e: desktop capture ({}): {exact}/{} values exact", made.recipe, labels.len());

    // The settings as read, editable; a corrected test count is published and recorded.
    let passes = w.wait("#ocr-setting-passes").await?;
    let read = passes.prop("value").await?.unwrap_or_default();
    let size = w.wait("#ocr-setting-test_size_bytes").await?.prop("value").await?.unwrap_or_default();
    ensure!(size == "1 GiB", "the test size is read from the settings bar: {size:?}");
    let typed = if read == "3" { "4" } else { "3" };
    passes.clear().await?;
    passes.send_keys(typed).await?;
    w.client.find(Locator::Css("input[name=vendor]")).await?.send_keys("Crucial").await?;
    w.client.find(Locator::Css("input[name=model]")).await?.send_keys("MX500 desktop e2e").await?;
    w.client.find(Locator::Css("#submit")).await?.click().await?;
    let answer = w.wait("#submit-answer").await?.text().await?;
    ensure!(answer.contains("Stored"), "the desktop capture was published: {answer}");
    let id = stored_result_id(&answer)?;
    w.goto(&format!("/results/{id}")).await?;
    let passes = w.wait_xpath("//dt[.='Passes']/following-sibling::dd[1]").await?.text().await?;
    ensure!(passes == typed, "the typed test count is published: {passes:?}");
    w.shot("result-desktop-capture").await?;
    // The correction is recorded with what was read (the API's provenance).
    w.goto(&format!("/api/v1/results/{id}")).await?;
    let stored: Value = serde_json::from_str(&w.client.find(Locator::Css("body")).await?.text().await?)?;
    let corrections = &stored["upload"]["ocr"]["settings_corrected"];
    let want = json!([{
        "field": "passes",
        "recognised": if read.is_empty() { Value::Null } else { json!(read) },
        "published": typed,
    }]);
    ensure!(corrections == &want, "the corrected test count is recorded: {corrections}, expected {want}");
    Ok(())
}

/// The natural width of the image at `css` once it has loaded (0: it failed to load).
pub async fn image_width(w: &World, css: &str) -> Result<u64> {
    let start = Instant::now();
    loop {
        let width: Value = w
            .client
            .execute(
                "const i = document.querySelector(arguments[0]); return i && i.complete ? i.naturalWidth : -1;",
                vec![json!(css)],
            )
            .await?;
        match width.as_i64() {
            Some(n) if n >= 0 => return Ok(n as u64),
            _ if start.elapsed() > WAIT => bail!("{css} did not load within {WAIT:?}"),
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}
