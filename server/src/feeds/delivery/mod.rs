//! External delivery's writes (spec, "External delivery"): snapshots, print
//! batches, attempts and answer uploads. Reads are the generic read layer's.

mod attempts;
mod batches;
mod fields;
mod snapshots;
mod uploads;

use super::write::{WriteRequest, Written};
use crate::odata::model::{EntitySet, Verb};
use crate::odata::ApiError;
use crate::store::WriteScope;

use crate::feeds::entities::{ANSWER_UPLOADS, ATTEMPTS, PRINT_BATCHES};

/// Whether `verb` on `set` is served here.
pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    snapshots::serves(set, verb)
        || (verb == Verb::Post
            && [PRINT_BATCHES.name, ATTEMPTS.name, ANSWER_UPLOADS.name].contains(&set.name))
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
    match request.path.target().name {
        name if name == PRINT_BATCHES.name => batches::post(request, writes).await,
        name if name == ATTEMPTS.name => attempts::post(request, writes).await,
        name if name == ANSWER_UPLOADS.name => uploads::post(request, writes).await,
        _ => snapshots::write(request, verb, writes).await,
    }
}
