//! Double-blind second marking (docs/marking-quality.md): an administrator's
//! plan; a chosen task set to 3 keeps its first marking and goes to 2 with the
//! Result unchanged; a second marker takes it from `SecondMarkingQueue` and
//! never sees the first's marks by any URL form, `$expand` and Atom included; the
//! final mark follows the plan's rule, or a third marker resolves; only then is
//! the task 3 and the Result rescored. Both databases.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{
    assert_one_created_the_rest_conflict, odata_error_message, on_both_backends, Backend, TestApp,
};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::scoring_support::{
    open_task_with_rubric, open_tasks_with_rubric, put_status, result, scoring_result_of,
    scoring_result_path, task_status, Task, SCORER,
};

on_both_backends! {
    a_plan_is_written_by_administrators_read_by_leads_and_checked => plans;
    a_chosen_task_waits_blind_for_its_second_marking_and_the_mean_decides => second_marking;
    markings_apart_beyond_the_tolerance_go_to_a_third_marker_who_decides => resolution;
    a_marking_is_submitted_whole_by_its_own_marker_under_its_etag => submission_rules;
    of_markers_taking_one_round_at_once_exactly_one_does => race;
    a_task_not_chosen_is_scored_as_the_spec_says => not_chosen;
    the_agreement_of_a_questions_markings_is_served_to_leads => figures;
    a_taken_round_is_given_back_by_its_marker_or_freed_by_a_lead => give_back;
}

pub(crate) const ADMIN: &str = "northwind-admin";
pub(crate) const LEAD: &str = "northwind-lead";
pub(crate) const SECOND: &str = "northwind-marker-two";
pub(crate) const THIRD: &str = "northwind-marker-three";
/// Written by the first marker only: no response to another marker holds it.
const FIRST_COMMENT: &str = "first-marker-says-zebra";

pub(crate) async fn send(
    app: &TestApp,
    method: Method,
    user: &str,
    path: &str,
    body: &Value,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let url = if path.starts_with("http") {
        path.to_owned()
    } else if path.starts_with('/') {
        app.url(path)
    } else {
        app.url(&format!("{}{path}", app.root()))
    };
    let mut request = app
        .client
        .request(method, url)
        .basic_auth(user, Some(DEMO_PASSWORD));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if !body.is_null() {
        request = request.json(body);
    }
    request.send().await.unwrap()
}

pub(crate) async fn get_as(app: &TestApp, user: &str, path: &str) -> (StatusCode, String) {
    let response = send(app, Method::GET, user, path, &Value::Null, &[]).await;
    (response.status(), response.text().await.unwrap())
}

pub(crate) async fn json_as(app: &TestApp, user: &str, path: &str) -> Value {
    let (status, text) = get_as(app, user, path).await;
    assert_eq!(status, StatusCode::OK, "GET {path} as {user}: {text}");
    serde_json::from_str(&text).unwrap()
}

pub(crate) async fn with_markers(backend: Backend) -> TestApp {
    let app = TestApp::spawn_with_demo(backend).await;
    app.add_account(SECOND, "scorer").await;
    app.add_account(THIRD, "scorer").await;
    app
}

