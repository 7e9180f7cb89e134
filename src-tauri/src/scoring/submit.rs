//! Saving (Status 2), submitting (Status 3) and releasing (Status 0) a task. A save or
//! submit is one `$batch` change set, applied all or nothing: the ScoringResult with
//! the ModifiedDateTime the scorer's version started from, then the DimensionScores,
//! then the task's status. A conflict is found before anything is sent (the stored
//! revision is compared first) and, for the window between that check and the write,
//! by the server's 412, which then takes back the whole change set: a scorer who
//! loses never leaves dimension scores behind.

use scoredesk_server::model::scoring::TaskStatus;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use super::{int64_key, scoring_result_path, task_path};
use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;

/// The scorer's version of a ScoringResult.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Draft {
    pub question_id: String,
    pub result_id: i32,
    pub rubric_id: i64,
    /// The ModifiedDateTime of the revision the draft started from, as read.
    pub modified: Value,
    pub score: Option<i64>,
    pub comments: Option<String>,
    pub dimensions: Vec<DimensionDraft>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DimensionDraft {
    pub order: i64,
    pub score: Option<i64>,
    pub comment: Option<String>,
}

#[derive(Debug, Serialize, TS)]
#[serde(tag = "outcome", rename_all = "camelCase")]
#[ts(export)]
pub enum SubmitOutcome {
    /// Written, and the task has its new status.
    Saved,
    /// Submitted, but the task's question has a double-marking plan that chose
    /// this script: the server kept the marks as its first marking and left the
    /// task Saved (2) for a second marker (docs/odata.md, "Double marking").
    KeptForSecondMarking,
    /// Someone else saved this ScoringResult since the draft was read; nothing of the
    /// draft was written. `stored` is the version now on the server, in draft form,
    /// with its own `modified`.
    Conflict { stored: Draft },
}

/// Writes the draft and sets the task to `status` (Saved or Scored).
pub async fn submit(
    client: &ODataClient,
    draft: &Draft,
    status: TaskStatus,
) -> Result<SubmitOutcome, CommandError> {
    if !matches!(status, TaskStatus::Saved | TaskStatus::Scored) {
        return Err(CommandError::InvalidInput(format!(
            "Status {status} is neither Saved (2) nor Scored (3)."
        )));
    }
    let question_id = int64_key("Question", &draft.question_id)?;
    let result_path = scoring_result_path(&question_id, draft.rubric_id, draft.result_id);
    let stored = stored_version(client, draft).await?;
    if stored.modified != draft.modified {
        return Ok(SubmitOutcome::Conflict { stored });
    }
    let mut writes = vec![(
        result_path,
        json!({
            "Score": draft.score,
            "Comments": draft.comments,
            "ModifiedDateTime": draft.modified,
        }),
    )];
    writes.extend(draft.dimensions.iter().map(|dimension| {
        (
            format!(
                "DimensionScores(QuestionID={question_id}L,RubricID={},ResultID={},Order={})",
                draft.rubric_id, draft.result_id, dimension.order
            ),
            json!({ "Score": dimension.score, "Comment": dimension.comment }),
        )
    }));
    writes.push((
        task_path(&question_id, draft.result_id),
        json!({ "Status": status.code() }),
    ));
    match client.change_set(&writes).await {
        Ok(()) if status == TaskStatus::Scored => kept_or_scored(client, &question_id, draft).await,
        Ok(()) => Ok(SubmitOutcome::Saved),
        Err(RequestFailure::Stale(_)) => Ok(SubmitOutcome::Conflict {
            stored: stored_version(client, draft).await?,
        }),
        Err(other) => Err(other.into()),
    }
}

/// After a submit the spec answers 204 either way: the task's status says whether
/// it was scored or kept for a second marking.
async fn kept_or_scored(
    client: &ODataClient,
    question_id: &str,
    draft: &Draft,
) -> Result<SubmitOutcome, CommandError> {
    let task = client
        .get_json(&task_path(question_id, draft.result_id), &[])
        .await?;
    Ok(match task["Status"].as_i64() {
        Some(code) if code == i64::from(TaskStatus::Saved.code()) => {
            SubmitOutcome::KeptForSecondMarking
        }
        _ => SubmitOutcome::Saved,
    })
}

/// Puts the task back in the queue (Status 0).
pub async fn release(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
) -> Result<(), CommandError> {
    let question_id = int64_key("Question", question_id)?;
    client
        .put(
            &task_path(&question_id, result_id),
            &json!({ "Status": TaskStatus::Unscored.code() }),
        )
        .await?;
    Ok(())
}

/// The ScoringResult and its DimensionScores as stored now, in draft form.
async fn stored_version(client: &ODataClient, draft: &Draft) -> Result<Draft, CommandError> {
    let question_id = int64_key("Question", &draft.question_id)?;
    let path = scoring_result_path(&question_id, draft.rubric_id, draft.result_id);
    let scores_path = format!("{path}/DimensionScores");
    let (result, scores) = futures::join!(
        client.get_json(&path, &[]),
        client.get_json(&scores_path, &[]),
    );
    let result = result?;
    let dimensions = scores?["value"]
        .as_array()
        .map(|scores| {
            scores
                .iter()
                .map(|s| DimensionDraft {
                    order: s["Order"].as_i64().unwrap_or_default(),
                    score: s["Score"].as_i64(),
                    comment: s["Comment"].as_str().map(str::to_owned),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Draft {
        question_id,
        result_id: draft.result_id,
        rubric_id: draft.rubric_id,
        modified: result["ModifiedDateTime"].clone(),
        score: result["Score"].as_i64(),
        comments: result["Comments"].as_str().map(str::to_owned),
        dimensions,
    })
}
