//! QTI's expressions as template processing uses them: values, variables, random
//! draws, arithmetic, comparisons, containers and statistics. Anything else names
//! the element, and the item is skipped for it.

use std::collections::HashMap;

use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::numeric::{arithmetic, finite, gcd, math, statistic};
use super::value::{significant, Value};
use crate::xml::Element;

/// The most members a `repeat` may make.
const MOST_REPEATS: i64 = 1000;

/// The most expressions and container members one draw may compute (its
/// constraints' redraws included): a hostile template (repeats of repeats)
/// is skipped after this much work instead of holding the import.
const MOST_STEPS: usize = 10_000;

/// The variables set so far and the draw's random numbers.
pub struct Scope {
    pub variables: HashMap<String, Value>,
    pub rng: ChaCha8Rng,
    /// Expressions and members computed so far.
    pub steps: usize,
}

impl Scope {
    pub fn evaluate(&mut self, element: &Element) -> Result<Value, String> {
        self.spend(1)?;
        let args = |scope: &mut Scope| -> Result<Vec<Value>, String> {
            element.elements().map(|e| scope.evaluate(e)).collect()
        };
        let name = element.name.as_str();
        Ok(match name {
            "baseValue" => Value::parse(
                element.attribute("baseType").unwrap_or("string"),
                &element.text(),
            )?,
            "variable" => self.variable(element.attribute("identifier").unwrap_or(""))?,
            "null" => Value::Null,
            "multiple" | "ordered" => {
                Value::List(args(self)?.into_iter().flat_map(|v| v.members()).collect())
            }
            "repeat" => {
                let times = self.integer_or_variable(element, "numberRepeats")?;
                if !(0..=MOST_REPEATS).contains(&times) {
                    return Err(format!("<repeat> {times} times (at most {MOST_REPEATS})"));
                }
                let mut out = Vec::new();
                for _ in 0..times {
                    let members: Vec<Value> =
                        args(self)?.into_iter().flat_map(|v| v.members()).collect();
                    self.spend(members.len())?;
                    out.extend(members);
                }
                Value::List(out)
            }
            "random" => {
                let members = self.only(element)?.members();
                members
                    .choose(&mut self.rng)
                    .cloned()
                    .unwrap_or(Value::Null)
            }
            "randomInteger" => {
                let min = self.integer_or_variable(element, "min")?;
                let max = self.integer_or_variable(element, "max")?;
                let step = match element.attribute("step") {
                    Some(_) => self.integer_or_variable(element, "step")?,
                    None => 1,
                };
                if max < min || step < 1 {
                    return Err(format!("<randomInteger> from {min} to {max} by {step}"));
                }
                let steps = (max - min) / step;
                Value::Integer(min + step * self.rng.random_range(0..=steps))
            }
            "randomFloat" => {
                let min = self.number_or_variable(element, "min")?;
                let max = self.number_or_variable(element, "max")?;
                if max < min {
                    return Err(format!("<randomFloat> from {min} to {max}"));
                }
                Value::Float(min + (max - min) * self.rng.random::<f64>())
            }
            "index" => {
                let n = self.integer_or_variable(element, "n")?;
                let members = self.only(element)?.members();
                usize::try_from(n - 1)
                    .ok()
                    .and_then(|i| members.get(i).cloned())
                    .unwrap_or(Value::Null)
            }
            "containerSize" => Value::Integer(self.only(element)?.members().len() as i64),
            "isNull" => Value::Boolean(self.only(element)?.is_null()),
            "not" => Value::Boolean(!self.only(element)?.boolean()?),
            "and" => Value::Boolean(all(&args(self)?)?),
            "or" => Value::Boolean(!all(&args(self)?.into_iter().map(not).collect::<Vec<_>>())?),
            "match" => {
                let [a, b] = two(name, args(self)?)?;
                Value::Boolean(same(&a, &b))
            }
            "member" => {
                let [a, b] = two(name, args(self)?)?;
                Value::Boolean(b.members().iter().any(|m| same(m, &a)))
            }
            "lt" | "gt" | "lte" | "gte" => {
                let [a, b] = two(name, args(self)?)?;
                let (a, b) = (a.number()?, b.number()?);
                Value::Boolean(match name {
                    "lt" => a < b,
                    "gt" => a > b,
                    "lte" => a <= b,
                    _ => a >= b,
                })
            }
            "equal" => {
                let [a, b] = two(name, args(self)?)?;
                let (a, b) = (a.number()?, b.number()?);
                let tolerance: Vec<f64> = element
                    .attribute("tolerance")
                    .unwrap_or("0")
                    .split_whitespace()
                    .map(|t| t.parse::<f64>().map_err(|_| format!("the tolerance '{t}'")))
                    .collect::<Result<_, _>>()?;
                let (low, high) = match tolerance.as_slice() {
                    [] => (0.0, 0.0),
                    [t] => (*t, *t),
                    [l, h, ..] => (*l, *h),
                };
                Value::Boolean(
                    match element.attribute("toleranceMode").unwrap_or("exact") {
                        "absolute" => a >= b - low && a <= b + high,
                        "relative" => a >= b * (1.0 - low / 100.0) && a <= b * (1.0 + high / 100.0),
                        _ => a == b,
                    },
                )
            }
            "sum" | "product" | "subtract" | "min" | "max" => {
                let values: Vec<Value> = args(self)?.iter().flat_map(Value::members).collect();
                arithmetic(name, &values)?
            }
            "divide" => {
                let [a, b] = two(name, args(self)?)?;
                let (a, b) = (a.number()?, b.number()?);
                if b == 0.0 {
                    Value::Null
                } else {
                    Value::Float(a / b)
                }
            }
            "power" => {
                let [a, b] = two(name, args(self)?)?;
                finite(a.number()?.powf(b.number()?))?
            }
            "integerDivide" | "integerModulus" => {
                let [a, b] = two(name, args(self)?)?;
                let (a, b) = (a.integer()?, b.integer()?);
                if b == 0 {
                    Value::Null
                } else if name == "integerDivide" {
                    Value::Integer(a.div_euclid(b))
                } else {
                    Value::Integer(a.rem_euclid(b))
                }
            }
            "gcd" | "lcm" => {
                let values: Vec<i64> = args(self)?
                    .iter()
                    .flat_map(Value::members)
                    .map(|v| v.integer())
                    .collect::<Result<_, _>>()?;
                Value::Integer(if name == "gcd" {
                    values.iter().fold(0, |g, v| gcd(g, v.abs()))
                } else {
                    values
                        .iter()
                        .try_fold(1i64, |l, v| {
                            let g = gcd(l, v.abs());
                            if g == 0 {
                                Some(0)
                            } else {
                                (l / g).checked_mul(v.abs())
                            }
                        })
                        .ok_or("<lcm> beyond the integers")?
                })
            }
            "round" => Value::Integer((self.only(element)?.number()? + 0.5).floor() as i64),
            "truncate" => Value::Integer(self.only(element)?.number()?.trunc() as i64),
            "integerToFloat" => Value::Float(self.only(element)?.number()?),
            "roundTo" => {
                let figures = self.integer_or_variable(element, "figures")?.clamp(0, 15) as usize;
                let value = self.only(element)?.number()?;
                Value::Float(
                    match element
                        .attribute("roundingMode")
                        .unwrap_or("significantFigures")
                    {
                        "decimalPlaces" => {
                            let scale = 10f64.powi(figures as i32);
                            (value * scale).round() / scale
                        }
                        _ => significant(value, figures.max(1)),
                    },
                )
            }
            "mathConstant" => match element.attribute("name") {
                Some("pi") => Value::Float(std::f64::consts::PI),
                Some("e") => Value::Float(std::f64::consts::E),
                other => return Err(format!("<mathConstant name=\"{}\">", other.unwrap_or(""))),
            },
            "mathOperator" => {
                let values: Vec<f64> = args(self)?
                    .iter()
                    .map(Value::number)
                    .collect::<Result<_, _>>()?;
                math(element.attribute("name").unwrap_or(""), &values)?
            }
            "statsOperator" => {
                let values: Vec<f64> = self
                    .only(element)?
                    .members()
                    .iter()
                    .map(Value::number)
                    .collect::<Result<_, _>>()?;
                statistic(element.attribute("name").unwrap_or(""), &values)?
            }
            other => {
                return Err(format!(
                    "the template computes with <{other}>, which is not read here"
                ))
            }
        })
    }

