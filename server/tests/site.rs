//! `ssdbase serve --site DIR`: the built website next to the API. Deep links load the
//! app, assets come compressed (Brotli or gzip), and unknown `/api` paths keep their JSON 404.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use ssdbase::api::{app_with, ApiConfig};
use tower::ServiceExt;

const INDEX: &str = "<!DOCTYPE html><html><head></head><body>SSDBase site index</body></html>";

struct Site {
    /// Removed when dropped, on a panic too.
    dir: tempfile::TempDir,
    router: Router,
}

async fn site() -> Site {
    let dir = tempfile::Builder::new().prefix("ssdbase_site_").tempdir().unwrap();
    let dist = dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), INDEX).unwrap();
    // Big and repetitive, like a wasm file: worth compressing.
    std::fs::write(dist.join("app-0123456789abcdef.js"), "export const x = 1;\n".repeat(2000)).unwrap();
    let storage = ssdbase::open(&format!("sqlite://{}", dir.path().join("site.db").display())).await.unwrap();
    let config = ApiConfig { site: Some(dist), ..ApiConfig::default() };
    Site { router: app_with(storage, &config), dir }
}

async fn get(router: &Router, path: &str, gzip: bool) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    get_accepting(router, path, if gzip { "gzip" } else { "" }).await
}

/// `path` asked for with `Accept-Encoding: accept` (none when empty).
async fn get_accepting(
    router: &Router,
    path: &str,
    accept: &str,
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut req = Request::get(path);
    if !accept.is_empty() {
        req = req.header(header::ACCEPT_ENCODING, accept);
    }
    let res = router.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let (parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap().to_vec();
    (parts.status, parts.headers, bytes)
}

#[tokio::test]
async fn deep_links_get_the_app_and_api_paths_keep_json_errors() {
    let s = site().await;
    for path in ["/", "/compare?drives=a,b", "/drives/crucial-realssd-c300-64gb", "/results/17"] {
        let (status, headers, body) = get(&s.router, path, false).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let body = String::from_utf8(body).unwrap();
        assert!(body.ends_with("</div>SSDBase site index</body></html>"), "{path}: {body}");
        assert_eq!(headers[header::CACHE_CONTROL], "no-store, max-age=0", "{path}: the page is never stored");
        // A page the API knows gets its link preview in the head; others the index as is.
        let known = path.starts_with("/drives/") || path.starts_with("/results/");
        assert_eq!(body.contains("<meta property=\"og:image\""), known, "{path}: {body}");
    }
    // A page whose opening depends on what the app finds is sent as the index is.
    for path in ["/measure", "/platforms/ICH10R", "/drives/no-such-drive", "/results/999999", "/nowhere"] {
        let (_, _, body) = get(&s.router, path, false).await;
        assert_eq!(String::from_utf8(body).unwrap(), INDEX, "{path}");
    }
    for path in ["/api/v1/nope", "/api/nope", "/api", "/api/v2/results"] {
        let (status, headers, body) = get(&s.router, path, false).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("application/json"), "{path}");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(v["errors"][0]["detail"].is_string(), "{path}: {v}");
    }
    // The API itself still answers.
    let (status, _, body) = get(&s.router, "/api/v1/drives", false).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8(body).unwrap().contains("crucial-realssd-c300-64gb"));
}

