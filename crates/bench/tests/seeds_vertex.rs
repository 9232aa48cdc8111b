//! Spot checks of the OCZ Vertex 30 GB study (001_69fe34dda99b4489) in the seed dataset.

use bench::seeds::{seed_dataset, Dataset, SEED_FILES};
use bench::{Access, DataPattern, DriveState, Op, Stat, TaggedResult, Tool, ToolFamily};

const MIB: u64 = 1_048_576;

fn vertex() -> Dataset {
    let text = SEED_FILES.iter().find(|(n, _)| *n == "vertex_indilinx.json").unwrap().1;
    serde_json::from_str(text).unwrap()
}

fn result<'a>(ds: &'a Dataset, fig: &str) -> &'a TaggedResult {
    let hits: Vec<_> =
        ds.results.iter().filter(|r| r.source.as_deref().unwrap().contains(&format!("— {fig} "))).collect();
    assert_eq!(hits.len(), 1, "figure {fig}");
    hits[0]
}

fn mbps(r: &TaggedResult, label: &str, op: Op) -> f64 {
    let m: Vec<_> = r.result.metrics.iter().filter(|m| m.label == label && m.op == op).collect();
    assert_eq!(m.len(), 1, "{label} {op:?}");
    m[0].mbps.unwrap()
}

fn obs(ds: &Dataset, result_key: &str, name: &str) -> f64 {
    let hits: Vec<_> = ds
        .observations
        .iter()
        .filter(|o| o.name == name && o.source.as_deref().unwrap().contains(&format!("結果 {result_key} ")))
        .collect();
    assert_eq!(hits.len(), 1, "{result_key} {name}");
    hits[0].value
}

#[test]
fn loads_with_the_other_seeds() {
    let all = seed_dataset().unwrap();
    assert!(all.drives.iter().any(|d| d.id == "ocz-vertex-30gb"));
    let ds = vertex();
    assert_eq!((ds.drives.len(), ds.results.len(), ds.observations.len()), (10, 12, 57));
    assert_eq!(ds.measurement_count(), 17);
}

#[test]
fn catalogue() {
    let ds = vertex();
    let v = ds.drives.iter().find(|d| d.id == "ocz-vertex-30gb").unwrap();
    assert_eq!(v.part_number.as_deref(), Some("OCZSSD2-1VTX30G"));
    assert_eq!((v.rated.seq_read_mbps, v.rated.seq_write_mbps), (Some(230.0), Some(135.0)));
    assert_eq!(v.dram_mb, Some(64));
    assert_eq!(v.controller.model.as_deref(), Some("Barefoot"));
}

#[test]
fn fat32_vs_ntfs() {
    let ds = vertex();
    let a = result(&ds, "@a");
    let b = result(&ds, "@b");
    assert_eq!(mbps(a, "Seq", Op::Read), 200.8);
    assert_eq!(mbps(b, "Seq", Op::Read), 193.5);
    assert_eq!(a.tags.platform.filesystem.as_deref(), Some("FAT32"));
    assert_eq!(b.tags.platform.filesystem.as_deref(), Some("NTFS"));
    assert_eq!(a.result.test_size_bytes, Some(100 * MIB));
    assert_eq!(mbps(result(&ds, "Aa"), "Seq", Op::Read), 198.9);
    assert_eq!(mbps(result(&ds, "Ab"), "Seq", Op::Read), 189.6);
    assert_eq!(result(&ds, "Ab").result.test_size_bytes, Some(1000 * MIB));
    assert_eq!(a.result.family(), ToolFamily::CdmNative);
    assert_eq!(a.result.data_pattern, Some(DataPattern::Random));
    assert_eq!(a.tags.firmware.as_deref(), Some("00.P97/1275"));
}

