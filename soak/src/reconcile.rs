//! The end of the soak: the database, read directly with the server stopped,
//! against the ledger of what the load wrote. A write the load saw succeed and
//! the database lacks is lost; one it has that the load never made, or made
//! once and finds twice, is doubled.

use std::collections::{BTreeMap, BTreeSet};

use crate::checks::{check, Check};
use crate::database::{fetch_all, Database};
use crate::ledger::{lock, Ledger, Scored, Task};
use crate::setup::World;

pub async fn run(
    database: &Database,
    world: &World,
    ledger: &Ledger,
) -> anyhow::Result<Vec<Check>> {
    Ok(vec![
        scoring(database, world, ledger).await?,
        totals(database, world, ledger).await?,
        uploads(database, world, ledger).await?,
        purges(database, world, ledger).await?,
        imports(database, ledger).await?,
        crate::reconcile_marking::double_marking(database, world, ledger).await?,
        crate::reconcile_seeds::seeds(database, world, ledger).await?,
        crate::reconcile_seeds::pauses(database, world, ledger).await?,
        crate::reconcile_seeds::counts(database, world).await?,
        integrity(database).await?,
    ])
}

/// Every task the load touched, and no other, has the status and ScoringResult
/// the load last wrote; a double-marked task is reconciled on its own
/// (reconcile_marking.rs).
async fn scoring(database: &Database, world: &World, ledger: &Ledger) -> anyhow::Result<Check> {
    let (customer, upload) = (world.customer, world.upload_assessment);
    let sql = format!(
        "SELECT t.question_id, CAST(t.result_id AS BIGINT), CAST(t.status AS BIGINT), \
         CAST(s.score AS BIGINT), s.comments FROM scoring_tasks t \
         LEFT JOIN scoring_results s ON s.question_id = t.question_id AND s.result_id = t.result_id \
         WHERE t.customer_id = {customer} AND t.status <> 0 \
         AND t.result_id NOT IN (SELECT id FROM results WHERE customer_id = {customer} AND assessment_id = {upload}) \
         AND NOT EXISTS (SELECT 1 FROM markings m WHERE m.question_id = t.question_id AND m.result_id = t.result_id)"
    );
    let rows = fetch_all!(database, &sql, (i64, i64, i64, Option<i64>, Option<String>))?;
    let scored = lock(&ledger.scored).clone();
    let claimed = lock(&ledger.claimed).clone();
    let mut problems = Vec::new();
    let mut seen: BTreeSet<Task> = BTreeSet::new();
    for (question, result, status, score, comment) in rows {
        let task = (question, result);
        seen.insert(task);
        match (status, scored.get(&task)) {
            (3, Some(expected)) => {
                let found = Scored {
                    score: score.unwrap_or(-1),
                    comment: comment.unwrap_or_default(),
                };
                if &found != expected {
                    problems.push(format!(
                        "{task:?} holds {found:?}, the load wrote {expected:?}"
                    ));
                }
            }
            (1, None) if claimed.contains(&task) => {}
            _ => problems.push(format!(
                "{task:?} has Status {status}, which the load did not leave"
            )),
        }
    }
    for task in scored.keys().chain(claimed.iter()) {
        if !seen.contains(task) {
            problems.push(format!("{task:?}: the load's write is missing"));
        }
    }
    Ok(check(
        "scoring: every task the load scored or claimed, as it left it",
        &problems,
        format!("{} scored, {} left claimed", scored.len(), claimed.len()),
    ))
}

/// A scored result's total is its one question's score, after every replay.
async fn totals(database: &Database, world: &World, ledger: &Ledger) -> anyhow::Result<Check> {
    let customer = world.customer;
    let sql = format!(
        "SELECT CAST(r.id AS BIGINT), CAST(r.total_score AS BIGINT) FROM results r \
         WHERE r.customer_id = {customer} AND r.id IN \
         (SELECT result_id FROM scoring_tasks WHERE customer_id = {customer} AND status = 3)"
    );
    let totals: BTreeMap<i64, i64> = fetch_all!(database, &sql, (i64, i64))?
        .into_iter()
        .collect();
    let scored = lock(&ledger.scored).clone();
    let mut problems = Vec::new();
    for ((_, result), expected) in &scored {
        match totals.get(result) {
            Some(total) if *total == expected.score => {}
            found => problems.push(format!(
                "result {result}: total {found:?}, scored {}",
                expected.score
            )),
        }
    }
    Ok(check(
        "results: each scored result's total equals its score",
        &problems,
        format!(
            "{} results, {} replays of 20",
            totals.len(),
            Ledger::count(&ledger.replays)
        ),
    ))
}

