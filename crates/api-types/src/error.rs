//! The error body of every 4xx and 5xx answer:
//! `{"errors":[{"detail": "...", "pointer": "..."}]}`.

use serde::{Deserialize, Serialize};

/// One thing wrong with a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorItem {
    /// What was wrong, in words.
    pub detail: String,
    /// Where: a field path (`tags.drive.sku`, `[2].text line 7`), a query parameter, or
    /// `line N` of an uploaded file. Absent when the whole request is meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub pointer: Option<String>,
}

/// The body of every 4xx and 5xx answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    #[cfg_attr(feature = "openapi", schema(min_items = 1))]
    pub errors: Vec<ErrorItem>,
}
