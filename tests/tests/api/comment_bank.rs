//! Our extension feed `BankedComments` (docs/odata.md, "Extensions"): scorers add,
//! read, edit and delete the comments of their area's bank over plain OData; every
//! bad body is a 400 naming the field, a stale edit a 412, and one area never sees
//! another's bank.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::scoring_support::{open_task_with_rubric, SCORER};

on_both_backends! {
    a_scorer_adds_a_comment_to_the_bank_and_every_scorer_of_the_area_reads_it => add_and_read;
    a_bad_comment_is_refused_with_the_field_it_gets_wrong => bad_bodies;
    an_edit_from_a_stale_revision_is_412_and_a_delete_removes_the_comment => edit_and_delete;
    coordinators_and_other_areas_never_reach_the_bank => access;
}

/// A request as `username` with a JSON body (none for `Value::Null`) and headers.
async fn send(
    app: &TestApp,
    method: Method,
    username: &str,
    path: &str,
    body: &Value,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = app
        .client
        .request(method, app.url(&format!("{}{path}", app.root())))
        .basic_auth(username, Some(DEMO_PASSWORD));
    if !body.is_null() {
        request = request.json(body);
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

/// Adds an overall comment to `question`'s bank as the scorer; returns it and its path.
async fn add(app: &TestApp, question: i64, text: &str) -> (Value, String) {
    let body = json!({"QuestionID": question.to_string(), "Text": text});
    let response = send(app, Method::POST, SCORER, "BankedComments", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    let path = format!("BankedComments({})", created["ID"]);
    (created, path)
}

/// A question of Northwind with a rubric, and its dimensions' orders.
async fn question_with_rubric(app: &TestApp) -> (i64, Vec<i64>) {
    let task = open_task_with_rubric(app).await;
    let orders = app
        .sql_column::<i64>(&format!(
            "SELECT CAST(d.dimension_order AS BIGINT) FROM dimensions d JOIN rubrics r ON r.id = d.rubric_id \
             WHERE r.question_id = {} ORDER BY d.dimension_order",
            task.question
        ))
        .await;
    (task.question, orders)
}

async fn add_and_read(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (question, orders) = question_with_rubric(&app).await;
    let body = json!({
        "ID": 0,
        "QuestionID": question.to_string(),
        "DimensionOrder": orders[0],
        "Text": "  Names the forces but not their directions.\n",
    });
    let response = send(&app, Method::POST, SCORER, "BankedComments", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["Location"].to_str().unwrap().to_owned();
    let etag = response.headers()["ETag"].to_str().unwrap().to_owned();
    let created: Value = response.json().await.unwrap();
    let id = created["ID"].as_i64().unwrap();
    assert!(id > 0, "the server gives the ID: {created}");
    assert!(
        location.ends_with(&format!("BankedComments({id})")),
        "{location}"
    );
    assert_eq!(
        created["Text"],
        "Names the forces but not their directions."
    );
    assert_eq!(created["CreatedBy"], SCORER);
    assert_eq!(created["DimensionOrder"], orders[0]);
    assert_eq!(created["odata.etag"], etag.as_str());

    // An overall comment (no dimension), and a client preferring no content.
    let overall = json!({"QuestionID": question.to_string(), "Text": "Well organised."});
    let response = send(
        &app,
        Method::POST,
        "northwind-admin",
        "BankedComments",
        &overall,
        &[("Prefer", "return-no-content")],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert!(response.headers().contains_key("Location"));

    // Every scorer of the area reads the question's bank, per dimension.
    let (status, bank) = app
        .get_json_with(
            SCORER,
            &format!(
                "{}BankedComments?$filter=QuestionID eq {question}L&$orderby=ID",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{bank}");
    let texts: Vec<(&Value, &str)> = bank["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (&c["DimensionOrder"], c["Text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        texts,
        [
            (
                &json!(orders[0]),
                "Names the forces but not their directions."
            ),
            (&Value::Null, "Well organised.")
        ]
    );
    let (_, overall_only) = app
        .get_json_with(
            SCORER,
            &format!(
                "{}BankedComments?$filter=QuestionID eq {question}L and DimensionOrder eq null",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(overall_only["value"].as_array().unwrap().len(), 1);
    // $metadata declares it like the spec's feeds.
    let metadata = send(&app, Method::GET, SCORER, "$metadata", &Value::Null, &[])
        .await
        .text()
        .await
        .unwrap();
    assert!(
        metadata.contains(r#"<EntitySet Name="BankedComments""#),
        "declared"
    );
    assert!(metadata.contains(r#"<EntityType Name="BankedComment""#));
}

async fn bad_bodies(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (question, orders) = question_with_rubric(&app).await;
    let other_area_question = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM questions WHERE customer_id = {}",
            app.harbour()
        ))
        .await;
    let without_rubric = app
        .sql_i64(&format!(
            "SELECT MIN(q.id) FROM questions q WHERE q.customer_id = {} \
             AND NOT EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = q.id)",
            app.northwind()
        ))
        .await;
    let q = question.to_string();
    let cases: Vec<(Value, &str)> = vec![
        (json!({"Text": "No question"}), "QuestionID is required"),
        (json!({"QuestionID": q}), "Text is required"),
        (json!({"QuestionID": q, "Text": " \n "}), "Text is empty"),
        (json!({"QuestionID": q, "Text": null}), "Text"),
        (json!({"QuestionID": q, "Text": "x".repeat(4_001)}), "Text"),
        (
            json!({"QuestionID": q, "Text": "ok", "DimensionOrder": 99}),
            "DimensionOrder is 99",
        ),
        (
            json!({"QuestionID": q, "Text": "ok", "DimensionOrder": "1"}),
            "DimensionOrder",
        ),
        (
            json!({"QuestionID": q, "Text": "ok", "Colour": "red"}),
            "'Colour'",
        ),
        (json!({"QuestionID": "12x", "Text": "ok"}), "QuestionID"),
        (
            json!({"QuestionID": other_area_question.to_string(), "Text": "ok"}),
            "not a question of this customer area",
        ),
        (
            json!({"QuestionID": without_rubric.to_string(), "Text": "ok", "DimensionOrder": orders[0]}),
            "no rubric",
        ),
        (json!(["a list"]), "JSON object"),
    ];
    for (body, named) in cases {
        let response = send(&app, Method::POST, SCORER, "BankedComments", &body, &[]).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(named), "{body}: {message}");
    }
    // Not JSON at all.
    let response = app
        .client
        .post(app.url(&format!("{}BankedComments", app.root())))
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .header("Content-Type", "text/plain")
        .body("Good work")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Through a navigation, or at a key: not where comments are created.
    let response = send(
        &app,
        Method::POST,
        SCORER,
        "BankedComments(1)",
        &json!({}),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    let count = app.sql_i64("SELECT COUNT(*) FROM banked_comments").await;
    let demo = app
        .sql_i64("SELECT COUNT(*) FROM banked_comments WHERE created_by <> 'northwind-scorer'")
        .await;
    assert_eq!(count, demo, "nothing was written by the refused requests");
}

async fn edit_and_delete(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (question, orders) = question_with_rubric(&app).await;
    let (created, path) = add(&app, question, "Draft wording.").await;

    // Edited from what was read: a new revision, moved to a dimension.
    let mut edit = created.clone();
    edit["Text"] = json!("Final wording.");
    edit["DimensionOrder"] = json!(orders[1]);
    let response = send(&app, Method::PUT, "northwind-admin", &path, &edit, &[]).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let now = app.get_json(&format!("{}{path}", app.root())).await;
    assert_eq!(now["Text"], "Final wording.");
    assert_eq!(now["DimensionOrder"], orders[1]);
    assert_eq!(now["CreatedBy"], SCORER, "the author stays");
    assert!(now["ModifiedDateTime"].as_str() > created["ModifiedDateTime"].as_str());

    // A second editor from the first read: 412, nothing changed.
    let mut stale = created.clone();
    stale["Text"] = json!("Someone else's wording.");
    let response = send(&app, Method::PUT, SCORER, &path, &stale, &[]).await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    assert!(odata_error_message(response)
        .await
        .contains("read it again"));
    let response = send(
        &app,
        Method::PUT,
        SCORER,
        &path,
        &json!({"Text": "Via If-Match", "QuestionID": question.to_string()}),
        &[("If-Match", created["odata.etag"].as_str().unwrap())],
    )
    .await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    assert_eq!(
        app.get_json(&format!("{}{path}", app.root())).await["Text"],
        "Final wording."
    );

    // What may not change, and what must be sent.
    let mut moved = now.clone();
    moved["QuestionID"] = json!("1");
    let response = send(&app, Method::PUT, SCORER, &path, &moved, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response).await.contains("QuestionID"));
    let response = send(
        &app,
        Method::PUT,
        SCORER,
        &path,
        &json!({"Text": "no revision"}),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("ModifiedDateTime is required"));

    // DELETE: a stale If-Match is refused; then it goes, and is gone.
    let response = send(
        &app,
        Method::DELETE,
        SCORER,
        &path,
        &Value::Null,
        &[("If-Match", created["odata.etag"].as_str().unwrap())],
    )
    .await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    let response = send(
        &app,
        Method::DELETE,
        SCORER,
        &path,
        &Value::Null,
        &[("If-Match", now["odata.etag"].as_str().unwrap())],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (status, _) = app
        .get_json_with(SCORER, &format!("{}{path}", app.root()), &[])
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let response = send(&app, Method::DELETE, SCORER, &path, &Value::Null, &[]).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

async fn access(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (question, _) = question_with_rubric(&app).await;
    let body = json!({"QuestionID": question.to_string(), "Text": "Northwind only."});
    let (_, path) = add(&app, question, "Northwind only.").await;
    for method in [Method::GET, Method::POST, Method::DELETE] {
        let target = if method == Method::POST {
            "BankedComments"
        } else {
            path.as_str()
        };
        let response = send(
            &app,
            method.clone(),
            "northwind-coordinator",
            target,
            &body,
            &[],
        )
        .await;
        assert_eq!(
            response.status(),
            StatusCode::FORBIDDEN,
            "{method} as a coordinator"
        );
    }
    // Harbour's administrator, in Harbour's area, finds no such comment.
    let harbour = format!("/deliveryodata/{}/", app.harbour());
    let response = app
        .client
        .get(app.url(&format!("{harbour}{path}")))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = app
        .client
        .delete(app.url(&format!("{harbour}{path}")))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        app.get_json(&format!("{}{path}", app.root())).await["Text"],
        "Northwind only."
    );
}
