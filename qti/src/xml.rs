//! A small element tree read with quick-xml, for documents of at most
//! [`limits::MAX_XML_BYTES`]. A DOCTYPE is refused outright: with no DTD, no entity
//! can be declared, so neither external entities (XXE) nor entity expansion
//! (billion laughs) can happen; only XML's five predefined entities and character
//! references are read. Names are local (prefixes dropped) and QTI 3.0's are read
//! as QTI 2.x's, so the readers above serve both versions.

use quick_xml::events::{BytesStart, Event};

use crate::error::PackageError;
use crate::limits;
use crate::names;

#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub name: String,
    /// `(name, value)`: local names, QTI 3.0's in camel case; `xml:lang` as `lang`.
    pub attributes: Vec<(String, String)>,
    pub children: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Element(Element),
    Text(String),
}

impl Element {
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|node| match node {
            Node::Element(element) => Some(element),
            Node::Text(_) => None,
        })
    }

    /// The first child element called `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.elements().find(|e| e.name == name)
    }

    pub fn children_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s Element> + 's {
        self.elements().filter(move |e| e.name == name)
    }

    /// Every element below this one, depth first, in document order.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        let mut stack: Vec<&Element> = self.elements().collect();
        stack.reverse();
        while let Some(element) = stack.pop() {
            out.push(element);
            let mut children: Vec<&Element> = element.elements().collect();
            children.reverse();
            stack.extend(children);
        }
        out
    }

    /// The text of the element and everything in it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        collect_text(self, &mut out);
        out
    }
}

fn collect_text(element: &Element, out: &mut String) {
    for node in &element.children {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Element(child) => collect_text(child, out),
        }
    }
}

/// The document element of `bytes`, read from the package's file `file`.
pub fn parse(bytes: &[u8], file: &str) -> Result<Element, PackageError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| PackageError::new(file, "not UTF-8 text; QTI files are read as UTF-8"))?;
    let mut reader = quick_xml::Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.expand_empty_elements = false;
    let at = |reader: &quick_xml::Reader<&[u8]>| reader.buffer_position();
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let mut elements = 0usize;
    loop {
        let event = reader.read_event().map_err(|error| {
            PackageError::new(
                file,
                format!("not well-formed XML near byte {} ({error})", at(&reader)),
            )
        })?;
        match event {
            Event::DocType(_) => {
                return Err(PackageError::new(
                    file,
                    "a DOCTYPE is not accepted (no DTD and no entity is read from a package)",
                ))
            }
            Event::Start(_) | Event::Empty(_) if root.is_some() => {
                return Err(PackageError::new(
                    file,
                    "content after the document element",
                ));
            }
            Event::Start(start) => {
                elements += 1;
                check_size(file, elements, stack.len() + 1)?;
                stack.push(element_of(&start, file)?);
            }
            Event::Empty(start) => {
                elements += 1;
                check_size(file, elements, stack.len() + 1)?;
                let element = element_of(&start, file)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(Node::Element(element)),
                    None => root = Some(element),
                }
            }
            Event::End(_) => {
                let element = stack
                    .pop()
                    .ok_or_else(|| PackageError::new(file, "an end tag without its start"))?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(Node::Element(element)),
                    None => root = Some(element),
                }
            }
            Event::Text(text) => {
                let text = text.decode().map_err(|error| {
                    PackageError::new(file, format!("text that cannot be read ({error})"))
                })?;
                push_text(&mut stack, &text);
            }
            Event::CData(data) => {
                let text = data.decode().map_err(|error| {
                    PackageError::new(file, format!("CDATA that cannot be read ({error})"))
                })?;
                push_text(&mut stack, &text);
            }
            Event::GeneralRef(reference) => {
                let resolved = match reference.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => {
                        let name = reference.decode().unwrap_or_default().into_owned();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .map(str::to_owned)
                            .ok_or_else(|| {
                                PackageError::new(
                                    file,
                                    format!(
                                        "the entity &{name}; is not one of XML's own, and no DTD is read to declare it"
                                    ),
                                )
                            })?
                    }
                };
                push_text(&mut stack, &resolved);
            }
            Event::Eof => break,
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(PackageError::new(
            file,
            "the document ends inside an element",
        ));
    }
    root.ok_or_else(|| PackageError::new(file, "no document element"))
}