/// The page's menu and opening come in the body, before the app's code: the heading for
/// everyone, or the one the API gives, escaped, with the paragraph of a page that has one.
#[tokio::test]
async fn every_page_opens_before_its_code_arrives() {
    let s = site().await;
    let page = |path: &'static str| {
        let router = s.router.clone();
        async move {
            let body = String::from_utf8(get(&router, path, false).await.2).unwrap();
            let start = body.find("<body>").expect("a body") + "<body>".len();
            let end = body
                .find("</div>SSDBase site index")
                .unwrap_or_else(|| panic!("{path}: the index follows: {body}"));
            body[start..end + "</div>".len()].to_string()
        }
    };
    let leaderboard = page("/leaderboard").await;
    assert!(leaderboard.starts_with("<div id=\"first-paint\" data-drawn="), "{leaderboard}");
    assert!(page("/").await.starts_with("<div id=\"first-paint\"><header class=\"top\">"));
    assert!(
        leaderboard.contains("<a href=\"/leaderboard\" aria-current=\"page\">Leaderboards</a>"),
        "{leaderboard}"
    );
    assert!(leaderboard.contains("<main id=\"main\"><section><h1>Leaderboards</h1><p class=\"muted\">Drives ranked in one test at a time"), "{leaderboard}");
    let home = page("/").await;
    assert!(home.contains("<section class=\"hero\"><h1>SSDBase</h1><p class=\"lead\">One place"), "{home}");
    // The compare page opens the same whichever drives it compares, and whether they exist.
    for path in
        ["/compare?drives=crucial-realssd-c300-64gb,plextor-px-m2s-64gb", "/compare?drives=nope", "/compare"]
    {
        assert!(
            page(path).await.contains("<h1>Compare drives</h1><p class=\"muted\">Only equal tests"),
            "{path}"
        );
    }
    // A drive's heading is its name from the catalogue, with its links beneath.
    let drive = page("/drives/crucial-realssd-c300-64gb").await;
    assert!(
        drive.contains("<section><h1>Crucial RealSSD C300 64 GB</h1><p class=\"page-links\"><a href=\"/controllers/88SS9174\">"),
        "{drive}"
    );
    assert!(
        drive.contains("id=\"propose-link\">Propose a correction or rated figures</a></p></section>"),
        "{drive}"
    );
    assert!(drive.contains("<a href=\"/drives\" aria-current=\"page\">Drives</a>"), "{drive}");
    // A result's heading and its figures with its platform.
    let result = page("/results/17").await;
    assert!(result.contains("<h1>Result #17 · "), "{result}");
    assert!(result.contains("</h1><p class=\"lead\">") && result.contains(" MB/s"), "{result}");
}

/// The body of `path`'s answer, as text.
async fn text(router: &Router, path: &str) -> String {
    let (status, _, body) = get(router, path, false).await;
    assert_eq!(status, StatusCode::OK, "{path}");
    String::from_utf8(body).unwrap()
}

