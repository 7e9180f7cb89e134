//! `Flags`: a marker flags a script to the lead marker with a reason and a note
//! (POST to the collection); the task goes to 1 (Locked) and so leaves every
//! queue of Status 0, in the same transaction. Flags are never changed or
//! deleted by a client: a lead answers one through `FlagAnswers`.

use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{Feed, WriteRequest, Written};
use crate::model::flags::{check_flaggable, flag_note, FlagReason, FLAGGED};
use crate::model::scoring::TaskKey;
use crate::odata::edm::EdmType::{Boolean, DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{NewFlag, WriteScope};

/// A flag on a ScoringTask, open until a lead marker answers it.
pub static FLAGS: EntitySet = EntitySet {
    name: "Flags",
    type_name: "Flag",
    table: "flags",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        // unreadable, malpractice, off-rubric or second-look.
        prop("Reason", "reason", Str, false).max_length(NAME_LENGTH),
        prop("Note", "note", Str, false).max_length(FLAG_NOTE_LENGTH),
        prop("RaisedBy", "raised_by", Str, false),
        prop("RaisedDateTime", "raised_at", DateTime, false),
        prop("IsOpen", "is_open", Boolean, false),
    ],
    navigations: &[
        one(
            "ScoringTask",
            "ScoringTasks",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        one("Answer", "FlagAnswers", &[("id", "flag_id")], false),
    ],
    concurrency: None,
    filterable: &[
        "ID",
        "QuestionID",
        "ResultID",
        "Reason",
        "RaisedBy",
        "RaisedDateTime",
        "IsOpen",
    ],
    media: None,
    writes: CREATE_ONLY,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&FLAGS)
};

/// A new flag from `QuestionID`, `ResultID`, `Reason` and `Note` (optional). What
/// the server sets (`ID`, `RaisedBy`, `RaisedDateTime`, `IsOpen`) is ignored when
/// sent.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&FLAGS)?;
    let task = super::collection_only::task_named(&body, "Flag", "ScoringTask flagged")?;
    let TaskKey {
        question_id,
        result_id,
    } = task;
    let reason = match body.get("Reason") {
        Some(Value::String(text)) => FlagReason::parse(text).map_err(ApiError::BadRequest)?,
        _ => {
            return Err(ApiError::bad_request(
                "Flag.Reason is required: unreadable, malpractice, off-rubric or second-look",
            ))
        }
    };
    let note = flag_note(match body.get("Note") {
        Some(Value::String(note)) => Some(note.as_str()),
        _ => None,
    });
    let no_task = || {
        ApiError::bad_request(format!(
            "Flag names ScoringTasks(QuestionID={question_id}L,ResultID={result_id}), which is \
             not a ScoringTask of this customer area"
        ))
    };
    let tx = writes.tx().await?;
    if !tx.lock_result(request.area, result_id).await? {
        return Err(no_task());
    }
    // Another marker's seed copy is no task of this marker's.
    if tx
        .seed_copy_marker(request.area, result_id)
        .await?
        .is_some_and(|marker| marker != request.principal.username)
    {
        return Err(no_task());
    }
    let (status, open) = tx
        .task_for_flag(request.area, task)
        .await?
        .ok_or_else(no_task)?;
    if let Some(open) = open {
        return Err(ApiError::Conflict(format!(
            "the ScoringTask has an open flag already, Flags({open}): a lead marker answers it \
             before it is flagged again"
        )));
    }
    check_flaggable(status).map_err(ApiError::Conflict)?;
    super::double_marking::refuse_while_waiting(tx, request.area, task).await?;
    let raised_by = &request.principal.username;
    let id = tx
        .insert_flag(
            request.area,
            NewFlag {
                task,
                reason,
                note: &note,
                raised_by,
            },
        )
        .await?;
    tx.set_task_status(request.area, task, FLAGGED, raised_by)
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &FLAGS,
            key: Some(parse_key(&FLAGS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}
