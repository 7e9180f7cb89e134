//! The purge and replay actions (spec, "Results feed"; contract, "Actions"): each
//! at each of its paths, with parameters in the body or the URL; 202 at once and
//! an audit log entry that the durable queue closes when the work is done; nothing
//! of a purged result left in any table; the retention policy; replays; roles.

use std::time::Duration;

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::batch::{batch_body, send, Op};
use crate::scoring_support::{
    open_task_with_rubric, put_scoring_result, put_status, scoring_result_of,
};
use crate::uploads::{deliver, full_marks, post, snapshot_key};

on_both_backends! {
    each_purge_action_is_accepted_audited_and_done => each_action;
    a_purge_leaves_nothing_of_a_result_anywhere => nothing_left;
    purge_by_name_reaches_results_whose_participant_never_existed => no_participant;
    the_participant_action_removes_the_participant_too => participant_too;
    the_retention_policy_is_read_and_applied => retention;
    the_daily_retention_purge_queues_itself_once_a_day => scheduled;
    replays_recompute_scores_from_the_answers => replays;
    only_administrators_invoke_the_actions => roles;
    malformed_action_calls_are_refused_naming_what_is_wrong => malformed;
    a_running_purge_shows_its_progress_on_its_audit_entry => progress;
}

const ADMIN: &str = "northwind-admin";

