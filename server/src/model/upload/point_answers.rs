//! A point question in an upload (`Points`): on the picture, within the
//! question's limit, marked by its areas; anything else sent for it, or points
//! for another kind, refused naming the field.

use super::fixtures::{choice_of, file, snapshot};
use super::*;
use crate::model::points::Picture;
use crate::model::question_kind::QuestionKind;
use crate::model::scoring_rule::ScoringRule;
use crate::model::snapshot::SnapshotChoice;

/// The snapshot with question 4: three airports on a 206 × 280 map, one mark each.
fn airports() -> Vec<SnapshotQuestion> {
    let mut questions = snapshot();
    let area = |order, text: &str| SnapshotChoice {
        text: text.into(),
        ..choice_of(order, order, true, Some(1.0))
    };
    questions.push(SnapshotQuestion {
        order: 4,
        question_id: 400,
        kind: QuestionKind::Point,
        max_score: 3,
        topic: None,
        rule: ScoringRule::MapResponse {
            default_value: 0.0,
            lower_bound: None,
            upper_bound: None,
        },
        text_keys: Vec::new(),
        parts: Default::default(),
        max_choices: Some(3),
        picture: Some(Picture {
            width: 206.0,
            height: 280.0,
        }),
        choices: vec![
            area(1, "circle 118 184 12"),
            area(2, "circle 150 235 12"),
            area(3, "circle 96 114 12"),
        ],
    });
    questions
}

fn points(order: i32, points: &[(f64, f64)]) -> UploadedQuestion {
    UploadedQuestion {
        order,
        points: points.to_vec(),
        ..Default::default()
    }
}

#[test]
fn points_are_marked_by_the_areas_they_fall_in_and_stored_as_given() {
    let answers = check_and_mark(
        &file(vec![points(
            4,
            &[(120.0, 180.5), (96.0, 114.0), (10.0, 10.0)],
        )]),
        &airports(),
    )
    .into_result()
    .unwrap();
    let answer = &answers[3];
    assert_eq!(answer.actual_score, Some(2));
    assert_eq!(answer.content, b"120 180.5,96 114,10 10");
    assert_eq!(answer.media_type, "text/plain");
    // Left out, or sent with none: unanswered, 0.
    for uploaded in [vec![], vec![points(4, &[])]] {
        let answers = check_and_mark(&file(uploaded), &airports())
            .into_result()
            .unwrap();
        assert_eq!(
            (answers[3].actual_score, answers[3].content.len()),
            (Some(0), 0)
        );
    }
}

#[test]
fn a_point_off_the_picture_or_one_too_many_is_refused_naming_it() {
    let cases = [
        (
            points(4, &[(10.0, 10.0), (206.5, 10.0)]),
            "QuestionAndChoices[0].Points[1]",
            "(206.5, 10) is not on the picture of question 4, which is 206 by 280 pixels",
        ),
        (
            points(4, &[(1.0, -1.0)]),
            "QuestionAndChoices[0].Points[0]",
            "not on the picture",
        ),
        (
            points(4, &[(1.0, 1.0); 4]),
            "QuestionAndChoices[0].Points",
            "4 points are marked on question 4, which takes at most 3",
        ),
        (
            points(1, &[(1.0, 1.0)]),
            "QuestionAndChoices[0].Points",
            "question 1 is not answered with points",
        ),
        (
            UploadedQuestion {
                choices: vec![(1, true)],
                ..points(4, &[(1.0, 1.0)])
            },
            "QuestionAndChoices[0].UploadedChoices",
            "question 4 is answered with Points on its picture",
        ),
        (
            UploadedQuestion {
                text: Some("Edinburgh".into()),
                ..points(4, &[])
            },
            "QuestionAndChoices[0].TextResponse",
            "answered with Points",
        ),
    ];
    for (uploaded, field, message) in cases {
        let problems = check_and_mark(&file(vec![uploaded]), &airports())
            .into_result()
            .unwrap_err();
        assert_eq!(problems[0].field, field, "{problems:?}");
        assert!(problems[0].message.contains(message), "{problems:?}");
    }
    // Any number of places is still at most 100 in an upload.
    let mut any = airports();
    any[3].max_choices = None;
    let problems = check_and_mark(&file(vec![points(4, &[(1.0, 1.0); 101])]), &any)
        .into_result()
        .unwrap_err();
    assert!(
        problems[0]
            .message
            .ends_with("101 points are marked on question 4; at most 100 are accepted"),
        "{problems:?}"
    );
    assert!(
        check_and_mark(&file(vec![points(4, &[(1.0, 1.0); 100])]), &any)
            .into_result()
            .is_ok()
    );
    // One mark only: a single point question says "one".
    let mut questions = airports();
    questions[3].max_choices = Some(1);
    let problems = check_and_mark(
        &file(vec![points(4, &[(1.0, 1.0), (2.0, 2.0)])]),
        &questions,
    )
    .into_result()
    .unwrap_err();
    assert!(
        problems[0].message.ends_with("which takes one"),
        "{problems:?}"
    );
}
