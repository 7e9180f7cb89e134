//! Our extension (issue 33): an assessment's `Name` and `Description` changed by
//! `PATCH`/`MERGE Assessments(<ID>L)` (any other property sent must be its stored
//! value, else a 400 names it), and `DELETE Assessments(<ID>L)` of one nothing uses
//! (model::delivery_use): one with snapshots, attempts, results or scoring tasks is
//! a 409 naming them. Administrators only, as importing content is.

use crate::feeds::handler::limits::{COMMENT_LENGTH, NAME_LENGTH};
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::delivery_use::assessment_kept_by;
use crate::odata::filter::Literal;
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{now_millis, WriteScope};

use super::sets::ASSESSMENTS;

pub static FEED: Feed = Feed {
    merge: Some(write_handler!(merge)),
    delete: Some(write_handler!(delete)),
    ..Feed::read_only(&ASSESSMENTS)
};

/// The assessment the URL addresses, at its own URL (404 when it addresses none).
fn key(request: &WriteRequest<'_>) -> Result<i64, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(ApiError::bad_request(
            "Assessments are written at Assessments(<ID>L), not through a navigation",
        ));
    }
    match request.path.key.as_ref().and_then(|key| key.0.first()) {
        Some((_, Literal::Int64(id))) => Ok(*id),
        _ => Err(request.missing()),
    }
}

async fn merge(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let id = key(request)?;
    let body = request.entity(&ASSESSMENTS)?;
    let tx = writes.tx().await?;
    let stored = tx
        .assessment(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    let text = |value: Option<String>| value.map_or(Value::Null, Value::String);
    let values = [
        ("ID", Value::Int64(stored.id)),
        ("Language", text(stored.language)),
        ("CreatedDateTime", Value::DateTime(stored.created_at)),
        ("ModifiedDateTime", Value::DateTime(stored.modified_at)),
    ];
    check_unchanged(&body, &ASSESSMENTS, &values, &["Name", "Description"])?;
    let name = match body.get("Name") {
        None => None,
        Some(Value::String(name)) if !name.trim().is_empty() => Some(name.trim().to_owned()),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Assessment.Name cannot be empty or null: an assessment always has a name",
            ))
        }
    };
    let description = match body.get("Description") {
        None => None,
        Some(Value::String(text)) if !text.trim().is_empty() => Some(Some(text.trim().to_owned())),
        Some(Value::String(_) | Value::Null) => Some(None),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Assessment.Description must be a string",
            ))
        }
    };
    // Bounded here rather than in `$metadata`: imported titles were never bounded,
    // so a MaxLength facet could contradict names already stored.
    for (property, text, limit) in [
        ("Name", name.as_deref(), NAME_LENGTH),
        (
            "Description",
            description.as_ref().and_then(|d| d.as_deref()),
            COMMENT_LENGTH,
        ),
    ] {
        let length = text.map_or(0, |t| t.chars().count());
        if length > limit as usize {
            return Err(ApiError::bad_request(format!(
                "Assessment.{property} is {length} characters; at most {limit} are allowed"
            )));
        }
    }
    tx.rename_assessment(
        request.area,
        id,
        name.as_deref(),
        description.as_ref().map(|d| d.as_deref()),
        now_millis(),
    )
    .await?;
    Ok(Written::Replaced { etag: None })
}

async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let id = key(request)?;
    let tx = writes.tx().await?;
    if tx.assessment(request.area, id).await?.is_none() {
        return Err(request.missing());
    }
    let uses = tx.assessment_use(request.area, id).await?;
    if let Some(refusal) = assessment_kept_by(id, uses) {
        return Err(ApiError::Conflict(refusal));
    }
    tx.delete_assessment(request.area, id).await?;
    Ok(Written::Deleted)
}
