//! Markers paused by their seeds (docs/marking-quality.md, "Pauses"): a marker
//! whose seed marking leaves the plan's tolerance is paused from the question:
//! its open tasks leave his reads and counts, taking one answers 403 with the
//! pause's message, and he reads his pause; other markers go on. A lead
//! releases him once, and only seeds marked after the release count next. Both
//! databases.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::{Task, SCORER};
use crate::second_marking::{
    get_as, json_as, marking_as, send, status_as, with_markers, ADMIN, LEAD, SECOND,
};
use crate::seeds::{
    count_as, make_seed, open_of, scores, seed_plan, tasks_of_one_question, COORDINATOR,
};

on_both_backends! {
    a_marker_out_of_line_with_a_seed_is_paused_from_its_question_until_a_lead_releases_him => paused;
    malformed_keys_filters_and_bodies_of_the_seed_sets_are_400_naming_them => malformed;
}

/// The open real tasks of the area outside `question` (what a marker paused
/// from it counts), from the database itself.
async fn open_elsewhere(app: &TestApp, question: i64) -> i64 {
    app.sql_i64(&format!(
        "SELECT COUNT(*) FROM scoring_tasks t JOIN results r ON r.id = t.result_id \
         WHERE t.customer_id = {} AND t.status = 0 AND t.question_id <> {question} \
         AND r.seed_for IS NULL",
        app.northwind()
    ))
    .await
}

/// The question's plan with `share` of its scripts double-marked, seeds still
/// served to every script and no deviation tolerated.
async fn set_share(app: &TestApp, question: i64, share: i64) {
    let body = json!({
        "QuestionID": question.to_string(),
        "Share": share,
        "SeedRate": 100,
        "SeedTolerance": 0,
    });
    let path = format!("MarkingPlans({question}L)");
    let response = send(app, Method::PUT, ADMIN, &path, &body, &[]).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
}

/// The results of `question` whose rounds `user` is offered to mark.
async fn queued(app: &TestApp, user: &str, question: i64) -> Vec<i64> {
    let path = format!("SecondMarkingQueue?$filter=QuestionID eq {question}L");
    json_as(app, user, &path).await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["ResultID"].as_i64().unwrap())
        .collect()
}

/// The seed copy just served to `user`: the newest open task of the question.
async fn served_copy(app: &TestApp, user: &str, question: i64, before: &[i64]) -> Task {
    let after = open_of(app, user, question).await;
    let copy = after[0];
    assert!(!before.contains(&copy), "a copy was served: {after:?}");
    Task {
        question,
        result: copy,
    }
}

async fn release(app: &TestApp, user: &str, pause: &Value, note: &str) -> reqwest::Response {
    let body = json!({"PauseID": pause, "Note": note});
    send(app, Method::POST, user, "MarkerReleases", &body, &[]).await
}

