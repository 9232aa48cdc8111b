//! Spot checks of the RealSSD C300 vs. Plextor M2S seed transcription (c300_m2s.json).

use bench::model::{DataPattern, Link, Op, StorageMode, TaggedResult};
use bench::seeds::{seed_dataset, Dataset, SEED_FILES};

fn own() -> Dataset {
    let text = SEED_FILES.iter().find(|(n, _)| *n == "c300_m2s.json").unwrap().1;
    serde_json::from_str(text).unwrap()
}

fn by_source<'a>(ds: &'a Dataset, needle: &str) -> &'a TaggedResult {
    let hits: Vec<_> =
        ds.results.iter().filter(|r| r.source.as_deref().unwrap_or("").contains(needle)).collect();
    assert_eq!(hits.len(), 1, "{needle}: {} hits", hits.len());
    hits[0]
}

fn metric(r: &TaggedResult, label: &str, op: Op) -> f64 {
    let v: Vec<_> = r.result.metrics.iter().filter(|m| m.label == label && m.op == op).collect();
    assert_eq!(v.len(), 1, "{label} {op:?}");
    v[0].mbps.unwrap()
}

#[test]
fn loads_and_counts() {
    seed_dataset().expect("seed dataset validates");
    let ds = own();
    assert_eq!(ds.drives.len(), 6);
    assert_eq!(ds.results.len(), 34);
    assert_eq!(ds.measurement_count(), 63);
    assert_eq!(ds.observations.len(), 29);
}

#[test]
fn rated_write_per_capacity() {
    let ds = own();
    let w = |id: &str| ds.drives.iter().find(|d| d.id == id).unwrap().rated.seq_write_mbps.unwrap();
    assert_eq!(w("crucial-realssd-c300-64gb"), 70.0);
    assert_eq!(w("crucial-realssd-c300-128gb"), 140.0);
    assert_eq!(w("crucial-realssd-c300-256gb"), 215.0);
    assert_eq!(w("plextor-px-m2s-64gb"), 100.0);
    assert_eq!(w("plextor-px-m2s-128gb"), 200.0);
    assert_eq!(w("plextor-px-m2s-256gb"), 300.0);
    for d in &ds.drives {
        let s = d.controller.stepping.as_deref().unwrap();
        assert_eq!(s, if d.id.starts_with("crucial") { "BJP2" } else { "BKK2" });
    }
}

#[test]
fn measured_writes_the_article_compares() {
    let ds = own();
    let r = by_source(&ds, "Fig.3b 1000MB");
    assert_eq!(metric(r, "Seq", Op::Write), 78.93);
    assert_eq!(r.tags.drive.sku.as_deref(), Some("crucial-realssd-c300-64gb"));
    assert_eq!(r.tags.platform.link, Some(Link::Sata { gbps: 6.0 }));
    let r = by_source(&ds, "Fig.7b 1000MB");
    assert_eq!(metric(r, "Seq", Op::Write), 144.5);
    assert_eq!(metric(r, "4K", Op::Read), 33.91);
    let r = by_source(&ds, "Fig.10b 1000MB");
    assert_eq!(metric(r, "Seq", Op::Write), 205.4);
    assert_eq!(r.result.data_pattern, Some(DataPattern::ZeroFill));
    let r = by_source(&ds, "Fig.12b 1000MB");
    assert_eq!(metric(r, "Seq", Op::Write), 195.8);
    let r = by_source(&ds, "Fig.15b X58A-UD5");
    assert_eq!(metric(r, "Seq", Op::Write), 240.0);
    assert_eq!(r.result.test_size_bytes, Some(2000 * 1048576));
}

#[test]
fn platforms() {
    let ds = own();
    // 0 fill vs random on the same 64 GB drive
    let z = by_source(&ds, "Fig.1a 1000MB 0 Fill");
    let rnd = by_source(&ds, "Fig.1b 1000MB Random");
    assert_eq!(z.result.data_pattern, Some(DataPattern::ZeroFill));
    assert_eq!(rnd.result.data_pattern, Some(DataPattern::Random));
    assert_eq!(metric(z, "Seq", Op::Write), 78.50);
    assert_eq!(metric(rnd, "Seq", Op::Write), 74.82);
    // RAID 0 x2 and x4 on ICH10R
    let r = by_source(&ds, "Fig.4b 1000MB");
    assert_eq!(r.tags.raid.as_ref().unwrap().members, 2);
    assert_eq!(metric(r, "Seq", Op::Read), 532.5);
    let r = by_source(&ds, "Fig.11b 1000MB");
    assert_eq!(r.tags.raid.as_ref().unwrap().members, 4);
    assert_eq!(metric(r, "Seq", Op::Read), 600.3);
    assert_eq!(r.tags.platform.driver.as_deref(), Some("IMSM"));
    // 3ware 9750-8i stripes
    let r = by_source(&ds, "Fig.5a 100MB");
    assert_eq!(r.tags.raid.as_ref().unwrap().stripe_bytes, Some(262144));
    assert_eq!(metric(r, "Seq", Op::Read), 1626.0);
    assert_eq!(r.result.os.as_deref(), Some("Win7 64bit"));
    let r = by_source(&ds, "Fig.5d 1000MB");
    assert_eq!(r.tags.raid.as_ref().unwrap().stripe_bytes, Some(65536));
    assert_eq!(metric(r, "Seq", Op::Write), 157.8);
    // x1 card in x8 Gen2 vs x1 Gen1 slot
    let r = by_source(&ds, "Fig.8b 1000MB");
    assert_eq!(r.tags.platform.host_link, Some(Link::Pcie { gen: 2, lanes: 1 }));
    assert_eq!(metric(r, "Seq", Op::Read), 351.2);
    let r = by_source(&ds, "Fig.9b 1000MB");
    assert_eq!(r.tags.platform.host_link, Some(Link::Pcie { gen: 1, lanes: 1 }));
    assert_eq!(metric(r, "Seq", Op::Read), 203.8);
    // SB850: ATi vs Microsoft driver
    let r = by_source(&ds, "Fig.16b Plextor M2S");
    assert_eq!(r.tags.platform.driver.as_deref(), Some("ATi AHCI"));
    assert_eq!(metric(r, "Seq", Op::Read), 435.5);
    let r = by_source(&ds, "Fig.16c");
    assert_eq!(r.tags.platform.driver.as_deref(), Some("Microsoft AHCI"));
    assert_eq!(r.tags.platform.mode, Some(StorageMode::Ahci));
    assert_eq!(metric(r, "Seq", Op::Read), 442.2);
    assert_eq!(metric(r, "Seq", Op::Write), 320.1);
}
