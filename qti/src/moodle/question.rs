//! One Moodle question translated into the QTI 2.1 item that asks and scores the
//! same. Moodle scores each answer with a `fraction` (a percentage of the
//! question's `defaultgrade`, negative for a wrong choice that costs marks):
//!
//! - `multichoice` (`single` true or false) and `truefalse`: a choice question, the
//!   one answer worth 100 % as match_correct, otherwise each choice worth its
//!   fraction (map_response: Moodle's partial credit);
//! - `shortanswer`: a text entry keyed by its answers, any case unless `usecase`;
//! - `numerical`: number keys, each answer with its `tolerance` on either side;
//! - `essay`: a person marks it; an essay answered only by attachment is an upload;
//! - `match`: a matching (`super::matching`);
//! - `ddwtos`, `gapselect`: a gap match (`super::gaps`);
//! - `multianswer` (cloze, `cloze` as moocloze writes it): blanks (`super::cloze`).
//!
//! What asks several answers of other shapes (drag onto an image) or draws values
//! per student (calculated, random) is skipped, naming why.

use super::text::nodes;
use crate::build::{
    choice_item, element, node, number_item, person, text_item, ChoiceKey, Scoring,
};
use crate::error::PackageError;
use crate::number::number;
use crate::xml::{Element, Node};

/// `Ok(Err(reason))`: the question is sound but not imported.
pub(super) fn translate(
    question: &Element,
    kind: &str,
    identifier: &str,
    file: &str,
) -> Result<Result<Element, String>, PackageError> {
    let several = "a question with several answers is not imported yet";
    let unsupported = match kind {
        "multichoice" | "truefalse" | "shortanswer" | "numerical" | "essay" | "match"
        | "ddwtos" | "gapselect" | "multianswer" | "cloze" => None,
        "description" => Some("a description: nothing to answer".to_owned()),
        "randomsamatch" | "ddimageortext" | "ddmarker" | "ordering" => {
            Some(format!("a Moodle {kind} question: {several}"))
        }
        "calculated" | "calculatedsimple" | "calculatedmulti" => Some(format!(
            "a Moodle {kind} question (numbers drawn for each student) is not imported"
        )),
        "random" => Some(
            "a random question (drawn from its category for each student) is not imported".into(),
        ),
        other => Some(format!(
            "a Moodle question of type '{other}' is not imported"
        )),
    };
    if let Some(reason) = unsupported {
        return Ok(Err(reason));
    }
    let declared = match number_of(question, "defaultgrade").transpose() {
        Ok(grade) => grade,
        Err(reason) => return Ok(Err(format!("defaultgrade: {reason}"))),
    };
    let grade = declared.unwrap_or(1.0);
    let scoring = Scoring {
        percent: true,
        max: Some(grade),
    };
    let stem = match question.child("questiontext") {
        Some(field) => match nodes(field, file, "html")? {
            Ok(stem) => stem,
            Err(reason) => return Ok(Err(reason)),
        },
        None => Vec::new(),
    };
    let stem = element("div", &[], stem);
    let parts = match kind {
        "multichoice" | "truefalse" => choices(question, kind, file, &scoring, stem)?,
        "shortanswer" => short_answer(question, &scoring, stem),
        "numerical" => numerical(question, &scoring, stem),
        "match" => super::matching::matching(question, file, &scoring, stem)?,
        "ddwtos" | "gapselect" => super::gaps::gaps(question, kind, stem.children, &scoring),
        "multianswer" | "cloze" => super::cloze::cloze(stem, declared),
        _ => {
            let attachments_only =
                field_text(question, "responseformat").as_deref() == Some("noinline");
            let interaction = if attachments_only {
                "uploadInteraction"
            } else {
                "extendedTextInteraction"
            };
            Ok(person(&scoring, stem, interaction))
        }
    };
    let title = field_text(question, "name").unwrap_or_else(|| identifier.to_owned());
    Ok(parts.map(|parts| {
        element(
            "assessmentItem",
            &[
                ("identifier", identifier),
                ("title", &title),
                ("adaptive", "false"),
            ],
            parts,
        )
    }))
}

/// A child's words: `<name><text>…</text></name>` or `<single>true</single>`.
fn field_text(question: &Element, name: &str) -> Option<String> {
    let field = question.child(name)?;
    let words = match field.child("text") {
        Some(text) => text.text(),
        None => field.text(),
    };
    Some(words.trim().to_owned()).filter(|w| !w.is_empty())
}

