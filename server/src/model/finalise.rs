//! What happens when the delivery system finalises a result: one ScoringTask for
//! each unscored answer (the spec's first transition, into Status 0). Every path that
//! finalises results (the demo seed, `seed --scale`, answer uploads) goes through here.

use super::scoring::UNSCORED;
use crate::store::seed_writes::{NewAnswer, NewScoringTask};

/// The result a set of answers belongs to, as its tasks need it.
#[derive(Debug, Clone, Copy)]
pub struct FinalisedResult {
    pub group_id: Option<i32>,
    pub assessment_id: i64,
    pub finished_at: i64,
}

/// The scoring tasks a finalised result needs: one per answer not yet scored.
pub fn scoring_tasks_for(answers: &[NewAnswer], result: FinalisedResult) -> Vec<NewScoringTask> {
    answers
        .iter()
        .filter(|answer| answer.actual_score.is_none())
        .map(|answer| NewScoringTask {
            customer_id: answer.customer_id,
            question_id: answer.question_id,
            result_id: answer.result_id,
            group_id: result.group_id,
            assessment_id: result.assessment_id,
            status: UNSCORED,
            at: result.finished_at,
            result_finished_at: result.finished_at,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(question_id: i64, actual_score: Option<i32>) -> NewAnswer {
        NewAnswer {
            customer_id: 1,
            question_id,
            result_id: 9,
            occurrence: 1,
            block_number: 1,
            question_number: 1,
            max_score: 4,
            actual_score,
            media_type: "text/plain".into(),
            content: Vec::new(),
        }
    }

    #[test]
    fn one_task_is_created_per_unscored_answer_with_status_0() {
        let result = FinalisedResult {
            group_id: Some(5),
            assessment_id: 77,
            finished_at: 0,
        };
        let tasks = scoring_tasks_for(
            &[answer(1, Some(1)), answer(2, None), answer(3, None)],
            result,
        );
        assert_eq!(
            tasks.iter().map(|t| t.question_id).collect::<Vec<_>>(),
            vec![2, 3]
        );
        assert!(tasks.iter().all(|t| t.status == UNSCORED
            && t.group_id == Some(5)
            && t.assessment_id == 77
            && t.result_id == 9));
    }
}
