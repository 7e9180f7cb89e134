//! Rubric authoring, our extension (`POST Rubrics` with its dimensions inline,
//! `DELETE Rubrics(<ID>)`): a rubric authored for an imported essay, the essay
//! delivered, scored with it and the Result's total; a used rubric never changed
//! under its ScoringResults; bad rubrics refused naming the field, nothing stored.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::qti_packages::{imported, own_package, sit};
use crate::scoring_support::{put_scoring_result, put_status, scoring_result_of, Task};
use crate::uploads::post;

on_both_backends! {
    an_imported_essay_is_scored_with_a_rubric_authored_for_it => authored_and_scored;
    a_used_rubric_is_never_changed_under_its_scoring_results => versions;
    a_bad_rubric_is_refused_naming_the_field_and_nothing_is_stored => refused;
}

const ADMIN: &str = "northwind-admin";

async fn send(
    app: &TestApp,
    user: &str,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> reqwest::Response {
    let mut request = app
        .client
        .request(method, app.url(&format!("{}{path}", app.root())))
        .basic_auth(user, Some(DEMO_PASSWORD));
    if let Some(body) = body {
        request = request.json(body);
    }
    request.send().await.unwrap()
}

fn rubric(question: i64, name: &str) -> Value {
    json!({
        "QuestionID": question.to_string(),
        "Name": name,
        "Instructions": "Mark the explanation, then its language.",
        "MaxScore": 4,
        "Dimensions": [
            {"Order": 1, "Name": "Idea", "Instructions": "Water, a membrane, concentrations.", "MaxScore": 3,
             "Levels": ["Nothing relevant", "Water moves", "Through a membrane", "Down a concentration gradient"]},
            {"Order": 2, "Name": "Language", "MaxScore": 1}
        ]
    })
}

/// Authors `body` as the administrator; the created rubric.
async fn authored(app: &TestApp, body: &Value) -> Value {
    let response = send(app, ADMIN, Method::POST, "Rubrics", Some(body)).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The imported package's essay question (osmosis, worth 4).
async fn essay(app: &TestApp) -> (String, i64) {
    let report = imported(app, ADMIN, &own_package("Plant cells", "a"), "cells.zip").await;
    let essay = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["QuestionType"] == "essay")
        .unwrap();
    (
        report["AssessmentId"].as_str().unwrap().to_owned(),
        essay["QuestionId"].as_str().unwrap().parse().unwrap(),
    )
}

/// Delivers the assessment to a participant with `upload`'s answers; the Result.
async fn deliver(app: &TestApp, assessment: &str, external: &str, essay: &str) -> i64 {
    let (snapshot, attempt) = sit(app, assessment, external).await;
    let right = app
        .sql_i64(&format!(
            "SELECT CAST(s.choice_position AS BIGINT) FROM snapshot_choices s \
             JOIN snapshot_questions q ON q.snapshot_id = s.snapshot_id AND q.position = s.position \
             JOIN choices c ON c.question_id = q.question_id AND c.choice_order = s.choice_order \
             WHERE s.snapshot_id = {snapshot} AND s.position = 1 AND c.is_correct"
        ))
        .await;
    let upload = json!({
        "AttemptID": attempt,
        "QuestionAndChoices": [
            {"QuestionOrderNumber": 1, "UploadedChoices": [{"ChoiceOrderNumber": right.to_string(), "Selected": true}]},
            {"QuestionOrderNumber": 3, "TextResponse": essay},
            {"QuestionOrderNumber": 4, "TextResponse": "starch"}
        ]
    });
    let response = post(app, "AnswerUploads", &upload).await;
    assert_eq!(
        response.status(),
        StatusCode::CREATED,
        "{}",
        response.text().await.unwrap()
    );
    app.sql_i64(&format!(
        "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {attempt}"
    ))
    .await
}

/// Scores the essay of `result` with `score` and submits it (Status 3, which
/// updates the Result); the ScoringResult read.
async fn score_essay(app: &TestApp, question: i64, result: i64, score: i64) -> Value {
    let task = Task { question, result };
    assert_eq!(put_status(app, task, 1).await, StatusCode::NO_CONTENT);
    let scoring_result = scoring_result_of(app, task).await;
    let response = put_scoring_result(app, &scoring_result, score, "Clear and correct.").await;
    assert_eq!(
        response.status(),
        StatusCode::NO_CONTENT,
        "{}",
        response.text().await.unwrap()
    );
    assert_eq!(put_status(app, task, 3).await, StatusCode::NO_CONTENT);
    scoring_result
}

async fn authored_and_scored(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (assessment, question) = essay(&app).await;
    let made = authored(&app, &rubric(question, "Osmosis")).await;
    assert_eq!(made["QuestionID"], question.to_string());
    assert_eq!(made["MaxScore"], 4);
    assert!(made["ReplacedDateTime"].is_null());
    let id = made["ID"].as_i64().unwrap();
    let reached = app
        .get_json(&format!("{}Questions({question}L)/Rubric", app.root()))
        .await;
    assert_eq!(reached["value"].as_array().unwrap().len(), 1);
    assert_eq!(reached["value"][0]["ID"], id);
    let dimensions = app
        .get_json(&format!("{}Rubrics({id})/Dimensions", app.root()))
        .await;
    let names: Vec<&str> = dimensions["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Idea", "Language"]);
    let levels = app
        .sql_strings(&format!("SELECT description FROM dimension_levels WHERE rubric_id = {id} ORDER BY dimension_order, score"))
        .await;
    assert_eq!(levels.len(), 4);
    assert_eq!(levels[3], "Down a concentration gradient");

    // The whole path: delivered, the choices marked, the essay scored with it.
    let result = deliver(
        &app,
        &assessment,
        "osmosis-1",
        "Water moves through a membrane, down its gradient.",
    )
    .await;
    // The printed answer key of its snapshot: the imported questions, the text
    // entry's accepted answers.
    let snapshot = app
        .sql_i64(&format!(
            "SELECT CAST(a.snapshot_id AS BIGINT) FROM attempts a WHERE a.result_id = {result}"
        ))
        .await;
    let page = crate::qti_packages::printed_key(&app, snapshot).await;
    for words in [
        "Where is DNA kept in a plant cell?",
        "Explain osmosis.",
        "Plants store energy as",
        "Accepted: starch · glucose",
    ] {
        assert!(page.contains(words), "the printed key holds {words}");
    }
    let scoring_result = score_essay(&app, question, result, 3).await;
    assert_eq!(
        scoring_result["RubricID"], id,
        "scored with the authored rubric"
    );
    let total = app
        .sql_i64(&format!(
            "SELECT CAST(total_score AS BIGINT) FROM results WHERE id = {result}"
        ))
        .await;
    // 2 (the single choice) + 0 (the multiple response, unanswered) + 3 (the essay)
    // + 2 (the text entry's mapped starch).
    assert_eq!(total, 7);
}

