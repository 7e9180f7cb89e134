//! The answer upload file (contract, "Answer upload file") read from its JSON:
//! unknown fields and wrong types are refused with the path of the field
//! (serde_path_to_error), IDs and choice numbers accepted as numbers or as strings
//! (the contract writes `BatchID` and `ChoiceOrderNumber` as strings), image data
//! decoded from base64.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use std::borrow::Cow;

use serde::Deserialize;

use crate::model::snapshot::limits::MAX_IMAGE_BYTES;
use crate::model::upload::{PartAnswer, UploadError, UploadFile, UploadedImage, UploadedQuestion};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
struct File<'a> {
    #[serde(rename = "AttemptID")]
    attempt_id: Number,
    #[serde(rename = "BatchID", default)]
    batch_id: Option<Number>,
    #[serde(default, borrow)]
    question_and_choices: Vec<Question<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
struct Question<'a> {
    question_order_number: Number,
    #[serde(default)]
    uploaded_choices: Vec<Choice>,
    #[serde(default)]
    text_response: Option<String>,
    #[serde(default, borrow)]
    image_response: Option<Image<'a>>,
    /// Our extension for questions with parts (docs/upload-format.md).
    #[serde(default)]
    parts: Vec<Part>,
    /// Our extension for point questions: points on the question's picture.
    #[serde(default)]
    points: Vec<Point>,
}

/// A point on a picture, in its pixels from the top left corner.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Point {
    #[serde(rename = "X")]
    x: f64,
    #[serde(rename = "Y")]
    y: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
struct Part {
    part_number: Number,
    /// A matching's row: its choice.
    #[serde(default)]
    choice_order_number: Option<Number>,
    /// A blank: its words.
    #[serde(default)]
    text_response: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
struct Choice {
    choice_order_number: Number,
    #[serde(default = "selected_by_default")]
    selected: bool,
}

fn selected_by_default() -> bool {
    true
}

/// An image as sent: its base64 text borrowed from the body where it has no
/// escapes (base64 never needs one), so that a large image is not held twice as
/// text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "PascalCase")]
struct Image<'a> {
    media_type: String,
    #[serde(borrow)]
    data: Cow<'a, str>,
}

/// An integer sent as a JSON number or as a string of digits.
#[derive(Deserialize)]
#[serde(untagged)]
enum Number {
    Number(i64),
    Text(String),
}

impl Number {
    fn value(&self, field: &str) -> Result<i32, UploadError> {
        let value = match self {
            Number::Number(n) => Some(*n),
            Number::Text(text) => text.trim().parse::<i64>().ok(),
        };
        value
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| UploadError {
                field: field.to_owned(),
                message: "must be a whole number (as a number or a string of digits)".into(),
            })
    }
}

