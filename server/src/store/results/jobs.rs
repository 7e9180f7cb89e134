//! The durable queue (docs/purges.md): a job queued with its audit log entry in
//! one transaction; claimed under a lease (PostgreSQL skips the jobs other
//! processes hold: `FOR UPDATE SKIP LOCKED`); renewed as it works; closed with its
//! entry, or given back to be tried again.

use sea_query::{Cond, Expr, LockBehavior, LockType, Order, Query, SelectStatement};

use crate::model::area::CustomerArea;
use crate::model::purge::JobTarget;
use crate::store::schema::{Jobs, ResultsAuditLog};
use crate::store::{Store, StoreError, Tx};

/// Who asked for a job, as its audit log entry records it.
pub struct AuditRequest<'a> {
    pub message_id: &'a str,
    pub user_id: i32,
    pub request_type: &'a str,
    pub request_data: &'a str,
    pub source: Option<&'a str>,
    pub at: i64,
}

/// A job a process holds until `locked_until`, renewed as it works.
#[derive(Debug, Clone)]
pub struct ClaimedJob {
    pub id: i64,
    pub area: i32,
    pub payload: String,
    pub audit_log_id: Option<i32>,
    /// How many times the job has been claimed, this time included.
    pub attempts: i32,
}

/// The lease a process holds a job under.
pub struct Lease<'a> {
    pub job_id: i64,
    pub owner: &'a str,
    pub until: i64,
}

type ClaimedRow = (i64, i32, String, Option<i32>, i32);

/// How many results job `job_id` has done.
fn results_done_of(job_id: i64) -> SelectStatement {
    Query::select()
        .column(Jobs::ResultsDone)
        .from(Jobs::Table)
        .and_where(Expr::col(Jobs::Id).eq(job_id))
        .to_owned()
}

impl Tx {
    /// Queues `target` for `area` with its audit log entry (IsInQueue true);
    /// returns the entry's ID.
    pub async fn queue_job(
        &mut self,
        area: CustomerArea,
        request: &AuditRequest<'_>,
        target: &JobTarget,
    ) -> Result<i32, StoreError> {
        let entry: i32 = self
            .fetch_scalar(
                &Query::insert()
                    .into_table(ResultsAuditLog::Table)
                    .columns([
                        ResultsAuditLog::CustomerId,
                        ResultsAuditLog::MessageId,
                        ResultsAuditLog::RequestUserId,
                        ResultsAuditLog::RequestType,
                        ResultsAuditLog::RequestData,
                        ResultsAuditLog::Source,
                        ResultsAuditLog::RequestAt,
                        ResultsAuditLog::IsInQueue,
                        ResultsAuditLog::TotalResultsAffected,
                    ])
                    .values_panic([
                        area.id().into(),
                        request.message_id.into(),
                        request.user_id.into(),
                        request.request_type.into(),
                        request.request_data.into(),
                        request.source.map(str::to_owned).into(),
                        request.at.into(),
                        true.into(),
                        0i32.into(),
                    ])
                    .returning_col(ResultsAuditLog::Id)
                    .to_owned(),
            )
            .await?;
        self.execute(
            &Query::insert()
                .into_table(Jobs::Table)
                .columns([
                    Jobs::CustomerId,
                    Jobs::Kind,
                    Jobs::Payload,
                    Jobs::AuditLogId,
                    Jobs::Attempts,
                    Jobs::RunAfter,
                    Jobs::CreatedAt,
                    Jobs::ResultsDone,
                ])
                .values_panic([
                    area.id().into(),
                    target.request_type().into(),
                    target.to_payload().into(),
                    entry.into(),
                    0i32.into(),
                    request.at.into(),
                    request.at.into(),
                    0i32.into(),
                ])
                .to_owned(),
        )
        .await?;
        Ok(entry)
    }
}

