//! What SSDBase knows of drive vendors and model lines, read from
//! `data/drive_lines.json`: every name a vendor goes by (`WDC`, `Western Digital`,
//! `WD_BLACK`, `バッファロー`), every name a model line goes by (`C300`, `RealSSD C300`),
//! and the part numbers and model strings drives report (`CT1000MX500SSD1`,
//! `C300-CTFDDAC256MAG`), each with the public source it was taken from. The file is
//! the knowledge; this module only reads it, so adding a line is a data change.
//!
//! Names are compared folded ([`crate::folding::fold`]) and compact (letters and digits
//! only, without the words that name no line: [`Table::generic`]); part numbers and model
//! strings are matched by the file's patterns, at the start of the string in upper case
//! without spaces or punctuation, after a leading vendor name.

use crate::folding::fold;
use crate::re::Regex;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// The file, compiled into the binary (and the browser's wasm): a few hundred lines.
const DATA: &str = include_str!("../data/drive_lines.json");

#[derive(Deserialize)]
struct File {
    sources: BTreeMap<String, String>,
    #[serde(default)]
    generic: Vec<String>,
    #[serde(default)]
    forms: Vec<String>,
    #[serde(default)]
    grammars: Vec<GrammarEntry>,
    vendors: Vec<VendorEntry>,
    lines: Vec<LineEntry>,
}

#[derive(Deserialize)]
struct VendorEntry {
    key: String,
    display: String,
    names: Vec<String>,
    source: String,
}

#[derive(Deserialize)]
struct LineEntry {
    vendor: String,
    #[serde(default)]
    makers: Vec<String>,
    line: String,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    parts: Vec<PartEntry>,
    controller: Option<String>,
    source: String,
}

/// A vendor's part-number grammar: how its part numbers write a line and a capacity,
/// for lines the file does not list yet.
#[derive(Deserialize)]
struct GrammarEntry {
    vendor: String,
    re: String,
    #[serde(default)]
    ex: Vec<String>,
    source: String,
}

#[derive(Deserialize)]
struct PartEntry {
    re: String,
    #[serde(default)]
    ex: Vec<String>,
    /// GB per unit of a capacity written with a final `T` ("100T" is 1 TB for WD: 10).
    t: Option<u32>,
    vendor: Option<String>,
}

/// A vendor: its key (what identity keys use), how it is shown, and every name it goes by.
#[derive(Debug, Clone)]
pub struct Vendor {
    pub key: String,
    pub display: String,
    pub names: Vec<String>,
    pub source: String,
}

/// A model line of a vendor: drives of several capacities sold under one name.
#[derive(Debug, Clone)]
pub struct Line {
    /// `vendor|line`, compact: what a line key is made of (`crucial|realssdc300`).
    pub id: String,
    pub vendor: String,
    /// Other vendors selling the same line under their name (Micron for Crucial's C300).
    pub makers: Vec<String>,
    /// The canonical name, without the vendor ("RealSSD C300").
    pub line: String,
    /// Every name of the line as written in the file, the canonical one first.
    pub names: Vec<String>,
    pub controller: Option<String>,
    pub source: String,
    /// Example part numbers and model strings of the file (tests check each).
    pub examples: Vec<String>,
}

struct Part {
    line: usize,
    re: Regex,
    /// The pattern as written, anchored (for the lazy DFA of `may_begin`).
    #[cfg(not(target_arch = "wasm32"))]
    source: String,
    /// The pattern's examples as it matches them (upper case, compact, vendor removed):
    /// what completes a model string cut short.
    completions: Vec<String>,
    /// The literal the pattern starts with: only strings starting with it are tried.
    literal: String,
    t: u32,
    vendor: Option<String>,
}

/// The table: vendors and lines with their lookups.
pub struct Table {
    pub sources: BTreeMap<String, String>,
    pub vendors: Vec<Vendor>,
    pub lines: Vec<Line>,
    /// Words a model string carries that name no line ("ssd", "nvme", "internal").
    pub generic: Vec<String>,
    /// Form factors ("m.2", "msata"): no line's word, unless a line is named with one.
    pub forms: Vec<String>,
    /// Folded vendor name → vendor key.
    vendor_by_name: HashMap<String, usize>,
    /// The most words a vendor name has.
    vendor_words: usize,
    /// (vendor key, compact name) → lines.
    line_by_name: HashMap<(String, String), Vec<usize>>,
    /// Compact name → lines of any vendor.
    lines_by_bare_name: HashMap<String, Vec<usize>>,
    parts: Vec<Part>,
    grammars: Vec<Grammar>,
}

