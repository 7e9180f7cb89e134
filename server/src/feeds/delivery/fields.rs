//! Reading a delivery entity's body: each refusal names the entity type and the
//! property, as every 400 of the service does.

use crate::feeds::handler::WriteRequest;
use crate::odata::body::EntityBody;
use crate::odata::filter::Literal;
use crate::odata::value::Value;
use crate::odata::ApiError;

pub fn required_i32(
    body: &EntityBody,
    type_name: &str,
    property: &str,
    what: &str,
) -> Result<i32, ApiError> {
    match body.get(property) {
        Some(Value::Int32(id)) => Ok(*id),
        _ => Err(ApiError::bad_request(format!(
            "{type_name}.{property} is required: {what}"
        ))),
    }
}

pub fn required_i64(
    body: &EntityBody,
    type_name: &str,
    property: &str,
    what: &str,
) -> Result<i64, ApiError> {
    match body.get(property) {
        Some(Value::Int64(id)) => Ok(*id),
        _ => Err(ApiError::bad_request(format!(
            "{type_name}.{property} is required: {what}"
        ))),
    }
}

pub fn optional_i32(body: &EntityBody, property: &str) -> Option<i32> {
    match body.get(property) {
        Some(Value::Int32(id)) => Some(*id),
        _ => None,
    }
}

/// A text property, trimmed; empty or null is none.
pub fn optional_text(
    body: &EntityBody,
    type_name: &str,
    property: &str,
) -> Result<Option<String>, ApiError> {
    match body.get(property) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(Some(text.trim().to_owned())),
        Some(Value::String(_)) | Some(Value::Null) | None => Ok(None),
        Some(_) => Err(ApiError::bad_request(format!(
            "{type_name}.{property} must be a string"
        ))),
    }
}

/// 400 for a write addressed through a navigation: delivery's entities are
/// created at their own collection, and changed or deleted at their own URL.
pub fn not_through_navigation(request: &WriteRequest<'_>) -> Result<(), ApiError> {
    if request.path.steps.is_empty() {
        return Ok(());
    }
    Err(ApiError::bad_request(format!(
        "{0} are written at {0} or {0}(<ID>), not through a navigation",
        request.path.target().name
    )))
}

/// The Int32 key of the entity the URL addresses (404 when it addresses none).
pub fn key_i32(request: &WriteRequest<'_>) -> Result<i32, ApiError> {
    match request.path.key.as_ref().and_then(|key| key.0.first()) {
        Some((_, Literal::Int32(id))) => Ok(*id),
        _ => Err(request.missing()),
    }
}
