//! Factor effects (`/effects`): the seed articles' stories, on both backends.

use super::*;

const WILDFIRE: &str = "patriot-wildfire-120gb";

/// Recomputes every stale drive's effects and combines them, as the server's background
/// task does.
pub(super) async fn refresh(app: &TestApp) {
    while app.storage.refresh_effects(64).await.expect("refresh") > 0 {}
    app.storage.combine_effects().await.expect("combine");
}

/// Eight WILDFIRE results a side on `chipset`: random data writing at `random`, 0-fill
/// at `zero_fill` MB/s, each with the same small spread (the pairs alternate, random
/// first); the reply to posting them together.
async fn post_wildfire_writes(app: &TestApp, chipset: &str, random: f64, zero_fill: f64) -> Reply {
    let batch: Vec<Value> = (0..8)
        .flat_map(|i| {
            let noise = 1.0 + (i as f64 - 3.5) * 0.004;
            let tags = json!({"drive": {"sku": WILDFIRE}, "platform": {"chipset": chipset}});
            let with = |pattern: &str, write: f64| {
                let mut r = a_result(500.0 * noise);
                r["data_pattern"] = json!(pattern);
                r["metrics"][0]["op"] = json!("write");
                r["metrics"][0]["mbps"] = json!(write * noise);
                json!({"result": r, "tags": tags})
            };
            [with("random", random), with("zero-fill", zero_fill)]
        })
        .collect();
    app.post_json("/api/v1/results", &json!(batch)).await
}

