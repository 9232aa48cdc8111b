//! Factor effects: how much one tag field (chipset, driver, firmware, data pattern…)
//! changes a drive's results, measured within drives and combined across them.
//!
//! Within one drive, two *settings* (the values of every [`FACTORS`] field a result
//! was measured with) that differ in exactly one factor, both values known, form a
//! pair: whatever differs between their results on one test is that factor's doing (or
//! chance, which the interval says). Settings that differ in two or more factors do not
//! pair; they are counted per factor as left out. A drive's pairs for one factor,
//! values and test (several, when the same change was measured on different chipsets,
//! say) are combined into one per-drive effect ([`DriveEffect`]), and the drives'
//! effects into one ([`combine`]).
//!
//! One pair's effect is [`difference::headline_difference`]: the Hodges–Lehmann ratio
//! with its rank interval. Pairs and drives are combined by a random-effects
//! meta-analysis on the log ratios: DerSimonian–Laird's between-unit variance, and the
//! Hartung–Knapp–Sidik–Jonkman interval (a t interval on the weighted spread, never
//! narrower than the fixed-effect one), which keeps its coverage with two or three
//! units where the normal interval claims too much. A unit with too few results for an
//! interval has no weight: it is listed with its ratio, and when no unit has an
//! interval the verdict is "too few results" and the ratio the median of the units'.

use crate::difference::{headline_difference, Difference, Figure, FigureValues, Verdict};
use crate::model::TestKey;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The fields that can differ while the drive stays the same, in the order pages list
/// them. Each is a [`crate::FIELDS`] name.
pub const FACTORS: &[&str] = &[
    "chipset",
    "storage_controller",
    "driver",
    "driver_version",
    "mode",
    "link",
    "host_link",
    "link_power",
    "raid_level",
    "raid_members",
    "filesystem",
    "data_pattern",
    "test_size_bytes",
    "firmware",
    "os",
];

/// A result's value of each of [`FACTORS`], in that order, as text (`None`: unknown).
pub type Setting = Vec<Option<String>>;

/// Values per side a pair's difference reads at most (evenly spaced quantiles).
pub const POINTS: usize = 32;

/// One drive's effect of changing `factor` from `a` to `b` on one test: `ratio` is how
/// many times the result with `b` is the result with `a` (`a` < `b` as text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DriveEffect {
    pub factor: &'static str,
    pub a: String,
    pub b: String,
    pub test: TestKey,
    pub figure: Figure,
    pub effect: Effect,
}

/// An effect: a ratio with its 95 % interval and verdict, and what it stands on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Effect {
    /// How many times the value with `b` is the value with `a`.
    pub ratio: f64,
    /// The 95 % interval; absent when nothing is claimed.
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub verdict: Verdict,
    /// Results measured with `a` and with `b`.
    pub n_a: usize,
    pub n_b: usize,
    /// Pairs of settings (per drive) or drives (combined) behind it, and how many of them
    /// had results enough to be weighed.
    pub units: usize,
    pub weighed: usize,
}

impl Effect {
    /// One pair's effect from the difference of its `b` side against its `a` side.
    fn of_pair(d: &Difference) -> Effect {
        Effect {
            ratio: d.ratio,
            low: d.low,
            high: d.high,
            verdict: d.verdict,
            n_a: d.n_b,
            n_b: d.n_a,
            units: 1,
            weighed: usize::from(d.low.is_some()),
        }
    }
}

/// What one drive's results say: its effects, and per factor how many pairs of its
/// settings differ in that factor and at least one other (left out).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DriveEffects {
    pub effects: Vec<DriveEffect>,
    pub left_out: BTreeMap<&'static str, usize>,
}

