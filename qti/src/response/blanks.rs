//! Several text entries or inline choices in one item (blanks in a passage, typed
//! or picked from a list): one question whose blanks are each marked by their own
//! keys, the question's score the sum of the blanks' values. The templates score one response (`RESPONSE`), so an item of
//! several is scored by custom processing; two shapes are read, per blank:
//!
//! - `mapResponse` of the blank's response (TAO's and our own QTI 1.2
//!   translation's `SCORE = sum(mapResponse …)`): its mapping's keys and values;
//! - a `responseIf` whose test matches the blank's response against its correct
//!   value and sets a score (`SCORE + v`, `SCORE_n = v`): the correct values,
//!   each worth `v`;
//! - for a number blank, branches testing it within a tolerance (`<equal>`) or
//!   between bounds (`and(gte, lte)`), each adding its score: a range each.
//!
//! Or, for the whole question, one `responseIf` whose test is an `and` over every
//! blank (each matching its correct value, or `gt(mapResponse, 0)`: any of its
//! mapped answers), setting the score: all or nothing, as match_correct
//! (Blackboard's Fill in the Blank Plus, as translated from QTI 1.2).
//!
//! Without any processing, each correct value is worth 1 (noted). A blank that
//! the processing does not score skips the item, naming the blank.

use super::number::blank_ranges;
use super::picked::picked_blank;
use super::rules::{mapping, values};
use crate::item::{Blank, ChoiceScoring, NumberRange, Response, TextKey};
use crate::number::number as read_number;
use crate::xml::Element;

/// At most this many blanks in one question.
pub(super) const MAX_BLANKS: usize = 40;

pub(super) fn blanks(
    item: &Element,
    interactions: &[&Element],
    notes: &mut Vec<String>,
) -> Result<Response, String> {
    if interactions.len() > MAX_BLANKS {
        return Err(format!(
            "the item has {} blanks; a question here takes at most {MAX_BLANKS}",
            interactions.len()
        ));
    }
    let processing = item.child("responseProcessing");
    if let Some(template) = processing.and_then(|p| {
        p.attribute("template")
            .or_else(|| p.attribute("templateLocation"))
    }) {
        return Err(format!(
            "the template {template} scores one response, and the item has {} blanks",
            interactions.len()
        ));
    }
    let steps = processing.map(|p| p.descendants()).unwrap_or_default();
    let identifiers: Vec<&str> = interactions
        .iter()
        .filter_map(|i| i.attribute("responseIdentifier"))
        .collect();
    let all_or_nothing = processing.is_some_and(|p| every_blank_right(p, &identifiers));
    if all_or_nothing && processing.is_some_and(part_marks_for_some_blanks) {
        return Err(
            "its response processing gives part marks for some combinations of right \
                    blanks (a responseElseIf over a few of them), which marking blank by blank \
                    cannot give"
                .into(),
        );
    }
    let mut blanks = Vec::with_capacity(interactions.len());
    let mut defaults = Vec::new();
    for (index, interaction) in interactions.iter().enumerate() {
        let blank = index + 1;
        let identifier = interaction
            .attribute("responseIdentifier")
            .ok_or_else(|| format!("blank {blank} names no responseIdentifier"))?;
        let declaration = item
            .children_named("responseDeclaration")
            .find(|d| d.attribute("identifier") == Some(identifier))
            .ok_or_else(|| format!("no <responseDeclaration identifier=\"{identifier}\">"))?;
        if declaration
            .attribute("cardinality")
            .is_some_and(|c| c != "single")
        {
            return Err(format!(
                "blank {blank} ({identifier}) takes more than one value"
            ));
        }
        let mapped = steps
            .iter()
            .any(|e| e.name == "mapResponse" && e.attribute("identifier") == Some(identifier));
        let worth = |notes: &mut Vec<String>| match processing {
            _ if all_or_nothing => Ok(Some(1.0)),
            None => {
                if index == 0 {
                    notes.push("no response processing: each blank worth 1".into());
                }
                Ok(Some(1.0))
            }
            Some(processing) => matched_value(processing, identifier),
        };
        if interaction.name == "inlineChoiceInteraction" {
            let mapping = match mapped {
                true => Some(mapping(declaration)?.ok_or_else(|| {
                    format!("blank {blank} ({identifier}) is mapped without a <mapping>")
                })?),
                false => None,
            };
            defaults.extend(mapping.as_ref().map(|m| m.default_value));
            let worth = match mapped {
                true => None,
                false => Some(worth(notes)?.ok_or_else(|| {
                    format!("blank {blank} ({identifier}) is not scored by the response processing")
                })?),
            };
            blanks.push(picked_blank(
                interaction,
                declaration,
                blank,
                mapping.as_ref(),
                worth,
            )?);
            continue;
        }
        let numeric = match declaration.attribute("baseType") {
            Some("string") | None => false,
            Some("float" | "integer") => true,
            Some(other) => {
                return Err(format!(
                    "blank {blank} ({identifier}) is of base type '{other}'; strings and numbers are imported"
                ))
            }
        };
        let key = |text: &str, case_sensitive, value| -> Result<TextKey, String> {
            let range = numeric
                .then(|| read_number(text).map(|n| NumberRange { low: n, high: n }))
                .transpose()?;
            Ok(TextKey {
                text: text.to_owned(),
                case_sensitive,
                mapped_value: Some(value),
                numeric: range,
            })
        };
        let keys = if mapped {
            let mapping = mapping(declaration)?.ok_or_else(|| {
                format!("blank {blank} ({identifier}) is mapped without a <mapping>")
            })?;
            defaults.push(mapping.default_value);
            mapping
                .entries
                .iter()
                .map(|(text, value, case_sensitive)| key(text, *case_sensitive, *value))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            let worth = worth(notes)?;
            // A number blank may be scored by ranges instead (a tolerance).
            if let (None, true, Some(processing)) = (worth, numeric, processing) {
                let correct = values(declaration)
                    .iter()
                    .map(|v| read_number(v))
                    .collect::<Result<Vec<f64>, String>>()?;
                let ranges = blank_ranges(processing, identifier, &correct, notes)?;
                if !ranges.is_empty() {
                    blanks.push(Blank::Typed(ranges));
                    continue;
                }
            }
            let worth = worth.ok_or_else(|| {
                format!("blank {blank} ({identifier}) is not scored by the response processing")
            })?;
            let correct = values(declaration);
            if correct.is_empty() {
                return Err(format!(
                    "blank {blank} ({identifier}) has no correct response"
                ));
            }
            correct
                .iter()
                .map(|text| key(text, true, worth))
                .collect::<Result<Vec<_>, _>>()?
        };
        blanks.push(Blank::Typed(keys));
    }
    if all_or_nothing {
        return Ok(Response::Blanks {
            blanks,
            scoring: ChoiceScoring::MatchCorrect,
        });
    }
    let default_value = defaults.first().copied().unwrap_or(0.0);
    if defaults.iter().any(|d| *d != default_value) {
        return Err("the blanks' mappings have different default values".into());
    }
    Ok(Response::Blanks {
        blanks,
        scoring: ChoiceScoring::MapResponse {
            default_value,
            lower_bound: None,
            upper_bound: None,
        },
    })
}

