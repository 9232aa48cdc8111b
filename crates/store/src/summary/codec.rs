//! The binary codec of `test_samples`: the `summaries`, `samples` and `quantiles` columns (and the
//! `pool` and test key texts), pure encoding and decoding with no SQL; the parent module
//! ([`super`]) reads and writes the rows. Its layout version is `FORMAT` there: a change
//! to what is written here needs a new one, so that stored rows are rebuilt.

use super::PoolSummary;
use crate::sql::{enum_from_name, enum_name};
use crate::{StorageError, StorageResult};
use api_types::Aggregates;
use bench::analysis::{summarize, Summary};
use bench::difference::{quantiles, DIFFERENCE_POINTS};
use bench::{DataPattern, PlatformGroup, TestKey};
use std::collections::{BTreeMap, HashMap};

/// Every value of one test in one pool, kept for maintenance: ids ascending, each
/// figure's values ascending (figures are summarised one by one, so they need not stay
/// aligned, and sorted input makes the summaries cheap to recompute).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct TestSamples {
    pub(super) result_ids: Vec<i64>,
    pub(super) mbps: Vec<f64>,
    pub(super) iops: Vec<f64>,
    pub(super) latency_us: Vec<f64>,
    /// The summaries as stored, while no value was added: a group commit touches a few
    /// tests of a pool, and only those are summarised again.
    pub(super) stored: Option<[Option<Summary>; 3]>,
}

impl TestSamples {
    pub(super) fn add(
        &mut self,
        result_id: i64,
        mbps: Option<f64>,
        iops: Option<f64>,
        latency_us: Option<f64>,
    ) {
        self.stored = None;
        if let Err(at) = self.result_ids.binary_search(&result_id) {
            self.result_ids.insert(at, result_id);
        }
        for (values, v) in
            [(&mut self.mbps, mbps), (&mut self.iops, iops), (&mut self.latency_us, latency_us)]
        {
            if let Some(v) = v {
                let at = values.partition_point(|x| x.total_cmp(&v).is_lt());
                values.insert(at, v);
            }
        }
    }

    pub(super) fn summary(&self) -> [Option<Summary>; 3] {
        self.stored.unwrap_or_else(|| self.summarise())
    }

    pub(super) fn summarise(&self) -> [Option<Summary>; 3] {
        [summarize(&self.mbps), summarize(&self.iops), summarize(&self.latency_us)]
    }
}

/// The `pool` column: the platform group and data pattern as JSON.
pub(super) fn pool_text(platform: &PlatformGroup, data_pattern: Option<DataPattern>) -> String {
    serde_json::to_string(&(platform, data_pattern)).expect("pools serialise")
}

/// Whether a `pool` column names a RAID set of the drive rather than the drive alone.
pub(super) fn pool_is_array(pool: &str) -> StorageResult<bool> {
    let (platform, _): (PlatformGroup, Option<DataPattern>) =
        serde_json::from_str(pool).map_err(|e| StorageError::Corrupt(format!("pool {pool:?}: {e}")))?;
    Ok(platform.array().is_some())
}

fn key_text(k: &TestKey) -> String {
    format!(
        "{}/{}/{}/{}/{}/{}/{}/{}",
        enum_name(&k.family),
        enum_name(&k.access),
        k.block_size,
        k.queue_depth,
        k.threads,
        enum_name(&k.op),
        k.mix_read_percent.map(|m| m.to_string()).unwrap_or_default(),
        k.stat.as_ref().map(enum_name).unwrap_or_default(),
    )
}

fn parse_key(s: &str) -> Result<TestKey, StorageError> {
    let bad = || StorageError::Corrupt(format!("test key {s:?}"));
    let f: Vec<&str> = s.split('/').collect();
    if f.len() != 8 {
        return Err(bad());
    }
    Ok(TestKey {
        family: enum_from_name(f[0])?,
        access: enum_from_name(f[1])?,
        block_size: f[2].parse().map_err(|_| bad())?,
        queue_depth: f[3].parse().map_err(|_| bad())?,
        threads: f[4].parse().map_err(|_| bad())?,
        op: enum_from_name(f[5])?,
        mix_read_percent: if f[6].is_empty() { None } else { Some(f[6].parse().map_err(|_| bad())?) },
        stat: if f[7].is_empty() { None } else { Some(enum_from_name(f[7])?) },
    })
}

