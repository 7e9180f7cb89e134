//! A template variable's value (QTI's base types and containers) as template
//! processing computes it, and its written form (a printed variable, a correct
//! response's `<value>`).

use crate::number::number;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Float(f64),
    Boolean(bool),
    /// `string`, `identifier` and the other base types kept as written.
    Text(String),
    /// A `multiple` or `ordered` container of single values.
    List(Vec<Value>),
}

impl Value {
    /// `text` read as a value of `base_type`.
    pub fn parse(base_type: &str, text: &str) -> Result<Value, String> {
        let text = text.trim();
        match base_type {
            "integer" => text
                .parse::<i64>()
                .map(Value::Integer)
                .map_err(|_| format!("'{text}' is not an integer")),
            "float" => number(text).map(Value::Float),
            "boolean" => match text {
                "true" | "1" => Ok(Value::Boolean(true)),
                "false" | "0" => Ok(Value::Boolean(false)),
                _ => Err(format!("'{text}' is not a boolean")),
            },
            _ => Ok(Value::Text(text.to_owned())),
        }
    }

    /// The value as a number: an integer, a float, or text that reads as one.
    pub fn number(&self) -> Result<f64, String> {
        match self {
            Value::Integer(i) => Ok(*i as f64),
            Value::Float(f) => Ok(*f),
            Value::Text(t) => number(t),
            Value::Boolean(_) => Err("a boolean where a number is needed".into()),
            Value::Null => Err("an unset value where a number is needed".into()),
            Value::List(_) => Err("a container where a single number is needed".into()),
        }
    }

    pub fn integer(&self) -> Result<i64, String> {
        match self {
            Value::Integer(i) => Ok(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(*f as i64),
            Value::Text(t) => t
                .trim()
                .parse()
                .map_err(|_| format!("'{t}' is not an integer")),
            other => Err(format!("{} where an integer is needed", other.written())),
        }
    }

    pub fn boolean(&self) -> Result<bool, String> {
        match self {
            Value::Boolean(b) => Ok(*b),
            Value::Null => Ok(false),
            other => Err(format!("{} where true or false is needed", other.written())),
        }
    }

    /// Its members, a single value being a container of one (QTI's operators
    /// over containers take either), an unset value none.
    pub fn members(&self) -> Vec<Value> {
        match self {
            Value::List(list) => list.clone(),
            Value::Null => Vec::new(),
            single => vec![single.clone()],
        }
    }

    pub fn is_null(&self) -> bool {
        match self {
            Value::Null => true,
            Value::Text(t) => t.is_empty(),
            Value::List(list) => list.is_empty(),
            _ => false,
        }
    }

    /// As QTI writes it: `3`, `2.5`, `true`, an identifier; a container's
    /// members joined by `delimiter`.
    pub fn written_with(&self, delimiter: &str) -> String {
        match self {
            Value::Null => String::new(),
            Value::Integer(i) => i.to_string(),
            Value::Float(f) => float_text(*f),
            Value::Boolean(b) => b.to_string(),
            Value::Text(t) => t.clone(),
            Value::List(list) => list
                .iter()
                .map(|v| v.written_with(delimiter))
                .collect::<Vec<_>>()
                .join(delimiter),
        }
    }

    pub fn written(&self) -> String {
        self.written_with(";")
    }
}

/// A float as the shortest text that reads back as it (`0.1`, `3`, `2.5e-7`).
pub fn float_text(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1.0e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// `value` written by a printedVariable's `format` (a C-style conversion:
/// `%d`, `%i`, `%.2f`, `%e`, `%g`, `%s`, `%x`, with flags and a width), the
/// text around the conversion kept; without a format, as QTI writes it.
pub fn formatted(value: &Value, format: Option<&str>) -> Result<String, String> {
    let Some(format) = format.filter(|f| f.contains('%')) else {
        return Ok(value.written_with("; "));
    };
    let start = format.find('%').unwrap_or(0);
    let rest = &format[start + 1..];
    let end = rest
        .find(|c: char| c.is_ascii_alphabetic())
        .ok_or_else(|| format!("the format '{format}' has no conversion"))?;
    let (spec, conversion) = (&rest[..end], &rest[end..end + 1]);
    let after = &rest[end + 1..];
    let precision = spec
        .split_once('.')
        .map(|(_, p)| p.parse::<usize>())
        .transpose()
        .map_err(|_| format!("the format '{format}' has a precision that is not a number"))?;
    let width: usize = spec
        .split('.')
        .next()
        .unwrap_or("")
        .trim_start_matches(['-', '+', ' ', '#', '0'])
        .parse()
        .unwrap_or(0);
    let body = match conversion {
        "d" | "i" => value.number()?.round().to_string(),
        "f" | "F" => format!("{:.*}", precision.unwrap_or(6), value.number()?),
        "e" | "E" => format!("{:.*e}", precision.unwrap_or(6), value.number()?),
        "g" | "G" => float_text(significant(value.number()?, precision.unwrap_or(6).max(1))),
        "x" | "X" => format!("{:x}", value.integer()?),
        "s" => value.written_with("; "),
        other => return Err(format!("the format '{format}' has the conversion %{other}")),
    };
    let body = if spec.starts_with('+') && !body.starts_with('-') {
        format!("+{body}")
    } else {
        body
    };
    let padded = if spec.starts_with('-') {
        format!("{body:<width$}")
    } else {
        format!("{body:>width$}")
    };
    Ok(format!("{}{padded}{after}", &format[..start]))
}

/// `value` rounded to `figures` significant figures.
pub fn significant(value: f64, figures: usize) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let magnitude = value.abs().log10().floor() as i32;
    let scale = 10f64.powi(figures as i32 - 1 - magnitude);
    (value * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_variables_follow_their_format() {
        let f = |v: Value, format| formatted(&v, Some(format)).unwrap();
        assert_eq!(f(Value::Float(2.0 / 3.0), "%.2f"), "0.67");
        assert_eq!(f(Value::Integer(7), "%d"), "7");
        assert_eq!(f(Value::Integer(7), "%3d cm"), "  7 cm");
        assert_eq!(f(Value::Float(12345.678), "%.3g"), "12300");
        assert_eq!(f(Value::Integer(255), "%x"), "ff");
        assert_eq!(f(Value::Integer(3), "%+d"), "+3");
        assert_eq!(formatted(&Value::Float(2.5), None).unwrap(), "2.5");
        let list = Value::List(vec![Value::Integer(3), Value::Integer(-4)]);
        assert_eq!(formatted(&list, None).unwrap(), "3; -4");
        assert!(formatted(&Value::Integer(1), Some("%q")).is_err());
    }

    #[test]
    fn floats_are_written_short() {
        assert_eq!(float_text(3.0), "3");
        assert_eq!(float_text(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(float_text(-2.5), "-2.5");
        assert_eq!(significant(1234.5678, 3), 1230.0);
    }
}
