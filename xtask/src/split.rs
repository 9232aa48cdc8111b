//! Splitting the site's wasm into one piece per page (Leptos lazy routes), inside Trunk's
//! post-build hook.
//!
//! Each page of the site is a `#[lazy_route]` (app/src/pages/mod.rs): its code sits behind
//! a `wasm_split` placeholder import that only `wasm_split_cli_support` can resolve, by
//! cutting the linked wasm into a main module and lazily fetched chunks. Trunk 0.21 has no
//! such step (trunk-rs/trunk#1022) and its wasm-bindgen run drops the function table
//! export the chunks need, so this hook redoes the last two steps of Trunk's pipeline on
//! the wasm Cargo just linked (with `--emit-relocs`, see .cargo/config.toml), the way
//! cargo-leptos does:
//! 1. split it into the main module, the chunks and the loader `__wasm_split.js`;
//! 2. run wasm-bindgen on the main module with `--keep-lld-exports`, under the names
//!    Trunk already wrote into index.html (`app-HASH.js`, `app-HASH_bg.wasm`).
//!
//! The server caches every wasm and JS file for good (server/src/site.rs), so every
//! file written here carries a hash of its content in its name, as Trunk's own do.

use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Shared code below this many bytes of function bodies is merged into a larger shared chunk
/// (our patch of the splitter): a page then loads 2 to 8 chunk files instead of 14 to 51
/// of 0.5-5 KB each, and in fewer, larger files Brotli packs it tighter. A higher floor
/// means fewer files but more code a page does not use (at 16 KiB the drive page loaded
/// 21.6 KB more; measured with 8, 16 and 32 KiB in BENCHMARKS.md).
const MIN_CHUNK_SIZE: usize = 8 * 1024;

/// The loader's name while it is written; replaced by its hashed name afterwards.
const LINK_PLACEHOLDER: &str = "./__wasm_split.js";