struct Grammar {
    vendor: String,
    re: Regex,
}

/// What a vendor's grammar reads in a part number of a line the file lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrammarMatch {
    pub vendor: String,
    /// The line as the part number writes it ("E100").
    pub line: String,
    pub capacity_gb: u32,
}

/// The table, read once.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::read(DATA).unwrap_or_else(|e| panic!("data/drive_lines.json: {e}")))
}

/// What a pattern matched: the line and the capacity its part number encodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartMatch {
    pub line: usize,
    pub capacity_gb: Option<u32>,
    /// The text matched, as given (trimmed).
    pub text: String,
}

impl Table {
    /// Reads and checks the file: every vendor and source a line names exists, every
    /// pattern compiles with one `gb` group.
    pub fn read(text: &str) -> Result<Table, String> {
        let file: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut t = Table {
            generic: file.generic.iter().map(|w| fold(w)).collect(),
            forms: file.forms.iter().map(|w| fold(w)).collect(),
            sources: file.sources,
            vendors: Vec::new(),
            lines: Vec::new(),
            vendor_by_name: HashMap::new(),
            vendor_words: 1,
            line_by_name: HashMap::new(),
            lines_by_bare_name: HashMap::new(),
            parts: Vec::new(),
            grammars: Vec::new(),
        };
        for v in file.vendors {
            if !t.sources.contains_key(&v.source) {
                return Err(format!("vendor {:?}: unknown source {:?}", v.key, v.source));
            }
            let i = t.vendors.len();
            for name in v.names.iter().chain([&v.key, &v.display]) {
                let folded = fold(name);
                if folded.is_empty() {
                    continue;
                }
                t.vendor_words = t.vendor_words.max(folded.split(' ').count());
                if let Some(&other) = t.vendor_by_name.get(&folded) {
                    if other != i {
                        return Err(format!(
                            "vendor name {name:?} is both {:?} and {:?}",
                            t.vendors[other].key, v.key
                        ));
                    }
                }
                t.vendor_by_name.insert(folded, i);
            }
            t.vendors.push(Vendor { key: v.key, display: v.display, names: v.names, source: v.source });
        }
        let known_vendor = |t: &Table, k: &str| t.vendors.iter().any(|v| v.key == k);
        for l in file.lines {
            if !t.sources.contains_key(&l.source) {
                return Err(format!("line {:?}: unknown source {:?}", l.line, l.source));
            }
            for v in std::iter::once(&l.vendor).chain(&l.makers) {
                if !known_vendor(&t, v) {
                    return Err(format!("line {:?}: unknown vendor {v:?}", l.line));
                }
            }
            let i = t.lines.len();
            let mut names = vec![l.line.clone()];
            names.extend(l.names.iter().filter(|n| **n != l.line).cloned());
            for name in &names {
                let c = t.compact_name(name);
                if c.is_empty() {
                    continue;
                }
                for v in std::iter::once(&l.vendor).chain(&l.makers) {
                    let at = t.line_by_name.entry((v.clone(), c.clone())).or_default();
                    if !at.contains(&i) {
                        at.push(i);
                    }
                }
                let bare = t.lines_by_bare_name.entry(c).or_default();
                if !bare.contains(&i) {
                    bare.push(i);
                }
            }
            let mut examples = Vec::new();
            for p in l.parts {
                if let Some(v) = &p.vendor {
                    if !known_vendor(&t, v) {
                        return Err(format!("line {:?}: part {:?}: unknown vendor {v:?}", l.line, p.re));
                    }
                }
                let re =
                    Regex::new(&format!("^(?:{})", p.re)).map_err(|e| format!("line {:?}: {e}", l.line))?;
                if re.capture_names().flatten().collect::<Vec<_>>() != ["gb"] {
                    return Err(format!("line {:?}: pattern {:?} needs one group named gb", l.line, p.re));
                }
                let completions =
                    p.ex.iter()
                        .filter_map(|e| t.compact_forms(e, false).into_iter().find(|s| re.is_match(s)))
                        .collect();
                examples.extend(p.ex);
                t.parts.push(Part {
                    line: i,
                    literal: literal_prefix(&p.re),
                    #[cfg(not(target_arch = "wasm32"))]
                    source: format!("^(?:{})", p.re),
                    re,
                    completions,
                    t: p.t.unwrap_or(1000),
                    vendor: p.vendor,
                });
            }
            let id = format!("{}|{}", l.vendor, t.compact_name(&l.line));
            t.lines.push(Line {
                id,
                vendor: l.vendor,
                makers: l.makers,
                line: l.line,
                names,
                controller: l.controller,
                source: l.source,
                examples,
            });
        }
        for g in file.grammars {
            if !t.sources.contains_key(&g.source) || !known_vendor(&t, &g.vendor) {
                return Err(format!("grammar {:?}: unknown source or vendor", g.re));
            }
            let re = Regex::new(&format!("^(?:{})", g.re)).map_err(|e| format!("grammar {:?}: {e}", g.re))?;
            // Each example reads as the grammar says, or the file is refused.
            for ex in &g.ex {
                if !t.compact_forms(ex, false).iter().any(|s| re.is_match(s)) {
                    return Err(format!("grammar {:?}: its example {ex:?} does not match", g.re));
                }
            }
            t.grammars.push(Grammar { vendor: g.vendor, re });
        }
        Ok(t)
    }

