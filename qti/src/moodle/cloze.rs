//! Moodle's embedded answers (cloze, `multianswer`; `cloze` as moocloze writes
//! it): a passage whose `{weight:TYPE:answers}` are blanks, read as a QTI 2.1
//! item of several text entries (`response::blanks` reads it back). Each answer
//! is `=words` (100 %) or `%n%words` (n %), `~` between answers, `#feedback`
//! after; `\}`, `\~`, `\#`, `\/`, `\\` are the characters themselves.
//!
//! - `SHORTANSWER` (`SA`, `MW`): keys in any case; `SHORTANSWER_C` (`SAC`,
//!   `MWC`): exact case. A mapping per blank, `SCORE + mapResponse`.
//! - `NUMERICAL` (`NM`): `value:tolerance` keys, a range each:
//!   `and(gte, lte)` branches adding their value.
//! - `MULTICHOICE` (`MC`, `MCV`, `MCH`; shuffled: `MCS`, `MCVS`, `MCHS`, and the
//!   `MULTICHOICE_…` spellings): a blank picked from its own options, an inline
//!   choice mapped by each option's percent, `SCORE + mapResponse`.
//! - `MULTIRESPONSE` and its variants (several options of one blank) skip the
//!   question, naming them.
//!
//! A blank is worth `weight × fraction` of the question's grade over the sum of
//! the weights (Moodle's grading); the grade is `defaultgrade`, else the sum of
//! the weights (the marks moocloze means by them).

use crate::build::{float, mapping, node, Scoring};
use crate::limits;
use crate::number::number;
use crate::xml::{Element, Node};

/// One embedded answer as written.
struct Blank {
    weight: f64,
    kind: Kind,
    /// `(words, percent)` of each answer worth something.
    answers: Vec<(String, f64)>,
}

enum Kind {
    Text {
        case_sensitive: bool,
    },
    Number,
    /// Its answers are every option in order, each with its percent (0: wrong).
    Choice {
        shuffle: bool,
    },
}

pub(super) fn cloze(stem: Element, grade: Option<f64>) -> Result<Vec<Node>, String> {
    let mut blanks = Vec::new();
    let stem = with_blanks(stem, &mut blanks)?;
    if blanks.is_empty() {
        return Err("the text has no embedded answer ({1:SHORTANSWER:=…})".into());
    }
    if blanks.len() > limits::MAX_ROWS {
        return Err(format!(
            "{} embedded answers; a question here takes at most {}",
            blanks.len(),
            limits::MAX_ROWS
        ));
    }
    let weights: f64 = blanks.iter().map(|b| b.weight).sum();
    let max = grade.unwrap_or(weights);
    let scoring = Scoring {
        percent: false,
        max: Some(max),
    };
    let mut declarations = Vec::new();
    let mut conditions = Vec::new();
    for (index, blank) in blanks.iter().enumerate() {
        let identifier = format!("BLANK{}", index + 1);
        let points = |percent: f64| max * blank.weight / weights * percent / 100.0;
        let add = |value: f64| {
            node(
                "setOutcomeValue",
                &[("identifier", "SCORE")],
                vec![node(
                    "sum",
                    &[],
                    vec![
                        node("variable", &[("identifier", "SCORE")], Vec::new()),
                        float(value),
                    ],
                )],
            )
        };
        let variable = || node("variable", &[("identifier", &identifier)], Vec::new());
        match blank.kind {
            Kind::Text { .. } | Kind::Choice { .. } => {
                if let Kind::Text { case_sensitive } = blank.kind {
                    let keys = blank
                        .answers
                        .iter()
                        .map(|(words, percent)| (words.clone(), points(*percent), case_sensitive));
                    declarations.push(declaration(&identifier, "string", vec![mapping(keys)]));
                } else {
                    // Options by their place, `C1`, `C2`, …: the inline choice's.
                    let keys = (1..).zip(&blank.answers).filter(|(_, (_, p))| *p != 0.0);
                    let keys =
                        keys.map(|(at, (_, percent))| (format!("C{at}"), points(*percent), true));
                    declarations.push(declaration(&identifier, "identifier", vec![mapping(keys)]));
                }
                let sum = node(
                    "sum",
                    &[],
                    vec![
                        node("variable", &[("identifier", "SCORE")], Vec::new()),
                        node("mapResponse", &[("identifier", &identifier)], Vec::new()),
                    ],
                );
                let set = node("setOutcomeValue", &[("identifier", "SCORE")], vec![sum]);
                let answered = node("not", &[], vec![node("isNull", &[], vec![variable()])]);
                conditions.push(node(
                    "responseCondition",
                    &[],
                    vec![node("responseIf", &[], vec![answered, set])],
                ));
            }
            Kind::Number => {
                declarations.push(declaration(&identifier, "float", Vec::new()));
                let mut branches = Vec::new();
                for (range, percent) in &blank.answers {
                    let (low, high) = numeric(range)?;
                    let bound =
                        |name: &str, value: f64| node(name, &[], vec![variable(), float(value)]);
                    let test = node("and", &[], vec![bound("gte", low), bound("lte", high)]);
                    let name = if branches.is_empty() {
                        "responseIf"
                    } else {
                        "responseElseIf"
                    };
                    branches.push(node(name, &[], vec![test, add(points(*percent))]));
                }
                conditions.push(node("responseCondition", &[], branches));
            }
        }
    }
    let mut parts = declarations;
    parts.push(scoring.outcome());
    parts.push(node("itemBody", &[], vec![Node::Element(stem)]));
    parts.push(node("responseProcessing", &[], conditions));
    Ok(parts)
}

