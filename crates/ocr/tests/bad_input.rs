//! Every kind of bad input gets its own clear error, made from real (generated) files.

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use ocr::{recognize, OcrError};
use std::io::Cursor;

fn encode(img: &RgbImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A valid small PNG whose header claims `w`×`h` pixels (CRC fixed up): what a
/// decompression bomb looks like before any pixel is decoded.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    let mut png = encode(&RgbImage::new(200, 120), ImageFormat::Png);
    // Signature (8) + length (4) + "IHDR" (4), then width and height.
    png[16..20].copy_from_slice(&w.to_be_bytes());
    png[20..24].copy_from_slice(&h.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    png
}

#[test]
fn text_is_not_an_image() {
    let err = recognize(b"CrystalDiskMark 8.0.4 x64\nSEQ1M Q8T1 ...").unwrap_err();
    assert!(matches!(err, OcrError::NotAnImage { .. }), "{err}");
    assert!(matches!(recognize(b"").unwrap_err(), OcrError::NotAnImage { .. }));
}

#[test]
fn other_image_formats_are_named() {
    let tiff = encode(&RgbImage::new(300, 200), ImageFormat::Tiff);
    match recognize(&tiff).unwrap_err() {
        OcrError::UnsupportedFormat { format } => assert_eq!(format, "Tiff"),
        e => panic!("{e}"),
    }
}

#[test]
fn truncated_files_are_corrupt() {
    let mut img = RgbImage::new(400, 300);
    for (x, y, p) in img.enumerate_pixels_mut() {
        *p = Rgb([(x * 7 % 256) as u8, (y * 3 % 256) as u8, ((x ^ y) % 256) as u8]);
    }
    for format in [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Bmp] {
        let bytes = encode(&img, format);
        let cut = &bytes[..bytes.len() / 2];
        let err = recognize(cut).unwrap_err();
        assert!(matches!(err, OcrError::Corrupt { .. }), "{format:?}: {err}");
    }
}

#[test]
fn huge_dimensions_are_refused_before_decoding() {
    // Over the side limit: refused by the decoder's limits.
    let err = recognize(&png_claiming(100_000, 100_000)).unwrap_err();
    assert!(matches!(err, OcrError::TooLarge { .. }), "{err}");
    // Within the side limit but over the pixel budget.
    let err = recognize(&png_claiming(9_000, 9_000)).unwrap_err();
    assert!(matches!(err, OcrError::TooLarge { .. }), "{err}");
    // A BMP header claiming a huge bitmap.
    let mut bmp = encode(&RgbImage::new(200, 120), ImageFormat::Bmp);
    bmp[18..22].copy_from_slice(&60_000i32.to_le_bytes());
    bmp[22..26].copy_from_slice(&60_000i32.to_le_bytes());
    let err = recognize(&bmp).unwrap_err();
    assert!(matches!(err, OcrError::TooLarge { .. } | OcrError::Corrupt { .. }), "{err}");
}

#[test]
fn animations_are_refused() {
    let mut gif = Vec::new();
    {
        let mut enc = GifEncoder::new(&mut gif);
        enc.set_repeat(Repeat::Infinite).unwrap();
        for shade in [0u8, 255] {
            let frame = RgbaImage::from_pixel(320, 200, Rgba([shade, shade, shade, 255]));
            enc.encode_frame(Frame::from_parts(frame, 0, 0, Delay::from_numer_denom_ms(100, 1))).unwrap();
        }
    }
    match recognize(&gif).unwrap_err() {
        OcrError::Animated { format } => assert_eq!(format, "GIF"),
        e => panic!("{e}"),
    }
}

#[test]
fn images_without_a_benchmark_window() {
    // A plain gradient: decodes fine, holds no grid of numbers.
    let img = RgbImage::from_fn(640, 480, |x, y| Rgb([(x / 3) as u8, (y / 2) as u8, 128]));
    let err = recognize(&encode(&img, ImageFormat::Png)).unwrap_err();
    assert!(matches!(err, OcrError::NoBenchmarkWindow { .. }), "{err}");
    // Too small to show a window at all.
    let err = recognize(&encode(&RgbImage::new(40, 30), ImageFormat::Png)).unwrap_err();
    assert!(matches!(err, OcrError::NoBenchmarkWindow { .. }), "{err}");
}

#[test]
fn errors_say_what_is_wrong() {
    let msg = recognize(&png_claiming(100_000, 100_000)).unwrap_err().to_string();
    assert!(msg.starts_with("the image is too large"), "{msg}");
    let msg = recognize(b"hello").unwrap_err().to_string();
    assert!(msg.starts_with("not an image"), "{msg}");
}

/// Inputs the fuzzer (`cargo xtask fuzz ocr_recognize`) found misbehaving, kept so they
/// stay fixed: each must end in a clear error or a result, quickly and in bounded memory.
/// `grid-pitch-near-zero.jpg`: a mangled screenshot whose rows had a near-zero pitch, so
/// the grid asked for billions of interpolated rows (24 GB before the fix).
/// `slow-progressive-jpeg-no-grid-8s.jpg`: a mutated progressive JPEG that takes about 8 s
/// (release build) to end in "no grid of result values", within the server's 20 s job deadline.
#[test]
fn fuzz_findings_end_in_bounded_time_and_memory() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let started = std::time::Instant::now();
        let outcome = recognize(&std::fs::read(&path).unwrap());
        assert!(started.elapsed().as_secs() < 60, "{}: took {:?}", path.display(), started.elapsed());
        if let Err(e) = &outcome {
            assert!(!e.to_string().is_empty(), "{}", path.display());
        }
        let peak_kb: u64 = std::fs::read_to_string("/proc/self/status")
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        assert!(peak_kb < 1024 * 1024, "{}: peak memory {peak_kb} kB", path.display());
        n += 1;
    }
    assert!(n > 0, "no fuzz findings in {}", dir.display());
}
