//! Screenshots through the real `ssdbase serve`: uploads wait in the database queue while
//! no worker runs, survive a SIGKILL of the server, and are read (by the real Tesseract
//! recogniser) once a server with a worker starts; a checked reading is published with
//! its image as the upload and its hand corrections marked.

mod common;

use common::{http, screenshots, start_server};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn json_of(reply: &common::HttpReply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", reply.body))
}

#[test]
fn queued_screenshots_survive_a_kill_and_are_read_and_published() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_ocr_queue_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let url = format!("sqlite://{}", dir.join("ocr.db").display());

    // A server that reads nothing: the uploads only queue.
    let (mut queue_only, addr) = start_server(&url, &["--ocr-workers", "0"], &[]);
    let images: Vec<Vec<u8>> = screenshots().iter().take(3).map(|p| std::fs::read(p).unwrap()).collect();
    let mut ids = Vec::new();
    for (i, image) in images.iter().enumerate() {
        let r = http(addr, "POST", "/api/v1/ocr", &[("Content-Type", "image/png")], image).unwrap();
        assert_eq!(r.status, 202, "{}", r.body);
        let job = json_of(&r);
        assert_eq!(job["status"], "queued");
        assert_eq!(job["queue_position"], i as i64);
        ids.push(job["id"].as_str().unwrap().to_string());
    }
    queue_only.kill().unwrap(); // SIGKILL
    queue_only.wait().unwrap();

    // A server with one worker picks the queue up where the killed one left it.
    let (mut server, addr) = start_server(&url, &["--ocr-workers", "1"], &[]);
    let started = Instant::now();
    let mut jobs = Vec::new();
    for id in &ids {
        let job = loop {
            let job = json_of(&http(addr, "GET", &format!("/api/v1/ocr/{id}"), &[], "").unwrap());
            if job["status"] == "done" || job["status"] == "failed" {
                break job;
            }
            assert!(started.elapsed() < Duration::from_secs(180), "job {id} still {job}");
            std::thread::sleep(Duration::from_millis(200));
        };
        assert_eq!(job["status"], "done", "{job}");
        assert_eq!(job["attempts"], 1, "read once, after the restart: {job}");
        assert!(!job["recognition"]["result"]["metrics"].as_array().unwrap().is_empty(), "{job}");
        jobs.push(job);
    }

    // Publish the first with one value corrected by hand.
    let mut result = jobs[0]["recognition"]["result"].clone();
    let recognised = result["metrics"][0]["mbps"].as_f64().expect("a MB/s value");
    let corrected = recognised + 1.0;
    result["metrics"][0]["mbps"] = json!(corrected);
    let body =
        json!({"result": result, "ocr_job": ids[0], "tags": {"drive": {"model": "From a screenshot"}}});
    let published =
        http(addr, "POST", "/api/v1/results", &[("Content-Type", "application/json")], body.to_string())
            .unwrap();
    assert_eq!(published.status, 201, "{}", published.body);
    let id = json_of(&published)["id"].as_i64().unwrap();
    let page = json_of(&http(addr, "GET", &format!("/api/v1/results/{id}"), &[], "").unwrap());
    assert_eq!(page["upload"]["format"], "image/png");
    let marks = page["upload"]["ocr"]["corrected"].as_array().unwrap();
    assert_eq!(marks.len(), 1, "exactly the one value changed: {marks:?}");
    assert_eq!(marks[0]["field"], "mbps");
    assert_eq!(
        (marks[0]["recognised"].as_f64(), marks[0]["published"].as_f64()),
        (Some(recognised), Some(corrected))
    );
    // The provenance names the job by the queue's number, never by its key (a secret).
    assert!(page["upload"]["ocr"]["ocr_job"].is_i64(), "{page}");
    assert!(!page.to_string().contains(ids[0].as_str()), "the job's key is not published");
    // The image is public now, as the result's upload.
    let upload = http(addr, "GET", &format!("/api/v1/results/{id}/upload"), &[], "").unwrap();
    assert_eq!(upload.status, 200);
    // The same screenshot again is the same upload.
    let again =
        http(addr, "POST", "/api/v1/results", &[("Content-Type", "application/json")], body.to_string())
            .unwrap();
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(json_of(&again)["id"], id);

    server.kill().unwrap();
    server.wait().unwrap();
}
