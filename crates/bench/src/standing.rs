//! Why is this result different? Where a result stands among its drive's results in the
//! same pool (platform group and data pattern), test by test, and the factors in which it
//! differs from what the drive's results usually were measured with: the two things a
//! reader needs before calling a result odd, and what `effects` can then say about each.

use crate::difference::Figure;
use crate::effects::{Setting, FACTORS};
use crate::model::{BenchResult, Metric, Tags, TestKey};
use std::collections::BTreeMap;

/// A result's setting: its value of each of [`FACTORS`] as text, as stored.
pub fn setting_of(tags: &Tags, result: &BenchResult) -> Setting {
    FACTORS
        .iter()
        .map(|f| crate::fields::field(f).and_then(|field| field.value(tags, result)).map(|v| v.to_string()))
        .collect()
}

/// One test of a result against its pool.
#[derive(Debug, Clone, PartialEq)]
pub struct TestStanding {
    pub test: TestKey,
    pub figure: Figure,
    pub value: f64,
    /// The pool's median and how many results it has (the result among them).
    pub median: f64,
    pub n: usize,
    /// The share of the pool's values below the result's, ties counting half, in percent.
    pub percentile: f64,
}

/// The headline figure of a metric: MB/s, else IOPS, else latency.
fn headline(m: &Metric) -> Option<(Figure, f64)> {
    m.mbps
        .map(|v| (Figure::Mbps, v))
        .or(m.iops.map(|v| (Figure::Iops, v)))
        .or(m.latency_us.map(|v| (Figure::Latency, v)))
}

/// Where `result` stands on each of its tests among `pool` (the results of the same
/// drive, platform group and data pattern, the result itself included).
pub fn standing(result: &BenchResult, pool: &[&BenchResult]) -> Vec<TestStanding> {
    let mut values: BTreeMap<(TestKey, Figure), Vec<f64>> = BTreeMap::new();
    for r in pool {
        for (key, m) in r.keyed_metrics() {
            if let Some((figure, v)) = headline(m) {
                values.entry((key, figure)).or_default().push(v);
            }
        }
    }
    result
        .keyed_metrics()
        .filter_map(|(test, m)| {
            let (figure, value) = headline(m)?;
            let mut v = values.get(&(test, figure))?.clone();
            v.sort_by(f64::total_cmp);
            let below = v.iter().filter(|x| **x < value).count() as f64;
            let equal = v.iter().filter(|x| **x == value).count() as f64;
            let median = crate::analysis::summarize(&v)?.median;
            Some(TestStanding {
                test,
                figure,
                value,
                median,
                n: v.len(),
                percentile: 100.0 * (below + equal / 2.0) / v.len() as f64,
            })
        })
        .collect()
}

/// A factor in which a result differs from its drive's usual value.
#[derive(Debug, Clone, PartialEq)]
pub struct Unusual {
    pub factor: &'static str,
    pub value: String,
    /// The most common known value among the drive's results, and how many of those
    /// that know the factor have it.
    pub usual: String,
    pub usual_count: usize,
    pub known: usize,
}

/// The factors in which `setting` differs from the most common known value among
/// `settings` (its drive's results, itself included). A factor the result does not know,
/// or that no other result knows, says nothing; a value tied for most common is usual.
pub fn unusual_factors(setting: &Setting, settings: &[Setting]) -> Vec<Unusual> {
    FACTORS
        .iter()
        .enumerate()
        .filter_map(|(i, factor)| {
            let value = setting[i].as_ref()?;
            let mut counts: BTreeMap<&String, usize> = BTreeMap::new();
            for s in settings {
                if let Some(v) = &s[i] {
                    *counts.entry(v).or_default() += 1;
                }
            }
            let known = counts.values().sum();
            let most = *counts.values().max()?;
            if counts.get(value) == Some(&most) {
                return None;
            }
            let usual = counts.iter().find(|(_, c)| **c == most)?.0;
            Some(Unusual { factor, value: value.clone(), usual: (*usual).clone(), usual_count: most, known })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(os: Option<&str>, pattern: &str) -> Setting {
        FACTORS
            .iter()
            .map(|f| match *f {
                "os" => os.map(String::from),
                "data_pattern" => Some(pattern.to_string()),
                "chipset" => Some("Z68".to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_result_differs_where_its_drive_usually_does_not() {
        let usual = setting(Some("Windows 7"), "random");
        let odd = setting(Some("Windows XP"), "zero-fill");
        let settings = vec![usual.clone(), usual.clone(), odd.clone(), setting(None, "random")];
        let found = unusual_factors(&odd, &settings);
        let names: Vec<_> = found.iter().map(|u| (u.factor, u.value.as_str(), u.usual.as_str())).collect();
        assert_eq!(names, [("data_pattern", "zero-fill", "random"), ("os", "Windows XP", "Windows 7")]);
        assert_eq!((found[1].usual_count, found[1].known), (2, 3));
        assert!(unusual_factors(&usual, &settings).is_empty());
        // Tied for most common: usual.
        assert!(unusual_factors(&odd, &[odd.clone(), usual.clone()]).is_empty());
    }

    #[test]
    fn the_percentile_counts_ties_half() {
        let result = |seq: f64| -> BenchResult {
            serde_json::from_value(serde_json::json!({
                "tool": "crystaldiskmark", "tool_version": "3.0.1", "profile": null, "test_size_bytes": null,
                "passes": null, "data_pattern": "random", "date": null, "os": null, "comment": null,
                "metrics": [{"label": "Seq", "access": "seq", "block_size": 1048576, "queue_depth": 1,
                             "threads": 1, "op": "read", "mbps": seq, "iops": null, "latency_us": null}]
            }))
            .unwrap()
        };
        let pool: Vec<BenchResult> = [100.0, 200.0, 300.0, 300.0, 400.0].map(result).into();
        let refs: Vec<&BenchResult> = pool.iter().collect();
        let s = standing(&pool[2], &refs);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].n, s[0].median, s[0].value), (5, 300.0, 300.0));
        assert!((s[0].percentile - 60.0).abs() < 1e-9, "{:?}", s[0]); // 2 below, 2 equal
        assert!((standing(&pool[0], &refs)[0].percentile - 10.0).abs() < 1e-9);
    }
}
