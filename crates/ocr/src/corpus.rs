//! Scoring against a labelled screenshot corpus (`LABELS.json` in the shared corpus):
//! used by the corpus test and the benchmark, so both count the same way.

use crate::{numbers, OcrError, Recognition};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Deserialize)]
pub struct Labels {
    pub images: Vec<LabelledImage>,
}

#[derive(Debug, Deserialize)]
pub struct LabelledImage {
    pub file: String,
    pub tool: String,
    pub version: Option<String>,
    pub rows: Vec<LabelledRow>,
    #[serde(default)]
    pub settings: serde_json::Value,
    /// The comment row's text as drawn (empty or absent: none).
    #[serde(default)]
    pub comment_text: Option<String>,
    /// Which window of the image this is, left to right, then top to bottom (the real
    /// set labels every window of an image with several; the shared corpus has one each).
    #[serde(default)]
    pub window: usize,
    /// Classes of screenshot the image belongs to (`cdm6`, `locale`, `touching-windows`),
    /// for figures per class.
    #[serde(default)]
    pub kinds: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub struct LabelledRow {
    /// `None` where the row's button is not in the image (a crop of the grid alone).
    pub label: Option<String>,
    pub read_text: Option<String>,
    pub write_text: Option<String>,
    pub mix_text: Option<String>,
}

impl LabelledRow {
    pub fn texts(&self) -> Vec<Option<&str>> {
        let mut v = vec![self.read_text.as_deref(), self.write_text.as_deref()];
        if self.mix_text.is_some() {
            v.push(self.mix_text.as_deref());
        }
        v
    }
}

impl LabelledImage {
    /// Expected value texts in reading order (row by row, left to right).
    pub fn expected_values(&self) -> Vec<&str> {
        self.rows.iter().flat_map(|r| r.texts().into_iter().flatten()).collect()
    }
    /// True when every value is zero: the window must be refused as "no test ran".
    pub fn all_zero(&self) -> bool {
        self.expected_values().iter().all(|t| t.chars().all(|c| c == '0' || c == '.'))
    }
}

/// The shared folder: `$SSDBASE_SHARED`, or the nearest ancestor holding `shared/`.
pub fn shared_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("SSDBASE_SHARED") {
        return Some(PathBuf::from(p));
    }
    let mut dir = std::env::current_dir().ok()?;
    loop {
        let cand = dir.join("shared");
        if cand.join("corpus").is_dir() {
            return Some(cand);
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// The real-screenshot set's labels (committed with the crate: `real/LABELS.json`) and
/// the folder its images were fetched into from their sources: `$SSDBASE_OCR_REAL_DIR`,
/// or `corpus/screenshots-real` in the shared folder. The images are people's posts in
/// public repositories and are not committed; `None` when they are not on this machine.
pub fn real_set() -> Result<Option<(Labels, PathBuf)>, String> {
    let labels = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("real"))?;
    let Some(dir) = std::env::var_os("SSDBASE_OCR_REAL_DIR")
        .map(PathBuf::from)
        .or_else(|| shared_dir().map(|s| s.join("corpus/screenshots-real")))
    else {
        return Ok(None);
    };
    Ok(labels.images.iter().all(|img| dir.join(&img.file).is_file()).then_some((labels, dir)))
}

pub fn load(dir: &Path) -> Result<Labels, String> {
    let text = std::fs::read_to_string(dir.join("LABELS.json")).map_err(|e| format!("LABELS.json: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("LABELS.json: {e}"))
}

/// From this confidence on a value is presented as certain (not flagged for review).
pub const CONFIDENT: f32 = 0.9;

/// One image's score.
#[derive(Debug, Default, Clone)]
pub struct Score {
    pub fields: usize,
    pub exact: usize,
    pub labels: usize,
    pub labels_ok: usize,
    /// Settings-bar texts and the title-bar version that are visible in the image.
    pub settings: usize,
    pub settings_ok: usize,
    /// Whether the window has a comment, and whether it was read exactly; a comment read
    /// where the window has none is `comment_invented`.
    pub comment: bool,
    pub comment_ok: bool,
    pub comment_invented: bool,
    /// Values reported with confidence ≥ `CONFIDENT` and how many of them were wrong:
    /// the reader promises that this second number is zero.
    pub confident: usize,
    pub confident_wrong: usize,
    /// The all-zero verdict matched (an all-zero window refused, others accepted).
    pub verdict_ok: bool,
    pub notes: Vec<String>,
}

/// Scores a recognition (or the error it gave) against the labels, cell by cell.
pub fn score(img: &LabelledImage, outcome: &Result<Recognition, OcrError>) -> Score {
    let mut s = Score::default();
    let rec = crate::window_read(outcome);
    if let (None, Err(e)) = (rec, outcome) {
        s.notes.push(format!("error: {e}"));
    }
    s.verdict_ok = match outcome {
        Err(OcrError::NoTestRan { .. }) => img.all_zero(),
        Ok(_) => !img.all_zero(),
        Err(_) => false,
    };
    if let Some(r) = rec {
        let st = &r.settings;
        let count = st.test_count.map(|c| c.to_string());
        let ours = [
            ("test_count", count.as_deref()),
            ("test_size", st.test_size.as_deref()),
            ("drive", st.drive.as_deref()),
            ("unit", st.unit.as_deref()),
            ("mix_ratio", st.mix_ratio.as_deref()),
        ];
        for (key, got) in ours {
            let Some(want) = img.settings.get(key).and_then(|v| v.as_str()) else { continue };
            // A drive text cut off inside its widget is not scored.
            if want.contains("[truncated") {
                continue;
            }
            s.settings += 1;
            if got == Some(want) {
                s.settings_ok += 1;
            } else {
                s.notes.push(format!("setting {key}: want {want:?}, read {got:?}"));
            }
        }
        let want = img.comment_text.as_deref().filter(|c| !c.is_empty());
        s.comment = want.is_some();
        s.comment_ok = want.is_some() && st.comment.as_deref() == want;
        s.comment_invented = want.is_none() && st.comment.is_some();
        if s.comment != s.comment_ok || s.comment_invented {
            s.notes.push(format!("comment: want {want:?}, read {:?}", st.comment));
        }
        if img.tool == "CrystalDiskMark" {
            if let Some(want) = img.version.as_deref() {
                s.settings += 1;
                if r.settings.version.as_deref() == Some(want) {
                    s.settings_ok += 1;
                } else {
                    s.notes.push(format!("version: want {want:?}, read {:?}", r.settings.version));
                }
            }
        }
    }
    // A labelled row is compared with the reading's row of the same label (the result
    // is keyed by label: a row found above the grid, or a first row cropped away, shifts
    // the index, not the meaning), or, when no row has that label, with the row at the
    // same index if no other label took it. Labels are matched for every row first: a
    // row matched by index before a later row's label was looked for would take that
    // row's reading and score its right values as wrong.
    let mut used = vec![false; rec.map_or(0, |r| r.rows.len())];
    let same = |a: Option<&str>, b: &str| a.map(|l| l.replace('µ', "μ")).as_deref() == Some(b);
    let mut matched: Vec<Option<usize>> = vec![None; img.rows.len()];
    for (ri, row) in img.rows.iter().enumerate() {
        matched[ri] = rec.and_then(|r| {
            let want = row.label.as_deref()?;
            (0..r.rows.len()).find(|&k| !used[k] && same(r.rows[k].label.as_deref(), want))
        });
        if let Some(k) = matched[ri] {
            used[k] = true;
        }
    }
    for (ri, at) in matched.iter_mut().enumerate() {
        if at.is_none() && ri < used.len() && !used[ri] {
            used[ri] = true;
            *at = Some(ri);
        }
    }
    for (ri, row) in img.rows.iter().enumerate() {
        let at = matched[ri];
        let got = at.and_then(|k| rec.and_then(|r| r.rows.get(k)));
        let got_label = got.and_then(|g| g.label.as_deref()).map(|l| l.replace('µ', "μ"));
        if row.label.is_none() {
            // No button drawn: nothing to score.
        } else if got_label == row.label {
            s.labels += 1;
            s.labels_ok += 1;
        } else {
            s.labels += 1;
            s.notes.push(format!(
                "row {}: label {:?}, read {:?} (raw {:?})",
                ri + 1,
                row.label,
                got_label,
                got.map(|g| g.label_raw.as_str())
            ));
        }
        for (ci, want) in row.texts().into_iter().enumerate() {
            let Some(want) = want else { continue };
            s.fields += 1;
            let cell = got.and_then(|g| g.cells.get(ci));
            let read = cell.and_then(|c| c.text.as_deref());
            if cell.is_some_and(|c| c.text.is_some() && c.confidence >= CONFIDENT) {
                s.confident += 1;
                if !read.is_some_and(|r| numbers::same_as_drawn(r, want)) {
                    s.confident_wrong += 1;
                    s.notes.push(format!(
                        "CONFIDENTLY WRONG row {} col {}: want {want}, read {read:?}",
                        ri + 1,
                        ci + 1
                    ));
                }
            }
            if read.is_some_and(|r| numbers::same_as_drawn(r, want)) {
                s.exact += 1;
            } else {
                s.notes.push(format!("row {} col {}: want {want}, read {read:?}", ri + 1, ci + 1));
            }
        }
    }
    s
}

/// Numbers in free OCR text that look like benchmark values (decimals, thousands
/// separators or seven-digit IOPS), in reading order.
pub fn numbers_in_text(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '|')
        .map(|t| t.trim_matches(|c: char| !c.is_ascii_digit()))
        .filter(|t| crate::numbers::plausible(t) && (t.contains('.') || t.contains(',') || t.len() >= 6))
        .filter(|t| t.matches('.').count() <= 1)
        .map(str::to_string)
        .collect()
}

/// How many expected values appear, in order, among the found ones (longest common
/// subsequence): a fair count for tools that give no cell structure.
pub fn exact_in_order(expected: &[&str], found: &[String]) -> usize {
    let mut dp = vec![vec![0usize; found.len() + 1]; expected.len() + 1];
    for i in 1..=expected.len() {
        for j in 1..=found.len() {
            dp[i][j] = if expected[i - 1] == found[j - 1] {
                dp[i - 1][j - 1] + 1
            } else {
                dp[i - 1][j].max(dp[i][j - 1])
            };
        }
    }
    dp[expected.len()][found.len()]
}
