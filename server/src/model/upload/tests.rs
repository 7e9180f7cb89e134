use super::fixtures::{choice_of, file, question, snapshot};
use super::*;
use crate::model::question_kind::QuestionKind;
use crate::model::result_scores::Topic;
use crate::model::scoring_rule::{ScoringRule, TextKey};

#[test]
fn choices_are_marked_and_stored_by_the_questions_own_numbers() {
    let essay = UploadedQuestion {
        order: 3,
        text: Some("Because inertia.".into()),
        ..Default::default()
    };
    let answers = check_and_mark(
        &file(vec![
            question(2, &[(1, true), (3, true), (2, false)]),
            question(1, &[(2, true)]),
            essay,
        ]),
        &snapshot(),
    )
    .into_result()
    .unwrap();
    assert_eq!(answers.len(), 3);
    assert_eq!(
        (answers[0].actual_score, answers[0].content.as_slice()),
        (Some(2), b"3".as_slice())
    );
    assert_eq!(
        (answers[1].actual_score, answers[1].content.as_slice()),
        (Some(3), b"1,3".as_slice())
    );
    assert_eq!(answers[2].actual_score, None, "a person scores the essay");
    assert_eq!(answers[2].content, b"Because inertia.");
}

#[test]
fn an_uploads_scores_count_the_marked_choices_and_leave_the_essay_to_its_scorer() {
    let mut questions = snapshot();
    let topic = Topic {
        id: 7,
        path: "Physics".into(),
    };
    questions[0].topic = Some(topic.clone());
    questions[2].topic = Some(topic.clone());
    let answers = check_and_mark(
        &file(vec![
            question(1, &[(2, true)]),
            question(2, &[(1, true), (2, true)]),
        ]),
        &questions,
    )
    .into_result()
    .unwrap();
    let bands = [
        ScoreBand {
            min_percentage: 0,
            title: "Not yet".into(),
        },
        ScoreBand {
            min_percentage: 15,
            title: "Pass".into(),
        },
    ];
    let scores = scores_of(&answers, &bands);
    // 2 of 2, 0 of 3 (a wrong choice marked), the essay 0 of 6 until scored.
    assert_eq!((scores.total_score, scores.max_score), (2, 11));
    assert_eq!(scores.percentage_score, 18);
    assert_eq!(scores.score_band_title.as_deref(), Some("Pass"));
    assert_eq!(scores.topics.len(), 1);
    assert_eq!(
        (
            scores.topics[0].total_score,
            scores.topics[0].max_score,
            scores.topics[0].num_questions
        ),
        (2, 8, 2)
    );
}

#[test]
fn questions_left_out_are_unanswered_and_need_no_scorer() {
    let answers = check_and_mark(&file(Vec::new()), &snapshot())
        .into_result()
        .unwrap();
    assert!(answers
        .iter()
        .all(|a| a.actual_score == Some(0) && a.content.is_empty()));
}

#[test]
fn every_rule_names_its_field() {
    let image = |media_type: &str, bytes: usize| UploadedQuestion {
        order: 3,
        image: Some(UploadedImage {
            media_type: media_type.into(),
            data: vec![0; bytes],
        }),
        ..Default::default()
    };
    let cases: Vec<(Vec<UploadedQuestion>, &str)> = vec![
        (
            vec![question(0, &[])],
            "QuestionAndChoices[0].QuestionOrderNumber",
        ),
        (
            vec![question(4, &[])],
            "QuestionAndChoices[0].QuestionOrderNumber",
        ),
        (
            vec![question(1, &[]), question(1, &[])],
            "QuestionAndChoices[1].QuestionOrderNumber",
        ),
        (
            vec![question(1, &[(4, true)])],
            "QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber",
        ),
        (
            vec![question(1, &[(0, true)])],
            "QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber",
        ),
        (
            vec![question(2, &[(1, true), (1, false)])],
            "QuestionAndChoices[0].UploadedChoices[1].ChoiceOrderNumber",
        ),
        (
            vec![question(1, &[(1, true), (2, true)])],
            "QuestionAndChoices[0].UploadedChoices",
        ),
        (
            vec![question(3, &[(1, true)])],
            "QuestionAndChoices[0].UploadedChoices",
        ),
        (
            vec![UploadedQuestion {
                order: 1,
                text: Some("x".into()),
                ..Default::default()
            }],
            "QuestionAndChoices[0].TextResponse",
        ),
        (
            vec![image("image/gif", 10)],
            "QuestionAndChoices[0].ImageResponse.MediaType",
        ),
        (
            vec![image("image/png", limits::MAX_IMAGE_BYTES + 1)],
            "QuestionAndChoices[0].ImageResponse.Data",
        ),
        (
            vec![UploadedQuestion {
                text: Some("x".repeat(limits::MAX_TEXT_CHARS + 1)),
                ..question(3, &[])
            }],
            "QuestionAndChoices[0].TextResponse",
        ),
    ];
    for (questions, field) in cases {
        let problems = check_and_mark(&file(questions.clone()), &snapshot())
            .into_result()
            .unwrap_err();
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, [field], "{questions:?}");
    }
}

