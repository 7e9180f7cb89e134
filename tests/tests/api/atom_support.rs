//! Reading Atom documents back in the tests, namespace by namespace (quick-xml's
//! NsReader), so that an element in the wrong namespace is not taken for the right
//! one: entries with their ids, types, links, inline expansions and typed
//! properties; feeds with their count and next link; `$links` documents; `m:error`.

use std::collections::BTreeMap;

use quick_xml::events::Event;
use quick_xml::name::{Namespace, ResolveResult};
use quick_xml::NsReader;

pub const ATOM: &str = "http://www.w3.org/2005/Atom";
pub const APP: &str = "http://www.w3.org/2007/app";
pub const DATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices";
pub const METADATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata";

/// One property: its `m:type` (none for strings), and its text (none when `m:null`).
#[derive(Debug, Clone, PartialEq)]
pub struct AtomProperty {
    pub edm: Option<String>,
    pub text: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct AtomEntry {
    pub id: String,
    pub type_term: String,
    pub edit: String,
    pub etag: Option<String>,
    /// `title` → `href` of each navigation link.
    pub navigations: BTreeMap<String, String>,
    /// `title` → `href` of each association link (the navigation's `$links`).
    pub associations: BTreeMap<String, String>,
    /// The entries inline under a navigation link.
    pub inline: BTreeMap<String, Vec<AtomEntry>>,
    pub properties: BTreeMap<String, AtomProperty>,
    /// A media link entry's `content src`.
    pub media_src: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct AtomFeed {
    pub id: String,
    pub count: Option<i64>,
    pub next: Option<String>,
    pub entries: Vec<AtomEntry>,
}

fn is(ns: &ResolveResult<'_>, uri: &str) -> bool {
    matches!(ns, ResolveResult::Bound(Namespace(bound)) if *bound == uri.as_bytes())
}

fn attribute(
    element: &quick_xml::events::BytesStart<'_>,
    reader: &NsReader<&[u8]>,
    uri: Option<&str>,
    local: &str,
) -> Option<String> {
    element.attributes().flatten().find_map(|a| {
        let (ns, name) = reader.resolve_attribute(a.key);
        let namespace_ok = match uri {
            None => matches!(ns, ResolveResult::Unbound),
            Some(uri) => is(&ns, uri),
        };
        (namespace_ok && name.as_ref() == local.as_bytes()).then(|| {
            a.unescape_value()
                .expect("an attribute's value")
                .into_owned()
        })
    })
}

/// Parses a feed; panics (the test fails) on a document that is not well formed
/// or not a feed in the Atom namespace.
pub fn feed(xml: &str) -> AtomFeed {
    let mut reader = NsReader::from_str(xml);
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"feed" => {
                return read_feed(&mut reader);
            }
            (_, Event::Eof) => panic!("no Atom feed in {xml}"),
            _ => {}
        }
    }
}

/// Parses an entry document.
pub fn entry(xml: &str) -> AtomEntry {
    let mut reader = NsReader::from_str(xml);
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"entry" => {
                let etag = attribute(&e, &reader, Some(METADATA), "etag");
                let mut entry = read_entry(&mut reader);
                entry.etag = etag;
                return entry;
            }
            (_, Event::Eof) => panic!("no Atom entry in {xml}"),
            _ => {}
        }
    }
}

/// A `$links` document in XML: the `uri`s (one for a `<uri>` document, each of a
/// `<links>` one), its `m:count` and its `next`, all in the data services namespace.
#[derive(Debug, Default, PartialEq)]
pub struct XmlLinks {
    /// `<links>` (a collection) rather than a lone `<uri>`.
    pub collection: bool,
    pub uris: Vec<String>,
    pub count: Option<i64>,
    pub next: Option<String>,
}

pub fn links(xml: &str) -> XmlLinks {
    let mut reader = NsReader::from_str(xml);
    let mut links = XmlLinks::default();
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, DATA) && e.local_name().as_ref() == b"links" => {
                links.collection = true
            }
            (ns, Event::Start(e)) if is(&ns, DATA) && e.local_name().as_ref() == b"uri" => {
                links.uris.push(text(&mut reader))
            }
            (ns, Event::Start(e)) if is(&ns, DATA) && e.local_name().as_ref() == b"next" => {
                links.next = Some(text(&mut reader))
            }
            (ns, Event::Start(e)) if is(&ns, METADATA) && e.local_name().as_ref() == b"count" => {
                links.count = Some(text(&mut reader).parse().expect("m:count is a number"))
            }
            (_, Event::Eof) => return links,
            _ => {}
        }
    }
}

/// The message of an `m:error` document, if it is one.
pub fn error_message(xml: &str) -> Option<String> {
    let mut reader = NsReader::from_str(xml);
    let mut in_error = false;
    loop {
        match reader.read_resolved_event().ok()? {
            (ns, Event::Start(e)) if is(&ns, METADATA) && e.local_name().as_ref() == b"error" => {
                in_error = true
            }
            (ns, Event::Start(e))
                if in_error && is(&ns, METADATA) && e.local_name().as_ref() == b"message" =>
            {
                return Some(text(&mut reader));
            }
            (_, Event::Eof) => return None,
            _ => {}
        }
    }
}

