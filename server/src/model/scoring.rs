//! The scoring workflow's values and limits (spec, "States and transitions").

/// ScoringTask.Status 0: the initial state.
pub const UNSCORED: i32 = 0;
/// ScoringTask.Status 1: taken by a scorer.
pub const LOCKED: i32 = 1;
/// ScoringTask.Status 2: a score is set and awaits moderation or review.
pub const SAVED: i32 = 2;
/// ScoringTask.Status 3: the final state; the participant's result was updated.
pub const SCORED: i32 = 3;

/// Spec rule 1: "There are no restrictions on transitions between the four values";
/// any other value is refused.
pub fn check_status(status: i32) -> Result<(), String> {
    if (UNSCORED..=SCORED).contains(&status) {
        Ok(())
    } else {
        Err(format!(
            "Status must be 0 (Unscored), 1 (Locked), 2 (Saved) or 3 (Scored), not {status}"
        ))
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
        for status in [UNSCORED, LOCKED, SAVED, SCORED] {
            assert!(check_status(status).is_ok());
        }
        for status in [-1, 4, 100] {
            assert!(check_status(status)
                .unwrap_err()
                .contains(&status.to_string()));
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
