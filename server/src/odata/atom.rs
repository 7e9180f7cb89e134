//! Entities, feeds and the service document in the OData version 3 Atom format
//! (and AtomPub), written with quick-xml from the same [`EntityOut`] the JSON
//! writers take, so that a feed cannot exist in one format and not the other.
//!
//! An entry: its `id` (the entity's URI), a `category` naming its type, an `edit`
//! link, a link per navigation property (with `m:inline` holding the expansion when
//! there is one; no association link, as WCF Data Services writes none by default:
//! it would make an entry half as large again), `title`, `updated`, `author`, and its properties in
//! `m:properties`, typed with `m:type` and `m:null`. A media link entry's content is
//! `src`, with its properties beside it. A feed: its `id`, `title`, `updated`, a
//! `self` link, `m:count` for `$inlinecount`, the entries, and the `next` link.

use std::borrow::Cow;

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::edm::EdmType;
use super::json::{EntityOut, Expanded, FeedHead};
use super::value::{format_datetime, Value};

pub use super::atom_documents::{error_document, service_document, value_document};

pub const ATOM: &str = "http://www.w3.org/2005/Atom";
pub const APP: &str = "http://www.w3.org/2007/app";
pub const DATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices";
pub const METADATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata";
const SCHEME: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/scheme";
const RELATED: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/related/";

pub(super) type Out<'a> = Writer<&'a mut Vec<u8>>;
pub(super) type Written = std::io::Result<()>;

/// What every document needs besides its entities: the service root (ending in
/// `/`, the documents' `xml:base`) and the time written as `updated`.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub root: &'a str,
    /// `2026-11-24T12:00:00Z`.
    pub updated: &'a str,
}

/// A single-entity document.
pub fn entry_document(entity: &EntityOut, context: Context<'_>) -> Vec<u8> {
    document(|out| entry(out, entity, context, true))
}

/// A feed in Atom, written entry by entry (see [`super::chunks`]): the head with
/// `m:count` for `$inlinecount`, the entries, the `next` link.
pub struct FeedPieces {
    head: FeedHead,
    /// `updated` for the feed and its entries.
    updated: String,
    entities: std::vec::IntoIter<EntityOut>,
    started: bool,
    finished: bool,
}

impl FeedPieces {
    pub fn new(head: FeedHead, entities: Vec<EntityOut>, updated: String) -> Self {
        FeedPieces {
            head,
            updated,
            entities: entities.into_iter(),
            started: false,
            finished: false,
        }
    }

    fn context(&self) -> Context<'_> {
        Context {
            root: &self.head.root,
            updated: &self.updated,
        }
    }

    fn write_head(&self, out: &mut Out<'_>) -> Written {
        declaration(out)?;
        let mut start = BytesStart::new("feed");
        namespaces(&mut start, &self.head.root);
        out.write_event(Event::Start(start))?;
        let name = self.head.set.name;
        feed_head(out, name, name, self.context())?;
        if let Some(count) = self.head.count {
            text_element(out, "m:count", &count.to_string())?;
        }
        Ok(())
    }

    fn write_tail(&self, out: &mut Out<'_>) -> Written {
        if let Some(next) = &self.head.next {
            let mut link = BytesStart::new("link");
            link.push_attribute(("rel", "next"));
            link.push_attribute(("href", next.as_str()));
            out.write_event(Event::Empty(link))?;
        }
        out.write_event(Event::End(BytesEnd::new("feed")))
    }
}

impl super::chunks::Pieces for FeedPieces {
    fn write_next(&mut self, buffer: &mut Vec<u8>) -> bool {
        if self.finished {
            return false;
        }
        let mut out = Writer::new(buffer);
        let written = if !self.started {
            self.started = true;
            self.write_head(&mut out)
        } else if let Some(entity) = self.entities.next() {
            entry(&mut out, &entity, self.context(), false)
        } else {
            self.finished = true;
            self.write_tail(&mut out)
        };
        // Writing into memory cannot fail.
        debug_assert!(written.is_ok());
        true
    }
}

