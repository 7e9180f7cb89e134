//! A QTI 1.2 item's `<resprocessing>` read into branches: each `<respcondition>`'s
//! test and what it does to the score. Tests are `varequal` (with `case="Yes"` for
//! a case-sensitive match, QTI 1.2's default being any case), `vargte`, `vargt`,
//! `varlte`, `varlt`, and `and`, `or`, `not` over them. Several tests directly in
//! one `conditionvar` are read as Canvas writes them: equalities are alternatives
//! (a short answer's accepted answers), bounds together one range. A condition
//! that sets nothing (feedback only) is left out.

use crate::number::number;
use crate::xml::Element;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Test {
    Equal {
        /// The response it tests (`respident`; empty when not named).
        response: String,
        value: String,
        case_sensitive: bool,
    },
    /// The response compared with a number: `at_least` for vargte/vargt.
    Bound {
        at_least: bool,
        value: String,
    },
    Not(Box<Test>),
    And(Vec<Test>),
    Or(Vec<Test>),
    /// `<other/>`: whatever no condition before took.
    Otherwise,
    /// A test of another kind, by its element's name.
    Unknown(String),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Action {
    Set,
    Add,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Branch {
    pub test: Test,
    pub action: Action,
    pub value: f64,
}

pub(super) struct Processing {
    pub branches: Vec<Branch>,
    /// The score variable's `maxvalue`.
    pub max: Option<f64>,
}

pub(super) fn read(item: &Element) -> Result<Processing, String> {
    let Some(processing) = item.child("resprocessing") else {
        return Ok(Processing {
            branches: Vec::new(),
            max: None,
        });
    };
    let declared = processing
        .child("outcomes")
        .and_then(|o| o.children_named("decvar").next());
    let variable = declared
        .and_then(|d| d.attribute("varname"))
        .unwrap_or("SCORE");
    let max = declared
        .and_then(|d| d.attribute("maxvalue"))
        .map(number)
        .transpose()?;
    let mut branches = Vec::new();
    for condition in processing.children_named("respcondition") {
        let tests: Vec<Test> = condition
            .child("conditionvar")
            .map(|c| c.elements().map(test).collect())
            .unwrap_or_default();
        // Blackboard's feedback for each choice tests a choice's identifier with
        // no value: it says nothing of the answer.
        let tests: Vec<Test> = tests
            .into_iter()
            .filter(|t| !matches!(t, Test::Equal { value, .. } if value.is_empty()))
            .collect();
        if tests.is_empty() {
            continue;
        }
        let set = condition.children_named("setvar").find(|s| {
            s.attribute("varname")
                .or_else(|| s.attribute("variablename"))
                .unwrap_or("SCORE")
                == variable
        });
        let (action, value) = match set {
            Some(set) => {
                let written = set.text();
                // Blackboard sets the score to "SCORE.max".
                let value = if written.trim().eq_ignore_ascii_case("score.max") {
                    max.ok_or("SCORE.max without a maximum")?
                } else {
                    number(&written)?
                };
                match set.attribute("action").unwrap_or("Set") {
                    "Set" => (Action::Set, value),
                    "Add" => (Action::Add, value),
                    "Subtract" => (Action::Add, -value),
                    other => return Err(format!("<setvar action=\"{other}\"> is not imported")),
                }
            }
            // Blackboard marks a blank's or a number's right answers by their
            // feedback alone: full marks.
            None if says_correct(condition) => (
                Action::Set,
                max.ok_or("a correct answer without a maximum")?,
            ),
            None => continue,
        };
        branches.push(Branch {
            test: side_by_side(tests),
            action,
            value,
        });
    }
    Ok(Processing { branches, max })
}

/// Tests written side by side in one `conditionvar`, as Canvas reads them: the
/// bounds together are one range (`vargte` 1, `varlte` 5), and the rest are
/// alternatives (`varequal` Au, `varequal` au).
fn side_by_side(tests: Vec<Test>) -> Test {
    let (bounds, mut others): (Vec<Test>, Vec<Test>) = tests
        .into_iter()
        .partition(|t| matches!(t, Test::Bound { .. }));
    if !bounds.is_empty() {
        others.push(Test::And(bounds));
    }
    match <[Test; 1]>::try_from(others) {
        Ok([one]) => one,
        Err(many) => Test::Or(many),
    }
}

fn says_correct(condition: &Element) -> bool {
    condition
        .children_named("displayfeedback")
        .any(|f| f.attribute("linkrefid") == Some("correct"))
}

fn test(element: &Element) -> Test {
    let value = || element.text().trim().to_owned();
    match element.name.as_str() {
        "varequal" => Test::Equal {
            response: element
                .attribute("respident")
                .unwrap_or_default()
                .trim()
                .to_owned(),
            value: value(),
            case_sensitive: element.attribute("case") == Some("Yes"),
        },
        "vargte" | "vargt" => Test::Bound {
            at_least: true,
            value: value(),
        },
        "varlte" | "varlt" => Test::Bound {
            at_least: false,
            value: value(),
        },
        "not" => match element.elements().next() {
            Some(inner) => Test::Not(Box::new(test(inner))),
            None => Test::Unknown("not".into()),
        },
        "and" => Test::And(element.elements().map(test).collect()),
        "or" => Test::Or(element.elements().map(test).collect()),
        "other" => Test::Otherwise,
        other => Test::Unknown(other.to_owned()),
    }
}

/// Why a condition's test cannot be taken as a key.
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
