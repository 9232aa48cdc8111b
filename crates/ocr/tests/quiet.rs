//! Leptonica's complaints never reach the terminal once the reader has run: each case
//! runs in a child process of this test binary, whose stderr the parent reads (Leptonica
//! writes to file descriptor 2 itself, past Rust's capture).

use std::process::Command;

#[link(name = "lept")]
extern "C" {
    /// Prints "Error in pixScanForForeground: pixs not defined" when `pixs` is null.
    fn pixScanForForeground(pixs: *mut u8, box_: *mut u8, scanflag: i32, ploc: *mut i32) -> i32;
}

/// Makes Leptonica complain once.
fn provoke_leptonica() {
    let mut loc = 0;
    // SAFETY: a null image is Leptonica's own documented error case; nothing is read.
    let failed = unsafe { pixScanForForeground(std::ptr::null_mut(), std::ptr::null_mut(), 0, &mut loc) };
    assert_ne!(failed, 0, "Leptonica accepted a null image");
}

fn stderr_of_child(case: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env("OCR_QUIET_CASE", case)
        .output()
        .unwrap();
    assert!(out.status.success(), "{case}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn leptonica_messages_stay_off_the_terminal_once_the_reader_has_run() {
    // Before the reader ran, Leptonica prints to stderr (what the test guards against).
    assert!(stderr_of_child("before").contains("Error in pixScanForForeground"));
    // After reading a real screenshot, it does not.
    let after = stderr_of_child("after");
    assert!(!after.contains("Error in"), "{after}");
}

#[test]
fn child() {
    match std::env::var("OCR_QUIET_CASE").as_deref() {
        Ok("before") => provoke_leptonica(),
        Ok("after") => {
            let shot = ocr::corpus::shared_dir().expect("the shared corpus (SSDBASE_SHARED)").join(
                "corpus/screenshots/02__ame0011_blog-docusaurus__CrystalDiskMark_20230918123836_MX500.png",
            );
            let bytes = std::fs::read(&shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
            ocr::recognize(&bytes).expect("the corpus screenshot reads");
            provoke_leptonica();
        }
        _ => {}
    }
}
