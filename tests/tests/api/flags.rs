//! Our extensions `Flags` and `FlagAnswers` (docs/marking-quality.md, "Flags"):
//! a marker flags a script to the lead marker, the task leaves every queue of
//! Status 0 in the same transaction, and the lead answers once, releasing it or
//! taking it over. Every bad body is a 4xx naming the field and writes nothing;
//! only leads (and administrators) answer; one area never sees another's flags.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::scoring_support::{
    open_task_with_rubric, open_tasks_with_rubric, put_scoring_result, put_status,
    scoring_result_of, task_status, Task, SCORER,
};

on_both_backends! {
    a_flagged_script_leaves_the_queue_until_the_lead_releases_it => flag_and_release;
    a_lead_takes_a_flagged_script_over_and_marks_it => take_over;
    a_bad_flag_or_answer_is_refused_naming_the_field_and_writes_nothing => bad_bodies;
    only_leads_answer_and_no_other_area_sees_a_flag => access;
    of_two_flags_or_two_answers_at_once_exactly_one_is_written => races;
}

const LEAD: &str = "northwind-lead";

async fn send(
    app: &TestApp,
    method: Method,
    user: &str,
    path: &str,
    body: &Value,
) -> reqwest::Response {
    let mut request = app
        .client
        .request(method, app.url(&format!("{}{path}", app.root())))
        .basic_auth(user, Some(DEMO_PASSWORD));
    if !body.is_null() {
        request = request.json(body);
    }
    request.send().await.unwrap()
}

fn flag_body(task: Task, reason: &str, note: &str) -> Value {
    json!({
        "QuestionID": task.question.to_string(),
        "ResultID": task.result,
        "Reason": reason,
        "Note": note,
    })
}

