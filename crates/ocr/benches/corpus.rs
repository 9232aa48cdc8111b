//! `cargo xtask bench-ocr [KIND...]` (or `cargo bench -p ocr --bench corpus -- [KIND...]`):
//! the shared corpus's screenshots as they are and put through what sharing does to them
//! (`ocr::degrade`: desktop captures, two windows side by side, JPEG, rescaling, display
//! scaling, blur, crops). Per kind: values exact against LABELS.json, values reported
//! confidently (≥ 0.9) and how many of those were wrong, images refused, settings read,
//! seconds per image on one thread, also as a ratio to a fixed Tesseract workload timed
//! around each kind (the machine's speed drifts during a run). Originals are also
//! compared with plain `tesseract IMAGE -` measured in the same run.
//!
//! Plain Tesseract gives text, not cells, so its numbers are taken in reading order and
//! counted exact when they match the labelled values in order (longest common
//! subsequence); ours are counted cell by cell, which is stricter.

use ocr::corpus::{self, exact_in_order, numbers_in_text, LabelledImage, Score};
use ocr::degrade::{self, Kind, Rng, ALL_KINDS};
use std::process::Command;
use std::time::Instant;

#[derive(Default)]
struct Totals {
    images: usize,
    fields: usize,
    exact: usize,
    confident: usize,
    confident_wrong: usize,
    failed: usize,
    settings: usize,
    settings_ok: usize,
    /// Windows with a comment in their box, those whose comment was read exactly, and
    /// windows given a comment their box does not hold.
    comments: usize,
    comments_ok: usize,
    comments_invented: usize,
    secs: f64,
    /// This thread's CPU time: the machine is shared, and wall time under load says
    /// more about the neighbours than about the reader.
    cpu_secs: f64,
    /// The reference workload's seconds around this kind (`reference_secs`).
    ref_secs: f64,
    /// Tesseract's page passes and text reads (`ocr::engine::calls`): the cost in the
    /// reader's own units, which the machine's load does not change.
    page_passes: u64,
    text_reads: u64,
}

impl Totals {
    fn add(&mut self, s: &Score) {
        self.fields += s.fields;
        self.exact += s.exact;
        self.confident += s.confident;
        self.confident_wrong += s.confident_wrong;
        self.settings += s.settings;
        self.settings_ok += s.settings_ok;
        self.comments += usize::from(s.comment);
        self.comments_ok += usize::from(s.comment_ok);
        self.comments_invented += usize::from(s.comment_invented);
        self.failed += usize::from(!s.verdict_ok);
    }

    /// Adds another kind's totals (the run's own line); `ref_secs` is weighted by images,
    /// so that `secs / ref_secs` is the run's mean ratio once divided by the images.
    fn merge(&mut self, t: &Totals) {
        self.images += t.images;
        self.fields += t.fields;
        self.exact += t.exact;
        self.confident += t.confident;
        self.confident_wrong += t.confident_wrong;
        self.failed += t.failed;
        self.settings += t.settings;
        self.settings_ok += t.settings_ok;
        self.comments += t.comments;
        self.comments_ok += t.comments_ok;
        self.comments_invented += t.comments_invented;
        self.secs += t.secs;
        self.cpu_secs += t.cpu_secs;
        self.page_passes += t.page_passes;
        self.text_reads += t.text_reads;
        self.ref_secs += t.ref_secs * t.images as f64;
    }

