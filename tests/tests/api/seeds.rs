//! Seeded scripts (docs/marking-quality.md, "Seeds"): a lead makes a scored
//! script a seed; the plan serves each marker his own copy after his scripts;
//! the copy is a task like any other to him (every property and expansion alike
//! in kind, the script's own answer) and nothing at all to anyone else (no read,
//! count, write or flag reaches it); his marking of it is kept against the
//! definitive marks. Both databases.

use std::collections::BTreeMap;

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::{open_tasks_with_rubric, Task, SCORER};
use crate::second_marking::{
    dimension_maxima, get_as, json_as, marking_as, send, status_as, with_markers, ADMIN, LEAD,
    SECOND,
};

on_both_backends! {
    a_seed_is_served_to_each_marker_alike_a_real_task_and_hidden_from_everyone_else => served;
    a_seed_is_made_by_a_lead_of_a_wholly_scored_script_once => made;
}

pub(crate) const COORDINATOR: &str = "northwind-coordinator";

/// Open tasks of one question with a rubric: the question with the most.
pub(crate) async fn tasks_of_one_question(app: &TestApp) -> Vec<Task> {
    let mut by_question: BTreeMap<i64, Vec<Task>> = BTreeMap::new();
    for task in open_tasks_with_rubric(app).await {
        by_question.entry(task.question).or_default().push(task);
    }
    let tasks = by_question
        .into_values()
        .max_by_key(Vec::len)
        .expect("the demo has essays to score");
    assert!(tasks.len() >= 5, "{} tasks", tasks.len());
    tasks
}

/// Scores for every dimension of `task`'s rubric: each dimension's maximum less
/// `below` (not under 0).
pub(crate) async fn scores(app: &TestApp, task: Task, below: i64) -> Vec<i64> {
    let rubric = app
        .sql_i64(&format!(
            "SELECT CAST(MAX(id) AS BIGINT) FROM rubrics WHERE question_id = {}",
            task.question
        ))
        .await;
    dimension_maxima(app, &json!(rubric))
        .await
        .into_iter()
        .map(|max| (max - below).max(0))
        .collect()
}

pub(crate) async fn make_seed(
    app: &TestApp,
    user: &str,
    task: Task,
    reasons: &str,
) -> reqwest::Response {
    let body = json!({
        "QuestionID": task.question.to_string(),
        "ResultID": task.result,
        "Reasons": reasons,
    });
    send(app, Method::POST, user, "Seeds", &body, &[]).await
}

pub(crate) async fn seed_plan(app: &TestApp, question: i64, rate: i64, tolerance: i64) {
    let body = json!({
        "QuestionID": question.to_string(),
        "Share": 0,
        "SeedRate": rate,
        "SeedTolerance": tolerance,
    });
    let response = send(app, Method::POST, ADMIN, "MarkingPlans", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
}

/// The open tasks of `question` that `user` reads, newest result first.
pub(crate) async fn open_of(app: &TestApp, user: &str, question: i64) -> Vec<i64> {
    let path = format!(
        "ScoringTasks?$filter=QuestionID eq {question}L and Status eq 0&$orderby=ResultID desc&$top=1000"
    );
    json_as(app, user, &path).await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|task| task["ResultID"].as_i64().unwrap())
        .collect()
}

pub(crate) async fn count_as(app: &TestApp, user: &str, path: &str) -> i64 {
    let (status, text) = get_as(app, user, path).await;
    assert_eq!(status, StatusCode::OK, "GET {path} as {user}: {text}");
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("{path}: {text}"))
}

/// The shape of a JSON value: its keys and the kinds of their values, all the
/// way down, with `__metadata` URIs and every other value left out.
fn shape(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), shape(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().take(1).map(shape).collect()),
        Value::Null => json!("null"),
        Value::Bool(_) => json!("boolean"),
        Value::Number(_) => json!("number"),
        Value::String(_) => json!("string"),
    }
}

/// The bytes of the answer a task read with `$expand=Answer` holds.
async fn answer_bytes(app: &TestApp, user: &str, task: &Value) -> Vec<u8> {
    let link = task["Answer"]["odata.mediaReadLink"].as_str().unwrap();
    let response = send(app, Method::GET, user, link, &Value::Null, &[]).await;
    assert_eq!(response.status(), StatusCode::OK, "{link}");
    response.bytes().await.unwrap().to_vec()
}

/// What `user` reads of a task, with every navigation a scorer follows.
async fn task_as_read(app: &TestApp, user: &str, task: Task) -> Value {
    let path = format!(
        "{}?$expand=Result,Answer,Question,Group,ScoringResult/DimensionScores",
        task.path(app)
    );
    json_as(app, user, &path).await
}

