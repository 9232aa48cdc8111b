//! Sharing: link previews in the site's deep links, their 1200 × 630 images, oEmbed and
//! the iframe pages, with hostile text submitted through the API kept escaped.

use super::*;

const PUBLIC: &str = "https://ssdbase.example";
const HOSTILE: &str = "\"><script>alert(1)</script>";
/// Markup, a single quote and an ampersand that is already an entity: each must arrive as
/// text (`&amp;amp;`), never as markup or a closed attribute.
const HOSTILE_ALL: &str = "\"'><script>alert('x')</script>&amp;";
const INDEX: &str = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>SSDBase</title></head>\
    <body><script type=\"module\">import init from '/app.js'; init();</script></body></html>";

/// The application with a built site (a stand-in `index.html`) and, optionally, a public
/// URL.
fn site_router(app: &TestApp, public_url: Option<&str>) -> (Router, tempfile::TempDir) {
    let dir = tempfile::Builder::new().prefix("ssdbase_share_site_").tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), INDEX).unwrap();
    let config = ApiConfig {
        site: Some(dir.path().to_path_buf()),
        public_url: public_url.map(str::to_string),
        ..config()
    };
    (app_with(app.storage.clone(), &config), dir)
}

/// The `content` of `<meta property|name="key" content="...">` in `html`.
fn meta_content<'a>(html: &'a str, key: &str) -> Option<&'a str> {
    let at = html.find(&format!("=\"{key}\" content=\""))?;
    let rest = &html[at + key.len() + 13..];
    Some(&rest[..rest.find('"')?])
}

/// Width and height of a PNG from its IHDR.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let n = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (n(16), n(20))
}

/// A result whose drive name, platform and comment are markup.
async fn hostile_result(app: &TestApp) -> i64 {
    let mut result = a_result(512.5);
    result["comment"] = json!(HOSTILE);
    let body = json!({
        "result": result,
        "tags": {
            "drive": {"vendor": HOSTILE, "model": HOSTILE},
            "platform": {"chipset": HOSTILE}
        }
    });
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    r.json()["id"].as_i64().unwrap()
}

/// No markup from the database got through unescaped.
fn assert_escaped(html: &str, what: &str) {
    assert!(!html.contains("<script>alert"), "{what}: unescaped markup: {html}");
    assert!(!html.contains(HOSTILE), "{what}: an attribute was closed by stored text: {html}");
}

