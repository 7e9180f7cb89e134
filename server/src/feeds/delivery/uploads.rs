//! `POST AnswerUploads` (spec, "AnswerUpload"; contract, "Answer upload file"): the
//! upload file checked in full and stored by `uploads` (docs/upload-format.md), in
//! the request's change set when it is part of one.

use crate::feeds::entities::ANSWER_UPLOADS;
use crate::feeds::write::{WriteRequest, Written};
use crate::odata::body::require_json;
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::WriteScope;
use crate::uploads::{self, Refusal};

pub(crate) fn answer(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Invalid(message) => ApiError::bad_request(message),
        Refusal::Conflict(message) => ApiError::Conflict(message),
        Refusal::Store(error) => error.into(),
        Refusal::Internal(message) => ApiError::Internal(anyhow::anyhow!(message)),
    }
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
    let state = request.state;
    let upload = uploads::check(
        &state.store,
        &state.snapshots,
        request.area,
        request.body.clone(),
    )
    .await
    .map_err(answer)?;
    let attempt_id = upload.attempt_id;
    if writes.is_change_set() {
        writes
            .tx()
            .await?
            .record_uploads(std::slice::from_ref(&upload))
            .await
            .and_then(|mut outcomes| outcomes.pop().expect("one outcome per upload"))
            .map_err(|error| answer(uploads::conflict_named(attempt_id, error)))?;
    } else {
        uploads::record(&state.uploads, upload)
            .await
            .map_err(answer)?;
    }
    Ok(Written::Created {
        path: EntityPath {
            set: &ANSWER_UPLOADS,
            key: Some(parse_key(&ANSWER_UPLOADS, &attempt_id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: attempt_id.to_string(),
    })
}
