//! Whether a difference between two pools of results is real: how many times one pool's
//! typical value is the other's, with a 95 % interval, and a verdict in words.
//!
//! The estimate is Hodges–Lehmann's on the logarithms of the values: the median of every
//! pairwise log-ratio `ln aᵢ − ln bⱼ`, turned back into a ratio. Its interval is the
//! distribution-free one that goes with it: the order statistics of those same pairwise
//! log-ratios at the Mann–Whitney critical value (Hollander, Wolfe & Chicken,
//! *Nonparametric Statistical Methods*, §4.3), exact up to 20 results per side and by the
//! normal approximation above. Why this and not a bootstrap over results: it is exact for
//! the handful of results most pools have (a bootstrap of 3 values has 10 distinct
//! resamples and an interval that is mostly noise), it needs no random numbers (the same
//! data always gives the same verdict, in the server and in the browser), it does not
//! assume a shape (one throttled run does not move it much), and it knows when it can say
//! nothing: below about 4 results per side no 95 % interval exists at all.

use serde::{Deserialize, Serialize};

/// The confidence of the interval every difference carries.
pub const CONFIDENCE: f64 = 0.95;
/// The confidence above which a difference is called clear.
pub const CLEAR_CONFIDENCE: f64 = 0.99;
/// Results per side above which the Mann–Whitney distribution is approximated (the
/// published tables stop at 20 too; past it the normal approximation is within one rank).
const EXACT_UP_TO: usize = 20;

/// What a difference says, in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The 99 % interval leaves out "no difference".
    Clear,
    /// The 95 % interval leaves out "no difference", the 99 % one does not.
    Likely,
    /// The 95 % interval holds "no difference".
    NoEvidence,
    /// So few results that no 95 % interval exists: nothing is claimed.
    TooFewResults,
}

impl Verdict {
    /// As a reader sees it.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Clear => "clear",
            Verdict::Likely => "likely",
            Verdict::NoEvidence => "no evidence",
            Verdict::TooFewResults => "too few results",
        }
    }
}

/// How pool `a` stands against pool `b`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Difference {
    /// How many times `a`'s typical value is `b`'s (Hodges–Lehmann).
    pub ratio: f64,
    /// The 95 % interval of the ratio; absent with too few results.
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub verdict: Verdict,
    /// Results on each side.
    pub n_a: usize,
    pub n_b: usize,
}

/// The difference of `a` against `b` (values such as MB/s, IOPS or latency, all
/// positive); `None` when a side has no positive finite value.
pub fn difference(a: &[f64], b: &[f64]) -> Option<Difference> {
    let logs =
        |v: &[f64]| -> Vec<f64> { v.iter().filter(|x| x.is_finite() && **x > 0.0).map(|x| x.ln()).collect() };
    let (la, lb) = (logs(a), logs(b));
    if la.is_empty() || lb.is_empty() {
        return None;
    }
    // Sorted as integers that order as the floats do: a compare of popular drives sorts
    // one set of up to 1,024 per cell, and this was most of its time sorting floats.
    let mut d: Vec<u64> = la.iter().flat_map(|x| lb.iter().map(move |y| ordered_bits(x - y))).collect();
    d.sort_unstable();
    let at = |k: usize| from_ordered_bits(d[k]);
    let (m, n) = (la.len(), lb.len());
    let mid = d.len() / 2;
    let estimate = if d.len() % 2 == 1 { at(mid) } else { (at(mid - 1) + at(mid)) / 2.0 };
    let interval = |level: usize| {
        let c = critical_count(m, n, level);
        // The c-th smallest and the c-th largest pairwise differences (1-based).
        (c > 0).then(|| (at(c - 1), at(d.len() - c)))
    };
    let i95 = interval(0);
    let excludes_zero = |i: Option<(f64, f64)>| i.is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0);
    let verdict = match i95 {
        None => Verdict::TooFewResults,
        Some(_) if excludes_zero(interval(1)) => Verdict::Clear,
        i if excludes_zero(i) => Verdict::Likely,
        Some(_) => Verdict::NoEvidence,
    };
    Some(Difference {
        ratio: estimate.exp(),
        low: i95.map(|i| i.0.exp()),
        high: i95.map(|i| i.1.exp()),
        verdict,
        n_a: m,
        n_b: n,
    })
}

