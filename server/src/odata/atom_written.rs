//! Atom entries and feeds against hand-checked documents: every part an entry
//! has (etag, edit and media links, navigation links with a to-one and a to-many
//! expansion inline, typed and null properties, text that must be escaped), and a
//! feed's head, `m:count` and `next` link, so that a change to the writer that
//! changes a byte is seen.

use super::atom::{entry_document, Context, FeedPieces};
use super::chunks::Chunks;
use super::edm::EdmType::{Boolean, DateTime, Double, Int16, Int32, Int64, String as Text};
use super::json::{EntityOut, Expanded, FeedHead};
use super::model::{many, one, prop, EntitySet, Media, MediaType, READ_ONLY};
use super::value::Value;

static SHEETS: EntitySet = EntitySet {
    name: "Sheets",
    type_name: "Sheet",
    table: "sheets",
    key: &["Code", "Number"],
    properties: &[
        prop("Code", "code", Text, false),
        prop("Number", "number", Int64, false),
        prop("At", "at", DateTime, true),
        prop("Note", "note", Text, true),
        prop("Weight", "weight", Double, true),
        prop("Small", "small", Int16, true),
        prop("Done", "done", Boolean, true),
        prop("Count", "count", Int32, true),
    ],
    navigations: &[
        one("Scan", "Scans", &[("number", "id")], false),
        many("Scans", "Scans", &[("number", "sheet")]),
    ],
    concurrency: Some("At"),
    filterable: &[],
    media: None,
    writes: READ_ONLY,
};

static SCANS: EntitySet = EntitySet {
    name: "Scans",
    type_name: "Scan",
    table: "scans",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("Label", "label", Text, true),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &[],
    media: Some(Media {
        content_column: "content",
        media_type: MediaType::Fixed("image/png"),
    }),
    writes: READ_ONLY,
};

fn scan(id: i32) -> EntityOut {
    EntityOut::new(
        &SCANS,
        vec![Value::Int32(id), Value::String(format!("scan {id}"))],
        None,
    )
}

fn sheet() -> EntityOut {
    let mut sheet = EntityOut::new(
        &SHEETS,
        vec![
            Value::String("O'Neil & <Co>".into()),
            Value::Int64(9_007_199_254_740_993),
            Value::DateTime(1_795_253_412_123),
            Value::String("a \"note\"\r\nwith é".into()),
            Value::Double(2.5),
            Value::Int16(-3),
            Value::Boolean(true),
            Value::Null,
        ],
        None,
    );
    sheet.expanded = vec![
        ("Scan", Expanded::One(Some(Box::new(scan(7))))),
        ("Scans", Expanded::Many(vec![scan(8), scan(9)])),
    ];
    sheet
}

const CONTEXT: Context<'static> = Context {
    root: "http://h/s/",
    updated: "2026-11-24T12:00:00Z",
};

const DECLARATION: &str = r#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#;
const NAMESPACES: &str = r#"xml:base="http://h/s/" xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata""#;

fn scan_entry(id: i32) -> String {
    format!(
        r#"<entry><id>http://h/s/Scans({id})</id><category term="ScoreDesk.Scan" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/><link rel="edit" title="Scan" href="Scans({id})"/><title/><updated>2026-11-24T12:00:00Z</updated><author><name/></author><link rel="edit-media" title="Scan" href="Scans({id})/$value"/><content type="image/png" src="Scans({id})/$value"/><m:properties><d:ID m:type="Edm.Int32">{id}</d:ID><d:Label>scan {id}</d:Label></m:properties></entry>"#
    )
}

