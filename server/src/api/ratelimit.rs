//! Per-client rate limits (GCRA from the `governor` crate, keyed by the client's IP
//! address): on submitted files, on screenshot uploads and on every write request. A
//! client may make `per_minute` at once and then one more every `60 / per_minute`
//! seconds; past that it gets 429 with `Retry-After`, while other clients go on.

use crate::error::ApiError;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};

/// Forget idle clients every this many checks, so the table stays as small as the set
/// of recently active clients.
const CLEANUP_EVERY: u64 = 4096;

pub struct RateLimiter {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    per_minute: NonZeroU32,
    /// What is counted, plural, for the 429's message ("submissions", "writes").
    what: &'static str,
    checks: AtomicU64,
}

impl RateLimiter {
    pub fn per_minute(per_minute: NonZeroU32, what: &'static str) -> RateLimiter {
        RateLimiter {
            limiter: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            per_minute,
            what,
            checks: AtomicU64::new(0),
        }
    }

    /// Takes `files` from the client's allowance, or says when to retry.
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
                        "too many {} from {client}: at most {} a minute; retry in {} s",
                        self.what,
                        self.per_minute,
                        wait.as_secs_f64().ceil()
                    ),
                    retry_after_secs: wait.as_secs_f64().ceil() as u64,
                })
            }
            Err(_) => Err(ApiError::TooManyRequests {
                detail: format!(
                    "{files} {} in one request is more than the {} a client may send per minute",
                    self.what, self.per_minute
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
        let l = RateLimiter::per_minute(NonZeroU32::new(3).unwrap(), "submissions");
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
