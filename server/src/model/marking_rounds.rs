//! The rounds of a double-marked task (docs/marking-quality.md, "Double-blind
//! second marking"): who may take the round a task waits in, who reads which
//! markings, and when a marking is complete enough to submit. The final mark
//! from the rounds is `model::second_marking::decide`.

use super::access::Role;
use super::second_marking::Marks;

/// The first marking; the second; the resolution when the two disagree.
pub const FIRST_ROUND: i32 = 1;
pub const SECOND_ROUND: i32 = 2;
pub const THIRD_ROUND: i32 = 3;

/// Whether `role` reads only the markings its account made. Lead markers and
/// administrators read every marking (they moderate and resolve); everyone else,
/// a scorer above all, reads only his own: the blindness of double marking.
pub fn reads_only_own_markings(role: Role) -> bool {
    !matches!(role, Role::Lead | Role::Admin)
}

/// A task waiting for a marking, as the queue keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub round: i32,
    pub first_marker: String,
    pub second_marker: Option<String>,
    pub claimed_by: Option<String>,
}

/// Whether `marker` may take the round the task waits in: nobody marks a task
/// twice, and a round is one marker's once taken. The refusal is a conflict's
/// message.
pub fn check_may_take(waiting: &Waiting, marker: &str) -> Result<(), String> {
    if waiting.first_marker == marker {
        return Err("you marked this task's first round: another marker takes the next".into());
    }
    if waiting.second_marker.as_deref() == Some(marker) {
        return Err("you marked this task's second round: another marker resolves it".into());
    }
    match waiting.claimed_by.as_deref() {
        Some(claimant) if claimant == marker => Err(format!(
            "you have taken round {} of this task already: submit that Marking",
            waiting.round
        )),
        Some(_) => Err(format!(
            "round {} of this task was taken by another marker",
            waiting.round
        )),
        None => Ok(()),
    }
}

/// A marking's marks for submission: every dimension scored, or the refusal
/// naming the first that is not. `scores` are (dimension order, score).
pub fn complete_marks(marking_id: i32, scores: &[(i32, Option<i16>)]) -> Result<Marks, String> {
    if scores.is_empty() {
        return Err(format!(
            "Markings({marking_id}) has no MarkingScores to submit"
        ));
    }
    scores
        .iter()
        .map(|(order, score)| match score {
            Some(score) => Ok((*order, i32::from(*score))),
            None => Err(format!(
                "MarkingScores(MarkingID={marking_id},Order={order}).Score is not set: every \
                 dimension is scored before a Marking is submitted"
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Marks)
}

/// The first marker's marks as he left them when he set the task to 3: the spec
/// lets a task reach 3 with a dimension unscored, which counts as 0.
pub fn first_marks(scores: &[(i32, Option<i16>)]) -> Marks {
    Marks(
        scores
            .iter()
            .map(|(order, score)| (*order, score.map_or(0, i32::from)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(claimed_by: Option<&str>) -> Waiting {
        Waiting {
            round: SECOND_ROUND,
            first_marker: "ann".into(),
            second_marker: Some("bob".into()),
            claimed_by: claimed_by.map(String::from),
        }
    }

    #[test]
    fn only_leads_and_administrators_read_every_marking() {
        assert!(!reads_only_own_markings(Role::Lead));
        assert!(!reads_only_own_markings(Role::Admin));
        assert!(reads_only_own_markings(Role::Scorer));
        assert!(reads_only_own_markings(Role::Coordinator));
    }

    #[test]
    fn nobody_marks_a_task_twice_and_a_taken_round_is_its_markers() {
        assert!(check_may_take(&waiting(None), "ann")
            .unwrap_err()
            .contains("first round"));
        assert!(check_may_take(&waiting(None), "bob")
            .unwrap_err()
            .contains("second round"));
        assert!(check_may_take(&waiting(Some("cid")), "dan")
            .unwrap_err()
            .contains("another marker"));
        assert!(check_may_take(&waiting(Some("cid")), "cid")
            .unwrap_err()
            .contains("already"));
        assert_eq!(check_may_take(&waiting(None), "cid"), Ok(()));
    }

    #[test]
    fn a_marking_is_submitted_only_with_every_dimension_scored() {
        assert_eq!(
            complete_marks(5, &[(1, Some(2)), (2, Some(3))]),
            Ok(Marks(vec![(1, 2), (2, 3)]))
        );
        let refused = complete_marks(5, &[(1, Some(2)), (2, None)]).unwrap_err();
        assert!(
            refused.contains("MarkingScores(MarkingID=5,Order=2)"),
            "{refused}"
        );
        assert!(complete_marks(5, &[]).is_err());
    }

    #[test]
    fn the_first_markers_unscored_dimension_counts_as_zero() {
        assert_eq!(
            first_marks(&[(1, Some(4)), (2, None)]),
            Marks(vec![(1, 4), (2, 0)])
        );
    }
}
