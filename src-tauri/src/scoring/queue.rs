//! The queue: open tasks (Status 0), newest result first, and per group the counts
//! of the spec's sample workflow: Unscored (Status 0 or 1) and Saved (Status 2).
//! The moderation list is the same read of Saved tasks (Status 2).

use futures::future::join_all;
use scoredesk_server::model::scoring::TaskStatus;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use super::{int64_key, literal};
use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;

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
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct GroupCounts {
    pub name: String,
    pub unscored: i64,
    pub saved: i64,
}

impl QueueFilter {
    /// Whether a group, assessment or question narrows the list.
    pub fn is_narrowed(&self) -> bool {
        [&self.group, &self.assessment_id, &self.question_id]
            .iter()
            .any(|value| value.as_deref().is_some_and(|v| !v.is_empty()))
    }
}

/// `Status eq <code>`.
fn status_is(status: TaskStatus) -> String {
    format!("Status eq {}", status.code())
}

/// The `$filter` of the queue for `filter`.
pub fn queue_filter(filter: &QueueFilter) -> Result<String, CommandError> {
    let status = match filter.kind {
        QueueKind::Open => TaskStatus::Unscored,
        QueueKind::Saved => TaskStatus::Saved,
    };
    let mut terms = vec![status_is(status)];
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
    let mut options = vec![
        ("$filter", query.as_str()),
        ("$orderby", "Result/WhenFinished desc"),
        ("$top", QUEUE_LENGTH),
        ("$expand", "Result,Question"),
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
    let (tasks, groups) = futures::join!(tasks, groups);
    let feed = tasks?;
    let tasks = feed["value"]
        .as_array()
        .map(|tasks| tasks.iter().filter_map(queue_task).collect())
        .unwrap_or_default();
    // OData v3 sends the count as a string.
    let matching = feed["odata.count"]
        .as_str()
        .and_then(|count| count.parse().ok());
    Ok(Queue {
        tasks,
        matching,
        groups: groups?,
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
    })
}

/// Per group, `$count` of Unscored (0 or 1) and Saved (2) tasks, as the spec's sample
/// workflow computes them; the requests run side by side.
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
        let unscored_filter = format!(
            "{group} and ({} or {})",
            status_is(TaskStatus::Unscored),
            status_is(TaskStatus::Locked)
        );
        let saved_filter = format!("{group} and {}", status_is(TaskStatus::Saved));
        let unscored = client.count("ScoringTasks/$count", &unscored_filter);
        let saved = client.count("ScoringTasks/$count", &saved_filter);
        let (unscored, saved) = futures::join!(unscored, saved);
        Ok::<_, RequestFailure>(GroupCounts {
            name: name.clone(),
            unscored: unscored?,
            saved: saved?,
        })
    });
    join_all(counts).await.into_iter().collect()
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
            "Status eq 0 and Group/Name eq 'Year 10 ''B''' and Assessment/ID eq 2185231530264478L"
        );
        assert!(filter.is_narrowed());
        assert_eq!(
            queue_filter(&QueueFilter::default()).unwrap(),
            "Status eq 0"
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
