//! An item's template processing run once: its variables declared (with their
//! defaults), its rules applied in order with the draw's random numbers, drawn
//! again while a `templateConstraint` fails (at most [`MOST_DRAWS`] times, as QTI
//! bounds it), and the correct responses it sets.

use std::collections::{HashMap, HashSet};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::expression::Scope;
use super::value::Value;
use crate::xml::Element;

/// How many times the rules run before constraints that never hold skip the item.
const MOST_DRAWS: usize = 100;

/// What one draw fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// Every template variable, in declaration order.
    pub variables: Vec<(String, Value)>,
    /// The variables MathML may name (`mathVariable="true"`).
    pub math: HashSet<String>,
    /// The correct responses set, by response identifier.
    pub correct: HashMap<String, Value>,
    /// Each variable's base type (`integer`, `identifier`).
    pub types: HashMap<String, String>,
}

impl Drawn {
    pub fn value(&self, identifier: &str) -> Option<&Value> {
        self.variables
            .iter()
            .find(|(name, _)| name == identifier)
            .map(|(_, value)| value)
    }

    pub fn base_type(&self, identifier: &str) -> &str {
        self.types.get(identifier).map_or("string", String::as_str)
    }
}

enum Flow {
    Go,
    Exit,
    DrawAgain,
}

struct Declaration {
    identifier: String,
    base_type: String,
    container: bool,
    default: Value,
}

/// The item's template variables drawn with `seed`.
pub fn draw(item: &Element, seed: u64) -> Result<Drawn, String> {
    let declarations = item
        .children_named("templateDeclaration")
        .map(declaration)
        .collect::<Result<Vec<_>, _>>()?;
    let mut scope = Scope {
        variables: HashMap::new(),
        rng: ChaCha8Rng::seed_from_u64(seed),
        steps: 0,
    };
    for _ in 0..MOST_DRAWS {
        scope.variables = declarations
            .iter()
            .map(|d| (d.identifier.clone(), d.default.clone()))
            .collect();
        let mut correct = HashMap::new();
        let flow = match item.child("templateProcessing") {
            Some(processing) => run(
                processing.elements(),
                &declarations,
                &mut scope,
                &mut correct,
            )?,
            None => Flow::Go,
        };
        if matches!(flow, Flow::DrawAgain) {
            continue;
        }
        return Ok(Drawn {
            variables: declarations
                .iter()
                .map(|d| {
                    let value = scope.variables.remove(&d.identifier).unwrap_or(Value::Null);
                    (d.identifier.clone(), value)
                })
                .collect(),
            math: item
                .children_named("templateDeclaration")
                .filter(|d| d.attribute("mathVariable") == Some("true"))
                .filter_map(|d| d.attribute("identifier").map(str::to_owned))
                .collect(),
            correct,
            types: declarations
                .iter()
                .map(|d| (d.identifier.clone(), d.base_type.clone()))
                .collect(),
        });
    }
    Err(format!(
        "its template constraints were not met in {MOST_DRAWS} draws"
    ))
}

fn declaration(element: &Element) -> Result<Declaration, String> {
    let identifier = element
        .attribute("identifier")
        .ok_or("a <templateDeclaration> without an identifier")?
        .to_owned();
    let base_type = element.attribute("baseType").unwrap_or("string").to_owned();
    let container = matches!(
        element.attribute("cardinality"),
        Some("multiple" | "ordered")
    );
    let values: Vec<Value> = element
        .child("defaultValue")
        .map(|d| {
            d.children_named("value")
                .map(|v| Value::parse(&base_type, &v.text()))
                .collect::<Result<_, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    let default = match (container, values.len()) {
        (true, _) => Value::List(values),
        (false, 0) => Value::Null,
        (false, _) => values[0].clone(),
    };
    Ok(Declaration {
        identifier,
        base_type,
        container,
        default,
    })
}

fn run<'e>(
    rules: impl Iterator<Item = &'e Element>,
    declarations: &[Declaration],
    scope: &mut Scope,
    correct: &mut HashMap<String, Value>,
) -> Result<Flow, String> {
    for rule in rules {
        let flow = match rule.name.as_str() {
            "setTemplateValue" => {
                let identifier = rule.attribute("identifier").unwrap_or("");
                let declared = declarations
                    .iter()
                    .find(|d| d.identifier == identifier)
                    .ok_or_else(|| {
                        format!("it sets the undeclared template variable {identifier}")
                    })?;
                let value = typed(declared, scope_value(rule, scope)?)?;
                scope.variables.insert(identifier.to_owned(), value);
                Flow::Go
            }
            "setCorrectResponse" => {
                let identifier = rule.attribute("identifier").unwrap_or("").to_owned();
                let value = scope_value(rule, scope)?;
                correct.insert(identifier, value);
                Flow::Go
            }
            // A default for a response or an outcome: nothing a paper delivery uses.
            "setDefaultValue" => Flow::Go,
            "templateConstraint" => {
                if scope_value(rule, scope)?.boolean()? {
                    Flow::Go
                } else {
                    Flow::DrawAgain
                }
            }
            "templateCondition" => condition(rule, declarations, scope, correct)?,
            "exitTemplate" => Flow::Exit,
            other => {
                return Err(format!(
                    "its template processing has <{other}>, which is not read here"
                ))
            }
        };
        if !matches!(flow, Flow::Go) {
            return Ok(flow);
        }
    }
    Ok(Flow::Go)
}

/// `templateIf`, then each `templateElseIf`, then `templateElse`: the rules of
/// the first whose condition holds.
fn condition(
    rule: &Element,
    declarations: &[Declaration],
    scope: &mut Scope,
    correct: &mut HashMap<String, Value>,
) -> Result<Flow, String> {
    for branch in rule.elements() {
        let mut parts = branch.elements();
        let taken = match branch.name.as_str() {
            "templateIf" | "templateElseIf" => {
                let test = parts
                    .next()
                    .ok_or_else(|| format!("<{}> without a condition", branch.name))?;
                scope.evaluate(test)?.boolean()?
            }
            "templateElse" => true,
            other => return Err(format!("<templateCondition> holds <{other}>")),
        };
        if taken {
            return run(parts, declarations, scope, correct);
        }
    }
    Ok(Flow::Go)
}

fn scope_value(rule: &Element, scope: &mut Scope) -> Result<Value, String> {
    let expression = rule
        .elements()
        .next()
        .ok_or_else(|| format!("<{}> without an expression", rule.name))?;
    scope.evaluate(expression)
}

/// `value` as the declaration's type: an integer declared float is a float, a
/// float with no fraction declared integer an integer.
fn typed(declared: &Declaration, value: Value) -> Result<Value, String> {
    let single = |value: Value| -> Result<Value, String> {
        Ok(match (declared.base_type.as_str(), value) {
            ("float", Value::Integer(i)) => Value::Float(i as f64),
            ("integer", Value::Float(f)) => {
                Value::Integer(Value::Float(f).integer().map_err(|_| {
                    format!("{} is set to {f}, not an integer", declared.identifier)
                })?)
            }
            (_, value) => value,
        })
    };
    match value {
        Value::List(list) if declared.container => Ok(Value::List(
            list.into_iter().map(single).collect::<Result<_, _>>()?,
        )),
        Value::List(_) => Err(format!(
            "{} is single and is set to a container",
            declared.identifier
        )),
        Value::Null => Ok(Value::Null),
        other if declared.container => Ok(Value::List(vec![single(other)?])),
        other => single(other),
    }
}
