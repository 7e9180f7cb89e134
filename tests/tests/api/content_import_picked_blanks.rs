//! Blanks picked from their own lists (issue 35): a QTI 3.0 passage of three
//! inline choices, each with its own options and scored by a sum of matches, and
//! a QTI 2.1 passage mixing a number typed, a word picked and a word typed, each
//! scored into its own outcome (`qti/tests/fixtures/blanks/moon.xml`,
//! `journey.xml`). Imported on both databases with each blank's keys and the
//! maximum as the items say; then the whole path: the snapshot XML (valid against
//! its schema, each option naming its blank), the paper printed by Chromium with
//! each picked blank's options and bubbles, an upload answering picked blanks by
//! their choice and typed ones by words, refusals naming the field, and the score
//! on the Result. And the answer sheet: a picked blank is a row of bubbles, a
//! typed one a box; pencil and writing on a 300 dpi scan read back, the box typed
//! by a person, one upload of every part.

use reqwest::StatusCode;
use scoredesk_e2e::paper::{mark_bubble, rng, scan, write_essay, Damage, Pencil};
use scoredesk_e2e::qti::fixture_items;
use scoredesk_e2e::sheets::{deliver_package, first_attempts_page};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_sheets::layout::Shape;
use scoredesk_sheets::{assemble, recognise, Answer};
use serde_json::json;

use crate::content_import_matching::pdf_text;
use crate::qti_packages::{
    imported, option_number, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    picked_blanks_are_printed_uploaded_and_marked_by_their_options => delivered;
    picked_blanks_are_read_back_from_the_answer_sheet => sheets;
}

const ADMIN: &str = "northwind-admin";

fn package() -> Vec<u8> {
    fixture_items("blanks", &["moon.xml", "journey.xml"])
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &package(), "picked.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let questions = report["Questions"].as_array().unwrap();
    let expected = [
        (
            json!([
                "Blank 1: the Earth (1)",
                "Blank 2: the Sun (1)",
                "Blank 3: 27 (1)"
            ]),
            3,
        ),
        (
            json!([
                "Blank 1: 2.5 ± 0.1 (2)",
                "Blank 2: less (1)",
                "Blank 3: faster (1)",
                "Blank 3: quicker (1)"
            ]),
            4,
        ),
    ];
    for (question, (keys, max)) in questions.iter().zip(&expected) {
        assert_eq!(question["QuestionType"], "fill_in_blanks", "{question}");
        assert_eq!(
            question["Parts"],
            json!(["Blank 1", "Blank 2", "Blank 3"]),
            "{question}"
        );
        assert_eq!(&question["Keys"], keys, "{question}");
        assert_eq!(question["MaxScore"], *max, "{question}");
        assert_eq!(question["Scoring"], "map_response", "{question}");
    }
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "picked-1").await;

    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    // Each blank's options follow each other, each naming its blank.
    let parts: Vec<&str> = xml
        .match_indices(" Part=\"")
        .map(|(at, _)| &xml[at + 7..at + 8])
        .collect();
    assert_eq!(
        parts,
        ["1", "1", "1", "2", "2", "3", "3", "3", "2", "2"],
        "{xml}"
    );
    assert!(
        xml.contains("<Validation MaxSelectedPerPart=\"1\" MaxTextLengthPerPart=\"1000\"/>"),
        "{xml}"
    );
    assert!(!xml.contains("correct"), "no key in the snapshot: {xml}");

    // The paper: the blanks numbered in the passage, a picked blank's options
    // lettered with bubbles, a typed blank's line.
    let paper = printed_paper(&app, snapshot).await;
    assert_eq!(paper.matches("<li class=\"picked\"").count(), 4, "{paper}");
    assert_eq!(paper.matches("<li data-blank=").count(), 2, "{paper}");
    let text = pdf_text(&app, snapshot).await;
    for words in [
        "The Moon orbits (1) __________",
        "fill in one circle for a blank with choices",
        "the Earth",
        "itself",
        "The journey takes (1) __________ hours",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }
    assert!(
        !text.contains("Well done"),
        "feedback is not printed:\n{text}"
    );

    let earth = option_number(&app, snapshot, 1, 1, "the Earth").await;
    let itself = option_number(&app, snapshot, 1, 2, "itself").await;
    let days = option_number(&app, snapshot, 1, 3, "27").await;
    let less = option_number(&app, snapshot, 2, 2, "less").await;
    // Words for a picked blank, another blank's option, a choice for a typed blank.
    for (part, field) in [
        (
            json!({"PartNumber": 2, "TextResponse": "the Sun"}),
            "QuestionAndChoices[0].Parts[0].TextResponse: blank 2 of question 1 is picked from its list",
        ),
        (
            json!({"PartNumber": 2, "ChoiceOrderNumber": earth.to_string()}),
            &format!("QuestionAndChoices[0].Parts[0].ChoiceOrderNumber: {earth} is not an option of blank 2"),
        ),
    ] {
        let wrong = json!({"AttemptID": attempt, "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "Parts": [part]}]});
        let response = crate::uploads::post(&app, "AnswerUploads", &wrong).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let body = response.text().await.unwrap();
        assert!(body.contains(field), "{body}");
    }
    let wrong = json!({"AttemptID": attempt, "QuestionAndChoices": [
        {"QuestionOrderNumber": 2, "Parts": [{"PartNumber": 3, "ChoiceOrderNumber": less.to_string()}]}]});
    let response = crate::uploads::post(&app, "AnswerUploads", &wrong).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body = response.text().await.unwrap();
    assert!(
        body.contains("blank 3 of question 2 is answered with a TextResponse"),
        "{body}"
    );

    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            // the Earth 1, itself 0, 27 1: 2.
            {"QuestionOrderNumber": 1, "Parts": [
                {"PartNumber": 1, "ChoiceOrderNumber": earth.to_string()},
                {"PartNumber": 2, "ChoiceOrderNumber": itself.to_string()},
                {"PartNumber": 3, "ChoiceOrderNumber": days.to_string()}]},
            // 2,45 within 0.1 of 2.5: 2; less 1; Quicker (any case) 1: 4.
            {"QuestionOrderNumber": 2, "Parts": [
                {"PartNumber": 1, "TextResponse": "2,45"},
                {"PartNumber": 2, "ChoiceOrderNumber": less.to_string()},
                {"PartNumber": 3, "TextResponse": "Quicker"}]}
        ]
    });
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [2, 4]);
    assert_eq!(result_totals(&app, result).await, (Some(6), Some(7)));
    let stored = app
        .sql_column::<Vec<u8>>(&format!(
            "SELECT content FROM answers WHERE result_id = {result} ORDER BY question_number"
        ))
        .await;
    assert_eq!(stored[0], b"1: the Earth\n2: itself\n3: 27", "in words");
}

