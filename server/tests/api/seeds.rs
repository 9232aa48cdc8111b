//! The demo data against the source articles (../shared/seeds), through the API: one test
//! per correction made when the seed files were read line by line against the articles
//! (000 and 003: the C300 vs M2S study in Japanese and English; 001: OCZ Vertex; 002:
//! WILDFIRE). Each checks what a visitor sees: the stored tags, the pools of the drive
//! page, and the observations.

use super::*;

const C300_256: &str = "crucial-realssd-c300-256gb";
const M2S_256: &str = "plextor-px-m2s-256gb";

/// Every visible result of one drive, as the browse API lists them.
async fn results_of(app: &TestApp, drive: &str) -> Vec<Value> {
    let r = app.get(&format!("/api/v1/results?drive={drive}&limit=500")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json()["results"].as_array().unwrap().clone()
}

/// The one result whose source names `needle` (a figure of the article).
fn by_source<'a>(results: &'a [Value], needle: &str) -> &'a Value {
    let hits: Vec<&Value> =
        results.iter().filter(|r| r["source"].as_str().unwrap_or("").contains(needle)).collect();
    assert_eq!(hits.len(), 1, "{needle}: {} results", hits.len());
    hits[0]
}

async fn drive_page(app: &TestApp, drive: &str) -> Value {
    let r = app.get(&format!("/api/v1/drives/{drive}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json()
}

/// The pool (platform group and data pattern) of every test cell holding `id`.
fn pools_of(page: &Value, id: &Value) -> Vec<(Value, Value, Vec<Value>)> {
    page["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["groups"].as_array().unwrap())
        .filter(|g| g["result_ids"].as_array().unwrap().contains(id))
        .map(|g| {
            (g["platform"].clone(), g["data_pattern"].clone(), g["result_ids"].as_array().unwrap().clone())
        })
        .collect()
}

/// A drive's observations (its own and its model line's) as JSON, checked against the
/// HTML table the drive page shows: every one is a row there, escaped.
async fn drive_observations(app: &TestApp, drive: &str) -> Vec<Value> {
    let r = app.get(&format!("/api/v1/drives/{drive}/observations")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let list = r.json()["observations"].as_array().unwrap().clone();
    let html = app.get(&format!("/fragments/drives/{drive}/observations")).await;
    assert!(html.content_type.starts_with("text/html"), "{}", html.content_type);
    assert_eq!(html.text.matches("<tr><th scope=\"row\"").count(), list.len(), "{}", html.text);
    let csv = app.get(&format!("/api/v1/drives/{drive}/observations?format=csv")).await;
    assert_eq!(csv.text.trim_end().lines().count(), list.len() + 1, "a header and a line each");
    list
}

async fn all_observations(app: &TestApp) -> Vec<Value> {
    let r = app.get("/api/v1/observations").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json()["observations"].as_array().unwrap().clone()
}

/// The one observation of `sku` (or of no catalogue drive) with this value, kind and a
/// name or source containing `needle`.
fn observation<'a>(all: &'a [Value], sku: Option<&str>, value: f64, kind: &str, needle: &str) -> &'a Value {
    let hits: Vec<&Value> = all
        .iter()
        .filter(|o| {
            o["tags"]["drive"]["sku"].as_str() == sku
                && o["value"] == value
                && o["kind"] == kind
                && (o["name"].as_str().unwrap().contains(needle)
                    || o["source"].as_str().unwrap().contains(needle))
        })
        .collect();
    assert_eq!(hits.len(), 1, "{sku:?} {kind} {value} {needle:?}: {} observations", hits.len());
    hits[0]
}

pub async fn seeds_name_their_section_and_figure(app: &TestApp) {
    let drives = app.get("/api/v1/drives").await.json();
    for d in drives["drives"].as_array().unwrap() {
        for r in results_of(app, d["id"].as_str().unwrap()).await {
            let source = r["source"].as_str().unwrap_or_else(|| panic!("result {} has no source", r["id"]));
            assert!(source.contains(" § ") && source.contains(" — "), "{source}");
        }
    }
    for o in all_observations(app).await {
        assert!(o["source"].as_str().unwrap().contains(" § "), "{o}");
    }
}

/// 003 says IDE for §1 and §2, 000 says RAID(AHCI) for §2: both recorded, IDE chosen.
pub async fn seeds_first_ich10r_runs_record_both_versions_and_one_mode(app: &TestApp) {
    let results = results_of(app, C300_64).await;
    let first: Vec<&Value> = ["Fig.1a 1000MB 0 Fill", "Fig.1b 1000MB Random", "Fig.2a 100MB"]
        .iter()
        .map(|f| by_source(&results, f))
        .collect();
    for r in &first {
        assert_eq!(r["tags"]["platform"]["mode"], "IDE", "{}", r["source"]);
        assert_eq!(r["tags"]["platform"]["driver"], "IMSM");
        let comment = r["result"]["comment"].as_str().unwrap();
        assert!(comment.contains("in IDE mode") && comment.contains("RAID(AHCI)"), "{comment}");
        assert!(comment.contains("tagged IDE"), "{comment}");
    }
    // Their pools hold nothing but these runs: no RAID-mode result joins them.
    let page = drive_page(app, C300_64).await;
    for r in &first {
        for (platform, _, ids) in pools_of(&page, &r["id"]) {
            assert_eq!(platform["mode"], "IDE");
            assert!(ids.iter().all(|id| first.iter().any(|f| &f["id"] == id)), "{ids:?}");
        }
    }
}

/// Both versions: "in AHCI mode with the LSI driver"; kept, with the doubt in the comment.
pub async fn seeds_3ware_raid_0_is_tagged_as_the_article_says(app: &TestApp) {
    let results = results_of(app, C300_64).await;
    let card: Vec<&Value> = ["Fig.5a 100MB", "Fig.5b 1000MB", "Fig.5c 100MB", "Fig.5d 1000MB"]
        .iter()
        .map(|f| by_source(&results, f))
        .collect();
    for r in &card {
        assert_eq!(r["tags"]["platform"]["mode"], "AHCI", "{}", r["source"]);
        assert_eq!(r["tags"]["raid"]["level"], 0);
        let comment = r["result"]["comment"].as_str().unwrap();
        assert!(
            comment.contains("in AHCI mode with the LSI driver") && comment.contains("doubtful"),
            "{comment}"
        );
    }
    let page = drive_page(app, C300_64).await;
    for r in &card {
        let pools = pools_of(&page, &r["id"]);
        assert!(!pools.is_empty());
        for (platform, pattern, ids) in pools {
            assert_eq!(platform["mode"], "AHCI");
            assert_eq!(pattern, "zero-fill");
            // No RAID-mode run (the ICH10R arrays) pools with the card's.
            assert!(ids.iter().all(|id| card.iter().any(|c| &c["id"] == id)), "{ids:?}");
        }
    }
    // The comparison pools the same way: the card's results are AHCI pools of their own,
    // the ICH10R arrays RAID pools without them.
    let c = app.get(&format!("/api/v1/compare?drives={C300_64},{M2S_64}")).await.json();
    let card_ids: Vec<&Value> = card.iter().map(|r| &r["id"]).collect();
    let mut card_pools = 0;
    for pool in c["pools"].as_array().unwrap() {
        let ids = pool["result_ids"].as_array().unwrap();
        let on_card = ids.iter().filter(|id| card_ids.contains(id)).count();
        if on_card > 0 {
            card_pools += 1;
            assert_eq!(on_card, ids.len(), "{pool}");
            assert_eq!(pool["platform"]["mode"], "AHCI", "{pool}");
        }
    }
    assert_eq!(card_pools, 1, "the four runs on the card are one pool");
}

/// 000 §14: the PX-256M2S "under the same conditions as ⑩a/⑩b", which were 0 fill.
pub async fn seeds_m2s_runs_under_the_c300s_conditions_are_zero_fill(app: &TestApp) {
    let m2s = results_of(app, M2S_256).await;
    let c300 = results_of(app, C300_256).await;
    for (fig, twin) in [("Fig.14a 100MB", "Fig.10a 100MB"), ("Fig.14b 1000MB", "Fig.10b 1000MB")] {
        let r = by_source(&m2s, fig);
        assert_eq!(r["result"]["data_pattern"], "zero-fill", "{fig}");
        assert!(r["result"]["comment"].as_str().unwrap().contains("⑩a・⑩bと同条件"));
        let t = by_source(&c300, twin);
        assert_eq!(t["result"]["data_pattern"], "zero-fill", "{twin}");
    }
    // On the compare page the two drives' U3S6 pools are now the same pool kind.
    let pools =
        |page: &Value, id: &Value| pools_of(page, id).into_iter().map(|(p, d, _)| (p, d)).collect::<Vec<_>>();
    let m2s_pool = pools(&drive_page(app, M2S_256).await, &by_source(&m2s, "Fig.14b 1000MB")["id"]);
    let c300_pool = pools(&drive_page(app, C300_256).await, &by_source(&c300, "Fig.10b 1000MB")["id"]);
    assert_eq!(m2s_pool[0], c300_pool[0]);
}

/// The 2000 MB runs and the final section's runs: no data pattern in either version.
pub async fn seeds_unstated_data_patterns_are_unknown(app: &TestApp) {
    for (drive, figs) in [
        (M2S_256, &["Fig.15a U3S6", "Fig.15b X58A-UD5", "Fig.16b Plextor M2S", "Fig.16c"][..]),
        (C300_256, &["Fig.16a RealSSD C300"][..]),
    ] {
        let results = results_of(app, drive).await;
        let page = drive_page(app, drive).await;
        for fig in figs {
            let r = by_source(&results, fig);
            assert!(r["result"]["data_pattern"].is_null(), "{fig}: {}", r["result"]["data_pattern"]);
            assert!(r["result"]["comment"].as_str().unwrap().contains("Data pattern unknown"));
            let pools = pools_of(&page, &r["id"]);
            assert!(!pools.is_empty(), "{fig}");
            assert!(pools.iter().all(|(_, pattern, _)| pattern.is_null()), "{fig}: {pools:?}");
        }
    }
    // Unknown is its own value: browsing by a pattern does not find them.
    let random = app.browse_ids(&format!("drive={M2S_256}&data_pattern=random"), None).await;
    let zero = app.browse_ids(&format!("drive={M2S_256}&data_pattern=zero-fill"), None).await;
    let results = results_of(app, M2S_256).await;
    let final_run = by_source(&results, "Fig.16b Plextor M2S")["id"].as_i64().unwrap();
    assert!(!random.contains(&final_run) && !zero.contains(&final_run));
}

/// The 2011-04-21 addendum's 4K figures do not say read or write: observations, not
/// write metrics.
pub async fn seeds_addendum_4k_figures_claim_no_operation(app: &TestApp) {
    for (drive, fig, qd1, qd32) in
        [(C300_256, "Fig.16a RealSSD C300", 85.71, 203.2), (M2S_256, "Fig.16b Plextor M2S", 36.51, 45.47)]
    {
        let results = results_of(app, drive).await;
        let r = by_source(&results, fig);
        let metrics = r["result"]["metrics"].as_array().unwrap();
        assert!(metrics.iter().all(|m| m["block_size"] != 4096), "{fig}: {metrics:?}");
        let on_page = drive_observations(app, drive).await;
        for v in [qd1, qd32] {
            let o = observation(&on_page, Some(drive), v, "exact", "read or write not stated");
            assert!(o["source"].as_str().unwrap().contains("2011年4月21日追記"), "{o}");
        }
    }
}

/// Bounds and approximations the articles give, with their kind.
pub async fn seeds_bounds_and_approximations_are_observations_with_their_kind(app: &TestApp) {
    let all = all_observations(app).await;
    // C300 / M2S: the M2S "finally reached 300MB/s", the Athlon II X4 640 + Foxconn A9DA
    // figures (Japanese only), the 3ware card's random 4KB "10MB/s or less".
    observation(&all, Some(M2S_256), 300.0, "at-least", "Fig.16b");
    let athlon_read = observation(&all, Some(M2S_256), 420.0, "at-least", "Athlon II X4 640");
    let athlon_write = observation(&all, Some(M2S_256), 300.0, "about", "Athlon II X4 640");
    for o in [athlon_read, athlon_write] {
        assert_eq!(o["tags"]["platform"]["motherboard"], "Foxconn A9DA");
        assert_eq!(o["tags"]["platform"]["chipset"], "SB850");
    }
    for fig in ["Fig.5b", "Fig.5d"] {
        let o = observation(&all, Some(C300_64), 10.0, "at-most", fig);
        assert_eq!(o["data_pattern"], "zero-fill");
        assert_eq!(o["tags"]["platform"]["mode"], "AHCI");
    }
    // Latency bounds of the 2011-04 addenda: 70 / 160 (Toshiba and Intel), 300 (both
    // Marvell steppings), 200 (FW0007), and the C300's best configuration within 70.
    observation(&all, None, 70.0, "at-most", "Toshiba- and Intel-controller");
    observation(&all, None, 160.0, "at-most", "Toshiba- and Intel-controller");
    observation(&all, None, 70.0, "at-most", "best configuration");
    let over_300: Vec<&Value> =
        all.iter().filter(|o| o["value"] == 300.0 && o["kind"] == "at-least" && o["unit"] == "ms").collect();
    let models: Vec<&str> = over_300.iter().map(|o| o["tags"]["drive"]["model"].as_str().unwrap()).collect();
    assert_eq!(models, ["RealSSD C300", "PX-M2S"]);
    let fw7 = observation(&all, None, 200.0, "at-most", "no latency at or above");
    assert_eq!(fw7["tags"]["firmware"], "0007");
    // A model line's observations are on every capacity's page.
    for drive in [C300_64, C300_256] {
        let on_page = drive_observations(app, drive).await;
        assert!(on_page.iter().any(|o| o["value"] == 300.0 && o["tags"]["drive"]["model"] == "RealSSD C300"));
        assert!(!on_page.iter().any(|o| o["tags"]["drive"]["model"] == "PX-M2S"));
    }
    // WILDFIRE: AMD RAID 0 "stops a little above 500", the 512K half of "Seq/512K 175強",
    // the approximate 0Fill writes now say their data pattern.
    let wf = "patriot-wildfire-120gb";
    observation(&all, Some(wf), 500.0, "at-least", "Seq and 512K, read or write not stated");
    assert_eq!(observation(&all, Some(wf), 175.0, "at-least", "512K write")["data_pattern"], "random");
    observation(&all, Some(wf), 920.0, "at-least", "Seq read");
    let about_460: Vec<&Value> = all.iter().filter(|o| o["value"] == 460.0 && o["kind"] == "about").collect();
    assert_eq!(about_460.len(), 3);
    assert!(about_460.iter().all(|o| o["data_pattern"] == "zero-fill"));
    assert_eq!(observation(&all, Some("intel-ssd-510-120gb"), 60.0, "about", "4K")["data_pattern"], "random");
    // Vertex: "RW 512KB above 100 MB/s" with firmware 1.4; "about 170" and "about 60" are
    // approximations, no longer exact results.
    let fw14 = observation(&all, Some("ocz-vertex-30gb"), 100.0, "at-least", "512K");
    assert_eq!(fw14["tags"]["firmware"], "Ver.1.4/1819");
    observation(&all, Some("ocz-vertex-30gb"), 170.0, "about", "HD Tune");
    observation(&all, Some("intel-x25-m-80gb"), 60.0, "about", "4K write");
    let hd_tune = app.browse_ids("drive=ocz-vertex-30gb&tool=hd-tune", None).await;
    assert_eq!(hd_tune.len(), 1, "only the exact 227.7 stays a result");
    assert!(results_of(app, "intel-x25-m-80gb").await.is_empty());
    // Observations never enter the aggregates: no test of the C300 256 GB holds 85.71.
    let page = drive_page(app, C300_256).await;
    for t in page["tests"].as_array().unwrap() {
        for g in t["groups"].as_array().unwrap() {
            assert!(g["mbps"].is_null() || g["mbps"]["max"] != 85.71, "{g}");
        }
    }
}

/// 002: "シーケンシャル・512KでWILDFIREは175MB/sec強。RealSSD C400の200MB/secや、Intel SSD 510
/// の207MB/sec": one figure for both tests, so both metrics are stored.
pub async fn seeds_combined_seq_and_512k_writes_store_both_halves(app: &TestApp) {
    for (drive, v) in [("crucial-realssd-c400-128gb", 200.0), ("intel-ssd-510-120gb", 207.0)] {
        let ids = app.browse_ids(&format!("drive={drive}&block_size=524288&op=write"), None).await;
        assert_eq!(ids.len(), 1, "{drive}");
        let r = app.get(&format!("/api/v1/results/{}", ids[0])).await.json();
        let writes: Vec<f64> = r["result"]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["op"] == "write")
            .map(|m| m["mbps"].as_f64().unwrap())
            .collect();
        assert_eq!(writes, [v, v], "{drive}: Seq and 512K");
    }
}

/// Guesses are marked as guesses, as the WILDFIRE and M5Pro files already did.
pub async fn seeds_guessed_versions_and_block_sizes_say_so(app: &TestApp) {
    let results = results_of(app, "ocz-vertex-30gb").await;
    let mut cdm = 0;
    for r in &results {
        let comment = r["result"]["comment"].as_str().unwrap_or("");
        if r["result"]["tool_version"] == "2.x" {
            cdm += 1;
            assert!(comment.contains("'2.x' is a guess"), "{comment}");
        }
        if r["result"]["tool"] == "hd-tune" {
            assert!(comment.contains("64 KiB is a guess"), "{comment}");
        }
    }
    assert!(cdm >= 8, "{cdm} CrystalDiskMark 2.x results");
}
