//! The `$filter`s of ScoringTasks that more than one desk counts by: the scorer's
//! queue, the header's count and a print batch's progress must agree on what is
//! left to score.

use scoredesk_server::model::scoring::TaskStatus;

/// The question of the task has a rubric (the `Rubric` collection is not empty).
pub const HAS_RUBRIC: &str = "Question/Rubric/any()";

/// What the scorer can take: `Status eq 0 and Question/Rubric/any()`. The header's
/// count, the groups' counts and the list all use it, so their numbers agree.
pub fn scorable() -> String {
    format!("{} and {HAS_RUBRIC}", status_is(TaskStatus::Unscored))
}

/// `Status eq <code>`.
pub fn status_is(status: TaskStatus) -> String {
    format!("Status eq {}", status.code())
}
