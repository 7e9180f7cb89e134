//! A request body carrying one entity (the body of a PUT), in JSON light or verbose
//! JSON, read against the entity set's declaration: every property typed as
//! declared, unknown properties refused by name. Annotations (`odata.*`,
//! `__metadata`, `Name@odata.*`) and deferred navigation links are what clients send
//! back from a read, so they are accepted and ignored.

use serde_json::Value as Json;

use super::edm::EdmType;
use super::filter::parse_datetime;
use super::model::{EntitySet, Property};
use super::value::Value;
use super::ApiError;

/// The properties a body carried, typed.
#[derive(Debug)]
pub struct EntityBody {
    pub values: Vec<(&'static Property, Value)>,
}

impl EntityBody {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(property, _)| property.name == name)
            .map(|(_, value)| value)
    }
}

/// Checks that the request says it sends JSON.
pub fn require_json(content_type: Option<&str>) -> Result<(), ApiError> {
    let media_type = content_type
        .and_then(|value| value.split(';').next())
        .map(|value| value.trim().to_ascii_lowercase());
    match media_type.as_deref() {
        Some("application/json") => Ok(()),
        Some(other) => Err(ApiError::UnsupportedMediaType(format!(
            "the body must be application/json, not {other}"
        ))),
        None => Err(ApiError::UnsupportedMediaType(
            "the body must be application/json; the request has no Content-Type".into(),
        )),
    }
}

/// Which format an entity body comes in, from its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFormat {
    Json,
    Atom,
}

/// The body format a request says it sends: JSON, or an Atom entry.
pub fn entity_body_format(content_type: Option<&str>) -> Result<BodyFormat, ApiError> {
    let media_type = content_type
        .and_then(|value| value.split(';').next())
        .map(|value| value.trim().to_ascii_lowercase());
    match media_type.as_deref() {
        Some("application/json") => Ok(BodyFormat::Json),
        Some("application/atom+xml" | "application/xml") => Ok(BodyFormat::Atom),
        Some(other) => Err(ApiError::UnsupportedMediaType(format!(
            "the body must be application/json or an application/atom+xml entry, not {other}"
        ))),
        None => Err(ApiError::UnsupportedMediaType(
            "the body must be application/json or an application/atom+xml entry; the request has no Content-Type".into(),
        )),
    }
}

/// Reads `bytes` as one entity of `set`.
pub fn parse_entity(set: &'static EntitySet, bytes: &[u8]) -> Result<EntityBody, ApiError> {
    let json: Json = super::strict_json::from_slice(bytes)
        .map_err(|error| ApiError::bad_request(format!("the body is not valid JSON: {error}")))?;
    let Json::Object(object) = json else {
        return Err(ApiError::bad_request(format!(
            "the body must be a JSON object holding one {}",
            set.type_name
        )));
    };
    parse_entity_object(set, object)
}

/// Reads a JSON object (sent as JSON, or read from an Atom entry) as one entity of
/// `set`.
pub fn parse_entity_object(
    set: &'static EntitySet,
    mut object: serde_json::Map<String, Json>,
) -> Result<EntityBody, ApiError> {
    // Verbose JSON clients may send the entity wrapped as it was read: {"d": {...}}.
    if object.len() == 1 {
        if let Some(Json::Object(inner)) = object.get_mut("d") {
            object = std::mem::take(inner);
        }
    }
    let mut values = Vec::new();
    for (name, json) in object {
        if is_annotation(&name) {
            continue;
        }
        if let Some(property) = set.property(&name) {
            values.push((property, typed(set, property, &json)?));
        } else if set.navigation(&name).is_some() {
            check_navigation_unchanged(set, &name, &json)?;
        } else {
            return Err(ApiError::bad_request(format!(
                "{} has no property '{name}'",
                set.type_name
            )));
        }
    }
    Ok(EntityBody { values })
}

