//! A scorer: polls the next open task of their groups, claims it, follows it to
//! its ScoringResult, scores each dimension, saves the ScoringResult with the
//! `ModifiedDateTime` they read and finishes the task (Status 3). One save in
//! eight races a rival's save of the same ScoringResult with the same
//! `ModifiedDateTime`: exactly one of the two may succeed, the other gets 412.
//! A finish the question's plan keeps for a second marking leaves the task at 2
//! (read back, as the desktop does); and now and then the scorer marks a round
//! from `SecondMarkingQueue` (actors/second_marker.rs). After his groups he
//! looks in the seed group for a check script served to him (a seed copy: a
//! task like any other to him); one whose check scripts paused him finds the
//! question's tasks gone, and a take or finish refused with 403 in a race with
//! his pause hands the task back.

use std::sync::Arc;

use rand::Rng;
use reqwest::Method;
use serde_json::{json, Value};

use super::second_marker;
use super::Load;
use crate::client::Person;
use crate::ledger::{lock, Ledger, Marked, Scored};
use crate::setup::SEED_GROUP;

/// The scale seed's groups: scorer `n` of `of` takes every `of`-th from `n`,
/// except the seed group, whose real scripts are the lead's.
fn groups(n: usize, of: usize) -> Vec<String> {
    (n..100)
        .step_by(of)
        .map(|g| format!("Group-{g:03}"))
        .filter(|g| g != SEED_GROUP)
        .collect()
}

/// Where a scorer polls: one of his groups, or the seed group's new results.
enum Poll<'a> {
    Group(&'a str),
    SeedCopies,
}

pub async fn run(load: Arc<Load>, me: Person, rival: Person, n: usize, of: usize) {
    let groups = groups(n, of);
    while !load.stopping() {
        let mut scored_any = false;
        for group in &groups {
            if load.stopping() {
                break;
            }
            if score_next(&load, &me, &rival, Poll::Group(group)).await {
                scored_any = true;
                load.pause(300, 1_500).await;
            }
            if rand::rng().random_ratio(1, 4) && second_marker::mark_a_round(&load, &me).await {
                scored_any = true;
                load.pause(300, 1_500).await;
            }
        }
        if !load.stopping() && score_next(&load, &me, &rival, Poll::SeedCopies).await {
            scored_any = true;
            load.pause(300, 1_500).await;
        }
        if !scored_any {
            load.pause(5_000, 5_000).await;
        }
    }
}

/// One task found by `poll` scored; false when it had none open (or a step
/// failed, which the recorder has counted).
async fn score_next(load: &Load, me: &Person, rival: &Person, poll: Poll<'_>) -> bool {
    let filter = match poll {
        Poll::Group(group) => format!("Group/Name eq '{group}'"),
        Poll::SeedCopies => format!(
            "Group/Name eq '{SEED_GROUP}' and ResultID gt {}",
            load.copies_after
        ),
    };
    let queue = me
        .get(
            "scorer: poll",
            &format!("ScoringTasks?$filter=Status eq 0 and {filter}&$orderby=Result/WhenFinished desc&$top=1"),
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
            // 403: paused from the question since the poll.
            &[204, 403],
        )
        .await;
    if claim.is(403) {
        Ledger::add(&load.ledger.refused_paused);
        return false;
    }
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
    let routes = ("scorer: dimensions", "scorer: dimension");
    let Some(total) = score_dimensions(me, routes, (question, rubric, result), "soak").await else {
        return false;
    };
    let saved = if rand::rng().random_ratio(1, 8) {
        match poll {
            Poll::Group(_) => race(load, me, rival, &result_path, &scoring_result, total).await,
            Poll::SeedCopies => {
                hidden_race(load, me, rival, &result_path, &scoring_result, total).await
            }
        }
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
            &[204, 403],
        )
        .await;
    if finished.is(403) {
        // Paused since the claim: the task goes back to the queue, as a paused
        // marker may always do.
        Ledger::add(&load.ledger.refused_paused);
        let back = me
            .json(
                "scorer: hand back",
                Method::PUT,
                &task_path,
                &json!({"Status": 0}),
                &[204],
            )
            .await;
        if back.is(204) {
            lock(&load.ledger.claimed).remove(&(question, result));
        }
        return false;
    }
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
        if matches!(poll, Poll::SeedCopies) {
            lock(&load.ledger.copies_scored).insert(result, (me.user.clone(), total));
        }
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

/// On a seed copy the rival's save races nothing: the copy is the owner's
/// alone, so the rival's PUT must be 404 (no such ScoringResult) while the
/// owner's is 204; the owner's comment when so.
async fn hidden_race(
    load: &Load,
    me: &Person,
    rival: &Person,
    path: &str,
    read: &Value,
    total: i64,
) -> Option<String> {
    let mine = format!("by {}", me.user);
    let (my_save, their_save) = (save(total, &mine, read), save(total, "raced", read));
    let (a, b) = tokio::join!(
        me.json("scorer: save (copy)", Method::PUT, path, &my_save, &[204]),
        rival.json(
            "scorer: save of another's copy",
            Method::PUT,
            path,
            &their_save,
            &[404]
        ),
    );
    Ledger::add(&load.ledger.copy_saves_hidden);
    (a.is(204) && b.is(404)).then_some(mine)
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

/// Scores each dimension of the ScoringResult (question, rubric, result) 0 to
/// 2 at random with `comment`, under the routes `(list, put)` of the report; the
/// total, or None when a PUT failed (which the recorder counted).
pub async fn score_dimensions(
    me: &Person,
    (list, put): (&'static str, &'static str),
    (question, rubric, result): (i64, i64, i64),
    comment: &str,
) -> Option<i64> {
    let result_path =
        format!("ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})");
    let dimensions = me
        .get(list, &format!("{result_path}/DimensionScores"), &[200])
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
        let path = format!(
            "DimensionScores(QuestionID={question}L,RubricID={rubric},ResultID={result},Order={order})"
        );
        let written = me
            .json(
                put,
                Method::PUT,
                &path,
                &json!({"Score": score, "Comment": comment}),
                &[204],
            )
            .await;
        if !written.is(204) {
            return None;
        }
    }
    Some(total)
}
