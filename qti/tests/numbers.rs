//! Numeric entries (a text entry answered with a float or an integer): exact keys
//! from match_correct and map_response, ranges from `<equal>` with a tolerance, as
//! qti-package-maker (Blackboard's export) and hand-written items write them.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod common;

use common::{item, package};
use scoredesk_qti::{Item, NumberRange, Response, TextKey, TextScoring};

fn declaration(base_type: &str, correct: &str, max: &str) -> String {
    format!(
        r#"<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="{base_type}"><correctResponse><value>{correct}</value></correctResponse></responseDeclaration><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"{max}/>"#
    )
}

const BODY: &str = r#"<p>g in m/s²: <textEntryInteraction responseIdentifier="RESPONSE"/></p>"#;

fn tolerance(mode: &str, tolerance: &str, score: &str) -> String {
    format!(
        r#"<responseProcessing><responseCondition><responseIf><equal toleranceMode="{mode}" tolerance="{tolerance}"><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/></equal><setOutcomeValue identifier="SCORE"><baseValue baseType="float">{score}</baseValue></setOutcomeValue></responseIf><responseElse><setOutcomeValue identifier="SCORE"><baseValue baseType="float">0</baseValue></setOutcomeValue></responseElse></responseCondition></responseProcessing>"#
    )
}

fn keys(item: &Item) -> (Vec<TextKey>, f64) {
    match &item.response {
        Response::Text {
            extended: false,
            scoring:
                TextScoring::Key {
                    keys,
                    default_value,
                    ..
                },
        } => (keys.clone(), *default_value),
        other => panic!("a keyed numeric entry: {other:?}"),
    }
}

fn range(low: f64, high: f64) -> Option<NumberRange> {
    Some(NumberRange { low, high })
}

#[test]
fn match_correct_on_a_float_is_an_exact_number() {
    let read = package(
        &[(
            "q.xml",
            item(
                "g",
                &declaration("float", "9.81", ""),
                BODY,
                r#"<responseProcessing template="match_correct"/>"#,
            ),
        )],
        "",
    );
    let (keys, _) = keys(&read.items[0]);
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].text, "9.81");
    assert_eq!(keys[0].numeric, range(9.81, 9.81));
    assert_eq!(keys[0].mapped_value, None);
    assert_eq!(read.items[0].max_score, 1);
}

