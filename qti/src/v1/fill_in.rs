//! A QTI 1.2 `response_str` (or `response_num`) with `render_fib` as a QTI 2.1
//! text entry keyed by the accepted answers, a numeric entry (ranges) when the
//! `fibtype` is `Decimal` or `Integer`, or an essay when nothing is keyed.

use super::build::{
    body, float, mapping, node, person, response, set_score, shape, template, Scoring,
};
use super::conditions::{self, Branch, Processing, Test};
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
    let entry = node(
        "p",
        &[],
        vec![node(
            "textEntryInteraction",
            &[("responseIdentifier", "RESPONSE")],
            Vec::new(),
        )],
    );
    if numeric {
        return numbers(&scoring_branches, scoring, question, entry);
    }
    let mut entries = Vec::new();
    for branch in &scoring_branches {
        let keys = typed(&branch.test).ok_or_else(|| shape(&branch.test))?;
        for (key, case_sensitive) in keys {
            entries.push((key, scoring.points(branch.value), case_sensitive));
        }
    }
    Ok(vec![
        node(
            "responseDeclaration",
            &[
                ("identifier", "RESPONSE"),
                ("cardinality", "single"),
                ("baseType", "string"),
            ],
            vec![mapping(entries.into_iter())],
        ),
        scoring.outcome(),
        body(question, entry),
        template("map_response"),
    ])
}

/// A text key's accepted answers with their case sensitivity.
fn typed(test: &Test) -> Option<Vec<(String, bool)>> {
    match test {
        Test::Equal {
            value,
            case_sensitive,
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
    let number = |value: &str| conditions::number(value).ok();
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

fn numbers(
    branches: &[&Branch],
    scoring: &Scoring,
    question: Element,
    entry: Node,
) -> Result<Vec<Node>, String> {
    let mut conditions = Vec::new();
    for branch in branches {
        let accepted = ranges(&branch.test).ok_or_else(|| shape(&branch.test))?;
        for (low, high) in accepted {
            let bound = |name: &str, value: f64| node(name, &[], vec![response(), float(value)]);
            let test = node("and", &[], vec![bound("gte", low), bound("lte", high)]);
            let name = if conditions.is_empty() {
                "responseIf"
            } else {
                "responseElseIf"
            };
            conditions.push(node(
                name,
                &[],
                vec![test, set_score(scoring.points(branch.value))],
            ));
        }
    }
    Ok(vec![
        node(
            "responseDeclaration",
            &[
                ("identifier", "RESPONSE"),
                ("cardinality", "single"),
                ("baseType", "float"),
            ],
            Vec::new(),
        ),
        scoring.outcome(),
        body(question, entry),
        node(
            "responseProcessing",
            &[],
            vec![node("responseCondition", &[], conditions)],
        ),
    ])
}
