//! A text entry or an extended text read into its keys, or a person's scoring.

use super::number::number_keys;
use super::rules::{mapping, values, Rule};
use crate::item::{Response, TextKey, TextScoring};
use crate::xml::Element;

pub(super) fn text(
    item: &Element,
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
        Some("float" | "integer") if !extended => {
            return Ok(Response::Text {
                extended,
                scoring: number_keys(item, declaration, rule, notes)?,
            })
        }
        Some(other) => {
            return Err(format!(
                "a text response of base type '{other}' is not imported; strings and numbers are"
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
                    numeric: None,
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
                    numeric: None,
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
