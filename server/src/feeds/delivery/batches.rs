//! `POST PrintBatches`: a group of participants and a snapshot, for one delivery.
//! `GroupID` and `SnapshotID` are required and must be of this area; `ID`, the dates
//! and `LastUploadedDateTime` are the server's (dummy values may be posted).

use super::fields::{optional_text, required_i32};
use crate::feeds::entities::PRINT_BATCHES;
use crate::feeds::write::{WriteRequest, Written};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::{now_millis, NewPrintBatch, WriteScope};

const TYPE: &str = "PrintBatch";

pub async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let body = request.entity(&PRINT_BATCHES)?;
    let group_id = required_i32(
        &body,
        TYPE,
        "GroupID",
        "the group whose participants take the paper",
    )?;
    let snapshot_id = required_i32(&body, TYPE, "SnapshotID", "the snapshot they take")?;
    let name = optional_text(&body, TYPE, "Name")?;
    let store = &request.state.store;
    if !store.group_exists(request.area, group_id).await? {
        return Err(ApiError::bad_request(format!(
            "PrintBatch.GroupID is {group_id}, which is not a group of this customer area"
        )));
    }
    if store
        .snapshot_assessment(request.area, snapshot_id)
        .await?
        .is_none()
    {
        return Err(ApiError::bad_request(format!(
            "PrintBatch.SnapshotID is {snapshot_id}, which is not a snapshot of this customer area"
        )));
    }
    let id = writes
        .tx()
        .await?
        .insert_print_batch(
            request.area,
            &NewPrintBatch {
                group_id,
                snapshot_id,
                name: name.as_deref(),
                at: now_millis(),
            },
        )
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &PRINT_BATCHES,
            key: Some(parse_key(&PRINT_BATCHES, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}
