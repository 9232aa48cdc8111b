//! Drive names in real uploads: what the submit page proposes for the person to confirm.

mod common;

use bench::identity::{names_a_drive, texts_naming_a_drive, Identity};

/// The first text of an upload that reads as a drive's name.
fn named_in(result: &bench::BenchResult) -> Option<String> {
    texts_naming_a_drive(result).into_iter().find(|t| names_a_drive(t)).map(|t| t.trim().to_string())
}

#[test]
fn a_crystaldiskmark_comment_names_its_drive() {
    let path = common::corpus()
        .join("cdm8/10__soerenmetje_CrystalDiskMark-Parser__8.0.2_x64_crucial_p2_x370_nvme_profile.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let result = bench::parse_str(&text, None).unwrap().remove(0);
    let named = named_in(&result).expect("the comment names the drive");
    assert_eq!(named, "Crucial P2 2TB @ PCIe 3.0 x4");
    let d = Identity::from_model_string(&named).new_drive(None).unwrap();
    assert_eq!(
        (d.id.as_str(), d.vendor.as_str(), d.model.as_str(), d.capacity_gb),
        ("crucial-p2-2000gb", "Crucial", "P2", 2000)
    );
    // A comment that names no drive proposes nothing.
    let mut plain = result.clone();
    for f in plain.facts.iter_mut().filter(|f| f.field == "comment") {
        f.value = "after a fresh Windows install".into();
    }
    assert_eq!(named_in(&plain), None);
}

/// Every real export whose comment or target reads as a drive gives an identity with a
/// model line; none of them panics.
#[test]
fn real_uploads_name_drives_or_nothing() {
    let mut named = 0;
    for entry in walk(&common::corpus()) {
        let Ok(bytes) = std::fs::read(&entry) else { continue };
        let Ok(results) = bench::parse_bytes(&bytes, None) else { continue };
        for r in results {
            if let Some(text) = named_in(&r) {
                assert!(
                    !Identity::from_model_string(&text).model_words.is_empty(),
                    "{}: {text}",
                    entry.display()
                );
                named += 1;
            }
        }
    }
    assert!(named >= 1, "at least the Crucial P2 export names its drive");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
