//! How an answer is marked automatically. Content the service made itself (the demo)
//! is marked by the service's own rules (`choice_scoring`); content imported from
//! QTI keeps its package's response processing: `match_correct` (the maximum for an
//! answer that is exactly the key, else 0) or `map_response` (each part of the
//! answer worth its mapped value, unmapped parts the default, the sum kept within
//! the bounds). Scores are whole numbers: a mapped sum is rounded to the nearest
//! (halves away from zero) and kept between 0 and the question's maximum.

use super::choice_scoring;
use super::question_kind::QuestionKind;
use super::typed_number::{read_number, NumberRange};

#[derive(Debug, Clone, PartialEq)]
pub enum ScoringRule {
    /// The service's own rules (model::choice_scoring).
    Service,
    MatchCorrect,
    MapResponse {
        default_value: f64,
        lower_bound: Option<f64>,
        upper_bound: Option<f64>,
    },
}

impl ScoringRule {
    /// The rule's name as stored (`questions.scoring_rule`).
    pub fn name(&self) -> &'static str {
        match self {
            ScoringRule::Service => "service",
            ScoringRule::MatchCorrect => "match_correct",
            ScoringRule::MapResponse { .. } => "map_response",
        }
    }

    /// The rule from its stored columns; `None` for a name that is not one.
    pub fn from_columns(
        name: &str,
        default_value: Option<f64>,
        lower_bound: Option<f64>,
        upper_bound: Option<f64>,
    ) -> Option<Self> {
        match name {
            "service" => Some(ScoringRule::Service),
            "match_correct" => Some(ScoringRule::MatchCorrect),
            "map_response" => Some(ScoringRule::MapResponse {
                default_value: default_value.unwrap_or(0.0),
                lower_bound,
                upper_bound,
            }),
            _ => None,
        }
    }

    /// `(default, lower, upper)` as stored; all `None` but for map_response.
    pub fn map_columns(&self) -> (Option<f64>, Option<f64>, Option<f64>) {
        match self {
            ScoringRule::MapResponse {
                default_value,
                lower_bound,
                upper_bound,
            } => (Some(*default_value), *lower_bound, *upper_bound),
            _ => (None, None, None),
        }
    }
}

/// An accepted answer of a text-entry question.
#[derive(Debug, Clone, PartialEq)]
pub struct TextKey {
    /// The blank it answers (1, 2, …) of a fill-in-the-blanks question; 0 for a
    /// text entry's single answer.
    pub part: i32,
    pub text: String,
    pub case_sensitive: bool,
    /// Its value under map_response; `None`: the question's maximum.
    pub mapped_value: Option<f64>,
    /// A number key: the answer read as a number (`typed_number`) matches when it
    /// lies in this range; `text` then only shows the key to people.
    pub numeric: Option<NumberRange>,
}

impl TextKey {
    /// Whether the trimmed, non-empty `answer` is this key.
    pub fn accepts(&self, answer: &str) -> bool {
        match self.numeric {
            Some(range) => read_number(answer).is_some_and(|n| range.contains(n)),
            None if self.case_sensitive => self.text == answer,
            None => self.text.to_lowercase() == answer.to_lowercase(),
        }
    }
}

/// A selected choice, as marking needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectedChoice {
    pub correct: bool,
    pub mapped_value: Option<f64>,
}

/// The score of selecting `selected` of a choice question's choices, `correct_choices`
/// of which are correct in all.
pub fn choices_score(
    rule: &ScoringRule,
    kind: QuestionKind,
    max_score: i32,
    selected: &[SelectedChoice],
    correct_choices: usize,
) -> i32 {
    match rule {
        ScoringRule::Service => {
            let correctness: Vec<bool> = selected.iter().map(|c| c.correct).collect();
            choice_scoring::score(kind, max_score, &correctness, correct_choices)
        }
        ScoringRule::MatchCorrect => {
            let right = selected.iter().filter(|c| c.correct).count();
            if right == correct_choices && right == selected.len() && right > 0 {
                max_score
            } else {
                0
            }
        }
        ScoringRule::MapResponse {
            default_value,
            lower_bound,
            upper_bound,
        } => {
            let sum = selected
                .iter()
                .map(|c| c.mapped_value.unwrap_or(*default_value))
                .sum();
            bounded(sum, *lower_bound, *upper_bound, max_score)
        }
    }
}

/// The score of the typed answer `answer` to a text-entry question with `keys`.
pub fn text_score(rule: &ScoringRule, keys: &[TextKey], max_score: i32, answer: &str) -> i32 {
    let answer = answer.trim();
    if answer.is_empty() {
        return 0;
    }
    let matching = keys.iter().find(|key| key.accepts(answer));
    match rule {
        ScoringRule::MapResponse {
            default_value,
            lower_bound,
            upper_bound,
        } => {
            let value = matching
                .map(|key| key.mapped_value.unwrap_or(max_score as f64))
                .unwrap_or(*default_value);
            bounded(value, *lower_bound, *upper_bound, max_score)
        }
        ScoringRule::MatchCorrect | ScoringRule::Service => {
            if matching.is_some() {
                max_score
            } else {
                0
            }
        }
    }
}

