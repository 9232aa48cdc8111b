//! Spot checks of the WILDFIRE (SF-2281) and Plextor M5Pro seed files against their articles.

use bench::model::{DataPattern, Op, StorageMode, TaggedResult, Tool};
use bench::seeds::{seed_dataset, Dataset};

fn data() -> Dataset {
    seed_dataset().expect("seed dataset loads")
}

fn mbps(r: &TaggedResult, label: &str, op: Op) -> f64 {
    r.result
        .metrics
        .iter()
        .find(|m| m.label == label && m.op == op)
        .and_then(|m| m.mbps)
        .unwrap_or_else(|| panic!("{label} {op:?} missing in {:?}", r.source))
}

fn find(d: &Dataset, pred: impl Fn(&TaggedResult) -> bool) -> Vec<&TaggedResult> {
    d.results.iter().filter(|r| pred(r)).collect()
}

#[test]
fn wildfire_random_vs_zero_fill_on_z68() {
    let d = data();
    let single = find(&d, |r| {
        r.tags.drive.sku.as_deref() == Some("patriot-wildfire-120gb")
            && r.tags.platform.chipset.as_deref() == Some("Z68")
            && r.tags.raid.is_none()
            && r.result.data_pattern == Some(DataPattern::Random)
    });
    assert_eq!(single.len(), 1);
    assert_eq!(mbps(single[0], "Seq", Op::Read), 522.2);
    assert_eq!(mbps(single[0], "Seq", Op::Write), 176.6);
    assert_eq!(single[0].tags.platform.mode, Some(StorageMode::Ahci));
    // The single-drive 0Fill runs are only described approximately: observations, not results.
    let approx: Vec<_> = d
        .observations
        .iter()
        .filter(|o| o.tags.drive.sku.as_deref() == Some("patriot-wildfire-120gb") && o.value == 460.0)
        .collect();
    assert_eq!(approx.len(), 3);
    // RAID 0 x2 on Z68: random vs 0Fill sequential write.
    let raid = |p: DataPattern| {
        find(&d, move |r| {
            r.tags.drive.sku.as_deref() == Some("patriot-wildfire-120gb")
                && r.tags.platform.chipset.as_deref() == Some("Z68")
                && r.tags.raid.as_ref().map(|x| (x.level, x.members)) == Some((0, 2))
                && r.result.tool == Tool::CrystalDiskMark
                && r.result.data_pattern == Some(p)
        })
    };
    assert_eq!(mbps(raid(DataPattern::Random)[0], "Seq", Op::Write), 384.0);
    assert_eq!(mbps(raid(DataPattern::ZeroFill)[0], "Seq", Op::Write), 839.7);
}

#[test]
fn wildfire_sb950_driver_pair_and_raid() {
    let d = data();
    let on = |driver: &'static str| {
        find(&d, move |r| {
            r.tags.platform.chipset.as_deref() == Some("SB950")
                && r.tags.platform.driver.as_deref() == Some(driver)
        })
    };
    let amd = on("AMD AHCI");
    let ms = on("Microsoft AHCI");
    assert_eq!((amd.len(), ms.len()), (1, 1));
    assert_eq!((mbps(amd[0], "Seq", Op::Read), mbps(amd[0], "Seq", Op::Write)), (515.8, 260.5));
    assert_eq!((mbps(ms[0], "Seq", Op::Read), mbps(ms[0], "Seq", Op::Write)), (500.4, 259.9));
    let raid = on("AMD RAID");
    assert_eq!(raid.len(), 1);
    assert_eq!(raid[0].tags.raid.as_ref().unwrap().members, 2);
    assert_eq!(mbps(raid[0], "Seq", Op::Read), 565.3);
    // ATTO 2.34 on the Z68 RAID 0: 1,006,632 KB/s at 512K read.
    let atto = find(&d, |r| r.result.tool == Tool::Atto && r.tags.platform.chipset.as_deref() == Some("Z68"));
    assert_eq!(atto.len(), 1);
    assert_eq!(atto[0].result.tool_version.as_deref(), Some("2.34"));
    assert!((mbps(atto[0], "512.0", Op::Read) - 1_006_632.0 * 1024.0 / 1e6).abs() < 1e-6);
}

#[test]
fn c400_and_intel_510_beside_wildfire() {
    let d = data();
    let c400 = find(&d, |r| r.tags.drive.sku.as_deref() == Some("crucial-realssd-c400-128gb"));
    let i510 = find(&d, |r| r.tags.drive.sku.as_deref() == Some("intel-ssd-510-120gb"));
    assert_eq!(mbps(c400[0], "Seq", Op::Write), 200.0);
    assert_eq!(mbps(i510[0], "Seq", Op::Write), 207.0);
    for r in c400.iter().chain(&i510) {
        assert_eq!(r.tags.platform.chipset.as_deref(), Some("Z68"));
        assert_eq!(r.result.data_pattern, Some(DataPattern::Random));
        assert_eq!(r.tags.controller.as_ref().unwrap().model.as_deref(), Some("88SS9174"));
    }
    assert_eq!(c400[0].tags.controller.as_ref().unwrap().stepping.as_deref(), Some("BLD2"));
    assert_eq!(i510[0].tags.controller.as_ref().unwrap().stepping.as_deref(), Some("BKK2"));
    let wf = d.drives.iter().find(|s| s.id == "patriot-wildfire-120gb").unwrap();
    assert_eq!((wf.rated.seq_read_mbps, wf.rated.seq_write_mbps), (Some(555.0), Some(520.0)));
}

#[test]
fn m5pro_rated_iops_orion_and_allocation_unit() {
    let d = data();
    let rated = |cap: u32| {
        let s = d.drives.iter().find(|s| s.id == format!("plextor-m5pro-{cap}gb")).unwrap();
        (s.rated.rnd4k_read_iops.unwrap(), s.rated.rnd4k_write_iops.unwrap())
    };
    assert_eq!(rated(128), (92_000.0, 82_000.0));
    assert_eq!(rated(256), (100_000.0, 86_000.0));
    assert_eq!(rated(512), (100_000.0, 88_000.0));
    let obs = |name: &str| {
        d.observations
            .iter()
            .filter(|o| o.tags.drive.sku.as_deref() == Some("plextor-m5pro-256gb") && o.name == name)
            .map(|o| o.value)
            .collect::<Vec<_>>()
    };
    assert_eq!(obs("ORION IOPS (maximum at 1 thread)"), vec![6235.0]);
    assert_eq!(obs("ORION latency (minimum)"), vec![0.15]);
    assert_eq!(
        obs("ORION large-IO throughput difference between allocation unit sizes (maximum)"),
        vec![64.9]
    );
    let cdm = find(&d, |r| r.tags.drive.sku.as_deref() == Some("plextor-m5pro-256gb"));
    assert_eq!(cdm.len(), 1);
    assert_eq!(cdm[0].tags.platform.allocation_unit_bytes, Some(4096));
    assert_eq!(cdm[0].tags.firmware.as_deref(), Some("1.02"));
    assert_eq!((mbps(cdm[0], "Seq", Op::Read), mbps(cdm[0], "Seq", Op::Write)), (506.0, 445.0));
}