fn declaration(identifier: &str, base_type: &str, children: Vec<Node>) -> Node {
    node(
        "responseDeclaration",
        &[
            ("identifier", identifier),
            ("cardinality", "single"),
            ("baseType", base_type),
        ],
        children,
    )
}

/// A numerical answer's `value:tolerance` as its range.
fn numeric(answer: &str) -> Result<(f64, f64), String> {
    let (value, tolerance) = answer.split_once(':').unwrap_or((answer, "0"));
    let value = number(value.trim()).map_err(|r| format!("a numerical answer: {r}"))?;
    let tolerance = number(tolerance.trim())
        .map_err(|r| format!("a numerical tolerance: {r}"))?
        .abs();
    Ok((value - tolerance, value + tolerance))
}

/// The stem with each embedded answer a text entry in place; `blanks` gets each.
fn with_blanks(mut element: Element, blanks: &mut Vec<Blank>) -> Result<Element, String> {
    let mut children = Vec::with_capacity(element.children.len());
    for child in std::mem::take(&mut element.children) {
        match child {
            Node::Element(inner) => children.push(Node::Element(with_blanks(inner, blanks)?)),
            Node::Text(text) => {
                let mut rest = text.as_str();
                while let Some((before, found, after)) = next_blank(rest)? {
                    children.push(Node::Text(before.to_owned()));
                    let identifier = format!("BLANK{}", blanks.len() + 1);
                    children.push(match found.kind {
                        Kind::Choice { shuffle } => {
                            let options = (1..).zip(&found.answers).map(|(at, (words, _))| {
                                let id = format!("C{at}");
                                node(
                                    "inlineChoice",
                                    &[("identifier", &id)],
                                    vec![Node::Text(words.clone())],
                                )
                            });
                            let shuffle = if shuffle { "true" } else { "false" };
                            let attributes = [
                                ("responseIdentifier", identifier.as_str()),
                                ("shuffle", shuffle),
                            ];
                            node("inlineChoiceInteraction", &attributes, options.collect())
                        }
                        _ => node(
                            "textEntryInteraction",
                            &[("responseIdentifier", &identifier)],
                            Vec::new(),
                        ),
                    });
                    blanks.push(found);
                    rest = after;
                }
                children.push(Node::Text(rest.to_owned()));
            }
        }
    }
    element.children = children;
    Ok(element)
}

/// The first embedded answer in `text`: what comes before it, it, and the rest.
fn next_blank(text: &str) -> Result<Option<(&str, Blank, &str)>, String> {
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|at| from + at) {
        // `{weight:TYPE:`, within a few characters (a text of a million braces is
        // read once, not a million times); anything else in braces is words.
        let window = text[open + 1..]
            .char_indices()
            .nth(HEAD)
            .map_or(&text[open + 1..], |(end, _)| {
                &text[open + 1..open + 1 + end]
            });
        let head: Vec<&str> = window.splitn(3, ':').collect();
        if head.len() < 3 {
            from = open + 1;
            continue;
        }
        let kind = head.get(1).map(|k| k.trim().to_ascii_uppercase());
        let weight_ok = head[0].trim().is_empty() || head[0].trim().parse::<u32>().is_ok();
        let Some(kind) = kind.filter(|k| weight_ok && is_kind(k)) else {
            from = open + 1;
            continue;
        };
        let body_start = open + 1 + head[0].len() + 1 + head[1].len() + 1;
        let close = closing(text, body_start)
            .ok_or_else(|| format!("the embedded answer at '{{{}' is not closed", head[0]))?;
        let weight = match head[0].trim() {
            "" => 1.0,
            w => f64::from(w.parse::<u32>().unwrap_or(1)),
        };
        let blank = blank_of(weight, &kind, &text[body_start..close])?;
        return Ok(Some((&text[..open], blank, &text[close + 1..])));
    }
    Ok(None)
}

