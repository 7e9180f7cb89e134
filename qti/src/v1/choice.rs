//! A QTI 1.2 `response_lid` with `render_choice` as a QTI 2.1 choice interaction:
//! the correct choices from the conditions that score (Canvas's multiple answers:
//! one `and` of the right ones and `not` the others), or each choice's own value
//! when conditions add per choice (map_response).

use super::conditions::{shape, Action, Branch, Processing, Test};
use super::material;
use crate::build::{choice_item, node, ChoiceKey, Scoring};
use crate::error::PackageError;
use crate::xml::{Element, Node};

pub(super) fn choice(
    response: &Element,
    file: &str,
    processing: &Processing,
    scoring: &Scoring,
    question: Element,
) -> Result<Result<Vec<Node>, String>, PackageError> {
    let multiple = response
        .attribute("rcardinality")
        .is_some_and(|c| c.eq_ignore_ascii_case("multiple"));
    let mut choices = Vec::new();
    for label in response
        .descendants()
        .into_iter()
        .filter(|e| e.name == "response_label")
    {
        let identifier = label.attribute("ident").unwrap_or_default().to_owned();
        let mut words = Vec::new();
        for material in label
            .descendants()
            .into_iter()
            .filter(|e| e.name == "material")
        {
            words.extend(material::nodes(material, file)?);
        }
        choices.push(node("simpleChoice", &[("identifier", &identifier)], words));
    }
    let shuffle = response
        .descendants()
        .into_iter()
        .find(|e| e.name == "render_choice")
        .and_then(|r| r.attribute("shuffle"))
        .is_some_and(|s| s.eq_ignore_ascii_case("yes"));
    let key = match choice_key(&processing.branches, multiple) {
        Ok(key) => key,
        Err(reason) => return Ok(Err(reason)),
    };
    let key = match key {
        ChoiceKey::Mapped(values) => ChoiceKey::Mapped(
            values
                .into_iter()
                .map(|(choice, value)| (choice, scoring.points(value)))
                .collect(),
        ),
        correct => correct,
    };
    Ok(Ok(choice_item(
        choices, multiple, shuffle, key, scoring, question,
    )))
}

fn choice_key(branches: &[Branch], multiple: bool) -> Result<ChoiceKey, String> {
    let scoring: Vec<&Branch> = branches
        .iter()
        .filter(|b| b.test != Test::Otherwise)
        .collect();
    // Canvas's multiple answers: one condition, the right ones and not the others.
    if let [one] = scoring.as_slice() {
        if let Test::And(parts) = &one.test {
            if one.value > 0.0 {
                let correct = parts
                    .iter()
                    .filter_map(|p| match p {
                        Test::Equal { value, .. } => Some(value.clone()),
                        _ => None,
                    })
                    .collect();
                return Ok(ChoiceKey::Correct(correct));
            }
        }
    }
    let mut values = Vec::new();
    for branch in &scoring {
        for value in equals(&branch.test).ok_or_else(|| shape(&branch.test))? {
            values.push((value, branch.value));
        }
    }
    let positive: Vec<&(String, f64)> = values.iter().filter(|(_, v)| *v > 0.0).collect();
    let only_sets = scoring.iter().all(|b| b.action == Action::Set);
    match positive.as_slice() {
        [] => Err("no condition gives a choice any score".into()),
        [(one, _)] if only_sets && (!multiple || values.len() == 1) => {
            Ok(ChoiceKey::Correct(vec![one.clone()]))
        }
        _ => Ok(ChoiceKey::Mapped(values)),
    }
}

/// The values a test accepts when it is `varequal`, or alternatives of them.
fn equals(test: &Test) -> Option<Vec<String>> {
    match test {
        Test::Equal { value, .. } => Some(vec![value.clone()]),
        Test::Or(parts) => {
            let mut all = Vec::new();
            for part in parts {
                all.extend(equals(part)?);
            }
            Some(all)
        }
        _ => None,
    }
}
