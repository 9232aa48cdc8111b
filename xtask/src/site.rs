//! The website: the Trunk build, its post-build hook (split, strip, compress), its lints
//! and the browser tests. What they need installed comes from `provision`.

use crate::provision::{self, debian_packages};
use crate::{cargo, project_root, split, status, target_dir};
use anyhow::{Context, Result};
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the site (app/, see Trunk.toml) into `dist/` with Trunk, installing the
/// wasm32 target, the wasm-bindgen-cli that Cargo.lock pins and Trunk when missing.
/// `--offline`: Trunk uses the tools on PATH and downloads nothing.
pub fn build_site() -> Result<PathBuf> {
    provision::wasm32_target()?;
    provision::wasm_bindgen_cli()?;
    provision::trunk()?;
    println!(
        "xtask: building the site with trunk (app/ to WebAssembly with LTO, split per page, compressed): \
         about 10 minutes the first time, one or two after a change"
    );
    status(Command::new("trunk").args(["build", "--release", "--offline"]))
        .context("building the site with trunk")?;
    Ok(project_root().join("dist"))
}

/// Trunk's post-build hook (Trunk.toml), on Trunk's staging directory:
/// - splits the wasm into one lazily loaded piece per page and binds the main module
///   again (split.rs);
/// - drops the `name` custom section (function names for stack traces, a fifth of the
///   gzipped download) from every wasm file, the split pieces included (Trunk's
///   wasm-bindgen run cannot be told `--remove-name-section`, and it never sees the
///   pieces; `strip = true` would also drop the `target_features` section wasm-bindgen
///   reads);
/// - writes `FILE.gz` beside every wasm, JS and CSS file, compressed with zopfli (about
///   6 % smaller than gzip -6), and `FILE.br` (Brotli at its best quality), which
///   `ssdbase serve` sends as they are to a browser that asks for either.
pub fn site_post_build() -> Result<()> {
    let dir =
        env::var_os("TRUNK_STAGING_DIR").context("run by Trunk's post_build hook (TRUNK_STAGING_DIR)")?;
    // The Cargo profile is index.html's data-cargo-profile-release in release builds.
    let profile =
        if env::var("TRUNK_PROFILE").as_deref() == Ok("release") { "wasm-release" } else { "debug" };
    let target_dir = target_dir();
    let linked = target_dir.join("wasm32-unknown-unknown").join(profile).join("app.wasm");
    split::split_site_wasm(Path::new(&dir), &linked)?;
    print_code_by_crate(Path::new(&dir))?;
    let index = Path::new(&dir).join("index.html");
    let html = std::fs::read_to_string(&index).context("Trunk's index.html in its staging directory")?;
    std::fs::write(&index, code_after_first_paint(&html)?)?;
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
        if ["wasm", "js", "css"].contains(&ext) {
            files.push((std::fs::metadata(&path)?.len(), path));
        }
    }
    // zopfli takes seconds per file: largest first, dealt out to one thread per core.
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let done: Vec<Result<Compressed>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<&PathBuf> = files.iter().skip(t).step_by(threads).map(|(_, p)| p).collect();
                scope.spawn(move || mine.into_iter().map(|p| compress_asset(p)).collect::<Vec<_>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|_| vec![Err(anyhow::anyhow!("a thread panicked"))]))
            .collect()
    });
    let (mut raw, mut gzipped, mut brotli) = (0, 0, 0);
    for file in done {
        let Compressed { path, size, gz, br } = file?;
        raw += size;
        gzipped += gz;
        brotli += br;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.starts_with("app-") || name.starts_with("style-") {
            println!("xtask: {name}: {size} bytes, {gz} gzipped (zopfli), {br} with Brotli");
        }
    }
    println!("xtask: {} assets: {raw} bytes, {gzipped} gzipped (zopfli), {brotli} with Brotli", files.len());
    Ok(())
}

