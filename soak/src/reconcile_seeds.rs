//! The end of the soak, for check scripts (seeds) and the pauses they cause:
//! the lead's seeds are all there; every copy was served to a scorer, once per
//! seed, is his alone (its result and task say so) and was never double-marked;
//! every copy the load scored is recorded with his total, and its deviation is
//! that total less the definitive one; no marker took or scored a task of a
//! question while a pause kept him from it; and the kept counts of tasks leave
//! every copy out, so they equal the real tasks by status.

use std::collections::{BTreeMap, BTreeSet};

use crate::checks::{check, Check};
use crate::database::{fetch_all, Database};
use crate::ledger::{lock, Ledger, Task};
use crate::setup::World;

/// (copy, seed, marker, copy's result's seed_for, task's seed_for, marked?,
/// score, deviation, definitive, scoring result's score, double-marked?)
type CopyRow = (
    i64,
    i64,
    String,
    Option<String>,
    Option<String>,
    i64,
    Option<i64>,
    Option<i64>,
    i64,
    Option<i64>,
    i64,
);

pub async fn seeds(database: &Database, world: &World, ledger: &Ledger) -> anyhow::Result<Check> {
    let customer = world.customer;
    let mut problems = Vec::new();
    let made: BTreeMap<Task, i64> = fetch_all!(
        database,
        &format!(
            "SELECT question_id, CAST(result_id AS BIGINT), CAST(score AS BIGINT) FROM seeds \
             WHERE customer_id = {customer}"
        ),
        (i64, i64, i64)
    )?
    .into_iter()
    .map(|(question, result, score)| ((question, result), score))
    .collect();
    let ours = lock(&ledger.seeds).clone();
    if made != ours {
        problems.push(format!(
            "the lead made {ours:?}, the database holds {made:?}"
        ));
    }
    let copies = fetch_all!(
        database,
        &format!(
            "SELECT CAST(c.result_id AS BIGINT), CAST(c.seed_id AS BIGINT), c.marker, r.seed_for, \
             t.seed_for, CAST(CASE WHEN c.marked_at IS NULL THEN 0 ELSE 1 END AS BIGINT), \
             CAST(c.score AS BIGINT), CAST(c.deviation AS BIGINT), CAST(s.score AS BIGINT), \
             CAST(sr.score AS BIGINT), CAST(CASE WHEN EXISTS (SELECT 1 FROM markings m \
             WHERE m.question_id = c.question_id AND m.result_id = c.result_id) THEN 1 ELSE 0 END AS BIGINT) \
             FROM seed_copies c JOIN seeds s ON s.id = c.seed_id \
             LEFT JOIN results r ON r.id = c.result_id \
             LEFT JOIN scoring_tasks t ON t.question_id = c.question_id AND t.result_id = c.result_id \
             LEFT JOIN scoring_results sr ON sr.question_id = c.question_id AND sr.result_id = c.result_id \
             WHERE c.customer_id = {customer}"
        ),
        CopyRow
    )?;
    let scored_by_load = lock(&ledger.copies_scored).clone();
    let mut served: BTreeSet<(i64, String)> = BTreeSet::new();
    let mut marked: BTreeMap<i64, (String, i64)> = BTreeMap::new();
    for (
        copy,
        seed,
        marker,
        result_for,
        task_for,
        is_marked,
        score,
        deviation,
        definitive,
        result_score,
        doubled,
    ) in &copies
    {
        if !marker.starts_with("soak-scorer-") {
            problems.push(format!(
                "copy {copy} was served to {marker}, who is no scorer"
            ));
        }
        if !served.insert((*seed, marker.clone())) {
            problems.push(format!("seed {seed} was served to {marker} twice"));
        }
        if result_for.as_ref() != Some(marker) || task_for.as_ref() != Some(marker) {
            problems.push(format!(
                "copy {copy} of {marker}: its result is for {result_for:?}, its task for {task_for:?}"
            ));
        }
        if *doubled == 1 {
            problems.push(format!("copy {copy} was chosen for double marking"));
        }
        if *is_marked == 1 {
            let total = score.unwrap_or(-1);
            if *result_score != Some(total) || *deviation != Some(total - definitive) {
                problems.push(format!(
                    "copy {copy}: recorded {score:?} ({deviation:?} from {definitive}), its ScoringResult {result_score:?}"
                ));
            }
            marked.insert(*copy, (marker.clone(), total));
        }
    }
    if marked != scored_by_load {
        problems.push(format!(
            "copies scored: the load scored {} ({:?}…), the database records {} ({:?}…)",
            scored_by_load.len(),
            scored_by_load.iter().next(),
            marked.len(),
            marked.iter().next()
        ));
    }
    Ok(check(
        "seeds: made, served once per marker, his alone, never double-marked, recorded as scored",
        &problems,
        format!(
            "{} seeds, {} copies served, {} scored; {} saves of another's copy, each 404",
            made.len(),
            copies.len(),
            marked.len(),
            Ledger::count(&ledger.copy_saves_hidden)
        ),
    ))
}

