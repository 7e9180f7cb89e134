//! A QTI 1.2 matching: several `response_lid`s, one per row, each picking one of
//! the options. Two layouts are read:
//!
//! - Canvas's `matching_question` (and `multiple_dropdowns_question`, a row per
//!   blank): each response's material is what its row asks, and its labels the
//!   options with their words; labels of the same words are one option;
//! - Blackboard's `Matching`: each row's words stand beside its response in its
//!   block, the options' words in the `RIGHT_MATCH_BLOCK`, and each response's
//!   labels (idents of its own) stand for the options by position.
//!
//! Canvas adds a share of the points for each right pairing (`varequal
//! respident="row"` and `setvar action="Add"`): map_response. Blackboard marks
//! right pairings by their "correct" feedback alone: all of them for the maximum
//! (match_correct), as it scores a matching without partial credit.

use std::collections::HashMap;

use super::conditions::{Action, Branch, Processing, Test};
use super::material;
use crate::build::{match_item, node, MatchKey, Scoring};
use crate::error::PackageError;
use crate::limits;
use crate::xml::{Element, Node};

/// What a matching asks: its rows and options (identifier and words), and the
/// option each row's label stands for.
struct Layout {
    rows: Vec<(String, Vec<Node>)>,
    options: Vec<(String, Vec<Node>)>,
    /// `(row, label)` → option.
    labels: HashMap<(String, String), String>,
}

pub(super) fn matching(
    presentation: &Element,
    responses: &[&Element],
    file: &str,
    processing: &Processing,
    scoring: &Scoring,
    question: Element,
) -> Result<Result<Vec<Node>, String>, PackageError> {
    if let Some(other) = responses.iter().find(|r| r.name != "response_lid") {
        return Ok(Err(format!(
            "a matching whose row is a <{}>, not a response_lid",
            other.name
        )));
    }
    let right_block = presentation
        .descendants()
        .into_iter()
        .find(|e| e.name == "flow" && e.attribute("class") == Some("RIGHT_MATCH_BLOCK"));
    let layout = match right_block {
        Some(block) => blackboard(presentation, block, file)?,
        None => canvas(responses, file)?,
    };
    let layout = match layout {
        Ok(layout) => layout,
        Err(reason) => return Ok(Err(reason)),
    };
    let key = match key_of(&processing.branches, &layout) {
        Ok(key) => key,
        Err(reason) => return Ok(Err(reason)),
    };
    let key = match key {
        MatchKey::Mapped(pairs) => MatchKey::Mapped(
            pairs
                .into_iter()
                .map(|(row, option, value)| (row, option, scoring.points(value)))
                .collect(),
        ),
        correct => correct,
    };
    let choices = |list: Vec<(String, Vec<Node>)>| -> Vec<Node> {
        list.into_iter()
            .map(|(identifier, words)| {
                node(
                    "simpleAssociableChoice",
                    &[("identifier", &identifier), ("matchMax", "1")],
                    words,
                )
            })
            .collect()
    };
    Ok(Ok(match_item(
        choices(layout.rows),
        choices(layout.options),
        key,
        scoring,
        question,
    )))
}

fn words_of(parent: &Element, file: &str) -> Result<Vec<Node>, PackageError> {
    let mut words = Vec::new();
    for material in parent
        .descendants()
        .into_iter()
        .filter(|e| e.name == "material")
    {
        words.extend(material::nodes(material, file)?);
    }
    Ok(words)
}