/// POSTs `body` (raw) to `path` under the service root as `user`.
async fn invoke(app: &TestApp, user: &str, path: &str, body: &str) -> reqwest::Response {
    app.client
        .post(app.url(&format!("{}{path}", app.root())))
        .basic_auth(user, Some(DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap()
}

/// Invokes a purge as the administrator, expects 202, and waits for its audit log
/// entry (the `Location`) to close; returns the entry.
pub(crate) async fn purged(app: &TestApp, path: &str, body: &str) -> Value {
    let response = invoke(app, ADMIN, path, body).await;
    assert_eq!(response.status(), StatusCode::ACCEPTED, "{path} {body}");
    let location = response.headers()["Location"].to_str().unwrap().to_owned();
    closed(app, &location).await
}

/// The audit log entry at `location`, once IsInQueue is false.
async fn closed(app: &TestApp, location: &str) -> Value {
    let path = location
        .split_once("/deliveryodata/")
        .map(|(_, rest)| format!("/deliveryodata/{rest}"))
        .unwrap();
    for _ in 0..300 {
        let entry = app.get_json(&path).await;
        if entry["IsInQueue"] == json!(false) {
            return entry;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the job of {location} did not finish in 30 s");
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    app.sql_i64(&format!("SELECT COUNT(*) FROM {sql}")).await
}

/// Every row anywhere that belongs to result `result` (or its attempt).
async fn rows_of_result(app: &TestApp, result: i64, attempt: Option<i64>) -> Vec<(String, i64)> {
    let mut found = Vec::new();
    for table in [
        "answers",
        "scoring_tasks",
        "scoring_results",
        "dimension_scores",
        "scoring_events",
        "topic_scores",
        "flags",
        "flag_answers",
        "markings",
        "marking_scores",
        "marking_queue",
    ] {
        found.push((
            table.to_owned(),
            count(app, &format!("{table} WHERE result_id = {result}")).await,
        ));
    }
    found.push((
        "results".into(),
        count(app, &format!("results WHERE id = {result}")).await,
    ));
    found.push((
        "attempts (link)".into(),
        count(app, &format!("attempts WHERE result_id = {result}")).await,
    ));
    if let Some(attempt) = attempt {
        found.push((
            "answer_uploads".into(),
            count(app, &format!("answer_uploads WHERE attempt_id = {attempt}")).await,
        ));
    }
    found
}

fn nothing(found: &[(String, i64)]) -> bool {
    found.iter().all(|(_, n)| *n == 0)
}

/// A Northwind result with a scored essay: its ScoringResult, DimensionScores and
/// ScoringEvents, written through the scorer's PUTs; `double_marked`, its
/// question planned for double marking, so that its first marking is kept and it
/// waits for a second instead of being scored.
async fn scored_result(app: &TestApp, double_marked: bool) -> i64 {
    let task = open_task_with_rubric(app).await;
    // Flagged to the lead and released first: a flag and its answer to purge too.
    let flag = app
        .client
        .post(app.url(&format!("{}Flags", app.root())))
        .basic_auth("northwind-scorer", Some(DEMO_PASSWORD))
        .json(&json!({"QuestionID": task.question.to_string(), "ResultID": task.result, "Reason": "second-look"}))
        .send()
        .await
        .unwrap();
    assert_eq!(flag.status(), StatusCode::CREATED);
    let flag: Value = flag.json().await.unwrap();
    let answer = app
        .client
        .post(app.url(&format!("{}FlagAnswers", app.root())))
        .basic_auth("northwind-lead", Some(DEMO_PASSWORD))
        .json(&json!({"FlagID": flag["ID"], "Outcome": "released", "Note": "Mark it."}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::CREATED);
    // Every task of its question marked twice: its first marking is kept and it
    // waits for the second, with rows of double marking to purge too.
    let share = if double_marked { 100 } else { 0 };
    let plan = app
        .client
        .post(app.url(&format!("{}MarkingPlans", app.root())))
        .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
        .json(&json!({"QuestionID": task.question.to_string(), "Share": share}))
        .send()
        .await
        .unwrap();
    assert_eq!(plan.status(), StatusCode::CREATED);
    let read = scoring_result_of(app, task).await;
    let response = put_scoring_result(app, &read, 1, "scored before the purge").await;
    assert!(response.status().is_success(), "{}", response.status());
    assert!(put_status(app, task, 3).await.is_success());
    assert_eq!(
        count(
            app,
            &format!("marking_queue WHERE result_id = {}", task.result)
        )
        .await,
        i64::from(double_marked)
    );
    task.result
}

async fn admin_account(app: &TestApp) -> i64 {
    app.sql_i64("SELECT CAST(id AS BIGINT) FROM accounts WHERE username = 'northwind-admin'")
        .await
}

async fn each_action(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let names = app
        .sql_strings(&format!(
            "SELECT DISTINCT participant_name FROM results WHERE customer_id = {area} ORDER BY participant_name"
        ))
        .await;
    let results_of =
        |name: &str| format!("results WHERE customer_id = {area} AND participant_name = '{name}'");
    // By name, in the body.
    let before = count(&app, &results_of(&names[0])).await;
    assert!(before > 0);
    let entry = purged(
        &app,
        "Results/PurgeResultsByParticipantName",
        &json!({"ParticipantName": names[0]}).to_string(),
    )
    .await;
    assert_eq!(count(&app, &results_of(&names[0])).await, 0);
    assert_eq!(entry["RequestType"], "PurgeResultsByParticipantName");
    assert_eq!(entry["WasSuccessful"], true);
    assert_eq!(entry["TotalResultsAffected"], before);
    assert_eq!(entry["RequestUserID"], admin_account(&app).await);
    assert_eq!(entry["Source"], "127.0.0.1");
    assert!(
        uuid::Uuid::parse_str(entry["MessageID"].as_str().unwrap()).is_ok(),
        "{entry}"
    );
    assert!(
        entry["RequestDateTime"].is_string() && entry["ProcessedDateTime"].is_string(),
        "{entry}"
    );
    let data: Value = serde_json::from_str(entry["RequestData"].as_str().unwrap()).unwrap();
    assert_eq!(data["ParticipantName"], names[0]);
    // By name, as a URL literal (a version 2 client), with a quote in it.
    app.sql_execute(&format!(
        "UPDATE results SET participant_name = 'O''Brien' WHERE customer_id = {area} AND participant_name = '{}'",
        names[1]
    ))
    .await;
    let entry = purged(
        &app,
        "Results/PurgeResultsByParticipantName?ParticipantName='O''Brien'",
        "",
    )
    .await;
    assert_eq!(count(&app, &results_of("O''Brien")).await, 0);
    assert!(entry["TotalResultsAffected"].as_i64().unwrap() > 0);
    // By assessment (its ID a string, as the contract sends it).
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(assessment_id) FROM results WHERE customer_id = {area}"
        ))
        .await;
    let before = count(&app, &format!("results WHERE assessment_id = {assessment}")).await;
    let entry = purged(
        &app,
        "Results/PurgeResultsByAssessmentId",
        &json!({"AssessmentID": assessment.to_string()}).to_string(),
    )
    .await;
    assert_eq!(
        count(&app, &format!("results WHERE assessment_id = {assessment}")).await,
        0
    );
    assert_eq!(entry["TotalResultsAffected"], before);
    // One result, at both of its paths.
    for path in ["Result({})/Purge", "Results({})/Purge"] {
        let id = app
            .sql_i64(&format!(
                "SELECT CAST(MIN(id) AS BIGINT) FROM results WHERE customer_id = {area}"
            ))
            .await;
        let entry = purged(&app, &path.replace("{}", &id.to_string()), "{}").await;
        assert_eq!(entry["RequestType"], "Purge");
        assert_eq!(entry["TotalResultsAffected"], 1);
        assert_eq!(count(&app, &format!("results WHERE id = {id}")).await, 0);
    }
    // The other area's results are untouched by all of it.
    assert!(
        count(
            &app,
            &format!("results WHERE customer_id = {}", app.harbour())
        )
        .await
            > 0
    );
}

async fn nothing_left(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    // An uploaded result (its file and attempt) and a scored one (scoring results,
    // dimension scores, scoring events).
    let delivery = deliver(&app, "paper-to-purge").await;
    let file = full_marks(
        delivery.attempt,
        Some(delivery.batch),
        &snapshot_key(&app, delivery.snapshot).await,
    );
    assert_eq!(
        post(&app, "AnswerUploads", &file).await.status(),
        StatusCode::CREATED
    );
    let uploaded = app
        .sql_i64(&format!(
            "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {}",
            delivery.attempt
        ))
        .await;
    let scored = scored_result(&app, true).await;
    let events_before = count(&app, &format!("scoring_events WHERE result_id = {scored}")).await;
    assert!(!nothing(
        &rows_of_result(&app, uploaded, Some(delivery.attempt)).await
    ));
    assert!(!nothing(&rows_of_result(&app, scored, None).await));
    let counts_before = app
        .sql_i64("SELECT CAST(COALESCE(SUM(tasks), 0) AS BIGINT) FROM scoring_task_counts")
        .await;
    let tasks_of_both = count(
        &app,
        &format!("scoring_tasks WHERE result_id IN ({uploaded}, {scored})"),
    )
    .await;
    for id in [uploaded, scored] {
        purged(&app, &format!("Results({id})/Purge"), "{}").await;
    }
    let left = rows_of_result(&app, uploaded, Some(delivery.attempt)).await;
    assert!(nothing(&left), "{left:?}");
    let left = rows_of_result(&app, scored, None).await;
    assert!(
        nothing(&left),
        "{left:?} (it had {events_before} scoring events)"
    );
    assert_eq!(
        app.sql_i64("SELECT CAST(COALESCE(SUM(tasks), 0) AS BIGINT) FROM scoring_task_counts")
            .await,
        counts_before - tasks_of_both,
        "the kept task counts follow"
    );
    // The attempt stays, without its result: it may be uploaded again.
    assert_eq!(
        count(&app, &format!("attempts WHERE id = {}", delivery.attempt)).await,
        1
    );
}

async fn no_participant(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let id = app
        .sql_i64(&format!(
            "SELECT CAST(MAX(id) AS BIGINT) FROM results WHERE customer_id = {area}"
        ))
        .await;
    app.sql_execute(&format!(
        "UPDATE results SET participant_id = NULL, participant_name = 'walk-in 7' WHERE id = {id}"
    ))
    .await;
    assert_eq!(
        count(&app, "participants WHERE name = 'walk-in 7'").await,
        0
    );
    let entry = purged(
        &app,
        "Results/PurgeResultsByParticipantName",
        r#"{"ParticipantName": "walk-in 7"}"#,
    )
    .await;
    assert_eq!(entry["TotalResultsAffected"], 1);
    assert_eq!(count(&app, &format!("results WHERE id = {id}")).await, 0);
}

async fn participant_too(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver(&app, "paper-participant").await;
    let participant = app
        .sql_i64(&format!(
            "SELECT CAST(participant_id AS BIGINT) FROM attempts WHERE id = {}",
            delivery.attempt
        ))
        .await;
    let name = app
        .sql_strings(&format!(
            "SELECT name FROM participants WHERE id = {participant}"
        ))
        .await
        .remove(0);
    let results = count(
        &app,
        &format!(
            "results WHERE customer_id = {} AND (participant_id = {participant} OR participant_name = '{name}')",
            app.northwind()
        ),
    )
    .await;
    let entry = purged(
        &app,
        "PurgeParticipantAndResultsByParticipantName",
        &json!({"ParticipantName": name}).to_string(),
    )
    .await;
    assert_eq!(entry["TotalResultsAffected"], results);
    for table in [
        "participants WHERE id",
        "attempts WHERE participant_id",
        "group_participants WHERE participant_id",
        "results WHERE participant_id",
    ] {
        assert_eq!(
            count(&app, &format!("{table} = {participant}")).await,
            0,
            "{table}"
        );
    }
}

async fn retention(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let fetch = invoke(&app, ADMIN, "FetchPurgeRetentionPeriodDays", "{}").await;
    assert_eq!(fetch.status(), StatusCode::NOT_FOUND);
    let policy = r#"{"AdministratorName": "Ann Admin", "RunType": "Manual"}"#;
    let none = invoke(&app, ADMIN, "PurgeResultsByRetentionPolicy", policy).await;
    assert_eq!(none.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(none)
        .await
        .contains("no retention policy"));
    app.store
        .set_retention(CustomerArea::new(area).unwrap(), Some(30), 0)
        .await
        .unwrap();
    let fetch = invoke(&app, ADMIN, "FetchPurgeRetentionPeriodDays", "").await;
    assert_eq!(fetch.status(), StatusCode::OK);
    let body: Value = fetch.json().await.unwrap();
    assert_eq!(body["value"], 30);
    assert!(body["odata.metadata"]
        .as_str()
        .unwrap()
        .ends_with("$metadata#Edm.Int32"));
    let verbose = app
        .client
        .post(app.url(&format!("{}FetchPurgeRetentionPeriodDays", app.root())))
        .basic_auth(ADMIN, Some(DEMO_PASSWORD))
        .header("MaxDataServiceVersion", "2.0")
        .send()
        .await
        .unwrap();
    assert_eq!(
        verbose.json::<Value>().await.unwrap()["d"]["FetchPurgeRetentionPeriodDays"],
        30
    );
    let scheduled = invoke(
        &app,
        ADMIN,
        "PurgeResultsByRetentionPolicy",
        r#"{"AdministratorName": "Ann", "RunType": "Scheduled"}"#,
    )
    .await;
    assert_eq!(scheduled.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(scheduled).await.contains("reserved"));
    // Half the area's results finished 40 days ago, the rest today.
    let now = scoredesk_server::store::now_millis();
    let old = now - 40 * 86_400_000;
    app.sql_execute(&format!(
        "UPDATE results SET when_finished = {now} WHERE customer_id = {area}"
    ))
    .await;
    app.sql_execute(&format!(
        "UPDATE results SET when_finished = {old} WHERE customer_id = {area} AND id % 2 = 0"
    ))
    .await;
    let (old_ones, recent) = (
        count(
            &app,
            &format!("results WHERE customer_id = {area} AND id % 2 = 0"),
        )
        .await,
        count(
            &app,
            &format!("results WHERE customer_id = {area} AND id % 2 = 1"),
        )
        .await,
    );
    let entry = purged(&app, "PurgeResultsByRetentionPolicy", policy).await;
    assert_eq!(entry["TotalResultsAffected"], old_ones);
    assert_eq!(
        count(&app, &format!("results WHERE customer_id = {area}")).await,
        recent
    );
    let data: Value = serde_json::from_str(entry["RequestData"].as_str().unwrap()).unwrap();
    assert_eq!(data["RunType"], "Manual");
}

async fn scheduled(backend: Backend) {
    let app = TestApp::spawn_with_demo_configured(backend, |settings| {
        settings.retention_check_seconds = 1;
    })
    .await;
    let area = app.northwind();
    app.store
        .set_retention(CustomerArea::new(area).unwrap(), Some(1), 0)
        .await
        .unwrap();
    let now = scoredesk_server::store::now_millis();
    let id = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM results WHERE customer_id = {area}"
        ))
        .await;
    app.sql_execute(&format!(
        "UPDATE results SET when_finished = {} WHERE id = {id}",
        now - 3 * 86_400_000
    ))
    .await;
    let scheduled_entries = format!(
        "results_audit_log WHERE customer_id = {area} AND request_type = 'PurgeResultsByRetentionPolicy'"
    );
    for _ in 0..100 {
        if count(&app, &format!("results WHERE id = {id}")).await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        count(&app, &format!("results WHERE id = {id}")).await,
        0,
        "the scheduled purge ran"
    );
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        count(&app, &scheduled_entries).await,
        1,
        "once a day, however often it is looked for"
    );
    let entry = app
        .get_json(&format!(
            "{}ResultsAuditLog?$filter=RequestUserID eq 0",
            app.root()
        ))
        .await;
    let entry = &entry["value"][0];
    let data: Value = serde_json::from_str(entry["RequestData"].as_str().unwrap()).unwrap();
    assert_eq!(data["RunType"], "Scheduled");
    assert_eq!(entry["RequestUserID"], 0);
}

