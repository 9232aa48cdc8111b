//! Pure analysis over results, tags and the catalogue: rated vs measured, compression
//! sensitivity, interface ceilings, RAID 0 scaling, cache effect and robust aggregates.
//!
//! Every function compares like with like only: numbers are matched by [`TestKey`], never
//! by label or position, so a CrystalDiskMark 3 "4K QD32" is never set against a
//! CrystalDiskMark 8 "RND4K Q32T16".

use crate::model::{Access, BenchResult, DataPattern, Metric, Op, RatedSpec, Tags, TestKey};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------
// Robust aggregates
// ---------------------------------------------------------------------------------------

/// Median, median absolute deviation and count of a sample: robust against the odd
/// cache-inflated or throttled run that would drag a mean.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Summary {
    pub count: usize,
    pub median: f64,
    pub mad: f64,
    pub min: f64,
    pub max: f64,
}

/// Summarises the finite values of a sample; `None` when there are none.
pub fn summarize(values: &[f64]) -> Option<Summary> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    // Sorted input (the server keeps its samples sorted) sorts in linear time.
    v.sort_by(f64::total_cmp);
    let median = median_of_sorted(&v);
    Some(Summary { count: v.len(), median, mad: mad_of_sorted(&v, median), min: v[0], max: v[v.len() - 1] })
}

/// The median absolute deviation of sorted `v` from its median `m`, without sorting the
/// deviations: those of the values below `m` grow leftwards and those of the rest grow
/// rightwards, so merging the two runs outwards from `m` meets the middle deviation
/// after n/2 steps. (`m - x` is exactly `|x - m|` in floating point, so the result is
/// bit-for-bit that of sorting.)
fn mad_of_sorted(v: &[f64], m: f64) -> f64 {
    let n = v.len();
    let split = v.partition_point(|x| *x < m);
    // The next deviations are `m - v[left - 1]` and `v[right] - m`.
    let (mut left, mut right) = (split, split);
    let mut next = || {
        let l = (left > 0).then(|| m - v[left - 1]);
        let r = (right < n).then(|| v[right] - m);
        match (l, r) {
            (Some(l), Some(r)) if l <= r => {
                left -= 1;
                l
            }
            (Some(l), None) => {
                left -= 1;
                l
            }
            (_, Some(r)) => {
                right += 1;
                r
            }
            (None, None) => unreachable!("at most n deviations are taken"),
        }
    };
    let mut d = next();
    for _ in 0..(n - 1) / 2 {
        d = next();
    }
    if n % 2 == 1 {
        d
    } else {
        (d + next()) / 2.0
    }
}

pub(crate) fn median_of_sorted(v: &[f64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

// ---------------------------------------------------------------------------------------
// Rated vs measured
// ---------------------------------------------------------------------------------------

/// Which of a maker's rated figures a measurement is set against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RatedFigure {
    SeqReadMbps,
    SeqWriteMbps,
    Rnd4kReadIops,
    Rnd4kWriteIops,
}

impl RatedFigure {
    pub fn of(self, spec: &RatedSpec) -> Option<f64> {
        match self {
            RatedFigure::SeqReadMbps => spec.seq_read_mbps,
            RatedFigure::SeqWriteMbps => spec.seq_write_mbps,
            RatedFigure::Rnd4kReadIops => spec.rnd4k_read_iops,
            RatedFigure::Rnd4kWriteIops => spec.rnd4k_write_iops,
        }
    }
}

/// One rated figure next to the best matching measurement of a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatedVsMeasured {
    pub figure: RatedFigure,
    pub rated: f64,
    pub measured: f64,
    /// measured / rated × 100.
    pub percent: f64,
    /// The label of the metric that was used.
    pub label: String,
}

/// Percent of a rated figure a measurement reached.
pub fn percent_of_rated(measured: f64, rated: f64) -> Option<f64> {
    (rated > 0.0 && measured.is_finite()).then(|| measured / rated * 100.0)
}

