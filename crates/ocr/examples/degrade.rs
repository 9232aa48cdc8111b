//! Writes the degraded screenshot set (`ocr::degrade`) to a folder, to look at what
//! `cargo xtask bench-ocr` reads: `cargo run -p ocr --example degrade -- OUT_DIR [KIND...]`.
//! Two-window images pair each screenshot with the next one that shows results.
use ocr::corpus;
use ocr::degrade::{self, Kind, Rng, ALL_KINDS};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().expect("usage: degrade OUT_DIR [KIND...]"));
    let named: Vec<Kind> = args.filter_map(|a| Kind::from_name(&a)).collect();
    let kinds = if named.is_empty() { ALL_KINDS.to_vec() } else { named };
    let dir = corpus::shared_dir().expect("shared corpus (set SSDBASE_SHARED)").join("corpus/screenshots");
    let labels = corpus::load(&dir).expect("LABELS.json");
    let originals: Vec<image::RgbImage> = labels
        .images
        .iter()
        .map(|img| {
            degrade::decode_screenshot(&std::fs::read(dir.join(&img.file)).expect("read")).expect("decode")
        })
        .collect();
    for kind in kinds {
        let sub = out.join(kind.name());
        std::fs::create_dir_all(&sub).expect("create output folder");
        for (i, img) in labels.images.iter().enumerate() {
            let partner = matches!(kind, Kind::TwoWindows | Kind::Touching).then(|| {
                (1..labels.images.len())
                    .map(|d| (i + d) % labels.images.len())
                    .find(|&j| !labels.images[j].all_zero())
                    .expect("windows with results")
            });
            let made = degrade::degrade(
                &originals[i],
                partner.map(|j| &originals[j]),
                kind,
                &mut Rng::for_image(&img.file, kind),
            );
            let stem = img.file.rsplit_once('.').map_or(img.file.as_str(), |(s, _)| s);
            std::fs::write(sub.join(format!("{stem}.{}", made.ext)), &made.bytes).expect("write");
            println!("{}/{stem}.{}: {}", kind.name(), made.ext, made.recipe);
        }
    }
}
