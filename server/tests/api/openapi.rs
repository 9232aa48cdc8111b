//! The OpenAPI document at `/api/v1/openapi.json` against the server that serves it:
//! every documented operation answers, nothing else does, the query parameters are the
//! ones the handlers accept, and real answers validate against the documented schemas
//! (JSON Schema 2020-12, the dialect of OpenAPI 3.1), while altered ones do not.

use super::{a_result, multipart, screenshot, Reply, TestApp, ADMIN, C300_64, CDM3, M2S_64};

/// Seed drives that share tests, each with a test the other lacks.
const C300_128: &str = "crucial-realssd-c300-128gb";
const M2S_128: &str = "plextor-px-m2s-128gb";
use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// The served document and what the tests ask of it.
struct Doc {
    json: Value,
}

/// Methods a route could answer; each documented path must answer exactly its
/// documented ones and 405 to the rest.
const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

impl Doc {
    async fn fetch(app: &TestApp) -> Doc {
        let r = app.get("/api/v1/openapi.json").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.content_type, "application/json");
        Doc { json: r.json() }
    }

    fn server_url(&self) -> &str {
        self.json["servers"][0]["url"].as_str().expect("a server URL")
    }

    /// Every documented (method, path) pair.
    fn operations(&self) -> BTreeSet<(String, String)> {
        let mut ops = BTreeSet::new();
        for (path, item) in self.json["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                assert!(METHODS.contains(&method.as_str()), "{method} {path}: an unexpected key");
                ops.insert((method.clone(), path.clone()));
            }
        }
        ops
    }

    fn operation(&self, method: &str, path: &str) -> &Value {
        let op = &self.json["paths"][path][method];
        assert!(op.is_object(), "{} {path} is not documented", method.to_uppercase());
        op
    }

    /// A validator for a schema of this document; `#/components/...` references
    /// resolve against the document's components.
    fn validator(&self, schema: &Value) -> jsonschema::Validator {
        let mut root = schema.as_object().expect("a schema object").clone();
        root.insert("components".into(), self.json["components"].clone());
        jsonschema::draft202012::new(&Value::Object(root)).unwrap_or_else(|e| panic!("{e}: {schema}"))
    }

    fn component(&self, name: &str) -> jsonschema::Validator {
        self.validator(&json!({"$ref": format!("#/components/schemas/{name}")}))
    }

    /// What the validator says about an instance: one line per problem, empty if valid.
    fn problems(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
        validator.iter_errors(instance).map(|e| format!("{}: {e}", e.instance_path())).collect()
    }

    /// Asserts that a real answer is one the document describes for this operation: its
    /// status, its content type and, for JSON, a body valid against the schema.
    fn check(&self, method: &str, path: &str, reply: &Reply) {
        let op = self.operation(method, path);
        let response = &op["responses"][reply.status.as_str()];
        assert!(
            response.is_object(),
            "{} {path} answered {} which is not documented: {}",
            method.to_uppercase(),
            reply.status,
            reply.text
        );
        let media_type = reply.content_type.split(';').next().unwrap().trim();
        let content = &response["content"][media_type];
        assert!(
            content.is_object(),
            "{} {path} {}: content type {media_type} is not documented",
            method.to_uppercase(),
            reply.status
        );
        if media_type == "application/json" {
            let schema = &content["schema"];
            let problems = Doc::problems(&self.validator(schema), &reply.json());
            assert!(
                problems.is_empty(),
                "{} {path} {}: the answer does not match {schema}:\n{}\n{}",
                method.to_uppercase(),
                reply.status,
                problems.join("\n"),
                reply.text
            );
        }
    }

    /// Asserts that a JSON request body is one the document describes.
    fn check_request(&self, method: &str, path: &str, body: &Value) {
        let schema = &self.operation(method, path)["requestBody"]["content"]["application/json"]["schema"];
        let problems = Doc::problems(&self.validator(schema), body);
        assert!(
            problems.is_empty(),
            "{method} {path}: the request {body} does not match {schema}: {problems:?}"
        );
    }

    /// The documented schema of a JSON answer.
    fn response_schema(&self, method: &str, path: &str, status: u16) -> &Value {
        &self.operation(method, path)["responses"][status.to_string()]["content"]["application/json"]
            ["schema"]
    }

    fn query_parameters(&self, path: &str) -> Vec<&Value> {
        self.operation("get", path)["parameters"]
            .as_array()
            .map(|list| list.iter().filter(|p| p["in"] == "query").collect())
            .unwrap_or_default()
    }
}

