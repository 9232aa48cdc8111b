//! No crate of the workspace has modules that depend on each other in a cycle: in the
//! server, routes (`api::*`) may use reading, rendering (`html`) and links, never the
//! other way round, and no two route modules lean on each other; in `bench`, the domain
//! (`model`) stands below the fields and analyses built on it. A new cycle fails here,
//! naming its crate and the modules in it.
//!
//! Nodes are the files of a crate's `src` (a `mod.rs` stands for its directory's own
//! items; `main.rs` is the root of a crate without a `lib.rs`, its own crate beside one
//! with a `lib.rs`); an edge is a path in one file (a `use`, or an inline
//! `crate::`/`super::`/`self::` path, or a path through a child module it declares) that
//! lands in another. Test modules (`#[cfg(test)]`) are left out: they may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// Every `.rs` file under `dir` with its module path (`api/rated.rs` → `["api", "rated"]`);
/// `binary_root`: `main.rs` is the crate's root (no `lib.rs`), else a crate of its own,
/// left out, as are the separate binaries of `src/bin`.
fn modules(root: &Path, dir: &Path, binary_root: bool, out: &mut BTreeMap<Vec<String>, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path != root.join("bin") {
                modules(root, &path, binary_root, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut segments: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            match segments.last().map(String::as_str) {
                Some("mod") | Some("lib") => {
                    segments.pop();
                }
                Some("main") if segments.len() == 1 => {
                    if !binary_root {
                        continue;
                    }
                    segments.pop();
                }
                _ => {}
            }
            out.insert(segments, path);
        }
    }
}

struct Paths<'a> {
    module: &'a [String],
    /// The child modules this file declares (`mod x;`).
    children: BTreeSet<String>,
    found: Vec<Vec<String>>,
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.meta.require_list().is_ok_and(|l| l.tokens.to_string().contains("test"))
    })
}

impl Paths<'_> {
    /// `segments` made absolute from this module, if it is anchored here.
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let mut at: Vec<String> = self.module.to_vec();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                at.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    at.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(first) if self.children.contains(first) => {}
            _ => return None,
        }
        at.extend(rest.iter().cloned());
        Some(at)
    }

    fn add(&mut self, segments: Vec<String>) {
        if let Some(path) = self.absolute(&segments) {
            self.found.push(path);
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                if n.ident != "self" {
                    full.push(n.ident.to_string());
                }
                self.add(full);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                full.push(r.ident.to_string());
                self.add(full);
            }
            syn::UseTree::Glob(_) => self.add(prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            _ => &Vec::new(),
        };
        if is_test_only(attrs) {
            return;
        }
        match item {
            // The crate root's `pub use` is its public face, not a dependency of the root
            // on its modules: a path through it is resolved to the module it names
            // (`Facade`).
            syn::Item::Use(u) if self.module.is_empty() && matches!(u.vis, syn::Visibility::Public(_)) => {}
            syn::Item::Use(u) => self.use_tree(&mut Vec::new(), &u.tree),
            _ => syn::visit::visit_item(self, item),
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            self.add(segments);
        }
        syn::visit::visit_path(self, path);
    }
}

/// What the crate root re-exports (`pub use model::*`, `pub use parse::{detect, Format}`):
/// each name with the module that defines it, so that `crate::BenchResult` is a path into
/// `model`, not into the root.
struct Facade {
    names: BTreeMap<String, Vec<String>>,
}

impl Facade {
    fn of(root: &syn::File, modules: &BTreeMap<Vec<String>, PathBuf>) -> Facade {
        let mut names = BTreeMap::new();
        for item in &root.items {
            if let syn::Item::Use(u) = item {
                if matches!(u.vis, syn::Visibility::Public(_)) {
                    Facade::tree(&mut Vec::new(), &u.tree, modules, &mut names);
                }
            }
        }
        Facade { names }
    }

    fn tree(
        prefix: &mut Vec<String>,
        tree: &syn::UseTree,
        modules: &BTreeMap<Vec<String>, PathBuf>,
        names: &mut BTreeMap<String, Vec<String>>,
    ) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                Facade::tree(prefix, &p.tree, modules, names);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                names.insert(n.ident.to_string(), prefix.clone());
            }
            syn::UseTree::Rename(r) => {
                names.insert(r.rename.to_string(), prefix.clone());
            }
            // Every public item of the module, by its name.
            syn::UseTree::Glob(_) => {
                let Some(file) = modules.get(prefix.as_slice()) else { return };
                let ast = syn::parse_file(&std::fs::read_to_string(file).unwrap()).unwrap();
                for item in &ast.items {
                    let named = match item {
                        syn::Item::Struct(i) => Some((&i.vis, &i.ident)),
                        syn::Item::Enum(i) => Some((&i.vis, &i.ident)),
                        syn::Item::Fn(i) => Some((&i.vis, &i.sig.ident)),
                        syn::Item::Const(i) => Some((&i.vis, &i.ident)),
                        syn::Item::Static(i) => Some((&i.vis, &i.ident)),
                        syn::Item::Type(i) => Some((&i.vis, &i.ident)),
                        syn::Item::Trait(i) => Some((&i.vis, &i.ident)),
                        _ => None,
                    };
                    if let Some((syn::Visibility::Public(_), ident)) = named {
                        names.insert(ident.to_string(), prefix.clone());
                    }
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    Facade::tree(prefix, t, modules, names);
                }
            }
        }
    }

    /// `path` (from the crate root) through the facade to the module behind it.
    fn resolve(&self, path: &[String]) -> Vec<String> {
        match path.first().and_then(|first| self.names.get(first)) {
            Some(module) => module.iter().chain(&path[1..]).cloned().collect(),
            None => path.to_vec(),
        }
    }
}

