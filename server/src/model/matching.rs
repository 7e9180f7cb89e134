//! Questions whose answer has parts (docs/content.md, "Matching"): each part (a
//! matching's row, an order's position, a gap) is answered with one of the
//! question's choices, and the answer is marked as QTI marks directed pairs.

use super::question_kind::QuestionKind;
use super::scoring_rule::{choices_score, ScoringRule, SelectedChoice};

/// A question's parts: what each asks (part 1 first) and the pairs that score.
/// Empty for a question without parts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parts {
    pub texts: Vec<String>,
    pub keys: Vec<PairKey>,
}

impl Parts {
    /// The choice that part `part` is correctly answered with, if the key has one.
    pub fn correct_choice(&self, part: i32) -> Option<i32> {
        self.keys
            .iter()
            .find(|key| key.part == part && key.correct)
            .map(|key| key.choice)
    }
}

/// A part paired with a choice that the question's scoring names.
#[derive(Debug, Clone, PartialEq)]
pub struct PairKey {
    /// 1, 2, …: the part's number.
    pub part: i32,
    /// The choice's order in the question itself.
    pub choice: i32,
    /// In the correct response.
    pub correct: bool,
    /// Its value under map_response (`None`: the rule's default).
    pub mapped_value: Option<f64>,
}

/// The score of answering each part of `answered` (part, the question's own choice
/// number) with its choice: match_correct (and the service's own rule) the maximum
/// for exactly the correct pairs, map_response the sum of the pairs' values.
pub fn pairs_score(
    rule: &ScoringRule,
    max_score: i32,
    keys: &[PairKey],
    answered: &[(i32, i32)],
) -> i32 {
    let selected: Vec<SelectedChoice> = answered
        .iter()
        .map(|(part, choice)| {
            let key = keys
                .iter()
                .find(|key| key.part == *part && key.choice == *choice);
            SelectedChoice {
                correct: key.is_some_and(|key| key.correct),
                mapped_value: key.and_then(|key| key.mapped_value),
            }
        })
        .collect();
    let correct = keys.iter().filter(|key| key.correct).count();
    let rule = match rule {
        ScoringRule::Service => &ScoringRule::MatchCorrect,
        rule => rule,
    };
    choices_score(rule, QuestionKind::Matching, max_score, &selected, correct)
}

/// An answer as it is stored (the Answer's `$value`): each answered part and its
/// choice by the question's own numbers, by part, `1:3,2:1`.
pub fn stored_pairs(answered: &[(i32, i32)]) -> String {
    let mut pairs = answered.to_vec();
    pairs.sort_unstable();
    pairs
        .iter()
        .map(|(part, choice)| format!("{part}:{choice}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(part: i32, choice: i32, correct: bool, value: Option<f64>) -> PairKey {
        PairKey {
            part,
            choice,
            correct,
            mapped_value: value,
        }
    }

    #[test]
    fn match_correct_gives_the_maximum_for_exactly_the_correct_pairs() {
        let keys = [
            key(1, 2, true, None),
            key(2, 1, true, None),
            key(3, 3, true, None),
        ];
        let rule = ScoringRule::MatchCorrect;
        assert_eq!(pairs_score(&rule, 3, &keys, &[(1, 2), (2, 1), (3, 3)]), 3);
        assert_eq!(pairs_score(&rule, 3, &keys, &[(1, 2), (2, 1)]), 0);
        assert_eq!(pairs_score(&rule, 3, &keys, &[(1, 2), (2, 1), (3, 1)]), 0);
        assert_eq!(pairs_score(&rule, 3, &keys, &[]), 0);
        assert_eq!(
            pairs_score(&ScoringRule::Service, 3, &keys, &[(1, 2), (2, 1), (3, 3)]),
            3
        );
    }

    #[test]
    fn map_response_sums_the_pairs_values_within_the_bounds() {
        let keys = [
            key(1, 2, true, Some(1.0)),
            key(2, 1, true, Some(1.0)),
            key(2, 2, false, Some(-0.5)),
        ];
        let rule = ScoringRule::MapResponse {
            default_value: 0.0,
            lower_bound: Some(0.0),
            upper_bound: Some(2.0),
        };
        assert_eq!(pairs_score(&rule, 2, &keys, &[(1, 2), (2, 1)]), 2);
        assert_eq!(pairs_score(&rule, 2, &keys, &[(1, 2)]), 1);
        // 1 - 0.5 = 0.5, rounded away from zero.
        assert_eq!(pairs_score(&rule, 2, &keys, &[(1, 2), (2, 2)]), 1);
        assert_eq!(pairs_score(&rule, 2, &keys, &[(2, 2)]), 0);
    }

    #[test]
    fn stored_answers_list_pairs_by_part() {
        assert_eq!(stored_pairs(&[(3, 1), (1, 4)]), "1:4,3:1");
        assert_eq!(stored_pairs(&[]), "");
    }
}
