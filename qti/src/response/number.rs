//! A numeric entry: a text entry whose response is a `float` or an `integer`. Its
//! keys are numbers, each accepting a range: exactly the correct value (the
//! `match_correct` template), the mapped values (`map_response`), or the correct
//! value within a tolerance, which QTI writes as custom response processing:
//! `<responseIf><equal toleranceMode="absolute|relative" tolerance="…">` over the
//! response and the correct value (or a base value), setting SCORE. Each such
//! branch is one key worth what it sets; `responseElse` sets the default. When
//! the item declares no maximum and every branch sets the same score over a
//! default of 0 (Blackboard's `100`), a key is full marks, as match_correct.

use super::rules::{mapping, values, Rule};
use crate::item::{NumberRange, TextKey, TextScoring};
use crate::number::number;
use crate::xml::Element;

pub(super) fn number_keys(
    item: &Element,
    declaration: &Element,
    rule: &Rule,
    notes: &mut Vec<String>,
) -> Result<TextScoring, String> {
    let processing = item.child("responseProcessing");
    let correct = values(declaration)
        .iter()
        .map(|value| number(value))
        .collect::<Result<Vec<f64>, String>>()?;
    let exact = |value: f64, mapped_value| TextKey {
        text: written(value),
        case_sensitive: false,
        mapped_value,
        numeric: Some(NumberRange {
            low: value,
            high: value,
        }),
    };
    let keyed = |keys, default_value, lower_bound, upper_bound| TextScoring::Key {
        keys,
        default_value,
        lower_bound,
        upper_bound,
    };
    match rule {
        Rule::MatchCorrect | Rule::Absent if !correct.is_empty() => {
            if *rule == Rule::Absent {
                notes.push("no response processing: scored as match_correct".into());
            }
            let keys = correct.into_iter().map(|v| exact(v, None)).collect();
            Ok(keyed(keys, 0.0, None, None))
        }
        Rule::MapResponse => {
            let mapping = mapping(declaration)?.ok_or("map_response without a <mapping>")?;
            let keys = mapping
                .entries
                .iter()
                .map(|(key, value, _)| Ok(exact(number(key)?, Some(*value))))
                .collect::<Result<_, String>>()?;
            Ok(keyed(
                keys,
                mapping.default_value,
                mapping.lower_bound,
                mapping.upper_bound,
            ))
        }
        Rule::MatchCorrect => Err("match_correct without a correct response".into()),
        Rule::Absent => Ok(TextScoring::Person),
        Rule::Other(what) => {
            let processing = processing.ok_or_else(|| what.clone())?;
            tolerance_keys(processing, &correct, notes)?
                .map(|(keys, default)| {
                    let keys = full_marks(item, keys, default, notes);
                    keyed(keys, default, None, None)
                })
                .ok_or_else(|| {
                    format!(
                        "{what} is not imported; for numbers, match_correct, map_response and \
                         <equal> with a tolerance are"
                    )
                })
        }
    }
}

/// The keys of custom processing made of `<equal>` branches, and the default;
/// `None` when the processing is not of that shape.
fn tolerance_keys(
    processing: &Element,
    correct: &[f64],
    notes: &mut Vec<String>,
) -> Result<Option<(Vec<TextKey>, f64)>, String> {
    let mut keys = Vec::new();
    let mut default = 0.0;
    for condition in processing.elements() {
        if condition.name != "responseCondition" {
            return Ok(None);
        }
        for branch in condition.elements() {
            let score = match scored(branch) {
                Some(score) => score?,
                None => return Ok(None),
            };
            if branch.name == "responseElse" {
                default = score;
                continue;
            }
            let Some(test) = branch.elements().next() else {
                return Ok(None);
            };
            let range = match test.name.as_str() {
                "equal" => range_of(test, correct, notes)?,
                "and" => bounds_of(test, notes)?,
                _ => None,
            };
            let Some(range) = range else {
                return Ok(None);
            };
            keys.push(TextKey {
                text: shown(range, test),
                case_sensitive: false,
                mapped_value: Some(score),
                numeric: Some(range),
            });
        }
    }
    Ok((!keys.is_empty()).then_some((keys, default)))
}

/// A blank's number keys from `processing`'s branches that test only its
/// response `identifier` (an `<equal>` with a tolerance, or bounds) and add to
/// the score (`SCORE + v`) or set a score of their own (`v`): each a range worth
/// `v`. Empty when no branch tests it so.
pub(super) fn blank_ranges(
    processing: &Element,
    identifier: &str,
    correct: &[f64],
    notes: &mut Vec<String>,
) -> Result<Vec<TextKey>, String> {
    let mut keys = Vec::new();
    let branches = processing
        .descendants()
        .into_iter()
        .filter(|e| matches!(e.name.as_str(), "responseIf" | "responseElseIf"));
    for branch in branches {
        let Some(test) = branch.elements().next() else {
            continue;
        };
        let own = test
            .descendants()
            .iter()
            .filter(|e| e.name == "variable")
            .all(|v| v.attribute("identifier") == Some(identifier))
            && test.descendants().iter().any(|e| e.name == "variable");
        if !own {
            continue;
        }
        let range = match test.name.as_str() {
            "equal" => range_of(test, correct, notes)?,
            "and" => bounds_of(test, notes)?,
            _ => None,
        };
        let Some(range) = range else {
            continue;
        };
        let Some(set) = branch.children_named("setOutcomeValue").next() else {
            continue;
        };
        let value = match set.elements().next() {
            Some(base) if base.name == "baseValue" => number(&base.text())?,
            Some(sum) if sum.name == "sum" => match sum.children_named("baseValue").next() {
                Some(base) => number(&base.text())?,
                None => continue,
            },
            _ => continue,
        };
        keys.push(TextKey {
            text: shown(range, test),
            case_sensitive: false,
            mapped_value: Some(value),
            numeric: Some(range),
        });
    }
    Ok(keys)
}

