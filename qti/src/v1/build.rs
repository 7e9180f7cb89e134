//! Elements written in code: the parts of the QTI 2.1 item a QTI 1.2 item is
//! translated into, shared by the translations of each kind.

use super::conditions::Test;
use crate::xml::{Element, Node};

pub(super) fn element(name: &str, attributes: &[(&str, &str)], children: Vec<Node>) -> Element {
    Element {
        name: name.to_owned(),
        attributes: attributes
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        children,
    }
}

pub(super) fn node(name: &str, attributes: &[(&str, &str)], children: Vec<Node>) -> Node {
    Node::Element(element(name, attributes, children))
}

pub(super) fn text(words: &str) -> Node {
    Node::Text(words.to_owned())
}

/// `<baseValue baseType="float">value</baseValue>`.
pub(super) fn float(value: f64) -> Node {
    node(
        "baseValue",
        &[("baseType", "float")],
        vec![text(&value.to_string())],
    )
}

pub(super) fn response() -> Node {
    node("variable", &[("identifier", "RESPONSE")], Vec::new())
}

/// `<setOutcomeValue identifier="SCORE">` to `score`.
pub(super) fn set_score(score: f64) -> Node {
    node(
        "setOutcomeValue",
        &[("identifier", "SCORE")],
        vec![float(score)],
    )
}

pub(super) struct Scoring {
    /// Scores are percentages of `max` (Canvas).
    pub(super) percent: bool,
    pub(super) max: Option<f64>,
}

impl Scoring {
    pub(super) fn points(&self, value: f64) -> f64 {
        match (self.percent, self.max) {
            (true, Some(max)) => value / 100.0 * max,
            _ => value,
        }
    }

    pub(super) fn outcome(&self) -> Node {
        let max = self.max.map(|m| m.to_string());
        let mut attributes = vec![
            ("identifier", "SCORE"),
            ("cardinality", "single"),
            ("baseType", "float"),
        ];
        if let Some(max) = &max {
            attributes.push(("normalMaximum", max));
        }
        node("outcomeDeclaration", &attributes, Vec::new())
    }
}

pub(super) fn body(question: Element, interaction: Node) -> Node {
    node("itemBody", &[], vec![Node::Element(question), interaction])
}

pub(super) fn template(name: &str) -> Node {
    node("responseProcessing", &[("template", name)], Vec::new())
}

pub(super) fn person(scoring: &Scoring, question: Element, interaction: &str) -> Vec<Node> {
    let interaction = node(
        interaction,
        &[("responseIdentifier", "RESPONSE")],
        Vec::new(),
    );
    vec![scoring.outcome(), body(question, interaction)]
}

pub(super) fn shape(test: &Test) -> String {
    let what = match test {
        Test::Unknown(name) => format!("<{name}>"),
        Test::Not(_) => "<not>".into(),
        Test::And(_) => "<and>".into(),
        Test::Bound { .. } => "a comparison".into(),
        _ => "a condition".into(),
    };
    format!("response processing with {what} of this shape is not imported")
}

pub(super) fn mapping(entries: impl Iterator<Item = (String, f64, bool)>) -> Node {
    let entries = entries
        .map(|(key, value, case_sensitive)| {
            node(
                "mapEntry",
                &[
                    ("mapKey", &key),
                    ("mappedValue", &value.to_string()),
                    (
                        "caseSensitive",
                        if case_sensitive { "true" } else { "false" },
                    ),
                ],
                Vec::new(),
            )
        })
        .collect();
    node("mapping", &[("defaultValue", "0")], entries)
}
