//! What people upload is theirs: a screenshot is readable only with its job's key until a
//! result is published from it, unpublished ones are deleted after their time, one
//! client cannot flood the queue or the writes, every answer carries the headers a
//! public site needs, and a panicking handler answers 500 while the server goes on.

use super::*;

/// A client at `peer` uploads `image`; the job's answer.
async fn upload_from(app: &TestApp, router: &Router, peer: &str, image: Vec<u8>) -> Reply {
    let extra =
        Extra { content_type: Some("image/png"), peer: Some(peer.parse().unwrap()), ..Extra::default() };
    app.send(router, Method::POST, "/api/v1/ocr", extra, Body::from(image)).await
}

/// Finishes every queued job: those of `readings` (key, result) with a recognition of
/// their result, the others failed.
async fn recognise(app: &TestApp, readings: &[(&str, &Value)]) {
    let mut recognitions = std::collections::HashMap::new();
    for (key, result) in readings {
        let recognition = json!({"result": result, "confidence": 0.8}).to_string();
        recognitions.insert(job_number(app, key).await, recognition);
    }
    while let Some(claimed) = app.storage.claim_ocr(1_900_000_000, 60).await.unwrap() {
        let outcome = recognitions.get(&claimed.id).cloned().ok_or_else(|| "another test's".to_string());
        app.storage.finish_ocr(claimed.id, outcome, 1_900_000_000).await.unwrap();
    }
}

/// Publishes the screenshot of job `key` as a result; its id and edit token.
async fn publish(app: &TestApp, key: &str, result: &Value, model: &str) -> (i64, String) {
    let body = json!({"result": result, "ocr_job": key, "tags": {"drive": {"model": model}}});
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = r.json();
    (r["id"].as_i64().unwrap(), r["edit_token"].as_str().unwrap().to_string())
}