/// The sheet's entry, with `namespaces` (and the space before them) when it is a
/// document's root.
fn sheet_entry(namespaces: &str) -> String {
    // The key's text, escaped once for an attribute and once for text.
    let href =
        "Sheets(Code=&apos;O&apos;&apos;Neil &amp; &lt;Co&gt;&apos;,Number=9007199254740993L)";
    let id = "Sheets(Code='O''Neil &amp; &lt;Co&gt;',Number=9007199254740993L)";
    let related = "http://schemas.microsoft.com/ado/2007/08/dataservices/related";
    [
        format!(r#"<entry{namespaces} m:etag="W/&quot;datetime&apos;2026-11-21T09%3A30%3A12.123&apos;&quot;">"#),
        format!(r#"<id>http://h/s/{id}</id>"#),
        r#"<category term="ScoreDesk.Sheet" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>"#.into(),
        format!(r#"<link rel="edit" title="Sheet" href="{href}"/>"#),
        format!(r#"<link rel="{related}/Scan" type="application/atom+xml;type=entry" title="Scan" href="{href}/Scan"><m:inline>"#),
        scan_entry(7),
        "</m:inline></link>".into(),
        format!(r#"<link rel="{related}/Scans" type="application/atom+xml;type=feed" title="Scans" href="{href}/Scans"><m:inline>"#),
        format!(r#"<feed><id>http://h/s/{id}/Scans</id><title type="text">Scans</title><updated>2026-11-24T12:00:00Z</updated><link rel="self" title="Scans" href="{href}/Scans"/>"#),
        scan_entry(8),
        scan_entry(9),
        "</feed></m:inline></link>".into(),
        r#"<title/><updated>2026-11-24T12:00:00Z</updated><author><name/></author><content type="application/xml"><m:properties>"#.into(),
        "<d:Code>O'Neil &amp; &lt;Co&gt;</d:Code>".into(),
        r#"<d:Number m:type="Edm.Int64">9007199254740993</d:Number>"#.into(),
        r#"<d:At m:type="Edm.DateTime">2026-11-21T09:30:12.123</d:At>"#.into(),
        "<d:Note>a \"note\"&#13;\nwith é</d:Note>".into(),
        r#"<d:Weight m:type="Edm.Double">2.5</d:Weight>"#.into(),
        r#"<d:Small m:type="Edm.Int16">-3</d:Small>"#.into(),
        r#"<d:Done m:type="Edm.Boolean">true</d:Done>"#.into(),
        r#"<d:Count m:type="Edm.Int32" m:null="true"/>"#.into(),
        "</m:properties></content></entry>".into(),
    ]
    .concat()
}

#[test]
fn an_entry_document_has_every_part_in_order() {
    let written = String::from_utf8(entry_document(&sheet(), CONTEXT)).unwrap();
    let expected = format!("{DECLARATION}{}", sheet_entry(&format!(" {NAMESPACES}")));
    assert_eq!(written, expected);
}

#[test]
fn a_feed_has_its_head_count_entries_and_next_link() {
    let head = FeedHead {
        set: &SCANS,
        count: Some(12),
        next: Some("http://h/s/Scans?$skiptoken=9".into()),
        root: "http://h/s/".into(),
    };
    let pieces = FeedPieces::new(head, vec![scan(8), scan(9)], CONTEXT.updated.into());
    let written: Vec<u8> = Chunks::new(pieces).flatten().collect();
    let expected = [
        DECLARATION.to_owned(),
        format!(r#"<feed {NAMESPACES}>"#),
        r#"<id>http://h/s/Scans</id><title type="text">Scans</title><updated>2026-11-24T12:00:00Z</updated><link rel="self" title="Scans" href="Scans"/>"#.into(),
        "<m:count>12</m:count>".into(),
        scan_entry(8),
        scan_entry(9),
        r#"<link rel="next" href="http://h/s/Scans?$skiptoken=9"/></feed>"#.into(),
    ]
    .concat();
    assert_eq!(String::from_utf8(written).unwrap(), expected);
}

#[test]
fn a_feed_of_many_entries_is_every_entry_once_across_chunks() {
    let head = FeedHead {
        set: &SHEETS,
        count: None,
        next: None,
        root: "http://h/s/".into(),
    };
    let sheets = vec![sheet(); 40];
    let pieces = FeedPieces::new(head, sheets, CONTEXT.updated.into());
    let chunks: Vec<_> = Chunks::new(pieces).collect();
    assert!(
        chunks.len() > 1,
        "a page this size is sent in several chunks"
    );
    let written = String::from_utf8(chunks.concat()).unwrap();
    let entry = sheet_entry("");
    assert_eq!(written.matches(&entry).count(), 40);
    assert!(written.ends_with(&format!("{entry}</feed>")));
}