/// A leaderboard's first paint is its test's table as the app shows it (the same
/// fragment), with a picker and filters that work without the app, and the app is told
/// to take over only once it has drawn them.
#[tokio::test]
async fn a_leaderboard_comes_with_its_table() {
    let s = site().await;
    let tests: serde_json::Value =
        serde_json::from_str(&text(&s.router, "/api/v1/leaderboard/tests").await).unwrap();
    let tests: Vec<&str> =
        tests["tests"].as_array().unwrap().iter().map(|t| t["test"].as_str().unwrap()).collect();
    assert!(tests.len() > 3, "{tests:?}");
    let enc = |t: &str| api_types::links::encode(t);

    // No test asked: the one the app picks (the first), selected, with its table.
    let page = text(&s.router, "/leaderboard").await;
    let table = text(&s.router, &format!("/fragments/leaderboard?test={}", enc(tests[0]))).await;
    assert!(table.contains("<table"), "{table}");
    assert!(
        page.contains(&format!("<div class=\"table-slot\"><div class=\"server-table\">{table}</div></div>")),
        "{page}"
    );
    assert!(page.contains("data-drawn=\"main select[name=test];main .server-table\""), "{page}");
    assert!(page.contains("<meta name=\"ssdbase-data\" content=\"/api/v1/leaderboard/tests\">"), "{page}");
    assert_eq!(
        page.matches("<option value=\"").count() - 3,
        tests.len(),
        "every test and the 3 reviewed choices"
    );
    let selected = format!("<option value=\"{}\" selected>", tests[0]);
    assert!(page.contains(&selected), "{page}");
    assert!(page.contains("<details class=\"filters\"><summary>"), "folded without a filter: {page}");

    // A test and filters asked: that table, the filters unfolded and filled, and both
    // forms asking for the page with what the app's links keep (never the line count).
    let query = format!("test={}&vendor=Crucial&limit=5", enc(tests[1]));
    let page = text(&s.router, &format!("/leaderboard?{query}")).await;
    let table = text(&s.router, &format!("/fragments/leaderboard?{query}")).await;
    assert!(page.contains(&format!("<div class=\"server-table\">{table}</div>")), "{page}");
    assert!(page.contains(&format!("<option value=\"{}\" selected>", tests[1])), "{page}");
    assert!(page.contains("<details class=\"filters\" open><summary>"), "{page}");
    assert!(
        page.contains(
            "<input name=\"vendor\" list=\"index-vendor\" placeholder=\"Crucial\" value=\"Crucial\">"
        ),
        "{page}"
    );
    let picker = &page[page.find("<form class=\"toolbar\"").unwrap()..];
    let picker = &picker[..picker.find("</form>").unwrap()];
    assert!(picker.contains("<input type=\"hidden\" name=\"vendor\" value=\"Crucial\">"), "{picker}");
    assert!(!picker.contains("limit") && picker.contains("<noscript><button type=\"submit\">"), "{picker}");
    let filters = &page[page.find("<form class=\"filter-grid drive-filters\"").unwrap()..];
    let filters = &filters[..filters.find("</form>").unwrap()];
    assert!(
        filters.contains(&format!("<input type=\"hidden\" name=\"test\" value=\"{}\">", tests[1])),
        "{filters}"
    );
    assert!(
        !filters.contains("name=\"limit\"")
            && filters.contains(&format!("<a href=\"/leaderboard?test={}\">Clear</a>", enc(tests[1]))),
        "{filters}"
    );

    // A query the API refuses: the opening alone, and the app takes over at its heading.
    let page = text(&s.router, "/leaderboard?test=x&bogus=1").await;
    assert!(page.contains("<h1>Leaderboards</h1>") && !page.contains("server-table"), "{page}");
    assert!(!page.contains("data-drawn"), "{page}");
}

/// A comparison's first paint has its picker and its chart: the server's drawing at each
/// width and theme the page may need, each answered as an SVG of the size the page
/// reserves for it; the app takes over once its own chart is drawn.
#[tokio::test]
async fn a_comparison_comes_with_its_chart() {
    let s = site().await;
    let (c300, m2s) = ("crucial-realssd-c300-256gb", "plextor-px-m2s-256gb");
    let page = text(&s.router, &format!("/compare?drives={c300},{m2s}&merge=drive")).await;
    assert!(page.contains("data-drawn=\"main canvas[data-drawn-ms]\""), "{page}");
    assert!(
        page.contains(&format!("<li><a href=\"/drives/{c300}\">Crucial RealSSD C300 256 GB</a><a href=\"/compare?drives={m2s}&amp;merge=drive\" aria-label=\"Remove Crucial RealSSD C300 256 GB\" class=\"x\">×</a></li>")),
        "{page}"
    );
    assert!(page.contains("<option value=\"\" selected>any pattern</option>"), "{page}");
    assert!(page.contains("<input type=\"checkbox\" checked> One pool per drive"), "{page}");
    assert!(page.contains("<button type=\"button\" aria-pressed=\"true\">MB/s</button>"), "{page}");
    // Each image named: (URL, width, height) as the page declares it.
    let mut images = Vec::new();
    for tag in page.split('<').filter(|t| t.starts_with("source ") || t.starts_with("img ")) {
        let attr = |name: &str| {
            let at = tag.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("{name} in {tag}"))
                + name.len()
                + 3;
            tag[at..at + tag[at..].find('"').unwrap()].replace("&amp;", "&")
        };
        let url = if tag.starts_with("img ") { attr("src") } else { attr("srcset") };
        images.push((url, attr("width"), attr("height")));
    }
    assert_eq!(images.len(), 6, "3 widths in 2 themes: {images:?}");
    assert!(page.contains("elementtiming=\"compare-chart\""), "{page}");
    for (url, width, height) in &images {
        assert!(
            url.starts_with(&format!("/api/v1/compare/chart.svg?drives={c300},{m2s}&merge=drive&width=")),
            "{url}"
        );
        let (status, headers, body) = get(&s.router, url, false).await;
        assert_eq!(status, StatusCode::OK, "{url}");
        assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml", "{url}");
        let svg = String::from_utf8(body).unwrap();
        let head = &svg[..svg.find('>').unwrap()];
        assert!(
            head.contains(&format!("width=\"{width}\"")) && head.contains(&format!("height=\"{height}\"")),
            "{url}: {head}"
        );
    }
    let widths: std::collections::BTreeSet<&str> = images.iter().map(|i| i.1.as_str()).collect();
    assert_eq!(widths.len(), 3, "{images:?}");
    assert_eq!(images.iter().filter(|i| i.0.ends_with("&theme=dark")).count(), 3, "{images:?}");

    // Drives that compare nothing: the picker, no chart, and the app takes over at its heading.
    let page = text(&s.router, "/compare?drives=nope").await;
    assert!(!page.contains("<picture") && !page.contains("data-drawn"), "{page}");
}

