//! How an item's responses are scored, as its response processing and response
//! declaration say: the rule, the correct values, the mapping.

use crate::xml::Element;

/// How an item's responses are scored, as its response processing says.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Rule {
    MatchCorrect,
    MapResponse,
    /// No response processing at all.
    Absent,
    /// Something else, described.
    Other(String),
}

pub(super) fn rule_of(item: &Element) -> Rule {
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

pub(super) fn values(declaration: &Element) -> Vec<String> {
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

pub(super) struct Mapping {
    pub(super) default_value: f64,
    pub(super) lower_bound: Option<f64>,
    pub(super) upper_bound: Option<f64>,
    /// `(key, value, case sensitive)`.
    pub(super) entries: Vec<(String, f64, bool)>,
}

impl Mapping {
    /// map_response's scoring: the default and the bounds.
    pub(super) fn scoring(&self) -> crate::item::ChoiceScoring {
        crate::item::ChoiceScoring::MapResponse {
            default_value: self.default_value,
            lower_bound: self.lower_bound,
            upper_bound: self.upper_bound,
        }
    }
}

pub(super) fn number(element: &Element, name: &str) -> Result<Option<f64>, String> {
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

pub(super) fn mapping(declaration: &Element) -> Result<Option<Mapping>, String> {
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