impl Store {
    /// Takes the oldest job that is due and that no live lease holds, for `owner`
    /// until `until`; `None` when there is none.
    pub async fn claim_job(
        &self,
        owner: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<ClaimedJob>, StoreError> {
        let due = Query::select()
            .column(Jobs::Id)
            .from(Jobs::Table)
            .and_where(Expr::col(Jobs::RunAfter).lte(now))
            .cond_where(
                Cond::any()
                    .add(Expr::col(Jobs::LockedUntil).is_null())
                    .add(Expr::col(Jobs::LockedUntil).lt(now)),
            )
            .order_by(Jobs::Id, Order::Asc)
            .limit(1)
            .lock_with_behavior(LockType::Update, LockBehavior::SkipLocked)
            .to_owned();
        let mut tx = self.begin().await?;
        let claimed: Option<ClaimedRow> = tx
            .fetch_optional(
                &Query::update()
                    .table(Jobs::Table)
                    .value(Jobs::LeaseOwner, owner)
                    .value(Jobs::LockedUntil, until)
                    .value(Jobs::Attempts, Expr::col(Jobs::Attempts).add(1))
                    .and_where(Expr::col(Jobs::Id).in_subquery(due))
                    .returning(Query::returning().columns([
                        Jobs::Id,
                        Jobs::CustomerId,
                        Jobs::Payload,
                        Jobs::AuditLogId,
                        Jobs::Attempts,
                    ]))
                    .to_owned(),
            )
            .await?;
        tx.commit().await?;
        Ok(
            claimed.map(|(id, area, payload, audit_log_id, attempts)| ClaimedJob {
                id,
                area,
                payload,
                audit_log_id,
                attempts,
            }),
        )
    }

    /// Renews `owner`'s lease on `job` until `until` and adds `count` results to
    /// its tally (replays, whose results stay; a purge counts each in its own
    /// transaction). The job's audit log entry shows the tally so far as its
    /// TotalResultsAffected, so that a client following a long purge sees it
    /// advance (every renewal: every 100 results). `false` when `owner` no longer
    /// holds the job.
    pub async fn renew_job(
        &self,
        job: &ClaimedJob,
        owner: &str,
        count: i32,
        until: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin().await?;
        let renewed = tx
            .execute(
                &Query::update()
                    .table(Jobs::Table)
                    .value(Jobs::ResultsDone, Expr::col(Jobs::ResultsDone).add(count))
                    .value(Jobs::LockedUntil, until)
                    .and_where(Expr::col(Jobs::Id).eq(job.id))
                    .and_where(Expr::col(Jobs::LeaseOwner).eq(owner))
                    .to_owned(),
            )
            .await?;
        if let (1, Some(entry)) = (renewed, job.audit_log_id) {
            let done: Option<(i32,)> = tx.fetch_optional(&results_done_of(job.id)).await?;
            if let Some((done,)) = done {
                tx.execute(
                    &Query::update()
                        .table(ResultsAuditLog::Table)
                        .value(ResultsAuditLog::TotalResultsAffected, done)
                        .and_where(Expr::col(ResultsAuditLog::CustomerId).eq(job.area))
                        .and_where(Expr::col(ResultsAuditLog::Id).eq(entry))
                        .to_owned(),
                )
                .await?;
            }
        }
        tx.commit().await?;
        Ok(renewed == 1)
    }

    /// Closes job `job.id` if `owner` still holds it: its audit log entry gets
    /// IsInQueue false, ProcessedDateTime `now`, WasSuccessful and the job's count
    /// as TotalResultsAffected, and the job leaves the queue. `false` when the
    /// lease was lost (the process that took the job over closes it).
    pub async fn finish_job(
        &self,
        job: &ClaimedJob,
        owner: &str,
        successful: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin().await?;
        let done: Option<(i32,)> = tx
            .fetch_optional(
                &results_done_of(job.id)
                    .and_where(Expr::col(Jobs::LeaseOwner).eq(owner))
                    .lock(LockType::Update)
                    .to_owned(),
            )
            .await?;
        let Some((done,)) = done else {
            return Ok(false);
        };
        if let Some(entry) = job.audit_log_id {
            tx.execute(
                &Query::update()
                    .table(ResultsAuditLog::Table)
                    .value(ResultsAuditLog::IsInQueue, false)
                    .value(ResultsAuditLog::ProcessedAt, now)
                    .value(ResultsAuditLog::WasSuccessful, successful)
                    .value(ResultsAuditLog::TotalResultsAffected, done)
                    .and_where(Expr::col(ResultsAuditLog::CustomerId).eq(job.area))
                    .and_where(Expr::col(ResultsAuditLog::Id).eq(entry))
                    .to_owned(),
            )
            .await?;
        }
        tx.execute(
            &Query::delete()
                .from_table(Jobs::Table)
                .and_where(Expr::col(Jobs::Id).eq(job.id))
                .to_owned(),
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Gives job `job_id` back to the queue after a failure, to be tried again
    /// from `run_after`.
    pub async fn release_job(
        &self,
        job_id: i64,
        owner: &str,
        error: &str,
        run_after: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        tx.execute(
            &Query::update()
                .table(Jobs::Table)
                .value(Jobs::LeaseOwner, Option::<String>::None)
                .value(Jobs::LockedUntil, Option::<i64>::None)
                .value(Jobs::LastError, error)
                .value(Jobs::RunAfter, run_after)
                .and_where(Expr::col(Jobs::Id).eq(job_id))
                .and_where(Expr::col(Jobs::LeaseOwner).eq(owner))
                .to_owned(),
        )
        .await?;
        tx.commit().await
    }
}
