//! The numeric parts of template expressions: arithmetic that stays in the
//! integers while it can, QTI's math operators and constants, and statistics.

use super::value::Value;

pub fn finite(value: f64) -> Result<Value, String> {
    if value.is_finite() {
        Ok(Value::Float(value))
    } else {
        Ok(Value::Null)
    }
}

/// `sum`, `product`, `subtract`, `min`, `max`: integers while every value is one.
pub fn arithmetic(name: &str, values: &[Value]) -> Result<Value, String> {
    if values.iter().any(Value::is_null) || values.is_empty() {
        return Ok(Value::Null);
    }
    if values.iter().all(|v| matches!(v, Value::Integer(_))) {
        let ints: Vec<i64> = values
            .iter()
            .map(Value::integer)
            .collect::<Result<_, _>>()?;
        let overflow = || format!("<{name}> beyond the integers");
        return Ok(Value::Integer(match name {
            "sum" => ints
                .iter()
                .try_fold(0i64, |a, b| a.checked_add(*b))
                .ok_or_else(overflow)?,
            "product" => ints
                .iter()
                .try_fold(1i64, |a, b| a.checked_mul(*b))
                .ok_or_else(overflow)?,
            "subtract" => match ints.as_slice() {
                [a, b] => a.checked_sub(*b).ok_or_else(overflow)?,
                _ => return Err("<subtract> takes two expressions".into()),
            },
            "min" => *ints.iter().min().unwrap_or(&0),
            _ => *ints.iter().max().unwrap_or(&0),
        }));
    }
    let floats: Vec<f64> = values.iter().map(Value::number).collect::<Result<_, _>>()?;
    finite(match name {
        "sum" => floats.iter().sum(),
        "product" => floats.iter().product(),
        "subtract" => match floats.as_slice() {
            [a, b] => a - b,
            _ => return Err("<subtract> takes two expressions".into()),
        },
        "min" => floats.iter().cloned().fold(f64::INFINITY, f64::min),
        _ => floats.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
    })
}

pub fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

pub fn math(name: &str, values: &[f64]) -> Result<Value, String> {
    let x = *values
        .first()
        .ok_or("<mathOperator> without an expression")?;
    finite(match name {
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tan" => x.tan(),
        "sec" => 1.0 / x.cos(),
        "csc" => 1.0 / x.sin(),
        "cot" => 1.0 / x.tan(),
        "asin" => x.asin(),
        "acos" => x.acos(),
        "atan" => x.atan(),
        "atan2" => x.atan2(
            *values
                .get(1)
                .ok_or("<mathOperator name=\"atan2\"> takes two")?,
        ),
        "sinh" => x.sinh(),
        "cosh" => x.cosh(),
        "tanh" => x.tanh(),
        "log" => x.log10(),
        "ln" => x.ln(),
        "exp" => x.exp(),
        "abs" => x.abs(),
        "signum" => x.signum(),
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "toDegrees" => x.to_degrees(),
        "toRadians" => x.to_radians(),
        other => return Err(format!("<mathOperator name=\"{other}\">")),
    })
}

pub fn statistic(name: &str, values: &[f64]) -> Result<Value, String> {
    let n = values.len() as f64;
    if values.is_empty() {
        return Ok(Value::Null);
    }
    let mean = values.iter().sum::<f64>() / n;
    let squares: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
    Ok(match name {
        "mean" => Value::Float(mean),
        "popVariance" => Value::Float(squares / n),
        "popSD" => Value::Float((squares / n).sqrt()),
        "sampleVariance" if n > 1.0 => Value::Float(squares / (n - 1.0)),
        "sampleSD" if n > 1.0 => Value::Float((squares / (n - 1.0)).sqrt()),
        "sampleVariance" | "sampleSD" => Value::Null,
        other => return Err(format!("<statsOperator name=\"{other}\">")),
    })
}
