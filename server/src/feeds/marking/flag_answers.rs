//! `FlagAnswers`: a lead marker answers a flag once (POST to the collection),
//! with a note and an outcome: `released` puts the task back to 0, `taken-over`
//! leaves it locked for the lead to mark. The flag closes in the same
//! transaction; answers are never changed or deleted.

use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{Feed, WriteRequest, Written};
use crate::model::flags::{answer_note, FlagOutcome};
use crate::odata::edm::EdmType::{DateTime, Int32, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{NewFlagAnswer, WriteScope};

/// The answer to a flag, keyed by the flag's ID.
pub static FLAG_ANSWERS: EntitySet = EntitySet {
    name: "FlagAnswers",
    type_name: "FlagAnswer",
    table: "flag_answers",
    key: &["FlagID"],
    properties: &[
        prop("FlagID", "flag_id", Int32, false),
        // released or taken-over.
        prop("Outcome", "outcome", Str, false).max_length(NAME_LENGTH),
        prop("Note", "note", Str, false).max_length(FLAG_NOTE_LENGTH),
        prop("AnsweredBy", "answered_by", Str, false),
        prop("AnsweredDateTime", "answered_at", DateTime, false),
    ],
    navigations: &[one("Flag", "Flags", &[("flag_id", "id")], true)],
    concurrency: None,
    filterable: &["FlagID", "Outcome", "AnsweredBy", "AnsweredDateTime"],
    media: None,
    writes: CREATE_ONLY,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&FLAG_ANSWERS)
};

/// An answer from `FlagID`, `Outcome` and `Note`; `AnsweredBy` and the time are
/// the server's.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&FLAG_ANSWERS)?;
    let flag_id = match body.get("FlagID") {
        Some(Value::Int32(id)) => *id,
        _ => {
            return Err(ApiError::bad_request(
                "FlagAnswer.FlagID is required: the ID of the flag answered",
            ))
        }
    };
    let outcome = match body.get("Outcome") {
        Some(Value::String(text)) => FlagOutcome::parse(text).map_err(ApiError::BadRequest)?,
        _ => {
            return Err(ApiError::bad_request(
                "FlagAnswer.Outcome is required: released or taken-over",
            ))
        }
    };
    let note = answer_note(match body.get("Note") {
        Some(Value::String(note)) => Some(note.as_str()),
        _ => None,
    })
    .map_err(ApiError::BadRequest)?;
    let no_flag = || {
        ApiError::bad_request(format!(
            "FlagAnswer.FlagID is {flag_id}, which is not a flag of this customer area"
        ))
    };
    let flag = request
        .state
        .store
        .flag(request.area, flag_id)
        .await?
        .ok_or_else(no_flag)?;
    let answered = || {
        ApiError::Conflict(format!(
            "Flags({flag_id}) is answered already: a flag has one answer, FlagAnswers({flag_id})"
        ))
    };
    if !flag.is_open {
        return Err(answered());
    }
    let tx = writes.tx().await?;
    if !tx.lock_result(request.area, flag.task.result_id).await? {
        return Err(no_flag());
    }
    let answered_by = &request.principal.username;
    let answer = NewFlagAnswer {
        flag: &flag,
        outcome,
        note: &note,
        answered_by,
    };
    if !tx.answer_flag(request.area, answer).await? {
        return Err(answered());
    }
    if let Some((status, _)) = tx.task_for_flag(request.area, flag.task).await? {
        if let Some(next) = outcome.task_status_after(status) {
            tx.set_task_status(request.area, flag.task, next, answered_by)
                .await?;
        }
    }
    Ok(Written::Created {
        path: EntityPath {
            set: &FLAG_ANSWERS,
            key: Some(parse_key(&FLAG_ANSWERS, &flag_id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: flag_id.to_string(),
    })
}
