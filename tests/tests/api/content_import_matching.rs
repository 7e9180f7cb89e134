//! Matching questions (issue 35): the IMS QTI 2.1 specification's own match, gap
//! match and order items imported on both databases with their parts and pairs
//! checked against the items, then the whole path: the snapshot XML (valid
//! against its schema, each part listed), the paper printed by Chromium with a
//! grid of bubbles per question, an upload answering each part by the snapshot's
//! choice numbers, and the score on the Result; a wrong part refused naming it.

use std::process::Command;

use reqwest::StatusCode;
use scoredesk_e2e::paper::chromium;
use scoredesk_e2e::qti::{manifest, zip};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    the_ims_matching_items_are_printed_uploaded_and_scored => delivered;
}

const ADMIN: &str = "northwind-admin";
const ITEMS: [&str; 3] = ["match.xml", "gap_match.xml", "order.xml"];

/// The three IMS example items in one package, in this order.
fn ims_package() -> Vec<u8> {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../qti/tests/fixtures/ims");
    let resources: Vec<(&str, &str, &str)> = ITEMS
        .iter()
        .map(|file| (*file, "imsqti_item_xmlv2p1", *file))
        .collect();
    let mut entries = vec![("imsmanifest.xml", manifest(&resources).into_bytes())];
    for file in ITEMS {
        entries.push((file, std::fs::read(format!("{folder}/{file}")).unwrap()));
    }
    zip(&entries)
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &ims_package(), "ims-matching.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let questions = report["Questions"].as_array().unwrap();
    // What each item says: its rows, its correct pairs and its best score.
    let expected = [
        (
            json!(["Capulet", "Demetrius", "Lysander", "Prospero"]),
            json!([
                "Capulet → Romeo and Juliet",
                "Demetrius → A Midsummer-Night's Dream",
                "Lysander → A Midsummer-Night's Dream",
                "Prospero → The Tempest"
            ]),
            3,
            "map_response",
        ),
        (
            json!(["Gap 1", "Gap 2"]),
            json!(["Gap 1 → winter", "Gap 2 → summer"]),
            3,
            "map_response",
        ),
        (
            json!(["Position 1", "Position 2", "Position 3"]),
            json!([
                "Position 1 → Michael Schumacher",
                "Position 2 → Rubens Barrichello",
                "Position 3 → Jenson Button"
            ]),
            1,
            "match_correct",
        ),
    ];
    for (question, (parts, keys, max, scoring)) in questions.iter().zip(&expected) {
        assert_eq!(question["QuestionType"], "matching", "{question}");
        assert_eq!(&question["Parts"], parts, "{question}");
        assert_eq!(&question["Keys"], keys, "{question}");
        assert_eq!(question["MaxScore"], *max, "{question}");
        assert_eq!(question["Scoring"], *scoring, "{question}");
    }
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "matching-1").await;

    // The snapshot XML lists each part, and is valid against its schema.
    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    assert!(
        xml.contains("Type=\"matching\" ExpectedResponse=\"parts\""),
        "{xml}"
    );
    assert!(
        xml.contains("<Part OrderNumber=\"4\">Prospero</Part>"),
        "{xml}"
    );
    assert!(
        xml.contains("<Validation MaxSelectedPerPart=\"1\"/>"),
        "{xml}"
    );

    // The paper, as Chromium prints it: each question's options and its grid.
    let paper = printed_paper(&app, snapshot).await;
    assert!(paper.contains("Now is the <span class=\"gap\">(1) __________</span>"));
    let text = pdf_text(&app, snapshot).await;
    for words in [
        "Question 1",
        "1. Capulet",
        "4. Prospero",
        "Question 2",
        "Now is the (1) __________ of our discontent",
        "1. Gap 1",
        "Question 3",
        "3. Position 3",
        "Fill in one circle in each row.",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }

    // A part out of range is refused naming it, and nothing is stored.
    let wrong = json!({"AttemptID": attempt, "QuestionAndChoices": [
        {"QuestionOrderNumber": 2, "Parts": [{"PartNumber": 3, "ChoiceOrderNumber": 1}]}]});
    let response = crate::uploads::post(&app, "AnswerUploads", &wrong).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body = response.text().await.unwrap();
    assert!(
        body.contains("QuestionAndChoices[0].Parts[0].PartNumber: 3 is not a part of question 2"),
        "{body}"
    );

    let number = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let dream = "A Midsummer-Night's Dream";
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            // 1 + 0.5 + 0.5, Prospero left out: 2.
            {"QuestionOrderNumber": 1, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": number(1, "Romeo and Juliet").await},
                {"PartNumber": 2, "ChoiceOrderNumber": number(1, dream).await},
                {"PartNumber": 3, "ChoiceOrderNumber": number(1, dream).await}]},
            // winter 1, spring (unmapped) -1: 0.
            {"QuestionOrderNumber": 2, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": number(2, "winter").await},
                {"PartNumber": 2, "ChoiceOrderNumber": number(2, "spring").await}]},
            // The right order: all of 1.
            {"QuestionOrderNumber": 3, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": number(3, "Michael Schumacher").await},
                {"PartNumber": 2, "ChoiceOrderNumber": number(3, "Rubens Barrichello").await},
                {"PartNumber": 3, "ChoiceOrderNumber": number(3, "Jenson Button").await}]}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [2, 0, 1]);
    assert_eq!(result_totals(&app, result).await, (Some(3), Some(7)));
    let tasks = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE result_id = {result}"
        ))
        .await;
    assert_eq!(tasks, 0, "matchings are marked at once");
}

/// The questions variant printed to PDF by Chromium, its text with spaces squeezed.
async fn pdf_text(app: &TestApp, snapshot: i64) -> String {
    let (status, read) = app
        .get_json_with(
            ADMIN,
            &format!("{}AssessmentSnapshots({snapshot})", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("paper.pdf");
    chromium(
        dir.path(),
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
            read["PrintableDocumentSourceUrl"].as_str().unwrap(),
        ],
    );
    let output = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils; scripts/test installs it)");
    let text = String::from_utf8(output.stdout).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