pub async fn deep_links_carry_link_previews_with_escaped_text(app: &TestApp) {
    let id = hostile_result(app).await;
    let (router, _dir) = site_router(app, Some(PUBLIC));
    let compare = format!("/compare?drives={C300_64},{M2S_64}");
    for (page, image, oembed) in [
        (format!("/drives/{C300_64}"), format!("/api/v1/drives/{C300_64}/preview.png"), true),
        (compare.clone(), format!("/api/v1/compare/preview.png?drives={C300_64},{M2S_64}"), true),
        (format!("/results/{id}"), format!("/api/v1/results/{id}/preview.png"), false),
    ] {
        let r = get_on(&router, &page, &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{page}");
        assert!(r.content_type.starts_with("text/html"), "{page}");
        let html = &r.text;
        assert!(html.ends_with("init();</script></body></html>"), "{page}: the app is still loaded: {html}");
        let head = &html[..html.find("</head>").expect("a head")];
        // The head's tags and the body's opening (the page's heading: `html::first_paint`).
        assert_escaped(html, &page);
        assert!(html.contains("<div id=\"first-paint\""), "{page}: {html}");
        assert_eq!(meta_content(head, "og:image"), Some(format!("{PUBLIC}{image}").as_str()), "{page}");
        let url = format!("{PUBLIC}{page}");
        assert_eq!(meta_content(head, "og:url"), Some(url.as_str()), "{page}");
        assert_eq!(meta_content(head, "twitter:card"), Some("summary_large_image"), "{page}");
        assert_eq!(meta_content(head, "og:image:width"), Some("1200"));
        assert_eq!(meta_content(head, "og:image:height"), Some("630"));
        let title = meta_content(head, "og:title").unwrap();
        assert!(head.contains(&format!("<title>{title}</title>")), "{page}: the title follows: {head}");
        let description = meta_content(head, "og:description").unwrap();
        assert!(description.contains("n="), "{page}: key figures come with sample counts: {description}");
        if page.starts_with("/drives/") {
            // The C300 64 GB has RAID 0 pools too: an array is not the drive, so the
            // drive's figures come from the drive alone.
            assert!(!description.contains("RAID"), "{page}: {description}");
        }
        assert_eq!(head.contains("application/json+oembed"), oembed, "{page}");

        // The image: a 1200 × 630 PNG with an ETag, 304 while unchanged.
        let png = get_on(&router, &image, &[]).await;
        assert_eq!(png.status, StatusCode::OK, "{image}: {}", png.text);
        assert_eq!(png.content_type, "image/png");
        assert_eq!(png_size(&png.bytes), (1200, 630), "{image}");
        let tag = png.headers[header::ETAG].to_str().unwrap().to_string();
        let again = get_on(&router, &image, &[(header::IF_NONE_MATCH, &tag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{image}");
    }
    // The hostile result's page names it, escaped.
    let r = get_on(&router, &format!("/results/{id}"), &[]).await;
    assert!(r.text.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), "{}", r.text);
    let c = get_on(&router, &compare, &[]).await;
    assert!(meta_content(&c.text, "og:title").unwrap().contains(" vs "), "{}", c.text);

    // Pages the API does not know get the index as it is, but for the compare page's
    // opening, which is the same for any drives.
    for page in ["/drives/no-such-drive", "/results/999999999", "/compare?drives=nope", "/results/x"] {
        let r = get_on(&router, page, &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{page}");
        assert!(!r.text.contains("og:title"), "{page}: {}", r.text);
        let opening = "<h1>Compare drives</h1>";
        let expected = if page.starts_with("/compare") { r.text.contains(opening) } else { r.text == INDEX };
        assert!(expected, "{page}: {}", r.text);
    }
    // Without --public-url, the links are absolute on the request's host.
    let (by_host, _dir2) = site_router(app, None);
    let r = get_on(&by_host, &format!("/drives/{C300_64}"), &[(header::HOST, "share.test:8080")]).await;
    assert_eq!(
        meta_content(&r.text, "og:image"),
        Some(format!("http://share.test:8080/api/v1/drives/{C300_64}/preview.png").as_str())
    );
    // A Host header that is not a host name is not echoed.
    let r = get_on(&by_host, &format!("/drives/{C300_64}"), &[(header::HOST, "a\"b")]).await;
    assert!(meta_content(&r.text, "og:url").unwrap().starts_with("http://localhost/"), "{}", r.text);
    // Preview images of what does not exist are JSON errors.
    app.get("/api/v1/drives/nope/preview.png").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    app.get(&format!("/api/v1/drives/{C300_64}/preview.png?x=1"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("x"));
    app.get("/api/v1/results/999999999/preview.png").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    app.get("/api/v1/compare/preview.png?drives=nope")
        .await
        .assert_error(StatusCode::NOT_FOUND, Some("drives[0]"));
}

pub async fn oembed_answers_drive_and_compare_pages(app: &TestApp) {
    let (router, _dir) = site_router(app, Some(PUBLIC));
    let oembed = |url: &str, extra: &str| format!("/api/v1/oembed?url={}{extra}", url_encode(url));
    let compare_page = format!("{PUBLIC}/compare?drives={C300_64},{M2S_64}");
    for (page, embed) in [
        (format!("{PUBLIC}/drives/{C300_64}"), format!("{PUBLIC}/embed/drives/{C300_64}")),
        (compare_page.clone(), format!("{PUBLIC}/embed/compare?drives={C300_64},{M2S_64}")),
    ] {
        let r = get_on(&router, &oembed(&page, "&format=json"), &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{page}: {}", r.text);
        assert!(r.content_type.starts_with("application/json"));
        let o = r.json();
        assert_eq!(o["version"], "1.0");
        assert_eq!(o["type"], "rich");
        assert_eq!(o["provider_name"], "SSDBase");
        assert_eq!(o["provider_url"], format!("{PUBLIC}/"));
        assert_eq!((o["width"].as_u64(), o["height"].as_u64()), (Some(720), Some(540)));
        let html = o["html"].as_str().unwrap();
        assert!(html.starts_with(&format!("<iframe src=\"{embed}\"")), "{page}: {html}");
        assert!(html.contains("width=\"720\" height=\"540\""), "{html}");
        assert!(o["title"].as_str().is_some_and(|t| t.contains("SSDBase")), "{o}");
        let thumb = o["thumbnail_url"].as_str().unwrap();
        assert!(thumb.starts_with(&format!("{PUBLIC}/api/v1/")) && thumb.contains("preview.png"), "{thumb}");
        assert_eq!((o["thumbnail_width"].as_u64(), o["thumbnail_height"].as_u64()), (Some(1200), Some(630)));
        // The iframe and the thumbnail answer.
        let path = |u: &str| u.strip_prefix(PUBLIC).unwrap().to_string();
        assert_eq!(get_on(&router, &path(&embed), &[]).await.status, StatusCode::OK, "{embed}");
        assert_eq!(get_on(&router, &path(thumb), &[]).await.status, StatusCode::OK, "{thumb}");
        // The consumer's bounds are kept.
        let small = get_on(&router, &oembed(&page, "&maxwidth=400&maxheight=300"), &[]).await.json();
        assert_eq!((small["width"].as_u64(), small["height"].as_u64()), (Some(400), Some(300)));
        assert!(small["html"].as_str().unwrap().contains("width=\"400\" height=\"300\""));
        // The page's head links to exactly this oEmbed URL.
        let head = get_on(&router, &path(&page), &[]).await.text;
        let link = head.split("type=\"application/json+oembed\" href=\"").nth(1).expect("discovery link");
        let href = link[..link.find('"').unwrap()].replace("&amp;", "&");
        let discovered = get_on(&router, &path(&href), &[]).await;
        assert_eq!(discovered.status, StatusCode::OK, "{href}");
        assert_eq!(discovered.json()["html"], o["html"], "{href}");
    }
    // Any scheme of this host; not other hosts, other pages, unknown drives.
    let http = compare_page.replacen("https://", "http://", 1);
    assert_eq!(get_on(&router, &oembed(&http, ""), &[]).await.status, StatusCode::OK);
    for url in [
        format!("{PUBLIC}/results/1"),
        format!("{PUBLIC}/"),
        format!("https://elsewhere.example/drives/{C300_64}"),
        format!("{PUBLIC}/drives/no-such-drive"),
        format!("{PUBLIC}/compare?drives=nope"),
        format!("{PUBLIC}/compare"),
        "not a url".to_string(),
    ] {
        get_on(&router, &oembed(&url, ""), &[]).await.assert_error(StatusCode::NOT_FOUND, Some("url"));
    }
    let page = format!("{PUBLIC}/drives/{C300_64}");
    let xml = get_on(&router, &oembed(&page, "&format=xml"), &[]).await;
    assert_eq!(xml.status, StatusCode::NOT_IMPLEMENTED, "{}", xml.text);
    assert!(xml.content_type.starts_with("application/json"));
    get_on(&router, "/api/v1/oembed", &[]).await.assert_error(StatusCode::BAD_REQUEST, Some("url"));
    get_on(&router, &oembed(&page, "&maxwidth=0"), &[])
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("maxwidth"));
    get_on(&router, &oembed(&page, "&colour=red"), &[])
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("colour"));
    // Read by its typed query: a value that does not read points at its parameter, and
    // every unknown name is reported.
    for (extra, pointer) in
        [("&maxwidth=wide", "maxwidth"), ("&maxheight=-1", "maxheight"), ("&format=yaml", "format")]
    {
        get_on(&router, &oembed(&page, extra), &[])
            .await
            .assert_error(StatusCode::BAD_REQUEST, Some(pointer));
    }
    let two = get_on(&router, &oembed(&page, "&colour=red&size=big"), &[]).await;
    let pointers: Vec<Value> =
        two.json()["errors"].as_array().unwrap().iter().map(|e| e["pointer"].clone()).collect();
    assert_eq!(pointers, [json!("colour"), json!("size")], "{}", two.text);
}

pub async fn embed_pages_are_framable_scriptless_and_escaped(app: &TestApp) {
    hostile_result(app).await;
    // The embed pages need no built site.
    for (page, image) in [
        (format!("/embed/drives/{C300_64}"), format!("/api/v1/drives/{C300_64}/")),
        (
            format!("/embed/compare?drives={C300_64},{M2S_64}"),
            "/api/v1/compare/chart.svg?drives=".to_string(),
        ),
    ] {
        let r = app.get(&page).await;
        assert_eq!(r.status, StatusCode::OK, "{page}: {}", r.text);
        assert_eq!(r.content_type, "text/html; charset=utf-8");
        let csp = r.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors *") && csp.contains("default-src 'none'"), "{csp}");
        assert!(!r.headers.contains_key(header::X_FRAME_OPTIONS));
        let html = &r.text;
        assert!(!html.contains("<script") && !html.contains(".wasm"), "{page}: no script: {html}");
        assert_escaped(html, &page);
        assert!(html.contains("name=\"viewport\"") && html.contains("width:100%"), "{page}: responsive");
        let src = html.split("<img src=\"").nth(1).expect("an image");
        let src = src[..src.find('"').unwrap()].replace("&amp;", "&");
        assert!(src.starts_with(&image) && src.contains(".svg"), "{page}: {src}");
        let svg = app.get(&src).await;
        assert_eq!((svg.status, svg.content_type.as_str()), (StatusCode::OK, "image/svg+xml"), "{src}");
        // A link back to the page on SSDBase (the request's host: no public URL here).
        let back = page.trim_start_matches("/embed");
        assert!(
            html.contains(&format!("href=\"http://localhost{back}\" target=\"_blank\"")),
            "{page}: {html}"
        );
    }
    // One chart of the drive page, as its embed panel offers it.
    let r = app.get(&format!("/embed/drives/{C300_64}?figure=seq-write")).await;
    assert!(
        r.text.contains(&format!("src=\"/api/v1/drives/{C300_64}/rated.svg?figure=seq-write\"")),
        "{}",
        r.text
    );
    let r = app.get(&format!("/embed/drives/{C300_64}?test=cdm-native%20SEQ%201MiB%20Q1T1%20read")).await;
    assert!(r.text.contains("distribution.svg?test=cdm-native%20SEQ%201MiB%20Q1T1%20read\""), "{}", r.text);
    app.get(&format!("/embed/drives/{C300_64}?figure=x"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("figure"));
    app.get(&format!("/embed/drives/{C300_64}?colour=red"))
        .await
        .assert_error(StatusCode::BAD_REQUEST, Some("colour"));
    app.get("/embed/drives/no-such-drive").await.assert_error(StatusCode::NOT_FOUND, Some("id"));
    app.get("/embed/compare?drives=nope").await.assert_error(StatusCode::NOT_FOUND, Some("drives[0]"));
    app.get("/embed/compare").await.assert_error(StatusCode::BAD_REQUEST, Some("drives"));
}

/// No text of `HOSTILE_ALL` got through as markup, and the stored text is there, escaped.
fn assert_all_escaped(html: &str, what: &str) {
    assert!(!html.contains("<script"), "{what}: unescaped markup: {html}");
    assert!(!html.contains("\"'>"), "{what}: an attribute was closed by stored text: {html}");
    assert!(!html.contains("&amp;\""), "{what}: a raw ampersand entity: {html}");
}

pub async fn every_html_surface_escapes_stored_and_asked_text(app: &TestApp) {
    // A drive, vendor, controller, comment and platform of hostile text, stored.
    let mut result = a_result(501.0);
    result["comment"] = json!(HOSTILE_ALL);
    let body = json!({
        "result": result,
        "tags": {
            "drive": {"vendor": format!("Evil{HOSTILE_ALL}"), "model": format!("X500 {HOSTILE_ALL}"), "capacity_gb": 256},
            "controller": {"model": HOSTILE_ALL},
            "platform": {"chipset": HOSTILE_ALL, "storage_controller": HOSTILE_ALL, "driver": HOSTILE_ALL}
        }
    });
    let r = app.post_json("/api/v1/results", &body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let result_id = r.json()["id"].as_i64().unwrap();
    let hostile = url_encode(HOSTILE_ALL);
    let stored = app.get(&format!("/api/v1/results/{result_id}")).await.json();
    let drive = stored["tags"]["drive"]["sku"]
        .as_str()
        .unwrap_or_else(|| panic!("a drive of its own: {stored}"))
        .to_string();
    let vendor = url_encode(stored["tags"]["drive"]["vendor"].as_str().unwrap());
    let index = app.get(&format!("/api/v1/drives/index?vendor={vendor}")).await.json();
    let row = index["drives"].as_array().unwrap().iter().find(|r| r["id"] == drive.as_str()).cloned();
    let row = row.unwrap_or_else(|| panic!("{drive} is listed under its vendor: {index}"));
    let test = row["key"]["seq_read"]["test"].as_str().expect("its key figure").to_string();
    let (d, t) = (url_encode(&drive), url_encode(&test));

    let surfaces = [
        // The drives index: stored names, and the asked filter in every link it builds.
        format!("/fragments/drives/index?vendor={vendor}"),
        format!("/fragments/drives/index?vendor={hostile}&controller={hostile}"),
        format!("/fragments/drives/index?sort=-results&nand={hostile}"),
        "/fragments/drives/suggestions".to_string(),
        "/fragments/drives/index?limit=1".to_string(),
        // A leaderboard of the hostile drive's test, filtered by hostile text.
        format!("/fragments/leaderboard?test={t}&min_results=1"),
        format!("/fragments/leaderboard?test={t}&min_results=1&vendor={hostile}&limit=1"),
        // Rated tables: the drive's, its embed page, a comparison filtered by hostile
        // text, a controller named by it.
        format!("/fragments/drives/{d}/rated"),
        format!("/embed/drives/{d}/rated"),
        format!("/fragments/compare/rated?drives={d},{C300_64}&chipset={hostile}"),
        format!("/fragments/compare/rated?drives={d},{C300_64}&merge=drive"),
        format!("/fragments/controllers/{hostile}/rated"),
        format!("/fragments/controllers/{hostile}/drives"),
        format!("/fragments/drives/{d}/observations"),
        // The submit page's proposal of the drive an upload names.
        format!("/fragments/drives/identify?text={hostile}"),
        // Embed pages and oEmbed.
        format!("/embed/drives/{d}"),
        format!("/embed/compare?drives={d},{C300_64}"),
        format!("/embed/compare?drives={d},{C300_64}&chipset={hostile}"),
    ];
    for path in &surfaces {
        let r = app.get(path).await;
        assert!(r.status == StatusCode::OK || r.status.is_client_error(), "{path}: {} {}", r.status, r.text);
        if r.content_type.starts_with("text/html") {
            assert_all_escaped(&r.text, path);
        }
    }
    // The stored text shows, escaped, where the page names the drive.
    let r = app.get(&format!("/fragments/drives/index?vendor={vendor}")).await;
    assert!(r.text.contains("&lt;script&gt;alert('x')&lt;/script&gt;&amp;amp;"), "{}", r.text);

    // The site's index.html head (link previews) and oEmbed's iframe, on a built site.
    let (router, dir) = site_router(app, Some(PUBLIC));
    for page in
        [format!("/drives/{d}"), format!("/results/{result_id}"), format!("/compare?drives={d},{C300_64}")]
    {
        let r = get_on(&router, &page, &[]).await;
        assert_eq!(r.status, StatusCode::OK, "{page}");
        let head = &r.text[..r.text.find("</head>").expect("a head")];
        assert_all_escaped(head, &page);
        assert!(head.contains("&lt;script&gt;"), "{page}: the hostile name is in the head, escaped: {head}");
    }
    let oembed = format!("/api/v1/oembed?url={}", url_encode(&format!("{PUBLIC}/drives/{drive}")));
    let r = get_on(&router, &oembed, &[]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let iframe = r.json()["html"].as_str().unwrap().to_string();
    assert_all_escaped(&iframe, "oEmbed html");
    assert!(iframe.starts_with("<iframe src=\"") && iframe.ends_with("</iframe>"), "{iframe}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The runner's downloads: listed with size and the SHA-256 of its checksum line, each
/// file downloadable at its stable URL (the checksum line as `sha256sum -c` reads it),
/// and nothing else in the directory reachable through the route.
pub async fn runner_downloads_are_listed_with_their_checksums(app: &TestApp) {
    let dir = tempfile::Builder::new().prefix("ssdbase_runner_dir_").tempdir().unwrap();
    let name = "ssdbase-bench-x86_64-linux";
    // A stand-in binary; its checksum line written by sha256sum itself, as xtask does.
    std::fs::write(dir.path().join(name), b"\x7fELF stand-in runner").unwrap();
    let line = std::process::Command::new("sha256sum").arg(name).current_dir(dir.path()).output().unwrap();
    let line = String::from_utf8(line.stdout).unwrap();
    std::fs::write(dir.path().join(format!("{name}.sha256")), &line).unwrap();
    std::fs::write(dir.path().join("secret.txt"), b"not offered").unwrap();
    let router =
        app_with(app.storage.clone(), &ApiConfig { runner_dir: Some(dir.path().to_path_buf()), ..config() });

    let list = get_on(&router, "/api/v1/runner", &[]).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let files = list.json()["files"].clone();
    assert_eq!(files.as_array().unwrap().len(), 1, "only the built binary, not aarch64's: {files}");
    assert_eq!(files[0]["arch"], "x86_64");
    assert_eq!(files[0]["name"], name);
    assert_eq!(files[0]["bytes"], 20);
    assert_eq!(files[0]["sha256"], line.split_whitespace().next().unwrap());
    let url = files[0]["url"].as_str().unwrap().to_string();
    assert_eq!(url, format!("/api/v1/runner/{name}"));

    let binary = get_on(&router, &url, &[]).await;
    assert_eq!(binary.status, StatusCode::OK);
    assert_eq!(&binary.bytes[..], b"\x7fELF stand-in runner");
    assert_eq!(binary.content_type, "application/octet-stream");
    let sum = get_on(&router, &format!("{url}.sha256"), &[]).await;
    assert_eq!(sum.status, StatusCode::OK);
    assert_eq!(sum.text, line);
    for missing in [
        "/api/v1/runner/ssdbase-bench-aarch64-linux",
        "/api/v1/runner/secret.txt",
        "/api/v1/runner/..%2Fsecret.txt",
    ] {
        let r = get_on(&router, missing, &[]).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{missing}: {}", r.text);
    }
}
