//! The end of the soak, for double marking: every marking the load submitted is
//! in the database as it submitted it and none it did not; no marker marked a
//! task twice; a task still waiting is at 2 for the right round; a decided one is
//! at 3 with the final mark the plan's rule gives (the mean of two markings
//! within the tolerance, rounded half up; otherwise the third marking's), which
//! its ScoringResult and its Result's total both carry.

use std::collections::{BTreeMap, BTreeSet};

use crate::checks::{check, Check};
use crate::database::{fetch_all, Database};
use crate::ledger::{lock, Ledger, Marked, Task};
use crate::setup::{World, MARKING_TOLERANCE};

/// (task, round, marker, total, submitted)
type MarkingRow = (i64, i64, i64, String, Option<i64>, i64);
/// (task, status, ScoringResult's score, Result's total)
type TaskRow = (i64, i64, i64, Option<i64>, Option<i64>);

/// The final mark of markings by round (their totals), or None while it waits.
fn final_mark(totals: &BTreeMap<i64, i64>) -> Option<i64> {
    if let Some(third) = totals.get(&3) {
        return Some(*third);
    }
    let (first, second) = (totals.get(&1)?, totals.get(&2)?);
    ((first - second).abs() <= MARKING_TOLERANCE).then_some((first + second + 1) / 2)
}

pub async fn double_marking(
    database: &Database,
    world: &World,
    ledger: &Ledger,
) -> anyhow::Result<Check> {
    let customer = world.customer;
    let markings = fetch_all!(
        database,
        &format!(
            "SELECT question_id, CAST(result_id AS BIGINT), CAST(round AS BIGINT), marked_by, \
             CAST(score AS BIGINT), CAST(CASE WHEN is_submitted THEN 1 ELSE 0 END AS BIGINT) \
             FROM markings WHERE customer_id = {customer}"
        ),
        MarkingRow
    )?;
    let waiting: BTreeMap<Task, i64> = fetch_all!(
        database,
        &format!(
            "SELECT question_id, CAST(result_id AS BIGINT), CAST(round AS BIGINT) \
             FROM marking_queue WHERE customer_id = {customer}"
        ),
        (i64, i64, i64)
    )?
    .into_iter()
    .map(|(question, result, round)| ((question, result), round))
    .collect();
    let tasks: BTreeMap<Task, (i64, Option<i64>, Option<i64>)> = fetch_all!(
        database,
        &format!(
            "SELECT t.question_id, CAST(t.result_id AS BIGINT), CAST(t.status AS BIGINT), \
             CAST(s.score AS BIGINT), CAST(r.total_score AS BIGINT) FROM scoring_tasks t \
             LEFT JOIN scoring_results s ON s.question_id = t.question_id AND s.result_id = t.result_id \
             LEFT JOIN results r ON r.id = t.result_id \
             WHERE t.customer_id = {customer} AND EXISTS (SELECT 1 FROM markings m \
             WHERE m.question_id = t.question_id AND m.result_id = t.result_id)"
        ),
        TaskRow
    )?
    .into_iter()
    .map(|(question, result, status, score, total)| ((question, result), (status, score, total)))
    .collect();

    let written = lock(&ledger.markings).clone();
    let taken = lock(&ledger.rounds_taken).clone();
    let mut problems = Vec::new();
    let mut submitted: BTreeMap<Task, Vec<Marked>> = BTreeMap::new();
    let mut open: BTreeSet<(Task, String)> = BTreeSet::new();
    let mut markers: BTreeMap<Task, Vec<String>> = BTreeMap::new();
    for (question, result, round, marker, total, is_submitted) in markings {
        let task = (question, result);
        markers.entry(task).or_default().push(marker.clone());
        if is_submitted == 1 {
            submitted.entry(task).or_default().push(Marked {
                round,
                marker,
                total: total.unwrap_or(-1),
            });
        } else {
            open.insert((task, marker));
        }
    }
    for (task, names) in &markers {
        let distinct: BTreeSet<&String> = names.iter().collect();
        if distinct.len() != names.len() {
            problems.push(format!(
                "{task:?} was marked twice by one marker: {names:?}"
            ));
        }
    }
    let sorted = |mut marks: Vec<Marked>| {
        marks.sort_by_key(|m| m.round);
        marks
    };
    let every: BTreeSet<&Task> = written.keys().chain(submitted.keys()).collect();
    for task in &every {
        let ours = sorted(written.get(*task).cloned().unwrap_or_default());
        let stored = sorted(submitted.get(*task).cloned().unwrap_or_default());
        if ours != stored {
            problems.push(format!(
                "{task:?}: the load submitted {ours:?}, the database holds {stored:?}"
            ));
        }
    }
    if open != taken {
        problems.push(format!(
            "rounds taken and not submitted: the load left {} ({:?}…), the database holds {} ({:?}…)",
            taken.len(),
            taken.iter().next(),
            open.len(),
            open.iter().next()
        ));
    }
    let (mut decided, mut by_third) = (0, 0);
    for (task, marks) in &submitted {
        let totals: BTreeMap<i64, i64> = marks.iter().map(|m| (m.round, m.total)).collect();
        let Some((status, score, total)) = tasks.get(task) else {
            problems.push(format!("{task:?} has markings but no task"));
            continue;
        };
        match (final_mark(&totals), waiting.get(task)) {
            (Some(mark), None) => {
                decided += 1;
                by_third += i64::from(totals.contains_key(&3));
                if (*status, *score, *total) != (3, Some(mark), Some(mark)) {
                    problems.push(format!(
                        "{task:?} decided at {mark} ({totals:?}): Status {status}, score {score:?}, \
                         total {total:?}"
                    ));
                }
            }
            (None, Some(round)) => {
                let next = totals.keys().max().map_or(1, |r| r + 1);
                if *status != 2 || *round != next {
                    problems.push(format!(
                        "{task:?} waits for round {round} at Status {status} after {totals:?}"
                    ));
                }
            }
            (mark, round) => problems.push(format!(
                "{task:?}: markings {totals:?} give {mark:?}, the queue says round {round:?}"
            )),
        }
    }
    Ok(check(
        "double marking: every marking as submitted, no marker twice, final marks by the rule",
        &problems,
        format!(
            "{} tasks double-marked, {decided} decided ({by_third} by a third marking), {} waiting, \
             {} takes lost to another marker",
            submitted.len(),
            waiting.len(),
            Ledger::count(&ledger.takes_lost)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_final_mark_is_the_mean_within_the_tolerance_or_the_third_marking() {
        let of = |pairs: &[(i64, i64)]| pairs.iter().copied().collect::<BTreeMap<_, _>>();
        assert_eq!(final_mark(&of(&[(1, 4), (2, 5)])), Some(5));
        assert_eq!(final_mark(&of(&[(1, 4), (2, 4)])), Some(4));
        assert_eq!(final_mark(&of(&[(1, 4), (2, 6)])), None);
        assert_eq!(final_mark(&of(&[(1, 4), (2, 6), (3, 1)])), Some(1));
        assert_eq!(final_mark(&of(&[(1, 4)])), None);
    }
}
