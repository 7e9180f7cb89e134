//! Property values as they travel from a row to a response.

use chrono::{DateTime, Datelike, Timelike};
use serde_json::Value as Json;

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
        serde_json::to_value(InJson(self, format)).expect("a value is valid JSON")
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

/// A value as a JSON writer writes it (see [`Value::to_json`]), so that a feed's
/// entities go into the response without a `serde_json::Value` between.
pub struct InJson<'a>(pub &'a Value, pub Format);

impl serde::Serialize for InJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => serializer.serialize_unit(),
            Value::Boolean(b) => serializer.serialize_bool(*b),
            Value::Int16(n) => serializer.serialize_i16(*n),
            Value::Int32(n) => serializer.serialize_i32(*n),
            Value::Int64(n) => serializer.collect_str(n),
            Value::Double(x) => serializer.serialize_f64(*x),
            Value::String(s) => serializer.serialize_str(s),
            Value::DateTime(ms) => match self.1 {
                Format::JsonVerbose => serializer.collect_str(&format_args!("/Date({ms})/")),
                _ => serializer.collect_str(&DateTimeText(*ms)),
            },
        }
    }
}

/// `2026-11-21T09:30:12.123`: UTC, milliseconds, no zone suffix.
pub fn format_datetime(ms: i64) -> String {
    DateTimeText(ms).to_string()
}

/// A date as [`format_datetime`] writes it, written where it goes.
pub struct DateTimeText(pub i64);

impl std::fmt::Display for DateTimeText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = DateTime::from_timestamp_millis(self.0)
            .unwrap_or_default()
            .naive_utc();
        // Written from the fields rather than through a strftime pattern, which
        // chrono parses again on every call: that was 5 % of a 50-task page's CPU
        // (docs/benchmarks.md, "Where a request's time went"). Years beyond four
        // digits keep chrono's own form (`+10000`).
        if !(0..=9999).contains(&at.year()) {
            return write!(f, "{}", at.format("%Y-%m-%dT%H:%M:%S%.3f"));
        }
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}",
            at.year(),
            at.month(),
            at.day(),
            at.hour(),
            at.minute(),
            at.second(),
            at.nanosecond() / 1_000_000
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn int64_values_are_json_strings_and_int32_values_are_numbers() {
        assert_eq!(
            Value::Int64(2185231530264478).to_json(Format::JsonLight),
            json!("2185231530264478")
        );
        assert_eq!(Value::Int32(7).to_json(Format::JsonLight), json!(7));
    }

    #[test]
    fn datetimes_are_written_as_chronos_pattern_writes_them() {
        let pattern = |ms: i64| {
            DateTime::from_timestamp_millis(ms)
                .unwrap_or_default()
                .naive_utc()
                .format("%Y-%m-%dT%H:%M:%S%.3f")
                .to_string()
        };
        let mut ms: i64 = -62_167_219_200_000 - 5; // just before the year 0
        let mut seen = 0;
        while ms < 253_402_300_800_000 + 86_400_000 {
            assert_eq!(format_datetime(ms), pattern(ms), "{ms}");
            ms += 77_777_777_777 + ms.rem_euclid(997);
            seen += 1;
        }
        assert!(seen > 3_000, "{seen}");
        for ms in [0, 1, 999, -1, i64::MAX, i64::MIN, 1_795_253_412_123] {
            assert_eq!(format_datetime(ms), pattern(ms), "{ms}");
        }
        assert_eq!(
            format_datetime(1_795_253_412_123),
            "2026-11-21T09:30:12.123"
        );
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
