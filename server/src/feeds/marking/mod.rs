//! Marking quality (docs/marking-quality.md), our extensions: flags to a lead
//! marker and the lead's answers (docs/odata.md, "Extensions").

mod flag_answers;
mod flags;

use crate::feeds::handler::{Feature, WriteRequest};
use crate::odata::ApiError;

pub use flag_answers::FLAG_ANSWERS;
pub use flags::FLAGS;

pub static FEATURE: Feature = Feature {
    feeds: &[&flags::FEED, &flag_answers::FEED],
    actions: &[],
    complex_types: &[],
};

/// These sets are written at their own collection only: the rules of a flag do
/// not change with the URL it is reached by.
fn at_the_collection(request: &WriteRequest<'_>) -> Result<(), ApiError> {
    if request.path.steps.is_empty() {
        return Ok(());
    }
    let set = request.path.target().name;
    Err(ApiError::bad_request(format!(
        "{set} are written by POST to {set}, not through a navigation"
    )))
}