async fn served(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = tasks_of_one_question(&app).await;
    let question = tasks[0].question;
    let source = tasks[0];
    // The lead marks the script definitively and makes it a seed.
    let definitive = scores(&app, source, 0).await;
    assert_eq!(
        marking_as(&app, LEAD, source, &definitive).await,
        StatusCode::NO_CONTENT
    );
    let response = make_seed(&app, LEAD, source, "Full marks: every point argued.").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let seed: Value = response.json().await.unwrap();
    assert_eq!(seed["Score"], json!(definitive.iter().sum::<i64>()));
    assert_eq!(seed["CreatedBy"], json!(LEAD));
    // A tolerance no marking here leaves: pauses are tests/api/pauses.rs's.
    seed_plan(&app, question, 100, 100).await;

    // The scorer scores a real script; the seed is served to him next.
    let before = open_of(&app, SCORER, question).await;
    assert_eq!(
        marking_as(&app, SCORER, tasks[1], &scores(&app, tasks[1], 1).await).await,
        StatusCode::NO_CONTENT
    );
    let after = open_of(&app, SCORER, question).await;
    let copy = after[0];
    assert!(
        !before.contains(&copy),
        "a new task, newest of all: {after:?}"
    );
    assert_eq!(after.len(), before.len(), "one scored, one served");
    let copy_task = Task {
        question,
        result: copy,
    };
    let copies = app
        .sql_column::<i64>("SELECT CAST(result_id AS BIGINT) FROM seed_copies")
        .await;
    assert_eq!(copies, vec![copy]);

    // To him it is a task like any other: every property and expansion alike.
    let real = Task {
        question,
        result: *after.iter().find(|r| **r != copy).unwrap(),
    };
    let served = task_as_read(&app, SCORER, copy_task).await;
    let other = task_as_read(&app, SCORER, real).await;
    assert_eq!(shape(&served), shape(&other));
    assert_eq!(served["Status"], json!(0));
    // The script itself: the source's answer and participant, unscored.
    let source_read = task_as_read(&app, LEAD, source).await;
    assert_eq!(
        answer_bytes(&app, SCORER, &served).await,
        answer_bytes(&app, LEAD, &source_read).await
    );
    assert_eq!(
        served["Result"]["ParticipantName"],
        source_read["Result"]["ParticipantName"]
    );
    assert_eq!(served["Answer"]["ActualScore"], Value::Null);
    assert_eq!(served["Answer"]["Revision"], other["Answer"]["Revision"]);
    // Its ScoringResult, made as he first reads it, as any other's.
    let scoring_result = |task: Task| {
        let app = &app;
        async move {
            json_as(app, SCORER, &format!("{}/ScoringResult", task.path(app))).await["value"][0]
                .clone()
        }
    };
    let (copy_result, real_result) = (scoring_result(copy_task).await, scoring_result(real).await);
    assert_eq!(shape(&copy_result), shape(&real_result));
    assert_eq!(copy_result["Score"], Value::Null);

    // To everyone else it is nothing: no read, count, write or flag reaches it.
    let area = app.northwind();
    let real_results = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE customer_id = {area} AND seed_for IS NULL"
        ))
        .await;
    let all_results = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE customer_id = {area}"
        ))
        .await;
    assert_eq!(all_results, real_results + 1);
    for user in [COORDINATOR, SECOND, LEAD, ADMIN] {
        assert_eq!(
            count_as(&app, user, "Results/$count").await,
            real_results,
            "{user}"
        );
    }
    for user in [SECOND, LEAD] {
        assert!(
            !open_of(&app, user, question).await.contains(&copy),
            "{user}"
        );
        let open_count = count_as(&app, user, "ScoringTasks/$count?$filter=Status eq 0").await;
        let real_open = app
            .sql_i64(&format!(
                "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {area} AND status = 0 \
                 AND seed_for IS NULL"
            ))
            .await;
        assert_eq!(open_count, real_open, "{user}");
        // His own count has his copy, as his list does; through the kept counts
        // (Status, Group) and through the rows (a question).
        if user == LEAD {
            let his = count_as(&app, SCORER, "ScoringTasks/$count?$filter=Status eq 0").await;
            assert_eq!(his, real_open + 1, "the copy waiting for him is counted");
            let group = app
                .sql_strings(&format!(
                    "SELECT g.name FROM groups g JOIN scoring_tasks t ON t.group_id = g.id \
                     WHERE t.result_id = {copy}"
                ))
                .await;
            let group = group.first().expect("the demo's tasks are in groups");
            let in_group =
                format!("ScoringTasks/$count?$filter=Status eq 0 and Group/Name eq '{group}'");
            assert_eq!(
                count_as(&app, SCORER, &in_group).await,
                count_as(&app, SECOND, &in_group).await + 1,
                "{group}"
            );
            let of_question =
                format!("ScoringTasks/$count?$filter=Status eq 0 and QuestionID eq {question}L");
            assert_eq!(
                count_as(&app, SCORER, &of_question).await,
                count_as(&app, SECOND, &of_question).await + 1
            );
        }
        for path in [
            copy_task.path(&app),
            format!("{}/ScoringResult", copy_task.path(&app)),
            format!("{}Results({copy})", app.root()),
            format!("{}Results({copy})/ScoringTasks", app.root()),
            format!("{}Answers?$filter=ResultID eq {copy}", app.root()),
            format!("{}ScoringResults?$filter=ResultID eq {copy}", app.root()),
            format!("{}ScoringEvents?$filter=ResultID eq {copy}", app.root()),
        ] {
            let (status, text) = get_as(&app, user, &path).await;
            let empty = status == StatusCode::OK
                && serde_json::from_str::<Value>(&text).unwrap()["value"]
                    .as_array()
                    .is_some_and(Vec::is_empty);
            assert!(
                status == StatusCode::NOT_FOUND || empty,
                "{user} {path}: {status} {text}"
            );
        }
        assert_eq!(
            status_as(&app, user, copy_task, 2).await,
            StatusCode::NOT_FOUND
        );
        let flag = json!({
            "QuestionID": question.to_string(),
            "ResultID": copy,
            "Reason": "unreadable",
        });
        let response = send(&app, Method::POST, user, "Flags", &flag, &[]).await;
        assert_eq!(
            response.status(),
            StatusCode::BAD_REQUEST,
            "{user} flags it"
        );
    }
    // Nor do an administrator's writes of Results: its status, and a purge.
    let response = send(
        &app,
        Method::PATCH,
        ADMIN,
        &format!("Results({copy})"),
        &json!({"ExtraTime": 60}),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = send(
        &app,
        Method::POST,
        ADMIN,
        &format!("Results({copy})/Purge"),
        &json!({}),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    for path in ["Answers/$count", "TopicScores/$count"] {
        let table = if path.starts_with("Answers") {
            "answers"
        } else {
            "topic_scores"
        };
        let real = app
            .sql_i64(&format!(
                "SELECT COUNT(*) FROM {table} WHERE customer_id = {area} AND result_id IN \
                 (SELECT id FROM results WHERE seed_for IS NULL)"
            ))
            .await;
        assert_eq!(count_as(&app, COORDINATOR, path).await, real, "{path}");
    }
    // The lead follows it, the markers do not.
    let (status, _) = get_as(&app, SCORER, "SeedMarkings").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let markings = json_as(&app, LEAD, "SeedMarkings").await;
    let row = &markings["value"][0];
    assert_eq!(row["ResultID"], json!(copy));
    assert_eq!(row["Marker"], json!(SCORER));
    assert_eq!(row["Score"], Value::Null);

    // He marks it two marks under the definitive total: kept, and the copy
    // is never chosen for anything else.
    let marked = scores(&app, copy_task, 1).await;
    assert_eq!(
        marking_as(&app, SCORER, copy_task, &marked).await,
        StatusCode::NO_CONTENT
    );
    let row = json_as(&app, LEAD, &format!("SeedMarkings({copy})")).await;
    let total: i64 = marked.iter().sum();
    assert_eq!(row["Score"], json!(total));
    assert_eq!(
        row["Deviation"],
        json!(total - definitive.iter().sum::<i64>())
    );
    assert!(row["MarkedDateTime"].is_string());
    assert_eq!(
        count_as(&app, COORDINATOR, "Results/$count").await,
        real_results
    );
    // His figures: the seed against its definitive marks, never among his
    // scripts (one real one); the lead, who marked the source, scored none.
    let deviation = total - definitive.iter().sum::<i64>();
    let figures = json_as(
        &app,
        LEAD,
        &format!("MarkerStatistics?QuestionID={question}L"),
    )
    .await;
    let rows = figures["value"].as_array().unwrap();
    let his = rows.iter().find(|r| r["Marker"] == json!(SCORER)).unwrap();
    assert_eq!(his["Scripts"], json!(1), "{his}");
    assert_eq!(his["SeedsMarked"], json!(1), "{his}");
    assert_eq!(his["SeedMeanDeviation"], json!(deviation as f64));
    assert_eq!(
        his["SeedMeanAbsoluteDeviation"],
        json!(deviation.abs() as f64)
    );
    assert_eq!(his["SeedExactAgreement"], json!(0.0));
    assert_eq!(his["SeedDriftPerTen"], Value::Null, "one seed has no drift");
    let lead = rows.iter().find(|r| r["Marker"] == json!(LEAD)).unwrap();
    assert_eq!(
        (&lead["SeedsMarked"], &lead["SeedMeanDeviation"]),
        (&json!(0), &Value::Null)
    );
    assert_eq!(rows[0]["By"], json!("question"));
    assert_eq!(rows[0]["SeedsMarked"], json!(1), "{}", rows[0]);
    assert_eq!(
        rows[0]["Scripts"],
        json!(2),
        "the source and his real script"
    );

    // He has seen the only seed: his next script brings none.
    assert_eq!(
        marking_as(&app, SCORER, tasks[2], &scores(&app, tasks[2], 0).await).await,
        StatusCode::NO_CONTENT
    );
    let served_count = app.sql_i64("SELECT COUNT(*) FROM seed_copies").await;
    assert_eq!(served_count, 1);
    // Another marker gets his own copy, which the first never sees.
    assert_eq!(
        marking_as(&app, SECOND, tasks[3], &scores(&app, tasks[3], 0).await).await,
        StatusCode::NO_CONTENT
    );
    let second_copy = open_of(&app, SECOND, question).await[0];
    assert_ne!(second_copy, copy);
    assert!(!open_of(&app, SCORER, question).await.contains(&second_copy));
    let markers = app
        .sql_strings("SELECT marker FROM seed_copies ORDER BY result_id")
        .await;
    assert_eq!(markers, vec![SCORER.to_owned(), SECOND.to_owned()]);

    // The source's purge takes the seed with it: its scores, both copies and
    // every row of theirs.
    let source_id = source.result;
    crate::purges::purged(&app, &format!("Results({source_id})/Purge"), "{}").await;
    for table in ["seeds", "seed_scores", "seed_copies"] {
        assert_eq!(
            app.sql_i64(&format!("SELECT COUNT(*) FROM {table}")).await,
            0,
            "{table}"
        );
    }
    for (table, column) in [
        ("results", "id"),
        ("scoring_tasks", "result_id"),
        ("answers", "result_id"),
        ("scoring_results", "result_id"),
        ("dimension_scores", "result_id"),
    ] {
        let left = app
            .sql_i64(&format!(
                "SELECT COUNT(*) FROM {table} WHERE {column} IN ({source_id}, {copy}, {second_copy})"
            ))
            .await;
        assert_eq!(left, 0, "{table}");
    }
    assert_eq!(
        count_as(&app, COORDINATOR, "Results/$count").await,
        real_results - 1
    );
}

async fn made(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = tasks_of_one_question(&app).await;
    let open = tasks[0];
    // Not scored: refused, naming why.
    let response = make_seed(&app, LEAD, open, "why").await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let message = odata_error_message(response).await;
    assert!(message.contains("at 0"), "{message}");
    // Scored, but by a scorer asking: refused to him.
    let task = tasks[1];
    let marks = scores(&app, task, 0).await;
    assert_eq!(
        marking_as(&app, LEAD, task, &marks).await,
        StatusCode::NO_CONTENT
    );
    let response = make_seed(&app, SCORER, task, "why").await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    // No reasons; blank reasons; a task that is not there.
    let response = send(
        &app,
        Method::POST,
        LEAD,
        "Seeds",
        &json!({"QuestionID": task.question.to_string(), "ResultID": task.result}),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("Seed.Reasons is required"));
    let response = make_seed(&app, LEAD, task, "   ").await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let missing = Task {
        question: task.question,
        result: 999_999,
    };
    let response = make_seed(&app, LEAD, missing, "why").await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("not a ScoringTask"));
    // Once, and then not again; the definitive marks are the dimension scores.
    let response = make_seed(&app, LEAD, task, "Well argued.").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let seed: Value = response.json().await.unwrap();
    let stored = app
        .sql_column::<i64>(&format!(
            "SELECT CAST(score AS BIGINT) FROM seed_scores WHERE seed_id = {} \
             ORDER BY dimension_order",
            seed["ID"]
        ))
        .await;
    assert_eq!(stored, marks);
    let response = make_seed(&app, LEAD, task, "Again.").await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    // A plan's seeding is checked too.
    let body = json!({"QuestionID": task.question.to_string(), "Share": 0, "SeedRate": 101});
    let response = send(&app, Method::POST, ADMIN, "MarkingPlans", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("SeedRate is 101"));
    let (status, text) = get_as(&app, COORDINATOR, "Seeds").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
}
