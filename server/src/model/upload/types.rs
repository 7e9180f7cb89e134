//! An upload file as read (documents::upload_file), the answers marked from it,
//! and a refusal naming its field.

use crate::model::result_scores::Topic;

/// The upload file, as read from its JSON.
#[derive(Debug, Clone, Default)]
pub struct UploadFile {
    pub attempt_id: i32,
    pub batch_id: Option<i32>,
    pub questions: Vec<UploadedQuestion>,
}

#[derive(Debug, Clone, Default)]
pub struct UploadedQuestion {
    pub order: i32,
    /// `(ChoiceOrderNumber, Selected)`.
    pub choices: Vec<(i32, bool)>,
    pub text: Option<String>,
    pub image: Option<UploadedImage>,
    /// `(PartNumber, its answer)`: a question with parts, in the file's order.
    pub parts: Vec<(i32, PartAnswer)>,
    /// `(X, Y)`: a point question's points, in the picture's pixels.
    pub points: Vec<(f64, f64)>,
}

/// A part's answer: a choice (a matching's row) or words (a blank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartAnswer {
    /// `ChoiceOrderNumber`, by the snapshot's numbers.
    Choice(i32),
    /// `TextResponse`.
    Text(String),
}

#[derive(Debug, Clone)]
pub struct UploadedImage {
    pub media_type: String,
    pub data: Vec<u8>,
}

/// A refusal: the field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for UploadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Refuses a question with parts answered otherwise (choices, text, an image,
/// points), saying how it is answered: `how` ("a choice for each part").
pub(super) fn only_parts(
    order: i32,
    uploaded: &UploadedQuestion,
    at: &dyn Fn(&str) -> String,
    how: &str,
) -> Result<(), UploadError> {
    answered_only_with("Parts", order, uploaded, at, &format!("Parts, {how}"))
}

/// Refuses a question answered with anything but `field` (`Parts`, `Points`),
/// saying it is answered with `how`.
pub(super) fn answered_only_with(
    field: &str,
    order: i32,
    uploaded: &UploadedQuestion,
    at: &dyn Fn(&str) -> String,
    how: &str,
) -> Result<(), UploadError> {
    let sent = [
        ("UploadedChoices", !uploaded.choices.is_empty()),
        ("TextResponse", uploaded.text.is_some()),
        ("ImageResponse", uploaded.image.is_some()),
        ("Parts", !uploaded.parts.is_empty()),
        ("Points", !uploaded.points.is_empty()),
    ];
    match sent.iter().find(|(name, sent)| *sent && *name != field) {
        Some((name, _)) => Err(refuse(
            at(name),
            format!("question {order} is answered with {how}"),
        )),
        None => Ok(()),
    }
}

/// Refuses a part number out of `1..=count` or seen before (`what`: "part",
/// "blank"), naming `field`.
pub(super) fn check_part(
    part: i32,
    count: usize,
    order: i32,
    what: &str,
    seen: &mut std::collections::BTreeSet<i32>,
    field: String,
) -> Result<(), UploadError> {
    if !usize::try_from(part).is_ok_and(|p| (1..=count).contains(&p)) {
        return Err(refuse(
            field,
            format!("{part} is not a {what} of question {order}, which has {what}s 1 to {count}"),
        ));
    }
    if !seen.insert(part) {
        return Err(refuse(field, format!("{what} {part} is answered twice")));
    }
    Ok(())
}

pub(super) fn refuse(field: impl Into<String>, message: impl Into<String>) -> UploadError {
    UploadError {
        field: field.into(),
        message: message.into(),
    }
}

/// One answer of the result the upload makes, in the snapshot's order.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkedAnswer {
    pub question_id: i64,
    /// The snapshot's question number.
    pub question_number: i32,
    pub max_score: i32,
    /// `None`: a person scores it (a ScoringTask is made for it).
    pub actual_score: Option<i32>,
    pub media_type: String,
    /// Choice answers: the chosen choices by the question's own numbers (`2,4`),
    /// as every answer of the service stores them; text; or the image's bytes.
    pub content: Vec<u8>,
    pub topic: Option<Topic>,
    /// Where the answer's image came from, to name it if it does not decode.
    pub image_field: Option<String>,
}