/// Flags `task` as `user`; returns the flag as created.
async fn flag(app: &TestApp, user: &str, task: Task, reason: &str, note: &str) -> Value {
    let response = send(
        app,
        Method::POST,
        user,
        "Flags",
        &flag_body(task, reason, note),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert!(response.headers()["Location"]
        .to_str()
        .unwrap()
        .contains("/Flags("));
    response.json().await.unwrap()
}

fn answer_body(flag: &Value, outcome: &str, note: &str) -> Value {
    json!({"FlagID": flag["ID"], "Outcome": outcome, "Note": note})
}

/// `Status eq 0` tasks of the area as the scorer reads his queue.
async fn queue(app: &TestApp) -> Vec<(String, i64)> {
    let (status, body) = app
        .get_json_with(
            SCORER,
            &format!("{}ScoringTasks?$filter=Status eq 0&$top=1000", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    body["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["QuestionID"].as_str().unwrap().to_owned(),
                t["ResultID"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn in_queue(queue: &[(String, i64)], task: Task) -> bool {
    queue
        .iter()
        .any(|(question, result)| *question == task.question.to_string() && *result == task.result)
}

/// The last ScoringEvent of `task`: (previous status, status, account).
async fn last_event(app: &TestApp, task: Task) -> (i64, i64, String) {
    let (_, body) = app
        .get_json_with(
            LEAD,
            &format!(
                "{}ScoringEvents?$filter=QuestionID eq {}L and ResultID eq {}&$orderby=ID desc&$top=1",
                app.root(),
                task.question,
                task.result
            ),
            &[],
        )
        .await;
    let event = &body["value"][0];
    (
        event["PreviousStatus"].as_i64().unwrap(),
        event["Status"].as_i64().unwrap(),
        event["Account"].as_str().unwrap().to_owned(),
    )
}

async fn flag_and_release(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    assert!(in_queue(&queue(&app).await, task));

    let created = flag(
        &app,
        SCORER,
        task,
        "unreadable",
        "  The last line is smudged.\n",
    )
    .await;
    assert_eq!(created["Reason"], "unreadable");
    assert_eq!(created["Note"], "The last line is smudged.", "trimmed");
    assert_eq!(created["RaisedBy"], SCORER);
    assert_eq!(created["IsOpen"], true);
    assert_eq!(task_status(&app, task).await, 1, "a flagged task is Locked");
    assert!(!in_queue(&queue(&app).await, task), "it leaves the queue");
    assert_eq!(last_event(&app, task).await, (0, 1, SCORER.to_owned()));

    // The lead's desk: the open flags, with their tasks.
    let (status, desk) = app
        .get_json_with(
            LEAD,
            &format!(
                "{}Flags?$filter=IsOpen eq true&$expand=ScoringTask,Answer",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{desk}");
    let listed = &desk["value"].as_array().unwrap()[..];
    assert_eq!(listed.len(), 1, "{desk}");
    assert_eq!(listed[0]["ID"], created["ID"]);
    assert_eq!(listed[0]["ScoringTask"]["Status"], 1);
    assert!(listed[0]["Answer"].is_null(), "not answered yet: {desk}");

    let response = send(
        &app,
        Method::POST,
        LEAD,
        "FlagAnswers",
        &answer_body(&created, "released", " Read the last digit as 7. "),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["FlagID"], created["ID"]);
    assert_eq!(answer["Outcome"], "released");
    assert_eq!(answer["Note"], "Read the last digit as 7.");
    assert_eq!(answer["AnsweredBy"], LEAD);
    assert_eq!(task_status(&app, task).await, 0, "released: back to 0");
    assert!(in_queue(&queue(&app).await, task), "and in the queue again");
    assert_eq!(last_event(&app, task).await, (1, 0, LEAD.to_owned()));

    // The marker who flagged reads the answer; the flag is kept, closed.
    let (status, read) = app
        .get_json_with(
            SCORER,
            &format!("{}Flags({})?$expand=Answer", app.root(), created["ID"]),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read["IsOpen"], false);
    assert_eq!(read["Answer"]["Note"], "Read the last digit as 7.");

    // One answer a flag.
    let again = send(
        &app,
        Method::POST,
        LEAD,
        "FlagAnswers",
        &answer_body(&created, "taken-over", "Mine."),
    )
    .await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    let message = odata_error_message(again).await;
    assert!(message.contains("answered already"), "{message}");
    assert_eq!(
        task_status(&app, task).await,
        0,
        "the refused answer changed nothing"
    );

    // Answered, the task may be flagged again: a second flag, the first kept.
    let second = flag(&app, SCORER, task, "second-look", "").await;
    assert_ne!(second["ID"], created["ID"]);
    assert_eq!(second["Note"], "", "a note is optional");
    let flags = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM flags WHERE result_id = {} AND question_id = {}",
            task.result, task.question
        ))
        .await;
    assert_eq!(flags, 2, "flags are never deleted");
}

async fn take_over(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    // The marker saved a mark (2) and then thought better of it.
    let scoring_result = scoring_result_of(&app, task).await;
    assert!(put_scoring_result(&app, &scoring_result, 1, "Unsure.")
        .await
        .status()
        .is_success());
    assert_eq!(put_status(&app, task, 2).await, StatusCode::NO_CONTENT);
    let created = flag(
        &app,
        SCORER,
        task,
        "off-rubric",
        "Answers a different question well.",
    )
    .await;
    assert_eq!(task_status(&app, task).await, 1);

    let response = send(
        &app,
        Method::POST,
        LEAD,
        "FlagAnswers",
        &answer_body(&created, "taken-over", "I will mark this one."),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(
        task_status(&app, task).await,
        1,
        "taken over: it stays locked"
    );
    assert!(!in_queue(&queue(&app).await, task));

    // The lead marks it through the spec's feeds, from 1 to 3.
    let scoring_result = scoring_result_of(&app, task).await;
    let mut body = scoring_result.clone();
    body["Score"] = json!(0);
    body["Comments"] = json!("Off the question.");
    let path = crate::scoring_support::scoring_result_path(&app, &scoring_result);
    let put = app.put_json(LEAD, &path, &body, &[]).await;
    assert!(put.status().is_success(), "{}", put.status());
    let put = app
        .put_json(
            LEAD,
            &task.path(&app),
            &json!({"QuestionID": task.question.to_string(), "ResultID": task.result, "Status": 3}),
            &[],
        )
        .await;
    assert_eq!(put.status(), StatusCode::NO_CONTENT);
    assert_eq!(last_event(&app, task).await, (1, 3, LEAD.to_owned()));
    // A Scored task is final: it cannot be flagged.
    let response = send(
        &app,
        Method::POST,
        SCORER,
        "Flags",
        &flag_body(task, "second-look", ""),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(response).await.contains("Scored (3)"));
}

async fn flag_count(app: &TestApp) -> (i64, i64) {
    (
        app.sql_i64("SELECT COUNT(*) FROM flags").await,
        app.sql_i64("SELECT COUNT(*) FROM flag_answers").await,
    )
}

async fn bad_bodies(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let task = tasks[0];
    let good = flag_body(task, "malpractice", "Same wording as another script.");
    let with = |name: &str, value: Value| {
        let mut body = good.clone();
        body[name] = value;
        body
    };
    let without = |name: &str| {
        let mut body = good.clone();
        body.as_object_mut().unwrap().remove(name);
        body
    };
    let long = "x".repeat(4_001);
    for (body, status, named) in [
        (
            without("QuestionID"),
            StatusCode::BAD_REQUEST,
            "Flag.QuestionID",
        ),
        (
            without("ResultID"),
            StatusCode::BAD_REQUEST,
            "Flag.ResultID",
        ),
        (without("Reason"), StatusCode::BAD_REQUEST, "Flag.Reason"),
        (
            with("Reason", json!("Malpractice")),
            StatusCode::BAD_REQUEST,
            "Flag.Reason",
        ),
        (with("Reason", json!(3)), StatusCode::BAD_REQUEST, "Reason"),
        (with("Note", json!(long)), StatusCode::BAD_REQUEST, "Note"),
        (
            with("ResultID", json!(987_654)),
            StatusCode::BAD_REQUEST,
            "not a ScoringTask",
        ),
        (
            with("QuestionID", json!("x")),
            StatusCode::BAD_REQUEST,
            "QuestionID",
        ),
        (
            with("Colour", json!("red")),
            StatusCode::BAD_REQUEST,
            "Colour",
        ),
        (json!([1, 2]), StatusCode::BAD_REQUEST, ""),
    ] {
        let response = send(&app, Method::POST, SCORER, "Flags", &body).await;
        assert_eq!(response.status(), status, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(named), "{body}: {message}");
        assert_eq!(flag_count(&app).await, (0, 0), "{body} wrote nothing");
        assert_eq!(
            task_status(&app, task).await,
            0,
            "{body} left the task alone"
        );
    }
    // No body, so no Content-Type either.
    let response = send(&app, Method::POST, SCORER, "Flags", &json!(null)).await;
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let created = flag(&app, SCORER, task, "malpractice", "").await;
    // One open flag a task.
    let response = send(&app, Method::POST, LEAD, "Flags", &good).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let message = odata_error_message(response).await;
    assert!(
        message.contains(&format!("Flags({})", created["ID"])),
        "{message}"
    );

    let good_answer = answer_body(&created, "released", "Fine.");
    let with = |name: &str, value: Value| {
        let mut body = good_answer.clone();
        body[name] = value;
        body
    };
    for (body, named) in [
        (with("Note", json!("  ")), "FlagAnswer.Note"),
        (with("Note", Value::Null), "Note"),
        (with("Outcome", json!("release")), "FlagAnswer.Outcome"),
        (
            with("FlagID", json!(9_999)),
            "not a flag of this customer area",
        ),
        (with("FlagID", json!("one")), "FlagID"),
    ] {
        let response = send(&app, Method::POST, LEAD, "FlagAnswers", &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(named), "{body}: {message}");
        assert_eq!(flag_count(&app).await, (1, 0), "{body} wrote nothing");
        assert_eq!(task_status(&app, task).await, 1);
    }
    // Written at the collection only; never changed or deleted.
    let id = &created["ID"];
    for (method, path, status) in [
        (
            Method::POST,
            format!("Flags({id})/Answer"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::PUT,
            format!("Flags({id})"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::DELETE,
            format!("Flags({id})"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::PATCH,
            format!("Flags({id})"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Method::DELETE,
            format!("FlagAnswers({id})"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ] {
        let response = send(&app, method.clone(), LEAD, &path, &good_answer).await;
        assert_eq!(response.status(), status, "{method} {path}");
        assert_eq!(flag_count(&app).await, (1, 0), "{method} {path}");
    }
}

async fn access(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let created = flag(&app, SCORER, task, "unreadable", "").await;
    let answer = answer_body(&created, "released", "Readable enough.");

    // A scorer reads answers but does not write them; a coordinator has no flags.
    let response = send(&app, Method::POST, SCORER, "FlagAnswers", &answer).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    for (method, path) in [
        (Method::GET, "Flags"),
        (Method::POST, "Flags"),
        (Method::GET, "FlagAnswers"),
    ] {
        let body = if method == Method::POST {
            flag_body(task, "unreadable", "")
        } else {
            Value::Null
        };
        let response = send(&app, method.clone(), "northwind-coordinator", path, &body).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{method} {path}");
    }
    assert_eq!(flag_count(&app).await, (1, 0));
    assert_eq!(task_status(&app, task).await, 1);

    // Another area: its own feed is empty, Northwind's is closed to it, and a
    // Northwind task is not one of its tasks.
    let harbour = format!("/deliveryodata/{}/", app.harbour());
    let (status, own) = app
        .get_json_with("harbour-admin", &format!("{harbour}Flags"), &[])
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(own["value"], json!([]));
    let (status, _) = app
        .get_json_with("harbour-admin", &format!("{}Flags", app.root()), &[])
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let response = app
        .client
        .post(app.url(&format!("{harbour}FlagAnswers")))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .json(&answer)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("not a flag of this customer area"));
    let response = app
        .client
        .post(app.url(&format!("{harbour}Flags")))
        .basic_auth("harbour-admin", Some(DEMO_PASSWORD))
        .json(&flag_body(task, "unreadable", ""))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(flag_count(&app).await, (1, 0));

    // An administrator of the area may answer, as a lead.
    let response = send(
        &app,
        Method::POST,
        "northwind-admin",
        "FlagAnswers",
        &answer,
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(task_status(&app, task).await, 0);
}

async fn races(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    for &task in tasks.iter().take(5) {
        let body = flag_body(task, "second-look", "");
        let (a, b) = tokio::join!(
            send(&app, Method::POST, SCORER, "Flags", &body),
            send(&app, Method::POST, LEAD, "Flags", &body),
        );
        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::CREATED, StatusCode::CONFLICT],
            "{task:?}"
        );
        let id = app
            .sql_i64(&format!(
                "SELECT CAST(MIN(id) AS BIGINT) FROM flags WHERE result_id = {} AND question_id = {}",
                task.result, task.question
            ))
            .await;
        let answer = json!({"FlagID": id, "Outcome": "released", "Note": "Go on."});
        let (a, b) = tokio::join!(
            send(&app, Method::POST, LEAD, "FlagAnswers", &answer),
            send(
                &app,
                Method::POST,
                "northwind-admin",
                "FlagAnswers",
                &answer
            ),
        );
        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::CREATED, StatusCode::CONFLICT],
            "{task:?}"
        );
        assert_eq!(task_status(&app, task).await, 0);
    }
    assert_eq!(flag_count(&app).await, (5, 5));
}
