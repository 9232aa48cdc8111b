//! Debug aid: prints the grids of framed value cells in images (bounds, rows × columns,
//! the window region guessed around each).
fn main() {
    for path in std::env::args().skip(1) {
        let img = image::open(&path).unwrap().into_rgb8();
        let started = std::time::Instant::now();
        let grids = ocr::debug_cell_grids(&img);
        println!(
            "{path} ({} × {}, {:.1} ms)",
            img.width(),
            img.height(),
            started.elapsed().as_secs_f64() * 1e3
        );
        for (b, rows, cols, region) in grids {
            println!("  {rows} × {cols} at {b:?}, window {region:?}");
        }
    }
}
