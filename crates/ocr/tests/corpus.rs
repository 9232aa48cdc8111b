//! Reads every screenshot of the shared corpus and scores it against LABELS.json.
//! Fails below the measured accuracy (thresholds just under what the crate achieves),
//! and prints a per-image report either way.

use ocr::corpus;

/// Share of numeric fields that must be read exactly (as drawn, separators included).
/// Measured: 340/340 (2026-11-29).
const MIN_EXACT: f64 = 0.99;
/// Share of row labels that must be recognised. Measured: 164/164.
const MIN_LABELS: f64 = 0.99;
/// Settings (test count, size, drive, unit, mix ratio) and CrystalDiskMark versions that
/// must be read exactly: issue 16 asks for 95 % of the 184 labelled. Measured: 179/184
/// (2026-12-04); the misses are CrystalDiskMark 3's title and counts of 1 whose box the
/// strip's left edge cut off.
const MIN_SETTINGS: f64 = 0.95;
/// Comment rows (which often name the drive, proposed on the submit page) that must be
/// read exactly. Measured: 8 of the 12 windows with one (2026-12-02); the misses are
/// Japanese text and KDiskMark's device line, and a person confirms what is proposed.
const MIN_COMMENTS: usize = 8;

#[test]
fn corpus_accuracy() {
    let shared = corpus::shared_dir()
        .expect("the shared corpus (set SSDBASE_SHARED or place shared/ beside the checkout)");
    let dir = shared.join("corpus/screenshots");
    let labels = corpus::load(&dir).unwrap();
    let (mut fields, mut exact, mut lab, mut lab_ok, mut verdicts) = (0, 0, 0, 0, 0);
    let (mut settings, mut settings_ok) = (0, 0);
    let (mut comments, mut comments_ok, mut invented) = (0, 0, 0);
    for img in &labels.images {
        let bytes = std::fs::read(dir.join(&img.file)).unwrap();
        let t = std::time::Instant::now();
        let outcome = ocr::recognize(&bytes);
        let secs = t.elapsed().as_secs_f64();
        let s = corpus::score(img, &outcome);
        println!(
            "{:<60} values {:>2}/{:<2} labels {}/{} verdict {} {:.2}s",
            img.file,
            s.exact,
            s.fields,
            s.labels_ok,
            s.labels,
            if s.verdict_ok { "ok" } else { "WRONG" },
            secs
        );
        for n in &s.notes {
            println!("    {n}");
        }
        // The result itself keeps the parsers' promises, and the zero cells (tests not
        // run) are in `not_run`, never among the metrics.
        if let Ok(r) = &outcome {
            bench::parse::check_well_formed(std::slice::from_ref(&r.result))
                .unwrap_or_else(|e| panic!("{}: {e}", img.file));
            let zeros =
                img.expected_values().iter().filter(|t| t.chars().all(|c| c == '0' || c == '.')).count();
            assert_eq!(r.result.not_run.len(), zeros, "{}: not_run {:?}", img.file, r.result.not_run);
        }
        if let Ok(r) = &outcome {
            println!(
                "    layout {} {} tool {:?} version {:?} settings {:?}",
                r.layout.family, r.layout.preset, r.layout.tool, r.settings.version, r.settings
            );
        }
        fields += s.fields;
        exact += s.exact;
        lab += s.labels;
        lab_ok += s.labels_ok;
        verdicts += usize::from(s.verdict_ok);
        settings += s.settings;
        settings_ok += s.settings_ok;
        comments += usize::from(s.comment);
        comments_ok += usize::from(s.comment_ok);
        invented += usize::from(s.comment_invented);
    }
    let share = exact as f64 / fields as f64;
    let label_share = lab_ok as f64 / lab as f64;
    println!(
        "\ncorpus: {exact}/{fields} values exact ({:.2} %), {lab_ok}/{lab} labels ({:.2} %), {verdicts}/{} verdicts, \
         {settings_ok}/{settings} settings and versions",
        100.0 * share,
        100.0 * label_share,
        labels.images.len()
    );
    assert!(share >= MIN_EXACT, "value accuracy {share:.4} below {MIN_EXACT}");
    assert!(label_share >= MIN_LABELS, "label accuracy {label_share:.4} below {MIN_LABELS}");
    assert_eq!(verdicts, labels.images.len(), "some windows were refused or accepted wrongly");
    let settings_share = settings_ok as f64 / settings as f64;
    assert!(
        settings_share >= MIN_SETTINGS,
        "{settings_ok}/{settings} settings and versions read, below {MIN_SETTINGS}"
    );
    println!("comments: {comments_ok}/{comments} read exactly, {invented} read where the window has none");
    assert!(comments_ok >= MIN_COMMENTS, "{comments_ok} comments read exactly, fewer than {MIN_COMMENTS}");
    assert_eq!(invented, 0, "a comment read where the window has none");
}
