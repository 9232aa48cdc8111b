//! A real run's result: its shape, its JSON, and its test keys against real KDiskMark and
//! CrystalDiskMark 8 exports.

mod common;

use bench::{BenchResult, Format, Op, TestKey, ToolFamily};
use runner::{Method, Preset, Profile, Set, Target};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/real");

fn corpus(path: &str) -> BenchResult {
    let bytes = std::fs::read(format!("{CORPUS}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"));
    let format = if path.starts_with("kdiskmark") { Format::KDiskMark } else { Format::CrystalDiskMark };
    bench::parse_bytes(&bytes, Some(format)).unwrap().remove(0)
}

fn keys(result: &BenchResult) -> BTreeSet<TestKey> {
    result.keyed_metrics().map(|(k, _)| k).collect()
}

#[test]
fn a_kdiskmark_default_run_pools_with_kdiskmark_uploads() {
    let _fio = common::fio_lock();
    let dir = common::scratch("result");
    let plan = common::quick_plan(Target::Dir(dir.path().to_path_buf()), Profile::KDISKMARK);
    let mut seen = Vec::new();
    let run = runner::run(&plan, &mut |p| seen.push(p.clone()), &AtomicBool::new(false)).unwrap();
    assert!(common::leftovers(dir.path()).is_empty());
    let r = &run.result;
    println!("{}", runner::cdm_table(r));

    // The same tests as a KDiskMark 3.0 and 2.3 export: equal keys, so they pool.
    for export in [
        "kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt",
        "kdiskmark/03__JonMagon_KDiskMark__README_2.3.0_example.txt",
    ] {
        let kdm = corpus(export);
        assert_eq!(keys(r), keys(&kdm), "{export}");
    }
    // Labelled as KDiskMark 3.x labels its rows (2.x printed `Q=32`, 3.x `Q= 32`).
    let kdm3 = corpus("kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt");
    let labels: Vec<&str> = r.metrics.iter().map(|m| m.label.as_str()).collect();
    let kdm_labels: Vec<&str> = kdm3.metrics.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, kdm_labels, "labels as the export's, in its order");
    assert_eq!(r.family(), ToolFamily::Fio);
    assert_eq!(r.tool, bench::Tool::Fio);
    assert!(r.tool_version.as_deref().is_some_and(|v| v.starts_with("fio-")));
    assert_eq!(r.profile.as_deref(), Some("KDiskMark Default"));
    assert_eq!(
        (r.test_size_bytes, r.passes, r.data_pattern),
        (Some(16 << 20), Some(1), Some(bench::DataPattern::Random))
    );
    assert!(r.comment.as_deref().unwrap().starts_with("ioengine=libaio, direct=1"), "{:?}", r.comment);
    assert!(r
        .metrics
        .iter()
        .all(|m| m.mbps.unwrap() > 0.0 && m.iops.unwrap() > 0.0 && m.latency_us.unwrap() > 0.0));
    bench::parse::check_well_formed(std::slice::from_ref(r)).unwrap();

    // The public JSON round-trips; so does the whole run (job files included).
    let json = serde_json::to_string(r).unwrap();
    assert_eq!(&serde_json::from_str::<BenchResult>(&json).unwrap(), r);
    let whole = serde_json::to_string(&run).unwrap();
    assert_eq!(serde_json::from_str::<runner::Run>(&whole).unwrap(), run);

    // Job files kept, one per test and operation, each one the runner gave fio.
    assert_eq!(run.jobs.len(), 8);
    assert!(run.jobs.iter().all(|j| j.job_file.contains("ioengine=libaio") && j.passes.len() == 1));
    assert!(run.prepare_job_file.as_deref().unwrap().contains("create_only=1"));

    // Progress: every test, read and write, with a pid and a shrinking estimate.
    let measured: BTreeSet<(String, Option<Op>)> =
        seen.iter().filter(|p| p.phase == runner::Phase::Measuring).map(|p| (p.test.clone(), p.op)).collect();
    assert_eq!(measured.len(), 8, "{measured:?}");
    assert!(seen.iter().all(|p| p.fio_pid.is_some() || p.phase == runner::Phase::Interval));
    assert!(seen.first().unwrap().remaining >= seen.last().unwrap().remaining);
}

#[test]
fn crystaldiskmark_profiles_label_rows_as_crystaldiskmark_8() {
    // No fio run needed: the labels and keys a CDM-profile run gives are the profile's.
    for (profile, export) in [
        (
            Profile::new(Method::Cdm8, Set::Default, Preset::Standard),
            "cdm8/02__unknown_id20477005223__8.0.0_uwp_nvme_sp512.txt",
        ),
        (
            Profile::new(Method::Cdm8, Set::Default, Preset::Nvme),
            "cdm8/10__soerenmetje_CrystalDiskMark-Parser__8.0.2_x64_crucial_p2_x370_nvme_profile.txt",
        ),
    ] {
        let cdm = corpus(export);
        let labels: Vec<String> =
            profile.runs().iter().map(|(t, op)| t.row_label(profile.method, *op)).collect();
        let cdm_labels: Vec<String> = cdm.metrics.iter().map(|m| m.label.clone()).collect();
        assert_eq!(labels, cdm_labels, "{export}");
        // Same tests; a different family (DiskSpd), so they never pool.
        let shapes: Vec<_> = profile
            .runs()
            .iter()
            .map(|(t, op)| (t.access, t.block_bytes(), t.queue_depth, t.threads, *op))
            .collect();
        let cdm_shapes: Vec<_> =
            cdm.metrics.iter().map(|m| (m.access, m.block_size, m.queue_depth, m.threads, m.op)).collect();
        assert_eq!(shapes, cdm_shapes);
        assert_eq!(cdm.family(), ToolFamily::CdmDiskspd);
    }
}
