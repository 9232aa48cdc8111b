//! Drive identity on both backends: a drive the catalogue lacks gets a page of its own,
//! model strings and part numbers land on the drive they name, an ambiguous one is stored
//! without a guess, junk is refused with its field, and concurrent submissions of one new
//! drive make one drive.

use super::{a_result, common, TestApp};
use bench::identity::Identity;

const C300_256: &str = "crucial-realssd-c300-256gb";
use axum::http::{header, Method, StatusCode};
use serde_json::{json, Value};

/// The real CrystalDiskMark 8.0.2 export of a Crucial P2 (its comment: "Crucial P2 2TB @
/// PCIe 3.0 x4").
fn crucial_p2_export() -> String {
    let path = common::shared().join(
        "corpus/real/cdm8/10__soerenmetje_CrystalDiskMark-Parser__8.0.2_x64_crucial_p2_x370_nvme_profile.txt",
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

async fn drive_list(app: &TestApp) -> Vec<Value> {
    app.get("/api/v1/drives").await.json()["drives"].as_array().unwrap().clone()
}

async fn stored_drive_tag(app: &TestApp, id: i64) -> Value {
    app.get(&format!("/api/v1/results/{id}")).await.json()["tags"]["drive"].clone()
}

/// Posts a result with these drive tags; its id.
async fn post_with_drive(app: &TestApp, seq_read: f64, drive: Value) -> i64 {
    let r = app
        .post_json("/api/v1/results", &json!({"result": a_result(seq_read), "tags": {"drive": drive}}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{drive}: {}", r.text);
    r.json()["id"].as_i64().unwrap()
}

/// `identify?text=…`: an upload's texts (its comment, its target) in order; the answer is
/// for the first that names a drive, and a text that reads as no drive's name is passed
/// over rather than turned into a community drive.
async fn an_uploads_texts_name_its_drive(app: &TestApp) {
    let identify = |texts: &[&str]| {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for t in texts {
            query.append_pair("text", t);
        }
        format!("/api/v1/drives/identify?{}", query.finish())
    };
    let answer = |texts: &'static [&'static str]| {
        let url = identify(texts);
        async move {
            let r = app.get(&url).await;
            assert_eq!(r.status, StatusCode::OK, "{texts:?}: {}", r.text);
            r.json()
        }
    };
    // A comment that names nothing, then a target that does.
    let found = answer(&["test run 3", "Crucial P2 2TB @ PCIe 3.0 x4"]).await;
    assert_eq!(
        (found["query"].as_str(), found["identified_by"].as_str(), found["drive"]["id"].as_str()),
        (Some("Crucial P2 2TB @ PCIe 3.0 x4"), Some("created"), Some("crucial-p2-2000gb")),
        "{found}"
    );
    // A model string of a catalogue drive counts though it has no vendor or capacity
    // (the article's part number of the C300 128 GB), and junk is passed over.
    let found = answer(&["!!!", "CTFDDAC128MAG-1G1"]).await;
    assert_eq!(
        (found["identified_by"].as_str(), found["exists"].as_bool(), found["drive"]["id"].as_str()),
        (Some("alias"), Some(true), Some("crucial-realssd-c300-128gb")),
        "{found}"
    );
    // A comment naming a drive without its capacity ("Crucial MX500", a screenshot's
    // comment row) with the capacity its volume shows; a comment naming no drive stays
    // unknown with it; the capacity goes with texts only.
    let with_capacity = |text: &str, gb: &str| {
        format!("/api/v1/drives/identify?text={}&capacity_gb={gb}", api_types::links::encode(text))
    };
    let r = app.get(&with_capacity("Crucial MX500", "500")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let found = r.json();
    assert_eq!(
        (
            found["identified_by"].as_str(),
            found["drive"]["vendor"].as_str(),
            found["drive"]["capacity_gb"].as_u64()
        ),
        (Some("created"), Some("Crucial"), Some(500)),
        "{found}"
    );
    let found = app.get(&with_capacity("after a fresh Windows install", "500")).await.json();
    assert_eq!(found["identified_by"], "unknown", "{found}");
    app.get("/api/v1/drives/identify?q=MX500&capacity_gb=500")
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("capacity_gb"));
    app.get(&with_capacity("Crucial MX500", "0"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("capacity_gb"));
    // Nothing names a drive: unknown, and nothing stored.
    let found = answer(&["test run 3", "C: 16% (19/119GiB)"]).await;
    assert_eq!(
        (found["identified_by"].as_str(), found["drive"].is_null()),
        (Some("unknown"), true),
        "{found}"
    );
    // As the submit page shows it: the proposal with a button whose data attributes are
    // the tag fields it fills; a drive SSDBase has fills only its id; nothing named, nothing.
    let html = |texts: &[&str]| identify(texts).replacen("/api/v1/", "/fragments/", 1);
    let r = app.get(&html(&["Crucial P2 2TB @ PCIe 3.0 x4 <b>"])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("\u{201c}Crucial P2 2TB @ PCIe 3.0 x4 &lt;b&gt;\u{201d}"), "escaped: {}", r.text);
    assert!(
        r.text.contains(r#"<button type="button" data-drive="" data-vendor="Crucial" data-model="P2" data-capacity_gb="2000">"#),
        "{}",
        r.text
    );
    let r = app.get(&html(&["CTFDDAC128MAG-1G1"])).await;
    assert!(
        r.text.contains(r#"data-drive="crucial-realssd-c300-128gb">"#) && r.text.contains("is in SSDBase."),
        "{}",
        r.text
    );
    assert_eq!(app.get(&html(&["test run 3"])).await.text, "");
    for bad in [
        "/api/v1/drives/identify?q=P2&format=csv",
        "/api/v1/drives/identify?q=P2&text=P2",
        "/api/v1/drives/identify?text=a&text=b&text=c&text=d&text=e",
    ] {
        let r = app.get(bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text);
    }
}

pub async fn a_drive_not_in_the_catalogue_gets_a_page_compare_and_search(app: &TestApp) {
    let before = drive_list(app).await;
    assert!(before.iter().all(|d| d["reviewed"] == true), "the seeds are the reviewed catalogue");

    // What the export's comment names, before and after a submission creates the drive.
    let comment = "/api/v1/drives/identify?q=Crucial%20P2%202TB%20%40%20PCIe%203.0%20x4";
    let named = app.get(comment).await;
    assert_eq!(named.status, StatusCode::OK, "{}", named.text);
    let named = named.json();
    assert_eq!(
        (named["identified_by"].as_str(), named["exists"].as_bool()),
        (Some("created"), Some(false)),
        "{named}"
    );
    assert_eq!(named["drive"]["id"], "crucial-p2-2000gb");
    assert_eq!(drive_list(app).await.len(), before.len(), "identifying stores nothing");
    let junk = app.get("/api/v1/drives/identify?q=%21%21%21").await;
    assert_eq!(junk.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", junk.text);
    assert_eq!(junk.json()["errors"][0]["pointer"], "q");
    an_uploads_texts_name_its_drive(app).await;

    let body = json!({"text": crucial_p2_export(),
        "tags": {"drive": {"vendor": "Crucial", "model": "P2", "capacity_gb": 500}}});
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let tag = stored_drive_tag(app, id).await;
    assert_eq!(tag["sku"], "crucial-p2-500gb", "{tag}");
    assert_eq!(tag["identified_by"], "created");

    // Listed, marked not reviewed, with its result.
    let after = drive_list(app).await;
    assert_eq!(after.len(), before.len() + 1);
    let p2 = after.iter().find(|d| d["id"] == "crucial-p2-500gb").expect("listed");
    assert_eq!((p2["reviewed"].clone(), p2["result_count"].clone()), (json!(false), json!(1)));
    assert_eq!(
        (p2["vendor"].as_str(), p2["model"].as_str(), p2["capacity_gb"].as_u64()),
        (Some("Crucial"), Some("P2"), Some(500))
    );

    // Its page holds the result and its per-test aggregates.
    let page = app.get("/api/v1/drives/crucial-p2-500gb").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let page = page.json();
    assert_eq!(page["results"].as_array().unwrap().len(), 1, "{page}");
    assert!(!page["tests"].as_array().unwrap().is_empty(), "aggregates per test: {page}");

    // Compare with a catalogue drive: the P2's SEQ 1MiB Q8T1 read (2293 MB/s) is there.
    let c = app.get(&format!("/api/v1/compare?drives=crucial-p2-500gb,{C300_256}")).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    assert!(c.text.contains("2293.007"), "{}", c.text);

    // The same drive named differently lands on it: a model string with vendor and
    // capacity in it, odd case and spacing.
    let again = post_with_drive(app, 2100.0, json!({"model": "CRUCIAL  p2   500GB"})).await;
    let tag = stored_drive_tag(app, again).await;
    assert_eq!(
        (tag["sku"].as_str(), tag["identified_by"].as_str()),
        (Some("crucial-p2-500gb"), Some("name")),
        "{tag}"
    );
    assert_eq!(drive_list(app).await.len(), before.len() + 1, "no second drive");

    let named = app.get("/api/v1/drives/identify?q=CRUCIAL%20P2%20500GB").await.json();
    assert_eq!(
        (named["identified_by"].as_str(), named["exists"].as_bool()),
        (Some("name"), Some(true)),
        "{named}"
    );

    // Search as you type finds it, by vendor and model and by model alone.
    for q in ["crucial%20p2", "P2%20500", "cruc"] {
        let found = app.get(&format!("/api/v1/drives/search?q={q}")).await;
        assert_eq!(found.status, StatusCode::OK, "{}", found.text);
        let found = found.json();
        let hit = found["drives"].as_array().unwrap().iter().find(|d| d["id"] == "crucial-p2-500gb").cloned();
        assert_eq!(hit.map(|d| d["result_count"].clone()), Some(json!(2)), "q={q}: {found}");
    }
    // Its typed query: every error points at its parameter.
    for (query, pointer) in [
        ("", "q"),
        ("q=", "q"),
        ("q=a&q=b", "q"),
        ("q=cruc&limit=many", "limit"),
        ("q=cruc&limit=0", "limit"),
        ("q=cruc&limit=51", "limit"),
        ("q=cruc&sort=name", "sort"),
    ] {
        app.get(&format!("/api/v1/drives/search?{query}"))
            .await
            .assert_error(StatusCode::BAD_REQUEST, Some(pointer));
    }
}

pub async fn model_strings_and_part_numbers_land_on_their_drive(app: &TestApp) {
    // As operating systems report it, with Cyrillic look-alike letters, in full width.
    for drive in [
        json!({"model": "PLEXTOR PX-256M2S"}),
        json!({"vendor": "Plехtor", "model": "PX-256M2S"}),
        json!({"model": "ＰＬＥＸＴＯＲ　ＰＸ－２５６Ｍ２Ｓ"}),
        json!({"part_number": "px 256 m2s"}),
    ] {
        let id = post_with_drive(app, 300.0 + drive.to_string().len() as f64, drive.clone()).await;
        let tag = stored_drive_tag(app, id).await;
        assert_eq!(tag["sku"], "plextor-px-m2s-256gb", "{drive} → {tag}");
        assert_eq!(tag["identified_by"], "alias", "{drive}");
        assert_eq!(tag["vendor"], "Plextor", "the catalogue's spelling: {tag}");
    }
    // The article's other catalog number for its C300 128 GB (a seed alias).
    let id = post_with_drive(app, 302.5, json!({"part_number": "CTFDDAC128MAG-1G1"})).await;
    assert_eq!(stored_drive_tag(app, id).await["sku"], "crucial-realssd-c300-128gb");
    // Two makers' drives share the keys written without a vendor ("p105500gb"): a tag
    // that names its vendor is not ambiguous between them.
    for (i, vendor) in ["Crucial", "Solidigm"].into_iter().enumerate() {
        post_with_drive(
            app,
            310.0 + i as f64,
            json!({"vendor": vendor, "model": "P 105", "capacity_gb": 500}),
        )
        .await;
    }
    let id =
        post_with_drive(app, 312.0, json!({"vendor": "solidigm", "model": "P105", "capacity_gb": 500})).await;
    let tag = stored_drive_tag(app, id).await;
    assert_eq!(tag["sku"], "solidigm-p-105-500gb", "{tag}");
    // Vendor, model line and capacity as the catalogue has them.
    let id = post_with_drive(
        app,
        301.5,
        json!({"vendor": "crucial", "model": "RealSSD C300", "capacity_gb": 256}),
    )
    .await;
    let tag = stored_drive_tag(app, id).await;
    assert_eq!((tag["sku"].as_str(), tag["identified_by"].as_str()), (Some(C300_256), Some("name")), "{tag}");
}

pub async fn ambiguous_and_unknown_drives_are_stored_without_a_guess(app: &TestApp) {
    let count =
        |drives: &[Value], id: &str| drives.iter().find(|d| d["id"] == id).unwrap()["result_count"].clone();
    let before = drive_list(app).await;
    // The name says the 128 GB M2S, the part number the 256 GB one.
    let id = post_with_drive(
        app,
        333.0,
        json!({"vendor": "Plextor", "model": "PX-M2S", "capacity_gb": 128, "part_number": "PX-256M2S"}),
    )
    .await;
    let tag = stored_drive_tag(app, id).await;
    assert!(tag["sku"].is_null(), "{tag}");
    assert_eq!(tag["identified_by"], "ambiguous");
    assert_eq!(tag["candidates"], json!(["plextor-px-m2s-128gb", "plextor-px-m2s-256gb"]));
    // Found by the filter moderators use, and counted on neither drive.
    let flagged = app.browse_ids("identified_by=ambiguous", None).await;
    assert!(flagged.contains(&id));
    let after = drive_list(app).await;
    assert_eq!(after.len(), before.len());
    for d in ["plextor-px-m2s-128gb", "plextor-px-m2s-256gb"] {
        assert_eq!(count(&after, d), count(&before, d), "{d}");
    }

    // A model line without its capacity: each capacity is a candidate, none is chosen.
    let id = post_with_drive(app, 337.5, json!({"vendor": "Plextor", "model": "PX-M2S"})).await;
    let tag = stored_drive_tag(app, id).await;
    assert_eq!(tag["identified_by"], "ambiguous", "{tag}");
    let candidates = tag["candidates"].as_array().unwrap();
    for d in ["plextor-px-m2s-128gb", "plextor-px-m2s-256gb"] {
        assert!(candidates.contains(&json!(d)), "{tag}");
    }
    assert!(candidates.iter().all(|c| c.as_str().unwrap().starts_with("plextor-px-m2s-")), "{tag}");
    // As a screenshot's comment names it, proposed as those candidates.
    let named = app.get("/api/v1/drives/identify?text=Plextor%20PX-M2S").await.json();
    assert_eq!(named["identified_by"], "ambiguous", "{named}");

    // No drive named: stored as unknown.
    let r = app.post_json("/api/v1/results", &json!({"result": a_result(334.0), "tags": {}})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let tag = stored_drive_tag(app, r.json()["id"].as_i64().unwrap()).await;
    assert!(tag["sku"].is_null());
    assert_eq!(tag["identified_by"], "unknown");

    // A submitter cannot claim how its drive was identified.
    let id = post_with_drive(app, 335.0, json!({"identified_by": "given", "candidates": ["x"]})).await;
    let tag = stored_drive_tag(app, id).await;
    assert_eq!(
        (tag["identified_by"].clone(), tag.get("candidates").cloned()),
        (json!("unknown"), None),
        "{tag}"
    );

    // The uploader names the drive later with the edit token: the result joins it.
    let r = app.post_json("/api/v1/results", &json!({"result": a_result(336.0), "tags": {}})).await;
    let (id, token) =
        (r.json()["id"].as_i64().unwrap(), r.json()["edit_token"].as_str().unwrap().to_string());
    let named = app
        .authed(
            Method::PATCH,
            &format!("/api/v1/results/{id}"),
            Some(&token),
            Some(&json!({"tags": {"drive": {"model": "Samsung SSD 870 EVO 1TB"}}})),
        )
        .await;
    assert_eq!(named.status, StatusCode::OK, "{}", named.text);
    let tag = stored_drive_tag(app, id).await;
    assert_eq!(
        (tag["sku"].as_str(), tag["identified_by"].as_str()),
        (Some("samsung-870-evo-1000gb"), Some("created")),
        "{tag}"
    );
    let page = app.get("/api/v1/drives/samsung-870-evo-1000gb").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(page.json()["drive"]["model"], "870 EVO");
}

pub async fn junk_drive_names_are_refused_with_their_field(app: &TestApp) {
    let before = drive_list(app).await.len();
    for (drive, pointer) in [
        (json!({"model": "x".repeat(10_000)}), "tags.drive.model"),
        (json!({"vendor": "Sam\u{7}sung", "model": "870 EVO", "capacity_gb": 500}), "tags.drive.vendor"),
        (json!({"model": "!!! --- ???"}), "tags.drive.model"),
        // A letter that looks like no Latin one, inside a Latin word.
        (json!({"vendor": "Plextor", "model": "PX-256Ж2S", "capacity_gb": 256}), "tags.drive.model"),
        (json!({"part_number": "\u{1b}[31m"}), "tags.drive.part_number"),
    ] {
        let r = app
            .post_json("/api/v1/results", &json!({"result": a_result(280.0), "tags": {"drive": drive}}))
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{drive}: {}", r.text);
        assert_eq!(r.json()["errors"][0]["pointer"], pointer, "{}", r.text);
    }
    assert_eq!(drive_list(app).await.len(), before, "nothing stored");
}

pub async fn concurrent_submissions_of_one_new_drive_make_one_drive(app: &TestApp) {
    // Eight requests in flight at once through the same router, each on its own task.
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..8 {
        let router = app.router.clone();
        let body = json!({"result": a_result(500.0 + f64::from(i)),
            "tags": {"drive": {"vendor": "Kingston", "model": "A400", "capacity_gb": 240}}});
        tasks.spawn(async move {
            let request = axum::http::Request::post("/api/v1/results")
                .header("content-type", "application/json")
                .extension(axum::extract::ConnectInfo(std::net::SocketAddr::from(([10, 1, 0, i], 1))))
                .body(axum::body::Body::from(body.to_string()))
                .unwrap();
            let answer = tower::ServiceExt::oneshot(router, request).await.unwrap();
            let status = answer.status();
            let body = axum::body::to_bytes(answer.into_body(), usize::MAX).await.unwrap();
            (status, String::from_utf8_lossy(&body).into_owned())
        });
    }
    for (status, body) in tasks.join_all().await {
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let kingston: Vec<Value> =
        drive_list(app).await.into_iter().filter(|d| d["vendor"] == "Kingston").collect();
    assert_eq!(kingston.len(), 1, "{kingston:?}");
    assert_eq!(
        (kingston[0]["id"].as_str(), kingston[0]["result_count"].as_i64()),
        (Some("kingston-a400-240gb"), Some(8))
    );
}

pub async fn the_drives_index_and_leaderboards_rank_one_test_with_n(app: &TestApp) {
    for (i, seq) in [540.0, 530.0, 520.0].into_iter().enumerate() {
        post_with_drive(
            app,
            seq + i as f64 * 0.1,
            json!({"vendor": "Kingston", "model": "A400", "capacity_gb": 240}),
        )
        .await;
    }
    post_with_drive(app, 900.0, json!({"vendor": "Crucial", "model": "MX500", "capacity_gb": 500})).await;

    // The index: every drive with its count; community drives filterable.
    let index = app.get("/api/v1/drives/index?reviewed=false&sort=results").await;
    assert_eq!(index.status, StatusCode::OK, "{}", index.text);
    let rows = index.json()["drives"].as_array().unwrap().clone();
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["kingston-a400-240gb", "crucial-mx500-500gb"], "most results first");
    let key = &rows[0]["key"]["seq_read"];
    assert_eq!((key["n"].as_u64(), key["median_mbps"].as_f64()), (Some(3), Some(530.1)), "{key}");
    let test = key["test"].as_str().unwrap().to_string();
    let whole = app.get("/api/v1/drives/index").await.json();
    let all: Vec<Value> = whole["drives"].as_array().unwrap().clone();
    assert_eq!(all.len(), drive_list(app).await.len(), "every drive (fewer than a page)");
    assert_eq!(whole["total"].as_u64(), Some(all.len() as u64));
    // Pages: the same drives in the same order, a page at a time, each saying the total.
    let mut paged = Vec::new();
    for offset in (0..all.len()).step_by(7) {
        let page = app.get(&format!("/api/v1/drives/index?limit=7&offset={offset}")).await.json();
        assert_eq!((page["total"].as_u64(), page["limit"].as_u64()), (Some(all.len() as u64), Some(7)));
        paged.extend(page["drives"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(paged, all, "pages put together are the whole index");
    let past = app.get(&format!("/api/v1/drives/index?offset={}", all.len())).await.json();
    assert_eq!(past["drives"].as_array().unwrap().len(), 0);
    for bad in ["limit=0", "limit=501", "offset=-1", "limit=x"] {
        let r = app.get(&format!("/api/v1/drives/index?{bad}")).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text);
    }
    let sata = app.get("/api/v1/drives/index?interface=sata").await.json();
    let sata = sata["drives"].as_array().unwrap();
    assert!(!sata.is_empty() && sata.iter().all(|d| d["interface"].as_str().unwrap().starts_with("sata-")));
    assert_eq!(app.get("/api/v1/drives/index?sort=speed").await.status, StatusCode::BAD_REQUEST);

    // The leaderboard of that test: the Kingston (n = 3) ranks; the MX500 (n = 1) is left
    // out unless asked for; medians never increase down the board.
    let q = super::url_encode(&test);
    let board = app.get(&format!("/api/v1/leaderboard?test={q}")).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.text);
    let board = board.json();
    let lines = board["rows"].as_array().unwrap();
    let line = |id: &str| lines.iter().find(|r| r["drive_id"] == id).cloned();
    assert_eq!(line("kingston-a400-240gb").map(|r| r["n"].clone()), Some(json!(3)), "{board}");
    assert!(line("crucial-mx500-500gb").is_none());
    assert!(board["left_out"].as_u64().unwrap() >= 1);
    let medians: Vec<f64> = lines.iter().map(|r| r["median_mbps"].as_f64().unwrap()).collect();
    assert!(medians.windows(2).all(|w| w[0] >= w[1]), "{medians:?}");
    assert!(lines.iter().all(|r| r["test"] == test.as_str()), "one test only");
    let everyone =
        app.get(&format!("/api/v1/leaderboard?test={q}&min_results=1&reviewed=false")).await.json();
    let names: Vec<&str> =
        everyone["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Crucial MX500 500 GB", "Kingston A400 240 GB"]);
    assert_eq!(app.get("/api/v1/leaderboard").await.status, StatusCode::BAD_REQUEST, "a test is required");
    // A test no result can have (PostgreSQL refuses NUL in text): an empty board, as
    // schemathesis asked it.
    for filter in ["", "&interface=sata"] {
        let none = app.get(&format!("/api/v1/leaderboard?test=a%00b{filter}")).await;
        assert_eq!(none.status, StatusCode::OK, "{}", none.text);
        assert_eq!(none.json()["rows"], json!([]), "{}", none.text);
    }

    // The tests a leaderboard can rank, with their drives, ranked lines (n >= 3) and
    // results; most ranked lines first.
    let listed = app.get("/api/v1/leaderboard/tests?reviewed=false").await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let listed: api_types::LeaderboardTests = serde_json::from_str(&listed.text).unwrap();
    let ours = listed.tests.iter().find(|t| t.test == test).expect("the test is listed");
    assert_eq!((ours.drives, ours.ranked, ours.results), (2, 1, 4), "{listed:?}");
    let every: api_types::LeaderboardTests =
        serde_json::from_str(&app.get("/api/v1/leaderboard/tests").await.text).unwrap();
    assert!(every.tests.len() > listed.tests.len(), "the seeds' tests too");
    assert!(every.tests.windows(2).all(|w| (w[0].ranked, w[0].drives) >= (w[1].ranked, w[1].drives)));
    assert!(every.tests.iter().all(|t| t.drives >= 1 && t.results >= t.drives && t.ranked <= t.results));
    app.get("/api/v1/leaderboard/tests?colour=red")
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("colour"));

    // The site's tables (`/fragments`): links to the site's pages, each figure with its n
    // and test, sort headers and "show them" as the same page with one parameter changed.
    let page = app.get("/fragments/drives/index?reviewed=false&sort=results").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.content_type.starts_with("text/html"), "{}", page.content_type);
    let html = &page.text;
    for part in [
        "href=\"/drives/kingston-a400-240gb\"",
        "not reviewed yet",
        "n=3",
        &format!("href=\"/leaderboard?test={}\"", super::url_encode(&test)),
        "aria-sort=\"descending\"><a href=\"/drives?reviewed=false&amp;sort=-results\"",
        "2 drives: 0 reviewed, 2 not reviewed yet",
    ] {
        assert!(html.contains(part), "{part} in {html}");
    }
    assert!(html.find("kingston-a400").unwrap() < html.find("crucial-mx500").unwrap(), "most results first");
    let board = app.get(&format!("/fragments/leaderboard?test={q}&reviewed=false")).await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.text);
    for part in [
        "href=\"/drives/kingston-a400-240gb\"",
        "n=3",
        "1 line with fewer than 3 results left out",
        &format!("href=\"/leaderboard?test={q}&amp;reviewed=false&amp;min_results=1\""),
    ] {
        assert!(board.text.contains(part), "{part} in {}", board.text);
    }
    assert!(!board.text.contains("crucial-mx500"), "{}", board.text);
    let thin = app.get(&format!("/fragments/leaderboard?test={q}&reviewed=false&min_results=1")).await;
    for part in ["href=\"/drives/crucial-mx500-500gb\"", "few results", "Leave them out"] {
        assert!(thin.text.contains(part), "{part} in {}", thin.text);
    }
    // The filter fields' suggestions: every drive's values, as data and as the site's
    // datalists, cached.
    let s = app.get("/api/v1/drives/suggestions").await;
    assert_eq!(s.status, StatusCode::OK, "{}", s.text);
    assert_eq!(s.headers[header::CACHE_CONTROL], "public, max-age=300");
    let vendors = s.json()["vendor"].as_array().unwrap().clone();
    assert!(vendors.contains(&json!("Plextor")) && vendors.contains(&json!("Kingston")), "{vendors:?}");
    assert!(s.json()["interface"].as_array().unwrap().contains(&json!("sata")), "{}", s.text);
    let lists = app.get("/fragments/drives/suggestions").await.text;
    assert!(
        lists.contains("<datalist id=\"index-vendor\"><option value=\"")
            && lists.contains("value=\"Plextor\""),
        "{lists}"
    );
    // The API answers data only.
    app.get("/api/v1/drives/index?format=html").await.assert_error(StatusCode::BAD_REQUEST, Some("format"));
    app.get(&format!("/api/v1/leaderboard?test={q}&format=csv"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("format"));
}

/// A RAID set of a drive is not the drive: leaderboards rank arrays apart (labelled with
/// level and members), and a drive's key figures in the index are its own. The seeds'
/// two-drive RAID 0 of the C300 64 GB, ranked first among single drives before, and a
/// made-up array faster than its drive alone.
pub async fn arrays_are_ranked_apart_from_single_drives(app: &TestApp) {
    let single = |r: &Value| r["platform"]["raid_members"].as_u64().unwrap_or(1) < 2;
    let q = super::url_encode("cdm-native SEQ 1MiB Q1T1 read");
    let board = app.get(&format!("/api/v1/leaderboard?test={q}&min_results=1")).await.json();
    let rows = board["rows"].as_array().unwrap();
    let arrays = board["arrays"].as_array().unwrap();
    assert!(rows.iter().all(|r| single(r) && r["array"].is_null()), "only single drives rank: {board}");
    assert!(!arrays.is_empty(), "the seeds' RAID 0 sets: {board}");
    for a in arrays {
        let (level, members) =
            (a["platform"]["raid_level"].as_u64().unwrap(), a["platform"]["raid_members"].as_u64().unwrap());
        assert_eq!(a["array"], format!("RAID {level} ×{members}"), "{a}");
    }
    assert!(arrays.iter().any(|a| a["drive_id"] == super::C300_64 && a["array"] == "RAID 0 ×2"), "{board}");
    assert_eq!(arrays[0]["rank"], 1, "arrays are ranked among themselves");

    // Three results of one drive alone and three of two of it in RAID 0, twice as fast.
    let drive = json!({"vendor": "Kingston", "model": "KC3000", "capacity_gb": 1024});
    for (i, (seq, raid)) in [
        (3000.0, None),
        (3010.0, None),
        (3020.0, None),
        (6000.0, Some(2)),
        (6010.0, Some(2)),
        (6020.0, Some(2)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut tags = json!({"drive": drive, "platform": {"chipset": "ARRAYTEST"}});
        if let Some(members) = raid {
            tags["raid"] = json!({"level": 0, "members": members, "stripe_bytes": null});
        }
        let r = app
            .post_json("/api/v1/results", &json!({"result": a_result(seq + i as f64 * 0.01), "tags": tags}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    }
    let board = app.get(&format!("/api/v1/leaderboard?test={q}&vendor=Kingston")).await;
    let board = board.json();
    let rows = board["rows"].as_array().unwrap();
    let arrays = board["arrays"].as_array().unwrap();
    let kc3000 = "kingston-kc3000-1024gb";
    let mine = |list: &[Value]| list.iter().filter(|r| r["drive_id"] == kc3000).cloned().collect::<Vec<_>>();
    let (alone, striped) = (mine(rows), mine(arrays));
    assert_eq!(alone.len(), 1, "{board}");
    assert_eq!(striped.len(), 1, "{board}");
    assert!((alone[0]["median_mbps"].as_f64().unwrap() - 3010.01).abs() < 0.1, "{}", alone[0]);
    assert_eq!(striped[0]["array"], "RAID 0 ×2");
    assert_eq!(striped[0]["rank"], 1);
    // Its key figure in the index is the drive alone's.
    let index = app.get("/api/v1/drives/index?vendor=Kingston").await.json();
    let row = index["drives"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == kc3000)
        .cloned()
        .expect("in the index");
    let key = &row["key"]["seq_read"];
    assert!(key["platform"]["raid_members"].is_null(), "{key}");
    assert!((key["median_mbps"].as_f64().unwrap() - 3010.01).abs() < 0.1, "{key}");
    // The site's table: the arrays under their own heading, each labelled.
    let html = app.get(&format!("/fragments/leaderboard?test={q}&vendor=Kingston")).await.text;
    let heading = html.find("Arrays (RAID sets), ranked apart").unwrap_or_else(|| panic!("{html}"));
    let label = html.find("RAID 0 ×2 of").unwrap_or_else(|| panic!("{html}"));
    assert!(heading < label, "{html}");
}

/// The real AS SSD 2.0 export of a Samsung 970 EVO Plus 250GB (`Name:`, `Firmware:`,
/// `Controller: stornvme`, `Size: 232.88 GB`).
fn as_ssd_970_evo_plus_export() -> String {
    let path = common::shared()
        .join("corpus/real/asssd/01__unknown_id14171726121__2.0.7316_samsung970evoplus_mbps.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Uploads sent without tags, as a script or a forum scraper sends them: the file's own
/// lines name the drive when they name exactly one drive SSDBase has
/// (`named-in-upload`), and fill the firmware, driver and OS, each marked as read from
/// the file. A drive SSDBase lacks is not made: the result stays unassigned, its page
/// proposes the drive, and the edit-token holder's acceptance moves it there.
pub async fn an_upload_without_tags_is_named_by_what_its_file_says(app: &TestApp) {
    // The 970 EVO Plus 250GB enters SSDBase with a tagged result of its own.
    let tagged = post_with_drive(
        app,
        3400.0,
        json!({"vendor": "Samsung", "model": "970 EVO Plus", "capacity_gb": 250}),
    )
    .await;
    let drive = stored_drive_tag(app, tagged).await["sku"].as_str().unwrap().to_string();
    assert_eq!(drive, "samsung-970-evo-plus-250gb");

    let r = app.post_json("/api/v1/results", &json!({"text": as_ssd_970_evo_plus_export()})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let stored = app.get(&format!("/api/v1/results/{id}")).await.json();
    let tags = &stored["tags"];
    assert_eq!(
        (tags["drive"]["sku"].as_str(), tags["drive"]["identified_by"].as_str()),
        (Some(drive.as_str()), Some("named-in-upload")),
        "{tags}"
    );
    assert_eq!(
        (tags["firmware"].as_str(), tags["platform"]["driver"].as_str()),
        (Some("1B2QEXM7"), Some("stornvme")),
        "{tags}"
    );
    assert_eq!(tags["read_from_file"], json!(["drive", "firmware", "driver"]), "{tags}");
    // Where each was read is the result's: the line that printed it.
    let facts = stored["result"]["facts"].as_array().unwrap();
    assert!(
        facts.iter().any(|f| f["field"] == "capacity_gb"
            && f["value"] == "250"
            && f["source"] == "line 7: Size: 232.88 GB"),
        "{facts:?}"
    );
    let page = app.get(&format!("/api/v1/drives/{drive}")).await.json();
    assert!(page["results"].as_array().unwrap().iter().any(|r| r["id"] == id), "on its drive's page");
    // A submitter's own tags win over the file, and the client cannot claim provenance.
    let r = app
        .post_json(
            "/api/v1/results",
            &json!({"text": as_ssd_970_evo_plus_export().replace("2863.65", "2863.66"),
                    "tags": {"platform": {"driver": "samsung nvme 3.3"}, "read_from_file": ["os"]}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let own = app.get(&format!("/api/v1/results/{}", r.json()["id"])).await.json()["tags"].clone();
    assert_eq!(own["platform"]["driver"], "samsung nvme 3.3");
    assert_eq!(own["read_from_file"], json!(["drive", "firmware"]), "{own}");

    // The Crucial P2's export names a drive SSDBase lacks: stored unassigned, nothing made.
    let before = drive_list(app).await.len();
    let r = app.post_json("/api/v1/results", &json!({"text": crucial_p2_export()})).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let (p2, token) =
        (r.json()["id"].as_i64().unwrap(), r.json()["edit_token"].as_str().unwrap().to_string());
    let stored = app.get(&format!("/api/v1/results/{p2}")).await.json();
    assert_eq!(
        (stored["tags"]["drive"]["sku"].is_null(), stored["tags"]["drive"]["identified_by"].as_str()),
        (true, Some("unknown")),
        "{}",
        stored["tags"]
    );
    assert_eq!(stored["tags"]["platform"]["os"], "Windows 10 Professional [10.0 Build 19041] (x64)");
    assert_eq!(drive_list(app).await.len(), before, "a proposal makes no drive");
    // What its page proposes, from the texts the result carries.
    let result: bench::BenchResult = serde_json::from_value(stored["result"].clone()).unwrap();
    let texts = bench::identity::texts_naming_a_drive(&result);
    assert_eq!(texts, vec!["Crucial P2 2TB @ PCIe 3.0 x4".to_string()]);
    let proposal = app
        .get(&format!(
            "/fragments/drives/identify?text={}",
            form_urlencoded::byte_serialize(texts[0].as_bytes()).collect::<String>()
        ))
        .await;
    assert!(
        proposal
            .text
            .contains(r#"data-drive="" data-vendor="Crucial" data-model="P2" data-capacity_gb="2000""#),
        "{}",
        proposal.text
    );
    // The token holder accepts: the button's fields, sent as the tag edit.
    let accept = json!({"tags": {"drive": {"vendor": "Crucial", "model": "P2", "capacity_gb": 2000}}});
    let r = app.authed(Method::PATCH, &format!("/api/v1/results/{p2}"), Some(&token), Some(&accept)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["tags"]["drive"]["sku"], "crucial-p2-2000gb");
    let page = app.get("/api/v1/drives/crucial-p2-2000gb").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.json()["results"].as_array().unwrap().iter().any(|r| r["id"] == p2),
        "moved to the new drive"
    );
}

/// A result holding one test twice would count twice in every pool: refused, saying
/// which test and which rows.
pub async fn a_result_with_a_test_twice_is_refused(app: &TestApp) {
    let mut result = a_result(500.0);
    let again = json!({"label": "Seq Read again", "access": "seq", "block_size": 1048576, "queue_depth": 1,
        "threads": 1, "op": "read", "mbps": 480.0, "iops": null, "latency_us": null});
    result["metrics"].as_array_mut().unwrap().push(again);
    let r = app.post_json("/api/v1/results", &json!({"result": result})).await;
    r.assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("result.metrics[2]"));
    assert!(
        r.text.contains(
            "two rows of one test, SEQ 1MiB Q1T1 read (\\\"Sequential Read\\\" and \\\"Seq Read again\\\")"
        ),
        "{}",
        r.text
    );
}

/// Every real export of the shared corpus (`corpus/real`, every tool), posted without
/// tags the way a script posts it. A file whose lines name a drive is named: assigned
/// (`named-in-upload`) when SSDBase has the drive, else proposed; its uploader accepts
/// the proposal, and the same file posted again is then assigned by its lines alone. A
/// file naming no drive stays unknown: nothing is guessed.
pub async fn every_corpus_export_is_named_by_the_drive_it_names(app: &TestApp) {
    let mut files: Vec<_> = std::fs::read_dir(common::shared().join("corpus/real"))
        .unwrap()
        .flat_map(|dir| std::fs::read_dir(dir.unwrap().path()).into_iter().flatten())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    // (file, result index, the drive it was named) for every result whose file names one.
    let mut named: Vec<(String, usize, String)> = Vec::new();
    let (mut proposed, mut silent, mut ambiguous) = (0, 0, 0);
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let body = std::fs::read_to_string(path).unwrap();
        let r = app.post_json("/api/v1/results", &json!({"text": body})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{file}: {}", r.text);
        let token = r.json()["edit_token"].as_str().unwrap().to_string();
        for (index, submitted) in r.json()["results"].as_array().unwrap().iter().enumerate() {
            let id = submitted["id"].as_i64().unwrap();
            let stored = app.get(&format!("/api/v1/results/{id}")).await.json();
            let result: bench::BenchResult = serde_json::from_value(stored["result"].clone()).unwrap();
            let texts = bench::identity::texts_naming_a_drive(&result);
            let drive = &stored["tags"]["drive"];
            if texts.is_empty() {
                assert_eq!(drive["identified_by"], "unknown", "{file}: names nothing, guessed {drive}");
                silent += 1;
                continue;
            }
            let query: String = texts
                .iter()
                .map(|t| {
                    format!("text={}&", form_urlencoded::byte_serialize(t.as_bytes()).collect::<String>())
                })
                .collect();
            let found =
                app.get(&format!("/api/v1/drives/identify?{}", query.trim_end_matches('&'))).await.json();
            if drive["identified_by"] == "named-in-upload" {
                // An earlier file (or the seeds) brought this drive in.
                assert_eq!(found["drive"]["id"], drive["sku"], "{file}: {found}");
                named.push((file.clone(), index, drive["sku"].as_str().unwrap().to_string()));
                continue;
            }
            assert_eq!(drive["identified_by"], "unknown", "{file}: {drive}");
            if found["identified_by"] == "unknown" {
                // Texts that read as no drive's name ("test run", a drive letter).
                assert!(
                    texts.iter().all(|t| !bench::identity::names_a_drive(t)),
                    "{file}: {texts:?} {found}"
                );
                silent += 1;
                continue;
            }
            if found["identified_by"] == "ambiguous" {
                // Several drives SSDBase has fit the text: stored without a guess.
                assert!(!found["candidates"].as_array().unwrap().is_empty(), "{file}: {found}");
                ambiguous += 1;
                continue;
            }
            // A new drive; or one that an acceptance made after this upload was stored
            // (two runs of one file naming the same drive).
            assert!(
                found["identified_by"] == "created"
                    || named.iter().any(|(_, _, sku)| found["drive"]["id"] == sku.as_str()),
                "{file}: SSDBase has {found}, yet the upload was not assigned to it"
            );
            let new = &found["drive"];
            let accept = json!({"tags": {"drive": {"vendor": new["vendor"], "model": new["model"], "capacity_gb": new["capacity_gb"]}}});
            let r = app
                .authed(Method::PATCH, &format!("/api/v1/results/{id}"), Some(&token), Some(&accept))
                .await;
            assert_eq!(r.status, StatusCode::OK, "{file}: {}", r.text);
            assert_eq!(r.json()["tags"]["drive"]["sku"], new["id"], "{file}: {}", r.text);
            proposed += 1;
            named.push((file.clone(), index, new["id"].as_str().unwrap().to_string()));
        }
    }
    // The drives the corpus is known to name, among them.
    for sku in ["samsung-970-evo-plus-250gb", "crucial-p2-2000gb"] {
        assert!(named.iter().any(|(_, _, s)| s == sku), "{sku} not named: {named:?}");
    }
    // Posted again (one more line ending, so not the stored upload): named by the file alone.
    let mut again = 0;
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let body = std::fs::read_to_string(path).unwrap() + "\n";
        let r = app.post_json("/api/v1/results", &json!({"text": body})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{file} again: {}", r.text);
        for (index, submitted) in r.json()["results"].as_array().unwrap().iter().enumerate() {
            let drive = stored_drive_tag(app, submitted["id"].as_i64().unwrap()).await;
            match named.iter().find(|(f, i, _)| *f == file && *i == index) {
                Some((_, _, sku)) => {
                    assert_eq!(
                        (drive["sku"].as_str(), drive["identified_by"].as_str()),
                        (Some(sku.as_str()), Some("named-in-upload")),
                        "{file} again"
                    );
                    again += 1;
                }
                None => assert_eq!(drive["identified_by"], "unknown", "{file} again: {drive}"),
            }
        }
    }
    assert_eq!(again, named.len());
    println!(
        "FIGURE corpus exports posted without tags: {} files, {} results name their drive ({} proposed and accepted, {} already known), {} name several drives SSDBase has, {} name none; posted again, {again} of {} named by the file alone",
        files.len(),
        named.len(),
        proposed,
        named.len() - proposed,
        ambiguous,
        silent,
        named.len()
    );
}

/// The own real set (`server/tests/data/identity_real_set.json`): names of real drives
/// as smartctl, Windows, Linux, tools and people write them, grouped by drive and source.
/// Each name is submitted as a result's drive model, in the set's order, on a database
/// holding the seeds: every group's names must land on one drive, groups of different
/// drives never on the same one, and the set's search queries must find their drive
/// first. `cargo xtask bench-identity` prints the figures.
pub async fn a_real_set_of_names_lands_on_one_drive_per_drive(app: &TestApp) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/identity_real_set.json");
    let set: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let groups = set["groups"].as_array().unwrap();
    // Per group: its label, its source, and the drive each name landed on (None:
    // ambiguous or unknown).
    type Landed = (String, String, Vec<(String, Option<String>)>);
    let mut landed: Vec<Landed> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        // A model string without its capacity ("Patriot Wildfire") is submitted with the
        // capacity its report gives beside it, as an upload's size line would; so is a
        // model as Linux's sysfs cuts it, which never comes without the disk's size beside
        // it (`/sys/block/*/size`, as `ssdbase bench` reads both).
        let beside = g["capacity_in_name"].as_bool() == Some(false) || g["kind"] == "sysfs";
        let capacity: Option<u32> =
            beside.then(|| g["drive"].as_str().unwrap().rsplit(' ').next().unwrap().parse().unwrap());
        let mut names = Vec::new();
        for name in g["names"].as_array().unwrap() {
            let name = name.as_str().unwrap();
            // A value of its own per name: the same upload twice is one result.
            let value = 100.0 + i as f64 + names.len() as f64 / 10.0;
            let id = post_with_drive(app, value, json!({"model": name, "capacity_gb": capacity})).await;
            let tag = stored_drive_tag(app, id).await;
            names.push((name.to_string(), tag["sku"].as_str().map(String::from)));
        }
        landed.push((g["drive"].as_str().unwrap().into(), g["source"].as_str().unwrap().into(), names));
    }
    let whole: Vec<bool> = landed
        .iter()
        .map(|(_, _, names)| names[0].1.is_some() && names.iter().all(|(_, sku)| *sku == names[0].1))
        .collect();
    // Where each labelled drive's whole groups landed: two labels on one drive are joined.
    let mut by_drive: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    let mut by_label: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for ((label, _, names), whole) in landed.iter().zip(&whole) {
        for (_, sku) in names.iter().filter(|_| *whole) {
            by_drive.entry(sku.clone().unwrap()).or_default().insert(label.clone());
            by_label.entry(label.clone()).or_default().insert(sku.clone().unwrap());
        }
    }
    let joined: Vec<_> = by_drive.iter().filter(|(_, labels)| labels.len() > 1).collect();
    let split: Vec<_> = by_label.iter().filter(|(_, skus)| skus.len() > 1).collect();
    let names: usize = landed.iter().map(|(_, _, n)| n.len()).sum();
    println!(
        "identity real set: {} groups, {} drives, {names} names",
        landed.len(),
        by_label.len().max(landed.iter().map(|(l, _, _)| l).collect::<std::collections::BTreeSet<_>>().len())
    );
    let n_whole = whole.iter().filter(|w| **w).count();
    println!(
        "  groups whole (every name on one drive): {n_whole}/{} ({:.1} %)",
        landed.len(),
        100.0 * n_whole as f64 / landed.len() as f64
    );
    for ((label, source, names), _) in landed.iter().zip(&whole).filter(|(_, w)| !**w) {
        println!("    not whole: {label} ({source}): {names:?}");
    }
    println!("  drives holding groups of two different drives (wrongly joined): {}", joined.len());
    for (sku, labels) in &joined {
        println!("    joined on {sku}: {labels:?}");
    }
    println!("  drives whose groups from several sources landed apart (split): {}", split.len());
    for (label, skus) in &split {
        println!("    split: {label}: {skus:?}");
    }
    // Search: the query's drive first (for a line, any capacity of it; for a controller,
    // among the drives listed).
    let drive_of_label: std::collections::BTreeMap<&str, &str> = landed
        .iter()
        .zip(&whole)
        .filter(|(_, w)| **w)
        .map(|((label, _, names), _)| (label.as_str(), names[0].1.as_deref().unwrap()))
        .collect();
    let queries = set["queries"].as_array().unwrap();
    let mut first = 0;
    let mut asked = 0;
    for q in queries {
        let text = q["q"].as_str().unwrap();
        let Some(want) = drive_of_label.get(q["drive"].as_str().unwrap()) else {
            println!("    query {text:?}: its drive {} is not whole in the set", q["drive"]);
            asked += 1;
            continue;
        };
        asked += 1;
        let url = format!(
            "/api/v1/drives/search?q={}&limit=50",
            form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>()
        );
        let found = app.get(&url).await.json();
        let ids: Vec<&str> =
            found["drives"].as_array().unwrap().iter().map(|d| d["id"].as_str().unwrap()).collect();
        let want_drive = app.get(&format!("/api/v1/drives/{want}")).await.json();
        let line_of = |id: &str| id.rsplit_once('-').map_or(id.to_string(), |(l, _)| l.to_string());
        let ok = if q["controller"].as_bool() == Some(true) {
            ids.contains(want)
        } else if q["line"].as_bool() == Some(true) {
            ids.first().is_some_and(|f| {
                *f == *want
                    || line_of(f) == line_of(want)
                    || want_drive["drive"]["model"].is_string() && {
                        let d = &found["drives"][0];
                        d["model"] == want_drive["drive"]["model"]
                            && d["vendor"] == want_drive["drive"]["vendor"]
                    }
            })
        } else {
            ids.first() == Some(want)
        };
        if ok {
            first += 1;
        } else {
            println!("    query {text:?}: wanted {want}, found {:?}", &ids[..ids.len().min(3)]);
        }
    }
    println!("  search queries whose drive comes first: {first}/{asked}");
    assert!(n_whole as f64 >= 0.99 * landed.len() as f64, "{n_whole}/{} groups whole", landed.len());
    assert!(joined.is_empty(), "groups of different drives joined: {joined:?}");
    // Two labelled drives of the set are beyond reading (BENCHMARKS.md): the OCZ Vertex
    // sold as 30 GB and named 32 GB once, and a WD Blue 3D reporting "SanDisk SSD G5 BICS4".
    assert!(split.len() <= 2, "drives split over several drives: {split:?}");
    assert!(first as f64 >= 0.9 * asked as f64, "{first}/{asked} queries find their drive first");
}

/// A duplicate that earlier rules made (a community "Crucial C300 256GB" beside the
/// catalogue's RealSSD C300 256 GB, holding a result) is listed as one drive with its
/// result counts, and merged when the server opens the database after an upgrade of the
/// identity rules: the result, with its upload, is on the catalogue drive, the history
/// records the merge, and submissions naming the old drive land on the catalogue's.
pub async fn duplicates_from_earlier_rules_are_listed_and_merged_on_upgrade(app: &TestApp) {
    let made = Identity::from_model_string("Crucial C300 256GB");
    assert!(made.line.is_some(), "the line table knows the C300");
    let old = bench::DriveSku {
        id: "crucial-c300-256gb".into(),
        vendor: "Crucial".into(),
        model: "C300".into(),
        capacity_gb: 256,
        reviewed: false,
        ..bench::seeds::seed_dataset().unwrap().drives.into_iter().find(|d| d.id == C300_256).unwrap()
    };
    app.storage.store_batch(std::slice::from_ref(&old), &[], &[]).await.unwrap();
    let id = post_with_drive(app, 311.5, json!({"sku": old.id})).await;
    let group = listed_with(app, &old.id).await.expect("listed");
    assert_eq!(group["into"], C300_256, "the catalogue drive takes the community one");
    assert!(
        group["keys"].as_array().unwrap().iter().any(|k| k.as_str().unwrap().starts_with("l:")),
        "{group}"
    );
    let count = |id: &str| {
        group["drives"].as_array().unwrap().iter().find(|d| d["id"] == id).unwrap()["result_count"].as_i64()
    };
    assert_eq!(count(&old.id), Some(1));
    let upload = app.get(&format!("/api/v1/results/{id}/upload")).await;

    // The upgrade: keys made by other rules, the database opened again.
    let stale = "UPDATE app_meta SET value = 'identity-2' WHERE key = 'drive_keys'";
    if app.url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(&app.url).await.unwrap();
        sqlx::query(stale).execute(&pool).await.unwrap();
        pool.close().await;
    } else {
        let pool = sqlx::PgPool::connect(&app.url).await.unwrap();
        sqlx::query(stale).execute(&pool).await.unwrap();
        pool.close().await;
    }
    let reopened = ssdbase::storage::connect(&app.url).await.unwrap();
    assert!(reopened.get_drive(&old.id).await.unwrap().is_none(), "merged away");
    let result = reopened.get_result(id).await.unwrap().expect("the result stays");
    assert_eq!(result.tags.drive.sku.as_deref(), Some(C300_256));
    let history = reopened.catalogue_history(Some(C300_256)).await.unwrap();
    assert!(history.iter().any(|c| c.drive_id == old.id), "{history:?}");
    assert!(ssdbase::storage::duplicates::find(reopened.as_ref())
        .await
        .unwrap()
        .iter()
        .all(|g| g.drives.iter().all(|d| d.drive.id != old.id)));
    drop(reopened);
    // Its upload is kept, byte for byte.
    let after = app.get(&format!("/api/v1/results/{id}/upload")).await;
    assert_eq!((after.status, after.text), (upload.status, upload.text));
}

/// The group of `GET /catalogue/duplicates` holding drive `id`, if any.
async fn listed_with(app: &TestApp, id: &str) -> Option<Value> {
    let r = app.get("/api/v1/catalogue/duplicates").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.json()["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["drives"].as_array().unwrap().iter().any(|d| d["id"] == id))
        .cloned()
}

/// A listed duplicate merged as the admin page merges it, through the merge route: the
/// results move, the group is no longer listed, and the old name lands on the drive
/// that took it over.
pub async fn a_listed_duplicate_merges_through_the_merge_route(app: &TestApp) {
    let old = bench::DriveSku {
        id: "crucial-c300-128gb".into(),
        vendor: "Crucial".into(),
        model: "C300".into(),
        capacity_gb: 128,
        part_number: None,
        aliases: Vec::new(),
        reviewed: false,
        ..bench::seeds::seed_dataset().unwrap().drives.into_iter().find(|d| d.id == C300_256).unwrap()
    };
    app.storage.store_batch(std::slice::from_ref(&old), &[], &[]).await.unwrap();
    let id = post_with_drive(app, 312.5, json!({"sku": old.id})).await;
    let group = listed_with(app, &old.id).await.expect("listed");
    let into = group["into"].as_str().expect("certain: one reviewed drive").to_string();
    assert_ne!(into, old.id);
    let merge = json!({"into": into, "reason": "one drive by the identity rules"});
    let r = app
        .authed(Method::POST, &format!("/api/v1/drives/{}/merge", old.id), Some(super::ADMIN), Some(&merge))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.json()["moved_results"], 1);
    assert!(listed_with(app, &old.id).await.is_none(), "no longer listed");
    let result = app.get(&format!("/api/v1/results/{id}")).await.json();
    assert_eq!(result["tags"]["drive"]["sku"], into.as_str());
    let again =
        post_with_drive(app, 313.5, json!({"vendor": "Crucial", "model": "C300", "capacity_gb": 128})).await;
    assert_eq!(
        app.get(&format!("/api/v1/results/{again}")).await.json()["tags"]["drive"]["sku"],
        into.as_str()
    );
}
