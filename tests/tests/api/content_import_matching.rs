//! Matching questions (issue 35): the IMS QTI 2.1 specification's own match, gap
//! match and order items imported on both databases with their parts and pairs
//! checked against the items, then the whole path: the snapshot XML (valid
//! against its schema, each part listed), the paper printed by Chromium with a
//! grid of bubbles per question, an upload answering each part by the snapshot's
//! choice numbers, and the score on the Result; a wrong part refused naming it.

use std::process::Command;

use reqwest::StatusCode;
use scoredesk_e2e::paper::{chromium, mark_bubble, rng, scan, Damage, Pencil};
use scoredesk_e2e::qti::fixture_items;
use scoredesk_e2e::sheets::{deliver_package, first_attempts_page};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_sheets::layout::{Shape, SheetQuestion};
use scoredesk_sheets::{assemble, recognise, Answer, DoubtReason};
use serde_json::json;

use crate::qti_packages::{
    choice_number, imported, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    the_ims_matching_items_are_printed_uploaded_and_scored => delivered;
    a_matchings_answer_sheet_grid_is_read_back_and_scored => sheets;
}

const ADMIN: &str = "northwind-admin";
const ITEMS: [&str; 3] = ["match.xml", "gap_match.xml", "order.xml"];

/// The three IMS example items in one package, in this order.
fn ims_package() -> Vec<u8> {
    fixture_items("ims", &ITEMS)
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
pub(crate) async fn pdf_text(app: &TestApp, snapshot: i64) -> String {
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

/// The matchings' answer sheet, printed by Chromium through the batch's link:
/// a grid per question, one row of bubbles per part. Pencil on the rows (a row
/// marked twice, one left blank), a scan at 300 dpi, the reading: each row its own
/// choice, the row marked twice left to a person, who decides it; then the
/// upload the sheet makes and the scores on the Result.
async fn sheets(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_package(&app, &ims_package(), 1).await;
    let grids: Vec<&SheetQuestion> = delivery.questions.iter().collect();
    assert_eq!(
        grids.iter().map(|q| q.shape.clone()).collect::<Vec<_>>(),
        [
            Shape::Grid {
                parts: 4,
                options: 3
            },
            Shape::Grid {
                parts: 2,
                options: 4
            },
            Shape::Grid {
                parts: 3,
                options: 3
            }
        ],
        "one row a part, one bubble an option"
    );
    let dir = tempfile::tempdir().unwrap();
    let (batch, attempt, snapshot, mut page) =
        first_attempts_page(&app, &delivery, dir.path()).await;
    let layout = &delivery.layout[0];
    let mut random = rng(35 + u64::from(backend == Backend::Postgres));
    let number = |position: i32, text: &'static str| choice_number(&app, snapshot, position, text);
    let dream = "A Midsummer-Night's Dream";
    // (question, part, option): question 1 as in `delivered` (2 marks), Prospero
    // marked twice; question 2 all right (3); question 3 left blank.
    let marks = [
        (1, 1, number(1, "Romeo and Juliet").await),
        (1, 2, number(1, dream).await),
        (1, 3, number(1, dream).await),
        (1, 4, number(1, "The Tempest").await),
        (1, 4, number(1, dream).await),
        (2, 1, number(2, "winter").await),
        (2, 2, number(2, "summer").await),
    ];
    for (question, part, choice) in &marks {
        let choice: i32 = choice.parse().unwrap();
        let bubble = layout
            .bubbles
            .iter()
            .find(|b| b.question == *question && b.part == *part && b.choice == choice)
            .unwrap();
        mark_bubble(&mut page, bubble.center, Pencil::Full, &mut random);
    }
    let bytes = scan(&page, Damage::random(&mut random, 300.0), attempt as u64);
    let found = recognise::open(&bytes).expect("the page is found");
    let mut reading = assemble(&delivery.questions, &[found.read(layout).unwrap()]).unwrap();
    let doubts: Vec<(i32, i32, DoubtReason)> = reading
        .doubts
        .iter()
        .map(|d| (d.question, d.part, d.reason))
        .collect();
    assert_eq!(doubts, [(1, 4, DoubtReason::SeveralMarks)]);
    let rows = |reading: &scoredesk_sheets::AttemptReading, q: i32| {
        reading.answers.iter().find_map(|a| match a {
            Answer::Parts { question, parts } if *question == q => Some(parts.len()),
            _ => None,
        })
    };
    assert_eq!(
        (rows(&reading, 1), rows(&reading, 2), rows(&reading, 3)),
        (Some(3), Some(2), Some(0)),
        "three rows of 1 decided, both of 2, none of 3"
    );
    // The coordinator leaves Prospero unanswered: two marks are no answer.
    reading.resolve_part(1, 4, vec![]).unwrap();
    let result = crate::uploads::upload_reading(&app, batch, attempt, &reading).await;
    let result = result["ID"].as_i64().unwrap();
    let scores = crate::qti_packages::result_scores(&app, result).await;
    assert_eq!(scores, [2, 3, 0]);
    assert_eq!(result_totals(&app, result).await, (Some(5), Some(7)));
}
