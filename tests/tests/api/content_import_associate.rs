//! Associate interactions (issue 35): the IMS QTI 2.1 example `associate.xml`
//! (three pairs of rivals among six characters, mapped 2, 1, 1) imported on both
//! databases as a multiple response over its fifteen candidate pairs, with the
//! item's maximum; the snapshot XML valid against its schema, the paper printed
//! by Chromium with every pair and its bubble, and an upload of three pairs
//! scored as the item's mapping scores them.

use scoredesk_e2e::qti::fixture_items;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::json;

use crate::content_import_matching::pdf_text;
use crate::qti_packages::{choice_number, imported, result_totals, sit, uploaded_scores};

on_both_backends! {
    associate_pairs_are_chosen_printed_and_scored_by_the_items_mapping => delivered;
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let package = fixture_items("ims", &["associate.xml"]);
    let report = imported(&app, "northwind-admin", &package, "associate.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let question = &report["Questions"][0];
    assert_eq!(question["QuestionType"], "multiple_response", "{question}");
    assert_eq!(question["MaxScore"], 4, "{question}");
    assert_eq!(question["Scoring"], "map_response", "{question}");
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "associate-1").await;

    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    assert_eq!(xml.matches("<Choice ").count(), 15, "{xml}");
    assert!(xml.contains(">Antonio – Prospero</Choice>"), "{xml}");
    // maxAssociations="3": at most three pairs, said in the XML and on paper.
    assert!(xml.contains(r#"MaxSelected="3""#), "{xml}");

    let text = pdf_text(&app, snapshot).await;
    for words in [
        "three pairs",
        "Antonio – Capulet",
        "Montague – Prospero",
        "Fill in at most 3 circles.",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }

    let number = |text: &'static str| choice_number(&app, snapshot, 1, text);
    let selected = [
        number("Antonio – Prospero").await,
        number("Capulet – Montague").await,
        number("Demetrius – Montague").await,
    ];
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [{
            "QuestionOrderNumber": 1,
            "UploadedChoices": selected
                .iter()
                .map(|n| json!({"ChoiceOrderNumber": n, "Selected": true}))
                .collect::<Vec<_>>()
        }]
    });
    // A fourth pair is refused, naming the field.
    let mut four = upload.clone();
    four["QuestionAndChoices"][0]["UploadedChoices"]
        .as_array_mut()
        .unwrap()
        .push(json!({"ChoiceOrderNumber": number("Antonio – Capulet").await, "Selected": true}));
    let response = crate::uploads::post(&app, "AnswerUploads", &four).await;
    let status = response.status();
    let body = response.text().await.unwrap();
    assert_eq!(status, reqwest::StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body.contains("QuestionAndChoices[0].UploadedChoices: 4 choices are selected on question 1, which takes at most 3"),
        "{body}"
    );
    // Antonio and Prospero 2, Capulet and Montague 1, a wrong pair 0: 3 of 4.
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [3]);
    assert_eq!(result_totals(&app, result).await, (Some(3), Some(4)));
}
