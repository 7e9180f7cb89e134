//! `POST AnswerUploads` (spec, "AnswerUpload"; contract, "Answer upload file"): the
//! upload file checked in full and stored by `uploads` (docs/upload-format.md), in
//! the request's change set when it is part of one.

use super::fields;
use crate::feeds::handler::limits::*;
use crate::feeds::handler::write_handler;
use crate::feeds::handler::Feed;
use crate::feeds::handler::{WriteRequest, Written};
use crate::odata::body::require_json;
use crate::odata::edm::EdmType::{DateTime, Int32};
use crate::odata::model::{prop, EntitySet, Media, MediaType};
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::ApiError;
use crate::store::WriteScope;
use crate::uploads::{self, Refusal};

pub static ANSWER_UPLOADS: EntitySet = EntitySet {
    name: "AnswerUploads",
    type_name: "AnswerUpload",
    table: "answer_uploads",
    key: &["AttemptID"],
    properties: &[
        prop("AttemptID", "attempt_id", Int32, false),
        prop("UploadedDateTime", "uploaded_at", DateTime, false),
    ],
    navigations: &[],
    concurrency: None,
    filterable: &["AttemptID"],
    media: Some(Media {
        content_column: "content",
        media_type: MediaType::Column("content_type"),
    }),
    writes: CREATE_ONLY,
};

pub(crate) fn answer(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Invalid(message) => ApiError::bad_request(message),
        Refusal::Conflict(message) => ApiError::Conflict(message),
        Refusal::Store(error) => error.into(),
        Refusal::Internal(message) => ApiError::Internal(anyhow::anyhow!(message)),
    }
}

pub static FEED: Feed = Feed {
    post: Some(write_handler!(post)),
    ..Feed::read_only(&ANSWER_UPLOADS)
};

async fn post(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    fields::not_through_navigation(request)?;
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