#[test]
fn a_refusal_lists_every_problem_in_the_files_order() {
    let questions = vec![
        // 0: a choice the question does not have.
        question(1, &[(9, true)]),
        // 1: no such question.
        question(7, &[]),
        // 2: a typed answer to a choice question.
        UploadedQuestion {
            text: Some("x".into()),
            ..question(2, &[])
        },
        // 3: question 1 again.
        question(1, &[(1, true)]),
    ];
    let problems = check_and_mark(&file(questions), &snapshot())
        .into_result()
        .unwrap_err();
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber",
            "QuestionAndChoices[1].QuestionOrderNumber",
            "QuestionAndChoices[2].TextResponse",
            "QuestionAndChoices[3].QuestionOrderNumber",
        ]
    );
    let text = describe_problems(&problems);
    assert!(text.starts_with("4 problems: QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber: 9 is not a choice"), "{text}");
    assert!(
        text.contains("; QuestionAndChoices[3].QuestionOrderNumber: question 1 is answered twice"),
        "{text}"
    );
}

#[test]
fn one_problem_reads_as_before_and_many_are_cut_short() {
    let one = refuse("AttemptID", "7 is not an attempt");
    assert_eq!(
        describe_problems(std::slice::from_ref(&one)),
        "AttemptID: 7 is not an attempt"
    );
    let many: Vec<UploadError> = (0..LISTED_PROBLEMS + 5)
        .map(|i| {
            refuse(
                format!("QuestionAndChoices[{i}].QuestionOrderNumber"),
                "wrong",
            )
        })
        .collect();
    let text = describe_problems(&many);
    assert!(
        text.starts_with(&format!("{} problems: ", LISTED_PROBLEMS + 5)),
        "{text}"
    );
    assert!(text.ends_with("; and 5 more"), "{text}");
    assert_eq!(text.matches(": wrong").count(), LISTED_PROBLEMS);
}

/// An imported snapshot: 1, multiple response under match_correct; 2, single choice
/// under map_response; 3, text entry with a case-blind key.
fn imported() -> Vec<SnapshotQuestion> {
    let choice = |order, correct, value| choice_of(order, order, correct, value);
    vec![
        SnapshotQuestion {
            order: 1,
            question_id: 100,
            kind: QuestionKind::MultipleResponse,
            max_score: 2,
            topic: None,
            choices: vec![
                choice(1, true, None),
                choice(2, false, None),
                choice(3, true, None),
            ],
            rule: ScoringRule::MatchCorrect,
            text_keys: Vec::new(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
        },
        SnapshotQuestion {
            order: 2,
            question_id: 200,
            kind: QuestionKind::MultipleChoice,
            max_score: 3,
            topic: None,
            choices: vec![
                choice(1, true, Some(3.0)),
                choice(2, false, Some(1.0)),
                choice(3, false, None),
            ],
            rule: ScoringRule::MapResponse {
                default_value: 0.0,
                lower_bound: None,
                upper_bound: None,
            },
            text_keys: Vec::new(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
        },
        SnapshotQuestion {
            order: 3,
            question_id: 300,
            kind: QuestionKind::TextEntry,
            max_score: 1,
            topic: None,
            choices: Vec::new(),
            rule: ScoringRule::MatchCorrect,
            text_keys: vec![TextKey {
                part: 0,
                text: "Paris".into(),
                case_sensitive: false,
                mapped_value: None,
                numeric: None,
            }],
            parts: Default::default(),
            max_choices: None,
            picture: None,
        },
    ]
}

#[test]
fn imported_questions_are_marked_by_their_packages_rules() {
    let typed = |order: i32, text: &str| UploadedQuestion {
        order,
        text: Some(text.into()),
        ..Default::default()
    };
    let partly = file(vec![
        question(1, &[(1, true)]),
        question(2, &[(2, true)]),
        typed(3, " PARIS"),
    ]);
    let scores: Vec<Option<i32>> = check_and_mark(&partly, &imported())
        .into_result()
        .unwrap()
        .iter()
        .map(|a| a.actual_score)
        .collect();
    assert_eq!(
        scores,
        [Some(0), Some(1), Some(1)],
        "all or nothing; mapped; key"
    );
    let fully = file(vec![
        question(1, &[(1, true), (3, true)]),
        question(2, &[(1, true)]),
        typed(3, "Rome"),
    ]);
    let scores: Vec<Option<i32>> = check_and_mark(&fully, &imported())
        .into_result()
        .unwrap()
        .iter()
        .map(|a| a.actual_score)
        .collect();
    assert_eq!(scores, [Some(2), Some(3), Some(0)]);
}

#[test]
fn a_text_entry_takes_a_typed_answer_only() {
    let with_choices = file(vec![question(3, &[(1, true)])]);
    let problems = check_and_mark(&with_choices, &imported())
        .into_result()
        .unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].field, "QuestionAndChoices[0].UploadedChoices");
}
