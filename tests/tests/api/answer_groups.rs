//! Answer groups (docs/marking-quality.md, "Answer groups"): typed answers
//! uploaded through `AnswerUploads` that are the same once normalised are found
//! by `AnswersAlike`, and a marker's marking of one is applied to the rest by a
//! POST to `AnswerGroupMarkings`, each member as a PUT of its Status to 3 would
//! mark it: its result rescored, its event his, double marking's choice kept.
//! Both databases.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::purges::purged;
use crate::scoring_support::{Task, SCORER};
use crate::second_marking::{json_as, marking_as, plan, send, with_markers, ADMIN, LEAD, SECOND};
use crate::seeds::{count_as, scores};
use crate::uploads::{another_attempt, created, deliver, full_marks, snapshot_key};

on_both_backends! {
    typed_answers_alike_are_marked_once_for_the_group => marked_at_once;
    a_group_is_applied_only_from_a_whole_marking_by_its_marker => refused;
    answers_written_before_keys_are_keyed_and_purges_take_the_records => keyed_and_purged;
    a_member_scored_against_an_earlier_rubric_is_left_as_it_is => earlier_rubric;
}

/// What six participants typed for the same essay: four say the same once
/// normalised, two do not (a different number, a different word).
const TYPED: [&str; 6] = [
    "Inertia: the body keeps moving.",
    "inertia the body keeps moving",
    "  INERTIA — the body keeps moving!  ",
    "\u{201c}Inertia\u{201d}, the body keeps moving",
    "Inertia: the body stops moving.",
    "Inertia: the body keeps moving 2 ways.",
];

/// The six uploads; the typed essay's task of each, in `TYPED`'s order, and
/// the scanned essay's task of the first.
async fn uploaded(app: &TestApp) -> (Vec<Task>, Task) {
    let delivery = deliver(app, "alike-0").await;
    let key = snapshot_key(app, delivery.snapshot).await;
    let mut tasks = Vec::new();
    let mut scan = None;
    for (index, text) in TYPED.iter().enumerate() {
        let attempt = match index {
            0 => delivery.attempt,
            _ => another_attempt(app, &delivery, &format!("alike-{index}")).await,
        };
        let mut file = full_marks(attempt, Some(delivery.batch), &key);
        let typed = file["QuestionAndChoices"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|question| question.get("TextResponse").is_some())
            .expect("the delivery has a typed essay");
        typed["TextResponse"] = json!(text);
        created(app, "AnswerUploads", file).await;
        let result = app
            .sql_i64(&format!(
                "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {attempt}"
            ))
            .await;
        let task_of = |media: &str| {
            format!(
                "SELECT CAST(t.question_id AS BIGINT) FROM scoring_tasks t JOIN answers a \
                 ON a.question_id = t.question_id AND a.result_id = t.result_id \
                 WHERE t.result_id = {result} AND a.media_type LIKE '{media}%'"
            )
        };
        let question = app.sql_i64(&task_of("text/plain")).await;
        tasks.push(Task { question, result });
        if scan.is_none() {
            let question = app.sql_i64(&task_of("image/")).await;
            scan = Some(Task { question, result });
        }
    }
    (tasks, scan.unwrap())
}

async fn alike_as(app: &TestApp, user: &str, task: Task) -> Vec<i64> {
    let path = format!(
        "AnswersAlike?QuestionID={}L&ResultID={}",
        task.question, task.result
    );
    json_as(app, user, &path).await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            assert_eq!(row["QuestionID"], json!(task.question.to_string()));
            row["ResultID"].as_i64().unwrap()
        })
        .collect()
}

async fn apply_as(app: &TestApp, user: &str, task: Task) -> reqwest::Response {
    let body = json!({"QuestionID": task.question.to_string(), "ResultID": task.result});
    send(app, Method::POST, user, "AnswerGroupMarkings", &body, &[]).await
}

