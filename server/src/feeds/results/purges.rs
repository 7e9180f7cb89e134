//! The purge actions: each queued as a job of the durable queue with its audit log
//! entry, in one transaction, and answered 202 at once (jobs/ does the work), and
//! the retention period.

use axum::response::Response;

use crate::feeds::handler::ActionRequest;
use crate::model::purge::{check_run_type, retention_cutoff, JobTarget};
use crate::odata::ApiError;
use crate::store::{now_millis, AuditRequest};

/// Queues the purge the request asks for.
pub async fn queue(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    let store = &request.state.store;
    let now = now_millis();
    let mut request_data = request.arguments.to_json();
    let target = match request.name() {
        "PurgeResultsByParticipantName" => JobTarget::ParticipantName {
            name: request.required_text("ParticipantName", "the participant's name")?,
        },
        "PurgeParticipantAndResultsByParticipantName" => JobTarget::ParticipantAndResults {
            name: request.required_text("ParticipantName", "the participant's name")?,
        },
        "PurgeResultsByAssessmentId" => {
            let text = request.required_text("AssessmentID", "the assessment's ID, as a string")?;
            let assessment_id = text.parse().map_err(|_| {
                ApiError::bad_request(format!(
                    "PurgeResultsByAssessmentId: the parameter AssessmentID is '{text}', not an assessment ID (an Int64, written as a string)"
                ))
            })?;
            JobTarget::AssessmentId { assessment_id }
        }
        "Purge" => {
            let result_id = request.bound_result()?;
            if !store.result_exists(request.area, result_id).await? {
                return Err(ApiError::not_found(format!(
                    "there is no result {result_id} in this customer area"
                )));
            }
            request_data = serde_json::json!({ "ResultID": result_id }).to_string();
            JobTarget::OneResult { result_id }
        }
        "PurgeResultsByRetentionPolicy" => {
            request.required_text(
                "AdministratorName",
                "the name of whoever asked for the purge, for the audit log",
            )?;
            let run_type =
                request.required_text("RunType", "what triggered the purge, for the audit log")?;
            check_run_type(&run_type).map_err(ApiError::bad_request)?;
            let days = store.retention_days(request.area).await?.ok_or_else(|| {
                ApiError::Conflict(
                    "PurgeResultsByRetentionPolicy: this customer area has no retention policy, \
                     so nothing is purged; an operator sets one with \
                     `scoredesk-server retention set --customer N --days D`"
                        .into(),
                )
            })?;
            JobTarget::Retention {
                cutoff: retention_cutoff(now, days),
            }
        }
        other => {
            return Err(ApiError::Internal(anyhow::anyhow!(
                "the action {other} was routed to the purges"
            )))
        }
    };
    let message_id = uuid::Uuid::new_v4().to_string();
    let source = request.source();
    let mut tx = store.begin().await?;
    let entry = tx
        .queue_job(
            request.area,
            &AuditRequest {
                message_id: &message_id,
                user_id: request.principal.account_id,
                request_type: target.request_type(),
                request_data: &request_data,
                source: source.as_deref(),
                at: now,
            },
            &target,
        )
        .await?;
    tx.commit().await?;
    request.state.jobs_queued.notify_one();
    Ok(request.accepted(entry))
}

/// `FetchPurgeRetentionPeriodDays`: the area's retention period in days, or 404.
pub async fn retention_period(request: &ActionRequest<'_>) -> Result<Response, ApiError> {
    match request.state.store.retention_days(request.area).await? {
        Some(days) => request.returned("Edm.Int32", days.into()),
        None => Err(ApiError::not_found(
            "this customer area has no retention policy",
        )),
    }
}
