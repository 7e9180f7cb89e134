//! A Moodle `match` question: each subquestion with words is a row, its answer
//! the option it pairs with; a subquestion without words only adds its answer to
//! the options (a distractor). The options are the answers' texts, each once, in
//! order. Moodle gives each right pair an equal share of the question's grade.

use super::text::nodes;
use crate::build::{match_item, node, text, MatchKey, Scoring};
use crate::error::PackageError;
use crate::limits;
use crate::xml::{Element, Node};

pub(super) fn matching(
    question: &Element,
    file: &str,
    scoring: &Scoring,
    stem: Element,
) -> Result<Result<Vec<Node>, String>, PackageError> {
    let mut rows = Vec::new();
    let mut options: Vec<String> = Vec::new();
    let mut pairs = Vec::new();
    for subquestion in question.children_named("subquestion") {
        let answer = subquestion
            .child("answer")
            .map(|a| a.child("text").map_or_else(|| a.text(), |t| t.text()))
            .unwrap_or_default()
            .trim()
            .to_owned();
        if answer.is_empty() {
            return Ok(Err("a subquestion without an answer".into()));
        }
        let option = match options.iter().position(|known| *known == answer) {
            Some(index) => index,
            // Checked as it is read, so that a hostile bank's thousands of answers
            // are not compared with each other.
            None if options.len() >= limits::MAX_OPTIONS => {
                return Ok(Err(format!(
                    "more than {} options to match; at most {} are imported",
                    limits::MAX_OPTIONS,
                    limits::MAX_OPTIONS
                )))
            }
            None => {
                options.push(answer);
                options.len() - 1
            }
        };
        let asks = match nodes(subquestion, file, "html")? {
            Ok(asks) => asks,
            Err(reason) => return Ok(Err(reason)),
        };
        let says_something = asks.iter().any(|node| match node {
            Node::Text(words) => !words.trim().is_empty(),
            Node::Element(element) => {
                !element.text().trim().is_empty()
                    || element.name == "img"
                    || element.descendants().iter().any(|e| e.name == "img")
            }
        });
        if says_something {
            if rows.len() >= limits::MAX_ROWS {
                return Ok(Err(format!(
                    "more than {} rows to match; at most {} are imported",
                    limits::MAX_ROWS,
                    limits::MAX_ROWS
                )));
            }
            rows.push(asks);
            pairs.push((rows.len(), option + 1));
        }
    }
    if rows.is_empty() {
        return Ok(Err(
            "a match question without a subquestion to answer".into()
        ));
    }
    let share = 100.0 / rows.len() as f64;
    let key = MatchKey::Mapped(
        pairs
            .into_iter()
            .map(|(row, option)| {
                (
                    format!("row_{row}"),
                    format!("option_{option}"),
                    scoring.points(share),
                )
            })
            .collect(),
    );
    let choice = |identifier: String, words: Vec<Node>| {
        node(
            "simpleAssociableChoice",
            &[("identifier", &identifier), ("matchMax", "1")],
            words,
        )
    };
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(index, asks)| choice(format!("row_{}", index + 1), asks))
        .collect();
    let options = options
        .into_iter()
        .enumerate()
        .map(|(index, words)| choice(format!("option_{}", index + 1), vec![text(&words)]))
        .collect();
    Ok(Ok(match_item(rows, options, key, scoring, stem)))
}
