//! Keeps the factor effects (`store::effects`) in step with the results: a background
//! task recomputes the drives whose results changed, a batch at a time, and combines the
//! effects they touched across drives at most every [`COMBINE_GAP`] (and every
//! [`COMBINE_EVERY`] while drives still wait). Combining reads every drive's part of an
//! effect (at 1,000,000 results about 8 s for one submission's effects), so it is done
//! once for many drives rather than after each. `/effects` reads only what this has
//! written and says what still waits, so a reader never waits for the computation.

use crate::storage::DynStorage;
use std::time::{Duration, Instant};

/// Drives recomputed per pass.
const BATCH: usize = 64;
/// How long the task sleeps when nothing waits (or after an error).
const IDLE: Duration = Duration::from_secs(2);
/// The least time between two combinations once no drive waits: a steady trickle of
/// submissions costs one combination per gap, not one each.
const COMBINE_GAP: Duration = Duration::from_secs(30);
/// How often the combined effects follow while drives are still being recomputed.
const COMBINE_EVERY: Duration = Duration::from_secs(60);

/// Starts the refresh task.
pub fn spawn(storage: DynStorage) {
    tokio::spawn(async move {
        let mut since: Option<(Instant, usize)> = None;
        // None: never combined in this process; the first quiet pass does it at once.
        let mut combined: Option<Instant> = None;
        loop {
            match pass(&storage, &mut since, &mut combined).await {
                Ok(true) => {}
                Ok(false) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    tracing::error!("recomputing the factor effects failed: {e}");
                    tokio::time::sleep(IDLE).await;
                }
            }
        }
    });
}

/// One pass: a batch of drives, then the combination when it is due. True when drives
/// were recomputed (more may wait).
async fn pass(
    storage: &DynStorage,
    since: &mut Option<(Instant, usize)>,
    combined: &mut Option<Instant>,
) -> crate::storage::StorageResult<bool> {
    let n = storage.refresh_effects(BATCH).await?;
    if n > 0 {
        let (started, drives) = since.get_or_insert((Instant::now(), 0));
        *drives += n;
        if *drives % (BATCH * 16) < n {
            tracing::info!(
                "factor effects: {drives} drives recomputed so far ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    }
    let due = combined.is_none_or(|at| at.elapsed() >= if n == 0 { COMBINE_GAP } else { COMBINE_EVERY });
    if due {
        let effects = storage.combine_effects().await?;
        *combined = Some(Instant::now());
        if let (0, Some((started, drives))) = (n, since.take()) {
            tracing::info!(
                "factor effects: {drives} drives recomputed and {effects} effects combined in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(n > 0)
}
