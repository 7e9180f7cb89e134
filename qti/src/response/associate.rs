//! An associate interaction (pairs made within one set: "match each character to
//! his adversary") read as a multiple response over its candidate pairs: every
//! pair of two of its choices, in the item's order ("Antonio – Prospero"), one
//! choice each. QTI scores a `pair` response as a set of unordered pairs: under
//! match_correct, exactly the correct pairs; under map_response, the sum of the
//! pairs' values. A multiple response scores its choices the same way, so a
//! pair selected is a choice selected, on screen, on paper and in an upload.
//! A choice's `matchMax` (how many pairs it may be in) is not checked: a
//! response that uses a choice twice is scored as the mapping scores those pairs.

use super::rules::{mapping, values, Rule};
use crate::item::{Choice, ChoiceScoring, Response};
use crate::xml::Element;
use crate::{limits, markup};

pub(super) fn associate(
    interaction: &Element,
    declaration: &Element,
    rule: &Rule,
    notes: &mut Vec<String>,
) -> Result<Response, String> {
    if declaration.attribute("baseType") != Some("pair") {
        return Err("an associate interaction whose response is not of base type pair".into());
    }
    // A graphic associate's areas have no words: their labels or letters.
    let set: Vec<(&str, String)> = interaction
        .elements()
        .filter(|e| {
            matches!(
                e.name.as_str(),
                "simpleAssociableChoice" | "associableHotspot"
            )
        })
        .enumerate()
        .map(|(index, choice)| {
            let identifier = choice
                .attribute("identifier")
                .ok_or_else(|| format!("a <{}> without an identifier", choice.name))?;
            let words = if choice.name == "associableHotspot" {
                markup::area_words(choice, index)
            } else {
                markup::choice_text(choice)
            };
            Ok((identifier.trim(), words))
        })
        .collect::<Result<_, String>>()?;
    let pairs = set.len() * set.len().saturating_sub(1) / 2;
    if set.len() < 2 || pairs > limits::MAX_CHOICES {
        return Err(format!(
            "an associate interaction of {} choices ({pairs} pairs); 2 to {} pairs are imported",
            set.len(),
            limits::MAX_CHOICES
        ));
    }
    // A pair as QTI writes it, either way round: `A P` is `P A`.
    let same = |written: &str, a: &str, b: &str| {
        let mut ends = written.split_whitespace();
        match (ends.next(), ends.next(), ends.next()) {
            (Some(x), Some(y), None) => (x == a && y == b) || (x == b && y == a),
            _ => false,
        }
    };
    let correct = values(declaration);
    let mapping = mapping(declaration)?;
    let mut choices = Vec::with_capacity(pairs);
    for (i, (a, a_text)) in set.iter().enumerate() {
        for (b, b_text) in &set[i + 1..] {
            choices.push(Choice {
                identifier: format!("{a} {b}"),
                text: format!("{a_text} – {b_text}"),
                correct: correct.iter().any(|v| same(v, a, b)),
                mapped_value: mapping.as_ref().and_then(|m| {
                    m.entries
                        .iter()
                        .find(|(key, _, _)| same(key, a, b))
                        .map(|(_, value, _)| *value)
                }),
                fixed: false,
            });
        }
    }
    let is_pair = |written: &str| {
        choices.iter().any(|c| {
            c.identifier
                .split_once(' ')
                .is_some_and(|(a, b)| same(written, a, b))
        })
    };
    if let Some(unknown) = correct.iter().find(|v| !is_pair(v)) {
        return Err(format!(
            "the correct response '{unknown}' is not a pair of the interaction's choices"
        ));
    }
    let scoring = match rule {
        Rule::MatchCorrect if correct.is_empty() => {
            return Err("match_correct without a correct response".into())
        }
        Rule::MatchCorrect => ChoiceScoring::MatchCorrect,
        Rule::MapResponse => {
            let mapping = mapping.ok_or("map_response without a <mapping>")?;
            if correct.is_empty() {
                for choice in &mut choices {
                    choice.correct = choice.mapped_value.unwrap_or(mapping.default_value) > 0.0;
                }
            }
            mapping.scoring()
        }
        Rule::Absent if !correct.is_empty() => {
            notes.push("no response processing: scored as match_correct".into());
            ChoiceScoring::MatchCorrect
        }
        Rule::Absent => return Err("nothing says which pairs are right".into()),
        Rule::Other(what) => {
            return Err(format!(
                "{what} is not imported; match_correct and map_response are"
            ))
        }
    };
    let max_choices = interaction
        .attribute("maxAssociations")
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(1);
    Ok(Response::Choice {
        multiple: true,
        max_choices,
        shuffle: false,
        choices,
        scoring,
    })
}
