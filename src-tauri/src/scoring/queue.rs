//! The queue: open tasks (Status 0) whose question has a rubric, newest result
//! first, and per group how many of those there are and how many are Saved (Status
//! 2). A task whose question has no rubric cannot be scored (spec, "Subjective
//! scoring"): it is never offered, only counted apart as waiting for a rubric. The
//! moderation list is the same read of Saved tasks (Status 2).

use futures::future::join_all;
use scoredesk_server::model::scoring::TaskStatus;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::{int64_key, literal};
use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::task_filters::{scorable, status_is, HAS_RUBRIC};

/// How many open tasks the queue lists at once.
pub const QUEUE_LENGTH: &str = "100";

/// Which tasks a list shows.
#[derive(Debug, Default, Clone, Copy, Deserialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum QueueKind {
    /// Open tasks (Status 0), to score.
    #[default]
    Open,
    /// Saved tasks (Status 2), awaiting moderation.
    Saved,
}

#[derive(Debug, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QueueFilter {
    #[serde(default)]
    pub kind: QueueKind,
    #[ts(optional = nullable)]
    pub group: Option<String>,
    #[ts(optional = nullable)]
    pub assessment_id: Option<String>,
    #[ts(optional = nullable)]
    pub question_id: Option<String>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Queue {
    pub tasks: Vec<QueueTask>,
    /// How many tasks match a filter (`$inlinecount`); only asked when one is set, as
    /// the area's total is known from the connection status.
    pub matching: Option<i64>,
    /// The per-group counts; only with the open tasks.
    pub groups: Vec<GroupCounts>,
    /// Open tasks whose question has no rubric yet, and tasks being scored (Status
    /// 1), in the whole area; only with the open tasks.
    pub aside: Option<AsideCounts>,
    pub checked_at: String,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QueueTask {
    pub question_id: String,
    pub result_id: i32,
    pub assessment_id: Option<String>,
    pub group_name: Option<String>,
    pub finished_at: Option<String>,
    pub participant: Option<String>,
    pub question: Option<String>,
    /// The stored ScoringResult's overall score and comments (the moderation list).
    pub score: Option<i64>,
    pub comments: Option<String>,
    /// Who saved it (the moderation list's rows on screen; ScoringEvents, our extension).
    pub saved_by: Option<String>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct GroupCounts {
    pub name: String,
    /// Open tasks that can be scored (Status 0, the question has a rubric).
    pub to_score: i64,
    pub saved: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AsideCounts {
    /// Status 0, but the question has no rubric: scoring cannot proceed.
    pub waiting_for_rubric: i64,
    /// Status 1: claimed by a scorer.
    pub being_scored: i64,
}

impl QueueFilter {
    /// Whether a group, assessment or question narrows the list.
    pub fn is_narrowed(&self) -> bool {
        [&self.group, &self.assessment_id, &self.question_id]
            .iter()
            .any(|value| value.as_deref().is_some_and(|v| !v.is_empty()))
    }
}

/// The `$filter` of the queue for `filter`.
pub fn queue_filter(filter: &QueueFilter) -> Result<String, CommandError> {
    let mut terms = vec![match filter.kind {
        QueueKind::Open => scorable(),
        QueueKind::Saved => status_is(TaskStatus::Saved),
    }];
    if let Some(group) = filter.group.as_deref().filter(|g| !g.is_empty()) {
        terms.push(format!("Group/Name eq {}", literal(group)));
    }
    if let Some(id) = filter.assessment_id.as_deref().filter(|a| !a.is_empty()) {
        terms.push(format!(
            "Assessment/ID eq {}L",
            int64_key("Assessment", id)?
        ));
    }
    if let Some(id) = filter.question_id.as_deref().filter(|q| !q.is_empty()) {
        terms.push(format!("QuestionID eq {}L", int64_key("Question", id)?));
    }
    Ok(terms.join(" and "))
}

pub async fn load_queue(client: &ODataClient, filter: &QueueFilter) -> Result<Queue, CommandError> {
    let query = queue_filter(filter)?;
    let filtered = filter.is_narrowed();
    // A saved task's ScoringResult exists (saving wrote it), so expanding it shows
    // the score under review; expanding never creates one (spec, rule 2).
    let expand = match filter.kind {
        QueueKind::Open => "Result,Question",
        QueueKind::Saved => "Result,Question,ScoringResult",
    };
    let mut options = vec![
        ("$filter", query.as_str()),
        ("$orderby", "Result/WhenFinished desc"),
        ("$top", QUEUE_LENGTH),
        ("$expand", expand),
    ];
    if filtered {
        options.push(("$inlinecount", "allpages"));
    }
    let tasks = client.get_json("ScoringTasks", &options);
    let groups = async {
        match filter.kind {
            QueueKind::Open => group_counts(client).await,
            QueueKind::Saved => Ok(Vec::new()),
        }
    };
    let aside = async {
        match filter.kind {
            QueueKind::Open => aside_counts(client).await.map(Some),
            QueueKind::Saved => Ok(None),
        }
    };
    let (tasks, groups, aside) = futures::join!(tasks, groups, aside);
    let feed = tasks?;
    let mut tasks: Vec<QueueTask> = feed["value"]
        .as_array()
        .map(|tasks| tasks.iter().filter_map(queue_task).collect())
        .unwrap_or_default();
    if filter.kind == QueueKind::Saved {
        fill_saved_by(client, &mut tasks).await;
    }
    // OData v3 sends the count as a string.
    let matching = feed["odata.count"]
        .as_str()
        .and_then(|count| count.parse().ok());
    Ok(Queue {
        tasks,
        matching,
        groups: groups?,
        aside: aside?,
        checked_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    })
}

fn queue_task(task: &Value) -> Option<QueueTask> {
    let result = &task["Result"];
    let text = |value: &Value| value.as_str().map(str::to_owned);
    let participant = match (result["FirstName"].as_str(), result["LastName"].as_str()) {
        (Some(first), Some(last)) => Some(format!("{first} {last}")),
        _ => text(&result["ParticipantName"]),
    };
    Some(QueueTask {
        question_id: text(&task["QuestionID"])?,
        result_id: i32::try_from(task["ResultID"].as_i64()?).ok()?,
        assessment_id: text(&result["AssessmentID"]),
        group_name: text(&result["GroupName"]),
        finished_at: text(&result["WhenFinished"]),
        participant,
        question: text(&task["Question"]["Description"]),
        score: task["ScoringResult"][0]["Score"].as_i64(),
        comments: text(&task["ScoringResult"][0]["Comments"]),
        saved_by: None,
    })
}

/// How many rows of the moderation list show who saved them (the rows on screen).
const SAVED_BY_ROWS: usize = 12;

/// Fills in who saved each of the first rows: the latest change to Saved (2) of each
/// task, from ScoringEvents in one request. A server without the extension feed
/// (another implementation of the service) leaves the rows without a name.
async fn fill_saved_by(client: &ODataClient, tasks: &mut [QueueTask]) {
    let shown = tasks.len().min(SAVED_BY_ROWS);
    let rows = &mut tasks[..shown];
    if rows.is_empty() {
        return;
    }
    let keys: Vec<String> = rows
        .iter()
        .filter_map(|task| {
            let question = int64_key("Question", &task.question_id).ok()?;
            Some(format!(
                "(QuestionID eq {question}L and ResultID eq {})",
                task.result_id
            ))
        })
        .collect();
    let filter = format!(
        "Status eq {} and ({})",
        TaskStatus::Saved.code(),
        keys.join(" or ")
    );
    let Ok(events) = client
        .get_json(
            "ScoringEvents",
            &[("$filter", filter.as_str()), ("$orderby", "ID desc")],
        )
        .await
    else {
        return;
    };
    let events = events["value"].as_array().cloned().unwrap_or_default();
    for row in rows {
        // Newest first: the first event of the task is its latest save.
        row.saved_by = events
            .iter()
            .find(|event| {
                event["QuestionID"].as_str() == Some(row.question_id.as_str())
                    && event["ResultID"].as_i64() == Some(i64::from(row.result_id))
            })
            .and_then(|event| event["Account"].as_str().map(str::to_owned));
    }
}

/// Per group, `$count` of the tasks to score (see `scorable`) and of Saved (2)
/// tasks; the requests run side by side. (The spec's sample workflow counts Status 0
/// or 1 as unscored; the app counts what a scorer can take, as its header does.)
async fn group_counts(client: &ODataClient) -> Result<Vec<GroupCounts>, RequestFailure> {
    let groups = client
        .get_json("Groups", &[("$orderby", "Name"), ("$select", "Name")])
        .await?;
    let names: Vec<String> = groups["value"]
        .as_array()
        .map(|gs| {
            gs.iter()
                .filter_map(|g| g["Name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let counts = names.iter().map(|name| async move {
        let group = format!("Group/Name eq {}", literal(name));
        let to_score_filter = format!("{group} and {}", scorable());
        let saved_filter = format!("{group} and {}", status_is(TaskStatus::Saved));
        let to_score = client.count("ScoringTasks/$count", &to_score_filter);
        let saved = client.count("ScoringTasks/$count", &saved_filter);
        let (to_score, saved) = futures::join!(to_score, saved);
        Ok::<_, RequestFailure>(GroupCounts {
            name: name.clone(),
            to_score: to_score?,
            saved: saved?,
        })
    });
    join_all(counts).await.into_iter().collect()
}

/// The area's open tasks without a rubric, and its tasks being scored.
async fn aside_counts(client: &ODataClient) -> Result<AsideCounts, RequestFailure> {
    let waiting = format!("{} and not {HAS_RUBRIC}", status_is(TaskStatus::Unscored));
    let being_scored = status_is(TaskStatus::Locked);
    let (waiting, being_scored) = futures::join!(
        client.count("ScoringTasks/$count", &waiting),
        client.count("ScoringTasks/$count", &being_scored)
    );
    Ok(AsideCounts {
        waiting_for_rubric: waiting?,
        being_scored: being_scored?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_filter_combines_group_assessment_and_question() {
        let filter = QueueFilter {
            kind: QueueKind::Open,
            group: Some("Year 10 'B'".into()),
            assessment_id: Some("2185231530264478".into()),
            question_id: None,
        };
        assert_eq!(
            queue_filter(&filter).unwrap(),
            "Status eq 0 and Question/Rubric/any() and Group/Name eq 'Year 10 ''B''' and Assessment/ID eq 2185231530264478L"
        );
        assert!(filter.is_narrowed());
        assert_eq!(
            queue_filter(&QueueFilter::default()).unwrap(),
            "Status eq 0 and Question/Rubric/any()"
        );
        assert!(!QueueFilter::default().is_narrowed());
        let saved = QueueFilter {
            kind: QueueKind::Saved,
            question_id: Some("7".into()),
            ..QueueFilter::default()
        };
        assert_eq!(
            queue_filter(&saved).unwrap(),
            "Status eq 2 and QuestionID eq 7L"
        );
        let bad = QueueFilter {
            question_id: Some("1 or 1 eq 1".into()),
            ..QueueFilter::default()
        };
        assert!(queue_filter(&bad).is_err());
    }
}
