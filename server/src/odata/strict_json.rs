//! JSON read as serde_json reads it, except that an object naming a key twice is
//! refused. serde_json keeps the last of two equal keys, so `{"Status": 0,
//! "Status": 2}` would be read as a 2 that the client may not have meant, and two
//! readers of one body (a proxy that checks, a server that acts) could disagree.
//! Upload files refuse duplicates already (serde's derive); this is the same rule
//! for entity bodies and action parameters.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Reads `bytes` as one JSON value; an error says what is wrong, a duplicate key
/// by name ("the key 'Status' appears twice in one object").
pub fn from_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<Strict>(bytes).map(|strict| strict.0)
}

struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Strict::deserialize(deserializer).map(|strict| strict.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut values = Vec::new();
        while let Some(Strict(value)) = seq.next_element()? {
            values.push(value);
        }
        Ok(Value::Array(values))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "the key '{key}' appears twice in one object"
                )));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_without_duplicates_reads_as_serde_json_reads_it() {
        let text =
            br#"{"a": [1, -2, 3.5, "x", null, true], "b": {"c": {}}, "d": 18446744073709551615}"#;
        assert_eq!(
            from_slice(text).unwrap(),
            serde_json::from_slice::<Value>(text).unwrap()
        );
    }

    #[test]
    fn a_key_named_twice_is_refused_by_name_at_any_depth() {
        for text in [
            &br#"{"Status": 0, "Status": 2}"#[..],
            br#"{"outer": [{"Status": 0, "Status": 2}]}"#,
        ] {
            let error = from_slice(text).unwrap_err().to_string();
            assert!(error.contains("the key 'Status' appears twice"), "{error}");
        }
        assert!(
            from_slice(br#"{"a": {"k": 1}, "b": {"k": 2}}"#).is_ok(),
            "same key, other objects"
        );
    }

    #[test]
    fn escaped_spellings_of_one_key_are_the_same_key() {
        assert!(from_slice(br#"{"Status": 0, "St\u0061tus": 2}"#).is_err());
    }

    #[test]
    fn nesting_stays_bounded() {
        let deep = "[".repeat(10_000);
        assert!(from_slice(deep.as_bytes()).is_err());
    }
}
