//! Behaviour under load on both backends: a real fio queue-depth sweep uploaded as it
//! was printed comes back as one curve with fio's own figures and its knee, with the
//! latency percentiles fio printed; a result of one load per test has neither; a hidden
//! result's load answer is as hidden as the result.

use super::{common, TestApp, ADMIN};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// The real fio 3.33 sweep of `crates/bench/tests/data` (4 KiB random reads at queue
/// depths 1 to 16, one job each).
fn fio_sweep() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/fio-3.33_randread_4k_qd1-16_sweep.json"
    );
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub async fn a_sweep_is_shown_as_its_curve_with_the_knee_and_percentiles(app: &TestApp) {
    let text = fio_sweep();
    let fio: Value = serde_json::from_str(&text).unwrap();
    let jobs = fio["jobs"].as_array().unwrap();
    let r = app.post_json("/api/v1/results", &json!({"text": text})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();

    let load = app.get(&format!("/api/v1/results/{id}/load")).await;
    assert_eq!(load.status, StatusCode::OK, "{}", load.text);
    let load = load.json();
    let curves = load["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 1, "{load}");
    let curve = &curves[0];
    assert_eq!(curve["test"], "RND 4KiB read");
    let points = curve["points"].as_array().unwrap();
    assert_eq!(points.len(), jobs.len());
    // Each point is its job's figures as fio printed them, by queue depth.
    let mut by_depth: Vec<&Value> = jobs.iter().collect();
    by_depth.sort_by_key(|j| j["job options"]["iodepth"].as_str().unwrap().parse::<u32>().unwrap());
    for (point, job) in points.iter().zip(&by_depth) {
        assert_eq!(point["queue_depth"].to_string(), job["job options"]["iodepth"].as_str().unwrap());
        assert_eq!(point["iops"], job["read"]["iops"]);
        let p99 = job["read"]["clat_ns"]["percentile"]["99.000000"].as_f64().unwrap() / 1000.0;
        assert!((point["p99_us"].as_f64().unwrap() - p99).abs() < 1e-9, "{point}");
    }
    // The knee, by fio's figures: from it on, every step grew latency faster than IOPS,
    // and the step into it did not.
    let figures: Vec<(f64, f64)> = by_depth
        .iter()
        .map(|j| (j["read"]["iops"].as_f64().unwrap(), j["read"]["lat_ns"]["mean"].as_f64().unwrap()))
        .collect();
    let latency_led = |i: usize| figures[i + 1].1 / figures[i].1 > figures[i + 1].0 / figures[i].0;
    let expected_knee = (0..figures.len() - 1).rev().take_while(|&i| latency_led(i)).last();
    assert_eq!(curve["knee"].as_u64().map(|k| k as usize), expected_knee, "{curve}");
    let percentiles = load["percentiles"].as_array().unwrap();
    assert_eq!(percentiles.len(), jobs.len());
    assert_eq!(percentiles[0]["test"], "RND 4KiB Q1T1 read");

    // The result page's table, as the server renders it.
    let html = app.get(&format!("/fragments/results/{id}/load")).await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text);
    assert!(html.text.contains("RND 4KiB read at 5 loads"), "{}", html.text);
    assert_eq!(html.text.matches("<tr").count(), 1 + points.len() + 1 + percentiles.len(), "{}", html.text);
    match expected_knee {
        Some(k) => assert!(
            html.text.contains(&format!("The knee is at {} outstanding I/Os", points[k]["outstanding"])),
            "{}",
            html.text
        ),
        None => assert!(html.text.contains("No knee within these loads"), "{}", html.text),
    }

    // One load per test and no percentiles: nothing to show.
    let cdm = std::fs::read_to_string(
        common::shared()
            .join("corpus/real/cdm8/07__soerenmetje_CrystalDiskMark-Parser__8.0.1_x64_samsung_840evo.txt"),
    )
    .unwrap();
    let r = app.post_json("/api/v1/results", &json!({"text": cdm})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let plain = r.json()["id"].as_i64().unwrap();
    let load = app.get(&format!("/api/v1/results/{plain}/load")).await.json();
    assert_eq!(
        (load["curves"].as_array().unwrap().len(), load["percentiles"].as_array().unwrap().len()),
        (0, 0)
    );
    assert_eq!(app.get(&format!("/fragments/results/{plain}/load")).await.text.trim(), "");

    // Hidden by a moderator: its load is no more visible than the result.
    let why = json!({"reason": "test of a hidden sweep"});
    let r = app.authed(Method::POST, &format!("/api/v1/results/{id}/hide"), Some(ADMIN), Some(&why)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    app.get(&format!("/api/v1/results/{id}/load")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(app.get(&format!("/fragments/results/{id}/load")).await.status, StatusCode::NOT_FOUND);
}

/// fio's `--status-interval` output of one real run (five snapshots and the whole run):
/// one result whose load answer has the run interval by interval with its steadiness;
/// a public-format result whose series names a metric it lacks is refused, saying where.
pub async fn a_run_sampled_over_time_is_one_result_with_its_intervals(app: &TestApp) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/fio-3.33_seqwrite_1m_qd8_status-interval-1.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let r = app.post_json("/api/v1/results", &json!({"text": text})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.json()["results"].as_array().unwrap().len(), 1, "one run, one result: {}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let load = app.get(&format!("/api/v1/results/{id}/load")).await.json();
    let sampled = load["over_time"].as_array().unwrap();
    assert_eq!(sampled.len(), 1, "{load}");
    assert_eq!(sampled[0]["test"], "SEQ 1MiB Q8T1 write");
    let points = sampled[0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 6);
    let steadiness = &sampled[0]["steadiness"];
    match steadiness["state"].as_str() {
        Some("reached") => {
            let w = &steadiness["window"];
            assert!(w["to"].as_u64().unwrap() < 6 && w["data_excursion"].as_f64().unwrap() <= 0.2, "{w}");
        }
        Some("not-reached") => assert!(steadiness["last"].is_object(), "{steadiness}"),
        other => panic!("{other:?}: {steadiness}"),
    }
    let html = app.get(&format!("/fragments/results/{id}/load")).await.text;
    assert!(html.contains("SEQ 1MiB Q8T1 write over 5 s"), "{html}");
    let table = html.split("Completion latency: percentiles and spread").next().unwrap();
    assert_eq!(table.matches("<tr").count(), 1 + points.len(), "{html}");

    // The stored result, sent back in the public format with a series of a metric it
    // lacks: refused, pointing at the series.
    let mut result = app.get(&format!("/api/v1/results/{id}")).await.json()["result"].clone();
    result["over_time"][0]["metric"] = json!(1);
    let r = app.post_json("/api/v1/results", &json!({"result": result})).await;
    r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("result.over_time[0].metric"));
}

/// A real `ssdbase-bench --profile cache` submission (a loop device throttled to act as
/// a drive with a 256 MiB write cache that empties when idle, see the data's README):
/// its load answer finds the cache in the first write, the rate after it, and in the
/// write after the idle pause the cache again; the stored figures are the write's
/// average and the after-cache rate, each a test of its own.
pub async fn a_cache_run_shows_its_cache_the_rate_after_it_and_what_came_back(app: &TestApp) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/ssdbase-bench-0.1.0_cache_throttled-loop-256MiB.json"
    );
    let body: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();

    let stored = app.get(&format!("/api/v1/results/{id}")).await.json();
    let tests: Vec<&str> = stored["result"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    assert_eq!(tests, ["Write SEQ 1MiB Q8T1 average", "Write SEQ 1MiB Q8T1 after cache"]);
    assert_eq!(stored["result"]["metrics"][1]["stat"], "after-cache");

    let load = app.get(&format!("/api/v1/results/{id}/load")).await.json();
    let sampled = load["over_time"].as_array().unwrap();
    assert_eq!(sampled.len(), 2, "{load}");
    let (first, again) = (&sampled[0], &sampled[1]);
    assert_eq!(first["test"], "SEQ 1MiB Q8T1 write avg");
    let cache = &first["write_cache"];
    assert_eq!(cache["state"], "found", "{first}");
    let size = cache["cache_bytes"].as_f64().unwrap() / (256u64 << 20) as f64;
    let after = cache["after_cache_mbps"].as_f64().unwrap() / 40.0;
    assert!((size - 1.0).abs() <= 0.10, "cache {size} of 256 MiB");
    assert!((after - 1.0).abs() <= 0.10, "after-cache rate {after} of 40 MB/s");
    // The stored after-cache figure is the analysis's, not a second opinion.
    assert_eq!(stored["result"]["metrics"][1]["mbps"], cache["after_cache_mbps"]);
    assert_eq!(again["after_idle_secs"], 3.0);
    assert!(again["cache_recovered"].as_f64().unwrap() >= 0.9, "{again}");
    assert!(first.get("cache_recovered").is_none());

    let html = app.get(&format!("/fragments/results/{id}/load")).await.text;
    assert!(html.contains("again after 3 s idle"), "{html}");
    assert_eq!(html.matches("Write cache: ").count(), 2, "{html}");
    assert!(html.contains("of the first run's cache came back"), "{html}");

    // A short write at the disk's own rate, uploaded as fio printed it.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/fio-3.33_seqwrite_1m_qd8_status-interval-1.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let r = app.post_json("/api/v1/results", &json!({"text": text})).await;
    let id = r.json()["id"].as_i64().unwrap();
    let sampled = &app.get(&format!("/api/v1/results/{id}/load")).await.json()["over_time"][0];
    // A 5-s write at the disk's own rate: the rate never fell and stayed down.
    assert_eq!(sampled["write_cache"]["state"], "not-found", "{sampled}");
}

/// Burst and sustained per drive: a KDiskMark export (burst) and the real cache run for
/// one drive, the real fio sweep for another. The answer sets the burst median beside
/// the after-cache rate and the cache's size with their n, lists the write-saturation
/// run and the sweep, and draws both charts; the drive and compare pages' fragment shows
/// the same table and the charts' embeds.
pub async fn burst_and_sustained_sit_side_by_side_per_drive_with_their_runs_and_charts(app: &TestApp) {
    let (c300, m2s) = (super::C300_64, super::M2S_64);
    let kdm = std::fs::read_to_string(
        common::shared().join("corpus/real/kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt"),
    )
    .unwrap();
    let r = app.post_json("/api/v1/results", &json!({"text": kdm, "tags": {"drive": {"sku": c300}}})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let burst_id = r.json()["id"].as_i64().unwrap();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/ssdbase-bench-0.1.0_cache_throttled-loop-256MiB.json"
    );
    let mut body: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    body["tags"]["drive"] = json!({"sku": c300});
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let cache_id = r.json()["id"].as_i64().unwrap();
    let r = app
        .post_json("/api/v1/results", &json!({"text": fio_sweep(), "tags": {"drive": {"sku": m2s}}}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let sweep_id = r.json()["id"].as_i64().unwrap();

    let drives = format!("{c300},{m2s}");
    let answer = app.get(&format!("/api/v1/compare/sustained?drives={drives}")).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let answer = answer.json();
    assert_eq!(answer["drives"], json!([c300, m2s]));
    let rows = answer["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "only the cache run's test was measured over time: {answer}");
    let row = &rows[0];
    assert_eq!(
        (row["drive"].as_str(), row["test"].as_str(), row["unit"].as_str()),
        (Some(c300), Some("SEQ 1MiB Q8T1 write"), Some("MB/s"))
    );
    // The burst figure is KDiskMark's own SEQ 1 MiB Q8T1 write (the same tool family).
    assert_eq!(row["burst"]["median"], 460.312);
    assert_eq!((row["burst"]["n"].as_u64(), row["burst"]["results"].clone()), (Some(1), json!([burst_id])));
    let stored = app.get(&format!("/api/v1/results/{cache_id}")).await.json();
    assert_eq!(row["after_cache"]["median"], stored["result"]["metrics"][1]["mbps"]);
    assert_eq!(row["after_cache"]["n"], 1);
    let gib = row["cache_gib"]["median"].as_f64().unwrap();
    assert!((gib / 0.25 - 1.0).abs() <= 0.10, "cache {gib} GiB against 0.25");
    assert!(row["recovered"]["median"].as_f64().unwrap() >= 0.9, "{row}");
    assert_eq!(row["steady"], Value::Null);
    assert_eq!(row["unsettled"], 0);
    let saturation = answer["saturation"].as_array().unwrap();
    assert_eq!(saturation.len(), 1, "the first write; the repeat after idle is its recovery");
    assert_eq!(
        (saturation[0]["drive"].as_str(), saturation[0]["result"].as_i64()),
        (Some(c300), Some(cache_id))
    );
    let curves = answer["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 1);
    assert_eq!((curves[0]["drive"].as_str(), curves[0]["result"].as_i64()), (Some(m2s), Some(sweep_id)));
    assert_eq!(curves[0]["curve"]["test"], "RND 4KiB read");

    // CSV: a header and a line per row.
    let csv = app.get(&format!("/api/v1/compare/sustained?drives={drives}&format=csv")).await;
    assert_eq!(csv.status, StatusCode::OK);
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines.len(), 2, "{}", csv.text);
    assert!(
        lines[0].starts_with("drive,test,test_id,unit,burst_median,burst_n,after_cache_median"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(&format!("{c300},SEQ 1MiB Q8T1 write,fio SEQ 1MiB Q8T1 write,MB/s,460.312,1,")),
        "{}",
        lines[1]
    );

    // The charts, as SVG and PNG; a test nobody ran is a 404 naming the tests there are.
    for (chart, test, words) in
        [("saturation", "", "GiB written"), ("sweep", "&test=RND%204KiB%20read", "IOPS")]
    {
        let svg =
            app.get(&format!("/api/v1/compare/sustained.svg?drives={drives}&chart={chart}{test}")).await;
        assert_eq!(svg.status, StatusCode::OK, "{chart}: {}", svg.text);
        assert_eq!(svg.content_type, "image/svg+xml");
        assert!(
            svg.text.contains(words)
                && svg
                    .text
                    .contains(&format!("result {}", if chart == "sweep" { sweep_id } else { cache_id })),
            "{chart}"
        );
        let png =
            app.get(&format!("/api/v1/compare/sustained.png?drives={drives}&chart={chart}{test}")).await;
        assert_eq!((png.status, png.content_type.as_str()), (StatusCode::OK, "image/png"));
    }
    let missing = app
        .get(&format!("/api/v1/compare/sustained.svg?drives={drives}&chart=sweep&test=SEQ%201MiB%20read"))
        .await;
    missing.assert_error(StatusCode::NOT_FOUND, Some("test"));
    assert!(missing.text.contains("RND 4KiB read"), "{}", missing.text);
    app.get(&format!("/api/v1/compare/sustained?drives={c300},no-such-drive"))
        .await
        .assert_error(StatusCode::NOT_FOUND, Some("drives[1]"));

    // The fragment the drive page shows (one drive) and compare (both).
    let html = app.get(&format!("/fragments/compare/sustained?drives={c300}")).await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text);
    assert!(html.text.contains("460.3 MB/s") && html.text.contains("(n=1)"), "{}", html.text);
    assert!(html.text.contains("/api/v1/compare/sustained.svg?drives="), "{}", html.text);
    assert!(!html.text.contains("<th scope=\"col\">Drive</th>"), "one drive: no drive column");
    let both = app.get(&format!("/fragments/compare/sustained?drives={drives}")).await.text;
    assert!(both.contains("<th scope=\"col\">Drive</th>") && both.contains("chart=sweep"), "{both}");
    let empty = app.get("/fragments/compare/sustained?drives=plextor-px-m2s-128gb").await.text;
    assert!(empty.contains("--profile cache"), "{empty}");

    // Each chart as an iframe page: the chart, and a link back to compare's Sustained
    // view; a chart that is not there is its own 404, not a page with a broken image.
    // Each chart is named by its test and tool family (two families' curves of one name
    // are never drawn together); the name alone still finds the first family's.
    let iframe =
        format!("/embed/compare/sustained?drives={c300},{m2s}&chart=sweep&test=fio%20RND%204KiB%20read");
    let by_id = app
        .get(&format!(
            "/api/v1/compare/sustained.svg?drives={drives}&chart=sweep&test=fio%20RND%204KiB%20read"
        ))
        .await;
    assert_eq!(by_id.status, StatusCode::OK, "{}", by_id.text);
    assert!(by_id.text.contains("fio RND 4KiB read") && by_id.text.contains(&format!("result {sweep_id}")));
    let other_family = app
        .get(&format!(
            "/api/v1/compare/sustained.svg?drives={drives}&chart=sweep&test=orion%20RND%204KiB%20read"
        ))
        .await;
    other_family.assert_error(StatusCode::NOT_FOUND, Some("test"));
    assert!(both.contains(&iframe.replace('&', "&amp;")), "{iframe} in {both}");
    let page = app.get(&iframe).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.content_type.starts_with("text/html"), "{}", page.content_type);
    assert!(page.text.contains("/api/v1/compare/sustained.svg?drives="), "{}", page.text);
    assert!(page.text.contains("view=sustained"), "{}", page.text);
    let saturation = app.get(&format!("/embed/compare/sustained?drives={c300}&chart=saturation")).await;
    assert_eq!(saturation.status, StatusCode::OK, "{}", saturation.text);
    let missing = app.get(&format!("/embed/compare/sustained?drives={c300}&chart=sweep")).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND, "{}", missing.text);

    // The write caches ranked: the cache run's drive, its cache as the answer above says
    // it, with n and its result; below the after-cache rate's leaderboard on the site.
    let ranked = app.get("/api/v1/leaderboard/cache?test=fio%20SEQ%201MiB%20Q8T1%20write").await;
    assert_eq!(ranked.status, StatusCode::OK, "{}", ranked.text);
    let ranked = ranked.json();
    let lines = ranked["rows"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{ranked}");
    assert_eq!((lines[0]["rank"].as_u64(), lines[0]["drive_id"].as_str()), (Some(1), Some(c300)));
    assert_eq!(lines[0]["cache_gib"], row["cache_gib"]);
    assert_eq!(lines[0]["cache_gib"]["results"], json!([cache_id]));
    assert_eq!(lines[0]["after_cache"], row["after_cache"]);
    let none = app.get("/api/v1/leaderboard/cache?test=fio%20RND%204KiB%20Q32T1%20write").await.json();
    assert_eq!(none["rows"], json!([]));
    app.get("/api/v1/leaderboard/cache").await.assert_error(StatusCode::BAD_REQUEST, Some("test"));
    let tests = app.get("/api/v1/leaderboard/tests").await.json();
    assert!(tests["tests"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["test"] == "fio SEQ 1MiB Q8T1 write after cache"));
    let board = app.get("/fragments/leaderboard?test=fio%20SEQ%201MiB%20Q8T1%20write%20after%20cache").await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.text);
    assert!(board.text.contains("Write cache, fio SEQ 1MiB Q8T1 write"), "{}", board.text);
    assert!(
        board.text.contains(&format!("/drives/{c300}")) && board.text.contains("(n=1)"),
        "{}",
        board.text
    );
    let plain = app.get("/fragments/leaderboard?test=fio%20SEQ%201MiB%20Q8T1%20write%20avg").await.text;
    assert!(!plain.contains("Write cache,"), "only under an after-cache leaderboard: {plain}");
}

/// A drive page folds a sweep into its curve: the drive's per-test table, its
/// distributions and its burst-figures list of results keep the burst figures (the
/// CrystalDiskMark result's tests, each one load), not the sweep's load points, which
/// are one curve under "Burst and sustained"; the full list still has every metric.
pub async fn a_drive_page_folds_a_sweep_into_its_curve(app: &TestApp) {
    let drive = super::M2S_64;
    let cdm = std::fs::read_to_string(
        common::shared()
            .join("corpus/real/cdm8/07__soerenmetje_CrystalDiskMark-Parser__8.0.1_x64_samsung_840evo.txt"),
    )
    .unwrap();
    let tests_of = |page: &Value| -> Vec<String> {
        page["tests"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
    };
    let before = tests_of(&app.get(&format!("/api/v1/drives/{drive}")).await.json());
    let r = app.post_json("/api/v1/results", &json!({"text": cdm, "tags": {"drive": {"sku": drive}}})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let cdm_id = r.json()["id"].as_i64().unwrap();
    let with_cdm = tests_of(&app.get(&format!("/api/v1/drives/{drive}")).await.json());
    assert!(with_cdm.len() > before.len(), "the CrystalDiskMark tests are the drive's: {with_cdm:?}");

    let text = fio_sweep();
    let jobs = serde_json::from_str::<Value>(&text).unwrap()["jobs"].as_array().unwrap().len();
    let r = app.post_json("/api/v1/results", &json!({"text": text, "tags": {"drive": {"sku": drive}}})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let sweep_id = r.json()["id"].as_i64().unwrap();
    let page = app.get(&format!("/api/v1/drives/{drive}")).await.json();
    assert_eq!(tests_of(&page), with_cdm, "the sweep's {jobs} loads are a curve, not tests");
    assert!(
        page["results"].as_array().unwrap().iter().any(|r| r["id"] == sweep_id),
        "still the drive's result"
    );

    // The list the drive page reads: the sweep without its load points; the CrystalDiskMark
    // result whole. Without `figures`, each result as stored.
    let list = |query: &str| {
        let path = format!("/api/v1/results?drive={drive}&limit=500{query}");
        async move {
            let r = app.get(&path).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
            r.json()["results"].as_array().unwrap().clone()
        }
    };
    let metrics = |results: &[Value], id: i64| -> usize {
        let r = results.iter().find(|r| r["id"] == id).unwrap();
        let n = r["result"]["metrics"].as_array().unwrap().len();
        assert_eq!(r["test_names"].as_array().unwrap().len(), n);
        n
    };
    let (burst, all) = (list("&figures=burst").await, list("").await);
    assert_eq!((metrics(&burst, sweep_id), metrics(&all, sweep_id)), (0, jobs));
    assert_eq!(metrics(&burst, cdm_id), metrics(&all, cdm_id));
    assert!(metrics(&all, cdm_id) > 0);
    // Those burst figures are stored beside the sweep, so that these lists do not decode
    // its points; a result that is all burst has none. A row stored before that column
    // (here: emptied) reads the same.
    let has_burst = |id: i64| format!("SELECT COUNT(*) FROM results WHERE id = {id} AND burst IS NOT NULL");
    assert_eq!((app.scalar(&has_burst(sweep_id)).await, app.scalar(&has_burst(cdm_id)).await), (1, 0));
    let emptied =
        app.scalar(&format!("UPDATE results SET burst = NULL WHERE id = {sweep_id} RETURNING id")).await;
    assert_eq!(emptied, sweep_id);
    assert_eq!(metrics(&list("&figures=burst").await, sweep_id), 0);
    assert_eq!(tests_of(&app.get(&format!("/api/v1/drives/{drive}")).await.json()), with_cdm);
    app.get(&format!("/api/v1/results?drive={drive}&figures=some"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("figures"));

    // The sweep's load points have no distribution of their own on the drive's page.
    let svg = app
        .get(&format!("/api/v1/drives/{drive}/distribution.svg?test=fio%20RND%204KiB%20Q1T1%20read"))
        .await;
    assert_eq!(svg.status, StatusCode::NOT_FOUND, "{}", svg.text);
}

/// An ORION run's matrices uploaded as files: their names say what each holds, so the
/// `_iops.csv` becomes the small-I/O curve with the file's numbers; the same bytes
/// pasted as text, with no name, are refused with the reason.
pub async fn orion_matrices_uploaded_by_name_become_curves(app: &TestApp) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/bench/tests/data/orion/");
    let iops = std::fs::read(format!("{dir}mytest_20190329_1057_iops.csv")).unwrap();
    let (ct, body) = super::multipart(&[("file", Some("mytest_20190329_1057_iops.csv"), &iops)]);
    let extra = super::Extra { content_type: Some(&ct), ..super::Extra::default() };
    let r = app.send(&app.router, Method::POST, "/api/v1/results", extra, axum::body::Body::from(body)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let url = r.json()["files"][0]["url"].as_str().unwrap().to_string();
    let id = app.get(&url).await.json()["id"].as_i64().unwrap();
    let load = app.get(&format!("/api/v1/results/{id}/load")).await.json();
    let curve = &load["curves"][0];
    // The file's Large=0 row, read here on its own: `0, 2302, 4398, ...`.
    let text = String::from_utf8(iops.clone()).unwrap();
    let row: Vec<f64> = text
        .lines()
        .find(|l| l.trim_start().starts_with("0,"))
        .unwrap()
        .split(',')
        .skip(1)
        .map(|v| v.trim().parse().unwrap())
        .collect();
    let points = curve["points"].as_array().unwrap();
    assert_eq!(points.len(), row.len(), "{curve}");
    for (i, (p, v)) in points.iter().zip(&row).enumerate() {
        assert_eq!((p["outstanding"].as_u64(), p["iops"].as_f64()), (Some(i as u64 + 1), Some(*v)), "{p}");
    }
    let r = app.post_json("/api/v1/results", &json!({"text": text})).await;
    r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("text line 1"));
    assert!(r.text.contains("give the file name"), "the error asks for the file's name: {}", r.text);

    // A normal run's matrix has mixed loads inside: kept with the result, in its load
    // answer and as the matrix on its page, not as tests.
    let normal = "Large/Small,      1,      2\n          0,   2302,   4398\n          1,   1810,   3502\n";
    let (ct, body) = super::multipart(&[("file", Some("normal_iops.csv"), normal.as_bytes())]);
    let extra = super::Extra { content_type: Some(&ct), ..super::Extra::default() };
    let r = app.send(&app.router, Method::POST, "/api/v1/results", extra, axum::body::Body::from(body)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = app.get(r.json()["files"][0]["url"].as_str().unwrap()).await.json()["id"].as_i64().unwrap();
    let load = app.get(&format!("/api/v1/results/{id}/load")).await.json();
    assert_eq!(
        load["mixed_loads"],
        json!([
            {"small": 1, "large": 1, "small_iops": 1810.0, "small_latency_us": null, "large_mbps": null},
            {"small": 2, "large": 1, "small_iops": 3502.0, "small_latency_us": null, "large_mbps": null}
        ]),
        "{load}"
    );
    let page = app.get(&format!("/fragments/results/{id}/load")).await.text;
    assert!(page.contains("id=\"mixed-loads\"") && page.contains("3502 IOPS"), "{page}");
}

/// ORION 19.3's console with its detail lines and latency histogram: the load answer
/// gives each test's fastest and slowest I/O, standard deviation and the histogram's
/// counts as the console printed them, and the result's page shows the histogram.
pub async fn an_orion_latency_spread_and_histogram_are_kept_and_shown(app: &TestApp) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/orion/orion-19.3_console_simple_histogram.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let r = app.post_json("/api/v1/results", &json!({"text": text})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let load = app.get(&format!("/api/v1/results/{id}/load")).await.json();
    let tests = load["percentiles"].as_array().unwrap();
    let at_2 = tests.iter().find(|t| t["key"]["queue_depth"] == 2).unwrap_or_else(|| panic!("{load}"));
    // `Small Read Latency: avg=97.677 us, min=63.652 us, max=2133.198 us, std dev=47.348 us @ Small=2 ...`
    let detail =
        text.lines().find(|l| l.starts_with("Small Read Latency") && l.contains("Small=2 ")).unwrap();
    for (field, printed) in [("min_us", "min="), ("max_us", "max="), ("stddev_us", "std dev=")] {
        let v: f64 = detail.split(printed).nth(1).unwrap().split(" us").next().unwrap().parse().unwrap();
        assert_eq!(at_2["spread"][field].as_f64(), Some(v), "{field}: {at_2}");
    }
    // `      128 - 256        us:          102320 ( 99.50%)              0 (  0.00%)`
    let counts: Vec<u64> = text
        .lines()
        .filter(|l| l.contains(" us:") && l.trim_end().ends_with("%)"))
        .map(|l| l.split(" us:").nth(1).unwrap().split('(').next().unwrap().trim().parse().unwrap())
        .collect();
    let histogram = at_2["spread"]["histogram"].as_array().unwrap();
    let got: Vec<u64> = histogram.iter().map(|b| b["count"].as_u64().unwrap()).collect();
    assert_eq!(got, counts);
    let page = app.get(&format!("/fragments/results/{id}/load")).await.text;
    let total: u64 = counts.iter().sum();
    assert!(page.contains("Latency histogram: RND 8KiB Q2T1 read"), "{page}");
    assert!(page.contains(&format!("{total} I/Os counted")), "{page}");
    assert!(page.contains("<td class=\"num\">102320</td>"), "{page}");
}

/// The Plextor M5Pro article (seed 004) sets CrystalDiskMark's burst against ORION's
/// sustained load, and survives as statements (6,235 IOPS at one thread, 0.15 ms at
/// least, a knee in threads). Once someone measures the drive under load, its page sets
/// those statements beside the curves: a real fio queue-depth sweep (the I/O
/// `ssdbase bench --profile sweep` runs) and a real ORION small-I/O matrix uploaded by
/// its file name, each a curve of its own test family, with its result.
pub async fn the_m5pro_page_sets_the_articles_orion_statements_beside_measured_curves(app: &TestApp) {
    let m5pro = "plextor-m5pro-256gb";
    let statements = app.get(&format!("/fragments/drives/{m5pro}/observations")).await;
    assert_eq!(statements.status, StatusCode::OK, "{}", statements.text);
    for words in
        ["ORION IOPS (maximum at 1 thread)", "ORION latency (minimum)", "ORION IOPS/latency knee (threads)"]
    {
        assert!(statements.text.contains(words), "{words}: {}", statements.text);
    }
    let before = app.get(&format!("/fragments/compare/sustained?drives={m5pro}")).await.text;
    assert!(before.contains("--profile sweep"), "nothing measured yet: {before}");

    let r = app
        .post_json("/api/v1/results", &json!({"text": fio_sweep(), "tags": {"drive": {"sku": m5pro}}}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let sweep_id = r.json()["id"].as_i64().unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/bench/tests/data/orion/");
    let iops = std::fs::read(format!("{dir}mytest_20190329_1057_iops.csv")).unwrap();
    let tags = json!({"drive": {"sku": m5pro}}).to_string();
    let (ct, body) = super::multipart(&[
        ("file", Some("mytest_20190329_1057_iops.csv"), &iops),
        ("tags", None, tags.as_bytes()),
    ]);
    let extra = super::Extra { content_type: Some(&ct), ..super::Extra::default() };
    let r = app.send(&app.router, Method::POST, "/api/v1/results", extra, axum::body::Body::from(body)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let orion_id =
        app.get(r.json()["files"][0]["url"].as_str().unwrap()).await.json()["id"].as_i64().unwrap();

    let answer = app.get(&format!("/api/v1/compare/sustained?drives={m5pro}")).await.json();
    let curves: Vec<(i64, String)> = answer["curves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["result"].as_i64().unwrap(), c["curve"]["key"]["family"].as_str().unwrap().to_string()))
        .collect();
    assert!(curves.contains(&(sweep_id, "fio".to_string())), "{curves:?}");
    assert!(curves.iter().any(|(id, family)| *id == orion_id && family != "fio"), "{curves:?}");

    // The page's section: each curve's chart (one per test family: they are not the same
    // test), and the statements still beside them.
    let after = app.get(&format!("/fragments/compare/sustained?drives={m5pro}")).await.text;
    assert!(!after.contains("--profile sweep"), "{after}");
    let charts: Vec<&str> = after.split("chart=sweep").skip(1).collect();
    assert!(charts.len() >= 2, "a sweep chart per family: {after}");
    for c in &answer["curves"].as_array().unwrap()[..] {
        let test = c["curve"]["test"].as_str().unwrap();
        let svg = app
            .get(&format!(
                "/api/v1/compare/sustained.svg?drives={m5pro}&chart=sweep&test={}",
                test.replace(' ', "%20")
            ))
            .await;
        assert_eq!(svg.status, StatusCode::OK, "{test}: {}", svg.text);
        assert!(svg.text.contains(&format!("result {}", c["result"])), "{test}");
    }
    assert_eq!(app.get(&format!("/fragments/drives/{m5pro}/observations")).await.text, statements.text);
}