#[test]
fn an_absolute_tolerance_is_a_range_worth_what_the_branch_sets() {
    let read = package(
        &[(
            "q.xml",
            item(
                "g",
                &declaration("float", "9.81", r#" normalMaximum="2""#),
                BODY,
                &tolerance("absolute", "0.05", "2"),
            ),
        )],
        "",
    );
    let (keys, default) = keys(&read.items[0]);
    assert_eq!(keys[0].text, "9.81 ± 0.05");
    let numeric = keys[0].numeric.unwrap();
    assert!((numeric.low - 9.76).abs() < 1e-9 && (numeric.high - 9.86).abs() < 1e-9);
    assert_eq!((keys[0].mapped_value, default), (Some(2.0), 0.0));
    assert_eq!(read.items[0].max_score, 2);
}

#[test]
fn a_relative_tolerance_is_a_percentage_on_each_side() {
    let read = package(
        &[(
            "q.xml",
            item(
                "c",
                &declaration("integer", "-200", r#" normalMaximum="1""#),
                BODY,
                &tolerance("relative", "5 10", "1"),
            ),
        )],
        "",
    );
    let (keys, _) = keys(&read.items[0]);
    let numeric = keys[0].numeric.unwrap();
    assert!(
        (numeric.low + 220.0).abs() < 1e-9 && (numeric.high + 190.0).abs() < 1e-9,
        "ends ordered: {numeric:?}"
    );
    assert_eq!(keys[0].text, "-220 to -190");
}

#[test]
fn blackboards_score_of_100_without_a_maximum_is_full_marks() {
    // qti-package-maker's NUM item, as it writes it.
    let read = package(
        &[(
            "q.xml",
            item(
                "n",
                &declaration("float", "42", ""),
                BODY,
                &tolerance("absolute", "0 0", "100"),
            ),
        )],
        "",
    );
    let (keys, _) = keys(&read.items[0]);
    assert_eq!(keys[0].numeric, range(42.0, 42.0));
    assert_eq!(keys[0].mapped_value, None, "full marks");
    assert_eq!(read.items[0].max_score, 1);
    assert!(
        read.items[0].notes.iter().any(|n| n.contains("full marks")),
        "{:?}",
        read.items[0].notes
    );
}

#[test]
fn a_mapping_of_integers_gives_each_its_value() {
    let read = package(
        &[(
            "q.xml",
            item(
                "m",
                r#"<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="integer"><mapping defaultValue="0"><mapEntry mapKey="12" mappedValue="2"/><mapEntry mapKey="11" mappedValue="1"/></mapping></responseDeclaration>"#,
                BODY,
                r#"<responseProcessing template="map_response"/>"#,
            ),
        )],
        "",
    );
    let (keys, _) = keys(&read.items[0]);
    let ranges: Vec<_> = keys.iter().map(|k| (k.numeric, k.mapped_value)).collect();
    assert_eq!(
        ranges,
        [
            (range(12.0, 12.0), Some(2.0)),
            (range(11.0, 11.0), Some(1.0))
        ]
    );
    assert_eq!(read.items[0].max_score, 2);
}

#[test]
fn numbers_that_are_not_numbers_or_processing_of_another_shape_skip_the_item() {
    let not_a_number = item(
        "bad",
        &declaration("float", "nine", ""),
        BODY,
        r#"<responseProcessing template="match_correct"/>"#,
    );
    let other_shape = item(
        "sum",
        &declaration("float", "3", ""),
        BODY,
        r#"<responseProcessing><responseCondition><responseIf><gt><variable identifier="RESPONSE"/><baseValue baseType="float">2</baseValue></gt><setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>"#,
    );
    let read = package(&[("a.xml", not_a_number), ("b.xml", other_shape)], "");
    assert!(read.items.is_empty());
    let reasons: Vec<&str> = read.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert!(reasons[0].contains("'nine' is not a number"), "{reasons:?}");
    assert!(
        reasons[1].contains("<equal> with a tolerance are"),
        "{reasons:?}"
    );
}

#[test]
fn bounds_on_the_response_are_a_range() {
    let processing = r#"<responseProcessing><responseCondition><responseIf><and><gte><variable identifier="RESPONSE"/><baseValue baseType="float">41.5</baseValue></gte><lte><variable identifier="RESPONSE"/><baseValue baseType="float">42.5</baseValue></lte></and><setOutcomeValue identifier="SCORE"><baseValue baseType="float">3</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>"#;
    let read = package(
        &[(
            "q.xml",
            item(
                "b",
                &declaration("float", "42", r#" normalMaximum="3""#),
                BODY,
                processing,
            ),
        )],
        "",
    );
    let (keys, _) = keys(&read.items[0]);
    assert_eq!(keys[0].numeric, range(41.5, 42.5));
    assert_eq!(keys[0].text, "41.5 to 42.5");
    assert_eq!(keys[0].mapped_value, Some(3.0));
}

#[test]
fn a_slider_is_a_number_written_on_its_scale() {
    let read = package(
        &[(
            "q.xml",
            item(
                "slider",
                r#"<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="integer"><correctResponse><value>16</value></correctResponse><mapping defaultValue="0"><mapEntry mapKey="15" mappedValue="1"/><mapEntry mapKey="16" mappedValue="2"/></mapping></responseDeclaration><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>"#,
                r#"<p>A census.</p><sliderInteraction responseIdentifier="RESPONSE" lowerBound="0" upperBound="100" step="1"><prompt>What percentage had no religion?</prompt></sliderInteraction>"#,
                r#"<responseProcessing template="map_response"/>"#,
            ),
        )],
        "",
    );
    let item = &read.items[0];
    let (keys, _) = keys(item);
    let ranges: Vec<_> = keys.iter().map(|k| (k.numeric, k.mapped_value)).collect();
    assert_eq!(
        ranges,
        [
            (range(15.0, 15.0), Some(1.0)),
            (range(16.0, 16.0), Some(2.0))
        ]
    );
    assert_eq!(item.max_score, 2);
    assert!(
        item.markup.contains("What percentage had no religion?")
            && item
                .markup
                .contains("<p class=\"scale\">A number from 0 to 100.</p>"),
        "{}",
        item.markup
    );
}
