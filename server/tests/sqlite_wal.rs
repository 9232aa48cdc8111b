//! The embedded database's write-ahead log is copied into the database file while the
//! server runs (the checkpointer in `storage::sqlite`, beside the writer), not only when
//! it closes: without that, the WAL would grow for as long as the server runs.

use ssdbase::storage::{NewResult, NewSubmission, Submitted};
use std::time::{Duration, Instant};

const CDM3: &str = "CrystalDiskMark 3.0.3 x64 (C) 2007-2013 hiyohiyo\n\
    Sequential Read : 453.079 MB/s\nSequential Write : 374.536 MB/s\n";

fn submission(n: usize, result: &bench::BenchResult) -> NewSubmission {
    // 4 KB of distinct text per upload, so the database file has to grow.
    let body = format!("{CDM3}Comment : {n} {}", "x".repeat(4096)).into_bytes();
    NewSubmission {
        content_hash: ssdbase::ingest::sha256_hex(&body),
        body,
        format: None,
        edit_token_hash: "0".repeat(64),
        client: None,
        created_at: 0,
        results: vec![NewResult {
            result: result.clone(),
            tags: Default::default(),
            source: None,
            flags: vec![],
            new_drive: None,
            result_json: None,
        }],
        provenance: None,
        runner: None,
    }
}

#[tokio::test]
async fn committed_pages_reach_the_database_file_while_the_server_runs() {
    let tmp = tempfile::Builder::new().prefix("ssdbase_wal_").tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let file = dir.join("wal.sqlite");
    let storage = ssdbase::open(&format!("sqlite://{}", file.display())).await.unwrap();
    let size = || std::fs::metadata(&file).unwrap().len();
    // Let the migrations reach the file first.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let before = size();
    let result = bench::parse_str(CDM3, None).unwrap().remove(0);
    for n in 0..200 {
        let outcome = storage.submit(&submission(n, &result)).await.unwrap();
        assert!(matches!(outcome, Submitted::Stored { .. }), "{outcome:?}");
    }
    let grown = 200 * 4096;
    let waited = Instant::now();
    while size() < before + grown && waited.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        size() >= before + grown,
        "database file {} bytes, was {before}: the WAL was not checkpointed",
        size()
    );
    drop(storage);
}
