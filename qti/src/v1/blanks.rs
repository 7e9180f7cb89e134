//! Blanks in a QTI 1.2 question's text as a QTI 2.1 item of several text entries.
//! The text names each blank in brackets (`Water is [a] and [b].`):
//!
//! - Canvas's `fill_in_multiple_blanks_question`: each blank a `response_lid`
//!   whose material is its name and whose labels are its accepted answers; each
//!   scoring condition tests one blank (`varequal`, by a label's ident as Canvas
//!   writes it, or by the answer itself as qti-package-maker writes it) and adds
//!   that blank's share: the score is the sum of the blanks' values
//!   (`SCORE = sum(mapResponse …)`);
//! - Blackboard's Fill in the Blank Plus: each blank a `response_str` named by its
//!   ident; one condition, an `and` over every blank's answers, sets the maximum:
//!   all or nothing (`and(gt(mapResponse …, 0) …)` setting SCORE).
//!
//! Each bracket becomes a text entry in place, each blank keyed by its answers
//! (any case unless `case="Yes"`, as both tools mark); the 2.x reader reads the
//! item back (`response::blanks`). Canvas's `multiple_dropdowns_question` has the
//! same form, but its labels are a blank's options to pick from: each bracket
//! becomes an inline choice of its own labels (`picked`), mapped by the labels
//! that score.

use std::collections::HashMap;

use super::conditions::{Processing, Test};
use crate::build::{element, float, mapping, node, set_score, Scoring};
use crate::limits;
use crate::xml::{Element, Node};

pub(super) fn blanks(
    responses: &[&Element],
    processing: &Processing,
    scoring: &Scoring,
    mut question: Element,
    picked: bool,
) -> Result<Vec<Node>, String> {
    if responses.len() > limits::MAX_ROWS {
        return Err(format!(
            "the question has {} blanks; a question here takes at most {}",
            responses.len(),
            limits::MAX_ROWS
        ));
    }
    let idents: Vec<&str> = responses
        .iter()
        .map(|r| r.attribute("ident").unwrap_or_default().trim())
        .collect();
    // A condition over every blank at once: all or nothing.
    let whole = processing.branches.iter().find(|branch| {
        branch.value > 0.0
            && matches!(branch.test, Test::And(_))
            && idents
                .iter()
                .all(|ident| !equals(&branch.test, ident).is_empty())
    });
    let mut declarations = Vec::new();
    let mut sum = Vec::new();
    for (index, response) in responses.iter().enumerate() {
        let ident = response.attribute("ident").unwrap_or_default().trim();
        let named = response
            .children_named("material")
            .map(|m| m.text())
            .collect::<String>();
        let name = match named.trim() {
            "" => ident.to_owned(),
            named => named.to_owned(),
        };
        // Each blank's labels, `(ident, words)`, in order.
        let listed: Vec<(String, String)> = response
            .descendants()
            .into_iter()
            .filter(|e| e.name == "response_label")
            .map(|label| {
                (
                    label
                        .attribute("ident")
                        .unwrap_or_default()
                        .trim()
                        .to_owned(),
                    label.text().trim().to_owned(),
                )
            })
            .collect();
        let labels: HashMap<String, String> = listed.iter().cloned().collect();
        let mut keys: Vec<(String, f64, bool)> = Vec::new();
        for branch in processing.branches.iter().filter(|b| b.value > 0.0) {
            for (value, case_sensitive) in equals(&branch.test, ident) {
                let answer = match picked {
                    // A picked blank's key is its label (by ident, or by words).
                    true => listed
                        .iter()
                        .find(|(id, words)| *id == value || *words == value)
                        .map(|(id, _)| id.clone())
                        .unwrap_or_default(),
                    false => labels.get(&value).cloned().unwrap_or(value),
                };
                if !answer.is_empty() && !keys.iter().any(|(k, _, _)| *k == answer) {
                    keys.push((answer, scoring.points(branch.value), case_sensitive));
                }
            }
        }
        if keys.is_empty() {
            return Err(format!(
                "blank {} ([{name}]) has no answer that scores",
                index + 1
            ));
        }
        let identifier = format!("BLANK{}", index + 1);
        declarations.push(node(
            "responseDeclaration",
            &[
                ("identifier", &identifier),
                ("cardinality", "single"),
                ("baseType", if picked { "identifier" } else { "string" }),
            ],
            vec![mapping(keys.into_iter())],
        ));
        let entry = match picked {
            true => element(
                "inlineChoiceInteraction",
                &[("responseIdentifier", &identifier), ("shuffle", "false")],
                listed
                    .iter()
                    .map(|(id, words)| {
                        node(
                            "inlineChoice",
                            &[("identifier", id)],
                            vec![Node::Text(words.clone())],
                        )
                    })
                    .collect(),
            ),
            false => element(
                "textEntryInteraction",
                &[("responseIdentifier", &identifier)],
                Vec::new(),
            ),
        };
        if !replace_placeholder(&mut question, &format!("[{name}]"), &entry) {
            // A blank the text does not show is asked after it, by its name.
            question.children.push(node(
                "p",
                &[],
                vec![Node::Text(format!("{name}: ")), Node::Element(entry)],
            ));
        }
        sum.push(node(
            "mapResponse",
            &[("identifier", &identifier)],
            Vec::new(),
        ));
    }
    let mut parts = declarations;
    parts.push(scoring.outcome());
    parts.push(node("itemBody", &[], vec![Node::Element(question)]));
    let processing = match whole {
        Some(branch) => {
            let every = sum
                .into_iter()
                .map(|mapped| node("gt", &[], vec![mapped, float(0.0)]))
                .collect();
            node(
                "responseCondition",
                &[],
                vec![node(
                    "responseIf",
                    &[],
                    vec![
                        node("and", &[], every),
                        set_score(scoring.points(branch.value)),
                    ],
                )],
            )
        }
        None => node(
            "setOutcomeValue",
            &[("identifier", "SCORE")],
            vec![node("sum", &[], sum)],
        ),
    };
    parts.push(node("responseProcessing", &[], vec![processing]));
    Ok(parts)
}

/// The values a test compares blank `ident` with, each with its case sensitivity.
fn equals(test: &Test, ident: &str) -> Vec<(String, bool)> {
    match test {
        Test::Equal {
            response,
            value,
            case_sensitive,
        } if response == ident => vec![(value.trim().to_owned(), *case_sensitive)],
        Test::Or(parts) | Test::And(parts) => parts.iter().flat_map(|t| equals(t, ident)).collect(),
        _ => Vec::new(),
    }
}

/// Puts `entry` where `placeholder` first stands in a text of `element`; whether
/// it was there.
fn replace_placeholder(element: &mut Element, placeholder: &str, entry: &Element) -> bool {
    for index in 0..element.children.len() {
        let found = match &mut element.children[index] {
            Node::Element(child) => {
                if replace_placeholder(child, placeholder, entry) {
                    return true;
                }
                None
            }
            Node::Text(text) => text.find(placeholder).map(|at| {
                let after = text.split_off(at + placeholder.len());
                text.truncate(at);
                after
            }),
        };
        if let Some(after) = found {
            element
                .children
                .insert(index + 1, Node::Element(entry.clone()));
            element.children.insert(index + 2, Node::Text(after));
            return true;
        }
    }
    false
}
