//! A blank picked from its own list (an inline choice among a passage's blanks):
//! its options, each worth what the item's processing gives it. Under a mapping,
//! each option's mapped value (an option the mapping leaves out: the default);
//! otherwise the correct option is worth what the branch matching it sets.

use super::choice::choices_of;
use super::rules::{values, Mapping};
use crate::item::{Blank, Choice};
use crate::xml::Element;
use crate::{limits, markup};

pub(super) fn picked_blank(
    interaction: &Element,
    declaration: &Element,
    blank: usize,
    mapping: Option<&Mapping>,
    worth: Option<f64>,
) -> Result<Blank, String> {
    let identifier = declaration.attribute("identifier").unwrap_or_default();
    if declaration.attribute("baseType") != Some("identifier") {
        return Err(format!(
            "blank {blank} ({identifier}) is a list whose response is not of base type identifier"
        ));
    }
    let elements = choices_of(interaction);
    if !(2..=limits::MAX_CHOICES).contains(&elements.len()) {
        return Err(format!(
            "blank {blank} ({identifier}) lists {} options; a list takes 2 to {}",
            elements.len(),
            limits::MAX_CHOICES
        ));
    }
    let correct = values(declaration);
    let mut options: Vec<Choice> = Vec::with_capacity(elements.len());
    for element in elements {
        let option = element
            .attribute("identifier")
            .ok_or_else(|| format!("an option of blank {blank} has no identifier"))?
            .to_owned();
        if options.iter().any(|o| o.identifier == option) {
            return Err(format!(
                "two options of blank {blank} are called '{option}'"
            ));
        }
        let is_correct = correct.contains(&option);
        let mapped_value = match (mapping, worth) {
            (Some(mapping), _) => mapping
                .entries
                .iter()
                .find(|(key, _, _)| *key == option)
                .map(|(_, value, _)| *value),
            (None, Some(worth)) => is_correct.then_some(worth),
            (None, None) => None,
        };
        options.push(Choice {
            text: markup::choice_text(element),
            correct: is_correct,
            fixed: element.attribute("fixed") == Some("true"),
            identifier: option,
            mapped_value,
        });
    }
    if let Some(unknown) = correct
        .iter()
        .find(|v| !options.iter().any(|o| &o.identifier == *v))
    {
        return Err(format!(
            "the correct response '{unknown}' of blank {blank} is not one of its options"
        ));
    }
    if correct.len() > 1 {
        return Err(format!(
            "blank {blank} ({identifier}) has {} correct responses; a list takes one",
            correct.len()
        ));
    }
    match mapping {
        // Without a correct response the key is the options worth something.
        Some(mapping) if correct.is_empty() => {
            for option in &mut options {
                option.correct = option.mapped_value.unwrap_or(mapping.default_value) > 0.0;
            }
        }
        Some(_) => {}
        None if correct.is_empty() => {
            return Err(format!(
                "blank {blank} ({identifier}) has no correct response"
            ))
        }
        None => {}
    }
    Ok(Blank::Picked {
        options,
        shuffle: interaction.attribute("shuffle") == Some("true"),
    })
}
