//! A scorer marking a round of a double-marked task (docs/marking-quality.md):
//! the first round `SecondMarkingQueue` offers him (never one of a task he marked),
//! taken with `POST Markings` (201, or 409 when another marker took it first, as
//! many may try at once, or 403 while his check scripts have paused him from
//! the question), each dimension scored through `MarkingScores`, the
//! marking read again (a score's PUT renews its token) and submitted. What he
//! submitted goes to the ledger, which the reconciliation checks the final marks
//! against.

use rand::Rng;
use reqwest::Method;
use serde_json::{json, Value};

use super::Load;
use crate::client::Person;
use crate::ledger::{lock, Ledger, Marked};

/// One round marked; false when none was offered, the take lost, or a step failed
/// (which the recorder has counted).
pub async fn mark_a_round(load: &Load, me: &Person) -> bool {
    let queue = me
        .get("marker: queue", "SecondMarkingQueue?$top=5", &[200])
        .await
        .json();
    let offered: Vec<&Value> = queue["value"]
        .as_array()
        .map(|rows| rows.iter().collect())
        .unwrap_or_default();
    let Some(round) = offered.get(rand::rng().random_range(0..offered.len().max(1))) else {
        return false;
    };
    let (Some(question), Some(result)) = (
        round["QuestionID"]
            .as_str()
            .and_then(|q| q.parse::<i64>().ok()),
        round["ResultID"].as_i64(),
    ) else {
        me.recorder()
            .fail(format!("an offered round without keys: {round}"));
        return false;
    };
    let taken = me
        .json(
            "marker: take",
            Method::POST,
            "Markings",
            &json!({"QuestionID": question.to_string(), "ResultID": result}),
            &[201, 403, 409],
        )
        .await;
    if taken.is(409) {
        Ledger::add(&load.ledger.takes_lost);
        return false;
    }
    // Paused from the question by his check scripts: the round is not his.
    if taken.is(403) {
        Ledger::add(&load.ledger.refused_paused);
        return false;
    }
    let marking = taken.json();
    let (Some(id), Some(number)) = (marking["ID"].as_i64(), marking["Round"].as_i64()) else {
        return false;
    };
    let task = (question, result);
    lock(&load.ledger.rounds_taken).insert((task, me.user.clone()));
    let rows = me
        .get("marker: scores", &format!("Markings({id})/Scores"), &[200])
        .await
        .json();
    let mut total = 0;
    for row in rows["value"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let score = rand::rng().random_range(0..=2);
        total += score;
        let mut body = row.clone();
        body["Score"] = json!(score);
        let path = format!("MarkingScores(MarkingID={id},Order={})", row["Order"]);
        if !me
            .json("marker: score", Method::PUT, &path, &body, &[204])
            .await
            .is(204)
        {
            return false;
        }
    }
    let mut body = me
        .get("marker: read", &format!("Markings({id})"), &[200])
        .await
        .json();
    body["IsSubmitted"] = json!(true);
    body["Comments"] = json!(format!("round {number} by {}", me.user));
    let submitted = me
        .json(
            "marker: submit",
            Method::PUT,
            &format!("Markings({id})"),
            &body,
            &[204],
        )
        .await;
    if !submitted.is(204) {
        return false;
    }
    lock(&load.ledger.rounds_taken).remove(&(task, me.user.clone()));
    lock(&load.ledger.markings)
        .entry(task)
        .or_default()
        .push(Marked {
            round: number,
            marker: me.user.clone(),
            total,
        });
    true
}
