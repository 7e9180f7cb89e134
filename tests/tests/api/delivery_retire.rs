//! Issue 33, defect 13: a snapshot or print batch made by mistake could be neither
//! renamed nor removed. Our extension: a print batch is renamed by PATCH or MERGE
//! (a snapshot already was), and either is deleted while nothing uses it; one in use
//! is a 409 naming what uses it, and nothing of it goes.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

on_both_backends! {
    a_print_batch_is_renamed_and_nothing_else_of_it_changes => rename_batch;
    what_nothing_uses_is_deleted_and_what_is_used_is_kept => delete_unused;
    another_area_or_role_cannot_delete => delete_refused;
}

const COORDINATOR: &str = "northwind-coordinator";

async fn send(
    app: &TestApp,
    user: &str,
    method: Method,
    path: &str,
    body: Value,
) -> reqwest::Response {
    let mut request = app
        .client
        .request(method, app.url(&format!("{}{path}", app.root())))
        .basic_auth(user, Some(DEMO_PASSWORD));
    if !body.is_null() {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

async fn created_id(response: reqwest::Response) -> i64 {
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    created["ID"].as_i64().unwrap()
}

/// A fresh snapshot of a Northwind assessment, and a batch of it for a group with
/// members: (snapshot, batch, group, assessment).
async fn snapshot_and_batch(app: &TestApp) -> (i64, i64, i64, i64) {
    let area = app.northwind();
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(assessment_id) FROM assessment_questions WHERE customer_id = {area}"
        ))
        .await;
    let snapshot = created_id(
        send(
            app,
            COORDINATOR,
            Method::POST,
            "AssessmentSnapshots",
            json!({"AssessmentID": assessment.to_string(), "Name": "Typo"}),
        )
        .await,
    )
    .await;
    let group = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(group_id) AS BIGINT) FROM group_participants gp \
             JOIN groups g ON g.id = gp.group_id WHERE g.customer_id = {area}"
        ))
        .await;
    let batch = created_id(
        send(
            app,
            COORDINATOR,
            Method::POST,
            "PrintBatches",
            json!({"GroupID": group, "SnapshotID": snapshot, "Name": "Mornign"}),
        )
        .await,
    )
    .await;
    (snapshot, batch, group, assessment)
}

