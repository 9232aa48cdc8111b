//! Debug aid: recognises images and prints each window's reading as JSON, or its error
//! (crops go to $SSDBASE_OCR_DEBUG_DIR).
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        // With SSDBASE_OCR_TIMES set, each stage's start time goes to stderr.
        let started = std::time::Instant::now();
        let mut print_stage = |done: f64, what: &str| {
            eprintln!("{:>7.3} s {:>3.0} % {what}", started.elapsed().as_secs_f64(), done * 100.0)
        };
        let mut job = ocr::Job::default();
        if std::env::var_os("SSDBASE_OCR_TIMES").is_some() {
            job.progress = Some(&mut print_stage);
        }
        match ocr::recognize_job(&bytes, &mut job) {
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
