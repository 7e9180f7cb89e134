//! The snapshot and upload files the upload tests share.

use super::*;
use crate::model::question_kind::QuestionKind;
use crate::model::scoring_rule::ScoringRule;
use crate::model::snapshot::SnapshotChoice;

/// The snapshot's choice `order`, the question's `own`.
pub(super) fn choice_of(
    order: i32,
    own: i32,
    correct: bool,
    mapped_value: Option<f64>,
) -> SnapshotChoice {
    SnapshotChoice {
        order,
        question_choice: own,
        text: format!("choice {own}"),
        correct,
        mapped_value,
        part: 0,
    }
}

/// 1: single choice (correct: the snapshot's 2nd, the question's 3rd); 2: multiple
/// response (correct: 1st and 3rd); 3: an essay.
pub(super) fn snapshot() -> Vec<SnapshotQuestion> {
    let choice = |order, own, correct| choice_of(order, own, correct, None);
    vec![
        SnapshotQuestion {
            order: 1,
            question_id: 100,
            kind: QuestionKind::MultipleChoice,
            max_score: 2,
            topic: None,
            rule: ScoringRule::Service,
            text_keys: Vec::new(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
            choices: vec![choice(1, 1, false), choice(2, 3, true), choice(3, 2, false)],
        },
        SnapshotQuestion {
            order: 2,
            question_id: 200,
            kind: QuestionKind::MultipleResponse,
            max_score: 3,
            topic: None,
            rule: ScoringRule::Service,
            text_keys: Vec::new(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
            choices: vec![choice(1, 1, true), choice(2, 2, false), choice(3, 3, true)],
        },
        SnapshotQuestion {
            order: 3,
            question_id: 300,
            kind: QuestionKind::Essay,
            max_score: 6,
            topic: None,
            rule: ScoringRule::Service,
            text_keys: Vec::new(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
            choices: Vec::new(),
        },
    ]
}

pub(super) fn question(order: i32, choices: &[(i32, bool)]) -> UploadedQuestion {
    UploadedQuestion {
        order,
        choices: choices.to_vec(),
        ..Default::default()
    }
}

pub(super) fn file(questions: Vec<UploadedQuestion>) -> UploadFile {
    UploadFile {
        attempt_id: 1,
        batch_id: None,
        questions,
    }
}
