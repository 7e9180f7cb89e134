//! `BankedComments`, our extension feed (docs/odata.md, "Extensions"): POST to the
//! collection adds a comment to the area's bank, PUT rewrites one and DELETE removes
//! one, both under the same optimistic concurrency as ScoringResults (the body's
//! `ModifiedDateTime`, or `If-Match`). Reads are the generic read layer's.

use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::comment_bank::check_banked_comment;
use crate::odata::body::EntityBody;
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet, Verb, Writes};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{
    ConditionalDelete, ConditionalUpdate, NewBankedComment, StoredBankedComment, WriteScope,
};

/// The comment bank: comments saved once and inserted again, shared by the scorers
/// of a customer area, per question and (optionally) per dimension of its rubric.
pub static BANKED_COMMENTS: EntitySet = EntitySet {
    name: "BankedComments",
    type_name: "BankedComment",
    table: "banked_comments",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("QuestionID", "question_id", Int64, false),
        // The dimension's Order in the question's rubric; null: an overall comment.
        prop("DimensionOrder", "dimension_order", Int32, true),
        prop("Text", "text", Str, false).max_length(BANKED_COMMENT_LENGTH),
        prop("CreatedBy", "created_by", Str, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
    ],
    navigations: &[one("Question", "Questions", &[("question_id", "id")], true)],
    concurrency: Some("ModifiedDateTime"),
    filterable: &["ID", "QuestionID", "DimensionOrder", "CreatedBy"],
    media: None,
    writes: Writes {
        entity: &[Verb::Put, Verb::Delete],
        collection: &[Verb::Post],
        links: &[],
    },
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    put: Some(write_handler!(put)),
    delete: Some(write_handler!(delete)),
    ..Feed::read_only(&BANKED_COMMENTS)
};

fn not_through_navigation(request: &WriteRequest<'_>) -> Result<(), ApiError> {
    if request.path.steps.is_empty() {
        return Ok(());
    }
    Err(ApiError::bad_request(
        "BankedComments are written at BankedComments or BankedComments(<ID>), not through a navigation",
    ))
}

/// A new comment from `QuestionID`, `Text` and `DimensionOrder`. What the server
/// sets (`ID`, `CreatedBy`, the times) is ignored when sent: clients often send a
/// whole entity with `ID: 0`.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    not_through_navigation(request)?;
    let body = request.entity(&BANKED_COMMENTS)?;
    let question_id = match body.get("QuestionID") {
        Some(Value::Int64(id)) => *id,
        _ => {
            return Err(ApiError::bad_request(
                "BankedComment.QuestionID is required: the question the comment is for",
            ))
        }
    };
    let text = text_of(&body)?.ok_or_else(|| {
        ApiError::bad_request("BankedComment.Text is required: what the comment says")
    })?;
    let state = request.state;
    if !state
        .store
        .question_exists(request.area, question_id)
        .await?
    {
        return Err(ApiError::bad_request(format!(
            "BankedComment.QuestionID is {question_id}, which is not a question of this customer area"
        )));
    }
    let orders = state
        .store
        .question_dimension_orders(request.area, question_id)
        .await?;
    let checked =
        check_banked_comment(&text, dimension_of(&body), &orders).map_err(ApiError::BadRequest)?;
    let id = writes
        .tx()
        .await?
        .insert_banked_comment(
            request.area,
            NewBankedComment {
                question_id,
                dimension_order: checked.dimension_order,
                text: &checked.text,
                created_by: &request.principal.username,
            },
        )
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &BANKED_COMMENTS,
            key: Some(parse_key(&BANKED_COMMENTS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}

async fn put(request: &WriteRequest<'_>, writes: &mut WriteScope<'_>) -> Result<Written, ApiError> {
    not_through_navigation(request)?;
    let current = stored(request).await?;
    let body = request.entity(&BANKED_COMMENTS)?;
    check_unchanged(
        &body,
        &BANKED_COMMENTS,
        &values(&current),
        &["Text", "DimensionOrder"],
    )?;
    let sent = match body.get("ModifiedDateTime") {
        Some(Value::DateTime(sent)) => Some(*sent),
        _ => None,
    };
    let read = request
        .revision_read(sent, current.modified_at)?
        .ok_or_else(|| {
            ApiError::bad_request(
                "BankedComment.ModifiedDateTime is required: send back the value you read \
                 (or an If-Match header with the ETag)",
            )
        })?;
    // PUT replaces (as for ScoringResults): a DimensionOrder left out is null, and
    // the Text must be sent.
    let text = text_of(&body)?.ok_or_else(|| {
        ApiError::bad_request("BankedComment.Text is required: PUT replaces the whole comment")
    })?;
    let orders = request
        .state
        .store
        .question_dimension_orders(request.area, current.question_id)
        .await?;
    let checked =
        check_banked_comment(&text, dimension_of(&body), &orders).map_err(ApiError::BadRequest)?;
    let update = writes
        .tx()
        .await?
        .update_banked_comment(
            request.area,
            current.id,
            read,
            &checked.text,
            checked.dimension_order,
        )
        .await?;
    match update {
        ConditionalUpdate::Stale => Err(request.stale(current.modified_at)),
        ConditionalUpdate::Written { modified_at } => Ok(Written::Replaced {
            etag: Some(crate::odata::etag::for_value(&Value::DateTime(modified_at))),
        }),
    }
}

async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    not_through_navigation(request)?;
    let current = stored(request).await?;
    let read = request.revision_read(None, current.modified_at)?;
    match writes
        .tx()
        .await?
        .delete_banked_comment(request.area, current.id, read)
        .await?
    {
        ConditionalDelete::Deleted => Ok(Written::Deleted),
        ConditionalDelete::Missing => Err(request.missing()),
        ConditionalDelete::Stale => Err(request.stale(current.modified_at)),
    }
}

/// The comment the URL addresses (404 if none).
async fn stored(request: &WriteRequest<'_>) -> Result<StoredBankedComment, ApiError> {
    let scope = request.scope().await?;
    request
        .state
        .store
        .banked_comment_at(request.area, &scope)
        .await?
        .ok_or_else(|| request.missing())
}

/// The body's `Text`: `None` when not sent; null is refused (the property is not nullable).
fn text_of(body: &EntityBody) -> Result<Option<String>, ApiError> {
    match body.get("Text") {
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(ApiError::bad_request(
            "BankedComment.Text cannot be null: delete the comment instead",
        )),
        None => Ok(None),
    }
}

fn dimension_of(body: &EntityBody) -> Option<i32> {
    match body.get("DimensionOrder") {
        Some(Value::Int32(order)) => Some(*order),
        _ => None,
    }
}

/// The stored comment as its properties' values (what a PUT body is compared with).
fn values(stored: &StoredBankedComment) -> [(&'static str, Value); 7] {
    [
        ("ID", Value::Int32(stored.id)),
        ("QuestionID", Value::Int64(stored.question_id)),
        (
            "DimensionOrder",
            stored.dimension_order.map_or(Value::Null, Value::Int32),
        ),
        ("Text", Value::String(stored.text.clone())),
        ("CreatedBy", Value::String(stored.created_by.clone())),
        ("CreatedDateTime", Value::DateTime(stored.created_at)),
        ("ModifiedDateTime", Value::DateTime(stored.modified_at)),
    ]
}
