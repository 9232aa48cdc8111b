//! Screenshots as people post them: a real corpus window put on a generated desktop
//! (`ocr::degrade`); the job deadline and its stages. Two windows side by side are
//! measured by `cargo xtask bench-ocr two-windows` (not yet reliable enough to assert:
//! two windows 40 px apart are often one patch, and its page pass finds one grid).

use ocr::corpus::{self, LabelledImage};
use ocr::degrade::{self, Kind, Rng};
use ocr::{Job, OcrError, Recognition};
use std::time::Duration;

fn corpus() -> (std::path::PathBuf, corpus::Labels) {
    let dir = corpus::shared_dir()
        .expect("the shared corpus (set SSDBASE_SHARED or place shared/ beside the checkout)")
        .join("corpus/screenshots");
    let labels = corpus::load(&dir).unwrap();
    (dir, labels)
}

fn window(dir: &std::path::Path, img: &LabelledImage) -> image::RgbImage {
    degrade::decode_screenshot(&std::fs::read(dir.join(&img.file)).unwrap()).unwrap()
}

fn assert_reads(img: &LabelledImage, reading: &Result<Recognition, OcrError>) {
    let s = corpus::score(img, reading);
    assert_eq!(s.exact, s.fields, "{}: {:?}", img.file, s.notes);
    assert_eq!(s.confident_wrong, 0, "{}: {:?}", img.file, s.notes);
}

/// The first CrystalDiskMark and the first KDiskMark window with results.
fn two_windows(labels: &corpus::Labels) -> (&LabelledImage, &LabelledImage) {
    let first = |tool: &str| labels.images.iter().find(|i| i.tool == tool && !i.all_zero()).unwrap();
    (first("CrystalDiskMark"), first("KDiskMark"))
}

#[test]
fn a_window_on_a_desktop_reads_as_the_window_alone() {
    let (dir, labels) = corpus();
    let (cdm, kdm) = two_windows(&labels);
    for img in [cdm, kdm] {
        let made = degrade::degrade(
            &window(&dir, img),
            None,
            Kind::Desktop,
            &mut Rng::for_image(&img.file, Kind::Desktop),
        );
        let readings =
            ocr::recognize_all(&made.bytes).unwrap_or_else(|e| panic!("{} [{}]: {e}", img.file, made.recipe));
        assert_eq!(readings.len(), 1, "{} [{}]", img.file, made.recipe);
        assert_reads(img, &readings[0]);
        // The grid is reported where the window was put, not where it is in the file.
        let g = readings[0].as_ref().unwrap().layout.grid;
        let w = made.windows[0];
        assert!(g.x0 >= w.x0 && g.x1 <= w.x1 && g.y0 >= w.y0 && g.y1 <= w.y1, "{g:?} outside {w:?}");
    }
}

#[test]
fn a_job_stops_at_its_deadline_and_reports_its_stages() {
    let (dir, labels) = corpus();
    let bytes = std::fs::read(dir.join(&labels.images[0].file)).unwrap();
    let mut stages = Vec::new();
    let mut report = |done: f64, what: &str| stages.push((done, what.to_string()));
    let mut job = Job { deadline: Some(Duration::ZERO), progress: Some(&mut report) };
    match ocr::recognize_job(&bytes, &mut job) {
        Err(OcrError::DeadlineExceeded { .. }) => {}
        other => panic!("expected the deadline to stop the job, got {:?}", other.map(|r| r.len())),
    }
    let mut report = |done: f64, what: &str| stages.push((done, what.to_string()));
    let mut job = Job { deadline: Some(Duration::from_secs(60)), progress: Some(&mut report) };
    assert!(ocr::recognize_job(&bytes, &mut job).unwrap()[0].is_ok());
    let names: Vec<&str> = stages.iter().map(|(_, s)| s.as_str()).collect();
    for stage in [
        "decoding the image",
        "finding the result grid",
        "reading the values",
        "reading the row labels",
        "done",
    ] {
        assert!(names.contains(&stage), "no {stage:?} in {names:?}");
    }
}