/// Splits the app's wasm in Trunk's staging directory `staging`. `linked` is the wasm
/// Cargo linked for this build, before wasm-bindgen.
pub fn split_site_wasm(staging: &Path, linked: &Path) -> Result<()> {
    let bindgen_js = find_one(staging, |n| n.starts_with("app-") && n.ends_with(".js"))?;
    let out_name =
        bindgen_js.file_stem().and_then(|s| s.to_str()).context("Trunk's JS file name")?.to_string();

    let started = std::time::Instant::now();
    let work = staging.join(".wasm-split");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work)?;
    let input = std::fs::read(linked).with_context(|| format!("reading {}", linked.display()))?;
    let main_out = work.join("main.wasm");
    let main_module = format!("./{out_name}.js");
    let split = wasm_split_cli_support::transform({
        let mut opts = wasm_split_cli_support::Options::new(&input);
        opts.output_dir = &work;
        opts.main_out_path = &main_out;
        opts.main_module = &main_module;
        opts.link_name = LINK_PLACEHOLDER;
        opts.min_chunk_size = MIN_CHUNK_SIZE;
        opts
    })
    .map_err(|e| anyhow::anyhow!("{e:?}"))
    .with_context(|| format!("splitting {}", linked.display()))?;

    // Chunks, under hashed names; the loader fetches them by name.
    let mut loader = std::fs::read_to_string(work.join("__wasm_split.js")).context("the split loader")?;
    let mut renamed = BTreeMap::new();
    for chunk in &split.split_modules {
        let bytes = std::fs::read(chunk)?;
        let stem = chunk.file_stem().and_then(|s| s.to_str()).context("chunk name")?;
        let name = format!("{stem}-{}.wasm", content_hash(&bytes));
        let quoted = format!("\"./{stem}.wasm\"");
        if !loader.contains(&quoted) {
            bail!("the split loader does not fetch {quoted}");
        }
        loader = loader.replace(&quoted, &format!("\"./{name}\""));
        std::fs::write(staging.join(&name), bytes)?;
        renamed.insert(stem.to_string(), name);
    }
    let loader_name = format!("__wasm_split-{}.js", content_hash(loader.as_bytes()));
    std::fs::write(staging.join(&loader_name), &loader)?;
    write_preloads(staging, &loader_name, &split.prefetch_map, &renamed)?;

    // The main module, bound to JS where Trunk's index.html expects it.
    let bindgen_out = work.join("bindgen");
    let status = Command::new("wasm-bindgen")
        .args([
            "--target",
            "web",
            "--keep-lld-exports",
            "--no-typescript",
            "--out-name",
            &out_name,
            "--out-dir",
        ])
        .arg(&bindgen_out)
        .arg(&main_out)
        .status()
        .context("running wasm-bindgen")?;
    if !status.success() {
        bail!("wasm-bindgen failed on the split main module");
    }
    let js = std::fs::read_to_string(bindgen_out.join(format!("{out_name}.js")))?;
    // Only the JS import changes: the wasm still names the module by the placeholder.
    let import = format!("from \"{LINK_PLACEHOLDER}\"");
    if !js.contains(&import) {
        bail!("the main module's JS does not import the split loader ({import})");
    }
    std::fs::write(&bindgen_js, js.replace(&import, &format!("from \"./{loader_name}\"")))?;
    std::fs::copy(
        bindgen_out.join(format!("{out_name}_bg.wasm")),
        staging.join(format!("{out_name}_bg.wasm")),
    )?;
    std::fs::remove_dir_all(&work)?;

    println!(
        "xtask: split the site's wasm into {} lazily loaded chunks for {} lazy routes and functions in {:.1} s",
        renamed.len(),
        split.prefetch_map.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes [`PRELOADS`]: for each lazy route (a `#[lazy_route]` type `DriveRoute` is
/// `drive`), the loader and the chunk files its code arrives in, in the order the loader
/// fetches them, and which of the app's paths show which route ([`lazy_route_paths`]). The
/// server names a page's files in its head (`<link rel=preload>`), so that the browser
/// fetches them beside the main module instead of after it has run.
fn write_preloads(
    staging: &Path,
    loader: &str,
    prefetch_map: &std::collections::HashMap<String, Vec<String>>,
    renamed: &BTreeMap<String, String>,
) -> Result<()> {
    let mut routes = BTreeMap::new();
    for (split, stems) in prefetch_map {
        // `__drive_route_view_3614240499352988584`; other split points are not routes.
        let Some(route) = split.strip_prefix("__").and_then(|s| s.split_once("_route_view_")).map(|(r, _)| r)
        else {
            continue;
        };
        let files = stems
            .iter()
            .map(|stem| {
                renamed.get(stem).cloned().with_context(|| format!("no chunk file {stem} for {split}"))
            })
            .collect::<Result<Vec<String>>>()?;
        routes.insert(route.to_string(), files);
    }
    let router = crate::project_root().join(ROUTER);
    let paths = lazy_route_paths(&std::fs::read_to_string(&router)?);
    if paths.is_empty() {
        bail!("no lazy route found in {}", router.display());
    }
    for (path, route) in &paths {
        if !routes.contains_key(route) {
            bail!(
                "{}: {path} shows the lazy route {route:?}, which the split wasm does not have",
                router.display()
            );
        }
    }
    let paths: Vec<_> =
        paths.into_iter().map(|(path, route)| serde_json::json!({ "path": path, "route": route })).collect();
    let manifest = serde_json::json!({ "loader": loader, "routes": routes, "paths": paths });
    std::fs::write(staging.join(PRELOADS), serde_json::to_string_pretty(&manifest)?)?;
    Ok(())
}

/// Where the app declares its routes.
const ROUTER: &str = "app/src/pages/mod.rs";

/// The lazy routes of the app's router source: `(path, route)` for every
/// `<Route path=path!("/drives/:id") view={Lazy::<DriveRoute>::new()} />`, the route named
/// as the split wasm names it (`DriveRoute` -> `drive`, `RatedTableRoute` -> `rated_table`).
fn lazy_route_paths(router: &str) -> Vec<(String, String)> {
    router
        .lines()
        .filter_map(|line| {
            let path = line.split_once("path!(\"")?.1.split_once('"')?.0;
            let ty = line.split_once("Lazy::<")?.1.split_once("Route>")?.0;
            let mut route = String::new();
            for (i, c) in ty.chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    route.push('_');
                }
                route.push(c.to_ascii_lowercase());
            }
            Some((path.to_string(), route))
        })
        .collect()
}

/// The preload manifest's name in the site's directory (read by server/src/site.rs).
const PRELOADS: &str = "preload.json";

/// The one file in `dir` whose name satisfies `pick`.
fn find_one(dir: &Path, pick: impl Fn(&str) -> bool) -> Result<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.file_name().and_then(|n| n.to_str()).is_some_and(&pick) {
            found.push(path);
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => bail!("expected one matching file in {}, found {found:?}", dir.display()),
    }
}

/// 16 hex digits that change with `bytes`, for cache-busting file names.
fn content_hash(bytes: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    format!("{:016x}", h.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_apps_lazy_routes_are_read_from_its_router() {
        let router = std::fs::read_to_string(crate::project_root().join(ROUTER)).unwrap();
        let paths = lazy_route_paths(&router);
        let route = |p: &str| paths.iter().find(|(path, _)| path == p).map(|(_, r)| r.as_str());
        assert_eq!(route("/drives/:id"), Some("drive"));
        assert_eq!(route("/compare"), Some("compare"));
        assert_eq!(route("/results/:id"), Some("result"));
        assert_eq!(route("/results"), Some("browse"));
        assert_eq!(route("/drives/:id/propose"), Some("browse"));
        // Eager routes (home, platforms) have no code of their own to preload.
        assert_eq!(route("/"), None);
        assert_eq!(route("/platforms/:chipset"), None);
        // Every lazy route of the router is found: as many as `Lazy::<` appears.
        assert_eq!(paths.len(), router.matches("Lazy::<").count());
        let camel = lazy_route_paths(r#"<Route path=path!("/x") view={Lazy::<RatedTableRoute>::new()} />"#);
        assert_eq!(camel, [("/x".to_string(), "rated_table".to_string())]);
    }
}
