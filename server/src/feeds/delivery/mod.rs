//! External delivery's writes (spec, "External delivery"): snapshots so far; print
//! batches, attempts and answer uploads follow (issue 14). Reads are the generic
//! read layer's.

mod snapshots;

use super::write::{WriteRequest, Written};
use crate::odata::model::{EntitySet, Verb};
use crate::odata::ApiError;
use crate::store::WriteScope;

/// Whether `verb` on `set` is served here.
pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    snapshots::serves(set, verb)
}

pub async fn write(
    request: &WriteRequest<'_>,
    verb: Verb,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(ApiError::bad_request(format!(
            "{} are created at {0}, not through a navigation",
            request.path.target().name
        )));
    }
    snapshots::write(request, verb, writes).await
}
