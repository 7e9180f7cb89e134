//! The rows of a set that a reader may see beyond the area condition: what the
//! set's feed declares (`Feed::rows_seen`: a scorer sees only his own markings)
//! becomes constraints of every scope of that set a read builds, whether the URL
//! names the set, reaches it by a navigation or expands it, so that the store's
//! statement leaves the other rows out as it leaves out other areas'.

use crate::auth::Principal;
use crate::feeds::handler::state::AppState;
use crate::odata::model::EntitySet;
use crate::store::read::{seed_copies, Constraint};

/// What `principal` may see of `set`, as constraints on its rows (none: all).
pub fn seen_by(
    state: &AppState,
    set: &'static EntitySet,
    principal: &Principal,
) -> Vec<Constraint> {
    let mut constraints: Vec<Constraint> = (state.rows_seen)(set.name)
        .map(|rule| rule(principal))
        .unwrap_or_default();
    // Not a restriction in the sense of `is_restricted`: a seed copy's rows are
    // all of one result, so a join from one of them reaches only its own.
    constraints.extend(seed_copies::hidden_from(set.table, &principal.username));
    constraints
}

/// Whether some readers see only some rows of `set`: such a set is never read
/// through another set's statement (a join), where its constraints would not
/// reach.
pub fn is_restricted(state: &AppState, set: &'static EntitySet) -> bool {
    (state.rows_seen)(set.name).is_some()
}