/// Every `$ref` in a value.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => out.push(r.clone()),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// The document is OpenAPI 3.1: an OpenAPI 3.1 parser (`oas3`) reads it and resolves
/// every operation's parameters, body and answers; every schema is valid JSON Schema
/// 2020-12, every reference resolves, every path template has its required path parameter, every response has
/// a description and every error answer is the one `ErrorBody` shape.
pub async fn the_openapi_document_is_valid_openapi_3_1(app: &TestApp) {
    let doc = Doc::fetch(app).await;
    assert_eq!(doc.json["openapi"], "3.1.0");
    assert_eq!(doc.server_url(), "/api/v1");
    let spec = oas3::from_json(doc.json.to_string()).expect("an OpenAPI 3.1 document");
    assert_eq!(spec.validate_version().expect("a 3.1 version").minor, 1);
    assert_eq!(spec.operations().count(), doc.operations().len());
    for (path, method, op) in spec.operations() {
        op.parameters(&spec).unwrap_or_else(|e| panic!("{method} {path} parameters: {e}"));
        if let Some(body) = op.request_body(&spec).unwrap_or_else(|e| panic!("{method} {path} body: {e}")) {
            for (media_type, content) in &body.content {
                content.schema(&spec).unwrap_or_else(|e| panic!("{method} {path} {media_type}: {e}"));
            }
        }
        let responses = op.responses(&spec);
        let documented =
            doc.operation(&method.as_str().to_lowercase(), &path)["responses"].as_object().unwrap().len();
        assert_eq!(responses.len(), documented, "{method} {path}: every answer reads");
        for (status, response) in &responses {
            for (media_type, content) in &response.content {
                content
                    .schema(&spec)
                    .unwrap_or_else(|e| panic!("{method} {path} {status} {media_type}: {e}"));
            }
        }
    }

    let schemas = doc.json["components"]["schemas"].as_object().unwrap();
    for (name, schema) in schemas {
        jsonschema::draft202012::meta::validate(schema)
            .unwrap_or_else(|e| panic!("{name} is not a valid JSON Schema: {e}"));
    }
    let mut all = Vec::new();
    refs(&doc.json, &mut all);
    assert!(all.len() > 50, "{} references", all.len());
    for r in &all {
        let name =
            r.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("unexpected reference {r}"));
        assert!(schemas.contains_key(name), "{r} does not resolve");
    }
    for (name, scheme) in [("edit_token", "bearer"), ("admin_token", "bearer")] {
        let s = &doc.json["components"]["securitySchemes"][name];
        assert_eq!((s["type"].as_str(), s["scheme"].as_str()), (Some("http"), Some(scheme)), "{name}");
    }

    let mut operation_ids = BTreeSet::new();
    for (method, path) in doc.operations() {
        let op = doc.operation(&method, &path);
        assert!(operation_ids.insert(op["operationId"].as_str().unwrap().to_string()), "{method} {path}");
        assert!(op["summary"].as_str().is_some_and(|s| !s.is_empty()), "{method} {path} has no summary");
        let params = op["parameters"].as_array().cloned().unwrap_or_default();
        for segment in path.split('/').filter(|s| s.starts_with('{')) {
            let name = segment.trim_matches(|c| c == '{' || c == '}');
            assert!(
                params.iter().any(|p| p["name"] == name && p["in"] == "path" && p["required"] == true),
                "{method} {path}: no required path parameter {name}"
            );
        }
        for (status, response) in op["responses"].as_object().unwrap() {
            assert!(
                response["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{method} {path} {status}"
            );
            if status.starts_with('4') || status.starts_with('5') {
                assert_eq!(
                    response["content"]["application/json"]["schema"]["$ref"],
                    "#/components/schemas/ErrorBody",
                    "{method} {path} {status}"
                );
            }
        }
        // Every operation can time out and fail internally; every body can be too large.
        for status in ["408", "500"] {
            assert!(op["responses"][status].is_object(), "{method} {path} lacks {status}");
        }
        if op["requestBody"].is_object() {
            assert!(op["responses"]["413"].is_object(), "{method} {path} lacks 413");
        }
    }
    // The routes the issue fixes, and the moderation, upload and document routes.
    for (method, path) in [
        ("get", "/health"),
        ("post", "/results"),
        ("get", "/results"),
        ("get", "/results/{id}"),
        ("patch", "/results/{id}"),
        ("delete", "/results/{id}"),
        ("get", "/results/{id}/upload"),
        ("post", "/results/{id}/hide"),
        ("post", "/results/{id}/restore"),
        ("get", "/drives"),
        ("get", "/drives/{id}"),
        ("get", "/observations"),
        ("get", "/drives/{id}/observations"),
        ("get", "/compare"),
        ("get", "/compare/chart.svg"),
        ("get", "/compare/chart.png"),
        ("post", "/ocr"),
        ("get", "/ocr/{id}"),
        ("get", "/ocr/{id}/image"),
        ("get", "/openapi.json"),
    ] {
        doc.operation(method, path);
    }
    // Who may do what.
    let security = |method: &str, path: &str| doc.operation(method, path)["security"].clone();
    assert_eq!(security("patch", "/results/{id}"), json!([{"edit_token": []}, {"admin_token": []}]));
    assert_eq!(security("delete", "/results/{id}"), json!([{"edit_token": []}, {"admin_token": []}]));
    assert_eq!(security("post", "/results/{id}/hide"), json!([{"admin_token": []}]));
    assert_eq!(security("post", "/results/{id}/restore"), json!([{"admin_token": []}]));
    assert_eq!(security("get", "/results"), json!([{}, {"admin_token": []}]));
    // The bodies that are not JSON.
    let submit = &doc.operation("post", "/results")["requestBody"]["content"];
    assert_eq!(submit["multipart/form-data"]["schema"]["$ref"], "#/components/schemas/SubmitForm");
    assert_eq!(submit["multipart/form-data"]["encoding"]["tags"]["contentType"], "application/json");
    assert_eq!(submit["application/json"]["schema"]["$ref"], "#/components/schemas/SubmitRequest");
    let ocr: BTreeSet<&str> = doc.operation("post", "/ocr")["requestBody"]["content"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(ocr, BTreeSet::from(["image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp"]));
    let browse = &doc.operation("get", "/results")["responses"]["200"];
    assert!(browse["content"]["text/csv"].is_object() && browse["headers"]["x-next-cursor"].is_object());
}

/// Exactly the documented operations answer: each one, sent a valid request built from
/// the seeds, answers a documented success whose body matches its schema; every other
/// method on a documented path is 405, and paths the document does not name are 404.
pub async fn every_documented_route_answers_and_nothing_else(app: &TestApp) {
    let doc = Doc::fetch(app).await;
    let base = doc.server_url().to_string();
    let seed_id = app.get("/api/v1/results?limit=1").await.json()["results"][0]["id"].as_i64().unwrap();
    // The factor effects, as the server's background refresh computes them.
    super::effects::refresh(app).await;
    let mine = app.post_json("/api/v1/results", &json!({"result": a_result(431.5)})).await.json();
    let (my_id, token) = (mine["id"].as_i64().unwrap(), mine["edit_token"].as_str().unwrap().to_string());
    let job =
        app.request(Method::POST, "/api/v1/ocr", Some("image/png"), Body::from(screenshot(0))).await.json();
    let job_id = job["id"].as_str().unwrap().to_string();
    // Two proposals to decide, and a community drive to merge.
    let mut proposals = Vec::new();
    for alias in ["C300-A", "C300-B"] {
        let p = app.post_json("/api/v1/proposals", &json!({"drive_id": C300_64, "aliases": [alias]})).await;
        proposals.push(p.json()["id"].as_i64().unwrap());
    }
    let runner = json!({"runner_version": "0.1.0", "fio_version": "fio-3.33", "jobs": [{"test": "SEQ1M Q8T1 read", "job": "[read]\nrw=read\n"}]});
    let measured =
        app.post_json("/api/v1/results", &json!({"result": a_result(437.25), "runner": runner})).await.json();
    let measured_id = measured["id"].as_i64().unwrap();
    // A write sampled over time (a real ssdbase-bench cache run), for the sustained charts.
    let cache_run = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/bench/tests/data/ssdbase-bench-0.1.0_cache_throttled-loop-256MiB.json"
    );
    let mut cache_run: Value = serde_json::from_str(&std::fs::read_to_string(cache_run).unwrap()).unwrap();
    cache_run["tags"]["drive"] = json!({"sku": M2S_64});
    assert_eq!(app.post_json("/api/v1/results", &cache_run).await.status, StatusCode::CREATED);
    let community = json!({"result": a_result(433.5), "tags": {"drive": {"vendor": "Test", "model": "Merge Me", "capacity_gb": 64}}});
    assert_eq!(app.post_json("/api/v1/results", &community).await.status, StatusCode::CREATED);

    // One valid request per operation, in an order that works (delete last).
    type Case<'a> = (&'a str, &'a str, String, Option<&'a str>, Option<Value>);
    let cases: Vec<Case> = vec![
        ("get", "/health", "/health".into(), None, None),
        ("get", "/openapi.json", "/openapi.json".into(), None, None),
        ("get", "/results", "/results?limit=3&sort=-capacity_gb".into(), None, None),
        ("post", "/results", "/results".into(), None, Some(json!({"result": a_result(432.5), "tags": {}}))),
        ("get", "/results/{id}", format!("/results/{seed_id}"), None, None),
        ("get", "/results/{id}/upload", format!("/results/{seed_id}/upload"), None, None),
        ("get", "/results/{id}/runner", format!("/results/{measured_id}/runner"), None, None),
        (
            "patch",
            "/results/{id}",
            format!("/results/{my_id}"),
            Some(&token),
            Some(json!({"tags": {"drive": {"sku": M2S_64}}})),
        ),
        (
            "post",
            "/results/{id}/hide",
            format!("/results/{my_id}/hide"),
            Some(ADMIN),
            Some(json!({"reason": "checking the document"})),
        ),
        ("post", "/results/{id}/restore", format!("/results/{my_id}/restore"), Some(ADMIN), Some(json!({}))),
        ("delete", "/results/{id}", format!("/results/{my_id}"), Some(&token), None),
        ("get", "/drives", "/drives".into(), None, None),
        ("get", "/drives/search", "/drives/search?q=c300".into(), None, None),
        ("get", "/drives/identify", "/drives/identify?q=PLEXTOR%20PX-256M2S".into(), None, None),
        ("get", "/drives/{id}", format!("/drives/{C300_64}"), None, None),
        ("get", "/observations", "/observations".into(), None, None),
        ("get", "/dumps", "/dumps".into(), None, None),
        ("get", "/runner", "/runner".into(), None, None),
        (
            "get",
            "/drives/{id}/observations",
            "/drives/plextor-px-m2s-256gb/observations?format=csv".into(),
            None,
            None,
        ),
        (
            "get",
            "/drives/{id}/rated.svg",
            format!("/drives/{C300_64}/rated.svg?figure=seq-write"),
            None,
            None,
        ),
        ("get", "/drives/{id}/rated.png", format!("/drives/{C300_64}/rated.png?width=480"), None, None),
        ("get", "/drives/{id}/rated", format!("/drives/{C300_64}/rated"), None, None),
        ("get", "/compare/rated", format!("/compare/rated?drives={C300_64},{M2S_64}&format=csv"), None, None),
        ("get", "/controllers/{model}/rated", "/controllers/88SS9174/rated".into(), None, None),
        (
            "get",
            "/drives/{id}/distribution.svg",
            format!("/drives/{C300_64}/distribution.svg?test=cdm-native%20SEQ%201MiB%20Q1T1%20read"),
            None,
            None,
        ),
        (
            "get",
            "/drives/{id}/distribution.png",
            format!(
                "/drives/{C300_64}/distribution.png?test=cdm-native%20SEQ%201MiB%20Q1T1%20read&theme=dark"
            ),
            None,
            None,
        ),
        ("get", "/compare", format!("/compare?drives={C300_64},{M2S_64}"), None, None),
        ("get", "/compare/chart.svg", format!("/compare/chart.svg?drives={C300_64},{M2S_64}"), None, None),
        ("get", "/compare/chart.png", format!("/compare/chart.png?drives={C300_64}&figure=iops"), None, None),
        (
            "get",
            "/compare/preview.png",
            format!("/compare/preview.png?drives={C300_64},{M2S_64}"),
            None,
            None,
        ),
        ("get", "/drives/{id}/preview.png", format!("/drives/{C300_64}/preview.png"), None, None),
        ("get", "/results/{id}/preview.png", format!("/results/{seed_id}/preview.png"), None, None),
        (
            "get",
            "/oembed",
            format!("/oembed?url=http%3A%2F%2Flocalhost%2Fdrives%2F{C300_64}&maxwidth=600&format=json"),
            None,
            None,
        ),
        ("get", "/ocr/{id}", format!("/ocr/{job_id}"), None, None),
        ("get", "/ocr/{id}/image", format!("/ocr/{job_id}/image"), None, None),
        (
            "post",
            "/proposals",
            "/proposals".into(),
            None,
            Some(
                json!({"drive_id": M2S_64, "rated": {"seq_read_mbps": 300, "seq_read_source": "a datasheet"}}),
            ),
        ),
        ("get", "/proposals", "/proposals?status=open".into(), None, None),
        ("get", "/proposals/{id}", format!("/proposals/{}", proposals[0]), None, None),
        (
            "post",
            "/proposals/{id}/accept",
            format!("/proposals/{}/accept", proposals[0]),
            Some(ADMIN),
            Some(json!({})),
        ),
        (
            "post",
            "/proposals/{id}/reject",
            format!("/proposals/{}/reject", proposals[1]),
            Some(ADMIN),
            Some(json!({"reason": "duplicate"})),
        ),
        (
            "post",
            "/drives/{id}/merge",
            "/drives/test-merge-me-64gb/merge".into(),
            Some(ADMIN),
            Some(json!({"into": C300_64})),
        ),
        ("get", "/catalogue/history", "/catalogue/history".into(), None, None),
        ("get", "/drives/index", "/drives/index?interface=sata&sort=-results".into(), None, None),
        ("get", "/drives/suggestions", "/drives/suggestions".into(), None, None),
        (
            "get",
            "/leaderboard",
            "/leaderboard?test=cdm-native%20SEQ%201MiB%20Q1T1%20read&min_results=1".into(),
            None,
            None,
        ),
        ("get", "/leaderboard/tests", "/leaderboard/tests?interface=sata".into(), None, None),
        ("get", "/leaderboard/cache", "/leaderboard/cache?test=fio%20SEQ%201MiB%20Q8T1%20write&vendor=Crucial".into(), None, None),
        ("get", "/drives/{id}/history", format!("/drives/{C300_64}/history"), None, None),
        ("get", "/catalogue/duplicates", "/catalogue/duplicates".into(), None, None),
        ("get", "/effects", "/effects?factor=data_pattern".into(), None, None),
        ("get", "/effects/chart.svg", "/effects/chart.svg?factor=data_pattern&theme=dark".into(), None, None),
        ("get", "/effects/chart.png", "/effects/chart.png?factor=data_pattern&width=400".into(), None, None),
        ("get", "/drives/{id}/firmware", format!("/drives/{C300_64}/firmware"), None, None),
        ("get", "/results/{id}/standing", format!("/results/{seed_id}/standing"), None, None),
        ("get", "/results/{id}/load", format!("/results/{seed_id}/load"), None, None),
        ("get", "/compare/sustained", format!("/compare/sustained?drives={C300_64},{M2S_64}"), None, None),
        (
            "get",
            "/compare/sustained.svg",
            format!("/compare/sustained.svg?drives={C300_64},{M2S_64}&chart=saturation&theme=dark"),
            None,
            None,
        ),
        (
            "get",
            "/compare/sustained.png",
            format!("/compare/sustained.png?drives={M2S_64}&chart=saturation&width=400"),
            None,
            None,
        ),
        (
            "get",
            "/effects/drives",
            "/effects/drives?factor=data_pattern&a=random&b=zero-fill&test=cdm-native%20SEQ%201MiB%20Q1T1%20write"
                .into(),
            None,
            None,
        ),
    ];
    let mut covered: BTreeSet<(String, String)> =
        cases.iter().map(|(m, p, ..)| (m.to_string(), p.to_string())).collect();
    covered.insert(("post".into(), "/ocr".into())); // below, with an image body
                                                    // This app publishes no dumps (404 below); tests/dump.rs downloads real ones.
    covered.insert(("get".into(), "/dumps/{dump}/{file}".into()));
    // This app offers no runner (404 below); sharing.rs downloads one.
    covered.insert(("get".into(), "/runner/{file}".into()));
    assert_eq!(covered, doc.operations(), "each documented operation needs a request here, and only those");

    for (method, path, uri, token, body) in &cases {
        if let Some(body) = body {
            doc.check_request(method, path, body);
        }
        let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let r = app.authed(m, &format!("{base}{uri}"), *token, body.as_ref()).await;
        assert!(r.status.is_success(), "{method} {uri}: {} {}", r.status, r.text);
        doc.check(method, path, &r);
    }
    let upload =
        app.request(Method::POST, &format!("{base}/ocr"), Some("image/png"), Body::from(screenshot(1))).await;
    assert_eq!(upload.status, StatusCode::ACCEPTED, "{}", upload.text);
    doc.check("post", "/ocr", &upload);
    let image = app.get(&format!("{base}/ocr/{job_id}/image")).await;
    doc.check("get", "/ocr/{id}/image", &image);

    // Several files: a JSON array and a multipart upload answer the batch shape.
    let list = json!([{"result": a_result(433.5)}, {"text": CDM3, "format": "cdm"}]);
    doc.check_request("post", "/results", &list);
    let r = app.post_json(&format!("{base}/results"), &list).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // Bodies the server refuses for their shape are refused by the document too.
    for bad in
        [json!({"text": CDM3, "colour": "red"}), json!({"text": CDM3, "format": "word"}), json!([1, 2])]
    {
        let schema =
            &doc.operation("post", "/results")["requestBody"]["content"]["application/json"]["schema"];
        assert!(!Doc::problems(&doc.validator(schema), &bad).is_empty(), "{bad} passed");
        let r = app.post_json(&format!("{base}/results"), &bad).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {}", r.text);
        doc.check("post", "/results", &r);
    }
    doc.check("post", "/results", &r);
    let tags = json!({"platform": {"chipset": "OPENAPI"}}).to_string();
    let one = serde_json::to_vec(&a_result(434.5)).unwrap();
    let (ct, body) = multipart(&[("file", Some("a.json"), &one), ("tags", None, tags.as_bytes())]);
    let r = app.request(Method::POST, &format!("{base}/results"), Some(&ct), Body::from(body)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    doc.check("post", "/results", &r);
    let csv = app.get(&format!("{base}/results?format=csv&limit=1")).await;
    assert_eq!(csv.status, StatusCode::OK);
    doc.check("get", "/results", &csv);
    assert!(csv.headers.contains_key("x-next-cursor"), "the documented header is sent");

    // Every other method on a documented path is 405.
    for path in doc.json["paths"].as_object().unwrap().keys() {
        let uri = path
            .replace("/drives/{id}", &format!("/drives/{C300_64}"))
            .replace("{id}", &seed_id.to_string())
            .replace("{model}", "88SS9174");
        for method in METHODS.iter().filter(|m| doc.json["paths"][path][**m].is_null()) {
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let r = app.request(m, &format!("{base}{uri}"), None, Body::empty()).await;
            assert_eq!(
                r.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path} is undocumented: {}",
                r.text
            );
        }
    }
    // Paths the document does not name do not exist.
    for uri in [
        "/nope",
        "/result",
        "/results/1/nope",
        "/drives/x/y",
        "/openapi.yaml",
        "/ocr/1/image/x",
        "/compare/x",
    ] {
        let r = app.get(&format!("{base}{uri}")).await;
        r.assert_error(StatusCode::NOT_FOUND, None);
    }
}

