//! The app's own submit, against the real server on both databases: two scorers
//! submit the same result at the same moment, many times. Exactly one wins; the
//! stored dimensions always add up to the stored total, and the loser's scores and
//! comments are nowhere (issue 10).

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

use scoredesk_desktop::client::ODataClient;
use scoredesk_desktop::scoring::{submit, Draft, SubmitOutcome};
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::model::scoring::TaskStatus;
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use secrecy::SecretString;
use serde_json::Value;

on_both_backends! {
    two_scorers_submitting_one_result_at_once_never_mix_their_scores => simultaneous;
}

fn scorer(app: &TestApp) -> ODataClient {
    ODataClient::new(
        &app.address,
        app.northwind(),
        "northwind-scorer",
        SecretString::from(DEMO_PASSWORD),
    )
}

/// Open tasks whose question has a rubric, as (question, result).
async fn open_tasks(app: &TestApp) -> Vec<(String, i32)> {
    let keys = app
        .sql_strings(&format!(
            "SELECT CAST(t.question_id AS TEXT) || ',' || CAST(t.result_id AS TEXT) FROM scoring_tasks t \
             WHERE t.customer_id = {} AND t.status = 0 \
             AND EXISTS (SELECT 1 FROM rubrics r WHERE r.question_id = t.question_id) \
             ORDER BY t.result_id, t.question_id",
            app.northwind()
        ))
        .await;
    keys.iter()
        .map(|key| {
            let (question, result) = key.split_once(',').unwrap();
            (question.to_owned(), result.parse().unwrap())
        })
        .collect()
}

/// The ScoringResult as the app reads it when a task opens, and its dimensions' maxima.
async fn opened(client: &ODataClient, question: &str, result: i32) -> (Value, Vec<(i64, i64)>) {
    let path = format!("ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult");
    let scoring = client.get_json(&path, &[]).await.unwrap()["value"][0].clone();
    let rubric = scoring["RubricID"].as_i64().unwrap();
    let dimensions = client
        .get_json(
            &format!(
                "ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})/DimensionScores"
            ),
            &[("$expand", "Dimension")],
        )
        .await
        .unwrap();
    let maxima = dimensions["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["Order"].as_i64().unwrap(),
                d["Dimension"]["MaxScore"].as_i64().unwrap(),
            )
        })
        .collect();
    (scoring, maxima)
}

fn draft(scoring: &Value, question: &str, result: i32, scores: &[(i64, i64)], who: &str) -> Draft {
    serde_json::from_value(serde_json::json!({
        "questionId": question,
        "resultId": result,
        "rubricId": scoring["RubricID"],
        "modified": scoring["ModifiedDateTime"],
        "score": scores.iter().map(|(_, s)| s).sum::<i64>(),
        "comments": format!("{who}'s overall comment"),
        "dimensions": scores.iter().map(|(order, score)| serde_json::json!({
            "order": order, "score": score, "comment": format!("{who}'s comment"),
        })).collect::<Vec<_>>(),
    }))
    .unwrap()
}

async fn simultaneous(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (ann, bob) = (scorer(&app), scorer(&app));
    let tasks = open_tasks(&app).await;
    let rounds = 15;
    let mut wins = [0, 0];
    for (question, result) in tasks.into_iter().take(rounds) {
        let (scoring, maxima) = opened(&ann, &question, result).await;
        let last = maxima.last().unwrap().0;
        let ann_scores: Vec<(i64, i64)> = maxima.clone();
        let bob_scores: Vec<(i64, i64)> = maxima
            .iter()
            .map(|(order, max)| (*order, if *order == last { *max } else { 0 }))
            .collect();
        let ann_draft = draft(&scoring, &question, result, &ann_scores, "ann");
        let bob_draft = draft(&scoring, &question, result, &bob_scores, "bob");
        let (a, b) = tokio::join!(
            submit(&ann, &ann_draft, TaskStatus::Scored),
            submit(&bob, &bob_draft, TaskStatus::Scored)
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        let winner = match (&a, &b) {
            (SubmitOutcome::Saved, SubmitOutcome::Conflict { .. }) => 0,
            (SubmitOutcome::Conflict { .. }, SubmitOutcome::Saved) => 1,
            other => panic!("exactly one must win: {other:?}"),
        };
        wins[winner] += 1;
        let (expected, who) = if winner == 0 {
            (&ann_scores, "ann")
        } else {
            (&bob_scores, "bob")
        };
        let stored: Vec<(i64, Option<String>)> = app
            .sql_strings(&format!(
                "SELECT CAST(score AS TEXT) || '|' || COALESCE(comment, '') FROM dimension_scores \
                 WHERE question_id = {question} AND result_id = {result} ORDER BY dimension_order"
            ))
            .await
            .iter()
            .map(|row| {
                let (score, comment) = row.split_once('|').unwrap();
                (score.parse().unwrap(), Some(comment.to_owned()))
            })
            .collect();
        let wanted: Vec<(i64, Option<String>)> = expected
            .iter()
            .map(|(_, score)| (*score, Some(format!("{who}'s comment"))))
            .collect();
        assert_eq!(
            stored, wanted,
            "the winner's dimensions and comments, all of them"
        );
        let total: i64 = expected.iter().map(|(_, s)| s).sum();
        let overall = app
            .sql_strings(&format!(
                "SELECT CAST(score AS TEXT) || '|' || comments FROM scoring_results \
                 WHERE question_id = {question} AND result_id = {result}"
            ))
            .await;
        assert_eq!(overall, vec![format!("{total}|{who}'s overall comment")]);
        let answer = app
            .sql_i64(&format!(
                "SELECT CAST(actual_score AS BIGINT) FROM answers WHERE question_id = {question} \
                 AND result_id = {result} ORDER BY occurrence, block_number LIMIT 1"
            ))
            .await;
        assert_eq!(
            answer, total,
            "the participant's result has the winner's total"
        );
    }
    assert_eq!(wins[0] + wins[1], rounds);
}
