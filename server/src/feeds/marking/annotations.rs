//! `Annotations`: a marker's pen strokes, highlights, ticks, crosses and notes
//! on one answer block of a task (docs/marking-quality.md, "Annotations";
//! `model::annotations` says where each may go). POST to the collection places
//! one, PUT moves or rewrites it and DELETE removes it, under the same
//! optimistic concurrency as ScoringResults (the body's `ModifiedDateTime`, or
//! `If-Match`). A scorer reads only his own (`rows_seen`), in every URL form, so
//! that a second marker never sees the first's marks on the script; a lead
//! marker reads everyone's. Each is written by its marker only.

use crate::auth::Principal;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::annotations::{
    canvas_of, check_annotation, AnnotationKind, CheckedAnnotation, Placement, PER_MARKER_AND_TASK,
};
use crate::model::area::CustomerArea;
use crate::model::scoring::TaskKey;
use crate::odata::body::EntityBody;
use crate::odata::edm::EdmType::{DateTime, Int16, Int32, Int64, String as Str};
use crate::odata::etag;
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::Constraint;
use crate::store::{AnswerBlock, ConditionalDelete, ConditionalUpdate, Tx, WriteScope};

pub static ANNOTATIONS: EntitySet = EntitySet {
    name: "Annotations",
    type_name: "Annotation",
    table: "annotations",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        prop("ResultID", "result_id", Int32, false),
        // The answer block it is placed on (as the Answer's key has them).
        prop("Occurrence", "occurrence", Int16, false),
        prop("BlockNumber", "block_number", Int16, false),
        // pen, highlighter, tick, cross or note.
        prop("Kind", "kind", Str, false).max_length(NAME_LENGTH),
        // On a scan: "x,y x,y …" in the image's own pixels.
        prop("Points", "points", Str, true).max_length(ANNOTATION_POINTS_LENGTH),
        // On a typed answer: its characters [TextStart, TextEnd).
        prop("TextStart", "text_start", Int32, true),
        prop("TextEnd", "text_end", Int32, true),
        // A note's words, or a comment on a mark.
        prop("Text", "note", Str, true).max_length(ANNOTATION_TEXT_LENGTH),
        prop("MarkedBy", "marked_by", Str, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[
        one(
            "ScoringTask",
            "ScoringTasks",
            &[("question_id", "question_id"), ("result_id", "result_id")],
            true,
        ),
        one(
            "Answer",
            "Answers",
            &[
                ("question_id", "question_id"),
                ("result_id", "result_id"),
                ("occurrence", "occurrence"),
                ("block_number", "block_number"),
            ],
            true,
        ),
    ],
    concurrency: Some("ModifiedDateTime"),
    filterable: &[
        "ID",
        "QuestionID",
        "ResultID",
        "Occurrence",
        "BlockNumber",
        "Kind",
        "MarkedBy",
        "ModifiedDateTime",
    ],
    media: None,
    writes: CREATE_PUT_DELETE,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    put: Some(write_handler!(put)),
    delete: Some(write_handler!(delete)),
    rows_seen: Some(own_annotations),
    ..Feed::read_only(&ANNOTATIONS)
};

/// A scorer's annotations are his own; a lead's and an administrator's, all.
fn own_annotations(principal: &Principal) -> Vec<Constraint> {
    super::markings::own_rows(&ANNOTATIONS, principal)
}

/// A new annotation: `QuestionID`, `ResultID`, `Occurrence`, `BlockNumber`,
/// `Kind`, its place (`Points`, or `TextStart` and `TextEnd`) and `Text`. What
/// the server sets (`ID`, `MarkedBy`, the times) is ignored when sent.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let body = request.entity(&ANNOTATIONS)?;
    let task = super::collection_only::task_named(&body, "Annotation", "script annotated")?;
    let block = AnswerBlock {
        task,
        occurrence: required_int16(&body, "Occurrence")?,
        block_number: required_int16(&body, "BlockNumber")?,
    };
    let kind = match body.get("Kind") {
        Some(Value::String(kind)) => AnnotationKind::parse(kind).map_err(ApiError::BadRequest)?,
        _ => {
            return Err(ApiError::bad_request(format!(
                "Annotation.Kind is required: {}",
                AnnotationKind::NAMES
            )))
        }
    };
    let area = request.area;
    let marker = &request.principal.username;
    let tx = writes.tx().await?;
    check_task(tx, request, task).await?;
    let annotation = checked(tx, area, block, placement(&body, kind)).await?;
    if tx.annotations_placed(area, task, marker).await? >= PER_MARKER_AND_TASK {
        return Err(ApiError::Conflict(format!(
            "this task has {PER_MARKER_AND_TASK} annotations of yours already: remove some \
             before placing more"
        )));
    }
    let id = tx
        .insert_annotation(area, block, &annotation, marker)
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &ANNOTATIONS,
            key: Some(parse_key(&ANNOTATIONS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}

/// The annotation whole, moved or rewritten: `Points`, `TextStart`, `TextEnd`
/// and `Text` as sent (one left out is null: PUT replaces), under its
/// `ModifiedDateTime` (or an `If-Match` ETag).
async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let scope = request.scope().await?;
    let stored = request
        .state
        .store
        .annotation_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let values = request.stored_values(&ANNOTATIONS).await?;
    let body = request.entity(&ANNOTATIONS)?;
    check_unchanged(
        &body,
        &ANNOTATIONS,
        &values,
        &["Points", "TextStart", "TextEnd", "Text"],
    )?;
    let sent = match body.get("ModifiedDateTime") {
        Some(Value::DateTime(sent)) => Some(*sent),
        _ => None,
    };
    let read = request
        .revision_read(sent, stored.modified_at)?
        .ok_or_else(|| {
            ApiError::bad_request(
                "Annotation.ModifiedDateTime is required: send back the value you read (or \
                 an If-Match header with the ETag)",
            )
        })?;
    only_its_marker(request, &stored.marked_by)?;
    let kind = AnnotationKind::parse(&stored.kind).map_err(ApiError::BadRequest)?;
    let area = request.area;
    let tx = writes.tx().await?;
    tx.lock_result(area, stored.block.task.result_id).await?;
    let annotation = checked(tx, area, stored.block, placement(&body, kind)).await?;
    match tx
        .update_annotation(area, stored.id, read, &annotation)
        .await?
    {
        ConditionalUpdate::Stale => Err(request.stale(stored.modified_at)),
        ConditionalUpdate::Written { modified_at } => Ok(Written::Replaced {
            etag: Some(etag::for_value(&Value::DateTime(modified_at))),
        }),
    }
}

/// Removes an annotation (with `If-Match`, only the revision read).
async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    super::collection_only::at_the_collection(request)?;
    let scope = request.scope().await?;
    let stored = request
        .state
        .store
        .annotation_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())?;
    let read = request.revision_read(None, stored.modified_at)?;
    only_its_marker(request, &stored.marked_by)?;
    match writes
        .tx()
        .await?
        .delete_annotation(request.area, stored.id, read)
        .await?
    {
        ConditionalDelete::Deleted => Ok(Written::Deleted),
        ConditionalDelete::Missing => Err(request.missing()),
        ConditionalDelete::Stale => Err(request.stale(stored.modified_at)),
    }
}

