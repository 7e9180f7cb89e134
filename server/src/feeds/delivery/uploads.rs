//! `POST AnswerUploads` (spec, "AnswerUpload"; contract, "Answer upload file"): the
//! upload file read and checked in full against the attempt's snapshot before
//! anything is stored (docs/upload-format.md), then stored in one transaction as a
//! scored Result with a ScoringTask for each answer a person scores.

use std::sync::Arc;

use crate::documents::{images, upload_file};
use crate::feeds::entities::ANSWER_UPLOADS;
use crate::feeds::state::SnapshotQuestions;
use crate::feeds::write::{WriteRequest, Written};
use crate::model::upload::{check_and_mark, scores_of, UploadError};
use crate::odata::body::require_json;
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::{now_millis, CheckedUpload, StoreError, WriteScope};

/// What snapshot `id` fixed, from the process's cache (snapshots never change).
async fn snapshot_questions(
    request: &WriteRequest<'_>,
    id: i32,
) -> Result<Arc<SnapshotQuestions>, ApiError> {
    let key = (request.area.id(), id);
    if let Some(cached) = request.state.snapshots.get(&key) {
        return Ok(cached);
    }
    let paper = request
        .state
        .store
        .snapshot_paper(request.area, id)
        .await?
        .ok_or_else(|| {
            ApiError::Internal(anyhow::anyhow!("snapshot {id} of an attempt is gone"))
        })?;
    let snapshot = Arc::new(SnapshotQuestions {
        questions: paper
            .questions
            .into_iter()
            .map(|(question, _)| question)
            .collect(),
        language: paper.language,
    });
    request.state.snapshots.insert(key, Arc::clone(&snapshot));
    Ok(snapshot)
}

fn refused(error: UploadError) -> ApiError {
    ApiError::bad_request(format!("{}: {}", error.field, error.message))
}

pub async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let content_type = request
        .headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    require_json(content_type)?;
    let file = upload_file::read(&request.body).map_err(refused)?;
    let store = &request.state.store;
    let attempt_id = file.attempt_id;
    let attempt = store
        .attempt_for_upload(request.area, attempt_id)
        .await?
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "AttemptID: {attempt_id} is not an attempt of this customer area"
            ))
        })?;
    if let Some(result) = attempt.result_id {
        return Err(ApiError::Conflict(format!(
            "AttemptID: attempt {attempt_id} already has a result (ResultID {result}); an attempt is uploaded once"
        )));
    }
    let snapshot_id = attempt.snapshot_id.ok_or_else(|| {
        ApiError::bad_request(format!(
            "AttemptID: attempt {attempt_id} has no AssessmentSnapshotID; answers are checked against the attempt's snapshot"
        ))
    })?;
    let batch = match file.batch_id {
        None => None,
        Some(batch_id) => {
            let batch = store
                .batch_for_upload(request.area, batch_id)
                .await?
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "BatchID: {batch_id} is not a print batch of this customer area"
                    ))
                })?;
            if batch.snapshot_id != snapshot_id {
                return Err(ApiError::bad_request(format!(
                    "BatchID: batch {batch_id} is for snapshot {}, not for the attempt's snapshot {snapshot_id}",
                    batch.snapshot_id
                )));
            }
            Some((batch_id, batch))
        }
    };
    let snapshot = snapshot_questions(request, snapshot_id).await?;
    let answers = check_and_mark(&file, &snapshot.questions).map_err(refused)?;
    let bands = store
        .score_bands(request.area, attempt.assessment_id)
        .await?;
    let scores = scores_of(&answers, &bands);
    // Decoding images takes CPU time: off the async workers.
    let images: Vec<(String, String, Vec<u8>)> = answers
        .iter()
        .filter_map(|a| {
            a.image_field
                .clone()
                .map(|field| (field, a.media_type.clone(), a.content.clone()))
        })
        .collect();
    if !images.is_empty() {
        tokio::task::spawn_blocking(move || {
            images
                .iter()
                .try_for_each(|(field, media_type, data)| images::check(media_type, data, field))
        })
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("checking images: {e}")))?
        .map_err(refused)?;
    }
    let upload = CheckedUpload {
        area: request.area,
        attempt_id,
        attempt,
        batch,
        answers,
        scores,
        language: snapshot.language.clone(),
        file: request.body.clone(),
        content_type: "application/json",
        at: now_millis(),
    };
    let recorded = if writes.is_change_set() {
        writes
            .tx()
            .await?
            .record_uploads(std::slice::from_ref(&upload))
            .await
            .and_then(|mut outcomes| outcomes.pop().expect("one outcome per upload"))
    } else {
        request.state.uploads.record(upload).await
    };
    match recorded {
        Ok(_) => {}
        Err(StoreError::Conflict(_)) => {
            return Err(ApiError::Conflict(format!(
                "AttemptID: attempt {attempt_id} was uploaded by another request at the same moment; an attempt is uploaded once"
            )))
        }
        Err(other) => return Err(other.into()),
    }
    Ok(Written::Created {
        path: EntityPath {
            set: &ANSWER_UPLOADS,
            key: Some(parse_key(&ANSWER_UPLOADS, &attempt_id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
        },
        key: attempt_id.to_string(),
    })
}
