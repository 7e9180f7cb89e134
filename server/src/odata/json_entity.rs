//! One entity as JSON, written by serde as it goes (JSON light in its three
//! metadata levels, and verbose JSON), with no `serde_json::Value` built first.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::edm::EdmType;
use super::format::Format;
use super::json::{EntityOut, Expanded};
use super::value::{InJson, Value};

/// An entity as the JSON object its format writes (without `odata.metadata`).
pub struct EntityJson<'a> {
    pub(super) entity: &'a EntityOut,
    pub(super) format: Format,
    pub(super) root: &'a str,
}

impl Serialize for EntityJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (entity, format, root) = (self.entity, self.format, self.root);
        let uri = entity.relative_uri();
        let etag = entity.etag();
        let media_type = entity.media_type();
        let mut map = serializer.serialize_map(None)?;
        match format {
            Format::JsonVerbose => map.serialize_entry(
                "__metadata",
                &VerboseMetadata {
                    entity,
                    root,
                    uri: &uri,
                    etag: etag.as_deref(),
                },
            )?,
            Format::JsonFullMetadata => {
                map.serialize_entry("odata.type", &entity.set.qualified_type())?;
                map.serialize_entry("odata.id", &format!("{root}{uri}"))?;
                if let Some(etag) = &etag {
                    map.serialize_entry("odata.etag", etag)?;
                }
                map.serialize_entry("odata.editLink", &uri)?;
            }
            Format::JsonLight => {
                if let Some(etag) = &etag {
                    map.serialize_entry("odata.etag", etag)?;
                }
            }
            Format::JsonNoMetadata | Format::Atom => {}
        }
        let linked = matches!(format, Format::JsonLight | Format::JsonFullMetadata);
        if let (Some(media_type), true) = (media_type, linked) {
            let media = format!("{uri}/$value");
            map.serialize_entry("odata.mediaReadLink", &media)?;
            if format == Format::JsonFullMetadata {
                map.serialize_entry("odata.mediaEditLink", &media)?;
            }
            map.serialize_entry("odata.mediaContentType", media_type)?;
        }
        for (name, value) in &entity.properties {
            if format == Format::JsonFullMetadata {
                // A type JSON cannot tell from the value (Int64 and DateTime travel as
                // strings) is annotated.
                if let Some(edm) = entity.set.property(name).map(|p| p.edm) {
                    if matches!(edm, EdmType::Int64 | EdmType::DateTime) && *value != Value::Null {
                        map.serialize_entry(&format!("{name}@odata.type"), &edm.to_string())?;
                    }
                }
            }
            map.serialize_entry(name, &InJson(value, format))?;
        }
        for navigation in entity.set.navigations {
            let name = navigation.name;
            if format == Format::JsonFullMetadata {
                map.serialize_entry(
                    &format!("{name}@odata.associationLinkUrl"),
                    &format!("{uri}/$links/{name}"),
                )?;
                map.serialize_entry(
                    &format!("{name}@odata.navigationLinkUrl"),
                    &format!("{uri}/{name}"),
                )?;
            }
            let expanded = entity.expanded.iter().find(|(n, _)| *n == name);
            match (expanded, format) {
                (Some((_, Expanded::One(one))), _) => {
                    map.serialize_entry(name, &one.as_deref().map(|e| e.in_json(format, root)))?
                }
                (Some((_, Expanded::Many(many))), Format::JsonVerbose) => {
                    map.serialize_entry(name, &VerboseResults(many, root))?
                }
                (Some((_, Expanded::Many(many))), _) => {
                    map.serialize_entry(name, &Entities(many, format, root))?
                }
                (None, Format::JsonVerbose) => {
                    map.serialize_entry(name, &Deferred(&format!("{root}{uri}/{name}")))?
                }
                (None, _) => {}
            }
        }
        map.end()
    }
}

/// Verbose JSON's `__metadata` object.
struct VerboseMetadata<'a> {
    entity: &'a EntityOut,
    root: &'a str,
    uri: &'a str,
    etag: Option<&'a str>,
}

impl Serialize for VerboseMetadata<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (root, uri) = (self.root, self.uri);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("uri", &format!("{root}{uri}"))?;
        map.serialize_entry("type", &self.entity.set.qualified_type())?;
        if let Some(media_type) = self.entity.media_type() {
            map.serialize_entry("media_src", &format!("{root}{uri}/$value"))?;
            map.serialize_entry("content_type", media_type)?;
        }
        if let Some(etag) = self.etag {
            map.serialize_entry("etag", etag)?;
        }
        map.end()
    }
}

/// Expanded entities as a JSON array.
struct Entities<'a>(&'a [EntityOut], Format, &'a str);

impl Serialize for Entities<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|e| e.in_json(self.1, self.2)))
    }
}

/// Verbose JSON's `{"results": […]}` around expanded entities.
struct VerboseResults<'a>(&'a [EntityOut], &'a str);

impl Serialize for VerboseResults<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("results", &Entities(self.0, Format::JsonVerbose, self.1))?;
        map.end()
    }
}

/// Verbose JSON's `{"__deferred": {"uri": …}}` for a navigation not expanded.
struct Deferred<'a>(&'a str);

impl Serialize for Deferred<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("__deferred", &Uri(self.0))?;
        map.end()
    }
}

struct Uri<'a>(&'a str);

