//! Results writes (spec, "Result.Status" and the Results feed): PATCH, MERGE and PUT
//! change only Status, along the permitted transitions, and ExtraTime; anything
//! else is a 400 naming it; POST and DELETE are 405; administrators only.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

on_both_backends! {
    a_results_status_follows_the_permitted_transitions_only => transitions;
    extra_time_is_zero_or_more_seconds => extra_time;
    nothing_but_status_and_extra_time_changes => other_properties;
    only_administrators_change_results => roles;
}

const ADMIN: &str = "northwind-admin";

async fn send(
    app: &TestApp,
    user: &str,
    method: &str,
    path: &str,
    body: &Value,
) -> reqwest::Response {
    app.client
        .request(
            Method::from_bytes(method.as_bytes()).unwrap(),
            app.url(&format!("{}{path}", app.root())),
        )
        .basic_auth(user, Some(DEMO_PASSWORD))
        .json(body)
        .send()
        .await
        .unwrap()
}

/// A Northwind result, its status set to `status`.
async fn result_with_status(app: &TestApp, status: i64) -> i64 {
    let id = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM results WHERE customer_id = {} AND status <> {status}",
            app.northwind()
        ))
        .await;
    app.sql_execute(&format!(
        "UPDATE results SET status = {status} WHERE id = {id}"
    ))
    .await;
    id
}

async fn stored_status(app: &TestApp, id: i64) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(status AS BIGINT) FROM results WHERE id = {id}"
    ))
    .await
}

async fn transitions(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let id = result_with_status(&app, 1).await;
    // Pause, resume, pause, terminate: every method the spec allows.
    for (method, status) in [("PATCH", 6), ("MERGE", 1), ("PUT", 7)] {
        let response = send(
            &app,
            ADMIN,
            method,
            &format!("Results({id})"),
            &json!({"Status": status}),
        )
        .await;
        assert_eq!(
            response.status(),
            StatusCode::NO_CONTENT,
            "{method} to {status}"
        );
        assert_eq!(stored_status(&app, id).await, status);
    }
    let paused = result_with_status(&app, 6).await;
    let response = send(
        &app,
        ADMIN,
        "PATCH",
        &format!("Results({paused})"),
        &json!({"Status": 7}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(stored_status(&app, paused).await, 7);
    // From terminated nothing; from finished (3) nothing.
    for (from, to) in [(7, 1), (7, 6), (3, 6), (3, 7), (1, 3), (6, 2)] {
        let id = result_with_status(&app, from).await;
        let response = send(
            &app,
            ADMIN,
            "PATCH",
            &format!("Results({id})"),
            &json!({"Status": to}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{from} to {to}");
        let message = odata_error_message(response).await;
        assert!(
            message.contains(&format!("from {from} to {to}")) && message.contains("1 to 6 (pause)"),
            "{message}"
        );
        assert_eq!(stored_status(&app, id).await, from, "nothing changed");
    }
    let response = send(
        &app,
        ADMIN,
        "PATCH",
        "Results(999999)",
        &json!({"Status": 6}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

async fn extra_time(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let id = result_with_status(&app, 1).await;
    let response = send(
        &app,
        ADMIN,
        "PATCH",
        &format!("Results({id})"),
        &json!({"ExtraTime": 300}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let read = app.get_json(&format!("{}Results({id})", app.root())).await;
    assert_eq!(read["ExtraTime"], 300);
    assert_eq!(read["Status"], 1, "ExtraTime alone leaves the status");
    for bad in [json!(-1), json!("300"), json!(1.5)] {
        let response = send(
            &app,
            ADMIN,
            "PATCH",
            &format!("Results({id})"),
            &json!({"ExtraTime": bad}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{bad}");
        assert!(odata_error_message(response).await.contains("ExtraTime"));
    }
    assert_eq!(
        app.get_json(&format!("{}Results({id})", app.root())).await["ExtraTime"],
        300
    );
}

async fn other_properties(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let id = result_with_status(&app, 1).await;
    let path = format!("Results({id})");
    for (property, value) in [
        ("TotalScore", json!(99)),
        ("ParticipantName", json!("someone else")),
        ("ID", json!(id + 1)),
        ("WhenFinished", json!("2020-01-01T00:00:00")),
    ] {
        let response = send(
            &app,
            ADMIN,
            "PATCH",
            &path,
            &json!({ property: value, "Status": 6 }),
        )
        .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{property}");
        let message = odata_error_message(response).await;
        assert!(message.contains(&format!("Result.{property}")), "{message}");
        assert_eq!(stored_status(&app, id).await, 1, "refused whole");
    }
    // The whole entity as read, with Status changed: a PUT of a client that read it.
    let mut read = app.get_json(&format!("{}{path}", app.root())).await;
    let object = read.as_object_mut().unwrap();
    object.retain(|name, _| !name.starts_with("odata.") && !name.contains('@'));
    object.insert("Status".into(), json!(6));
    let response = send(&app, ADMIN, "PUT", &path, &read).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT, "{read}");
    assert_eq!(stored_status(&app, id).await, 6);
    // Creating and deleting results are not what the feed does.
    let post = send(&app, ADMIN, "POST", "Results", &json!({"Status": 1})).await;
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    let delete = send(&app, ADMIN, "DELETE", &path, &json!({})).await;
    assert_eq!(delete.status(), StatusCode::METHOD_NOT_ALLOWED);
}

async fn roles(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let id = result_with_status(&app, 1).await;
    for user in ["northwind-scorer", "northwind-coordinator"] {
        let response = send(
            &app,
            user,
            "PATCH",
            &format!("Results({id})"),
            &json!({"Status": 6}),
        )
        .await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{user}");
    }
    // Another area's administrator does not reach this area's results.
    let response = app
        .client
        .patch(app.url(&format!("/deliveryodata/{}/Results({id})", app.northwind())))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .json(&json!({"Status": 6}))
        .send()
        .await
        .unwrap();
    assert!(response.status().is_client_error());
    assert_ne!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(stored_status(&app, id).await, 1);
    let (status, _) = app
        .get_json_with(
            "northwind-coordinator",
            &format!("{}Results({id})", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "coordinators read results");
}
