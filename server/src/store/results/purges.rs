//! What a queued job does to results (docs/purges.md): the results it covers; one
//! result removed with everything that hangs from it, in a transaction of its own;
//! the participants of a name removed; one result replayed.

use sea_query::{DeleteStatement, Expr, IntoIden, Order, Query, SimpleExpr};

use crate::model::area::CustomerArea;
use crate::model::purge::JobTarget;
use crate::store::engine::script::Script;
use crate::store::results::jobs::Lease;
use crate::store::schema::{
    AnswerUploads, Answers, Attempts, DimensionScores, GroupParticipants, Jobs, Participants,
    Results, ScoringEvents, ScoringResults, ScoringTasks, TopicScores,
};
use crate::store::{Store, StoreError};

impl Store {
    /// The results `target` covers in `area`, with their attempts, by ID.
    pub async fn results_of_job(
        &self,
        area: CustomerArea,
        target: &JobTarget,
    ) -> Result<Vec<(i32, Option<i32>)>, StoreError> {
        let which: SimpleExpr = match target {
            JobTarget::ParticipantName { name } => Expr::col(Results::ParticipantName).eq(name),
            JobTarget::ParticipantAndResults { name } => Expr::col(Results::ParticipantName)
                .eq(name)
                .or(Expr::col(Results::ParticipantId).in_subquery(participants_named(area, name))),
            JobTarget::AssessmentId { assessment_id } => {
                Expr::col(Results::AssessmentId).eq(*assessment_id)
            }
            JobTarget::OneResult { result_id } => Expr::col(Results::Id).eq(*result_id),
            JobTarget::Retention { cutoff } => Expr::col(Results::WhenFinished).lt(*cutoff),
            JobTarget::ReplayRange { start, end } => {
                Expr::col(Results::WhenFinished).between(*start, *end)
            }
        };
        self.fetch_all(
            &Query::select()
                .columns([Results::Id, Results::AttemptId])
                .from(Results::Table)
                .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                .and_where(which)
                .order_by(Results::Id, Order::Asc)
                .to_owned(),
        )
        .await
    }

