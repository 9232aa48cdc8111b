use super::ParseError;
use crate::model::BenchResult;
use crate::text::Document;

pub(super) fn parse(_doc: &Document) -> Result<Vec<BenchResult>, ParseError> {
    Err(ParseError::whole(None, "a parser (not written yet)", "nothing"))
}