    fn spend(&mut self, steps: usize) -> Result<(), String> {
        self.steps += steps;
        if self.steps > MOST_STEPS {
            return Err(format!(
                "the template computes more than {MOST_STEPS} values in one draw"
            ));
        }
        Ok(())
    }

    fn variable(&self, identifier: &str) -> Result<Value, String> {
        self.variables
            .get(identifier)
            .cloned()
            .ok_or_else(|| format!("the template reads the undeclared variable {identifier}"))
    }

    fn only(&mut self, element: &Element) -> Result<Value, String> {
        let mut children = element.elements();
        match (children.next(), children.next()) {
            (Some(one), None) => self.evaluate(one),
            _ => Err(format!("<{}> takes one expression", element.name)),
        }
    }

    /// An attribute that is a number or the name of a variable holding one
    /// (QTI's `IntegerOrVariableRef`, written `n` or `{n}`).
    fn integer_or_variable(&self, element: &Element, attribute: &str) -> Result<i64, String> {
        self.reference(element, attribute)?.integer()
    }

    fn number_or_variable(&self, element: &Element, attribute: &str) -> Result<f64, String> {
        self.reference(element, attribute)?.number()
    }

    fn reference(&self, element: &Element, attribute: &str) -> Result<Value, String> {
        let text = element
            .attribute(attribute)
            .ok_or_else(|| format!("<{}> without {attribute}", element.name))?
            .trim();
        if let Ok(number) = text.parse::<i64>() {
            return Ok(Value::Integer(number));
        }
        if let Ok(number) = text.parse::<f64>() {
            return Ok(Value::Float(number));
        }
        self.variable(text.trim_start_matches('{').trim_end_matches('}'))
    }
}

fn two(name: &str, values: Vec<Value>) -> Result<[Value; 2], String> {
    <[Value; 2]>::try_from(values).map_err(|_| format!("<{name}> takes two expressions"))
}

fn not(value: Value) -> Value {
    match value {
        Value::Boolean(b) => Value::Boolean(!b),
        other => other,
    }
}

/// Every value true (QTI's `and`; `or` is `not` of `and` over the negations).
fn all(values: &[Value]) -> Result<bool, String> {
    values
        .iter()
        .try_fold(true, |so_far, v| Ok(so_far & v.boolean()?))
}

/// Equal values: numbers by value, containers member by member.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(a), Value::List(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            a.number().ok() == b.number().ok()
        }
        _ => a == b,
    }
}
