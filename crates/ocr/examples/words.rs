//! Debug aid: prints the page pass words of an image.
fn main() {
    let path = std::env::args().nth(1).expect("IMAGE");
    let mut img = image::open(&path).unwrap().into_rgb8();
    // `words IMAGE crop X Y W H`: the words of a part of the image.
    let rest: Vec<u32> = std::env::args().skip(3).filter_map(|a| a.parse().ok()).collect();
    if std::env::args().nth(2).as_deref() == Some("crop") && rest.len() == 4 {
        img = image::imageops::crop_imm(&img, rest[0], rest[1], rest[2], rest[3]).to_image();
    }
    let words = ocr::debug_page_words(&img).unwrap();
    if std::env::args().any(|a| a == "grid") {
        println!("{:#?}", ocr::debug_grid(&words));
        return;
    }
    for w in words {
        println!(
            "{:>5} {:>5} {:>4} {:>4} {:>5.1} {:?} {:?}",
            w.left, w.top, w.width, w.height, w.conf, w.line, w.text
        );
    }
}
