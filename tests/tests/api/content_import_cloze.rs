//! Moodle cloze questions (issue 35) as a third-party library writes them
//! (moocloze: `tests/fixtures/qti/make_cloze.py`), imported on both databases and
//! checked against what they were made from: each blank's keys and the maximum
//! (weights as marks), dropdowns as blanks picked from their own lists, a
//! checkboxes blank skipped naming why; then a snapshot and an upload answering
//! the typed blanks with words and the picked ones with their options, scored
//! blank by blank.

use scoredesk_e2e::qti::moodle_cloze;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::qti_packages::{imported, option_number, result_totals, sit, uploaded_scores};

on_both_backends! {
    moodle_cloze_questions_are_blanks_marked_blank_by_blank => cloze;
}

async fn cloze(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let bank = moodle_cloze();
    let report = imported(&app, "northwind-admin", &bank.bytes, "cloze.xml").await;
    assert_eq!(report["QtiVersion"], "Moodle XML", "{report}");
    let kept: Vec<_> = bank
        .source
        .iter()
        .filter(|s| !s["type"].is_null())
        .collect();
    let questions = report["Questions"].as_array().unwrap();
    assert_eq!(questions.len(), kept.len(), "{report}");
    for (question, source) in questions.iter().zip(&kept) {
        assert_eq!(question["QuestionType"], source["type"], "{question}");
        assert_eq!(question["MaxScore"], source["max"], "{question}");
        assert_eq!(question["Parts"], source["parts"], "{question}");
        assert_eq!(question["Keys"], source["keys"], "{question}");
    }
    let skipped = report["Skipped"].as_array().unwrap();
    let reasons: Vec<&str> = bank
        .source
        .iter()
        .filter_map(|s| s["reason"].as_str())
        .collect();
    assert_eq!(skipped.len(), reasons.len(), "{report}");
    for (skip, reason) in skipped.iter().zip(reasons) {
        assert!(skip["Reason"].as_str().unwrap().contains(reason), "{skip}");
    }

    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "cloze-1").await;
    let option = |part, text| option_number(&app, snapshot, 3, part, text);
    let (red, yellow) = (option(1, "red").await, option(2, "yellow").await);
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            // paris (any case) 1, 9.8 within 0.05 of 9.81 2: 3.
            {"QuestionOrderNumber": 1, "Parts": [
                {"PartNumber": 1, "TextResponse": "paris"},
                {"PartNumber": 2, "TextResponse": "9.8"}]},
            // hydrogen 1, a wrong second word 0: 1.
            {"QuestionOrderNumber": 2, "Parts": [
                {"PartNumber": 1, "TextResponse": "Hydrogen"},
                {"PartNumber": 2, "TextResponse": "nitrogen"}]},
            // red 1, yellow 0 of 2, Blue (any case) 1: 2.
            {"QuestionOrderNumber": 3, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": red.to_string()},
                {"PartNumber": 2, "ChoiceOrderNumber": yellow.to_string()},
                {"PartNumber": 3, "TextResponse": "Blue"}]}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [3, 1, 2]);
    assert_eq!(result_totals(&app, result).await, (Some(6), Some(9)));
}
