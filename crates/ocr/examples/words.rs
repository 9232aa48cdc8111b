//! Debug aid: prints the page pass words of an image.
fn main() {
    let path = std::env::args().nth(1).expect("IMAGE");
    let img = image::open(&path).unwrap().into_rgb8();
    for w in ocr::debug_page_words(&img).unwrap() {
        println!("{:>5} {:>5} {:>4} {:>4} {:>5.1} {:?} {:?}", w.left, w.top, w.width, w.height, w.conf, w.line, w.text);
    }
}