/// The effects within one drive, from its results grouped by setting: per setting, per
/// test, the values (each figure sorted).
pub fn drive_effects(settings: &[(Setting, BTreeMap<TestKey, FigureValues>)]) -> DriveEffects {
    let mut out = DriveEffects::default();
    // (factor, a, b, test, figure) → the pairs' effects.
    let mut pairs: BTreeMap<(usize, String, String, TestKey, Figure), Vec<Effect>> = BTreeMap::new();
    for (i, (si, ti)) in settings.iter().enumerate() {
        for (sj, tj) in &settings[i + 1..] {
            let differing: Vec<usize> = (0..FACTORS.len()).filter(|&f| si[f] != sj[f]).collect();
            match differing[..] {
                [f] => {
                    let (Some(vi), Some(vj)) = (&si[f], &sj[f]) else { continue };
                    // Oriented so that `a` < `b`: the same change reads the same way
                    // on every drive.
                    let ((a, ta), (b, tb)) =
                        if vi < vj { ((vi, ti), (vj, tj)) } else { ((vj, tj), (vi, ti)) };
                    for (key, va) in ta {
                        let Some(vb) = tb.get(key) else { continue };
                        if let Some((figure, d)) =
                            headline_difference(&vb.thinned(POINTS), &va.thinned(POINTS))
                        {
                            let e = Effect::of_pair(&d);
                            pairs.entry((f, a.clone(), b.clone(), *key, figure)).or_default().push(e);
                        }
                    }
                }
                [] => {}
                _ => {
                    for f in differing {
                        *out.left_out.entry(FACTORS[f]).or_default() += 1;
                    }
                }
            }
        }
    }
    for ((f, a, b, test, figure), units) in pairs {
        if let Some(effect) = combine(&units) {
            out.effects.push(DriveEffect { factor: FACTORS[f], a, b, test, figure, effect });
        }
    }
    out
}

/// Several units' effects (pairs of one drive, or drives) as one; `None` for none.
pub fn combine(units: &[Effect]) -> Option<Effect> {
    let first = units.first()?;
    let n_a = units.iter().map(|u| u.n_a).sum();
    let n_b = units.iter().map(|u| u.n_b).sum();
    if units.len() == 1 {
        return Some(*first);
    }
    // Each weighable unit's log ratio and its variance, read off its 95 % interval.
    let weighable: Vec<(f64, f64)> = units
        .iter()
        .filter_map(|u| {
            let (low, high) = (u.low?, u.high?);
            let se = ((high.ln() - low.ln()) / (2.0 * Z95)).max(MIN_SE);
            Some((u.ratio.ln(), se * se))
        })
        .collect();
    let k = weighable.len();
    let base = Effect { n_a, n_b, units: units.len(), weighed: k, ..*first };
    match k {
        0 => {
            let mut logs: Vec<f64> = units.iter().map(|u| u.ratio.ln()).collect();
            logs.sort_by(f64::total_cmp);
            let mid = logs.len() / 2;
            let median = if logs.len() % 2 == 1 { logs[mid] } else { (logs[mid - 1] + logs[mid]) / 2.0 };
            Some(Effect {
                ratio: median.exp(),
                low: None,
                high: None,
                verdict: Verdict::TooFewResults,
                ..base
            })
        }
        1 => {
            let only = units.iter().find(|u| u.low.is_some()).expect("one weighable unit");
            Some(Effect { ratio: only.ratio, low: only.low, high: only.high, verdict: only.verdict, ..base })
        }
        _ => {
            let (mean, se) = random_effects(&weighable);
            let df = k - 1;
            let interval = |t: f64| (mean - t * se, mean + t * se);
            let (low, high) = interval(t_quantile(df, 0.975));
            let (low99, high99) = interval(t_quantile(df, 0.995));
            let excludes = |lo: f64, hi: f64| lo > 0.0 || hi < 0.0;
            let verdict = if excludes(low99, high99) {
                Verdict::Clear
            } else if excludes(low, high) {
                Verdict::Likely
            } else {
                Verdict::NoEvidence
            };
            Some(Effect { ratio: mean.exp(), low: Some(low.exp()), high: Some(high.exp()), verdict, ..base })
        }
    }
}

