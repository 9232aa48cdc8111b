//! What the corpus tests share.

use std::path::PathBuf;

/// `shared/corpus/real`, from `SSDBASE_SHARED` or the nearest ancestor of this crate that
/// has it (the main checkout and its worktrees both work).
pub fn corpus() -> PathBuf {
    if let Ok(shared) = std::env::var("SSDBASE_SHARED") {
        return PathBuf::from(shared).join("corpus/real");
    }
    let mut dir = Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    while let Some(d) = dir {
        let candidate = d.join("shared/corpus/real");
        if candidate.is_dir() {
            return candidate;
        }
        dir = d.parent().map(PathBuf::from);
    }
    panic!("shared/corpus/real not found above {}; set SSDBASE_SHARED", env!("CARGO_MANIFEST_DIR"));
}
