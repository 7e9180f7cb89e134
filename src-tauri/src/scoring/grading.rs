//! Grade by question: the questions that still have tasks to score, each with its
//! progress ("12 of 65 done"), so that a scorer can mark one question across every
//! script before moving to the next (as Gradescope and Crowdmark do).
//!
//! Everything is read through the spec's feeds: the questions with a rubric
//! (`Questions?$filter=Rubric/any()`), then three `$count`s per question. OData v3
//! has no grouped count, so a picker over many questions sends its counts a few at
//! a time rather than all at once.

use futures::stream::{self, StreamExt, TryStreamExt};
use scoredesk_server::model::scoring::TaskStatus;
use serde::Serialize;
use ts_rs::TS;

use super::int64_key;
use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;
use crate::reading::{question_name, questions_with_rubric};
use crate::task_filters::scorable;

/// How many questions' counts are asked at once.
const COUNTS_AT_ONCE: usize = 6;

/// Where one question stands.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QuestionProgress {
    pub question_id: String,
    pub name: String,
    /// Tasks a scorer can take now (Status 0; the question has a rubric).
    pub to_score: i64,
    /// Tasks with a score: Saved (2) or Scored (3).
    pub done: i64,
    /// Every task of the question, whatever its status.
    pub total: i64,
}

/// The questions with a rubric and at least one task to score, by name.
pub async fn questions_to_grade(
    client: &ODataClient,
) -> Result<Vec<QuestionProgress>, CommandError> {
    let named = questions_with_rubric(client).await?;
    let mut questions: Vec<QuestionProgress> = stream::iter(named)
        .map(|(id, name)| progress_of(client, id, name))
        .buffer_unordered(COUNTS_AT_ONCE)
        .try_filter(|question| futures::future::ready(question.to_score > 0))
        .try_collect()
        .await?;
    questions.sort_by(|a, b| {
        a.name
            .cmp(&b.name)
            .then_with(|| a.question_id.cmp(&b.question_id))
    });
    Ok(questions)
}

/// Where the question `question_id` stands.
pub async fn question_progress(
    client: &ODataClient,
    question_id: &str,
) -> Result<QuestionProgress, CommandError> {
    let id = int64_key("Question", question_id)?;
    let question = client
        .get_json(
            &format!("Questions({id}L)"),
            &[("$select", "QuestionID,Description")],
        )
        .await?;
    let name = question_name(&id, &question);
    Ok(progress_of(client, id, name).await?)
}

async fn progress_of(
    client: &ODataClient,
    id: String,
    name: String,
) -> Result<QuestionProgress, RequestFailure> {
    let question = format!("QuestionID eq {id}L");
    let to_score = format!("{question} and {}", scorable());
    let done = format!(
        "{question} and (Status eq {} or Status eq {})",
        TaskStatus::Saved.code(),
        TaskStatus::Scored.code()
    );
    let (to_score, done, total) = futures::join!(
        client.count("ScoringTasks/$count", &to_score),
        client.count("ScoringTasks/$count", &done),
        client.count("ScoringTasks/$count", &question),
    );
    Ok(QuestionProgress {
        question_id: id,
        name,
        to_score: to_score?,
        done: done?,
        total: total?,
    })
}
