//! What happens when the delivery system finalises a result: one ScoringTask for
//! each unscored answer (the spec's first transition, into Status 0). Every path that
//! finalises results (the demo seed, `seed --scale`, answer uploads) goes through here.

use super::area::CustomerArea;
use super::scoring::{TaskKey, TaskStatus};

/// The result a set of answers belongs to, as its tasks need it.
#[derive(Debug, Clone, Copy)]
pub struct FinalisedResult {
    pub area: CustomerArea,
    pub group_id: Option<i32>,
    pub assessment_id: i64,
    pub finished_at: i64,
}

/// An answer of a finalised result: which question, and its score if it has one.
#[derive(Debug, Clone)]
pub struct FinalisedAnswer {
    pub key: TaskKey,
    pub actual_score: Option<i32>,
    /// Its answer group's key (model::answer_groups), for its task.
    pub answer_key: Option<String>,
}

/// A ScoringTask to create.
#[derive(Debug, Clone)]
pub struct NewScoringTask {
    pub area: CustomerArea,
    pub key: TaskKey,
    pub group_id: Option<i32>,
    pub assessment_id: i64,
    pub status: TaskStatus,
    pub at: i64,
    /// The result's WhenFinished, copied for the queue's order.
    pub result_finished_at: i64,
    /// Its answer's group key, copied so that a group's open tasks are one
    /// indexed range (docs/marking-quality.md, "Answer groups").
    pub answer_key: Option<String>,
}

/// The scoring tasks a finalised result needs: one per answer not yet scored.
pub fn scoring_tasks_for(
    answers: impl IntoIterator<Item = FinalisedAnswer>,
    result: FinalisedResult,
) -> Vec<NewScoringTask> {
    answers
        .into_iter()
        .filter(|answer| answer.actual_score.is_none())
        .map(|answer| NewScoringTask {
            area: result.area,
            key: answer.key,
            group_id: result.group_id,
            assessment_id: result.assessment_id,
            status: TaskStatus::Unscored,
            at: result.finished_at,
            result_finished_at: result.finished_at,
            answer_key: answer.answer_key,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(question_id: i64, actual_score: Option<i32>) -> FinalisedAnswer {
        FinalisedAnswer {
            key: TaskKey {
                question_id,
                result_id: 9,
            },
            actual_score,
            answer_key: None,
        }
    }

    #[test]
    fn one_task_is_created_per_unscored_answer_with_status_0() {
        let result = FinalisedResult {
            area: CustomerArea::new(1).unwrap(),
            group_id: Some(5),
            assessment_id: 77,
            finished_at: 0,
        };
        let tasks = scoring_tasks_for(
            [answer(1, Some(1)), answer(2, None), answer(3, None)],
            result,
        );
        assert_eq!(
            tasks.iter().map(|t| t.key.question_id).collect::<Vec<_>>(),
            vec![2, 3]
        );
        assert!(tasks.iter().all(|t| t.status == TaskStatus::Unscored
            && t.group_id == Some(5)
            && t.assessment_id == 77
            && t.key.result_id == 9));
    }
}
