//! The daily retention purge: once a day, for each customer area with a retention
//! policy, a PurgeResultsByRetentionPolicy job with RunType `Scheduled` is queued,
//! by whichever process gets there first (the day's row in `scheduled_purges`).

use crate::model::area::CustomerArea;
use crate::model::purge::{day_of, retention_cutoff, JobTarget, SCHEDULED};
use crate::store::{now_millis, AuditRequest, Store, StoreError};

/// The audit log's RequestUserID for what the server does on its own: no account.
pub const SERVER_USER_ID: i32 = 0;

pub async fn queue_due_retention_purges(store: &Store) -> Result<(), StoreError> {
    let now = now_millis();
    for (area, days) in store.retention_policies().await? {
        let Some(area) = CustomerArea::new(area) else {
            continue;
        };
        let mut tx = store.begin().await?;
        if !tx.claim_scheduled_day(area, day_of(now)).await? {
            continue;
        }
        let target = JobTarget::Retention {
            cutoff: retention_cutoff(now, days),
        };
        let data = serde_json::json!({
            "AdministratorName": "scoredesk-server",
            "RunType": SCHEDULED,
            "RetentionPeriodDays": days,
        })
        .to_string();
        let message_id = uuid::Uuid::new_v4().to_string();
        tx.queue_job(
            area,
            &AuditRequest {
                message_id: &message_id,
                user_id: SERVER_USER_ID,
                request_type: target.request_type(),
                request_data: &data,
                source: None,
                at: now,
            },
            &target,
        )
        .await?;
        tx.commit().await?;
        tracing::info!(area = area.id(), days, "queued the daily retention purge");
    }
    Ok(())
}
