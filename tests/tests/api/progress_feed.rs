//! Marking progress served (issue 34, docs/odata.md "ScoringProgress"): an
//! assessment's tasks counted by status for the whole, per question, per group and
//! per scorer, checked against the database's own counts; a scorer's finished
//! tasks show under their name and in the latest hour's pace; scorers may not ask;
//! bad calls are 4xx naming what is wrong.

use std::collections::HashMap;

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

use crate::exports::score_essays;

on_both_backends! {
    progress_counts_agree_with_the_tasks_and_follow_a_scorer => counts;
}

const COORDINATOR: &str = "northwind-coordinator";

async fn progress(app: &TestApp, assessment: i64) -> Vec<Value> {
    let (status, body) = app
        .get_json_with(
            COORDINATOR,
            &format!("{}ScoringProgress?AssessmentID={assessment}L", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["value"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [Value], by: &str, key: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["By"] == by && r["Key"] == key)
        .unwrap_or_else(|| panic!("no {by} {key}: {rows:?}"))
}

async fn counts(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    // The assessment with the most open tasks.
    let assessment = app
        .sql_i64(&format!(
            "SELECT assessment_id FROM scoring_tasks WHERE customer_id = {} AND status = 0 \
             GROUP BY assessment_id ORDER BY COUNT(*) DESC, assessment_id LIMIT 1",
            app.northwind()
        ))
        .await;
    let rows = progress(&app, assessment).await;
    let by_status: Vec<i64> = app
        .sql_column(&format!(
            "SELECT CAST(COUNT(t.result_id) AS BIGINT) FROM (SELECT 0 AS s UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) v \
             LEFT JOIN scoring_tasks t ON t.status = v.s AND t.customer_id = {} AND t.assessment_id = {assessment} \
             GROUP BY v.s ORDER BY v.s",
            app.northwind()
        ))
        .await;
    let all = row(&rows, "Assessment", "");
    let served: Vec<i64> = ["Open", "BeingScored", "Saved", "Scored"]
        .iter()
        .map(|k| all[k].as_i64().unwrap())
        .collect();
    assert_eq!(served, by_status);
    // The questions' and the groups' rows add up to the assessment's.
    for by in ["Question", "Group"] {
        let mut sums: HashMap<&str, i64> = HashMap::new();
        for r in rows.iter().filter(|r| r["By"] == by) {
            for k in ["Open", "BeingScored", "Saved", "Scored"] {
                *sums.entry(k).or_default() += r[k].as_i64().unwrap();
            }
        }
        assert_eq!(sums["Open"], by_status[0], "{by}");
        assert_eq!(sums["Scored"], by_status[3], "{by}");
    }
    let question = rows.iter().find(|r| r["By"] == "Question").unwrap();
    assert!(
        question["Name"].as_str().unwrap().starts_with("Q1"),
        "{question}"
    );

    // A scorer finishes a result's essays: they show under the scorer's name, in
    // the latest hour.
    let result = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(result_id) AS BIGINT) FROM scoring_tasks WHERE customer_id = {} AND assessment_id = {assessment} AND status = 0",
            app.northwind()
        ))
        .await;
    let finishing = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE result_id = {result} AND status = 0"
        ))
        .await;
    score_essays(&app, result).await;
    let after = progress(&app, assessment).await;
    let scorer = row(&after, "Scorer", "northwind-scorer");
    assert!(scorer["Scored"].as_i64().unwrap() >= finishing, "{scorer}");
    assert_eq!(scorer["ScoredByHour"][0].as_i64(), Some(finishing));
    let all_after = row(&after, "Assessment", "");
    assert_eq!(all_after["Open"].as_i64(), Some(by_status[0] - finishing));
    assert_eq!(all_after["ScoredByHour"][0].as_i64(), Some(finishing));
    assert_eq!(all_after["ScoredByHour"].as_array().unwrap().len(), 8);

    // Scorers may not ask; a bad call says what is wrong.
    let path = format!("{}ScoringProgress?AssessmentID={assessment}L", app.root());
    let (status, _) = app.get_json_with("northwind-scorer", &path, &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for (path, expected) in [
        (
            format!("{}ScoringProgress", app.root()),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("{}ScoringProgress?AssessmentID=7L", app.root()),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (status, body) = app.get_json_with(COORDINATOR, &path, &[]).await;
        assert_eq!(status, expected, "{path}: {body}");
        assert!(
            body["odata.error"]["message"]["value"]
                .as_str()
                .unwrap()
                .contains("AssessmentID")
                || expected == StatusCode::NOT_FOUND
        );
    }
}
