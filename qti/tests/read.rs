//! Packages read whole: each interaction as the server will see it, scoring and
//! maxima, topics and bands, and the items skipped with their reasons.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use common::{item, package, zip};
use scoredesk_qti::{read_package, ChoiceScoring, Response, TextScoring};

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

/// An inline choice (a gap with a list) and a hottext (words of a passage to
/// pick), as the IMS QTI 2.1 examples write them, are choice questions: their
/// choices in order with the key, the gap shown in its sentence and the choices
/// listed after it, the passage kept with its words marked.
#[test]
fn an_inline_choice_and_a_hottext_are_read_as_choices() {
    let declaration = |cardinality: &str, correct: &str| {
        format!(
            r#"<responseDeclaration identifier="RESPONSE" cardinality="{cardinality}" baseType="identifier"><correctResponse>{correct}</correctResponse></responseDeclaration><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>"#
        )
    };
    let match_correct = r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#;
    let inline = item(
        "inlineChoice",
        &declaration("single", "<value>Y</value>"),
        r#"<p>Identify the missing word.</p><blockquote><p>Made glorious summer by this sun of <inlineChoiceInteraction responseIdentifier="RESPONSE" shuffle="false"><inlineChoice identifier="G">Gloucester</inlineChoice><inlineChoice identifier="L">Lancaster</inlineChoice><inlineChoice identifier="Y">York</inlineChoice></inlineChoiceInteraction>; And all the clouds</p></blockquote>"#,
        match_correct,
    );
    let hottext = item(
        "hottext",
        &declaration("multiple", "<value>B</value><value>D</value>"),
        r#"<hottextInteraction responseIdentifier="RESPONSE" maxChoices="2"><prompt>Select the two errors.</prompt><p>Sponsors <hottext identifier="A">who bought</hottext> time <hottext identifier="B">includes</hottext> firms <hottext identifier="D">whose</hottext> names.</p></hottextInteraction>"#,
        match_correct,
    );
    let read = package(&[("inline.xml", inline), ("hottext.xml", hottext)], "");
    assert!(read.skipped.is_empty(), "{:?}", read.skipped);
    let keyed = |index: usize| match &read.items[index].response {
        Response::Choice {
            multiple,
            max_choices,
            choices,
            scoring,
            ..
        } => {
            assert_eq!(*scoring, ChoiceScoring::MatchCorrect);
            (
                *multiple,
                *max_choices,
                choices
                    .iter()
                    .map(|c| (c.identifier.clone(), c.text.clone(), c.correct))
                    .collect::<Vec<_>>(),
            )
        }
        other => panic!("{other:?}"),
    };
    let own = |id: &str, text: &str, correct: bool| (id.to_owned(), text.to_owned(), correct);
    assert_eq!(
        keyed(0),
        (
            false,
            1,
            vec![
                own("G", "Gloucester", false),
                own("L", "Lancaster", false),
                own("Y", "York", true)
            ]
        )
    );
    assert_eq!(
        keyed(1),
        (
            true,
            2,
            vec![
                own("A", "who bought", false),
                own("B", "includes", true),
                own("D", "whose", true)
            ]
        )
    );
    let inline_markup = &read.items[0].markup;
    assert!(
        inline_markup.contains(r#"sun of <span class="blank">__________</span>; And all"#),
        "{inline_markup}"
    );
    assert!(
        inline_markup.ends_with(
            r#"<ol class="choices"><li>Gloucester</li><li>Lancaster</li><li>York</li></ol></div>"#
        ),
        "{inline_markup}"
    );
    assert_eq!(
        read.items[0].stem,
        "Identify the missing word. Made glorious summer by this sun of ____; And all the clouds"
    );
    let hottext_markup = &read.items[1].markup;
    assert!(
        hottext_markup.contains(r#"<p class="prompt">Select the two errors.</p>"#),
        "{hottext_markup}"
    );
    assert_eq!(hottext_markup.matches("Select the two errors").count(), 1);
    assert!(
        hottext_markup.contains(r#"Sponsors <span class="hottext">who bought</span> time"#),
        "{hottext_markup}"
    );

    // An inline choice answers one gap: a multiple response to it is refused by name.
    let multiple = item(
        "m",
        &declaration("multiple", "<value>Y</value>"),
        r#"<p>x <inlineChoiceInteraction responseIdentifier="RESPONSE"><inlineChoice identifier="G">G</inlineChoice><inlineChoice identifier="Y">Y</inlineChoice></inlineChoiceInteraction></p>"#,
        match_correct,
    );
    let read = package(&[("m.xml", multiple)], "");
    assert!(
        read.skipped[0].reason.contains("inline choice"),
        "{:?}",
        read.skipped
    );
}
