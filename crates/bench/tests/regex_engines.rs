//! The parsers' patterns mean the same in both engines: the server matches them with the
//! full `regex` crate and the browser with `regex-lite` (see the bench crate's
//! Cargo.toml). Every pattern in the parser sources, over every line of the real corpus
//! (raw and cleaned) and over text made to tell the engines apart (Unicode digits and
//! spaces, letters next to word boundaries), must give the same captures in both.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::corpus;

/// The sources whose patterns the parsers compile.
const SOURCES: [&str; 4] = [
    include_str!("../src/text.rs"),
    include_str!("../src/parse/cdm.rs"),
    include_str!("../src/parse/orion.rs"),
    include_str!("../src/parse/hdtune.rs"),
];

/// Every raw string passed to `Regex::new(` or `compiled(&RE, ` in the sources.
fn patterns() -> Vec<&'static str> {
    let call =
        regex::Regex::new(r#"(?:Regex::new\(|compiled\([[:space:]]*&RE,)[[:space:]]*r"([^"]*)""#).unwrap();
    SOURCES.iter().flat_map(|src| call.captures_iter(src).map(|c| c.get(1).unwrap().as_str())).collect()
}

fn lines() -> Vec<String> {
    let mut lines = Vec::new();
    for dir in std::fs::read_dir(corpus()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let text = bench::text::decode(&std::fs::read(file.unwrap().path()).unwrap());
            for line in text.lines() {
                lines.push(line.to_string());
                lines.push(bench::text::clean_line(line));
            }
        }
    }
    // Where Unicode-aware and ASCII classes would differ.
    lines.extend(
        [
            "Test : １０００ MB (x5)",
            "Sequential Read :\u{a0}453.079 MB/s",
            "Random Read 4KB (QD=٣٢) : 30.274 MB/s",
            "SEQ1MiB (Q= 8, T= 1):\u{3000}508.897 MB/s",
            "HD Tune Pro 5.75é: ST3000",
            "Block size : 64 KBé",
            "Small IO size: 8 KBß",
            "CrystalDiskMark\u{2003}8.0.4 x64 (C) 2007-2021 hiyohiyo",
            "éSequential Readé : 1 MB/s",
        ]
        .map(String::from),
    );
    lines
}

#[test]
fn every_pattern_captures_the_same_in_both_engines() {
    let patterns = patterns();
    // The sources held 27 patterns when this test was written: finding fewer means the
    // extraction missed some.
    assert!(patterns.len() >= 27, "found only {} patterns: {patterns:?}", patterns.len());
    let lines = lines();
    assert!(lines.len() > 1_000, "{} corpus lines", lines.len());
    let mut matched = 0;
    for p in &patterns {
        let full = regex::Regex::new(p).unwrap_or_else(|e| panic!("regex rejects {p:?}: {e}"));
        let lite = regex_lite::Regex::new(p).unwrap_or_else(|e| panic!("regex-lite rejects {p:?}: {e}"));
        for line in &lines {
            let a = full.captures(line).map(|c| c.iter().map(|m| m.map(|m| m.range())).collect::<Vec<_>>());
            let b = lite.captures(line).map(|c| c.iter().map(|m| m.map(|m| m.range())).collect::<Vec<_>>());
            assert_eq!(a, b, "pattern {p:?} on line {line:?}");
            matched += usize::from(a.is_some());
        }
    }
    // Most lines match nothing; the corpus must still exercise the patterns.
    assert!(matched > 500, "only {matched} matches");
    println!(
        "{} patterns, {} lines, {matched} matches, the same in both engines",
        patterns.len(),
        lines.len()
    );
}

/// The drive line table's patterns (`data/drive_lines.json`) match the same part numbers
/// in both engines: the browser names drives with `regex-lite`.
#[test]
fn the_drive_line_patterns_match_alike_in_both_engines() {
    let file: serde_json::Value = serde_json::from_str(include_str!("../data/drive_lines.json")).unwrap();
    let mut checked = 0;
    for line in file["lines"].as_array().unwrap() {
        for part in line["parts"].as_array().into_iter().flatten() {
            let re = format!("^(?:{})", part["re"].as_str().unwrap());
            let full = regex::Regex::new(&re).unwrap();
            let lite = regex_lite::Regex::new(&re).unwrap_or_else(|e| panic!("{re}: {e}"));
            for ex in part["ex"].as_array().into_iter().flatten() {
                let s: String = ex
                    .as_str()
                    .unwrap()
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .collect::<String>()
                    .to_uppercase();
                for (start, _) in s.char_indices() {
                    let text = &s[start..];
                    let a = full.captures(text).and_then(|c| c.name("gb")).map(|m| m.as_str());
                    let b = lite.captures(text).and_then(|c| c.name("gb")).map(|m| m.as_str());
                    assert_eq!(a, b, "{re} on {text:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
