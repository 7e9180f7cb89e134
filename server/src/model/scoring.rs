//! The scoring workflow's values and rules (spec, "ScoringTask.Status" and its
//! transitions): the four task statuses, what a change of status does, and the
//! limits on a score.

use std::fmt;

/// A ScoringTask's key: the question and the participant's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaskKey {
    pub question_id: i64,
    pub result_id: i32,
}

/// ScoringTask.Status (spec, "States and transitions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// 0: the initial state.
    Unscored,
    /// 1: taken by a scorer.
    Locked,
    /// 2: a score is set and awaits moderation or review.
    Saved,
    /// 3: the final state; the participant's result was updated.
    Scored,
}

impl TaskStatus {
    pub const ALL: [TaskStatus; 4] = [
        TaskStatus::Unscored,
        TaskStatus::Locked,
        TaskStatus::Saved,
        TaskStatus::Scored,
    ];

    /// The value the wire and the database carry.
    pub fn code(self) -> i32 {
        match self {
            TaskStatus::Unscored => 0,
            TaskStatus::Locked => 1,
            TaskStatus::Saved => 2,
            TaskStatus::Scored => 3,
        }
    }
}

impl TryFrom<i32> for TaskStatus {
    type Error = String;

    /// Spec rule 1: any of the four values; anything else is refused.
    fn try_from(code: i32) -> Result<Self, Self::Error> {
        TaskStatus::ALL
            .into_iter()
            .find(|status| status.code() == code)
            .ok_or_else(|| {
                format!(
                    "Status must be 0 (Unscored), 1 (Locked), 2 (Saved) or 3 (Scored), not {code}"
                )
            })
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// What a change of a task's status does besides setting it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusEffects {
    /// The ScoringResult's score becomes the answer's, and the participant's Result
    /// and TopicScores are computed again.
    pub updates_result: bool,
}

/// Spec, ScoringTask.Status rules 1 to 3: every transition is allowed, and the
/// participant's result is updated only when the task is set to 3 from another
/// state (so setting 3 again, or changing the ScoringResult while at 3, changes
/// nothing until the task leaves 3 and comes back).
pub fn transition(from: TaskStatus, to: TaskStatus) -> StatusEffects {
    StatusEffects {
        updates_result: to == TaskStatus::Scored && from != TaskStatus::Scored,
    }
}

/// A score of `what` (a dimension, or the overall score) lies in 0 to `max`.
pub fn check_score(what: &str, score: i32, max: i32) -> Result<(), String> {
    if (0..=max).contains(&score) {
        Ok(())
    } else {
        Err(format!("{what} must lie between 0 and {max}, not {score}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_statuses_are_allowed_and_nothing_else() {
        for status in TaskStatus::ALL {
            assert_eq!(TaskStatus::try_from(status.code()), Ok(status));
        }
        for code in [-1, 4, 100] {
            assert!(TaskStatus::try_from(code)
                .unwrap_err()
                .contains(&code.to_string()));
        }
    }

    #[test]
    fn only_reaching_scored_from_another_status_updates_the_result() {
        for from in TaskStatus::ALL {
            for to in TaskStatus::ALL {
                let updates = transition(from, to).updates_result;
                assert_eq!(
                    updates,
                    to == TaskStatus::Scored && from != TaskStatus::Scored,
                    "{from} to {to}"
                );
            }
        }
    }

    #[test]
    fn scores_lie_between_zero_and_the_maximum_inclusive() {
        assert!(check_score("Score", 0, 4).is_ok());
        assert!(check_score("Score", 4, 4).is_ok());
        let error = check_score("the score of dimension 2", 5, 4).unwrap_err();
        assert_eq!(
            error,
            "the score of dimension 2 must lie between 0 and 4, not 5"
        );
        assert!(check_score("Score", -1, 4).is_err());
    }
}
