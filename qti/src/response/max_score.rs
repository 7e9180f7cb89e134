//! An item's maximum score.

use super::rules::number;
use crate::item::{Blank, ChoiceScoring, Response, TextScoring};
use crate::xml::Element;

/// The item's maximum: its SCORE outcome's `normalMaximum`, else a MAXSCORE
/// outcome's default value, else what the scoring gives (the upper bound or the
/// best mapping for map_response, 1 for match_correct and for a person's scoring,
/// noted). Scores here are whole numbers, so a maximum must be one.
pub(super) fn max_score(
    item: &Element,
    response: &Response,
    notes: &mut Vec<String>,
) -> Result<i32, String> {
    let outcome = |identifier: &str| {
        item.children_named("outcomeDeclaration")
            .find(|o| o.attribute("identifier") == Some(identifier))
    };
    let declared = match outcome("SCORE")
        .map(|o| number(o, "normalMaximum"))
        .transpose()?
        .flatten()
    {
        Some(max) => Some(max),
        None => outcome("MAXSCORE")
            .and_then(|o| o.child("defaultValue"))
            .and_then(|d| d.child("value"))
            .map(|v| {
                v.text()
                    .trim()
                    .parse::<f64>()
                    .map_err(|_| "the MAXSCORE outcome's default is not a number".to_owned())
            })
            .transpose()?,
    };
    let max = match declared.or_else(|| full_marks_set(item, response)) {
        Some(max) => max,
        None => {
            let derived = derived_max(response);
            notes.push(format!("no maximum declared: {derived} from the scoring"));
            derived
        }
    };
    let whole = max.round();
    if (max - whole).abs() > 1e-9 || !(1.0..=10_000.0).contains(&whole) {
        return Err(format!(
            "the maximum score {max} is not a whole number from 1 to 10000, which scores here are"
        ));
    }
    Ok(whole as i32)
}

/// What custom processing of the match_correct shape sets when the response is
/// right (`<responseIf><match><variable/><correct/></match>` setting `SCORE`, or
/// the one score outcome an item names otherwise, `SCORE0`): the item's full
/// marks, where the template would give 1.
fn full_marks_set(item: &Element, response: &Response) -> Option<f64> {
    let all_or_nothing = match response {
        Response::Choice { scoring, .. } | Response::Blanks { scoring, .. } => {
            *scoring == ChoiceScoring::MatchCorrect
        }
        Response::Text {
            scoring: TextScoring::Key { keys, .. },
            ..
        } => keys.iter().all(|k| k.mapped_value.is_none()),
        _ => false,
    };
    let processing = item.child("responseProcessing")?;
    if !all_or_nothing || processing.attribute("template").is_some() {
        return None;
    }
    let scores: Vec<&str> = item
        .children_named("outcomeDeclaration")
        .filter(|o| matches!(o.attribute("baseType"), Some("float" | "integer")))
        .filter_map(|o| o.attribute("identifier"))
        .collect();
    let score = if scores.contains(&"SCORE") {
        "SCORE"
    } else {
        match scores.as_slice() {
            [one] => one,
            _ => return None,
        }
    };
    processing
        .descendants()
        .into_iter()
        .filter(|e| e.name == "responseIf")
        .filter(|branch| {
            branch.elements().next().is_some_and(|test| {
                test.name == "match" && test.child("correct").is_some()
                    || test.name == "and"
                        && test.elements().all(|part| part.child("correct").is_some())
            })
        })
        .flat_map(|branch| branch.children_named("setOutcomeValue"))
        .filter(|set| set.attribute("identifier") == Some(score))
        .filter_map(|set| set.child("baseValue"))
        .filter_map(|value| value.text().trim().parse::<f64>().ok())
        .find(|value| *value > 0.0)
}

fn derived_max(response: &Response) -> f64 {
    let mapped_best = |values: Vec<f64>, multiple: bool, upper: Option<f64>| {
        let best = if multiple {
            values.iter().filter(|v| **v > 0.0).sum()
        } else {
            values.iter().copied().fold(0.0, f64::max)
        };
        upper.map_or(best, |upper| best.min(upper))
    };
    match response {
        Response::Choice {
            multiple,
            choices,
            scoring:
                ChoiceScoring::MapResponse {
                    default_value,
                    upper_bound,
                    ..
                },
            ..
        } => mapped_best(
            choices
                .iter()
                .map(|c| c.mapped_value.unwrap_or(*default_value))
                .collect(),
            *multiple,
            *upper_bound,
        ),
        Response::Text {
            scoring: TextScoring::Key {
                keys, upper_bound, ..
            },
            ..
        } if keys.iter().any(|k| k.mapped_value.is_some()) => mapped_best(
            keys.iter().filter_map(|k| k.mapped_value).collect(),
            false,
            *upper_bound,
        ),
        Response::Matching {
            rows,
            pairs,
            scoring:
                ChoiceScoring::MapResponse {
                    default_value,
                    upper_bound,
                    ..
                },
            ..
        } => {
            // Each row picks one option: the best of its pairs (or the default).
            let best: f64 = (0..rows.len())
                .map(|row| {
                    pairs
                        .iter()
                        .filter(|p| p.row == row)
                        .map(|p| p.mapped_value.unwrap_or(*default_value))
                        .fold(default_value.max(0.0), f64::max)
                })
                .sum();
            upper_bound.map_or(best, |upper| best.min(upper))
        }
        // The best areas, one point in each, as many as the points allowed.
        Response::Points {
            most,
            areas,
            scoring: ChoiceScoring::MapResponse { upper_bound, .. },
            ..
        } => {
            let mut values: Vec<f64> = areas.iter().map(|a| a.value).filter(|v| *v > 0.0).collect();
            values.sort_by(|a, b| b.total_cmp(a));
            let best: f64 = values
                .iter()
                .take(if *most == 0 { values.len() } else { *most })
                .sum();
            upper_bound.map_or(best, |upper| best.min(upper))
        }
        // Each blank at its best key.
        Response::Blanks {
            blanks,
            scoring: ChoiceScoring::MapResponse { .. },
        } => blanks
            .iter()
            .map(|blank| match blank {
                Blank::Typed(keys) => keys
                    .iter()
                    .filter_map(|k| k.mapped_value)
                    .fold(0.0, f64::max),
                Blank::Picked { options, .. } => options
                    .iter()
                    .filter_map(|o| o.mapped_value)
                    .fold(0.0, f64::max),
            })
            .sum(),
        _ => 1.0,
    }
}
