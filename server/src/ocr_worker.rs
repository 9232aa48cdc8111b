//! The bounded pool of screenshot recognition workers. Each worker claims one job at a
//! time from the database queue ([`crate::storage::OcrJobs`]) and runs the recogniser on
//! a blocking thread, so a burst of uploads only lengthens the queue: request handling
//! never waits for recognition, and at most `workers` images are read at once.

use crate::ingest::now_unix;
use crate::storage::DynStorage;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Notify};

/// Reads one image: the recognition as JSON, or a message for the user. Reports progress
/// (0 to 1, and what it is doing) through the callback.
pub type Recognizer =
    Arc<dyn Fn(&[u8], &mut dyn FnMut(f64, &str)) -> Result<serde_json::Value, String> + Send + Sync>;

/// The real recogniser: [`ocr::recognize`], its [`ocr::Recognition`] as JSON, or its
/// error as the message the uploader reads.
/// Stages are reported as the reader starts them (decoding, looking for windows, the
/// grid, values, row labels, settings); a job stops at `RECOGNITION_DEADLINE`. A
/// screenshot showing several windows gives the left-most one that reads.
pub fn screenshot_recognizer() -> Recognizer {
    Arc::new(|image, progress| {
        let mut job = ocr::Job { deadline: Some(RECOGNITION_DEADLINE), progress: Some(progress) };
        let readings = ocr::recognize_job(image, &mut job).map_err(|e| e.to_string())?;
        let mut first_error = None;
        for reading in readings {
            match reading {
                Ok(recognition) => {
                    return serde_json::to_value(&recognition)
                        .map_err(|e| format!("recognition does not serialise: {e}"))
                }
                Err(e) => {
                    first_error.get_or_insert(e.to_string());
                }
            }
        }
        Err(first_error.unwrap_or_else(|| "no benchmark window could be read".into()))
    })
}

/// Wall-clock limit of one recognition: a typical screenshot takes under a second and a
/// desktop capture a few; a damaged JPEG once took 6 s. Well inside `LEASE_SECS`, so a
/// stopped job is failed by its own worker, not claimed again.
pub const RECOGNITION_DEADLINE: Duration = Duration::from_secs(20);

/// How long a claimed job stays with its worker without a progress report. A worker
/// whose server was killed stops reporting, and the job is claimed again after this.
pub const LEASE_SECS: i64 = 60;

/// A job claimed this many times without finishing is failed rather than retried
/// forever (an image that kills its server every time must not take the queue down).
pub const MAX_ATTEMPTS: i64 = 3;

/// Wakes idle workers when a job is queued on this server; workers also poll, which
/// picks up jobs queued through another server on the same database and expired leases.
#[derive(Clone, Default)]
pub struct QueueSignal(Arc<Notify>);

impl QueueSignal {
    pub fn job_queued(&self) {
        self.0.notify_one();
    }
}

const POLL: Duration = Duration::from_secs(2);

/// Starts `workers` workers on the current tokio runtime.
pub fn spawn_workers(storage: DynStorage, recognizer: Recognizer, workers: usize, signal: QueueSignal) {
    for _ in 0..workers.max(1) {
        tokio::spawn(work(storage.clone(), recognizer.clone(), signal.clone()));
    }
}

async fn work(storage: DynStorage, recognizer: Recognizer, signal: QueueSignal) {
    loop {
        match storage.claim_ocr(now_unix(), LEASE_SECS).await {
            Ok(Some(job)) => run_job(&storage, &recognizer, job).await,
            Ok(None) => {
                let _ = tokio::time::timeout(POLL, signal.0.notified()).await;
            }
            Err(e) => {
                tracing::error!("ocr queue: {e}");
                tokio::time::sleep(POLL).await;
            }
        }
    }
}

async fn run_job(storage: &DynStorage, recognizer: &Recognizer, job: crate::storage::ClaimedJob) {
    let started = std::time::Instant::now();
    let outcome = if job.attempts > MAX_ATTEMPTS {
        Err(format!(
            "recognition did not finish in {MAX_ATTEMPTS} attempts (its server stopped each time); \
             the image was not read"
        ))
    } else {
        let (tx, mut rx) = mpsc::unbounded_channel::<(f64, String)>();
        let recognizer = recognizer.clone();
        let image = job.image;
        let reading = tokio::task::spawn_blocking(move || {
            recognizer(&image, &mut |progress, stage| {
                let _ = tx.send((progress, stage.to_string()));
            })
        });
        // Progress reports renew the lease; the channel closes when recognition ends.
        while let Some((progress, stage)) = rx.recv().await {
            let lease = now_unix() + LEASE_SECS;
            if let Err(e) = storage.ocr_progress(job.id, progress.clamp(0.0, 1.0), &stage, lease).await {
                tracing::warn!(job = job.id, "ocr job progress not recorded: {e}");
            }
        }
        match reading.await {
            Ok(Ok(recognition)) => Ok(recognition.to_string()),
            Ok(Err(message)) => Err(message),
            Err(e) => Err(format!("recognition crashed: {e}")),
        }
    };
    let label = if outcome.is_ok() { "done" } else { "failed" };
    crate::metrics::global().ocr_job(label, started.elapsed().as_secs_f64());
    if let Err(e) = storage.finish_ocr(job.id, outcome, now_unix()).await {
        // The lease runs out and another worker takes the job again.
        tracing::error!(job = job.id, "ocr job: cannot record the outcome: {e}");
    }
}

/// How often the retention sweep looks for expired unpublished screenshots.
const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// Deletes unpublished screenshots (their jobs, images and recognitions) older than
/// `keep`, once now and then every hour; returns how many it deleted the first time.
/// Published ones stay: their image is the result's upload. Several servers on one
/// database may all sweep: a job is deleted once.
pub async fn sweep_unpublished(
    storage: &DynStorage,
    keep: Duration,
) -> Result<u64, crate::storage::StorageError> {
    let before = now_unix() - keep.as_secs() as i64;
    let n = storage.sweep_unpublished_ocr(before).await?;
    crate::metrics::global().screenshots_swept(n);
    if n > 0 {
        tracing::info!(deleted = n, "deleted unpublished screenshots older than {} h", keep.as_secs() / 3600);
    }
    Ok(n)
}

/// Runs [`sweep_unpublished`] every hour, for as long as the process lives.
pub fn spawn_retention(storage: DynStorage, keep: Duration) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        loop {
            every.tick().await;
            if let Err(e) = sweep_unpublished(&storage, keep).await {
                tracing::error!("the screenshot retention sweep failed: {e}");
            }
        }
    });
}
