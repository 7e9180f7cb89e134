//! What a queued job does to results (docs/purges.md): the results it covers; a
//! group of results removed with everything that hangs from them, in a transaction
//! of its own; the participants of a name removed; one result replayed.

use sea_query::{Expr, Order, Query, SimpleExpr};

use crate::model::area::CustomerArea;
use crate::model::purge::JobTarget;
use crate::store::engine::script::Script;
use crate::store::results::jobs::Lease;
use crate::store::results::purge_group::purge_steps;
use crate::store::schema::{AnswerUploads, Attempts, GroupParticipants, Participants, Results};
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
                // A seed copy goes with the result it copies (below), and is
                // never counted as a result of the job.
                .and_where(Expr::col(Results::SeedFor).is_null())
                .order_by(Results::Id, Order::Asc)
                .to_owned(),
        )
        .await
    }

    /// Removes the results of `group` (IDs with their attempts) of `area` and
    /// everything that hangs from them, in one transaction of set-based
    /// statements, and counts those still there to the job, while `lease` is
    /// still held: otherwise (another process took the job over) it changes
    /// nothing. A crash leaves each result of the group whole or gone.
    pub async fn purge_results(
        &self,
        area: CustomerArea,
        lease: &Lease<'_>,
        group: &[(i32, Option<i32>)],
    ) -> Result<(), StoreError> {
        if group.is_empty() {
            return Ok(());
        }
        let mut script = Script::new(self.backend());
        for step in purge_steps(area, lease, group) {
            step.push_to(&mut script);
        }
        self.run_script(&script).await
    }

    /// Removes the participants of `area` named `name` with their attempts, the
    /// files uploaded for those, and their group memberships (their results are
    /// gone first: [`Store::purge_results`]). Returns how many participants.
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