/// Marks an id list that repeats an earlier test's list of the same row.
const SAME_IDS_AS: u32 = 1 << 31;

/// A pool's three binary columns.
pub(super) struct PoolColumns {
    pub(super) summaries: Vec<u8>,
    pub(super) samples: Vec<u8>,
    /// `None` when thinning keeps every value (no figure of any test has more than
    /// `DIFFERENCE_POINTS`): most pools, whose `samples` then say the same.
    pub(super) quantiles: Option<Vec<u8>>,
}

/// The `summaries`, `samples` and `quantiles` columns, little-endian with u32 lengths.
/// `summaries` is what compare reads, per test in key order: key text, result ids, and
/// per figure its summary (a presence byte, then count, median, MAD, min, max). `samples`
/// is what maintenance needs, per test in the same order: each figure's sorted values.
/// `quantiles` is `samples` with each figure thinned to
/// [`bench::difference::DIFFERENCE_POINTS`] order statistics: all compare's differences
/// read (a popular pool's `samples` are megabytes; this is at most 780 bytes a test),
/// written only where it differs from `samples`.
/// Binary because a popular pool holds thousands of numbers and compare must not spend
/// its time parsing text or sorting; separate columns so that compare fetches neither
/// the values nor, where it needs no difference, the quantiles.
///
/// Result ids are most of `summaries` and what PostgreSQL spends compare's time reading
/// (three popular drives: 1.7 MB as plain i64s at 1,000,000 results), so they are
/// compact: ascending ids as LEB128 varint gaps (one or two bytes instead of eight), and
/// a test whose ids equal an earlier test's in the row (the usual case: a result runs
/// every test of its tool) as `SAME_IDS_AS | index` instead of the list.
pub(super) fn encode(tests: &BTreeMap<TestKey, TestSamples>) -> PoolColumns {
    let mut out = Vec::new();
    out.extend((tests.len() as u32).to_le_bytes());
    let mut lists: Vec<&[i64]> = Vec::with_capacity(tests.len());
    for (key, s) in tests {
        let k = key_text(key);
        out.extend((k.len() as u32).to_le_bytes());
        out.extend(k.as_bytes());
        match lists.iter().position(|l| *l == s.result_ids.as_slice()) {
            Some(i) => out.extend((SAME_IDS_AS | i as u32).to_le_bytes()),
            None => {
                out.extend((s.result_ids.len() as u32).to_le_bytes());
                let mut previous = 0;
                for &id in &s.result_ids {
                    put_varint(&mut out, id.wrapping_sub(previous) as u64);
                    previous = id;
                }
            }
        }
        lists.push(&s.result_ids);
        for summary in s.summary() {
            match summary {
                None => out.push(0),
                Some(m) => {
                    out.push(1);
                    out.extend((m.count as u64).to_le_bytes());
                    for v in [m.median, m.mad, m.min, m.max] {
                        out.extend(v.to_le_bytes());
                    }
                }
            }
        }
    }
    PoolColumns {
        summaries: out,
        samples: figure_values(tests, None),
        quantiles: tests
            .values()
            .any(|s| [&s.mbps, &s.iops, &s.latency_us].iter().any(|v| v.len() > DIFFERENCE_POINTS))
            .then(|| figure_values(tests, Some(DIFFERENCE_POINTS))),
    }
}

