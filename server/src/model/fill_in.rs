//! Fill-in-the-blanks questions (docs/content.md, "Fill in the blanks"): blanks in
//! a passage (QTI's several text entries in one item, Canvas's fill in multiple
//! blanks), each answered with words and marked by its own keys. Under
//! map_response the question's score is the sum of its blanks' values, within the
//! rule's bounds, rounded to a whole mark as every mapped sum is; under
//! match_correct (Blackboard's Fill in the Blank Plus) it is the maximum when
//! every blank is right, else 0.

use super::scoring_rule::{bounded, ScoringRule, TextKey};
use super::snapshot::SnapshotChoice;

/// A blank's answer: words typed, or an option of its list picked (by the
/// question's own choice number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filled {
    Words(String),
    Picked(i32),
}

/// What a blank is marked against: the question's keys (a typed blank's, by
/// `TextKey::part`) and its picked blanks' options (by `SnapshotChoice::part`).
pub struct BlankKeys<'a> {
    pub keys: &'a [TextKey],
    pub options: &'a [SnapshotChoice],
}

/// The score of `answered` (blank, its answer): each typed blank's first key
/// that accepts its words gives its value, a picked blank's option its value (a
/// key or a correct option without a value gives the blank an equal share of the
/// maximum); no key, or an option without a value, the rule's default.
pub fn blanks_score(
    rule: &ScoringRule,
    max_score: i32,
    blanks: usize,
    marked_by: &BlankKeys<'_>,
    answered: &[(i32, Filled)],
) -> i32 {
    let share = f64::from(max_score) / blanks.max(1) as f64;
    // Whether a key accepts the answer (or it is a correct option) and its value;
    // `None` for an empty blank.
    let marked = |blank: i32, filled: &Filled| -> Option<(bool, Option<f64>)> {
        match filled {
            Filled::Words(words) if words.trim().is_empty() => None,
            Filled::Words(words) => Some(
                marked_by
                    .keys
                    .iter()
                    .filter(|key| key.part == blank)
                    .find(|key| key.accepts(words.trim()))
                    .map_or((false, None), |key| {
                        (true, Some(key.mapped_value.unwrap_or(share)))
                    }),
            ),
            Filled::Picked(choice) => marked_by
                .options
                .iter()
                .find(|o| o.part == blank && o.question_choice == *choice)
                .map(|option| {
                    let value = option.mapped_value.or(option.correct.then_some(share));
                    (option.correct, value)
                }),
        }
    };
    if !matches!(rule, ScoringRule::MapResponse { .. }) {
        let right = (1..=blanks as i32).all(|blank| {
            answered
                .iter()
                .find(|(b, _)| *b == blank)
                .and_then(|(_, filled)| marked(blank, filled))
                .is_some_and(|(right, _)| right)
        });
        return if right && blanks > 0 { max_score } else { 0 };
    }
    let (default_value, lower, upper) = rule.map_columns();
    let default_value = default_value.unwrap_or(0.0);
    let sum: f64 = answered
        .iter()
        .filter_map(|(blank, filled)| marked(*blank, filled))
        .map(|(_, value)| value.unwrap_or(default_value))
        .sum();
    bounded(sum, lower, upper, max_score)
}