#[test]
fn test_size_series_single_and_raid() {
    let ds = vertex();
    let ba = result(&ds, "Ba");
    let bc = result(&ds, "Bc");
    assert_eq!(ba.result.test_size_bytes, Some(50 * MIB));
    assert_eq!((mbps(ba, "512K", Op::Write), mbps(ba, "4K", Op::Write)), (96.76, 10.19));
    assert_eq!((mbps(bc, "512K", Op::Write), mbps(bc, "4K", Op::Write)), (87.97, 8.811));
    assert_eq!(ba.tags.conditions.drive_state, Some(DriveState::Used));
    assert!(ba.tags.raid.is_none());

    let ca = result(&ds, "Ca");
    let cb = result(&ds, "Cb");
    let cc = result(&ds, "Cc");
    for r in [ca, cb, cc] {
        let raid = r.tags.raid.as_ref().unwrap();
        assert_eq!((raid.level, raid.members), (0, 2));
        assert_eq!(r.tags.drive.sku.as_deref(), Some("ocz-vertex-30gb"));
        assert_eq!(r.tags.platform.storage_controller.as_deref(), Some("ICH10R"));
    }
    assert_eq!((mbps(ca, "512K", Op::Write), mbps(ca, "4K", Op::Write)), (181.4, 29.71));
    assert_eq!(mbps(cb, "Seq", Op::Write), 186.9);
    assert_eq!((mbps(cc, "512K", Op::Write), mbps(cc, "4K", Op::Write)), (159.1, 14.71));
    let m = &cc.result.metrics[1];
    assert_eq!((m.access, m.block_size, m.queue_depth), (Access::Rnd, 4096, 1));
}

#[test]
fn flashpoint_and_hdtune() {
    let ds = vertex();
    let cg = result(&ds, "Cg");
    let ch = result(&ds, "Ch");
    assert_eq!(cg.tags.firmware.as_deref(), Some("Ver1.30/1571"));
    assert_eq!(mbps(cg, "4K", Op::Write), 7.444);
    assert_eq!((mbps(ch, "Seq", Op::Write), mbps(ch, "4K", Op::Write)), (134.3, 30.62));
    let da = result(&ds, "Da");
    assert_eq!(da.result.tool, Tool::HdTune);
    assert_eq!(mbps(da, "Sequential Read", Op::Read), 227.7);
    assert_eq!(da.result.metrics[0].stat, None::<Stat>);
}

#[test]
fn delay_ratio() {
    let ds = vertex();
    assert_eq!(obs(&ds, "F", "DelayRatio"), 2.32);
    assert_eq!(obs(&ds, "G", "DelayRatio"), 1.82);
    assert_eq!(obs(&ds, "H", "DelayRatio"), 0.92);
    assert_eq!(obs(&ds, "I", "DelayRatio"), 1.02);
    assert_eq!(obs(&ds, "F", "copy-paste time (mean)"), 156.21);
    assert_eq!(obs(&ds, "G", "write time (mean)"), 24.44);
    assert_eq!(obs(&ds, "H", "net write time"), 54.01);
    assert_eq!(obs(&ds, "I", "read time (run 2)"), 48.78);
    // The printed ratio follows from the printed times.
    for k in ["F", "G", "H", "I"] {
        let r = obs(&ds, k, "copy-paste time (mean)")
            / (obs(&ds, k, "net write time") + obs(&ds, k, "net read time"));
        assert!((r - obs(&ds, k, "DelayRatio")).abs() < 0.006, "{k}: {r}");
        let w = (obs(&ds, k, "write time (run 1)") + obs(&ds, k, "write time (run 2)")) / 2.0;
        assert!((w - obs(&ds, k, "write time (mean)")).abs() < 0.006, "{k}: {w}");
        assert!((obs(&ds, k, "write time (mean)") - 0.82 - obs(&ds, k, "net write time")).abs() < 1e-9);
        assert!((obs(&ds, k, "read time (mean)") - 1.36 - obs(&ds, k, "net read time")).abs() < 1e-9);
    }
    let g = ds.observations.iter().find(|o| o.source.as_deref().unwrap().contains("結果 G ")).unwrap();
    assert_eq!(g.tags.raid.as_ref().unwrap().members, 2);
    let h = ds.observations.iter().find(|o| o.source.as_deref().unwrap().contains("結果 H ")).unwrap();
    assert_eq!(h.tags.drive.sku.as_deref(), Some("intel-x25-m-80gb"));
    let i = ds.observations.iter().find(|o| o.source.as_deref().unwrap().contains("結果 I ")).unwrap();
    assert_eq!(i.tags.drive.sku.as_deref(), Some("samsung-mccoe64g5mpp-64gb"));
}
