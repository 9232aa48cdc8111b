//! The `ssdbase` server: the HTTP API and the seed loader over the storage (SQLite or
//! PostgreSQL behind one trait, the `store` crate). The binary in `main.rs` only wires
//! command-line arguments to these pieces.

pub mod aggregate;
pub mod api;
pub mod csv_table;
pub mod dump;
pub mod effects_refresh;
pub mod error;
pub mod html;
pub mod ingest;
pub mod log;
pub mod metrics;
pub mod ocr_worker;
pub mod security;
pub mod site;
/// Persistence, the `store` crate: the server's modules, tests and benchmarks name it
/// `storage`, as when it lived here.
pub use store as storage;

use storage::DynStorage;

/// Loads the seed dataset when the database is new and empty. Returns how many results
/// it loaded (0 when the database was seeded before or holds data).
pub async fn seed_if_empty(storage: &DynStorage) -> anyhow::Result<usize> {
    let ds = bench::seeds::seed_dataset().map_err(|e| anyhow::anyhow!("seed dataset: {e}"))?;
    let submissions =
        ingest::seed_submissions(&ds).await.map_err(|(i, refused)| match refused.into_item() {
            Ok(e) => {
                anyhow::anyhow!("seed dataset: results[{i}]: {}: {}", e.pointer.unwrap_or_default(), e.detail)
            }
            Err(e) => anyhow::Error::from(e),
        })?;
    let loaded = storage.seed_if_empty(&ds.drives, &ds.observations, &submissions).await?;
    Ok(if loaded { submissions.len() } else { 0 })
}

/// Opens the database, applies migrations and loads the seeds when it is new.
pub async fn open(database_url: &str) -> anyhow::Result<DynStorage> {
    let storage = storage::connect(database_url).await?;
    seed_if_empty(&storage).await?;
    Ok(storage)
}
