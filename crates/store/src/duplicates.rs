//! Drives that the identity rules say are one: two or more drives known under the same
//! line key (`l:`, one line and capacity of `data/drive_lines.json`) or name key (`n:`,
//! one vendor, model line and capacity), made before the rules knew they were one
//! ("Crucial C300 256GB" beside the catalogue's RealSSD C300 256 GB).
//!
//! A group is certain when it holds at most one reviewed drive: its community drives
//! merge into the reviewed one (or, with none, into the one with most results). Two
//! reviewed drives under one key are a moderator's to judge: listed, never merged here.
//! Merging goes through `Storage::merge_drives`, as the API's merge route does: every
//! result moves with its upload and history, the merged drive's names become aliases.

use crate::{DriveRow, Merged, Storage, StorageResult};
use std::collections::BTreeMap;

/// The shared keys and their drives, as (key, drive) rows.
pub const SHARED_KEYS: &str = "SELECT a.key, d.spec, d.result_count FROM drive_aliases a \
     JOIN drives d ON d.id = a.drive_id WHERE a.key IN \
     (SELECT key FROM drive_aliases WHERE key LIKE 'l:%' OR key LIKE 'n:%' GROUP BY key HAVING COUNT(*) > 1) \
     ORDER BY a.key, d.id";

/// A [`SHARED_KEYS`] row as read: the key and the drive with its visible result count.
pub fn row((key, spec, result_count): (String, String, i64)) -> StorageResult<(String, DriveRow)> {
    Ok((key, DriveRow { drive: crate::sql::from_json(&spec)?, result_count }))
}

/// Drives that are one by the identity rules.
#[derive(Debug, Clone)]
pub struct Group {
    /// The keys they share.
    pub keys: Vec<String>,
    /// The drives, reviewed first, then most results.
    pub drives: Vec<DriveRow>,
    /// The drive the others merge into when the group is certain.
    pub into: Option<String>,
}

/// Groups drives sharing a key, joined when a drive is in two (`rows` as [`SHARED_KEYS`]
/// reads them).
pub fn groups(rows: Vec<(String, DriveRow)>) -> Vec<Group> {
    let mut group_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut groups: Vec<Option<Group>> = Vec::new();
    let mut by_key: BTreeMap<String, Vec<DriveRow>> = BTreeMap::new();
    for (key, row) in rows {
        by_key.entry(key).or_default().push(row);
    }
    for (key, drives) in by_key {
        // The groups these drives are in already: all become one.
        let mut found: Vec<usize> =
            drives.iter().filter_map(|d| group_of.get(&d.drive.id).copied()).collect();
        found.sort();
        found.dedup();
        let target = match found.first() {
            Some(&g) => g,
            None => {
                groups.push(Some(Group { keys: Vec::new(), drives: Vec::new(), into: None }));
                groups.len() - 1
            }
        };
        for &other in found.iter().skip(1) {
            if let Some(g) = groups[other].take() {
                for d in &g.drives {
                    group_of.insert(d.drive.id.clone(), target);
                }
                let t = groups[target].as_mut().expect("a live group");
                t.keys.extend(g.keys);
                t.drives.extend(g.drives);
            }
        }
        let t = groups[target].as_mut().expect("a live group");
        t.keys.push(key);
        for d in drives {
            if group_of.insert(d.drive.id.clone(), target).is_none() {
                t.drives.push(d);
            }
        }
    }
    let mut out: Vec<Group> = groups.into_iter().flatten().collect();
    for g in &mut out {
        g.keys.sort();
        g.keys.dedup();
        g.drives.sort_by(|a, b| {
            (!a.drive.reviewed, std::cmp::Reverse(a.result_count), &a.drive.id).cmp(&(
                !b.drive.reviewed,
                std::cmp::Reverse(b.result_count),
                &b.drive.id,
            ))
        });
        let reviewed = g.drives.iter().filter(|d| d.drive.reviewed).count();
        g.into = (reviewed <= 1).then(|| g.drives[0].drive.id.clone());
    }
    out
}

/// Every group of drives that are one, by the stored keys.
pub async fn find(storage: &dyn Storage) -> StorageResult<Vec<Group>> {
    Ok(groups(storage.shared_key_drives().await?))
}

/// A merge done: the drive merged away, the drive it went into, the results moved.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    pub from: String,
    pub into: String,
    pub moved_results: i64,
}

/// After an upgrade of the identity rules (the keys were rebuilt): merges the certain
/// groups, logging each merge; the rest wait for `ssdbase drives duplicates`.
pub async fn merge_after_upgrade(storage: &dyn Storage) -> StorageResult<()> {
    let at =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let reason = format!("one drive by the identity rules ({}), merged on upgrade", bench::identity::LAYOUT);
    for m in merge_certain(storage, &reason, at).await? {
        tracing::info!(from = %m.from, into = %m.into, moved_results = m.moved_results, "merged a duplicate drive");
    }
    let left = find(storage).await?.into_iter().filter(|g| g.into.is_none()).count();
    if left > 0 {
        tracing::warn!(groups = left, "drives that may be one wait for review: ssdbase drives duplicates");
    }
    Ok(())
}

/// Merges every certain group, as the merge route would; what was merged.
pub async fn merge_certain(storage: &dyn Storage, reason: &str, at: i64) -> StorageResult<Vec<Done>> {
    let mut done = Vec::new();
    for g in find(storage).await? {
        let Some(into) = &g.into else { continue };
        for d in g.drives.iter().filter(|d| &d.drive.id != into) {
            if let Merged::Moved(moved_results) =
                storage.merge_drives(&d.drive.id, into, Some(reason), at).await?
            {
                done.push(Done { from: d.drive.id.clone(), into: into.clone(), moved_results });
            }
        }
    }
    Ok(done)
}