    /// The vendor, line and capacity a part number of a line the file lacks writes, by
    /// its vendor's grammar ("CT1000E100SSD8": Crucial, E100, 1000 GB). `vendor`, when
    /// known, must be the grammar's.
    pub fn grammar_of(&self, vendor: Option<&str>, text: &str) -> Option<GrammarMatch> {
        for s in self.compact_forms(text, false) {
            for g in self.grammars.iter().filter(|g| vendor.is_none_or(|v| v == g.vendor)) {
                let Some(caps) = g.re.captures(&s) else { continue };
                let (Some(line), Some(gb)) = (caps.name("line"), caps.name("gb")) else { continue };
                let Some(capacity_gb) = capacity_token(gb.as_str(), 1000) else { continue };
                return Some(GrammarMatch {
                    vendor: g.vendor.clone(),
                    line: line.as_str().to_string(),
                    capacity_gb,
                });
            }
        }
        None
    }

    /// `name` folded, without generic words, with no spaces: how line names compare.
    pub fn compact_name(&self, name: &str) -> String {
        fold(name).split(' ').filter(|w| !self.is_generic(w)).collect()
    }

    /// Whether a folded word is a form factor.
    pub fn is_form(&self, word: &str) -> bool {
        self.forms.iter().any(|g| g == word)
    }

    /// Whether a folded word names no line.
    pub fn is_generic(&self, word: &str) -> bool {
        self.generic.iter().any(|g| g == word)
    }

    /// The vendor `words` start with (folded words): the vendor and how many words.
    pub fn vendor_at_start(&self, words: &[&str]) -> Option<(&Vendor, usize)> {
        (1..=self.vendor_words.min(words.len())).rev().find_map(|n| {
            let i = *self.vendor_by_name.get(&words[..n].join(" "))?;
            Some((&self.vendors[i], n))
        })
    }

    /// The vendor whose key is `key`.
    pub fn vendor(&self, key: &str) -> Option<&Vendor> {
        self.vendors.iter().find(|v| v.key == key)
    }

