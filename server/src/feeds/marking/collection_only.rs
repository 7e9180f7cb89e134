//! What both sets of flags refuse: a write reached through a navigation.

use crate::feeds::handler::WriteRequest;
use crate::odata::ApiError;

/// These sets are written at their own collection only: the rules of a flag do
/// not change with the URL it is reached by.
pub(super) fn at_the_collection(request: &WriteRequest<'_>) -> Result<(), ApiError> {
    if request.path.steps.is_empty() {
        return Ok(());
    }
    let set = request.path.target().name;
    Err(ApiError::bad_request(format!(
        "{set} are written by POST to {set}, not through a navigation"
    )))
}
