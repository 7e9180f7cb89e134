//! Where seeds meet the spec's scoring writes (docs/marking-quality.md, "Seeds"):
//! a marker who scores a real task is now and then served a seed copy next, and
//! his scoring of a copy is kept against the definitive marks. A copy is never
//! chosen for double marking.

use crate::auth::Principal;
use crate::feeds::handler::AppState;
use crate::model::access::Role;
use crate::model::area::CustomerArea;
use crate::model::pauses::{pause_message, standing, WINDOW};
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::model::seeds::{next_seed, serves_seed};
use crate::odata::ApiError;
use crate::store::{NewPause, SeedCopy, Tx};

/// The seed copy `task` is, if it is one (call it under the result's lock).
pub async fn seed_copy_at(
    tx: &mut Tx,
    area: CustomerArea,
    task: TaskKey,
) -> Result<Option<SeedCopy>, ApiError> {
    Ok(tx.seed_copy(area, task).await?)
}

/// After `principal` set `task` from `previous` to `status`: when he scored a
/// seed copy, keeps his total against the definitive one; when he scored a real
/// task of a question whose plan serves seeds, serves him one at the plan's
/// rate; and pauses him when his seeds leave the tolerance.
pub async fn after_status(
    tx: &mut Tx,
    state: &AppState,
    principal: &Principal,
    area: CustomerArea,
    task: TaskKey,
    copy: Option<&SeedCopy>,
    (previous, status): (TaskStatus, TaskStatus),
) -> Result<(), ApiError> {
    if status != TaskStatus::Scored || previous == TaskStatus::Scored {
        return Ok(());
    }
    if let Some(copy) = copy {
        let score = tx
            .scoring_result_score(area, task)
            .await?
            .unwrap_or_default();
        tx.record_seed_marking(area, task, copy, score).await?;
        return pause_if_out_of_line(tx, area, task.question_id, &copy.marker).await;
    }
    serve_at_rate(tx, state, principal, area, task).await
}

/// Serves `principal`, who has just scored the real `task`, a seed of its
/// question at the plan's rate, unless one waits for him already, he is paused
/// from it or he has seen them all.
async fn serve_at_rate(
    tx: &mut Tx,
    state: &AppState,
    principal: &Principal,
    area: CustomerArea,
    task: TaskKey,
) -> Result<(), ApiError> {
    // Seeds standardise markers: a lead marks the definitive scripts.
    if principal.role != Role::Scorer {
        return Ok(());
    }
    let Some(plan) = tx.seed_plan(area, task.question_id).await? else {
        return Ok(());
    };
    let marker = principal.username.as_str();
    let secret = state.signing_key_in(tx).await?.to_vec();
    if !serves_seed(
        &secret,
        task.question_id,
        task.result_id,
        marker,
        plan.rate(),
    ) || tx.has_seed_waiting(area, task.question_id, marker).await?
        || tx
            .open_pause(area, task.question_id, marker)
            .await?
            .is_some()
    {
        return Ok(());
    }
    let offers = tx.seed_offers(area, task.question_id, marker).await?;
    if let Some(seed_id) = next_seed(&offers) {
        tx.serve_seed_copy(area, seed_id, marker).await?;
    }
    Ok(())
}

/// Pauses `marker` from the question when his latest seeds of it, since he was
/// last released, are out of the plan's tolerance (model::pauses).
async fn pause_if_out_of_line(
    tx: &mut Tx,
    area: CustomerArea,
    question_id: i64,
    marker: &str,
) -> Result<(), ApiError> {
    let Some(plan) = tx.seed_plan(area, question_id).await? else {
        return Ok(());
    };
    let deviations = tx
        .seed_deviations_since_release(area, question_id, marker, WINDOW)
        .await?;
    if let Some(pause) = standing(&deviations, &plan) {
        let message = pause_message(question_id, &pause);
        let new = NewPause {
            question_id,
            marker,
            pause,
            message: &message,
        };
        tx.insert_pause(area, new).await?;
    }
    Ok(())
}
