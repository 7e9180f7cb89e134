//! Entities and feeds in JSON light (minimal, full and no metadata) and verbose JSON.

use serde_json::{json, Map, Value as Json};

use super::format::Format;
pub use super::json_entity::EntityJson;
use super::model::EntitySet;
use super::value::Value;

/// One entity ready to be written.
#[derive(Clone)]
pub struct EntityOut {
    pub set: &'static EntitySet,
    /// `(property name, value)` in declaration order.
    pub properties: Vec<(&'static str, Value)>,
    /// The key predicate, as in `ScoringTasks(QuestionID=1L,ResultID=2)`.
    pub key_predicate: String,
    pub media_type: Option<String>,
    /// Expanded navigation properties.
    pub expanded: Vec<(&'static str, Expanded)>,
}

#[derive(Clone)]
pub enum Expanded {
    One(Option<Box<EntityOut>>),
    Many(Vec<EntityOut>),
}

impl EntityOut {
    /// The entity whose stored properties (as [`EntitySet::stored_properties`] lists
    /// them) have `stored` values; computed properties start out null.
    pub fn new(set: &'static EntitySet, stored: Vec<Value>, media_type: Option<String>) -> Self {
        let mut stored = set.stored_properties().into_iter().zip(stored);
        let mut values: Vec<(&'static str, Value)> = Vec::with_capacity(set.properties.len());
        for property in set.properties {
            let value = if property.column.is_empty() {
                Value::Null
            } else {
                stored.next().map_or(Value::Null, |(_, value)| value)
            };
            values.push((property.name, value));
        }
        let key_of = |name: &str| {
            &values
                .iter()
                .find(|(n, _)| *n == name)
                .expect("keys are properties")
                .1
        };
        let key_predicate = if set.key.len() == 1 {
            key_of(set.key[0]).to_literal()
        } else {
            set.key
                .iter()
                .map(|name| format!("{name}={}", key_of(name).to_literal()))
                .collect::<Vec<_>>()
                .join(",")
        };
        EntityOut {
            set,
            properties: values,
            key_predicate,
            media_type,
            expanded: Vec::new(),
        }
    }

    /// A property's value; the declarations guarantee that it was read.
    pub fn value(&self, name: &str) -> &Value {
        self.properties
            .iter()
            .find(|(property, _)| *property == name)
            .map_or(&Value::Null, |(_, value)| value)
    }

    /// Sets a property computed per request (a signed link) for this answer.
    pub fn set_value(&mut self, name: &str, value: Value) {
        if let Some(slot) = self.properties.iter_mut().find(|(p, _)| *p == name) {
            slot.1 = value;
        }
    }

    /// The entity's ETag: its concurrency token's value, for sets that have one.
    pub fn etag(&self) -> Option<String> {
        let token = self.set.concurrency?;
        Some(super::etag::for_value(self.value(token)))
    }

    /// `Set(key)`, relative to the service root.
    pub fn relative_uri(&self) -> String {
        format!("{}({})", self.set.name, self.key_predicate)
    }

    /// The entity as a JSON object (without the `odata.metadata` annotation).
    pub fn to_json(&self, format: Format, root: &str) -> Json {
        serde_json::to_value(self.in_json(format, root)).expect("an entity is valid JSON")
    }

    /// The entity as a JSON writer writes it: a feed writes its entities straight
    /// into the response (a `serde_json::Value` for each was a quarter of a page's
    /// CPU, docs/benchmarks.md).
    pub fn in_json<'a>(&'a self, format: Format, root: &'a str) -> EntityJson<'a> {
        EntityJson {
            entity: self,
            format,
            root,
        }
    }

    /// The media resource's type, for media link entries.
    pub fn media_type(&self) -> Option<&str> {
        match (&self.set.media, &self.media_type) {
            (Some(_), Some(media_type)) => Some(media_type),
            (Some(media), None) => match media.media_type {
                super::model::MediaType::Fixed(fixed) => Some(fixed),
                super::model::MediaType::Column(_) => None,
            },
            (None, _) => None,
        }
    }
}

/// A single-entity response body (JSON; Atom is `atom::entry_document`). A feed is
/// [`FeedPieces`].
pub fn entity_document(entity: &EntityOut, format: Format, root: &str) -> Json {
    let body = entity.to_json(format, root);
    match format {
        Format::JsonVerbose => json!({ "d": body }),
        Format::JsonNoMetadata | Format::Atom => body,
        Format::JsonLight | Format::JsonFullMetadata => {
            let mut document = Map::new();
            document.insert(
                "odata.metadata".into(),
                json!(format!("{root}$metadata#{}/@Element", entity.set.name)),
            );
            if let Json::Object(properties) = body {
                document.extend(properties);
            }
            Json::Object(document)
        }
    }
}

/// What a feed document says besides its entities.
pub struct FeedHead {
    pub set: &'static EntitySet,
    /// `$inlinecount`'s count.
    pub count: Option<i64>,
    /// The next page's URL.
    pub next: Option<String>,
    /// The service root, ending in `/`.
    pub root: String,
}

/// A feed in JSON, written entity by entity (see [`super::chunks`]).
pub struct FeedPieces {
    head: FeedHead,
    format: Format,
    entities: std::vec::IntoIter<EntityOut>,
    stage: Stage,
}

#[derive(PartialEq)]
enum Stage {
    Head,
    First,
    Rest,
    Done,
}

impl FeedPieces {
    pub fn new(head: FeedHead, entities: Vec<EntityOut>, format: Format) -> Self {
        FeedPieces {
            head,
            format,
            entities: entities.into_iter(),
            stage: Stage::Head,
        }
    }

    /// `{"odata.metadata": …, "odata.count": …, "value": [` or `{"d": {"results": [`.
    fn write_head(&self, out: &mut Vec<u8>) {
        let head = &self.head;
        if self.format == Format::JsonVerbose {
            out.extend_from_slice(br#"{"d":{"results":["#);
            return;
        }
        out.push(b'{');
        if self.format != Format::JsonNoMetadata {
            let context = format!("{}$metadata#{}", head.root, head.set.name);
            write_member(out, "odata.metadata", &context);
            out.push(b',');
        }
        if let Some(count) = head.count {
            write_member(out, "odata.count", &count.to_string());
            out.push(b',');
        }
        out.extend_from_slice(br#""value":["#);
    }

    /// `]`, then the count and next link where the format puts them, and the ends.
    fn write_tail(&self, out: &mut Vec<u8>) {
        out.push(b']');
        let head = &self.head;
        if self.format == Format::JsonVerbose {
            if let Some(count) = head.count {
                out.push(b',');
                write_member(out, "__count", &count.to_string());
            }
            if let Some(next) = &head.next {
                out.push(b',');
                write_member(out, "__next", next);
            }
            out.extend_from_slice(b"}}");
            return;
        }
        if let Some(next) = &head.next {
            out.push(b',');
            write_member(out, "odata.nextLink", next);
        }
        out.push(b'}');
    }
}

impl super::chunks::Pieces for FeedPieces {
    fn write_next(&mut self, out: &mut Vec<u8>) -> bool {
        match self.stage {
            Stage::Head => {
                self.write_head(out);
                self.stage = Stage::First;
            }
            Stage::First | Stage::Rest => match self.entities.next() {
                Some(entity) => {
                    if self.stage == Stage::Rest {
                        out.push(b',');
                    }
                    serde_json::to_writer(&mut *out, &entity.in_json(self.format, &self.head.root))
                        .expect("an entity writes into memory");
                    self.stage = Stage::Rest;
                }
                None => {
                    self.write_tail(out);
                    self.stage = Stage::Done;
                }
            },
            Stage::Done => return false,
        }
        true
    }
}

/// `"name":"text"`, the text escaped as JSON.
fn write_member(out: &mut Vec<u8>, name: &str, text: &str) {
    serde_json::to_writer(&mut *out, name).expect("a string writes into memory");
    out.push(b':');
    serde_json::to_writer(&mut *out, text).expect("a string writes into memory");
}
