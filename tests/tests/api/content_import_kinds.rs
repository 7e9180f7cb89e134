//! Question kinds beyond the choice interaction, through the whole path on both
//! databases (issue 35): an inline choice (a gap in a sentence) and a hottext
//! (words of a passage to pick), written as the IMS QTI 2.1 examples write them,
//! imported as single and multiple choice, printed (the gap in its sentence, the
//! passage, the choices lettered with bubbles), uploaded by choice number and
//! scored by their keys on the Result; a numeric entry with a tolerance, printed
//! with its line, answered with a decimal comma and scored in its range; and a
//! slider, printed with its scale, answered with a number, scored by its mapping.

use scoredesk_e2e::qti::{manifest, numeric_item, zip};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    an_inline_choice_and_a_hottext_are_printed_uploaded_and_scored => kinds;
}

const ADMIN: &str = "northwind-admin";

fn item(identifier: &str, cardinality: &str, correct: &[&str], body: &str) -> Vec<u8> {
    let values: String = correct
        .iter()
        .map(|v| format!("<value>{v}</value>"))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="{cardinality}" baseType="identifier"><correctResponse>{values}</correctResponse></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
<itemBody>{body}</itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>"#
    )
    .into_bytes()
}

/// A percentage on a slider: 16 is worth 2, 15 is worth 1.
fn slider() -> Vec<u8> {
    r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="census" title="census" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="integer"><correctResponse><value>16</value></correctResponse><mapping defaultValue="0"><mapEntry mapKey="15" mappedValue="1"/><mapEntry mapKey="16" mappedValue="2"/></mapping></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
<itemBody><p>The census counted people of no religion.</p><sliderInteraction responseIdentifier="RESPONSE" lowerBound="0" upperBound="100" step="1"><prompt>What percentage was that?</prompt></sliderInteraction></itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>
</assessmentItem>"#
        .as_bytes()
        .to_vec()
}

fn package() -> Vec<u8> {
    zip(&[
        (
            "imsmanifest.xml",
            manifest(&[
                ("a", "imsqti_item_xmlv2p1", "inline.xml"),
                ("b", "imsqti_item_xmlv2p1", "hottext.xml"),
                ("c", "imsqti_item_xmlv2p1", "gravity.xml"),
                ("d", "imsqti_item_xmlv2p1", "census.xml"),
            ])
            .into_bytes(),
        ),
        (
            "inline.xml",
            item(
                "inlineChoice",
                "single",
                &["Y"],
                r#"<p>Identify the missing word.</p><blockquote><p>Made glorious summer by this sun of <inlineChoiceInteraction responseIdentifier="RESPONSE" shuffle="false"><inlineChoice identifier="G">Gloucester</inlineChoice><inlineChoice identifier="L">Lancaster</inlineChoice><inlineChoice identifier="Y">York</inlineChoice></inlineChoiceInteraction>; and all the clouds</p></blockquote>"#,
            ),
        ),
        (
            "hottext.xml",
            item(
                "hottext",
                "multiple",
                &["B", "D"],
                r#"<hottextInteraction responseIdentifier="RESPONSE" maxChoices="2"><prompt>Select the two errors.</prompt><p>Sponsors <hottext identifier="A">who bought</hottext> advertising time <hottext identifier="B">includes</hottext> a dozen firms <hottext identifier="D">whose</hottext> names are familiar.</p></hottextInteraction>"#,
            ),
        ),
        ("gravity.xml", numeric_item("gravity").into_bytes()),
        ("census.xml", slider()),
    ])
}

async fn kinds(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &package(), "kinds.zip").await;
    let types: Vec<&str> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["QuestionType"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "multiple_choice",
            "multiple_response",
            "text_entry",
            "text_entry"
        ],
        "{report}"
    );
    assert_eq!(report["Skipped"], json!([]));
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "kinds-1").await;

    // The numeric entry and the slider say they are short numbers (an answer
    // sheet asks them as rows of digits); the document stays valid.
    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    assert_eq!(
        xml.matches(r#"MaxTextLength="100000" NumberCharacters="6""#)
            .count(),
        2,
        "{xml}"
    );

    // The paper: the gap in its sentence, the passage, the choices lettered.
    let paper = printed_paper(&app, snapshot).await;
    assert!(
        paper.contains("sun of <span class=\"blank\">__________</span>; and all"),
        "{paper}"
    );
    assert!(
        paper.contains("<span class=\"hottext\">includes</span>"),
        "{paper}"
    );
    for choice in [
        "Gloucester",
        "Lancaster",
        "York",
        "who bought",
        "includes",
        "whose",
    ] {
        assert!(
            paper.contains(&format!("{choice}</")),
            "{choice} is a printed choice"
        );
    }
    assert_eq!(
        paper.matches("<li>Gloucester</li>").count(),
        0,
        "the delivery list is not printed"
    );
    assert!(
        paper.contains("near the Earth, in m/s²:"),
        "the numeric entry's question: {paper}"
    );
    assert!(!paper.contains("9.81"), "the key is not on the paper");
    assert!(
        paper.contains("What percentage was that?")
            && paper.contains("<p class=\"scale\">A number from 0 to 100.</p>"),
        "the slider's scale: {paper}"
    );

    let number = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "UploadedChoices": [
                {"ChoiceOrderNumber": number(1, "York").await, "Selected": true}]},
            // match_correct is all or nothing: one error found and one wrong pick earn 0.
            {"QuestionOrderNumber": 2, "UploadedChoices": [
                {"ChoiceOrderNumber": number(2, "includes").await, "Selected": true},
                {"ChoiceOrderNumber": number(2, "who bought").await, "Selected": true}]},
            // 9.8 with a decimal comma lies within 9.81 ± 0.05.
            {"QuestionOrderNumber": 3, "TextResponse": "9,8"},
            {"QuestionOrderNumber": 4, "TextResponse": "15"}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(
        scores,
        [1, 0, 2, 1],
        "the gap right; the passage half wrong; the number in range; 15 on the slider is worth 1"
    );
    assert_eq!(result_totals(&app, result).await, (Some(4), Some(6)));
}
