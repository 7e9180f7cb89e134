//! The marked script (docs/marking-quality.md, "The marked script"): a
//! coordinator asks `MarkedScript` for a signed link and the page it opens,
//! without credentials, has each marked question's answer with the marker's
//! annotations on it (a highlight and a numbered note on the typed text, a
//! tick drawn over the scan in its pixels), the notes written out, and the
//! scores and comments; a tampered link is 403, scorers and another area may
//! not ask. Chromium prints it to a PDF whose text (pdftotext) has them.

use std::path::PathBuf;
use std::process::Command;

use reqwest::{Method, StatusCode};
use scoredesk_e2e::paper::chromium;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::{scoring_result_of, Task, SCORER};
use crate::second_marking::{dimension_maxima, get_as, json_as, marking_as, send, with_markers};

on_both_backends! {
    a_coordinator_prints_a_marked_script_with_its_marks_scores_and_comments => printed;
}

const COORDINATOR: &str = "northwind-coordinator";
const NOTE: &str = "Explain the unit, please";

/// A result with an open typed answer and an open scan, annotated by the
/// scorer (a highlight and a note on the text's first word, a tick on the
/// scan) and its typed task marked in full: the result, the typed task and
/// the scan's size.
async fn annotated(app: &TestApp) -> (i64, Task, (i64, i64)) {
    let row = |media: &str| {
        format!("SUM(CASE WHEN a.media_type LIKE '{media}%' AND t.status = 0 THEN 1 ELSE 0 END)")
    };
    let result = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(result_id) AS BIGINT) FROM (SELECT a.result_id FROM answers a JOIN scoring_tasks t \
             ON t.question_id = a.question_id AND t.result_id = a.result_id \
             WHERE a.customer_id = {} GROUP BY a.result_id HAVING {} > 0 AND {} > 0) chosen",
            app.northwind(),
            row("image/"),
            row("text/plain")
        ))
        .await;
    let block = |media: &str| {
        format!(
            "SELECT CAST(a.question_id AS TEXT) || ',' || CAST(a.occurrence AS TEXT) || ',' || \
             CAST(a.block_number AS TEXT) FROM answers a JOIN scoring_tasks t ON \
             t.question_id = a.question_id AND t.result_id = a.result_id WHERE a.result_id = \
             {result} AND t.status = 0 AND a.media_type LIKE '{media}%' ORDER BY a.question_id"
        )
    };
    let mut placed = Vec::new();
    for (media, body) in [
        (
            "text/plain",
            json!({"Kind": "highlighter", "TextStart": 0, "TextEnd": 4}),
        ),
        (
            "text/plain",
            json!({"Kind": "note", "TextStart": 0, "TextEnd": 4, "Text": NOTE}),
        ),
        ("image/", json!({"Kind": "tick", "Points": "10,12"})),
    ] {
        let found = app.sql_strings(&block(media)).await;
        let parts: Vec<i64> = found[0].split(',').map(|p| p.parse().unwrap()).collect();
        let mut body = body;
        body["QuestionID"] = json!(parts[0].to_string());
        body["ResultID"] = json!(result);
        body["Occurrence"] = json!(parts[1]);
        body["BlockNumber"] = json!(parts[2]);
        let response = send(app, Method::POST, SCORER, "Annotations", &body, &[]).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        placed.push((parts[0], parts[1], parts[2]));
    }
    let typed = Task {
        question: placed[0].0,
        result,
    };
    let rubric = scoring_result_of(app, typed).await["RubricID"].clone();
    let maxima = dimension_maxima(app, &rubric).await;
    assert_eq!(
        marking_as(app, SCORER, typed, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let scan = placed[2];
    let (width, height) = {
        let path = format!(
            "Answers(QuestionID={}L,ResultID={result},Occurrence={},BlockNumber={})/$value",
            scan.0, scan.1, scan.2
        );
        let bytes = send(app, Method::GET, SCORER, &path, &Value::Null, &[])
            .await
            .bytes()
            .await
            .unwrap();
        let image = image::load_from_memory(&bytes).unwrap();
        (i64::from(image.width()), i64::from(image.height()))
    };
    (result, typed, (width, height))
}

/// The link a coordinator is given.
async fn link(app: &TestApp, result: i64) -> String {
    let answer = json_as(app, COORDINATOR, &format!("MarkedScript?ResultID={result}")).await;
    assert_eq!(answer["ResultID"], json!(result));
    answer["SourceUrl"].as_str().unwrap().to_owned()
}

async fn printed(backend: Backend) {
    let app = with_markers(backend).await;
    let (result, typed, (width, height)) = annotated(&app).await;
    let url = link(&app, result).await;

    // Opened without credentials.
    let response = app.client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = response.text().await.unwrap();
    assert!(html.contains("<mark>"), "the highlight");
    assert!(
        html.contains("<sup class=\"note\">[1]</sup>"),
        "the note's number"
    );
    assert!(html.contains(NOTE), "the note written out");
    assert!(html.contains("first-marker-says-zebra"), "the comments");
    assert!(
        html.contains(&format!("viewBox=\"0 0 {width} {height}\"")),
        "the scan's pixels"
    );
    assert!(
        html.contains("<path class=\"tick\""),
        "the tick over the scan"
    );
    let expected = app
        .sql_i64(&format!(
            "SELECT CAST(score AS BIGINT) FROM scoring_results WHERE result_id = {} AND question_id = {}",
            typed.result, typed.question
        ))
        .await;
    let max = app
        .sql_i64(&format!(
            "SELECT CAST(max_score AS BIGINT) FROM questions WHERE id = {}",
            typed.question
        ))
        .await;
    assert!(
        html.contains(&format!("{expected} / {max}")),
        "the question's score"
    );
    assert!(html.contains("Not marked yet."), "the scan is not marked");

    // A changed link, a scorer, another area.
    let tampered = url.replace(
        &format!("/scripts/{result}?"),
        &format!("/scripts/{}?", result + 1),
    );
    assert_eq!(
        app.client.get(&tampered).send().await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    let (status, _) = get_as(&app, SCORER, &format!("MarkedScript?ResultID={result}")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = get_as(&app, COORDINATOR, "MarkedScript?ResultID=999999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for bad in [
        "MarkedScript",
        "MarkedScript?ResultID='x'",
        "MarkedScript?ResultID=99999999999",
    ] {
        let (status, _) = get_as(&app, COORDINATOR, bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let harbour = format!(
        "/deliveryodata/{}/MarkedScript?ResultID={result}",
        app.harbour()
    );
    assert_eq!(
        get_as(&app, "harbour-admin", &harbour).await.0,
        StatusCode::NOT_FOUND
    );

    if backend == Backend::Sqlite {
        in_a_pdf(&url);
    }
}

/// Chromium prints the page; the PDF's text has the note and the comments, and
/// a picture of its first page is kept in artifacts/print/ to be looked at.
fn in_a_pdf(url: &str) {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("marked-script.pdf");
    chromium(
        dir.path(),
        &[
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
            url,
        ],
    );
    let artifacts = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../artifacts/print"));
    std::fs::create_dir_all(&artifacts).unwrap();
    chromium(
        dir.path(),
        &[
            &format!(
                "--screenshot={}",
                artifacts.join("marked-script.png").display()
            ),
            "--window-size=900,1270",
            "--hide-scrollbars",
            url,
        ],
    );
    let output = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains(NOTE), "{text}");
    assert!(text.contains("first-marker-says-zebra"), "{text}");
    assert!(text.contains("Not marked yet."), "{text}");
}
