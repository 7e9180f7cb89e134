//! What an item asks and how it is scored: its one interaction, the response
//! declaration that interaction answers, the response processing (the standard
//! templates `match_correct` and `map_response`, or custom rules of the same shape)
//! and the maximum score. An item that does not fit is skipped, with the reason.

use crate::item::{Choice, ChoiceScoring, Response, TextKey, TextScoring};
use crate::xml::Element;
use crate::{limits, markup};

/// The interactions imported, each onto one kind of question.
pub const SUPPORTED: [&str; 5] = [
    "choiceInteraction",
    "extendedTextInteraction",
    "textEntryInteraction",
    "uploadInteraction",
    "drawingInteraction",
];

/// How an item's responses are scored, as its response processing says.
#[derive(Debug, Clone, PartialEq)]
enum Rule {
    MatchCorrect,
    MapResponse,
    /// No response processing at all.
    Absent,
    /// Something else, described.
    Other(String),
}

/// The item's interaction and scoring, or why the item cannot be imported.
pub struct Reading {
    pub response: Response,
    pub max_score: i32,
    pub notes: Vec<String>,
}

pub fn read(item: &Element, body: &Element) -> Result<Reading, String> {
    if item.attribute("adaptive") == Some("true") {
        return Err("adaptive items (which change as they are answered) are not imported".into());
    }
    if item.child("templateDeclaration").is_some() {
        return Err("template items (with variables cloned per delivery) are not imported".into());
    }
    let interactions: Vec<&Element> = body
        .descendants()
        .into_iter()
        .filter(|e| e.name.ends_with("Interaction"))
        .collect();
    if let Some(other) = interactions
        .iter()
        .find(|i| !SUPPORTED.contains(&i.name.as_str()))
    {
        return Err(format!(
            "<{}> is not imported; imported are {}",
            other.name,
            SUPPORTED.join(", ")
        ));
    }
    let interaction = match interactions.as_slice() {
        [one] => *one,
        [] => return Err("the item has no interaction, so nothing to answer".into()),
        many => {
            return Err(format!(
                "the item has {} interactions; a question here takes one response",
                many.len()
            ))
        }
    };
    let identifier = interaction
        .attribute("responseIdentifier")
        .unwrap_or("RESPONSE");
    let declaration = item
        .children_named("responseDeclaration")
        .find(|d| d.attribute("identifier") == Some(identifier));
    let rule = rule_of(item);
    let mut notes = Vec::new();
    let response = match interaction.name.as_str() {
        "choiceInteraction" => {
            let declaration = declaration
                .ok_or_else(|| format!("no <responseDeclaration identifier=\"{identifier}\">"))?;
            choice(interaction, declaration, &rule, &mut notes)?
        }
        "textEntryInteraction" | "extendedTextInteraction" => {
            text(interaction, declaration, &rule, &mut notes)?
        }
        "uploadInteraction" | "drawingInteraction" => Response::Image {
            drawing: interaction.name == "drawingInteraction",
        },
        _ => unreachable!("only supported interactions get here"),
    };
    let max_score = max_score(item, &response, &mut notes)?;
    Ok(Reading {
        response,
        max_score,
        notes,
    })
}

fn rule_of(item: &Element) -> Rule {
    let Some(processing) = item.child("responseProcessing") else {
        return Rule::Absent;
    };
    let template = processing
        .attribute("template")
        .or_else(|| processing.attribute("templateLocation"));
    if let Some(template) = template {
        let name = template
            .trim_end_matches(".xml")
            .rsplit('/')
            .next()
            .unwrap_or_default();
        return match name {
            "match_correct" => Rule::MatchCorrect,
            "map_response" => Rule::MapResponse,
            other => Rule::Other(format!("the response processing template '{other}'")),
        };
    }
    let steps = processing.descendants();
    if steps.iter().any(|e| e.name == "mapResponse") {
        Rule::MapResponse
    } else if steps
        .iter()
        .any(|e| e.name == "match" && e.child("correct").is_some())
    {
        Rule::MatchCorrect
    } else if steps.is_empty() {
        Rule::Absent
    } else {
        let first = steps
            .iter()
            .find(|e| {
                !matches!(
                    e.name.as_str(),
                    "responseCondition" | "responseIf" | "responseElse"
                )
            })
            .map(|e| e.name.clone())
            .unwrap_or_default();
        Rule::Other(format!("custom response processing (<{first}>)"))
    }
}