/// The keys without their values when they are all full marks: no maximum is
/// declared, the default is 0 and every key sets the same score.
fn full_marks(
    item: &Element,
    mut keys: Vec<TextKey>,
    default: f64,
    notes: &mut Vec<String>,
) -> Vec<TextKey> {
    let declares_max = item.children_named("outcomeDeclaration").any(|o| {
        o.attribute("identifier") == Some("MAXSCORE")
            || (o.attribute("identifier") == Some("SCORE")
                && o.attribute("normalMaximum").is_some())
    });
    let first = keys.first().and_then(|k| k.mapped_value);
    let same = keys.iter().all(|k| k.mapped_value == first);
    if !declares_max && default == 0.0 && same && first.is_some_and(|v| v > 0.0) {
        notes.push(format!(
            "each key sets SCORE to {} with no maximum declared: read as full marks",
            first.unwrap_or_default()
        ));
        for key in &mut keys {
            key.mapped_value = None;
        }
    }
    keys
}

/// What a branch sets SCORE to, if it sets it to a base value.
fn scored(branch: &Element) -> Option<Result<f64, String>> {
    let set = branch
        .children_named("setOutcomeValue")
        .find(|s| s.attribute("identifier") == Some("SCORE"))?;
    let value = set.child("baseValue")?;
    Some(number(&value.text()))
}

/// The range an `<equal>` of the response and a value accepts.
fn range_of(
    equal: &Element,
    correct: &[f64],
    notes: &mut Vec<String>,
) -> Result<Option<NumberRange>, String> {
    let operands: Vec<&Element> = equal.elements().collect();
    let [first, second] = operands.as_slice() else {
        return Ok(None);
    };
    let is_response = |e: &Element| e.name == "variable";
    let target = if is_response(first) { second } else { first };
    if !(is_response(first) || is_response(second)) {
        return Ok(None);
    }
    let value = match target.name.as_str() {
        "correct" => match correct {
            [one] => *one,
            _ => return Ok(None),
        },
        "baseValue" => number(&target.text())?,
        _ => return Ok(None),
    };
    let tolerances = equal
        .attribute("tolerance")
        .unwrap_or("0")
        .split_whitespace()
        .map(number)
        .collect::<Result<Vec<f64>, String>>()?;
    let below = tolerances.first().copied().unwrap_or(0.0).abs();
    let above = tolerances.get(1).copied().unwrap_or(below).abs();
    let (low, high) = match equal.attribute("toleranceMode").unwrap_or("exact") {
        "exact" => (value, value),
        "absolute" => (value - below, value + above),
        "relative" => (value * (1.0 - below / 100.0), value * (1.0 + above / 100.0)),
        other => return Err(format!("<equal toleranceMode=\"{other}\"> is not QTI's")),
    };
    let open = ["includeLowerBound", "includeUpperBound"]
        .iter()
        .any(|bound| equal.attribute(bound) == Some("false"));
    if open {
        notes.push("a range open at an end is read with its ends included".into());
    }
    Ok(Some(NumberRange {
        low: low.min(high),
        high: low.max(high),
    }))
}

/// The range `<and>` of a lower and an upper bound on the response accepts.
fn bounds_of(and: &Element, notes: &mut Vec<String>) -> Result<Option<NumberRange>, String> {
    let (mut low, mut high) = (None, None);
    for bound in and.elements() {
        let operands: Vec<&Element> = bound.elements().collect();
        let [variable, value] = operands.as_slice() else {
            return Ok(None);
        };
        if variable.name != "variable" || value.name != "baseValue" {
            return Ok(None);
        }
        let value = number(&value.text())?;
        match bound.name.as_str() {
            "gte" | "gt" => low = Some(value),
            "lte" | "lt" => high = Some(value),
            _ => return Ok(None),
        }
        if matches!(bound.name.as_str(), "gt" | "lt") {
            notes.push("a range open at an end is read with its ends included".into());
        }
    }
    Ok(low.zip(high).map(|(low, high)| NumberRange {
        low: low.min(high),
        high: low.max(high),
    }))
}

fn written(value: f64) -> String {
    format!("{value}")
}

/// A range as people read it: `9.81 ± 0.05`, `9.76 to 9.86`, or `9.81`.
fn shown(range: NumberRange, test: &Element) -> String {
    let equal = test;
    if range.low == range.high {
        return written(range.low);
    }
    let middle = (range.low + range.high) / 2.0;
    let half = (range.high - range.low) / 2.0;
    let symmetric = equal.attribute("toleranceMode") == Some("absolute")
        && equal
            .attribute("tolerance")
            .is_some_and(|t| t.split_whitespace().count() == 1);
    if symmetric {
        format!("{} ± {}", tidy(middle), tidy(half))
    } else {
        format!("{} to {}", tidy(range.low), tidy(range.high))
    }
}

/// A computed end without binary noise (9.760000000000002 → 9.76).
fn tidy(value: f64) -> String {
    let rounded = format!("{value:.10}");
    let trimmed = rounded.trim_end_matches('0').trim_end_matches('.');
    trimmed.to_owned()
}
