//! The rows of a set that a reader may see beyond the area condition: what the
//! set's feed declares (`Feed::rows_seen`: a scorer sees only his own markings)
//! becomes constraints of every scope of that set a read builds, whether the URL
//! names the set, reaches it by a navigation or expands it, so that the store's
//! statement leaves the other rows out as it leaves out other areas'.

use crate::auth::Principal;
use crate::feeds::handler::state::AppState;
use crate::model::access::Role;
use crate::odata::model::EntitySet;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::{seed_copies, Constraint};

/// What `principal` may see of `set`, as constraints on its rows (none: all).
pub async fn seen_by(
    state: &AppState,
    set: &'static EntitySet,
    principal: &Principal,
) -> Result<Vec<Constraint>, ApiError> {
    let mut constraints: Vec<Constraint> = (state.rows_seen)(set.name)
        .map(|rule| rule(principal))
        .unwrap_or_default();
    // Not a restriction in the sense of `is_restricted`: a seed copy's rows are
    // all of one result, so a join from one of them reaches only its own.
    constraints.extend(seed_copies::hidden_from(set.table, &principal.username));
    // A scorer paused from a question is offered none of its tasks, nor a round
    // of it to mark (docs/marking-quality.md, "Pauses"): one indexed read of his
    // open pauses, so that the constraint, and its cost, is there only while he
    // has one.
    let paused_from: Option<fn(Vec<Value>) -> Constraint> = match set.table {
        "scoring_tasks" => Some(Constraint::NoOpenTaskOf),
        "marking_queue" => Some(Constraint::NotOfQuestions),
        _ => None,
    };
    if let (Role::Scorer, Some(constraint), Some(area)) =
        (principal.role, paused_from, principal.area)
    {
        let paused = state
            .store
            .paused_questions(area, &principal.username)
            .await?;
        if !paused.is_empty() {
            constraints.push(constraint(paused.into_iter().map(Value::Int64).collect()));
        }
    }
    Ok(constraints)
}

/// Whether some readers see only some rows of `set`: such a set is never read
/// through another set's statement (a join), where its constraints would not
/// reach.
pub fn is_restricted(state: &AppState, set: &'static EntitySet) -> bool {
    (state.rows_seen)(set.name).is_some()
}
