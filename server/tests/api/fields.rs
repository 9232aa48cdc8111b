//! Every field of `bench::FIELDS` through every place derived from it, on both backends:
//! stored and read back, filtered on, sorted by, downloaded as a CSV column, documented
//! as a parameter, keyed into the platform group, and cleared by an edit. A field wired
//! into some of these places and not others fails here, whichever field it is.

use super::{a_result, url_encode, TestApp};
use axum::http::{Method, StatusCode};
use bench::fields::Kind;
use bench::{BenchResult, FieldValue, Tags, FIELDS};
use serde_json::{json, Value};

/// A field's value as the JSON of a platform group holds it.
fn json_of(v: &FieldValue) -> Value {
    match v {
        FieldValue::Text(s) => json!(s),
        FieldValue::Int(i) => json!(i),
    }
}

/// A stored result's value of every field, from its JSON (as `bench` reads it).
fn values_of(r: &Value) -> Vec<Option<FieldValue>> {
    let tags: Tags = serde_json::from_value(r["tags"].clone()).unwrap();
    let result: BenchResult = serde_json::from_value(r["result"].clone()).unwrap();
    FIELDS.iter().map(|f| f.value(&tags, &result)).collect()
}

/// Missing values sort as the smallest, as the browse documents.
fn sort_key(v: &Option<FieldValue>, kind: Kind) -> FieldValue {
    v.clone().unwrap_or(match kind {
        Kind::Text => FieldValue::Text(String::new()),
        Kind::Int => FieldValue::Int(-1),
    })
}

