//! The replay actions (spec: "reserved for internal use"): a result's scores,
//! percentage, score band and TopicScores recomputed from its stored answers, a
//! transaction per result. One result and a list of IDs are done at once and
//! answered with what happened; a date range, which may cover any number of
//! results, is queued like a purge.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::feeds::handler::ActionRequest;
use crate::model::purge::JobTarget;
use crate::odata::ApiError;
use crate::store::{now_millis, AuditRequest};

/// The most result IDs one `ReplayResultsByIDList` takes: it is answered when done.
const MOST_IDS: usize = 10_000;

pub async fn invoke(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    match request.name() {
        "ReplayResult" => {
            let result_id = request.bound_result()?;
            if !request
                .state
                .store
                .replay_result(request.area, result_id)
                .await?
            {
                return Err(ApiError::not_found(format!(
                    "there is no result {result_id} in this customer area"
                )));
            }
            let mut response = StatusCode::NO_CONTENT.into_response();
            response.headers_mut().insert(
                "DataServiceVersion",
                axum::http::HeaderValue::from_static("3.0;"),
            );
            Ok(response)
        }
        "ReplayResultsByIDList" => by_ids(request).await,
        _ => by_date_range(request).await,
    }
}

async fn by_ids(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let ids = request.arguments.int32s("ResultIds").ok_or_else(|| {
        ApiError::bad_request(
            "ReplayResultsByIDList: the parameter ResultIds is required: an array of result IDs",
        )
    })?;
    if ids.len() > MOST_IDS {
        return Err(ApiError::bad_request(format!(
            "ReplayResultsByIDList: ResultIds holds {} IDs; send at most {MOST_IDS} at a time",
            ids.len()
        )));
    }
    let mut failed = Vec::new();
    for id in ids {
        if !request.state.store.replay_result(request.area, *id).await? {
            failed.push(*id);
        }
    }
    let succeeded = ids.len() - failed.len();
    let message = if failed.is_empty() {
        format!("{succeeded} results replayed")
    } else {
        format!(
            "{succeeded} results replayed; {} are not results of this customer area",
            failed.len()
        )
    };
    request.returned(
        "ScoreDesk.ReplayOutcome",
        json!({
            "SuccessCount": succeeded,
            "FailureCount": failed.len(),
            "Message": message,
            "FailureResultIds": failed,
        }),
    )
}

async fn by_date_range(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let date = |name: &str| {
        request.arguments.date_time(name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "ReplayResultsByDateRange: the parameter {name} is required: a DateTime"
            ))
        })
    };
    let (start, end) = (date("StartDate")?, date("EndDate")?);
    if start > end {
        return Err(ApiError::bad_request(
            "ReplayResultsByDateRange: StartDate is after EndDate",
        ));
    }
    let target = JobTarget::ReplayRange { start, end };
    let message_id = uuid::Uuid::new_v4().to_string();
    let source = request.source();
    let mut tx = request.state.store.begin().await?;
    let entry = tx
        .queue_job(
            request.area,
            &AuditRequest {
                message_id: &message_id,
                user_id: request.principal.account_id,
                request_type: target.request_type(),
                request_data: &request.arguments.to_json(),
                source: source.as_deref(),
                at: now_millis(),
            },
            &target,
        )
        .await?;
    tx.commit().await?;
    request.state.jobs_queued.notify_one();
    Ok(request.accepted(entry))
}
