//! The participant's other answers beside the one in the scoring view
//! (`reading::other_answers`), with the UI's question key checked first.

use super::int64_key;
use crate::client::ODataClient;
use crate::error::CommandError;
use crate::reading::{self, AnswerView, OtherAnswer, PreparedScans};

/// The result's other tasks than `question_id`'s.
pub async fn other_answers(
    client: &ODataClient,
    question_id: &str,
    result_id: i32,
) -> Result<Vec<OtherAnswer>, CommandError> {
    let question = int64_key("Question", question_id)?;
    reading::other_answers(client, &question, result_id).await
}

/// One of them, to read.
pub async fn other_answer(
    client: &ODataClient,
    scans: &PreparedScans,
    question_id: &str,
    result_id: i32,
) -> Result<AnswerView, CommandError> {
    let question = int64_key("Question", question_id)?;
    reading::other_answer(client, scans, &question, result_id).await
}
