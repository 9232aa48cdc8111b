//! Bearer tokens: the edit token handed out with each submission and the admin token.
//! Tokens are compared as sha256 digests in constant time, so neither the stored hash
//! nor the timing of a comparison says anything about a token.

use super::state::AppState;
use crate::error::ApiError;
use axum::http::{header, HeaderMap};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

pub fn token_digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The token of an `Authorization: Bearer <token>` header; 401 when there is none.
pub fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .ok_or_else(|| ApiError::Unauthorized("send the token as Authorization: Bearer <token>".into()))?;
    value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ApiError::Unauthorized("the Authorization header must be Bearer <token>".into()))
}

/// Whether `token` hashes to `expected_hex` (a stored lowercase hex sha256).
pub fn matches_hex(token: &str, expected_hex: &str) -> bool {
    let digest = token_digest(token);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex.as_bytes().ct_eq(expected_hex.as_bytes()).into()
}

impl AppState {
    /// Whether the request carries the admin token (never true without one configured).
    pub fn is_admin(&self, headers: &HeaderMap) -> bool {
        match (&self.admin_token_hash, bearer(headers)) {
            (Some(expected), Ok(token)) => token_digest(token).ct_eq(expected).into(),
            _ => false,
        }
    }

    /// 401 without a token, 403 with a wrong one or when moderation is not configured.
    pub fn require_admin(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        bearer(headers)?;
        if self.admin_token_hash.is_none() {
            return Err(ApiError::Forbidden(
                "moderation is off: the server was started without an admin token (SSDBASE_ADMIN_TOKEN)"
                    .into(),
            ));
        }
        if self.is_admin(headers) {
            Ok(())
        } else {
            Err(ApiError::Forbidden("the token is not the admin token".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_only_their_hash() {
        let hash = crate::ingest::sha256_hex(b"secret");
        assert!(matches_hex("secret", &hash));
        assert!(!matches_hex("Secret", &hash));
        assert!(!matches_hex("secret", &hash[..63]));
    }

    #[test]
    fn bearer_reads_the_header_or_says_what_is_wrong() {
        let mut h = HeaderMap::new();
        assert!(matches!(bearer(&h), Err(ApiError::Unauthorized(_))));
        h.insert(header::AUTHORIZATION, "Basic abc".parse().unwrap());
        assert!(matches!(bearer(&h), Err(ApiError::Unauthorized(_))));
        h.insert(header::AUTHORIZATION, "Bearer abc".parse().unwrap());
        assert_eq!(bearer(&h).unwrap(), "abc");
    }
}