    /// The line a model line's name (compact, [`compact_name`](Self::compact_name))
    /// names: of `vendor` when known (or a line it also sells), else the one line of any
    /// vendor with that name.
    pub fn line_named(&self, vendor: Option<&str>, compact: &str) -> Option<usize> {
        let found = match vendor {
            Some(v) => self.line_by_name.get(&(v.to_string(), compact.to_string()))?,
            None => self.lines_by_bare_name.get(compact)?,
        };
        match found.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The line and capacity a part number or a model string as a drive reports it
    /// names, by the file's patterns. `vendor`, when known, must sell the line.
    pub fn line_of_part(&self, vendor: Option<&str>, text: &str) -> Option<PartMatch> {
        for s in self.compact_forms(text, vendor.is_some()).iter().filter(|s| !s.is_empty()) {
            for p in self.parts.iter().filter(|p| s.starts_with(&p.literal)) {
                let Some(caps) = p.re.captures(s) else { continue };
                if !self.sells(p, vendor) {
                    continue;
                }
                let capacity_gb = caps.name("gb").and_then(|m| capacity_token(m.as_str(), p.t));
                return Some(PartMatch { line: p.line, capacity_gb, text: text.trim().to_string() });
            }
        }
        None
    }

    /// The line a model string cut short names (Linux's sysfs `model` keeps the first 16
    /// characters of a SATA drive's: `C300-CTFDDAC064M`, `Crucial_CT275MX3`): the one
    /// line whose patterns the cut may begin, none when several may ("SSD 860" begins an
    /// EVO, a PRO and a QVO); its capacity when one of the pattern's examples completes
    /// the cut and the capacity lies within it (`INTEL SSDSC2MH12` lost its last digit).
    pub fn line_of_cut(&self, vendor: Option<&str>, text: &str) -> Option<PartMatch> {
        for s in self.compact_forms(text, false).iter().filter(|s| s.len() >= 8) {
            let mut viable: Vec<usize> = self
                .parts
                .iter()
                .filter(|p| s.starts_with(&p.literal) && self.sells(p, vendor) && may_begin(p, s))
                .map(|p| p.line)
                .collect();
            viable.dedup();
            let [line] = viable[..] else { continue };
            let capacity_gb = self.parts.iter().filter(|p| p.line == line).find_map(|p| {
                p.completed(s).find_map(|whole| {
                    let caps = p.re.captures(&whole)?;
                    let gb = caps.name("gb").filter(|m| m.end() < s.len())?;
                    capacity_token(gb.as_str(), p.t)
                })
            });
            return Some(PartMatch { line, capacity_gb, text: text.trim().to_string() });
        }
        None
    }

    /// Whether `vendor`, when known, sells the line of part `p`.
    fn sells(&self, p: &Part, vendor: Option<&str>) -> bool {
        let line = &self.lines[p.line];
        vendor.is_none_or(|v| {
            line.vendor == v || line.makers.iter().any(|m| m == v) || p.vendor.as_deref() == Some(v)
        })
    }

    /// The forms patterns are matched against: `text` in upper case, letters and digits
    /// only ("M.2" is "M2", as part numbers write it), then without each leading vendor
    /// name ("WDC WDS100T2B0C", "Crucial_CT…"), and with `inside`, from each later word
    /// too (a part number inside a name: "WD Black SN770 WDS500G3X0E 500 GB").
    fn compact_forms(&self, text: &str, inside: bool) -> Vec<String> {
        let folded = fold(text);
        let mut words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
        // Words before it that name nothing ("NVMe CT1000P3SSD8", as Windows names NVMe
        // drives).
        while words.len() > 1 && self.is_generic(words[0]) {
            words.remove(0);
        }
        let joined = |w: &[&str]| -> String {
            w.concat().chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_uppercase()
        };
        let mut forms = vec![joined(&words)];
        let mut rest = &words[..];
        while let Some((_, n)) = self.vendor_at_start(rest) {
            rest = &rest[n..];
            forms.push(joined(rest));
        }
        if inside {
            forms.extend((1..rest.len()).map(|i| joined(&rest[i..])));
        }
        forms
    }
}

impl Part {
    /// `cut` completed by each of the pattern's examples longer than it (the example's
    /// characters past the cut appended).
    fn completed<'a>(&'a self, cut: &'a str) -> impl Iterator<Item = String> + 'a {
        self.completions
            .iter()
            .filter(move |c| c.len() > cut.len() && c.is_char_boundary(cut.len()))
            .map(move |c| format!("{cut}{}", &c[cut.len()..]))
    }
}

/// Whether `cut` may begin a string that part `p`'s pattern matches: the pattern's lazy
/// DFA, fed the cut, is not dead.
#[cfg(not(target_arch = "wasm32"))]
fn may_begin(p: &Part, cut: &str) -> bool {
    use regex_automata::{hybrid::dfa::DFA, Anchored, Input};
    let Ok(dfa) = DFA::new(&p.source) else { return false };
    let mut cache = dfa.create_cache();
    let Ok(mut state) = dfa.start_state_forward(&mut cache, &Input::new(cut).anchored(Anchored::Yes)) else {
        return false;
    };
    for &b in cut.as_bytes() {
        match dfa.next_state(&mut cache, state, b) {
            Ok(next) if !next.is_dead() => state = next,
            _ => return false,
        }
    }
    true
}

/// In the browser, without the DFA: whether one of the pattern's examples completes the
/// cut (the server, which identifies drives, asks the DFA).
#[cfg(target_arch = "wasm32")]
fn may_begin(p: &Part, cut: &str) -> bool {
    p.completed(cut).any(|whole| p.re.is_match(&whole))
}

/// The literal a pattern starts with (its leading letters and digits, less one that a
/// quantifier makes optional): a string that does not start with it cannot match.
fn literal_prefix(re: &str) -> String {
    let lit: String = re.chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit()).collect();
    match re[lit.len()..].chars().next() {
        Some('?' | '*' | '{') => lit[..lit.len().saturating_sub(1)].to_string(),
        _ => lit,
    }
}

