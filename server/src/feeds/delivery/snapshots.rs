//! `POST AssessmentSnapshots`: a snapshot of an assessment as its content is now,
//! with its AssessmentSnapshotData, in one transaction. The client's `ID` and dates
//! are ignored (the spec: any value may be posted); `AssessmentID` is required.
//! `PATCH`/`MERGE AssessmentSnapshots(<id>)` changes `Name` and `ExpiresDateTime`;
//! any other property sent must be its stored value (a 400 names it).
//! `DELETE AssessmentSnapshots(<id>)` removes one that nothing uses (our extension,
//! model::delivery_use); one with print batches or attempts is a 409 naming them.

use super::fields::{self, optional_text};
use crate::documents::qti_content;
use crate::documents::snapshot_xml::{self, SnapshotHeader};
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::delivery_use::snapshot_kept_by;
use crate::model::snapshot::{arrange, SourceQuestion};
use crate::odata::edm::EdmType::{DateTime, Int32, Int64, String as Str};
use crate::odata::model::{one, prop, EntitySet};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{now_millis, NewSnapshot, Tx, WriteScope};

pub static ASSESSMENT_SNAPSHOTS: EntitySet = EntitySet {
    name: "AssessmentSnapshots",
    type_name: "AssessmentSnapshot",
    table: "assessment_snapshots",
    key: &["ID"],
    properties: &[
        prop("ID", "id", Int32, false),
        prop("CreatedDateTime", "created_at", DateTime, false),
        prop("ModifiedDateTime", "modified_at", DateTime, false),
        prop("AssessmentID", "assessment_id", Int64, false),
        prop("Name", "name", Str, true).max_length(NAME_LENGTH),
        prop("Language", "language", Str, true),
        prop("ExpiresDateTime", "expires_at", DateTime, true),
        // Signed, time-limited links computed per request.
        prop("PrintableDocumentSourceUrl", "", Str, true),
        prop("PrintableDocumentWithAnswersSourceUrl", "", Str, true),
    ],
    navigations: &[one(
        "AssessmentSnapshotData",
        "AssessmentSnapshotData",
        &[("id", "id")],
        true,
    )],
    concurrency: None,
    filterable: &["ID", "AssessmentID"],
    media: None,
    writes: CREATE_CHANGE_DELETE,
};

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    merge: Some(write_handler!(merge)),
    delete: Some(write_handler!(delete)),
    ..Feed::read_only(&ASSESSMENT_SNAPSHOTS)
};

/// Deletes a snapshot nothing uses, with the contents it fixed.
async fn delete(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
    let id = fields::key_i32(request)?;
    let tx = writes.tx().await?;
    let uses = tx
        .snapshot_use(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    if let Some(refusal) = snapshot_kept_by(id, uses) {
        return Err(ApiError::Conflict(refusal));
    }
    tx.delete_snapshot(request.area, id).await?;
    Ok(Written::Deleted)
}

/// Changes what a snapshot lets change: its name and expiry.
async fn merge(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
    let id = fields::key_i32(request)?;
    let stored = request
        .state
        .store
        .snapshot(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    let body = request.entity(&ASSESSMENT_SNAPSHOTS)?;
    let values = [
        ("ID", Value::Int32(stored.id)),
        ("AssessmentID", Value::Int64(stored.assessment_id)),
        ("CreatedDateTime", Value::DateTime(stored.created_at)),
        ("ModifiedDateTime", Value::DateTime(stored.modified_at)),
        (
            "Language",
            stored.language.clone().map_or(Value::Null, Value::String),
        ),
    ];
    check_unchanged(
        &body,
        &ASSESSMENT_SNAPSHOTS,
        &values,
        &["Name", "ExpiresDateTime"],
    )?;
    let name = match body.get("Name") {
        None => None,
        Some(_) => Some(optional_text(&body, "AssessmentSnapshot", "Name")?),
    };
    let expires_at = match body.get("ExpiresDateTime") {
        None => None,
        Some(Value::DateTime(at)) => Some(Some(*at)),
        Some(_) => Some(None),
    };
    writes
        .tx()
        .await?
        .update_snapshot(
            request.area,
            id,
            name.as_ref().map(|n| n.as_deref()),
            expires_at,
            now_millis(),
        )
        .await?;
    Ok(Written::Replaced { etag: None })
}

async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
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
    let drawn = draw_templates(request, tx, assessment_id, id, source.questions).await?;
    // The snapshot's ID seeds its shuffles: fixed once, and different per snapshot.
    let questions = arrange(&drawn, id as u64);
    let document = snapshot_xml::write(
        &SnapshotHeader {
            id,
            assessment_id,
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
            links: false,
        },
        key: id.to_string(),
    })
}

/// The assessment's questions with each template question replaced by the
/// snapshot's own draw of it, stored as an instance (docs/content.md, "Template
/// items"). The snapshot's ID and the question's place seed the draw: fixed
/// once, and different per snapshot.
async fn draw_templates(
    request: &WriteRequest<'_>,
    tx: &mut Tx,
    assessment_id: i64,
    snapshot_id: i32,
    questions: Vec<SourceQuestion>,
) -> Result<Vec<SourceQuestion>, ApiError> {
    let mut drawn = Vec::with_capacity(questions.len());
    for (index, question) in questions.into_iter().enumerate() {
        let Some(template) = &question.template else {
            drawn.push(question);
            continue;
        };
        let seed = ((snapshot_id as u64) << 16) ^ index as u64;
        let instance = qti_content::instance(template, seed).map_err(|reason| {
            ApiError::bad_request(format!(
                "AssessmentSnapshot.AssessmentID: question {} of assessment {assessment_id} (QuestionID {}) is a template that could not be drawn: {reason}",
                index + 1,
                question.question_id
            ))
        })?;
        let id = tx
            .insert_question_instance(request.area, question.question_id, &instance, now_millis())
            .await?;
        drawn.push(instance.source(id, question.topic.clone()));
    }
    Ok(drawn)
}