/// Whether a branch of `processing` scores only when every blank is right: its
/// test an `and` holding, for each blank, its match against the correct value or
/// `gt(mapResponse, 0)`.
fn every_blank_right(processing: &Element, identifiers: &[&str]) -> bool {
    let names = |test: &Element, identifier: &str| match test.name.as_str() {
        "equal"
            if test
                .attribute("toleranceMode")
                .is_some_and(|m| m != "exact") =>
        {
            false
        }
        "match" | "equal" => {
            test.child("variable")
                .is_some_and(|v| v.attribute("identifier") == Some(identifier))
                && test
                    .child("correct")
                    .is_some_and(|c| c.attribute("identifier") == Some(identifier))
        }
        "gt" => test
            .child("mapResponse")
            .is_some_and(|m| m.attribute("identifier") == Some(identifier)),
        _ => false,
    };
    processing
        .descendants()
        .into_iter()
        .filter(|e| e.name == "responseIf")
        .filter_map(|branch| branch.elements().next())
        .filter(|test| test.name == "and")
        .any(|test| {
            identifiers
                .iter()
                .all(|identifier| test.elements().any(|part| names(part, identifier)))
        })
}

/// Whether a later branch gives marks when only some blanks are right
/// (`responseElseIf` over an `and` of a few, setting a score above 0).
fn part_marks_for_some_blanks(processing: &Element) -> bool {
    processing
        .descendants()
        .into_iter()
        .filter(|e| e.name == "responseElseIf")
        .filter(|branch| {
            branch
                .elements()
                .next()
                .is_some_and(|test| test.name == "and")
        })
        .flat_map(|branch| branch.children_named("setOutcomeValue"))
        .filter_map(|set| set.child("baseValue"))
        .any(|value| value.text().trim().parse::<f64>().is_ok_and(|v| v > 0.0))
}

/// Whether `test` matches `identifier`'s response against its correct value.
fn matches_correct(test: &Element, identifier: &str) -> bool {
    test.name == "match"
        && test
            .child("variable")
            .is_some_and(|v| v.attribute("identifier") == Some(identifier))
        && test
            .child("correct")
            .is_some_and(|c| c.attribute("identifier") == Some(identifier))
}

/// What `identifier` right is worth in `processing`: what a branch matching it
/// against its correct value sets (`SCORE + v`, `v`, or `SCORE_n = v` summed
/// later), or 1 where the score is a sum of such matches
/// (`SCORE = sum(match(…), match(…))`, a match counting 1).
fn matched_value(processing: &Element, identifier: &str) -> Result<Option<f64>, String> {
    let summed = processing
        .children_named("setOutcomeValue")
        .filter_map(|set| set.child("sum"))
        .any(|sum| sum.elements().any(|term| matches_correct(term, identifier)));
    if summed {
        return Ok(Some(1.0));
    }
    for condition in processing
        .descendants()
        .into_iter()
        .filter(|e| e.name == "responseCondition")
    {
        for branch in condition
            .elements()
            .filter(|e| matches!(e.name.as_str(), "responseIf" | "responseElseIf"))
        {
            let Some(test) = branch.elements().next() else {
                continue;
            };
            if !matches_correct(test, identifier) {
                continue;
            }
            // A branch that only gives feedback (sets an identifier) scores nothing.
            let Some(set) = branch
                .children_named("setOutcomeValue")
                .filter_map(|s| s.elements().next())
                .find(|value| {
                    value.name == "sum"
                        || value.name == "baseValue"
                            && matches!(value.attribute("baseType"), Some("float" | "integer"))
                })
            else {
                continue;
            };
            let base = match set.name.as_str() {
                "baseValue" => Some(set),
                "sum" => set.children_named("baseValue").next(),
                _ => None,
            }
            .ok_or_else(|| {
                format!(
                    "the branch matching {identifier} sets <{}>, not a number",
                    set.name
                )
            })?;
            let value = base
                .text()
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("the branch matching {identifier} sets no number"))?;
            return Ok(Some(value));
        }
    }
    Ok(None)
}
