//! An answer upload (contract, "Answer upload file") checked against its snapshot
//! and marked: every rule of the contract, each refusal naming the field it is
//! about (`QuestionAndChoices[2].UploadedChoices[0].ChoiceOrderNumber`). Nothing
//! here reads or writes anything; images are checked where files are decoded
//! (documents::images), with the field names this gives them.

use std::collections::BTreeSet;

use super::result_scores::{self, ResultScores, ScoreBand, ScoredAnswer};
use super::scoring_rule::{self, SelectedChoice};
use super::snapshot::{limits, ExpectedResponse, SnapshotQuestion};

/// The scores of the result an upload makes, from its marked answers: the same
/// arithmetic as rescoring a stored result (its answers are exactly these).
pub fn scores_of(answers: &[MarkedAnswer], bands: &[ScoreBand]) -> ResultScores {
    let scored: Vec<ScoredAnswer> = answers
        .iter()
        .map(|answer| ScoredAnswer {
            max_score: answer.max_score,
            actual_score: answer.actual_score,
            topic: answer.topic.clone(),
        })
        .collect();
    result_scores::compute(&scored, bands)
}

/// Checks `file` against the snapshot's `questions` (in order) and marks it.
/// Questions the file leaves out are unanswered: choice questions score 0, written
/// ones are stored empty with 0 and need no scorer.
///
/// A file is refused with every problem found, so that whoever mends it by hand
/// mends it once: each entry whose question number is wrong or repeated, and the
/// first problem of each answer. The answers that passed are marked either way, so
/// that their images can be checked too.
pub fn check_and_mark(file: &UploadFile, questions: &[SnapshotQuestion]) -> Marking {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let mut answered: Vec<Option<(usize, &UploadedQuestion)>> = vec![None; questions.len()];
    for (index, uploaded) in file.questions.iter().enumerate() {
        let field = format!("QuestionAndChoices[{index}].QuestionOrderNumber");
        let position = usize::try_from(uploaded.order)
            .ok()
            .filter(|order| (1..=questions.len()).contains(order));
        let Some(position) = position else {
            problems.push(refuse(
                field,
                format!(
                    "{} is not a question of the snapshot, which has questions 1 to {}",
                    uploaded.order,
                    questions.len()
                ),
            ));
            continue;
        };
        if !seen.insert(uploaded.order) {
            problems.push(refuse(
                field,
                format!("question {} is answered twice", uploaded.order),
            ));
            continue;
        }
        answered[position - 1] = Some((index, uploaded));
    }
    let mut marked = Vec::with_capacity(questions.len());
    for (question, uploaded) in questions.iter().zip(answered) {
        match mark(question, uploaded) {
            Ok(answer) => marked.push(answer),
            Err(problem) => problems.push(problem),
        }
    }
    in_file_order(&mut problems);
    Marking {
        answers: marked,
        problems,
    }
}

/// What [`check_and_mark`] found: the answers marked, and the problems, in the
/// file's order.
#[derive(Debug)]
pub struct Marking {
    pub answers: Vec<MarkedAnswer>,
    pub problems: Vec<UploadError>,
}

impl Marking {
    /// The answers, if nothing was wrong.
    pub fn into_result(self) -> Result<Vec<MarkedAnswer>, Vec<UploadError>> {
        if self.problems.is_empty() {
            Ok(self.answers)
        } else {
            Err(self.problems)
        }
    }
}

/// Sorts problems by the entry of the file they are in (stable: an entry's own
/// problems keep the order they were found in).
pub fn in_file_order(problems: &mut [UploadError]) {
    problems.sort_by_key(|problem| entry_of(&problem.field));
}

/// The entry of the file a field is in (`QuestionAndChoices[3]...` is 3).
fn entry_of(field: &str) -> usize {
    field
        .strip_prefix("QuestionAndChoices[")
        .and_then(|rest| rest.split(']').next())
        .and_then(|index| index.parse().ok())
        .unwrap_or(usize::MAX)
}