async fn paused(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = tasks_of_one_question(&app).await;
    let question = tasks[0].question;
    // Two seeds, marked definitively by the lead; a tolerance of 0.
    for source in [tasks[0], tasks[1]] {
        let definitive = scores(&app, source, 0).await;
        assert_eq!(
            marking_as(&app, LEAD, source, &definitive).await,
            StatusCode::NO_CONTENT
        );
        let response = make_seed(&app, LEAD, source, "Every point argued.").await;
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    seed_plan(&app, question, 100, 0).await;

    // He scores a real script, is served the first seed, and marks it a mark
    // under the definitive marks in every dimension: beyond the tolerance.
    let before = open_of(&app, SCORER, question).await;
    assert_eq!(
        marking_as(&app, SCORER, tasks[2], &scores(&app, tasks[2], 0).await).await,
        StatusCode::NO_CONTENT
    );
    let copy = served_copy(&app, SCORER, question, &before).await;
    let marked = scores(&app, copy, 1).await;
    let definitive_total: i64 = scores(&app, copy, 0).await.iter().sum();
    let deviation = (marked.iter().sum::<i64>() - definitive_total).abs();
    assert!(deviation > 0);
    assert_eq!(
        marking_as(&app, SCORER, copy, &marked).await,
        StatusCode::NO_CONTENT
    );

    // Paused: his pause, with its figures, is his to read and the lead's.
    let mine = json_as(&app, SCORER, "MarkerPauses").await;
    let pauses = mine["value"].as_array().unwrap();
    assert_eq!(pauses.len(), 1, "{mine}");
    let pause = &pauses[0];
    assert_eq!(pause["Marker"], json!(SCORER));
    assert_eq!(pause["QuestionID"], json!(question.to_string()));
    assert_eq!(pause["IsOpen"], json!(true));
    assert_eq!(pause["SeedsCounted"], json!(1));
    assert_eq!(pause["MeanDeviation"], json!(deviation as f64));
    let message = pause["Message"].as_str().unwrap().to_owned();
    assert!(
        message.contains(&format!("paused from marking question {question}")),
        "{message}"
    );
    let pause_id = pause["ID"].clone();
    assert_eq!(
        json_as(&app, SECOND, "MarkerPauses").await["value"],
        json!([])
    );
    assert_eq!(
        json_as(&app, LEAD, "MarkerPauses?$filter=IsOpen eq true").await["value"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let (status, _) = get_as(&app, COORDINATOR, "MarkerPauses").await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // The question's open tasks leave his reads and counts, not others'.
    assert_eq!(open_of(&app, SCORER, question).await, Vec::<i64>::new());
    let path = format!("ScoringTasks/$count?$filter=QuestionID eq {question}L and Status eq 0");
    assert_eq!(count_as(&app, SCORER, &path).await, 0);
    assert_eq!(
        count_as(&app, SCORER, "ScoringTasks/$count?$filter=Status eq 0").await,
        open_elsewhere(&app, question).await
    );
    let others_open = open_of(&app, SECOND, question).await;
    assert!(!others_open.is_empty());
    // The tasks he scored stay his to read.
    let scored = json_as(&app, SCORER, &tasks[2].path(&app)).await;
    assert_eq!(scored["Status"], json!(3));

    // Taking one answers 403 with the pause's message; other markers take them.
    let open = Task {
        question,
        result: others_open[0],
    };
    assert!(![tasks[3].result, tasks[4].result].contains(&open.result));
    let body = json!({"QuestionID": question.to_string(), "ResultID": open.result, "Status": 1});
    let response = send(&app, Method::PUT, SCORER, &open.path(&app), &body, &[]).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(odata_error_message(response).await, message);
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT CAST(status AS BIGINT) FROM scoring_tasks WHERE question_id = {question} \
             AND result_id = {}",
            open.result
        ))
        .await,
        0,
        "nothing written"
    );
    assert_eq!(
        status_as(&app, SECOND, open, 1).await,
        StatusCode::NO_CONTENT
    );

    // Nor is he offered a round of the question to mark: another marker's script
    // of it kept for a second marking is in a third's queue, not in his.
    set_share(&app, question, 100).await;
    assert_eq!(
        marking_as(&app, SECOND, open, &scores(&app, open, 0).await).await,
        StatusCode::NO_CONTENT
    );
    set_share(&app, question, 0).await;
    assert_eq!(queued(&app, LEAD, question).await, vec![open.result]);
    assert_eq!(queued(&app, SCORER, question).await, Vec::<i64>::new());
    let count = format!("SecondMarkingQueue/$count?$filter=QuestionID eq {question}L");
    assert_eq!(count_as(&app, SCORER, &count).await, 0);

    // Only a lead releases, once, with a note.
    assert_eq!(
        release(&app, SCORER, &pause_id, "I am fine").await.status(),
        StatusCode::FORBIDDEN
    );
    let response = release(&app, LEAD, &pause_id, "  ").await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response).await.contains("Note"));
    let response = release(&app, LEAD, &json!(987_654), "Talked it over").await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response).await.contains("987654"));
    let response = release(&app, LEAD, &pause_id, "Talked the mark scheme over").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let released: Value = response.json().await.unwrap();
    assert_eq!(released["ReleasedBy"], json!(LEAD));
    assert_eq!(
        queued(&app, SCORER, question).await,
        vec![open.result],
        "released: the round is offered to him again"
    );
    let response = release(&app, ADMIN, &pause_id, "Again").await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let pause = json_as(&app, LEAD, &format!("MarkerPauses({pause_id})")).await;
    assert_eq!(pause["IsOpen"], json!(false));

    // Released: the tasks are his again, and the seed he marked before the
    // release no longer counts: the second seed, marked right, pauses nothing
    // (with the first still weighed, the mean would be beyond 0).
    let before = open_of(&app, SCORER, question).await;
    assert!(before.contains(&tasks[3].result));
    assert_eq!(
        marking_as(&app, SCORER, tasks[3], &scores(&app, tasks[3], 0).await).await,
        StatusCode::NO_CONTENT
    );
    let second_copy = served_copy(&app, SCORER, question, &before).await;
    assert_ne!(second_copy.result, copy.result);
    assert_eq!(
        marking_as(
            &app,
            SCORER,
            second_copy,
            &scores(&app, second_copy, 0).await
        )
        .await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        json_as(&app, SCORER, "MarkerPauses?$filter=IsOpen eq true").await["value"],
        json!([])
    );
    assert_eq!(
        status_as(&app, SCORER, tasks[4], 1).await,
        StatusCode::NO_CONTENT
    );
}

