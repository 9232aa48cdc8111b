//! Debug aid: recognises images and prints each window's reading as JSON, or its error
//! (crops go to $SSDBASE_OCR_DEBUG_DIR).
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        match ocr::recognize_all(&bytes) {
            Ok(readings) => {
                for (i, reading) in readings.iter().enumerate() {
                    match reading {
                        Ok(r) => {
                            println!("{path} window {}: {}", i + 1, serde_json::to_string_pretty(r).unwrap())
                        }
                        Err(e) => println!("{path} window {}: {e}", i + 1),
                    }
                }
            }
            Err(e) => println!("{path}: {e}"),
        }
    }
}
