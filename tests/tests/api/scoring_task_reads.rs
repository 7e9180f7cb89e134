//! Spec, Endpoints / Scoring: the read forms of ScoringTasks a scoring tool uses, each
//! checked against what the database holds.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

use crate::scoring_support::*;

on_both_backends! {
    scoring_tasks_filtered_by_status_eq_0_are_the_unscored_tasks => status_eq_0;
    scoring_tasks_filtered_by_group_name_are_that_groups_tasks => group_name;
    scoring_tasks_filtered_by_status_eq_0_or_status_eq_1_include_locked_tasks => status_0_or_1;
    scoring_tasks_expand_question_result_and_answer_of_each_task => expand_three;
    a_scoring_task_by_composite_key_may_expand_answer_and_question => by_key_with_expand;
    a_scoring_task_navigates_to_its_question_result_answer_group_and_assessment => navigations;
    question_rubric_any_keeps_the_tasks_whose_question_has_a_rubric_and_not_the_others => rubric_any;
    a_group_name_names_a_group_of_the_readers_area_and_negations_and_unknown_names_stay_exact => group_name_forms;
}

fn keys(tasks: &[serde_json::Value]) -> Vec<(String, i64)> {
    let mut keys: Vec<(String, i64)> = tasks
        .iter()
        .map(|t| {
            (
                t["QuestionID"].as_str().unwrap().to_owned(),
                t["ResultID"].as_i64().unwrap(),
            )
        })
        .collect();
    keys.sort();
    keys
}

async fn stored_keys(app: &TestApp, condition: &str) -> Vec<(String, i64)> {
    let rows = app
        .sql_strings(&format!(
            "SELECT CAST(t.question_id AS TEXT) || ',' || CAST(t.result_id AS TEXT) \
             FROM scoring_tasks t LEFT JOIN groups g ON g.id = t.group_id \
             WHERE t.customer_id = {} AND ({condition})",
            app.northwind()
        ))
        .await;
    let mut keys: Vec<(String, i64)> = rows
        .iter()
        .map(|row| {
            let (q, r) = row.split_once(',').unwrap();
            (q.to_owned(), r.parse().unwrap())
        })
        .collect();
    keys.sort();
    keys
}

async fn status_eq_0(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (tasks, _) = app
        .get_all_pages(&format!("{}ScoringTasks?$filter=Status eq 0", app.root()))
        .await;
    assert!(tasks.iter().all(|t| t["Status"] == 0));
    assert_eq!(keys(&tasks), stored_keys(&app, "t.status = 0").await);
}

async fn group_name(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let group = app
        .sql_strings(&format!(
            "SELECT name FROM groups WHERE customer_id = {} ORDER BY id LIMIT 1",
            app.northwind()
        ))
        .await
        .remove(0);
    let (tasks, _) = app
        .get_all_pages(&format!(
            "{}ScoringTasks?$filter=Group/Name eq '{group}'",
            app.root()
        ))
        .await;
    assert!(!tasks.is_empty());
    assert_eq!(
        keys(&tasks),
        stored_keys(&app, &format!("g.name = '{group}'")).await
    );
}

async fn status_0_or_1(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    assert_eq!(put_status(&app, task, 1).await, StatusCode::NO_CONTENT);
    let (tasks, _) = app
        .get_all_pages(&format!(
            "{}ScoringTasks?$filter=Status eq 0 or Status eq 1",
            app.root()
        ))
        .await;
    assert_eq!(keys(&tasks), stored_keys(&app, "t.status IN (0, 1)").await);
    assert!(tasks.iter().any(|t| t["Status"] == 1
        && t["QuestionID"].as_str().and_then(|q| q.parse::<i64>().ok()) == Some(task.question)
        && t["ResultID"] == task.result));
}

async fn expand_three(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let body = get(
        &app,
        &format!(
            "{}ScoringTasks?$filter=Status eq 0&$orderby=Result/WhenFinished desc&$expand=Question,Result,Answer",
            app.root()
        ),
    )
    .await;
    let tasks = body["value"].as_array().unwrap();
    assert_eq!(tasks.len(), 100, "a full first page");
    for task in tasks {
        assert_eq!(task["Question"]["QuestionID"], task["QuestionID"]);
        assert_eq!(task["Result"]["ID"], task["ResultID"]);
        assert_eq!(task["Answer"]["QuestionID"], task["QuestionID"]);
        assert_eq!(task["Answer"]["ResultID"], task["ResultID"]);
    }
    let finished: Vec<&str> = tasks
        .iter()
        .map(|t| t["Result"]["WhenFinished"].as_str().unwrap())
        .collect();
    assert!(finished.windows(2).all(|w| w[0] >= w[1]), "newest first");
}

async fn by_key_with_expand(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let body = get(
        &app,
        &format!("{}?$expand=Answer,Question", task.path(&app)),
    )
    .await;
    assert_eq!(body["QuestionID"], task.question.to_string());
    assert_eq!(body["ResultID"], task.result);
    assert_eq!(body["Status"], 0);
    assert_eq!(body["Question"]["QuestionID"], task.question.to_string());
    assert_eq!(body["Answer"]["ResultID"], task.result);
    assert!(body["odata.metadata"]
        .as_str()
        .unwrap()
        .ends_with("#ScoringTasks/@Element"));
}

