//! Which feed serves which write method this version serves, and running a routed
//! write there. Apart from `write.rs` (what every write shares), which the feeds'
//! handlers use: so no handler depends on the dispatch that reaches it.

use super::write::{WriteRequest, Written};
use super::{comment_bank, delivery, results_admin, rubric_authoring, scoring};
use crate::odata::model::{EntitySet, Verb};
use crate::odata::ApiError;
use crate::store::WriteScope;

/// Whether this version serves `verb` (a write) on `set`; routing answers 501 for
/// the rest of what the feeds declare.
pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    (verb == Verb::Put && scoring::serves_put(set))
        || comment_bank::serves(set, verb)
        || delivery::serves(set, verb)
        || results_admin::serves(set, verb)
        || rubric_authoring::serves(set, verb)
}

/// Runs a routed write (one for which [`serves`] holds) in `writes`.
pub async fn run(
    request: &WriteRequest<'_>,
    verb: Verb,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let set = request.path.target();
    if comment_bank::serves(set, verb) {
        return comment_bank::write(request, verb, writes).await;
    }
    if delivery::serves(set, verb) {
        return delivery::write(request, verb, writes).await;
    }
    if results_admin::serves(set, verb) {
        return results_admin::write(request, writes).await;
    }
    if rubric_authoring::serves(set, verb) {
        return rubric_authoring::write(request, verb, writes).await;
    }
    if verb == Verb::Put && scoring::serves_put(set) {
        return scoring::put(request, writes).await;
    }
    Err(ApiError::Internal(anyhow::anyhow!(
        "{} on {} was routed to a write nobody serves",
        verb.as_str(),
        set.name
    )))
}
