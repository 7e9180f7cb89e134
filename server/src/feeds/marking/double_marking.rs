//! Where double marking meets the spec's scoring writes: a chosen task set to 3
//! keeps its marks as round 1 and goes to 2 instead; a task waiting for a
//! marking is not scored, flagged or re-marked through the spec's feeds, since
//! its final mark comes from the rounds (docs/marking-quality.md).

use crate::feeds::handler::AppState;
use crate::model::area::CustomerArea;
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::model::second_marking::chosen_for_second_marking;
use crate::odata::ApiError;
use crate::store::Tx;

/// 409 when the task waits for a second marking or a resolution. Call it with
/// the result's lock held ([`Tx::lock_result`]).
pub async fn refuse_while_waiting(
    tx: &mut Tx,
    area: CustomerArea,
    task: TaskKey,
) -> Result<(), ApiError> {
    match tx.waiting_marking(area, task).await? {
        None => Ok(()),
        Some(waiting) => Err(ApiError::Conflict(format!(
            "ScoringTasks(QuestionID={}L,ResultID={}) waits for its round {} marking: its final \
             mark is decided by its Markings, not written here",
            task.question_id, task.result_id, waiting.waiting.round
        ))),
    }
}

/// When `status` is 3 and the task is chosen for double marking by its
/// question's plan (and was never double-marked), keeps its marks as round 1 by
/// `by`, queues it for a second marking and sets it to 2, leaving the Result as
/// it was. Returns whether it did; when not, the caller sets the status as asked.
pub async fn keep_first_marking_if_chosen(
    tx: &mut Tx,
    state: &AppState,
    area: CustomerArea,
    task: TaskKey,
    previous: TaskStatus,
    status: TaskStatus,
    by: &str,
) -> Result<bool, ApiError> {
    if status != TaskStatus::Scored || previous == TaskStatus::Scored {
        return Ok(false);
    }
    let Some(plan) = tx.marking_plan(area, task.question_id).await? else {
        return Ok(false);
    };
    let secret = state.signing_key_in(tx).await?.to_vec();
    if !chosen_for_second_marking(&secret, task.question_id, task.result_id, plan.share())
        || tx.has_markings(area, task).await?
    {
        return Ok(false);
    }
    if !tx.keep_first_marking(area, task, &plan, by).await? {
        // No ScoringResult (a question without a rubric): nothing to mark twice.
        return Ok(false);
    }
    tx.set_task_status(area, task, TaskStatus::Saved, by)
        .await?;
    Ok(true)
}