async fn rename_batch(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (_, batch, group, _) = snapshot_and_batch(&app).await;
    let path = format!("PrintBatches({batch})");
    let patched = send(
        &app,
        COORDINATOR,
        Method::PATCH,
        &path,
        json!({"Name": "Morning"}),
    )
    .await;
    assert_eq!(patched.status(), StatusCode::NO_CONTENT);
    let read = app.get_json(&format!("{}{path}", app.root())).await;
    assert_eq!(read["Name"], "Morning");

    // MERGE with the entity as read, the name changed: a client's round trip.
    let mut whole = read.clone();
    whole["Name"] = json!("Morning, hall B");
    let merge = Method::from_bytes(b"MERGE").unwrap();
    let merged = send(&app, COORDINATOR, merge.clone(), &path, whole).await;
    assert_eq!(merged.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.get_json(&format!("{}{path}", app.root())).await["Name"],
        "Morning, hall B"
    );

    // Anything else is refused by name, and the name stays.
    let moved = send(
        &app,
        COORDINATOR,
        merge,
        &path,
        json!({"GroupID": group + 1000, "Name": "Moved"}),
    )
    .await;
    assert_eq!(moved.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(moved).await;
    assert!(
        message.contains("PrintBatch.GroupID is read-only"),
        "{message}"
    );
    assert_eq!(
        app.get_json(&format!("{}{path}", app.root())).await["Name"],
        "Morning, hall B"
    );
    let long = send(
        &app,
        COORDINATOR,
        Method::PATCH,
        &path,
        json!({"Name": "x".repeat(300)}),
    )
    .await;
    assert_eq!(long.status(), StatusCode::BAD_REQUEST);
    let missing = send(
        &app,
        COORDINATOR,
        Method::PATCH,
        "PrintBatches(999999)",
        json!({"Name": "x"}),
    )
    .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

async fn delete_unused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let (snapshot, batch, group, assessment) = snapshot_and_batch(&app).await;
    let snapshot_path = format!("AssessmentSnapshots({snapshot})");
    let batch_path = format!("PrintBatches({batch})");

    // The snapshot has a batch: kept, and said why.
    let kept = send(
        &app,
        COORDINATOR,
        Method::DELETE,
        &snapshot_path,
        Value::Null,
    )
    .await;
    assert_eq!(kept.status(), StatusCode::CONFLICT);
    let message = odata_error_message(kept).await;
    assert!(
        message.contains(&format!(
            "AssessmentSnapshot {snapshot} is in use (1 print batch)"
        )),
        "{message}"
    );

    // An attempt of a member of the batch's group at its snapshot: both kept.
    let member = app
        .sql_i64(&format!("SELECT CAST(MIN(participant_id) AS BIGINT) FROM group_participants WHERE group_id = {group}"))
        .await;
    let attempt = created_id(
        send(
            &app,
            COORDINATOR,
            Method::POST,
            "Attempts",
            json!({
                "ParticipantID": member, "AssessmentID": assessment.to_string(),
                "AssessmentSnapshotID": snapshot, "ExternalAttemptID": "retire-1",
            }),
        )
        .await,
    )
    .await;
    let kept = send(&app, COORDINATOR, Method::DELETE, &batch_path, Value::Null).await;
    assert_eq!(kept.status(), StatusCode::CONFLICT);
    let message = odata_error_message(kept).await;
    assert!(
        message.contains(&format!(
            "PrintBatch {batch} is in use (1 attempt of its group at its snapshot)"
        )),
        "{message}"
    );
    let kept = send(
        &app,
        COORDINATOR,
        Method::DELETE,
        &snapshot_path,
        Value::Null,
    )
    .await;
    let message = odata_error_message(kept).await;
    assert!(message.contains("(1 print batch, 1 attempt)"), "{message}");
    assert_eq!(
        app.get_as(COORDINATOR, &format!("{}{batch_path}", app.root()))
            .await
            .status(),
        StatusCode::OK
    );

    // A second snapshot and batch that nothing uses go, the batch first; the
    // snapshot's contents with it, and its document is gone.
    let (unused_snapshot, unused_batch, _, _) = snapshot_and_batch(&app).await;
    let fixed = |table: &str| {
        format!("SELECT COUNT(*) FROM {table} WHERE customer_id = {area} AND snapshot_id = {unused_snapshot}")
    };
    assert!(app.sql_i64(&fixed("snapshot_questions")).await > 0);
    let gone = send(
        &app,
        COORDINATOR,
        Method::DELETE,
        &format!("PrintBatches({unused_batch})"),
        Value::Null,
    )
    .await;
    assert_eq!(gone.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.get_as(
            COORDINATOR,
            &format!("{}PrintBatches({unused_batch})", app.root())
        )
        .await
        .status(),
        StatusCode::NOT_FOUND
    );
    let path = format!("AssessmentSnapshots({unused_snapshot})");
    let gone = send(&app, COORDINATOR, Method::DELETE, &path, Value::Null).await;
    assert_eq!(gone.status(), StatusCode::NO_CONTENT);
    for read in [
        path.clone(),
        format!("{path}/AssessmentSnapshotData/$value"),
    ] {
        assert_eq!(
            app.get_as(COORDINATOR, &format!("{}{read}", app.root()))
                .await
                .status(),
            StatusCode::NOT_FOUND,
            "{read}"
        );
    }
    assert_eq!(app.sql_i64(&fixed("snapshot_questions")).await, 0);
    assert_eq!(app.sql_i64(&fixed("snapshot_choices")).await, 0);
    let again = send(&app, COORDINATOR, Method::DELETE, &path, Value::Null).await;
    assert_eq!(again.status(), StatusCode::NOT_FOUND);

    // The used ones are whole: the attempt still reads its snapshot.
    let read = app
        .get_json(&format!("{}Attempts({attempt})", app.root()))
        .await;
    assert_eq!(read["AssessmentSnapshotID"], snapshot);
    assert_eq!(
        app.get_json(&format!("{}{snapshot_path}", app.root()))
            .await["Name"],
        "Typo"
    );
    assert_eq!(
        app.get_json(&format!("{}{batch_path}", app.root())).await["Name"],
        "Mornign"
    );
}

async fn delete_refused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (snapshot, batch, _, _) = snapshot_and_batch(&app).await;
    for path in [
        format!("PrintBatches({batch})"),
        format!("AssessmentSnapshots({snapshot})"),
    ] {
        // Through the other area's root the entity is not there; through this
        // area's, the other area's account is refused.
        let harbour_root = format!("/deliveryodata/{}/", app.harbour());
        let other = app
            .client
            .delete(app.url(&format!("{harbour_root}{path}")))
            .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
            .send()
            .await
            .unwrap();
        assert_eq!(
            other.status(),
            StatusCode::NOT_FOUND,
            "{path} in another area"
        );
        let other = send(&app, "harbour-admin", Method::DELETE, &path, Value::Null).await;
        assert_eq!(
            other.status(),
            StatusCode::FORBIDDEN,
            "{path} by another area's account"
        );
        let scorer = send(&app, "northwind-scorer", Method::DELETE, &path, Value::Null).await;
        assert_eq!(scorer.status(), StatusCode::FORBIDDEN, "{path} by a scorer");
    }
    let collection = send(
        &app,
        COORDINATOR,
        Method::DELETE,
        "PrintBatches",
        Value::Null,
    )
    .await;
    assert_eq!(collection.status(), StatusCode::METHOD_NOT_ALLOWED);
    let through = send(
        &app,
        COORDINATOR,
        Method::DELETE,
        &format!("PrintBatches({batch})/AssessmentSnapshot"),
        Value::Null,
    )
    .await;
    assert!(through.status().is_client_error(), "{}", through.status());
    // Nothing went.
    assert_eq!(
        app.get_as(COORDINATOR, &format!("{}PrintBatches({batch})", app.root()))
            .await
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.get_as(
            COORDINATOR,
            &format!("{}AssessmentSnapshots({snapshot})", app.root())
        )
        .await
        .status(),
        StatusCode::OK
    );
}

