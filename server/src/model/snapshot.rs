//! An assessment snapshot (spec, "AssessmentSnapshot"): the questions of an
//! assessment fixed once and for good, in order, each choice question's choices in
//! the order the snapshot gives them (shuffled where the question asks for it), and
//! what a delivery must accept for each. Uploads are checked and scored against it.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::question_kind::QuestionKind;
use super::result_scores::Topic;

/// A question of the assessment, as its content is stored.
#[derive(Debug, Clone)]
pub struct SourceQuestion {
    pub question_id: i64,
    pub kind: QuestionKind,
    pub max_score: i32,
    pub topic: Option<Topic>,
    pub shuffle_choices: bool,
    /// `(choice_order, text, correct)` in the question's own order.
    pub choices: Vec<(i32, String, bool)>,
}

/// A question as the snapshot fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotQuestion {
    /// 1, 2, ...: the upload file's `QuestionOrderNumber`.
    pub order: i32,
    pub question_id: i64,
    pub kind: QuestionKind,
    pub max_score: i32,
    pub topic: Option<Topic>,
    /// In the snapshot's order; `choices[i].order == i + 1`.
    pub choices: Vec<SnapshotChoice>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotChoice {
    /// 1, 2, ...: the upload file's `ChoiceOrderNumber`.
    pub order: i32,
    /// The choice's order in the question itself.
    pub question_choice: i32,
    pub text: String,
    pub correct: bool,
}

/// A snapshot as printed: what its page shows.
#[derive(Debug, Clone)]
pub struct SnapshotPaper {
    pub id: i32,
    pub name: Option<String>,
    pub assessment: String,
    pub language: Option<String>,
    /// Each question with its markup (an XHTML fragment, not yet sanitised).
    pub questions: Vec<(SnapshotQuestion, String)>,
}

/// What a delivery must send for a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpectedResponse {
    /// Exactly one choice, or none (unanswered).
    SingleChoice,
    /// Any number of choices.
    MultipleChoices,
    /// A text or an image of a handwritten answer.
    TextOrImage,
}

impl ExpectedResponse {
    pub fn of(kind: QuestionKind) -> Self {
        match kind {
            QuestionKind::MultipleChoice => ExpectedResponse::SingleChoice,
            QuestionKind::MultipleResponse => ExpectedResponse::MultipleChoices,
            QuestionKind::Essay => ExpectedResponse::TextOrImage,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ExpectedResponse::SingleChoice => "single_choice",
            ExpectedResponse::MultipleChoices => "multiple_choices",
            ExpectedResponse::TextOrImage => "text_or_image",
        }
    }

    /// The most choices a response may select.
    pub fn max_selected(self, choices: usize) -> usize {
        match self {
            ExpectedResponse::SingleChoice => 1.min(choices),
            ExpectedResponse::MultipleChoices => choices,
            ExpectedResponse::TextOrImage => 0,
        }
    }
}

/// What an upload's text and image answers may be (docs/upload-format.md).
pub mod limits {
    /// Characters of a `TextResponse`.
    pub const MAX_TEXT_CHARS: usize = 100_000;
    /// Bytes of an `ImageResponse`'s image, once decoded from base64.
    pub const MAX_IMAGE_BYTES: usize = 16 * 1024 * 1024;
    /// Pixels of an image (width times height), checked before it is decoded.
    pub const MAX_IMAGE_PIXELS: u64 = 40_000_000;
    /// The image types an `ImageResponse` may have.
    pub const IMAGE_TYPES: &[&str] = &["image/png", "image/jpeg"];
}

/// The snapshot of `questions` (in the assessment's order). Choices of a question
/// that asks for shuffling are put in an order drawn from `seed` and the question's
/// ID, so that the same snapshot always gets the same order, and two snapshots of
/// one assessment usually different ones.
pub fn arrange(questions: &[SourceQuestion], seed: u64) -> Vec<SnapshotQuestion> {
    questions
        .iter()
        .enumerate()
        .map(|(index, question)| {
            let mut choices = question.choices.clone();
            choices.sort_by_key(|(order, _, _)| *order);
            if question.shuffle_choices {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ question.question_id as u64);
                choices.shuffle(&mut rng);
            }
            SnapshotQuestion {
                order: index as i32 + 1,
                question_id: question.question_id,
                kind: question.kind,
                max_score: question.max_score,
                topic: question.topic.clone(),
                choices: choices
                    .into_iter()
                    .enumerate()
                    .map(
                        |(position, (question_choice, text, correct))| SnapshotChoice {
                            order: position as i32 + 1,
                            question_choice,
                            text,
                            correct,
                        },
                    )
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(id: i64, shuffle: bool) -> SourceQuestion {
        SourceQuestion {
            question_id: id,
            kind: QuestionKind::MultipleChoice,
            max_score: 1,
            topic: None,
            shuffle_choices: shuffle,
            choices: (1..=6)
                .map(|o| (o, format!("choice {o}"), o == 2))
                .collect(),
        }
    }

    #[test]
    fn questions_are_numbered_in_order_and_unshuffled_choices_keep_theirs() {
        let arranged = arrange(&[question(10, false), question(11, false)], 7);
        assert_eq!(arranged.iter().map(|q| q.order).collect::<Vec<_>>(), [1, 2]);
        let orders: Vec<i32> = arranged[0]
            .choices
            .iter()
            .map(|c| c.question_choice)
            .collect();
        assert_eq!(orders, [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn shuffled_choices_are_a_permutation_fixed_by_the_seed() {
        let first = arrange(&[question(10, true)], 7);
        assert_eq!(
            first,
            arrange(&[question(10, true)], 7),
            "the same every time"
        );
        let mut orders: Vec<i32> = first[0].choices.iter().map(|c| c.question_choice).collect();
        let numbered: Vec<i32> = first[0].choices.iter().map(|c| c.order).collect();
        assert_eq!(numbered, [1, 2, 3, 4, 5, 6]);
        assert_ne!(orders, [1, 2, 3, 4, 5, 6], "shuffled");
        let correct = first[0].choices.iter().find(|c| c.correct).unwrap();
        assert_eq!(correct.question_choice, 2, "the key follows its choice");
        orders.sort();
        assert_eq!(orders, [1, 2, 3, 4, 5, 6]);
        let others: Vec<Vec<i32>> = (0..8)
            .map(|seed| {
                arrange(&[question(10, true)], seed)[0]
                    .choices
                    .iter()
                    .map(|c| c.question_choice)
                    .collect()
            })
            .collect();
        assert!(
            others.windows(2).any(|w| w[0] != w[1]),
            "seeds give different orders"
        );
    }
}
