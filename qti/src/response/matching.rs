//! Match, gap match and order interactions read into rows that each pick one of
//! the options they share, and the pairs that score. A match's rows are its first
//! set and its options the second (a `directedPair` is "row option"); a gap
//! match's rows are its gaps and its options the words that fill them (its pairs
//! are "word gap"); an order's rows are the positions, first to last, and its
//! options the things put in order (its correct response, in order, pairs each
//! position with the one that belongs there).

use super::rules::{mapping, values, Mapping, Rule};
use crate::item::{ChoiceScoring, MatchOption, PairKey, Response};
use crate::xml::Element;
use crate::{limits, markup};

pub(super) fn matching(
    interaction: &Element,
    declaration: &Element,
    rule: &Rule,
    notes: &mut Vec<String>,
) -> Result<Response, String> {
    let (rows, options) = rows_and_options(interaction)?;
    let rule = match rule {
        Rule::Absent if declaration.child("correctResponse").is_some() => {
            notes.push("no response processing: scored as match_correct".into());
            Rule::MatchCorrect
        }
        Rule::Absent => return Err("nothing says which pairs are right".into()),
        Rule::Other(what) => {
            return Err(format!(
                "{what} is not imported; match_correct and map_response are"
            ))
        }
        rule => rule.clone(),
    };
    let ordered = matches!(
        interaction.name.as_str(),
        "orderInteraction" | "graphicOrderInteraction"
    );
    let expected = if ordered {
        ("identifier", "ordered")
    } else {
        ("directedPair", "multiple")
    };
    let base_type = declaration.attribute("baseType").unwrap_or_default();
    let cardinality = declaration.attribute("cardinality").unwrap_or_default();
    if base_type != expected.0 || !(cardinality == expected.1 || cardinality == "single") {
        return Err(format!(
            "a <{}> whose response is {cardinality} {base_type}, not {} {}",
            interaction.name, expected.1, expected.0
        ));
    }
    let option_at = |identifier: &str| options.iter().position(|o| o.identifier == identifier);
    let mut pairs: Vec<PairKey> = Vec::new();
    let mut row_count = rows.len();
    if ordered {
        let correct = values(declaration);
        if correct.is_empty() {
            return Err("an order without a correct order".into());
        }
        if correct.len() > limits::MAX_ROWS {
            return Err(format!(
                "an order of {}; at most {} are imported",
                correct.len(),
                limits::MAX_ROWS
            ));
        }
        row_count = correct.len();
        for (position, identifier) in correct.iter().enumerate() {
            let option = option_at(identifier)
                .ok_or_else(|| format!("the correct order names '{identifier}', not a choice"))?;
            if pairs.iter().any(|p| p.option == option) {
                return Err(format!("the correct order names '{identifier}' twice"));
            }
            pairs.push(PairKey {
                row: position,
                option,
                correct: true,
                mapped_value: None,
            });
        }
        if matches!(rule, Rule::MapResponse) {
            return Err("map_response of an order (each position worth its value) is not imported; match_correct is".into());
        }
    } else {
        let pair_of = |text: &str| -> Result<(usize, usize), String> {
            let ends: Vec<&str> = text.split_whitespace().collect();
            let [first, second] = ends.as_slice() else {
                return Err(format!("'{text}' is not a pair of two identifiers"));
            };
            // A gap match's pairs name the word first, then its gap.
            let (row, option) = if matches!(
                interaction.name.as_str(),
                "gapMatchInteraction" | "graphicGapMatchInteraction"
            ) {
                (second, first)
            } else {
                (first, second)
            };
            let row_index = rows.iter().position(|(identifier, _)| identifier == row);
            match (row_index, option_at(option)) {
                (Some(row), Some(option)) => Ok((row, option)),
                _ => Err(format!(
                    "the pair '{text}' does not pair a row with an option"
                )),
            }
        };
        for value in values(declaration) {
            let (row, option) = pair_of(&value)?;
            if pairs.iter().any(|p| p.row == row) {
                return Err(format!(
                    "'{}' has two correct pairs; a row here takes one option",
                    rows[row].0
                ));
            }
            pairs.push(PairKey {
                row,
                option,
                correct: true,
                mapped_value: None,
            });
        }
        if let Some(Mapping { entries, .. }) = mapping(declaration)? {
            for (key, value, _) in entries {
                let (row, option) = pair_of(&key)?;
                match pairs
                    .iter_mut()
                    .find(|p| p.row == row && p.option == option)
                {
                    Some(pair) => pair.mapped_value = Some(value),
                    None => pairs.push(PairKey {
                        row,
                        option,
                        correct: false,
                        mapped_value: Some(value),
                    }),
                }
            }
        }
    }
    let scoring = match rule {
        Rule::MatchCorrect => {
            if !pairs.iter().any(|p| p.correct) {
                return Err("match_correct without a correct response".into());
            }
            ChoiceScoring::MatchCorrect
        }
        _ => {
            let mapping = mapping(declaration)?.ok_or("map_response without a <mapping>")?;
            // Without a correct response the key is the pairs worth something.
            if !pairs.iter().any(|p| p.correct) {
                for pair in &mut pairs {
                    pair.correct = pair.mapped_value.unwrap_or(mapping.default_value) > 0.0;
                }
            }
            mapping.scoring()
        }
    };
    pairs.sort_by_key(|p| (p.row, p.option));
    let rows = if ordered {
        (1..=row_count).map(|n| format!("Position {n}")).collect()
    } else {
        rows.into_iter().map(|(_, text)| text).collect()
    };
    Ok(Response::Matching {
        rows,
        options,
        shuffle: interaction.attribute("shuffle") == Some("true"),
        pairs,
        scoring,
    })
}

