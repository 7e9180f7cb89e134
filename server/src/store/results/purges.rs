//! What a queued job does to results (docs/purges.md): the results it covers; a
//! group of results removed with everything that hangs from them, in a transaction
//! of its own; the participants of a name removed; one result replayed.

use sea_query::{Cond, Expr, IntoIden, Order, Query, SimpleExpr};

use crate::model::area::CustomerArea;
use crate::model::purge::JobTarget;
use crate::store::engine::script::Script;
use crate::store::results::jobs::Lease;
use crate::store::schema::{
    AnswerGroupMarkings, AnswerGroupMembers, AnswerUploads, Answers, Attempts, DimensionScores,
    FlagAnswers, Flags, GroupParticipants, Jobs, MarkingQueue, MarkingScores, Markings,
    Participants, Results, ScoringEvents, ScoringResults, ScoringTasks, SeedCopies, SeedScores,
    Seeds, TopicScores,
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
        let results = || group.iter().map(|(result, _)| *result);
        // The group's results and the seed copies made of them: a copy holds the
        // participant's answers too (docs/marking-quality.md, "Seeds").
        let seeds_of_group = || {
            Query::select()
                .column(Seeds::Id)
                .from(Seeds::Table)
                .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
                .and_where(Expr::col(Seeds::ResultId).is_in(results()))
                .to_owned()
        };
        let copies = || {
            Query::select()
                .column(SeedCopies::ResultId)
                .from(SeedCopies::Table)
                .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                .and_where(Expr::col(SeedCopies::SeedId).in_subquery(seeds_of_group()))
                .to_owned()
        };
        let doomed = |result: sea_query::DynIden| {
            Expr::col(result.clone())
                .is_in(results())
                .or(Expr::col(result).in_subquery(copies()))
        };
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
        let still_there = Query::select()
            .expr(Expr::col(Results::Id).count())
            .from(Results::Table)
            .and_where(Expr::col(Results::CustomerId).eq(area.id()))
            .and_where(Expr::col(Results::Id).is_in(results()))
            .to_owned();
        let mut script = Script::new(self.backend());
        script.push(
            &Query::update()
                .table(Jobs::Table)
                .value(Jobs::LockedUntil, lease.until)
                .value(
                    Jobs::ResultsDone,
                    Expr::col(Jobs::ResultsDone).add(SimpleExpr::SubQuery(
                        None,
                        Box::new(still_there.into_sub_query_statement()),
                    )),
                )
                .and_where(Expr::col(Jobs::Id).eq(lease.job_id))
                .and_where(Expr::col(Jobs::LeaseOwner).eq(lease.owner))
                .to_owned(),
        );
        // An answer group's record goes with its marked script, and each
        // member's with its own (model::purge keeps nothing of a purged result).
        let group_markings_of_doomed = Query::select()
            .column(AnswerGroupMarkings::Id)
            .from(AnswerGroupMarkings::Table)
            .and_where(Expr::col(AnswerGroupMarkings::CustomerId).eq(area.id()))
            .and_where(doomed(AnswerGroupMarkings::ResultId.into_iden()))
            .to_owned();
        script.push(
            &Query::delete()
                .from_table(AnswerGroupMembers::Table)
                .and_where(Expr::col(AnswerGroupMembers::CustomerId).eq(area.id()))
                .cond_where(
                    Cond::any()
                        .add(doomed(AnswerGroupMembers::ResultId.into_iden()))
                        .add(
                            Expr::col(AnswerGroupMembers::MarkingId)
                                .in_subquery(group_markings_of_doomed),
                        ),
                )
                .and_where(held())
                .to_owned(),
        );
        script.push(
            &Query::delete()
                .from_table(AnswerGroupMarkings::Table)
                .and_where(Expr::col(AnswerGroupMarkings::CustomerId).eq(area.id()))
                .and_where(doomed(AnswerGroupMarkings::ResultId.into_iden()))
                .and_where(held())
                .to_owned(),
        );
        // Children before parents: marking scores hang from markings; dimension
        // scores from scoring results; scoring results, events, flags (answers
        // from flags), markings and the marking queue from tasks.
        for (table, customer, result) in [
            (
                MarkingScores::Table.into_iden(),
                MarkingScores::CustomerId.into_iden(),
                MarkingScores::ResultId.into_iden(),
            ),
            (
                Markings::Table.into_iden(),
                Markings::CustomerId.into_iden(),
                Markings::ResultId.into_iden(),
            ),
            (
                MarkingQueue::Table.into_iden(),
                MarkingQueue::CustomerId.into_iden(),
                MarkingQueue::ResultId.into_iden(),
            ),
            (
                FlagAnswers::Table.into_iden(),
                FlagAnswers::CustomerId.into_iden(),
                FlagAnswers::ResultId.into_iden(),
            ),
            (
                Flags::Table.into_iden(),
                Flags::CustomerId.into_iden(),
                Flags::ResultId.into_iden(),
            ),
            (
                DimensionScores::Table.into_iden(),
                DimensionScores::CustomerId.into_iden(),
                DimensionScores::ResultId.into_iden(),
            ),
            (
                ScoringEvents::Table.into_iden(),
                ScoringEvents::CustomerId.into_iden(),
                ScoringEvents::ResultId.into_iden(),
            ),
            (
                ScoringResults::Table.into_iden(),
                ScoringResults::CustomerId.into_iden(),
                ScoringResults::ResultId.into_iden(),
            ),
            (
                ScoringTasks::Table.into_iden(),
                ScoringTasks::CustomerId.into_iden(),
                ScoringTasks::ResultId.into_iden(),
            ),
            (
                Answers::Table.into_iden(),
                Answers::CustomerId.into_iden(),
                Answers::ResultId.into_iden(),
            ),
            (
                TopicScores::Table.into_iden(),
                TopicScores::CustomerId.into_iden(),
                TopicScores::ResultId.into_iden(),
            ),
        ] {
            script.push(
                &Query::delete()
                    .from_table(table)
                    .and_where(Expr::col(customer).eq(area.id()))
                    .and_where(doomed(result))
                    .and_where(held())
                    .to_owned(),
            );
        }
        let attempts: Vec<i32> = group.iter().filter_map(|(_, attempt)| *attempt).collect();
        if !attempts.is_empty() {
            script.push(
                &Query::delete()
                    .from_table(AnswerUploads::Table)
                    .and_where(Expr::col(AnswerUploads::CustomerId).eq(area.id()))
                    .and_where(Expr::col(AnswerUploads::AttemptId).is_in(attempts.iter().copied()))
                    .and_where(held())
                    .to_owned(),
            );
            // The attempt stays, unlinked, and may be uploaded again.
            script.push(
                &Query::update()
                    .table(Attempts::Table)
                    .value(Attempts::ResultId, Option::<i32>::None)
                    .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Attempts::Id).is_in(attempts.iter().copied()))
                    .and_where(Expr::col(Attempts::ResultId).is_in(results()))
                    .and_where(held())
                    .to_owned(),
            );
        }
        script.push(
            &Query::delete()
                .from_table(Results::Table)
                .and_where(Expr::col(Results::CustomerId).eq(area.id()))
                .and_where(doomed(Results::Id.into_iden()))
                .and_where(held())
                .to_owned(),
        );
        // The seeds last: their copies were found through them.
        script.push(
            &Query::delete()
                .from_table(SeedCopies::Table)
                .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                .and_where(Expr::col(SeedCopies::SeedId).in_subquery(seeds_of_group()))
                .and_where(held())
                .to_owned(),
        );
        script.push(
            &Query::delete()
                .from_table(SeedScores::Table)
                .and_where(Expr::col(SeedScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(SeedScores::SeedId).in_subquery(seeds_of_group()))
                .and_where(held())
                .to_owned(),
        );
        script.push(
            &Query::delete()
                .from_table(Seeds::Table)
                .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
                .and_where(Expr::col(Seeds::ResultId).is_in(results()))
                .and_where(held())
                .to_owned(),
        );
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
