use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

on_both_backends! {
    the_count_of_status_0_tasks_is_what_the_database_holds_for_that_area => count_matches_database;
    a_percent_encoded_count_request_means_the_same => encoded_count;
    a_bad_filter_gets_400_naming_the_problem => bad_filters;
    writing_to_a_count_is_not_allowed => count_is_read_only;
    counts_by_status_and_group_stay_equal_to_the_tasks_through_every_kind_of_change => kept_counts;
}

async fn count(app: &TestApp, area: i32, query: &str) -> i64 {
    let response = app
        .get_as(
            "northwind-admin",
            &format!("/deliveryodata/{area}/ScoringTasks/$count{query}"),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    response
        .text()
        .await
        .unwrap()
        .parse()
        .expect("a plain number")
}

async fn count_matches_database(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let stored = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {area} AND status = 0"
        ))
        .await;
    let all = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {area}"
        ))
        .await;
    assert!(stored > 50, "the demo has many open tasks: {stored}");
    assert_eq!(count(&app, area, "?$filter=Status eq 0").await, stored);
    assert_eq!(count(&app, area, "").await, all);
    assert_eq!(count(&app, area, "?$filter=Status eq 3").await, 0);
    assert_eq!(
        count(&app, area, "?$filter=not (Status eq 0)").await,
        all - stored
    );
    // The other area's tasks are not counted.
    let harbour = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {}",
            app.harbour()
        ))
        .await;
    assert!(harbour > 0 && harbour != all);
}

async fn encoded_count(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let plain = count(&app, area, "?$filter=Status eq 0").await;
    let response = app
        .get_as(
            "northwind-admin",
            &format!("/deliveryodata/{area}/ScoringTasks%2F%24count?%24filter=Status+eq+0"),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.text().await.unwrap().parse::<i64>().unwrap(),
        plain
    );
}

async fn bad_filters(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let cases = [
        ("Secret eq 1", "Status"),
        ("Status eq", "end"),
        ("(Status eq 0", "')'"),
        ("Status eq 'zero'", "Edm.Int32"),
        ("QuestionID eq 5", "5L"),
        ("Status eq 99999999999", "Edm.Int32"),
        ("Status eq 0; DROP TABLE results", "position"),
    ];
    for (filter, expected) in cases {
        let response = app
            .get_as(
                "northwind-admin",
                &format!("/deliveryodata/{area}/ScoringTasks/$count?$filter={filter}"),
            )
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{filter}");
        let message = odata_error_message(response).await;
        assert!(message.contains(expected), "{filter}: {message}");
    }
    let bad_escape = app
        .get_as(
            "northwind-admin",
            &format!("/deliveryodata/{area}/ScoringTasks/$count?$filter=Status%zz"),
        )
        .await;
    assert_eq!(bad_escape.status(), StatusCode::BAD_REQUEST);
}

async fn count_is_read_only(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!("/deliveryodata/{}/ScoringTasks/$count", app.northwind());
    let response = app
        .request_as(
            reqwest::Method::DELETE,
            &path,
            "northwind-admin",
            scoredesk_server::seed::demo::DEMO_PASSWORD,
        )
        .await;
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    odata_error_message(response).await;
}

/// `$count` with `Status eq n` and `Group/Name eq '...'` sums the counts the database
/// keeps by triggers (migration 10): they must stay equal to the tasks through claims
/// and scores by the API, and through inserts, moves between groups and deletes made
/// in SQL (as seeding, uploads and purges make them).
async fn kept_counts(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let area = app.northwind();
    let check = |label: &'static str| {
        let app = &app;
        async move {
            let groups = app
                .sql_strings(&format!(
                    "SELECT name FROM groups WHERE customer_id = {area}"
                ))
                .await;
            for status in 0..=3 {
                let stored = app
                    .sql_i64(&format!(
                        "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {area} AND status = {status}"
                    ))
                    .await;
                let counted = count(app, area, &format!("?$filter=Status eq {status}")).await;
                assert_eq!(counted, stored, "{label}: status {status}");
                for group in &groups {
                    let stored = app
                        .sql_i64(&format!(
                            "SELECT COUNT(*) FROM scoring_tasks t JOIN groups g ON g.id = t.group_id \
                             WHERE t.customer_id = {area} AND t.status = {status} AND g.name = '{group}'"
                        ))
                        .await;
                    let filter = format!("?$filter=Group/Name eq '{group}' and Status eq {status}");
                    assert_eq!(
                        count(app, area, &filter).await,
                        stored,
                        "{label}: {group}, {status}"
                    );
                }
            }
            let all = app
                .sql_i64(&format!(
                    "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {area}"
                ))
                .await;
            assert_eq!(count(app, area, "").await, all, "{label}: all");
        }
    };
    check("as seeded").await;
    let open = app
        .sql_strings(&format!(
            "SELECT CAST(question_id AS TEXT) || ',' || CAST(result_id AS TEXT) FROM scoring_tasks \
             WHERE customer_id = {area} AND status = 0 \
             AND question_id IN (SELECT question_id FROM rubrics) ORDER BY result_id LIMIT 3"
        ))
        .await;
    for key in &open {
        let (question, result) = key.split_once(',').unwrap();
        let path =
            format!("/deliveryodata/{area}/ScoringTasks(QuestionID={question}L,ResultID={result})");
        let response = app
            .put_json(
                "northwind-scorer",
                &path,
                &serde_json::json!({ "Status": 1 }),
                &[],
            )
            .await;
        assert!(
            response.status().is_success(),
            "{path}: {}",
            response.status()
        );
    }
    let (question, result) = open[2].split_once(',').unwrap();
    app.sql_execute(&format!(
        "UPDATE scoring_tasks SET status = 3 WHERE question_id = {question} AND result_id = {result}"
    ))
    .await;
    check("after claims and a score").await;
    let (question, result) = open[0].split_once(',').unwrap();
    app.sql_execute(&format!(
        "UPDATE scoring_tasks SET group_id = (SELECT MAX(id) FROM groups WHERE customer_id = {area}) \
         WHERE question_id = {question} AND result_id = {result}"
    ))
    .await;
    check("after a move to another group").await;
    app.sql_execute(&format!(
        "DELETE FROM scoring_tasks WHERE customer_id = {area} AND status = 0 AND result_id IN \
         (SELECT result_id FROM scoring_tasks WHERE customer_id = {area} AND status = 0 ORDER BY result_id DESC LIMIT 2) \
         AND NOT EXISTS (SELECT 1 FROM scoring_results s WHERE s.question_id = scoring_tasks.question_id AND s.result_id = scoring_tasks.result_id) \
         AND NOT EXISTS (SELECT 1 FROM scoring_events e WHERE e.question_id = scoring_tasks.question_id AND e.result_id = scoring_tasks.result_id)"
    ))
    .await;
    check("after deletes").await;
}
