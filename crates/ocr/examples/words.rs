//! Debug aid: prints the page pass words of an image.
fn main() {
    let path = std::env::args().nth(1).expect("IMAGE");
    let img = image::open(&path).unwrap().into_rgb8();
    let words = ocr::debug_page_words(&img).unwrap();
    if std::env::args().nth(2).as_deref() == Some("grid") {
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