async fn navigations(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let path = task.path(&app);
    let question = get(&app, &format!("{path}/Question")).await;
    assert_eq!(question["QuestionID"], task.question.to_string());
    let result = get(&app, &format!("{path}/Result")).await;
    assert_eq!(result["ID"], task.result);
    let answer = get(&app, &format!("{path}/Answer")).await;
    assert_eq!(answer["QuestionID"], task.question.to_string());
    let group = get(&app, &format!("{path}/Group")).await;
    assert_eq!(group["Name"], result["GroupName"]);
    let assessment = get(&app, &format!("{path}/Assessment")).await;
    assert_eq!(assessment["ID"], result["AssessmentID"]);
}

/// `Question/Rubric/any()` (our scorers' queue: a task without a rubric cannot be
/// scored), its negation and its `$count`, against the database, as a scorer.
async fn rubric_any(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let has_rubric = "EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id)";
    for (filter, condition) in [
        (
            "Status eq 0 and Question/Rubric/any()",
            format!("t.status = 0 AND {has_rubric}"),
        ),
        (
            "Status eq 0 and not Question/Rubric/any()",
            format!("t.status = 0 AND NOT {has_rubric}"),
        ),
    ] {
        let expected = stored_keys(&app, &condition).await;
        assert!(!expected.is_empty(), "the demo has tasks for '{filter}'");
        let (tasks, _) = app
            .get_all_pages(&format!("{}ScoringTasks?$filter={filter}", app.root()))
            .await;
        assert_eq!(keys(&tasks), expected, "{filter}");
        assert_eq!(scorer_count(&app, filter).await, expected.len(), "{filter}");
    }
    let refused = app
        .get_as(
            "northwind-scorer",
            &format!("{}ScoringTasks?$filter=Question/any()", app.root()),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(refused).await;
    assert!(
        message.contains("'Question' is a single entity"),
        "{message}"
    );
}

/// `Group/Name eq` is resolved to the group before the tasks are read (store/read/
/// condition.rs): every form of it, negated, combined, unknown or another area's
/// name, returns what a join would, in order and counted.
async fn group_name_forms(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let first_name = |area: i32| {
        format!("SELECT name FROM groups WHERE customer_id = {area} ORDER BY id LIMIT 1")
    };
    let ours = app
        .sql_strings(&first_name(app.northwind()))
        .await
        .remove(0);
    let theirs = app.sql_strings(&first_name(app.harbour())).await.remove(0);
    // The other area gets a group of our group's name: names are unique per area only.
    app.sql_execute(&format!(
        "INSERT INTO groups (customer_id, name, description) VALUES ({}, '{ours}', 'same name, other area')",
        app.harbour()
    ))
    .await;
    let forms = [
        (
            format!("Group/Name eq '{ours}'"),
            format!("g.name = '{ours}'"),
        ),
        (
            format!("Status eq 0 and Group/Name eq '{ours}'"),
            format!("t.status = 0 AND g.name = '{ours}'"),
        ),
        (
            format!("not (Group/Name eq '{ours}')"),
            format!("NOT (g.name = '{ours}')"),
        ),
        (
            "Group/Name eq 'No such group'".to_owned(),
            "1 = 0".to_owned(),
        ),
        (
            "not (Group/Name eq 'No such group')".to_owned(),
            "g.name IS NOT NULL".to_owned(),
        ),
        (
            "Group/Name eq 'No such group' or Status eq 0".to_owned(),
            "t.status = 0".to_owned(),
        ),
        (format!("Group/Name eq '{theirs}'"), "1 = 0".to_owned()),
    ];
    for (filter, stored) in forms {
        let path = format!(
            "{}ScoringTasks?$filter={filter}&$orderby=Result/WhenFinished desc",
            app.root()
        );
        let (tasks, _) = app.get_all_pages(&path).await;
        let in_order: Vec<String> = tasks
            .iter()
            .map(|t| format!("{},{}", t["QuestionID"].as_str().unwrap(), t["ResultID"]))
            .collect();
        let stored_in_order = app
            .sql_strings(&format!(
                "SELECT CAST(t.question_id AS TEXT) || ',' || CAST(t.result_id AS TEXT) \
                 FROM scoring_tasks t LEFT JOIN groups g ON g.id = t.group_id \
                 WHERE t.customer_id = {} AND ({stored}) \
                 ORDER BY t.result_finished_at DESC, t.result_id DESC, t.question_id DESC",
                app.northwind()
            ))
            .await;
        assert_eq!(in_order, stored_in_order, "{filter}");
        assert_eq!(scorer_count(&app, &filter).await, tasks.len(), "{filter}");
    }
}

/// `ScoringTasks/$count?$filter=...` as a scorer reads it.
async fn scorer_count(app: &TestApp, filter: &str) -> usize {
    let counted = app
        .get_as(
            "northwind-scorer",
            &format!("{}ScoringTasks/$count?$filter={filter}", app.root()),
        )
        .await;
    assert_eq!(counted.status(), StatusCode::OK, "{filter}");
    counted.text().await.unwrap().parse().unwrap()
}
