//! `PrintBatches` and `Attempts` (spec, "External delivery"): created with dummy
//! IDs and dates, read back by key and by filter; every bad body a 400 naming the
//! field with nothing stored, a duplicate `ExternalAttemptID` a 409, also when two
//! arrive at once.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

on_both_backends! {
    a_coordinator_makes_a_print_batch_and_reads_it_by_group => batch;
    a_coordinator_makes_an_attempt_and_finds_it_by_its_external_id => attempt;
    bad_batches_and_attempts_are_refused_naming_the_field => refused;
    two_attempts_with_one_external_id_at_once_make_one => duplicate_at_once;
}

const COORDINATOR: &str = "northwind-coordinator";

async fn post(app: &TestApp, user: &str, set: &str, body: &Value) -> reqwest::Response {
    app.client
        .post(app.url(&format!("{}{set}", app.root())))
        .basic_auth(user, Some(DEMO_PASSWORD))
        .json(body)
        .send()
        .await
        .unwrap()
}

/// A snapshot of the first Northwind assessment: (its ID, the assessment's).
async fn snapshot(app: &TestApp) -> (i64, i64) {
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(assessment_id) FROM assessment_questions WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let response = post(
        app,
        COORDINATOR,
        "AssessmentSnapshots",
        &json!({"AssessmentID": assessment.to_string()}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    (created["ID"].as_i64().unwrap(), assessment)
}

async fn first(app: &TestApp, table: &str, area: i32) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(MIN(id) AS BIGINT) FROM {table} WHERE customer_id = {area}"
    ))
    .await
}

