//! `ssdbase import` end to end: the real binary loads real result files, sidecar tags
//! and datasets into a temporary SQLite file; bad files are reported with file and line
//! and leave nothing behind; a second run finds duplicates.

mod common;

use common::shared;

use bench::FieldValue;
use ssdbase::storage::ResultQuery;
use std::path::Path;
use std::process::{Command, Output};

fn import(db: &str, args: &[&Path], extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .arg("import")
        .args(args)
        .args(["--database-url", db])
        .args(extra)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const BROKEN: &str = "CrystalDiskMark 3.0.3 x64 (C) 2007-2013 hiyohiyo\n\nSequential Read : 4x3.079 MB/s\n";

async fn with_chipset(
    storage: &ssdbase::storage::DynStorage,
    chipset: &str,
) -> Vec<ssdbase::storage::StoredResult> {
    let q = ResultQuery {
        filters: vec![("chipset", FieldValue::Text(chipset.into()))],
        limit: 100,
        ..Default::default()
    };
    storage.list_results(&q).await.unwrap()
}

#[tokio::test]
async fn imports_files_sidecars_and_datasets_each_all_or_nothing() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_import_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(inputs.join("more")).unwrap();
    let real = shared().join("corpus/real");
    // A real CDM 3 paste with a sidecar naming its drive.
    std::fs::copy(
        real.join("cdm3/10__pastebin_nLyTADpy__3.0.3_x64_NUMBERED_COLLAPSED.txt"),
        inputs.join("cdm3.txt"),
    )
    .unwrap();
    std::fs::write(
        inputs.join("cdm3.txt.tags.json"),
        r#"{"drive": {"sku": "crucial-realssd-c300-64gb"}, "platform": {"chipset": "IMPORT-SIDECAR"}}"#,
    )
    .unwrap();
    // A real KDiskMark file in a subdirectory, tagged by --tags.
    std::fs::copy(
        real.join("kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt"),
        inputs.join("more/kdm.txt"),
    )
    .unwrap();
    // A dataset with a new drive and two results on it.
    let mut result = serde_json::to_value(&bench::seeds::seed_dataset().unwrap().results[0].result).unwrap();
    let drive = serde_json::json!({
        "id": "acme-fast-1tb", "vendor": "Acme", "model": "Fast", "capacity_gb": 1000,
        "controller": {}, "rated": {"seq_read_mbps": 550.0}
    });
    let mut results = Vec::new();
    for (i, chipset) in ["IMPORT-DS", "IMPORT-DS"].iter().enumerate() {
        result["metrics"][0]["mbps"] = serde_json::json!(400.0 + i as f64);
        results.push(serde_json::json!({
            "result": result, "source": format!("test {i}"),
            "tags": {"drive": {"sku": "acme-fast-1tb"}, "platform": {"chipset": chipset}}
        }));
    }
    // With an observation: a figure its source gives only as a bound.
    let observation = serde_json::json!({
        "name": "Seq read", "value": 500.0, "kind": "at-least", "unit": "MB/s",
        "tags": {"drive": {"sku": "acme-fast-1tb"}}, "source": "test § bound — fig. 1"
    });
    let dataset = serde_json::json!({"drives": [drive], "results": results, "observations": [observation]});
    std::fs::write(inputs.join("dataset.json"), serde_json::to_vec_pretty(&dataset).unwrap()).unwrap();
    // A dataset whose observation names an unknown drive: refused whole.
    let mut bad_observation = serde_json::json!({"observations": [observation]});
    bad_observation["observations"][0]["tags"]["drive"]["sku"] = serde_json::json!("no-such-drive");
    std::fs::write(inputs.join("observation.json"), serde_json::to_vec(&bad_observation).unwrap()).unwrap();
    // A dataset whose second result names an unknown drive: none of it may be stored.
    let mut half = dataset.clone();
    half["drives"][0]["id"] = serde_json::json!("acme-half-1tb");
    half["results"][0]["tags"]["drive"]["sku"] = serde_json::json!("acme-half-1tb");
    half["results"][0]["tags"]["platform"]["chipset"] = serde_json::json!("IMPORT-HALF");
    half["results"][1]["tags"]["drive"]["sku"] = serde_json::json!("no-such-drive");
    std::fs::write(inputs.join("half.json"), serde_json::to_vec(&half).unwrap()).unwrap();
    // A file that does not parse.
    std::fs::write(inputs.join("broken.txt"), BROKEN).unwrap();

    let db = format!("sqlite://{}", dir.join("import.db").display());
    let tags = r#"{"platform": {"chipset": "IMPORT-FLAG"}}"#;
    let out = import(&db, &[&inputs], &["--tags", tags]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "a file failed: {stdout}{stderr}");
    assert!(stdout.contains("imported 6 files: 4 results stored, 0 duplicates, 3 files failed"), "{stdout}");
    assert!(stderr.contains("broken.txt: CrystalDiskMark: line 3:"), "{stderr}");
    assert!(stderr.contains("half.json: results[1]: unknown drive sku \"no-such-drive\""), "{stderr}");
    assert!(
        stderr.contains("observation.json: observations[0]: unknown drive sku \"no-such-drive\""),
        "{stderr}"
    );

    let storage = ssdbase::open(&db).await.unwrap();
    let side = with_chipset(&storage, "IMPORT-SIDECAR").await;
    assert_eq!(side.len(), 1);
    assert_eq!(side[0].tags.drive.vendor.as_deref(), Some("Crucial"), "catalogue completes sidecar tags");
    assert_eq!(side[0].result.tool_version.as_deref(), Some("3.0.3 x64"));
    assert_eq!(side[0].source.as_deref(), Some("cdm3.txt"));
    let kdm = with_chipset(&storage, "IMPORT-FLAG").await;
    assert_eq!(kdm.len(), 1, "--tags applies to files without a sidecar");
    assert_eq!(kdm[0].result.metrics[2].mbps, Some(354.657));
    let ds = with_chipset(&storage, "IMPORT-DS").await;
    assert_eq!(ds.len(), 2);
    let acme = storage.get_drive("acme-fast-1tb").await.unwrap().unwrap();
    assert_eq!(acme.model, "Fast");
    let observations = storage.observations_of_drive(&acme).await.unwrap();
    assert_eq!(observations.len(), 1);
    assert_eq!((observations[0].value, observations[0].kind), (500.0, bench::ObservationKind::AtLeast));
    // Nothing of the half-bad dataset: neither its good result nor its drive.
    assert!(with_chipset(&storage, "IMPORT-HALF").await.is_empty());
    assert!(storage.get_drive("acme-half-1tb").await.unwrap().is_none());
    drop(storage);

    // Again, without the bad files: all duplicates, exit 0.
    std::fs::remove_file(inputs.join("broken.txt")).unwrap();
    std::fs::remove_file(inputs.join("half.json")).unwrap();
    std::fs::remove_file(inputs.join("observation.json")).unwrap();
    let out = import(&db, &[&inputs], &["--tags", tags]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("imported 3 files: 0 results stored, 4 duplicates, 0 files failed"));
    let storage = ssdbase::open(&db).await.unwrap();
    let acme = storage.get_drive("acme-fast-1tb").await.unwrap().unwrap();
    assert_eq!(
        storage.observations_of_drive(&acme).await.unwrap().len(),
        1,
        "a repeated import adds no observation"
    );
    drop(storage);

    // Bad arguments are errors before anything is read.
    let out = import(&db, &[&inputs], &["--tags", "{not json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--tags"), "{}", text(&out.stderr));
}

