//! An attempt's scanned answer sheet as the contract's answer upload file: its
//! decided choices, its essays' frames as `ImageResponse` PNGs, and its short
//! answers as a person typed them from their boxes (`TextResponse`), the places
//! marked on a picture (`Points`, in its pixels). The file goes
//! through `POST AnswerUploads` (or, from `sheets scan`, through the same checks in
//! process), so a sheet's answers meet every rule a typed upload meets.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use scoredesk_sheets::{Answer, AttemptReading};
use serde_json::{json, Value};

/// The upload file of `reading`, for print batch `batch`. A question left blank
/// and an essay frame or a short answer's box left empty are not in it: the
/// attempt did not answer them. Refuses, naming the question, a reading that
/// still holds doubts or short answers not yet typed.
pub fn upload_file(batch: i32, reading: &AttemptReading) -> Result<Value, String> {
    if let Some(doubt) = reading.doubts.first() {
        return Err(format!(
            "attempt {}: question {}{} has an unsure mark a person must decide first",
            reading.attempt,
            doubt.question,
            if doubt.part > 0 {
                format!(", row {}", doubt.part)
            } else {
                String::new()
            }
        ));
    }
    if let Some(written) = reading.written.first() {
        return Err(format!(
            "attempt {}: question {}'s short answer must be typed from its box first",
            reading.attempt, written.question
        ));
    }
    let questions: Vec<Value> = reading
        .answers
        .iter()
        .filter_map(|answer| match answer {
            Answer::Choices { selected, .. } if selected.is_empty() => None,
            Answer::Choices { question, selected } => Some(json!({
                "QuestionOrderNumber": question,
                "UploadedChoices": selected
                    .iter()
                    .map(|choice| json!({"ChoiceOrderNumber": choice.to_string(), "Selected": true}))
                    .collect::<Vec<_>>(),
            })),
            // A part's choice goes with the question's other parts, below.
            Answer::Parts { .. } => None,
            // A number's rows are its characters, typed as a short answer is.
            Answer::Number { question, rows } => {
                let text = Answer::number_text(rows);
                (!text.is_empty())
                    .then(|| json!({"QuestionOrderNumber": question, "TextResponse": text}))
            }
            Answer::Essay { png: None, .. } => None,
            Answer::Essay {
                question,
                png: Some(png),
            } => Some(json!({
                "QuestionOrderNumber": question,
                "ImageResponse": {"MediaType": "image/png", "Data": STANDARD.encode(png)},
            })),
            Answer::Text { text: None, .. } => None,
            Answer::Text {
                question,
                part: 0,
                text: Some(text),
            } => Some(json!({"QuestionOrderNumber": question, "TextResponse": text})),
            // A blank's words go with the question's other blanks, below.
            Answer::Text { .. } => None,
            Answer::Places { places, .. } if places.is_empty() => None,
            Answer::Places { question, places } => Some(json!({
                "QuestionOrderNumber": question,
                "Points": places
                    .iter()
                    .map(|(x, y)| json!({"X": x, "Y": y}))
                    .collect::<Vec<_>>(),
            })),
        })
        .collect();
    let mut questions = questions;
    // A matching's rows, a fill-in-the-blanks question's blanks (picked ones by
    // their choice, typed ones by their words): one answer with its parts.
    let mut parts: std::collections::BTreeMap<i32, Vec<(i32, Value)>> = Default::default();
    for answer in &reading.answers {
        match answer {
            Answer::Parts {
                question,
                parts: chosen,
            } => parts
                .entry(*question)
                .or_default()
                .extend(chosen.iter().map(|(part, choice)| {
                    let value =
                        json!({"PartNumber": part, "ChoiceOrderNumber": choice.to_string()});
                    (*part, value)
                })),
            Answer::Text {
                question,
                part,
                text: Some(text),
            } if *part > 0 => parts
                .entry(*question)
                .or_default()
                .push((*part, json!({"PartNumber": part, "TextResponse": text}))),
            _ => {}
        }
    }
    let blanks = parts
        .into_iter()
        .filter(|(_, parts)| !parts.is_empty())
        .map(|(question, mut parts)| {
            parts.sort_by_key(|(part, _)| *part);
            (
                question,
                parts
                    .into_iter()
                    .map(|(_, value)| value)
                    .collect::<Vec<_>>(),
            )
        });
    questions.extend(
        blanks
            .into_iter()
            .map(|(question, parts)| json!({"QuestionOrderNumber": question, "Parts": parts})),
    );
    questions.sort_by_key(|question| question["QuestionOrderNumber"].as_i64());
    Ok(json!({
        "AttemptID": reading.attempt,
        "BatchID": batch.to_string(),
        "QuestionAndChoices": questions,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::upload_file;
    use scoredesk_sheets::{Doubt, DoubtReason, WrittenAnswer};

    fn reading() -> AttemptReading {
        AttemptReading {
            attempt: 9001,
            answers: vec![
                Answer::Choices {
                    question: 1,
                    selected: vec![2],
                },
                Answer::Choices {
                    question: 2,
                    selected: vec![],
                },
                Answer::Choices {
                    question: 3,
                    selected: vec![1, 3],
                },
                Answer::Essay {
                    question: 4,
                    png: Some(b"\x89PNG".to_vec()),
                },
                Answer::Essay {
                    question: 5,
                    png: None,
                },
                Answer::Parts {
                    question: 6,
                    parts: vec![(1, 3), (3, 1)],
                },
                Answer::Parts {
                    question: 7,
                    parts: vec![],
                },
                Answer::Text {
                    question: 8,
                    part: 0,
                    text: Some("wicked king".into()),
                },
                Answer::Text {
                    question: 9,
                    part: 0,
                    text: None,
                },
                Answer::Text {
                    question: 10,
                    part: 1,
                    text: Some("hydrogen".into()),
                },
                Answer::Text {
                    question: 10,
                    part: 2,
                    text: None,
                },
                Answer::Text {
                    question: 10,
                    part: 3,
                    text: Some("oxygen".into()),
                },
                Answer::Places {
                    question: 11,
                    places: vec![(102.5, 113.0), (96.0, 114.0)],
                },
                Answer::Places {
                    question: 12,
                    places: Vec::new(),
                },
            ],
            doubts: Vec::new(),
            written: Vec::new(),
        }
    }

    #[test]
    fn the_file_reads_back_as_the_contracts_upload() {
        let file = upload_file(7, &reading()).expect("decided");
        let bytes = serde_json::to_vec(&file).expect("JSON");
        let read = upload_file::read(&bytes).expect("the contract's shape");
        assert_eq!(read.attempt_id, 9001);
        assert_eq!(read.batch_id, Some(7));
        let orders: Vec<i32> = read.questions.iter().map(|q| q.order).collect();
        assert_eq!(orders, [1, 3, 4, 6, 8, 10, 11], "blank answers left out");
        assert_eq!(read.questions[6].points, [(102.5, 113.0), (96.0, 114.0)]);
        assert_eq!(read.questions[4].text.as_deref(), Some("wicked king"));
        assert_eq!(
            read.questions[5].parts,
            [
                (1, crate::model::upload::PartAnswer::Text("hydrogen".into())),
                (3, crate::model::upload::PartAnswer::Text("oxygen".into()))
            ],
            "the blanks typed, the empty one left out"
        );
        assert_eq!(
            read.questions[3].parts,
            [
                (1, crate::model::upload::PartAnswer::Choice(3)),
                (3, crate::model::upload::PartAnswer::Choice(1))
            ]
        );
        assert_eq!(read.questions[1].choices, [(1, true), (3, true)]);
        let image = read.questions[2].image.as_ref().expect("the essay's image");
        assert_eq!(image.media_type, "image/png");
        assert_eq!(image.data, b"\x89PNG");
    }

    #[test]
    fn a_reading_with_doubts_is_not_written() {
        let mut doubtful = reading();
        doubtful.doubts.push(Doubt {
            question: 2,
            part: 0,
            page: 1,
            most: 1,
            reason: DoubtReason::Faint,
            bubbles: Vec::new(),
            doubted: scoredesk_sheets::Doubted::Bubbles,
        });
        let error = upload_file(7, &doubtful).expect_err("refused");
        assert!(error.contains("question 2"), "{error}");

        let mut untyped = reading();
        untyped.written.push(WrittenAnswer {
            question: 10,
            part: 0,
            page: 1,
            png: b"\x89PNG".to_vec(),
            ink: 0.01,
        });
        let error = upload_file(7, &untyped).expect_err("refused");
        assert!(error.contains("question 10's short answer"), "{error}");
    }
}
