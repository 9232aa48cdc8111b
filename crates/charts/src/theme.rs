//! Colours of the light and dark themes (the site picks one from `prefers-color-scheme`).

use plotters::style::RGBColor;

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub foreground: RGBColor,
    /// Secondary text: axis labels, sample counts.
    pub muted: RGBColor,
    pub grid: RGBColor,
    /// One colour per series (drive, platform), reused cyclically.
    pub series: [RGBColor; 6],
}

impl Theme {
    /// Series colours are the Okabe–Ito palette, distinguishable with colour blindness.
    pub const LIGHT: Theme = Theme {
        background: RGBColor(255, 255, 255),
        foreground: RGBColor(28, 28, 30),
        muted: RGBColor(96, 96, 104),
        grid: RGBColor(226, 226, 232),
        series: [
            RGBColor(0, 114, 178),
            RGBColor(213, 94, 0),
            RGBColor(0, 158, 115),
            RGBColor(204, 121, 167),
            RGBColor(230, 159, 0),
            RGBColor(86, 180, 233),
        ],
    };

    pub const DARK: Theme = Theme {
        background: RGBColor(24, 24, 27),
        foreground: RGBColor(236, 236, 240),
        muted: RGBColor(165, 165, 175),
        grid: RGBColor(58, 58, 66),
        series: [
            RGBColor(86, 180, 233),
            RGBColor(230, 159, 0),
            RGBColor(0, 190, 140),
            RGBColor(224, 141, 187),
            RGBColor(240, 228, 66),
            RGBColor(120, 150, 255),
        ],
    };

    pub fn series_color(&self, i: usize) -> RGBColor {
        self.series[i % self.series.len()]
    }
}
