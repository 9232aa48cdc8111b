//! The seed dataset: every measurement of the source articles in `../shared/seeds`,
//! transcribed with full tags, plus the rated specifications of the drives they test.
//! The server loads it into an empty database so a new user sees real comparisons.
//!
//! The data lives in `crates/bench/data/seeds/*.json` (one file per study) and is
//! compiled in, so it is available in the browser and on the server alike.

use crate::model::{DriveSku, Observation, TaggedResult};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A set of drives, results and observations, as shipped in the seed files and as
/// accepted by `ssdbase import`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Dataset {
    pub drives: Vec<DriveSku>,
    pub results: Vec<TaggedResult>,
    pub observations: Vec<Observation>,
}

/// The seed files, by name, compiled into the crate.
pub const SEED_FILES: &[(&str, &str)] = &[
    ("c300_m2s.json", include_str!("../data/seeds/c300_m2s.json")),
    ("wildfire_sf2281.json", include_str!("../data/seeds/wildfire_sf2281.json")),
    ("vertex_indilinx.json", include_str!("../data/seeds/vertex_indilinx.json")),
    ("m5pro.json", include_str!("../data/seeds/m5pro.json")),
];

/// The whole seed dataset, checked: every file parses, drive ids are unique and every
/// result that names a catalogue SKU names one that exists.
pub fn seed_dataset() -> Result<Dataset, String> {
    let mut all = Dataset::default();
    for (name, text) in SEED_FILES {
        let part: Dataset = serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))?;
        all.drives.extend(part.drives);
        all.results.extend(part.results);
        all.observations.extend(part.observations);
    }
    all.validate()?;
    Ok(all)
}

impl Dataset {
    /// Checks the dataset's internal references.
    pub fn validate(&self) -> Result<(), String> {
        let mut ids = HashSet::new();
        for d in &self.drives {
            if !ids.insert(d.id.as_str()) {
                return Err(format!("drive id {:?} is defined twice", d.id));
            }
        }
        let tags = self
            .results
            .iter()
            .map(|r| (&r.tags, r.source.as_deref()))
            .chain(self.observations.iter().map(|o| (&o.tags, o.source.as_deref())));
        for (t, source) in tags {
            if let Some(sku) = &t.drive.sku {
                if !ids.contains(sku.as_str()) {
                    return Err(format!("{}: unknown drive sku {sku:?}", source.unwrap_or("?")));
                }
            }
        }
        for r in &self.results {
            if r.result.metrics.is_empty() {
                return Err(format!("{}: a result without metrics", r.source.as_deref().unwrap_or("?")));
            }
        }
        Ok(())
    }

    /// Number of measured values (MB/s, IOPS and latency figures) in the results.
    pub fn measurement_count(&self) -> usize {
        self.results
            .iter()
            .flat_map(|r| &r.result.metrics)
            .map(|m| {
                usize::from(m.mbps.is_some())
                    + usize::from(m.iops.is_some())
                    + usize::from(m.latency_us.is_some())
            })
            .sum()
    }
}

/// A source article of the seed dataset (`../shared/seeds`): results and observations
/// cite it by its file id, which stays in the data; readers are shown its title.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Article {
    /// The file's name without `.txt`, e.g. `003_a275dc1d52d4bcd9`.
    pub id: &'static str,
    /// The title as the article prints it.
    pub title: &'static str,
    pub language: &'static str,
}

/// The five source articles; titles from each article's own heading, languages from the
/// articles' README. Their web addresses were not kept with them, so none is given.
pub const ARTICLES: &[Article] = &[
    Article { id: "000_b63c5a3272b4448e", title: "RealSSD C300 vs. Plextor M2S", language: "Japanese" },
    Article {
        id: "001_69fe34dda99b4489",
        title: "OCZ Vertex のベンチマークテスト結果",
        language: "Japanese",
    },
    Article {
        id: "002_01b5510983f5ea45",
        title: "SF-2281を搭載したSSD、Patriot「WILDFIRE」を試す 実測リード520MB/s",
        language: "Japanese",
    },
    Article { id: "003_a275dc1d52d4bcd9", title: "RealSSD C300 vs. Plextor M2S", language: "English" },
    Article {
        id: "004_683f8f35fe0b3507",
        title: "PLEXTOR PX-256M5P 256GB 高負荷ベンチマーク結果＆チューニングTips",
        language: "Japanese",
    },
];