async fn sheets(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_package(&app, &package(), 1).await;
    let shapes: Vec<Shape> = delivery.questions.iter().map(|q| q.shape.clone()).collect();
    assert_eq!(
        shapes,
        [
            Shape::Blanks {
                options: vec![3, 2, 3]
            },
            Shape::Blanks {
                options: vec![0, 2, 0]
            }
        ],
        "a row of bubbles per picked blank, a box per typed one"
    );
    let dir = tempfile::tempdir().unwrap();
    let (batch, attempt, snapshot, mut page) =
        first_attempts_page(&app, &delivery, dir.path()).await;
    let layout = &delivery.layout[0];
    let mut random = rng(36 + u64::from(backend == Backend::Postgres));
    // (question, blank, option): the Earth, the Sun, 7; less.
    let marks = [
        (1, 1, option_number(&app, snapshot, 1, 1, "the Earth").await),
        (1, 2, option_number(&app, snapshot, 1, 2, "the Sun").await),
        (1, 3, option_number(&app, snapshot, 1, 3, "7").await),
        (2, 2, option_number(&app, snapshot, 2, 2, "less").await),
    ];
    for (question, part, choice) in marks {
        let bubble = layout
            .bubbles
            .iter()
            .find(|b| b.question == question && b.part == part && i64::from(b.choice) == choice)
            .unwrap();
        mark_bubble(&mut page, bubble.center, Pencil::Full, &mut random);
    }
    // Writing in question 2's first box (its third left empty).
    let frame = layout
        .essays
        .iter()
        .find(|e| e.question == 2 && e.part == 1)
        .unwrap()
        .frame;
    write_essay(&mut page, frame, &mut random);
    let bytes = scan(&page, Damage::random(&mut random, 300.0), attempt as u64);
    let found = recognise::open(&bytes).expect("the page is found");
    let mut reading = assemble(&delivery.questions, &[found.read(layout).unwrap()]).unwrap();
    assert!(reading.doubts.is_empty(), "{:?}", reading.doubts);
    let picked = |q: i32| {
        reading.answers.iter().find_map(|a| match a {
            Answer::Parts { question, parts } if *question == q => {
                Some(parts.iter().map(|(part, _)| *part).collect::<Vec<_>>())
            }
            _ => None,
        })
    };
    assert_eq!(picked(1), Some(vec![1, 2, 3]));
    assert_eq!(picked(2), Some(vec![2]));
    let to_type: Vec<(i32, i32)> = reading
        .written
        .iter()
        .map(|w| (w.question, w.part))
        .collect();
    assert_eq!(to_type, [(2, 1)], "the written box waits for a person");
    reading.transcribe_part(2, 1, "2.5").unwrap();
    let result = crate::uploads::upload_reading(&app, batch, attempt, &reading).await;
    let result = result["ID"].as_i64().unwrap();
    let scores = crate::qti_packages::result_scores(&app, result).await;
    // The Earth 1, the Sun 1, 7 0: 2. 2.5 2, less 1, nothing typed 0: 3.
    assert_eq!(scores, [2, 3]);
    assert_eq!(result_totals(&app, result).await, (Some(5), Some(7)));
}
