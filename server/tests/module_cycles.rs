//! The server's modules depend on each other without a cycle: routes (`api::*`) may use
//! reading, rendering (`html`) and links, never the other way round, and no two route
//! modules lean on each other. A new cycle fails here, naming the modules in it.
//!
//! Nodes are the files of `server/src` (a `mod.rs` stands for its directory's own
//! items); an edge is a path in one file (a `use`, or an inline `crate::`/`super::`/
//! `self::` path, or a path through a child module it declares) that lands in another.
//! Test modules (`#[cfg(test)]`) are left out: they may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// Every `.rs` file under `dir` with its module path (`api/rated.rs` → `["api", "rated"]`).
fn modules(root: &Path, dir: &Path, out: &mut BTreeMap<Vec<String>, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut segments: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            match segments.last().map(String::as_str) {
                Some("mod") | Some("lib") => {
                    segments.pop();
                }
                // The binary is its own crate, above the library.
                Some("main") => continue,
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

#[test]
fn the_servers_modules_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = BTreeMap::new();
    modules(&root, &root, &mut all);
    assert!(all.len() > 30, "the server's modules were found: {:?}", all.keys());
    // Names the crate root re-exports from other crates (`pub use store as storage`):
    // a path through them leaves the server.
    let root_ast = syn::parse_file(&std::fs::read_to_string(&all[&Vec::new()]).unwrap()).unwrap();
    let external: BTreeSet<String> = root_ast
        .items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Use(syn::ItemUse { tree: syn::UseTree::Rename(r), .. }) => Some(r.rename.to_string()),
            _ => None,
        })
        .collect();
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
            if let Some(to) = target(&all, path) {
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
    let report: Vec<String> = found
        .iter()
        .map(|c| format!("cycle {{{}}}:\n    {}", c.join(", "), edges_in(c).join("\n    ")))
        .collect();
    assert!(found.is_empty(), "modules that depend on each other in a cycle:\n{}", report.join("\n"));
}