/// The words of nodes, whitespace collapsed, to tell options apart.
fn plain(nodes: &[Node]) -> String {
    let mut words = String::new();
    for node in nodes {
        match node {
            Node::Text(text) => words.push_str(text),
            Node::Element(element) => words.push_str(&element.text()),
        }
        words.push(' ');
    }
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn labels_of(response: &Element) -> Vec<&Element> {
    response
        .descendants()
        .into_iter()
        .filter(|e| e.name == "response_label")
        .collect()
}

fn ident(element: &Element) -> String {
    element
        .attribute("ident")
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// Why a matching past the paper's bounds is skipped (checked as it is read: a
/// hostile item's ten thousand labels are not compared with each other).
fn too_many(what: &str, most: usize) -> String {
    format!("more than {most} {what} to match; at most {most} are imported")
}

fn canvas(responses: &[&Element], file: &str) -> Result<Result<Layout, String>, PackageError> {
    if responses.len() > limits::MAX_ROWS {
        return Ok(Err(too_many("rows", limits::MAX_ROWS)));
    }
    let mut layout = Layout {
        rows: Vec::new(),
        options: Vec::new(),
        labels: HashMap::new(),
    };
    for response in responses {
        let row = ident(response);
        let mut asks = Vec::new();
        for material in response.children_named("material") {
            asks.extend(material::nodes(material, file)?);
        }
        let labels = labels_of(response);
        if labels.len() > limits::MAX_OPTIONS {
            return Ok(Err(too_many("options", limits::MAX_OPTIONS)));
        }
        for label in labels {
            let label_ident = ident(label);
            let words = words_of(label, file)?;
            // A label of another response with the same words is the same option
            // (Canvas's dropdowns give each blank's words idents of their own).
            let known = layout
                .options
                .iter()
                .find(|(known, known_words)| {
                    *known == label_ident || plain(known_words) == plain(&words)
                })
                .map(|(known, _)| known.clone());
            let option = match known {
                Some(option) => option,
                None if layout.options.len() >= limits::MAX_OPTIONS => {
                    return Ok(Err(too_many("options", limits::MAX_OPTIONS)))
                }
                None => {
                    layout.options.push((label_ident.clone(), words));
                    label_ident.clone()
                }
            };
            layout.labels.insert((row.clone(), label_ident), option);
        }
        layout.rows.push((row, asks));
    }
    Ok(Ok(layout))
}

fn blackboard(
    presentation: &Element,
    right_block: &Element,
    file: &str,
) -> Result<Result<Layout, String>, PackageError> {
    let mut layout = Layout {
        rows: Vec::new(),
        options: Vec::new(),
        labels: HashMap::new(),
    };
    if right_block.elements().count() > limits::MAX_OPTIONS {
        return Ok(Err(too_many("options", limits::MAX_OPTIONS)));
    }
    for (index, block) in right_block.elements().enumerate() {
        layout
            .options
            .push((format!("option_{}", index + 1), words_of(block, file)?));
    }
    // Each row's block: its response, and its words beside it.
    let blocks = presentation
        .descendants()
        .into_iter()
        .filter(|e| e.name == "flow" && e.elements().any(|child| child.name == "response_lid"));
    for block in blocks {
        let Some(response) = block.elements().find(|c| c.name == "response_lid") else {
            continue;
        };
        let row = ident(response);
        let mut asks = Vec::new();
        for beside in block.elements().filter(|c| c.name != "response_lid") {
            asks.extend(words_of(beside, file)?);
        }
        for (position, label) in labels_of(response).into_iter().enumerate() {
            if let Some((option, _)) = layout.options.get(position) {
                layout
                    .labels
                    .insert((row.clone(), ident(label)), option.clone());
            }
        }
        layout.rows.push((row, asks));
    }
    if layout.rows.len() > limits::MAX_ROWS {
        return Ok(Err(too_many("rows", limits::MAX_ROWS)));
    }
    Ok(Ok(layout))
}

/// The key from the conditions: each names a row's label.
fn key_of(branches: &[Branch], layout: &Layout) -> Result<MatchKey, String> {
    let scoring: Vec<&Branch> = branches
        .iter()
        .filter(|b| b.test != Test::Otherwise)
        .collect();
    let mut pairs = Vec::new();
    for branch in &scoring {
        let Test::Equal {
            response, value, ..
        } = &branch.test
        else {
            return Err("a matching condition that is not one row's answer".into());
        };
        let option = layout
            .labels
            .get(&(response.clone(), value.clone()))
            .ok_or_else(|| {
                format!("a condition names '{value}', not an option of row '{response}'")
            })?;
        pairs.push((response.clone(), option.clone(), branch.value));
    }
    if !pairs.iter().any(|(_, _, value)| *value > 0.0) {
        return Err("no condition gives a pairing any score".into());
    }
    if scoring.iter().all(|b| b.action == Action::Add) {
        Ok(MatchKey::Mapped(pairs))
    } else if scoring.iter().all(|b| b.action == Action::Set) {
        Ok(MatchKey::Correct(
            pairs
                .into_iter()
                .filter(|(_, _, value)| *value > 0.0)
                .map(|(row, option, _)| (row, option))
                .collect(),
        ))
    } else {
        Err("a matching whose conditions both set and add to the score".into())
    }
}
