//! Per-client limit on submissions (GCRA from the `governor` crate, keyed by the
//! client's IP address). A client may send `per_minute` files at once and then one more
//! every `60 / per_minute` seconds; past that it gets 429 with `Retry-After`.

use crate::error::ApiError;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};

/// Forget idle clients every this many checks, so the table stays as small as the set
/// of recently active clients.
const CLEANUP_EVERY: u64 = 4096;

pub struct SubmitLimiter {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    per_minute: NonZeroU32,
    checks: AtomicU64,
}

impl SubmitLimiter {
    pub fn per_minute(per_minute: NonZeroU32) -> SubmitLimiter {
        SubmitLimiter {
            limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            per_minute,
            checks: AtomicU64::new(0),
        }
    }

    /// Takes `files` submissions from the client's allowance, or says when to retry.
    pub fn check(&self, client: IpAddr, files: u32) -> Result<(), ApiError> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % CLEANUP_EVERY == CLEANUP_EVERY - 1 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        let n = NonZeroU32::new(files).unwrap_or(NonZeroU32::MIN);
        match self.limiter.check_key_n(&client, n) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                Err(ApiError::TooManyRequests {
                    detail: format!(
                        "too many submissions from {client}: at most {} a minute; retry in {} s",
                        self.per_minute,
                        wait.as_secs_f64().ceil()
                    ),
                    retry_after_secs: wait.as_secs_f64().ceil() as u64,
                })
            }
            Err(_) => Err(ApiError::TooManyRequests {
                detail: format!(
                    "{files} files in one request is more than the {} a client may send per minute",
                    self.per_minute
                ),
                retry_after_secs: 60,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_burst_then_waits_while_others_go_on() {
        let l = SubmitLimiter::per_minute(NonZeroU32::new(3).unwrap());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(l.check(a, 2).is_ok());
        assert!(l.check(a, 1).is_ok());
        match l.check(a, 1) {
            Err(ApiError::TooManyRequests { retry_after_secs, .. }) => {
                assert!((1..=20).contains(&retry_after_secs), "{retry_after_secs}")
            }
            other => panic!("expected 429, got {other:?}"),
        }
        assert!(l.check(b, 3).is_ok(), "another client has its own allowance");
        assert!(matches!(l.check(b, 4), Err(ApiError::TooManyRequests { retry_after_secs: 60, .. })));
    }
}