/// The module of `modules` that `path` lands in: its longest known prefix.
fn target<'a>(modules: &'a BTreeMap<Vec<String>, PathBuf>, path: &[String]) -> Option<&'a Vec<String>> {
    (0..=path.len()).rev().find_map(|n| modules.get_key_value(&path[..n]).map(|(k, _)| k))
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct T<'g> {
        graph: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'g Vec<String>, (usize, usize)>,
        stack: Vec<&'g Vec<String>>,
        on: BTreeSet<&'g Vec<String>>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    impl<'g> T<'g> {
        fn visit(&mut self, v: &'g Vec<String>) {
            self.index.insert(v, (self.next, self.next));
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.index[w].1.min(self.index[v].1);
                    self.index.get_mut(v).unwrap().1 = low;
                } else if self.on.contains(w) {
                    let low = self.index[w].0.min(self.index[v].1);
                    self.index.get_mut(v).unwrap().1 = low;
                }
            }
            if self.index[v].0 == self.index[v].1 {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    component.push(if w.is_empty() { "crate".to_string() } else { w.join("::") });
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t =
        T { graph, index: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), next: 0, out: Vec::new() };
    for v in graph.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

/// The `src` of every workspace member (the root `Cargo.toml`'s `members`).
fn member_sources() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest.lines().find(|l| l.trim_start().starts_with("members")).expect("members = [...]");
    members
        .split('"')
        .skip(1)
        .step_by(2)
        .map(|m| (m.to_string(), root.join(m).join("src")))
        .filter(|(_, src)| src.is_dir())
        .collect()
}

/// The cycles among the modules of the crate whose sources are `root`, each as its
/// modules and the edges inside it; and how many modules were found.
fn crate_cycles(root: &Path) -> (usize, Vec<(String, String)>) {
    let mut all = BTreeMap::new();
    modules(root, root, !root.join("lib.rs").exists(), &mut all);
    // Names the crate root re-exports from other crates (`pub use store as storage`):
    // a path through them leaves the crate.
    let root_ast = syn::parse_file(&std::fs::read_to_string(&all[&Vec::new()]).unwrap()).unwrap();
    let external: BTreeSet<String> = root_ast
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Use(syn::ItemUse { tree: syn::UseTree::Rename(r), .. }) => Some(r.rename.to_string()),
            _ => None,
        })
        .collect();
    let facade = Facade::of(&root_ast, &all);
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, file) in &all {
        let ast = syn::parse_file(&std::fs::read_to_string(file).unwrap()).unwrap();
        let children = ast
            .items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Mod(m) if m.content.is_none() => Some(m.ident.to_string()),
                _ => None,
            })
            .collect();
        let mut paths = Paths { module, children, found: Vec::new() };
        paths.visit_file(&ast);
        let edges = graph.entry(module.clone()).or_default();
        for path in &paths.found {
            if path.first().is_some_and(|first| external.contains(first)) {
                continue;
            }
            if let Some(to) = target(&all, &facade.resolve(path)) {
                if to != module {
                    edges.insert(to.clone());
                }
            }
        }
    }
    let found = cycles(&graph);
    let edges_in = |c: &Vec<String>| -> Vec<String> {
        let inside =
            |m: &Vec<String>| c.contains(&if m.is_empty() { "crate".to_string() } else { m.join("::") });
        graph
            .iter()
            .filter(|(from, _)| inside(from))
            .flat_map(|(from, to)| {
                to.iter()
                    .filter(|t| inside(t))
                    .map(move |t| format!("{} → {}", from.join("::"), t.join("::")))
            })
            .collect()
    };
    let report = found.iter().map(|c| (c.join(", "), edges_in(c).join("\n    "))).collect();
    (all.len(), report)
}

/// Cycles older than this test's reach over every crate (it read only the server's
/// before), each as its crate and modules: to break, not to add to. A cycle broken
/// leaves this list with it (the test says so); a cycle not here fails the test.
const KNOWN: &[&str] = &[
    "crates/ocr: build, corpus, crate, decode, engine, frames, grid, locate, read, settings",
    "crates/probe: crate, drive, nvme, platform, report, smartctl",
    "crates/store: crate, effects, sql",
    "crates/store: summary, summary::codec",
    "crates/store: jobs, postgres, sqlite",
    "app: api, crate, pages, pages::drives_index, pages::duplicates, pages::effects, pages::leaderboard, \
     pages::propose, pages::result, pages::results, pages::submit, pages::submit::reading, pages::tag_form",
    "xtask: contract, crate, headers, lighthouse, provision, runner_dist, site, split",
];

#[test]
fn no_crate_has_modules_in_a_new_cycle() {
    let members = member_sources();
    assert!(members.len() >= 10, "the workspace's members were found: {members:?}");
    let mut new = Vec::new();
    let mut seen = BTreeSet::new();
    for (member, src) in &members {
        let (modules, cycles) = crate_cycles(src);
        if member == "server" {
            assert!(modules > 30, "the server's modules were found: {modules}");
        }
        for (names, edges) in cycles {
            let cycle = format!("{member}: {names}");
            if KNOWN.contains(&cycle.as_str()) {
                seen.insert(cycle);
            } else {
                new.push(format!("{cycle}\n    {edges}"));
            }
        }
    }
    assert!(new.is_empty(), "modules that depend on each other in a new cycle:\n{}", new.join("\n"));
    let broken: Vec<&&str> = KNOWN.iter().filter(|k| !seen.contains(**k)).collect();
    assert!(broken.is_empty(), "cycles broken (take them off KNOWN): {broken:?}");
}