async fn replays(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let id = scored_result(&app, false).await;
    let total = app
        .sql_i64(&format!(
            "SELECT CAST(total_score AS BIGINT) FROM results WHERE id = {id}"
        ))
        .await;
    let topics = app
        .sql_i64(&format!(
            "SELECT COALESCE(SUM(total_score), 0) FROM topic_scores WHERE result_id = {id}"
        ))
        .await;
    let spoil_sql =
        format!("UPDATE results SET total_score = 999, percentage_score = 0 WHERE id = {id}");
    let restored_sql = format!("SELECT CAST(total_score AS BIGINT) FROM results WHERE id = {id}");
    let spoil = || app.sql_execute(&spoil_sql);
    let restored = || app.sql_i64(&restored_sql);
    spoil().await;
    app.sql_execute(&format!("DELETE FROM topic_scores WHERE result_id = {id}"))
        .await;
    let response = invoke(&app, ADMIN, &format!("Results({id})/ReplayResult"), "{}").await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(restored().await, total);
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COALESCE(SUM(total_score), 0) FROM topic_scores WHERE result_id = {id}"
        ))
        .await,
        topics
    );
    spoil().await;
    let response = invoke(
        &app,
        ADMIN,
        "ReplayResultsByIDList",
        &json!({"ResultIds": [id, 999_999]}).to_string(),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let outcome: Value = response.json().await.unwrap();
    assert_eq!(outcome["SuccessCount"], 1);
    assert_eq!(outcome["FailureCount"], 1);
    assert_eq!(outcome["FailureResultIds"], json!([999_999]));
    assert!(outcome["odata.metadata"]
        .as_str()
        .unwrap()
        .ends_with("#ScoreDesk.ReplayOutcome"));
    assert_eq!(restored().await, total);
    spoil().await;
    let in_range = count(
        &app,
        &format!("results WHERE customer_id = {area} AND when_finished IS NOT NULL"),
    )
    .await;
    let entry = purged(
        &app,
        "ReplayResultsByDateRange",
        r#"{"StartDate": "1970-01-01T00:00:00", "EndDate": "2100-01-01T00:00:00"}"#,
    )
    .await;
    assert_eq!(entry["TotalResultsAffected"], in_range);
    assert_eq!(restored().await, total);
    assert!(
        count(&app, &format!("results WHERE customer_id = {area}")).await > 0,
        "a replay removes nothing"
    );
}

