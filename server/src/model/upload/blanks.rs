//! An uploaded answer to a fill-in-the-blanks question: each blank at most once,
//! a typed blank with its words (`TextResponse`, one line), a picked blank with
//! one of its own options (`ChoiceOrderNumber`); marked by the blank's own keys
//! or options (`model::fill_in`) and stored a line per blank.

use std::collections::BTreeSet;

use super::types::{
    check_part, only_parts, refuse, MarkedAnswer, PartAnswer, UploadError, UploadedQuestion,
};
use crate::model::fill_in::{blanks_score, stored_blanks, BlankKeys, Filled};
use crate::model::snapshot::{limits, SnapshotQuestion};

pub(super) fn mark_blanks(
    question: &SnapshotQuestion,
    uploaded: &UploadedQuestion,
    at: &dyn Fn(&str) -> String,
    answer: &mut MarkedAnswer,
) -> Result<(), UploadError> {
    only_parts(question.order, uploaded, at, "the answer for each blank")?;
    let blanks = question.parts.texts.len();
    let mut seen = BTreeSet::new();
    let mut answered = Vec::with_capacity(uploaded.parts.len());
    let mut stored = Vec::with_capacity(uploaded.parts.len());
    for (position, (blank, given)) in uploaded.parts.iter().enumerate() {
        let field = |name: &str| at(&format!("Parts[{position}].{name}"));
        let order = question.order;
        check_part(
            *blank,
            blanks,
            order,
            "blank",
            &mut seen,
            field("PartNumber"),
        )?;
        let options: Vec<_> = question
            .choices
            .iter()
            .filter(|c| c.part == *blank)
            .collect();
        match given {
            PartAnswer::Text(words) => {
                if let (Some(first), Some(last)) = (options.first(), options.last()) {
                    return Err(refuse(
                        field("TextResponse"),
                        format!(
                            "blank {blank} of question {order} is picked from its list: a ChoiceOrderNumber from {} to {}",
                            first.order, last.order
                        ),
                    ));
                }
                check_words(words, &field)?;
                stored.push((*blank, words.clone()));
                answered.push((*blank, Filled::Words(words.clone())));
            }
            PartAnswer::Choice(choice) => {
                let (Some(first), Some(last)) = (options.first(), options.last()) else {
                    return Err(refuse(
                        field("ChoiceOrderNumber"),
                        format!(
                            "blank {blank} of question {order} is answered with a TextResponse"
                        ),
                    ));
                };
                let option = options.iter().find(|o| o.order == *choice).ok_or_else(|| {
                    refuse(
                        field("ChoiceOrderNumber"),
                        format!(
                            "{choice} is not an option of blank {blank} of question {order}, whose options are {} to {}",
                            first.order, last.order
                        ),
                    )
                })?;
                stored.push((*blank, option.text.clone()));
                answered.push((*blank, Filled::Picked(option.question_choice)));
            }
        }
    }
    answer.media_type = "text/plain; charset=utf-8".into();
    let marked_by = BlankKeys {
        keys: &question.text_keys,
        options: &question.choices,
    };
    answer.actual_score = Some(blanks_score(
        &question.rule,
        question.max_score,
        blanks,
        &marked_by,
        &answered,
    ));
    answer.content = stored_blanks(&stored).into_bytes();
    Ok(())
}