/// `x`'s bits as an integer that orders as [`f64::total_cmp`] orders the floats: a
/// negative number's bits all flipped, a positive one's sign bit set.
fn ordered_bits(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// The float [`ordered_bits`] came from.
fn from_ordered_bits(b: u64) -> f64 {
    f64::from_bits(if b >> 63 == 1 { b & !(1 << 63) } else { !b })
}

/// One test's values in one pool, each figure sorted ascending: what a difference is
/// taken from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FigureValues {
    pub mbps: Vec<f64>,
    pub iops: Vec<f64>,
    pub latency_us: Vec<f64>,
}

impl FigureValues {
    /// Results behind the most-filled figure.
    pub fn count(&self) -> usize {
        self.mbps.len().max(self.iops.len()).max(self.latency_us.len())
    }

    /// At most `k` evenly spaced order statistics of each figure: a difference of pools
    /// of thousands costs what one of `k` a side costs, with a wider interval than all
    /// the values would give.
    pub fn thinned(&self, k: usize) -> FigureValues {
        FigureValues {
            mbps: quantiles(&self.mbps, k),
            iops: quantiles(&self.iops, k),
            latency_us: quantiles(&self.latency_us, k),
        }
    }
}

/// Values per side beyond which a difference (compare's cells, a drive page's groups)
/// reads [`quantiles`] instead of every value: a request's work stays bounded however
/// popular a drive is. The compare summary stores each test's values thinned to this
/// (the store's `test_samples.quantiles`), so compare never reads the rest.
pub const DIFFERENCE_POINTS: usize = 32;

/// `k` evenly spaced order statistics of sorted `v` (all of `v` when it has no more).
pub fn quantiles(v: &[f64], k: usize) -> Vec<f64> {
    if v.len() <= k || k < 2 {
        return v.to_vec();
    }
    (0..k).map(|i| v[i * (v.len() - 1) / (k - 1)]).collect()
}

/// Which figure of a test: what a chart plots and what a difference was taken on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    Mbps,
    Iops,
    Latency,
}

impl Figure {
    pub const ALL: [Figure; 3] = [Figure::Mbps, Figure::Iops, Figure::Latency];

    /// The name in URLs (`figure=iops`) and in JSON.
    pub fn id(self) -> &'static str {
        match self {
            Figure::Mbps => "mbps",
            Figure::Iops => "iops",
            Figure::Latency => "latency",
        }
    }

    pub fn from_id(id: &str) -> Option<Figure> {
        Figure::ALL.into_iter().find(|f| f.id() == id)
    }

    pub fn unit(self) -> &'static str {
        match self {
            Figure::Mbps => "MB/s",
            Figure::Iops => "IOPS",
            Figure::Latency => "µs latency",
        }
    }
}

/// The difference of `a` against `b` in the headline figure they both have: MB/s, else
/// IOPS, else latency (the figure a table shows for the test).
pub fn headline_difference(a: &FigureValues, b: &FigureValues) -> Option<(Figure, Difference)> {
    [
        (Figure::Mbps, &a.mbps, &b.mbps),
        (Figure::Iops, &a.iops, &b.iops),
        (Figure::Latency, &a.latency_us, &b.latency_us),
    ]
    .into_iter()
    .find_map(|(f, x, y)| difference(x, y).map(|d| (f, d)))
}

/// The confidences of a difference: its interval's ([`CONFIDENCE`]) and the one above
/// which it is clear ([`CLEAR_CONFIDENCE`]).
const LEVELS: [f64; 2] = [CONFIDENCE, CLEAR_CONFIDENCE];

/// The largest `c` with P(U < c) ≤ α/2, α = 1 − `LEVELS[level]`, for the Mann–Whitney
/// count U of samples of `m` and `n` under no difference (exact up to [`EXACT_UP_TO`] a
/// side, from [`exact_counts`], else by the normal approximation): the interval runs
/// from the c-th smallest to the c-th largest pairwise difference. 0 when no such
/// interval exists.
fn critical_count(m: usize, n: usize, level: usize) -> usize {
    if m <= EXACT_UP_TO && n <= EXACT_UP_TO {
        exact_counts()[m][n][level]
    } else {
        approximate_count(m, n, 1.0 - LEVELS[level])
    }
}

/// The critical count at `alpha` by the normal approximation of U.
fn approximate_count(m: usize, n: usize, alpha: f64) -> usize {
    let (m, n) = (m as f64, n as f64);
    let z = normal_quantile(1.0 - alpha / 2.0);
    let c = m * n / 2.0 - z * (m * n * (m + n + 1.0) / 12.0).sqrt();
    c.floor().max(0.0) as usize
}