fn values(declaration: &Element) -> Vec<String> {
    declaration
        .child("correctResponse")
        .map(|correct| {
            correct
                .children_named("value")
                .map(|v| v.text().trim().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

struct Mapping {
    default_value: f64,
    lower_bound: Option<f64>,
    upper_bound: Option<f64>,
    /// `(key, value, case sensitive)`.
    entries: Vec<(String, f64, bool)>,
}

fn number(element: &Element, name: &str) -> Result<Option<f64>, String> {
    element
        .attribute(name)
        .map(|text| {
            text.trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| format!("<{} {name}=\"{text}\"> is not a number", element.name))
        })
        .transpose()
}

fn mapping(declaration: &Element) -> Result<Option<Mapping>, String> {
    let Some(mapping) = declaration.child("mapping") else {
        return Ok(None);
    };
    let mut entries = Vec::new();
    for entry in mapping.children_named("mapEntry") {
        let key = entry
            .attribute("mapKey")
            .ok_or("a <mapEntry> without mapKey")?
            .trim()
            .to_owned();
        let value = number(entry, "mappedValue")?.ok_or("a <mapEntry> without mappedValue")?;
        let case_sensitive = entry.attribute("caseSensitive") != Some("false");
        entries.push((key, value, case_sensitive));
    }
    Ok(Some(Mapping {
        default_value: number(mapping, "defaultValue")?.unwrap_or(0.0),
        lower_bound: number(mapping, "lowerBound")?,
        upper_bound: number(mapping, "upperBound")?,
        entries,
    }))
}

fn choice(
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
    let simple: Vec<&Element> = interaction.children_named("simpleChoice").collect();
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
    for element in &simple {
        let identifier = element
            .attribute("identifier")
            .ok_or("a <simpleChoice> without an identifier")?
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
            text: markup::choice_text(element),
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
            ChoiceScoring::MapResponse {
                default_value: mapping.default_value,
                lower_bound: mapping.lower_bound,
                upper_bound: mapping.upper_bound,
            }
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

fn text(
    interaction: &Element,
    declaration: Option<&Element>,
    rule: &Rule,
    notes: &mut Vec<String>,
) -> Result<Response, String> {
    let extended = interaction.name == "extendedTextInteraction";
    let person = Response::Text {
        extended,
        scoring: TextScoring::Person,
    };
    let Some(declaration) = declaration else {
        return Ok(person);
    };
    if declaration
        .attribute("cardinality")
        .is_some_and(|c| c != "single")
    {
        return Err(
            "a text response of more than one value (several strings) is not imported".into(),
        );
    }
    match declaration.attribute("baseType") {
        Some("string") | None => {}
        Some(other) => {
            return Err(format!(
                "a text response of base type '{other}' (numbers are compared with tolerances) is not imported"
            ))
        }
    }
    let correct = values(declaration);
    let mapping = mapping(declaration)?;
    let keyed = |keys: Vec<TextKey>, default_value, lower_bound, upper_bound| Response::Text {
        extended,
        scoring: TextScoring::Key {
            keys,
            default_value,
            lower_bound,
            upper_bound,
        },
    };
    match rule {
        Rule::MatchCorrect | Rule::Absent if !correct.is_empty() => {
            if *rule == Rule::Absent {
                notes.push("no response processing: scored as match_correct".into());
            }
            let keys = correct
                .into_iter()
                .map(|text| TextKey {
                    text,
                    case_sensitive: true,
                    mapped_value: None,
                })
                .collect();
            Ok(keyed(keys, 0.0, None, None))
        }
        Rule::MapResponse => {
            let mapping = mapping.ok_or("map_response without a <mapping>")?;
            let keys = mapping
                .entries
                .into_iter()
                .map(|(text, value, case_sensitive)| TextKey {
                    text,
                    case_sensitive,
                    mapped_value: Some(value),
                })
                .collect();
            Ok(keyed(
                keys,
                mapping.default_value,
                mapping.lower_bound,
                mapping.upper_bound,
            ))
        }
        Rule::MatchCorrect => Err("match_correct without a correct response".into()),
        Rule::Absent => Ok(person),
        // An essay's own processing (if any) cannot score free text: a person does.
        Rule::Other(_) if extended && correct.is_empty() => Ok(person),
        Rule::Other(what) => Err(format!(
            "{what} is not imported; match_correct and map_response are"
        )),
    }
}

/// The item's maximum: its SCORE outcome's `normalMaximum`, else a MAXSCORE
/// outcome's default value, else what the scoring gives (the upper bound or the
/// best mapping for map_response, 1 for match_correct and for a person's scoring,
/// noted). Scores here are whole numbers, so a maximum must be one.
fn max_score(item: &Element, response: &Response, notes: &mut Vec<String>) -> Result<i32, String> {
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
    let max = match declared {
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
        _ => 1.0,
    }
}