/// Trunk's `index.html` with the app's code loaded once the page's first paint is on
/// screen. The server sends every page with its opening in the body (the menu, heading
/// and first paragraph: `server::html::first_paint`), which needs only the HTML and the
/// style sheet; Trunk's start script would import the main module at once and its
/// head preload the main wasm, taking the network from the style sheet (and on
/// Lighthouse's slow 4G, 300 KB of code took the opening from 1 s to 3 s). Here the
/// script waits for the first frame (or 100 ms, for a tab in the background, which
/// draws none), then fetches the API answer the server named as the page's first
/// request (`<meta name="ssdbase-data">`, kept in `window.ssdbaseData` for the app's
/// `api::get`), preloads the main wasm and the files the server named for the page's
/// route (`<meta name="ssdbase-code">`), and imports the main module.
/// Fails when Trunk writes its start script differently, rather than shipping a site
/// that loads its code before the first paint unnoticed.
pub fn code_after_first_paint(html: &str) -> Result<String> {
    let (import, js, wasm) = trunk_start(html).context(
        "index.html: Trunk's start script (import init, * as bindings from '/app-HASH.js'; \
         init({ module_or_path: '/app-HASH_bg.wasm' })) was not found",
    )?;
    let start = format!(
        "// The app's code loads once the page's first paint is on screen (xtask site.rs).\n\
         await new Promise((painted) => {{ requestAnimationFrame(() => setTimeout(painted)); setTimeout(painted, 100); }});\n\
         // A page's chart is what its reader came for: it is loaded first (at most 3 s).\n\
         const chart = document.querySelector('img[elementtiming]');\n\
         if (chart && !chart.complete) await new Promise((shown) => {{ chart.addEventListener('load', shown); chart.addEventListener('error', shown); setTimeout(shown, 3000); }});\n\
         const data = document.querySelector('meta[name=\"ssdbase-data\"]');\n\
         window.ssdbaseData = new Map((data ? data.content.split(' ') : []).map((url) => [url, fetch(url, {{ cache: 'no-cache' }})]));\n\
         const named = document.querySelector('meta[name=\"ssdbase-code\"]');\n\
         for (const href of ['{wasm}', ...(named ? named.content.split(' ') : [])]) {{\n\
         \x20 const link = document.createElement('link');\n\
         \x20 if (href.endsWith('.js')) {{ link.rel = 'modulepreload'; }}\n\
         \x20 else {{ link.rel = 'preload'; link.as = 'fetch'; link.type = 'application/wasm'; link.crossOrigin = 'anonymous'; }}\n\
         \x20 link.href = href;\n\
         \x20 document.head.append(link);\n\
         }}\n\
         const bindings = await import('{js}');\n\
         const init = bindings.default;"
    );
    let mut out = html.replacen(&import, &start, 1);
    // Trunk's head preloads of the same two files.
    for file in [&js, &wasm] {
        let Some(at) = out.find(&format!("href=\"{file}\"")) else {
            anyhow::bail!("index.html: Trunk's preload of {file} was not found");
        };
        let open = out[..at].rfind("<link").context("index.html: a preload outside a <link>")?;
        let close = at + out[at..].find('>').context("index.html: an unclosed <link>")? + 1;
        out.replace_range(open..close, "");
    }
    Ok(out)
}

/// Trunk's start script's import line, and the main module's JS and wasm paths.
fn trunk_start(html: &str) -> Option<(String, String, String)> {
    let line = html.lines().find(|l| l.starts_with("import init, * as bindings from '"))?;
    let js = line.strip_prefix("import init, * as bindings from '")?.strip_suffix("';")?;
    let wasm_at = html.find("init({ module_or_path: '")? + "init({ module_or_path: '".len();
    let wasm = &html[wasm_at..wasm_at + html[wasm_at..].find('\'')?];
    Some((line.to_string(), js.to_string(), wasm.to_string()))
}

/// An asset and its sizes: as it is, gzipped and with Brotli.
struct Compressed {
    path: PathBuf,
    size: usize,
    gz: usize,
    br: usize,
}

