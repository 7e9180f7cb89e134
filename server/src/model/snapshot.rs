//! An assessment snapshot (spec, "AssessmentSnapshot"): the questions of an
//! assessment fixed once and for good, in order, each choice question's choices in
//! the order the snapshot gives them (shuffled where the question asks for it), and
//! what a delivery must accept for each. Uploads are checked and scored against it.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::matching::Parts;
use super::points::{Area, Picture, Shape};
use super::question_kind::QuestionKind;
use super::result_scores::Topic;
use super::scoring_rule::{ScoringRule, TextKey};

/// A question of the assessment, as its content is stored.
#[derive(Debug, Clone)]
pub struct SourceQuestion {
    pub question_id: i64,
    pub kind: QuestionKind,
    pub max_score: i32,
    pub topic: Option<Topic>,
    pub shuffle_choices: bool,
    /// In the question's own order.
    pub choices: Vec<SourceChoice>,
    pub rule: ScoringRule,
    /// A text-entry question's accepted answers.
    pub text_keys: Vec<TextKey>,
    /// A matching's parts and pairs.
    pub parts: Parts,
    /// A template item's template: the snapshot draws its own instance.
    pub template: Option<String>,
    /// The most choices a multiple response takes (None: any number); the most
    /// points a point question takes.
    pub max_choices: Option<i32>,
    /// A point question's picture (None for every other kind).
    pub picture: Option<Picture>,
}

/// A choice as the question stores it.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceChoice {
    pub order: i32,
    pub text: String,
    pub correct: bool,
    pub mapped_value: Option<f64>,
    /// Kept in its place when the others are shuffled (QTI's `fixed`).
    pub fixed: bool,
    /// The blank whose list it is in (a fill-in-the-blanks question's picked
    /// blank); 0: the question's own choice.
    pub part: i32,
}

/// A question as the snapshot fixes it.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotQuestion {
    /// 1, 2, ...: the upload file's `QuestionOrderNumber`.
    pub order: i32,
    pub question_id: i64,
    pub kind: QuestionKind,
    pub max_score: i32,
    pub topic: Option<Topic>,
    /// In the snapshot's order; `choices[i].order == i + 1`.
    pub choices: Vec<SnapshotChoice>,
    /// How its answers are marked.
    pub rule: ScoringRule,
    /// A text-entry question's accepted answers (a fill-in-the-blanks
    /// question's: each blank's, by `TextKey::part`).
    pub text_keys: Vec<TextKey>,
    /// A matching's parts (in the question's order) and pairs (by the question's
    /// own choice numbers); a fill-in-the-blanks question's blanks (no pairs).
    pub parts: Parts,
    /// The most choices a multiple response takes (None: any number); the most
    /// points a point question takes.
    pub max_choices: Option<i32>,
    /// A point question's picture; its areas are its choices (`model::points`).
    pub picture: Option<Picture>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotChoice {
    /// 1, 2, ...: the upload file's `ChoiceOrderNumber`.
    pub order: i32,
    /// The choice's order in the question itself.
    pub question_choice: i32,
    pub text: String,
    pub correct: bool,
    /// Its value under map_response (`None`: the rule's default).
    pub mapped_value: Option<f64>,
    /// The blank whose list it is in; 0: the question's own choice.
    pub part: i32,
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
    /// A short typed text.
    Text,
    /// One choice (or none) for each part.
    Parts,
    /// Words (or none) for each part.
    TextParts,
    /// Points on the question's picture.
    Points,
}

impl ExpectedResponse {
    pub fn of(kind: QuestionKind) -> Self {
        match kind {
            QuestionKind::MultipleChoice => ExpectedResponse::SingleChoice,
            QuestionKind::MultipleResponse => ExpectedResponse::MultipleChoices,
            QuestionKind::Essay => ExpectedResponse::TextOrImage,
            QuestionKind::TextEntry => ExpectedResponse::Text,
            QuestionKind::Matching => ExpectedResponse::Parts,
            QuestionKind::FillIn => ExpectedResponse::TextParts,
            QuestionKind::Point => ExpectedResponse::Points,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ExpectedResponse::SingleChoice => "single_choice",
            ExpectedResponse::MultipleChoices => "multiple_choices",
            ExpectedResponse::TextOrImage => "text_or_image",
            ExpectedResponse::Text => "text",
            ExpectedResponse::Parts => "parts",
            ExpectedResponse::TextParts => "text_parts",
            ExpectedResponse::Points => "points",
        }
    }

    /// The most choices a response may select.
    pub fn max_selected(self, choices: usize) -> usize {
        match self {
            ExpectedResponse::SingleChoice => 1.min(choices),
            ExpectedResponse::MultipleChoices => choices,
            ExpectedResponse::TextOrImage
            | ExpectedResponse::Text
            | ExpectedResponse::Parts
            | ExpectedResponse::TextParts
            | ExpectedResponse::Points => 0,
        }
    }
}