async fn batch(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (snapshot, _) = snapshot(&app).await;
    let group = first(&app, "groups", app.northwind()).await;
    let body = json!({
        "ID": 0, "CreatedDateTime": "2000-01-01T00:00:00", "ModifiedDateTime": "2000-01-01T00:00:00",
        "GroupID": group, "SnapshotID": snapshot, "Name": "Year 10, morning",
    });
    let response = post(&app, COORDINATOR, "PrintBatches", &body).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    let id = created["ID"].as_i64().unwrap();
    assert!(id > 0);
    assert_eq!(created["GroupID"], group);
    assert_eq!(created["SnapshotID"], snapshot);
    assert!(created["LastUploadedDateTime"].is_null());
    assert_ne!(created["CreatedDateTime"], "2000-01-01T00:00:00");
    let listed = app
        .get_json(&format!(
            "{}PrintBatches?$filter=GroupID eq {group}&$expand=Group,AssessmentSnapshot",
            app.root()
        ))
        .await;
    let found = &listed["value"][0];
    assert_eq!(found["ID"], id);
    assert_eq!(found["Group"]["ID"], group);
    assert_eq!(found["AssessmentSnapshot"]["ID"], snapshot);
    // Our extension: a snapshot's batches.
    let of_snapshot = app
        .get_json(&format!(
            "{}PrintBatches?$filter=SnapshotID eq {snapshot}",
            app.root()
        ))
        .await;
    let ids: Vec<&Value> = of_snapshot["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| &b["ID"])
        .collect();
    assert_eq!(ids, vec![&json!(id)]);
    let scorer = post(&app, "northwind-scorer", "PrintBatches", &body).await;
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
}

async fn attempt(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (snapshot, assessment) = snapshot(&app).await;
    let participant = first(&app, "participants", app.northwind()).await;
    let body = json!({
        "ID": 0, "LastModifiedDateTime": "2000-01-01T00:00:00",
        "ParticipantID": participant, "AssessmentID": assessment.to_string(),
        "AssessmentSnapshotID": snapshot, "ExternalAttemptID": "paper-2026-001",
        "LockStatus": false, "LockRequired": false,
    });
    let response = post(&app, COORDINATOR, "Attempts", &body).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    let id = created["ID"].as_i64().unwrap();
    assert!(created["ResultID"].is_null());
    assert_eq!(created["AssessmentSnapshotID"], snapshot);
    let read = app.get_json(&format!("{}Attempts({id})", app.root())).await;
    assert_eq!(read["ExternalAttemptID"], "paper-2026-001");
    let found = app
        .get_json(&format!(
            "{}Attempts?$filter=ExternalAttemptID eq 'paper-2026-001'",
            app.root()
        ))
        .await;
    assert_eq!(found["value"].as_array().unwrap().len(), 1);
    // Our extension: a snapshot's attempts and a participant's (the coordinator's
    // screens list a print batch's attempts so).
    for filter in [
        format!("AssessmentSnapshotID eq {snapshot}"),
        format!("ParticipantID eq {participant}"),
    ] {
        let found = app
            .get_json(&format!("{}Attempts?$filter={filter}", app.root()))
            .await;
        let ids: Vec<i64> = found["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["ID"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, vec![id], "{filter}");
    }
    let none = app
        .get_json(&format!(
            "{}Attempts?$filter=AssessmentSnapshotID eq {}",
            app.root(),
            snapshot + 1000
        ))
        .await;
    assert_eq!(none["value"].as_array().unwrap().len(), 0);
    let again = post(&app, COORDINATOR, "Attempts", &body).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(again)
        .await
        .contains("ExternalAttemptID"));
    // Another area may use the same external ID.
    let harbour_participant = first(&app, "participants", app.harbour()).await;
    let harbour_assessment = first(&app, "assessments", app.harbour()).await;
    let harbour = app
        .client
        .post(app.url(&format!("/deliveryodata/{}/Attempts", app.harbour())))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .json(&json!({"ParticipantID": harbour_participant, "AssessmentID": harbour_assessment.to_string(), "ExternalAttemptID": "paper-2026-001"}))
        .send()
        .await
        .unwrap();
    assert_eq!(harbour.status(), StatusCode::CREATED);
}

async fn refused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (snapshot, assessment) = snapshot(&app).await;
    let group = first(&app, "groups", app.northwind()).await;
    let other_group = first(&app, "groups", app.harbour()).await;
    let participant = first(&app, "participants", app.northwind()).await;
    let other_participant = first(&app, "participants", app.harbour()).await;
    let other_assessment = app
        .sql_i64(&format!(
            "SELECT MAX(id) FROM assessments WHERE customer_id = {} AND id <> {assessment}",
            app.northwind()
        ))
        .await;
    let tables = ["print_batches", "attempts"];
    let before = app.row_counts(&tables).await;
    let attempt = |change: Value| {
        let mut body = json!({"ParticipantID": participant, "AssessmentID": assessment.to_string(), "AssessmentSnapshotID": snapshot});
        for (key, value) in change.as_object().unwrap() {
            if value.is_null() && key.starts_with('-') {
                body.as_object_mut().unwrap().remove(&key[1..]);
            } else {
                body[key] = value.clone();
            }
        }
        body
    };
    let cases: Vec<(&str, Value, &str)> = vec![
        ("PrintBatches", json!({"SnapshotID": snapshot}), "GroupID"),
        ("PrintBatches", json!({"GroupID": group}), "SnapshotID"),
        (
            "PrintBatches",
            json!({"GroupID": other_group, "SnapshotID": snapshot}),
            "GroupID",
        ),
        (
            "PrintBatches",
            json!({"GroupID": group, "SnapshotID": 999999}),
            "SnapshotID",
        ),
        (
            "PrintBatches",
            json!({"GroupID": "one", "SnapshotID": snapshot}),
            "GroupID",
        ),
        (
            "PrintBatches",
            json!({"GroupID": group, "SnapshotID": snapshot, "Name": ["x"]}),
            "Name",
        ),
        (
            "PrintBatches",
            json!({"GroupID": group, "SnapshotID": snapshot, "Printer": "hall"}),
            "Printer",
        ),
        (
            "Attempts",
            attempt(json!({"-ParticipantID": null})),
            "ParticipantID",
        ),
        (
            "Attempts",
            attempt(json!({"ParticipantID": other_participant})),
            "ParticipantID",
        ),
        (
            "Attempts",
            attempt(json!({"ParticipantID": 99999999})),
            "ParticipantID",
        ),
        (
            "Attempts",
            attempt(json!({"-AssessmentID": null})),
            "AssessmentID",
        ),
        (
            "Attempts",
            attempt(json!({"AssessmentID": "7"})),
            "AssessmentID",
        ),
        (
            "Attempts",
            attempt(json!({"AssessmentID": other_assessment.to_string()})),
            "AssessmentSnapshotID",
        ),
        (
            "Attempts",
            attempt(json!({"AssessmentSnapshotID": 999999})),
            "AssessmentSnapshotID",
        ),
        (
            "Attempts",
            attempt(json!({"LockStatus": true})),
            "LockStatus",
        ),
        (
            "Attempts",
            attempt(json!({"LockRequired": true})),
            "LockRequired",
        ),
        ("Attempts", attempt(json!({"ResultID": 5})), "ResultID"),
        (
            "Attempts",
            attempt(json!({"ExternalAttemptID": 12})),
            "ExternalAttemptID",
        ),
        (
            "Attempts",
            attempt(json!({"ExternalAttemptID": "x".repeat(5000)})),
            "ExternalAttemptID",
        ),
    ];
    for (set, body, field) in cases {
        let response = post(&app, COORDINATOR, set, &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{set} {body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(field), "{set} {body}: {message}");
    }
    let scorer = app
        .request_as(
            Method::POST,
            &format!("{}Attempts", app.root()),
            "northwind-scorer",
            DEMO_PASSWORD,
        )
        .await;
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.row_counts(&tables).await, before, "nothing was stored");
}

async fn duplicate_at_once(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (snapshot, assessment) = snapshot(&app).await;
    let participant = first(&app, "participants", app.northwind()).await;
    let body = json!({"ParticipantID": participant, "AssessmentID": assessment.to_string(), "AssessmentSnapshotID": snapshot, "ExternalAttemptID": "twice"});
    let answers =
        futures::future::join_all((0..6).map(|_| post(&app, COORDINATOR, "Attempts", &body))).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status()).collect();
    scoredesk_e2e::assert_one_created_the_rest_conflict(&statuses);
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM attempts WHERE external_attempt_id = 'twice'")
            .await,
        1
    );
}