/// How many problems a refusal lists before it says how many more there are: a
/// file broken throughout should not make a refusal as long as itself.
pub const LISTED_PROBLEMS: usize = 20;

/// One refusal's text for all of `problems`: "F: what" for one; for more,
/// "N problems: F1: what; F2: what", the first [`LISTED_PROBLEMS`] of them.
pub fn describe_problems(problems: &[UploadError]) -> String {
    match problems {
        [only] => only.to_string(),
        _ => {
            let listed: Vec<String> = problems
                .iter()
                .take(LISTED_PROBLEMS)
                .map(UploadError::to_string)
                .collect();
            let more = problems.len().saturating_sub(LISTED_PROBLEMS);
            let tail = if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            };
            format!("{} problems: {}{tail}", problems.len(), listed.join("; "))
        }
    }
}

/// A `TextResponse` of at most [`limits::MAX_TEXT_CHARS`] characters.
fn check_length(text: &str, field: impl FnOnce() -> String) -> Result<(), UploadError> {
    let chars = text.chars().count();
    if chars > limits::MAX_TEXT_CHARS {
        return Err(refuse(
            field(),
            format!(
                "{chars} characters; at most {} are accepted",
                limits::MAX_TEXT_CHARS
            ),
        ));
    }
    Ok(())
}