/// The critical count of distribution `p` at `alpha`.
fn critical_count_of(p: &[f64], alpha: f64) -> usize {
    let mut below = 0.0;
    let mut c = 0;
    // P(U < c + 1) = P(U ≤ c); a little slack for the sums' rounding.
    while c < p.len() && below + p[c] <= alpha / 2.0 + 1e-12 {
        below += p[c];
        c += 1;
    }
    c
}

/// The exact critical counts at each of [`LEVELS`] for every pair of
/// sizes up to [`EXACT_UP_TO`], computed once: one pass of the recursion of
/// [`mann_whitney_distribution`] meets every smaller pair of sizes on its way.
fn exact_counts() -> &'static Vec<Vec<[usize; 2]>> {
    static COUNTS: std::sync::OnceLock<Vec<Vec<[usize; 2]>>> = std::sync::OnceLock::new();
    COUNTS.get_or_init(|| {
        let mut counts = vec![vec![[0; 2]; EXACT_UP_TO + 1]];
        let mut row: Vec<Vec<f64>> = vec![vec![1.0]; EXACT_UP_TO + 1];
        for i in 1..=EXACT_UP_TO {
            row = next_row(&row, i);
            let alphas = LEVELS.map(|confidence| 1.0 - confidence);
            counts.push(row.iter().map(|p| alphas.map(|alpha| critical_count_of(p, alpha))).collect());
        }
        counts
    })
}

/// P(U = u) for u in 0..=m·n, U the Mann–Whitney count of two samples of `m` and `n`
/// from one continuous distribution. Built up one observation at a time:
/// P₍ᵢ,ⱼ₎(u) = i/(i+j)·P₍ᵢ₋₁,ⱼ₎(u − j) + j/(i+j)·P₍ᵢ,ⱼ₋₁₎(u) (the largest observation is an
/// `a`, beating all j of the `b`s, or a `b`), in probabilities so that nothing overflows.
pub fn mann_whitney_distribution(m: usize, n: usize) -> Vec<f64> {
    // row[j] = the distribution for (i, j), i the current row.
    let mut row: Vec<Vec<f64>> = vec![vec![1.0]; n + 1];
    for i in 1..=m {
        row = next_row(&row, i);
    }
    row.pop().expect("n + 1 rows")
}

/// The distributions for (i, 0..=n) from those for (i − 1, 0..=n).
fn next_row(row: &[Vec<f64>], i: usize) -> Vec<Vec<f64>> {
    let mut next: Vec<Vec<f64>> = Vec::with_capacity(row.len());
    next.push(vec![1.0; 1]);
    for j in 1..row.len() {
        let mut p = vec![0.0; i * j + 1];
        let (wa, wb) = (i as f64 / (i + j) as f64, j as f64 / (i + j) as f64);
        for (u, q) in row[j].iter().enumerate() {
            p[u + j] += wa * q;
        }
        for (u, q) in next[j - 1].iter().enumerate() {
            p[u] += wb * q;
        }
        next.push(p);
    }
    next
}