fn is_annotation(name: &str) -> bool {
    name.starts_with("odata.") || name == "__metadata" || name.contains('@')
}

/// A PUT replaces an entity's properties, not its links: a navigation property may
/// only come back as the deferred link (or null) that a read gave.
fn check_navigation_unchanged(set: &EntitySet, name: &str, json: &Json) -> Result<(), ApiError> {
    let deferred = match json {
        Json::Null => true,
        Json::Object(object) => object.len() == 1 && object.contains_key("__deferred"),
        _ => false,
    };
    if deferred {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "{}: the navigation property {name} cannot be changed by PUT",
            set.type_name
        )))
    }
}

fn typed(set: &EntitySet, property: &Property, json: &Json) -> Result<Value, ApiError> {
    let wrong = |expected: &str| {
        ApiError::bad_request(format!(
            "{}.{}: expected {expected}, found {}",
            set.type_name,
            property.name,
            shorten(json)
        ))
    };
    if json.is_null() {
        return if property.nullable {
            Ok(Value::Null)
        } else {
            Err(ApiError::bad_request(format!(
                "{}.{} may not be null",
                set.type_name, property.name
            )))
        };
    }
    Ok(match property.edm {
        EdmType::Boolean => Value::Boolean(json.as_bool().ok_or_else(|| wrong("true or false"))?),
        EdmType::Int16 => Value::Int16(
            integer(json, false)
                .and_then(|n| i16::try_from(n).ok())
                .ok_or_else(|| wrong("an Edm.Int16 number"))?,
        ),
        EdmType::Int32 => Value::Int32(
            integer(json, false)
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| wrong("an Edm.Int32 number"))?,
        ),
        // The contract: Int64 values are JSON strings on output; input takes either.
        EdmType::Int64 => Value::Int64(
            integer(json, true).ok_or_else(|| wrong("an Edm.Int64 as a string or number"))?,
        ),
        EdmType::Double => Value::Double(json.as_f64().ok_or_else(|| wrong("a number"))?),
        EdmType::String => {
            let text = json.as_str().ok_or_else(|| wrong("a string"))?;
            check_length(set, property, text)?;
            Value::String(text.to_owned())
        }
        EdmType::DateTime => {
            Value::DateTime(json.as_str().and_then(datetime).ok_or_else(|| {
                wrong("a DateTime as \"2026-11-21T09:30:12.123\" or \"/Date(<ms>)/\"")
            })?)
        }
    })
}

/// Refuses a string longer than the property's `max_length`, in characters.
fn check_length(set: &EntitySet, property: &Property, text: &str) -> Result<(), ApiError> {
    let Some(limit) = property.max_length else {
        return Ok(());
    };
    // Counting stops past the limit: a 32 MiB string is not walked to its end.
    let length = text.chars().take(limit as usize + 1).count();
    if length > limit as usize {
        return Err(ApiError::bad_request(format!(
            "{}.{} may be at most {limit} characters long; the body's value is longer",
            set.type_name, property.name
        )));
    }
    Ok(())
}

fn integer(json: &Json, string_allowed: bool) -> Option<i64> {
    match json {
        Json::Number(number) => number.as_i64(),
        Json::String(text) if string_allowed => text.parse().ok(),
        _ => None,
    }
}

/// JSON light's `2026-11-21T09:30:12.123` (an optional `Z`), or verbose JSON's
/// `/Date(<ms>)/`.
pub fn datetime(text: &str) -> Option<i64> {
    if let Some(inner) = text
        .strip_prefix("/Date(")
        .and_then(|rest| rest.strip_suffix(")/"))
    {
        return inner.parse().ok();
    }
    parse_datetime(text)
}