/// A source as a reader reads it: each `; `-separated part that starts with a seed
/// article's id names the article by title and language instead
/// (`000_b63c… § 2011年4月18日追記` → `“RealSSD C300 vs. Plextor M2S” (Japanese) § 2011年4月18日追記`);
/// URLs and anything else are left as they are.
pub fn cite(source: &str) -> String {
    source
        .split("; ")
        .map(|part| {
            let (first, rest) = part.split_at(part.find(' ').unwrap_or(part.len()));
            match ARTICLES.iter().find(|a| a.id == first) {
                Some(a) => format!("“{}” ({}){rest}", a.title, a.language),
                None => part.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A seed article's name as results cite it: its file name without `.txt`, e.g.
    /// `003_a275dc1d52d4bcd9`.
    fn is_article_name(word: &str) -> bool {
        let b = word.as_bytes();
        b.len() == 20
            && b[..3].iter().all(u8::is_ascii_digit)
            && b[3] == b'_'
            && b[4..].iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
    }

    /// The articles the seed results and observations cite.
    fn cited_articles(ds: &Dataset) -> BTreeSet<&str> {
        ds.results
            .iter()
            .filter_map(|r| r.source.as_deref())
            .chain(ds.observations.iter().filter_map(|o| o.source.as_deref()))
            .flat_map(|s| s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
            .filter(|w| is_article_name(w))
            .collect()
    }

    /// What is wrong with `source`, if anything: each of its `; `-separated parts must
    /// start with a seed article the results cite (`003_… § section — detail`) or with an
    /// http(s) URL (`https://… — detail`).
    fn source_problem(source: &str, articles: &BTreeSet<&str>) -> Option<String> {
        source.split("; ").find_map(|part| {
            let first = part.split_whitespace().next().unwrap_or("");
            let url = ["https://", "http://"]
                .iter()
                .any(|scheme| first.strip_prefix(scheme).is_some_and(|rest| rest.contains('.')));
            (!url && !articles.contains(first))
                .then(|| format!("{part:?} names neither a seed article nor an http(s) URL"))
        })
    }

    #[test]
    fn a_source_names_its_article_by_title_and_language() {
        assert_eq!(
            cite("000_b63c5a3272b4448e § 2011年4月18日追記"),
            "“RealSSD C300 vs. Plextor M2S” (Japanese) § 2011年4月18日追記"
        );
        assert_eq!(
            cite("https://example.com/a — table; 003_a275dc1d52d4bcd9"),
            "https://example.com/a — table; “RealSSD C300 vs. Plextor M2S” (English)"
        );
        assert_eq!(cite("a forum post"), "a forum post");
    }

    #[test]
    fn sources_are_seed_articles_or_urls() {
        let articles = BTreeSet::from(["003_a275dc1d52d4bcd9"]);
        for ok in [
            "003_a275dc1d52d4bcd9",
            "003_a275dc1d52d4bcd9 § PERFORMANCE MEASUREMENTS 15 — rated writes",
            "https://example.com/c300.pdf",
            "https://example.com/a — table; 003_a275dc1d52d4bcd9 § x",
        ] {
            assert_eq!(source_problem(ok, &articles), None, "{ok}");
        }
        for bad in [
            "",
            "the C300 datasheet",
            "004_683f8f35fe0b3507 § 製品仕様",
            "ftp://example.com/c300.pdf",
            "https://",
            "003_a275dc1d52d4bcd9 § x; a forum post",
        ] {
            assert!(source_problem(bad, &articles).is_some(), "{bad:?}");
        }
    }

    /// Every rated figure and every NAND fact of the seed catalogue names where it comes
    /// from (issue 13): a seed article, as results cite it, or a public URL.
    #[test]
    fn every_rated_figure_and_nand_fact_has_a_source() {
        let ds = seed_dataset().unwrap();
        let articles = cited_articles(&ds);
        assert_eq!(articles.len(), 5, "the five source articles are cited: {articles:?}");
        let mut problems = Vec::new();
        let mut check =
            |id: &str, what: &str, has_value: bool, source: Option<&str>| match (has_value, source) {
                (true, None) => problems.push(format!("{id}: {what} has no source")),
                (false, Some(_)) => problems.push(format!("{id}: a source for {what}, which has no value")),
                (_, Some(s)) => {
                    if let Some(p) = source_problem(s, &articles) {
                        problems.push(format!("{id}: {what}: {p}"));
                    }
                }
                (false, None) => {}
            };
        for d in &ds.drives {
            for (figure, value, source) in d.rated.figures() {
                check(&d.id, figure, value.is_some(), source);
            }
            let n = &d.nand;
            let facts =
                n.vendor.is_some() || n.process_nm.is_some() || n.cell.is_some() || n.interface.is_some();
            check(&d.id, "nand", facts, n.source.as_deref());
        }
        assert!(problems.is_empty(), "{problems:#?}");
    }

    /// Form factors only where an article states one: the M5Pro's specification
    /// ("フォームファクター : 2.5 inch SATA", 004 § 製品仕様, for the series) and the
    /// WILDFIRE ("WILDFIREの2.5インチSSDとしてのポテンシャル", 002); no article gives a
    /// drive's firmware versions as a list of what exists.
    #[test]
    fn form_factors_are_the_articles() {
        let ds = seed_dataset().unwrap();
        let mut with: Vec<(&str, crate::FormFactor)> =
            ds.drives.iter().filter_map(|d| Some((d.id.as_str(), d.form_factor?))).collect();
        with.sort();
        let two_and_a_half = crate::FormFactor::Inch2_5;
        assert_eq!(
            with,
            [
                ("patriot-wildfire-120gb", two_and_a_half),
                ("plextor-m5pro-128gb", two_and_a_half),
                ("plextor-m5pro-256gb", two_and_a_half),
                ("plextor-m5pro-512gb", two_and_a_half),
            ]
        );
        assert!(ds.drives.iter().all(|d| d.firmware.is_empty()));
    }

    /// A catalogue drive's part number is the one its results were tagged with (the
    /// articles' drives: the C300 128/256 GB they test are Micron's MTFDDAC…MAG-1G1).
    #[test]
    fn catalogue_part_numbers_are_the_tested_drives() {
        let ds = seed_dataset().unwrap();
        for r in &ds.results {
            let (Some(sku), Some(part)) = (&r.tags.drive.sku, &r.tags.drive.part_number) else { continue };
            let drive = ds.drives.iter().find(|d| &d.id == sku).unwrap();
            assert_eq!(drive.part_number.as_ref(), Some(part), "{sku}: {:?}", r.source);
        }
    }
}
