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
    use super::without_custom_section;

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