on_both_backends! {
    an_imported_assessment_is_renamed_and_deleted_while_unused => assessments;
}

const ADMIN: &str = "northwind-admin";

async fn assessments(backend: Backend) {
    use crate::qti_packages::imported;
    use scoredesk_e2e::qti::own_package;
    let app = TestApp::spawn_with_demo(backend).await;
    let report = imported(&app, ADMIN, &own_package("Plant cells", "a"), "cells.zip").await;
    let id = report["AssessmentId"].as_str().unwrap().to_owned();
    let questions: Vec<String> = report["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["QuestionId"].as_str().unwrap().to_owned())
        .collect();
    let path = format!("Assessments({id}L)");

    // Renamed by an administrator; the rest of it stays as it is.
    let patched = send(
        &app,
        ADMIN,
        Method::PATCH,
        &path,
        json!({"Name": "Plant cells (Year 9)"}),
    )
    .await;
    assert_eq!(patched.status(), StatusCode::NO_CONTENT);
    let read = app.get_json(&format!("{}{path}", app.root())).await;
    assert_eq!(read["Name"], "Plant cells (Year 9)");
    let mut whole = read.clone();
    whole["Description"] = json!("Cells, mitosis");
    let merge = Method::from_bytes(b"MERGE").unwrap();
    assert_eq!(
        send(&app, ADMIN, merge.clone(), &path, whole)
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        app.get_json(&format!("{}{path}", app.root())).await["Description"],
        "Cells, mitosis"
    );
    let renamed_id = send(&app, ADMIN, merge, &path, json!({"ID": "1", "Name": "x"})).await;
    assert_eq!(renamed_id.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(renamed_id)
        .await
        .contains("Assessment.ID is part of the key"));
    let empty = send(&app, ADMIN, Method::PATCH, &path, json!({"Name": " "})).await;
    assert_eq!(empty.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(empty)
        .await
        .contains("Assessment.Name cannot be empty"));
    for user in [COORDINATOR, "northwind-scorer"] {
        let refused = send(&app, user, Method::PATCH, &path, json!({"Name": "Mine"})).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{user}");
        let refused = send(&app, user, Method::DELETE, &path, Value::Null).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{user}");
    }

    // A demo assessment that was sat is kept, saying what uses it.
    let area = app.northwind();
    let sat = app
        .sql_i64(&format!(
            "SELECT MIN(assessment_id) FROM results WHERE customer_id = {area}"
        ))
        .await;
    let kept = send(
        &app,
        ADMIN,
        Method::DELETE,
        &format!("Assessments({sat}L)"),
        Value::Null,
    )
    .await;
    assert_eq!(kept.status(), StatusCode::CONFLICT);
    let message = odata_error_message(kept).await;
    assert!(
        message.contains(&format!("Assessment {sat} is in use (")) && message.contains(" result"),
        "{message}"
    );

    // The imported one, with a snapshot: kept; the snapshot deleted, it goes.
    let snapshot = created_id(
        send(
            &app,
            COORDINATOR,
            Method::POST,
            "AssessmentSnapshots",
            json!({"AssessmentID": id, "Name": "Trial"}),
        )
        .await,
    )
    .await;
    let kept = send(&app, ADMIN, Method::DELETE, &path, Value::Null).await;
    assert_eq!(kept.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(kept).await.contains("(1 snapshot)"));
    let snapshot_gone = send(
        &app,
        COORDINATOR,
        Method::DELETE,
        &format!("AssessmentSnapshots({snapshot})"),
        Value::Null,
    )
    .await;
    assert_eq!(snapshot_gone.status(), StatusCode::NO_CONTENT);
    let gone = send(&app, ADMIN, Method::DELETE, &path, Value::Null).await;
    assert_eq!(gone.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        app.get_as(ADMIN, &format!("{}{path}", app.root()))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM assessment_questions WHERE assessment_id = {id}"
        ))
        .await,
        0
    );
    assert_eq!(
        send(&app, ADMIN, Method::DELETE, &path, Value::Null)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );

    // Its questions stay (docs/content.md): importing the package again makes a
    // new assessment with the same questions, not copies of them.
    for question in &questions {
        assert_eq!(
            app.get_as(ADMIN, &format!("{}Questions({question}L)", app.root()))
                .await
                .status(),
            StatusCode::OK
        );
    }
    let again = imported(&app, ADMIN, &own_package("Plant cells", "a"), "cells.zip").await;
    assert_eq!(again["Assessment"], "created");
    let reused: Vec<String> = again["Questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["QuestionId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(reused, questions);
}

