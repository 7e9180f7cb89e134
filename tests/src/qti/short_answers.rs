//! Packages of short answers (text entries): a keyed word and a number with a
//! tolerance, as the answer-sheet tests print and read them.

use super::{choice_item, manifest, test_doc, text_entry_item, zip};

/// A package of QTI 2.1 item `files` of `qti/tests/fixtures/<folder>` (third-party
/// items kept there, and our own), each a resource, in order, without a test.
pub fn fixture_items(folder: &str, files: &[&str]) -> Vec<u8> {
    let folder = format!(
        "{}/../qti/tests/fixtures/{folder}",
        env!("CARGO_MANIFEST_DIR")
    );
    let items: Vec<Vec<u8>> = files
        .iter()
        .map(|file| std::fs::read(format!("{folder}/{file}")).expect("the fixture item"))
        .collect();
    // A QTI 3.0 item is listed as one.
    let resources: Vec<(&str, &str, &str)> = files
        .iter()
        .zip(&items)
        .map(|(file, xml)| {
            let v3 = String::from_utf8_lossy(xml).contains("imsqtiasi_v3p0");
            let kind = if v3 {
                "imsqti_item_xmlv3p0"
            } else {
                "imsqti_item_xmlv2p1"
            };
            (*file, kind, *file)
        })
        .collect();
    let mut entries = vec![("imsmanifest.xml", manifest(&resources).into_bytes())];
    entries.extend(files.iter().copied().zip(items));
    zip(&entries)
}

/// A QTI 2.1 numeric entry: g to within 0.05, worth 2, as custom processing with
/// `<equal>` writes it.
pub fn numeric_item(identifier: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float"><correctResponse><value>9.81</value></correctResponse></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="2"/>
<itemBody><p>The acceleration of a falling body near the Earth, in m/s²: <textEntryInteraction responseIdentifier="RESPONSE" expectedLength="6"/></p></itemBody>
<responseProcessing><responseCondition><responseIf><equal toleranceMode="absolute" tolerance="0.05"><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></equal><setOutcomeValue identifier="SCORE"><baseValue baseType="float">2</baseValue></setOutcomeValue></responseIf><responseElse><setOutcomeValue identifier="SCORE"><baseValue baseType="float">0</baseValue></setOutcomeValue></responseElse></responseCondition></responseProcessing>
</assessmentItem>"#
    )
}

/// A paper test of short answers: a single choice (the first of three right), a
/// word ("starch" 2, "glucose" 1, any case), a number (9.81 ± 0.05, worth 2) and
/// two blanks ("hydrogen", "oxygen", exactly, 1 each:
/// `qti/tests/fixtures/blanks/water.xml`).
pub fn short_answer_package() -> Vec<u8> {
    let items = [
        (
            "items/cells.xml",
            choice_item(
                "cells",
                "Where is DNA kept in a plant cell?",
                &[("a", "Nucleus"), ("b", "Vacuole"), ("c", "Cell wall")],
                &["a"],
            ),
        ),
        (
            "items/energy.xml",
            text_entry_item(
                "energy",
                "Plants store energy as",
                &[("starch", 2.0), ("glucose", 1.0)],
            ),
        ),
        ("items/gravity.xml", numeric_item("gravity")),
        (
            "items/water.xml",
            std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../qti/tests/fixtures/blanks/water.xml"
            ))
            .expect("the blanks fixture"),
        ),
    ];
    let hrefs: Vec<&str> = items.iter().map(|(href, _)| *href).collect();
    let mut entries: Vec<(&str, Vec<u8>)> = vec![
        (
            "imsmanifest.xml",
            manifest(&[
                ("cells", "imsqti_item_xmlv2p1", "items/cells.xml"),
                ("energy", "imsqti_item_xmlv2p1", "items/energy.xml"),
                ("gravity", "imsqti_item_xmlv2p1", "items/gravity.xml"),
                ("water", "imsqti_item_xmlv2p1", "items/water.xml"),
                ("test", "imsqti_test_xmlv2p1", "test.xml"),
            ])
            .into_bytes(),
        ),
        ("test.xml", test_doc("Short answers", &hrefs).into_bytes()),
    ];
    for (name, xml) in items {
        entries.push((name, xml.into_bytes()));
    }
    zip(&entries)
}