pub(super) fn document(body: impl FnOnce(&mut Out<'_>) -> Written) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(4 * 1024);
    let mut out = Writer::new(&mut buffer);
    let written = declaration(&mut out).and_then(|()| body(&mut out));
    // Writing into memory cannot fail.
    debug_assert!(written.is_ok());
    buffer
}

fn declaration(out: &mut Out<'_>) -> Written {
    out.write_event(Event::Decl(BytesDecl::new(
        "1.0",
        Some("utf-8"),
        Some("yes"),
    )))
}

fn namespaces(start: &mut BytesStart<'_>, root: &str) {
    start.push_attribute(("xml:base", root));
    start.push_attribute(("xmlns", ATOM));
    start.push_attribute(("xmlns:d", DATA));
    start.push_attribute(("xmlns:m", METADATA));
}

pub(super) fn text_element(out: &mut Out<'_>, name: &str, text: &str) -> Written {
    out.write_event(Event::Start(BytesStart::new(name)))?;
    out.write_event(Event::Text(BytesText::from_escaped(
        crate::xml::escape_text(text),
    )))?;
    out.write_event(Event::End(BytesEnd::new(name)))
}

/// A feed's `id`, `title`, `updated` and `self` link; `href` relative to the root.
fn feed_head(out: &mut Out<'_>, title: &str, href: &str, context: Context<'_>) -> Written {
    text_element(out, "id", &format!("{}{href}", context.root))?;
    let mut heading = BytesStart::new("title");
    heading.push_attribute(("type", "text"));
    out.write_event(Event::Start(heading))?;
    out.write_event(Event::Text(BytesText::from_escaped(
        crate::xml::escape_text(title),
    )))?;
    out.write_event(Event::End(BytesEnd::new("title")))?;
    text_element(out, "updated", context.updated)?;
    let mut link = BytesStart::new("link");
    link.push_attribute(("rel", "self"));
    link.push_attribute(("title", title));
    link.push_attribute(("href", href));
    out.write_event(Event::Empty(link))
}

fn entry(out: &mut Out<'_>, entity: &EntityOut, context: Context<'_>, top: bool) -> Written {
    let uri = entity.relative_uri();
    let mut start = BytesStart::new("entry");
    if top {
        namespaces(&mut start, context.root);
    }
    let etag = entity.etag();
    if let Some(etag) = &etag {
        start.push_attribute(("m:etag", etag.as_str()));
    }
    out.write_event(Event::Start(start))?;
    text_element(out, "id", &format!("{}{uri}", context.root))?;
    let mut category = BytesStart::new("category");
    let type_name = entity.set.qualified_type();
    category.push_attribute(("term", type_name.as_str()));
    category.push_attribute(("scheme", SCHEME));
    out.write_event(Event::Empty(category))?;
    let mut edit = BytesStart::new("link");
    edit.push_attribute(("rel", "edit"));
    edit.push_attribute(("title", entity.set.type_name));
    edit.push_attribute(("href", uri.as_str()));
    out.write_event(Event::Empty(edit))?;
    for navigation in entity.set.navigations {
        let rel = format!("{RELATED}{}", navigation.name);
        let kind = if navigation.many {
            "application/atom+xml;type=feed"
        } else {
            "application/atom+xml;type=entry"
        };
        let href = format!("{uri}/{}", navigation.name);
        let mut link = BytesStart::new("link");
        link.push_attribute(("rel", rel.as_str()));
        link.push_attribute(("type", kind));
        link.push_attribute(("title", navigation.name));
        link.push_attribute(("href", href.as_str()));
        let expanded = entity
            .expanded
            .iter()
            .find(|(name, _)| *name == navigation.name);
        match expanded {
            None => out.write_event(Event::Empty(link))?,
            Some((_, expansion)) => {
                out.write_event(Event::Start(link))?;
                out.write_event(Event::Start(BytesStart::new("m:inline")))?;
                match expansion {
                    Expanded::One(Some(target)) => entry(out, target, context, false)?,
                    Expanded::One(None) => {}
                    Expanded::Many(targets) => {
                        out.write_event(Event::Start(BytesStart::new("feed")))?;
                        feed_head(out, navigation.name, &href, context)?;
                        for target in targets {
                            entry(out, target, context, false)?;
                        }
                        out.write_event(Event::End(BytesEnd::new("feed")))?;
                    }
                }
                out.write_event(Event::End(BytesEnd::new("m:inline")))?;
                out.write_event(Event::End(BytesEnd::new("link")))?;
            }
        }
    }
    out.write_event(Event::Empty(BytesStart::new("title")))?;
    text_element(out, "updated", context.updated)?;
    out.write_event(Event::Start(BytesStart::new("author")))?;
    out.write_event(Event::Empty(BytesStart::new("name")))?;
    out.write_event(Event::End(BytesEnd::new("author")))?;
    match entity.media_type() {
        Some(media_type) => {
            // A media link entry: its content is the media resource; its
            // properties stand beside it.
            let media = format!("{uri}/$value");
            let mut link = BytesStart::new("link");
            link.push_attribute(("rel", "edit-media"));
            link.push_attribute(("title", entity.set.type_name));
            link.push_attribute(("href", media.as_str()));
            out.write_event(Event::Empty(link))?;
            let mut content = BytesStart::new("content");
            content.push_attribute(("type", media_type));
            content.push_attribute(("src", media.as_str()));
            out.write_event(Event::Empty(content))?;
            properties(out, entity)?;
        }
        None => {
            let mut content = BytesStart::new("content");
            content.push_attribute(("type", "application/xml"));
            out.write_event(Event::Start(content))?;
            properties(out, entity)?;
            out.write_event(Event::End(BytesEnd::new("content")))?;
        }
    }
    out.write_event(Event::End(BytesEnd::new("entry")))
}

fn properties(out: &mut Out<'_>, entity: &EntityOut) -> Written {
    out.write_event(Event::Start(BytesStart::new("m:properties")))?;
    // One buffer for every element's name: a page writes thousands of them.
    let mut element = String::with_capacity(40);
    for (name, value) in &entity.properties {
        element.clear();
        element.push_str("d:");
        element.push_str(name);
        let mut start = BytesStart::new(element.as_str());
        let declared = entity.set.property(name).map(|p| p.edm);
        if let Some(edm) = declared.filter(|edm| *edm != EdmType::String) {
            start.push_attribute(("m:type", edm.name()));
        }
        match atom_text(value) {
            None => {
                start.push_attribute(("m:null", "true"));
                out.write_event(Event::Empty(start))?;
            }
            Some(text) => {
                out.write_event(Event::Start(start))?;
                out.write_event(Event::Text(BytesText::from_escaped(
                    crate::xml::escape_text(&text),
                )))?;
                out.write_event(Event::End(BytesEnd::new(element.as_str())))?;
            }
        }
    }
    out.write_event(Event::End(BytesEnd::new("m:properties")))
}

/// A value as Atom writes it: the XML Schema lexical form; `None` for null.
fn atom_text(value: &Value) -> Option<Cow<'_, str>> {
    Some(match value {
        Value::Null => return None,
        Value::String(s) => Cow::Borrowed(s.as_str()),
        Value::Boolean(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Value::Int16(n) => Cow::Owned(n.to_string()),
        Value::Int32(n) => Cow::Owned(n.to_string()),
        Value::Int64(n) => Cow::Owned(n.to_string()),
        Value::Double(x) => Cow::Owned(x.to_string()),
        Value::DateTime(ms) => Cow::Owned(format_datetime(*ms)),
    })
}