/// The measurement of `result` that a rated figure describes. Makers rate sequential
/// speed with their best large-block test and 4K IOPS at a deep queue, so the highest
/// figure among the matching tests is the one to compare (4K at any queue depth for
/// IOPS, any sequential test with a block of 128 KiB or more for MB/s).
pub fn measured_for(result: &BenchResult, figure: RatedFigure) -> Option<(&Metric, f64)> {
    let wanted = |m: &Metric| match figure {
        RatedFigure::SeqReadMbps => m.access == Access::Seq && m.op == Op::Read && m.block_size >= 128 * 1024,
        RatedFigure::SeqWriteMbps => {
            m.access == Access::Seq && m.op == Op::Write && m.block_size >= 128 * 1024
        }
        RatedFigure::Rnd4kReadIops => m.access == Access::Rnd && m.op == Op::Read && m.block_size == 4096,
        RatedFigure::Rnd4kWriteIops => m.access == Access::Rnd && m.op == Op::Write && m.block_size == 4096,
    };
    let value = |m: &Metric| match figure {
        RatedFigure::SeqReadMbps | RatedFigure::SeqWriteMbps => m.mbps,
        // IOPS is printed by most tools; derive it from MB/s when it is not.
        RatedFigure::Rnd4kReadIops | RatedFigure::Rnd4kWriteIops => {
            m.iops.or_else(|| m.mbps.map(|mbps| mbps * 1e6 / m.block_size as f64))
        }
    };
    result
        .metrics
        .iter()
        .filter(|m| wanted(m) && m.stat.is_none_or(|s| s == crate::model::Stat::Avg))
        .filter_map(|m| value(m).map(|v| (m, v)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// Every rated figure of `spec` with the result's matching measurement.
pub fn rated_vs_measured(result: &BenchResult, spec: &RatedSpec) -> Vec<RatedVsMeasured> {
    use RatedFigure::*;
    [SeqReadMbps, SeqWriteMbps, Rnd4kReadIops, Rnd4kWriteIops]
        .into_iter()
        .filter_map(|figure| {
            let rated = figure.of(spec)?;
            let (metric, measured) = measured_for(result, figure)?;
            Some(RatedVsMeasured {
                figure,
                rated,
                measured,
                percent: percent_of_rated(measured, rated)?,
                label: metric.label.clone(),
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Flags: why a number may not describe the drive
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FlagKind {
    /// The result sits at the practical limit of the narrowest link: the link, not the
    /// drive, set the number.
    InterfaceCeiling,
    /// The result exceeds what the link can carry: a RAID or controller cache answered,
    /// not the drive.
    CacheInflated,
    /// Far above the maker's rating (more than 25 % over).
    FarAboveRated,
    /// 0-fill writes much faster than random ones: the controller compresses.
    CompressionSensitive,
    /// The volume the tool says it tested is larger than the drive, or under
    /// [`SMALL_VOLUME`] of it: another drive, or a partition.
    VolumeSize,
}

impl FlagKind {
    /// A few words for the flag, as the site and the charts print it.
    pub fn name(self) -> &'static str {
        match self {
            FlagKind::InterfaceCeiling => "interface ceiling",
            FlagKind::CacheInflated => "cache-inflated",
            FlagKind::FarAboveRated => "far above rated",
            FlagKind::CompressionSensitive => "compresses",
            FlagKind::VolumeSize => "volume size",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Flag {
    pub kind: FlagKind,
    /// The metric the flag is about.
    pub label: String,
    pub detail: String,
}

/// Within this share of a link's practical ceiling a result counts as pinned to it
/// (SATA 3 Gb/s results pile up at 277 of ~280 MB/s, Gen1 x1 cards at 204 of ~200).
const CEILING_BAND: f64 = 0.9;
/// Above the ceiling by more than this share, only a cache can explain the number.
const ABOVE_CEILING: f64 = 1.06;

/// Every flag the analysis raises for one result: link ceiling or cache, and far above
/// the rated figures of its drive. What ingest stores with a result, and what a change
/// of the drive's ratings (an accepted proposal, a merge) recomputes.
pub fn flags_for(result: &BenchResult, tags: &Tags, drive: Option<&crate::DriveSku>) -> Vec<Flag> {
    let mut flags = interface_flags(result, tags);
    if let Some(d) = drive {
        flags.extend(rated_flags(result, &d.rated));
        flags.extend(volume_flags(result, tags, d));
    }
    flags
}

/// A volume under this share of its drive's capacity is flagged: a partition that
/// small is rare, a result tagged with the wrong drive is not.
pub const SMALL_VOLUME: f64 = 0.6;

/// The size of the volume a run names, in bytes: CrystalDiskMark's
/// `[C: 33.0% (39.3/119.1 GB)]` (its GB are GiB), `(202/223GiB)`, `(1.2/1.8 TiB)`.
pub fn volume_bytes(target: &str) -> Option<f64> {
    let inside = target.rsplit_once('(')?.1.split_once(')')?.0;
    let total = inside.split_once('/')?.1.trim();
    let split = total.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = total.split_at(split);
    let scale = match unit.trim() {
        "GB" | "GiB" => (1u64 << 30) as f64,
        "TB" | "TiB" => (1u64 << 40) as f64,
        "MB" | "MiB" => (1u64 << 20) as f64,
        _ => return None,
    };
    number.parse::<f64>().ok().filter(|n| *n > 0.0).map(|n| n * scale)
}

/// Flags a run whose volume does not fit its drive: larger than the drive (another
/// drive; an array's volume is left alone), or under [`SMALL_VOLUME`] of it (a
/// partition, or another drive: 119.1 GiB is a 128 GB drive, not a 256 GB one).
pub fn volume_flags(result: &BenchResult, tags: &Tags, drive: &crate::DriveSku) -> Vec<Flag> {
    let (Some(target), None) = (result.target.as_deref(), tags.raid.as_ref()) else { return Vec::new() };
    let Some(volume) = volume_bytes(target) else { return Vec::new() };
    let capacity = f64::from(drive.capacity_gb) * 1e9;
    if capacity <= 0.0 {
        return Vec::new();
    }
    // A volume is a little smaller than its drive (partition tables, a recovery
    // partition); 1 % over is rounding.
    let why = if volume > capacity * 1.01 {
        "larger than the drive: another drive?"
    } else if volume < capacity * SMALL_VOLUME {
        "under 60 % of the drive: a partition, or another drive?"
    } else {
        return Vec::new();
    };
    vec![Flag {
        kind: FlagKind::VolumeSize,
        label: target.to_string(),
        detail: format!(
            "the tested volume holds {:.0} GB; the drive ({} GB) is {why}",
            volume / 1e9,
            drive.capacity_gb
        ),
    }]
}

/// Flags the metrics of a result that the I/O path, not the drive, explains.
///
/// The ceiling is the narrowest of the drive's link and the add-in card's host link.
/// A RAID 0 of N drives on separate ports multiplies the drive-side ceiling by N but not
/// the host link. Sequential figures above the ceiling can only come from a cache (the
/// seeds' 3ware 9750-8i shows 1626 MB/s through SATA 3 Gb/s members in a small test).
pub fn interface_flags(result: &BenchResult, tags: &Tags) -> Vec<Flag> {
    let p = &tags.platform;
    let members = tags.raid.as_ref().map_or(1, |r| r.members.max(1));
    let drive_side = p.link.map(|l| l.practical_ceiling_mbps() * f64::from(members));
    let host_side = p.host_link.map(|l| l.practical_ceiling_mbps());
    let Some(ceiling) = [drive_side, host_side].into_iter().flatten().reduce(f64::min) else {
        return Vec::new();
    };
    let mut flags = Vec::new();
    for m in &result.metrics {
        let Some(mbps) = m.mbps else { continue };
        if mbps > ceiling * ABOVE_CEILING {
            flags.push(Flag {
                kind: FlagKind::CacheInflated,
                label: m.label.clone(),
                detail: format!("{mbps} MB/s exceeds the ~{ceiling:.0} MB/s the link carries: a cache answered, not the drive"),
            });
        } else if m.access == Access::Seq && mbps >= ceiling * CEILING_BAND {
            flags.push(Flag {
                kind: FlagKind::InterfaceCeiling,
                label: m.label.clone(),
                detail: format!("{mbps} MB/s is at the ~{ceiling:.0} MB/s practical limit of the link"),
            });
        }
    }
    flags
}

/// Flags measurements far above the maker's rating (more than 25 % over), which
/// usually means compressible test data, a cache, or a mis-tagged drive.
pub fn rated_flags(result: &BenchResult, spec: &RatedSpec) -> Vec<Flag> {
    rated_vs_measured(result, spec)
        .into_iter()
        .filter(|r| r.percent > 125.0)
        .map(|r| Flag {
            kind: FlagKind::FarAboveRated,
            label: r.label,
            detail: format!("{:.0} % of the rated {}", r.percent, r.rated),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Comparisons between results
// ---------------------------------------------------------------------------------------

/// A write test measured with random and with 0-fill data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompressionSensitivity {
    pub test: TestKey,
    pub random_mbps: f64,
    pub zero_fill_mbps: f64,
    /// zero_fill / random; about 1 for controllers that do not compress.
    pub ratio: f64,
}

/// Above this 0-fill/random write ratio a controller is treated as compressing.
pub const COMPRESSION_RATIO_THRESHOLD: f64 = 1.3;

/// Pairs the write tests of two runs of the same drive, one with random and one with
/// 0-fill data, by test key. Exposes SandForce and Indilinx compression.
pub fn compression_sensitivity(random: &BenchResult, zero_fill: &BenchResult) -> Vec<CompressionSensitivity> {
    let zero: BTreeMap<TestKey, f64> = zero_fill
        .keyed_metrics()
        .filter(|(k, _)| k.op == Op::Write)
        .filter_map(|(k, m)| Some((k, m.mbps?)))
        .collect();
    random
        .keyed_metrics()
        .filter_map(|(k, m)| {
            let random_mbps = m.mbps?;
            let zero_fill_mbps = *zero.get(&k)?;
            (random_mbps > 0.0).then(|| CompressionSensitivity {
                test: k,
                random_mbps,
                zero_fill_mbps,
                ratio: zero_fill_mbps / random_mbps,
            })
        })
        .collect()
}

/// Flags from [`compression_sensitivity`]: each write test whose ratio passes the threshold.
pub fn compression_flags(random: &BenchResult, zero_fill: &BenchResult) -> Vec<Flag> {
    if random.data_pattern == Some(DataPattern::ZeroFill)
        || zero_fill.data_pattern != Some(DataPattern::ZeroFill)
    {
        return Vec::new();
    }
    compression_sensitivity(random, zero_fill)
        .into_iter()
        .filter(|c| c.ratio >= COMPRESSION_RATIO_THRESHOLD)
        .map(|c| Flag {
            kind: FlagKind::CompressionSensitive,
            label: c.test.short_name(),
            detail: format!(
                "0-fill {} MB/s vs random {} MB/s (×{:.2})",
                c.zero_fill_mbps, c.random_mbps, c.ratio
            ),
        })
        .collect()
}

/// RAID 0 scaling efficiency: the array's figure over N times one member's,
/// 1.0 = perfect scaling.
pub fn raid0_scaling(single: f64, array: f64, members: u8) -> Option<f64> {
    (single > 0.0 && members > 0).then(|| array / (single * f64::from(members)))
}

/// Per test, the array result's scaling over the single-drive result.
pub fn raid0_scaling_by_test(single: &BenchResult, array: &BenchResult, members: u8) -> Vec<(TestKey, f64)> {
    ratio_by_test(single, array)
        .into_iter()
        .filter_map(|(k, (s, a))| Some((k, raid0_scaling(s, a, members)?)))
        .collect()
}

/// Cache effect: how much faster a small test area ran than a large one (ratio > 1
/// means the small test fitted in a cache).
pub fn cache_effect(small_test: &BenchResult, large_test: &BenchResult) -> Vec<(TestKey, f64)> {
    ratio_by_test(large_test, small_test)
        .into_iter()
        .filter(|(_, (large, _))| *large > 0.0)
        .map(|(k, (large, small))| (k, small / large))
        .collect()
}

/// MB/s of `a` and `b` for every test key both have.
fn ratio_by_test(a: &BenchResult, b: &BenchResult) -> BTreeMap<TestKey, (f64, f64)> {
    let b_values: BTreeMap<TestKey, f64> =
        b.keyed_metrics().filter_map(|(k, m)| Some((k, m.mbps?))).collect();
    a.keyed_metrics().filter_map(|(k, m)| Some((k, (m.mbps?, *b_values.get(&k)?)))).collect()
}

/// Groups any number of results into per-test samples, keyed by test and by a group the
/// caller chooses (a drive, a platform). Tests that a group lacks stay absent from that
/// group's map, so callers can show them as missing rather than matching another test.
pub fn samples_by_test<'a, G: Ord + Clone>(
    results: impl IntoIterator<Item = (G, &'a BenchResult)>,
) -> BTreeMap<TestKey, BTreeMap<G, Vec<f64>>> {
    let mut out: BTreeMap<TestKey, BTreeMap<G, Vec<f64>>> = BTreeMap::new();
    for (group, r) in results {
        for (k, m) in r.keyed_metrics() {
            if let Some(v) = m.mbps.or(m.iops).or(m.latency_us) {
                out.entry(k).or_default().entry(group.clone()).or_default().push(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Link, Raid, Tool};

    fn metric(label: &str, access: Access, bs: u64, qd: u32, op: Op, mbps: f64) -> Metric {
        Metric {
            label: label.into(),
            access,
            block_size: bs,
            queue_depth: qd,
            threads: 1,
            op,
            mbps: Some(mbps),
            iops: None,
            latency_us: None,
            mix_read_percent: None,
            stat: None,
            latency_percentiles: Vec::new(),
            latency_spread: None,
        }
    }

    fn cdm3(seq_read: f64, seq_write: f64, pattern: DataPattern) -> BenchResult {
        let mut r = BenchResult::new(Tool::CrystalDiskMark);
        r.tool_version = Some("3.0.1 x64".into());
        r.data_pattern = Some(pattern);
        r.metrics = vec![
            metric("Sequential Read", Access::Seq, 1 << 20, 1, Op::Read, seq_read),
            metric("Sequential Write", Access::Seq, 1 << 20, 1, Op::Write, seq_write),
            metric("Random Write 4KB (QD=32)", Access::Rnd, 4096, 32, Op::Write, 40.0),
        ];
        r
    }

    #[test]
    fn summary_is_robust_to_an_outlier() {
        let s = summarize(&[100.0, 102.0, 98.0, 101.0, 1626.0]).unwrap();
        assert_eq!(s.count, 5);
        assert_eq!(s.median, 101.0);
        assert_eq!(s.mad, 1.0);
        assert_eq!((s.min, s.max), (98.0, 1626.0));
        assert_eq!(summarize(&[1.0, 3.0]).unwrap().median, 2.0);
        assert!(summarize(&[f64::NAN]).is_none());
    }

    #[test]
    fn the_linear_mad_equals_the_mad_of_sorted_deviations() {
        fn sorted_mad(values: &[f64]) -> f64 {
            let mut v = values.to_vec();
            v.sort_by(f64::total_cmp);
            let m = median_of_sorted(&v);
            let mut dev: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
            dev.sort_by(f64::total_cmp);
            median_of_sorted(&dev)
        }
        // Lengths 1..200, with ties, spread values and duplicates of the median.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        for n in 1..200 {
            for spread in [3, 1000, 1 << 30] {
                let values: Vec<f64> = (0..n).map(|_| (next() % spread) as f64 / 7.0).collect();
                let s = summarize(&values).unwrap();
                assert_eq!(s.mad.to_bits(), sorted_mad(&values).to_bits(), "{values:?}");
            }
        }
    }

    #[test]
    fn rated_vs_measured_uses_the_best_matching_test() {
        // C300 64 GB: rated 355/70 MB/s; measured 277.2 read (SATA 3 Gb/s) and 78.93 write.
        let r = cdm3(277.2, 78.93, DataPattern::Random);
        let spec = RatedSpec { seq_read_mbps: Some(355.0), seq_write_mbps: Some(70.0), ..Default::default() };
        let got = rated_vs_measured(&r, &spec);
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].figure, RatedFigure::SeqWriteMbps);
        assert!((got[1].percent - 112.757).abs() < 0.01, "{}", got[1].percent);
        assert!((got[0].percent - 78.08).abs() < 0.01);
        // Random 4K write IOPS derived from MB/s when not printed: 40 MB/s = 9765.6 IOPS.
        let spec = RatedSpec { rnd4k_write_iops: Some(10000.0), ..Default::default() };
        let got = rated_vs_measured(&r, &spec);
        assert!((got[0].measured - 9765.625).abs() < 1e-6);
    }

    #[test]
    fn a_volume_that_does_not_fit_its_drive_is_flagged() {
        assert_eq!(volume_bytes("C: 33.0% (39.3/119.1 GB)"), Some(119.1 * (1u64 << 30) as f64));
        assert_eq!(volume_bytes("C: 91% (202/223GiB)"), Some(223.0 * (1u64 << 30) as f64));
        assert_eq!(volume_bytes("D: 10% (0.2/1.8 TiB)"), Some(1.8 * (1u64 << 40) as f64));
        assert_eq!(volume_bytes("C: 0% (0/0GiB)"), None);
        assert_eq!(volume_bytes("/dev/nvme0n1"), None);
        let mut r = cdm3(250.0, 200.0, DataPattern::Random);
        r.target = Some("C: 33.0% (39.3/119.1 GB)".into());
        let drive = |gb: u32| -> crate::DriveSku {
            serde_json::from_value(
                serde_json::json!({"id": "d", "vendor": "V", "model": "M", "part_number": null,
                "capacity_gb": gb, "interface": null, "dram_mb": null}),
            )
            .unwrap()
        };
        let tags = Tags::default();
        // 119.1 GiB is 127.9 GB: a 128 GB drive's volume, not a 256 GB's nor a 64 GB's.
        assert!(volume_flags(&r, &tags, &drive(128)).is_empty());
        let mut whole = r.clone();
        whole.target = Some("C: 1% (1/111.9 GB)".into());
        assert!(volume_flags(&whole, &tags, &drive(120)).is_empty(), "120.15 GB on a 120 GB drive: rounding");
        let small = volume_flags(&r, &tags, &drive(256));
        assert_eq!(small.len(), 1);
        assert_eq!(small[0].kind, FlagKind::VolumeSize);
        assert!(small[0].detail.contains("128 GB") && small[0].detail.contains("256 GB"), "{:?}", small[0]);
        assert!(volume_flags(&r, &tags, &drive(64))[0].detail.contains("larger"));
        // An array's volume spans its members.
        let raid =
            Tags { raid: Some(crate::Raid { level: 0, members: 2, stripe_bytes: None }), ..Tags::default() };
        assert!(volume_flags(&r, &raid, &drive(64)).is_empty());
        assert_eq!(
            flags_for(&r, &tags, Some(&drive(256))).iter().filter(|f| f.kind == FlagKind::VolumeSize).count(),
            1
        );
    }

    #[test]
    fn interface_flags_tell_link_limit_from_cache() {
        let mut tags = Tags::default();
        tags.platform.link = Some(Link::Sata { gbps: 3.0 });
        let pinned = interface_flags(&cdm3(277.2, 78.5, DataPattern::Random), &tags);
        assert_eq!(pinned.len(), 1);
        assert_eq!(pinned[0].kind, FlagKind::InterfaceCeiling);
        assert_eq!(pinned[0].label, "Sequential Read");

        // A PCIe 1.0 x1 slot caps a SATA 6 Gb/s card at ~200 MB/s (the seeds: 204 MB/s).
        tags.platform.link = Some(Link::Sata { gbps: 6.0 });
        tags.platform.host_link = Some(Link::Pcie { gen: 1, lanes: 1 });
        let flags = interface_flags(&cdm3(204.0, 140.0, DataPattern::Random), &tags);
        assert_eq!(flags.iter().map(|f| f.kind).collect::<Vec<_>>(), vec![FlagKind::InterfaceCeiling]);

        // Two SATA 3 Gb/s members behind a RAID card on PCIe 2.0 x8: 1626 MB/s is cache.
        tags.platform.link = Some(Link::Sata { gbps: 3.0 });
        tags.platform.host_link = Some(Link::Pcie { gen: 2, lanes: 8 });
        tags.raid = Some(Raid { level: 0, members: 2, stripe_bytes: Some(65536) });
        let flags = interface_flags(&cdm3(1626.0, 150.0, DataPattern::Random), &tags);
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].kind, FlagKind::CacheInflated);

        // Without a known link nothing can be said.
        assert!(interface_flags(&cdm3(1626.0, 150.0, DataPattern::Random), &Tags::default()).is_empty());
    }

    #[test]
    fn compression_shows_on_sandforce_not_on_marvell() {
        // SandForce (from the 003 article's prose): random 99.50 vs 0-fill 263.9 MB/s.
        let random = cdm3(250.0, 99.50, DataPattern::Random);
        let zero = cdm3(250.0, 263.9, DataPattern::ZeroFill);
        let c = compression_sensitivity(&random, &zero);
        assert_eq!(c.len(), 2, "both write tests pair up");
        assert!((c[0].ratio - 2.652).abs() < 0.001);
        let flags = compression_flags(&random, &zero);
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].label, "SEQ 1MiB Q1T1 write");
        // A Marvell drive writes random and 0-fill data alike.
        assert!(compression_flags(
            &cdm3(277.0, 78.93, DataPattern::Random),
            &cdm3(277.0, 78.5, DataPattern::ZeroFill)
        )
        .is_empty());
        // Swapped arguments are not a compression finding.
        assert!(compression_flags(&zero, &random).is_empty());
    }

    #[test]
    fn raid_scaling_and_cache_effect_match_tests_by_key() {
        assert_eq!(raid0_scaling(100.0, 180.0, 2), Some(0.9));
        assert_eq!(raid0_scaling(0.0, 180.0, 2), None);
        let single = cdm3(250.0, 100.0, DataPattern::Random);
        let mut array = cdm3(480.0, 190.0, DataPattern::Random);
        array.metrics.pop();
        let by_test = raid0_scaling_by_test(&single, &array, 2);
        assert_eq!(by_test.len(), 2, "the 4K QD32 test is missing from the array run");
        assert!((by_test[0].1 - 0.96).abs() < 1e-9);

        let small = cdm3(260.0, 150.0, DataPattern::Random);
        let large = cdm3(250.0, 75.0, DataPattern::Random);
        let effect = cache_effect(&small, &large);
        assert!(effect
            .iter()
            .any(|(k, r)| k.op == Op::Write && k.access == Access::Seq && (*r - 2.0).abs() < 1e-9));
    }

    #[test]
    fn samples_never_mix_tool_families() {
        let old = cdm3(250.0, 100.0, DataPattern::Random);
        let mut new = cdm3(260.0, 110.0, DataPattern::Random);
        new.tool_version = Some("8.0.4 x64".into());
        let s = samples_by_test([("c300", &old), ("c300", &new)]);
        // Same parameters, different engines (own loop vs DiskSpd): six tests, not three.
        assert_eq!(s.len(), 6);
        assert!(s.values().all(|g| g["c300"].len() == 1));
    }
}