/// The most characters of `weight:TYPE:` an embedded answer starts with.
const HEAD: usize = 32;

const KINDS: [&str; 10] = [
    "SHORTANSWER",
    "SA",
    "MW",
    "SHORTANSWER_C",
    "SAC",
    "MWC",
    "NUMERICAL",
    "NM",
    "MULTICHOICE",
    "MULTIRESPONSE",
];

fn is_kind(kind: &str) -> bool {
    KINDS.contains(&kind)
        || kind.starts_with("MULTICHOICE_")
        || kind.starts_with("MULTIRESPONSE_")
        || matches!(
            kind,
            "MC" | "MCV" | "MCH" | "MCS" | "MCVS" | "MCHS" | "MR" | "MRH" | "MRS" | "MRHS"
        )
}

/// Where the embedded answer starting at `from` ends: its first unescaped `}`.
fn closing(text: &str, from: usize) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text[from..].char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '}' if !escaped => return Some(from + at),
            _ => escaped = false,
        }
    }
    None
}

fn blank_of(weight: f64, kind: &str, body: &str) -> Result<Blank, String> {
    let kind = match kind {
        "SHORTANSWER" | "SA" | "MW" => Kind::Text {
            case_sensitive: false,
        },
        "SHORTANSWER_C" | "SAC" | "MWC" => Kind::Text {
            case_sensitive: true,
        },
        "NUMERICAL" | "NM" => Kind::Number,
        "MULTICHOICE" | "MC" | "MCV" | "MCH" | "MULTICHOICE_V" | "MULTICHOICE_H" => {
            Kind::Choice { shuffle: false }
        }
        "MCS" | "MCVS" | "MCHS" | "MULTICHOICE_S" | "MULTICHOICE_VS" | "MULTICHOICE_HS" => {
            Kind::Choice { shuffle: true }
        }
        other => {
            return Err(format!(
                "an embedded {other} (several options of one blank picked) is not imported yet"
            ))
        }
    };
    let picked = matches!(kind, Kind::Choice { .. });
    let mut answers = Vec::new();
    for answer in split_unescaped(body, '~') {
        let answer = split_unescaped(&answer, '#')
            .into_iter()
            .next()
            .unwrap_or_default();
        let (percent, words) = if let Some(words) = answer.strip_prefix('=') {
            (100.0, words.to_owned())
        } else if let Some(rest) = answer.strip_prefix('%') {
            let (percent, words) = rest
                .split_once('%')
                .ok_or_else(|| format!("the answer '{answer}' has an unclosed %"))?;
            let percent = number(percent).map_err(|r| format!("an answer's percent: {r}"))?;
            (percent, words.to_owned())
        } else {
            (0.0, answer.clone())
        };
        let words = unescape(words.trim());
        // A list keeps every option; a typed blank only what scores.
        if !picked && (percent <= 0.0 || words == "*") {
            continue;
        }
        if matches!(kind, Kind::Text { .. }) && words.contains('*') {
            return Err(format!(
                "the answer '{words}' has a wildcard (*), which is not marked here"
            ));
        }
        answers.push((words, percent));
    }
    if answers.iter().all(|(_, percent)| *percent <= 0.0) {
        return Err("an embedded answer has no answer worth anything".into());
    }
    if picked && answers.len() < 2 {
        return Err("an embedded MULTICHOICE has one option; a list takes 2 or more".into());
    }
    Ok(Blank {
        weight,
        kind,
        answers,
    })
}

/// `text` split at each `separator` not escaped by a backslash (escapes kept).
fn split_unescaped(text: &str, separator: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut escaped = false;
    for c in text.chars() {
        if c == separator && !escaped {
            parts.push(String::new());
            continue;
        }
        escaped = c == '\\' && !escaped;
        if let Some(last) = parts.last_mut() {
            last.push(c);
        }
    }
    parts
}

/// The characters Moodle escapes with a backslash, as themselves.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}