fn check_size(file: &str, elements: usize, depth: usize) -> Result<(), PackageError> {
    if depth > limits::MAX_XML_DEPTH {
        return Err(PackageError::new(
            file,
            format!("elements nest deeper than {}", limits::MAX_XML_DEPTH),
        ));
    }
    if elements > limits::MAX_XML_ELEMENTS {
        return Err(PackageError::new(
            file,
            format!("more than {} elements", limits::MAX_XML_ELEMENTS),
        ));
    }
    Ok(())
}

fn push_text(stack: &mut [Element], text: &str) {
    // Text outside the document element is whitespace (anything else is refused by
    // quick-xml as ill-formed) and is dropped.
    if let Some(parent) = stack.last_mut() {
        match parent.children.last_mut() {
            Some(Node::Text(previous)) => previous.push_str(text),
            _ => parent.children.push(Node::Text(text.to_owned())),
        }
    }
}

fn element_of(start: &BytesStart<'_>, file: &str) -> Result<Element, PackageError> {
    let raw_name = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
    let qti3 = raw_name.starts_with("qti-");
    let name = names::element_name(&raw_name);
    let mut attributes = Vec::new();
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|error| {
            PackageError::new(
                file,
                format!("<{raw_name}> has a malformed attribute ({error})"),
            )
        })?;
        let key = attribute.key;
        let local = String::from_utf8_lossy(key.local_name().as_ref()).into_owned();
        let prefix = key
            .prefix()
            .map(|p| String::from_utf8_lossy(p.as_ref()).into_owned());
        if prefix.as_deref() == Some("xmlns") || local == "xmlns" {
            continue;
        }
        let local = if qti3 {
            names::camel_case(&local)
        } else {
            local
        };
        let value = attribute
            .unescape_value()
            .map_err(|error| {
                PackageError::new(
                    file,
                    format!("<{raw_name} {local}> has a value that cannot be read ({error})"),
                )
            })?
            .into_owned();
        attributes.push((local, value));
    }
    Ok(Element {
        name,
        attributes,
        children: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qti_3_reads_as_qti_2() {
        let doc = parse(
            br#"<qti-assessment-item xmlns="x" identifier="i1" xml:lang="en"><qti-choice-interaction max-choices="1"/></qti-assessment-item>"#,
            "i.xml",
        )
        .expect("parses");
        assert_eq!(doc.name, "assessmentItem");
        assert_eq!(doc.attribute("lang"), Some("en"));
        let interaction = doc.child("choiceInteraction").expect("child");
        assert_eq!(interaction.attribute("maxChoices"), Some("1"));
    }

    #[test]
    fn entities_are_xml_s_own_and_character_references() {
        let doc = parse(b"<p>a &amp; b &#x263A; &lt;</p>", "p.xml").expect("parses");
        assert_eq!(doc.text(), "a & b \u{263A} <");
    }

    #[test]
    fn a_doctype_is_refused_so_no_entity_can_be_declared() {
        let xxe = br#"<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>"#;
        let error = parse(xxe, "items/q.xml").expect_err("refused");
        assert_eq!(error.part, "items/q.xml");
        assert!(error.message.contains("DOCTYPE"), "{error}");
    }

    #[test]
    fn an_undeclared_entity_is_refused_by_name() {
        let error = parse(b"<a>&lol9;</a>", "q.xml").expect_err("refused");
        assert!(error.message.contains("&lol9;"), "{error}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let depth = limits::MAX_XML_DEPTH + 1;
        let xml = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        let error = parse(xml.as_bytes(), "q.xml").expect_err("refused");
        assert!(error.message.contains("nest"), "{error}");
    }

    #[test]
    fn ill_formed_xml_is_refused_with_where() {
        let error = parse(b"<a><b></a>", "q.xml").expect_err("refused");
        assert!(error.message.contains("not well-formed"), "{error}");
    }
}
