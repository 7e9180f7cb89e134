//! Entities, feeds and the service document in the OData version 3 Atom format
//! (and AtomPub), written from the same [`EntityOut`] the JSON writers take, so
//! that a feed cannot exist in one format and not the other: entries and feeds
//! straight into the response's buffer (`atom_entry`), the small documents with
//! quick-xml.
//!
//! An entry: its `id` (the entity's URI), a `category` naming its type, an `edit`
//! link, a link per navigation property (with `m:inline` holding the expansion when
//! there is one; no association link, as WCF Data Services writes none by default:
//! it would make an entry half as large again), `title`, `updated`, `author`, and its properties in
//! `m:properties`, typed with `m:type` and `m:null`. A media link entry's content is
//! `src`, with its properties beside it. A feed: its `id`, `title`, `updated`, a
//! `self` link, `m:count` for `$inlinecount`, the entries, and the `next` link.

use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use super::atom_entry::Markup;
use super::json::{EntityOut, FeedHead};

pub use super::atom_documents::{error_document, service_document, value_document};

pub use super::atom_entry::{Context, APP, ATOM, DATA, METADATA};

pub(super) type Out<'a> = Writer<&'a mut Vec<u8>>;
pub(super) type Written = std::io::Result<()>;

/// A single-entity document.
pub fn entry_document(entity: &EntityOut, context: Context<'_>) -> Vec<u8> {
    document(|out| {
        Markup(out.get_mut()).entry(entity, context, true);
        Ok(())
    })
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

    fn write_head(&self, out: &mut Vec<u8>) {
        let mut out = Markup(out);
        out.raw(DECLARATION);
        out.raw("<feed");
        out.namespaces(&self.head.root);
        out.raw(">");
        let name = self.head.set.name;
        out.feed_head(name, &[name], self.context());
        if let Some(count) = self.head.count {
            out.element("m:count", &count.to_string());
        }
    }

    fn write_tail(&self, out: &mut Vec<u8>) {
        let mut out = Markup(out);
        if let Some(next) = &self.head.next {
            out.raw("<link rel=\"next\"");
            out.attribute("href", &[next]);
            out.raw("/>");
        }
        out.raw("</feed>");
    }
}

impl super::chunks::Pieces for FeedPieces {
    fn write_next(&mut self, buffer: &mut Vec<u8>) -> bool {
        if self.finished {
            return false;
        }
        if !self.started {
            self.started = true;
            self.write_head(buffer);
        } else if let Some(entity) = self.entities.next() {
            Markup(buffer).entry(&entity, self.context(), false);
        } else {
            self.finished = true;
            self.write_tail(buffer);
        }
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

/// What quick-xml writes for `BytesDecl::new("1.0", Some("utf-8"), Some("yes"))`.
const DECLARATION: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#;

fn declaration(out: &mut Out<'_>) -> Written {
    out.get_mut().extend_from_slice(DECLARATION.as_bytes());
    Ok(())
}

pub(super) fn text_element(out: &mut Out<'_>, name: &str, text: &str) -> Written {
    out.write_event(Event::Start(BytesStart::new(name)))?;
    out.write_event(Event::Text(BytesText::from_escaped(
        crate::xml::escape_text(text),
    )))?;
    out.write_event(Event::End(BytesEnd::new(name)))
}
