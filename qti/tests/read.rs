//! Packages read whole: each interaction as the server will see it, scoring and
//! maxima, topics and bands, and the items skipped with their reasons.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use std::io::Write;

use scoredesk_qti::{read_package, ChoiceScoring, Package, Response, TextScoring};

fn zip(entries: &[(&str, String)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in entries {
        writer
            .start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A package of `items` (`(file, xml)`), listed in the manifest with `metadata` on
/// the first, without a test.
fn package(items: &[(&str, String)], metadata: &str) -> Package {
    let resources: String = items
        .iter()
        .enumerate()
        .map(|(i, (file, _))| {
            let meta = if i == 0 { metadata } else { "" };
            format!(r#"<resource identifier="r{i}" type="imsqti_item_xmlv2p1" href="{file}">{meta}</resource>"#)
        })
        .collect();
    let mut entries = vec![(
        "imsmanifest.xml",
        format!(
            r#"<manifest identifier="m"><metadata><lom><general><title><string>Package title</string></title></general></lom></metadata><resources>{resources}</resources></manifest>"#
        ),
    )];
    entries.extend(items.iter().map(|(f, x)| (*f, x.clone())));
    entries.push(("images/map.png", String::new()));
    let mut bytes = zip(&entries);
    // A real PNG for the drawing's background.
    let mut png = Vec::new();
    image::GrayImage::from_pixel(2, 2, image::Luma([10]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let mut writer = zip::ZipWriter::new_append(std::io::Cursor::new(&mut bytes)).unwrap();
    writer
        .start_file("images/real.png", zip::write::SimpleFileOptions::default())
        .unwrap();
    writer.write_all(&png).unwrap();
    writer.finish().unwrap();
    read_package(&bytes).unwrap()
}

fn item(identifier: &str, declarations: &str, body: &str, processing: &str) -> String {
    format!(
        r#"<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">{declarations}<itemBody>{body}</itemBody>{processing}</assessmentItem>"#
    )
}

#[test]
fn uploads_and_drawings_are_answered_with_images_and_scored_by_a_person() {
    let upload = item(
        "scan",
        r#"<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="6"/>"#,
        r#"<p>Show your working.</p><uploadInteraction responseIdentifier="RESPONSE"><prompt>Photograph it.</prompt></uploadInteraction>"#,
        "",
    );
    let drawing = item(
        "sketch",
        "",
        r#"<drawingInteraction responseIdentifier="RESPONSE"><prompt>Mark the river.</prompt><object type="image/png" data="../images/real.png">a map</object></drawingInteraction>"#,
        "",
    );
    let read = package(
        &[("items/scan.xml", upload), ("items/sketch.xml", drawing)],
        "",
    );
    assert_eq!(
        read.title, "Package title",
        "the manifest's title without a test"
    );
    assert_eq!(read.items[0].response, Response::Image { drawing: false });
    assert_eq!(read.items[0].max_score, 6);
    assert!(read.items[0]
        .markup
        .contains(r#"<p class="prompt">Photograph it.</p>"#));
    assert_eq!(read.items[1].response, Response::Image { drawing: true });
    assert_eq!(read.items[1].max_score, 1, "no maximum declared: 1");
    assert!(
        read.items[1]
            .markup
            .contains(r#"<img src="data:image/png;base64,"#),
        "{}",
        read.items[1].markup
    );
    assert!(read.items[1].notes[0].contains("no maximum declared"));
}

#[test]
fn map_response_choices_take_their_values_and_the_maximum_follows_the_mapping() {
    let mapped = item(
        "mapped",
        r#"<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="identifier">
           <mapping defaultValue="-1" lowerBound="0"><mapEntry mapKey="a" mappedValue="2"/><mapEntry mapKey="b" mappedValue="1"/><mapEntry mapKey="c" mappedValue="-2"/></mapping>
           </responseDeclaration>"#,
        r#"<choiceInteraction responseIdentifier="RESPONSE" shuffle="true" maxChoices="0">
           <simpleChoice identifier="a">Alpha</simpleChoice><simpleChoice identifier="b">Beta</simpleChoice>
           <simpleChoice identifier="c">Gamma</simpleChoice><simpleChoice identifier="d" fixed="true">None of these</simpleChoice></choiceInteraction>"#,
        r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>"#,
    );
    let halves = mapped.replace(r#"mappedValue="1""#, r#"mappedValue="1.5""#);
    let read = package(&[("q.xml", mapped), ("halves.xml", halves)], "");
    let Response::Choice {
        multiple,
        shuffle,
        choices,
        scoring,
        ..
    } = &read.items[0].response
    else {
        panic!("a choice");
    };
    assert!(*multiple && *shuffle);
    assert_eq!(
        *scoring,
        ChoiceScoring::MapResponse {
            default_value: -1.0,
            lower_bound: Some(0.0),
            upper_bound: None
        }
    );
    let correct: Vec<bool> = choices.iter().map(|c| c.correct).collect();
    assert_eq!(
        correct,
        [true, true, false, false],
        "the key is what is worth something"
    );
    assert_eq!(choices[1].mapped_value, Some(1.0));
    assert!(choices[3].fixed);
    assert_eq!(read.items[0].max_score, 3, "the positive values, 2 + 1");
    // 2 + 1.5 is not a whole number: that item is skipped, and says why.
    assert_eq!(read.items.len(), 1);
    assert!(
        read.skipped[0].reason.contains("3.5 is not a whole number"),
        "{:?}",
        read.skipped
    );
}

#[test]
fn a_text_entry_with_a_mapping_is_marked_by_its_keys() {
    let entry = item(
        "capital",
        r#"<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">
           <correctResponse><value>Paris</value></correctResponse>
           <mapping defaultValue="0" upperBound="2"><mapEntry mapKey="Paris" mappedValue="2" caseSensitive="false"/><mapEntry mapKey="Lutetia" mappedValue="1"/></mapping></responseDeclaration>"#,
        r#"<p>The capital of France is <textEntryInteraction responseIdentifier="RESPONSE"/>.</p>"#,
        r#"<responseProcessing template="map_response"/>"#,
    );
    let read = package(&[("q.xml", entry)], "");
    let Response::Text {
        extended: false,
        scoring: TextScoring::Key {
            keys, upper_bound, ..
        },
    } = &read.items[0].response
    else {
        panic!("a keyed text entry: {:?}", read.items[0].response);
    };
    assert_eq!(keys.len(), 2);
    assert!(!keys[0].case_sensitive && keys[1].case_sensitive);
    assert_eq!(*upper_bound, Some(2.0));
    assert_eq!(read.items[0].max_score, 2, "the upper bound");
    assert_eq!(read.items[0].stem, "The capital of France is ____.");
}

#[test]
fn topics_come_from_the_manifests_classification() {
    let essay = item(
        "e",
        "",
        r#"<extendedTextInteraction responseIdentifier="RESPONSE"/>"#,
        "",
    );
    let metadata = r#"<metadata><lom><classification><taxonPath><taxon><entry><string>Science</string></entry></taxon><taxon><entry><string>Cells</string></entry></taxon></taxonPath></classification></lom></metadata>"#;
    let read = package(&[("e.xml", essay)], metadata);
    assert_eq!(read.items[0].topic.as_deref(), Some("Science/Cells"));
    assert_eq!(
        read.items[0].response,
        Response::Text {
            extended: true,
            scoring: TextScoring::Person
        }
    );
}

#[test]
fn items_that_ask_more_or_other_than_one_supported_interaction_are_skipped_with_the_reason() {
    let two = item(
        "two",
        "",
        r#"<extendedTextInteraction responseIdentifier="A"/><extendedTextInteraction responseIdentifier="B"/>"#,
        "",
    );
    let adaptive =
        item("adaptive", "", "<p/>", "").replace(r#"adaptive="false""#, r#"adaptive="true""#);
    let none = item("none", "", "<p>Read this.</p>", "");
    let read = package(
        &[
            ("two.xml", two),
            ("adaptive.xml", adaptive),
            ("none.xml", none),
        ],
        "",
    );
    let reasons: Vec<&str> = read.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(reasons[0].contains("2 interactions"), "{reasons:?}");
    assert!(reasons[1].contains("adaptive"), "{reasons:?}");
    assert!(reasons[2].contains("no interaction"), "{reasons:?}");
}

/// A package that lost some of its files on the way (an image left out of an
/// export, a manifest naming an item not in the zip): each item that needs one is
/// skipped, naming the file, and the others come in; a path out of the package
/// still refuses the whole package.
#[test]
fn an_item_whose_file_is_missing_is_skipped_and_the_others_come_in() {
    let essay = |id: &str, body: &str| {
        item(
            id,
            r#"<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="3"/>"#,
            &format!(r#"{body}<extendedTextInteraction responseIdentifier="RESPONSE"/>"#),
            "",
        )
    };
    let read = package(
        &[
            (
                "items/whole.xml",
                essay(
                    "whole",
                    r#"<p>Draw it. <img src="../images/real.png" alt="a map"/></p>"#,
                ),
            ),
            (
                "items/no-image.xml",
                essay(
                    "no-image",
                    r#"<p>See <img src="../images/chart.png" alt="c"/></p>"#,
                ),
            ),
            (
                "items/no-object.xml",
                essay(
                    "no-object",
                    r#"<object type="image/png" data="lost.png">a chart</object>"#,
                ),
            ),
        ],
        "",
    );
    let kept: Vec<&str> = read.items.iter().map(|i| i.identifier.as_str()).collect();
    assert_eq!(kept, ["whole"]);
    let skipped: Vec<(&str, &str)> = read
        .skipped
        .iter()
        .map(|s| (s.identifier.as_str(), s.reason.as_str()))
        .collect();
    assert_eq!(
        skipped,
        [
            (
                "no-image",
                r#"the package has no file images/chart.png, which <img src="../images/chart.png"> names"#
            ),
            (
                "no-object",
                r#"the package has no file items/lost.png, which <object data="lost.png"> names"#
            ),
        ]
    );

    // The manifest names an item the zip does not hold.
    let manifest = r#"<manifest identifier="m"><resources><resource identifier="a" type="imsqti_item_xmlv2p1" href="items/a.xml"/><resource identifier="b" type="imsqti_item_xmlv2p1" href="items/gone.xml"/></resources></manifest>"#;
    let bytes = zip(&[
        ("imsmanifest.xml", manifest.to_owned()),
        ("items/a.xml", essay("a", "<p>Explain.</p>")),
    ]);
    let read = read_package(&bytes).unwrap();
    assert_eq!(read.items.len(), 1);
    assert_eq!(read.skipped[0].file, "items/gone.xml");
    assert_eq!(
        read.skipped[0].reason,
        "the package has no file items/gone.xml, which its manifest names"
    );

    // A path that leaves the package is hostile, not missing: the package is refused.
    let escaping = zip(&[
        (
            "imsmanifest.xml",
            manifest
                .replace("items/gone.xml", "items/a.xml")
                .replace(r#"identifier="b""#, r#"identifier="c""#),
        ),
        (
            "items/a.xml",
            essay("a", r#"<img src="../../etc/passwd" alt="x"/>"#),
        ),
    ]);
    let refused = read_package(&escaping).unwrap_err();
    assert!(
        refused.to_string().contains("the path leaves the package"),
        "{refused}"
    );
}
