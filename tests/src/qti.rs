//! QTI content packages for the import tests, over HTTP and in the window: those a
//! third-party tool writes (qti-package-maker from PyPI, upgraded to QTI 3.0 by
//! citolab-qti-convert; Canvas QTI 1.2 from text2qti and qti-package-maker; all
//! installed by scripts/test), and small ones written here, whole or broken.

mod cloze;
mod points;
mod short_answers;
pub use cloze::moodle_cloze;
pub use points::{ims_points_package, stand_in_picture};
pub use short_answers::{fixture_items, numeric_item, short_answer_package};

use std::io::Write;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A package of the third-party tool, in QTI 2.1 and 3.0, and what its items were
/// made from (`tests/fixtures/qti/make_packages.py`).
pub struct ThirdParty {
    pub qti21: Vec<u8>,
    pub qti30: Vec<u8>,
    pub source: Vec<Value>,
}

fn tool(variable: &str) -> String {
    std::env::var(variable).unwrap_or_else(|_| {
        panic!("{variable}: run the tests with scripts/test, which installs the QTI tools")
    })
}

pub fn third_party() -> ThirdParty {
    let dir = tempfile::tempdir().expect("the QTI fixture");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/qti/make_packages.py");
    let status = Command::new(tool("SCOREDESK_QTI_PYTHON"))
        .arg(&script)
        .arg(dir.path())
        .status()
        .expect("the QTI fixture");
    assert!(status.success(), "qti-package-maker wrote the package");
    let qti21 = dir.path().join("third-party-qti21.zip");
    let qti30 = dir.path().join("third-party-qti30.zip");
    let status = Command::new(tool("SCOREDESK_QTI_CONVERT"))
        .arg("upgrade")
        .arg(&qti21)
        .arg(&qti30)
        .status()
        .expect("the QTI fixture");
    assert!(status.success(), "qti-convert upgraded it to QTI 3.0");
    let source: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("source.json")).expect("the QTI fixture"),
    )
    .expect("the QTI fixture");
    ThirdParty {
        qti21: std::fs::read(qti21).expect("the QTI fixture"),
        qti30: std::fs::read(qti30).expect("the QTI fixture"),
        source: source.as_array().expect("the QTI fixture").clone(),
    }
}

/// A QTI 1.2 package (or a Moodle XML bank) a third-party tool wrote, and what its
/// questions were made from (`tests/fixtures/qti/make_qti12.py`, `make_moodle.py`).
pub struct Qti12 {
    pub bytes: Vec<u8>,
    pub source: Vec<Value>,
}

/// text2qti's Canvas export of a plain-text quiz, qti-package-maker's Canvas QTI
/// 1.2 package and its Blackboard pool.
pub fn qti12_packages() -> (Qti12, Qti12, Qti12) {
    let dir = tempfile::tempdir().expect("the QTI 1.2 fixture");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/qti/make_qti12.py");
    let status = Command::new(tool("SCOREDESK_QTI_PYTHON"))
        .arg(&script)
        .arg(dir.path())
        .status()
        .expect("the QTI 1.2 fixture");
    assert!(
        status.success(),
        "text2qti and qti-package-maker wrote the packages"
    );
    let read = |name: &str| Qti12 {
        bytes: std::fs::read(dir.path().join(format!("{name}.zip"))).expect("the QTI 1.2 fixture"),
        source: serde_json::from_slice::<Value>(
            &std::fs::read(dir.path().join(format!("{name}.json"))).expect("the QTI 1.2 fixture"),
        )
        .expect("the QTI 1.2 fixture")
        .as_array()
        .expect("the QTI 1.2 fixture")
        .clone(),
    };
    (
        read("text2qti"),
        read("canvas-qti12"),
        read("blackboard-pool"),
    )
}

/// moodle_questions's Moodle XML bank, and what its questions were made from
/// (`tests/fixtures/qti/make_moodle.py`).
pub fn moodle_bank() -> Qti12 {
    written_by("make_moodle.py", "moodle-bank.xml", "moodle-bank.json")
}

