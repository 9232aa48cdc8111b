//! Firmware over time: a drive's firmware versions in order, each test's values per
//! version (within one pool: the same platform group and data pattern), and a change
//! marked between consecutive versions only when it is beyond the noise.
//!
//! The method is a rank test per step: consecutive versions' results are set against
//! each other with [`difference::headline_difference`] (Hodges–Lehmann ratio and its
//! rank interval), and a step is a change when that difference is "clear" (its 99 %
//! interval leaves out 1). Chosen over a change-point method for long series (E-divisive
//! means, as in Apache Otava/Hunter) because a drive has a handful of versions, each a
//! group of results rather than one point of a series: the question per step is exactly
//! a two-sample one, and the same statistic as everywhere else on the site keeps the
//! verdicts consistent. Clear rather than likely because a drive page tests every test
//! of every pool at each step: at 99 % one false mark in a hundred step-tests, not five.

use crate::difference::{headline_difference, Difference, Figure, FigureValues, Verdict};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Versions in the order people number them: digit runs compare as numbers
/// (`FW9` < `FW10`), everything else as text without case.
pub fn version_order(a: &str, b: &str) -> Ordering {
    let runs = |s: &str| -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, run)) if *d == digit => run.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    };
    let (ra, rb) = (runs(a), runs(b));
    for (x, y) in ra.iter().zip(&rb) {
        let o = match (x, y) {
            ((true, p), (true, q)) => {
                let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
                p.len().cmp(&q.len()).then_with(|| p.cmp(q))
            }
            ((_, p), (_, q)) => p.to_lowercase().cmp(&q.to_lowercase()),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    ra.len().cmp(&rb.len()).then_with(|| a.cmp(b))
}

/// One step between consecutive versions on one test: the later version's results
/// against the earlier's.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub from: String,
    pub to: String,
    pub figure: Figure,
    pub difference: Difference,
    /// Beyond the noise: the difference is clear.
    pub change: bool,
}

/// The steps of one test's series: `values` per firmware version (any order), the
/// consecutive pairs in [`version_order`] that both have results.
pub fn steps(values: &BTreeMap<String, FigureValues>) -> Vec<Step> {
    let mut versions: Vec<&String> = values.keys().collect();
    versions.sort_by(|a, b| version_order(a, b));
    versions
        .windows(2)
        .filter_map(|w| {
            let (from, to) = (w[0], w[1]);
            let (figure, difference) = headline_difference(&values[to], &values[from])?;
            Some(Step {
                from: from.clone(),
                to: to.clone(),
                figure,
                difference,
                change: difference.verdict == Verdict::Clear,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_ordered_as_numbered() {
        let mut v = vec!["FW10", "fw9", "0007", "0006", "P2CR012", "P2CR010", "1.0.2", "1.0.10"];
        v.sort_by(|a, b| version_order(a, b));
        assert_eq!(v, ["1.0.2", "1.0.10", "0006", "0007", "fw9", "FW10", "P2CR010", "P2CR012"]);
    }

    /// `n` values around `center`, spread ±1 %, deterministic.
    fn around(center: f64, n: usize, seed: u64) -> FigureValues {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut v: Vec<f64> = (0..n)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let u = (state >> 11) as f64 / (1u64 << 53) as f64;
                center * (1.0 + (u - 0.5) * 0.02)
            })
            .collect();
        v.sort_by(f64::total_cmp);
        FigureValues { mbps: v, ..Default::default() }
    }

    /// Generated histories of four versions, 8 results each: a 10 % step injected
    /// between the second and third is found; steps without a change (the other two of
    /// those histories, and every step of flat ones) are marked about 1 % of the time.
    #[test]
    fn an_injected_step_is_found_and_none_where_there_is_none() {
        let (mut found, mut null_steps, mut false_marks) = (0, 0, 0);
        let histories = 200u64;
        for seed in 0..histories {
            let levels = [500.0, 500.0, 550.0, 550.0];
            let history: BTreeMap<String, FigureValues> = levels
                .iter()
                .enumerate()
                .map(|(i, c)| (format!("FW{}", i + 1), around(*c, 8, seed * 10 + i as u64)))
                .collect();
            let s = steps(&history);
            assert_eq!(s.len(), 3);
            let step = &s[1];
            assert_eq!((step.from.as_str(), step.to.as_str()), ("FW2", "FW3"));
            assert!((step.difference.ratio - 1.1).abs() < 0.02, "{step:?}");
            found += usize::from(step.change);
            null_steps += 2;
            false_marks += usize::from(s[0].change) + usize::from(s[2].change);

            let flat: BTreeMap<String, FigureValues> =
                (0..4).map(|i| (format!("FW{}", i + 1), around(500.0, 8, seed * 10 + 5 + i))).collect();
            null_steps += 3;
            false_marks += steps(&flat).iter().filter(|s| s.change).count();
        }
        println!(
            "firmware steps: injected 10 % found in {found} of {histories}; {false_marks} of {null_steps} steps without a change marked ({:.1} %)",
            100.0 * false_marks as f64 / null_steps as f64
        );
        assert_eq!(found, histories as usize, "every injected step is found");
        assert!(false_marks * 50 <= null_steps, "at most 2 % false marks: {false_marks} of {null_steps}");
    }
}
