//! `PUT`, `PATCH` and `MERGE Results(<id>)` (spec, Results feed): only `Status`,
//! along the permitted transitions (model::result_status), and `ExtraTime` change.
//! Any other property sent must be its stored value (a client sends back the whole
//! entity it read); a different one is a 400 naming it. Administrators only
//! (routing's access decision).

use super::entities::RESULTS;
use super::read;
use super::write::{check_unchanged, WriteRequest, Written};
use crate::model::result_status::{check_extra_time, check_transition};
use crate::odata::model::{EntitySet, Verb};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::read::RowsQuery;
use crate::store::WriteScope;

pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    set.name == RESULTS.name && matches!(verb, Verb::Put | Verb::Patch | Verb::Merge)
}

pub async fn write(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(ApiError::bad_request(
            "a result is changed at Results(<id>), not through a navigation",
        ));
    }
    let body = request.entity(&RESULTS)?;
    let stored = stored_values(request).await?;
    check_unchanged(&body, &RESULTS, &stored, &["Status", "ExtraTime"])?;
    let id = match stored.iter().find(|(name, _)| *name == "ID") {
        Some((_, Value::Int32(id))) => *id,
        _ => return Err(request.missing()),
    };
    let status = match body.get("Status") {
        None => None,
        Some(Value::Int16(status)) => Some(*status),
        Some(_) => {
            return Err(ApiError::bad_request(
                "Result.Status must be a number (1 running, 6 paused, 7 terminated)",
            ))
        }
    };
    let extra_time = match body.get("ExtraTime") {
        None => None,
        Some(Value::Int32(seconds)) => {
            check_extra_time(*seconds).map_err(ApiError::bad_request)?;
            Some(*seconds)
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "Result.ExtraTime must be a whole number of seconds",
            ))
        }
    };
    let tx = writes.tx().await?;
    // The status is read again under the result's lock: two administrators
    // changing one result at once see each other's change.
    let current = tx
        .result_status_for_update(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    if let Some(status) = status {
        check_transition(current, status).map_err(ApiError::bad_request)?;
    }
    tx.change_result(request.area, id, status, extra_time)
        .await?;
    Ok(Written::Replaced { etag: None })
}

/// The result's stored properties, as a read of it returns them.
async fn stored_values(request: &WriteRequest<'_>) -> Result<Vec<(&'static str, Value)>, ApiError> {
    let target = read::resolve(request.state, request.area, request.path).await?;
    let query = RowsQuery::first_page(&target.scope, None, &[], 1, super::entities::by_name);
    let row = request
        .state
        .store
        .rows(request.area, &query)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| request.missing())?;
    Ok(RESULTS
        .stored_properties()
        .into_iter()
        .map(|property| property.name)
        .zip(row.values)
        .collect())
}
