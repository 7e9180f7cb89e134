//! Moodle's `ddwtos` (drag and drop into text) and `gapselect` (select missing
//! words): a passage whose gaps `[[n]]` each take one of the question's choices
//! (`dragbox`, `selectoption`), the right one being choice n. Read as QTI's gap
//! match: each gap a row, the choices its options, each right gap worth an equal
//! share of `defaultgrade` (Moodle grades these gap by gap). Moodle offers a gap
//! only its right choice's group; here every gap offers every choice, and a choice
//! of another group is simply wrong (noted in docs/content.md).

use crate::build::{gap_match_item, node, text, MatchKey, Scoring};
use crate::xml::{Element, Node};

pub(super) fn gaps(
    question: &Element,
    kind: &str,
    passage: Vec<Node>,
    scoring: &Scoring,
) -> Result<Vec<Node>, String> {
    let choice_name = if kind == "ddwtos" {
        "dragbox"
    } else {
        "selectoption"
    };
    let choices: Vec<String> = question
        .children_named(choice_name)
        .map(|choice| {
            choice
                .child("text")
                .map_or_else(|| choice.text(), |t| t.text())
                .trim()
                .to_owned()
        })
        .collect();
    if choices.len() < 2 {
        return Err(format!("a {kind} question with {} choices", choices.len()));
    }
    let mut gaps = Vec::new();
    let passage = with_gaps(passage, &mut gaps);
    if gaps.is_empty() {
        return Err("the text has no gap ([[1]]) to fill".into());
    }
    let mut rights = Vec::with_capacity(gaps.len());
    for gap in &gaps {
        match gap.trim().parse::<usize>() {
            Ok(n) if (1..=choices.len()).contains(&n) => rights.push(n),
            _ => {
                return Err(format!(
                    "the gap [[{gap}]] names no choice; the question has choices 1 to {}",
                    choices.len()
                ))
            }
        }
    }
    let share = scoring.points(100.0 / rights.len() as f64);
    let key = MatchKey::Mapped(
        rights
            .iter()
            .enumerate()
            .map(|(index, right)| (format!("gap_{}", index + 1), format!("word_{right}"), share))
            .collect(),
    );
    let words = choices
        .into_iter()
        .enumerate()
        .map(|(index, words)| {
            node(
                "gapText",
                &[
                    ("identifier", &format!("word_{}", index + 1)),
                    ("matchMax", "0"),
                ],
                vec![text(&words)],
            )
        })
        .collect();
    Ok(gap_match_item(words, passage, key, scoring))
}

/// The passage with each `[[n]]` in its text a `gap` element (`gap_1`, …, in
/// order); `gaps` gets what each gap says (`n`).
fn with_gaps(nodes: Vec<Node>, gaps: &mut Vec<String>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        match node {
            Node::Text(words) => {
                let mut rest = words.as_str();
                while let Some(start) = rest.find("[[") {
                    let Some(length) = rest[start..].find("]]") else {
                        break;
                    };
                    let number = &rest[start + 2..start + length];
                    out.push(text(&rest[..start]));
                    gaps.push(number.to_owned());
                    out.push(crate::build::node(
                        "gap",
                        &[("identifier", &format!("gap_{}", gaps.len()))],
                        Vec::new(),
                    ));
                    rest = &rest[start + length + 2..];
                }
                out.push(text(rest));
            }
            Node::Element(mut element) => {
                element.children = with_gaps(std::mem::take(&mut element.children), gaps);
                out.push(Node::Element(element));
            }
        }
    }
    out
}