/// Drops a wasm file's name section, then writes `FILE.gz` and `FILE.br` beside it.
fn compress_asset(path: &Path) -> Result<Compressed> {
    let mut bytes = std::fs::read(path)?;
    // SSDBASE_SITE_NAMES=1 keeps the names, for a browser profile that names functions.
    if path.extension().is_some_and(|e| e == "wasm") && env::var_os("SSDBASE_SITE_NAMES").is_none() {
        bytes = without_custom_section(&bytes, "name")
            .with_context(|| format!("{} is not a WebAssembly module", path.display()))?;
        std::fs::write(path, &bytes)?;
    }
    let mut gz = Vec::new();
    zopfli::compress(zopfli::Options::default(), zopfli::Format::Gzip, &bytes[..], &mut gz)?;
    let mut br = Vec::new();
    // Quality 11 with a 16 MiB window: the smallest Brotli makes, once per build.
    let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 24, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut br, &params)?;
    for (ext, data) in [("gz", &gz), ("br", &br)] {
        let mut name = path.to_path_buf().into_os_string();
        name.push(".");
        name.push(ext);
        std::fs::write(name, data)?;
    }
    Ok(Compressed { path: path.to_path_buf(), size: bytes.len(), gz: gz.len(), br: br.len() })
}

/// `wasm` without its custom sections called `name`, every other section copied as it is
/// (wasmparser reads the sections, wasm-encoder writes them); `None` when it is malformed.
fn without_custom_section(wasm: &[u8], name: &str) -> Option<Vec<u8>> {
    let mut module = wasm_encoder::Module::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        let payload = payload.ok()?;
        if matches!(&payload, wasmparser::Payload::CustomSection(c) if c.name() == name) {
            continue;
        }
        // Function bodies come as entries of their section, which is copied whole.
        if let Some((id, range)) = payload.as_section() {
            let range = usize::try_from(range.start).ok()?..usize::try_from(range.end).ok()?;
            module.section(&wasm_encoder::RawSection { id, data: wasm.get(range)? });
        }
    }
    Some(module.finish())
}

/// Prints, for the main module and each lazy route's own module, its function bodies'
/// bytes by the crate they come from (from the name section, before it is dropped), so
/// that a module that grew names the code that made it grow.
fn print_code_by_crate(dir: &Path) -> Result<()> {
    let mut modules = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if name.ends_with(".wasm") && (name.starts_with("app-") || name.starts_with("split_")) {
            modules.push((name, path));
        }
    }
    modules.sort();
    for (name, path) in modules {
        let wasm = std::fs::read(&path)?;
        let by_crate = code_by_crate(&wasm).with_context(|| format!("{name} is not a WebAssembly module"))?;
        let total: usize = by_crate.iter().map(|(_, n)| n).sum();
        let top: Vec<String> =
            by_crate.iter().take(8).map(|(c, n)| format!("{c} {:.1}", *n as f64 / 1024.0)).collect();
        println!("xtask: {name}: {:.1} KB of code: {} KB", total as f64 / 1024.0, top.join(", "));
    }
    Ok(())
}

