//! The Atom documents that are not entries or feeds: the AtomPub service document,
//! an error, and an action's returned value.

use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};

use super::atom::{document, text_element, Out, Written, APP, ATOM, DATA, METADATA};
use super::model::EntitySet;

/// The AtomPub service document: a workspace listing every entity set.
pub fn service_document(root: &str, sets: &[&EntitySet]) -> Vec<u8> {
    document(|out| {
        let mut service = BytesStart::new("service");
        service.push_attribute(("xml:base", root));
        service.push_attribute(("xmlns", APP));
        service.push_attribute(("xmlns:atom", ATOM));
        out.write_event(Event::Start(service))?;
        out.write_event(Event::Start(BytesStart::new("workspace")))?;
        text_element(out, "atom:title", "Default")?;
        for set in sets {
            let mut collection = BytesStart::new("collection");
            collection.push_attribute(("href", set.name));
            out.write_event(Event::Start(collection))?;
            text_element(out, "atom:title", set.name)?;
            out.write_event(Event::End(BytesEnd::new("collection")))?;
        }
        out.write_event(Event::End(BytesEnd::new("workspace")))?;
        out.write_event(Event::End(BytesEnd::new("service")))
    })
}

/// An error as `m:error`, for clients that asked for XML.
pub fn error_document(code: &str, message: &str) -> Vec<u8> {
    document(|out| {
        let mut error = BytesStart::new("m:error");
        error.push_attribute(("xmlns:m", METADATA));
        out.write_event(Event::Start(error))?;
        text_element(out, "m:code", code)?;
        let mut text = BytesStart::new("m:message");
        text.push_attribute(("xml:lang", "en-US"));
        out.write_event(Event::Start(text))?;
        out.write_event(Event::Text(BytesText::from_escaped(
            crate::xml::escape_text(message),
        )))?;
        out.write_event(Event::End(BytesEnd::new("m:message")))?;
        out.write_event(Event::End(BytesEnd::new("m:error")))
    })
}

/// An action's return value in XML: `<d:Name m:type="...">` holding the value, or
/// a complex value's properties, or a collection's `d:element`s.
pub fn value_document(name: &str, type_name: &str, value: &serde_json::Value) -> Vec<u8> {
    document(|out| {
        let element = format!("d:{name}");
        let mut start = BytesStart::new(element.as_str());
        start.push_attribute(("xmlns:d", DATA));
        start.push_attribute(("xmlns:m", METADATA));
        start.push_attribute(("m:type", type_name));
        json_value(out, start, &element, value)
    })
}

fn json_value(
    out: &mut Out<'_>,
    mut start: BytesStart<'_>,
    element: &str,
    value: &serde_json::Value,
) -> Written {
    use serde_json::Value as Json;
    match value {
        Json::Null => {
            start.push_attribute(("m:null", "true"));
            out.write_event(Event::Empty(start))
        }
        Json::Object(record) => {
            out.write_event(Event::Start(start))?;
            for (name, inner) in record {
                let child = format!("d:{name}");
                json_value(out, BytesStart::new(child.as_str()), &child, inner)?;
            }
            out.write_event(Event::End(BytesEnd::new(element)))
        }
        Json::Array(items) => {
            out.write_event(Event::Start(start))?;
            for item in items {
                json_value(out, BytesStart::new("d:element"), "d:element", item)?;
            }
            out.write_event(Event::End(BytesEnd::new(element)))
        }
        Json::String(text) => {
            out.write_event(Event::Start(start))?;
            out.write_event(Event::Text(BytesText::from_escaped(
                crate::xml::escape_text(text),
            )))?;
            out.write_event(Event::End(BytesEnd::new(element)))
        }
        other => {
            out.write_event(Event::Start(start))?;
            out.write_event(Event::Text(BytesText::from_escaped(
                crate::xml::escape_text(&other.to_string()),
            )))?;
            out.write_event(Event::End(BytesEnd::new(element)))
        }
    }
}
