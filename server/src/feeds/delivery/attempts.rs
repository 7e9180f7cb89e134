//! `POST Attempts` (spec, "Attempt"): one identified participant authorised to take
//! one assessment, for external delivery. `ParticipantID` and `AssessmentID` are
//! required and of this area; `AssessmentSnapshotID`, when given, a snapshot of that
//! assessment (uploads need it); `ExternalAttemptID` unique in the area (a second
//! one is 409); `LockStatus` and `LockRequired` false; `ResultID` the server's.

use super::fields;
use super::fields::{optional_i32, optional_text, required_i32, required_i64};
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::Feed;
use crate::feeds::handler::{WriteRequest, Written};
use crate::odata::edm::EdmType::{Boolean, DateTime, Int32, Int64, String as Str};
use crate::odata::model::{prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{now_millis, NewAttempt, StoreError, WriteScope};

pub static ATTEMPTS: EntitySet = EntitySet {
    name: "Attempts",
    type_name: "Attempt",
    table: "attempts",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("ParticipantID", "participant_id", Int32, true),
        prop("AssessmentID", "assessment_id", Int64, true),
        prop("AssessmentSnapshotID", "snapshot_id", Int32, true),
        prop("ExternalAttemptID", "external_attempt_id", Str, true).max_length(NAME_LENGTH),
        prop("LockStatus", "lock_status", Boolean, false),
        prop("LockRequired", "lock_required", Boolean, false),
        prop("ResultID", "result_id", Int32, true),
        prop("LastModifiedDateTime", "last_modified_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    // AssessmentSnapshotID and ParticipantID are our extension (docs/odata.md): a
    // batch's attempts, and a participant's, by index (migrations 15 and 16).
    filterable: &[
        "ID",
        "ExternalAttemptID",
        "AssessmentSnapshotID",
        "ParticipantID",
    ],
    media: None,
    writes: CREATE_ONLY,
};

const TYPE: &str = "Attempt";

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&ATTEMPTS)
};

async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
    let body = request.entity(&ATTEMPTS)?;
    let participant_id = required_i32(
        &body,
        TYPE,
        "ParticipantID",
        "the participant the attempt authorises",
    )?;
    let assessment_id = required_i64(&body, TYPE, "AssessmentID", "the assessment to be taken")?;
    let snapshot_id = optional_i32(&body, "AssessmentSnapshotID");
    let external = optional_text(&body, TYPE, "ExternalAttemptID")?;
    for flag in ["LockStatus", "LockRequired"] {
        if matches!(body.get(flag), Some(Value::Boolean(true))) {
            return Err(ApiError::bad_request(format!(
                "Attempt.{flag} must be false: locking is used only in online delivery"
            )));
        }
    }
    if !matches!(body.get("ResultID"), None | Some(Value::Null)) {
        return Err(ApiError::bad_request(
            "Attempt.ResultID is set by the service once an upload has made a result; send null or leave it out",
        ));
    }
    let store = &request.state.store;
    if !store
        .participant_exists(request.area, participant_id)
        .await?
    {
        return Err(ApiError::bad_request(format!(
            "Attempt.ParticipantID is {participant_id}, which is not a participant of this customer area"
        )));
    }
    if !store.assessment_exists(request.area, assessment_id).await? {
        return Err(ApiError::bad_request(format!(
            "Attempt.AssessmentID is {assessment_id}, which is not an assessment of this customer area"
        )));
    }
    if let Some(snapshot_id) = snapshot_id {
        match store.snapshot_assessment(request.area, snapshot_id).await? {
            None => {
                return Err(ApiError::bad_request(format!(
                    "Attempt.AssessmentSnapshotID is {snapshot_id}, which is not a snapshot of this customer area"
                )))
            }
            Some(of) if of != assessment_id => {
                return Err(ApiError::bad_request(format!(
                    "Attempt.AssessmentSnapshotID is {snapshot_id}, a snapshot of assessment {of}, not of Attempt.AssessmentID {assessment_id}"
                )))
            }
            Some(_) => {}
        }
    }
    let inserted = writes
        .tx()
        .await?
        .insert_attempt(
            request.area,
            &NewAttempt {
                participant_id,
                assessment_id,
                snapshot_id,
                external_attempt_id: external.as_deref(),
                at: now_millis(),
            },
        )
        .await;
    let id = match inserted {
        Ok(id) => id,
        Err(StoreError::Conflict(_)) => {
            return Err(ApiError::Conflict(format!(
                "Attempt.ExternalAttemptID '{}' is already the ID of another attempt in this customer area",
                external.unwrap_or_default()
            )))
        }
        Err(other) => return Err(other.into()),
    };
    Ok(Written::Created {
        path: EntityPath {
            set: &ATTEMPTS,
            key: Some(parse_key(&ATTEMPTS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}
