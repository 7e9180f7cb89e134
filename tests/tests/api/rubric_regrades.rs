//! Regrading after a rubric change (issue 38; docs/marking-quality.md,
//! "Regrading after a rubric change"): a lead corrects a question's rubric, counts
//! the scripts marked with the old one (`RegradeCount`), confirms that count in a
//! POST to `RubricRegrades` with a map of the first dimension's scores, and every
//! script moves: ScoringResults in any status, their dimension scores and
//! totals, the Results of scored tasks (checked against their answers), a
//! double marking's markings and a seed. Refusals name the field and write
//! nothing. Both databases.

use std::collections::BTreeMap;

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::{
    expected_scores, put_status, reported_scores, result, scoring_result_of, scoring_result_path,
    task_status, Task, SCORER,
};
use crate::second_marking::{
    dimension_maxima, json_as, mark_and_submit, marking_as, plan, send, take, with_markers, ADMIN,
    LEAD, SECOND,
};
use crate::seeds::{make_seed, tasks_of_one_question, COORDINATOR};

on_both_backends! {
    a_lead_regrades_every_script_marked_with_the_old_rubric_after_confirming_their_count => regraded;
    a_regrade_that_cannot_be_applied_is_refused_naming_the_field_and_moves_nothing => refused;
    a_regrade_answered_while_it_runs_goes_on_in_the_servers_task_to_the_end => answered_running;
    two_regrades_of_one_rubric_at_once_move_each_script_once => at_once;
}

/// The old rubric's first dimension made one mark harder (each score above 0
/// worth one less); every other dimension kept.
fn harder(old: i64) -> i64 {
    (old - 1).max(0)
}

/// The question's current rubric as a POST body for its correction: the same
/// dimensions and maxima, the first dimension's levels described again.
async fn correction(app: &TestApp, rubric: i64) -> Value {
    let old = app
        .get_json(&format!("{}Rubrics({rubric})", app.root()))
        .await;
    let dimensions = app
        .get_json(&format!("{}Rubrics({rubric})/Dimensions", app.root()))
        .await;
    let mut dimensions: Vec<Value> = dimensions["value"].as_array().unwrap().clone();
    dimensions.sort_by_key(|d| d["Order"].as_i64());
    let dimensions: Vec<Value> = dimensions
        .iter()
        .map(|d| json!({"Order": d["Order"], "Name": d["Name"], "MaxScore": d["MaxScore"]}))
        .collect();
    json!({
        "QuestionID": old["QuestionID"],
        "Name": format!("{} (after standardisation)", old["Name"].as_str().unwrap()),
        "MaxScore": old["MaxScore"],
        "Dimensions": dimensions,
    })
}

/// Each dimension's score of the task's ScoringResult, by Order, as an
/// administrator reads them (whatever rubric they name).
async fn dimension_scores(app: &TestApp, task: Task) -> BTreeMap<i64, Option<i64>> {
    let path = format!(
        "{}DimensionScores?$filter=QuestionID eq {}L and ResultID eq {}",
        app.root(),
        task.question,
        task.result
    );
    app.get_json(&path).await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["Order"].as_i64().unwrap(), d["Score"].as_i64()))
        .collect()
}

