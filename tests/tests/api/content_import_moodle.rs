//! Moodle XML question banks (issue 35): a bank written by moodle_questions (PyPI)
//! imported on both databases and checked against what it was made from (kind,
//! scoring, each choice's, key's and gap's value, maximum; a drag and drop into
//! text as a gap match); and a bank written here as Moodle's question bank export writes one
//! (categories, an embedded image, true/false, numerical with a tolerance, a
//! case-sensitive short answer, an essay, a match with a distractor) through
//! the whole path: topics,
//! snapshot, printed paper, upload, Result.

use scoredesk_e2e::qti::moodle_bank;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    a_moodle_bank_is_imported_as_its_source_says => source;
    a_moodle_bank_is_printed_uploaded_and_scored => delivered;
}

const ADMIN: &str = "northwind-admin";

/// Thousandths of a value column, so both databases print it alike.
fn thousandths(column: &str, table: &str, id: i64, order: &str) -> String {
    format!(
        "SELECT CAST(ROUND(COALESCE({column}, 0) * 1000) AS BIGINT) FROM {table} \
         WHERE question_id = {id} ORDER BY {order}"
    )
}

async fn source(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let bank = moodle_bank();
    let report = imported(&app, ADMIN, &bank.bytes, "moodle-bank.xml").await;
    assert_eq!(report["QtiVersion"], "Moodle XML", "{report}");
    assert_eq!(
        report["AssessmentName"], "moodle-bank.xml",
        "the file names a bank"
    );
    let expected: Vec<&Value> = bank
        .source
        .iter()
        .filter(|s| !s["type"].is_null())
        .collect();
    let questions = report["Questions"].as_array().unwrap();
    assert_eq!(questions.len(), expected.len(), "{report}");
    assert_eq!(report["Skipped"], json!([]), "{report}");
    for (question, item) in questions.iter().zip(expected) {
        let id: i64 = question["QuestionId"].as_str().unwrap().parse().unwrap();
        assert_eq!(question["QuestionType"], item["type"], "{item}");
        assert_eq!(question["Title"], item["name"], "{item}");
        assert_eq!(question["MaxScore"], item["max"], "{item}");
        assert_eq!(question["Scoring"], item["scoring"], "{item}");
        let values: Vec<i64> = item["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() * 1000)
            .collect();
        if let Some(choices) = item["choices"].as_array() {
            let texts = app
                .sql_strings(&format!(
                    "SELECT text FROM choices WHERE question_id = {id} ORDER BY choice_order"
                ))
                .await;
            let wanted: Vec<&str> = choices.iter().map(|c| c.as_str().unwrap()).collect();
            assert_eq!(texts, wanted, "{item}");
            let stored = if item["scoring"] == "match_correct" {
                app.sql_column::<i64>(&format!(
                    "SELECT CAST(CASE WHEN is_correct THEN 1000 ELSE 0 END AS BIGINT) FROM choices \
                     WHERE question_id = {id} ORDER BY choice_order"
                ))
                .await
            } else {
                app.sql_column::<i64>(&thousandths("mapped_value", "choices", id, "choice_order"))
                    .await
            };
            assert_eq!(stored, values, "50 % of 2 marks is 1: {item}");
        }
        if let Some(pairs) = item["pairs"].as_array() {
            assert_eq!(&question["Keys"], &json!(pairs), "{item}");
            assert_eq!(question["Parts"], item["parts"], "{item}");
            let texts = app
                .sql_strings(&format!(
                    "SELECT text FROM choices WHERE question_id = {id} ORDER BY choice_order"
                ))
                .await;
            assert_eq!(json!(texts), item["options"], "{item}");
            let stored = app
                .sql_column::<i64>(&thousandths("mapped_value", "pair_keys", id, "part_number"))
                .await;
            assert_eq!(stored, values, "each gap half of 2: {item}");
            let markup = app
                .sql_strings(&format!("SELECT markup FROM questions WHERE id = {id}"))
                .await;
            assert!(
                markup[0].contains("The <span class=\"gap\">(1) __________</span> is red"),
                "{markup:?}"
            );
        }
        if let Some(keys) = item["keys"].as_array() {
            let texts = app
                .sql_strings(&format!(
                    "SELECT text FROM text_keys WHERE question_id = {id} ORDER BY key_order"
                ))
                .await;
            let wanted: Vec<&str> = keys.iter().map(|k| k.as_str().unwrap()).collect();
            assert_eq!(texts, wanted, "{item}");
            let stored = app
                .sql_column::<i64>(&thousandths("mapped_value", "text_keys", id, "key_order"))
                .await;
            assert_eq!(stored, values, "{item}");
        }
    }
}

const LEAF: &str = "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPQWGCDFTEMLQkAYT9BAZjEcQwAAAAASUVORK5CYII=";

/// A bank as Moodle's export writes one: categories before their questions,
/// HTML in CDATA, an image as a base64 file of its question text.
fn exported_bank() -> Vec<u8> {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<!-- question: 0  -->
  <question type="category"><category><text>$course$/top/Biology/Cells</text></category><info format="html"><text></text></info></question>
  <question type="multichoice">
    <name><text>Organelle</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which organelle makes ATP?<br><img src="@@PLUGINFILE@@/leaf%20cell.png" alt="a cell"></p>]]></text>
