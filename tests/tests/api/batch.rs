//! `$batch`: change sets that are applied whole or not at all, each operation under
//! the same access decision as a request of its own, and two scorers submitting the
//! same result at the same moment without ever mixing their scores.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::scoring_support::{
    get, open_task_with_rubric, open_tasks_with_rubric, scoring_result_of, scoring_result_path,
    task_status, Task, SCORER,
};

on_both_backends! {
    a_change_set_applies_all_its_writes_or_none_of_them => all_or_nothing;
    each_operation_of_a_batch_meets_the_one_access_decision => access_per_operation;
    malformed_batches_are_refused_with_what_is_wrong => malformed;
    two_scorers_submitting_one_result_at_the_same_moment_never_mix_their_scores => simultaneous_submits;
    a_batch_stops_running_reads_once_its_answers_pass_their_budget => answer_budget;
    a_comment_added_in_a_failed_change_set_is_not_kept => created_then_rolled_back;
}

/// A change set may create as well as replace: a POST to the comment bank (our
/// extension) followed by a stale PUT leaves no comment behind.
async fn created_then_rolled_back(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let before = app.sql_i64("SELECT COUNT(*) FROM banked_comments").await;
    let comment = Op {
        method: "POST",
        url: "BankedComments".into(),
        headers: Vec::new(),
        body: json!({"QuestionID": task.question.to_string(), "Text": "In a change set."}),
    };
    let result_url = relative(&app, &scoring_result_path(&app, &read));
    let fresh = put(
        result_url.clone(),
        json!({"Score": 1, "Comments": "fresh", "ModifiedDateTime": read["ModifiedDateTime"]}),
    );
    let (status, inner, text) = send(&app, SCORER, batch_body(&[vec![comment, fresh]], &[])).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![201, 204], "{text}");
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM banked_comments").await,
        before + 1
    );
    let comment = Op {
        method: "POST",
        url: "BankedComments".into(),
        headers: Vec::new(),
        body: json!({"QuestionID": task.question.to_string(), "Text": "Never kept."}),
    };
    let stale = put(
        result_url,
        json!({"Score": 2, "Comments": "stale", "ModifiedDateTime": read["ModifiedDateTime"]}),
    );
    let (status, inner, text) = send(&app, SCORER, batch_body(&[vec![comment, stale]], &[])).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![412], "{text}");
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM banked_comments").await,
        before + 1,
        "the POST of the failed change set was taken back"
    );
}

async fn answer_budget(backend: Backend) {
    let app = TestApp::spawn_with_demo_configured(backend, |settings| {
        settings.max_batch_answer_bytes = 1_000;
    })
    .await;
    // The first page of Results alone passes the budget: the reads after it wait.
    let pages: Vec<String> = (0..4).map(|_| "Results?$top=100".to_owned()).collect();
    let (status, inner, text) = send(&app, "northwind-admin", batch_body(&[], &pages)).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        inner,
        vec![200, 400, 400, 400],
        "{}",
        &text[..text.len().min(300)]
    );
    assert!(text.contains("send this GET in a batch of its own"));
}

