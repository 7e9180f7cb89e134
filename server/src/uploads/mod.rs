//! An answer upload taken in (contract, "Answer upload file"; docs/upload-format.md):
//! the file read and checked in full against the attempt's snapshot, marked, its
//! images decoded, before anything is stored; then stored in one transaction as a
//! scored Result with a ScoringTask for each answer a person scores. `POST
//! AnswerUploads` and `sheets scan` (scanned answer sheets) both come through here,
//! so an upload from paper meets every rule a typed one does.

use std::sync::Arc;

use bytes::Bytes;

use crate::documents::{images, upload_file};
use crate::model::area::CustomerArea;
use crate::model::snapshot::SnapshotQuestion;
use crate::model::upload::{
    check_and_mark, describe_problems, in_file_order, scores_of, UploadError,
};
use crate::store::{now_millis, CheckedUpload, Store, StoreError, UploadWriter};

/// A snapshot's questions in order, and its language.
pub struct SnapshotQuestions {
    pub questions: Vec<SnapshotQuestion>,
    pub language: Option<String>,
}

/// What snapshots fixed, by (area, snapshot): a snapshot never changes once made,
/// so it is read once per process.
pub type SnapshotCache = moka::sync::Cache<(i32, i32), Arc<SnapshotQuestions>>;

/// Why an upload was not taken.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The file breaks a rule: the field, and what is wrong with it (400).
    #[error("{0}")]
    Invalid(String),
    /// The attempt already has a result, or another request is storing one (409).
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Internal(String),
}

fn refused(error: UploadError) -> Refusal {
    Refusal::Invalid(error.to_string())
}

/// A file refused for every problem found in it (`describe_problems`).
fn refused_for_all(problems: Vec<UploadError>) -> Refusal {
    Refusal::Invalid(describe_problems(&problems))
}

/// What snapshot `id` fixed, from the cache.
async fn snapshot_questions(
    store: &Store,
    snapshots: &SnapshotCache,
    area: CustomerArea,
    id: i32,
) -> Result<Arc<SnapshotQuestions>, Refusal> {
    let key = (area.id(), id);
    if let Some(cached) = snapshots.get(&key) {
        return Ok(cached);
    }
    let paper = store
        .snapshot_paper(area, id)
        .await?
        .ok_or_else(|| Refusal::Internal(format!("snapshot {id} of an attempt is gone")))?;
    let snapshot = Arc::new(SnapshotQuestions {
        questions: paper
            .questions
            .into_iter()
            .map(|(question, _)| question)
            .collect(),
        language: paper.language,
    });
    snapshots.insert(key, Arc::clone(&snapshot));
    Ok(snapshot)
}

/// An upload file (its JSON bytes) read and checked in full against the attempt's
/// snapshot, marked, its images decoded: everything short of storing it.
pub async fn check(
    store: &Store,
    snapshots: &SnapshotCache,
    area: CustomerArea,
    body: Bytes,
) -> Result<CheckedUpload, Refusal> {
    let file = upload_file::read(&body).map_err(refused)?;
    let attempt_id = file.attempt_id;
    let attempt = store
        .attempt_for_upload(area, attempt_id)
        .await?
        .ok_or_else(|| {
            Refusal::Invalid(format!(
                "AttemptID: {attempt_id} is not an attempt of this customer area"
            ))
        })?;
    if let Some(result) = attempt.result_id {
        return Err(Refusal::Conflict(format!(
            "AttemptID: attempt {attempt_id} already has a result (ResultID {result}); an attempt is uploaded once"
        )));
    }
    let snapshot_id = attempt.snapshot_id.ok_or_else(|| {
        Refusal::Invalid(format!(
            "AttemptID: attempt {attempt_id} has no AssessmentSnapshotID; answers are checked against the attempt's snapshot"
        ))
    })?;
    let batch = match file.batch_id {
        None => None,
        Some(batch_id) => {
            let batch = store
                .batch_for_upload(area, batch_id)
                .await?
                .ok_or_else(|| {
                    Refusal::Invalid(format!(
                        "BatchID: {batch_id} is not a print batch of this customer area"
                    ))
                })?;
            if batch.snapshot_id != snapshot_id {
                return Err(Refusal::Invalid(format!(
                    "BatchID: batch {batch_id} is for snapshot {}, not for the attempt's snapshot {snapshot_id}",
                    batch.snapshot_id
                )));
            }
            Some((batch_id, batch))
        }
    };
    let snapshot = snapshot_questions(store, snapshots, area, snapshot_id).await?;
    let marking = check_and_mark(&file, &snapshot.questions);
    let (answers, mut problems) = (marking.answers, marking.problems);
    // The images of the answers that passed are decoded even when others did not,
    // so that a refusal names every problem at once. Decoding takes CPU time: off
    // the async workers, a few at a time.
    let images: Vec<(String, String, Vec<u8>)> = answers
        .iter()
        .filter_map(|a| {
            a.image_field
                .clone()
                .map(|field| (field, a.media_type.clone(), a.content.clone()))
        })
        .collect();
    if !images.is_empty() {
        let _turn = IMAGE_CHECKS
            .acquire()
            .await
            .map_err(|e| Refusal::Internal(format!("checking images: {e}")))?;
        let undecoded: Vec<UploadError> = tokio::task::spawn_blocking(move || {
            images
                .iter()
                .filter_map(|(field, media_type, data)| {
                    images::check(media_type, data, field).err()
                })
                .collect()
        })
        .await
        .map_err(|e| Refusal::Internal(format!("checking images: {e}")))?;
        problems.extend(undecoded);
    }
    if !problems.is_empty() {
        in_file_order(&mut problems);
        return Err(refused_for_all(problems));
    }
    let bands = store.score_bands(area, attempt.assessment_id).await?;
    let scores = scores_of(&answers, &bands);
    Ok(CheckedUpload {
        area,
        attempt_id,
        attempt,
        batch,
        answers,
        scores,
        language: snapshot.language.clone(),
        file: body,
        content_type: "application/json",
        at: now_millis(),
    })
}

/// Uploads whose images are being decoded at once, process-wide. A JPEG (baseline)
/// or a PNG is checked without holding its picture, but a progressive JPEG or a
/// TIFF is decoded whole: up to 160 MB for 40,000,000 pixels, which a small file
/// can claim. Two at a time bound that, whoever sends them; the rest wait.
static IMAGE_CHECKS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Stores a checked upload through the upload writer (its own transaction,
/// grouped with others').
pub async fn record(writer: &UploadWriter, upload: CheckedUpload) -> Result<(), Refusal> {
    let attempt_id = upload.attempt_id;
    writer
        .record(upload)
        .await
        .map(|_| ())
        .map_err(|error| conflict_named(attempt_id, error))
}

/// A store conflict on an upload, told as the attempt's.
pub fn conflict_named(attempt_id: i32, error: StoreError) -> Refusal {
    match error {
        StoreError::Conflict(_) => Refusal::Conflict(format!(
            "AttemptID: attempt {attempt_id} was uploaded by another request at the same moment; an attempt is uploaded once"
        )),
        other => Refusal::Store(other),
    }
}