fn mark(
    question: &SnapshotQuestion,
    uploaded: Option<(usize, &UploadedQuestion)>,
) -> Result<MarkedAnswer, UploadError> {
    let mut answer = MarkedAnswer {
        question_id: question.question_id,
        question_number: question.order,
        max_score: question.max_score,
        actual_score: Some(0),
        media_type: "text/plain".into(),
        content: Vec::new(),
        topic: question.topic.clone(),
        image_field: None,
    };
    let Some((index, uploaded)) = uploaded else {
        return Ok(answer);
    };
    let at = |field: &str| format!("QuestionAndChoices[{index}].{field}");
    let expected = ExpectedResponse::of(question.kind);
    if expected == ExpectedResponse::Points {
        points::mark_points(question, uploaded, &at, &mut answer)?;
        return Ok(answer);
    }
    if !uploaded.points.is_empty() {
        return Err(refuse(
            at("Points"),
            format!("question {} is not answered with points", question.order),
        ));
    }
    if expected == ExpectedResponse::Parts {
        parts::mark_parts(question, uploaded, &at, &mut answer)?;
        return Ok(answer);
    }
    if expected == ExpectedResponse::TextParts {
        blanks::mark_blanks(question, uploaded, &at, &mut answer)?;
        return Ok(answer);
    }
    if !uploaded.parts.is_empty() {
        return Err(refuse(
            at("Parts"),
            format!("question {} has no parts", question.order),
        ));
    }
    if expected == ExpectedResponse::Text {
        if !uploaded.choices.is_empty() || uploaded.image.is_some() {
            let field = if uploaded.image.is_some() {
                "ImageResponse"
            } else {
                "UploadedChoices"
            };
            return Err(refuse(
                at(field),
                format!(
                    "question {} is answered with a typed TextResponse",
                    question.order
                ),
            ));
        }
        let text = uploaded.text.as_deref().unwrap_or_default();
        check_length(text, || at("TextResponse"))?;
        answer.media_type = "text/plain; charset=utf-8".into();
        answer.content = text.as_bytes().to_vec();
        answer.actual_score = Some(scoring_rule::text_score(
            &question.rule,
            &question.text_keys,
            question.max_score,
            text,
        ));
        return Ok(answer);
    }
    if expected == ExpectedResponse::TextOrImage {
        if !uploaded.choices.is_empty() {
            return Err(refuse(
                at("UploadedChoices"),
                format!(
                    "question {} is answered in writing, not with choices",
                    question.order
                ),
            ));
        }
        match (&uploaded.text, &uploaded.image) {
            (Some(_), Some(_)) => Err(refuse(
                at("ImageResponse"),
                "a question is answered with a TextResponse or an ImageResponse, not both",
            )),
            (Some(text), None) => {
                check_length(text, || at("TextResponse"))?;
                answer.media_type = "text/plain; charset=utf-8".into();
                answer.content = text.clone().into_bytes();
                answer.actual_score = if text.trim().is_empty() {
                    Some(0)
                } else {
                    None
                };
                Ok(answer)
            }
            (None, Some(image)) => {
                if !limits::IMAGE_TYPES.contains(&image.media_type.as_str()) {
                    return Err(refuse(
                        at("ImageResponse.MediaType"),
                        format!(
                            "'{}' is not accepted; send one of {}",
                            image.media_type,
                            limits::IMAGE_TYPES.join(", ")
                        ),
                    ));
                }
                if image.data.len() > limits::MAX_IMAGE_BYTES {
                    return Err(refuse(
                        at("ImageResponse.Data"),
                        format!(
                            "{} bytes; at most {} are accepted",
                            image.data.len(),
                            limits::MAX_IMAGE_BYTES
                        ),
                    ));
                }
                answer.media_type = image.media_type.clone();
                answer.content = image.data.clone();
                answer.actual_score = None;
                answer.image_field = Some(at("ImageResponse.Data"));
                Ok(answer)
            }
            (None, None) => Ok(answer),
        }
    } else {
        if uploaded.text.is_some() {
            return Err(refuse(
                at("TextResponse"),
                format!("question {} is answered with choices", question.order),
            ));
        }
        if uploaded.image.is_some() {
            return Err(refuse(
                at("ImageResponse"),
                format!("question {} is answered with choices", question.order),
            ));
        }
        let mut selected = Vec::new();
        let mut numbers = BTreeSet::new();
        for (position, (number, chosen)) in uploaded.choices.iter().enumerate() {
            let field = at(&format!("UploadedChoices[{position}].ChoiceOrderNumber"));
            let choice = usize::try_from(*number)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|n| question.choices.get(n))
                .ok_or_else(|| {
                    refuse(
                        &field,
                        format!(
                            "{number} is not a choice of question {}, which has choices 1 to {}",
                            question.order,
                            question.choices.len()
                        ),
                    )
                })?;
            if !numbers.insert(*number) {
                return Err(refuse(field, format!("choice {number} is listed twice")));
            }
            if *chosen {
                selected.push(choice);
            }
        }
        let most = question.max_selected();
        if selected.len() > most {
            let takes = if most == 1 {
                "one".to_owned()
            } else {
                format!("at most {most}")
            };
            return Err(refuse(
                at("UploadedChoices"),
                format!(
                    "{} choices are selected on question {}, which takes {takes}",
                    selected.len(),
                    question.order
                ),
            ));
        }
        let marked: Vec<SelectedChoice> = selected
            .iter()
            .map(|c| SelectedChoice {
                correct: c.correct,
                mapped_value: c.mapped_value,
            })
            .collect();
        let correct_choices = question.choices.iter().filter(|c| c.correct).count();
        answer.actual_score = Some(scoring_rule::choices_score(
            &question.rule,
            question.kind,
            question.max_score,
            &marked,
            correct_choices,
        ));
        let mut own: Vec<i32> = selected.iter().map(|c| c.question_choice).collect();
        own.sort_unstable();
        answer.content = own
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",")
            .into_bytes();
        Ok(answer)
    }
}

mod blanks;
mod parts;
mod points;
mod types;
use types::refuse;
pub use types::{
    MarkedAnswer, PartAnswer, UploadError, UploadFile, UploadedImage, UploadedQuestion,
};

#[cfg(test)]
mod choice_limits;
#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod point_answers;
#[cfg(test)]
mod tests;