impl Serialize for Uri<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("uri", self.0)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::super::edm::EdmType::{DateTime, Double, Int32, Int64, String as Text};
    use super::super::model::{many, one, prop, EntitySet, Media, MediaType, READ_ONLY};
    use super::*;

    static PAGES: EntitySet = EntitySet {
        name: "Pages",
        type_name: "Page",
        table: "pages",
        key: &["ID"],
        properties: &[
            prop("ID", "id", Int32, false),
            prop("Big", "big", Int64, true),
            prop("At", "at", DateTime, true),
            prop("Name", "name", Text, true),
            prop("Weight", "weight", Double, true),
        ],
        navigations: &[
            one("Parent", "Pages", &[("parent_id", "id")], false),
            many("Children", "Pages", &[("id", "parent_id")]),
        ],
        concurrency: Some("At"),
        filterable: &[],
        media: Some(Media {
            content_column: "content",
            media_type: MediaType::Fixed("image/png"),
        }),
        writes: READ_ONLY,
    };

    fn page(id: i32, big: Value) -> EntityOut {
        EntityOut::new(
            &PAGES,
            vec![
                Value::Int32(id),
                big,
                Value::DateTime(1_795_253_412_123),
                Value::String("a \"quoted\" é".into()),
                Value::Double(f64::NAN),
            ],
            None,
        )
    }

    /// Page 1 with page 2 expanded as its parent and page 3 as its one child.
    fn written(format: Format) -> String {
        let mut first = page(1, Value::Int64(9_007_199_254_740_993));
        first.expanded = vec![
            (
                "Parent",
                Expanded::One(Some(Box::new(page(2, Value::Null)))),
            ),
            ("Children", Expanded::Many(vec![page(3, Value::Null)])),
        ];
        let text = serde_json::to_string(&first.in_json(format, "http://h/s/")).unwrap();
        assert_eq!(
            serde_json::to_value(first.in_json(format, "http://h/s/")).unwrap(),
            first.to_json(format, "http://h/s/"),
            "to_json is the same object"
        );
        text
    }

    const ETAG: &str = r#""W/\"datetime'2026-11-21T09%3A30%3A12.123'\"""#;

    #[test]
    fn minimal_metadata_has_etags_media_links_and_expanded_entities_in_order() {
        let inner = |id: i32| {
            format!(
                r#"{{"odata.etag":{ETAG},"odata.mediaReadLink":"Pages({id})/$value","odata.mediaContentType":"image/png","ID":{id},"Big":null,"At":"2026-11-21T09:30:12.123","Name":"a \"quoted\" é","Weight":null}}"#
            )
        };
        let expected = format!(
            r#"{{"odata.etag":{ETAG},"odata.mediaReadLink":"Pages(1)/$value","odata.mediaContentType":"image/png","ID":1,"Big":"9007199254740993","At":"2026-11-21T09:30:12.123","Name":"a \"quoted\" é","Weight":null,"Parent":{},"Children":[{}]}}"#,
            inner(2),
            inner(3)
        );
        assert_eq!(written(Format::JsonLight), expected);
    }

    #[test]
    fn no_metadata_is_the_properties_alone() {
        let inner = |id: i32| {
            format!(
                r#"{{"ID":{id},"Big":null,"At":"2026-11-21T09:30:12.123","Name":"a \"quoted\" é","Weight":null}}"#
            )
        };
        let expected = format!(
            r#"{{"ID":1,"Big":"9007199254740993","At":"2026-11-21T09:30:12.123","Name":"a \"quoted\" é","Weight":null,"Parent":{},"Children":[{}]}}"#,
            inner(2),
            inner(3)
        );
        assert_eq!(written(Format::JsonNoMetadata), expected);
    }

    #[test]
    fn full_metadata_annotates_types_links_and_navigations() {
        let text = written(Format::JsonFullMetadata);
        let start = format!(
            r#"{{"odata.type":"ScoreDesk.Page","odata.id":"http://h/s/Pages(1)","odata.etag":{ETAG},"odata.editLink":"Pages(1)","odata.mediaReadLink":"Pages(1)/$value","odata.mediaEditLink":"Pages(1)/$value","odata.mediaContentType":"image/png","ID":1,"Big@odata.type":"Edm.Int64","Big":"9007199254740993","At@odata.type":"Edm.DateTime","At":"2026-11-21T09:30:12.123","#
        );
        assert!(text.starts_with(&start), "{text}");
        assert!(
            text.contains(r#""Weight":null,"Parent@odata.associationLinkUrl":"Pages(1)/$links/Parent","Parent@odata.navigationLinkUrl":"Pages(1)/Parent","Parent":{"odata.type":"ScoreDesk.Page","odata.id":"http://h/s/Pages(2)""#),
            "{text}"
        );
        assert!(
            text.contains(r#""ID":2,"Big":null,"At@odata.type""#),
            "a null Int64 is not annotated: {text}"
        );
        assert!(
            text.contains(r#""Children@odata.associationLinkUrl":"Pages(1)/$links/Children","Children@odata.navigationLinkUrl":"Pages(1)/Children","Children":[{"odata.type""#),
            "{text}"
        );
    }

    #[test]
    fn verbose_json_has_metadata_results_and_deferred_links() {
        let text = written(Format::JsonVerbose);
        let start = format!(
            r#"{{"__metadata":{{"uri":"http://h/s/Pages(1)","type":"ScoreDesk.Page","media_src":"http://h/s/Pages(1)/$value","content_type":"image/png","etag":{ETAG}}},"ID":1,"Big":"9007199254740993","At":"/Date(1795253412123)/","#
        );
        assert!(text.starts_with(&start), "{text}");
        assert!(
            text.contains(r#""Children":{"results":[{"__metadata":{"uri":"http://h/s/Pages(3)""#),
            "{text}"
        );
        assert!(
            text.contains(r#""Weight":null,"Parent":{"__deferred":{"uri":"http://h/s/Pages(2)/Parent"}},"Children":{"__deferred":{"uri":"http://h/s/Pages(2)/Children"}}}"#),
            "what page 2 did not expand is deferred: {text}"
        );
    }
}
