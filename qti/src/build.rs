//! Elements written in code: the parts of the QTI 2.1 item that a QTI 1.2 item or
//! a Moodle XML question is translated into, shared by the translations of each
//! kind, which the 2.x reader then reads like any other.

use crate::xml::{Element, Node};

/// A document's items (QTI 1.2, Moodle XML) as their translations give them.
pub(crate) struct Document {
    /// The assessment's title, where the document has one.
    pub title: Option<String>,
    pub items: Vec<Translated>,
}

pub(crate) enum Translated {
    /// The QTI 2.1 `assessmentItem` it became, and its topic (`Biology/Cells`).
    Item {
        element: Element,
        topic: Option<String>,
    },
    Skipped {
        identifier: String,
        reason: String,
    },
}

pub(crate) fn element(name: &str, attributes: &[(&str, &str)], children: Vec<Node>) -> Element {
    Element {
        name: name.to_owned(),
        attributes: attributes
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect(),
        children,
    }
}

pub(crate) fn node(name: &str, attributes: &[(&str, &str)], children: Vec<Node>) -> Node {
    Node::Element(element(name, attributes, children))
}

pub(crate) fn text(words: &str) -> Node {
    Node::Text(words.to_owned())
}

/// `<baseValue baseType="float">value</baseValue>`.
pub(crate) fn float(value: f64) -> Node {
    node(
        "baseValue",
        &[("baseType", "float")],
        vec![text(&value.to_string())],
    )
}

pub(crate) fn response() -> Node {
    node("variable", &[("identifier", "RESPONSE")], Vec::new())
}

/// `<setOutcomeValue identifier="SCORE">` to `score`.
pub(crate) fn set_score(score: f64) -> Node {
    node(
        "setOutcomeValue",
        &[("identifier", "SCORE")],
        vec![float(score)],
    )
}

pub(crate) struct Scoring {
    /// Scores are percentages of `max` (Canvas).
    pub(crate) percent: bool,
    pub(crate) max: Option<f64>,
}

impl Scoring {
    pub(crate) fn points(&self, value: f64) -> f64 {
        match (self.percent, self.max) {
            (true, Some(max)) => value / 100.0 * max,
            _ => value,
        }
    }