/// A drive the catalogue lacks, named only by `--tags`, gets its community drive through
/// the command line as through the API, and a second file naming it by its model string
/// lands on the same drive.
#[tokio::test]
async fn an_imported_file_of_a_new_drive_creates_it_once() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_import_new_drive_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let p2 = shared().join(
        "corpus/real/cdm8/10__soerenmetje_CrystalDiskMark-Parser__8.0.2_x64_crucial_p2_x370_nvme_profile.txt",
    );
    let db = format!("sqlite://{}", dir.join("db.sqlite").display());
    let out = import(
        &db,
        &[&p2],
        &["--tags", r#"{"drive": {"vendor": "Crucial", "model": "P2", "capacity_gb": 2000}}"#],
    );
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let kdm = shared().join("corpus/real/kdiskmark");
    let kdm_file = std::fs::read_dir(&kdm).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_file()).unwrap();
    let out = import(&db, &[&kdm_file], &["--tags", r#"{"drive": {"model": "CRUCIAL P2 2TB"}}"#]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));

    let storage = ssdbase::open(&db).await.unwrap();
    let drive = storage.get_drive("crucial-p2-2000gb").await.unwrap().expect("the community drive");
    assert!(!drive.reviewed);
    let results = storage
        .results_for_drives(std::slice::from_ref(&drive.id), ssdbase::storage::ResultFigures::All)
        .await
        .unwrap();
    assert_eq!(results.len(), 2, "both files on the drive");
    let how: Vec<_> = results.iter().map(|r| r.tags.drive.identified_by).collect();
    assert_eq!(how, [Some(bench::DriveMatch::Created), Some(bench::DriveMatch::Name)]);
}

#[tokio::test]
async fn import_prints_what_a_file_says_and_fills_only_that() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_import_facts_").tempdir().unwrap();
    let db = format!("sqlite://{}", tmp.path().join("db.sqlite").display());
    // A real AS SSD export: it names its drive, firmware, driver and size, but no chipset.
    let asssd =
        shared().join("corpus/real/asssd/01__unknown_id14171726121__2.0.7316_samsung970evoplus_mbps.txt");
    let out = import(&db, &[&asssd], &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    for said in [
        r#"the file says model "Samsung SSD 970 EVO Plus 250GB" (line 3: Name: Samsung SSD 970 EVO Plus 250GB)"#,
        r#"the file says firmware "1B2QEXM7" (line 4: Firmware: 1B2QEXM7)"#,
        r#"the file says driver "stornvme" (line 5: Controller: stornvme)"#,
        r#"the file says capacity gb "250" (line 7: Size: 232.88 GB)"#,
    ] {
        assert!(stdout.contains(said), "missing {said:?} in:\n{stdout}");
    }

    let storage = ssdbase::open(&db).await.unwrap();
    // The database opens with the seed articles' results; the import is the one AS SSD result.
    let q = ResultQuery {
        filters: vec![("tool", FieldValue::Text("as-ssd".into()))],
        limit: 100,
        ..Default::default()
    };
    let stored = storage.list_results(&q).await.unwrap();
    assert_eq!(stored.len(), 1, "{stored:?}");
    let tags = &stored[0].tags;
    assert_eq!(tags.firmware.as_deref(), Some("1B2QEXM7"));
    assert_eq!(tags.platform.driver.as_deref(), Some("stornvme"));
    assert_eq!(tags.platform.chipset, None, "nothing the file does not say");
    for field in ["firmware", "driver"] {
        assert!(
            tags.read_from_file.iter().any(|f| f == field),
            "{field} marked as read from the file: {:?}",
            tags.read_from_file
        );
    }
}
