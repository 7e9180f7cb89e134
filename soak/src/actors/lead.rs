//! The lead marker: before the load, makes check scripts (seeds) of each scale
//! question, marking scripts of the seed group in full and `POST Seeds`; during
//! it, every minute, releases each marker his check scripts paused
//! (`MarkerPauses` open, `POST MarkerReleases` with a note), as a lead does
//! after talking the mark scheme over with him.

use std::sync::Arc;

use anyhow::Context;
use reqwest::Method;
use serde_json::{json, Value};

use super::Load;
use crate::client::Person;
use crate::ledger::{lock, Ledger, Scored, Task};
use crate::setup::{SEEDS_PER_QUESTION, SEED_GROUP};

/// The comment of every seed's ScoringResult.
const DEFINITIVE: &str = "definitive";

/// Seeds of every question in `questions`, each made of a script of the seed
/// group the lead scores at random in full; by task, their definitive totals.
pub async fn make_seeds(lead: &Person, questions: &[Value]) -> anyhow::Result<Vec<(Task, i64)>> {
    let mut seeds = Vec::new();
    for question in questions {
        let question: i64 = question["QuestionID"]
            .as_str()
            .and_then(|q| q.parse().ok())
            .context("a question's ID")?;
        let open = lead
            .get(
                "lead: scripts",
                &format!(
                    "ScoringTasks?$filter=Status eq 0 and QuestionID eq {question}L and Group/Name eq '{SEED_GROUP}'&$top={SEEDS_PER_QUESTION}"
                ),
                &[200],
            )
            .await
            .json();
        for task in open["value"]
            .as_array()
            .context("the seed group's scripts")?
        {
            let result = task["ResultID"].as_i64().context("a script's ResultID")?;
            let total = mark_in_full(lead, question, result).await?;
            lead.json(
                "lead: seed",
                Method::POST,
                "Seeds",
                &json!({"QuestionID": question.to_string(), "ResultID": result, "Reasons": "A script marked by the lead for standardisation."}),
                &[201],
            )
            .await
            .is(201)
            .then_some(())
            .context("a seed refused")?;
            seeds.push(((question, result), total));
        }
    }
    Ok(seeds)
}

/// Scores each dimension of the task and sets it to 3; its total.
async fn mark_in_full(lead: &Person, question: i64, result: i64) -> anyhow::Result<i64> {
    let task = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
    lead.json(
        "lead: claim",
        Method::PUT,
        &task,
        &json!({"Status": 1}),
        &[204],
    )
    .await;
    let followed = lead
        .get("lead: follow", &format!("{task}/ScoringResult"), &[200])
        .await
        .json();
    let rubric = followed["value"][0]["RubricID"]
        .as_i64()
        .context("the script's rubric")?;
    let scored =
        format!("ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})");
    let routes = ("lead: dimensions", "lead: dimension");
    let total =
        super::scorer::score_dimensions(lead, routes, (question, rubric, result), DEFINITIVE)
            .await
            .context("a definitive mark refused")?;
    lead.json(
        "lead: save",
        Method::PUT,
        &scored,
        &json!({"Score": total, "Comments": DEFINITIVE, "ModifiedDateTime": followed["value"][0]["ModifiedDateTime"]}),
        &[204],
    )
    .await;
    lead.json(
        "lead: finish",
        Method::PUT,
        &task,
        &json!({"Status": 3}),
        &[204],
    )
    .await;
    Ok(total)
}

/// Every minute, releases every open pause.
pub async fn run(load: Arc<Load>, me: Person) {
    while !load.stopping() {
        load.pause(60_000, 60_000).await;
        if load.stopping() {
            break;
        }
        let open = me
            .get(
                "lead: pauses",
                "MarkerPauses?$filter=IsOpen eq true&$top=100",
                &[200],
            )
            .await
            .json();
        for pause in open["value"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let Some(id) = pause["ID"].as_i64() else {
                continue;
            };
            let released = me
                .json(
                    "lead: release",
                    Method::POST,
                    "MarkerReleases",
                    &json!({"PauseID": id, "Note": "We went through the mark scheme together."}),
                    &[201],
                )
                .await;
            if released.is(201) {
                Ledger::add(&load.ledger.releases);
            }
        }
    }
}

/// The seeds' sources in the ledger: the lead scored them, as the load did.
pub fn record(ledger: &Ledger, seeds: &[(Task, i64)]) {
    for (task, total) in seeds {
        lock(&ledger.seeds).insert(*task, *total);
        lock(&ledger.scored).insert(
            *task,
            Scored {
                score: *total,
                comment: DEFINITIVE.to_owned(),
            },
        );
    }
}