/// A mapped sum kept within its bounds, rounded to a whole mark (halves away from
/// zero) and kept between 0 and the maximum.
pub(crate) fn bounded(value: f64, lower: Option<f64>, upper: Option<f64>, max_score: i32) -> i32 {
    let value = lower.map_or(value, |lower| value.max(lower));
    let value = upper.map_or(value, |upper| value.min(upper));
    (value.round() as i64).clamp(0, i64::from(max_score)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(correct: bool, mapped_value: Option<f64>) -> SelectedChoice {
        SelectedChoice {
            correct,
            mapped_value,
        }
    }

    #[test]
    fn match_correct_is_all_or_nothing_even_for_several_choices() {
        let rule = ScoringRule::MatchCorrect;
        let kind = QuestionKind::MultipleResponse;
        let both = [chosen(true, None), chosen(true, None)];
        assert_eq!(choices_score(&rule, kind, 2, &both, 2), 2);
        assert_eq!(choices_score(&rule, kind, 2, &both[..1], 2), 0);
        let extra = [chosen(true, None), chosen(true, None), chosen(false, None)];
        assert_eq!(choices_score(&rule, kind, 2, &extra, 2), 0);
        assert_eq!(choices_score(&rule, kind, 2, &[], 2), 0);
    }

    #[test]
    fn map_response_sums_the_selected_values_within_the_bounds() {
        let rule = ScoringRule::MapResponse {
            default_value: -1.0,
            lower_bound: Some(0.0),
            upper_bound: Some(3.0),
        };
        let kind = QuestionKind::MultipleResponse;
        let good = [chosen(true, Some(2.0)), chosen(true, Some(2.0))];
        assert_eq!(choices_score(&rule, kind, 4, &good, 2), 3, "upper bound");
        let mixed = [chosen(true, Some(2.0)), chosen(false, None)];
        assert_eq!(
            choices_score(&rule, kind, 4, &mixed, 2),
            1,
            "default for unmapped"
        );
        let bad = [chosen(false, None), chosen(false, None)];
        assert_eq!(choices_score(&rule, kind, 4, &bad, 2), 0, "lower bound");
        let half = [chosen(true, Some(0.5))];
        assert_eq!(
            choices_score(&rule, kind, 4, &half, 2),
            1,
            "halves round up"
        );
    }

    #[test]
    fn a_score_never_leaves_zero_to_the_maximum() {
        let rule = ScoringRule::MapResponse {
            default_value: 0.0,
            lower_bound: None,
            upper_bound: None,
        };
        let kind = QuestionKind::MultipleResponse;
        let many = [chosen(true, Some(5.0)), chosen(true, Some(5.0))];
        assert_eq!(choices_score(&rule, kind, 4, &many, 2), 4);
        let negative = [chosen(false, Some(-3.0))];
        assert_eq!(choices_score(&rule, kind, 4, &negative, 2), 0);
    }

    #[test]
    fn a_typed_answer_matches_a_key_as_the_key_says() {
        let keys = [
            TextKey {
                part: 0,
                text: "Paris".into(),
                case_sensitive: false,
                mapped_value: Some(2.0),
                numeric: None,
            },
            TextKey {
                part: 0,
                text: "Lutetia".into(),
                case_sensitive: true,
                mapped_value: Some(1.0),
                numeric: None,
            },
        ];
        let rule = ScoringRule::MapResponse {
            default_value: 0.0,
            lower_bound: None,
            upper_bound: None,
        };
        assert_eq!(text_score(&rule, &keys, 2, " paris "), 2);
        assert_eq!(text_score(&rule, &keys, 2, "Lutetia"), 1);
        assert_eq!(text_score(&rule, &keys, 2, "lutetia"), 0);
        assert_eq!(text_score(&rule, &keys, 2, ""), 0);
        let exact = [TextKey {
            part: 0,
            text: "Paris".into(),
            case_sensitive: true,
            mapped_value: None,
            numeric: None,
        }];
        assert_eq!(
            text_score(&ScoringRule::MatchCorrect, &exact, 1, "Paris"),
            1
        );
        assert_eq!(
            text_score(&ScoringRule::MatchCorrect, &exact, 1, "paris"),
            0
        );
    }

    #[test]
    fn a_number_key_accepts_its_range_and_gives_its_value() {
        let keys = [
            TextKey {
                part: 0,
                text: "9.81 ± 0.05".into(),
                case_sensitive: false,
                mapped_value: Some(2.0),
                numeric: Some(NumberRange {
                    low: 9.76,
                    high: 9.86,
                }),
            },
            TextKey {
                part: 0,
                text: "10".into(),
                case_sensitive: false,
                mapped_value: Some(1.0),
                numeric: Some(NumberRange {
                    low: 10.0,
                    high: 10.0,
                }),
            },
        ];
        let rule = ScoringRule::MapResponse {
            default_value: 0.0,
            lower_bound: None,
            upper_bound: None,
        };
        assert_eq!(text_score(&rule, &keys, 2, "9,8"), 2);
        assert_eq!(text_score(&rule, &keys, 2, "9.86"), 2);
        assert_eq!(text_score(&rule, &keys, 2, "10.0"), 1);
        assert_eq!(text_score(&rule, &keys, 2, "9.9"), 0);
        assert_eq!(
            text_score(&rule, &keys, 2, "9.81 ± 0.05"),
            0,
            "the key's words are not an answer"
        );
        assert_eq!(text_score(&ScoringRule::MatchCorrect, &keys, 3, "1e1"), 3);
    }
}