fn number_of(element: &Element, name: &str) -> Option<Result<f64, String>> {
    field_text(element, name).map(|t| number(&t))
}

fn fraction(answer: &Element) -> Result<f64, String> {
    number(answer.attribute("fraction").unwrap_or("0"))
        .map_err(|r| format!("an answer's fraction: {r}"))
}

fn choices(
    question: &Element,
    kind: &str,
    file: &str,
    scoring: &Scoring,
    stem: Element,
) -> Result<Result<Vec<Node>, String>, PackageError> {
    let multiple = kind == "multichoice"
        && field_text(question, "single").is_some_and(|s| matches!(s.as_str(), "false" | "0"));
    let shuffle = kind == "multichoice"
        && field_text(question, "shuffleanswers")
            .is_some_and(|s| matches!(s.as_str(), "1" | "true"));
    let mut choices = Vec::new();
    let mut values = Vec::new();
    for (index, answer) in question.children_named("answer").enumerate() {
        let identifier = format!("A{}", index + 1);
        let mut words = match nodes(answer, file, "html")? {
            Ok(words) => words,
            Err(reason) => return Ok(Err(reason)),
        };
        if kind == "truefalse" {
            // Moodle writes "true" and "false"; people read True and False.
            words = vec![crate::build::text(&capitalised(&answer_words(answer)))];
        }
        let value = match fraction(answer) {
            Ok(value) => value,
            Err(reason) => return Ok(Err(reason)),
        };
        choices.push(node("simpleChoice", &[("identifier", &identifier)], words));
        values.push((identifier, value));
    }
    let full: Vec<&(String, f64)> = values.iter().filter(|(_, v)| *v >= 99.999).collect();
    let others_nothing = values.iter().all(|(_, v)| *v >= 99.999 || *v == 0.0);
    let key = match full.as_slice() {
        [] if values.iter().all(|(_, v)| *v <= 0.0) => {
            return Ok(Err("no answer is worth anything".into()))
        }
        [(one, _)] if !multiple && others_nothing => ChoiceKey::Correct(vec![one.clone()]),
        _ if multiple && others_nothing => {
            ChoiceKey::Correct(full.iter().map(|(c, _)| c.clone()).collect())
        }
        _ => ChoiceKey::Mapped(
            values
                .iter()
                .map(|(choice, value)| (choice.clone(), scoring.points(*value)))
                .collect(),
        ),
    };
    Ok(Ok(choice_item(
        choices, multiple, shuffle, key, scoring, stem,
    )))
}

fn answer_words(answer: &Element) -> String {
    answer
        .child("text")
        .map(|t| t.text().trim().to_owned())
        .unwrap_or_default()
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn short_answer(question: &Element, scoring: &Scoring, stem: Element) -> Result<Vec<Node>, String> {
    let case_sensitive = field_text(question, "usecase").is_some_and(|u| u == "1");
    let mut keys = Vec::new();
    for answer in question.children_named("answer") {
        let value = fraction(answer)?;
        let words = answer_words(answer);
        if value <= 0.0 {
            continue;
        }
        let literal = words.replace("\\*", "");
        if literal.contains('*') {
            return Err(format!(
                "the answer '{words}' has a wildcard (*), which is not marked here"
            ));
        }
        keys.push((
            words.replace("\\*", "*"),
            scoring.points(value),
            case_sensitive,
        ));
    }
    if keys.is_empty() {
        return Err("no answer is worth anything".into());
    }
    Ok(text_item(keys, scoring, stem))
}

fn numerical(question: &Element, scoring: &Scoring, stem: Element) -> Result<Vec<Node>, String> {
    let mut ranges = Vec::new();
    for answer in question.children_named("answer") {
        let value = fraction(answer)?;
        let words = answer_words(answer);
        if value <= 0.0 || words == "*" {
            continue;
        }
        let centre = number(&words).map_err(|r| format!("an answer: {r}"))?;
        let tolerance = number_of(answer, "tolerance")
            .unwrap_or(Ok(0.0))
            .map_err(|r| format!("a tolerance: {r}"))?
            .abs();
        ranges.push((
            centre - tolerance,
            centre + tolerance,
            scoring.points(value),
        ));
    }
    if ranges.is_empty() {
        return Err("no answer is worth anything".into());
    }
    Ok(number_item(ranges, scoring, stem))
}
