//! Several text entries in one item (blanks): read into each blank's keys and
//! values, the blanks numbered in the markup; the shapes of processing that score
//! them (a mapping per blank, a match per blank, all or nothing), and what cannot
//! be marked skipped naming why.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use common::{item, package};
use scoredesk_qti::{Blank, ChoiceScoring, Response};

fn fixture(file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/blanks/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Each blank's keys as `(text, value, case sensitive)`, the scoring, the
/// maximum and the markup of the one item read.
type Read = (Vec<Vec<(String, f64, bool)>>, ChoiceScoring, i32, String);

fn blanks(xml: String) -> Read {
    let package = package(&[("item.xml", xml)], "");
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    let item = &package.items[0];
    let Response::Blanks { blanks, scoring } = &item.response else {
        panic!("{:?}", item.response);
    };
    let keys = blanks
        .iter()
        .map(|blank| {
            blank
                .typed_keys()
                .iter()
                .map(|k| (k.text.clone(), k.mapped_value.unwrap(), k.case_sensitive))
                .collect()
        })
        .collect();
    (keys, scoring.clone(), item.max_score, item.markup.clone())
}

fn keys(blanks: &[&[(&str, f64, bool)]]) -> Vec<Vec<(String, f64, bool)>> {
    blanks
        .iter()
        .map(|keys| keys.iter().map(|(t, v, c)| ((*t).into(), *v, *c)).collect())
        .collect()
}

#[test]
fn a_mapping_per_blank_is_summed_and_the_blanks_are_numbered_in_place() {
    let (read, scoring, max, markup) = blanks(fixture("capitals.xml"));
    assert_eq!(
        read,
        keys(&[
            &[("Paris", 1.0, false)],
            &[("Berlin", 1.0, false), ("Berlín", 1.0, false)],
            &[("1961", 2.0, true)],
        ])
    );
    assert!(matches!(
        scoring,
        ChoiceScoring::MapResponse { default_value, .. } if default_value == 0.0
    ));
    assert_eq!(max, 4, "each blank at its best");
    assert!(
        markup.contains("France is <span class=\"blank\">(1) __________</span>, of Germany <span class=\"blank\">(2) __________</span>"),
        "{markup}"
    );
}

#[test]
fn a_match_per_blank_is_worth_what_its_branch_adds() {
    let (read, scoring, max, _) = blanks(fixture("water.xml"));
    assert_eq!(
        read,
        keys(&[&[("hydrogen", 1.0, true)], &[("oxygen", 1.0, true)]])
    );
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(max, 2);
}

const TWO: &str = r#"<responseDeclaration identifier="A" cardinality="single" baseType="string"><correctResponse><value>hydrogen</value></correctResponse></responseDeclaration><responseDeclaration identifier="B" cardinality="single" baseType="string"><correctResponse><value>oxygen</value></correctResponse></responseDeclaration><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="3"/>"#;
const BODY: &str = r#"<p>Water is <textEntryInteraction responseIdentifier="A"/> and <textEntryInteraction responseIdentifier="B"/>.</p>"#;

#[test]
fn one_branch_over_every_blank_is_all_or_nothing() {
    let processing = r#"<responseProcessing><responseCondition><responseIf><and><match><variable identifier="A"/><correct identifier="A"/></match><match><variable identifier="B"/><correct identifier="B"/></match></and><setOutcomeValue identifier="SCORE"><baseValue baseType="float">3</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>"#;
    let (read, scoring, max, _) = blanks(item("water", TWO, BODY, processing));
    assert_eq!(read.len(), 2);
    assert_eq!(scoring, ChoiceScoring::MatchCorrect);
    assert_eq!(max, 3);
}

#[test]
fn blanks_that_cannot_be_marked_are_skipped_naming_why() {
    let cases = [
        (
            item(
                "template",
                TWO,
                BODY,
                r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#,
            ),
            "scores one response, and the item has 2 blanks",
        ),
        (
            item(
                "half",
                TWO,
                BODY,
                r#"<responseProcessing><responseCondition><responseIf><match><variable identifier="A"/><correct identifier="A"/></match><setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>"#,
            ),
            "blank 2 (B) is not scored by the response processing",
        ),
        (
            item(
                "many",
                &(0..41)
                    .map(|i| format!(r#"<responseDeclaration identifier="R{i}" cardinality="single" baseType="string"/>"#))
                    .collect::<String>(),
                &(0..41)
                    .map(|i| format!(r#"<textEntryInteraction responseIdentifier="R{i}"/>"#))
                    .collect::<String>(),
                "",
            ),
            "41 blanks; a question here takes at most 40",
        ),
        (
            item(
                "mixed",
                TWO,
                r#"<p><textEntryInteraction responseIdentifier="A"/></p><extendedTextInteraction responseIdentifier="B"/>"#,
                "",
            ),
            "textEntryInteraction, extendedTextInteraction",
        ),
    ];
    for (xml, reason) in cases {
        let package = package(&[("item.xml", xml)], "");
        assert!(package.items.is_empty());
        assert!(
            package.skipped[0].reason.contains(reason),
            "{}",
            package.skipped[0].reason
        );
    }
}

/// A number blank within a tolerance of its correct value (`<equal>`), beside a
/// word matched exactly: a range and a word, each worth what its branch adds.
#[test]
fn a_number_blank_within_a_tolerance_is_a_range() {
    let declarations = r#"<responseDeclaration identifier="G" cardinality="single" baseType="float"><correctResponse><value>9.81</value></correctResponse></responseDeclaration><responseDeclaration identifier="U" cardinality="single" baseType="string"><correctResponse><value>m/s²</value></correctResponse></responseDeclaration><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>"#;
    let body = r#"<p>g is <textEntryInteraction responseIdentifier="G"/> in <textEntryInteraction responseIdentifier="U"/>.</p>"#;
    let processing = r#"<responseProcessing><responseCondition><responseIf><equal toleranceMode="absolute" tolerance="0.05"><variable identifier="G"/><correct identifier="G"/></equal><setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/><baseValue baseType="float">2</baseValue></sum></setOutcomeValue></responseIf></responseCondition><responseCondition><responseIf><match><variable identifier="U"/><correct identifier="U"/></match><setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/><baseValue baseType="float">1</baseValue></sum></setOutcomeValue></responseIf></responseCondition></responseProcessing>"#;
    let package = package(
        &[("item.xml", item("g", declarations, body, processing))],
        "",
    );
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    let Response::Blanks { blanks, .. } = &package.items[0].response else {
        panic!("{:?}", package.items[0].response);
    };
    let range = blanks[0].typed_keys()[0].numeric.unwrap();
    assert!((range.low - 9.76).abs() < 1e-9 && (range.high - 9.86).abs() < 1e-9);
    assert_eq!(blanks[0].typed_keys()[0].text, "9.81 ± 0.05");
    assert_eq!(blanks[0].typed_keys()[0].mapped_value, Some(2.0));
    assert_eq!(blanks[1].typed_keys()[0].text, "m/s²");
    assert_eq!(package.items[0].max_score, 3, "2 + 1");
}

/// A picked blank's options as `(text, correct, value)`, in the item's order.
fn options(blank: &Blank) -> (Vec<(String, bool, Option<f64>)>, bool) {
    let Blank::Picked { options, shuffle } = blank else {
        panic!("a typed blank: {blank:?}");
    };
    let options = options
        .iter()
        .map(|o| (o.text.clone(), o.correct, o.mapped_value))
        .collect();
    (options, *shuffle)
}

fn owned(options: &[(&str, bool, Option<f64>)]) -> Vec<(String, bool, Option<f64>)> {
    options
        .iter()
        .map(|(t, c, v)| ((*t).to_owned(), *c, *v))
        .collect()
}

/// QTI 3.0: three inline choices, each with its own list, scored by a sum of
/// matches (each right blank counts 1) as public QTI 3.0 samples write it.
#[test]
fn inline_choices_are_blanks_each_picked_from_its_own_list() {
    let manifest = r#"<manifest identifier="m"><resources><resource identifier="r" type="imsqti_item_xmlv3p0" href="moon.xml"/></resources></manifest>"#;
    let bytes = common::zip(&[
        ("imsmanifest.xml", manifest.to_owned()),
        ("moon.xml", fixture("moon.xml")),
    ]);
    let package = scoredesk_qti::read_package(&bytes).unwrap();
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    let item = &package.items[0];
    let Response::Blanks { blanks, scoring } = &item.response else {
        panic!("{:?}", item.response);
    };
    assert_eq!(blanks.len(), 3);
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(item.max_score, 3, "MAXSCORE");
    let (orbits, shuffled) = options(&blanks[0]);
    assert!(shuffled);
    assert_eq!(
        orbits,
        owned(&[
            ("the Sun", false, None),
            ("the Earth", true, Some(1.0)),
            ("Mars", false, None)
        ])
    );
    let (lit_by, shuffled) = options(&blanks[1]);
    assert!(!shuffled);
    assert_eq!(lit_by[0], ("the Sun".to_owned(), true, Some(1.0)));
    let Blank::Picked { options: days, .. } = &blanks[2] else {
        panic!()
    };
    assert!(days[2].fixed, "365 keeps its place");
    assert_eq!(days[1].text, "27");
    // Each blank numbered in its sentence, its list after the passage by number.
    let markup = item.markup.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        markup.contains("orbits <span class=\"blank\">(1) __________</span>"),
        "{markup}"
    );
    assert!(
        markup.contains("<p class=\"choices\">(3)</p><ol class=\"choices\"><li>7</li>"),
        "{markup}"
    );
    assert!(
        !markup.contains("Well done"),
        "feedback is not the question"
    );
}

/// A number typed, a word picked and a word typed in one passage, each scored into
/// its own outcome and summed; the first branch matching the picked blank gives
/// feedback only.
#[test]
fn typed_and_picked_blanks_mix_in_one_passage() {
    let package = package(&[("journey.xml", fixture("journey.xml"))], "");
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    let item = &package.items[0];
    let Response::Blanks { blanks, .. } = &item.response else {
        panic!("{:?}", item.response);
    };
    let hours = blanks[0].typed_keys();
    assert_eq!(hours.len(), 1);
    assert_eq!(hours[0].text, "2.5 ± 0.1");
    assert_eq!(hours[0].mapped_value, Some(2.0));
    assert_eq!(
        options(&blanks[1]).0,
        owned(&[("more", false, None), ("less", true, Some(1.0))])
    );
    let words: Vec<(&str, Option<f64>, bool)> = blanks[2]
        .typed_keys()
        .iter()
        .map(|k| (k.text.as_str(), k.mapped_value, k.case_sensitive))
        .collect();
    assert_eq!(
        words,
        [("faster", Some(1.0), false), ("quicker", Some(1.0), false)]
    );
    assert_eq!(item.max_score, 4);
    assert!(item
        .markup
        .contains("takes <span class=\"blank\">(1) __________</span> hours"));
    assert!(item
        .markup
        .contains("is <span class=\"blank\">(2) __________</span> than"));
}

/// What cannot be marked skips the item, naming the blank.
#[test]
fn a_picked_blank_that_cannot_be_marked_is_named() {
    let declarations = r#"<responseDeclaration identifier="A" cardinality="single" baseType="identifier"><correctResponse><value>x</value></correctResponse></responseDeclaration><responseDeclaration identifier="B" cardinality="single" baseType="identifier"/><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>"#;
    let body = r#"<p><inlineChoiceInteraction responseIdentifier="A"><inlineChoice identifier="x">x</inlineChoice><inlineChoice identifier="y">y</inlineChoice></inlineChoiceInteraction> and <inlineChoiceInteraction responseIdentifier="B"><inlineChoice identifier="p">p</inlineChoice><inlineChoice identifier="q">q</inlineChoice></inlineChoiceInteraction></p>"#;
    let package = package(&[("item.xml", item("ab", declarations, body, ""))], "");
    assert_eq!(package.items.len(), 0);
    assert!(
        package.skipped[0]
            .reason
            .contains("blank 2 (B) has no correct response"),
        "{:?}",
        package.skipped
    );
}
