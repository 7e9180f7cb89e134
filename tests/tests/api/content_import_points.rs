//! Points on a picture (issue 35): the IMS QTI 2.1 examples `select_point.xml`
//! (mark Edinburgh on a map) and `position_object.xml` (place three airports),
//! with stand-in pictures of the sizes they declare, imported on both databases
//! as point questions scored by their areas; the snapshot XML validated (the
//! picture's size, the most points, never the areas), the paper printed by
//! Chromium with the picture and without the areas, the key naming them, an
//! upload of points scored as the items score them, and points off the picture
//! or too many refused naming the field, nothing stored.

use reqwest::StatusCode;
use scoredesk_e2e::qti::ims_points_package;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use scoredesk_e2e::sheets::{deliver_package, printed};
use scoredesk_paper::{mark_cross, rng, scan, Damage};
use scoredesk_sheets::layout::{Point, Shape};
use scoredesk_sheets::{assemble, recognise, Answer, DoubtReason};

use crate::content_import_matching::pdf_text;
use crate::qti_packages::{
    imported, printed_key, printed_paper, result_totals, sit, uploaded_scores,
};

on_both_backends! {
    places_marked_on_a_picture_are_printed_uploaded_and_scored_by_their_areas => delivered;
    crosses_on_the_answer_sheets_pictures_are_read_back_and_scored => sheets;
}

fn package() -> Vec<u8> {
    ims_points_package(&["select_point.xml", "position_object.xml"])
}

async fn delivered(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, "northwind-admin", &package(), "points.zip").await;
    assert_eq!(report["Skipped"], json!([]), "{report}");
    let questions = report["Questions"].as_array().unwrap();
    let kinds: Vec<(&str, i64, &str, i64)> = questions
        .iter()
        .map(|q| {
            (
                q["QuestionType"].as_str().unwrap(),
                q["MaxScore"].as_i64().unwrap(),
                q["Scoring"].as_str().unwrap(),
                q["Choices"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("point", 1, "map_response", 1),
            ("point", 3, "map_response", 3)
        ]
    );
    assert_eq!(
        questions[0]["Keys"],
        json!(["a circle of radius 16 round (102, 113) (1)"])
    );
    let assessment = report["AssessmentId"].as_str().unwrap().to_owned();
    let (snapshot, attempt) = sit(&app, &assessment, "points-1").await;

    let xml = crate::snapshots::snapshot_xml(&app, snapshot).await;
    crate::snapshots::validate(&xml);
    for expected in [
        r#"Type="point" ExpectedResponse="points" MaxScore="1""#,
        r#"<Picture Width="196" Height="280"/>"#,
        r#"<Validation MaxPoints="1"/>"#,
        r#"<Picture Width="206" Height="280"/>"#,
        r#"<Validation MaxPoints="3"/>"#,
    ] {
        assert!(xml.contains(expected), "{expected} in {xml}");
    }
    assert!(
        !xml.contains("<Choice") && !xml.contains("circle"),
        "no areas: {xml}"
    );

    // The paper: each picture, the instructions, and never the areas.
    let paper = printed_paper(&app, snapshot).await;
    assert_eq!(paper.matches("<div class=\"stage\">").count(), 2, "{paper}");
    let text = pdf_text(&app, snapshot).await;
    for words in [
        "Mark Edinburgh on this map of the United Kingdom.",
        "Mark the place with a cross (×).",
        "where are these airports actually located?",
        "Place on the picture. Mark at most 3 places, each with a cross (×).",
    ] {
        assert!(text.contains(words), "{words} is printed:\n{text}");
    }
    assert!(!text.contains("radius"), "{text}");
    let key = printed_key(&app, snapshot).await;
    assert!(
        key.contains("a circle of radius 12 round (150, 235): 1"),
        "the key names the areas"
    );

    // Points off the picture, or four airports: refused naming the field.
    for (points, field) in [
        (json!([{"X": 197, "Y": 10}]), "QuestionAndChoices[0].Points[0]: (197, 10) is not on the picture of question 1, which is 196 by 280 pixels"),
        (json!([{"X": 102, "Y": 113}, {"X": 5, "Y": 5}]), "2 points are marked on question 1, which takes one"),
    ] {
        let upload = json!({"AttemptID": attempt, "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "Points": points}]});
        let response = crate::uploads::post(&app, "AnswerUploads", &upload).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let body: Value = response.json().await.unwrap();
        let message = body["odata.error"]["message"]["value"].as_str().unwrap();
        assert!(message.contains(field), "{message}");
    }
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM results WHERE attempt_id = {attempt}"
        ))
        .await,
        0
    );

    // Edinburgh 10 pixels off its centre (inside its 16); Manchester and
    // Heathrow placed, the third mark twice on Heathrow: 1 and 2 of 3.
    let upload = json!({"AttemptID": attempt, "QuestionAndChoices": [
        {"QuestionOrderNumber": 1, "Points": [{"X": 108, "Y": 121}]},
        {"QuestionOrderNumber": 2, "Points": [
            {"X": 118, "Y": 184}, {"X": 150.5, "Y": 236}, {"X": 152, "Y": 230}]}]});
    let (result, scores) = uploaded_scores(&app, &upload, attempt).await;
    assert_eq!(scores, [1, 2]);
    assert_eq!(result_totals(&app, result).await, (Some(3), Some(4)));
    // Each answer's $value is its points as sent.
    let questions = app
        .sql_strings(&format!(
            "SELECT CAST(question_id AS TEXT) FROM answers WHERE result_id = {result} ORDER BY question_number"
        ))
        .await;
    let mut stored = Vec::new();
    for question in questions {
        let path = format!(
            "{}Answers(QuestionID={question}L,ResultID={result},Occurrence=1,BlockNumber=1)/$value",
            app.root()
        );
        let response = app
            .client
            .get(app.url(&path))
            .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        stored.push(response.text().await.unwrap());
    }
    assert_eq!(stored, ["108 121", "118 184,150.5 236,152 230"]);
}