async fn roles(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let id = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM results WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let calls = [
        (
            "Results/PurgeResultsByParticipantName",
            r#"{"ParticipantName": "x"}"#.to_owned(),
        ),
        (
            "Results/PurgeResultsByAssessmentId",
            r#"{"AssessmentID": "1"}"#.to_owned(),
        ),
        (&*format!("Results({id})/Purge"), "{}".to_owned()),
        (
            "PurgeParticipantAndResultsByParticipantName",
            r#"{"ParticipantName": "x"}"#.to_owned(),
        ),
        (
            "PurgeResultsByRetentionPolicy",
            r#"{"AdministratorName": "a", "RunType": "b"}"#.to_owned(),
        ),
        ("FetchPurgeRetentionPeriodDays", "{}".to_owned()),
        ("ReplayResultsByIDList", r#"{"ResultIds": [1]}"#.to_owned()),
        (
            "ReplayResultsByDateRange",
            r#"{"StartDate": "2020-01-01T00:00:00", "EndDate": "2020-01-02T00:00:00"}"#.to_owned(),
        ),
        (&*format!("Results({id})/ReplayResult"), "{}".to_owned()),
    ];
    let entries_before = count(&app, "results_audit_log").await;
    for user in ["northwind-scorer", "northwind-coordinator"] {
        for (path, body) in &calls {
            let response = invoke(&app, user, path, body).await;
            assert_eq!(response.status(), StatusCode::FORBIDDEN, "{user} {path}");
        }
    }
    assert_eq!(
        count(&app, "results_audit_log").await,
        entries_before,
        "nothing queued"
    );
    assert_eq!(count(&app, &format!("results WHERE id = {id}")).await, 1);
    let (status, _) = app
        .get_json_with(
            "northwind-coordinator",
            &format!("{}ResultsAuditLog", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "coordinators read the audit log");
}

async fn malformed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let entries_before = count(&app, "results_audit_log").await;
    let cases = [
        (
            "Results/PurgeResultsByParticipantName",
            r#"{"Name": "bob"}"#,
            StatusCode::BAD_REQUEST,
            "Name is not a parameter",
        ),
        (
            "Results/PurgeResultsByParticipantName",
            r#"{"ParticipantName": 7.5}"#,
            StatusCode::BAD_REQUEST,
            "ParticipantName",
        ),
        (
            "Results/PurgeResultsByParticipantName",
            "{}",
            StatusCode::BAD_REQUEST,
            "ParticipantName is required",
        ),
        (
            "Results/PurgeResultsByParticipantName",
            r#"{"ParticipantName": "  "}"#,
            StatusCode::BAD_REQUEST,
            "ParticipantName is required",
        ),
        (
            "Results/PurgeResultsByParticipantName",
            "{not json",
            StatusCode::BAD_REQUEST,
            "not JSON",
        ),
        (
            "Results/PurgeResultsByParticipantName",
            "[]",
            StatusCode::BAD_REQUEST,
            "JSON object",
        ),
        (
            "Results/PurgeResultsByParticipantName?ParticipantName=bob",
            "",
            StatusCode::BAD_REQUEST,
            "literal",
        ),
        (
            "Results/PurgeResultsByAssessmentId",
            r#"{"AssessmentID": "abc"}"#,
            StatusCode::BAD_REQUEST,
            "AssessmentID",
        ),
        (
            "Results(999999)/Purge",
            "{}",
            StatusCode::NOT_FOUND,
            "999999",
        ),
        (
            "Results/Purge",
            "{}",
            StatusCode::NOT_FOUND,
            "Results(<key>)/Purge",
        ),
        (
            "Results(1)/PurgeResultsByAssessmentId",
            "{}",
            StatusCode::NOT_FOUND,
            "Results/PurgeResultsByAssessmentId",
        ),
        (
            "Results/FetchPurgeRetentionPeriodDays",
            "{}",
            StatusCode::NOT_FOUND,
            "service action",
        ),
        (
            "ReplayResultsByIDList",
            r#"{"ResultIds": "1,2"}"#,
            StatusCode::BAD_REQUEST,
            "ResultIds",
        ),
        (
            "ReplayResultsByIDList",
            "{}",
            StatusCode::BAD_REQUEST,
            "ResultIds is required",
        ),
        (
            "ReplayResultsByDateRange",
            r#"{"StartDate": "yesterday", "EndDate": "2020-01-01T00:00:00"}"#,
            StatusCode::BAD_REQUEST,
            "StartDate",
        ),
        (
            "ReplayResultsByDateRange",
            r#"{"StartDate": "2021-01-01T00:00:00", "EndDate": "2020-01-01T00:00:00"}"#,
            StatusCode::BAD_REQUEST,
            "after EndDate",
        ),
        (
            "FetchPurgeRetentionPeriodDays",
            r#"{"Days": 3}"#,
            StatusCode::BAD_REQUEST,
            "takes none",
        ),
    ];
    for (path, body, status, says) in cases {
        let response = invoke(&app, ADMIN, path, body).await;
        assert_eq!(response.status(), status, "{path} {body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(says), "{path} {body}: {message}");
    }
    let get = app
        .get_as(
            ADMIN,
            &format!("{}Results/PurgeResultsByAssessmentId", app.root()),
        )
        .await;
    assert_eq!(get.status(), StatusCode::METHOD_NOT_ALLOWED);
    let in_change_set = Op {
        method: "POST",
        url: "Results/PurgeResultsByParticipantName".into(),
        headers: Vec::new(),
        body: json!({"ParticipantName": "bob"}),
    };
    let (status, inner, text) = send(&app, ADMIN, batch_body(&[vec![in_change_set]], &[])).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![400], "{text}");
    assert!(text.contains("actions are invoked on their own"), "{text}");
    assert_eq!(
        count(&app, "results_audit_log").await,
        entries_before,
        "nothing queued"
    );
}

/// While a purge runs, its audit log entry's TotalResultsAffected counts the
/// results removed so far (updated as the lease is renewed), so a client
/// following it sees it advance; IsInQueue stays true until it is closed. The
/// job is queued and worked here through the store, due only in an hour so that
/// the server's own runner cannot take it first.
async fn progress(backend: Backend) {
    use scoredesk_server::model::purge::JobTarget;
    use scoredesk_server::store::schema::Jobs;
    use scoredesk_server::store::{now_millis, AuditRequest};

    let app = TestApp::spawn_with_demo(backend).await;
    let area = CustomerArea::new(app.northwind()).unwrap();
    let mut tx = app.store.begin().await.unwrap();
    let entry = tx
        .queue_job(
            area,
            &AuditRequest {
                message_id: "progress-test",
                user_id: 0,
                request_type: "PurgeResultsByParticipantName",
                request_data: "{}",
                source: None,
                at: now_millis(),
            },
            &JobTarget::ParticipantName {
                name: "nobody at all".into(),
            },
        )
        .await
        .unwrap();
    // Not due for an hour, in the same transaction: the server's runner (which
    // may be making its first look as the test starts) leaves it alone; the test
    // claims it as if the hour had passed.
    let later = now_millis() + 3_600_000;
    tx.execute(
        &sea_query::Query::update()
            .table(Jobs::Table)
            .value(Jobs::RunAfter, later)
            .and_where(sea_query::Expr::col(Jobs::AuditLogId).eq(entry))
            .to_owned(),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let owner = "progress-test-owner";
    let job = app
        .store
        .claim_job(owner, later, later + 60_000)
        .await
        .unwrap()
        .expect("the job is there to claim");
    assert_eq!(job.audit_log_id, Some(entry));
    let path = format!("{}ResultsAuditLog({entry})", app.root());
    let read = |_: &TestApp| app.get_json(&path);
    assert_eq!(read(&app).await["TotalResultsAffected"], 0);
    for (count, expected) in [(100, 100), (100, 200), (37, 237)] {
        assert!(app
            .store
            .renew_job(&job, owner, count, now_millis() + 60_000)
            .await
            .unwrap());
        let shown = read(&app).await;
        assert_eq!(shown["TotalResultsAffected"], expected);
        assert_eq!(shown["IsInQueue"], true);
    }
    // Another owner's renewal changes nothing.
    assert!(!app
        .store
        .renew_job(&job, "someone else", 50, now_millis() + 60_000)
        .await
        .unwrap());
    assert_eq!(read(&app).await["TotalResultsAffected"], 237);
    assert!(app
        .store
        .finish_job(&job, owner, true, now_millis())
        .await
        .unwrap());
    let closed = read(&app).await;
    assert_eq!(closed["IsInQueue"], false);
    assert_eq!(closed["TotalResultsAffected"], 237);
}