#[tokio::test]
async fn assets_are_gzipped_and_cached_for_good() {
    let s = site().await;
    let (status, headers, plain) = get(&s.router, "/app-0123456789abcdef.js", false).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plain.len(), 40_000);
    assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=31536000, immutable");
    let (status, headers, gz) = get(&s.router, "/app-0123456789abcdef.js", true).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert!(gz.len() < plain.len() / 10, "{} bytes gzipped", gz.len());
    // Precompressed by the build: that file is sent as it is, with the asset's type.
    let precompressed = b"\x1f\x8b precompressed by the build".to_vec();
    std::fs::write(s.dir.path().join("dist/app-0123456789abcdef_bg.wasm"), b"\0asm plain").unwrap();
    std::fs::write(s.dir.path().join("dist/app-0123456789abcdef_bg.wasm.gz"), &precompressed).unwrap();
    let (status, headers, body) = get(&s.router, "/app-0123456789abcdef_bg.wasm", true).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(headers[header::CONTENT_TYPE], "application/wasm");
    assert_eq!(headers[header::CACHE_CONTROL], "public, max-age=31536000, immutable");
    assert_eq!(body, precompressed);
    let (_, headers, body) = get(&s.router, "/app-0123456789abcdef_bg.wasm", false).await;
    assert!(headers.get(header::CONTENT_ENCODING).is_none());
    assert_eq!(body, b"\0asm plain", "a client without gzip gets the plain file");
    // With a Brotli file beside it too: a browser taking both gets Brotli, one taking
    // gzip alone the gzip file.
    let brotli = b"precompressed by the build with Brotli".to_vec();
    std::fs::write(s.dir.path().join("dist/app-0123456789abcdef_bg.wasm.br"), &brotli).unwrap();
    let (_, headers, body) =
        get_accepting(&s.router, "/app-0123456789abcdef_bg.wasm", "gzip, deflate, br, zstd").await;
    assert_eq!(headers[header::CONTENT_ENCODING], "br");
    assert_eq!(headers[header::CONTENT_TYPE], "application/wasm");
    assert_eq!(body, brotli);
    let (_, headers, body) = get(&s.router, "/app-0123456789abcdef_bg.wasm", true).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert_eq!(body, precompressed);
    // API answers are compressed by the API's own layer, once, and never cached as
    // immutable assets.
    let (_, headers, body) = get(&s.router, "/api/v1/health", true).await;
    assert_eq!(headers[header::CONTENT_ENCODING], "gzip");
    assert!(headers.get(header::CACHE_CONTROL).is_none_or(|v| !v.to_str().unwrap().contains("immutable")));
    let mut json = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&body[..]), &mut json).unwrap();
    assert!(json.contains("\"status\""), "one gzip layer, not two: {json}");
}

