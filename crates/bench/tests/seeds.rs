//! The seed dataset as a whole, through the analysis functions: the figures the source
//! articles draw conclusions from must come out of the data as the articles state them.

use bench::analysis::{compression_flags, interface_flags, rated_vs_measured, FlagKind, RatedFigure};
use bench::seeds::{cite, seed_dataset, Dataset, ARTICLES};
use bench::{DataPattern, Op, TaggedResult};

mod common;

/// Every article the dataset cites is named by title when shown, and each title and
/// language is the article's own: its text holds the title, the articles' README (in
/// `shared/seeds`) gives its language.
#[test]
fn every_cited_article_is_shown_by_its_own_title_and_language() {
    let d = data();
    let sources = d.results.iter().filter_map(|r| r.source.as_deref());
    let sources: Vec<&str> =
        sources.chain(d.observations.iter().filter_map(|o| o.source.as_deref())).collect();
    let mut cited = std::collections::BTreeSet::new();
    for source in &sources {
        for part in source.split("; ") {
            let first = part.split(' ').next().unwrap_or_default();
            if first.len() == 20 && first.as_bytes()[3] == b'_' {
                cited.insert(first);
                assert!(!cite(part).contains(first), "{part:?} is shown by its file id: {}", cite(part));
            }
        }
    }
    assert_eq!(cited, ARTICLES.iter().map(|a| a.id).collect(), "every article cited, each known");
    let dir = common::corpus().join("../../seeds");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for a in ARTICLES {
        let text = std::fs::read_to_string(dir.join(format!("{}.txt", a.id))).unwrap();
        assert!(text.contains(a.title), "{}: {:?} is not in the article", a.id, a.title);
        let row = readme.lines().find(|l| l.contains(a.id)).unwrap_or_default();
        assert!(row.contains(&format!("| {} |", a.language)), "{}: README says {row:?}", a.id);
    }
}

fn data() -> Dataset {
    seed_dataset().expect("the seed dataset loads and validates")
}

fn by_source<'a>(d: &'a Dataset, needle: &str) -> &'a TaggedResult {
    let hits: Vec<_> =
        d.results.iter().filter(|r| r.source.as_deref().is_some_and(|s| s.contains(needle))).collect();
    assert_eq!(hits.len(), 1, "exactly one result from {needle:?}");
    hits[0]
}

#[test]
fn every_result_is_tagged_with_a_catalogued_drive_and_a_source() {
    let d = data();
    assert!(d.results.len() >= 50, "{} results", d.results.len());
    for r in &d.results {
        let source = r.source.as_deref().unwrap_or_default();
        assert!(source.len() > 10, "result without a usable source: {r:?}");
        let sku = r.tags.drive.sku.as_deref().unwrap_or_else(|| panic!("{source}: no drive sku"));
        assert!(d.drives.iter().any(|s| s.id == sku), "{source}: {sku}");
        assert!(
            r.tags.platform.os.is_some() || r.result.os.is_some() || source.starts_with("001"),
            "{source}: no OS"
        );
    }
}

#[test]
fn c300_rated_vs_measured_write_per_capacity() {
    // The article's summary: rated 70/140/215 MB/s, measured 78.93 (Fig.3b),
    // 144.5 (Fig.7b) and 205.4 (Fig.10b, U3S6-limited).
    let d = data();
    for (capacity, fig, rated, measured, percent) in [
        (64, "Fig.3b", 70.0, 78.93, 112.76),
        (128, "Fig.7b", 140.0, 144.5, 103.21),
        (256, "Fig.10b", 215.0, 205.4, 95.53),
    ] {
        let r = by_source(&d, fig);
        let sku = d.drives.iter().find(|s| Some(&s.id) == r.tags.drive.sku.as_ref()).unwrap();
        assert_eq!((sku.model.as_str(), sku.capacity_gb), ("RealSSD C300", capacity));
        let row = rated_vs_measured(&r.result, &sku.rated)
            .into_iter()
            .find(|x| x.figure == RatedFigure::SeqWriteMbps)
            .expect("a sequential write figure");
        assert_eq!((row.rated, row.measured), (rated, measured), "{fig}");
        assert!((row.percent - percent).abs() < 0.01, "{fig}: {}", row.percent);
    }
}

#[test]
fn interface_flags_over_the_seeds() {
    let d = data();
    let kinds = |fig: &str| {
        let r = by_source(&d, fig);
        interface_flags(&r.result, &r.tags).into_iter().map(|f| (f.label, f.kind)).collect::<Vec<_>>()
    };
    let seq = || "Seq".to_string();
    // SATA 3 Gb/s on ICH10R: 277.1 MB/s reads are the link, not the drive.
    assert_eq!(kinds("Fig.1b"), vec![(seq(), FlagKind::InterfaceCeiling)]);
    // The SATA3I2-PCIe card in a PCIe 1.0 x1 slot: 204 MB/s is the slot.
    assert_eq!(kinds("Fig.9a"), vec![(seq(), FlagKind::InterfaceCeiling)]);
    // The same card in a Gen2 x8 slot is not limited at 349 MB/s.
    assert!(kinds("Fig.8a").is_empty());
    // 3ware 9750-8i, two SATA 6 Gb/s C300s, 100 MB test: 1626/1522 MB/s is the card's cache…
    assert_eq!(kinds("Fig.5a"), vec![(seq(), FlagKind::CacheInflated), (seq(), FlagKind::CacheInflated)]);
    // …and the 1000 MB test, larger than the cache, is the drives again.
    assert!(kinds("Fig.5b").is_empty());
}

#[test]
fn sandforce_compresses_and_marvell_does_not() {
    let d = data();
    let random = by_source(&d, "RAID 0 Intel環境ランダム");
    let zero = by_source(&d, "RAID 0 Intel環境0Fill");
    assert_eq!(
        (random.result.data_pattern, zero.result.data_pattern),
        (Some(DataPattern::Random), Some(DataPattern::ZeroFill))
    );
    let flags = compression_flags(&random.result, &zero.result);
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert_eq!(flags[0].kind, FlagKind::CompressionSensitive);
    assert!(flags[0].detail.contains("839.7") && flags[0].detail.contains("384"), "{}", flags[0].detail);

    // C300 64 GB, 1000 MB on ICH10R: 0-fill 78.50 vs random 74.82 MB/s — no compression.
    let zero = by_source(&d, "Fig.1a");
    let random = by_source(&d, "Fig.1b");
    assert!(compression_flags(&random.result, &zero.result).is_empty());
    let write = |r: &TaggedResult| {
        r.result.metrics.iter().find(|m| m.op == Op::Write && m.label == "Seq").unwrap().mbps
    };
    assert_eq!((write(zero), write(random)), (Some(78.5), Some(74.82)));
}