/// What `script` (in `tests/fixtures/qti`) writes with a third-party tool: the
/// file `bank` and the source of its questions, `source` (a JSON array).
fn written_by(script: &str, bank: &str, source: &str) -> Qti12 {
    let dir = tempfile::tempdir().expect("a fixture folder");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/qti")
        .join(script);
    let status = Command::new(tool("SCOREDESK_QTI_PYTHON"))
        .arg(&path)
        .arg(dir.path())
        .status()
        .expect("the fixture's script runs");
    assert!(status.success(), "{script} wrote its fixture");
    let read = |name: &str| std::fs::read(dir.path().join(name)).expect("the fixture's file");
    Qti12 {
        bytes: read(bank),
        source: serde_json::from_slice::<Value>(&read(source))
            .expect("the fixture's source")
            .as_array()
            .expect("the fixture's source")
            .clone(),
    }
}

/// Entries `(name, bytes)` as a zip, deflated.
pub fn zip(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        writer.start_file(*name, options).expect("the QTI fixture");
        writer.write_all(bytes).expect("the QTI fixture");
    }
    writer.finish().expect("the QTI fixture").into_inner()
}

/// A manifest listing `resources` as `(identifier, type, href)`.
pub fn manifest(resources: &[(&str, &str, &str)]) -> String {
    let resources: String = resources
        .iter()
        .map(|(id, kind, href)| {
            format!(r#"<resource identifier="{id}" type="{kind}" href="{href}"><file href="{href}"/></resource>"#)
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="own-manifest">
<metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion></metadata>
<organizations/><resources>{resources}</resources></manifest>"#
    )
}

/// A QTI 2.1 choice item: `choices` as `(identifier, text)`, `correct` identifiers;
/// multiple cardinality when more than one is correct.
pub fn choice_item(
    identifier: &str,
    stem: &str,
    choices: &[(&str, &str)],
    correct: &[&str],
) -> String {
    let cardinality = if correct.len() > 1 {
        "multiple"
    } else {
        "single"
    };
    let values: String = correct
        .iter()
        .map(|c| format!("<value>{c}</value>"))
        .collect();
    let simple: String = choices
        .iter()
        .map(|(id, text)| format!(r#"<simpleChoice identifier="{id}">{text}</simpleChoice>"#))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="{cardinality}" baseType="identifier"><correctResponse>{values}</correctResponse></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="2"/>
<itemBody><p>{stem}</p><choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="0">{simple}</choiceInteraction></itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>"#
    )
}

/// A QTI 2.1 essay worth `max` (scored by a person).
pub fn essay_item(identifier: &str, stem: &str, max: i32) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="{max}"/>
<itemBody><p>{stem}</p><extendedTextInteraction responseIdentifier="RESPONSE" expectedLines="10"><prompt>Give two reasons.</prompt></extendedTextInteraction></itemBody>
</assessmentItem>"#
    )
}

/// A QTI 2.1 text entry marked by map_response: `keys` as `(answer, value)`,
/// matched whatever the case.
pub fn text_entry_item(identifier: &str, stem: &str, keys: &[(&str, f64)]) -> String {
    let entries: String = keys
        .iter()
        .map(|(key, value)| {
            format!(r#"<mapEntry mapKey="{key}" mappedValue="{value}" caseSensitive="false"/>"#)
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"><mapping defaultValue="0">{entries}</mapping></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="2"/>
<itemBody><p>{stem} <textEntryInteraction responseIdentifier="RESPONSE" expectedLength="12"/></p></itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>
</assessmentItem>"#
    )
}

/// A QTI 2.1 test of `items` (hrefs relative to the test file), in order.
pub fn test_doc(title: &str, items: &[&str]) -> String {
    let refs: String = items
        .iter()
        .enumerate()
        .map(|(i, href)| {
            format!(r#"<assessmentItemRef identifier="ref{i}" href="{href}" category="Botany/Plant cells"/>"#)
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentTest xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="own-test" title="{title}">
<outcomeDeclaration identifier="BAND" cardinality="single" baseType="string">
<interpolationTable><interpolationTableEntry sourceValue="0" targetValue="Not yet"/><interpolationTableEntry sourceValue="60" targetValue="Pass"/></interpolationTable>
</outcomeDeclaration>
<testPart identifier="part" navigationMode="linear" submissionMode="individual"><assessmentSection identifier="s" title="S" visible="true">{refs}</assessmentSection></testPart>
</assessmentTest>"#
    )
}

/// A whole package of our own: a single choice, a multiple response, an essay and
/// a text entry, with a test; `single_key` is the single choice's correct identifier (change it
/// to make a changed item).
pub fn own_package(title: &str, single_key: &str) -> Vec<u8> {
    let items = [
        (
            "items/cells.xml",
            choice_item(
                "cells",
                "Where is DNA kept in a plant cell?",
                &[("a", "Nucleus"), ("b", "Vacuole"), ("c", "Cell wall")],
                &[single_key],
            ),
        ),
        (
            "items/organelles.xml",
            choice_item(
                "organelles",
                "Which are organelles?",
                &[
                    ("m", "Mitochondrion"),
                    ("s", "Starch"),
                    ("c", "Chloroplast"),
                ],
                &["m", "c"],
            ),
        ),
        (
            "items/osmosis.xml",
            essay_item("osmosis", "Explain osmosis.", 4),
        ),
        (
            "items/energy.xml",
            text_entry_item(
                "energy",
                "Plants store energy as",
                &[("starch", 2.0), ("glucose", 1.0)],
            ),
        ),
    ];
    let mut entries: Vec<(&str, Vec<u8>)> = vec![
        (
            "imsmanifest.xml",
            manifest(&[
                ("cells", "imsqti_item_xmlv2p1", "items/cells.xml"),
                ("organelles", "imsqti_item_xmlv2p1", "items/organelles.xml"),
                ("osmosis", "imsqti_item_xmlv2p1", "items/osmosis.xml"),
                ("energy", "imsqti_item_xmlv2p1", "items/energy.xml"),
                ("test", "imsqti_test_xmlv2p1", "test.xml"),
            ])
            .into_bytes(),
        ),
        (
            "test.xml",
            test_doc(
                title,
                &[
                    "items/cells.xml",
                    "items/organelles.xml",
                    "items/osmosis.xml",
                    "items/energy.xml",
                ],
            )
            .into_bytes(),
        ),
    ];
    for (name, xml) in items {
        entries.push((name, xml.into_bytes()));
    }
    zip(&entries)
}

/// A paper test: choice questions of `choices` (how many choices, and whether one
/// or several are right), then essays worth `essays`, in that order.
pub fn paper_package(title: &str, choices: &[(usize, bool)], essays: &[i32]) -> Vec<u8> {
    let mut items: Vec<(String, String)> = Vec::new();
    for (index, (count, single)) in choices.iter().enumerate() {
        let ids: Vec<String> = (0..*count).map(|c| format!("c{c}")).collect();
        let texts: Vec<String> = (0..*count).map(|c| format!("Option {}", c + 1)).collect();
        let options: Vec<(&str, &str)> = ids
            .iter()
            .zip(&texts)
            .map(|(id, text)| (id.as_str(), text.as_str()))
            .collect();
        let correct: Vec<&str> = if *single {
            vec![ids[index % count].as_str()]
        } else {
            vec![ids[0].as_str(), ids[count - 1].as_str()]
        };
        let name = format!("q{}", index + 1);
        let xml = choice_item(
            &name,
            &format!("Question {}", index + 1),
            &options,
            &correct,
        );
        items.push((format!("items/{name}.xml"), xml));
    }
    for (index, max) in essays.iter().enumerate() {
        let name = format!("essay{}", index + 1);
        items.push((
            format!("items/{name}.xml"),
            essay_item(&name, "Explain.", *max),
        ));
    }
    let hrefs: Vec<&str> = items.iter().map(|(href, _)| href.as_str()).collect();
    let names: Vec<String> = items
        .iter()
        .map(|(href, _)| {
            href.trim_start_matches("items/")
                .trim_end_matches(".xml")
                .to_owned()
        })
        .collect();
    let mut resources: Vec<(&str, &str, &str)> = names
        .iter()
        .zip(&hrefs)
        .map(|(name, href)| (name.as_str(), "imsqti_item_xmlv2p1", *href))
        .collect();
    resources.push(("test", "imsqti_test_xmlv2p1", "test.xml"));
    let mut entries: Vec<(&str, Vec<u8>)> = vec![
        ("imsmanifest.xml", manifest(&resources).into_bytes()),
        ("test.xml", test_doc(title, &hrefs).into_bytes()),
    ];
    for (href, xml) in &items {
        entries.push((href.as_str(), xml.clone().into_bytes()));
    }
    zip(&entries)
}
