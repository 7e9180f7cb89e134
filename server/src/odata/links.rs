//! `$links` documents: the URLs of the entities a navigation property leads to, in
//! each format a client can ask for (OData version 3, "Entity Links"). JSON light
//! writes `url`s under `value`, verbose JSON `uri`s under `d`, and XML a `uri`
//! element (one link) or a `links` element holding them, with `m:count` and `next`
//! in a collection as a feed has them.

use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use serde_json::{json, Map, Value as Json};

use super::atom::{document, text_element, DATA, METADATA};
use super::format::Format;

/// What a `$links` request answers.
pub enum Links<'a> {
    /// `…/$links/Nav` of a to-one navigation, or of one keyed target.
    One(&'a str),
    /// `…/$links/Nav` of a collection: one page of URLs, `count` for
    /// `$inlinecount`, `next` the next page's URL.
    Many {
        urls: &'a [String],
        count: Option<i64>,
        next: Option<&'a str>,
    },
}

/// The JSON document; `context` is the metadata URL,
/// `…/$metadata#Results/$links/Answers`.
pub fn json_document(links: &Links<'_>, format: Format, context: &str) -> Json {
    if format == Format::JsonVerbose {
        return json!({ "d": verbose(links) });
    }
    let mut document = Map::new();
    if format != Format::JsonNoMetadata {
        document.insert("odata.metadata".into(), json!(context));
    }
    match links {
        Links::One(url) => {
            document.insert("url".into(), json!(url));
        }
        Links::Many { urls, count, next } => {
            if let Some(count) = count {
                document.insert("odata.count".into(), json!(count.to_string()));
            }
            let values = urls.iter().map(|url| json!({ "url": url })).collect();
            document.insert("value".into(), Json::Array(values));
            if let Some(next) = next {
                document.insert("odata.nextLink".into(), json!(next));
            }
        }
    }
    Json::Object(document)
}

fn verbose(links: &Links<'_>) -> Json {
    match links {
        Links::One(url) => json!({ "uri": url }),
        Links::Many { urls, count, next } => {
            let mut d = Map::new();
            let values = urls.iter().map(|url| json!({ "uri": url })).collect();
            d.insert("results".into(), Json::Array(values));
            if let Some(count) = count {
                d.insert("__count".into(), json!(count.to_string()));
            }
            if let Some(next) = next {
                d.insert("__next".into(), json!(next));
            }
            Json::Object(d)
        }
    }
}

/// The XML document: `<uri>` for one link, `<links>` for a collection.
pub fn xml_document(links: &Links<'_>) -> Vec<u8> {
    document(|out| match links {
        Links::One(url) => {
            let mut uri = BytesStart::new("uri");
            uri.push_attribute(("xmlns", DATA));
            out.write_event(Event::Start(uri))?;
            out.write_event(Event::Text(BytesText::new(url)))?;
            out.write_event(Event::End(BytesEnd::new("uri")))
        }
        Links::Many { urls, count, next } => {
            let mut start = BytesStart::new("links");
            start.push_attribute(("xmlns", DATA));
            start.push_attribute(("xmlns:m", METADATA));
            out.write_event(Event::Start(start))?;
            if let Some(count) = count {
                text_element(out, "m:count", &count.to_string())?;
            }
            for url in *urls {
                text_element(out, "uri", url)?;
            }
            if let Some(next) = next {
                text_element(out, "next", next)?;
            }
            out.write_event(Event::End(BytesEnd::new("links")))
        }
    })
}