/// Per test in key order, each figure's values, or `thin_to` order statistics of them.
fn figure_values(tests: &BTreeMap<TestKey, TestSamples>, thin_to: Option<usize>) -> Vec<u8> {
    let mut out = Vec::new();
    for s in tests.values() {
        for values in [&s.mbps, &s.iops, &s.latency_us] {
            // Every write of a pool encodes its samples: they are written as they are,
            // not copied first.
            let thinned;
            let kept: &[f64] = match thin_to {
                Some(k) => {
                    thinned = quantiles(values, k);
                    &thinned
                }
                None => values,
            };
            out.extend((kept.len() as u32).to_le_bytes());
            kept.iter().for_each(|v| out.extend(v.to_le_bytes()));
        }
    }
    out
}

/// Appends `v` as an unsigned LEB128 varint.
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StorageError> {
        if self.0.len() < n {
            return Err(StorageError::Corrupt("test_samples row is truncated".into()));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn len(&mut self) -> Result<usize, StorageError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")) as usize)
    }

    fn eight(&mut self, n: usize) -> Result<impl Iterator<Item = [u8; 8]> + '_, StorageError> {
        let bytes = self.take(n.checked_mul(8).ok_or_else(|| StorageError::Corrupt("length".into()))?)?;
        Ok(bytes.chunks_exact(8).map(|c| c.try_into().expect("8 bytes")))
    }

    fn varint(&mut self) -> Result<u64, StorageError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1)?[0];
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(StorageError::Corrupt("varint longer than 64 bits".into()))
    }

    /// An id list as `encode` writes it; `earlier` are the row's lists read so far.
    fn ids(&mut self, earlier: &[(TestKey, Aggregates)]) -> Result<Vec<i64>, StorageError> {
        let n = self.len()? as u32;
        if n & SAME_IDS_AS != 0 {
            let i = (n & !SAME_IDS_AS) as usize;
            let (_, same) = earlier.get(i).ok_or_else(|| StorageError::Corrupt(format!("id list {i}")))?;
            return Ok(same.result_ids.clone());
        }
        // Each id takes at least a byte: a count beyond the row is corruption, not an
        // allocation to attempt.
        if n as usize > self.0.len() {
            return Err(StorageError::Corrupt("test_samples row is truncated".into()));
        }
        let mut ids = Vec::with_capacity(n as usize);
        let mut previous = 0i64;
        for _ in 0..n {
            previous = previous.wrapping_add(self.varint()? as i64);
            ids.push(previous);
        }
        Ok(ids)
    }

    fn summary(&mut self) -> Result<Option<Summary>, StorageError> {
        if self.take(1)?[0] == 0 {
            return Ok(None);
        }
        let count = u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")) as usize;
        let mut v = self.eight(4)?.map(f64::from_le_bytes);
        let mut next = || v.next().expect("four numbers");
        Ok(Some(Summary { count, median: next(), mad: next(), min: next(), max: next() }))
    }
}

/// Reads a `summaries` column; `keys` memoises key texts across rows.
fn decode_summaries<'a>(
    r: &mut Reader<'a>,
    keys: &mut HashMap<String, TestKey>,
) -> StorageResult<Vec<(TestKey, Aggregates)>> {
    let n = r.len()?;
    let mut tests = Vec::with_capacity(n);
    for _ in 0..n {
        let len = r.len()?;
        let text = std::str::from_utf8(r.take(len)?).map_err(|e| StorageError::Corrupt(e.to_string()))?;
        let key = match keys.get(text) {
            Some(k) => *k,
            None => {
                let k = parse_key(text)?;
                keys.insert(text.to_string(), k);
                k
            }
        };
        let result_ids = r.ids(&tests)?;
        let (mbps, iops, latency_us) = (r.summary()?, r.summary()?, r.summary()?);
        tests.push((key, Aggregates { result_ids, mbps, iops, latency_us }));
    }
    Ok(tests)
}