/// One result per accepted upload, with the total the key gives its choices;
/// none for a purged one, none the load did not upload.
async fn uploads(database: &Database, world: &World, ledger: &Ledger) -> anyhow::Result<Check> {
    let sql = format!(
        "SELECT CAST(attempt_id AS BIGINT), CAST(id AS BIGINT), CAST(total_score AS BIGINT) \
         FROM results WHERE customer_id = {} AND assessment_id = {}",
        world.customer, world.upload_assessment
    );
    let rows = fetch_all!(database, &sql, (Option<i64>, i64, i64))?;
    let uploads = lock(&ledger.uploads).clone();
    let purged = lock(&ledger.purged).clone();
    let mut problems = Vec::new();
    let mut found: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for (attempt, result, total) in rows {
        let Some(attempt) = attempt else {
            problems.push(format!("result {result} has no attempt"));
            continue;
        };
        if found.insert(attempt, (result, total)).is_some() {
            problems.push(format!("attempt {attempt} has two results"));
        }
    }
    for (attempt, upload) in &uploads {
        let stored = found.remove(attempt);
        if purged.contains(&upload.result) {
            if stored.is_some() {
                problems.push(format!(
                    "result {} was purged and is still there",
                    upload.result
                ));
            }
            continue;
        }
        match stored {
            Some((result, total)) if result == upload.result && total == upload.expected_total => {}
            other => problems.push(format!(
                "attempt {attempt}: stored {other:?}, uploaded result {} worth {}",
                upload.result, upload.expected_total
            )),
        }
    }
    for (attempt, (result, _)) in found {
        problems.push(format!(
            "result {result} of attempt {attempt}: the load never saw it accepted"
        ));
    }
    Ok(check(
        "uploads: one result per accepted upload, scored by the key",
        &problems,
        format!(
            "{} accepted, {} purged, {} broken files refused, {} second uploads refused",
            uploads.len(),
            purged.len(),
            Ledger::count(&ledger.refused_uploads),
            Ledger::count(&ledger.second_uploads)
        ),
    ))
}

/// Purged results left nothing behind, and the audit log closed every purge.
async fn purges(database: &Database, world: &World, ledger: &Ledger) -> anyhow::Result<Check> {
    let purged = lock(&ledger.purged).clone();
    let mut problems = Vec::new();
    if !purged.is_empty() {
        let list = purged
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        for table in ["answers", "scoring_tasks", "topic_scores"] {
            let left = database
                .count(&format!(
                    "SELECT COUNT(*) FROM {table} WHERE result_id IN ({list})"
                ))
                .await?;
            if left > 0 {
                problems.push(format!("{left} rows of {table} belong to purged results"));
            }
        }
    }
    let open = database
        .count(&format!(
            "SELECT COUNT(*) FROM results_audit_log WHERE customer_id = {} \
             AND (CAST(is_in_queue AS INTEGER) = 1 OR CAST(was_successful AS INTEGER) = 0)",
            world.customer
        ))
        .await?;
    if open > 0 {
        problems.push(format!("{open} audit log entries open or failed"));
    }
    Ok(check(
        "purges: nothing of a purged result left, every entry closed",
        &problems,
        format!("{} results purged", purged.len()),
    ))
}

async fn imports(database: &Database, ledger: &Ledger) -> anyhow::Result<Check> {
    let imports = lock(&ledger.imports).clone();
    let mut problems = Vec::new();
    for (area, created) in &imports {
        let stored = database
            .count(&format!(
                "SELECT COUNT(*) FROM questions WHERE customer_id = {area}"
            ))
            .await?;
        if stored != *created as i64 {
            problems.push(format!(
                "area {area}: {stored} questions, the import created {created}"
            ));
        }
    }
    Ok(check(
        "imports: each area holds the questions its import reported",
        &problems,
        format!("{} imports", imports.len()),
    ))
}

async fn integrity(database: &Database) -> anyhow::Result<Check> {
    let verdict = database.integrity().await?;
    let problems = if verdict == "ok" {
        Vec::new()
    } else {
        vec![verdict.clone()]
    };
    Ok(check("integrity_check", &problems, verdict))
}