async fn versions(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (assessment, question) = essay(&app).await;
    let first = authored(&app, &rubric(question, "Osmosis")).await["ID"]
        .as_i64()
        .unwrap();
    let result = deliver(&app, &assessment, "osmosis-1", "An answer.").await;
    let scored = score_essay(&app, question, result, 2).await;
    assert_eq!(scored["RubricID"], first);

    // Edited after use: a new rubric for new scoring; the old one stays for its result.
    let second = authored(&app, &rubric(question, "Osmosis, revised")).await["ID"]
        .as_i64()
        .unwrap();
    assert_ne!(second, first);
    let old = app
        .get_json(&format!("{}Rubrics({first})", app.root()))
        .await;
    assert!(!old["ReplacedDateTime"].is_null(), "{old}");
    assert_eq!(old["Name"], "Osmosis");
    let now = app
        .get_json(&format!("{}Questions({question}L)/Rubric", app.root()))
        .await;
    let ids: Vec<i64> = now["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ID"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [second], "the question's rubric is the new one");
    // The old one is still reached by its key, as its ScoringResult names it.
    let by_key = app
        .get_json(&format!(
            "{}Questions({question}L)/Rubric({first})",
            app.root()
        ))
        .await;
    assert_eq!(by_key["ID"], first);
    let stored = app
        .sql_i64(&format!(
            "SELECT CAST(rubric_id AS BIGINT) FROM scoring_results WHERE result_id = {result}"
        ))
        .await;
    assert_eq!(stored, first, "the old ScoringResult keeps its rubric");
    let another = deliver(&app, &assessment, "osmosis-2", "Another answer.").await;
    let fresh = score_essay(&app, question, another, 4).await;
    assert_eq!(fresh["RubricID"], second, "new scoring uses the new rubric");
    // A used rubric is never deleted.
    let refused = send(
        &app,
        ADMIN,
        Method::DELETE,
        &format!("Rubrics({first})"),
        None,
    )
    .await;
    assert_eq!(refused.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(refused).await.contains("kept for them"));

    // An unused rubric is replaced outright, and can be deleted.
    let (_, other) = {
        let report = imported(
            &app,
            ADMIN,
            &own_package("Plant cells II", "a"),
            "cells2.zip",
        )
        .await;
        let essay = report["Questions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["QuestionType"] == "essay")
            .unwrap()
            .clone();
        (
            (),
            essay["QuestionId"]
                .as_str()
                .unwrap()
                .parse::<i64>()
                .unwrap(),
        )
    };
    authored(&app, &rubric(other, "Draft")).await;
    let better = authored(&app, &rubric(other, "Better")).await["ID"]
        .as_i64()
        .unwrap();
    let names = app
        .sql_strings(&format!(
            "SELECT name FROM rubrics WHERE question_id = {other}"
        ))
        .await;
    assert_eq!(names, ["Better"], "an unused rubric is not kept");
    let deleted = send(
        &app,
        ADMIN,
        Method::DELETE,
        &format!("Rubrics({better})"),
        None,
    )
    .await;
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let none = app
        .get_json(&format!("{}Questions({other}L)/Rubric", app.root()))
        .await;
    assert!(none["value"].as_array().unwrap().is_empty());
}

async fn refused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (_, question) = essay(&app).await;
    let tables = ["rubrics", "dimensions", "dimension_levels"];
    let before = app.row_counts(&tables).await;
    let with = |change: &dyn Fn(&mut Value)| {
        let mut body = rubric(question, "Osmosis");
        change(&mut body);
        body
    };
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&|b| b["MaxScore"] = json!(5)),
            "Rubric.MaxScore: is 5; a rubric's maximum must equal its question's, which is 4",
        ),
        (
            with(&|b| b["Dimensions"][1]["MaxScore"] = json!(2)),
            "Rubric.Dimensions: their maxima add up to 5",
        ),
        (
            with(&|b| b["Dimensions"][1]["Name"] = json!(" ")),
            "Rubric.Dimensions[1].Name: is required",
        ),
        (
            with(&|b| b["Dimensions"][0]["Levels"] = json!(["a", "b"])),
            "Rubric.Dimensions[0].Levels: has 2 descriptions",
        ),
        (
            with(&|b| b["Dimensions"][1]["Order"] = json!(3)),
            "Rubric.Dimensions[1].Order: is 3",
        ),
        (
            with(&|b| b["Dimensions"] = json!([])),
            "Rubric.Dimensions: a rubric has at least one dimension",
        ),
        (
            with(&|b| b["QuestionID"] = json!("999999")),
            "Rubric.QuestionID: 999999 is not a question of this customer area",
        ),
        (
            with(&|b| b["QuestionID"] = json!("abc")),
            "Rubric.QuestionID: 'abc' is not an Int64",
        ),
        (with(&|b| b["MaxScore"] = json!("four")), "Rubric.MaxScore"),
        (
            with(&|b| b["Dimensions"][0]["MaxScore"] = json!(null)),
            "Rubric.Dimensions[0].MaxScore",
        ),
        (
            with(&|b| {
                b.as_object_mut().unwrap().remove("Name");
            }),
            "missing field `Name`",
        ),
    ];
    for (body, words) in cases {
        let response = send(&app, ADMIN, Method::POST, "Rubrics", Some(&body)).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(words), "{words}: {message}");
    }
    let scorer = send(
        &app,
        "northwind-scorer",
        Method::POST,
        "Rubrics",
        Some(&rubric(question, "Mine")),
    )
    .await;
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
    let coordinator = send(
        &app,
        "northwind-coordinator",
        Method::POST,
        "Rubrics",
        Some(&rubric(question, "Mine")),
    )
    .await;
    assert_eq!(coordinator.status(), StatusCode::FORBIDDEN);
    // Another area's question is not this area's.
    let harbour = app
        .client
        .post(app.url(&format!("/deliveryodata/{}/Rubrics", app.harbour())))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .json(&rubric(question, "Theirs"))
        .send()
        .await
        .unwrap();
    assert_eq!(harbour.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        app.row_counts(&tables).await,
        before,
        "nothing of a refused rubric is stored"
    );
}