/// Every malformed request to the seeds' sets is a 400 with the OData error body
/// naming what is wrong, and writes nothing.
async fn malformed(backend: Backend) {
    let app = with_markers(backend).await;
    let gets = [
        ("MarkerPauses('x')", "key"),
        ("MarkerPauses(1.5)", "key"),
        ("MarkerReleases(99999999999)", "key"),
        ("SeedMarkings(abc)", "key"),
        ("Seeds?$filter=Nope eq 1", "Nope"),
        ("MarkerPauses?$filter=IsOpen eq", "filter"),
        ("SeedMarkings?$orderby=Deviation desc,", "orderby"),
    ];
    for (path, named) in gets {
        let (status, text) = get_as(&app, LEAD, path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {text}");
        let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path}: {text}"));
        let message = body["odata.error"]["message"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(
            message.to_lowercase().contains(&named.to_lowercase()),
            "{path}: {message}"
        );
    }
    let posts = [
        (
            "MarkerReleases",
            json!({"PauseID": "one", "Note": "n"}),
            "PauseID",
        ),
        ("MarkerReleases", json!({"Note": "n"}), "PauseID"),
        ("MarkerReleases", json!({"PauseID": 1, "Note": 7}), "Note"),
        (
            "MarkerReleases",
            json!({"PauseID": 1, "Note": "x".repeat(4001)}),
            "Note",
        ),
        (
            "Seeds",
            json!({"QuestionID": "q", "ResultID": 1, "Reasons": "r"}),
            "QuestionID",
        ),
        (
            "Seeds",
            json!({"QuestionID": "1", "ResultID": 1}),
            "Reasons",
        ),
        ("Seeds", json!([1, 2]), "JSON object"),
    ];
    for (set, body, named) in posts {
        let response = send(&app, Method::POST, LEAD, set, &body, &[]).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{set} {body}");
        let message = odata_error_message(response).await;
        assert!(
            message.to_lowercase().contains(&named.to_lowercase()),
            "{set} {body}: {message}"
        );
    }
    // Not JSON at all.
    let response = app
        .client
        .post(app.url(&format!("{}MarkerReleases", app.root())))
        .basic_auth(LEAD, Some(scoredesk_server::seed::demo::DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body("{\"PauseID\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    for table in ["seeds", "marker_releases", "marker_pauses"] {
        assert_eq!(
            app.sql_i64(&format!("SELECT COUNT(*) FROM {table}")).await,
            0,
            "{table}: nothing written"
        );
    }
}
