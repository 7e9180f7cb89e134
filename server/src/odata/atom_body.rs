//! An entity sent as an Atom entry (the body of a PUT from an Atom client, such as
//! pyslet or the WCF client before `UseJson()`): its `m:properties` read into the
//! same JSON object a JSON light client would send, so that one reader
//! (`body::parse_entity_object`) types and checks both, with the same messages.
//! XML with a DOCTYPE is refused: no entity is ever expanded.

use quick_xml::events::Event;
use quick_xml::name::{Namespace, ResolveResult};
use quick_xml::NsReader;
use serde_json::{Map, Number, Value as Json};

use super::atom::{ATOM, DATA, METADATA};
use super::edm::EdmType;
use super::model::EntitySet;
use super::ApiError;

fn is(ns: &ResolveResult<'_>, uri: &str) -> bool {
    matches!(ns, ResolveResult::Bound(Namespace(bound)) if *bound == uri.as_bytes())
}

fn malformed(error: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("the body is not a well-formed Atom entry: {error}"))
}

/// The properties of the Atom entry in `bytes`, as a JSON object whose values are
/// what JSON light would carry for `set`'s declared types.
pub fn entry_properties(set: &EntitySet, bytes: &[u8]) -> Result<Map<String, Json>, ApiError> {
    let text = std::str::from_utf8(bytes).map_err(malformed)?;
    let mut reader = NsReader::from_str(text);
    let mut in_entry = false;
    let mut closed = false;
    let mut object = Map::new();
    loop {
        match reader.read_resolved_event().map_err(malformed)? {
            (_, Event::DocType(_)) => {
                return Err(ApiError::bad_request(
                    "the body's XML has a DOCTYPE; entries are sent without one",
                ))
            }
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"entry" => {
                in_entry = true
            }
            (ns, Event::Start(e))
                if in_entry && is(&ns, METADATA) && e.local_name().as_ref() == b"properties" =>
            {
                read_properties(set, &mut reader, &mut object)?;
            }
            (ns, Event::End(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"entry" => {
                closed = true
            }
            (_, Event::Eof) => break,
            _ => {}
        }
    }
    if in_entry && !closed {
        return Err(malformed("the entry does not end"));
    }
    if !in_entry {
        return Err(ApiError::bad_request(format!(
            "the body must be an Atom entry (an <entry> in the {ATOM} namespace) holding one {}",
            set.type_name
        )));
    }
    Ok(object)
}

fn read_properties(
    set: &EntitySet,
    reader: &mut NsReader<&[u8]>,
    object: &mut Map<String, Json>,
) -> Result<(), ApiError> {
    loop {
        match reader.read_resolved_event().map_err(malformed)? {
            (ns, Event::Start(e)) if is(&ns, DATA) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                let null = is_null(reader, &e);
                let text = element_text(reader)?;
                refuse_twice(object, &name)?;
                object.insert(
                    name.clone(),
                    if null {
                        Json::Null
                    } else {
                        typed(set, &name, text)?
                    },
                );
            }
            (ns, Event::Empty(e)) if is(&ns, DATA) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                let value = if is_null(reader, &e) {
                    Json::Null
                } else {
                    typed(set, &name, String::new())?
                };
                refuse_twice(object, &name)?;
                object.insert(name, value);
            }
            (ns, Event::End(e))
                if is(&ns, METADATA) && e.local_name().as_ref() == b"properties" =>
            {
                return Ok(())
            }
            (_, Event::Eof) => return Err(malformed("m:properties does not end")),
            _ => {}
        }
    }
}

/// A property named twice is refused, as a JSON key named twice is
/// (odata::strict_json): which of the two was meant cannot be known.
fn refuse_twice(object: &Map<String, Json>, name: &str) -> Result<(), ApiError> {
    if object.contains_key(name) {
        return Err(ApiError::bad_request(format!(
            "the entry's m:properties name d:{name} twice"
        )));
    }
    Ok(())
}

fn is_null(reader: &NsReader<&[u8]>, element: &quick_xml::events::BytesStart<'_>) -> bool {
    element.attributes().flatten().any(|a| {
        let (ns, name) = reader.resolve_attribute(a.key);
        is(&ns, METADATA) && name.as_ref() == b"null" && a.value.as_ref() == b"true"
    })
}

/// The text up to the element's end; XML's own references resolved, no other.
fn element_text(reader: &mut NsReader<&[u8]>) -> Result<String, ApiError> {
    let mut text = String::new();
    loop {
        match reader.read_event().map_err(malformed)? {
            Event::Text(t) => text.push_str(&t.decode().map_err(malformed)?),
            Event::CData(c) => text.push_str(&c.decode().map_err(malformed)?),
            Event::GeneralRef(reference) => match reference.resolve_char_ref() {
                Ok(Some(c)) => text.push(c),
                _ => {
                    let name = reference.decode().map_err(malformed)?.into_owned();
                    let resolved =
                        quick_xml::escape::resolve_predefined_entity(&name).ok_or_else(|| {
                            malformed(format!("the entity &{name}; is not one of XML's own"))
                        })?;
                    text.push_str(resolved);
                }
            },
            Event::End(_) => return Ok(text),
            Event::Start(_) => return Err(malformed("a property holds an element")),
            Event::Eof => return Err(malformed("a property does not end")),
            _ => {}
        }
    }
}

/// The property's text as JSON light carries it; an undeclared name is passed on
/// for the reader to refuse by name.
fn typed(set: &EntitySet, name: &str, text: String) -> Result<Json, ApiError> {
    let Some(property) = set.property(name) else {
        return Ok(Json::String(text));
    };
    let wrong = |expected: &str| {
        ApiError::bad_request(format!(
            "{}.{name}: expected {expected}, found '{}'",
            set.type_name,
            text.chars().take(40).collect::<String>()
        ))
    };
    let trimmed = text.trim();
    Ok(match property.edm {
        EdmType::Boolean => match trimmed {
            "true" | "1" => Json::Bool(true),
            "false" | "0" => Json::Bool(false),
            _ => return Err(wrong("true or false")),
        },
        EdmType::Int16 | EdmType::Int32 => Json::Number(
            trimmed
                .parse::<i64>()
                .map(Number::from)
                .map_err(|_| wrong(&format!("an {} number", property.edm)))?,
        ),
        EdmType::Int64 => Json::String(trimmed.to_owned()),
        EdmType::Double => Json::Number(
            trimmed
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .ok_or_else(|| wrong("a number"))?,
        ),
        EdmType::String | EdmType::DateTime => Json::String(text),
    })
}
