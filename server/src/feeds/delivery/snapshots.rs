//! `POST AssessmentSnapshots`: a snapshot of an assessment as its content is now,
//! with its AssessmentSnapshotData, in one transaction. The client's `ID` and dates
//! are ignored (the spec: any value may be posted); `AssessmentID` is required.

use super::fields::optional_text;
use crate::documents::snapshot_xml::{self, SnapshotHeader};
use crate::feeds::entities::ASSESSMENT_SNAPSHOTS;
use crate::feeds::write::{WriteRequest, Written};
use crate::model::snapshot::arrange;
use crate::odata::model::{EntitySet, Verb};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{now_millis, NewSnapshot, WriteScope};

pub fn serves(set: &EntitySet, verb: Verb) -> bool {
    set.name == ASSESSMENT_SNAPSHOTS.name && verb == Verb::Post
}

pub async fn write(
    request: &WriteRequest<'_>,
    _verb: Verb,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let body = request.entity(&ASSESSMENT_SNAPSHOTS)?;
    let assessment_id =
        match body.get("AssessmentID") {
            Some(Value::Int64(id)) => *id,
            _ => return Err(ApiError::bad_request(
                "AssessmentSnapshot.AssessmentID is required: the assessment to take a snapshot of",
            )),
        };
    let source = request
        .state
        .store
        .snapshot_source(request.area, assessment_id)
        .await?
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "AssessmentSnapshot.AssessmentID is {assessment_id}, which is not an assessment of this customer area"
            ))
        })?;
    if source.questions.is_empty() {
        return Err(ApiError::bad_request(format!(
            "AssessmentSnapshot.AssessmentID: assessment {assessment_id} has no questions to deliver"
        )));
    }
    let name = optional_text(&body, "AssessmentSnapshot", "Name")?;
    let language =
        optional_text(&body, "AssessmentSnapshot", "Language")?.or(source.language.clone());
    let expires_at = match body.get("ExpiresDateTime") {
        Some(Value::DateTime(at)) => Some(*at),
        _ => None,
    };
    let tx = writes.tx().await?;
    let id = tx
        .insert_snapshot(
            request.area,
            &NewSnapshot {
                assessment_id,
                name: name.as_deref(),
                language: language.as_deref(),
                expires_at,
                at: now_millis(),
            },
        )
        .await?;
    // The snapshot's ID seeds its shuffles: fixed once, and different per snapshot.
    let questions = arrange(&source.questions, id as u64);
    let document = snapshot_xml::write(
        &SnapshotHeader {
            id,
            assessment_id,
            name: name.as_deref(),
            language: language.as_deref(),
        },
        &questions,
    );
    let document = String::from_utf8(document)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("snapshot XML is not UTF-8: {e}")))?;
    tx.complete_snapshot(request.area, id, &document, &questions)
        .await?;
    Ok(Written::Created {
        path: EntityPath {
            set: &ASSESSMENT_SNAPSHOTS,
            key: Some(parse_key(&ASSESSMENT_SNAPSHOTS, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
        },
        key: id.to_string(),
    })
}