/// A lead reads every marker's annotations but changes only his own.
fn only_its_marker(request: &WriteRequest<'_>, marked_by: &str) -> Result<(), ApiError> {
    if marked_by == request.principal.username {
        return Ok(());
    }
    Err(ApiError::Conflict(format!(
        "this annotation is {marked_by}'s: an annotation is changed by its marker only"
    )))
}

/// The task exists in the area (its result locked for the write) and is not
/// another marker's seed copy, which is no task of this marker's.
async fn check_task(
    tx: &mut Tx,
    request: &WriteRequest<'_>,
    task: TaskKey,
) -> Result<(), ApiError> {
    let TaskKey {
        question_id,
        result_id,
    } = task;
    let no_task = || {
        ApiError::bad_request(format!(
            "Annotation names ScoringTasks(QuestionID={question_id}L,ResultID={result_id}), \
             which is not a ScoringTask of this customer area"
        ))
    };
    if !tx.lock_result(request.area, result_id).await? {
        return Err(no_task());
    }
    if tx
        .seed_copy_marker(request.area, result_id)
        .await?
        .is_some_and(|marker| marker != request.principal.username)
    {
        return Err(no_task());
    }
    tx.task_status(request.area, task)
        .await?
        .map(|_| ())
        .ok_or_else(no_task)
}

/// The placement checked against the block it is on (400 naming what is wrong).
async fn checked(
    tx: &mut Tx,
    area: CustomerArea,
    block: AnswerBlock,
    placement: Placement<'_>,
) -> Result<CheckedAnnotation, ApiError> {
    let AnswerBlock {
        task,
        occurrence,
        block_number,
    } = block;
    let named = format!(
        "Answers(QuestionID={}L,ResultID={},Occurrence={occurrence},BlockNumber={block_number})",
        task.question_id, task.result_id
    );
    let (media_type, content) = tx.answer_block(area, block).await?.ok_or_else(|| {
        ApiError::bad_request(format!(
            "Annotation.Occurrence and BlockNumber name {named}, which is not an answer \
             block of this task"
        ))
    })?;
    let canvas = canvas_of(&media_type, &content).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{named} is {media_type}, neither a PNG or JPEG scan nor typed text: it takes no \
             annotations"
        ))
    })?;
    check_annotation(placement, canvas).map_err(ApiError::BadRequest)
}

fn placement(body: &EntityBody, kind: AnnotationKind) -> Placement<'_> {
    let text = |name| match body.get(name) {
        Some(Value::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let int = |name| match body.get(name) {
        Some(Value::Int32(value)) => Some(*value),
        _ => None,
    };
    Placement {
        kind,
        points: text("Points"),
        text_start: int("TextStart"),
        text_end: int("TextEnd"),
        text: text("Text"),
    }
}

fn required_int16(body: &EntityBody, name: &str) -> Result<i16, ApiError> {
    match body.get(name) {
        Some(Value::Int16(value)) => Ok(*value),
        _ => Err(ApiError::bad_request(format!(
            "Annotation.{name} is required: with Occurrence and BlockNumber, the answer \
             block (as Answers' key has it) the annotation is placed on"
        ))),
    }
}
