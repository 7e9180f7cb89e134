//! Participants and Groups written by administrators (issue 34, docs/odata.md
//! "Participants and Groups"), on both databases: added, changed (what is not sent
//! stays), refused by property when malformed or taken, and joined as links from
//! either end in JSON and XML bodies; links to what is not in the area refused;
//! coordinators and scorers may read, never write.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

on_both_backends! {
    participants_and_groups_are_added_changed_and_joined_by_links => people;
}

const ADMIN: &str = "northwind-admin";

async fn send(
    app: &TestApp,
    user: &str,
    method: Method,
    path: &str,
    body: &str,
    content_type: &str,
) -> (StatusCode, String) {
    let response = app
        .client
        .request(method, app.url(path))
        .basic_auth(user, Some(DEMO_PASSWORD))
        .header("Content-Type", content_type)
        .header("Accept", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.text().await.unwrap())
}

async fn json_send(app: &TestApp, method: Method, path: &str, body: Value) -> (StatusCode, String) {
    send(
        app,
        ADMIN,
        method,
        path,
        &body.to_string(),
        "application/json",
    )
    .await
}

async fn members(app: &TestApp, group: i64) -> Vec<String> {
    let body = app
        .get_json(&format!("{}Groups({group})/Participants", app.root()))
        .await;
    let mut names: Vec<String> = body["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["Name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

async fn people(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let participants = format!("{root}Participants");
    let groups = format!("{root}Groups");

    // Added: 201 with the entity.
    let (status, text) = json_send(
        &app,
        Method::POST,
        &participants,
        json!({"ID": 0, "Name": " new.student ", "FirstName": "Noé", "LastName": "Élève", "PrimaryEmail": "noe@school.example"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let created: Value = serde_json::from_str(&text).unwrap();
    let id = created["ID"].as_i64().unwrap();
    assert_eq!(created["Name"], "new.student", "trimmed");
    assert_eq!(created["LastName"], "Élève");

    // Refused by property, nothing stored.
    let before = app
        .row_counts(&["participants", "groups", "group_participants"])
        .await;
    for (body, status, says) in [
        (
            json!({"Name": "new.student"}),
            StatusCode::CONFLICT,
            "usernames are unique",
        ),
        (
            json!({"FirstName": "Nobody"}),
            StatusCode::BAD_REQUEST,
            "Participant.Name is required",
        ),
        (
            json!({"Name": "x".repeat(300)}),
            StatusCode::BAD_REQUEST,
            "Participant.Name is 300 characters",
        ),
        (
            json!({"Name": "e.mail", "PrimaryEmail": "not an address"}),
            StatusCode::BAD_REQUEST,
            "PrimaryEmail",
        ),
        (
            json!({"Name": "tab\tbed"}),
            StatusCode::BAD_REQUEST,
            "control character",
        ),
        (
            json!({"Name": "x", "Shoe": 4}),
            StatusCode::BAD_REQUEST,
            "Shoe",
        ),
    ] {
        let (got, text) = json_send(&app, Method::POST, &participants, body.clone()).await;
        assert_eq!(got, status, "{body}: {text}");
        assert!(text.contains(says), "{body}: {text}");
    }
    assert_eq!(
        app.row_counts(&["participants", "groups", "group_participants"])
            .await,
        before
    );

    // Changed: what is sent changes, the rest stays; the key does not.
    let one = format!("{participants}({id})");
    let (status, text) = json_send(&app, Method::PATCH, &one, json!({"LastName": "Eleve"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{text}");
    let read = app.get_json(&one).await;
    assert_eq!(
        (read["FirstName"].as_str(), read["LastName"].as_str()),
        (Some("Noé"), Some("Eleve"))
    );
    let (status, _) = json_send(&app, Method::PATCH, &one, json!({"ID": id + 1000})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = json_send(
        &app,
        Method::PATCH,
        &format!("{participants}(999999)"),
        json!({"LastName": "X"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let taken = app
        .sql_strings(&format!(
            "SELECT name FROM participants WHERE customer_id = {} AND id <> {id} LIMIT 1",
            app.northwind()
        ))
        .await
        .remove(0);
    let (status, text) = json_send(
        &app,
        Method::from_bytes(b"MERGE").unwrap(),
        &one,
        json!({"Name": taken}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{text}");

    // Groups: added, a taken name refused.
    let (status, text) = json_send(
        &app,
        Method::POST,
        &groups,
        json!({"Name": "Set 7", "Description": "Maths"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let group = serde_json::from_str::<Value>(&text).unwrap()["ID"]
        .as_i64()
        .unwrap();
    let (status, _) = json_send(&app, Method::POST, &groups, json!({"Name": "Set 7"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = json_send(
        &app,
        Method::PATCH,
        &format!("{groups}({group})"),
        json!({"Description": null}),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(app.get_json(&format!("{groups}({group})")).await["Description"].is_null());

    // Joined by a link with the full URL, twice (the same membership once)...
    let links = format!("{groups}({group})/$links/Participants");
    let full = app.url(&one);
    for _ in 0..2 {
        let (status, text) = json_send(&app, Method::POST, &links, json!({"url": full})).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{text}");
    }
    assert_eq!(members(&app, group).await, ["new.student"]);
    // ...from the participant's end with a relative URL, and in XML.
    let other = app
        .sql_i64(&format!("SELECT CAST(MIN(id) AS BIGINT) FROM participants WHERE customer_id = {} AND id <> {id}", app.northwind()))
        .await;
    let (status, text) = json_send(
        &app,
        Method::POST,
        &format!("{participants}({other})/$links/Groups"),
        json!({"url": format!("Groups({group})")}),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{text}");
    let xml = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">{}</uri>"#,
        app.url(&format!("{participants}({id})"))
    );
    let (status, text) = send(&app, ADMIN, Method::POST, &links, &xml, "application/xml").await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{text}");
    assert_eq!(members(&app, group).await.len(), 2);

    // Links to what is not there, or not a participant, or another area's.
    let before = app.row_counts(&["group_participants"]).await;
    for (path, body, status) in [
        (
            links.clone(),
            json!({"url": "Participants(999999)"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            links.clone(),
            json!({"url": "Questions(1L)"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            links.clone(),
            json!({"url": "/deliveryodata/999/Participants(1)"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            links.clone(),
            json!({"href": "Participants(1)"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("{groups}(999999)/$links/Participants"),
            json!({"url": format!("Participants({id})")}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (got, text) = json_send(&app, Method::POST, &path, body.clone()).await;
        assert_eq!(got, status, "{path} {body}: {text}");
    }
    assert_eq!(app.row_counts(&["group_participants"]).await, before);

    // Unlinked; again is a 404.
    let one_link = format!("{links}({id})");
    let (status, text) = json_send(&app, Method::DELETE, &one_link, json!(null)).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{text}");
    let (status, _) = json_send(&app, Method::DELETE, &one_link, json!(null)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(members(&app, group).await.len(), 1);
    // Deleting a participant or a group itself is not served.
    let (status, _) = json_send(&app, Method::DELETE, &one, json!(null)).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);

    // Others read, never write.
    for user in ["northwind-coordinator", "northwind-scorer"] {
        for (method, path, body) in [
            (
                Method::POST,
                participants.clone(),
                json!({"Name": "sneaky"}),
            ),
            (Method::PATCH, one.clone(), json!({"LastName": "Sneaky"})),
            (
                Method::POST,
                links.clone(),
                json!({"url": format!("Participants({id})")}),
            ),
        ] {
            let (status, text) = send(
                &app,
                user,
                method.clone(),
                &path,
                &body.to_string(),
                "application/json",
            )
            .await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "{user} {method} {path}: {text}"
            );
        }
    }
}
