//! An Atom entry (and an inline feed) written straight into the response's buffer:
//! its fixed markup as it is, each name, URI and value escaped where it goes. Through
//! quick-xml's events every element and attribute was a buffer of its own, grown
//! attribute by attribute, and every number and URI a string: a third of an Atom
//! page's CPU went to the allocator (docs/benchmarks.md, "Atom written where it
//! goes"). The escaping is `crate::xml`'s, as for every other document we write;
//! `atom_written.rs` checks the output byte for byte.

use std::io::Write as _;

use super::edm::EdmType;
use super::json::{EntityOut, Expanded};
use super::model::NAMESPACE;
use super::value::{DateTimeText, Value};
use crate::xml::{escape_attribute, escape_text};

pub const ATOM: &str = "http://www.w3.org/2005/Atom";
pub const APP: &str = "http://www.w3.org/2007/app";
pub const DATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices";
pub const METADATA: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata";
const SCHEME: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/scheme";
const RELATED: &str = "http://schemas.microsoft.com/ado/2007/08/dataservices/related/";

/// What every document needs besides its entities: the service root (ending in
/// `/`, the documents' `xml:base`) and the time written as `updated`.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub root: &'a str,
    /// `2026-11-24T12:00:00Z`.
    pub updated: &'a str,
}

/// Markup written into a buffer. Writing into memory cannot fail, so nothing
/// here returns an error.
pub(super) struct Markup<'b>(pub &'b mut Vec<u8>);

