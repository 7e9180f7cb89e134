//! Fill-in-the-blanks questions (issue 35): QTI 2.1 items of several text entries
//! (each blank scored by its own mapping, or by matching its correct response)
//! imported on both databases with each blank's keys and the maximum checked
//! against the items; then the whole path: the snapshot XML (valid against its
//! schema, each blank listed), the paper printed by Chromium with the blanks
//! numbered in the passage and a line for each, an upload answering each blank
//! with words, and the score on the Result; a wrong blank refused naming it.

use reqwest::StatusCode;
use scoredesk_e2e::qti::fixture_items;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::content_import_matching::pdf_text;
use crate::qti_packages::{imported, printed_paper, result_totals, sit, uploaded_scores};

on_both_backends! {
    blanks_are_printed_uploaded_and_each_marked_by_its_own_keys => delivered;
}

const ADMIN: &str = "northwind-admin";
const ITEMS: [&str; 2] = ["capitals.xml", "water.xml"];

fn package() -> Vec<u8> {
    fixture_items("blanks", &ITEMS)
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &package(), "blanks.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let questions = report["Questions"].as_array().unwrap();
    let expected = [
        (
            json!(["Blank 1", "Blank 2", "Blank 3"]),
            json!([
                "Blank 1: Paris (1)",
                "Blank 2: Berlin (1)",
                "Blank 2: Berlín (1)",
                "Blank 3: 1961 (2)"
            ]),
            4,
        ),
        (
            json!(["Blank 1", "Blank 2"]),
            json!(["Blank 1: hydrogen (1)", "Blank 2: oxygen (1)"]),
            2,
        ),
    ];
    for (question, (parts, keys, max)) in questions.iter().zip(&expected) {
        assert_eq!(question["QuestionType"], "fill_in_blanks", "{question}");
        assert_eq!(&question["Parts"], parts, "{question}");
        assert_eq!(&question["Keys"], keys, "{question}");
        assert_eq!(question["MaxScore"], *max, "{question}");
        assert_eq!(question["Scoring"], "map_response", "{question}");
    }
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "blanks-1").await;

    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    assert!(
        xml.contains("Type=\"fill_in_blanks\" ExpectedResponse=\"text_parts\""),
        "{xml}"
    );
    assert!(
        xml.contains("<Part OrderNumber=\"3\">Blank 3</Part>"),
        "{xml}"
    );
    assert!(
        xml.contains("<Validation MaxTextLengthPerPart=\"1000\"/>"),
        "{xml}"
    );
    assert!(!xml.contains("Paris"), "no key in the snapshot: {xml}");

    // The paper: the blanks numbered in the passage, a line for each.
    let paper = printed_paper(&app, snapshot).await;
    assert!(
        paper.contains("The capital of France is <span class=\"blank\">(1) __________</span>"),
        "{paper}"
    );
    assert_eq!(paper.matches("<li data-blank=").count(), 5, "{paper}");
    let text = pdf_text(&app, snapshot).await;
    for words in [
        "Question 1",
        "of Germany (2) __________",
        "(3)",
        "Write each blank's answer on its line.",
        "Water is made of (1) __________ and (2) __________.",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }

    // A blank out of range, or a choice for a blank, is refused naming it.
    for (part, field) in [
        (
            json!({"PartNumber": 4, "TextResponse": "x"}),
            "QuestionAndChoices[0].Parts[0].PartNumber: 4 is not a blank of question 1",
        ),
        (
            json!({"PartNumber": 1, "ChoiceOrderNumber": 1}),
            "QuestionAndChoices[0].Parts[0].ChoiceOrderNumber",
        ),
    ] {
        let wrong = json!({"AttemptID": attempt, "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "Parts": [part]}]});
        let response = crate::uploads::post(&app, "AnswerUploads", &wrong).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let body = response.text().await.unwrap();
        assert!(body.contains(field), "{body}");
    }

    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            // paris (any case) 1, Berlín 1, 1961 as " 1 961" 2: 4.
            {"QuestionOrderNumber": 1, "Parts": [
                {"PartNumber": 1, "TextResponse": "paris"},
                {"PartNumber": 2, "TextResponse": "Berlín"},
                {"PartNumber": 3, "TextResponse": " 1 961"}]},
            // hydrogen 1; Oxygen is not oxygen (a correct response matches exactly): 1.
            {"QuestionOrderNumber": 2, "Parts": [
                {"PartNumber": 2, "TextResponse": "Oxygen"},
                {"PartNumber": 1, "TextResponse": "hydrogen"}]}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [4, 1]);
    assert_eq!(result_totals(&app, result).await, (Some(5), Some(6)));
}