/// A value as it may appear in a message: short, whatever the client sent.
fn shorten(json: &Json) -> String {
    let text = json.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odata::model::{prop, EntitySet};

    static THINGS: EntitySet = EntitySet {
        name: "Things",
        type_name: "Thing",
        table: "things",
        key: &["ID"],
        properties: &[
            prop("ID", "id", EdmType::Int64, false),
            prop("Score", "score", EdmType::Int16, true),
            prop("Comment", "comment", EdmType::String, true).max_length(5),
            prop("ModifiedDateTime", "modified_at", EdmType::DateTime, false),
        ],
        navigations: &[],
        concurrency: Some("ModifiedDateTime"),
        filterable: &[],
        media: None,
        writes: crate::odata::model::READ_ONLY,
    };

    #[test]
    fn a_string_longer_than_its_limit_is_refused_by_name() {
        assert!(
            parse(r#"{"Comment": "fünf!"}"#).is_ok(),
            "five characters, more bytes"
        );
        let Err(ApiError::BadRequest(message)) = parse(r#"{"Comment": "sechs!"}"#) else {
            panic!("six characters must be refused")
        };
        assert!(
            message.contains("Thing.Comment") && message.contains("at most 5"),
            "{message}"
        );
    }

    fn parse(text: &str) -> Result<EntityBody, ApiError> {
        parse_entity(&THINGS, text.as_bytes())
    }

    #[test]
    fn int64_comes_as_a_string_or_a_number_and_datetimes_in_either_format() {
        let light = parse(r#"{"ID": "7", "ModifiedDateTime": "2026-11-21T09:30:12.123"}"#).unwrap();
        let verbose =
            parse(r#"{"d": {"ID": 7, "ModifiedDateTime": "\/Date(1795253412123)\/"}}"#).unwrap();
        for body in [light, verbose] {
            assert_eq!(body.get("ID"), Some(&Value::Int64(7)));
            assert_eq!(
                body.get("ModifiedDateTime"),
                Some(&Value::DateTime(1_795_253_412_123))
            );
        }
    }

    #[test]
    fn annotations_are_ignored_and_unknown_properties_named() {
        let body = parse(
            r#"{"odata.metadata": "x", "__metadata": {}, "Score@odata.type": "x", "Score": 3}"#,
        )
        .unwrap();
        assert_eq!(body.get("Score"), Some(&Value::Int16(3)));
        let error = parse(r#"{"Scroe": 3}"#).unwrap_err().to_string();
        assert!(error.contains("'Scroe'"), "{error}");
    }

    #[test]
    fn wrong_types_name_the_property_and_what_was_expected() {
        for (body, expected) in [
            (
                r#"{"Score": "3"}"#,
                "Thing.Score: expected an Edm.Int16 number",
            ),
            (
                r#"{"Score": 70000}"#,
                "Thing.Score: expected an Edm.Int16 number",
            ),
            (
                r#"{"Score": 2.5}"#,
                "Thing.Score: expected an Edm.Int16 number",
            ),
            (r#"{"Comment": 5}"#, "Thing.Comment: expected a string"),
            (
                r#"{"ModifiedDateTime": null}"#,
                "Thing.ModifiedDateTime may not be null",
            ),
            (
                r#"{"ModifiedDateTime": "yesterday"}"#,
                "Thing.ModifiedDateTime: expected a DateTime",
            ),
            (r#"[1]"#, "must be a JSON object"),
            (r#"{"Score": "#, "not valid JSON"),
        ] {
            let error = parse(body).unwrap_err();
            assert!(matches!(error, ApiError::BadRequest(_)), "{body}");
            assert!(error.to_string().contains(expected), "{body}: {error}");
        }
    }

    #[test]
    fn only_json_bodies_are_taken() {
        assert!(require_json(Some("application/json;odata=verbose")).is_ok());
        assert!(require_json(Some("Application/JSON")).is_ok());
        assert!(matches!(
            require_json(Some("application/xml")),
            Err(ApiError::UnsupportedMediaType(_))
        ));
        assert!(matches!(
            require_json(None),
            Err(ApiError::UnsupportedMediaType(_))
        ));
    }
}
