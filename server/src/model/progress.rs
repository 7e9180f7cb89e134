//! How far the marking of an assessment has got (issue 34, docs/odata.md
//! "ScoringProgress"): its scoring tasks counted by status for the whole assessment, per
//! question, per group and per scorer, with the pace of the last hours. Pure
//! arithmetic over counts the store gathers.

use std::collections::BTreeMap;

/// The hours the pace covers, the latest first.
pub const PACE_HOURS: usize = 8;
const HOUR: i64 = 3_600_000;

/// Tasks of one question and group in one status.
#[derive(Debug, Clone)]
pub struct TaskCount {
    pub question_id: i64,
    pub group_id: Option<i32>,
    pub status: i32,
    pub count: i64,
}

/// Tasks of one question and group in one status whose last change was this
/// scorer's (a task is being scored, saved or scored by whoever moved it there).
#[derive(Debug, Clone)]
pub struct HeldCount {
    pub question_id: i64,
    pub group_id: Option<i32>,
    pub status: i32,
    pub account: String,
    pub count: i64,
}

/// A task finished (set to Status 3) within the pace's hours.
#[derive(Debug, Clone)]
pub struct Finished {
    pub question_id: i64,
    pub group_id: Option<i32>,
    pub account: String,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum By {
    Assessment,
    Question,
    Group,
    Scorer,
}

impl By {
    pub fn as_str(self) -> &'static str {
        match self {
            By::Assessment => "Assessment",
            By::Question => "Question",
            By::Group => "Group",
            By::Scorer => "Scorer",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressRow {
    pub by: By,
    /// The question's ID, the group's ID, the scorer's account; empty for the
    /// assessment (and for results with no group).
    pub key: String,
    pub open: i64,
    pub being_scored: i64,
    pub saved: i64,
    pub scored: i64,
    /// Tasks finished in each of the last [`PACE_HOURS`] hours, the latest first.
    pub pace: Vec<i64>,
}

impl ProgressRow {
    fn new(by: By, key: String) -> Self {
        ProgressRow {
            by,
            key,
            open: 0,
            being_scored: 0,
            saved: 0,
            scored: 0,
            pace: vec![0; PACE_HOURS],
        }
    }

    fn add(&mut self, status: i32, count: i64) {
        match status {
            0 => self.open += count,
            1 => self.being_scored += count,
            2 => self.saved += count,
            _ => self.scored += count,
        }
    }
}

fn group_key(group: Option<i32>) -> String {
    group.map(|g| g.to_string()).unwrap_or_default()
}

/// The rows: the assessment first, then its questions, groups and scorers, each
/// in key order. Scorers count only the tasks whose last change has a recorded
/// scorer (ScoringEvents); open tasks belong to no scorer.
pub fn progress(
    counts: &[TaskCount],
    held: &[HeldCount],
    finished: &[Finished],
    now: i64,
) -> Vec<ProgressRow> {
    let mut table: BTreeMap<(By, String), ProgressRow> = BTreeMap::new();
    fn entry(
        table: &mut BTreeMap<(By, String), ProgressRow>,
        by: By,
        key: String,
    ) -> &mut ProgressRow {
        table
            .entry((by, key.clone()))
            .or_insert_with(|| ProgressRow::new(by, key))
    }
    entry(&mut table, By::Assessment, String::new());
    for c in counts {
        entry(&mut table, By::Assessment, String::new()).add(c.status, c.count);
        entry(&mut table, By::Question, c.question_id.to_string()).add(c.status, c.count);
        entry(&mut table, By::Group, group_key(c.group_id)).add(c.status, c.count);
    }
    for h in held {
        entry(&mut table, By::Scorer, h.account.clone()).add(h.status, h.count);
    }
    for f in finished {
        let hour = (now - f.at).div_euclid(HOUR);
        let Ok(hour) = usize::try_from(hour) else {
            continue;
        };
        if hour >= PACE_HOURS {
            continue;
        }
        entry(&mut table, By::Assessment, String::new()).pace[hour] += 1;
        entry(&mut table, By::Question, f.question_id.to_string()).pace[hour] += 1;
        entry(&mut table, By::Group, group_key(f.group_id)).pace[hour] += 1;
        entry(&mut table, By::Scorer, f.account.clone()).pace[hour] += 1;
    }
    table.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_are_counted_by_status_for_each_view_and_the_pace_by_hour() {
        let now = 100 * HOUR;
        let counts = [
            TaskCount {
                question_id: 7,
                group_id: Some(1),
                status: 0,
                count: 5,
            },
            TaskCount {
                question_id: 7,
                group_id: Some(2),
                status: 3,
                count: 2,
            },
            TaskCount {
                question_id: 8,
                group_id: None,
                status: 1,
                count: 1,
            },
        ];
        let held = [HeldCount {
            question_id: 7,
            group_id: Some(2),
            status: 3,
            account: "ann".into(),
            count: 2,
        }];
        let finished = [
            Finished {
                question_id: 7,
                group_id: Some(2),
                account: "ann".into(),
                at: now - 10,
            },
            Finished {
                question_id: 7,
                group_id: Some(2),
                account: "ann".into(),
                at: now - HOUR - 10,
            },
            // Older than the pace's hours, and (a clock ahead) in the future.
            Finished {
                question_id: 7,
                group_id: Some(2),
                account: "ann".into(),
                at: now - 9 * HOUR,
            },
            Finished {
                question_id: 7,
                group_id: Some(2),
                account: "ann".into(),
                at: now + 10,
            },
        ];
        let rows = progress(&counts, &held, &finished, now);
        let find = |by: By, key: &str| rows.iter().find(|r| r.by == by && r.key == key).unwrap();
        let all = find(By::Assessment, "");
        assert_eq!(
            (all.open, all.being_scored, all.saved, all.scored),
            (5, 1, 0, 2)
        );
        assert_eq!(all.pace[..2], [1, 1]);
        assert_eq!(all.pace.iter().sum::<i64>(), 2);
        assert_eq!(find(By::Question, "7").open, 5);
        assert_eq!(find(By::Group, "").being_scored, 1, "no group");
        let ann = find(By::Scorer, "ann");
        assert_eq!((ann.open, ann.scored), (0, 2));
        assert_eq!(rows[0].by, By::Assessment);
    }

    #[test]
    fn an_assessment_without_tasks_has_one_empty_row() {
        let rows = progress(&[], &[], &[], 0);
        assert_eq!(rows, vec![ProgressRow::new(By::Assessment, String::new())]);
    }
}
