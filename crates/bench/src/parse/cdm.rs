use super::{Format, ParseError};
use crate::model::BenchResult;
use crate::text::Document;

pub(super) fn has_kdiskmark_rows(_doc: &Document) -> bool {
    false
}

pub(super) fn has_cdm_rows(_doc: &Document) -> bool {
    false
}

pub(super) fn parse(_doc: &Document, _format: Format) -> Result<Vec<BenchResult>, ParseError> {
    Err(ParseError::whole(None, "a parser (not written yet)", "nothing"))
}
