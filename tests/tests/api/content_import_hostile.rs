//! Malformed and hostile QTI packages (docs/content.md, "What is refused"): each is
//! a 400 whose message names the part of the package at fault, and nothing of any
//! of them is stored: every table's row count is as it was. The zip bomb's memory is measured on the command line
//! (server/tests/cli.rs), where the process is the import's alone.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::json;

use crate::qti_packages::{choice_item, import, manifest, own_package, zip};

on_both_backends! {
    malformed_and_hostile_packages_are_refused_naming_the_part => hostile;
}

const ADMIN: &str = "northwind-admin";

/// A package of one item `item` (at `items/q.xml`) and `more` entries beside it.
fn one_item(item: &str, more: Vec<(&'static str, Vec<u8>)>) -> Vec<u8> {
    let mut entries = vec![
        (
            "imsmanifest.xml",
            manifest(&[("q", "imsqti_item_xmlv2p1", "items/q.xml")]).into_bytes(),
        ),
        ("items/q.xml", item.as_bytes().to_vec()),
    ];
    entries.extend(more);
    zip(&entries)
}

fn item_with(stem: &str) -> String {
    choice_item("q", stem, &[("a", "Yes"), ("b", "No")], &["a"])
}

/// `bytes` with every `from` replaced by `to` (of the same length): entry names
/// the zip writer will not write.
fn patched(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut at = 0;
    while let Some(found) = out[at..].windows(from.len()).position(|w| w == from) {
        out[at + found..at + found + to.len()].copy_from_slice(to);
        at += found + to.len();
    }
    out
}

fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    image::GrayImage::from_pixel(4, 4, image::Luma([90]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}

/// `(what it is, the package, words the message must hold)`.
fn corpus() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let good = own_package("Hostile", "a");
    let laughs = format!(
        r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">{}]><assessmentItem identifier="q">&lol9;</assessmentItem>"#,
        (1..10)
            .map(|n| format!(
                r#"<!ENTITY lol{n} "{}">"#,
                format!("&lol{};", n - 1).repeat(10)
            ))
            .collect::<String>()
            .replace("&lol0;", "&lol;")
    );
    let xxe_manifest = r#"<?xml version="1.0"?><!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><manifest identifier="m">&xxe;</manifest>"#;
    let deep = format!(
        r#"<assessmentItem identifier="q"><itemBody>{}{}</itemBody></assessmentItem>"#,
        "<div>".repeat(300),
        "</div>".repeat(300)
    );
    let huge_manifest = format!(
        "{}<!--{}-->",
        manifest(&[("q", "imsqti_item_xmlv2p1", "items/q.xml")]),
        " ".repeat(5 * 1024 * 1024)
    );
    let many: Vec<(String, Vec<u8>)> = (0..20_001)
        .map(|i| (format!("f/{i}"), Vec::new()))
        .collect();
    let many_refs: Vec<(&str, Vec<u8>)> =
        many.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    let unsupported = r#"<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="q" title="q" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>
<itemBody><customInteraction responseIdentifier="RESPONSE"><p>A</p></customInteraction></itemBody></assessmentItem>"#;
    vec![
        ("not a zip", b"this is not a zip file at all".to_vec(), "package: not a zip"),
        ("a truncated zip", good[..good.len() / 2].to_vec(), "package: not a zip"),
        ("an empty zip", zip(&[]), "no imsmanifest.xml"),
        (
            "an entry climbing out of the package (zip slip)",
            one_item(&item_with("Q"), vec![("../../evil.xml", b"x".to_vec())]),
            "../../evil.xml: the path leaves the package",
        ),
        (
            "an absolute entry",
            patched(
                &one_item(&item_with("Q"), vec![("xetc/passwd", b"x".to_vec())]),
                b"xetc/passwd",
                b"/etc/passwd",
            ),
            "/etc/passwd: the path leaves the package",
        ),
        (
            "a backslash entry",
            one_item(&item_with("Q"), vec![("items\\..\\..\\x.xml", b"x".to_vec())]),
            "malformed",
        ),
        (
            "two entries of one name",
            patched(
                &one_item(&item_with("Q"), vec![("items/r.xml", b"<a/>".to_vec())]),
                b"items/r.xml",
                b"items/q.xml",
            ),
            "items/q.xml: the package holds two entries of this name",
        ),
        (
            "an external entity in the manifest (XXE)",
            zip(&[("imsmanifest.xml", xxe_manifest.as_bytes().to_vec())]),
            "imsmanifest.xml: a DOCTYPE is not accepted",
        ),
        (
            "entity expansion in an item (billion laughs)",
            one_item(&laughs, vec![]),
            "items/q.xml: a DOCTYPE is not accepted",
        ),
        (
            "an entity no DTD declares",
            one_item(&item_with("Caf&eacute;"), vec![]),
            "items/q.xml: the entity &eacute;",
        ),
        (
            "a manifest naming a file that is missing",
            zip(&[(
                "imsmanifest.xml",
                manifest(&[("q", "imsqti_item_xmlv2p1", "items/missing.xml")]).into_bytes(),
            )]),
            // The item is skipped; with nothing else, nothing can be imported.
            "no item of the package can be imported: items/missing.xml (): the package has no file items/missing.xml, which its manifest names",
        ),
        (
            "a test naming an item that is missing",
            zip(&[
                (
                    "imsmanifest.xml",
                    manifest(&[("t", "imsqti_test_xmlv2p1", "test.xml")]).into_bytes(),
                ),
                (
                    "test.xml",
                    crate::qti_packages::test_doc("T", &["items/gone.xml"]).into_bytes(),
                ),
            ]),
            "items/gone.xml (): the package has no file items/gone.xml, which its test names",
        ),
        (
            "an image that is missing",
            one_item(&item_with(r#"See <img src="../img/chart.png" alt="c"/>"#), vec![]),
            "items/q.xml (q): the package has no file img/chart.png, which <img src=\"../img/chart.png\"> names",
        ),
        (
            "an image path leaving the package",
            one_item(&item_with(r#"<img src="../../../etc/passwd" alt="x"/>"#), vec![]),
            "<img src=\"../../../etc/passwd\">: the path leaves the package",
        ),
        (
            "an image on another server",
            one_item(&item_with(r#"<img src="http://evil.example/x.png" alt="x"/>"#), vec![]),
            "<img src=\"http://evil.example/x.png\">: it refers outside the package",
        ),
        (
            "an image that is not one",
            one_item(
                &item_with(r#"<img src="x.png" alt="x"/>"#),
                vec![("items/x.png", b"#!/bin/sh\necho not an image\n".to_vec())],
            ),
            "items/x.png: not an image",
        ),
        (
            "an SVG image with a DOCTYPE",
            one_item(
                &item_with(r#"<img src="x.svg" alt="x"/>"#),
                vec![(
                    "items/x.svg",
                    br#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]><svg>&e;</svg>"#.to_vec(),
                )],
            ),
            "items/x.svg: a DOCTYPE is not accepted",
        ),
        (
            "a data URL image that is not base64",
            one_item(&item_with(r#"<img src="data:image/png,raw" alt="x"/>"#), vec![]),
            "a data URL that is not base64",
        ),
        (
            "an unknown item type",
            zip(&[
                (
                    "imsmanifest.xml",
                    manifest(&[("q", "imsqti_item_xmlv9p9", "items/q.xml")]).into_bytes(),
                ),
                ("items/q.xml", item_with("Q").into_bytes()),
            ]),
            "an item type that is not QTI 2.x or 3.0",
        ),
        (
            "an empty QTI 1.2 document",
            zip(&[
                (
                    "imsmanifest.xml",
                    manifest(&[("q", "imsqti_xmlv1p2", "items/q.xml")]).into_bytes(),
                ),
                ("items/q.xml", b"<questestinterop/>".to_vec()),
            ]),
            "it has no items",
        ),
        (
            "an item that is not an item",
            one_item("<html><body>hello</body></html>", vec![]),
            "items/q.xml: the document element is <html>, not an assessment item",
        ),
        ("elements nested 300 deep", one_item(&deep, vec![]), "items/q.xml: elements nest deeper"),
        (
            "a manifest of 5 MiB",
            zip(&[("imsmanifest.xml", huge_manifest.into_bytes())]),
            "imsmanifest.xml: larger than",
        ),
        ("20,001 entries", zip(&many_refs), "package: 20001 entries"),
        (
            "an item that is not UTF-8",
            zip(&[
                (
                    "imsmanifest.xml",
                    manifest(&[("q", "imsqti_item_xmlv2p1", "items/q.xml")]).into_bytes(),
                ),
                ("items/q.xml", {
                    // Latin-1's é, as an editor set to Latin-1 writes it.
                    let mut bytes = item_with("Caf#").into_bytes();
                    let at = bytes.iter().position(|b| *b == b'#').unwrap();
                    bytes[at] = 0xE9;
                    bytes
                }),
            ]),
            "items/q.xml: not UTF-8",
        ),
        (
            "an item that is not well-formed",
            one_item("<assessmentItem identifier=\"q\"><itemBody></assessmentItem>", vec![]),
            "items/q.xml: not well-formed XML",
        ),
        (
            "only interactions that are not imported",
            one_item(unsupported, vec![]),
            "no item of the package can be imported: items/q.xml (q): <customInteraction>",
        ),
        (
            "an image larger than the bound",
            one_item(
                &item_with(r#"<img src="big.png" alt="x"/>"#),
                vec![("items/big.png", {
                    let mut bytes = png();
                    bytes.resize(9 * 1024 * 1024, 0);
                    bytes
                })],
            ),
            "items/big.png: larger than",
        ),
    ]
}

/// Every table of the database.
pub(crate) async fn every_table(app: &TestApp) -> Vec<String> {
    let sql = match app.backend {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        Backend::Postgres => "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    };
    app.sql_strings(sql).await
}

/// Each package refused with a 400 whose message holds its words.
pub(crate) async fn refused(app: &TestApp, cases: Vec<(&'static str, Vec<u8>, &'static str)>) {
    for (what, package, words) in cases {
        let response = import(app, ADMIN, &package, "hostile.zip", false).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{what}");
        let message = odata_error_message(response).await;
        assert!(message.contains(words), "{what}: {message}");
        assert!(
            message.starts_with("ImportQtiPackage: "),
            "{what}: {message}"
        );
    }
}

async fn hostile(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tables = every_table(&app).await;
    let tables: Vec<&str> = tables.iter().map(String::as_str).collect();
    assert!(tables.len() > 30, "{tables:?}");
    let before = app.row_counts(&tables).await;
    let cases = corpus();
    assert!(cases.len() >= 20, "the corpus holds every kind");
    refused(&app, cases).await;
    // The action's own parameters, wrong.
    let call = |body: serde_json::Value| {
        let app = &app;
        async move {
            app.client
                .post(app.url(&format!("{}ImportQtiPackage", app.root())))
                .basic_auth(ADMIN, Some(DEMO_PASSWORD))
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    for (body, words) in [
        (
            json!({"Package": "not base64!"}),
            "Package must be a base64",
        ),
        (json!({"Preview": true}), "Package is required"),
        (
            json!({"Package": "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==", "Preview": "yes"}),
            "Preview must be true or false",
        ),
        (
            json!({"Package": "", "Extra": 1}),
            "Extra is not a parameter",
        ),
    ] {
        let response = call(body.clone()).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(words), "{body}: {message}");
    }
    assert_eq!(
        app.row_counts(&tables).await,
        before,
        "nothing of any refused package is stored, in any table"
    );
}