/// The standard normal's 97.5 % point.
const Z95: f64 = 1.959_963_984_540_054;
/// The smallest standard error a unit is given (0.1 % on the ratio): identical values
/// on both sides would otherwise weigh infinitely.
const MIN_SE: f64 = 1e-3;

/// The random-effects mean of `(estimate, variance)` units and its standard error:
/// DerSimonian–Laird's τ², then the Hartung–Knapp variance, never below the
/// fixed-effect one (Röver, Knapp & Friede 2015).
fn random_effects(units: &[(f64, f64)]) -> (f64, f64) {
    let k = units.len() as f64;
    let w: Vec<f64> = units.iter().map(|(_, v)| 1.0 / v).collect();
    let sw: f64 = w.iter().sum();
    let sw2: f64 = w.iter().map(|x| x * x).sum();
    let fixed = units.iter().zip(&w).map(|((y, _), w)| w * y).sum::<f64>() / sw;
    let q: f64 = units.iter().zip(&w).map(|((y, _), w)| w * (y - fixed).powi(2)).sum();
    let tau2 = ((q - (k - 1.0)) / (sw - sw2 / sw)).max(0.0);
    let ws: Vec<f64> = units.iter().map(|(_, v)| 1.0 / (v + tau2)).collect();
    let sws: f64 = ws.iter().sum();
    let mean = units.iter().zip(&ws).map(|((y, _), w)| w * y).sum::<f64>() / sws;
    let spread = units.iter().zip(&ws).map(|((y, _), w)| w * (y - mean).powi(2)).sum::<f64>() / (k - 1.0);
    (mean, (spread.max(1.0) / sws).sqrt())
}

