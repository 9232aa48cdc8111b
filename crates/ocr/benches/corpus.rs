//! `cargo xtask bench-ocr` (or `cargo bench -p ocr --bench corpus`): per screenshot of the
//! shared corpus, our values against LABELS.json and seconds per image on one thread,
//! next to the same figures for plain `tesseract IMAGE -` measured in the same run.
//!
//! Plain Tesseract gives text, not cells, so its numbers are taken in reading order and
//! counted exact when they match the labelled values in order (longest common
//! subsequence); ours are counted cell by cell, which is stricter.

use ocr::corpus::{self, exact_in_order, numbers_in_text};
use std::process::Command;
use std::time::Instant;

fn main() {
    // `cargo test --all-targets` runs harness-less benches too, without `--bench`:
    // the measurement only makes sense in an optimised build run on purpose.
    if !std::env::args().any(|a| a == "--bench") {
        println!("corpus benchmark: run it with `cargo xtask bench-ocr`");
        return;
    }
    let shared = corpus::shared_dir().expect("shared corpus not found: set SSDBASE_SHARED");
    let dir = shared.join("corpus/screenshots");
    let labels = corpus::load(&dir).expect("LABELS.json");
    let tesseract = which_tesseract();

    println!("{:<44} {:>9} {:>7} {:>7} | {:>9} {:>7}", "image", "ours", "labels", "s", "tesseract", "s");
    let (mut fields, mut ours_exact, mut labels_n, mut labels_ok) = (0usize, 0usize, 0usize, 0usize);
    let (mut ours_secs, mut tess_exact, mut tess_secs) = (0f64, 0usize, 0f64);
    for img in &labels.images {
        let path = dir.join(&img.file);
        let bytes = std::fs::read(&path).expect("screenshot");
        // Warm the engine outside the timing on the first image (model load happens once
        // per process; the CLI pays it on every run and that is part of its figure).
        if fields == 0 {
            let _ = ocr::recognize(&bytes);
        }
        let t = Instant::now();
        let outcome = ocr::recognize(&bytes);
        let secs = t.elapsed().as_secs_f64();
        let s = corpus::score(img, &outcome);

        let expected = img.expected_values();
        let t = Instant::now();
        let text = tesseract.as_ref().map(|bin| {
            let out = Command::new(bin)
                .arg(&path)
                .arg("-")
                .env("OMP_THREAD_LIMIT", "1")
                .output()
                .expect("tesseract runs");
            String::from_utf8_lossy(&out.stdout).into_owned()
        });
        let t_secs = t.elapsed().as_secs_f64();
        let t_exact = text.as_deref().map_or(0, |t| exact_in_order(&expected, &numbers_in_text(t)));

        let short: String = img.file.chars().take(44).collect();
        println!(
            "{short:<44} {:>4}/{:<4} {:>3}/{:<3} {secs:>7.2} | {:>4}/{:<4} {t_secs:>7.2}",
            s.exact,
            s.fields,
            s.labels_ok,
            s.labels,
            t_exact,
            expected.len()
        );
        for n in &s.notes {
            println!("    {n}");
        }
        fields += s.fields;
        ours_exact += s.exact;
        labels_n += s.labels;
        labels_ok += s.labels_ok;
        ours_secs += secs;
        tess_exact += t_exact;
        tess_secs += t_secs;
    }
    let n = labels.images.len() as f64;
    println!();
    println!(
        "ours:              {ours_exact}/{fields} numeric fields exact ({:.2} %), {labels_ok}/{labels_n} row labels ({:.2} %), {:.2} s/image",
        100.0 * ours_exact as f64 / fields as f64,
        100.0 * labels_ok as f64 / labels_n as f64,
        ours_secs / n
    );
    match tesseract {
        Some(_) => println!(
            "plain tesseract:   {tess_exact}/{fields} numeric fields exact ({:.2} %), {:.2} s/image (ratio ours/tesseract time {:.2})",
            100.0 * tess_exact as f64 / fields as f64,
            tess_secs / n,
            ours_secs / tess_secs
        ),
        None => println!("plain tesseract:   not installed (apt-get install tesseract-ocr)"),
    }
}

fn which_tesseract() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| std::path::Path::new(d).join("tesseract"))
        .find(|p| p.is_file())
}