/// Real answers of the main reads validate against their documented schemas, and so
/// do real error answers; a schema that would let a wrong answer through fails here.
pub async fn answers_match_their_schemas_and_wrong_ones_do_not(app: &TestApp) {
    let doc = Doc::fetch(app).await;
    let base = doc.server_url().to_string();
    let seed = app.get(&format!("{base}/results?limit=1")).await.json()["results"][0].clone();
    let seed_id = seed["id"].as_i64().unwrap();
    let job = app.request(Method::POST, &format!("{base}/ocr"), None, Body::from(screenshot(2))).await.json();
    let job_id = job["id"].as_str().unwrap().to_string();
    let mut answers = Vec::new();
    for (path, uri) in [
        ("/health", "/health".to_string()),
        ("/results", "/results".to_string()),
        ("/results", format!("/results?drive={C300_64}&access=seq&limit=2")),
        ("/results/{id}", format!("/results/{seed_id}")),
        ("/drives", "/drives".to_string()),
        ("/drives/search", "/drives/search?q=Plextor%20PX-256&limit=3".to_string()),
        ("/drives/{id}", format!("/drives/{C300_64}")),
        ("/drives/{id}", "/drives/crucial-realssd-c300-256gb".to_string()),
        ("/observations", "/observations".to_string()),
        ("/drives/{id}/observations", "/drives/plextor-px-m2s-256gb/observations".to_string()),
        ("/compare", format!("/compare?drives={C300_128},{M2S_128}")),
        ("/ocr/{id}", format!("/ocr/{job_id}")),
    ] {
        let r = app.get(&format!("{base}{uri}")).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text);
        doc.check("get", path, &r);
        answers.push((path, r.json()));
    }
    // The comparison really holds data to check: a test with both drives' aggregates,
    // and one that a drive is missing.
    let compare = &answers.iter().find(|(p, _)| *p == "/compare").unwrap().1;
    let tests = compare["tests"].as_array().unwrap();
    let measured = |cell: &Value| cell["groups"][0]["mbps"]["count"].as_u64().is_some_and(|n| n > 0);
    assert!(tests.iter().any(|t| measured(&t["drives"][0]) && measured(&t["drives"][1])), "{compare}");
    assert!(tests.iter().any(|t| t["drives"][0]["missing"] == true || t["drives"][1]["missing"] == true));

    // Real error answers are documented and have the one error shape.
    for (method, path, uri, status) in [
        ("get", "/results/{id}", "/results/999999999", 404),
        ("get", "/results/{id}", "/results/abc", 400),
        ("get", "/results", "/results?colour=red&limit=0", 400),
        ("get", "/results", "/results?include_hidden=true", 403),
        ("get", "/compare", "/compare?drives=no-such-drive", 404),
        // NUL, which PostgreSQL refuses in text, matches nothing (schemathesis found a 500).
        ("get", "/compare", "/compare?drives=no%00such", 404),
        ("get", "/compare/chart.svg", "/compare/chart.svg?drives=a%00b&chipset=x%00y", 404),
        ("get", "/results", "/results?chipset=ICH%0010R&sort=drive&cursor=1.a%00b", 200),
        ("get", "/drives/{id}", "/drives/a%00b", 404),
        ("get", "/drives/{id}", "/drives/no-such-drive", 404),
        ("get", "/drives/search", "/drives/search?q=", 400),
        ("get", "/drives/search", "/drives/search?q=c300&limit=51", 400),
        ("get", "/ocr/{id}", "/ocr/999999999", 404),
        ("get", "/dumps/{dump}/{file}", "/dumps/latest/manifest.json", 404),
        ("get", "/runner/{file}", "/runner/ssdbase-bench-x86_64-linux", 404),
        ("delete", "/results/{id}", &format!("/results/{seed_id}"), 401),
    ] {
        let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let r = app.request(m, &format!("{base}{uri}"), None, Body::empty()).await;
        assert_eq!(r.status.as_u16(), status, "{uri}: {}", r.text);
        doc.check(method, path, &r);
    }
    let r = app.post_json(&format!("{base}/results"), &json!({"text": "hello"})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    doc.check("post", "/results", &r);
    let r = app.request(Method::POST, &format!("{base}/ocr"), None, Body::from(CDM3)).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    doc.check("post", "/ocr", &r);

    // Altered answers fail, at the place that was altered.
    let reject = |path: &str, status: u16, value: &Value, at: &str| {
        let problems = Doc::problems(&doc.validator(doc.response_schema("get", path, status)), value);
        assert!(
            problems.iter().any(|p| p.starts_with(&format!("{at}:"))),
            "{at} in {value} passed: {problems:?}"
        );
    };
    let one = &answers.iter().find(|(p, _)| *p == "/results/{id}").unwrap().1;
    let mut bad = one.clone();
    let mbps = bad["result"]["metrics"][0]["mbps"].as_f64().expect("a seed metric with MB/s");
    bad["result"]["metrics"][0]["mbps"] = json!(mbps.to_string());
    reject("/results/{id}", 200, &bad, "/result/metrics/0/mbps");
    let mut bad = one.clone();
    bad.as_object_mut().unwrap().remove("id");
    reject("/results/{id}", 200, &bad, "");
    let mut bad = one.clone();
    bad["result"]["metrics"][0]["access"] = json!("sequential");
    reject("/results/{id}", 200, &bad, "/result/metrics/0/access");
    let mut bad = one.clone();
    bad["tags"]["platform"]["link"] = json!({"kind": "sata", "lanes": 1});
    reject("/results/{id}", 200, &bad, "/tags/platform/link");
    let mut bad = compare.clone();
    bad["tests"][0]["drives"][0]["missing"] = json!("no");
    reject("/compare", 200, &bad, "/tests/0/drives/0/missing");
    let mut bad = compare.clone();
    bad["tests"][0]["drives"][0]["groups"][0]["mbps"]["median"] = json!(null);
    // `mbps` is a summary or null: the summary without a median is neither.
    reject("/compare", 200, &bad, "/tests/0/drives/0/groups/0/mbps");
    let page = &answers.iter().find(|(p, _)| *p == "/drives/{id}").unwrap().1;
    let mut bad = page.clone();
    bad["tests"][0]["groups"][0]["result_ids"] = json!(["1"]);
    reject("/drives/{id}", 200, &bad, "/tests/0/groups/0/result_ids/0");
    let mut bad = page.clone();
    bad["drive"]["interface"] = json!({"kind": "thunderbolt", "gbps": 40});
    reject("/drives/{id}", 200, &bad, "/drive/interface");
    let error = doc.component("ErrorBody");
    assert!(error.is_valid(&json!({"errors": [{"detail": "x", "pointer": "id"}]})));
    assert!(!error.is_valid(&json!({"errors": []})), "an error answer names at least one problem");
    assert!(!error.is_valid(&json!({"errors": [{"pointer": "id"}]})), "detail is required");
    assert!(
        !error.is_valid(&json!({"errors": [{"detail": "x", "pointer": null}]})),
        "pointer is absent, not null"
    );
}

