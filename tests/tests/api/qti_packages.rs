//! Importing over HTTP (`ImportQtiPackage`), for the import tests; the packages are
//! `scoredesk_e2e::qti`'s.

use reqwest::StatusCode;
use scoredesk_e2e::TestApp;
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

pub(crate) use scoredesk_e2e::qti::*;

/// POSTs `ImportQtiPackage` as `user`.
pub(crate) async fn import(
    app: &TestApp,
    user: &str,
    package: &[u8],
    file_name: &str,
    preview: bool,
) -> reqwest::Response {
    use base64::Engine;
    // The account's own area: Harbour's accounts start with its name.
    let area = if user.starts_with("harbour") {
        app.harbour()
    } else {
        app.northwind()
    };
    app.client
        .post(app.url(&format!("/deliveryodata/{area}/ImportQtiPackage")))
        .basic_auth(user, Some(DEMO_PASSWORD))
        .json(&json!({
            "Package": base64::engine::general_purpose::STANDARD.encode(package),
            "FileName": file_name,
            "Preview": preview,
        }))
        .send()
        .await
        .unwrap()
}

/// Imports and expects 200; the report.
pub(crate) async fn imported(app: &TestApp, user: &str, package: &[u8], file_name: &str) -> Value {
    let response = import(app, user, package, file_name, false).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// A snapshot of `assessment` and an attempt at it by Northwind's first
/// participant (`external`: its ExternalAttemptID); `(snapshot, attempt)`.
pub(crate) async fn sit(app: &TestApp, assessment: &str, external: &str) -> (i64, i64) {
    let created = |set: &'static str, body: Value| async move {
        let response = crate::uploads::post(app, set, &body).await;
        assert_eq!(response.status(), StatusCode::CREATED, "{set} {body}");
        response.json::<Value>().await.unwrap()["ID"]
            .as_i64()
            .unwrap()
    };
    let snapshot = created(
        "AssessmentSnapshots",
        json!({"ID": 0, "AssessmentID": assessment, "Name": external}),
    )
    .await;
    let participant = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM participants WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let attempt = created(
        "Attempts",
        json!({"ID": 0, "ParticipantID": participant, "AssessmentID": assessment,
               "AssessmentSnapshotID": snapshot, "ExternalAttemptID": external,
               "LockStatus": false, "LockRequired": false}),
    )
    .await;
    (snapshot, attempt)
}

/// The number a snapshot gives the choice of `text` at question `position`: what an
/// upload names it by.
pub(crate) async fn choice_number(
    app: &TestApp,
    snapshot: i64,
    position: i32,
    text: &str,
) -> String {
    option_number(app, snapshot, position, 0, text)
        .await
        .to_string()
}

/// The number a snapshot gives the option `text` of blank `part` of question
/// `position` (0: the question's own choices).
pub(crate) async fn option_number(
    app: &TestApp,
    snapshot: i64,
    position: i32,
    part: i32,
    text: &str,
) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(s.choice_position AS BIGINT) FROM snapshot_choices s \
         JOIN snapshot_questions q ON q.snapshot_id = s.snapshot_id AND q.position = s.position \
         JOIN choices c ON c.question_id = q.question_id AND c.choice_order = s.choice_order \
         WHERE s.snapshot_id = {snapshot} AND s.position = {position} \
         AND c.part_number = {part} AND c.text = '{}'",
        text.replace('\'', "''")
    ))
    .await
}

/// The Result an upload made of `attempt`, and its answers' scores in question
/// order (-1 for one still to score).
pub(crate) async fn answer_scores(app: &TestApp, attempt: i64) -> (i64, Vec<i64>) {
    let result = app
        .sql_i64(&format!(
            "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {attempt}"
        ))
        .await;
    let scores = app
        .sql_column::<i64>(&format!(
            "SELECT CAST(COALESCE(actual_score, -1) AS BIGINT) FROM answers WHERE result_id = {result} \
             ORDER BY question_number"
        ))
        .await;
    (result, scores)
}

/// The printed paper of `snapshot`, fetched by its signed link as a browser would.
pub(crate) async fn printed_paper(app: &TestApp, snapshot: i64) -> String {
    printed_link(
        app,
        snapshot,
        "northwind-admin",
        "PrintableDocumentSourceUrl",
    )
    .await
}

/// The page `user` reads `snapshot`'s link `field` to, fetched without
/// credentials as a browser opens a signed link.
async fn printed_link(app: &TestApp, snapshot: i64, user: &str, field: &str) -> String {
    let (status, read) = app
        .get_json_with(
            user,
            &format!("{}AssessmentSnapshots({snapshot})", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    app.client
        .get(read[field].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// `upload` posted (it must be created), and then its Result's ID and each
/// answer's score (-1 for one waiting for a scorer).
pub(crate) async fn uploaded_scores(
    app: &TestApp,
    upload: &Value,
    attempt: i64,
) -> (i64, Vec<i64>) {
    let response = crate::uploads::post(app, "AnswerUploads", upload).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{text}");
    answer_scores(app, attempt).await
}

/// The scores of Result `result`'s answers, in the snapshot's order.
pub(crate) async fn result_scores(app: &TestApp, result: i64) -> Vec<i64> {
    app.sql_column::<i64>(&format!(
        "SELECT CAST(actual_score AS BIGINT) FROM answers WHERE result_id = {result} ORDER BY question_number"
    ))
    .await
}

/// The Result's `TotalScore` and `MaxScore`, as the administrator reads them.
pub(crate) async fn result_totals(app: &TestApp, result: i64) -> (Option<i64>, Option<i64>) {
    let (status, body): (StatusCode, Value) = app
        .get_json_with(
            "northwind-admin",
            &format!("{}Results({result})", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (body["TotalScore"].as_i64(), body["MaxScore"].as_i64())
}

/// The printed answer key of `snapshot`, fetched by its signed link as a
/// coordinator's browser would.
pub(crate) async fn printed_key(app: &TestApp, snapshot: i64) -> String {
    printed_link(
        app,
        snapshot,
        "northwind-coordinator",
        "PrintableDocumentWithAnswersSourceUrl",
    )
    .await
}
