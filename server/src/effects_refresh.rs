//! Keeps the factor effects (`store::effects`) in step with the results: a background
//! task recomputes the drives whose results changed, a batch at a time, shortly after
//! each change. `/effects` reads only what this has written and says how many drives
//! still wait, so a reader never waits for the computation.

use crate::storage::DynStorage;
use std::time::{Duration, Instant};

/// Drives recomputed per pass: the combined effects they touch are then recomputed once.
const BATCH: usize = 64;
/// How long the task sleeps when nothing waits (or after an error).
const IDLE: Duration = Duration::from_secs(2);

/// Starts the refresh task.
pub fn spawn(storage: DynStorage) {
    tokio::spawn(async move {
        let mut since: Option<(Instant, usize)> = None;
        loop {
            match storage.refresh_effects(BATCH).await {
                Ok(0) => {
                    if let Some((started, drives)) = since.take() {
                        tracing::info!(
                            "factor effects: {drives} drives recomputed in {:.1} s",
                            started.elapsed().as_secs_f64()
                        );
                    }
                    tokio::time::sleep(IDLE).await;
                }
                Ok(n) => {
                    let (started, drives) = since.get_or_insert((Instant::now(), 0));
                    *drives += n;
                    if *drives % (BATCH * 16) < n {
                        tracing::info!(
                            "factor effects: {drives} drives recomputed so far ({:.0} s)",
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
                Err(e) => {
                    tracing::error!("recomputing the factor effects failed: {e}");
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    });
}
