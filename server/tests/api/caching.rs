//! Conditional GET on the chart embeds: an `ETag` on every image, 304 for a current
//! `If-None-Match`, and a new ETag when the results behind the chart change.

use super::*;

/// A GET with `If-None-Match`: the status, the ETag and the body's length.
async fn get_if_none_match(
    app: &TestApp,
    uri: &str,
    etag: Option<&str>,
) -> (StatusCode, Option<String>, usize) {
    let headers: Vec<(header::HeaderName, &str)> =
        etag.map(|t| (header::IF_NONE_MATCH, t)).into_iter().collect();
    let r = get_on(&app.router, uri, &headers).await;
    let tag = r.headers.get(header::ETAG).map(|v| v.to_str().unwrap().to_string());
    (r.status, tag, r.bytes.len())
}

pub async fn chart_embeds_answer_304_while_unchanged(app: &TestApp) {
    let compare = format!("/api/v1/compare/chart.svg?drives={C300_64},{M2S_64}");
    let embeds = [
        compare.clone(),
        format!("/api/v1/compare/chart.png?drives={C300_64},{M2S_64}&width=480"),
        format!("/api/v1/drives/{C300_64}/rated.svg?figure=seq-write"),
        format!("/api/v1/drives/{C300_64}/rated.png"),
    ];
    for uri in &embeds {
        let (status, tag, len) = get_if_none_match(app, uri, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        let tag = tag.unwrap_or_else(|| panic!("{uri} has no ETag"));
        assert!(tag.starts_with('"') && tag.ends_with('"') && len > 0, "{uri}: {tag}");
        // The same chart again: 304, no body, the same tag.
        let (status, again, len) = get_if_none_match(app, uri, Some(&tag)).await;
        assert_eq!(
            (status, again.as_deref(), len),
            (StatusCode::NOT_MODIFIED, Some(tag.as_str()), 0),
            "{uri}"
        );
        let listed = format!("\"other\", W/{tag}");
        assert_eq!(get_if_none_match(app, uri, Some(&listed)).await.0, StatusCode::NOT_MODIFIED, "{uri}");
        // Another tag: the whole chart.
        let (status, _, len) = get_if_none_match(app, uri, Some("\"stale\"")).await;
        assert!(status == StatusCode::OK && len > 0, "{uri}");
    }
    // The compare chart's tag comes from its data and parameters, known before drawing:
    // the same query in another order is the same chart, and a 304 skips the drawing.
    let a = get_if_none_match(
        app,
        &format!("/api/v1/compare/chart.png?drives={C300_64},{M2S_64}&width=480"),
        None,
    )
    .await;
    let b = get_if_none_match(
        app,
        &format!("/api/v1/compare/chart.png?width=480&drives={C300_64},{M2S_64}"),
        None,
    )
    .await;
    assert_eq!(a.1, b.1);
    let c = get_if_none_match(
        app,
        &format!("/api/v1/compare/chart.png?drives={C300_64},{M2S_64}&width=481"),
        None,
    )
    .await;
    assert_ne!(a.1, c.1, "other parameters, another tag");
    // Errors are never 304, whatever the client sends.
    let bad = format!("/api/v1/compare/chart.svg?drives={C300_64}&width=1");
    assert_eq!(get_if_none_match(app, &bad, Some("*")).await.0, StatusCode::BAD_REQUEST);

    // A new result on the compared drive changes the chart, so its tag.
    let (_, before, _) = get_if_none_match(app, &compare, None).await;
    let before = before.unwrap();
    let body =
        json!({"text": CDM3, "tags": {"drive": {"sku": C300_64}, "platform": {"chipset": "ETAG-TEST"}}});
    assert_eq!(app.post_json("/api/v1/results", &body).await.status, StatusCode::CREATED);
    let (status, after, len) = get_if_none_match(app, &compare, Some(&before)).await;
    assert_eq!(status, StatusCode::OK, "the old tag is stale after a new result");
    assert!(after.is_some_and(|t| t != before) && len > 0);
}

/// The API and the site's fragments are compressed as the client accepts: Brotli when
/// offered, else gzip, else nothing; each decodes to the very answer sent uncompressed.
/// A PNG is sent as it is. The sizes are printed.
pub async fn answers_are_compressed_as_the_client_accepts(app: &TestApp) {
    use std::io::Read;
    let path = format!("/api/v1/drives/{}", super::C300_64);
    let plain = app.get(&path).await;
    assert_eq!(plain.status, StatusCode::OK);
    assert!(plain.headers.get(header::CONTENT_ENCODING).is_none(), "nothing asked, nothing compressed");
    let get = |accept: &'static str, path: String| async move {
        super::get_on(&app.router, &path, &[(header::ACCEPT_ENCODING, accept)]).await
    };
    let br = get("gzip, deflate, br", path.clone()).await;
    assert_eq!(br.headers.get(header::CONTENT_ENCODING).unwrap(), "br");
    let mut decoded = Vec::new();
    brotli_decompressor::Decompressor::new(&br.bytes[..], 4096).read_to_end(&mut decoded).unwrap();
    assert_eq!(decoded, plain.bytes, "Brotli decodes to the answer");
    let gz = get("gzip", path.clone()).await;
    assert_eq!(gz.headers.get(header::CONTENT_ENCODING).unwrap(), "gzip");
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&gz.bytes[..]).read_to_end(&mut decoded).unwrap();
    assert_eq!(decoded, plain.bytes, "gzip decodes to the answer");
    println!(
        "FIGURE drive page JSON ({}): {} bytes, gzip {}, Brotli {}",
        super::C300_64,
        plain.bytes.len(),
        gz.bytes.len(),
        br.bytes.len()
    );
    assert!(br.bytes.len() * 4 < plain.bytes.len(), "JSON shrinks at least fourfold");
    // The site's HTML fragments too; a PNG chart is left as it is.
    let fragment = get("br", "/fragments/effects".to_string()).await;
    assert_eq!(fragment.headers.get(header::CONTENT_ENCODING).map(|v| v.to_str().unwrap()), Some("br"));
    let png = get("br, gzip", format!("/api/v1/drives/{}/rated.png", super::C300_64)).await;
    assert_eq!(png.status, StatusCode::OK);
    assert!(png.headers.get(header::CONTENT_ENCODING).is_none() && png.bytes.starts_with(b"\x89PNG"));
}
