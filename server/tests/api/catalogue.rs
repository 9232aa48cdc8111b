//! Catalogue contributions on both backends: proposals change nothing until a moderator
//! accepts them, every rated figure needs its source, concurrent proposals for one drive
//! both survive and both apply, the history is kept, and a merge moves every result with
//! aggregates equal to a recount.

use super::{a_result, samples_both_ways, Extra, Reply, TestApp, ADMIN};
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

async fn drive(app: &TestApp, id: &str) -> Value {
    let r = app.get(&format!("/api/v1/drives/{id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{id}: {}", r.text);
    r.json()["drive"].clone()
}

async fn propose(app: &TestApp, body: Value) -> Value {
    let r = app.post_json("/api/v1/proposals", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{body}: {}", r.text);
    r.json()
}

async fn decide(app: &TestApp, id: i64, what: &str, token: Option<&str>) -> (StatusCode, Value) {
    let r = app
        .authed(
            Method::POST,
            &format!("/api/v1/proposals/{id}/{what}"),
            token,
            Some(&json!({"reason": "checked"})),
        )
        .await;
    (r.status, if r.text.is_empty() { Value::Null } else { r.json() })
}

/// A community drive made by a submission: the Crucial P2 500 GB.
async fn community_p2(app: &TestApp) -> i64 {
    let body = json!({"result": a_result(2200.0), "tags": {"drive": {"vendor": "Crucial", "model": "P2", "capacity_gb": 500}}});
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(drive(app, "crucial-p2-500gb").await["reviewed"], false);
    r.json()["id"].as_i64().unwrap()
}

pub async fn a_rated_figure_needs_its_source_and_waits_for_a_moderator(app: &TestApp) {
    community_p2(app).await;
    // No source: refused, with where; nothing stored.
    let r = app
        .post_json(
            "/api/v1/proposals",
            &json!({"drive_id": "crucial-p2-500gb", "rated": {"seq_read_mbps": 2300}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.json()["errors"][0]["pointer"], "rated/seq_read_source");
    // No such drive, and a new drive without its capacity.
    let r = app.post_json("/api/v1/proposals", &json!({"drive_id": "no-such-drive", "aliases": ["X"]})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let r = app.post_json("/api/v1/proposals", &json!({"vendor": "Crucial", "model": "P3"})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(r.json()["errors"][0]["pointer"], "capacity_gb");
    assert_eq!(app.get("/api/v1/proposals").await.json()["proposals"], json!([]));

    // Two proposals for the same drive at once: both stored, open, and the drive unchanged.
    let source = "https://www.crucial.com/ssd/p2/CT500P2SSD8";
    let rating = json!({"drive_id": "crucial-p2-500gb", "interface": {"kind": "pcie", "gen": 3, "lanes": 4},
        "rated": {"seq_read_mbps": 2300, "seq_read_source": source, "seq_write_mbps": 940, "seq_write_source": source},
        "comment": "the maker's product page"});
    let alias =
        json!({"drive_id": "crucial-p2-500gb", "aliases": ["CT500P2SSD8"], "part_number": "CT500P2SSD8"});
    let (a, b) = tokio::join!(propose(app, rating), propose(app, alias));
    assert_eq!((a["status"].as_str(), b["status"].as_str()), (Some("open"), Some("open")));
    assert_eq!(a["warnings"], json!([]), "2300 MB/s fits PCIe 3.0 x4");
    let before = drive(app, "crucial-p2-500gb").await;
    assert!(before["rated"]["seq_read_mbps"].is_null() && before["reviewed"] == false, "{before}");
    let open = app.get("/api/v1/proposals?status=open").await.json();
    assert_eq!(open["proposals"].as_array().unwrap().len(), 2);
    // A figure no interface could deliver is pointed out to the moderator.
    let fast = propose(
        app,
        json!({"drive_id": "crucial-realssd-c300-64gb", "rated": {"seq_read_mbps": 3500, "seq_read_source": "a forum post"}}),
    )
    .await;
    assert_eq!(fast["warnings"].as_array().unwrap().len(), 1, "{fast}");

    // Only the admin token decides.
    let id_a = a["id"].as_i64().unwrap();
    let id_b = b["id"].as_i64().unwrap();
    assert_eq!(decide(app, id_a, "accept", None).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(decide(app, id_a, "accept", Some("wrong")).await.0, StatusCode::FORBIDDEN);
    let (status, accepted) = decide(app, id_a, "accept", Some(ADMIN)).await;
    assert_eq!(status, StatusCode::OK, "{accepted}");
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(decide(app, id_a, "accept", Some(ADMIN)).await.0, StatusCode::CONFLICT, "decided once");
    let (status, _) = decide(app, id_b, "accept", Some(ADMIN)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = decide(app, fast["id"].as_i64().unwrap(), "reject", Some(ADMIN)).await;
    assert_eq!(status, StatusCode::OK);

    // Both changes stand; the drive is reviewed; the rejected one changed nothing.
    let after = drive(app, "crucial-p2-500gb").await;
    assert_eq!(after["reviewed"], true);
    assert_eq!(after["rated"]["seq_read_mbps"], 2300.0);
    assert_eq!(after["rated"]["seq_read_source"], source);
    assert_eq!(after["aliases"], json!(["CT500P2SSD8"]));
    assert_eq!(after["part_number"], "CT500P2SSD8");
    assert!(drive(app, "crucial-realssd-c300-64gb").await["rated"]["seq_read_mbps"] != 3500.0);
    // Rated vs measured appears, with its measured median and n.
    let rated = app.get("/api/v1/drives/crucial-p2-500gb/rated").await;
    assert_eq!(rated.status, StatusCode::OK, "{}", rated.text);
    assert!(rated.text.contains("2300") && rated.text.contains("2200"), "{}", rated.text);
    // The new alias finds the drive.
    let r = app
        .post_json(
            "/api/v1/results",
            &json!({"result": a_result(2210.0), "tags": {"drive": {"model": "CT500P2SSD8"}}}),
        )
        .await;
    let id = r.json()["id"].as_i64().unwrap();
    assert_eq!(
        app.get(&format!("/api/v1/results/{id}")).await.json()["tags"]["drive"]["sku"],
        "crucial-p2-500gb"
    );

    // The history: two changes, each with its proposal, the first with its sources.
    let history = app.get("/api/v1/drives/crucial-p2-500gb/history").await.json();
    let changes = history["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{history}");
    assert_eq!(
        (changes[0]["action"].as_str(), changes[0]["proposal_id"].as_i64()),
        (Some("change"), Some(id_a))
    );
    assert_eq!(changes[0]["sources"], json!([source]));
    assert!(changes[0]["before"]["rated"]["seq_read_mbps"].is_null());
    assert_eq!(changes[1]["proposal_id"], id_b);
    assert_eq!(app.get("/api/v1/catalogue/history").await.json()["changes"].as_array().unwrap().len(), 2);
}

pub async fn a_new_drive_enters_the_catalogue_when_accepted(app: &TestApp) {
    let p = propose(
        app,
        json!({"vendor": "Samsung", "model": "990 PRO", "capacity_gb": 2000, "aliases": ["Samsung SSD 990 PRO 2TB"],
            "interface": {"kind": "pcie", "gen": 4, "lanes": 4},
            "rated": {"seq_read_mbps": 7450, "seq_read_source": "https://semiconductor.samsung.com/consumer-storage/internal-ssd/990-pro/"}}),
    )
    .await;
    assert_eq!(
        app.get("/api/v1/drives/samsung-990-pro-2000gb").await.status,
        StatusCode::NOT_FOUND,
        "not before"
    );
    let (status, _) = decide(app, p["id"].as_i64().unwrap(), "accept", Some(ADMIN)).await;
    assert_eq!(status, StatusCode::OK);
    let d = drive(app, "samsung-990-pro-2000gb").await;
    assert_eq!((d["reviewed"].clone(), d["rated"]["seq_read_mbps"].clone()), (json!(true), json!(7450.0)));
    // Submissions naming it as operating systems do land on it.
    let r = app
        .post_json(
            "/api/v1/results",
            &json!({"result": a_result(7000.0), "tags": {"drive": {"model": "Samsung SSD 990 PRO 2TB"}}}),
        )
        .await;
    let id = r.json()["id"].as_i64().unwrap();
    // (The string says vendor, model line and capacity: found by the drive's name.)
    let tag = app.get(&format!("/api/v1/results/{id}")).await.json()["tags"]["drive"].clone();
    assert_eq!(
        (tag["sku"].as_str(), tag["identified_by"].as_str()),
        (Some("samsung-990-pro-2000gb"), Some("name"))
    );
    let history = app.get("/api/v1/drives/samsung-990-pro-2000gb/history").await.json();
    assert_eq!(history["changes"][0]["action"], "create");
    // The same new drive proposed again is refused: change it instead.
    let r = app
        .post_json(
            "/api/v1/proposals",
            &json!({"vendor": "Samsung", "model": "990 PRO", "capacity_gb": 2000}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
}

pub async fn form_factor_and_firmware_versions_are_proposed_and_kept_in_history(app: &TestApp) {
    let id = "plextor-m5pro-256gb";
    let before = drive(app, id).await;
    assert_eq!(before["form_factor"], "2.5in", "the seeds' form factor: {before}");
    assert!(before.get("firmware").is_none(), "no firmware list yet: {before}");
    // Junk firmware versions and controller text are refused where they are.
    let r = app
        .post_json(
            "/api/v1/proposals",
            &json!({"drive_id": id, "firmware": ["1.02", "", "\u{1}"], "controller": {"stepping": "x".repeat(101)}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    let pointers: Vec<Value> =
        r.json()["errors"].as_array().unwrap().iter().map(|e| e["pointer"].clone()).collect();
    assert_eq!(pointers, [json!("controller/stepping"), json!("firmware/1"), json!("firmware/2")]);
    // An unknown form factor does not read at all.
    let r = app.post_json("/api/v1/proposals", &json!({"drive_id": id, "form_factor": "5.25in"})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);

    let first =
        propose(app, json!({"drive_id": id, "firmware": ["1.02", "1.03"], "form_factor": "bga"})).await;
    assert_eq!(first["proposal"]["firmware"], json!(["1.02", "1.03"]));
    let second = propose(app, json!({"drive_id": id, "firmware": ["1.03", "1.04"]})).await;
    for p in [&first, &second] {
        let (status, _) = decide(app, p["id"].as_i64().unwrap(), "accept", Some(ADMIN)).await;
        assert_eq!(status, StatusCode::OK);
    }
    let after = drive(app, id).await;
    assert_eq!(after["form_factor"], "bga", "replaced");
    assert_eq!(after["firmware"], json!(["1.02", "1.03", "1.04"]), "added once each");
    // The history shows both before and after.
    let history = app.get(&format!("/api/v1/drives/{id}/history")).await.json();
    let changes = history["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{history}");
    assert_eq!(changes[0]["before"]["form_factor"], "2.5in");
    assert_eq!(changes[0]["after"]["form_factor"], "bga");
    assert!(changes[0]["before"].get("firmware").is_none());
    assert_eq!(changes[0]["after"]["firmware"], json!(["1.02", "1.03"]));
    assert_eq!(changes[1]["before"]["firmware"], json!(["1.02", "1.03"]));
    assert_eq!(changes[1]["after"]["firmware"], json!(["1.02", "1.03", "1.04"]));
}

pub async fn merging_moves_every_result_and_keeps_aggregates_equal_to_a_recount(app: &TestApp) {
    let into = "crucial-realssd-c300-256gb";
    // A duplicate the community made: the same drive under a name the identity rules do
    // not know (Micron's own name for it, "Micron RealSSD C300", lands on it at once).
    let mut ids = Vec::new();
    for (i, hidden) in [false, true].into_iter().enumerate() {
        let body = json!({"result": a_result(260.0 + i as f64),
            "tags": {"drive": {"vendor": "Micron", "model": "C300 OEM", "capacity_gb": 256}}});
        let r = app.post_json("/api/v1/results", &body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
        let id = r.json()["id"].as_i64().unwrap();
        if hidden {
            let h = app
                .authed(
                    Method::POST,
                    &format!("/api/v1/results/{id}/hide"),
                    Some(ADMIN),
                    Some(&json!({"reason": "test"})),
                )
                .await;
            assert_eq!(h.status, StatusCode::OK, "{}", h.text);
        }
        ids.push(id);
    }
    let from = "micron-c300-oem-256gb";
    let count = |page: &Value| page["results"].as_array().unwrap().len();
    let before = count(&app.get(&format!("/api/v1/drives/{into}")).await.json());
    assert_eq!(count(&app.get(&format!("/api/v1/drives/{from}")).await.json()), 1, "one visible");

    let body = json!({"into": into, "reason": "the same drive"});
    let denied =
        app.authed(Method::POST, &format!("/api/v1/drives/{from}/merge"), Some("wrong"), Some(&body)).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN);
    let merged =
        app.authed(Method::POST, &format!("/api/v1/drives/{from}/merge"), Some(ADMIN), Some(&body)).await;
    assert_eq!(merged.status, StatusCode::OK, "{}", merged.text);
    assert_eq!(merged.json()["moved_results"], 2, "hidden results move too");

    assert_eq!(app.get(&format!("/api/v1/drives/{from}")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(count(&app.get(&format!("/api/v1/drives/{into}")).await.json()), before + 1);
    for id in &ids {
        let tags = app.storage.get_result(*id).await.unwrap().unwrap().tags;
        assert_eq!(tags.drive.sku.as_deref(), Some(into));
        assert_eq!(tags.drive.vendor.as_deref(), Some("Crucial"));
    }
    let (metrics, summary) = samples_both_ways(app, &[into.to_string(), from.to_string()]).await;
    assert_eq!(summary, metrics, "the compare summary equals a recount after the merge");
    super::derived_figures_agree(app, &[into.to_string(), from.to_string()]).await;
    // The merged drive's name now lands on the drive that took over.
    let r = app
        .post_json(
            "/api/v1/results",
            &json!({"result": a_result(263.0),
            "tags": {"drive": {"vendor": "Micron", "model": "C300 OEM", "capacity_gb": 256}}}),
        )
        .await;
    let id = r.json()["id"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/api/v1/results/{id}")).await.json()["tags"]["drive"]["sku"], into);
    // Its history stays readable; merging it again finds nothing.
    let history = app.get(&format!("/api/v1/drives/{from}/history")).await.json();
    assert_eq!(
        (history["changes"][0]["action"].as_str(), history["changes"][0]["merged_into"].as_str()),
        (Some("merge"), Some(into))
    );
    let again =
        app.authed(Method::POST, &format!("/api/v1/drives/{from}/merge"), Some(ADMIN), Some(&body)).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
}

/// A JSON POST through `router` (another server on `app`'s database), as `TestApp::send`
/// makes it.
async fn post_on(
    app: &TestApp,
    router: &axum::Router,
    path: &str,
    body: Value,
    token: Option<&str>,
) -> Reply {
    let extra = Extra { content_type: Some("application/json"), bearer: token, ..Extra::default() };
    app.send(router, Method::POST, path, extra, axum::body::Body::from(body.to_string())).await
}

/// A JSON POST to `path` with `token` as its bearer, from a client address, to send on a
/// task of its own (`answer`).
fn json_request(path: &str, body: Value, token: Option<&str>) -> axum::http::Request<axum::body::Body> {
    let mut r = axum::http::Request::post(path)
        .header("content-type", "application/json")
        .extension(axum::extract::ConnectInfo(std::net::SocketAddr::from(([10, 2, 0, 1], 1))));
    if let Some(token) = token {
        r = r.header("authorization", format!("Bearer {token}"));
    }
    r.body(axum::body::Body::from(body.to_string())).unwrap()
}

/// A request's status and body, sent through the router on a task of its own.
async fn answer(router: axum::Router, req: axum::http::Request<axum::body::Body>) -> (StatusCode, String) {
    let res = tower::ServiceExt::oneshot(router, req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// A moderator's merge racing submissions of the drive it merges away: the merge
/// succeeds, every submission is stored (one that lost the race is identified again and
/// lands on the drive that took over), no result is left on the merged drive, and the
/// compare summary equals a recount.
pub async fn a_merge_racing_submissions_loses_nothing(app: &TestApp) {
    let into = "crucial-realssd-c300-256gb";
    let from = "micron-c300-oem-256gb";
    let named = json!({"drive": {"vendor": "Micron", "model": "C300 OEM", "capacity_gb": 256}});
    let first = app.post_json("/api/v1/results", &json!({"result": a_result(250.0), "tags": named})).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    // Eight submissions of the duplicate in flight, and the merge among them.
    let mut stored = vec![first.json()["id"].as_i64().unwrap()];
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..8u8 {
        let router = app.router.clone();
        let req = json_request(
            "/api/v1/results",
            json!({"result": a_result(251.0 + f64::from(i)), "tags": named}),
            None,
        );
        tasks.spawn(async move { (false, answer(router, req).await) });
        if i == 3 {
            let router = app.router.clone();
            let req =
                json_request(&format!("/api/v1/drives/{from}/merge"), json!({"into": into}), Some(ADMIN));
            tasks.spawn(async move { (true, answer(router, req).await) });
        }
    }
    for (is_merge, (status, text)) in tasks.join_all().await {
        if is_merge {
            assert_eq!(status, StatusCode::OK, "the merge: {text}");
        } else {
            assert_eq!(status, StatusCode::CREATED, "a submission: {text}");
            stored.push(serde_json::from_str::<Value>(&text).unwrap()["id"].as_i64().unwrap());
        }
    }
    assert_eq!(app.get(&format!("/api/v1/drives/{from}")).await.status, StatusCode::NOT_FOUND);
    for id in &stored {
        let tags = app.storage.get_result(*id).await.unwrap().unwrap().tags;
        assert_eq!(tags.drive.sku.as_deref(), Some(into), "result {id}");
    }
    assert_eq!(stored.len(), 9);
    let (metrics, summary) = samples_both_ways(app, &[into.to_string(), from.to_string()]).await;
    assert_eq!(summary, metrics, "the compare summary equals a recount");
}

/// Two servers on one database: what one changes in the catalogue (a community drive, an
/// accepted proposal), the other lists at once. Its decoded copy of the catalogue is
/// keyed by the drives' count and the newest catalogue change, which it reads per list.
pub async fn another_servers_catalogue_changes_are_listed_at_once(app: &TestApp) {
    let listed = |v: Value| v["drives"].as_array().unwrap().clone();
    let before = listed(app.get("/api/v1/drives").await.json());
    let other = ssdbase::api::app_with(ssdbase::open(&app.url).await.unwrap(), &super::config());
    let body = json!({"result": a_result(540.0),
        "tags": {"drive": {"vendor": "Kioxia", "model": "Exceria", "capacity_gb": 480}}});
    let r = post_on(app, &other, "/api/v1/results", body, None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let after = listed(app.get("/api/v1/drives").await.json());
    assert_eq!(after.len(), before.len() + 1, "the other server's new drive is listed");
    assert!(after.iter().any(|d| d["id"] == "kioxia-exceria-480gb" && d["result_count"] == 1));

    let source = "https://www.kioxia.com/exceria-480";
    let r = post_on(
        app,
        &other,
        "/api/v1/proposals",
        json!({"drive_id": "kioxia-exceria-480gb", "rated": {"seq_read_mbps": 555, "seq_read_source": source}}),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.json()["id"].as_i64().unwrap();
    let r = post_on(app, &other, &format!("/api/v1/proposals/{id}/accept"), json!({}), Some(ADMIN)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let after = listed(app.get("/api/v1/drives").await.json());
    let kioxia = after.iter().find(|d| d["id"] == "kioxia-exceria-480gb").unwrap();
    assert_eq!(
        (kioxia["rated"]["seq_read_mbps"].as_f64(), kioxia["reviewed"].as_bool()),
        (Some(555.0), Some(true))
    );
}
