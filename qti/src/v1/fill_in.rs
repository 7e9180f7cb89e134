//! A QTI 1.2 `response_str` (or `response_num`) with `render_fib` as a QTI 2.1
//! text entry keyed by the accepted answers, a numeric entry (ranges) when the
//! `fibtype` is `Decimal` or `Integer`, or an essay when nothing is keyed.

use super::conditions::{shape, Branch, Processing, Test};
use crate::build::{number_item, person, text_item, Scoring};
use crate::xml::{Element, Node};

pub(super) fn fill_in(
    response: &Element,
    kind: &str,
    processing: &Processing,
    scoring: &Scoring,
    question: Element,
) -> Result<Vec<Node>, String> {
    let fib = response
        .descendants()
        .into_iter()
        .find(|e| e.name == "render_fib");
    let numeric = response.name == "response_num"
        || kind == "numerical_question"
        || fib
            .and_then(|f| f.attribute("fibtype"))
            .is_some_and(|t| matches!(t, "Decimal" | "Integer"));
    let scoring_branches: Vec<&Branch> = processing
        .branches
        .iter()
        .filter(|b| b.value > 0.0 && b.test != Test::Otherwise)
        .collect();
    let rows = fib
        .and_then(|f| f.attribute("rows"))
        .and_then(|r| r.trim().parse::<u32>().ok())
        .unwrap_or(1);
    if scoring_branches.is_empty() {
        let interaction = if rows > 1 || !numeric {
            "extendedTextInteraction"
        } else {
            "textEntryInteraction"
        };
        return Ok(person(scoring, question, interaction));
    }
    if numeric {
        let mut accepted = Vec::new();
        for branch in &scoring_branches {
            let ranges = ranges(&branch.test).ok_or_else(|| shape(&branch.test))?;
            let points = scoring.points(branch.value);
            accepted.extend(ranges.into_iter().map(|(low, high)| (low, high, points)));
        }
        return Ok(number_item(accepted, scoring, question));
    }
    let mut keys = Vec::new();
    for branch in &scoring_branches {
        let typed = typed(&branch.test).ok_or_else(|| shape(&branch.test))?;
        for (key, case_sensitive) in typed {
            keys.push((key, scoring.points(branch.value), case_sensitive));
        }
    }
    Ok(text_item(keys, scoring, question))
}

/// A text key's accepted answers with their case sensitivity.
fn typed(test: &Test) -> Option<Vec<(String, bool)>> {
    match test {
        Test::Equal {
            value,
            case_sensitive,
            ..
        } => Some(vec![(value.clone(), *case_sensitive)]),
        Test::Or(parts) => {
            let mut all = Vec::new();
            for part in parts {
                all.extend(typed(part)?);
            }
            Some(all)
        }
        _ => None,
    }
}

/// The ranges a test accepts: an exact value, bounds, or alternatives of them.
fn ranges(test: &Test) -> Option<Vec<(f64, f64)>> {
    let number = |value: &str| crate::number::number(value).ok();
    match test {
        Test::Equal { value, .. } => number(value).map(|v| vec![(v, v)]),
        Test::And(parts) => {
            let (mut low, mut high) = (None, None);
            for part in parts {
                match part {
                    Test::Bound {
                        at_least: true,
                        value,
                    } => low = Some(number(value)?),
                    Test::Bound {
                        at_least: false,
                        value,
                    } => high = Some(number(value)?),
                    _ => return None,
                }
            }
            Some(vec![(low?, high?)])
        }
        Test::Or(parts) => {
            let mut all: Vec<(f64, f64)> = Vec::new();
            for part in parts {
                all.extend(ranges(part)?);
            }
            // Canvas writes the exact answer beside its margin (even a margin of
            // 0): a range that another holds is left out.
            all.dedup();
            let wide = all.clone();
            all.retain(|&(low, high)| {
                !wide
                    .iter()
                    .any(|&(l, h)| (l, h) != (low, high) && l <= low && high <= h)
            });
            Some(all)
        }
        _ => None,
    }
}