/// The answer sheet: each picture printed faint in its frame (two pages, a
/// picture each), crosses in pencil where the participant puts them, a scan at
/// 300 dpi with a scanner's damage, the reading (Edinburgh, and three airports
/// of which one is wrong), the upload it makes and the scores on the Result; a
/// second participant's four crosses where three are taken go to a person, who
/// picks three by their letters.
async fn sheets(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_package(&app, &package(), 1).await;
    assert_eq!(
        delivery
            .questions
            .iter()
            .map(|q| q.shape.clone())
            .collect::<Vec<_>>(),
        [
            Shape::Picture {
                width: 19600,
                height: 28000,
                most: 1
            },
            Shape::Picture {
                width: 20600,
                height: 28000,
                most: 3
            },
        ]
    );
    assert_eq!(delivery.layout.len(), 2, "a picture a page");
    let (batch, attempts) = &delivery.batches[0];
    let dir = tempfile::tempdir().unwrap();
    let printed = printed(&app, *batch, dir.path()).await;
    let mut random = rng(36 + u64::from(backend == Backend::Postgres));
    // A place in a picture's pixels, on the sheet.
    let on_sheet = |question: i32, (x, y): (f32, f32)| {
        let (index, area) = delivery
            .layout
            .iter()
            .enumerate()
            .find_map(|(i, page)| {
                page.pictures
                    .iter()
                    .find(|p| p.question == question)
                    .map(|a| (i, *a))
            })
            .unwrap();
        let size = if question == 1 {
            (196.0, 280.0)
        } else {
            (206.0, 280.0)
        };
        let point = Point {
            x: area.frame.x + x / size.0 * area.frame.width,
            y: area.frame.y + y / size.1 * area.frame.height,
        };
        (index, point)
    };
    let read = |attempt: i64, crosses: &[(i32, (f32, f32))], random: &mut _| {
        let mut pages: Vec<_> = printed
            .iter()
            .filter(|(code, _)| i64::from(code.attempt) == attempt)
            .map(|(_, page)| page.clone())
            .collect();
        for (question, place) in crosses {
            let (index, point) = on_sheet(*question, *place);
            mark_cross(&mut pages[index], point, random);
        }
        let readings: Vec<_> = pages
            .iter()
            .enumerate()
            .map(|(index, page)| {
                let bytes = scan(
                    page,
                    Damage::random(random, 300.0),
                    attempt as u64 + index as u64,
                );
                let found = recognise::open(&bytes).expect("the page is found");
                let layout = &delivery.layout[usize::from(found.code.page) - 1];
                found.read(layout).unwrap()
            })
            .collect();
        assemble(&delivery.questions, &readings).unwrap()
    };

    // Edinburgh 5 pixels off its centre; Manchester and Heathrow, and a cross
    // in the sea: 1 of 1 and 2 of 3.
    let reading = read(
        attempts[0],
        &[
            (1, (106.0, 110.0)),
            (2, (118.0, 184.0)),
            (2, (150.0, 235.0)),
            (2, (30.0, 40.0)),
        ],
        &mut random,
    );
    assert!(reading.doubts.is_empty(), "{:?}", reading.doubts);
    let places = |reading: &scoredesk_sheets::AttemptReading, q: i32| {
        reading
            .answers
            .iter()
            .find_map(|a| match a {
                Answer::Places { question, places } if *question == q => Some(places.clone()),
                _ => None,
            })
            .unwrap()
    };
    let near = |read: &[(f32, f32)], expected: &[(f32, f32)]| {
        assert_eq!(read.len(), expected.len(), "{read:?}");
        for (r, e) in read.iter().zip(expected) {
            assert!(
                (r.0 - e.0).abs() < 4.0 && (r.1 - e.1).abs() < 4.0,
                "{read:?} against {expected:?}"
            );
        }
    };
    near(&places(&reading, 1), &[(106.0, 110.0)]);
    near(
        &places(&reading, 2),
        &[(30.0, 40.0), (118.0, 184.0), (150.0, 235.0)],
    );
    let result = crate::uploads::upload_reading(&app, *batch, attempts[0], &reading).await;
    let result = result["ID"].as_i64().unwrap();
    assert_eq!(
        crate::qti_packages::result_scores(&app, result).await,
        [1, 2]
    );
    assert_eq!(result_totals(&app, result).await, (Some(3), Some(4)));

    // Four crosses where three are taken: a person picks B, C and D (the three
    // airports, lettered left to right), and Edinburgh left unmarked is no answer.
    let mut reading = read(
        attempts[1],
        &[
            (2, (20.0, 250.0)),
            (2, (96.0, 114.0)),
            (2, (118.0, 184.0)),
            (2, (150.0, 235.0)),
        ],
        &mut random,
    );
    let doubts: Vec<(i32, DoubtReason, usize)> = reading
        .doubts
        .iter()
        .map(|d| (d.question, d.reason, d.bubbles.len()))
        .collect();
    assert_eq!(doubts, [(2, DoubtReason::SeveralMarks, 4)]);
    reading.resolve(2, vec![2, 3, 4]).unwrap();
    assert_eq!(places(&reading, 1), []);
    let result = crate::uploads::upload_reading(&app, *batch, attempts[1], &reading).await;
    let result = result["ID"].as_i64().unwrap();
    assert_eq!(
        crate::qti_packages::result_scores(&app, result).await,
        [0, 3]
    );
}