/// Scores every dimension and the total of `task` as the scorer, leaving it at 1.
async fn marked_in_progress(app: &TestApp, task: Task, scores: &[i64]) {
    assert_eq!(put_status(app, task, 1).await, StatusCode::NO_CONTENT);
    let scoring_result = scoring_result_of(app, task).await;
    let path = format!(
        "{}/DimensionScores",
        scoring_result_path(app, &scoring_result)
    );
    let rows = json_as(app, SCORER, &path).await["value"]
        .as_array()
        .unwrap()
        .clone();
    for (row, score) in rows.iter().zip(scores) {
        let mut body = row.clone();
        body["Score"] = json!(score);
        let path = format!(
            "DimensionScores(QuestionID={}L,RubricID={},ResultID={},Order={})",
            task.question, row["RubricID"], task.result, row["Order"]
        );
        let response = send(app, Method::PUT, SCORER, &path, &body, &[]).await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
    }
    let mut body = scoring_result.clone();
    body["Score"] = json!(scores.iter().sum::<i64>());
    let response = send(
        app,
        Method::PUT,
        SCORER,
        &scoring_result_path(app, &scoring_result),
        &body,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
}

/// The lead posts the correction of rubric `old`; the new rubric's ID.
async fn corrected(app: &TestApp, old: i64) -> i64 {
    let response = send(
        app,
        Method::POST,
        LEAD,
        "Rubrics",
        &correction(app, old).await,
        &[],
    )
    .await;
    assert_eq!(
        response.status(),
        StatusCode::CREATED,
        "a lead writes the correction"
    );
    let new: Value = response.json().await.unwrap();
    new["ID"].as_i64().unwrap()
}

async fn regrade_count(app: &TestApp, user: &str, rubric: i64) -> Value {
    json_as(app, user, &format!("RegradeCount?RubricID={rubric}")).await
}

fn map_of_first(maxima: &[i64]) -> Value {
    let scores: Vec<i64> = (0..=maxima[0]).map(harder).collect();
    json!([{"Order": 1, "Scores": scores}])
}

async fn regraded(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = tasks_of_one_question(&app).await;
    let (full, less, in_progress, seeded, double) =
        (tasks[0], tasks[1], tasks[2], tasks[3], tasks[4]);
    let old = scoring_result_of(&app, full).await["RubricID"]
        .as_i64()
        .unwrap();
    let maxima = dimension_maxima(&app, &json!(old)).await;
    assert!(
        maxima[0] >= 2,
        "the first dimension has levels to move: {maxima:?}"
    );
    let below: Vec<i64> = maxima.iter().map(|m| (m - 1).max(0)).collect();

    // Marked with the old rubric: two scripts scored, one in progress, one the
    // lead's and made a seed, one double-marked (both markings submitted, the
    // mean decided).
    assert_eq!(
        marking_as(&app, SCORER, full, &maxima).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        marking_as(&app, SCORER, less, &below).await,
        StatusCode::NO_CONTENT
    );
    marked_in_progress(&app, in_progress, &maxima).await;
    assert_eq!(
        marking_as(&app, LEAD, seeded, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let response = make_seed(&app, LEAD, seeded, "Full marks.").await;
    assert_eq!(response.status(), StatusCode::CREATED);
    plan(&app, double, 100, 100, "mean").await;
    assert_eq!(
        marking_as(&app, SCORER, double, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let second = take(&app, SECOND, double).await;
    mark_and_submit(&app, SECOND, &second, &below).await;
    assert_eq!(task_status(&app, double).await, 3, "the mean decided");

    let scripts = [full, less, in_progress, seeded, double];
    let mut before = BTreeMap::new();
    for task in scripts {
        let scoring_result = scoring_result_of(&app, task).await;
        let total = result(&app, task.result).await["TotalScore"]
            .as_i64()
            .unwrap();
        before.insert(
            task.result,
            (scoring_result, dimension_scores(&app, task).await, total),
        );
    }

    // The lead corrects the rubric: a new version for new scoring.
    let new = corrected(&app, old).await;

    // The count a lead confirms.
    let counted = regrade_count(&app, LEAD, old).await;
    assert_eq!(counted["Scripts"], 5, "{counted}");
    assert_eq!(counted["Scored"], 4, "{counted}");
    assert_eq!(counted["Markings"], 2, "{counted}");
    assert_eq!(counted["Seeds"], 1, "{counted}");
    assert_eq!(counted["IsCurrent"], false);
    assert_eq!(regrade_count(&app, LEAD, new).await["IsCurrent"], true);
    for user in [SCORER, COORDINATOR] {
        let response = send(
            &app,
            Method::GET,
            user,
            &format!("RegradeCount?RubricID={old}"),
            &Value::Null,
            &[],
        )
        .await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{user}");
        let response = send(&app, Method::GET, user, "RubricRegrades", &Value::Null, &[]).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{user}");
    }
    let body = |scripts: i64| {
        json!({
            "FromRubricID": old,
            "Scripts": scripts,
            "Reason": "Standardisation: the first dimension's levels are each worth one less.",
            "Dimensions": map_of_first(&maxima),
        })
    };
    // A count that is not the count now: 409, nothing moved.
    let response = send(&app, Method::POST, LEAD, "RubricRegrades", &body(4), &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let message = odata_error_message(response).await;
    assert!(
        message.contains("RubricRegrade.Scripts: 5 scripts are marked"),
        "{message}"
    );
    assert_eq!(regrade_count(&app, LEAD, old).await["Scripts"], 5);
    let response = send(&app, Method::POST, SCORER, "RubricRegrades", &body(5), &[]).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    let response = send(&app, Method::POST, LEAD, "RubricRegrades", &body(5), &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let audit: Value = response.json().await.unwrap();
    assert_eq!(audit["FromRubricID"], old);
    assert_eq!(audit["ToRubricID"], new);
    assert_eq!(audit["QuestionID"], full.question.to_string());
    assert_eq!(audit["Scripts"], 5);
    assert_eq!(audit["Regraded"], 5);
    assert_eq!(audit["Markings"], 2);
    assert_eq!(audit["Seeds"], 1);
    assert_eq!(audit["RequestedBy"], LEAD);
    assert!(!audit["CompletedDateTime"].is_null());
    let first_map: Vec<String> = (0..=maxima[0])
        .map(|s| format!("{s}→{}", harder(s)))
        .collect();
    assert!(
        audit["ScoreMaps"].as_str().unwrap().starts_with("1 "),
        "{audit}"
    );
    assert!(
        audit["ScoreMaps"]
            .as_str()
            .unwrap()
            .contains(&first_map.join(" ")),
        "{audit}"
    );
    if maxima.len() > 1 {
        assert!(
            audit["ScoreMaps"].as_str().unwrap().contains("2 "),
            "{audit}"
        );
        assert!(
            audit["ScoreMaps"].as_str().unwrap().contains(": kept"),
            "{audit}"
        );
    }

    // Every script: on the new rubric, its first dimension one less, the others
    // as they were, its total moved by the same.
    let mut changed = 0;
    let mut rescored = 0;
    for task in scripts {
        let (old_result, old_scores, old_total) = &before[&task.result];
        let now = scoring_result_of(&app, task).await;
        assert_eq!(now["RubricID"], new, "result {}", task.result);
        assert_ne!(
            now["ModifiedDateTime"], old_result["ModifiedDateTime"],
            "a new ETag"
        );
        let scores = dimension_scores(&app, task).await;
        let mut moved = 0;
        for (order, score) in old_scores {
            let expected = match (order, score) {
                (1, Some(score)) => Some(harder(*score)),
                (_, score) => *score,
            };
            assert_eq!(
                scores[order], expected,
                "result {} dimension {order}",
                task.result
            );
            moved += expected.unwrap_or(0) - score.unwrap_or(0);
        }
        let old_score = old_result["Score"].as_i64();
        assert_eq!(
            now["Score"].as_i64(),
            old_score.map(|s| s + moved),
            "result {}",
            task.result
        );
        if moved != 0 && old_score.is_some() {
            changed += 1;
        }
        // The Result follows a scored task; one in progress leaves it alone.
        let total = result(&app, task.result).await["TotalScore"]
            .as_i64()
            .unwrap();
        if task_status(&app, task).await == 3 {
            assert_eq!(total, old_total + moved, "result {}", task.result);
            assert_eq!(
                reported_scores(&app, task.result).await,
                expected_scores(&app, task.result).await
            );
            if moved != 0 {
                rescored += 1;
            }
        } else {
            assert_eq!(total, *old_total, "result {} in progress", task.result);
        }
        // The old key is gone with the old rubric; the task reaches the new one.
        let (status, _) =
            crate::second_marking::get_as(&app, SCORER, &scoring_result_path(&app, old_result))
                .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    assert_eq!(audit["TotalsChanged"], changed);
    assert_eq!(audit["ResultsRescored"], rescored);
    assert!(rescored >= 3, "the full marks at least: {rescored}");

    // The double marking's markings and the seed, moved alike.
    let markings = json_as(
        &app,
        LEAD,
        &format!(
            "Markings?$filter=QuestionID eq {}L and ResultID eq {}&$orderby=Round",
            double.question, double.result
        ),
    )
    .await["value"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(markings.len(), 2);
    for (marking, marks) in markings.iter().zip([&maxima, &below]) {
        assert_eq!(marking["RubricID"], new);
        let expected: i64 = marks
            .iter()
            .enumerate()
            .map(|(at, s)| if at == 0 { harder(*s) } else { *s })
            .sum();
        assert_eq!(marking["Score"], expected, "{marking}");
        let rows = json_as(
            &app,
            LEAD,
            &format!("Markings({})/Scores?$orderby=Order", marking["ID"]),
        )
        .await;
        assert_eq!(rows["value"][0]["Score"], harder(marks[0]));
    }
    let seed = json_as(
        &app,
        LEAD,
        &format!("Seeds?$filter=QuestionID eq {}L", seeded.question),
    )
    .await;
    let seed = &seed["value"][0];
    assert_eq!(seed["RubricID"], new);
    assert_eq!(seed["Score"], maxima.iter().sum::<i64>() - 1);

    // Nothing is left on the old rubric; it stays, kept by the audit entry.
    let counted = regrade_count(&app, LEAD, old).await;
    assert_eq!(
        (
            counted["Scripts"].clone(),
            counted["Markings"].clone(),
            counted["Seeds"].clone()
        ),
        (json!(0), json!(0), json!(0))
    );
    assert_eq!(regrade_count(&app, LEAD, new).await["Scripts"], 5);
    let kept = app.get_json(&format!("{}Rubrics({old})", app.root())).await;
    assert!(!kept["ReplacedDateTime"].is_null());
    let response = send(
        &app,
        Method::DELETE,
        ADMIN,
        &format!("Rubrics({old})"),
        &Value::Null,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(response)
        .await
        .contains("RubricRegrades"));
    let listed = json_as(
        &app,
        LEAD,
        &format!(
            "RubricRegrades?$filter=QuestionID eq {}L&$expand=FromRubric,ToRubric",
            full.question
        ),
    )
    .await;
    assert_eq!(listed["value"].as_array().unwrap().len(), 1);
    assert_eq!(listed["value"][0]["FromRubric"]["ID"], old);
    assert_eq!(listed["value"][0]["ToRubric"]["ID"], new);
    // The audit is written once and never changed.
    let id = &audit["ID"];
    for method in [Method::PUT, Method::DELETE] {
        let response = send(
            &app,
            method.clone(),
            LEAD,
            &format!("RubricRegrades({id})"),
            &audit,
            &[],
        )
        .await;
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
    }
}

async fn refused(backend: Backend) {
    let app = with_markers(backend).await;
    let tasks = tasks_of_one_question(&app).await;
    let task = tasks[0];
    let old = scoring_result_of(&app, task).await["RubricID"]
        .as_i64()
        .unwrap();
    let maxima = dimension_maxima(&app, &json!(old)).await;
    assert_eq!(
        marking_as(&app, SCORER, task, &maxima).await,
        StatusCode::NO_CONTENT
    );
    let good = |from: i64| json!({"FromRubricID": from, "Scripts": 1, "Reason": "Corrected.", "Dimensions": map_of_first(&maxima)});
    // Before the correction the old rubric is still the current one.
    let response = send(&app, Method::POST, LEAD, "RubricRegrades", &good(old), &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("RubricRegrade.FromRubricID: rubric"));
    corrected(&app, old).await;

    let top = maxima[0];
    let with = |change: &dyn Fn(&mut Value)| {
        let mut body = good(old);
        change(&mut body);
        body
    };
    let above = format!("RubricRegrade.Dimensions[0].Scores[{top}]");
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&|b| {
                b.as_object_mut().unwrap().remove("Reason");
            }),
            "RubricRegrade.Reason is required",
        ),
        (
            with(&|b| b["Reason"] = json!("   ")),
            "RubricRegrade.Reason is required",
        ),
        (
            with(&|b| {
                b.as_object_mut().unwrap().remove("Scripts");
            }),
            "RubricRegrade: missing field `Scripts`",
        ),
        (
            with(&|b| b["Scripts"] = json!("one")),
            "RubricRegrade.Scripts",
        ),
        (
            with(&|b| b["FromRubricID"] = json!(999_999)),
            "RubricRegrade.FromRubricID: 999999 is not a rubric",
        ),
        (
            with(&|b| b["ToRubricID"] = json!(old)),
            "RubricRegrade.ToRubricID: rubric",
        ),
        (
            with(&|b| b["Scrips"] = json!(1)),
            "RubricRegrade.Scrips: unknown field `Scrips`",
        ),
        (
            with(&|b| b["Dimensions"][0]["Scores"] = json!([0, 1])),
            "RubricRegrade.Dimensions[0].Scores: 2 scores given",
        ),
        (
            with(&|b| b["Dimensions"][0]["Scores"][top as usize] = json!(top + 1)),
            &above,
        ),
        (
            with(&|b| b["Dimensions"][0]["Scores"][0] = json!(top)),
            "RubricRegrade.Dimensions[0].Scores[1]",
        ),
        (
            with(&|b| b["Dimensions"][0]["Order"] = json!(42)),
            "RubricRegrade.Dimensions[0].Order: 42",
        ),
        (
            with(&|b| b["Dimensions"][0]["Scores"] = json!("0 1 1")),
            "RubricRegrade.Dimensions[0].Scores",
        ),
        (
            with(
                &|b| b["Dimensions"] = json!([{"Order": 1, "Scores": b["Dimensions"][0]["Scores"].clone()}, {"Order": 1, "Scores": b["Dimensions"][0]["Scores"].clone()}]),
            ),
            "mapped twice",
        ),
    ];
    for (body, named) in &cases {
        let response = send(&app, Method::POST, LEAD, "RubricRegrades", body, &[]).await;
        let status = response.status();
        let message = odata_error_message(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {message}");
        assert!(message.contains(named), "{body}: {message}, wanted {named}");
    }
    // Not JSON, through a navigation, in a change set.
    let response = app
        .client
        .post(app.url(&format!("{}RubricRegrades", app.root())))
        .basic_auth(LEAD, Some(scoredesk_server::seed::demo::DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body("{\"FromRubricID\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .starts_with("RubricRegrade"));
    let response = send(
        &app,
        Method::POST,
        LEAD,
        &format!("Rubrics({old})/Dimensions"),
        &good(old),
        &[],
    )
    .await;
    assert!(response.status().is_client_error());

    // Nothing written by any of them.
    assert_eq!(
        app.sql_i64("SELECT CAST(COUNT(*) AS BIGINT) FROM rubric_regrades")
            .await,
        0
    );
    assert_eq!(scoring_result_of(&app, task).await["RubricID"], old);
    assert_eq!(regrade_count(&app, LEAD, old).await["Scripts"], 1);
    // A missing rubric, malformed parameters, another area (whose administrator
    // neither counts nor regrades this area's rubric).
    let response = send(
        &app,
        Method::GET,
        LEAD,
        "RegradeCount?RubricID=999999",
        &Value::Null,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    for bad in [
        "RegradeCount",
        "RegradeCount?RubricID='x'",
        "RegradeCount?RubricID=99999999999",
    ] {
        let response = send(&app, Method::GET, LEAD, bad, &Value::Null, &[]).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
    let harbour = format!("/deliveryodata/{}/", app.harbour());
    let response = send(
        &app,
        Method::GET,
        "harbour-admin",
        &format!("{harbour}RegradeCount?RubricID={old}"),
        &Value::Null,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = send(
        &app,
        Method::POST,
        "harbour-admin",
        &format!("{harbour}RubricRegrades"),
        &good(old),
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("is not a rubric of this customer area"));
    let listed = send(
        &app,
        Method::GET,
        "harbour-admin",
        &format!("{harbour}RubricRegrades"),
        &Value::Null,
        &[],
    )
    .await;
    assert_eq!(listed.status(), StatusCode::OK);
}

/// With `regrade_wait_milliseconds` 0 the POST answers at once, the regrade
/// still running; it goes on in the server's task, and the entry read again
/// says when it is done.
async fn answered_running(backend: Backend) {
    let app = TestApp::spawn_with_demo_configured(backend, |settings| {
        settings.regrade_wait_milliseconds = 0;
    })
    .await;
    app.add_account(SECOND, "scorer").await;
    let tasks = tasks_of_one_question(&app).await;
    let old = scoring_result_of(&app, tasks[0]).await["RubricID"]
        .as_i64()
        .unwrap();
    let maxima = dimension_maxima(&app, &json!(old)).await;
    for task in &tasks[..3] {
        assert_eq!(
            marking_as(&app, SCORER, *task, &maxima).await,
            StatusCode::NO_CONTENT
        );
    }
    corrected(&app, old).await;
    let body = json!({"FromRubricID": old, "Scripts": 3, "Reason": "Corrected.", "Dimensions": map_of_first(&maxima)});
    let response = send(&app, Method::POST, LEAD, "RubricRegrades", &body, &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let answered: Value = response.json().await.unwrap();
    assert!(answered["Regraded"].as_i64().unwrap() <= 3, "{answered}");
    let id = &answered["ID"];
    let mut entry = answered.clone();
    for _ in 0..200 {
        if !entry["CompletedDateTime"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        entry = json_as(&app, LEAD, &format!("RubricRegrades({id})")).await;
    }
    assert!(!entry["CompletedDateTime"].is_null(), "finished: {entry}");
    assert_eq!(entry["Regraded"], 3);
    let new = entry["ToRubricID"].clone();
    for task in &tasks[..3] {
        assert_eq!(scoring_result_of(&app, *task).await["RubricID"], new);
        assert_eq!(
            reported_scores(&app, task.result).await,
            expected_scores(&app, task.result).await
        );
    }
}

/// Reads regrade `id` again until it is done; the entry.
async fn finished(app: &TestApp, id: &Value) -> Value {
    for _ in 0..400 {
        let entry = json_as(app, LEAD, &format!("RubricRegrades({id})")).await;
        if !entry["CompletedDateTime"].is_null() {
            return entry;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("regrade {id} did not finish");
}

/// Two leads confirm the same regrade at the same moment: whether the second is
/// refused (the count moved) or runs beside the first, every script's first
/// dimension is mapped once, and its total with it.
async fn at_once(backend: Backend) {
    let app = TestApp::spawn_with_demo_configured(backend, |settings| {
        settings.regrade_wait_milliseconds = 0;
    })
    .await;
    let tasks = tasks_of_one_question(&app).await;
    let old = scoring_result_of(&app, tasks[0]).await["RubricID"]
        .as_i64()
        .unwrap();
    let maxima = dimension_maxima(&app, &json!(old)).await;
    for task in &tasks[..4] {
        assert_eq!(
            marking_as(&app, SCORER, *task, &maxima).await,
            StatusCode::NO_CONTENT
        );
    }
    let new = corrected(&app, old).await;
    let body = json!({"FromRubricID": old, "Scripts": 4, "Reason": "Corrected.", "Dimensions": map_of_first(&maxima)});
    let (first, second) = tokio::join!(
        send(&app, Method::POST, LEAD, "RubricRegrades", &body, &[]),
        send(&app, Method::POST, ADMIN, "RubricRegrades", &body, &[]),
    );
    let mut ran = 0;
    for response in [first, second] {
        match response.status() {
            StatusCode::CREATED => {
                let entry: Value = response.json().await.unwrap();
                finished(&app, &entry["ID"]).await;
                ran += 1;
            }
            StatusCode::CONFLICT => {
                assert!(odata_error_message(response)
                    .await
                    .contains("RubricRegrade.Scripts"));
            }
            other => panic!("{other}"),
        }
    }
    assert!(ran >= 1);
    let full: i64 = maxima.iter().sum();
    for task in &tasks[..4] {
        let now = scoring_result_of(&app, *task).await;
        assert_eq!(now["RubricID"], new);
        assert_eq!(now["Score"], full - 1, "mapped once: {now}");
        assert_eq!(
            dimension_scores(&app, *task).await[&1],
            Some(harder(maxima[0]))
        );
        assert_eq!(
            reported_scores(&app, task.result).await,
            expected_scores(&app, task.result).await
        );
    }
}