/// The text up to the element's end, its references resolved.
fn text(reader: &mut NsReader<&[u8]>) -> String {
    let mut text = String::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Text(t) => text.push_str(&t.decode().expect("text")),
            Event::GeneralRef(reference) => match reference.resolve_char_ref() {
                Ok(Some(c)) => text.push(c),
                _ => {
                    let name = reference.decode().expect("a reference").into_owned();
                    let resolved = quick_xml::escape::resolve_predefined_entity(&name)
                        .unwrap_or_else(|| panic!("an undeclared entity &{name};"));
                    text.push_str(resolved);
                }
            },
            Event::End(_) => return text,
            _ => {}
        }
    }
}

fn read_feed(reader: &mut NsReader<&[u8]>) -> AtomFeed {
    let mut feed = AtomFeed::default();
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"entry" => {
                let etag = attribute(&e, reader, Some(METADATA), "etag");
                let mut entry = read_entry(reader);
                entry.etag = etag;
                feed.entries.push(entry);
            }
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"id" => {
                feed.id = text(reader)
            }
            (ns, Event::Start(e)) if is(&ns, METADATA) && e.local_name().as_ref() == b"count" => {
                feed.count = Some(text(reader).parse().expect("m:count is a number"));
            }
            (ns, Event::Empty(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"link" => {
                let rel = attribute(&e, reader, None, "rel");
                let href = attribute(&e, reader, None, "href");
                if rel.as_deref() == Some("next") {
                    feed.next = href;
                }
            }
            (ns, Event::End(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"feed" => {
                return feed
            }
            (_, Event::Eof) => panic!("the feed does not end"),
            _ => {}
        }
    }
}

fn read_entry(reader: &mut NsReader<&[u8]>) -> AtomEntry {
    let mut entry = AtomEntry::default();
    let mut link: Option<String> = None;
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"id" => {
                entry.id = text(reader)
            }
            (ns, Event::Empty(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"category" => {
                entry.type_term = attribute(&e, reader, None, "term").unwrap_or_default();
            }
            (ns, Event::Empty(e) | Event::Start(e))
                if is(&ns, ATOM) && e.local_name().as_ref() == b"link" =>
            {
                let rel = attribute(&e, reader, None, "rel").unwrap_or_default();
                let href = attribute(&e, reader, None, "href").unwrap_or_default();
                let title = attribute(&e, reader, None, "title").unwrap_or_default();
                if rel == "edit" {
                    entry.edit = href;
                } else if rel == format!("{DATA}/relatedlinks/{title}") {
                    entry.associations.insert(title, href);
                } else if rel == format!("{DATA}/related/{title}") {
                    entry.navigations.insert(title.clone(), href);
                    link = Some(title);
                }
            }
            (ns, Event::Start(e)) if is(&ns, METADATA) && e.local_name().as_ref() == b"inline" => {
                let name = link.clone().unwrap_or_default();
                let inline = read_inline(reader);
                entry.inline.insert(name, inline);
            }
            (ns, Event::Empty(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"content" => {
                entry.media_src = attribute(&e, reader, None, "src");
            }
            (ns, Event::Start(e))
                if is(&ns, METADATA) && e.local_name().as_ref() == b"properties" =>
            {
                entry.properties = read_properties(reader);
            }
            (ns, Event::End(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"entry" => {
                return entry
            }
            (_, Event::Eof) => panic!("the entry does not end"),
            _ => {}
        }
    }
}

fn read_inline(reader: &mut NsReader<&[u8]>) -> Vec<AtomEntry> {
    let mut entries = Vec::new();
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, ATOM) && e.local_name().as_ref() == b"entry" => {
                entries.push(read_entry(reader))
            }
            (ns, Event::End(e)) if is(&ns, METADATA) && e.local_name().as_ref() == b"inline" => {
                return entries
            }
            (_, Event::Eof) => panic!("m:inline does not end"),
            _ => {}
        }
    }
}

fn read_properties(reader: &mut NsReader<&[u8]>) -> BTreeMap<String, AtomProperty> {
    let mut properties = BTreeMap::new();
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (ns, Event::Start(e)) if is(&ns, DATA) => {
                let name = String::from_utf8(e.local_name().as_ref().to_vec()).expect("a name");
                let edm = attribute(&e, reader, Some(METADATA), "type");
                let value = text(reader);
                properties.insert(
                    name,
                    AtomProperty {
                        edm,
                        text: Some(value),
                    },
                );
            }
            (ns, Event::Empty(e)) if is(&ns, DATA) => {
                let name = String::from_utf8(e.local_name().as_ref().to_vec()).expect("a name");
                let edm = attribute(&e, reader, Some(METADATA), "type");
                let null = attribute(&e, reader, Some(METADATA), "null").as_deref() == Some("true");
                let text = if null { None } else { Some(String::new()) };
                properties.insert(name, AtomProperty { edm, text });
            }
            (ns, Event::End(e))
                if is(&ns, METADATA) && e.local_name().as_ref() == b"properties" =>
            {
                return properties
            }
            (_, Event::Eof) => panic!("m:properties does not end"),
            _ => {}
        }
    }
}