/// Student's t quantile at `p` (0.975 or 0.995) for `df` degrees of freedom: tabled up
/// to 30, then the Cornish–Fisher expansion in 1/df (within 0.001 there).
pub fn t_quantile(df: usize, p: f64) -> f64 {
    const T975: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    const T995: [f64; 30] = [
        63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169, 3.106, 3.055, 3.012, 2.977,
        2.947, 2.921, 2.898, 2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763,
        2.756, 2.750,
    ];
    let table = if p > 0.99 { &T995 } else { &T975 };
    if (1..=30).contains(&df) {
        return table[df - 1];
    }
    let z: f64 = if p > 0.99 { 2.575_829_303_549 } else { Z95 };
    let n = df.max(1) as f64;
    z + (z.powi(3) + z) / (4.0 * n)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / (384.0 * n.powi(3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Access, Op, ToolFamily};

    fn key(qd: u32) -> TestKey {
        TestKey {
            family: ToolFamily::CdmNative,
            access: Access::Rnd,
            block_size: 4096,
            queue_depth: qd,
            threads: 1,
            op: Op::Write,
            mix_read_percent: None,
            stat: None,
        }
    }

    fn setting(pairs: &[(&str, &str)]) -> Setting {
        FACTORS.iter().map(|f| pairs.iter().find(|(n, _)| n == f).map(|(_, v)| v.to_string())).collect()
    }

    fn values(v: &[f64]) -> BTreeMap<TestKey, FigureValues> {
        let mut mbps = v.to_vec();
        mbps.sort_by(f64::total_cmp);
        BTreeMap::from([(key(1), FigureValues { mbps, ..Default::default() })])
    }

    #[test]
    fn every_factor_is_a_field() {
        for f in FACTORS {
            assert!(crate::fields::field(f).is_some(), "{f}");
        }
    }

    #[test]
    fn settings_pair_only_when_one_known_factor_differs() {
        let random = setting(&[("chipset", "Z68"), ("data_pattern", "random")]);
        let zero = setting(&[("chipset", "Z68"), ("data_pattern", "zero-fill")]);
        let other = setting(&[("chipset", "SB950"), ("data_pattern", "zero-fill")]);
        let unknown = setting(&[("chipset", "Z68")]);
        let eight = |x: f64| (0..8).map(|i| x * (1.0 + i as f64 * 0.002)).collect::<Vec<_>>();
        let found = drive_effects(&[
            (random, values(&eight(100.0))),
            (zero, values(&eight(150.0))),
            (other, values(&eight(150.0))),
            (unknown, values(&eight(120.0))),
        ]);
        // random↔zero-fill pairs; zero-fill↔SB950 pairs on chipset; random↔SB950 differs
        // in two, and so does the unknown pattern against SB950 (unknown is not a value
        // to pair on, but it may differ); the unknown pattern pairs with nothing.
        let names: Vec<_> = found.effects.iter().map(|e| (e.factor, e.a.as_str(), e.b.as_str())).collect();
        assert_eq!(names, vec![("chipset", "SB950", "Z68"), ("data_pattern", "random", "zero-fill")]);
        let pattern = &found.effects[1].effect;
        assert!((pattern.ratio - 1.5).abs() < 1e-9, "{pattern:?}");
        assert_eq!(pattern.verdict, Verdict::Clear);
        assert_eq!((pattern.n_a, pattern.n_b), (8, 8));
        assert_eq!(found.left_out, BTreeMap::from([("chipset", 2), ("data_pattern", 2)]));
    }

    #[test]
    fn drives_combine_into_one_effect() {
        let unit = |ratio: f64, half: f64| Effect {
            ratio,
            low: Some(ratio / half),
            high: Some(ratio * half),
            verdict: Verdict::Clear,
            n_a: 8,
            n_b: 8,
            units: 1,
            weighed: 1,
        };
        // Three drives that agree on +20 %: clear, the mean between them.
        let c = combine(&[unit(1.18, 1.03), unit(1.2, 1.03), unit(1.22, 1.03)]).unwrap();
        assert_eq!(c.verdict, Verdict::Clear, "{c:?}");
        assert!((c.ratio - 1.2).abs() < 0.01 && c.low.unwrap() > 1.1 && c.high.unwrap() < 1.3, "{c:?}");
        assert_eq!((c.n_a, c.units, c.weighed), (24, 3, 3));
        // Two drives that disagree: no evidence, however sure each is.
        let c = combine(&[unit(1.3, 1.02), unit(0.8, 1.02)]).unwrap();
        assert_eq!(c.verdict, Verdict::NoEvidence, "{c:?}");
        // Units without intervals claim nothing; their median is shown.
        let few =
            |ratio| Effect { low: None, high: None, verdict: Verdict::TooFewResults, ..unit(ratio, 1.0) };
        let c = combine(&[few(1.5), few(1.7), few(2.0)]).unwrap();
        assert_eq!(c.verdict, Verdict::TooFewResults);
        assert!((c.ratio - 1.7).abs() < 1e-9);
        assert_eq!(c.weighed, 0);
        // One weighable unit among small ones speaks for itself.
        let c = combine(&[few(3.0), unit(1.2, 1.05)]).unwrap();
        assert_eq!((c.ratio, c.verdict, c.weighed, c.units), (1.2, Verdict::Clear, 1, 2));
        assert!(combine(&[]).is_none());
    }

    #[test]
    fn t_quantiles_meet_published_values() {
        // Beyond the table, the expansion against published values (df 40, 60, 120).
        for (df, t975, t995) in [(40, 2.021, 2.704), (60, 2.000, 2.660), (120, 1.980, 2.617)] {
            assert!((t_quantile(df, 0.975) - t975).abs() < 0.001, "{df}: {}", t_quantile(df, 0.975));
            assert!((t_quantile(df, 0.995) - t995).abs() < 0.001, "{df}: {}", t_quantile(df, 0.995));
        }
        assert_eq!(t_quantile(2, 0.975), 4.303);
        assert!(t_quantile(31, 0.975) < t_quantile(30, 0.975));
    }
}