    /// Adds the Tesseract calls made on this thread since `start`.
    fn count_calls(&mut self, start: ocr::engine::Calls) {
        let now = ocr::engine::calls();
        self.page_passes += now.page_passes - start.page_passes;
        self.text_reads += now.text_reads - start.text_reads;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo test --all-targets` runs harness-less benches too, without `--bench`:
    // the measurement only makes sense in an optimised build run on purpose.
    if !args.iter().any(|a| a == "--bench") {
        println!("corpus benchmark: run it with `cargo xtask bench-ocr`");
        return;
    }
    // `real` names the real-screenshot set, `real-jpeg` the same set saved again as a
    // JPEG (as a forum or a blog re-encodes an upload); without any kind named, every
    // kind runs.
    let real = args.iter().any(|a| a == "real");
    let real_jpeg = args.iter().any(|a| a == "real-jpeg");
    let kinds: Vec<Kind> = {
        let named: Vec<Kind> = args.iter().filter_map(|a| Kind::from_name(a)).collect();
        if named.is_empty() && !real && !real_jpeg {
            ALL_KINDS.to_vec()
        } else {
            named
        }
    };
    let every = kinds.len() == ALL_KINDS.len();
    let (real, real_jpeg) = (real || every, real_jpeg || every);
    let verbose = std::env::var_os("SSDBASE_OCR_BENCH_VERBOSE").is_some();
    let shared = corpus::shared_dir().expect("shared corpus not found: set SSDBASE_SHARED");
    let dir = shared.join("corpus/screenshots");
    let labels = corpus::load(&dir).expect("LABELS.json");
    let files: Vec<Vec<u8>> =
        labels.images.iter().map(|img| std::fs::read(dir.join(&img.file)).expect("screenshot")).collect();
    // Decoded as the reader decodes (transparency on white): KDiskMark's shadows are
    // transparent black, which a plain conversion would paint into the window.
    let originals: Vec<image::RgbImage> =
        files.iter().map(|f| degrade::decode_screenshot(f).expect("corpus screenshot decodes")).collect();
    // Warm the engine outside the timing (the model loads once per process).
    let _ = ocr::recognize(&std::fs::read(dir.join(&labels.images[0].file)).expect("screenshot"));

    // The machine's speed drifts during a run (a shared VM: by half over minutes), so
    // each kind is also given against a fixed Tesseract workload timed before and after it.
    let reference = originals[0].clone();
    let mut refs = vec![reference_secs(&reference)];
    let mut table: Vec<(Kind, Totals)> = Vec::new();
    for &kind in &kinds {
        println!("== {}", kind.name());
        let mut t = Totals::default();
        for (i, img) in labels.images.iter().enumerate() {
            // Two windows: this one and the next window that shows results, side by side.
            let partner = matches!(kind, Kind::TwoWindows | Kind::Touching).then(|| {
                let j = (1..labels.images.len())
                    .map(|d| (i + d) % labels.images.len())
                    .find(|&j| !labels.images[j].all_zero())
                    .expect("the corpus has windows with results");
                (j, &labels.images[j])
            });
            let mut rng = Rng::for_image(&img.file, kind);
            let made = if kind == Kind::Original {
                degrade::Degraded {
                    bytes: files[i].clone(),
                    recipe: "original".into(),
                    ext: "",
                    windows: Vec::new(),
                }
            } else {
                degrade::degrade(&originals[i], partner.map(|(j, _)| &originals[j]), kind, &mut rng)
            };
            let start = Instant::now();
            let cpu_start = thread_cpu_secs();
            let calls_start = ocr::engine::calls();
            let outcome = ocr::recognize_all(&made.bytes);
            let secs = start.elapsed().as_secs_f64();
            t.secs += secs;
            t.cpu_secs += thread_cpu_secs() - cpu_start;
            t.count_calls(calls_start);
            t.images += 1;
            let expected: Vec<&LabelledImage> = std::iter::once(img).chain(partner.map(|(_, p)| p)).collect();
            let scores = score_windows(&expected, &made.windows, outcome);
            for (want, s) in expected.iter().zip(&scores) {
                t.add(s);
                let short: String = want.file.chars().take(44).collect();
                let bad = s.exact < s.fields
                    || !s.verdict_ok
                    || s.confident_wrong > 0
                    || s.comment != s.comment_ok
                    || s.comment_invented;
                if verbose || bad {
                    println!(
                        "{short:<44} {:>3}/{:<3} confident-wrong {} {:.2}s  [{}]",
                        s.exact, s.fields, s.confident_wrong, secs, made.recipe
                    );
                    for n in &s.notes {
                        println!("    {n}");
                    }
                }
            }
        }
        refs.push(reference_secs(&reference));
        let n = refs.len();
        t.ref_secs = (refs[n - 2] + refs[n - 1]) / 2.0;
        table.push((kind, t));
    }
    let mut real_table =
        if real { real_screenshots(&reference, &mut refs, None, verbose) } else { Vec::new() };
    if real_jpeg {
        real_table.extend(real_screenshots(&reference, &mut refs, Some(REAL_JPEG_QUALITY), verbose));
    }
    let fastest = refs.iter().copied().fold(f64::INFINITY, f64::min);

    println!();
    println!(
        "{:<24} {:>6} {:>12} {:>8} {:>16} {:>9} {:>9} {:>11} {:>8} {:>8} {:>6} {:>9} {:>7} {:>7}",
        "kind",
        "images",
        "values exact",
        "%",
        "confident wrong",
        "refused",
        "settings",
        "comments",
        "s/image",
        "cpu s",
        "× ref",
        "s fastest",
        "pages",
        "reads"
    );
    let mut all = Totals::default();
    for (kind, t) in &table {
        print_line(kind.name(), t, fastest);
        all.merge(t);
    }
    all.ref_secs /= all.images.max(1) as f64;
    if !table.is_empty() {
        print_line("all degraded", &all, fastest);
    }
    for (name, t) in &real_table {
        print_line(name, t, fastest);
    }
    println!(
        "× ref: s/image over one reference page pass ({} × {} px, {:.0}–{:.0} ms in this run, timed \
         before and after each kind); s fastest: s/image at the run's fastest reference speed; \
         pages, reads: Tesseract page passes and text reads per image; comments: read exactly / \
         windows with one, +invented where the box is empty",
        reference.width(),
        reference.height(),
        1000.0 * fastest,
        1000.0 * refs.iter().copied().fold(0.0, f64::max)
    );

    if kinds.contains(&Kind::Original) {
        plain_tesseract(&dir, &labels.images);
    }
}

/// The real-screenshot set (`ocr::corpus::real_set`): every image read once, each
/// labelled window scored against the reading that matches it best (each reading used
/// once). Returns rows for the whole set, for images of one window, of two and of more
/// (the time targets differ for them), and for each class of screenshot.
/// The quality `real-jpeg` saves the real set at: a forum's or a blog's re-encoding.
const REAL_JPEG_QUALITY: u8 = 75;

fn real_screenshots(
    reference: &image::RgbImage,
    refs: &mut Vec<f64>,
    jpeg: Option<u8>,
    verbose: bool,
) -> Vec<(String, Totals)> {
    let set = match jpeg {
        None => "real".to_string(),
        Some(q) => format!("real as JPEG {q}"),
    };
    println!("== {set}");
    let Some((labels, dir)) = corpus::real_set().expect("crates/ocr/real/LABELS.json") else {
        println!(
            "real screenshots: not on this machine (fetch the images listed in crates/ocr/real/LABELS.json \
             from their sources into a folder and set SSDBASE_OCR_REAL_DIR)"
        );
        return Vec::new();
    };
    let mut files: Vec<&str> = labels.images.iter().map(|i| i.file.as_str()).collect();
    files.dedup();
    let mut rows: std::collections::BTreeMap<String, Totals> = std::collections::BTreeMap::new();
    for file in files {
        let windows: Vec<&LabelledImage> = labels.images.iter().filter(|i| i.file == file).collect();
        let mut bytes = std::fs::read(dir.join(file)).expect("real screenshot");
        if let Some(q) = jpeg {
            let img = degrade::decode_screenshot(&bytes).expect("real screenshot decodes");
            bytes = degrade::encode_jpeg(&img, q);
        }
        let start = Instant::now();
        let cpu_start = thread_cpu_secs();
        let calls_start = ocr::engine::calls();
        let outcome = ocr::recognize_all(&bytes);
        let (secs, cpu) = (start.elapsed().as_secs_f64(), thread_cpu_secs() - cpu_start);
        let scores = best_matches(&windows, outcome);
        // The time targets are for one window and for two.
        let many = match windows.len() {
            1 => format!("{set}, 1 window"),
            2 => format!("{set}, 2 windows"),
            _ => format!("{set}, 3+ windows"),
        };
        let mut classes: Vec<String> = vec![set.clone(), many.clone()];
        // The classes once, for the set as posted.
        if jpeg.is_none() {
            for w in &windows {
                classes.extend(w.kinds.iter().map(|k| format!("{set}: {k}")));
            }
        }
        classes.sort();
        classes.dedup();
        for class in classes {
            let t = rows.entry(class.clone()).or_default();
            t.images += 1;
            t.secs += secs;
            t.cpu_secs += cpu;
            t.count_calls(calls_start);
            for (w, s) in windows.iter().zip(&scores) {
                if class == set || class == many || w.kinds.iter().any(|k| class == format!("{set}: {k}")) {
                    t.add(s);
                }
            }
        }
        for (w, s) in windows.iter().zip(&scores) {
            let comment_wrong = s.comment != s.comment_ok || s.comment_invented;
            if verbose || s.exact < s.fields || !s.verdict_ok || s.confident_wrong > 0 || comment_wrong {
                let short: String = file.chars().take(44).collect();
                let short = if jpeg.is_some() { format!("{short} (as JPEG)") } else { short };
                println!(
                    "{short:<44} w{} {:>3}/{:<3} confident-wrong {} {:.2}s  [{}]",
                    w.window,
                    s.exact,
                    s.fields,
                    s.confident_wrong,
                    secs,
                    w.kinds.join(" ")
                );
                for n in &s.notes {
                    println!("    {n}");
                }
            }
        }
    }
    refs.push(reference_secs(reference));
    let n = refs.len();
    let ref_secs = (refs[n - 2] + refs[n - 1]) / 2.0;
    // The whole set first, then one window against several, then the classes.
    let mut out: Vec<(String, Totals)> = rows.into_iter().collect();
    out.sort_by_key(|(name, _)| {
        (!name.starts_with(&format!("{set},")) && *name != set, *name != set, name.clone())
    });
    for (_, t) in &mut out {
        t.ref_secs = ref_secs;
    }
    out
}

/// Each labelled window scored against a reading of its own: the assignment of readings
/// to windows that reads the most values exactly (then the most labels), every one tried
/// (an image shows at most a few windows). A window left without a reading scores as
/// refused.
fn best_matches(
    windows: &[&LabelledImage],
    outcome: Result<Vec<Result<ocr::Recognition, ocr::OcrError>>, ocr::OcrError>,
) -> Vec<Score> {
    let refused = |detail: String| Err(ocr::OcrError::NoBenchmarkWindow { detail });
    let readings = match outcome {
        Ok(r) => r,
        Err(e) => return windows.iter().map(|w| corpus::score(w, &refused(e.to_string()))).collect(),
    };
    let none =
        |w: &LabelledImage| corpus::score(w, &refused(format!("no reading left ({} read)", readings.len())));
    // scores[w][k]: window w read by reading k; the last column is no reading.
    let scores: Vec<Vec<Score>> = windows
        .iter()
        .map(|w| readings.iter().map(|r| corpus::score(w, r)).chain([none(w)]).collect())
        .collect();
    fn search(
        scores: &[Vec<Score>],
        w: usize,
        used: &mut Vec<bool>,
        pick: &mut Vec<usize>,
        best: &mut (usize, usize, Vec<usize>),
    ) {
        if w == scores.len() {
            let exact = pick.iter().enumerate().map(|(i, &k)| scores[i][k].exact).sum();
            let labels = pick.iter().enumerate().map(|(i, &k)| scores[i][k].labels_ok).sum();
            if (exact, labels) > (best.0, best.1) || best.2.is_empty() {
                *best = (exact, labels, pick.clone());
            }
            return;
        }
        let none = scores[w].len() - 1;
        for k in 0..=none {
            if k < none && used[k] {
                continue;
            }
            if k < none {
                used[k] = true;
            }
            pick.push(k);
            search(scores, w + 1, used, pick, best);
            pick.pop();
            if k < none {
                used[k] = false;
            }
        }
    }
    let mut best = (0, 0, Vec::new());
    search(&scores, 0, &mut vec![false; readings.len()], &mut Vec::new(), &mut best);
    let mut scores = scores;
    best.2.iter().enumerate().map(|(w, &k)| std::mem::take(&mut scores[w][k])).collect()
}

fn print_line(name: &str, t: &Totals, fastest: f64) {
    let per_image = t.secs / t.images.max(1) as f64;
    let ratio = per_image / t.ref_secs.max(1e-9);
    println!(
        "{name:<24} {:>6} {:>5}/{:<6} {:>7.2}% {:>6}/{:<9} {:>9} {:>4}/{:<4} {:>11} {:>8.2} {:>8.2} {:>6.2} {:>9.2} {:>7.1} {:>7.0}",
        t.images,
        t.exact,
        t.fields,
        100.0 * t.exact as f64 / t.fields.max(1) as f64,
        t.confident_wrong,
        t.confident,
        t.failed,
        t.settings_ok,
        t.settings,
        format!("{}/{} +{}", t.comments_ok, t.comments, t.comments_invented),
        per_image,
        t.cpu_secs / t.images.max(1) as f64,
        ratio,
        ratio * fastest,
        t.page_passes as f64 / t.images.max(1) as f64,
        t.text_reads as f64 / t.images.max(1) as f64
    );
}

/// Seconds of the reference workload: the median of five page passes over one original
/// screenshot, the reader's costliest step, on this thread.
fn reference_secs(img: &image::RgbImage) -> f64 {
    let mut secs: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            ocr::engine::page_words(img).expect("reference page pass");
            t.elapsed().as_secs_f64()
        })
        .collect();
    secs.sort_by(f64::total_cmp);
    secs[2]
}

/// CPU seconds this thread has used (Linux: utime + stime of /proc/thread-self/stat, in
/// clock ticks of 10 ms), 0 where that file does not exist.
fn thread_cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else { return 0.0 };
    // Fields after the command name (which may hold spaces) start after the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, r)| r).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// Scores each labelled window against its reading: the reading whose grid lies in the
/// window where it was placed (desktop kinds), or the only/first one. A window without a
/// reading scores as refused.
fn score_windows(
    expected: &[&LabelledImage],
    placed: &[ocr::Rect],
    outcome: Result<Vec<Result<ocr::Recognition, ocr::OcrError>>, ocr::OcrError>,
) -> Vec<Score> {
    let refused = |detail: String| ocr::OcrError::NoBenchmarkWindow { detail };
    let mut readings = match outcome {
        Ok(r) => r,
        Err(e) => {
            let msg = e.to_string();
            return expected.iter().map(|img| corpus::score(img, &Err(refused(msg.clone())))).collect();
        }
    };
    let grid_of = |r: &Result<ocr::Recognition, ocr::OcrError>| ocr::window_read(r).map(|r| r.layout.grid);
    let shown = readings.len();
    expected
        .iter()
        .enumerate()
        .map(|(i, img)| {
            let at = match placed.get(i) {
                Some(w) => readings.iter().position(|r| {
                    grid_of(r).is_some_and(|g| {
                        let (cx, cy) = ((g.x0 + g.x1) / 2, (g.y0 + g.y1) / 2);
                        cx >= w.x0 && cx < w.x1 && cy >= w.y0 && cy < w.y1
                    })
                }),
                None => (!readings.is_empty()).then_some(0),
            };
            match at {
                Some(k) => corpus::score(img, &readings.remove(k)),
                None => corpus::score(
                    img,
                    &Err(refused(format!("no reading in this window ({shown} window(s) read)"))),
                ),
            }
        })
        .collect()
}

fn plain_tesseract(dir: &std::path::Path, images: &[LabelledImage]) {
    let Some(bin) = which_tesseract() else {
        println!("plain tesseract:   not installed (apt-get install tesseract-ocr)");
        return;
    };
    let (mut fields, mut exact, mut secs) = (0usize, 0usize, 0f64);
    for img in images {
        let expected = img.expected_values();
        let t = Instant::now();
        let out = Command::new(&bin)
            .arg(dir.join(&img.file))
            .arg("-")
            .env("OMP_THREAD_LIMIT", "1")
            .output()
            .expect("tesseract runs");
        secs += t.elapsed().as_secs_f64();
        exact += exact_in_order(&expected, &numbers_in_text(&String::from_utf8_lossy(&out.stdout)));
        fields += expected.len();
    }
    println!(
        "plain tesseract on the originals: {exact}/{fields} values exact ({:.2} %), {:.2} s/image",
        100.0 * exact as f64 / fields.max(1) as f64,
        secs / images.len().max(1) as f64
    );
}

fn which_tesseract() -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| std::path::Path::new(d).join("tesseract"))
        .find(|p| p.is_file())
}
