//! Text in PNG embeds (`render::to_rgb`): glyphs sit where their advances put them.

use charts::render::to_rgb;
use charts::Theme;
use plotters::prelude::*;

/// The column ranges (first, last) of `rgb` (`width` pixels a row) that hold any pixel
/// other than `background`.
fn ink_runs(rgb: &[u8], width: usize, background: [u8; 3]) -> Vec<(usize, usize)> {
    let rows = rgb.len() / (width * 3);
    let inked: Vec<bool> =
        (0..width).map(|x| (0..rows).any(|y| rgb[(y * width + x) * 3..][..3] != background)).collect();
    let mut runs = Vec::new();
    let mut start = None;
    for (x, &ink) in inked.iter().chain([&false]).enumerate() {
        match (ink, start) {
            (true, None) => start = Some(x),
            (false, Some(s)) => {
                runs.push((s, x - 1));
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// `I` is a symmetric stem in the middle of its advance, and `W` fills its advance: in
/// `WIW` the white on either side of the `I` must be the same. plotters 0.3.7's own
/// bitmap text drew each glyph at the pen position without its left side bearing, so
/// the `I` touched the first `W` and all its space fell after it (the embeds read
/// "1 28 GB", "ICH1 0R").
#[test]
fn glyphs_keep_their_side_bearings_in_pngs() {
    let theme = Theme::LIGHT;
    let bg = [theme.background.0, theme.background.1, theme.background.2];
    // Large enough that anti-aliased edges do not close the gaps.
    for size in [28.0, 40.0] {
        let width = 200u32;
        let rgb = to_rgb(width, 40, &theme, "", |area| {
            area.fill(&theme.background).map_err(|e| e.to_string())?;
            let style = FontDesc::new(FontFamily::SansSerif, size, FontStyle::Normal).color(&BLACK);
            area.draw(&Text::new("WIW", (20, 8), style)).map_err(|e| e.to_string())
        })
        .expect("renders");
        // The chart area only: the caption strip below is empty but for the background.
        let runs = ink_runs(&rgb[..(width * 40 * 3) as usize], width as usize, bg);
        assert_eq!(runs.len(), 3, "three separate glyphs at {size} px: {runs:?}");
        let before = runs[1].0 - runs[0].1;
        let after = runs[2].0 - runs[1].1;
        assert!(before.abs_diff(after) <= 1, "the I is centred at {size} px: {runs:?}");
    }
}