/// Reads a pool's `summaries` and its `samples` (or `quantiles`) back into values.
pub(super) fn decode(summaries: &[u8], samples: &[u8]) -> StorageResult<BTreeMap<TestKey, TestSamples>> {
    let summaries = decode_summaries(&mut Reader(summaries), &mut HashMap::new())?;
    let mut r = Reader(samples);
    let mut tests = BTreeMap::new();
    for (key, summary) in summaries {
        let mut figures = [Vec::new(), Vec::new(), Vec::new()];
        for f in &mut figures {
            let n = r.len()?;
            *f = r.eight(n)?.map(f64::from_le_bytes).collect();
        }
        let [mbps, iops, latency_us] = figures;
        let stored = Some([summary.mbps, summary.iops, summary.latency_us]);
        tests.insert(key, TestSamples { result_ids: summary.result_ids, mbps, iops, latency_us, stored });
    }
    Ok(tests)
}

/// One `test_samples` row's `pool` and `summaries` columns as compare reads them.
pub(super) fn decode_pool(
    drive_sku: String,
    pool: &str,
    summaries: &[u8],
    keys: &mut HashMap<String, TestKey>,
) -> StorageResult<PoolSummary> {
    let (platform, data_pattern): (PlatformGroup, Option<DataPattern>) =
        serde_json::from_str(pool).map_err(|e| StorageError::Corrupt(format!("pool {pool:?}: {e}")))?;
    let tests = decode_summaries(&mut Reader(summaries), keys)?.into_iter().collect();
    Ok(PoolSummary { drive_sku, platform, data_pattern, tests })
}

