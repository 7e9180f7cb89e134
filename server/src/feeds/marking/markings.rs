//! `Markings`: each marker's marking of a double-marked task, one per round
//! (docs/marking-quality.md, "Double-blind second marking"). A marker takes the
//! round a task waits in by POST (`QuestionID`, `ResultID`), scores its
//! `MarkingScores`, and submits it by PUT with `IsSubmitted` true; the submission
//! of round 2 or 3 decides the final mark by the plan's rule or sends the task on
//! to a resolution. A scorer reads only his own markings (`rows_seen`), in every
//! URL form: the blindness of double marking.

use crate::auth::Principal;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::marking_rounds::{check_may_take, complete_marks, reads_only_own_markings};
use crate::model::scoring::{TaskKey, TaskStatus};
use crate::model::second_marking::{decide, Decision};
use crate::odata::edm::EdmType::{Boolean, DateTime, Int32, Int64, String as Str};
use crate::odata::etag;
use crate::odata::model::{many, one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::Constraint;
use crate::store::{Tx, WriteScope};

pub static MARKINGS: EntitySet = EntitySet {
    name: "Markings",
    type_name: "Marking",
    table: "markings",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        // 1 the first marking, 2 the second, 3 the resolution.
        prop("Round", "round", Int32, false),
        prop("RubricID", "rubric_id", Int32, false),
        prop("MarkedBy", "marked_by", Str, false),
        // The sum of its MarkingScores, once submitted.
        prop("Score", "score", Int32, true),
        prop("Comments", "comments", Str, true).max_length(COMMENTS_LENGTH),
        prop("IsSubmitted", "is_submitted", Boolean, false),
        prop("StartedDateTime", "started_at", DateTime, false),
        prop("SubmittedDateTime", "submitted_at", DateTime, true),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[
        one(
            "ScoringTask",
            "ScoringTasks",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        many("Scores", "MarkingScores", &[("id", "marking_id")]),
    ],
    concurrency: Some("ModifiedDateTime"),
    filterable: &[
        "ID",
        "QuestionID",
        "ResultID",
        "Round",
        "MarkedBy",
        "Score",
        "IsSubmitted",
        "SubmittedDateTime",
    ],
    media: None,
    writes: CREATE_PUT_DELETE,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    put: Some(write_handler!(put)),
    delete: Some(write_handler!(delete)),
    rows_seen: Some(own_markings),
    ..Feed::read_only(&MARKINGS)
};

/// A scorer's markings are his own; a lead's and an administrator's, all.
fn own_markings(principal: &Principal) -> Vec<Constraint> {
    own_rows(&MARKINGS, principal)
}

/// Rows of `set` whose `MarkedBy` is the reader, for whom
/// [`reads_only_own_markings`] holds.
pub fn own_rows(set: &'static EntitySet, principal: &Principal) -> Vec<Constraint> {
    if !reads_only_own_markings(principal.role) {
        return Vec::new();
    }
    let marked_by = set
        .property("MarkedBy")
        .expect("a marking's set names its marker");
    vec![Constraint::Equals(
        marked_by,
        Value::String(principal.username.clone()),
    )]
}

/// Takes the round a task waits in: `QuestionID` and `ResultID`.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&MARKINGS)?;
    let task = super::collection_only::task_named(&body, "Marking", "task to mark")?;
    let TaskKey {
        question_id,
        result_id,
    } = task;
    let not_waiting = || {
        ApiError::Conflict(format!(
            "ScoringTasks(QuestionID={question_id}L,ResultID={result_id}) does not wait for a \
             marking: take one from SecondMarkingQueue"
        ))
    };
    let tx = writes.tx().await?;
    if !tx.lock_result(request.area, result_id).await? {
        return Err(not_waiting());
    }
    let waiting = tx
        .waiting_marking(request.area, task)
        .await?
        .ok_or_else(not_waiting)?;
    let marker = &request.principal.username;
    check_may_take(&waiting.waiting, marker).map_err(ApiError::Conflict)?;
    // A marker paused from the question takes no round of it either.
    super::pauses::refuse_while_paused(
        tx,
        request.principal,
        request.area,
        task,
        TaskStatus::Locked,
    )
    .await?;
    let id = tx
        .take_marking_round(request.area, task, waiting.waiting.round, marker)
        .await?
        .ok_or_else(|| ApiError::Conflict("another marker took this round first".into()))?;
    Ok(Written::Created {
        path: EntityPath {
            set: &MARKINGS,
            key: Some(parse_key(&MARKINGS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}

/// The marking whole, with changed `Comments` and `IsSubmitted`, under its
/// `ModifiedDateTime` (or an `If-Match` ETag).
async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    let stored = request.stored_values(&MARKINGS).await?;
    let body = request.entity(&MARKINGS)?;
    check_unchanged(&body, &MARKINGS, &stored, &["Comments", "IsSubmitted"])?;
    let value = |name: &str| stored.iter().find(|(n, _)| *n == name).map(|(_, v)| v);
    let (Some(Value::Int32(id)), Some(Value::DateTime(stored_modified))) =
        (value("ID"), value("ModifiedDateTime"))
    else {
        return Err(request.missing());
    };
    let sent_modified = match body.get("ModifiedDateTime") {
        Some(Value::DateTime(sent)) => Some(*sent),
        _ => None,
    };
    let read = request
        .revision_read(sent_modified, *stored_modified)?
        .ok_or_else(|| {
            ApiError::bad_request(
                "Marking.ModifiedDateTime is required: send back the value you read (or an \
                 If-Match header with the ETag)",
            )
        })?;
    let comments = match body.get("Comments") {
        Some(Value::String(comments)) => Some(comments.as_str()),
        _ => None,
    };
    let submit = matches!(body.get("IsSubmitted"), Some(Value::Boolean(true)));
    let area = request.area;
    let by = &request.principal.username;
    let tx = writes.tx().await?;
    let marking = tx
        .marking(area, *id)
        .await?
        .ok_or_else(|| request.missing())?;
    tx.lock_result(area, marking.task.result_id).await?;
    let marking = tx
        .marking(area, *id)
        .await?
        .ok_or_else(|| request.missing())?;
    if marking.modified_at != read {
        return Err(request.stale(marking.modified_at));
    }
    if &marking.marked_by != by {
        return Err(ApiError::Conflict(
            "a marking is written by its marker only".into(),
        ));
    }
    if marking.is_submitted {
        return Err(ApiError::Conflict(format!(
            "Markings({id}) is submitted: a submitted marking does not change"
        )));
    }
    tx.set_marking_comments(area, marking.id, comments).await?;
    if submit {
        let scores = tx.marking_scores(area, marking.id).await?;
        let marks = complete_marks(marking.id, &scores).map_err(ApiError::BadRequest)?;
        tx.submit_marking(area, marking.id, marks.total()).await?;
        decide_task(tx, request, marking.task).await?;
    }
    let modified_at = tx
        .marking(area, marking.id)
        .await?
        .map_or(read, |marking| marking.modified_at);
    Ok(Written::Replaced {
        etag: Some(etag::for_value(&Value::DateTime(modified_at))),
    })
}

/// After a round is submitted: the final mark by the plan's rule, written and
/// scored as a spec PUT to 3 is; or, where the two disagree beyond the
/// tolerance, the task waits for its resolution.
async fn decide_task(
    tx: &mut Tx,
    request: &WriteRequest<'_>,
    task: TaskKey,
) -> Result<(), ApiError> {
    let area = request.area;
    let by = &request.principal.username;
    let waiting = tx
        .waiting_marking(area, task)
        .await?
        .ok_or_else(|| ApiError::Conflict("the task no longer waits for this marking".into()))?;
    let marks = tx.submitted_marks(area, task).await?;
    let round = |wanted: i32| marks.iter().find(|(r, _)| *r == wanted).map(|(_, m)| m);
    let (Some(first), Some(second)) = (round(1), round(2)) else {
        return Err(ApiError::Conflict(
            "the task's first and second markings are not both submitted".into(),
        ));
    };
    match decide(&waiting.plan, first, second, round(3)).map_err(ApiError::Conflict)? {
        Decision::Final(marks) => {
            tx.write_final_marks(area, task, &marks).await?;
            tx.set_task_status(area, task, TaskStatus::Scored, by)
                .await?;
        }
        Decision::ThirdMarking => tx.queue_for_resolution(area, task, by).await?,
    }
    Ok(())
}

/// Gives a taken round back, unmarked: by its marker, or by a lead who frees a
/// round a marker took and left. A submitted marking stays (**409**).
async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let scope = request.scope().await?;
    let id = request
        .state
        .store
        .marking_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let area = request.area;
    let tx = writes.tx().await?;
    let marking = tx
        .marking(area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    tx.lock_result(area, marking.task.result_id).await?;
    let marking = tx
        .marking(area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    if marking.is_submitted {
        return Err(ApiError::Conflict(format!(
            "Markings({id}) is submitted: a submitted marking stays"
        )));
    }
    tx.give_back_marking(area, &marking).await?;
    Ok(Written::Deleted)
}
