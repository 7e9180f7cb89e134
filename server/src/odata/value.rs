//! Property values as they travel from a row to a response.

use chrono::DateTime;
use serde_json::{json, Value as Json};

use super::format::Format;

/// One property value of an entity.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Boolean(bool),
    Int16(i16),
    Int32(i32),
    Int64(i64),
    Double(f64),
    String(String),
    /// Milliseconds since the epoch, UTC.
    DateTime(i64),
}

impl Value {
    /// The value in JSON: Int64 as a string (both formats), DateTime without a zone
    /// in JSON light and as `/Date(ms)/` in verbose JSON.
    pub fn to_json(&self, format: Format) -> Json {
        match self {
            Value::Null => Json::Null,
            Value::Boolean(b) => json!(b),
            Value::Int16(n) => json!(n),
            Value::Int32(n) => json!(n),
            Value::Int64(n) => json!(n.to_string()),
            Value::Double(x) => json!(x),
            Value::String(s) => json!(s),
            Value::DateTime(ms) => match format {
                Format::JsonVerbose => json!(format!("/Date({ms})/")),
                _ => json!(format_datetime(*ms)),
            },
        }
    }

    /// The value as a URL literal, for key predicates in links.
    pub fn to_literal(&self) -> String {
        match self {
            Value::Int64(n) => format!("{n}L"),
            Value::String(s) => format!("'{}'", s.replace('\'', "''")),
            Value::Int16(n) => n.to_string(),
            Value::Int32(n) => n.to_string(),
            other => format!("{other:?}"),
        }
    }
}

/// `2026-11-21T09:30:12.123`: UTC, milliseconds, no zone suffix.
pub fn format_datetime(ms: i64) -> String {
    DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .naive_utc()
        .format("%Y-%m-%dT%H:%M:%S%.3f")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int64_values_are_json_strings_and_int32_values_are_numbers() {
        assert_eq!(
            Value::Int64(2185231530264478).to_json(Format::JsonLight),
            json!("2185231530264478")
        );
        assert_eq!(Value::Int32(7).to_json(Format::JsonLight), json!(7));
    }

    #[test]
    fn datetimes_keep_milliseconds_in_both_formats() {
        let ms = 1_795_253_412_123;
        assert_eq!(
            Value::DateTime(ms).to_json(Format::JsonLight),
            json!("2026-11-21T09:30:12.123")
        );
        assert_eq!(
            Value::DateTime(ms).to_json(Format::JsonVerbose),
            json!("/Date(1795253412123)/")
        );
    }
}