/// (marker, question, paused at, released at)
type PauseRow = (String, i64, i64, Option<i64>);

pub async fn pauses(database: &Database, world: &World, ledger: &Ledger) -> anyhow::Result<Check> {
    let customer = world.customer;
    let pauses = fetch_all!(
        database,
        &format!(
            "SELECT p.marker, p.question_id, CAST(p.paused_at AS BIGINT), CAST(r.released_at AS BIGINT) \
             FROM marker_pauses p LEFT JOIN marker_releases r ON r.pause_id = p.id \
             WHERE p.customer_id = {customer}"
        ),
        PauseRow
    )?;
    let mut problems = Vec::new();
    for (marker, question, paused, released) in &pauses {
        let until = released.map_or(String::new(), |at| format!("AND at < {at}"));
        let taken = database
            .count(&format!(
                "SELECT COUNT(*) FROM scoring_events WHERE customer_id = {customer} \
                 AND account = '{marker}' AND question_id = {question} AND status <> 0 \
                 AND at > {paused} {until}"
            ))
            .await?;
        let started = database
            .count(&format!(
                "SELECT COUNT(*) FROM markings WHERE customer_id = {customer} \
                 AND marked_by = '{marker}' AND question_id = {question} \
                 AND started_at > {paused} {}",
                released.map_or(String::new(), |at| format!("AND started_at < {at}"))
            ))
            .await?;
        if taken + started > 0 {
            problems.push(format!(
                "{marker}, paused from {question} at {paused} until {released:?}: {taken} tasks taken or \
                 scored, {started} rounds taken meanwhile"
            ));
        }
    }
    let released = pauses.iter().filter(|p| p.3.is_some()).count() as u64;
    if released != Ledger::count(&ledger.releases) {
        problems.push(format!(
            "the lead released {}, the database holds {released} releases",
            Ledger::count(&ledger.releases)
        ));
    }
    Ok(check(
        "pauses: no task or round of the question taken while paused; every release kept",
        &problems,
        format!(
            "{} pauses, {released} released, {} takes refused while paused",
            pauses.len(),
            Ledger::count(&ledger.refused_paused)
        ),
    ))
}

/// The kept counts (what `$count` and progress read) against the real tasks.
pub async fn counts(database: &Database, world: &World) -> anyhow::Result<Check> {
    let customer = world.customer;
    let kept: BTreeMap<i64, i64> = fetch_all!(
        database,
        &format!(
            "SELECT CAST(status AS BIGINT), CAST(SUM(tasks) AS BIGINT) FROM scoring_task_counts \
             WHERE customer_id = {customer} GROUP BY status"
        ),
        (i64, i64)
    )?
    .into_iter()
    .filter(|(_, tasks)| *tasks != 0)
    .collect();
    let real: BTreeMap<i64, i64> = fetch_all!(
        database,
        &format!(
            "SELECT CAST(status AS BIGINT), CAST(COUNT(*) AS BIGINT) FROM scoring_tasks \
             WHERE customer_id = {customer} AND seed_for IS NULL GROUP BY status"
        ),
        (i64, i64)
    )?
    .into_iter()
    .collect();
    let problems = if kept == real {
        Vec::new()
    } else {
        vec![format!("kept {kept:?}, real tasks {real:?}")]
    };
    Ok(check(
        "counts: the kept task counts equal the real tasks by status, copies left out",
        &problems,
        format!("{real:?}"),
    ))
}
