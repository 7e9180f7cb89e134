//! A multiple response's own limit (QTI's `maxChoices`): an upload selecting
//! more is refused naming the field; one within it is marked as before.

use super::fixtures::{file, question, snapshot};
use super::*;

#[test]
fn a_multiple_response_takes_at_most_its_own_limit() {
    let mut questions = snapshot();
    questions[1].max_choices = Some(2);
    assert_eq!(questions[1].max_selected(), 2);
    let problems = check_and_mark(
        &file(vec![question(2, &[(1, true), (2, true), (3, true)])]),
        &questions,
    )
    .into_result()
    .unwrap_err();
    assert_eq!(problems[0].field, "QuestionAndChoices[0].UploadedChoices");
    assert!(
        problems[0]
            .message
            .contains("3 choices are selected on question 2, which takes at most 2"),
        "{problems:?}"
    );
    // Two are taken, and marked as before.
    let answers = check_and_mark(
        &file(vec![question(2, &[(1, true), (3, true), (2, false)])]),
        &questions,
    )
    .into_result()
    .unwrap();
    let second = answers.iter().find(|a| a.question_number == 2).unwrap();
    assert_eq!(
        (second.actual_score, second.content.as_slice()),
        (Some(3), b"1,3".as_slice())
    );
    // A limit of one makes it a single choice on paper and in the XML.
    questions[1].max_choices = Some(1);
    assert_eq!(questions[1].max_selected(), 1);
}
