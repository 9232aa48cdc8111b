//! Turning uploads (and the seed dataset) into [`NewSubmission`]s: content hash, edit
//! token, flags from the analysis. Shared by the API and the seed loader.

use crate::storage::{NewResult, NewSubmission};
use bench::analysis::{self, Flag};
use bench::seeds::Dataset;
use bench::{BenchResult, DriveSku, Tags};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A new secret edit token (256 random bits, hex) and the hash that is stored.
pub fn new_edit_token() -> (String, String) {
    let mut buf = [0u8; 32];
    getrandom::fill(&mut buf).expect("the operating system's random source works");
    let token: String = buf.iter().map(|b| format!("{b:02x}")).collect();
    let hash = sha256_hex(token.as_bytes());
    (token, hash)
}

pub fn now_unix() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Copies what the catalogue knows about a tagged SKU into the drive tag, where the
/// submitter left it out, so filters on vendor, model and capacity find the result.
pub fn complete_tags(tags: &mut Tags, sku: Option<&DriveSku>) {
    let Some(d) = sku else { return };
    let t = &mut tags.drive;
    t.vendor.get_or_insert_with(|| d.vendor.clone());
    t.model.get_or_insert_with(|| d.model.clone());
    t.capacity_gb.get_or_insert(d.capacity_gb);
    if t.part_number.is_none() {
        t.part_number.clone_from(&d.part_number);
    }
}

/// The flags the analysis raises for one result: link ceiling or cache, and far above
/// the rated figures of its catalogue SKU.
pub fn flags_for(result: &BenchResult, tags: &Tags, sku: Option<&DriveSku>) -> Vec<Flag> {
    let mut flags = analysis::interface_flags(result, tags);
    if let Some(d) = sku {
        flags.extend(analysis::rated_flags(result, &d.rated));
    }
    flags
}

/// The whole seed dataset as submissions: one per result, its JSON as the body.
pub fn seed_submissions(ds: &Dataset) -> Vec<NewSubmission> {
    let skus: HashMap<&str, &DriveSku> = ds.drives.iter().map(|d| (d.id.as_str(), d)).collect();
    let created_at = now_unix();
    ds.results
        .iter()
        .map(|tr| {
            let sku = tr.tags.drive.sku.as_deref().and_then(|s| skus.get(s).copied());
            let mut tags = tr.tags.clone();
            complete_tags(&mut tags, sku);
            let body = serde_json::to_vec(tr).expect("seeds serialise");
            let (_, edit_token_hash) = new_edit_token();
            NewSubmission {
                content_hash: sha256_hex(&body),
                body,
                format: Some("seed".into()),
                edit_token_hash,
                client: Some("seed".into()),
                created_at,
                results: vec![NewResult {
                    flags: flags_for(&tr.result, &tags, sku),
                    result: tr.result.clone(),
                    tags,
                    source: tr.source.clone(),
                }],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_and_tokens() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let (a, ha) = new_edit_token();
        let (b, _) = new_edit_token();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(ha, sha256_hex(a.as_bytes()));
    }

    #[test]
    fn every_seed_becomes_one_submission_with_a_distinct_hash() {
        let ds = bench::seeds::seed_dataset().unwrap();
        let subs = seed_submissions(&ds);
        assert_eq!(subs.len(), ds.results.len());
        let hashes: std::collections::HashSet<_> = subs.iter().map(|s| &s.content_hash).collect();
        assert_eq!(hashes.len(), subs.len());
    }
}
