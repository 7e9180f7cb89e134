//! `POST PrintBatches`: a group of participants and a snapshot, for one delivery.
//! `GroupID` and `SnapshotID` are required and must be of this area; `ID`, the dates
//! and `LastUploadedDateTime` are the server's (dummy values may be posted).
//! `PATCH`/`MERGE PrintBatches(<id>)` renames it (any other property sent must be
//! its stored value) and `DELETE PrintBatches(<id>)` removes one that nothing uses
//! (our extension, model::delivery_use): one with attempts printed for it or an
//! upload that named it is a 409 naming them.

use super::fields;
use super::fields::{optional_text, required_i32};
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::Feed;
use crate::feeds::handler::{check_unchanged, WriteRequest, Written};
use crate::model::delivery_use::batch_kept_by;
use crate::odata::edm::EdmType::{DateTime, Int32, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{now_millis, NewPrintBatch, WriteScope};

pub static PRINT_BATCHES: EntitySet = EntitySet {
    name: "PrintBatches",
    type_name: "PrintBatch",
    table: "print_batches",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        prop("GroupID", "group_id", Int32, false),
        prop("SnapshotID", "snapshot_id", Int32, false),
        prop("Name", "name", Str, true).max_length(NAME_LENGTH),
        prop("LastUploadedDateTime", "last_uploaded_at", DateTime, true),
        // Our extension (docs/paper-sheets.md): a signed, time-limited link to the
        // batch's personal answer sheets, computed per request like a snapshot's.
        prop("AnswerSheetsSourceUrl", "", Str, true),
    ],
    navigations: &[
        one("Group", "Groups", &[("group_id", "id")], true),
        one(
            "AssessmentSnapshot",
            "AssessmentSnapshots",
            &[("snapshot_id", "id")],
            true,
        ),
    ],
    concurrency: None,
    // SnapshotID is our extension (docs/odata.md): a snapshot's batches, by index
    // (migration 16).
    filterable: &["ID", "GroupID", "SnapshotID"],
    media: None,
    writes: CREATE_CHANGE_DELETE,
};

const TYPE: &str = "PrintBatch";

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    merge: Some(write_handler!(merge)),
    delete: Some(write_handler!(delete)),
    ..Feed::read_only(&PRINT_BATCHES)
};

/// Renames a batch; nothing else of it changes.
async fn merge(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
    let id = fields::key_i32(request)?;
    let body = request.entity(&PRINT_BATCHES)?;
    let tx = writes.tx().await?;
    let stored = tx
        .print_batch(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    let values = [
        ("ID", Value::Int32(stored.id)),
        ("CreatedDateTime", Value::DateTime(stored.created_at)),
        ("ModifiedDateTime", Value::DateTime(stored.modified_at)),
        ("GroupID", Value::Int32(stored.group_id)),
        ("SnapshotID", Value::Int32(stored.snapshot_id)),
        (
            "LastUploadedDateTime",
            stored.last_uploaded_at.map_or(Value::Null, Value::DateTime),
        ),
    ];
    check_unchanged(&body, &PRINT_BATCHES, &values, &["Name"])?;
    if body.get("Name").is_some() {
        let name = optional_text(&body, TYPE, "Name")?;
        tx.rename_print_batch(request.area, id, name.as_deref(), now_millis())
            .await?;
    }
    Ok(Written::Replaced { etag: None })
}

/// Deletes a batch nothing uses.
async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
    let id = fields::key_i32(request)?;
    let tx = writes.tx().await?;
    let stored = tx
        .print_batch(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    let uses = tx.print_batch_use(request.area, &stored).await?;
    if let Some(refusal) = batch_kept_by(id, uses) {
        return Err(ApiError::Conflict(refusal));
    }
    tx.delete_print_batch(request.area, id).await?;
    Ok(Written::Deleted)
}

async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
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
