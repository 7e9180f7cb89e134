//! Match, gap match and order interactions: the IMS specification's own example
//! items read into rows, options and scoring pairs, checked against what the
//! items say; and items of these kinds that cannot be marked skipped with why.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use common::{ims, item, package};
use scoredesk_qti::{ChoiceScoring, PairKey, Response};

/// The rows, options and `(row, option, correct, value)` of the one item read.
fn matching(
    file: &str,
    xml: String,
) -> (Vec<String>, Vec<String>, Vec<PairKey>, ChoiceScoring, i32) {
    let package = package(&[(file, xml)], "");
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    let item = &package.items[0];
    let Response::Matching {
        rows,
        options,
        pairs,
        scoring,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    let options = options.iter().map(|o| o.text.clone()).collect();
    (
        rows.clone(),
        options,
        pairs.clone(),
        scoring.clone(),
        item.max_score,
    )
}

fn pair(row: usize, option: usize, correct: bool, value: Option<f64>) -> PairKey {
    PairKey {
        row,
        option,
        correct,
        mapped_value: value,
    }
}

#[test]
fn the_ims_match_item_pairs_characters_with_plays() {
    let (rows, options, pairs, scoring, max) = matching("match.xml", ims("match.xml"));
    assert_eq!(rows, ["Capulet", "Demetrius", "Lysander", "Prospero"]);
    assert_eq!(
        options,
        [
            "A Midsummer-Night's Dream",
            "Romeo and Juliet",
            "The Tempest"
        ]
    );
    // C R 1, D M 0.5, L M 0.5, P T 1 (the item's mapping).
    assert_eq!(
        pairs,
        [
            pair(0, 1, true, Some(1.0)),
            pair(1, 0, true, Some(0.5)),
            pair(2, 0, true, Some(0.5)),
            pair(3, 2, true, Some(1.0)),
        ]
    );
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(max, 3, "the best answer's sum");
}

#[test]
fn the_ims_gap_match_item_fills_its_gaps_with_words() {
    let xml = ims("gap_match.xml");
    let package = package(&[("gap_match.xml", xml.clone())], "");
    let markup = &package.items[0].markup;
    assert!(
        markup.contains("Now is the <span class=\"gap\">(1) __________</span> of our discontent"),
        "{markup}"
    );
    assert!(markup.contains("(2) __________"), "{markup}");
    let (rows, options, pairs, scoring, max) = matching("gap_match.xml", xml);
    assert_eq!(rows, ["Gap 1", "Gap 2"]);
    assert_eq!(options, ["winter", "spring", "summer", "autumn"]);
    // "W G1" and "Su G2": the word first, then its gap.
    assert_eq!(
        pairs,
        [pair(0, 0, true, Some(1.0)), pair(1, 2, true, Some(2.0))]
    );
    assert_eq!(
        scoring,
        ChoiceScoring::MapResponse {
            default_value: -1.0,
            lower_bound: Some(0.0),
            upper_bound: None
        }
    );
    assert_eq!(max, 3);
}

#[test]
fn the_ims_order_item_pairs_each_position_with_its_driver() {
    let (rows, options, pairs, scoring, max) = matching("order.xml", ims("order.xml"));
    assert_eq!(rows, ["Position 1", "Position 2", "Position 3"]);
    assert_eq!(
        options,
        ["Rubens Barrichello", "Jenson Button", "Michael Schumacher"]
    );
    // DriverC, DriverA, DriverB.
    assert_eq!(
        pairs,
        [
            pair(0, 2, true, None),
            pair(1, 0, true, None),
            pair(2, 1, true, None)
        ]
    );
    assert_eq!(scoring, ChoiceScoring::MatchCorrect);
    assert_eq!(max, 1);
}

fn match_item(values: &str, processing: &str) -> String {
    item(
        "m",
        &format!(
            r#"<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair"><correctResponse>{values}</correctResponse></responseDeclaration>"#
        ),
        r#"<matchInteraction responseIdentifier="RESPONSE"><simpleMatchSet><simpleAssociableChoice identifier="a">A</simpleAssociableChoice><simpleAssociableChoice identifier="b">B</simpleAssociableChoice></simpleMatchSet><simpleMatchSet><simpleAssociableChoice identifier="x">X</simpleAssociableChoice><simpleAssociableChoice identifier="y">Y</simpleAssociableChoice></simpleMatchSet></matchInteraction>"#,
        processing,
    )
}

#[test]
fn matchings_that_cannot_be_marked_are_skipped_with_why() {
    let template = r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#;
    let cases = [
        (
            match_item("<value>a z</value>", template),
            "does not pair a row with an option",
        ),
        (
            match_item("<value>a x</value><value>a y</value>", template),
            "a row here takes one option",
        ),
        (
            match_item("<value>a</value>", template),
            "not a pair of two identifiers",
        ),
        (
            match_item("", template),
            "match_correct without a correct response",
        ),
        (
            match_item(
                "<value>a x</value>",
                r#"<responseProcessing><responseCondition><responseIf><isNull><variable identifier="RESPONSE"/></isNull></responseIf></responseCondition></responseProcessing>"#,
            ),
            "custom response processing",
        ),
    ];
    for (xml, reason) in cases {
        let package = package(&[("m.xml", xml)], "");
        assert!(package.items.is_empty());
        assert!(
            package.skipped[0].reason.contains(reason),
            "{}: {}",
            reason,
            package.skipped[0].reason
        );
    }
}

#[test]
fn a_matching_past_the_paper_bounds_is_skipped_naming_them() {
    let rows: String = (0..41)
        .map(|i| {
            format!(r#"<simpleAssociableChoice identifier="r{i}">Row {i}</simpleAssociableChoice>"#)
        })
        .collect();
    let options: String = (0..27)
        .map(|i| {
            format!(
                r#"<simpleAssociableChoice identifier="o{i}">Option {i}</simpleAssociableChoice>"#
            )
        })
        .collect();
    let item_of = |rows: &str, options: &str| {
        item(
            "big",
            r#"<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="directedPair"><correctResponse><value>r0 o0</value></correctResponse></responseDeclaration>"#,
            &format!(
                r#"<matchInteraction responseIdentifier="RESPONSE"><simpleMatchSet>{rows}</simpleMatchSet><simpleMatchSet>{options}</simpleMatchSet></matchInteraction>"#
            ),
            r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#,
        )
    };
    let two = r#"<simpleAssociableChoice identifier="o0">A</simpleAssociableChoice><simpleAssociableChoice identifier="o1">B</simpleAssociableChoice>"#;
    let row = r#"<simpleAssociableChoice identifier="r0">Row</simpleAssociableChoice>"#;
    for (xml, reason) in [
        (item_of(&rows, two), "41 rows to match; at most 40"),
        (item_of(row, &options), "27 options to pick from; 2 to 26"),
    ] {
        let package = package(&[("big.xml", xml)], "");
        assert!(
            package.skipped[0].reason.contains(reason),
            "{:?}",
            package.skipped
        );
    }
}

/// The IMS associate item (three pairs of rivals among six characters) is a
/// multiple response over its fifteen candidate pairs, each pair's mapped value
/// read whichever way round the mapping writes it.
#[test]
fn the_ims_associate_item_is_a_choice_of_pairs() {
    let package = package(&[("associate.xml", ims("associate.xml"))], "");
    assert!(package.skipped.is_empty(), "{:?}", package.skipped);
    let item = &package.items[0];
    let Response::Choice {
        multiple,
        max_choices,
        choices,
        scoring,
        ..
    } = &item.response
    else {
        panic!("{:?}", item.response);
    };
    assert!(*multiple);
    assert_eq!(*max_choices, 3, "maxAssociations");
    assert_eq!(choices.len(), 15, "6 choose 2");
    assert_eq!(choices[0].text, "Antonio – Capulet");
    let right: Vec<(&str, Option<f64>)> = choices
        .iter()
        .filter(|c| c.correct)
        .map(|c| (c.text.as_str(), c.mapped_value))
        .collect();
    assert_eq!(
        right,
        [
            ("Antonio – Prospero", Some(2.0)),
            ("Capulet – Montague", Some(1.0)),
            ("Demetrius – Lysander", Some(1.0))
        ]
    );
    assert!(matches!(scoring, ChoiceScoring::MapResponse { .. }));
    assert_eq!(item.max_score, 4, "the best pairs summed");
    assert!(
        item.markup.contains("<li>Lysander – Montague</li>"),
        "{}",
        item.markup
    );
    assert!(item.markup.contains("three pairs"), "the prompt");
}

/// A pair response written the other way round (`P A`) is the same pair; a pair
/// of a choice the interaction does not have is named.
#[test]
fn associate_pairs_are_unordered_and_unknown_ones_named() {
    let body = r#"<associateInteraction responseIdentifier="RESPONSE" maxAssociations="0"><simpleAssociableChoice identifier="A" matchMax="1">a</simpleAssociableChoice><simpleAssociableChoice identifier="B" matchMax="1">b</simpleAssociableChoice><simpleAssociableChoice identifier="C" matchMax="1">c</simpleAssociableChoice></associateInteraction>"#;
    let template = r#"<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>"#;
    let declaration = |value: &str| {
        format!(
            r#"<responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="pair"><correctResponse><value>{value}</value></correctResponse></responseDeclaration>"#
        )
    };
    let read = package(
        &[("a.xml", item("a", &declaration("C A"), body, template))],
        "",
    );
    let Response::Choice {
        choices,
        max_choices,
        scoring,
        ..
    } = &read.items[0].response
    else {
        panic!("{:?}", read.items[0].response);
    };
    let right: Vec<&str> = choices
        .iter()
        .filter(|c| c.correct)
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(right, ["a – c"]);
    assert_eq!(*max_choices, 0, "any number of pairs");
    assert_eq!(*scoring, ChoiceScoring::MatchCorrect);
    let read = package(
        &[("a.xml", item("a", &declaration("A Z"), body, template))],
        "",
    );
    assert!(
        read.skipped[0]
            .reason
            .contains("the correct response 'A Z' is not a pair of the interaction's choices"),
        "{:?}",
        read.skipped
    );
}
