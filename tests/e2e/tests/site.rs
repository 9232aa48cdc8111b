//! The site end to end: the Trunk-built `dist/` served by a real `ssdbase serve` on a
//! fresh SQLite file, driven in Debian's headless Chromium through chromedriver.
//!
//! `cargo xtask test` builds the site and the server first and sets `SSDBASE_SITE_DIR`
//! and `SSDBASE_BIN`; run alone, the test builds the server itself and expects a built
//! site in `dist/`. Screenshots of the main pages land in `target/e2e-screenshots/`.
//! The time from navigation to the first drawn compare chart is printed.

use anyhow::{bail, ensure, Context, Result};
use bench::analysis::summarize;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const C300: &str = "crucial-realssd-c300-128gb";
const M2S: &str = "plextor-px-m2s-128gb";
const WAIT: Duration = Duration::from_secs(30);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("tests/e2e is two levels down")
        .to_path_buf()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target"))
}

/// The shared corpus: `$SSDBASE_SHARED`, or a `shared/` beside an ancestor.
fn shared() -> PathBuf {
    if let Some(p) = std::env::var_os("SSDBASE_SHARED") {
        return PathBuf::from(p);
    }
    root()
        .ancestors()
        .map(|a| a.join("shared"))
        .find(|p| p.is_dir())
        .expect("the shared corpus (set SSDBASE_SHARED)")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Kills the child on drop, so a failing test leaves no server or driver behind.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for_port(port: u16, child: &mut Child, what: &str) -> Result<()> {
    let start = Instant::now();
    while start.elapsed() < WAIT {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        if let Some(status) = child.try_wait()? {
            bail!("{what} exited with {status} before listening");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bail!("{what} did not listen on port {port} within {WAIT:?}")
}

fn ssdbase_bin() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("SSDBASE_BIN") {
        return Ok(PathBuf::from(p));
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status =
        Command::new(cargo).args(["build", "--quiet", "-p", "ssdbase"]).current_dir(root()).status()?;
    ensure!(status.success(), "building ssdbase failed");
    Ok(target_dir().join("debug").join("ssdbase"))
}

struct World {
    base: String,
    /// The server's metrics listener (`--metrics-listen`), where the CSP violations
    /// Chromium reported are counted.
    metrics: SocketAddr,
    client: Client,
    shots: PathBuf,
    _server: Process,
    _driver: Process,
    tmp: PathBuf,
}

impl World {
    /// `ssdbase serve` on the site in `site`, a fresh database and Chromium; `name`
    /// tells this world's temporary files apart.
    async fn start(site: &Path, name: &str) -> Result<World> {
        let tmp = std::env::temp_dir().join(format!("ssdbase_e2e_{}_{name}", std::process::id()));
        std::fs::create_dir_all(&tmp)?;

        let port = free_port();
        let metrics: SocketAddr = format!("127.0.0.1:{}", free_port()).parse()?;
        let mut server = Command::new(ssdbase_bin()?)
            .arg("serve")
            .arg("--metrics-listen")
            .arg(metrics.to_string())
            .arg("--database-url")
            .arg(format!("sqlite://{}", tmp.join("e2e.db").display()))
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--site")
            .arg(site)
            .arg("--dump-dir")
            .arg(tmp.join("dumps"))
            // A moderator for the catalogue's proposals (the P2's rated figures).
            .env("SSDBASE_ADMIN_TOKEN", E2E_ADMIN)
            .stdout(Stdio::null())
            .spawn()
            .context("starting ssdbase serve")?;
        wait_for_port(port, &mut server, "ssdbase serve")?;
        let server = Process(server);

        let driver_port = free_port();
        let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let mut driver = Command::new(&chromedriver)
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {chromedriver} (apt-get install chromium-driver)"))?;
        wait_for_port(driver_port, &mut driver, "chromedriver")?;
        let driver = Process(driver);

        let profile = tmp.join("chromium-profile");
        let caps = json!({
            "goog:chromeOptions": {
                "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
                // Headless, as root, and quiet on a closed network (see shared/GUIDE.md).
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1200,1600",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        });
        let Value::Object(caps) = caps else { unreachable!() };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{driver_port}"))
            .await
            .context("opening a Chromium session")?;
        let shots = target_dir().join("e2e-screenshots");
        std::fs::create_dir_all(&shots)?;
        Ok(World {
            base: format!("http://127.0.0.1:{port}"),
            metrics,
            client,
            shots,
            _server: server,
            _driver: driver,
            tmp,
        })
    }

    async fn goto(&self, path: &str) -> Result<()> {
        self.client.goto(&format!("{}{path}", self.base)).await?;
        Ok(())
    }

    async fn wait(&self, css: &str) -> Result<fantoccini::elements::Element> {
        match self.client.wait().at_most(WAIT).for_element(Locator::Css(css)).await {
            Ok(el) => Ok(el),
            Err(e) => bail!("waiting for {css:?} on {}: {e}", self.url().await),
        }
    }

    /// Waits for the element at `xpath`: after a click inside the app, the new page
    /// appears only once its lazily loaded code has arrived, so a selector the old page
    /// also matches would not wait for it.
    async fn wait_xpath(&self, xpath: &str) -> Result<fantoccini::elements::Element> {
        match self.client.wait().at_most(WAIT).for_element(Locator::XPath(xpath)).await {
            Ok(el) => Ok(el),
            Err(e) => bail!("waiting for {xpath:?} on {}: {e}", self.url().await),
        }
    }

    async fn url(&self) -> String {
        self.client.current_url().await.map(|u| u.to_string()).unwrap_or_default()
    }

    async fn shot(&self, name: &str) -> Result<()> {
        let png = self.client.screenshot().await?;
        ensure!(png.starts_with(b"\x89PNG"), "a screenshot is a PNG");
        std::fs::write(self.shots.join(format!("{name}.png")), png)?;
        Ok(())
    }

    async fn body_text(&self) -> Result<String> {
        Ok(self.client.find(Locator::Css("main")).await?.text().await?)
    }

    /// The value of the form input named `name`.
    async fn input_value(&self, name: &str) -> Result<String> {
        let input = self.client.find(Locator::Css(&format!("input[name={name}]"))).await?;
        Ok(input.prop("value").await?.unwrap_or_default())
    }

    /// Empties the form inputs named in `names`, as deleting their text would (an input
    /// event each, which the page's form state follows).
    async fn clear_inputs(&self, names: &[&str]) -> Result<()> {
        self.client
            .execute(
                "for (const n of arguments[0]) {
                     const i = document.querySelector(`input[name=${n}]`); i.value = '';
                     i.dispatchEvent(new Event('input', {bubbles: true}));
                 }",
                vec![json!(names)],
            )
            .await?;
        Ok(())
    }
}

/// The seed figures the compare table must show for `drive` in the test named `name`:
/// per platform group and data pattern (the pools the server aggregates), median and
/// count over the seed results, computed here independently of the server.
fn seed_cells(drive: &str, name: &str) -> Vec<String> {
    let ds = bench::seeds::seed_dataset().unwrap();
    let mut pools: BTreeMap<(bench::PlatformGroup, Option<bench::DataPattern>), Vec<f64>> = BTreeMap::new();
    for r in ds.results.iter().filter(|r| r.tags.drive.sku.as_deref() == Some(drive)) {
        let pool = (bench::PlatformGroup::of(&r.tags), r.result.data_pattern);
        for (k, m) in r.result.keyed_metrics() {
            if k.short_name() == name {
                pools.entry(pool.clone()).or_default().extend(m.mbps);
            }
        }
    }
    assert!(!pools.is_empty(), "{drive} has {name} in the seeds");
    pools
        .values()
        .map(|v| {
            let s = summarize(v).unwrap();
            format!("{} MB/s n={}", charts::format_value(s.median), s.count)
        })
        .collect()
}

/// Bytes of wasm and JS the page loaded, compressed (on the wire) and not.
const TRANSFER_SIZES: &str = r#"
    const r = performance.getEntriesByType('resource').filter(e => /\.(wasm|js)$/.test(new URL(e.name).pathname));
    return {
        files: r.map(e => new URL(e.name).pathname + ' ' + e.encodedBodySize + '/' + e.decodedBodySize),
        wasm_js_encoded: r.reduce((a, e) => a + e.encodedBodySize, 0),
        wasm_js_decoded: r.reduce((a, e) => a + e.decodedBodySize, 0),
    };
"#;

/// The most wasm and JS a page may download when it opens, gzipped (KB = 1,024 bytes).
/// 350 until the site's Content Security Policy: charts then measure their text with the
/// canvas (plotters' own way sets a `style` attribute the policy refuses, and labels were
/// placed by the sizes of unstyled text), which the wasm splitter placed in two more
/// small chunks: submit page 349.9 -> 351.9 KB, compare 344.9 -> 347.2 KB, measured on
/// the same machine in one session. Issue 35 replaces this per-page assertion with
/// Lighthouse's metrics and a transfer budget, and merges the tiny chunks.
const PAGE_BUDGET_KB: f64 = 352.0;

/// Prints the gzipped wasm and JS the current page loaded since it was opened (the
/// heavier pages are lazily loaded pieces of the wasm, so each page's figure differs),
/// and fails when a page as opened (`on_open`) needs more than [`PAGE_BUDGET_KB`]. Code
/// fetched later, on the reader's action (the submit page's parsers), is printed with
/// its page but not held to the budget.
async fn report_download(w: &World, page: &str, on_open: bool) -> Result<()> {
    let sizes = w.client.execute(TRANSFER_SIZES, vec![]).await?;
    let files = sizes["files"].as_array().map_or(0, Vec::len);
    let kb = sizes["wasm_js_encoded"].as_f64().unwrap_or(0.0) / 1024.0;
    println!(
        "FIGURE site download, {page}: {kb:.1} KB gzipped ({:.1} KB uncompressed, {files} files)",
        sizes["wasm_js_decoded"].as_f64().unwrap_or(0.0) / 1024.0
    );
    ensure!(kb > 0.0, "{page}: no wasm or JS was loaded: {sizes}");
    ensure!(
        !on_open || kb <= PAGE_BUDGET_KB,
        "{page} downloads {kb:.1} KB of wasm and JS gzipped, over the {PAGE_BUDGET_KB} KB budget: {sizes}"
    );
    Ok(())
}

/// Counts the pixels of the first canvas that differ from its top-left pixel.
const CANVAS_INK: &str = r#"
    const c = document.querySelector('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) {
        if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) ink++;
    }
    return [ink, c.width * c.height];
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_in_a_real_browser() -> Result<()> {
    let site = std::env::var_os("SSDBASE_SITE_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("dist"));
    ensure!(
        site.join("index.html").is_file(),
        "no built site in {} (cargo xtask test builds it with trunk)",
        site.display()
    );
    let w = World::start(&site, "site").await?;
    let outcome = run(&w).await;
    finish(w, outcome, "failure").await?;

    // After the walk above, not beside it, so that a second browser does not slow the
    // figures it prints.
    let broken = site_without_the_submit_page(&site)?;
    let w = World::start(&broken, "broken").await?;
    let outcome = a_page_whose_code_cannot_load_says_so(&w).await;
    finish(w, outcome, "failure-broken-site").await?;
    std::fs::remove_dir_all(broken)?;
    Ok(())
}

/// Ends a world's browser and server, with a screenshot named `shot` when it failed.
async fn finish(w: World, outcome: Result<()>, shot: &str) -> Result<()> {
    if outcome.is_err() {
        let _ = w.shot(shot).await;
    }
    let tmp = w.tmp.clone();
    w.client.clone().close().await.ok();
    drop(w);
    let _ = std::fs::remove_dir_all(tmp);
    outcome
}

/// A copy of the built `site` without the submit page's own piece of the wasm, as if
/// it could not be fetched.
fn site_without_the_submit_page(site: &Path) -> Result<PathBuf> {
    let copy = std::env::temp_dir().join(format!("ssdbase_e2e_{}_site_copy", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy)?;
    let mut removed = 0;
    for entry in std::fs::read_dir(site)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if name.starts_with("split___submit_route_view") {
            removed += 1;
        } else if path.is_file() {
            std::fs::copy(&path, copy.join(&name))?;
        }
    }
    ensure!(removed > 0, "the built site has a lazily loaded submit page in {}", site.display());
    Ok(copy)
}

/// The home page works; the submit page, whose code is missing, says that the page
/// stopped and offers to reload, instead of silently not reacting.
async fn a_page_whose_code_cannot_load_says_so(w: &World) -> Result<()> {
    w.goto("/").await?;
    w.wait("table tbody tr").await?;
    ensure!(w.client.find_all(Locator::Css(".crashed")).await?.is_empty(), "the home page works");
    w.client.find(Locator::Css("nav a[href='/submit']")).await?.click().await?;
    let banner = w.wait(".crashed").await?.text().await?;
    ensure!(banner.contains("Reload the page"), "{banner}");
    w.shot("submit-code-missing").await?;
    Ok(())
}

async fn run(w: &World) -> Result<()> {
    compare_draws_the_chart_and_the_seed_figures(w).await?;
    let (id, token) = submit_a_crystaldiskmark_export(w).await?;
    find_it_in_the_results(w, id, &token).await?;
    a_drive_the_catalogue_lacks(w).await?;
    the_drives_index_and_a_leaderboard(w).await?;
    results_without_a_drive_say_so(w).await?;
    publish_a_screenshot(w).await?;
    publish_a_desktop_capture(w).await?;
    a_drive_measured_with_ssdbase_bench(w).await?;
    the_other_pages(w).await?;
    no_page_broke_the_content_security_policy(w).await?;
    Ok(())
}

/// `ssdbase_csp_reports_total` of the server: the violations of its Content Security
/// Policy that Chromium reported (`report-uri`) since it started.
fn csp_reports(w: &World) -> Result<u64> {
    let mut stream = TcpStream::connect(w.metrics)?;
    stream.write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")?;
    let mut text = String::new();
    stream.read_to_string(&mut text)?;
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
async fn no_page_broke_the_content_security_policy(w: &World) -> Result<()> {
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

/// The README's one command for the runner, as a person runs it: `ssdbase bench DIR
/// --submit URL` measures a directory of this machine with fio and sends the result;
/// its page says it was measured with ssdbase bench, with the facts found and how, and
/// the fio jobs; its drive's page lists it.
async fn a_drive_measured_with_ssdbase_bench(w: &World) -> Result<()> {
    let dir = w.tmp.join("bench-target");
    std::fs::create_dir_all(&dir)?;
    let out = Command::new(ssdbase_bin()?)
        .arg("bench")
        .arg(&dir)
        .args(["--size", "16MiB", "--passes", "1", "--time", "1", "--interval", "0"])
        .args(["--tag", "vendor=SSDBase", "--tag", "model=E2E Bench Disk", "--tag", "capacity_gb=16"])
        .args(["--submit", &w.base])
        .output()
        .context("running ssdbase bench")?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(out.status.success(), "ssdbase bench failed: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let result_page = stdout
        .lines()
        .find_map(|l| {
            l.strip_prefix("Stored as result ")
                .and_then(|l| l.split_once(": "))
                .map(|(_, url)| url.to_string())
        })
        .with_context(|| format!("no result page in: {stdout}"))?;
    let drive_page = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Its drive's page: ").map(str::to_string))
        .with_context(|| format!("no drive page in: {stdout}"))?;
    w.client.goto(&result_page).await?;
    w.wait("#runner-facts").await?;
    let text = w.body_text().await?;
    for expected in
        ["Measured with ssdbase bench", "ssdbase bench 0.1.0", "/proc/self/mountinfo", "typed by hand"]
    {
        ensure!(text.contains(expected), "the result page lacks {expected:?}: {text}");
    }
    ensure!(
        w.client.find_all(Locator::Css("details.fio-job")).await?.len() >= 9,
        "a fio job per test, and the preparation"
    );
    w.shot("result-measured-with-ssdbase-bench").await?;
    w.client.goto(&drive_page).await?;
    w.wait_xpath("//*[contains(., 'ssdbase bench 0.1.0')]").await?;
    let text = w.body_text().await?;
    ensure!(text.contains("SSDBase E2E Bench"), "the drive page: {text}");
    Ok(())
}

async fn compare_draws_the_chart_and_the_seed_figures(w: &World) -> Result<()> {
    let started = Instant::now();
    w.goto(&format!("/compare?drives={C300},{M2S}")).await?;
    let canvas = w.wait("canvas[data-drawn-ms]").await?;
    let wall = started.elapsed();
    let drawn_ms: f64 = canvas.attr("data-drawn-ms").await?.unwrap_or_default().parse()?;
    println!(
        "time to first compare chart: {drawn_ms:.0} ms from navigation start (performance.now), {} ms wall clock including WebDriver",
        wall.as_millis()
    );
    let sizes = w.client.execute(TRANSFER_SIZES, vec![]).await?;
    println!("site download (as served by ssdbase, gzip): {sizes}");
    let wasm_js = sizes["wasm_js_encoded"].as_u64().unwrap_or(0);
    ensure!(wasm_js > 0, "the wasm and JS were loaded: {sizes}");
    println!(
        "FIGURE site wasm+js transferred: {:.1} KB gzipped ({:.1} KB uncompressed)",
        wasm_js as f64 / 1024.0,
        sizes["wasm_js_decoded"].as_f64().unwrap_or(0.0) / 1024.0
    );
    println!("FIGURE time to first compare chart: {drawn_ms:.0} ms");
    // The comparison is requested by the route while the page's code loads, and the page
    // then reads that answer instead of asking again.
    let requests = w
        .client
        .execute(
            "return performance.getEntriesByType('resource')
                 .filter(e => new URL(e.name).pathname === '/api/v1/compare')
                 .map(e => Math.round(e.startTime));",
            vec![],
        )
        .await?;
    println!("compare API requests started at (ms): {requests}");
    ensure!(requests.as_array().map(Vec::len) == Some(1), "one compare request, not {requests}");
    let ink = w.client.execute(CANVAS_INK, vec![]).await?;
    let (ink, total) = (ink[0].as_u64().unwrap_or(0), ink[1].as_u64().unwrap_or(1));
    println!("compare chart: {ink} of {total} canvas pixels drawn");
    ensure!(total > 10_000, "the canvas has a real size ({total} px)");
    ensure!(ink * 50 > total, "the chart's canvas is drawn, not blank ({ink} of {total} pixels)");

    let table = w.wait("table.compare").await?.text().await?;
    for (drive, test) in
        [(C300, "SEQ 1MiB Q1T1 read"), (M2S, "SEQ 1MiB Q1T1 read"), (C300, "SEQ 1MiB Q1T1 write")]
    {
        for cell in seed_cells(drive, test) {
            ensure!(table.contains(&cell), "the compare table shows {drive} {test} as {cell:?}:\n{table}");
        }
    }
    ensure!(
        table.contains("Crucial RealSSD C300 128 GB") && table.contains("Plextor PX-M2S 128 GB"),
        "{table}"
    );

    // Tapping a bar of the first drive (its colour, right of the legend's swatch) shows
    // the results behind it.
    let tapped = w.client.execute(TAP_FIRST_DRIVES_BAR, vec![]).await?;
    ensure!(tapped.as_bool() == Some(true), "a bar in the first drive's colour is on the canvas");
    let detail = w.client.find(Locator::Css(".detail")).await?.text().await?;
    ensure!(
        detail.contains("Crucial RealSSD C300 128 GB") && detail.contains("From results #"),
        "tapping a bar shows its results: {detail}"
    );
    w.shot("compare").await?;

    // The keyboard reaches the same details: the chart takes focus, the arrow keys step
    // from bar to bar.
    let canvas = w.client.find(Locator::Css("canvas[data-drawn-ms]")).await?;
    ensure!(canvas.attr("tabindex").await?.as_deref() == Some("0"), "the chart is focusable");
    let mut seen = Vec::new();
    for _ in 0..2 {
        canvas.send_keys(&char::from(Key::Right).to_string()).await?;
        let detail = w.client.find(Locator::Css(".detail")).await?.text().await?;
        ensure!(detail.contains("From results #"), "an arrow key picks a bar: {detail}");
        seen.push(detail);
    }
    ensure!(seen[0] != seen[1], "the second arrow key moves to another bar: {seen:?}");

    // The comparison as data: the CSV link asks the API for the same drives as CSV.
    let csv = w
        .client
        .find(Locator::Css("a[download='compare.csv']"))
        .await?
        .attr("href")
        .await?
        .unwrap_or_default();
    ensure!(csv == format!("/api/v1/compare?drives={C300},{M2S}&format=csv"), "the CSV link: {csv}");

    report_download(w, "compare", true).await?;

    // Embedding: the snippets point at the server's rendering of this very chart.
    w.client.find(Locator::Css("details.embed summary")).await?.click().await?;
    let snippet_of = |name: &'static str| async move {
        let css = format!("details.embed textarea[data-snippet='{name}']");
        let el = w.client.find(Locator::Css(&css)).await.with_context(|| format!("the {name} snippet"))?;
        anyhow::Ok(el.prop("value").await?.unwrap_or_default())
    };
    let snippet = snippet_of("HTML").await?;
    let svg_path = format!("/api/v1/compare/chart.svg?drives={C300},{M2S}");
    ensure!(snippet.contains(&svg_path) && snippet.contains("<img "), "the embed snippet: {snippet}");
    let page_url = format!("{}/compare?drives={C300},{M2S}", w.base);
    let png_url = format!("{}/api/v1/compare/chart.png?drives={C300},{M2S}", w.base);
    let markdown = snippet_of("Markdown").await?;
    ensure!(
        markdown.starts_with("[![") && markdown.ends_with(&format!("]({png_url})]({page_url})")),
        "the Markdown snippet: {markdown}"
    );
    let bbcode = snippet_of("BBCode").await?;
    ensure!(bbcode == format!("[url={page_url}][img]{png_url}[/img][/url]"), "the BBCode snippet: {bbcode}");
    ensure!(snippet_of("Image URL").await? == png_url, "the image URL snippet");
    let iframe = snippet_of("iframe").await?;
    let frame_src = format!("{}/embed/compare?drives={C300},{M2S}", w.base);
    ensure!(iframe.starts_with(&format!("<iframe src=\"{frame_src}\"")), "the iframe snippet: {iframe}");
    let data: Vec<String> = {
        let mut hrefs = Vec::new();
        for a in w.client.find_all(Locator::Css("details.embed p a")).await? {
            hrefs.push(a.attr("href").await?.unwrap_or_default());
        }
        hrefs
    };
    ensure!(
        data.iter().any(|h| h.ends_with(&format!("/compare?drives={C300},{M2S}&format=csv")))
            && data.iter().any(|h| h.ends_with(&format!("/compare?drives={C300},{M2S}&format=json"))),
        "the embed panel links the data behind the chart: {data:?}"
    );
    w.shot("compare-embed-panel").await?;
    // The iframe's page: the chart, a link back, no script.
    w.client.goto(&frame_src).await?;
    let scripts = w.client.find_all(Locator::Css("script")).await?.len();
    let img = w.wait("img").await?.attr("src").await?.unwrap_or_default();
    ensure!(scripts == 0 && img.contains("/api/v1/compare/chart.svg?drives="), "the embed page: {img}");
    let back = w.client.find(Locator::Css("a")).await?.attr("href").await?.unwrap_or_default();
    ensure!(back.ends_with(&format!("/compare?drives={C300}%2C{M2S}")), "the embed page links back: {back}");
    w.shot("compare-embed-page").await?;
    w.goto(&svg_path).await?;
    let root = w.client.execute("return document.documentElement.tagName;", vec![]).await?;
    ensure!(root.as_str() == Some("svg"), "the embed URL is an SVG document ({root})");
    let text = w.client.execute("return document.documentElement.textContent;", vec![]).await?;
    let text = text.as_str().unwrap_or_default();
    for cell in seed_cells(C300, "SEQ 1MiB Q1T1 read") {
        // The bars carry "median n=count", as on the page's canvas.
        let bar = cell.replace(" MB/s", "");
        ensure!(text.contains(&bar), "the embedded chart shows the C300's {bar}: {text}");
    }
    w.shot("compare-embed").await?;

    // Phone width: the page still draws and nothing overflows the viewport.
    w.client.set_window_size(390, 844).await?;
    w.goto(&format!("/compare?drives={C300},{M2S},patriot-wildfire-120gb")).await?;
    w.wait("canvas[data-drawn-ms]").await?;
    // Rated vs measured for every compared drive, per platform group and data pattern.
    let table = rated_table(w).await?;
    for drive in ["Crucial RealSSD C300 128 GB", "Plextor PX-M2S 128 GB", "Patriot WILDFIRE 120 GB"] {
        ensure!(table.iter().any(|r| r[1] == drive), "{drive} in the compare page's rated table: {table:?}");
    }
    ensure!(
        table.iter().all(|r| r.len() == 11 && r[3] != "0 MB/s" && r[4] != "0 MB/s"),
        "every row has a pool column, no zero stands in for a missing number: {table:?}"
    );
    let overflow =
        w.client.execute("return document.documentElement.scrollWidth - window.innerWidth;", vec![]).await?;
    ensure!(overflow.as_i64().unwrap_or(1) <= 0, "the page fits a 390 px wide phone (overflow {overflow})");
    ensure!(w.body_text().await?.contains("missing"), "the table shows tests a drive lacks as missing");
    w.shot("compare-phone").await?;
    w.client.set_window_size(1200, 1600).await?;

    // The classic comparisons of the source articles, as the site draws them (kept among
    // the screenshots): C300 vs M2S vs SF-2281 across platforms; WILDFIRE random vs 0-fill
    // on Z68 vs SB950 beside the two Marvell drives; RAID 0 scaling of the 64 GB C300 on
    // ICH10R (single, x2, x4); and the C300 family's writes on one platform.
    for (name, query) in [
        ("classic-c300-m2s-sf2281", "drives=crucial-realssd-c300-256gb,plextor-px-m2s-256gb,patriot-wildfire-120gb"),
        ("classic-wildfire-z68-sb950", "drives=patriot-wildfire-120gb,crucial-realssd-c400-128gb,intel-ssd-510-120gb"),
        ("classic-raid0-scaling", "drives=crucial-realssd-c300-64gb,plextor-px-m2s-128gb&platforms=Intel%20ICH10R"),
        ("classic-c300-capacities", "drives=crucial-realssd-c300-64gb,crucial-realssd-c300-128gb,crucial-realssd-c300-256gb&tests=SEQ%201MiB%20Q1T1%20write"),
    ] {
        w.goto(&format!("/compare?{query}")).await?;
        w.wait("canvas[data-drawn-ms]").await?;
        let ink = w.client.execute(CANVAS_INK, vec![]).await?;
        ensure!(ink[0].as_u64().unwrap_or(0) * 50 > ink[1].as_u64().unwrap_or(1), "{name} is drawn");
        w.shot(name).await?;
    }
    Ok(())
}

/// Clicks the middle of the first bar drawn in the first drive's colour (the light
/// theme's first series colour), right of the legend; true when there was one.
const TAP_FIRST_DRIVES_BAR: &str = r#"
    const c = document.querySelector('canvas[data-drawn-ms]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const near = (i) => Math.abs(d[i] - 0) < 3 && Math.abs(d[i + 1] - 114) < 3 && Math.abs(d[i + 2] - 178) < 3;
    for (let y = 0; y < c.height; y++) {
        for (let x = Math.floor(c.width / 5); x < c.width; x++) {
            if (near((y * c.width + x) * 4)) {
                const r = c.getBoundingClientRect();
                const cx = r.left + (x + 3) * r.width / c.width, cy = r.top + (y + 4) * r.height / c.height;
                c.dispatchEvent(new MouseEvent('click', {clientX: cx, clientY: cy, bubbles: true}));
                return true;
            }
        }
    }
    return false;
"#;

/// The cells of the page's rated vs measured table, row by row (waits for it).
async fn rated_table(w: &World) -> Result<Vec<Vec<String>>> {
    w.wait("table.rated tbody tr").await?;
    let rows = w
        .client
        .execute(
            "return [...document.querySelectorAll('table.rated tbody tr')]\
               .map(tr => [...tr.children].map(c => c.textContent.trim()));",
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(rows)?)
}

async fn submit_a_crystaldiskmark_export(w: &World) -> Result<(i64, String)> {
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

/// Hand-checked values of a screenshot: `(row label, column, value)`.
type Labels = Vec<(String, String, f64)>;

/// The screenshot this test reads, and its hand-checked values from LABELS.json.
fn labelled_screenshot() -> Result<(PathBuf, Labels)> {
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

/// The result number in the submit page's answer ("Stored as result #12 …").
fn stored_result_id(answer: &str) -> Result<i64> {
    answer
        .split("result #")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("a result number in {answer:?}"))
}

/// Chooses `image` on the submit page and waits for its values table: the page shows the
/// queue position and progress first, and reading may take seconds on a busy machine.
/// `what` names the image in the errors.
async fn read_on_the_submit_page(w: &World, image: &Path, what: &str) -> Result<()> {
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
struct ShownValue {
    /// The row's test and column, e.g. `Read SEQ1M Q8T1 read`.
    name: String,
    value: String,
    /// Highlighted as one the reader was unsure of.
    flagged: bool,
}

/// The review table's value for each of `labels`, beside its labelled value; fails when
/// the table shows more or fewer values than are labelled, or lacks one.
async fn shown_values(w: &World, labels: &Labels) -> Result<Vec<(f64, ShownValue)>> {
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
async fn publish_a_screenshot(w: &World) -> Result<()> {
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
    let not_a_benchmark = w.tmp.join("not-a-benchmark.png");
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
async fn publish_a_desktop_capture(w: &World) -> Result<()> {
    use ocr::degrade::{self, Kind, Rng};
    let (file, labels) = labelled_screenshot()?;
    let name = file.file_name().and_then(|n| n.to_str()).context("file name")?.to_string();
    let original = degrade::decode_screenshot(&std::fs::read(&file)?)?;
    let made = degrade::degrade(&original, None, Kind::Desktop, &mut Rng::for_image(&name, Kind::Desktop));
    let (width, _) = image::ImageReader::new(std::io::Cursor::new(&made.bytes))
        .with_guessed_format()?
        .into_dimensions()?;
    ensure!(width >= 1280, "a whole desktop, not the window alone: {} ({width} px)", made.recipe);
    let capture = w.tmp.join(format!("desktop.{}", made.ext));
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
async fn image_width(w: &World, css: &str) -> Result<u64> {
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

async fn set_text(w: &World, text: &str) -> Result<()> {
    w.client
        .execute(
            "const t = document.querySelector('#result-text'); t.value = arguments[0];
             t.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![json!(text)],
        )
        .await?;
    Ok(())
}

async fn find_it_in_the_results(w: &World, id: i64, token: &str) -> Result<()> {
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
    w.client.refresh().await?;
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

/// A real CrystalDiskMark export of one of the corpus files, by name.
fn cdm8(name: &str) -> Result<String> {
    let file = shared().join("corpus/real/cdm8").join(name);
    std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))
}

/// Submits `text` with `tags` through the API from the page (as another visitor would),
/// answering the stored result's id.
/// The moderator's token of the server under test.
const E2E_ADMIN: &str = "e2e-admin-token-0123456789";

/// An API request from the page (same origin), with the admin token when `admin`; the
/// JSON answer.
async fn api_call(w: &World, method: &str, path: &str, body: Value, admin: bool) -> Result<Value> {
    let token = if admin { E2E_ADMIN } else { "" };
    let answer = w
        .client
        .execute_async(
            "const [method, path, body, token, done] = arguments;
             const headers = {'Content-Type': 'application/json'};
             if (token) headers['Authorization'] = 'Bearer ' + token;
             fetch('/api/v1' + path, {method, headers, body: method === 'GET' ? undefined : JSON.stringify(body)})
               .then(r => r.json()).then(done, e => done(String(e)));",
            vec![json!(method), json!(path), body, json!(token)],
        )
        .await?;
    Ok(answer)
}

async fn post_result(w: &World, text: &str, tags: Value) -> Result<i64> {
    let answer = w
        .client
        .execute_async(
            "const [text, tags, done] = arguments;
             fetch('/api/v1/results', {method: 'POST', headers: {'Content-Type': 'application/json'},
                   body: JSON.stringify({text, tags})})
               .then(r => r.json()).then(done, e => done(String(e)));",
            vec![json!(text), tags],
        )
        .await?;
    answer["id"].as_i64().with_context(|| format!("a stored result: {answer}"))
}

/// A drive the catalogue lacks (the Crucial P2, a real export): the submit page's drive
/// search fills the drive id; submitted with vendor, model and capacity it creates a
/// community drive, whose page says "not reviewed yet" with its result count and shows
/// what its results were tagged with, disagreements included; compare names it beside
/// the C300 256 GB; home's search finds it; the results list shows its key figures.
async fn a_drive_the_catalogue_lacks(w: &World) -> Result<()> {
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
async fn the_drives_index_and_a_leaderboard(w: &World) -> Result<()> {
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
const LEADERBOARD_TEST: &str = "cdm-native SEQ 1MiB Q1T1 read";

/// A result whose drive is not named, and one whose name matches two drives: their pages
/// say so, list the candidates, and open the tag editor to name the drive.
async fn results_without_a_drive_say_so(w: &World) -> Result<()> {
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

async fn the_other_pages(w: &World) -> Result<()> {
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

    w.goto("/drives/crucial-realssd-c300-64gb").await?;
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
    Ok(())
}
