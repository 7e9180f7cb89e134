//! Several text entries in one item (blanks in a passage): one question whose
//! blanks are each marked by their own keys, the question's score the sum of the
//! blanks' values. The templates score one response (`RESPONSE`), so an item of
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
use super::rules::{mapping, values};
use crate::item::{ChoiceScoring, NumberRange, Response, TextKey};
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
        let mapped = steps
            .iter()
            .any(|e| e.name == "mapResponse" && e.attribute("identifier") == Some(identifier));
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
            let worth = match processing {
                _ if all_or_nothing => Some(1.0),
                None => {
                    if index == 0 {
                        notes.push("no response processing: each blank worth 1".into());
                    }
                    Some(1.0)
                }
                Some(processing) => matched_value(processing, identifier)?,
            };
            // A number blank may be scored by ranges instead (a tolerance).
            if let (None, true, Some(processing)) = (worth, numeric, processing) {
                let correct = values(declaration)
                    .iter()
                    .map(|v| read_number(v))
                    .collect::<Result<Vec<f64>, String>>()?;
                let ranges = blank_ranges(processing, identifier, &correct, notes)?;
                if !ranges.is_empty() {
                    blanks.push(ranges);
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
        blanks.push(keys);
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
        "match" => {
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

/// What a branch matching `identifier` against its correct value sets, in a
/// responseCondition of `processing`: `SCORE + v` or `v`.
fn matched_value(processing: &Element, identifier: &str) -> Result<Option<f64>, String> {
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
            let matches_correct = test.name == "match"
                && test
                    .child("variable")
                    .is_some_and(|v| v.attribute("identifier") == Some(identifier))
                && test
                    .child("correct")
                    .is_some_and(|c| c.attribute("identifier") == Some(identifier));
            if !matches_correct {
                continue;
            }
            let set = branch
                .children_named("setOutcomeValue")
                .next()
                .and_then(|s| s.elements().next())
                .ok_or_else(|| format!("the branch matching {identifier} sets nothing"))?;
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
