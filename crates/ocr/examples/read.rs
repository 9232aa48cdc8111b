//! Debug aid: recognises images and prints the JSON (crops go to $SSDBASE_OCR_DEBUG_DIR).
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        match ocr::recognize(&bytes) {
            Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap()),
            Err(e) => println!("{path}: {e}"),
        }
    }
}
