//! SSDBase's shared core: the domain model, the result-file parsers and the analysis.
//!
//! No I/O happens here, so the same code runs in the server, the command line and the
//! browser (wasm32). Inputs are bytes or text; outputs are plain data.

pub mod analysis;
pub mod cache;
pub mod curves;
pub mod dates;
pub mod difference;
pub mod effects;
pub mod fields;
pub mod firmware;
pub mod folding;
pub mod identity;
pub mod lines;
pub mod model;
pub mod parse;
pub mod platform_group;
pub mod seeds;
pub mod standing;
pub mod steady;
pub mod text;

/// The regex engine behind every pattern (see Cargo.toml): the full `regex` natively,
/// `regex-lite` in the browser; the patterns are written for both.
#[cfg(not(target_arch = "wasm32"))]
use ::regex as re;
#[cfg(target_arch = "wasm32")]
use regex_lite as re;

pub use fields::{Field, FieldValue, FIELDS};
pub use model::*;
pub use parse::{
    detect, parse_bytes, parse_bytes_named, parse_document, parse_document_named, parse_str, parse_str_named,
    Format, ParseError, UnknownFormat,
};
pub use platform_group::PlatformGroup;