impl Markup<'_> {
    pub fn raw(&mut self, markup: &str) {
        self.0.extend_from_slice(markup.as_bytes());
    }

    pub fn text(&mut self, text: &str) {
        self.raw(&escape_text(text));
    }

    /// ` name="…"`, the value given in parts, each escaped.
    pub fn attribute(&mut self, name: &str, parts: &[&str]) {
        self.raw(" ");
        self.raw(name);
        self.raw("=\"");
        for part in parts {
            self.raw(&escape_attribute(part));
        }
        self.raw("\"");
    }

    /// `<name>text</name>`.
    pub fn element(&mut self, name: &str, text: &str) {
        self.raw("<");
        self.raw(name);
        self.raw(">");
        self.text(text);
        self.raw("</");
        self.raw(name);
        self.raw(">");
    }

    /// The namespaces and base of a document's root element.
    pub fn namespaces(&mut self, root: &str) {
        self.attribute("xml:base", &[root]);
        self.attribute("xmlns", &[ATOM]);
        self.attribute("xmlns:d", &[DATA]);
        self.attribute("xmlns:m", &[METADATA]);
    }

    /// A feed's `id`, `title`, `updated` and `self` link; `href` (in parts)
    /// relative to the root.
    pub fn feed_head(&mut self, title: &str, href: &[&str], context: Context<'_>) {
        self.raw("<id>");
        self.text(context.root);
        for part in href {
            self.text(part);
        }
        self.raw("</id><title type=\"text\">");
        self.text(title);
        self.raw("</title>");
        self.element("updated", context.updated);
        self.raw("<link rel=\"self\"");
        self.attribute("title", &[title]);
        self.attribute("href", href);
        self.raw("/>");
    }

    /// An entry: with the document's namespaces when it is the root (`top`).
    /// Set, type and navigation names are the catalogue's identifiers and our
    /// constants plain ASCII: they are written as they are, and only the key, the
    /// root, the etag and the values go through the escaping.
    pub fn entry(&mut self, entity: &EntityOut, context: Context<'_>, top: bool) {
        let set = entity.set;
        let key_attribute = escape_attribute(&entity.key_predicate);
        let uri = |out: &mut Self, suffix: &[&str]| {
            out.raw(set.name);
            out.raw("(");
            out.raw(&key_attribute);
            out.raw(")");
            for part in suffix {
                out.raw(part);
            }
            out.raw("\"");
        };
        self.raw("<entry");
        if top {
            self.namespaces(context.root);
        }
        if let Some(etag) = entity.etag() {
            self.attribute("m:etag", &[&etag]);
        }
        self.raw("><id>");
        self.text(context.root);
        self.raw(set.name);
        self.raw("(");
        self.text(&entity.key_predicate);
        self.raw(")</id><category term=\"");
        self.raw(NAMESPACE);
        self.raw(".");
        self.raw(set.type_name);
        self.raw("\" scheme=\"");
        self.raw(SCHEME);
        self.raw("\"/><link rel=\"edit\" title=\"");
        self.raw(set.type_name);
        self.raw("\" href=\"");
        uri(self, &[]);
        self.raw("/>");
        for navigation in set.navigations {
            let name = navigation.name;
            self.raw("<link rel=\"");
            self.raw(RELATED);
            self.raw(name);
            self.raw(if navigation.many {
                "\" type=\"application/atom+xml;type=feed\" title=\""
            } else {
                "\" type=\"application/atom+xml;type=entry\" title=\""
            });
            self.raw(name);
            self.raw("\" href=\"");
            uri(self, &["/", name]);
            match entity.expanded.iter().find(|(n, _)| *n == name) {
                None => self.raw("/>"),
                Some((_, expansion)) => {
                    self.raw("><m:inline>");
                    match expansion {
                        Expanded::One(Some(target)) => self.entry(target, context, false),
                        Expanded::One(None) => {}
                        Expanded::Many(targets) => {
                            self.raw("<feed>");
                            let href = [set.name, "(", &entity.key_predicate, ")/", name];
                            self.feed_head(name, &href, context);
                            for target in targets {
                                self.entry(target, context, false);
                            }
                            self.raw("</feed>");
                        }
                    }
                    self.raw("</m:inline></link>");
                }
            }
        }
        self.raw("<title/>");
        self.element("updated", context.updated);
        self.raw("<author><name/></author>");
        match entity.media_type() {
            Some(media_type) => {
                // A media link entry: its content is the media resource; its
                // properties stand beside it.
                self.raw("<link rel=\"edit-media\" title=\"");
                self.raw(set.type_name);
                self.raw("\" href=\"");
                uri(self, &["/$value"]);
                self.raw("/><content");
                self.attribute("type", &[media_type]);
                self.raw(" src=\"");
                uri(self, &["/$value"]);
                self.raw("/>");
                self.properties(entity);
            }
            None => {
                self.raw("<content type=\"application/xml\">");
                self.properties(entity);
                self.raw("</content>");
            }
        }
        self.raw("</entry>");
    }

    fn properties(&mut self, entity: &EntityOut) {
        self.raw("<m:properties>");
        for (name, value) in &entity.properties {
            self.raw("<d:");
            self.raw(name);
            let declared = entity.set.property(name).map(|p| p.edm);
            if let Some(edm) = declared.filter(|edm| *edm != EdmType::String) {
                self.raw(" m:type=\"");
                self.raw(edm.name());
                self.raw("\"");
            }
            if *value == Value::Null {
                self.raw(" m:null=\"true\"/>");
                continue;
            }
            self.raw(">");
            self.value(value);
            self.raw("</d:");
            self.raw(name);
            self.raw(">");
        }
        self.raw("</m:properties>");
    }

    /// A value in its XML Schema lexical form, written without a string of its own.
    fn value(&mut self, value: &Value) {
        if let Value::String(s) = value {
            return self.text(s);
        }
        let out = &mut *self.0;
        // Writing into a Vec cannot fail.
        let _ = match value {
            Value::Null | Value::String(_) => Ok(()),
            Value::Boolean(b) => out.write_all(if *b { b"true" } else { b"false" }),
            Value::Int16(n) => write!(out, "{n}"),
            Value::Int32(n) => write!(out, "{n}"),
            Value::Int64(n) => write!(out, "{n}"),
            Value::Double(x) => write!(out, "{x}"),
            Value::DateTime(ms) => write!(out, "{}", DateTimeText(*ms)),
        };
    }
}