/// An answer as it is stored (the Answer's `$value`): a line per blank answered,
/// `1: Paris`, by blank.
pub fn stored_blanks(answered: &[(i32, String)]) -> String {
    let mut lines: Vec<&(i32, String)> = answered.iter().collect();
    lines.sort_by_key(|(blank, _)| *blank);
    lines
        .iter()
        .map(|(blank, words)| format!("{blank}: {}", words.trim()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(part: i32, text: &str, value: Option<f64>) -> TextKey {
        TextKey {
            part,
            text: text.into(),
            case_sensitive: false,
            mapped_value: value,
            numeric: None,
        }
    }

    fn answers(words: &[(i32, &str)]) -> Vec<(i32, Filled)> {
        words
            .iter()
            .map(|(b, w)| (*b, Filled::Words((*w).to_owned())))
            .collect()
    }

    fn typed(keys: &[TextKey]) -> BlankKeys<'_> {
        BlankKeys { keys, options: &[] }
    }

    const SUM: ScoringRule = ScoringRule::MapResponse {
        default_value: 0.0,
        lower_bound: None,
        upper_bound: None,
    };

    #[test]
    fn each_blank_is_marked_by_its_own_keys_and_the_values_add_up() {
        let keys = [
            key(1, "Paris", Some(1.0)),
            key(2, "Berlin", Some(1.0)),
            key(2, "Paris", Some(0.0)),
            key(3, "Rome", Some(2.0)),
        ];
        let score = |words| blanks_score(&SUM, 4, 3, &typed(&keys), &answers(words));
        assert_eq!(score(&[(1, "paris"), (2, " Berlin "), (3, "ROME")]), 4);
        // Paris is a key of blank 1, not of blank 3.
        assert_eq!(score(&[(1, "Rome"), (2, "Berlin"), (3, "Paris")]), 1);
        assert_eq!(score(&[(2, "Paris")]), 0);
        assert_eq!(score(&[]), 0);
    }

    #[test]
    fn keys_without_values_share_the_maximum_and_the_sum_is_rounded() {
        // Canvas: a question worth 1 with three blanks, a third each.
        let keys = [key(1, "a", None), key(2, "b", None), key(3, "c", None)];
        let score = |words| blanks_score(&SUM, 1, 3, &typed(&keys), &answers(words));
        assert_eq!(score(&[(1, "a"), (2, "b"), (3, "c")]), 1);
        assert_eq!(score(&[(1, "a"), (2, "b"), (3, "x")]), 1, "0.67 rounds up");
        assert_eq!(score(&[(1, "a"), (2, "x")]), 0, "0.33 rounds down");
    }

    #[test]
    fn a_wrong_blank_may_cost_what_the_default_says_within_the_bounds() {
        let rule = ScoringRule::MapResponse {
            default_value: -1.0,
            lower_bound: Some(0.0),
            upper_bound: None,
        };
        let keys = [key(1, "a", Some(2.0)), key(2, "b", Some(2.0))];
        let score = |words| blanks_score(&rule, 4, 2, &typed(&keys), &answers(words));
        assert_eq!(score(&[(1, "a"), (2, "x")]), 1);
        assert_eq!(score(&[(1, "x"), (2, "x")]), 0, "never below the bound");
        assert_eq!(
            score(&[(1, "a"), (2, "")]),
            2,
            "an empty blank costs nothing"
        );
    }

    #[test]
    fn match_correct_gives_the_maximum_only_when_every_blank_is_right() {
        let keys = [key(1, "a", None), key(1, "A2", None), key(2, "b", None)];
        let score = |words| {
            blanks_score(
                &ScoringRule::MatchCorrect,
                2,
                2,
                &typed(&keys),
                &answers(words),
            )
        };
        assert_eq!(score(&[(1, "a2"), (2, "B")]), 2);
        assert_eq!(score(&[(1, "a"), (2, "x")]), 0);
        assert_eq!(score(&[(1, "a")]), 0, "a blank left empty");
    }

    fn option(part: i32, own: i32, correct: bool, value: Option<f64>) -> SnapshotChoice {
        SnapshotChoice {
            order: own,
            question_choice: own,
            text: format!("option {own}"),
            correct,
            mapped_value: value,
            part,
        }
    }

    #[test]
    fn a_picked_blank_is_marked_by_its_own_options_beside_typed_ones() {
        // Blank 1 typed (Paris, 2); blank 2 picked from options 1 and 2 (2 right,
        // worth 1); blank 3 from options 3 and 4 (3 right, no value: a share).
        let keys = [key(1, "Paris", Some(2.0))];
        let options = [
            option(2, 1, false, None),
            option(2, 2, true, Some(1.0)),
            option(3, 3, true, None),
            option(3, 4, false, None),
        ];
        let marked_by = BlankKeys {
            keys: &keys,
            options: &options,
        };
        let rule = ScoringRule::MapResponse {
            default_value: -1.0,
            lower_bound: Some(0.0),
            upper_bound: None,
        };
        let score = |answered: &[(i32, Filled)]| blanks_score(&rule, 6, 3, &marked_by, answered);
        let words = |w: &str| Filled::Words(w.into());
        assert_eq!(
            score(&[
                (1, words("paris")),
                (2, Filled::Picked(2)),
                (3, Filled::Picked(3))
            ]),
            5,
            "2 + 1 + a third of 6"
        );
        assert_eq!(
            score(&[(1, words("paris")), (2, Filled::Picked(1))]),
            1,
            "a wrong option costs the default"
        );
        // Option 3 is blank 3's, not blank 2's: no option of blank 2, nothing.
        assert_eq!(score(&[(1, words("Paris")), (2, Filled::Picked(3))]), 2);
        let all = |answered: &[(i32, Filled)]| {
            blanks_score(&ScoringRule::MatchCorrect, 6, 3, &marked_by, answered)
        };
        assert_eq!(
            all(&[
                (1, words("Paris")),
                (2, Filled::Picked(2)),
                (3, Filled::Picked(3))
            ]),
            6
        );
        assert_eq!(
            all(&[
                (1, words("Paris")),
                (2, Filled::Picked(2)),
                (3, Filled::Picked(4))
            ]),
            0
        );
    }

    #[test]
    fn the_stored_answer_is_a_line_per_blank_in_order() {
        assert_eq!(
            stored_blanks(&[(2, " Berlin".into()), (1, "Paris, France".into())]),
            "1: Paris, France\n2: Berlin"
        );
    }
}