pub(crate) async fn plan(app: &TestApp, task: Task, share: i64, tolerance: i64, rule: &str) {
    let body = json!({
        "QuestionID": task.question.to_string(),
        "Share": share,
        "Tolerance": tolerance,
        "Rule": rule,
    });
    let response = send(app, Method::POST, ADMIN, "MarkingPlans", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
}

/// The task's dimension scores as the scorer reads them.
async fn dimension_scores(app: &TestApp, user: &str, task: Task) -> Vec<Value> {
    let scoring_result = scoring_result_of(app, task).await;
    let path = format!(
        "{}/DimensionScores",
        scoring_result_path(app, &scoring_result)
    );
    json_as(app, user, &path).await["value"]
        .as_array()
        .unwrap()
        .clone()
}

pub(crate) async fn dimension_maxima(app: &TestApp, rubric_id: &Value) -> Vec<i64> {
    app.sql_column::<i64>(&format!(
        "SELECT CAST(max_score AS BIGINT) FROM dimensions WHERE rubric_id = {rubric_id} \
         ORDER BY dimension_order"
    ))
    .await
}

/// The first marker scores every dimension and the total, comments, and sets
/// the task to 3; returns the status code of that PUT.
async fn first_marking(app: &TestApp, task: Task, scores: &[i64]) -> StatusCode {
    marking_as(app, SCORER, task, scores).await
}

/// `user` marks `task` through the spec's sets: every dimension, the total and
/// comments, then Status 3; returns the status code of that PUT.
pub(crate) async fn marking_as(
    app: &TestApp,
    user: &str,
    task: Task,
    scores: &[i64],
) -> StatusCode {
    let scoring_result = scoring_result_of(app, task).await;
    let dimensions = dimension_scores(app, user, task).await;
    assert_eq!(dimensions.len(), scores.len(), "one score per dimension");
    for (dimension, score) in dimensions.iter().zip(scores) {
        let mut body = dimension.clone();
        body["Score"] = json!(score);
        body["Comment"] = json!(FIRST_COMMENT);
        let path = format!(
            "DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order={})",
            task.question, dimension["RubricID"], task.result, dimension["Order"]
        );
        let response = send(app, Method::PUT, user, &path, &body, &[]).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
    }
    let mut body = scoring_result.clone();
    body["Score"] = json!(scores.iter().sum::<i64>());
    body["Comments"] = json!(FIRST_COMMENT);
    let path = scoring_result_path(app, &scoring_result);
    let response = send(app, Method::PUT, user, &path, &body, &[]).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    status_as(app, user, task, 3).await
}

/// `user` PUTs `task` back with `status`; returns the status code.
pub(crate) async fn status_as(app: &TestApp, user: &str, task: Task, status: i64) -> StatusCode {
    let body = json!({
        "QuestionID": task.question.to_string(),
        "ResultID": task.result,
        "Status": status,
    });
    send(app, Method::PUT, user, &task.path(app), &body, &[])
        .await
        .status()
}

/// Takes the round `task` waits in as `user`; returns the new marking.
pub(crate) async fn take(app: &TestApp, user: &str, task: Task) -> Value {
    let body = json!({"QuestionID": task.question.to_string(), "ResultID": task.result});
    let response = send(app, Method::POST, user, "Markings", &body, &[]).await;
    assert_eq!(
        response.status(),
        StatusCode::CREATED,
        "{user} takes the round"
    );
    response.json().await.unwrap()
}

/// Scores every dimension of `marking` as `user`, then submits it.
pub(crate) async fn mark_and_submit(app: &TestApp, user: &str, marking: &Value, scores: &[i64]) {
    let id = &marking["ID"];
    let rows = json_as(app, user, &format!("Markings({id})/Scores")).await;
    let rows = rows["value"].as_array().unwrap();
    assert_eq!(rows.len(), scores.len());
    for (row, score) in rows.iter().zip(scores) {
        let mut body = row.clone();
        body["Score"] = json!(score);
        let path = format!("MarkingScores(MarkingID={id},Order={})", row["Order"]);
        let response = send(app, Method::PUT, user, &path, &body, &[]).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT, "{path}");
    }
    let current = json_as(app, user, &format!("Markings({id})")).await;
    let mut body = current.clone();
    body["IsSubmitted"] = json!(true);
    body["Comments"] = json!(format!("{user} marked it"));
    let response = send(
        app,
        Method::PUT,
        user,
        &format!("Markings({id})"),
        &body,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
}

/// Every URL form a marker might read the task's marks through.
fn every_url_form(task: Task, first_id: &Value, own_id: &Value) -> Vec<String> {
    let (q, r) = (task.question, task.result);
    let key = format!("QuestionID={q}L,ResultID={r}");
    let mut forms = vec![
        "Markings".to_owned(),
        format!("Markings({first_id})"),
        format!("Markings({first_id})/Scores"),
        format!("Markings({first_id})/ScoringTask"),
        format!("Markings/$count"),
        format!("Markings?$filter=Round eq 1"),
        format!("Markings?$filter=QuestionID eq {q}L and ResultID eq {r}"),
        format!("Markings?$filter=Score ge 0"),
        format!("Markings?$expand=Scores"),
        format!("Markings?$inlinecount=allpages"),
        format!("Markings({own_id})?$expand=Scores,ScoringTask"),
        "MarkingScores".to_owned(),
        format!("MarkingScores?$filter=MarkingID eq {first_id}"),
        format!("MarkingScores(MarkingID={first_id},Order=1)"),
        format!("MarkingScores(MarkingID={first_id},Order=1)/Marking"),
        format!("MarkingScores?$expand=Marking"),
        format!("MarkingScores/$count"),
        format!("ScoringTasks({key})"),
        format!("ScoringTasks({key})?$expand=ScoringResult"),
        format!("ScoringTasks({key})/ScoringResult"),
        format!("ScoringTasks({key})/ScoringResult?$expand=DimensionScores"),
        format!(
            "ScoringResults?$filter=QuestionID eq {q}L and ResultID eq {r}&$expand=DimensionScores"
        ),
        format!("DimensionScores?$filter=QuestionID eq {q}L and ResultID eq {r}"),
        format!("Answers?$filter=QuestionID eq {q}L and ResultID eq {r}"),
        format!("Results({r})"),
        format!("SecondMarkingQueue"),
        format!("SecondMarkingQueue({key})?$expand=ScoringTask"),
    ];
    let atom: Vec<String> = forms
        .iter()
        .filter(|form| !form.contains("$count"))
        .map(|form| {
            let joiner = if form.contains('?') { '&' } else { '?' };
            format!("{form}{joiner}$format=atom")
        })
        .collect();
    forms.extend(atom);
    forms
}

async fn plans(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    let question = task.question.to_string();
    let bad = [
        (json!({"Share": 10}), "QuestionID"),
        (json!({"QuestionID": question, "Share": 101}), "Share"),
        (json!({"QuestionID": question, "Share": -1}), "Share"),
        (
            json!({"QuestionID": question, "Share": 10, "Tolerance": -2}),
            "Tolerance",
        ),
        (
            json!({"QuestionID": question, "Share": 10, "Rule": "median"}),
            "Rule",
        ),
        (json!({"QuestionID": question}), "Share"),
        (json!({"QuestionID": "1", "Share": 10}), "QuestionID"),
        (json!({"QuestionID": question, "Share": "ten"}), "Share"),
    ];
    for (body, field) in bad {
        let response = send(&app, Method::POST, ADMIN, "MarkingPlans", &body, &[]).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(field), "{body}: {message}");
    }
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM marking_plans").await,
        0,
        "nothing written"
    );
    let body = json!({"QuestionID": question, "Share": 20});
    for user in [SCORER, LEAD, "northwind-coordinator"] {
        let response = send(&app, Method::POST, user, "MarkingPlans", &body, &[]).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{user}");
    }
    let response = send(&app, Method::POST, ADMIN, "MarkingPlans", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    assert_eq!(created["Share"], 20);
    assert_eq!(created["Tolerance"], 0, "the default");
    assert_eq!(created["Rule"], "resolution", "the default");
    let again = send(&app, Method::POST, ADMIN, "MarkingPlans", &body, &[]).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);

    let path = format!("MarkingPlans({question}L)");
    let read = json_as(&app, LEAD, &path).await;
    assert_eq!(read["Share"], 20);
    for user in [SCORER, "northwind-coordinator", "harbour-admin"] {
        let (status, _) = get_as(&app, user, &path).await;
        assert!(
            status == StatusCode::FORBIDDEN || status == StatusCode::NOT_FOUND,
            "{user}: {status}"
        );
    }
    let mut changed = read.clone();
    changed["Share"] = json!(50);
    changed["Rule"] = json!("higher");
    let response = send(&app, Method::PUT, ADMIN, &path, &changed, &[]).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let read = json_as(&app, LEAD, &path).await;
    assert_eq!(
        (read["Share"].clone(), read["Rule"].clone()),
        (json!(50), json!("higher"))
    );
    changed["Share"] = json!(200);
    let response = send(&app, Method::PUT, ADMIN, &path, &changed, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let response = send(&app, Method::PUT, LEAD, &path, &read, &[]).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

async fn second_marking(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    let before = result(&app, task.result).await;
    plan(&app, task, 100, 2, "mean").await;
    let rubric = scoring_result_of(&app, task).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    let first: Vec<i64> = maxima.clone();
    assert_eq!(
        first_marking(&app, task, &first).await,
        StatusCode::NO_CONTENT
    );

    // Kept as round 1; the task is 2; the Result is as it was; the spec's
    // ScoringResult holds no marks while the task waits.
    assert_eq!(task_status(&app, task).await, 2);
    assert_eq!(result(&app, task.result).await, before);
    let kept = json_as(&app, SCORER, "Markings").await["value"].clone();
    assert_eq!(kept.as_array().unwrap().len(), 1);
    let first_marking = &kept[0];
    assert_eq!(first_marking["Round"], 1);
    assert_eq!(first_marking["IsSubmitted"], true);
    assert_eq!(first_marking["Score"], first.iter().sum::<i64>());
    assert_eq!(first_marking["Comments"], FIRST_COMMENT);
    let first_id = first_marking["ID"].clone();
    assert!(scoring_result_of(&app, task).await["Score"].is_null());

    // Nothing writes the task's marks through the spec's feeds while it waits.
    assert_eq!(put_status(&app, task, 3).await, StatusCode::CONFLICT);
    assert_eq!(put_status(&app, task, 0).await, StatusCode::CONFLICT);
    let flag = json!({"QuestionID": task.question.to_string(), "ResultID": task.result,
        "Reason": "second-look"});
    let response = send(&app, Method::POST, SCORER, "Flags", &flag, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);

    // The queue: offered to the others, not to the first marker.
    let key = format!("QuestionID={}L,ResultID={}", task.question, task.result);
    let queue_as = |user: &'static str| {
        let app = &app;
        async move { json_as(app, user, "SecondMarkingQueue").await["value"].clone() }
    };
    assert_eq!(queue_as(SCORER).await, json!([]));
    let offered = queue_as(SECOND).await;
    assert_eq!(offered.as_array().unwrap().len(), 1);
    assert_eq!(offered[0]["Round"], 2);
    let body = json!({"QuestionID": task.question.to_string(), "ResultID": task.result});
    let response = send(&app, Method::POST, SCORER, "Markings", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT, "the first marker");
    assert!(odata_error_message(response).await.contains("first round"));

    let own = take(&app, SECOND, task).await;
    assert_eq!(own["Round"], 2);
    assert_eq!(own["MarkedBy"], SECOND);
    assert!(own["Score"].is_null());
    assert_eq!(queue_as(THIRD).await, json!([]), "taken");
    let response = send(&app, Method::POST, THIRD, "Markings", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);

    // Blind: no URL form shows the second marker the first's marks.
    for form in every_url_form(task, &first_id, &own["ID"]) {
        let (status, text) = get_as(&app, SECOND, &form).await;
        assert!(
            status == StatusCode::OK || status == StatusCode::NOT_FOUND,
            "{form}: {status} {text}"
        );
        assert!(
            !text.contains(FIRST_COMMENT),
            "{form} shows the first comment: {text}"
        );
        assert!(
            !text.contains(&format!("Markings({first_id})")) || status == StatusCode::NOT_FOUND,
            "{form} names the first marking: {text}"
        );
    }
    let (status, _) = get_as(&app, SECOND, &format!("Markings({first_id})")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(get_as(&app, SECOND, "Markings/$count").await.1, "1");
    let seen = json_as(&app, SECOND, "Markings?$filter=Round eq 1").await;
    assert_eq!(seen["value"], json!([]));
    let scored_dimensions = dimension_scores(&app, SECOND, task).await;
    assert!(scored_dimensions.iter().all(|d| d["Score"].is_null()));

    // The lead reads both; the third marker neither.
    let lead_sees = json_as(
        &app,
        LEAD,
        &format!(
            "Markings?$filter=QuestionID eq {}L and ResultID eq {}",
            task.question, task.result
        ),
    )
    .await;
    assert_eq!(lead_sees["value"].as_array().unwrap().len(), 2);
    assert_eq!(json_as(&app, THIRD, "Markings").await["value"], json!([]));

    // Within the tolerance: the mean decides (rounded half up), the task is 3,
    // the Result is rescored from it.
    // One below the first on two dimensions: 2 apart, the tolerance.
    let second: Vec<i64> = maxima
        .iter()
        .enumerate()
        .map(|(i, max)| if i < 2 { max - 1 } else { *max })
        .collect();
    let apart = first.iter().sum::<i64>() - second.iter().sum::<i64>();
    assert_eq!(apart, 2, "the demo's rubric has two dimensions or more");
    mark_and_submit(&app, SECOND, &own, &second).await;
    assert_eq!(task_status(&app, task).await, 3);
    let total = (first.iter().sum::<i64>() + second.iter().sum::<i64>() + 1) / 2;
    let final_result = scoring_result_of(&app, task).await;
    assert_eq!(final_result["Score"], total);
    let finals: i64 = dimension_scores(&app, SCORER, task)
        .await
        .iter()
        .map(|d| d["Score"].as_i64().unwrap())
        .sum();
    assert_eq!(finals, total, "the dimensions add up to the total");
    let answer = json_as(&app, SCORER, &format!("{}/Answer", task.path(&app))).await;
    assert_eq!(
        answer["ActualScore"], total,
        "the answer carries the final mark"
    );
    assert_ne!(
        result(&app, task.result).await,
        before,
        "the Result is rescored"
    );
    assert_eq!(queue_as(THIRD).await, json!([]));
    let _ = key;
}

async fn resolution(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    plan(&app, task, 100, 0, "resolution").await;
    let rubric = scoring_result_of(&app, task).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    let zeros: Vec<i64> = maxima.iter().map(|_| 0).collect();
    assert_eq!(
        first_marking(&app, task, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let second = take(&app, SECOND, task).await;
    mark_and_submit(&app, SECOND, &second, &zeros).await;

    // Apart beyond the tolerance: still 2, offered for round 3 to neither marker.
    assert_eq!(task_status(&app, task).await, 2);
    for user in [SCORER, SECOND] {
        let queue = json_as(&app, user, "SecondMarkingQueue").await;
        assert_eq!(queue["value"], json!([]), "{user}");
    }
    let offered = json_as(&app, LEAD, "SecondMarkingQueue").await;
    assert_eq!(offered["value"][0]["Round"], 3);
    let response = send(
        &app,
        Method::POST,
        SECOND,
        "Markings",
        &json!({"QuestionID": task.question.to_string(), "ResultID": task.result}),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(response).await.contains("second round"));

    // The lead resolves: his marks are final.
    let third = take(&app, LEAD, task).await;
    assert_eq!(third["Round"], 3);
    let resolved: Vec<i64> = maxima.iter().map(|max| max / 2).collect();
    mark_and_submit(&app, LEAD, &third, &resolved).await;
    assert_eq!(task_status(&app, task).await, 3);
    assert_eq!(
        scoring_result_of(&app, task).await["Score"],
        resolved.iter().sum::<i64>()
    );
    let rounds = json_as(
        &app,
        LEAD,
        &format!(
            "Markings?$filter=QuestionID eq {}L and ResultID eq {}&$orderby=Round",
            task.question, task.result
        ),
    )
    .await;
    let rounds: Vec<i64> = rounds["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["Round"].as_i64().unwrap())
        .collect();
    assert_eq!(rounds, vec![1, 2, 3]);
}

async fn submission_rules(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    plan(&app, task, 100, 5, "higher").await;
    let rubric = scoring_result_of(&app, task).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    assert_eq!(
        first_marking(&app, task, &maxima).await,
        StatusCode::NO_CONTENT
    );

    let missing = [
        (
            json!({"ResultID": task.result}),
            StatusCode::BAD_REQUEST,
            "QuestionID",
        ),
        (
            json!({"QuestionID": task.question.to_string()}),
            StatusCode::BAD_REQUEST,
            "ResultID",
        ),
        (
            json!({"QuestionID": task.question.to_string(), "ResultID": 999_999}),
            StatusCode::CONFLICT,
            "does not wait",
        ),
    ];
    for (body, status, words) in missing {
        let response = send(&app, Method::POST, SECOND, "Markings", &body, &[]).await;
        assert_eq!(response.status(), status, "{body}");
        assert!(odata_error_message(response).await.contains(words));
    }
    let response = send(
        &app,
        Method::POST,
        "harbour-scorer",
        "Markings",
        &json!({"QuestionID": task.question.to_string(), "ResultID": task.result}),
        &[],
    )
    .await;
    assert_eq!(
        response.status(),
        StatusCode::FORBIDDEN,
        "another area's root"
    );
    let marking = take(&app, SECOND, task).await;
    let id = &marking["ID"];
    let path = format!("Markings({id})");

    // Not submitted with a dimension unscored, naming it.
    let mut body = marking.clone();
    body["IsSubmitted"] = json!(true);
    let response = send(&app, Method::PUT, SECOND, &path, &body, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains(&format!("MarkingScores(MarkingID={id},Order=1).Score")));
    // Without the value read, and with a stale one.
    let mut unread = body.clone();
    unread.as_object_mut().unwrap().remove("ModifiedDateTime");
    let response = send(&app, Method::PUT, SECOND, &path, &unread, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let response = send(
        &app,
        Method::PUT,
        SECOND,
        &path,
        &unread,
        &[("If-Match", "W/\"X'00'\"")],
    )
    .await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    // A score above the dimension's maximum; another marker's or a lead's write.
    let score_path = format!("MarkingScores(MarkingID={id},Order=1)");
    let row = json_as(&app, SECOND, &score_path).await;
    let mut too_high = row.clone();
    too_high["Score"] = json!(maxima[0] + 1);
    let response = send(&app, Method::PUT, SECOND, &score_path, &too_high, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let mut fine = row.clone();
    fine["Score"] = json!(0);
    let response = send(&app, Method::PUT, THIRD, &score_path, &fine, &[]).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND, "not his to see");
    let response = send(&app, Method::PUT, LEAD, &score_path, &fine, &[]).await;
    assert_eq!(
        response.status(),
        StatusCode::CONFLICT,
        "the lead reads, not writes"
    );
    let mut changed_marker = row.clone();
    changed_marker["MarkedBy"] = json!(THIRD);
    let response = send(&app, Method::PUT, SECOND, &score_path, &changed_marker, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM marking_scores WHERE marking_id = {id} AND score IS NOT NULL"
        ))
        .await
            == 0,
        "nothing refused was written"
    );

    // Higher within the tolerance: the higher total is final; a submitted
    // marking does not change.
    let lower: Vec<i64> = maxima.iter().map(|max| (max - 1).max(0)).collect();
    mark_and_submit(&app, SECOND, &marking, &lower).await;
    assert_eq!(task_status(&app, task).await, 3);
    assert_eq!(
        scoring_result_of(&app, task).await["Score"],
        maxima.iter().sum::<i64>()
    );
    let current = json_as(&app, SECOND, &path).await;
    let response = send(&app, Method::PUT, SECOND, &path, &current, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let response = send(&app, Method::PUT, SECOND, &score_path, &fine, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
}

async fn race(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    plan(&app, task, 100, 0, "mean").await;
    let rubric = scoring_result_of(&app, task).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    assert_eq!(
        first_marking(&app, task, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let body = json!({"QuestionID": task.question.to_string(), "ResultID": task.result});
    let takers = [SECOND, THIRD, LEAD, SECOND, THIRD, LEAD];
    let statuses: Vec<StatusCode> = futures::future::join_all(
        takers
            .iter()
            .map(|user| send(&app, Method::POST, user, "Markings", &body, &[])),
    )
    .await
    .into_iter()
    .map(|response| response.status())
    .collect();
    assert_one_created_the_rest_conflict(&statuses);
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM markings WHERE round = 2")
            .await,
        1
    );
}

async fn not_chosen(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    plan(&app, task, 0, 0, "mean").await;
    let rubric = scoring_result_of(&app, task).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    assert_eq!(
        first_marking(&app, task, &maxima).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(task_status(&app, task).await, 3);
    assert_eq!(
        scoring_result_of(&app, task).await["Score"],
        maxima.iter().sum::<i64>()
    );
    assert_eq!(app.sql_i64("SELECT COUNT(*) FROM markings").await, 0);
    assert_eq!(
        json_as(&app, SECOND, "SecondMarkingQueue").await["value"],
        json!([])
    );
}

async fn figures(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let question = tasks[0].question;
    let same: Vec<Task> = tasks
        .into_iter()
        .filter(|t| t.question == question)
        .collect();
    assert!(same.len() >= 2, "two tasks of one question");
    plan(&app, same[0], 100, 5, "mean").await;
    let rubric = scoring_result_of(&app, same[0]).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    let full: i64 = maxima.iter().sum();
    let lower: Vec<i64> = maxima
        .iter()
        .enumerate()
        .map(|(i, max)| if i < 2 { max - 1 } else { *max })
        .collect();
    // One script marked alike, one two marks apart.
    for (task, second) in [(same[0], &maxima), (same[1], &lower)] {
        assert_eq!(
            first_marking(&app, task, &maxima).await,
            StatusCode::NO_CONTENT
        );
        let marking = take(&app, SECOND, task).await;
        mark_and_submit(&app, SECOND, &marking, second).await;
        assert_eq!(task_status(&app, task).await, 3);
    }
    let path = format!("MarkingAgreement?QuestionID={question}L");
    let rows = json_as(&app, LEAD, &path).await["value"].clone();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "the question and its two markers: {rows:?}");
    let question_row = &rows[0];
    assert_eq!(question_row["By"], "question");
    assert_eq!(question_row["Scripts"], 4);
    assert_eq!(question_row["Pairs"], 2);
    assert_eq!(question_row["ExactAgreement"], 0.5);
    assert_eq!(question_row["WithinOneAgreement"], 0.5);
    let mean = (3 * full + full - 2) as f64 / 4.0;
    assert!((question_row["MeanScore"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!(question_row["QuadraticKappa"].is_number());
    let markers: Vec<&str> = rows[1..]
        .iter()
        .map(|row| row["Marker"].as_str().unwrap())
        .collect();
    assert_eq!(markers, [SECOND, SCORER]);
    let second_row = &rows[1];
    assert_eq!(
        (second_row["Scripts"].clone(), second_row["Pairs"].clone()),
        (json!(2), json!(2))
    );
    assert!((second_row["MeanScore"].as_f64().unwrap() - (2 * full - 2) as f64 / 2.0).abs() < 1e-9);
    assert!((rows[2]["MeanScore"].as_f64().unwrap() - full as f64).abs() < 1e-9);
    assert_eq!(rows[2]["ScoreSpread"], 0.0);

    let (status, _) = get_as(&app, SCORER, &path).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "scorers see no figures");
    let (status, _) = get_as(&app, LEAD, "MarkingAgreement?QuestionID=1L").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for bad in ["MarkingAgreement", "MarkingAgreement?QuestionID='x'"] {
        let (status, text) = get_as(&app, LEAD, bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(text.contains("QuestionID"), "{bad}: {text}");
    }
}

async fn give_back(backend: Backend) {
    let app = with_markers(backend).await;
    let task = open_task_with_rubric(&app).await;
    plan(&app, task, 100, 0, "mean").await;
    let rubric = scoring_result_of(&app, task).await["RubricID"].clone();
    let maxima = dimension_maxima(&app, &rubric).await;
    assert_eq!(
        first_marking(&app, task, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let first_id = json_as(&app, SCORER, "Markings").await["value"][0]["ID"].clone();
    let offered = |user: &'static str| {
        let app = &app;
        async move {
            json_as(app, user, "SecondMarkingQueue").await["value"]
                .as_array()
                .unwrap()
                .len()
        }
    };
    let delete = |user: &'static str, id: Value| {
        let app = &app;
        async move {
            send(
                app,
                Method::DELETE,
                user,
                &format!("Markings({id})"),
                &Value::Null,
                &[],
            )
            .await
            .status()
        }
    };

    // Its marker gives it back: offered again, nothing of it left.
    let taken = take(&app, SECOND, task).await;
    assert_eq!(offered(THIRD).await, 0);
    assert_eq!(
        delete(SECOND, taken["ID"].clone()).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(offered(THIRD).await, 1);
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM marking_scores WHERE marking_id = {}",
            taken["ID"]
        ))
        .await,
        0
    );
    // Another scorer cannot see it to give it back; a lead frees it.
    let taken = take(&app, THIRD, task).await;
    assert_eq!(
        delete(SECOND, taken["ID"].clone()).await,
        StatusCode::NOT_FOUND
    );
    assert_eq!(offered(SECOND).await, 0);
    assert_eq!(
        delete(LEAD, taken["ID"].clone()).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(offered(SECOND).await, 1);
    // A submitted marking stays.
    assert_eq!(delete(SCORER, first_id.clone()).await, StatusCode::CONFLICT);
    assert_eq!(delete(LEAD, first_id).await, StatusCode::CONFLICT);
    // And the round is marked to its end as before.
    let marking = take(&app, SECOND, task).await;
    mark_and_submit(&app, SECOND, &marking, &maxima).await;
    assert_eq!(task_status(&app, task).await, 3);
}
