//! Debug aid: writes an image (JPEG, BMP, WebP, ...) out as PNG, for viewers that show
//! PNG only: `topng IN OUT`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let img = image::open(&a[1]).unwrap().to_rgb8();
    img.save(&a[2]).unwrap();
}