pub async fn every_field_is_stored_filtered_sorted_downloaded_documented_and_grouped(app: &TestApp) {
    // One result with every tag field set to its example; the result's own fields come
    // from the result.
    let mut tags = Tags::default();
    for f in FIELDS.iter().filter(|f| f.is_tag()) {
        f.set_text(&mut tags, f.example).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    }
    let posted = app
        .post_json(
            "/api/v1/results",
            &json!({"result": a_result(271.8), "tags": tags, "source": "field walk"}),
        )
        .await;
    assert_eq!(posted.status, StatusCode::CREATED, "{}", posted.text);
    let id = posted.json()["id"].as_i64().unwrap();
    let token = posted.json()["edit_token"].as_str().unwrap().to_string();

    // Stored: the tags read back as sent, and every field has a value to walk with.
    let stored = app.get(&format!("/api/v1/results/{id}")).await.json();
    assert_eq!(serde_json::from_value::<Tags>(stored["tags"].clone()).unwrap(), tags);
    let values = values_of(&stored);
    for (f, v) in FIELDS.iter().zip(&values) {
        assert!(v.is_some(), "{} has no value to test with", f.name);
    }

    let doc = app.get("/api/v1/openapi.json").await.json();
    let browse = &doc["paths"]["/results"]["get"]["parameters"];
    let parameter = |name: &str| browse.as_array().unwrap().iter().find(|p| p["name"] == name).cloned();
    let sorts: Vec<String> = parameter("sort").unwrap()["schema"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let compare_doc = &doc["paths"]["/compare"]["get"]["parameters"];

    for (f, value) in FIELDS.iter().zip(&values) {
        let value = value.as_ref().unwrap();
        let q = format!("{}={}", f.name, url_encode(&value.to_string()));

        // Filter: the result is found by its value, and everything found has it.
        let found = app.get(&format!("/api/v1/results?limit=500&{q}")).await;
        assert_eq!(found.status, StatusCode::OK, "{q}: {}", found.text);
        let found = found.json()["results"].as_array().unwrap().clone();
        assert!(found.iter().any(|r| r["id"] == id), "filter {q} finds the result");
        let i = FIELDS.iter().position(|g| g.name == f.name).unwrap();
        for r in &found {
            assert_eq!(values_of(r)[i].as_ref(), Some(value), "filter {q} found result {}", r["id"]);
        }
        // ...on compare too (where a catalogue drive's results pool).
        assert!(
            compare_doc.as_array().unwrap().iter().any(|p| p["name"] == f.name),
            "compare documents filter {}",
            f.name
        );
        let c = app
            .get(&format!("/api/v1/compare?drives={}&{q}", url_encode(&tags.drive.sku.clone().unwrap())))
            .await;
        assert_eq!(c.status, StatusCode::OK, "compare with {q}: {}", c.text);

        // Documented: a parameter of the browse, typed as the column.
        let p = parameter(f.name).unwrap_or_else(|| panic!("{} is not a documented filter", f.name));
        let ty = match f.kind {
            Kind::Text => "string",
            Kind::Int => "integer",
        };
        assert_eq!(p["schema"]["type"], ty, "{}", f.name);
        // (`drive` is also an old sort name, kept for permalinks: the model's.)
        let alias = bench::fields::SORT_ALIASES.iter().any(|(a, _)| *a == f.name);
        assert_eq!(sorts.contains(&f.name.to_string()), f.sort || alias, "{} in the sort enum", f.name);
        assert_eq!(sorts.contains(&format!("-{}", f.name)), f.sort || alias, "-{} in the sort enum", f.name);

        // CSV: a column of the field's name holding the value on the result's lines.
        let csv = app.get(&format!("/api/v1/results?format=csv&limit=500&{q}")).await;
        assert_eq!(csv.status, StatusCode::OK, "{}", csv.text);
        let mut lines = csv.text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col =
            header.iter().position(|h| *h == f.name).unwrap_or_else(|| panic!("no CSV column {}", f.name));
        let ours: Vec<&str> = lines.filter(|l| l.starts_with(&format!("{id},"))).collect();
        assert_eq!(ours.len(), 2, "a line per metric");
        for line in ours {
            // The examples hold no comma or quote, so a split reads the cells.
            assert_eq!(line.split(',').nth(col), Some(value.to_string().as_str()), "CSV {}", f.name);
        }

        // Sort: every page of the browse in this order is ordered by the field's value.
        if f.sort {
            for (sort, descending) in [(f.name.to_string(), false), (format!("-{}", f.name), true)] {
                let page = app.get(&format!("/api/v1/results?limit=500&sort={sort}")).await;
                assert_eq!(page.status, StatusCode::OK, "{}", page.text);
                let keys: Vec<FieldValue> = page.json()["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| sort_key(&values_of(r)[i], f.kind))
                    .collect();
                assert!(keys.len() > 2, "the seeds and the result");
                let ordered = keys.windows(2).all(|w| if descending { w[0] >= w[1] } else { w[0] <= w[1] });
                assert!(ordered, "sort={sort} orders by {}: {keys:?}", f.column);
            }
        }
    }

    // Group: the result's pool on its drive's page is keyed by exactly the group fields.
    let page = app.get(&format!("/api/v1/drives/{}", tags.drive.sku.as_deref().unwrap())).await.json();
    let platform = page["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["result_ids"].as_array().unwrap().contains(&json!(id)))
        .expect("the result is listed under a platform")["platform"]
        .clone();
    let keys: Vec<&str> = platform.as_object().unwrap().keys().map(String::as_str).collect();
    let group: Vec<&str> = bench::fields::GROUP.iter().map(|f| f.name).collect();
    assert_eq!(keys.len(), group.len(), "{platform}");
    for (f, value) in FIELDS.iter().zip(&values) {
        if f.group {
            assert_eq!(platform[f.name], json_of(value.as_ref().unwrap()), "group key {}", f.name);
        } else {
            assert!(platform.get(f.name).is_none(), "{} does not split groups", f.name);
        }
    }

    // Edit: clearing the tags rewrites every tag column (the update writes them all);
    // what the result itself says stays.
    let cleared = app
        .authed(Method::PATCH, &format!("/api/v1/results/{id}"), Some(&token), Some(&json!({"tags": {}})))
        .await;
    assert_eq!(cleared.status, StatusCode::OK, "{}", cleared.text);
    let after = values_of(&app.get(&format!("/api/v1/results/{id}")).await.json());
    for ((f, value), now) in FIELDS.iter().zip(&values).zip(&after) {
        let q = format!("{}={}", f.name, url_encode(&value.as_ref().unwrap().to_string()));
        let found = app.browse_ids(&q, None).await.contains(&id);
        assert_eq!(found, now == value, "after the edit, filter {q} follows the stored value {now:?}");
        if bench::fields::DERIVED.contains(&f.name) {
            // A tag the server derives (how the drive was identified) is derived again.
            assert!(now.is_some(), "{}: derived again after the edit", f.name);
        } else {
            assert_eq!(now.is_none(), f.is_tag(), "{}: tags cleared, the result's own fields kept", f.name);
        }
    }
}