impl SnapshotQuestion {
    /// The most choices a response may select: one for a single choice, else
    /// every choice or the question's own limit.
    pub fn max_selected(&self) -> usize {
        let any = ExpectedResponse::of(self.kind).max_selected(self.choices.len());
        match self.max_choices {
            Some(max) if max > 0 => any.min(max as usize),
            _ => any,
        }
    }

    /// A point question's areas (its choices, read back from their text); an
    /// area whose text is not one is left out (the import writes none such).
    pub fn areas(&self) -> Vec<Area> {
        self.choices
            .iter()
            .filter_map(|choice| {
                Some(Area {
                    shape: Shape::parse(&choice.text)?,
                    value: choice.mapped_value.unwrap_or(0.0),
                })
            })
            .collect()
    }

    /// The most points a point question takes (None: any number).
    pub fn max_points(&self) -> Option<usize> {
        self.max_choices.filter(|m| *m > 0).map(|m| m as usize)
    }

    /// Whether the question is a number written in at most `characters`
    /// characters (a text entry whose keys are all numbers, one of them written
    /// so): an answer sheet asks it as a number's rows.
    pub fn number_within(&self, characters: usize) -> bool {
        self.kind == QuestionKind::TextEntry
            && !self.text_keys.is_empty()
            && self.text_keys.iter().all(|key| key.numeric.is_some())
            && self
                .text_keys
                .iter()
                .filter_map(|key| key.numeric)
                .any(|range| range.written_within(characters))
    }
}

/// What an upload's text and image answers may be (docs/upload-format.md).
pub mod limits {
    /// Characters of a `TextResponse`.
    pub const MAX_TEXT_CHARS: usize = 100_000;
    /// Characters of a blank's words (one line).
    pub const MAX_BLANK_CHARS: usize = 1_000;
    /// Points on a picture that takes any number of them: more is no answer a
    /// participant marks, and each is tested against every area.
    pub const MAX_POINTS: usize = 100;
    /// Characters of a number that an answer sheet's rows take (a minus, digits,
    /// a point): a text entry whose keys are numbers written so is asked that way
    /// on the sheet (the snapshot XML's `NumberCharacters`).
    pub const NUMBER_CHARACTERS: usize = 6;
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
            // A picked blank's options stay together, in its blank's order.
            choices.sort_by_key(|choice| (choice.part, choice.order));
            if question.shuffle_choices {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ question.question_id as u64);
                for list in choices.chunk_by_mut(|a, b| a.part == b.part) {
                    shuffle_unfixed(list, &mut rng);
                }
            }
            SnapshotQuestion {
                order: index as i32 + 1,
                question_id: question.question_id,
                kind: question.kind,
                max_score: question.max_score,
                topic: question.topic.clone(),
                rule: question.rule.clone(),
                text_keys: question.text_keys.clone(),
                parts: question.parts.clone(),
                max_choices: question.max_choices,
                picture: question.picture,
                choices: choices
                    .into_iter()
                    .enumerate()
                    .map(|(position, choice)| SnapshotChoice {
                        order: position as i32 + 1,
                        question_choice: choice.order,
                        text: choice.text,
                        correct: choice.correct,
                        mapped_value: choice.mapped_value,
                        part: choice.part,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Shuffles the choices that are not fixed among their own places; fixed ones
/// (QTI's "all of the above", kept last) stay where they are.
fn shuffle_unfixed(choices: &mut [SourceChoice], rng: &mut ChaCha8Rng) {
    let places: Vec<usize> = (0..choices.len()).filter(|&i| !choices[i].fixed).collect();
    let mut moving: Vec<SourceChoice> = places.iter().map(|&i| choices[i].clone()).collect();
    moving.shuffle(rng);
    for (place, choice) in places.into_iter().zip(moving) {
        choices[place] = choice;
    }
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
                .map(|order| SourceChoice {
                    order,
                    text: format!("choice {order}"),
                    correct: order == 2,
                    mapped_value: None,
                    fixed: false,
                    part: 0,
                })
                .collect(),
            rule: ScoringRule::Service,
            text_keys: Vec::new(),
            parts: Parts::default(),
            template: None,
            max_choices: None,
            picture: None,
        }
    }

    #[test]
    fn fixed_choices_keep_their_places_when_the_others_are_shuffled() {
        let mut source = question(10, true);
        source.choices[5].fixed = true;
        source.choices[0].fixed = true;
        for seed in 0..16 {
            let arranged = arrange(std::slice::from_ref(&source), seed);
            assert_eq!(arranged[0].choices[0].question_choice, 1);
            assert_eq!(arranged[0].choices[5].question_choice, 6);
        }
        let orders = |seed| -> Vec<i32> {
            arrange(std::slice::from_ref(&source), seed)[0]
                .choices
                .iter()
                .map(|c| c.question_choice)
                .collect()
        };
        assert!(
            (0..16).any(|seed| orders(seed) != [1, 2, 3, 4, 5, 6]),
            "the others move"
        );
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