    pub(crate) fn outcome(&self) -> Node {
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

pub(crate) fn body(question: Element, interaction: Node) -> Node {
    node("itemBody", &[], vec![Node::Element(question), interaction])
}

pub(crate) fn template(name: &str) -> Node {
    node("responseProcessing", &[("template", name)], Vec::new())
}

pub(crate) fn person(scoring: &Scoring, question: Element, interaction: &str) -> Vec<Node> {
    let interaction = node(
        interaction,
        &[("responseIdentifier", "RESPONSE")],
        Vec::new(),
    );
    vec![scoring.outcome(), body(question, interaction)]
}

pub(crate) fn mapping(entries: impl Iterator<Item = (String, f64, bool)>) -> Node {
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

/// The key of a choice question.
pub(crate) enum ChoiceKey {
    /// Exactly these, for the maximum (match_correct).
    Correct(Vec<String>),
    /// Each choice's own value in points (map_response).
    Mapped(Vec<(String, f64)>),
}

/// A choice item's parts: `choices` are `simpleChoice` nodes.
pub(crate) fn choice_item(
    choices: Vec<Node>,
    multiple: bool,
    shuffle: bool,
    key: ChoiceKey,
    scoring: &Scoring,
    question: Element,
) -> Vec<Node> {
    let (declaration_parts, rule) = match key {
        ChoiceKey::Correct(correct) => (
            vec![node(
                "correctResponse",
                &[],
                correct
                    .iter()
                    .map(|c| node("value", &[], vec![text(c)]))
                    .collect(),
            )],
            "match_correct",
        ),
        ChoiceKey::Mapped(values) => (
            vec![mapping(
                values.into_iter().map(|(key, value)| (key, value, true)),
            )],
            "map_response",
        ),
    };
    let interaction = node(
        "choiceInteraction",
        &[
            ("responseIdentifier", "RESPONSE"),
            ("maxChoices", if multiple { "0" } else { "1" }),
            ("shuffle", if shuffle { "true" } else { "false" }),
        ],
        choices,
    );
    vec![
        declaration(
            if multiple { "multiple" } else { "single" },
            "identifier",
            declaration_parts,
        ),
        scoring.outcome(),
        body(question, interaction),
        template(rule),
    ]
}

/// The key of a matching: `(row, option)` pairs.
pub(crate) enum MatchKey {
    /// Exactly these, for the maximum (match_correct).
    Correct(Vec<(String, String)>),
    /// Each pair's points (map_response); those worth something are the key.
    Mapped(Vec<(String, String, f64)>),
}

/// A match item's parts: `rows` and `options` are `simpleAssociableChoice` nodes.
pub(crate) fn match_item(
    rows: Vec<Node>,
    options: Vec<Node>,
    key: MatchKey,
    scoring: &Scoring,
    question: Element,
) -> Vec<Node> {
    let set = |choices| node("simpleMatchSet", &[], choices);
    let interaction = node(
        "matchInteraction",
        &[("responseIdentifier", "RESPONSE"), ("shuffle", "false")],
        vec![set(rows), set(options)],
    );
    pairs_item(key, scoring, body(question, interaction))
}

/// A gap match item's parts: `words` are `gapText` nodes, `passage` the text
/// with its `gap`s; the key's pairs are (gap, word).
pub(crate) fn gap_match_item(
    words: Vec<Node>,
    passage: Vec<Node>,
    key: MatchKey,
    scoring: &Scoring,
) -> Vec<Node> {
    let mut children = words;
    children.extend(passage);
    let interaction = node(
        "gapMatchInteraction",
        &[("responseIdentifier", "RESPONSE"), ("shuffle", "false")],
        children,
    );
    // QTI's gap match pairs name the word first, then its gap.
    let key = match key {
        MatchKey::Correct(pairs) => {
            MatchKey::Correct(pairs.into_iter().map(|(g, w)| (w, g)).collect())
        }
        MatchKey::Mapped(pairs) => {
            MatchKey::Mapped(pairs.into_iter().map(|(g, w, v)| (w, g, v)).collect())
        }
    };
    pairs_item(key, scoring, node("itemBody", &[], vec![interaction]))
}

/// The declaration, outcome and processing of an item scored by directed pairs.
fn pairs_item(key: MatchKey, scoring: &Scoring, body: Node) -> Vec<Node> {
    let value =
        |first: &str, second: &str| node("value", &[], vec![text(&format!("{first} {second}"))]);
    let (parts, rule) = match key {
        MatchKey::Correct(pairs) => (
            vec![node(
                "correctResponse",
                &[],
                pairs.iter().map(|(a, b)| value(a, b)).collect(),
            )],
            "match_correct",
        ),
        MatchKey::Mapped(pairs) => {
            let correct = pairs
                .iter()
                .filter(|(_, _, points)| *points > 0.0)
                .map(|(a, b, _)| value(a, b))
                .collect();
            let mapped = pairs
                .into_iter()
                .map(|(a, b, points)| (format!("{a} {b}"), points, true));
            (
                vec![node("correctResponse", &[], correct), mapping(mapped)],
                "map_response",
            )
        }
    };
    vec![
        declaration("multiple", "directedPair", parts),
        scoring.outcome(),
        body,
        template(rule),
    ]
}

/// A text entry's parts: each key `(text, points, case sensitive)`.
pub(crate) fn text_item(
    keys: Vec<(String, f64, bool)>,
    scoring: &Scoring,
    question: Element,
) -> Vec<Node> {
    vec![
        declaration("single", "string", vec![mapping(keys.into_iter())]),
        scoring.outcome(),
        body(question, entry()),
        template("map_response"),
    ]
}

/// A numeric entry's parts: each accepted range `(low, high, points)`, the first
/// that holds the answer giving its points.
pub(crate) fn number_item(
    ranges: Vec<(f64, f64, f64)>,
    scoring: &Scoring,
    question: Element,
) -> Vec<Node> {
    let mut conditions = Vec::new();
    for (low, high, points) in ranges {
        let bound = |name: &str, value: f64| node(name, &[], vec![response(), float(value)]);
        let test = node("and", &[], vec![bound("gte", low), bound("lte", high)]);
        let name = if conditions.is_empty() {
            "responseIf"
        } else {
            "responseElseIf"
        };
        conditions.push(node(name, &[], vec![test, set_score(points)]));
    }
    vec![
        declaration("single", "float", Vec::new()),
        scoring.outcome(),
        body(question, entry()),
        node(
            "responseProcessing",
            &[],
            vec![node("responseCondition", &[], conditions)],
        ),
    ]
}

fn declaration(cardinality: &str, base_type: &str, parts: Vec<Node>) -> Node {
    node(
        "responseDeclaration",
        &[
            ("identifier", "RESPONSE"),
            ("cardinality", cardinality),
            ("baseType", base_type),
        ],
        parts,
    )
}

/// A short answer's box, on a line of its own after the question.
fn entry() -> Node {
    node(
        "p",
        &[],
        vec![node(
            "textEntryInteraction",
            &[("responseIdentifier", "RESPONSE")],
            Vec::new(),
        )],
    )
}