<file name="leaf cell.png" path="/" encoding="base64">{LEAF}</file></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>2.0000000</defaultgrade><penalty>0.3333333</penalty><hidden>0</hidden><idnumber></idnumber>
    <single>true</single><shuffleanswers>true</shuffleanswers><answernumbering>abc</answernumbering>
    <answer fraction="100" format="html"><text>Mitochondrion</text><feedback format="html"><text></text></feedback></answer>
    <answer fraction="0" format="html"><text>Ribosome</text><feedback format="html"><text></text></feedback></answer>
    <answer fraction="0" format="html"><text><![CDATA[<p>Cell <b>wall</b></p>]]></text><feedback format="html"><text></text></feedback></answer>
  </question>
  <question type="truefalse">
    <name><text>Sun</text></name>
    <questiontext format="moodle_auto_format"><text>The Sun is a star.</text></questiontext>
    <defaultgrade>1.0000000</defaultgrade>
    <answer fraction="100" format="moodle_auto_format"><text>true</text></answer>
    <answer fraction="0" format="moodle_auto_format"><text>false</text></answer>
  </question>
  <question type="category"><category><text>$course$/top/Physics</text></category></question>
  <question type="numerical">
    <name><text>Gravity</text></name>
    <questiontext format="html"><text><![CDATA[<p>g near the Earth, in m/s&sup2;?</p>]]></text></questiontext>
    <defaultgrade>2.0000000</defaultgrade>
    <answer fraction="100" format="moodle_auto_format"><text>9.81</text><tolerance>0.05</tolerance></answer>
    <answer fraction="50" format="moodle_auto_format"><text>10</text><tolerance>0</tolerance></answer>
    <answer fraction="0" format="moodle_auto_format"><text>*</text><tolerance>0</tolerance></answer>
  </question>
  <question type="shortanswer">
    <name><text>Sodium</text></name>
    <questiontext format="html"><text>The symbol for sodium?</text></questiontext>
    <defaultgrade>1.0000000</defaultgrade><usecase>1</usecase>
    <answer fraction="100" format="moodle_auto_format"><text>Na</text></answer>
    <answer fraction="0" format="moodle_auto_format"><text>*</text></answer>
  </question>
  <question type="essay">
    <name><text>Energy</text></name>
    <questiontext format="html"><text><![CDATA[<p>Explain where a cell's energy comes from.</p>]]></text></questiontext>
    <defaultgrade>4.0000000</defaultgrade><responseformat>editor</responseformat><responsefieldlines>10</responsefieldlines>
  </question>
  <question type="match">
    <name><text>Particles</text></name>
    <questiontext format="html"><text><![CDATA[<p>Match each particle to its charge.</p>]]></text></questiontext>
    <defaultgrade>3.0000000</defaultgrade><penalty>0.3333333</penalty><hidden>0</hidden>
    <shuffleanswers>true</shuffleanswers>
    <subquestion format="html"><text><![CDATA[<p>Proton</p>]]></text><answer><text>positive</text></answer></subquestion>
    <subquestion format="html"><text><![CDATA[<p>Electron</p>]]></text><answer><text>negative</text></answer></subquestion>
    <subquestion format="html"><text><![CDATA[<p><b>Neutron</b></p>]]></text><answer><text>none</text></answer></subquestion>
    <subquestion format="html"><text></text><answer><text>both</text></answer></subquestion>
  </question>
</quiz>"#
    )
    .into_bytes()
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &exported_bank(), "cells.xml").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    assert_eq!(report["Images"], 1);
    let topics: Vec<&str> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["Topic"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        topics,
        [
            "Biology/Cells",
            "Biology/Cells",
            "Physics",
            "Physics",
            "Physics",
            "Physics"
        ],
        "each question under the category before it"
    );
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "moodle-1").await;

    let paper = printed_paper(&app, snapshot).await;
    for words in [
        "Which organelle makes ATP?",
        "data:image/png;base64,",
        "Cell wall",
        "The Sun is a star.",
        ">True<",
        "g near the Earth, in m/s²?",
        "Explain where a cell",
        "Match each particle to its charge.",
        "3. Neutron",
        "Fill in one circle in each row.",
    ] {
        assert!(paper.contains(words), "{words} is printed: {paper}");
    }
    assert!(!paper.contains("@@PLUGINFILE@@"), "{paper}");

    let number = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "UploadedChoices": [
                {"ChoiceOrderNumber": number(1, "Mitochondrion").await, "Selected": true}]},
            {"QuestionOrderNumber": 2, "UploadedChoices": [
                {"ChoiceOrderNumber": number(2, "True").await, "Selected": true}]},
            {"QuestionOrderNumber": 3, "TextResponse": "10"},
            // usecase: "na" is not "Na".
            {"QuestionOrderNumber": 4, "TextResponse": "na"},
            {"QuestionOrderNumber": 5, "TextResponse": "Respiration in the mitochondria."},
            // Two of three pairs right: two thirds of 3.
            {"QuestionOrderNumber": 6, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": number(6, "positive").await},
                {"PartNumber": 2, "ChoiceOrderNumber": number(6, "positive").await},
                {"PartNumber": 3, "ChoiceOrderNumber": number(6, "none").await}]}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(
        scores,
        [2, 1, 1, 0, -1, 2],
        "the key; True; 10 is worth half of 2; case counts; the essay to a person; 2 of 3 pairs"
    );
    assert_eq!(result_totals(&app, result).await, (Some(6), Some(13)));
    let report_parts = &report["Questions"][5];
    assert_eq!(report_parts["QuestionType"], "matching");
    assert_eq!(
        report_parts["Parts"],
        json!(["Proton", "Electron", "Neutron"])
    );
    assert_eq!(
        report_parts["Keys"],
        json!(["Proton → positive", "Electron → negative", "Neutron → none"]),
        "the distractor is an option, not a row"
    );
}
