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