/// The bytes of `wasm`'s function bodies by crate, largest first: a function's crate is
/// the first path segment of its name (`tachys` for `<tachys::view::...>::build`),
/// `wasm-bindgen glue` for its generated imports' shims, `?` without a name.
fn code_by_crate(wasm: &[u8]) -> Option<Vec<(String, usize)>> {
    let mut imported = 0;
    let mut sizes = Vec::new();
    let mut names = std::collections::HashMap::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        match payload.ok()? {
            wasmparser::Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    imported += usize::from(matches!(import.ok()?.ty, wasmparser::TypeRef::Func(_)));
                }
            }
            wasmparser::Payload::CodeSectionEntry(body) => {
                let range = body.range();
                sizes.push(usize::try_from(range.end - range.start).ok()?);
            }
            wasmparser::Payload::CustomSection(c) => {
                if let wasmparser::KnownCustom::Name(reader) = c.as_known() {
                    for name in reader {
                        if let wasmparser::Name::Function(map) = name.ok()? {
                            for naming in map {
                                let naming = naming.ok()?;
                                names.insert(naming.index as usize, naming.name);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut by_crate = std::collections::HashMap::<String, usize>::new();
    for (i, size) in sizes.into_iter().enumerate() {
        *by_crate.entry(crate_of(names.get(&(imported + i)).copied().unwrap_or_default())).or_default() +=
            size;
    }
    let mut by_crate: Vec<(String, usize)> = by_crate.into_iter().collect();
    by_crate.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Some(by_crate)
}

/// The crate a function name (demangled, as rustc writes the name section) comes from.
fn crate_of(name: &str) -> String {
    if name.is_empty() {
        return "?".into();
    }
    if name.starts_with("__wbg_") || name.starts_with("__wbindgen") || name.contains("externref shim") {
        return "wasm-bindgen glue".into();
    }
    // A split point's entry: the app's lazy view, with what the optimiser inlined.
    if name.starts_with("__wasm_split") {
        return "app".into();
    }
    // `<T as tachys::...>`, `<&mut serde_json::...>`, `_ZN7tachys4view...` (not demangled).
    let name =
        name.trim_start_matches(['<', '&', '*', '(']).trim_start_matches("mut ").trim_start_matches("dyn ");
    if let Some(mangled) = name.strip_prefix("_ZN") {
        let digits: String = mangled.chars().take_while(char::is_ascii_digit).collect();
        let len: usize = digits.parse().unwrap_or(0);
        let first = mangled.get(digits.len()..digits.len() + len).unwrap_or("?");
        // An impl block's segment, `_$LT$T$u20$as$u20$tachys..view..IntoAny$GT$`.
        if first.starts_with("_$LT$") {
            let unescaped = first[1..]
                .replace("$LT$", "<")
                .replace("$GT$", ">")
                .replace("$u20$", " ")
                .replace("$RF$", "&")
                .replace("..", "::");
            return crate_of(&unescaped);
        }
        return first.to_string();
    }
    // A generic's `T as ...`: the trait's crate says more than `T`.
    let name = name.split_once(" as ").map_or(name, |(_, trait_path)| trait_path);
    let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(name.len());
    if end == 0 {
        "?".into()
    } else {
        name[..end].to_string()
    }
}

/// The site's browser-only code compiles for wasm32 alone, so the workspace clippy run
/// does not see it: lint it for its real target.
pub fn lint_site() -> Result<()> {
    cargo(&["clippy", "-p", "app", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"])
}

/// The site in Debian's headless Chromium (installed here with its chromedriver)
/// against a real `ssdbase serve`: tests/e2e. Prints the site's download size and the
/// time to the first compare chart; screenshots go to target/e2e-screenshots/.
pub fn site_end_to_end(site: &Path) -> Result<()> {
    debian_packages(&[("chromium", "chromium"), ("chromedriver", "chromium-driver")])?;
    cargo(&["build", "-p", "ssdbase"])?;
    status(
        Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["test", "-p", "e2e", "--", "--nocapture"])
            .env("SSDBASE_SITE_DIR", site)
            .env("SSDBASE_BIN", target_dir().join("debug/ssdbase")),
    )
}

#[cfg(test)]
mod tests {
    use super::{code_after_first_paint, without_custom_section};

    #[test]
    fn a_functions_crate_is_the_first_segment_of_its_name() {
        use super::crate_of;
        assert_eq!(crate_of("tachys::view::any_view::AnyView::build::h1"), "tachys");
        assert_eq!(crate_of("<T as tachys::view::any_view::IntoAny>::into_any::build::h8"), "tachys");
        assert_eq!(crate_of("<&mut serde_json::de::Deserializer<R>>::parse::h2"), "serde_json");
        assert_eq!(crate_of("_ZN14reactive_graph8computed13async_derived3new17h0E"), "reactive_graph");
        assert_eq!(crate_of("__wbg_clientWidth_269ea87f17b863bf"), "wasm-bindgen glue");
        let impl_block = "_ZN53_$LT$T$u20$as$u20$tachys..view..any_view..IntoAny$GT$8into_any17h1E";
        assert_eq!(crate_of(impl_block), "tachys");
        let seed = "_ZN86_$LT$core..marker..PhantomData$LT$T$GT$$u20$as$u20$serde_core..de..DeserializeSeed$GT$4seed";
        assert_eq!(crate_of(seed), "serde_core");
        assert_eq!(crate_of("app::pages::compare::Compare::h3"), "app");
        assert_eq!(crate_of("__wasm_split_00__compare_route_view_1_export_2___CompareRoute_View"), "app");
        assert_eq!(crate_of(""), "?");
    }

    #[test]
    fn the_app_code_loads_after_the_first_paint() {
        // Trunk 0.21's index.html, as it writes it.
        let trunk = "<!DOCTYPE html>\n<html lang=\"en\">\n  <head>\n    <title>SSDBase</title>\n    \n\
            <script type=\"module\">\nimport init, * as bindings from '/app-9e5f.js';\n\
            const wasm = await init({ module_or_path: '/app-9e5f_bg.wasm' });\n\n\nwindow.wasmBindings = bindings;\n\n\n\
            dispatchEvent(new CustomEvent(\"TrunkApplicationStarted\", {detail: {wasm}}));\n\n</script>\n\
            \x20   <link rel=\"stylesheet\" href=\"/style-b491.css\"/>\n\
            \x20 <link rel=\"modulepreload\" href=\"/app-9e5f.js\" crossorigin=\"anonymous\">\
            <link rel=\"preload\" href=\"/app-9e5f_bg.wasm\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\"></head>\n\
            \x20 <body>\n  </body>\n</html>\n";
        let html = code_after_first_paint(trunk).unwrap();
        // Nothing of the code is fetched from the head: no static import, no preload.
        assert!(!html.contains("import init") && !html.contains("<link rel=\"modulepreload\""), "{html}");
        assert!(!html.contains("<link rel=\"preload\""), "{html}");
        assert!(html.contains("<link rel=\"stylesheet\" href=\"/style-b491.css\"/>"), "{html}");
        // After the first frame: the wasm and the named files preloaded, the JS imported,
        // and Trunk's start as it was.
        let wait = html.find("requestAnimationFrame").unwrap();
        let data = html.find("window.ssdbaseData = new Map(").unwrap();
        assert!(wait < data, "{html}");
        let preload = html.find("for (const href of ['/app-9e5f_bg.wasm', ...(named").unwrap();
        let import = html.find("await import('/app-9e5f.js');").unwrap();
        let init = html.find("const wasm = await init({ module_or_path: '/app-9e5f_bg.wasm' });").unwrap();
        assert!(wait < preload && preload < import && import < init, "{html}");
        assert!(html.contains("window.wasmBindings = bindings;"), "{html}");
        // A start script written differently is an error, not a site loaded as before.
        assert!(code_after_first_paint(&trunk.replace("import init,", "import start,")).is_err());
    }

    #[test]
    fn only_the_name_section_is_dropped() {
        let mut m = wasm_encoder::Module::new();
        let mut types = wasm_encoder::TypeSection::new();
        types.ty().function([], []);
        m.section(&types);
        let mut functions = wasm_encoder::FunctionSection::new();
        functions.function(0);
        m.section(&functions);
        let mut code = wasm_encoder::CodeSection::new();
        let mut f = wasm_encoder::Function::new([]);
        f.instruction(&wasm_encoder::Instruction::End);
        code.function(&f);
        m.section(&code);
        let mut names = wasm_encoder::NameSection::new();
        let mut map = wasm_encoder::NameMap::new();
        map.append(0, "a_function_name");
        names.functions(&map);
        m.section(&names);
        m.section(&wasm_encoder::CustomSection { name: "target_features".into(), data: b"+x".into() });
        let wasm = m.finish();
        let stripped = without_custom_section(&wasm, "name").unwrap();
        wasmparser::validate(&stripped).unwrap();
        let has = |b: &[u8], needle: &[u8]| b.windows(needle.len()).any(|w| w == needle);
        assert!(has(&wasm, b"a_function_name") && !has(&stripped, b"a_function_name"));
        assert!(has(&stripped, b"target_features"));
        assert!(without_custom_section(b"not wasm", "name").is_none());
    }
}