/// One operation of a change set: method, URL relative to the service root, extra
/// headers, JSON body.
pub(crate) struct Op {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

fn put(url: String, body: Value) -> Op {
    Op {
        method: "PUT",
        url,
        headers: Vec::new(),
        body,
    }
}

/// A batch body with the given change sets and GETs (written by hand, as a client would).
pub(crate) fn batch_body(change_sets: &[Vec<Op>], gets: &[String]) -> String {
    let mut body = String::new();
    for (index, operations) in change_sets.iter().enumerate() {
        body.push_str(&format!(
            "--batch_t\r\nContent-Type: multipart/mixed; boundary=changeset_{index}\r\n\r\n"
        ));
        for operation in operations {
            body.push_str(&format!(
                "--changeset_{index}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n{} {} HTTP/1.1\r\nContent-Type: application/json\r\n",
                operation.method, operation.url
            ));
            for (name, value) in &operation.headers {
                body.push_str(&format!("{name}: {value}\r\n"));
            }
            body.push_str(&format!("\r\n{}\r\n", operation.body));
        }
        body.push_str(&format!("--changeset_{index}--\r\n"));
    }
    for url in gets {
        body.push_str(&format!(
            "--batch_t\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nGET {url} HTTP/1.1\r\nAccept: application/json\r\n\r\n\r\n"
        ));
    }
    body.push_str("--batch_t--\r\n");
    body
}

/// Sends a batch as `username`; returns the status of the batch and the statuses of
/// its inner answers, in order, with the response text.
pub(crate) async fn send(
    app: &TestApp,
    username: &str,
    body: String,
) -> (StatusCode, Vec<u16>, String) {
    let response = app
        .client
        .post(app.url(&format!("{}$batch", app.root())))
        .basic_auth(username, Some(DEMO_PASSWORD))
        .header("Content-Type", "multipart/mixed; boundary=batch_t")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    let inner = text
        .lines()
        .filter_map(|line| line.strip_prefix("HTTP/1.1 "))
        .map(|rest| rest[..3].parse().unwrap())
        .collect();
    (status, inner, text)
}

/// The stored dimension scores of a ScoringResult, by order.
async fn stored_dimensions(app: &TestApp, task: Task) -> Vec<Option<i64>> {
    let values: Vec<Option<i64>> = app
        .sql_column(&format!(
            "SELECT CAST(score AS BIGINT) FROM dimension_scores WHERE question_id = {} AND result_id = {} ORDER BY dimension_order",
            task.question, task.result
        ))
        .await;
    values
}

async fn stored_score(app: &TestApp, task: Task) -> Option<i64> {
    let values: Vec<Option<i64>> = app
        .sql_column(&format!(
            "SELECT CAST(score AS BIGINT) FROM scoring_results WHERE question_id = {} AND result_id = {}",
            task.question, task.result
        ))
        .await;
    values[0]
}

fn dimension_url(task: Task, rubric: &Value, order: i64) -> String {
    format!(
        "DimensionScores(QuestionID={}L,RubricID={rubric},ResultID={},Order={order})",
        task.question, task.result
    )
}

fn relative(app: &TestApp, path: &str) -> String {
    path.strip_prefix(&app.root()).unwrap().to_owned()
}

/// The dimensions of a ScoringResult with their maxima, by order.
async fn dimension_maxima(app: &TestApp, scoring_result: &Value) -> Vec<(i64, i64)> {
    let dimensions = get(
        app,
        &format!(
            "{}/DimensionScores?$expand=Dimension",
            scoring_result_path(app, scoring_result)
        ),
    )
    .await;
    dimensions["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["Order"].as_i64().unwrap(),
                d["Dimension"]["MaxScore"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn all_or_nothing(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let dimensions = dimension_maxima(&app, &read).await;
    let result_url = relative(&app, &scoring_result_path(&app, &read));
    let total: i64 = dimensions.iter().map(|(_, max)| max).sum();
    // Dimensions, then the ScoringResult with the value read, then the task to 3.
    let mut operations: Vec<Op> = dimensions
        .iter()
        .map(|(order, max)| {
            put(
                dimension_url(task, &read["RubricID"], *order),
                json!({"Score": max}),
            )
        })
        .collect();
    operations.push(put(
        result_url.clone(),
        json!({"Score": total, "Comments": "all of it", "ModifiedDateTime": read["ModifiedDateTime"]}),
    ));
    operations.push(put(relative(&app, &task.path(&app)), json!({"Status": 3})));
    let (status, inner, text) = send(&app, SCORER, batch_body(&[operations], &[])).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{text}");
    assert_eq!(inner, vec![204; dimensions.len() + 2], "{text}");
    assert_eq!(stored_score(&app, task).await, Some(total));
    assert_eq!(task_status(&app, task).await, 3);
    let answer = get(&app, &format!("{}/Answer", task.path(&app))).await;
    assert_eq!(
        answer["ActualScore"], total,
        "the participant's result was updated"
    );

    // Again from the same (now stale) revision, dimensions first: the ScoringResult's
    // 412 comes after the dimensions were written, and takes them back.
    let before = stored_dimensions(&app, task).await;
    let mut operations: Vec<Op> = dimensions
        .iter()
        .map(|(order, _)| {
            put(
                dimension_url(task, &read["RubricID"], *order),
                json!({"Score": 0}),
            )
        })
        .collect();
    operations.push(put(
        result_url,
        json!({"Score": 0, "Comments": "stale", "ModifiedDateTime": read["ModifiedDateTime"]}),
    ));
    let (status, inner, text) = send(&app, SCORER, batch_body(&[operations], &[])).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        inner,
        vec![412],
        "one answer for the failed change set: {text}"
    );
    assert!(text.contains("odata.error"), "{text}");
    assert_eq!(
        stored_dimensions(&app, task).await,
        before,
        "nothing of it stayed"
    );
    assert_eq!(stored_score(&app, task).await, Some(total));
}

async fn access_per_operation(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let result_url = relative(&app, &scoring_result_path(&app, &read));
    let write = || {
        vec![put(
            result_url.clone(),
            json!({"Score": 1, "ModifiedDateTime": read["ModifiedDateTime"]}),
        )]
    };
    let (status, inner, _) = send(
        &app,
        "northwind-coordinator",
        batch_body(
            &[write()],
            &["ScoringTasks".into(), "Results?$top=1".into()],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        inner,
        vec![403, 403, 200],
        "coordinator: no scores, but results"
    );
    let (_, inner, _) = send(
        &app,
        SCORER,
        batch_body(
            &[vec![put(
                format!("Results({})", task.result),
                json!({"Status": 6}),
            )]],
            &[format!("Results({})?$expand=TopicScores", task.result)],
        ),
    )
    .await;
    assert_eq!(
        inner,
        vec![403, 403],
        "scorer: no result changes, no topic scores"
    );
    assert_eq!(stored_score(&app, task).await, None, "nothing was written");
}

async fn malformed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let url = app.url(&format!("{}$batch", app.root()));
    let post = |content_type: &'static str, body: &'static str| {
        app.client
            .post(&url)
            .basic_auth(SCORER, Some(DEMO_PASSWORD))
            .header("Content-Type", content_type)
            .body(body)
            .send()
    };
    let cases = [
        ("application/json", "{}", 415, "multipart/mixed"),
        ("multipart/mixed", "x", 400, "boundary"),
        (
            "multipart/mixed; boundary=b",
            "--b\r\nContent-Type: application/http\r\n\r\nPUT ScoringTasks HTTP/1.1\r\n\r\n{}\r\n--b--\r\n",
            400,
            "change set",
        ),
        (
            "multipart/mixed; boundary=b",
            "--b\r\nContent-Type: application/http\r\n\r\nGARBAGE\r\n--b--\r\n",
            400,
            "HTTP request",
        ),
    ];
    for (content_type, body, status, named) in cases {
        let response = post(content_type, body).await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(named), "{body}: {message}");
    }
    let response = app.get_as(SCORER, &format!("{}$batch", app.root())).await;
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(response.headers()["allow"], "POST");
    // An operation outside the batch's own area, and a batch inside a batch.
    let other = format!("/deliveryodata/{}/ScoringTasks", app.harbour());
    let (status, inner, text) = send(
        &app,
        SCORER,
        batch_body(&[vec![put("$batch".into(), json!({}))]], &[other]),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{text}");
    assert_eq!(inner, vec![405, 400], "{text}");
}

async fn simultaneous_submits(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let mut rounds = 0;
    for (round, task) in tasks.iter().take(12).enumerate() {
        let task = *task;
        let read = scoring_result_of(&app, task).await;
        let dimensions = dimension_maxima(&app, &read).await;
        // Scorer A gives every dimension its maximum, scorer B gives every one 0 but
        // the last (its maximum): their totals and their dimensions all differ.
        let last = dimensions.last().unwrap().0;
        let scores = |scorer: usize| -> Vec<(i64, i64)> {
            dimensions
                .iter()
                .map(|(order, max)| {
                    (
                        *order,
                        if scorer == 0 || *order == last {
                            *max
                        } else {
                            0
                        },
                    )
                })
                .collect()
        };
        let change_set = |scorer: usize| {
            let mine = scores(scorer);
            let total: i64 = mine.iter().map(|(_, score)| score).sum();
            let mut dims: Vec<Op> = mine
                .iter()
                .map(|(order, score)| {
                    put(
                        dimension_url(task, &read["RubricID"], *order),
                        json!({"Score": score, "Comment": format!("scorer {scorer}")}),
                    )
                })
                .collect();
            let mut result = put(
                relative(&app, &scoring_result_path(&app, &read)),
                json!({"Score": total, "Comments": format!("scorer {scorer}"), "ModifiedDateTime": read["ModifiedDateTime"]}),
            );
            result.headers.push(("If-Match".into(), "*".into()));
            // Half the rounds in the spec's order (dimensions first), half the desktop's.
            if round % 2 == 0 {
                dims.push(result);
                dims
            } else {
                let mut ops = vec![result];
                ops.extend(dims);
                ops
            }
        };
        let body_a = batch_body(&[change_set(0)], &[]);
        let body_b = batch_body(&[change_set(1)], &[]);
        let (a, b) = tokio::join!(send(&app, SCORER, body_a), send(&app, SCORER, body_b));
        let a_won = a.1.iter().all(|s| *s == 204);
        let b_won = b.1.iter().all(|s| *s == 204);
        assert!(a_won != b_won, "exactly one wins: {:?} {:?}", a.1, b.1);
        let loser = if a_won { &b } else { &a };
        assert_eq!(loser.1, vec![412], "{}", loser.2);
        let winner = usize::from(b_won);
        let stored = stored_dimensions(&app, task).await;
        let expected: Vec<Option<i64>> = scores(winner).iter().map(|(_, s)| Some(*s)).collect();
        assert_eq!(
            stored, expected,
            "round {round}: the winner's dimensions, all of them"
        );
        let sum: i64 = stored.iter().flatten().sum();
        assert_eq!(
            stored_score(&app, task).await,
            Some(sum),
            "the total adds up"
        );
        let comments: Vec<String> = app
            .sql_column(&format!(
                "SELECT COALESCE(comment, '') FROM dimension_scores WHERE question_id = {} AND result_id = {}",
                task.question, task.result
            ))
            .await;
        assert!(
            comments.iter().all(|c| *c == format!("scorer {winner}")),
            "the loser's comments are nowhere: {comments:?}"
        );
        rounds += 1;
    }
    assert_eq!(rounds, 12);
}