/// One `test_samples` row (drive, pool, summaries and quantiles) as its summary and each
/// test's quantiles.
pub(super) fn decode_pool_quantiles(
    drive_sku: String,
    pool: &str,
    summaries: &[u8],
    quantiles: &[u8],
) -> StorageResult<super::PoolWithQuantiles> {
    let (platform, data_pattern): (PlatformGroup, Option<DataPattern>) =
        serde_json::from_str(pool).map_err(|e| StorageError::Corrupt(format!("pool {pool:?}: {e}")))?;
    let mut tests = BTreeMap::new();
    let mut values = BTreeMap::new();
    for (key, t) in decode(summaries, quantiles)? {
        let [mbps, iops, latency_us] = t.stored.unwrap_or_default();
        tests.insert(key, Aggregates { result_ids: t.result_ids, mbps, iops, latency_us });
        values.insert(key, super::FigureValues { mbps: t.mbps, iops: t.iops, latency_us: t.latency_us });
    }
    Ok((PoolSummary { drive_sku, platform, data_pattern, tests }, values))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use bench::{Access, Op, ToolFamily};

    /// A random 4 KiB read at queue depth `qd` (the summary's tests use it too).
    pub(in crate::summary) fn key(qd: u32) -> TestKey {
        TestKey {
            family: ToolFamily::CdmDiskspd,
            access: Access::Rnd,
            block_size: 4096,
            queue_depth: qd,
            threads: 1,
            op: Op::Read,
            mix_read_percent: None,
            stat: None,
        }
    }

    #[test]
    fn pools_round_trip_with_their_summaries() {
        let mut tests = BTreeMap::new();
        let mut s = TestSamples::default();
        s.add(7, Some(3.5), None, Some(90.0));
        s.add(3, Some(1.25), Some(300.0), None);
        s.add(5, Some(2.0), Some(100.0), Some(80.0));
        assert_eq!(s.result_ids, vec![3, 5, 7]);
        assert_eq!(s.mbps, vec![1.25, 2.0, 3.5]);
        tests.insert(key(1), s.clone());
        tests.insert(key(32), TestSamples::default());
        // The same ids as key(1): stored as a reference, read back as the list.
        tests.insert(key(4), s.clone());
        let mut far = TestSamples::default();
        far.add(1 << 40, Some(1.0), None, None);
        far.add(2, Some(1.0), None, None);
        tests.insert(key(8), far);
        let PoolColumns { summaries: bytes, samples: values, .. } = encode(&tests);
        let mut back = decode(&bytes, &values).unwrap();
        for t in back.values_mut() {
            // What was stored is what the values give: maintenance may reuse it.
            assert_eq!(t.stored.take(), Some(t.summarise()));
        }
        assert_eq!(back, tests);
        let summaries = decode_summaries(&mut Reader(&bytes), &mut HashMap::new()).unwrap();
        assert_eq!(summaries[0].0, key(1));
        assert_eq!(summaries[0].1.result_ids, vec![3, 5, 7]);
        assert_eq!(summaries[0].1.mbps, summarize(&[3.5, 1.25, 2.0]));
        assert_eq!(summaries[0].1.iops, summarize(&[300.0, 100.0]));
        assert_eq!(summaries[1].1.result_ids, vec![3, 5, 7], "a repeated list reads back");
        assert_eq!(summaries[2].1.result_ids, vec![2, 1 << 40], "a wide gap reads back");
        assert_eq!(summaries[3].1, Aggregates::default());
        assert!(decode(&bytes[..9], &values).is_err(), "truncated rows are errors");
        assert!(decode(&bytes, &values[..5]).is_err(), "truncated rows are errors");
    }

    #[test]
    fn id_lists_are_compact() {
        // 1,000 results spread over a million ids, each with the same eight tests.
        let mut tests = BTreeMap::new();
        for qd in [1, 2, 4, 8, 16, 32, 64, 128] {
            let mut s = TestSamples::default();
            (0..1000).for_each(|i| s.add(1 + i * 997, Some(1.0), None, None));
            tests.insert(key(qd), s);
        }
        let bytes = encode(&tests).summaries;
        // Plain i64s would be 64,000 bytes of ids; gaps of 997 take two bytes, once.
        assert!(bytes.len() < 2_000 + 8 * 100, "{} bytes", bytes.len());
        let back = decode_summaries(&mut Reader(&bytes), &mut HashMap::new()).unwrap();
        assert!(back.iter().all(|(k, t)| t.result_ids == tests[k].result_ids));
    }

    #[test]
    fn quantiles_are_the_values_thinned() {
        let mut tests = BTreeMap::new();
        let mut popular = TestSamples::default();
        (0..1000).for_each(|i| popular.add(i, Some((i * 7 % 1000) as f64), None, Some(i as f64 / 4.0)));
        tests.insert(key(1), popular.clone());
        let mut few = TestSamples::default();
        (0..5).for_each(|i| few.add(i, Some(i as f64), Some(10.0 * i as f64), None));
        tests.insert(key(32), few.clone());
        let columns = encode(&tests);
        let pool = pool_text(&PlatformGroup::default(), None);
        let quantiles = columns.quantiles.expect("a pool of more values than the quantiles");
        let (summary, values) =
            decode_pool_quantiles("d".into(), &pool, &columns.summaries, &quantiles).unwrap();
        let all = |s: &TestSamples| bench::difference::FigureValues {
            mbps: s.mbps.clone(),
            iops: s.iops.clone(),
            latency_us: s.latency_us.clone(),
        };
        assert_eq!(values[&key(1)], all(&popular).thinned(DIFFERENCE_POINTS));
        assert_eq!(values[&key(1)].mbps.len(), DIFFERENCE_POINTS);
        assert_eq!(values[&key(32)], all(&few), "a pool of fewer values keeps them all");
        // The summaries are of every value, not of the quantiles.
        assert_eq!(summary.tests[&key(1)].mbps.unwrap().count, 1000);
        assert!(quantiles.len() < columns.samples.len() / 10);
        // A pool whose values are all its quantiles stores none: compare reads its samples.
        tests.remove(&key(1));
        assert_eq!(encode(&tests).quantiles, None);
    }

    #[test]
    fn keys_read_back() {
        let mut k = key(32);
        assert_eq!(parse_key(&key_text(&k)).unwrap(), k);
        k.mix_read_percent = Some(70);
        k.stat = Some(bench::Stat::Max);
        assert_eq!(parse_key(&key_text(&k)).unwrap(), k);
        assert!(parse_key("cdm-diskspd/rnd").is_err());
    }
}
