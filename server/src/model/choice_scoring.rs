//! How choice answers are marked (the assessment's scoring rules): a single-choice
//! question earns its maximum when the chosen choice is the correct one; a
//! multiple-response question earns its maximum when exactly the correct choices are
//! selected, and otherwise one mark per correct choice selected less one per wrong
//! one, between 0 and one below the maximum. The demo seed and answer uploads both
//! mark here.

use super::question_kind::QuestionKind;

/// The score of selecting, of a question's choices, those whose correctness is
/// `selected` (one entry per selected choice), when it has `correct_choices` correct
/// ones in all.
pub fn score(kind: QuestionKind, max_score: i32, selected: &[bool], correct_choices: usize) -> i32 {
    let right = selected.iter().filter(|correct| **correct).count() as i32;
    let wrong = selected.len() as i32 - right;
    match kind {
        QuestionKind::MultipleChoice => {
            if selected.len() == 1 && right == 1 {
                max_score
            } else {
                0
            }
        }
        QuestionKind::MultipleResponse => {
            if right == correct_choices as i32 && wrong == 0 && right > 0 {
                max_score
            } else {
                (right - wrong).clamp(0, (max_score - 1).max(0))
            }
        }
        QuestionKind::Essay
        | QuestionKind::TextEntry
        | QuestionKind::Matching
        | QuestionKind::FillIn
        | QuestionKind::Point => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_choice_earns_its_maximum_for_the_correct_choice_alone() {
        assert_eq!(score(QuestionKind::MultipleChoice, 2, &[true], 1), 2);
        assert_eq!(score(QuestionKind::MultipleChoice, 2, &[false], 1), 0);
        assert_eq!(score(QuestionKind::MultipleChoice, 2, &[], 1), 0);
    }

    #[test]
    fn multiple_response_earns_its_maximum_only_for_exactly_the_correct_ones() {
        let max = 3;
        assert_eq!(
            score(QuestionKind::MultipleResponse, max, &[true, true, true], 3),
            3
        );
        assert_eq!(
            score(QuestionKind::MultipleResponse, max, &[true, true], 3),
            2
        );
        assert_eq!(
            score(
                QuestionKind::MultipleResponse,
                max,
                &[true, true, true, false],
                3
            ),
            2
        );
        assert_eq!(
            score(QuestionKind::MultipleResponse, max, &[false, false], 3),
            0
        );
        assert_eq!(score(QuestionKind::MultipleResponse, max, &[], 3), 0);
    }
}