/// A row's identifier and what it asks.
type Row = (String, String);

/// The rows and the options of the interaction.
fn rows_and_options(interaction: &Element) -> Result<(Vec<Row>, Vec<MatchOption>), String> {
    let identified = |element: &Element| -> Result<String, String> {
        element
            .attribute("identifier")
            .map(|i| i.trim().to_owned())
            .filter(|i| !i.is_empty())
            .ok_or_else(|| format!("a <{}> without an identifier", element.name))
    };
    let (rows, options): (Vec<&Element>, Vec<&Element>) = match interaction.name.as_str() {
        "matchInteraction" => {
            let sets: Vec<&Element> = interaction.children_named("simpleMatchSet").collect();
            let [rows, options] = sets.as_slice() else {
                return Err(format!(
                    "a match interaction with {} sets, not two",
                    sets.len()
                ));
            };
            (
                rows.children_named("simpleAssociableChoice").collect(),
                options.children_named("simpleAssociableChoice").collect(),
            )
        }
        "gapMatchInteraction" => {
            if interaction.child("gapImg").is_some() {
                return Err("a gap match with pictures to place is not imported".into());
            }
            let gaps = interaction
                .descendants()
                .into_iter()
                .filter(|e| e.name == "gap")
                .collect();
            (gaps, interaction.children_named("gapText").collect())
        }
        "graphicOrderInteraction" => (Vec::new(), markup::areas(interaction).collect()),
        // The areas are the rows; the pictures (and any words) to place, the options.
        "graphicGapMatchInteraction" => (
            markup::areas(interaction).collect(),
            interaction
                .elements()
                .filter(|e| matches!(e.name.as_str(), "gapImg" | "gapText"))
                .collect(),
        ),
        _ => (
            Vec::new(),
            interaction.children_named("simpleChoice").collect(),
        ),
    };
    let ordered = matches!(
        interaction.name.as_str(),
        "orderInteraction" | "graphicOrderInteraction"
    );
    if !ordered && rows.is_empty() {
        return Err(format!("a <{}> with nothing to match", interaction.name));
    }
    if rows.len() > limits::MAX_ROWS {
        return Err(format!(
            "{} rows to match; at most {} are imported",
            rows.len(),
            limits::MAX_ROWS
        ));
    }
    if options.len() < 2 || options.len() > limits::MAX_OPTIONS {
        return Err(format!(
            "{} options to pick from; 2 to {} are imported",
            options.len(),
            limits::MAX_OPTIONS
        ));
    }
    let mut read_rows = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let identifier = identified(row)?;
        if read_rows.iter().any(|(i, _)| *i == identifier) {
            return Err(format!("two rows are called '{identifier}'"));
        }
        let text = if row.name == "gap" {
            format!("Gap {}", index + 1)
        } else if row.name == "associableHotspot" {
            markup::area_words(row, index)
        } else {
            markup::choice_text(row)
        };
        read_rows.push((identifier, text));
    }
    let mut read_options: Vec<MatchOption> = Vec::with_capacity(options.len());
    for (index, option) in options.into_iter().enumerate() {
        let identifier = identified(option)?;
        if read_options.iter().any(|o| o.identifier == identifier)
            || read_rows.iter().any(|(i, _)| *i == identifier)
        {
            return Err(format!("two choices are called '{identifier}'"));
        }
        read_options.push(MatchOption {
            text: if option.name == "hotspotChoice" {
                markup::area_words(option, index)
            } else if option.name == "gapImg" {
                markup::picture_words(option, index)
            } else {
                markup::choice_text(option)
            },
            fixed: option.attribute("fixed") == Some("true"),
            identifier,
        });
    }
    Ok((read_rows, read_options))
}
