//! An uploaded answer to a question with parts (a matching): each part at most
//! once, each with one of the question's choices by the snapshot's numbers,
//! marked by pairs (`model::matching`) and stored by the question's own numbers.

use std::collections::BTreeSet;

use super::types::{
    check_part, only_parts, refuse, MarkedAnswer, PartAnswer, UploadError, UploadedQuestion,
};
use crate::model::matching::{pairs_score, stored_pairs};
use crate::model::snapshot::SnapshotQuestion;

pub(super) fn mark_parts(
    question: &SnapshotQuestion,
    uploaded: &UploadedQuestion,
    at: &dyn Fn(&str) -> String,
    answer: &mut MarkedAnswer,
) -> Result<(), UploadError> {
    only_parts(question.order, uploaded, at, "a choice for each part")?;
    let part_count = question.parts.texts.len();
    let mut seen = BTreeSet::new();
    let mut answered = Vec::with_capacity(uploaded.parts.len());
    for (position, (part, given)) in uploaded.parts.iter().enumerate() {
        let field = |name: &str| at(&format!("Parts[{position}].{name}"));
        let PartAnswer::Choice(choice) = given else {
            return Err(refuse(
                field("TextResponse"),
                format!(
                    "question {}'s parts are answered with a ChoiceOrderNumber each",
                    question.order
                ),
            ));
        };
        let order = question.order;
        check_part(
            *part,
            part_count,
            order,
            "part",
            &mut seen,
            field("PartNumber"),
        )?;
        let own = usize::try_from(*choice)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|n| question.choices.get(n))
            .ok_or_else(|| {
                refuse(
                    field("ChoiceOrderNumber"),
                    format!(
                        "{choice} is not a choice of question {}, which has choices 1 to {}",
                        question.order,
                        question.choices.len()
                    ),
                )
            })?;
        answered.push((*part, own.question_choice));
    }
    answer.actual_score = Some(pairs_score(
        &question.rule,
        question.max_score,
        &question.parts.keys,
        &answered,
    ));
    answer.content = stored_pairs(&answered).into_bytes();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{check_and_mark, UploadFile};
    use super::*;
    use crate::model::matching::{PairKey, Parts};
    use crate::model::question_kind::QuestionKind;
    use crate::model::scoring_rule::ScoringRule;
    use crate::model::snapshot::SnapshotChoice;

    /// Three rows over three options the snapshot printed in the order 3, 1, 2;
    /// the key: row 1 → option 1, row 2 → option 3, row 3 → option 1.
    fn matching(rule: ScoringRule) -> Vec<SnapshotQuestion> {
        let key = |part, choice| PairKey {
            part,
            choice,
            correct: true,
            mapped_value: Some(1.0),
        };
        vec![SnapshotQuestion {
            order: 1,
            question_id: 10,
            kind: QuestionKind::Matching,
            max_score: 3,
            topic: None,
            choices: [3, 1, 2]
                .into_iter()
                .enumerate()
                .map(|(index, own)| SnapshotChoice {
                    order: index as i32 + 1,
                    question_choice: own,
                    text: format!("option {own}"),
                    correct: false,
                    mapped_value: None,
                    part: 0,
                })
                .collect(),
            rule,
            text_keys: Vec::new(),
            parts: Parts {
                texts: vec!["a".into(), "b".into(), "c".into()],
                keys: vec![key(1, 1), key(2, 3), key(3, 1)],
            },
            max_choices: None,
            picture: None,
        }]
    }

    fn upload(parts: &[(i32, i32)]) -> UploadFile {
        UploadFile {
            attempt_id: 1,
            batch_id: None,
            questions: vec![UploadedQuestion {
                order: 1,
                parts: parts
                    .iter()
                    .map(|(part, choice)| (*part, PartAnswer::Choice(*choice)))
                    .collect(),
                ..Default::default()
            }],
        }
    }

    fn mapped() -> ScoringRule {
        ScoringRule::MapResponse {
            default_value: 0.0,
            lower_bound: None,
            upper_bound: None,
        }
    }

    #[test]
    fn parts_are_marked_by_the_snapshots_choice_numbers_and_stored_by_the_questions() {
        // Snapshot choice 2 is the question's option 1; snapshot 1 is option 3.
        let all = upload(&[(3, 2), (1, 2), (2, 1)]);
        let marked = check_and_mark(&all, &matching(ScoringRule::MatchCorrect))
            .into_result()
            .unwrap();
        assert_eq!(marked[0].actual_score, Some(3));
        assert_eq!(marked[0].content, b"1:1,2:3,3:1");
        let two = upload(&[(1, 2), (2, 1)]);
        let all_or_nothing = check_and_mark(&two, &matching(ScoringRule::MatchCorrect));
        assert_eq!(all_or_nothing.answers[0].actual_score, Some(0));
        let each = check_and_mark(&two, &matching(mapped()));
        assert_eq!(each.answers[0].actual_score, Some(2));
        let none = check_and_mark(&upload(&[]), &matching(mapped()));
        assert_eq!(none.answers[0].actual_score, Some(0));
        assert_eq!(none.answers[0].content, b"");
    }

    #[test]
    fn a_wrong_part_or_choice_is_refused_naming_it() {
        type Case<'a> = (&'a [(i32, i32)], &'a str, &'a str);
        let cases: [Case; 4] = [
            (&[(4, 1)], "Parts[0].PartNumber", "which has parts 1 to 3"),
            (&[(1, 1), (1, 2)], "Parts[1].PartNumber", "answered twice"),
            (
                &[(1, 0)],
                "Parts[0].ChoiceOrderNumber",
                "which has choices 1 to 3",
            ),
            (
                &[(2, 1), (3, 4)],
                "Parts[1].ChoiceOrderNumber",
                "not a choice",
            ),
        ];
        for (parts, field, message) in cases {
            let problems = check_and_mark(&upload(parts), &matching(mapped()))
                .into_result()
                .unwrap_err();
            assert_eq!(problems.len(), 1, "{parts:?}");
            assert_eq!(problems[0].field, format!("QuestionAndChoices[0].{field}"));
            assert!(problems[0].message.contains(message), "{}", problems[0]);
        }
        let mut choices = upload(&[]);
        choices.questions[0].choices = vec![(1, true)];
        let problems = check_and_mark(&choices, &matching(mapped()))
            .into_result()
            .unwrap_err();
        assert_eq!(problems[0].field, "QuestionAndChoices[0].UploadedChoices");
    }

    #[test]
    fn parts_on_a_question_without_parts_are_refused_naming_them() {
        let mut questions = matching(mapped());
        questions[0].kind = QuestionKind::MultipleChoice;
        questions[0].parts = Parts::default();
        let problems = check_and_mark(&upload(&[(1, 1)]), &questions)
            .into_result()
            .unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].field, "QuestionAndChoices[0].Parts");
        assert!(
            problems[0].message.contains("has no parts"),
            "{}",
            problems[0]
        );
    }
}
