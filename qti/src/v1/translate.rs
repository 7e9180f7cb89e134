//! One QTI 1.2 item translated into the QTI 2.1 item that asks and scores the same,
//! which the 2.x reader then reads like any other (one path for markup, images,
//! scoring and maxima). What maps:
//!
//! - `response_lid` with `render_choice`: a choice interaction, single or multiple
//!   by `rcardinality`; the correct choices from the conditions that score, or
//!   each choice's value when conditions add per choice;
//! - `response_str` (or `response_num`) with `render_fib`: a text entry keyed by the
//!   accepted answers, a numeric entry when `fibtype` is `Decimal` or `Integer`
//!   (ranges from `vargte`/`varlte`), an essay when nothing is keyed;
//! - Canvas's `essay_question` and `file_upload_question`: an essay and an upload,
//!   marked by a person;
//! - Canvas's `fill_in_multiple_blanks_question`: a text entry in place of each
//!   bracketed blank, each keyed by its answers (`v1::blanks`).
//!
//! Canvas scores in percent (`setvar` 100) with the points in `points_possible`;
//! other tools (Blackboard, Questionmark) score in points, the maximum in the score
//! variable's `maxvalue`.

use super::blanks::blanks;
use super::choice::choice;
use super::conditions;
use super::fill_in::fill_in;
use super::matching::matching;
use super::material;
use crate::build::{element, person, Scoring};
use crate::error::PackageError;
use crate::xml::{Element, Node};

/// `Ok(Err(reason))`: the item is sound but not imported.
pub(super) fn translate(
    item: &Element,
    identifier: &str,
    file: &str,
) -> Result<Result<Element, String>, PackageError> {
    let canvas_type = field(item, "question_type");
    let kind = canvas_type.as_deref().unwrap_or_default();
    match kind {
        "text_only_question" => return Ok(Err("text only: nothing to answer".into())),
        "calculated_question" => {
            return Ok(Err(
                "a formula question (numbers drawn for each student) is not imported".into(),
            ))
        }
        _ => {}
    }
    let Some(presentation) = item.child("presentation") else {
        return Ok(Err("the item has no <presentation>".into()));
    };
    let mut stem = Vec::new();
    let mut responses = Vec::new();
    gather(presentation, file, &mut stem, &mut responses)?;
    let processing = match conditions::read(item) {
        Ok(processing) => processing,
        Err(reason) => return Ok(Err(reason)),
    };
    let points = match field(item, "points_possible").map(|p| crate::number::number(&p)) {
        Some(Ok(points)) => Some(points),
        Some(Err(reason)) => return Ok(Err(format!("points_possible: {reason}"))),
        None => None,
    };
    let scoring = Scoring {
        percent: points.is_some(),
        max: points.or(processing.max),
    };
    let question = element("div", &[], stem);
    let translated = match (kind, responses.as_slice()) {
        ("file_upload_question", _) => Ok(person(&scoring, question, "uploadInteraction")),
        ("essay_question", _) => Ok(person(&scoring, question, "extendedTextInteraction")),
        (_, []) => Err("the item has no response, so nothing to answer".into()),
        // Blanks in the question's text, each with its answers.
        ("fill_in_multiple_blanks_question", blanks_of) => {
            blanks(blanks_of, &processing, &scoring, question, false)
        }
        // Blanks in the text, each picked from its own list.
        ("multiple_dropdowns_question", blanks_of) => {
            blanks(blanks_of, &processing, &scoring, question, true)
        }
        // Rows of one list each: a matching, of one row or more, when the tool
        // says so (Canvas's type, Blackboard's metadata).
        ("matching_question", rows) => {
            matching(presentation, rows, file, &processing, &scoring, question)?
        }
        (_, rows) if says_matching(item) => {
            matching(presentation, rows, file, &processing, &scoring, question)?
        }
        (_, [one]) => match one.name.as_str() {
            "response_lid" => choice(one, file, &processing, &scoring, question)?,
            "response_str" | "response_num" => fill_in(one, kind, &processing, &scoring, question),
            other => Err(format!("<{other}> is not imported")),
        },
        // Several typed answers in the question's text: its blanks (Blackboard).
        (_, many) if many.iter().all(|r| r.name == "response_str") => {
            blanks(many, &processing, &scoring, question, false)
        }
        // Other tools show a matching by every response offering the same labels.
        (_, many) if shares_labels(many) => {
            matching(presentation, many, file, &processing, &scoring, question)?
        }
        (_, many) => Err(format!(
            "the item has {} responses; a question with several answers is not imported yet",
            many.len()
        )),
    };
    let title = item.attribute("title").unwrap_or(identifier);
    Ok(translated.map(|parts| {
        let attributes = [
            ("identifier", identifier),
            ("title", title),
            ("adaptive", "false"),
        ];
        element("assessmentItem", &attributes, parts)
    }))
}

/// Whether Blackboard's metadata says the item is a matching.
fn says_matching(item: &Element) -> bool {
    item.child("itemmetadata").is_some_and(|metadata| {
        metadata
            .children_named("bbmd_questiontype")
            .any(|t| t.text().trim() == "Matching")
    })
}

/// Whether every response is a `response_lid` offering the same labels.
fn shares_labels(responses: &[&Element]) -> bool {
    let labels = |response: &Element| -> Vec<String> {
        response
            .descendants()
            .into_iter()
            .filter(|e| e.name == "response_label")
            .map(|e| e.attribute("ident").unwrap_or_default().to_owned())
            .collect()
    };
    let first = labels(responses[0]);
    first.len() >= 2
        && responses
            .iter()
            .all(|r| r.name == "response_lid" && labels(r) == first)
}

/// A metadata field's entry: Canvas's `qtimetadatafield`.
fn field(item: &Element, label: &str) -> Option<String> {
    let metadata = item.child("itemmetadata")?;
    metadata
        .descendants()
        .into_iter()
        .filter(|e| e.name == "qtimetadatafield")
        .find(|f| {
            f.child("fieldlabel")
                .is_some_and(|l| l.text().trim() == label)
        })
        .and_then(|f| f.child("fieldentry"))
        .map(|e| e.text().trim().to_owned())
        .filter(|e| !e.is_empty())
}

/// The question's words (materials outside the responses) and its responses.
/// Blackboard's blocks of a matching's rows and options hold their words, not
/// the question's: only the responses are taken from them.
fn gather<'e>(
    parent: &'e Element,
    file: &str,
    stem: &mut Vec<Node>,
    responses: &mut Vec<&'e Element>,
) -> Result<(), PackageError> {
    for child in parent.elements() {
        match child.name.as_str() {
            "material" => stem.extend(material::nodes(child, file)?),
            name if name.starts_with("response_") => responses.push(child),
            "flow" if child.attribute("class") == Some("RIGHT_MATCH_BLOCK") => {}
            "flow" if child.attribute("class") == Some("RESPONSE_BLOCK") => {
                responses.extend(
                    child
                        .descendants()
                        .into_iter()
                        .filter(|e| e.name.starts_with("response_") && e.name != "response_label"),
                );
            }
            "flow" | "flow_mat" => gather(child, file, stem, responses)?,
            _ => {}
        }
    }
    Ok(())
}