#[tokio::test]
async fn every_page_preloads_its_routes_code() {
    let s = site().await;
    let dist = s.dir.path().join("dist");
    std::fs::write(
        dist.join("index.html"),
        "<!DOCTYPE html><html><head><title>SSDBase</title></head><body></body></html>",
    )
    .unwrap();
    let manifest = serde_json::json!({
        "loader": "__wasm_split-00aa.js",
        "routes": {
            "compare": ["chunk_1-11.wasm", "split___compare_route_view_1-22.wasm"],
            "drive": ["chunk_1-11.wasm", "chunk_2-33.wasm", "split___drive_route_view_1-44.wasm"],
            "browse": ["chunk_3-55.wasm", "split___browse_route_view_1-66.wasm"],
        },
        "paths": [
            { "path": "/compare", "route": "compare" },
            { "path": "/drives/:id", "route": "drive" },
            { "path": "/drives", "route": "browse" },
            { "path": "/drives/:id/propose", "route": "browse" },
            { "path": "/leaderboard", "route": "browse" },
        ]
    });
    std::fs::write(dist.join("preload.json"), manifest.to_string()).unwrap();
    let page = |path: &'static str| {
        let router = s.router.clone();
        async move { String::from_utf8(get(&router, path, false).await.2).unwrap() }
    };
    // The files the start script preloads after the first paint (xtask site.rs).
    let preloads = |html: &str| -> Vec<String> {
        let Some(at) = html.find("<meta name=\"ssdbase-code\" content=\"") else { return Vec::new() };
        let content = &html[at + "<meta name=\"ssdbase-code\" content=\"".len()..];
        content[..content.find('"').unwrap()].split(' ').map(String::from).collect()
    };

    let compare = page("/compare?drives=a,b").await;
    assert_eq!(
        preloads(&compare),
        ["/__wasm_split-00aa.js", "/chunk_1-11.wasm", "/split___compare_route_view_1-22.wasm"],
        "{compare}"
    );
    assert!(
        compare.find("ssdbase-code").unwrap() < compare.find("</head>").unwrap(),
        "in the head: {compare}"
    );
    // The comparison the page asks for first, as the page writes it (api_types::links),
    // for the start script to fetch with the code; no other page names one.
    let filtered = page("/compare?drives=a,%20b&figure=iops&chipset=ICH10R%20R").await;
    assert!(
        filtered.contains(
            "<meta name=\"ssdbase-data\" content=\"/api/v1/compare?drives=a,b&amp;chipset=ICH10R%20R\">"
        ),
        "{filtered}"
    );
    let drive = page("/drives/crucial-realssd-c300-64gb").await;
    assert!(!drive.contains("ssdbase-data") && !page("/compare").await.contains("ssdbase-data"), "{drive}");
    assert_eq!(preloads(&drive).len(), 4, "the loader and the drive route's three files: {drive}");
    assert!(drive.contains("/chunk_2-33.wasm") && !drive.contains("compare_route"), "{drive}");
    // The pages without a link preview get theirs too, by the router's paths.
    for path in ["/leaderboard", "/drives", "/drives/crucial-realssd-c300-64gb/propose"] {
        let html = page(path).await;
        assert_eq!(preloads(&html).len(), 3, "{path}: {html}");
        assert!(html.contains("/split___browse_route_view_1-66.wasm"), "{path}: {html}");
    }
    // A path no lazy route shows (the home page's code is the main module's), one segment
    // too many or too few, and an empty segment for a `:name`.
    for path in ["/", "/results/17", "/drives/a/b", "/compare/x", "/drives//propose"] {
        assert!(preloads(&page(path).await).is_empty(), "{path}");
    }
    // A manifest the server cannot read: the page as it is, not an error.
    std::fs::write(dist.join("preload.json"), "{\"loader\": 1}").unwrap();
    let (status, _, body) = get(&s.router, "/compare?drives=a,b", false).await;
    assert_eq!(status, StatusCode::OK);
    assert!(preloads(&String::from_utf8(body).unwrap()).is_empty());
}