on_both_backends! {
    bad_keys_and_bodies_on_renames_and_deletes_get_a_4xx_naming_them => bad_input;
}

/// Every malformed key or body on the new writes is a 4xx with the OData error
/// body, and nothing is changed.
async fn bad_input(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (snapshot, batch, _, assessment) = snapshot_and_batch(&app).await;
    let merge = Method::from_bytes(b"MERGE").unwrap();
    let long = "x".repeat(5_000);
    let cases: Vec<(&str, Method, String, Value, &str)> = vec![
        (
            ADMIN,
            Method::DELETE,
            "AssessmentSnapshots(abc)".into(),
            Value::Null,
            "",
        ),
        (
            ADMIN,
            Method::DELETE,
            "PrintBatches(1.5)".into(),
            Value::Null,
            "",
        ),
        (
            ADMIN,
            Method::DELETE,
            format!("Assessments({assessment})"),
            Value::Null,
            "L",
        ),
        (
            ADMIN,
            Method::DELETE,
            "Assessments('x')".into(),
            Value::Null,
            "",
        ),
        (
            ADMIN,
            Method::PATCH,
            format!("PrintBatches({batch})"),
            json!({"Name": 7}),
            "PrintBatch.Name",
        ),
        (
            ADMIN,
            Method::PATCH,
            format!("PrintBatches({batch})"),
            json!({"Nmae": "x"}),
            "Nmae",
        ),
        (
            ADMIN,
            Method::PATCH,
            format!("PrintBatches({batch})"),
            json!(["Name"]),
            "",
        ),
        (
            ADMIN,
            merge.clone(),
            format!("PrintBatches({batch})"),
            json!({"SnapshotID": snapshot + 1}),
            "PrintBatch.SnapshotID",
        ),
        (
            ADMIN,
            Method::PATCH,
            format!("Assessments({assessment}L)"),
            json!({"Name": long}),
            "Assessment.Name is 5000 characters",
        ),
        (
            ADMIN,
            Method::PATCH,
            format!("Assessments({assessment}L)"),
            json!({"Description": 3}),
            "Assessment.Description",
        ),
        (
            ADMIN,
            Method::PATCH,
            format!("Assessments({assessment}L)"),
            json!({"Name": null}),
            "Assessment.Name may not be null",
        ),
        (
            ADMIN,
            merge,
            format!("Assessments({assessment}L)"),
            json!({"CreatedDateTime": "2000-01-01T00:00:00"}),
            "Assessment.CreatedDateTime is read-only",
        ),
    ];
    let before = app
        .get_json(&format!("{}Assessments({assessment}L)", app.root()))
        .await;
    // The batch as stored, without its per-request signed link.
    let stored_batch = || async {
        let mut read = app
            .get_json(&format!("{}PrintBatches({batch})", app.root()))
            .await;
        read.as_object_mut()
            .unwrap()
            .remove("AnswerSheetsSourceUrl");
        read
    };
    let batch_before = stored_batch().await;
    for (user, method, path, body, named) in cases {
        let response = send(&app, user, method.clone(), &path, body.clone()).await;
        let status = response.status();
        assert!(status.is_client_error(), "{method} {path} {body}: {status}");
        let message = odata_error_message(response).await;
        assert!(message.contains(named), "{method} {path} {body}: {message}");
    }
    // A body that is not JSON at all.
    let raw = app
        .client
        .patch(app.url(&format!("{}PrintBatches({batch})", app.root())))
        .basic_auth(ADMIN, Some(DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body("{\"Name\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), StatusCode::BAD_REQUEST);
    assert!(!odata_error_message(raw).await.is_empty());
    assert_eq!(
        app.get_json(&format!("{}Assessments({assessment}L)", app.root()))
            .await,
        before
    );
    assert_eq!(stored_batch().await, batch_before);
    assert_eq!(
        app.get_as(
            ADMIN,
            &format!("{}AssessmentSnapshots({snapshot})", app.root())
        )
        .await
        .status(),
        StatusCode::OK
    );
}