/// A typed blank's words: one line, not too long.
fn check_words(words: &str, field: &dyn Fn(&str) -> String) -> Result<(), UploadError> {
    if words.chars().count() > limits::MAX_BLANK_CHARS {
        return Err(refuse(
            field("TextResponse"),
            format!(
                "{} characters; a blank takes at most {}",
                words.chars().count(),
                limits::MAX_BLANK_CHARS
            ),
        ));
    }
    if words.contains(['\n', '\r']) {
        return Err(refuse(
            field("TextResponse"),
            "a blank takes one line; it holds a line break",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{check_and_mark, UploadFile};
    use super::*;
    use crate::model::matching::Parts;
    use crate::model::question_kind::QuestionKind;
    use crate::model::scoring_rule::{ScoringRule, TextKey};
    use crate::model::snapshot::SnapshotChoice;

    /// Three blanks: Paris (1), Berlin (1), 9.81 ± 0.05 (2).
    fn blanks() -> Vec<SnapshotQuestion> {
        let key = |part, text: &str, value, numeric| TextKey {
            part,
            text: text.into(),
            case_sensitive: false,
            mapped_value: Some(value),
            numeric,
        };
        vec![SnapshotQuestion {
            order: 1,
            question_id: 10,
            kind: QuestionKind::FillIn,
            max_score: 4,
            topic: None,
            choices: Vec::new(),
            rule: ScoringRule::MapResponse {
                default_value: 0.0,
                lower_bound: None,
                upper_bound: None,
            },
            text_keys: vec![
                key(1, "Paris", 1.0, None),
                key(2, "Berlin", 1.0, None),
                key(
                    3,
                    "9.81 ± 0.05",
                    2.0,
                    Some(crate::model::typed_number::NumberRange {
                        low: 9.76,
                        high: 9.86,
                    }),
                ),
            ],
            parts: Parts {
                texts: vec!["Blank 1".into(), "Blank 2".into(), "Blank 3".into()],
                keys: Vec::new(),
            },
            max_choices: None,
            picture: None,
        }]
    }

    fn upload(parts: Vec<(i32, PartAnswer)>) -> UploadFile {
        UploadFile {
            attempt_id: 1,
            batch_id: None,
            questions: vec![UploadedQuestion {
                order: 1,
                parts,
                ..Default::default()
            }],
        }
    }

    fn words(answers: &[(i32, &str)]) -> Vec<(i32, PartAnswer)> {
        answers
            .iter()
            .map(|(blank, w)| (*blank, PartAnswer::Text((*w).into())))
            .collect()
    }

    #[test]
    fn each_blank_is_marked_by_its_keys_and_stored_a_line_each() {
        let all = upload(words(&[(3, "9,8"), (1, " paris"), (2, "Berlin")]));
        let marked = check_and_mark(&all, &blanks()).into_result().unwrap();
        assert_eq!(marked[0].actual_score, Some(4));
        assert_eq!(marked[0].content, b"1: paris\n2: Berlin\n3: 9,8");
        let swapped = upload(words(&[(1, "Berlin"), (2, "Paris"), (3, "9.81")]));
        let marked = check_and_mark(&swapped, &blanks()).into_result().unwrap();
        assert_eq!(marked[0].actual_score, Some(2), "each blank its own keys");
    }

    #[test]
    fn a_wrong_blank_is_refused_naming_it() {
        let long = "x".repeat(limits::MAX_BLANK_CHARS + 1);
        type Case<'a> = (Vec<(i32, PartAnswer)>, &'a str, &'a str);
        let cases: [Case; 5] = [
            (words(&[(4, "a")]), "Parts[0].PartNumber", "blanks 1 to 3"),
            (
                words(&[(1, "a"), (1, "b")]),
                "Parts[1].PartNumber",
                "answered twice",
            ),
            (
                vec![(2, PartAnswer::Choice(1))],
                "Parts[0].ChoiceOrderNumber",
                "answered with a TextResponse",
            ),
            (
                words(&[(1, "Paris\nFrance")]),
                "Parts[0].TextResponse",
                "one line",
            ),
            (
                vec![(1, PartAnswer::Text(long))],
                "Parts[0].TextResponse",
                "at most 1000",
            ),
        ];
        for (parts, field, message) in cases {
            let problems = check_and_mark(&upload(parts), &blanks())
                .into_result()
                .unwrap_err();
            assert_eq!(problems[0].field, format!("QuestionAndChoices[0].{field}"));
            assert!(problems[0].message.contains(message), "{}", problems[0]);
        }
        let mut whole = upload(Vec::new());
        whole.questions[0].text = Some("Paris".into());
        let problems = check_and_mark(&whole, &blanks()).into_result().unwrap_err();
        assert_eq!(problems[0].field, "QuestionAndChoices[0].TextResponse");
    }

    /// Blank 1 typed (Paris, 1); blank 2 picked from the snapshot's choices 1 and
    /// 2 (the question's 4 and 3, shuffled; "Berlin" right, 1); blank 3 from 3
    /// and 4.
    fn mixed() -> Vec<SnapshotQuestion> {
        let option = |order, own, text: &str, part, correct: bool| SnapshotChoice {
            order,
            question_choice: own,
            text: text.into(),
            correct,
            mapped_value: correct.then_some(1.0),
            part,
        };
        vec![SnapshotQuestion {
            order: 1,
            question_id: 10,
            kind: QuestionKind::FillIn,
            max_score: 3,
            topic: None,
            choices: vec![
                option(1, 4, "Berlin", 2, true),
                option(2, 3, "Bonn", 2, false),
                option(3, 1, "Rome", 3, true),
                option(4, 2, "Milan", 3, false),
            ],
            rule: ScoringRule::MapResponse {
                default_value: 0.0,
                lower_bound: None,
                upper_bound: None,
            },
            text_keys: vec![TextKey {
                part: 1,
                text: "Paris".into(),
                case_sensitive: false,
                mapped_value: Some(1.0),
                numeric: None,
            }],
            parts: Parts {
                texts: vec!["Blank 1".into(), "Blank 2".into(), "Blank 3".into()],
                keys: Vec::new(),
            },
            max_choices: None,
            picture: None,
        }]
    }

    #[test]
    fn a_picked_blank_takes_one_of_its_own_options_and_is_stored_in_words() {
        let all = upload(vec![
            (2, PartAnswer::Choice(1)),
            (1, PartAnswer::Text("paris".into())),
            (3, PartAnswer::Choice(4)),
        ]);
        let marked = check_and_mark(&all, &mixed()).into_result().unwrap();
        assert_eq!(marked[0].actual_score, Some(2));
        assert_eq!(marked[0].content, b"1: paris\n2: Berlin\n3: Milan");
    }

    #[test]
    fn a_blank_answered_the_other_way_or_from_another_list_is_refused() {
        type Case<'a> = (Vec<(i32, PartAnswer)>, &'a str, &'a str);
        let cases: [Case; 3] = [
            (
                vec![(2, PartAnswer::Choice(3))],
                "Parts[0].ChoiceOrderNumber",
                "3 is not an option of blank 2 of question 1, whose options are 1 to 2",
            ),
            (
                vec![(3, PartAnswer::Text("Rome".into()))],
                "Parts[0].TextResponse",
                "blank 3 of question 1 is picked from its list: a ChoiceOrderNumber from 3 to 4",
            ),
            (
                vec![(1, PartAnswer::Choice(1))],
                "Parts[0].ChoiceOrderNumber",
                "blank 1 of question 1 is answered with a TextResponse",
            ),
        ];
        for (parts, field, message) in cases {
            let problems = check_and_mark(&upload(parts), &mixed())
                .into_result()
                .unwrap_err();
            assert_eq!(problems[0].field, format!("QuestionAndChoices[0].{field}"));
            assert_eq!(problems[0].message, message);
        }
    }
}