/// Every route's query parameters are exactly those its handler accepts (its 400 for an
/// unknown name lists them), and each documented value of the browse, compare and drive
/// filters works.
pub async fn query_parameters_are_exactly_the_accepted_ones(app: &TestApp) {
    let doc = Doc::fetch(app).await;
    let base = doc.server_url().to_string();
    let drive = format!("drives={C300_64}&");
    let sustained_chart = format!("drives={C300_64}&chart=saturation&");
    let c300 = format!("/drives/{C300_64}");
    // (documented path, path asked, required parameters, try every documented value)
    let routes: Vec<(&str, String, &str, bool)> = vec![
        ("/results", "/results".into(), "", true),
        ("/compare", "/compare".into(), &drive, true),
        ("/compare/chart.svg", "/compare/chart.svg".into(), &drive, true),
        ("/compare/chart.png", "/compare/chart.png".into(), &drive, true),
        ("/compare/rated", "/compare/rated".into(), &drive, true),
        ("/compare/sustained", "/compare/sustained".into(), &drive, true),
        ("/compare/sustained.svg", "/compare/sustained.svg".into(), &sustained_chart, false),
        ("/compare/sustained.png", "/compare/sustained.png".into(), &sustained_chart, false),
        ("/compare/preview.png", "/compare/preview.png".into(), &drive, false),
        ("/drives/index", "/drives/index".into(), "", true),
        ("/leaderboard", "/leaderboard".into(), "test=cdm-diskspd%20SEQ%201MiB%20Q8T1%20read&", true),
        ("/leaderboard/tests", "/leaderboard/tests".into(), "", true),
        ("/leaderboard/cache", "/leaderboard/cache".into(), "test=fio%20SEQ%201MiB%20Q8T1%20write&", true),
        ("/drives/search", "/drives/search".into(), "q=c300&", true),
        ("/drives/identify", "/drives/identify".into(), "", false),
        ("/drives/{id}", c300.clone(), "", true),
        ("/drives/{id}/rated", format!("{c300}/rated"), "", true),
        ("/drives/{id}/rated.svg", format!("{c300}/rated.svg"), "", false),
        ("/drives/{id}/rated.png", format!("{c300}/rated.png"), "", false),
        ("/drives/{id}/distribution.svg", format!("{c300}/distribution.svg"), "test=x&", false),
        ("/drives/{id}/distribution.png", format!("{c300}/distribution.png"), "test=x&", false),
        ("/drives/{id}/observations", format!("{c300}/observations"), "", true),
        ("/controllers/{model}/rated", "/controllers/88SS9174/rated".into(), "", true),
        ("/proposals", "/proposals".into(), "", true),
        ("/oembed", "/oembed".into(), "url=http://x/drives/a&", false),
        ("/effects", "/effects".into(), "", true),
        ("/effects/chart.svg", "/effects/chart.svg".into(), "factor=os&", true),
        ("/effects/chart.png", "/effects/chart.png".into(), "factor=os&", false),
        ("/effects/drives", "/effects/drives".into(), "factor=os&a=x&b=y&test=z&", false),
    ];
    // Every route with query parameters is here.
    let with_query: BTreeSet<&str> = doc.json["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|path| doc.json["paths"][path.as_str()]["get"].is_object())
        .filter(|path| !doc.query_parameters(path).is_empty())
        .map(String::as_str)
        .collect();
    let listed: BTreeSet<&str> = routes.iter().map(|r| r.0).collect();
    assert_eq!(with_query, listed, "routes with query parameters");

    for (path, asked, fixed, try_values) in &routes {
        let documented: BTreeSet<String> =
            doc.query_parameters(path).iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
        let r = app.get(&format!("{base}{asked}?{fixed}colour=red")).await;
        let body = r.assert_error(StatusCode::BAD_REQUEST, Some("colour"));
        let detail = body["errors"][0]["detail"].as_str().unwrap();
        let known = detail.rsplit_once("expected: ").expect("the detail lists the known names").1;
        let accepted: BTreeSet<String> = known.split(", ").map(str::to_string).collect();
        assert_eq!(documented, accepted, "{path}: documented vs accepted query parameters");
        if !try_values {
            continue;
        }

        for p in doc.query_parameters(path) {
            let name = p["name"].as_str().unwrap();
            if fixed.starts_with(&format!("{name}=")) {
                continue;
            }
            let schema = &p["schema"];
            let schema = match schema.get("$ref").and_then(Value::as_str) {
                Some(r) => &doc.json["components"]["schemas"][r.rsplit('/').next().unwrap()],
                None => schema,
            };
            let values: Vec<String> = if let Some(values) = schema["enum"].as_array() {
                values.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()
            } else if let Some(example) = p["example"].as_str().or(schema["examples"][0].as_str()) {
                vec![example.to_string()]
            } else {
                let types = schema["type"].to_string();
                if types.contains("integer") {
                    vec![schema["minimum"].as_i64().unwrap_or(1).to_string()]
                } else if types.contains("boolean") {
                    vec!["true".into(), "false".into()]
                } else {
                    vec!["some text".into()]
                }
            };
            assert!(!values.is_empty(), "{path} {name}: no value to try");
            for v in values {
                let uri = format!("{base}{asked}?{fixed}{name}={}", super::url_encode(&v));
                let r = app.authed(Method::GET, &uri, Some(ADMIN), None).await;
                assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text);
                doc.check("get", path, &r);
            }
        }
    }
    // A sort the document does not list is refused.
    let sorts = doc.query_parameters("/results").into_iter().find(|p| p["name"] == "sort").unwrap()["schema"]
        ["enum"]
        .clone();
    assert!(!sorts.as_array().unwrap().contains(&json!("colour")));
    app.get(&format!("{base}/results?sort=colour")).await.assert_error(StatusCode::BAD_REQUEST, Some("sort"));
}

