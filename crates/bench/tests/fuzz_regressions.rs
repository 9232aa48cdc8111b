//! Every input a fuzzer ever crashed or hung a parser with, kept fixed: each file in
//! `tests/fuzz_regressions/` goes through auto-detection and through every parser.

use bench::{parse::check_well_formed, parse_bytes, Format};
use std::path::Path;

#[test]
fn fuzz_crashes_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        for format in std::iter::once(None).chain(Format::ALL.map(Some)) {
            if let Ok(results) = parse_bytes(&bytes, format) {
                check_well_formed(&results).unwrap_or_else(|e| panic!("{}: {format:?}: {e}", path.display()));
            }
        }
        count += 1;
    }
    assert!(count > 0, "no regression inputs found in {}", dir.display());
}
