//! `BankedComments`, our extension feed (docs/odata.md, "Extensions"): POST to the
//! collection adds a comment to the area's bank, PUT rewrites one and DELETE removes
//! one, both under the same optimistic concurrency as ScoringResults (the body's
//! `ModifiedDateTime`, or `If-Match`). Reads are the generic read layer's.

use super::entities::BANKED_COMMENTS;
use super::write::{check_unchanged, WriteRequest, Written};
use crate::model::comment_bank::check_banked_comment;
use crate::odata::body::EntityBody;
use crate::odata::model::{EntitySet, Verb};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{
    ConditionalDelete, ConditionalUpdate, NewBankedComment, StoredBankedComment, WriteScope,
};

/// Whether `verb` on `set` is served here.
pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    set.name == BANKED_COMMENTS.name && matches!(verb, Verb::Post | Verb::Put | Verb::Delete)
}

pub async fn write(
    request: &WriteRequest<'_>,
    verb: Verb,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(ApiError::bad_request(
            "BankedComments are written at BankedComments or BankedComments(<ID>), not through a navigation",
        ));
    }
    match verb {
        Verb::Post => post(request, writes).await,
        Verb::Put => put(request, writes).await,
        Verb::Delete => delete(request, writes).await,
        other => Err(ApiError::Internal(anyhow::anyhow!(
            "{} on BankedComments was routed here",
            other.as_str()
        ))),
    }
}

/// A new comment from `QuestionID`, `Text` and `DimensionOrder`. What the server
/// sets (`ID`, `CreatedBy`, the times) is ignored when sent: clients often send a
/// whole entity with `ID: 0`.
async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
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