async fn effects_of(app: &TestApp, factor: &str) -> Value {
    let r = app.get(&format!("/api/v1/effects?factor={factor}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = r.json();
    assert_eq!((v["pending_drives"].as_u64(), v["pending_effects"].as_u64()), (Some(0), Some(0)), "{v}");
    assert_eq!(v["factors"].as_array().unwrap().len(), 1, "{v}");
    v["factors"][0].clone()
}

/// The effects of `factor` that `drive` stands behind, with its own effect.
async fn drive_effects(app: &TestApp, factor: &Value, drive: &str) -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    for e in factor["effects"].as_array().unwrap() {
        let r = app.get(e["drives_url"].as_str().unwrap()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let d = r.json();
        if let Some(mine) = d["drives"].as_array().unwrap().iter().find(|x| x["drive"] == drive) {
            out.push((e.clone(), mine.clone()));
        }
    }
    out
}

/// A seed result's headline figure on `op` (MB/s of its one sequential metric).
async fn seq_mbps(app: &TestApp, id: i64, op: &str) -> f64 {
    let r = app.get(&format!("/api/v1/results/{id}")).await.json();
    let metrics = r["result"]["metrics"].as_array().unwrap().clone();
    metrics
        .iter()
        .find(|m| m["access"] == "seq" && m["op"] == op && m["block_size"] == 1048576)
        .and_then(|m| m["mbps"].as_f64())
        .unwrap_or_else(|| panic!("result {id} has no SEQ 1MiB {op}: {r}"))
}

/// The WILDFIRE's RAID 0 ×2 results on Z68 of one data pattern (the seeds hold one each).
async fn wildfire_raid0(app: &TestApp, pattern: &str) -> Vec<i64> {
    let r = app
        .get(&format!(
            "/api/v1/results?drive={WILDFIRE}&raid_level=0&raid_members=2&chipset=Z68&data_pattern={pattern}"
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json()["results"].as_array().unwrap().iter().map(|x| x["id"].as_i64().unwrap()).collect()
}

/// The seed articles' story of random against 0-fill data: on the SF-2281 WILDFIRE
/// (RAID 0 ×2 on Z68, one result a side) the write doubles, and with one result a side
/// nothing is claimed; on the Marvell 88SS9174 C300 the pattern changes nothing. Eight
/// generated results a side at the article's ratio make the WILDFIRE's effect clear;
/// settings that differ in two fields do not pair and are counted as left out. The CSV
/// carries the same numbers; unknown effects and factors say so.
pub(super) async fn random_and_zero_fill_pair_within_a_drive(app: &TestApp) {
    refresh(app).await;
    let pattern = effects_of(app, "data_pattern").await;
    assert_eq!(pattern["label"], "Data pattern");
    let seq_write = |f: &Value| -> Value {
        f["effects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["test_id"] == "cdm-native SEQ 1MiB Q1T1 write")
            .cloned()
            .unwrap_or_else(|| panic!("a SEQ 1MiB write effect: {f}"))
    };
    let effect = seq_write(&pattern);
    assert_eq!((effect["a"].as_str(), effect["b"].as_str()), (Some("random"), Some("zero-fill")));
    assert_eq!(effect["verdict"], "too-few-results", "{effect}");
    assert!(effect["low"].is_null() && effect["high"].is_null(), "{effect}");

    // The WILDFIRE's pair: its two seed results, one a side, their ratio exactly.
    let (random, zero) = (wildfire_raid0(app, "random").await, wildfire_raid0(app, "zero-fill").await);
    assert_eq!(zero.len(), 1, "one 0-fill result: {zero:?}");
    let random_write: Vec<i64> = {
        let mut with_write = Vec::new();
        for id in random {
            let r = app.get(&format!("/api/v1/results/{id}")).await.json();
            if r["result"]["metrics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["access"] == "seq" && m["op"] == "write")
            {
                with_write.push(id);
            }
        }
        with_write
    };
    assert_eq!(random_write.len(), 1, "one random result with a write: {random_write:?}");
    let expected = seq_mbps(app, zero[0], "write").await / seq_mbps(app, random_write[0], "write").await;
    assert!(expected > 2.0, "the article: 0-fill writes twice as fast on SandForce ({expected})");
    let behind = drive_effects(app, &pattern, WILDFIRE).await;
    let (_, wildfire) =
        behind.iter().find(|(e, _)| e["test_id"] == effect["test_id"]).expect("the WILDFIRE's write");
    assert!((wildfire["ratio"].as_f64().unwrap() / expected - 1.0).abs() < 1e-9, "{wildfire} vs {expected}");
    assert_eq!(wildfire["verdict"], "too-few-results");
    assert_eq!(
        (wildfire["n_a"].as_u64(), wildfire["n_b"].as_u64(), wildfire["units"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(wildfire["drive_label"], "Patriot WILDFIRE 120 GB");

    // The Marvell 88SS9174 drives measured both ways: no effect to speak of.
    let mut marvell = 0;
    for sku in ["crucial-realssd-c300-64gb", "crucial-realssd-c400-128gb", "intel-ssd-510-120gb"] {
        for (e, d) in drive_effects(app, &pattern, sku).await {
            let ratio = d["ratio"].as_f64().unwrap();
            assert!((0.9..1.1).contains(&ratio), "{sku} {}: {d}", e["test_id"]);
            marvell += 1;
        }
    }
    assert!(marvell >= 2, "a Marvell drive measured with both patterns, read and write");

    // Eight results a side on a setting of their own, at the article's ratio: clear.
    let r = post_wildfire_writes(app, "EFFECTS-A", 384.0, 384.0 * expected).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let pending = app.get("/api/v1/effects").await.json();
    assert_eq!(
        pending["pending_drives"], 1,
        "the WILDFIRE waits for the refresh: {}",
        pending["pending_drives"]
    );
    refresh(app).await;
    let pattern = effects_of(app, "data_pattern").await;
    let effect = seq_write(&pattern);
    let behind = drive_effects(app, &pattern, WILDFIRE).await;
    let (_, wildfire) =
        behind.iter().find(|(e, _)| e["test_id"] == effect["test_id"]).expect("the WILDFIRE's write");
    assert_eq!(wildfire["verdict"], "clear", "{wildfire}");
    assert_eq!((wildfire["units"].as_u64(), wildfire["weighed"].as_u64()), (Some(2), Some(1)), "{wildfire}");
    assert_eq!((wildfire["n_a"].as_u64(), wildfire["n_b"].as_u64()), (Some(9), Some(9)), "{wildfire}");
    let (low, high) = (wildfire["low"].as_f64().unwrap(), wildfire["high"].as_f64().unwrap());
    assert!(low < expected && expected < high && low > 1.5, "{wildfire} vs {expected}");
    // Across drives, the WILDFIRE's interval is the only one: the effect is its.
    assert_eq!(effect["verdict"], "clear", "{effect}");
    assert_eq!(effect["units"], 2, "the WILDFIRE and the C300: {effect}");

    // Two fields apart (pattern and chipset) on a drive measured only so: no pair,
    // counted as left out once for each field.
    let left_out = |f: &Value| f["left_out"].as_u64().unwrap();
    let before = (left_out(&pattern), left_out(&effects_of(app, "chipset").await));
    let two_apart: Vec<Value> = [("random", "EFFECTS-B"), ("zero-fill", "EFFECTS-C")]
        .iter()
        .map(|(p, chipset)| {
            let mut r = a_result(300.0);
            r["data_pattern"] = json!(p);
            let drive = json!({"vendor": "Effectstest", "model": "EF1", "capacity_gb": 256});
            json!({"result": r, "tags": {"drive": drive, "platform": {"chipset": chipset}}})
        })
        .collect();
    let r = app.post_json("/api/v1/results", &json!(two_apart)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let first =
        r.json()["files"][0]["id"].as_i64().unwrap_or_else(|| panic!("one reply per result: {}", r.text));
    let community = app.get(&format!("/api/v1/results/{first}")).await.json();
    let new_drive = community["tags"]["drive"]["sku"].as_str().expect("a community drive").to_string();
    refresh(app).await;
    let pattern_after = effects_of(app, "data_pattern").await;
    let chipset_after = effects_of(app, "chipset").await;
    assert_eq!(left_out(&pattern_after), before.0 + 1, "{pattern_after}");
    assert_eq!(left_out(&chipset_after), before.1 + 1, "{chipset_after}");
    assert!(drive_effects(app, &chipset_after, &new_drive).await.is_empty(), "two fields apart paired");
    assert!(drive_effects(app, &pattern_after, &new_drive).await.is_empty(), "two fields apart paired");

    // The CSV: the same effects, the same numbers.
    let csv = app.get("/api/v1/effects?factor=data_pattern&format=csv").await;
    assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
    let mut rows = csv::Reader::from_reader(csv.text.as_bytes());
    let header = rows.headers().unwrap().clone();
    let col =
        |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name} in {header:?}"));
    let lines: Vec<csv::StringRecord> = rows.records().map(|r| r.unwrap()).collect();
    assert_eq!(lines.len(), pattern_after["effects"].as_array().unwrap().len());
    let line =
        lines.iter().find(|l| &l[col("test")] == "cdm-native SEQ 1MiB Q1T1 write").expect("the write line");
    let ratio: f64 = line[col("ratio")].parse().unwrap();
    assert!((ratio - seq_write(&pattern_after)["ratio"].as_f64().unwrap()).abs() < 1e-3, "{line:?}");
    assert_eq!(&line[col("verdict")], "clear");

    // The chart embeds: a row per effect, in SVG and PNG; the page shows the SVG.
    let svg = app.get("/api/v1/effects/chart.svg?factor=data_pattern").await;
    assert_eq!(svg.status, StatusCode::OK, "{}", svg.text);
    assert!(svg.content_type.starts_with("image/svg+xml"), "{}", svg.content_type);
    assert!(svg.text.contains("cdm-native SEQ 1MiB Q1T1 write · random → zero-fill"), "{}", svg.text);
    assert!(svg.text.contains("clear · 2 drives"), "{}", svg.text);
    assert_eq!(svg.text.matches("<circle").count(), pattern_after["effects"].as_array().unwrap().len());
    let png = app.get("/api/v1/effects/chart.png?factor=data_pattern&theme=dark").await;
    assert_eq!(png.status, StatusCode::OK);
    assert!(png.bytes.starts_with(b"\x89PNG"));
    assert_eq!(
        app.get("/api/v1/effects/chart.svg").await.status,
        StatusCode::BAD_REQUEST,
        "one factor per chart"
    );
    let page = app.get("/fragments/effects?factor=data_pattern").await.text;
    assert!(page.contains("src=\"/api/v1/effects/chart.svg?factor=data_pattern\""), "{page}");

    // What was not measured, and what is not a factor, say so.
    let r = app.get("/api/v1/effects/drives?factor=data_pattern&a=random&b=zero-fill&test=fio%20SEQ%201MiB%20Q1T1%20read").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    let r = app.get("/api/v1/effects?factor=colour").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert!(r.text.contains("data_pattern"), "the answer lists the factors: {}", r.text);
}

/// A generated drive history: eight results on each of FW9, FW10 and FW11 (in numbered
/// order, not the order submitted), the sequential read 10 % faster from FW11 on, the
/// 4K read the same throughout. The drive's firmware history marks the FW10 → FW11 step
/// on the sequential read and nothing else; the drive page's table says so.
pub(super) async fn firmware_steps_are_marked_only_beyond_the_noise(app: &TestApp) {
    let drive = json!({"vendor": "Fwtest", "model": "FW1", "capacity_gb": 512});
    let mut batch = Vec::new();
    // FW10 as FW9 with a slightly wider spread (identical results would be duplicates).
    for (fw, level, spread) in [("FW11", 550.0, 0.003), ("FW9", 500.0, 0.003), ("FW10", 500.0, 0.0032)] {
        for i in 0..8 {
            let noise = 1.0 + (i as f64 - 3.5) * spread;
            batch.push(json!({"result": a_result(level * noise), "tags": {"drive": drive, "firmware": fw}}));
        }
    }
    let r = app.post_json("/api/v1/results", &json!(batch)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let first = r.json()["files"][0]["id"].as_i64().unwrap();
    let sku = app.get(&format!("/api/v1/results/{first}")).await.json()["tags"]["drive"]["sku"]
        .as_str()
        .unwrap()
        .to_string();

    let h = app.get(&format!("/api/v1/drives/{sku}/firmware")).await;
    assert_eq!(h.status, StatusCode::OK, "{}", h.text);
    let h = h.json();
    assert_eq!(h["versions"], json!(["FW9", "FW10", "FW11"]), "{h}");
    let series = h["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "the two tests, one pool: {h}");
    for s in series {
        let steps = s["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 2, "{s}");
        assert_eq!(
            s["points"].as_array().unwrap().iter().map(|p| p["n"].as_u64().unwrap()).collect::<Vec<_>>(),
            [8, 8, 8]
        );
        let changes: Vec<(&str, &str)> = steps
            .iter()
            .filter(|st| st["change"] == true)
            .map(|st| (st["from"].as_str().unwrap(), st["to"].as_str().unwrap()))
            .collect();
        if s["test"]["access"] == "seq" {
            assert_eq!(changes, [("FW10", "FW11")], "{s}");
            let d = &steps[1]["difference"];
            assert!((d["ratio"].as_f64().unwrap() - 1.1).abs() < 1e-6, "{d}");
            assert_eq!(d["verdict"], "clear");
            let (m9, m11) =
                (s["points"][0]["median"].as_f64().unwrap(), s["points"][2]["median"].as_f64().unwrap());
            assert!((m11 / m9 - 1.1).abs() < 1e-6, "{m9} → {m11}");
        } else {
            assert!(changes.is_empty(), "the 4K read never changed: {s}");
        }
    }
    let html = app.get(&format!("/fragments/drives/{sku}/firmware")).await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text);
    assert!(
        html.text.contains("Firmware over time") && html.text.contains("▲ ×1.10 (+10 %)"),
        "{}",
        html.text
    );
    assert_eq!(html.text.matches("step change").count(), 1, "{}", html.text);
    // One version alone has no steps; an unknown drive is a 404.
    let none = app.get(&format!("/fragments/drives/{}/firmware", super::C300_64)).await;
    assert_eq!(none.status, StatusCode::OK);
    assert_eq!(app.get("/api/v1/drives/no-such-drive/firmware").await.status, StatusCode::NOT_FOUND);
}

/// Why is this result different: the WILDFIRE's one 0-fill seed result stands alone in
/// its pool, differs from its drive's usual data pattern (random), and the measured
/// random → 0-fill effect on its test is shown, claiming nothing with one result a side;
/// once eight results a side show the effect clearly, a 0-fill result is explained by it.
pub(super) async fn a_result_says_where_it_stands_and_what_explains_it(app: &TestApp) {
    refresh(app).await;
    let zero = wildfire_raid0(app, "zero-fill").await[0];
    let s = app.get(&format!("/api/v1/results/{zero}/standing")).await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    let s = s.json();
    assert_eq!(s["drive"], WILDFIRE);
    assert!(s["pool_label"].as_str().unwrap().contains("RAID 0 ×2"), "{s}");
    let write = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["test_id"] == "cdm-native SEQ 1MiB Q1T1 write")
        .cloned()
        .expect("its write");
    assert_eq!((write["n"].as_u64(), write["percentile"].as_f64()), (Some(1), Some(50.0)), "{write}");
    let pattern = s["unusual"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["field"] == "data_pattern")
        .cloned()
        .expect("the data pattern differs");
    assert_eq!(
        (pattern["value"].as_str(), pattern["usual"].as_str()),
        (Some("zero-fill"), Some("random")),
        "{pattern}"
    );
    let effect = pattern["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["test_id"] == write["test_id"])
        .cloned()
        .expect("the write's effect");
    let combined = effects_of(app, "data_pattern").await;
    let listed = combined["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["test_id"] == write["test_id"])
        .cloned()
        .unwrap();
    assert_eq!(effect["ratio"], listed["ratio"], "usual → this result reads as random → zero-fill");
    assert_eq!(effect["verdict"], "too-few-results");
    assert_eq!(s["explained"], false, "{s}");
    let html = app.get(&format!("/fragments/results/{zero}/standing")).await.text;
    assert!(html.contains("Where it stands") && html.contains("Nothing measured explains"), "{html}");

    // Eight a side: the effect is clear and explains a 0-fill result.
    let r = post_wildfire_writes(app, "STANDING", 380.0, 830.0).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let zero_fill = r.json()["files"][1]["id"].as_i64().unwrap();
    refresh(app).await;
    let s = app.get(&format!("/api/v1/results/{zero_fill}/standing")).await.json();
    assert_eq!(s["tests"][0]["n"], 8, "{s}");
    let pattern =
        s["unusual"].as_array().unwrap().iter().find(|u| u["field"] == "data_pattern").cloned().expect("{s}");
    let effect = pattern["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["test_id"] == "cdm-native SEQ 1MiB Q1T1 write")
        .cloned()
        .expect("{pattern}");
    assert_eq!(effect["verdict"], "clear", "{effect}");
    assert!(effect["ratio"].as_f64().unwrap() > 2.0, "{effect}");
    assert_eq!(s["explained"], true, "{s}");

    // A result without a drive stands in no pool.
    let lone = app.post_json("/api/v1/results", &json!({"result": a_result(123.4)})).await.json()["id"]
        .as_i64()
        .unwrap();
    let s = app.get(&format!("/api/v1/results/{lone}/standing")).await.json();
    assert!(s["drive"].is_null() && s["tests"].as_array().unwrap().is_empty(), "{s}");
    assert_eq!(app.get("/api/v1/results/999999/standing").await.status, StatusCode::NOT_FOUND);
}
