//! An uploaded answer to a fill-in-the-blanks question: each blank at most once,
//! each with its words (`TextResponse`, one line), marked by the blank's own keys
//! (`model::fill_in`) and stored a line per blank.

use std::collections::BTreeSet;

use super::types::{
    check_part, only_parts, refuse, MarkedAnswer, PartAnswer, UploadError, UploadedQuestion,
};
use crate::model::fill_in::{blanks_score, stored_blanks};
use crate::model::snapshot::{limits, SnapshotQuestion};

pub(super) fn mark_blanks(
    question: &SnapshotQuestion,
    uploaded: &UploadedQuestion,
    at: &dyn Fn(&str) -> String,
    answer: &mut MarkedAnswer,
) -> Result<(), UploadError> {
    only_parts(question.order, uploaded, at, "the words for each blank")?;
    let blanks = question.parts.texts.len();
    let mut seen = BTreeSet::new();
    let mut answered = Vec::with_capacity(uploaded.parts.len());
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
        let PartAnswer::Text(words) = given else {
            return Err(refuse(
                field("ChoiceOrderNumber"),
                format!(
                    "question {}'s blanks are answered with a TextResponse each",
                    question.order
                ),
            ));
        };
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
        answered.push((*blank, words.clone()));
    }
    answer.media_type = "text/plain; charset=utf-8".into();
    answer.actual_score = Some(blanks_score(
        &question.rule,
        question.max_score,
        blanks,
        &question.text_keys,
        &answered,
    ));
    answer.content = stored_blanks(&answered).into_bytes();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{check_and_mark, UploadFile};
    use super::*;
    use crate::model::matching::Parts;
    use crate::model::question_kind::QuestionKind;
    use crate::model::scoring_rule::{ScoringRule, TextKey};

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
                "a TextResponse each",
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
}