/// Enumeration finds nothing: another client walking the queue's numbers (as job ids and
/// image URLs) gets the same 404 for every one, existing or not; the uploader reads its
/// job and image with the key, privately; once published, the image is public as the
/// result's upload, and hidden again with a hidden result.
pub async fn screenshots_are_their_uploaders_until_published(app: &TestApp) {
    let image = screenshot(3);
    let up = upload_from(app, &app.router, "10.31.0.1:4000", image.clone()).await;
    assert_eq!(up.status, StatusCode::ACCEPTED, "{}", up.text);
    assert_eq!(up.headers[header::CACHE_CONTROL], "private, no-store");
    let job = up.json();
    let key = job["id"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 64, "256 random bits, hex: {key}");
    assert!(key.bytes().all(|b| b.is_ascii_hexdigit()));
    let number = job_number(app, &key).await;
    assert_eq!(job["url"], format!("/api/v1/ocr/{key}"));

    // Another client walks every number around the job's, and a few wrong keys.
    let mut answers = std::collections::BTreeSet::new();
    let wrong_key = format!("{}{}", &key[..63], if key.ends_with('0') { '1' } else { '0' });
    let mut walked: Vec<String> = (0..=number + 3).map(|n| n.to_string()).collect();
    walked.extend([wrong_key, "x".repeat(64), "%2e%2e".into(), "-1".into()]);
    for probe in &walked {
        for uri in [format!("/api/v1/ocr/{probe}"), format!("/api/v1/ocr/{probe}/image")] {
            let extra = Extra { peer: Some("10.31.0.2:4000".parse().unwrap()), ..Extra::default() };
            let r = app.send(&app.router, Method::GET, &uri, extra, Body::empty()).await;
            r.assert_error(StatusCode::NOT_FOUND, Some("id"));
            assert!(
                !r.bytes.windows(8).any(|w| image.windows(8).next() == Some(w)),
                "{uri} leaked image bytes"
            );
            answers.insert(r.text);
        }
    }
    assert_eq!(answers.len(), 1, "every miss answers alike, in words and size: {answers:?}");

    // The uploader, with the key: privately, byte for byte.
    let mine = app.get(&format!("/api/v1/ocr/{key}")).await;
    assert_eq!(mine.status, StatusCode::OK);
    assert_eq!(mine.headers[header::CACHE_CONTROL], "private, no-store");
    let img = app.get(&format!("/api/v1/ocr/{key}/image")).await;
    assert_eq!(img.status, StatusCode::OK);
    assert_eq!(img.headers[header::CACHE_CONTROL], "private, no-store");
    assert_eq!(img.bytes, image);

    // Publishing needs the key too: a number or a wrong key is refused without a hint.
    let mut result = a_result(512.0);
    result["comment"] = json!("privacy test");
    recognise(app, &[(&key, &result)]).await;
    let by_number = json!({"result": result, "ocr_job": number.to_string()});
    let e = app
        .post_json("/api/v1/results", &by_number)
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, Some("ocr_job"));
    assert!(!e.to_string().contains(&key));

    let (id, _token) = publish(app, &key, &result, "Privacy Test Drive").await;
    let public = app.get(&format!("/api/v1/results/{id}/upload")).await;
    assert_eq!(public.status, StatusCode::OK, "published: the image is public with the result");
    assert_eq!(public.bytes, image);
    let page = app.get(&format!("/api/v1/results/{id}")).await;
    assert!(!page.text.contains(&key), "the key is never published");

    // Hidden with its result.
    let why = json!({"reason": "privacy test"});
    let r = app.authed(Method::POST, &format!("/api/v1/results/{id}/hide"), Some(ADMIN), Some(&why)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    app.get(&format!("/api/v1/results/{id}/upload")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
}

/// Retention: an unpublished job older than the limit is gone after the sweep, with its
/// image; a published one stays; a result deleted with its edit token takes its upload
/// and its screenshot job with it.
pub async fn unpublished_screenshots_are_deleted_after_their_time(app: &TestApp) {
    let (kept_image, swept_image, deleted_image) = (screenshot(4), screenshot(5), screenshot(0));
    let key_of = |r: Reply| r.json()["id"].as_str().unwrap().to_string();
    let kept = key_of(upload_from(app, &app.router, "10.32.0.1:1", kept_image.clone()).await);
    let swept = key_of(upload_from(app, &app.router, "10.32.0.1:1", swept_image.clone()).await);
    let deleted = key_of(upload_from(app, &app.router, "10.32.0.1:1", deleted_image.clone()).await);
    let result = a_result(498.5);
    let mut other = a_result(499.5);
    other["comment"] = json!("to be deleted");
    recognise(app, &[(&kept, &result), (&deleted, &other)]).await;
    let (kept_id, _) = publish(app, &kept, &result, "Retention Kept").await;
    let deleted_number = job_number(app, &deleted).await;
    let (deleted_id, token) = publish(app, &deleted, &other, "Retention Deleted").await;

    // A sweep with a limit that has not passed deletes nothing.
    let now = ssdbase::ingest::now_unix();
    assert_eq!(app.storage.sweep_unpublished_ocr(now - 3600).await.unwrap(), 0);
    assert_eq!(app.get(&format!("/api/v1/ocr/{swept}/image")).await.status, StatusCode::OK);
    // Past it: the unpublished job goes, image and all; the published ones stay.
    let n = app.storage.sweep_unpublished_ocr(now + 10).await.unwrap();
    assert!(n >= 1, "{n}");
    app.get(&format!("/api/v1/ocr/{swept}")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    app.get(&format!("/api/v1/ocr/{swept}/image")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM ocr_jobs WHERE submission_id IS NULL").await, 0);
    assert_eq!(app.get(&format!("/api/v1/ocr/{kept}")).await.status, StatusCode::OK);
    assert_eq!(app.get(&format!("/api/v1/results/{kept_id}/upload")).await.bytes, kept_image);

    // The server's sweep counts the days: a job of 8 days goes at 7, one of 6 stays.
    let day = 86_400;
    for (key, age) in [("eight-days-old", 8 * day), ("six-days-old", 6 * day)] {
        let job = storage::NewOcrJob {
            key_hash: storage::sha256_hex(key.as_bytes()),
            client: None,
            content_hash: storage::sha256_hex(key.as_bytes()),
            media_type: "image/png".into(),
            image: kept_image.clone(),
            created_at: now - age,
        };
        app.storage.enqueue_ocr(&job).await.unwrap();
    }
    let week = Duration::from_secs(7 * day as u64);
    assert_eq!(ssdbase::ocr_worker::sweep_unpublished(&app.storage, week).await.unwrap(), 1);
    app.get("/api/v1/ocr/eight-days-old").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(app.get("/api/v1/ocr/six-days-old").await.status, StatusCode::OK);

    // Deleted with the edit token: the result, its upload's bytes and its screenshot.
    let r = app.authed(Method::DELETE, &format!("/api/v1/results/{deleted_id}"), Some(&token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    app.get(&format!("/api/v1/ocr/{deleted}/image")).await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM ocr_jobs WHERE id = {deleted_number}")).await, 0);
    let hash = storage::sha256_hex(&deleted_image);
    assert_eq!(
        app.scalar(&format!("SELECT COUNT(*) FROM submissions WHERE content_hash = '{hash}'")).await,
        0
    );

    // SQLite overwrites what it deletes: after a checkpoint the file holds none of the
    // swept or deleted images' bytes, and still the kept one's.
    if app.url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(&app.url).await.unwrap();
        // A reader of the server's (a background job) may keep the checkpoint from
        // copying the whole WAL back: it says so as `busy`, and is tried again.
        for attempt in 0.. {
            let (busy,): (i64,) =
                sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)").fetch_one(&pool).await.unwrap();
            if busy == 0 {
                break;
            }
            assert!(attempt < 100, "the WAL was never checkpointed whole");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        pool.close().await;
        let file = std::fs::read(app.url.trim_start_matches("sqlite://")).unwrap();
        let holds = |image: &[u8]| {
            let piece = &image[image.len() / 2..image.len() / 2 + 64];
            file.windows(piece.len()).any(|w| w == piece)
        };
        assert!(holds(&kept_image), "the published image is in the file");
        assert!(!holds(&swept_image), "the swept image's bytes are overwritten");
        assert!(!holds(&deleted_image), "the deleted upload's bytes are overwritten");
    }
}

/// Per client: screenshot uploads and every write have a rate, and waiting screenshots
/// a cap; past either the client gets 429 with `Retry-After` while another is served.
pub async fn uploads_and_writes_are_limited_per_client(app: &TestApp) {
    let retry_after =
        |r: &Reply| -> u64 { r.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap() };
    // Uploads per minute.
    let rated = app_with(
        app.storage.clone(),
        &ApiConfig { limits: limits(), ocr_per_minute: NonZeroU32::new(2), ..ApiConfig::default() },
    );
    for i in 0..2 {
        let r = upload_from(app, &rated, "10.33.0.1:1", screenshot(i)).await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
    }
    let r = upload_from(app, &rated, "10.33.0.1:2", screenshot(2)).await;
    r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    assert!((1..=60).contains(&retry_after(&r)));
    let r = upload_from(app, &rated, "10.33.0.2:1", screenshot(2)).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "another client is served: {}", r.text);

    // Waiting screenshots per client: two may wait; a third waits for one to finish.
    let capped = app_with(
        app.storage.clone(),
        &ApiConfig { limits: limits(), ocr_pending_per_client: NonZeroU32::new(2), ..ApiConfig::default() },
    );
    let mut keys = Vec::new();
    for i in 0..2 {
        let r = upload_from(app, &capped, "10.33.1.1:1", screenshot(i)).await;
        assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.text);
        keys.push(r.json()["id"].as_str().unwrap().to_string());
    }
    let r = upload_from(app, &capped, "10.33.1.1:1", screenshot(2)).await;
    let e = r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    assert!(retry_after(&r) >= 1);
    assert!(!e.to_string().contains("10.33.1.2"), "{e}");
    assert_eq!(upload_from(app, &capped, "10.33.1.2:1", screenshot(2)).await.status, StatusCode::ACCEPTED);
    recognise(app, &[(&keys[0], &a_result(1.0))]).await;
    let r = upload_from(app, &capped, "10.33.1.1:1", screenshot(2)).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "once its jobs are read: {}", r.text);

    // Every write counts, whatever its route or outcome; reads never do.
    let writes = app_with(
        app.storage.clone(),
        &ApiConfig { limits: limits(), write_per_minute: NonZeroU32::new(3), ..ApiConfig::default() },
    );
    let send = |peer: &'static str, method: Method, uri: &'static str| {
        let writes = writes.clone();
        async move {
            let extra = Extra {
                content_type: Some("application/json"),
                peer: Some(peer.parse().unwrap()),
                ..Extra::default()
            };
            app.send(&writes, method, uri, extra, Body::from("{}")).await
        }
    };
    assert_eq!(
        send("10.33.2.1:1", Method::POST, "/api/v1/results").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        send("10.33.2.1:1", Method::POST, "/api/v1/proposals").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        send("10.33.2.1:1", Method::DELETE, "/api/v1/results/1").await.status,
        StatusCode::UNAUTHORIZED
    );
    let r = send("10.33.2.1:1", Method::PATCH, "/api/v1/results/1").await;
    r.assert_error(StatusCode::TOO_MANY_REQUESTS, None);
    assert!(retry_after(&r) >= 1);
    assert_eq!(send("10.33.2.1:1", Method::GET, "/api/v1/health").await.status, StatusCode::OK);
    assert_eq!(
        send("10.33.2.2:1", Method::POST, "/api/v1/results").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

/// The headers of each kind of answer: the site's pages (their inline loader allowed by
/// hash, nothing inline else), the embed pages (any site may frame them), the API (loads
/// nothing, framed by nobody); HSTS only behind an https public URL.
pub async fn every_answer_carries_the_headers_a_public_site_needs(app: &TestApp) {
    let tmp = tempfile::Builder::new().prefix("ssdbase_headers_site_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let loader = "import init from '/app-1.js'; init();";
    let index = format!(
        "<!DOCTYPE html><html><head><title>SSDBase</title><script type=\"module\">{loader}</script>\
         <script src=\"/x.js\"></script></head><body></body></html>"
    );
    std::fs::write(dir.join("index.html"), index).unwrap();
    for public_url in [None, Some("https://ssdbase.example")] {
        let config =
            ApiConfig { site: Some(dir.clone()), public_url: public_url.map(str::to_string), ..config() };
        let router = app_with(app.storage.clone(), &config);
        let get = |uri: String| {
            let router = router.clone();
            async move { get_on(&router, &uri, &[]).await }
        };
        let h = |r: &Reply, name: &str| r.headers.get(name).map(|v| v.to_str().unwrap().to_string());
        for uri in ["/".to_string(), format!("/drives/{C300_64}"), "/results/1".into(), "/no/such".into()] {
            let r = get(uri.clone()).await;
            assert_eq!(r.status, StatusCode::OK, "{uri}");
            let csp = h(&r, "content-security-policy").unwrap();
            assert!(csp.contains("default-src 'self'") && csp.contains("'wasm-unsafe-eval'"), "{uri}: {csp}");
            let hash = ssdbase::security::csp_hash(loader);
            assert!(
                csp.contains(&format!("script-src 'self' 'wasm-unsafe-eval' {hash} 'report-sample';")),
                "{uri}: {csp}"
            );
            assert!(!csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"), "{csp}");
            assert!(csp.contains("report-uri /csp-report"), "{csp}");
            assert_eq!(h(&r, "x-frame-options").as_deref(), Some("DENY"), "{uri}");
            assert_eq!(h(&r, "x-content-type-options").as_deref(), Some("nosniff"));
            assert_eq!(h(&r, "referrer-policy").as_deref(), Some("strict-origin-when-cross-origin"));
            assert_eq!(h(&r, "cross-origin-opener-policy").as_deref(), Some("same-origin"));
            assert_eq!(h(&r, "cache-control").as_deref(), Some("no-store, max-age=0"), "{uri}");
            let hsts = h(&r, "strict-transport-security");
            assert_eq!(hsts.is_some(), public_url.is_some(), "HSTS exactly behind https: {hsts:?}");
        }
        let embed = get(format!("/embed/drives/{C300_64}")).await;
        assert_eq!(embed.status, StatusCode::OK, "{}", embed.text);
        let csp = h(&embed, "content-security-policy").unwrap();
        assert!(csp.contains("frame-ancestors *") && csp.contains("default-src 'none'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "the embed page's style is allowed by hash: {csp}");
        let style = embed.text.split("<style>").nth(1).and_then(|s| s.split("</style>").next()).unwrap();
        assert!(csp.contains(&ssdbase::security::csp_hash(style)), "{csp}");
        assert_eq!(h(&embed, "x-frame-options"), None, "any site may frame an embed page");
        let api = get("/api/v1/health".into()).await;
        assert_eq!(
            h(&api, "content-security-policy").as_deref(),
            Some("default-src 'none'; frame-ancestors 'none'")
        );
        assert_eq!(h(&api, "x-content-type-options").as_deref(), Some("nosniff"));
        assert_eq!(h(&api, "x-frame-options").as_deref(), Some("DENY"));
    }
    // Browsers' violation reports are taken (and counted, for the operator).
    let r = app
        .request(
            Method::POST,
            "/csp-report",
            Some("application/csp-report"),
            Body::from(r#"{"csp-report":{"document-uri":"http://x/","violated-directive":"style-src"}}"#),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
}

/// A handler that panics answers 500 with the JSON error body pointing at the answer's
/// request id, and the next request is served.
pub async fn a_panicking_handler_answers_500_and_the_server_goes_on(app: &TestApp) {
    let faulty = app_with(app.storage.clone(), &ApiConfig { fault_injection: true, ..config() });
    let r = get_on(&faulty, "/_fault/panic", &[]).await;
    let body = r.assert_error(StatusCode::INTERNAL_SERVER_ERROR, None);
    let id = r.headers["x-request-id"].to_str().unwrap();
    assert!(id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("x-request-id"), "{body}");
    assert!(!body.to_string().contains("fault injection"), "the panic's message stays in the log: {body}");
    let next = get_on(&faulty, "/api/v1/health", &[]).await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.text);
    // Without fault injection the route does not exist.
    assert_eq!(get_on(&app.router, "/_fault/panic", &[]).await.status, StatusCode::NOT_FOUND);
}