/// The file in `bytes`, or what is wrong with it and where.
pub fn read(bytes: &[u8]) -> Result<UploadFile, UploadError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let file: File = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let field = error.path().to_string();
        UploadError {
            field: if field == "." {
                "the upload file".into()
            } else {
                field
            },
            message: error.into_inner().to_string(),
        }
    })?;
    deserializer.end().map_err(|error| UploadError {
        field: "the upload file".into(),
        message: format!("has more after its JSON object: {error}"),
    })?;
    let mut questions = Vec::with_capacity(file.question_and_choices.len());
    for (index, question) in file.question_and_choices.into_iter().enumerate() {
        let at = |field: &str| format!("QuestionAndChoices[{index}].{field}");
        let mut choices = Vec::with_capacity(question.uploaded_choices.len());
        for (position, choice) in question.uploaded_choices.iter().enumerate() {
            let field = at(&format!("UploadedChoices[{position}].ChoiceOrderNumber"));
            choices.push((choice.choice_order_number.value(&field)?, choice.selected));
        }
        let mut parts = Vec::with_capacity(question.parts.len());
        for (position, part) in question.parts.into_iter().enumerate() {
            let field = |name: &str| at(&format!("Parts[{position}].{name}"));
            let answer = match (part.choice_order_number, part.text_response) {
                (Some(choice), None) => {
                    PartAnswer::Choice(choice.value(&field("ChoiceOrderNumber"))?)
                }
                (None, Some(words)) => PartAnswer::Text(words),
                (Some(_), Some(_)) => {
                    return Err(UploadError {
                        field: field("TextResponse"),
                        message: "a part is answered with a ChoiceOrderNumber or a TextResponse, not both".into(),
                    })
                }
                (None, None) => {
                    return Err(UploadError {
                        field: field("ChoiceOrderNumber"),
                        message: "a part is answered with a ChoiceOrderNumber (a row) or a TextResponse (a blank)".into(),
                    })
                }
            };
            parts.push((part.part_number.value(&field("PartNumber"))?, answer));
        }
        let image = match question.image_response {
            None => None,
            Some(image) => {
                let text = image.data.trim();
                // Refused before decoding: what is too large is never held twice.
                let decoded = text.len() / 4 * 3;
                if decoded > MAX_IMAGE_BYTES + 3 {
                    return Err(UploadError {
                        field: at("ImageResponse.Data"),
                        message: format!(
                            "is about {decoded} bytes once decoded; at most {MAX_IMAGE_BYTES} are accepted"
                        ),
                    });
                }
                Some(UploadedImage {
                    media_type: image.media_type.trim().to_ascii_lowercase(),
                    data: STANDARD.decode(text).map_err(|error| UploadError {
                        field: at("ImageResponse.Data"),
                        message: format!("is not base64: {error}"),
                    })?,
                })
            }
        };
        questions.push(UploadedQuestion {
            order: question
                .question_order_number
                .value(&at("QuestionOrderNumber"))?,
            choices,
            text: question.text_response,
            image,
            parts,
            points: question.points.iter().map(|p| (p.x, p.y)).collect(),
        });
    }
    Ok(UploadFile {
        attempt_id: file.attempt_id.value("AttemptID")?,
        batch_id: file.batch_id.map(|id| id.value("BatchID")).transpose()?,
        questions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contracts_example_reads() {
        let file = read(br#"{"AttemptID": 170, "BatchID": "12", "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "UploadedChoices": [{"ChoiceOrderNumber": "5", "Selected": true}]},
            {"QuestionOrderNumber": 2, "TextResponse": "An answer."},
            {"QuestionOrderNumber": 3, "ImageResponse": {"MediaType": "image/PNG", "Data": "aGVsbG8="}},
            {"QuestionOrderNumber": 4, "Parts": [{"PartNumber": 1, "ChoiceOrderNumber": "3"}, {"PartNumber": "2", "ChoiceOrderNumber": 1}]}]}"#)
        .unwrap();
        assert_eq!((file.attempt_id, file.batch_id), (170, Some(12)));
        assert_eq!(file.questions[0].choices, vec![(5, true)]);
        assert_eq!(file.questions[1].text.as_deref(), Some("An answer."));
        let image = file.questions[2].image.as_ref().unwrap();
        assert_eq!(
            (image.media_type.as_str(), image.data.as_slice()),
            ("image/png", b"hello".as_slice())
        );
        assert_eq!(
            file.questions[3].parts,
            vec![(1, PartAnswer::Choice(3)), (2, PartAnswer::Choice(1))]
        );
    }

    #[test]
    fn a_part_is_a_choice_or_words_never_both_nor_neither() {
        let file = read(br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Parts": [{"PartNumber": 2, "TextResponse": "Paris"}]}]}"#).unwrap();
        assert_eq!(
            file.questions[0].parts,
            [(2, PartAnswer::Text("Paris".into()))]
        );
        for (body, field) in [
            (&br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Parts": [{"PartNumber": 1, "ChoiceOrderNumber": 1, "TextResponse": "x"}]}]}"#[..], "QuestionAndChoices[0].Parts[0].TextResponse"),
            (&br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Parts": [{"PartNumber": 1}]}]}"#[..], "QuestionAndChoices[0].Parts[0].ChoiceOrderNumber"),
        ] {
            assert_eq!(read(body).unwrap_err().field, field);
        }
    }

    #[test]
    fn points_are_read_in_the_pictures_pixels() {
        let file = read(br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 4, "Points": [{"X": 102, "Y": 113.5}, {"Y": 0, "X": 1e2}]}]}"#).unwrap();
        assert_eq!(file.questions[0].points, [(102.0, 113.5), (100.0, 0.0)]);
    }

    #[test]
    fn what_is_wrong_names_its_field() {
        let cases: [(&[u8], &str); 13] = [
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Points": [{"X": "1", "Y": 2}]}]}"#, "QuestionAndChoices[0].Points[0].X"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Points": [{"X": 1}]}]}"#, "QuestionAndChoices[0].Points[0]"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Points": [{"X": 1, "Y": 2, "Z": 3}]}]}"#, "Z"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Parts": [{"PartNumber": "x", "ChoiceOrderNumber": 1}]}]}"#, "QuestionAndChoices[0].Parts[0].PartNumber"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "Parts": [{"PartNumber": 1, "Choice": 1}]}]}"#, "Choice"),
            (br#"{"BatchID": "1"}"#, "the upload file"),
            (br#"{"AttemptID": 1, "Colour": "red"}"#, "Colour"),
            (br#"{"AttemptID": "one"}"#, "AttemptID"),
            (br#"{"AttemptID": 1, "BatchID": "x"}"#, "BatchID"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "UploadedChoices": [{"ChoiceOrderNumber": "a"}]}]}"#, "QuestionAndChoices[0].UploadedChoices[0].ChoiceOrderNumber"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "UploadedChoices": [{"ChoiceOrderNumber": 1, "Selected": "yes"}]}]}"#, "QuestionAndChoices[0].UploadedChoices[0].Selected"),
            (br#"{"AttemptID": 1, "QuestionAndChoices": [{"QuestionOrderNumber": 1, "ImageResponse": {"MediaType": "image/png", "Data": "!!"}}]}"#, "QuestionAndChoices[0].ImageResponse.Data"),
            (br#"{"AttemptID": 1} trailing"#, "the upload file"),
        ];
        for (bytes, field) in cases {
            let error = read(bytes)
                .err()
                .unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(bytes)));
            assert!(
                error.field.contains(field) || error.message.contains(field),
                "{}: {error}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}