/// A capacity as part numbers write it, in decimal GB: digits alone or with `G` are GB
/// ("064", "500G"); digits, `T` and digits are TB with the `T` as decimal point ("2T0",
/// "1T00", "3T84"); digits and a final `T` are `t` GB each ("1T" = 1000 GB; WD's "100T"
/// with `t` = 10; Intel's "010T" with `t` = 100).
pub fn capacity_token(token: &str, t: u32) -> Option<u32> {
    let digits_end = token.find(|c: char| !c.is_ascii_digit()).unwrap_or(token.len());
    let whole: u32 = token[..digits_end].parse().ok()?;
    let rest = &token[digits_end..];
    let gb = match rest.chars().next() {
        None | Some('G') if rest.len() <= 1 => whole,
        Some('T') if rest.len() == 1 => whole.checked_mul(t)?,
        Some('T') => {
            let frac = &rest[1..];
            if !frac.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let f: f64 = format!("{whole}.{frac}").parse().ok()?;
            (f * 1000.0).round() as u32
        }
        _ => return None,
    };
    (gb > 0).then_some(gb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_tokens_as_part_numbers_write_them() {
        for (token, t, gb) in [
            ("064", 1000, 64),
            ("500G", 1000, 500),
            ("2T0", 1000, 2000),
            ("1T00", 1000, 1000),
            ("3T84", 1000, 3840),
            ("1T", 1000, 1000),
            ("100T", 10, 1000),
            ("010T", 100, 1000),
        ] {
            assert_eq!(capacity_token(token, t), Some(gb), "{token}");
        }
        assert_eq!(capacity_token("X5", 1000), None);
        assert_eq!(capacity_token("0", 1000), None);
    }

    /// A SATA model as Linux's sysfs cuts it names its line, and its capacity only when
    /// the cut keeps all of it.
    #[test]
    fn a_model_cut_at_16_characters_names_its_line() {
        let t = table();
        let line = |s: &str| t.line_of_cut(None, s).map(|m| (t.lines[m.line].line.clone(), m.capacity_gb));
        assert_eq!(line("C300-CTFDDAC064M"), Some(("RealSSD C300".into(), Some(64))));
        assert_eq!(line("Crucial_CT275MX3").map(|l| l.1), Some(Some(275)));
        assert_eq!(
            line("INTEL SSDSC2KW51").map(|l| l.1),
            Some(None),
            "the cut lost the capacity's last digit"
        );
        assert_eq!(line("Samsung SSD 860 "), None, "the line is past the cut");
    }

    #[test]
    fn vendors_grammars_read_lines_the_file_lacks() {
        let t = table();
        let m = t.grammar_of(None, "CT1000E100SSD8").unwrap();
        assert_eq!((m.vendor.as_str(), m.line.as_str(), m.capacity_gb), ("crucial", "E100", 1000));
        assert_eq!(t.grammar_of(Some("samsung"), "CT1000E100SSD8"), None);
        let m = t.grammar_of(None, "SV200S3128G").unwrap();
        assert_eq!((m.vendor.as_str(), m.line.as_str(), m.capacity_gb), ("kingston", "V200", 128));
    }

    #[test]
    fn a_patterns_literal_leaves_out_what_a_quantifier_makes_optional() {
        assert_eq!(literal_prefix("CT(?P<gb>[0-9]+)MX500"), "CT");
        assert_eq!(literal_prefix("MZ7?L(?P<gb>"), "MZ");
        assert_eq!(literal_prefix("[A-Z]X"), "");
    }

    /// Every example of the file names its line, with a capacity; every vendor name is
    /// one vendor; every source is named.
    #[test]
    fn the_files_examples_name_their_lines() {
        let t = table();
        assert!(t.lines.len() >= 100, "{} lines", t.lines.len());
        let mut checked = 0;
        for (i, line) in t.lines.iter().enumerate() {
            for ex in &line.examples {
                let m = t
                    .line_of_part(None, ex)
                    .unwrap_or_else(|| panic!("{ex:?} ({}) names no line", line.line));
                assert_eq!(t.lines[m.line].id, line.id, "{ex:?}");
                assert!(
                    m.capacity_gb.is_some_and(|gb| (8..=64_000).contains(&gb)),
                    "{ex:?}: {:?}",
                    m.capacity_gb
                );
                checked += 1;
            }
            assert_eq!(
                t.line_named(Some(&line.vendor), &t.compact_name(&line.line)),
                Some(i),
                "{}",
                line.line
            );
        }
        assert!(checked >= 100, "{checked} examples");
    }
}
