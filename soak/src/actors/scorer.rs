//! A scorer: polls the next open task of their groups, claims it, follows it to
//! its ScoringResult, scores each dimension, saves the ScoringResult with the
//! `ModifiedDateTime` they read and finishes the task (Status 3). One save in
//! eight races a rival's save of the same ScoringResult with the same
//! `ModifiedDateTime`: exactly one of the two may succeed, the other gets 412.
//! A finish the question's plan keeps for a second marking leaves the task at 2
//! (read back, as the desktop does); and now and then the scorer marks a round
//! from `SecondMarkingQueue` (actors/second_marker.rs).

use std::sync::Arc;

use rand::Rng;
use reqwest::Method;
use serde_json::{json, Value};

use super::second_marker;
use super::Load;
use crate::client::Person;
use crate::ledger::{lock, Ledger, Marked, Scored};

/// The scale seed's groups: scorer `n` of `of` takes every `of`-th from `n`.
fn groups(n: usize, of: usize) -> Vec<String> {
    (n..100)
        .step_by(of)
        .map(|g| format!("Group-{g:03}"))
        .collect()
}

pub async fn run(load: Arc<Load>, me: Person, rival: Person, n: usize, of: usize) {
    let groups = groups(n, of);
    while !load.stopping() {
        let mut scored_any = false;
        for group in &groups {
            if load.stopping() {
                break;
            }
            if score_next(&load, &me, &rival, group).await {
                scored_any = true;
                load.pause(300, 1_500).await;
            }
            if rand::rng().random_ratio(1, 4) && second_marker::mark_a_round(&load, &me).await {
                scored_any = true;
                load.pause(300, 1_500).await;
            }
        }
        if !scored_any {
            load.pause(5_000, 5_000).await;
        }
    }
}

/// One task of `group` scored; false when it had none open (or a step failed,
/// which the recorder has counted).
async fn score_next(load: &Load, me: &Person, rival: &Person, group: &str) -> bool {
    let queue = me
        .get(
            "scorer: poll",
            &format!("ScoringTasks?$filter=Status eq 0 and Group/Name eq '{group}'&$orderby=Result/WhenFinished desc&$top=1"),
            &[200],
        )
        .await
        .json();
    let Some(task) = queue["value"].get(0) else {
        return false;
    };
    let (Some(question), Some(result)) = (
        task["QuestionID"]
            .as_str()
            .and_then(|q| q.parse::<i64>().ok()),
        task["ResultID"].as_i64(),
    ) else {
        me.recorder()
            .fail(format!("a polled task without keys: {task}"));
        return false;
    };
    let task_path = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
    let claim = me
        .json(
            "scorer: claim",
            Method::PUT,
            &task_path,
            &json!({"Status": 1}),
            &[204],
        )
        .await;
    if !claim.is(204) {
        return false;
    }
    lock(&load.ledger.claimed).insert((question, result));
    let followed = me
        .get(
            "scorer: follow",
            &format!("{task_path}/ScoringResult"),
            &[200],
        )
        .await
        .json();
    let Some(scoring_result) = followed["value"].get(0).cloned() else {
        return false;
    };
    let Some(rubric) = scoring_result["RubricID"].as_i64() else {
        return false;
    };
    let result_path =
        format!("ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})");
    let dimensions = me
        .get(
            "scorer: dimensions",
            &format!("{result_path}/DimensionScores"),
            &[200],
        )
        .await
        .json();
    let mut total = 0;
    for dimension in dimensions["value"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let Some(order) = dimension["Order"].as_i64() else {
            continue;
        };
        let score = rand::rng().random_range(0..=2);
        total += score;
        let put = me
            .json(
                "scorer: dimension",
                Method::PUT,
                &format!("DimensionScores(QuestionID={question}L,RubricID={rubric},ResultID={result},Order={order})"),
                &json!({"Score": score, "Comment": "soak"}),
                &[204],
            )
            .await;
        if !put.is(204) {
            return false;
        }
    }
    let saved = if rand::rng().random_ratio(1, 8) {
        race(load, me, rival, &result_path, &scoring_result, total).await
    } else {
        let comment = format!("by {}", me.user);
        let put = me
            .json(
                "scorer: save",
                Method::PUT,
                &result_path,
                &save(total, &comment, &scoring_result),
                &[204],
            )
            .await;
        put.is(204).then_some(comment)
    };
    let Some(comment) = saved else {
        return false;
    };
    let finished = me
        .json(
            "scorer: finish",
            Method::PUT,
            &task_path,
            &json!({"Status": 3}),
            &[204],
        )
        .await;
    if !finished.is(204) {
        return false;
    }
    lock(&load.ledger.claimed).remove(&(question, result));
    // The spec's 204 either way: Status 2 means the plan kept the marks as the
    // first marking, for a second marker.
    let now = me.get("scorer: read back", &task_path, &[200]).await.json();
    if now["Status"] == 2 {
        lock(&load.ledger.markings)
            .entry((question, result))
            .or_default()
            .push(Marked {
                round: 1,
                marker: me.user.clone(),
                total,
            });
    } else {
        lock(&load.ledger.scored).insert(
            (question, result),
            Scored {
                score: total,
                comment,
            },
        );
    }
    true
}

fn save(total: i64, comment: &str, read: &Value) -> Value {
    json!({"Score": total, "Comments": comment, "ModifiedDateTime": read["ModifiedDateTime"]})
}

/// The owner's save and a rival's, sent at once with the same ModifiedDateTime;
/// the comment of the one that won.
async fn race(
    load: &Load,
    me: &Person,
    rival: &Person,
    path: &str,
    read: &Value,
    total: i64,
) -> Option<String> {
    Ledger::add(&load.ledger.races);
    let (mine, theirs) = (
        format!("by {}", me.user),
        format!("raced by {}", rival.user),
    );
    let (my_save, their_save) = (save(total, &mine, read), save(total, &theirs, read));
    let (a, b) = tokio::join!(
        me.json(
            "scorer: save (race)",
            Method::PUT,
            path,
            &my_save,
            &[204, 412]
        ),
        rival.json(
            "scorer: save (race)",
            Method::PUT,
            path,
            &their_save,
            &[204, 412]
        ),
    );
    match (a.status, b.status) {
        (204, 412) => Some(mine),
        (412, 204) => Some(theirs),
        (x, y) => {
            Ledger::add(&load.ledger.races_broken);
            me.recorder().fail(format!(
                "a race on {path} ended {x} and {y}: exactly one save must win"
            ));
            None
        }
    }
}