/// The standard normal's quantile (Acklam's rational approximation, relative error below
/// 1.2e-9): only for the large samples, where it sets a rank.
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -39.69683028665376,
        220.9460984245205,
        -275.9285104469687,
        138.357751867269,
        -30.66479806614716,
        2.506628277459239,
    ];
    const B: [f64; 5] =
        [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
    const C: [f64; 6] = [
        -0.007784894002430293,
        -0.3223964580411365,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
    let tail = |q: f64| {
        let r = (-2.0 * q.ln()).sqrt();
        (((((C[0] * r + C[1]) * r + C[2]) * r + C[3]) * r + C[4]) * r + C[5])
            / ((((D[0] * r + D[1]) * r + D[2]) * r + D[3]) * r + 1.0)
    };
    if p < 0.02425 {
        tail(p)
    } else if p > 1.0 - 0.02425 {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn ordered_bits_order_as_total_cmp_and_read_back() {
        let mut v = vec![
            -f64::INFINITY,
            -1e300,
            -2.5,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            5e-324,
            1e-9,
            0.5,
            1.0,
            7.25,
            1e300,
            f64::INFINITY,
        ];
        v.extend((0..200).map(|i| ((i * 7919 % 401) as f64 - 200.0).sin() * 10f64.powi(i % 9 - 4)));
        for x in &v {
            assert_eq!(from_ordered_bits(ordered_bits(*x)).to_bits(), x.to_bits());
        }
        for x in &v {
            for y in &v {
                assert_eq!(ordered_bits(*x).cmp(&ordered_bits(*y)), x.total_cmp(y), "{x} {y}");
            }
        }
    }
    use super::*;

    fn binomial(n: u64, k: u64) -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }

    #[test]
    fn the_exact_distribution_is_the_counting_one() {
        for (m, n) in [(1, 1), (2, 3), (4, 4), (5, 8), (12, 7)] {
            let p = mann_whitney_distribution(m, n);
            assert_eq!(p.len(), m * n + 1);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{m}×{n}");
            // One arrangement has every a below every b.
            let ways = binomial((m + n) as u64, m as u64);
            assert!((p[0] - 1.0 / ways).abs() < 1e-15, "{m}×{n}: {} vs {}", p[0], 1.0 / ways);
            // Symmetric about m·n/2.
            for u in 0..p.len() {
                assert!((p[u] - p[p.len() - 1 - u]).abs() < 1e-12);
            }
        }
        // Tabled critical values (two-sided 5 %): 4×4 → U ≤ 0, 8×8 → U ≤ 13, 10×10 → 23,
        // 20×20 → 127.
        let exact = |m, n| critical_count_of(&mann_whitney_distribution(m, n), 0.05);
        assert_eq!(exact(4, 4), 1);
        assert_eq!(exact(8, 8), 14);
        assert_eq!(exact(10, 10), 24);
        assert_eq!(exact(20, 20), 128);
        assert_eq!(exact(3, 3), 0);
        // The table meets the distribution it is made from.
        for (m, n) in [(1, 1), (4, 4), (8, 8), (3, 17), (20, 20)] {
            assert_eq!(critical_count(m, n, 0), exact(m, n));
            assert_eq!(critical_count(m, n, 1), critical_count_of(&mann_whitney_distribution(m, n), 0.01));
        }
        // The normal approximation is within a rank of the exact count where the exact
        // one stops, and further on.
        for (m, n) in [(20, 20), (21, 30), (50, 50)] {
            let approx = approximate_count(m, n, 0.05) as i64;
            assert!((exact(m, n) as i64 - approx).abs() <= 1, "{m}×{n}: {} vs {approx}", exact(m, n));
        }
        assert!((normal_quantile(0.975) - 1.959964).abs() < 1e-6);
        assert!((normal_quantile(0.005) + 2.575829).abs() < 1e-6);
    }

    #[test]
    fn two_results_a_side_claim_nothing() {
        // 353 vs 368 MB/s, two results each: the gap is shown, nothing is claimed.
        let d = difference(&[353.0, 352.0], &[368.0, 369.0]).unwrap();
        assert_eq!(d.verdict, Verdict::TooFewResults);
        assert_eq!((d.low, d.high), (None, None));
        assert!((d.ratio - 352.5 / 368.5).abs() < 1e-3, "{}", d.ratio);
        assert_eq!((d.n_a, d.n_b), (2, 2));
        assert!(difference(&[], &[1.0]).is_none());
        assert!(difference(&[0.0, -1.0, f64::NAN], &[1.0]).is_none());
    }

    #[test]
    fn verdicts_follow_the_intervals() {
        let a: Vec<f64> = (0..8).map(|i| 500.0 + i as f64).collect();
        let same: Vec<f64> = (0..8).map(|i| 500.25 + ((i * 5) % 8) as f64).collect();
        let lower: Vec<f64> = a.iter().map(|x| x / 1.5).collect();
        let d = difference(&a, &lower).unwrap();
        assert_eq!(d.verdict, Verdict::Clear);
        assert!(1.0 < d.low.unwrap() && d.low.unwrap() < 1.5 && 1.5 < d.high.unwrap(), "{d:?}");
        assert!((d.ratio - 1.5).abs() < 1e-9);
        assert_eq!(difference(&a, &same).unwrap().verdict, Verdict::NoEvidence);
        // Four a side, fully apart: the 95 % interval excludes 1, the 99 % one cannot exist.
        let d = difference(&[10.0, 10.1, 10.2, 10.3], &[11.0, 11.1, 11.2, 11.3]).unwrap();
        assert_eq!(d.verdict, Verdict::Likely, "{d:?}");
        assert!(d.high.unwrap() < 1.0);
    }
}
