//! A choice interaction (or an inline choice, or a hottext) read into the choices
//! and how they score.

use super::rules::{mapping, values, Rule};
use crate::item::{Choice, ChoiceScoring, Response};
use crate::xml::Element;
use crate::{limits, markup};

pub(super) fn choice(
    interaction: &Element,
    declaration: &Element,
    rule: &Rule,
    notes: &mut Vec<String>,
) -> Result<Response, String> {
    if declaration.attribute("baseType") != Some("identifier") {
        return Err("a choice interaction whose response is not of base type identifier".into());
    }
    let multiple = match declaration.attribute("cardinality") {
        Some("single") => false,
        Some("multiple") => true,
        other => {
            return Err(format!(
                "a choice response of cardinality '{}'; single and multiple are imported",
                other.unwrap_or("")
            ))
        }
    };
    let simple = choices_of(interaction);
    if interaction.name == "hotspotInteraction"
        && interaction
            .child("object")
            .and_then(|o| o.attribute("data"))
            .is_none()
    {
        return Err("a hotspot interaction without its picture (<object data>)".into());
    }
    if interaction.name == "inlineChoiceInteraction" && multiple {
        return Err("an inline choice whose response is of cardinality multiple".into());
    }
    if simple.len() < 2 {
        return Err(format!(
            "a choice interaction with {} choices",
            simple.len()
        ));
    }
    if simple.len() > limits::MAX_CHOICES {
        return Err(format!(
            "{} choices; at most {} are imported",
            simple.len(),
            limits::MAX_CHOICES
        ));
    }
    let correct = values(declaration);
    let mapping = mapping(declaration)?;
    let rule =
        match rule {
            Rule::Absent if !correct.is_empty() => {
                notes.push("no response processing: scored as match_correct".into());
                Rule::MatchCorrect
            }
            Rule::Absent => return Err(
                "nothing says which choice is right (no correct response, no response processing)"
                    .into(),
            ),
            Rule::Other(what) => {
                return Err(format!(
                    "{what} is not imported; match_correct and map_response are"
                ))
            }
            rule => rule.clone(),
        };
    let mut choices = Vec::with_capacity(simple.len());
    for (position, element) in simple.iter().enumerate() {
        let identifier = element
            .attribute("identifier")
            .ok_or_else(|| format!("a <{}> without an identifier", element.name))?
            .to_owned();
        if choices.iter().any(|c: &Choice| c.identifier == identifier) {
            return Err(format!("two choices are called '{identifier}'"));
        }
        let mapped_value = mapping.as_ref().and_then(|m| {
            m.entries
                .iter()
                .find(|(key, _, _)| *key == identifier)
                .map(|(_, value, _)| *value)
        });
        choices.push(Choice {
            text: choice_words(element, position),
            correct: correct.contains(&identifier),
            fixed: element.attribute("fixed") == Some("true"),
            identifier,
            mapped_value,
        });
    }
    if let Some(unknown) = correct
        .iter()
        .find(|v| !choices.iter().any(|c| &c.identifier == *v))
    {
        return Err(format!(
            "the correct response '{unknown}' is not one of the choices"
        ));
    }
    if !multiple && correct.len() > 1 {
        return Err(format!(
            "{} correct responses to a single choice",
            correct.len()
        ));
    }
    let scoring = match rule {
        Rule::MatchCorrect => {
            if correct.is_empty() {
                return Err("match_correct without a correct response".into());
            }
            ChoiceScoring::MatchCorrect
        }
        _ => {
            let mapping = mapping.ok_or("map_response without a <mapping>")?;
            // Without a correct response the key is the choices worth something.
            if correct.is_empty() {
                for choice in &mut choices {
                    choice.correct = choice.mapped_value.unwrap_or(mapping.default_value) > 0.0;
                }
            }
            mapping.scoring()
        }
    };
    let max_choices = interaction
        .attribute("maxChoices")
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(if multiple { 0 } else { 1 });
    Ok(Response::Choice {
        multiple,
        max_choices: if multiple { max_choices } else { 1 },
        shuffle: interaction.attribute("shuffle") == Some("true"),
        choices,
        scoring,
    })
}

/// A choice's words; a hotspot's area, which has none, is its label or the
/// letter its picture shows it by ("the area marked A").
fn choice_words(element: &Element, position: usize) -> String {
    let words = markup::choice_text(element);
    match (element.name.as_str(), words.is_empty()) {
        ("hotspotChoice", true) => markup::area_words(element, position),
        _ => words,
    }
}

/// The interaction's choices: a choice interaction's `simpleChoice`s, an inline
/// choice's `inlineChoice`s, a hottext interaction's `hottext`s wherever they
/// stand in its passage.
pub fn choices_of(interaction: &Element) -> Vec<&Element> {
    match interaction.name.as_str() {
        "inlineChoiceInteraction" => interaction.children_named("inlineChoice").collect(),
        "hotspotInteraction" => interaction.children_named("hotspotChoice").collect(),
        "hottextInteraction" => interaction
            .descendants()
            .into_iter()
            .filter(|e| e.name == "hottext")
            .collect(),
        _ => interaction.children_named("simpleChoice").collect(),
    }
}