/// The schemas derived for the public types say what serde writes: every seed drive
/// and result (tags included) validates, every enum lists exactly the names serde uses
/// (`rename_all`, `rename`), and `Link` is tagged by `kind`.
pub async fn public_type_schemas_follow_their_serde_form(app: &TestApp) {
    use bench::analysis::{FlagKind, RatedFigure};
    use bench::{Access, CellType, DataPattern, DriveState, Op, Stat, StorageMode, Tool, ToolFamily};
    let doc = Doc::fetch(app).await;
    let valid = |name: &str, value: &Value| {
        let problems = Doc::problems(&doc.component(name), value);
        assert!(problems.is_empty(), "{name} {value}: {problems:?}");
    };
    let seeds = bench::seeds::seed_dataset().unwrap();
    for drive in &seeds.drives {
        valid("DriveSku", &serde_json::to_value(drive).unwrap());
    }
    for r in &seeds.results {
        valid("BenchResult", &serde_json::to_value(&r.result).unwrap());
        valid("Tags", &serde_json::to_value(&r.tags).unwrap());
    }
    let full: bench::Tags = serde_json::from_value(json!({
        "drive": {"sku": "x", "vendor": "v", "model": "m", "part_number": "p", "capacity_gb": 64},
        "controller": {"vendor": "Marvell", "model": "88SS9174", "stepping": "BKK2"},
        "nand": {"vendor": "Micron", "process_nm": 34, "cell": "MLC", "interface": "ONFI 2.x"},
        "dram_mb": 256, "firmware": "0006",
        "platform": {"cpu": "i7", "chipset": "ICH10R", "motherboard": "mb", "storage_controller": "ASUS U3S6",
            "add_in_card": true, "driver": "Marvell", "mode": "NVMe", "link": {"kind": "sata", "gbps": 6.0},
            "host_link": {"kind": "pcie", "gen": 2, "lanes": 1}, "os": "Windows 7", "filesystem": "NTFS",
            "allocation_unit_bytes": 4096},
        "raid": {"level": 0, "members": 2, "stripe_bytes": 131072},
        "conditions": {"drive_state": "secure-erased", "fill_percent": 50.0}
    }))
    .unwrap();
    valid("Tags", &serde_json::to_value(&full).unwrap());

    fn names<T: serde::Serialize>(variants: &[T]) -> BTreeSet<String> {
        variants.iter().map(|v| serde_json::to_value(v).unwrap().as_str().unwrap().to_string()).collect()
    }
    for (name, serde_names) in [
        (
            "Tool",
            names(&[
                Tool::CrystalDiskMark,
                Tool::KDiskMark,
                Tool::Fio,
                Tool::Orion,
                Tool::AsSsd,
                Tool::HdTune,
                Tool::Atto,
                Tool::SsdbaseBench,
            ]),
        ),
        (
            "ToolFamily",
            names(&[
                ToolFamily::CdmNative,
                ToolFamily::CdmDiskspd,
                ToolFamily::Fio,
                ToolFamily::Orion,
                ToolFamily::AsSsd,
                ToolFamily::HdTune,
                ToolFamily::Atto,
                ToolFamily::FioBuffered,
            ]),
        ),
        ("Access", names(&[Access::Seq, Access::Rnd])),
        ("Op", names(&[Op::Read, Op::Write, Op::Mix])),
        (
            "Stat",
            names(&[
                Stat::Min,
                Stat::Max,
                Stat::Avg,
                Stat::Burst,
                Stat::Access,
                Stat::Steady,
                Stat::Unsettled,
                Stat::AfterCache,
            ]),
        ),
        ("DataPattern", names(&[DataPattern::Random, DataPattern::ZeroFill, DataPattern::OneFill])),
        ("CellType", names(&[CellType::Slc, CellType::Mlc, CellType::Tlc, CellType::Qlc])),
        ("StorageMode", names(&[StorageMode::Ide, StorageMode::Ahci, StorageMode::Raid, StorageMode::Nvme])),
        ("DriveState", names(&[DriveState::Fresh, DriveState::SecureErased, DriveState::Used])),
        (
            "RatedFigure",
            names(&[
                RatedFigure::SeqReadMbps,
                RatedFigure::SeqWriteMbps,
                RatedFigure::Rnd4kReadIops,
                RatedFigure::Rnd4kWriteIops,
            ]),
        ),
        (
            "FlagKind",
            names(&[
                FlagKind::InterfaceCeiling,
                FlagKind::CacheInflated,
                FlagKind::FarAboveRated,
                FlagKind::CompressionSensitive,
                FlagKind::VolumeSize,
            ]),
        ),
    ] {
        let documented: BTreeSet<String> = doc.json["components"]["schemas"][name]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{name} is an enum"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(documented, serde_names, "{name}");
    }
    for link in [
        bench::Link::Sata { gbps: 1.5 },
        bench::Link::Pcie { gen: 3, lanes: 4 },
        bench::Link::Usb { gbps: 0.48 },
    ] {
        valid("Link", &serde_json::to_value(link).unwrap());
    }
    let link = doc.component("Link");
    assert!(!link.is_valid(&json!({"kind": "sata", "gen": 2, "lanes": 1})), "a SATA link has gbps");
    assert!(!link.is_valid(&json!({"gbps": 6.0})), "the kind is required");
    assert!(!link.is_valid(&json!({"kind": "Sata", "gbps": 6.0})), "kinds are lowercase");
}
