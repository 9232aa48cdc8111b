//! Steady state as the SNIA Solid State Storage Performance Test Specification (PTS)
//! 2.0.2 defines it (section 2.1, "Steady State"): a measurement window of five
//! consecutive rounds in which
//! * data excursion: the largest and the smallest value differ by no more than 20 % of
//!   the window's average, and
//! * slope excursion: the least-squares line through the window rises or falls by no
//!   more than 10 % of that average across the window.
//!
//! A round here is one value of a series: a round of the sustained test, or one
//! interval of a sampled run. A series that never meets both is "not reached", with its
//! last window's figures: an unstable run is never called steady.

use serde::{Deserialize, Serialize};

/// Rounds in the measurement window.
pub const WINDOW: usize = 5;
/// Largest minus smallest value, as a share of the window's average.
pub const MAX_DATA_EXCURSION: f64 = 0.20;
/// The fitted line's rise or fall across the window, as a share of its average.
pub const MAX_SLOPE_EXCURSION: f64 = 0.10;

/// One measurement window's figures.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Window {
    /// Index of the window's first value.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub from: usize,
    /// Index of its last value (`from + 4`).
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub to: usize,
    pub average: f64,
    /// (largest − smallest) / average.
    pub data_excursion: f64,
    /// |slope × (rounds − 1)| / average.
    pub slope_excursion: f64,
}

impl Window {
    pub fn is_steady(&self) -> bool {
        self.data_excursion <= MAX_DATA_EXCURSION && self.slope_excursion <= MAX_SLOPE_EXCURSION
    }
}

/// Whether and where a series reached steady state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Steadiness {
    /// The first window that met both limits; steady from its `to` on.
    Reached { window: Window },
    /// No window met them; the last one, when the series had one.
    NotReached { last: Option<Window> },
}

/// The figures of the window of `values` starting at `from`.
pub fn window(values: &[f64], from: usize) -> Option<Window> {
    let w = values.get(from..from + WINDOW)?;
    let n = WINDOW as f64;
    let average = w.iter().sum::<f64>() / n;
    if !(average.is_finite() && average > 0.0) {
        return None;
    }
    let (low, high) = w.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(*v), h.max(*v)));
    // Least squares over x = 0..n-1.
    let mean_x = (n - 1.0) / 2.0;
    let (sxy, sxx) = w.iter().enumerate().fold((0.0, 0.0), |(sxy, sxx), (i, y)| {
        let dx = i as f64 - mean_x;
        (sxy + dx * (y - average), sxx + dx * dx)
    });
    let slope = sxy / sxx;
    Some(Window {
        from,
        to: from + WINDOW - 1,
        average,
        data_excursion: (high - low) / average,
        slope_excursion: (slope * (n - 1.0)).abs() / average,
    })
}

/// The first window of `values` in steady state, or the last window when none is.
pub fn steady_state(values: &[f64]) -> Steadiness {
    let mut last = None;
    for from in 0..values.len().saturating_sub(WINDOW - 1) {
        let Some(w) = window(values, from) else { continue };
        if w.is_steady() {
            return Steadiness::Reached { window: w };
        }
        last = Some(w);
    }
    Steadiness::NotReached { last }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_series_after_a_fall_is_steady_from_its_first_flat_window() {
        // A write cache: fast, then falling, then flat within a few per cent.
        let values = [900.0, 880.0, 600.0, 300.0, 210.0, 200.0, 205.0, 198.0, 202.0, 201.0, 199.0];
        match steady_state(&values) {
            Steadiness::Reached { window } => {
                assert_eq!((window.from, window.to), (4, 8), "{window:?}");
                assert!((window.average - 203.0).abs() < 1e-9);
                assert!(window.data_excursion <= MAX_DATA_EXCURSION);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_steady_drift_or_swing_is_not_steady() {
        // Within 20 % of its average, but sliding down by 3 % of its start a round: the
        // fitted line falls by more than 10 % of the average across each window.
        let sliding: Vec<f64> = (0..8).map(|i| 1000.0 * (1.0 - 0.03 * i as f64)).collect();
        let Steadiness::NotReached { last: Some(last) } = steady_state(&sliding) else { panic!() };
        assert!(last.data_excursion <= MAX_DATA_EXCURSION, "{last:?}");
        assert!(last.slope_excursion > MAX_SLOPE_EXCURSION, "{last:?}");
        // Flat on average but swinging by a third.
        let swinging = [100.0, 130.0, 100.0, 130.0, 100.0, 130.0];
        let Steadiness::NotReached { last: Some(last) } = steady_state(&swinging) else { panic!() };
        assert!(last.data_excursion > MAX_DATA_EXCURSION, "{last:?}");
        assert_eq!(steady_state(&swinging[..4]), Steadiness::NotReached { last: None });
    }
}