    /// Removes result `result_id` of `area` and everything that hangs from it, in
    /// one transaction, and counts it to the job, while `lease` is still held:
    /// otherwise (another process took the job over) it changes nothing.
    pub async fn purge_result(
        &self,
        area: CustomerArea,
        lease: &Lease<'_>,
        result_id: i32,
        attempt_id: Option<i32>,
    ) -> Result<(), StoreError> {
        let held = || {
            Expr::exists(
                Query::select()
                    .expr(Expr::val(1))
                    .from(Jobs::Table)
                    .and_where(Expr::col(Jobs::Id).eq(lease.job_id))
                    .and_where(Expr::col(Jobs::LeaseOwner).eq(lease.owner))
                    .to_owned(),
            )
        };
        let mut script = Script::new(self.backend());
        script.push(
            &Query::update()
                .table(Jobs::Table)
                .value(Jobs::LockedUntil, lease.until)
                .value(Jobs::ResultsDone, Expr::col(Jobs::ResultsDone).add(1))
                .and_where(Expr::col(Jobs::Id).eq(lease.job_id))
                .and_where(Expr::col(Jobs::LeaseOwner).eq(lease.owner))
                .and_where(Expr::exists(
                    Query::select()
                        .expr(Expr::val(1))
                        .from(Results::Table)
                        .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Results::Id).eq(result_id))
                        .to_owned(),
                ))
                .to_owned(),
        );
        // Children before parents: dimension scores hang from scoring results,
        // scoring results and events from tasks.
        script.push(
            &of_result(
                DimensionScores::Table,
                DimensionScores::CustomerId,
                DimensionScores::ResultId,
                area,
                result_id,
            )
            .and_where(held())
            .to_owned(),
        );
        script.push(
            &of_result(
                ScoringEvents::Table,
                ScoringEvents::CustomerId,
                ScoringEvents::ResultId,
                area,
                result_id,
            )
            .and_where(held())
            .to_owned(),
        );
        script.push(
            &of_result(
                ScoringResults::Table,
                ScoringResults::CustomerId,
                ScoringResults::ResultId,
                area,
                result_id,
            )
            .and_where(held())
            .to_owned(),
        );
        script.push(
            &of_result(
                ScoringTasks::Table,
                ScoringTasks::CustomerId,
                ScoringTasks::ResultId,
                area,
                result_id,
            )
            .and_where(held())
            .to_owned(),
        );
        script.push(
            &of_result(
                Answers::Table,
                Answers::CustomerId,
                Answers::ResultId,
                area,
                result_id,
            )
            .and_where(held())
            .to_owned(),
        );
        script.push(
            &of_result(
                TopicScores::Table,
                TopicScores::CustomerId,
                TopicScores::ResultId,
                area,
                result_id,
            )
            .and_where(held())
            .to_owned(),
        );
        if let Some(attempt_id) = attempt_id {
            script.push(
                &Query::delete()
                    .from_table(AnswerUploads::Table)
                    .and_where(Expr::col(AnswerUploads::CustomerId).eq(area.id()))
                    .and_where(Expr::col(AnswerUploads::AttemptId).eq(attempt_id))
                    .and_where(held())
                    .to_owned(),
            );
            script.push(
                &Query::update()
                    .table(Attempts::Table)
                    .value(Attempts::ResultId, Option::<i32>::None)
                    .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Attempts::Id).eq(attempt_id))
                    .and_where(Expr::col(Attempts::ResultId).eq(result_id))
                    .and_where(held())
                    .to_owned(),
            );
        }
        script.push(
            &Query::delete()
                .from_table(Results::Table)
                .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                .and_where(Expr::col(Results::Id).eq(result_id))
                .and_where(held())
                .to_owned(),
        );
        self.run_script(&script).await
    }

    /// Removes the participants of `area` named `name` with their attempts, the
    /// files uploaded for those, and their group memberships (their results are
    /// gone first: [`Store::purge_result`]). Returns how many participants.
    pub async fn purge_participants(
        &self,
        area: CustomerArea,
        name: &str,
    ) -> Result<u64, StoreError> {
        let mut tx = self.begin().await?;
        let attempts = Query::select()
            .column(Attempts::Id)
            .from(Attempts::Table)
            .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
            .and_where(
                Expr::col(Attempts::ParticipantId).in_subquery(participants_named(area, name)),
            )
            .to_owned();
        tx.execute(
            &Query::delete()
                .from_table(AnswerUploads::Table)
                .and_where(Expr::col(AnswerUploads::CustomerId).eq(area.id()))
                .and_where(Expr::col(AnswerUploads::AttemptId).in_subquery(attempts))
                .to_owned(),
        )
        .await?;
        tx.execute(
            &Query::delete()
                .from_table(Attempts::Table)
                .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                .and_where(
                    Expr::col(Attempts::ParticipantId).in_subquery(participants_named(area, name)),
                )
                .to_owned(),
        )
        .await?;
        tx.execute(
            &Query::delete()
                .from_table(GroupParticipants::Table)
                .and_where(Expr::col(GroupParticipants::CustomerId).eq(area.id()))
                .and_where(
                    Expr::col(GroupParticipants::ParticipantId)
                        .in_subquery(participants_named(area, name)),
                )
                .to_owned(),
        )
        .await?;
        let removed = tx
            .execute(
                &Query::delete()
                    .from_table(Participants::Table)
                    .and_where(Expr::col(Participants::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Participants::Name).eq(name))
                    .to_owned(),
            )
            .await?;
        tx.commit().await?;
        Ok(removed)
    }
}

/// `SELECT id FROM participants WHERE customer_id = area AND name = name`.
fn participants_named(area: CustomerArea, name: &str) -> sea_query::SelectStatement {
    Query::select()
        .column(Participants::Id)
        .from(Participants::Table)
        .and_where(Expr::col(Participants::CustomerId).eq(area.id()))
        .and_where(Expr::col(Participants::Name).eq(name))
        .to_owned()
}

/// `DELETE FROM table WHERE customer = area AND result = result_id`.
fn of_result(
    table: impl IntoIden + 'static,
    customer: impl IntoIden + 'static,
    result: impl IntoIden + 'static,
    area: CustomerArea,
    result_id: i32,
) -> DeleteStatement {
    Query::delete()
        .from_table(table)
        .and_where(Expr::col(customer).eq(area.id()))
        .and_where(Expr::col(result).eq(result_id))
        .to_owned()
}

impl Store {
    /// Recomputes result `result_id`'s scores and TopicScores from its stored
    /// answers, in a transaction of its own; `false` when it does not exist.
    pub async fn replay_result(
        &self,
        area: CustomerArea,
        result_id: i32,
    ) -> Result<bool, StoreError> {
        let mut tx = self.begin().await?;
        if !tx.lock_result(area, result_id).await? {
            return Ok(false);
        }
        tx.rescore_result(area, result_id).await?;
        tx.commit().await?;
        Ok(true)
    }
}