async fn status_of(app: &TestApp, task: Task) -> i64 {
    app.sql_i64(&format!(
        "SELECT CAST(status AS BIGINT) FROM scoring_tasks WHERE question_id = {} AND result_id = {}",
        task.question, task.result
    ))
    .await
}

/// The dimension scores and the total of a task, as stored.
async fn marks_of(app: &TestApp, task: Task) -> (Vec<i64>, i64) {
    let dimensions = app
        .sql_column::<i64>(&format!(
            "SELECT CAST(score AS BIGINT) FROM dimension_scores WHERE question_id = {} \
             AND result_id = {} ORDER BY dimension_order",
            task.question, task.result
        ))
        .await;
    let total = app
        .sql_i64(&format!(
            "SELECT CAST(score AS BIGINT) FROM scoring_results WHERE question_id = {} \
             AND result_id = {}",
            task.question, task.result
        ))
        .await;
    (dimensions, total)
}

async fn marked_at_once(backend: Backend) {
    let app = with_markers(backend).await;
    let (tasks, _) = uploaded(&app).await;
    let ids = |tasks: &[Task]| tasks.iter().map(|t| t.result).collect::<Vec<_>>();
    let alike = ids(&tasks[1..4]);
    // Every member of a group finds the others, never itself nor the answers
    // that differ; the lead finds the same.
    assert_eq!(alike_as(&app, SCORER, tasks[0]).await, alike);
    assert_eq!(alike_as(&app, LEAD, tasks[0]).await, alike);
    assert_eq!(
        alike_as(&app, SCORER, tasks[2]).await,
        ids(&[tasks[0], tasks[1], tasks[3]])
    );
    assert!(alike_as(&app, SCORER, tasks[4]).await.is_empty());
    assert!(alike_as(&app, SCORER, tasks[5]).await.is_empty());
    let given = scores(&app, tasks[0], 1).await;
    assert_eq!(
        marking_as(&app, SCORER, tasks[0], &given).await,
        StatusCode::NO_CONTENT
    );
    let response = apply_as(&app, SCORER, tasks[0]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let marking: Value = response.json().await.unwrap();
    assert_eq!(marking["Members"], json!(3));
    assert_eq!(marking["Remaining"], json!(0));
    assert_eq!(marking["Marker"], json!(SCORER));
    assert_eq!(marking["ResultID"], json!(tasks[0].result));
    let total: i64 = given.iter().sum();
    for member in &tasks[1..4] {
        assert_eq!(status_of(&app, *member).await, 3, "{member:?}");
        assert_eq!(marks_of(&app, *member).await, (given.clone(), total));
        // Its result rescored, as setting 3 does; its event the scorer's.
        let answer_score = app
            .sql_i64(&format!(
                "SELECT CAST(actual_score AS BIGINT) FROM answers WHERE question_id = {} \
                 AND result_id = {}",
                member.question, member.result
            ))
            .await;
        assert_eq!(answer_score, total);
        let events = app
            .sql_strings(&format!(
                "SELECT account FROM scoring_events WHERE question_id = {} AND result_id = {} \
                 AND status = 3",
                member.question, member.result
            ))
            .await;
        assert_eq!(events, vec![SCORER.to_owned()]);
    }
    for different in &tasks[4..] {
        assert_eq!(status_of(&app, *different).await, 0);
    }
    // The record: the scorer and the lead read it, another scorer nothing of it.
    let id = &marking["ID"];
    let members_path = format!("AnswerGroupMembers?$filter=MarkingID eq {id}&$orderby=ResultID");
    for user in [SCORER, LEAD] {
        let members: Vec<i64> = json_as(&app, user, &members_path).await["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["ResultID"].as_i64().unwrap())
            .collect();
        assert_eq!(members, alike, "{user}");
    }
    assert_eq!(
        count_as(&app, SECOND, "AnswerGroupMarkings/$count").await,
        0
    );
    assert_eq!(count_as(&app, SECOND, "AnswerGroupMembers/$count").await, 0);
    assert_eq!(count_as(&app, LEAD, "AnswerGroupMarkings/$count").await, 1);
    // Nothing is left to apply: a second application marks none.
    assert!(alike_as(&app, SCORER, tasks[0]).await.is_empty());
    let again: Value = apply_as(&app, SCORER, tasks[0]).await.json().await.unwrap();
    assert_eq!(again["Members"], json!(0));

    // A member released back to 0 is in the group again, and one taken
    // (Status 1) by another scorer is not. With double marking choosing every
    // script, the member is kept for its second marking as a submitted task
    // would be: Saved (2), his marking its first round.
    let body = |task: Task, status: i64| json!({"QuestionID": task.question.to_string(), "ResultID": task.result, "Status": status});
    for (user, task, status) in [
        (SCORER, tasks[1], 0),
        (SCORER, tasks[2], 0),
        (SECOND, tasks[2], 1),
    ] {
        let response = send(
            &app,
            Method::PUT,
            user,
            &task.path(&app),
            &body(task, status),
            &[],
        )
        .await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
    }
    assert_eq!(
        alike_as(&app, SCORER, tasks[0]).await,
        vec![tasks[1].result]
    );
    plan(&app, tasks[0], 100, 1, "mean").await;
    let third: Value = apply_as(&app, SCORER, tasks[0]).await.json().await.unwrap();
    assert_eq!(third["Members"], json!(1));
    assert_eq!(
        status_of(&app, tasks[1]).await,
        2,
        "kept for its second marking"
    );
    let first_round = app
        .sql_strings(&format!(
            "SELECT marked_by FROM markings WHERE question_id = {} AND result_id = {} AND round = 1",
            tasks[1].question, tasks[1].result
        ))
        .await;
    assert_eq!(first_round, vec![SCORER.to_owned()]);
    assert_eq!(
        status_of(&app, tasks[2]).await,
        1,
        "another's taken task is his"
    );
}

async fn refused(backend: Backend) {
    let app = with_markers(backend).await;
    let (tasks, scan) = uploaded(&app).await;
    let refusal = |response: reqwest::Response| async move {
        (response.status(), odata_error_message(response).await)
    };
    // Not marked yet.
    let (status, message) = refusal(apply_as(&app, SCORER, tasks[0]).await).await;
    assert_eq!(status, StatusCode::CONFLICT, "{message}");
    assert!(message.contains("mark it (Status 3) first"), "{message}");
    // Marked by the scorer: another scorer may not apply it; the lead may.
    let given = scores(&app, tasks[0], 0).await;
    assert_eq!(
        marking_as(&app, SCORER, tasks[0], &given).await,
        StatusCode::NO_CONTENT
    );
    let (status, message) = refusal(apply_as(&app, SECOND, tasks[0]).await).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{message}");
    assert!(message.contains("another marker marked it"), "{message}");
    // A scan has no group.
    let scan_scores = scores(&app, scan, 0).await;
    assert_eq!(
        marking_as(&app, SCORER, scan, &scan_scores).await,
        StatusCode::NO_CONTENT
    );
    assert!(alike_as(&app, SCORER, scan).await.is_empty());
    let (status, message) = refusal(apply_as(&app, SCORER, scan).await).await;
    assert_eq!(status, StatusCode::CONFLICT, "{message}");
    assert!(message.contains("not typed"), "{message}");
    // Bodies and keys that name nothing, and a reader with no right to it.
    for (body, words) in [
        (
            json!({"QuestionID": tasks[0].question.to_string()}),
            "ResultID is required",
        ),
        (
            json!({"ResultID": tasks[0].result}),
            "QuestionID is required",
        ),
        (
            json!({"QuestionID": tasks[0].question.to_string(), "ResultID": 999_999}),
            "not a ScoringTask of this customer area",
        ),
    ] {
        let response = send(
            &app,
            Method::POST,
            SCORER,
            "AnswerGroupMarkings",
            &body,
            &[],
        )
        .await;
        let (status, message) = refusal(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {message}");
        assert!(message.contains(words), "{message}");
    }
    let (status, _) = crate::second_marking::get_as(
        &app,
        SCORER,
        &format!(
            "AnswersAlike?QuestionID={}L&ResultID=999999",
            tasks[0].question
        ),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let response = send(
        &app,
        Method::GET,
        SCORER,
        "AnswersAlike?QuestionID=1L",
        &Value::Null,
        &[],
    )
    .await;
    let (status, message) = refusal(response).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{message}");
    assert!(message.contains("ResultID is required"), "{message}");
    // Malformed parameters: a 400 naming the parameter, never a 500.
    for query in [
        "QuestionID=1L&ResultID='abc'",
        "QuestionID=1L&ResultID=99999999999",
        "QuestionID='x'&ResultID=1",
        "QuestionID=1L&ResultID=1&Extra=2",
    ] {
        let response = send(
            &app,
            Method::GET,
            SCORER,
            &format!("AnswersAlike?{query}"),
            &Value::Null,
            &[],
        )
        .await;
        let (status, message) = refusal(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {message}");
        assert!(
            ["ResultID", "QuestionID", "Extra"]
                .iter()
                .any(|name| message.contains(name)),
            "{query}: {message}"
        );
    }
    let coordinator = apply_as(&app, crate::seeds::COORDINATOR, tasks[0]).await;
    assert_eq!(coordinator.status(), StatusCode::FORBIDDEN);
    // Nothing of any refusal was written.
    for task in &tasks[1..] {
        assert_eq!(status_of(&app, *task).await, 0);
    }
    assert_eq!(count_as(&app, ADMIN, "AnswerGroupMarkings/$count").await, 0);

    // A paused scorer applies nothing of the question and sees no group in it.
    app.sql_execute(&format!(
        "INSERT INTO marker_pauses (customer_id, question_id, marker, seeds_counted, \
         mean_deviation, tolerance, message, paused_at, is_open) VALUES ({}, {}, '{SCORER}', 3, \
         4.0, 1, 'Paused: your check scripts are out of line.', 1, {})",
        app.northwind(),
        tasks[0].question,
        if backend == Backend::Postgres {
            "TRUE"
        } else {
            "1"
        }
    ))
    .await;
    assert!(alike_as(&app, SCORER, tasks[0]).await.is_empty());
    let (status, message) = refusal(apply_as(&app, SCORER, tasks[0]).await).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{message}");
    assert!(message.contains("Paused"), "{message}");
    // The lead applies the scorer's marking for him.
    let lead: Value = apply_as(&app, LEAD, tasks[0]).await.json().await.unwrap();
    assert_eq!(lead["Members"], json!(3));
    assert_eq!(lead["Marker"], json!(LEAD));
}

async fn key_of(app: &TestApp, task: Task) -> Option<String> {
    app.sql_column::<Option<String>>(&format!(
        "SELECT answer_key FROM answers WHERE question_id = {} AND result_id = {}",
        task.question, task.result
    ))
    .await
    .remove(0)
}

async fn keyed_and_purged(backend: Backend) {
    let app = with_markers(backend).await;
    let (tasks, scan) = uploaded(&app).await;
    let mut keys = Vec::new();
    for task in &tasks {
        keys.push(key_of(&app, *task).await.expect("a typed answer has a key"));
    }
    assert!(keys[1..4].iter().all(|key| *key == keys[0]), "{keys:?}");
    assert!(keys[4] != keys[0] && keys[5] != keys[0] && keys[4] != keys[5]);
    assert_eq!(key_of(&app, scan).await, None, "a scan has none");

    // As a server before migration 35 left them: no key on answers or tasks.
    // Migrating again (every start does) keys both as a new answer would be,
    // and no scan; the group is found again through the tasks' keys.
    app.sql_execute("UPDATE answers SET answer_key = NULL")
        .await;
    app.sql_execute("UPDATE scoring_tasks SET answer_key = NULL")
        .await;
    assert!(alike_as(&app, SCORER, tasks[0]).await.is_empty());
    app.store.migrate().await.unwrap();
    for (task, key) in tasks.iter().zip(&keys) {
        assert_eq!(key_of(&app, *task).await.as_ref(), Some(key));
    }
    assert_eq!(key_of(&app, scan).await, None);
    let alike: Vec<i64> = tasks[1..4].iter().map(|t| t.result).collect();
    assert_eq!(alike_as(&app, SCORER, tasks[0]).await, alike);

    // Purging a member takes its row of the record; purging the script marked
    // takes the record and every member's row; the members' own marks stay.
    let given = scores(&app, tasks[0], 1).await;
    assert_eq!(
        marking_as(&app, SCORER, tasks[0], &given).await,
        StatusCode::NO_CONTENT
    );
    let marking: Value = apply_as(&app, SCORER, tasks[0]).await.json().await.unwrap();
    assert_eq!(marking["Members"], json!(3));
    let rows = |table: &str, result: i64| {
        format!("SELECT COUNT(*) FROM {table} WHERE result_id = {result}")
    };
    purged(&app, &format!("Results({})/Purge", tasks[1].result), "{}").await;
    assert_eq!(
        app.sql_i64(&rows("answer_group_members", tasks[1].result))
            .await,
        0
    );
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM answer_group_members")
            .await,
        2
    );
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM answer_group_markings")
            .await,
        1
    );
    purged(&app, &format!("Results({})/Purge", tasks[0].result), "{}").await;
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM answer_group_markings")
            .await,
        0
    );
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM answer_group_members")
            .await,
        0
    );
    for member in &tasks[2..4] {
        assert_eq!(status_of(&app, *member).await, 3);
        assert_eq!(marks_of(&app, *member).await.0, given);
    }
}

/// A member whose ScoringResult was made with the rubric the question had
/// before (opened, then released, then the mark scheme corrected) is not given
/// marks of another rubric: it is left at 0 and still counted as remaining.
async fn earlier_rubric(backend: Backend) {
    let app = with_markers(backend).await;
    let (tasks, _) = uploaded(&app).await;
    // Opening tasks[1] makes its ScoringResult with the rubric of now.
    let (status, _) = crate::second_marking::get_as(
        &app,
        SCORER,
        &format!("{}/ScoringResult", tasks[1].path(&app)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let old = app
        .sql_i64(&format!(
            "SELECT CAST(rubric_id AS BIGINT) FROM scoring_results WHERE question_id = {} AND result_id = {}",
            tasks[1].question, tasks[1].result
        ))
        .await;
    let max = app
        .sql_i64(&format!(
            "SELECT CAST(max_score AS BIGINT) FROM questions WHERE id = {}",
            tasks[1].question
        ))
        .await;
    let rubric = json!({
        "QuestionID": tasks[1].question.to_string(),
        "Name": "Corrected at standardisation",
        "MaxScore": max,
        "Dimensions": [{"Order": 1, "Name": "All of it", "MaxScore": max}],
    });
    let response = send(&app, Method::POST, ADMIN, "Rubrics", &rubric, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let given = scores(&app, tasks[0], 1).await;
    assert_eq!(given.len(), 1, "marked with the corrected rubric");
    assert_eq!(
        marking_as(&app, SCORER, tasks[0], &given).await,
        StatusCode::NO_CONTENT
    );
    let marking: Value = apply_as(&app, SCORER, tasks[0]).await.json().await.unwrap();
    assert_eq!(marking["Members"], json!(2), "{marking}");
    assert_eq!(marking["Remaining"], json!(1), "{marking}");
    assert_eq!(status_of(&app, tasks[1]).await, 0);
    let kept = app
        .sql_i64(&format!(
            "SELECT CAST(rubric_id AS BIGINT) FROM scoring_results WHERE question_id = {} AND result_id = {}",
            tasks[1].question, tasks[1].result
        ))
        .await;
    assert_eq!(kept, old, "its ScoringResult untouched");
    for member in &tasks[2..4] {
        assert_eq!(status_of(&app, *member).await, 3);
        assert_eq!(marks_of(&app, *member).await.0, given);
    }
}
