//! The statements that remove one group of results with everything that hangs
//! from them (`Store::purge_results` runs them as one transaction), and their
//! plans for the plan tests and the benchmark. Each statement finds its rows
//! through an index by result, so a purge's pace does not depend on the size
//! of the tables (docs/benchmarks.md, "Purges after seeds").

use sea_query::{DeleteStatement, Expr, IntoIden, Query, SimpleExpr, UnionType, UpdateStatement};

use crate::model::area::CustomerArea;
use crate::store::engine::script::Script;
use crate::store::results::jobs::Lease;
use crate::store::schema::{
    Annotations, AnswerGroupMarkings, AnswerGroupMembers, AnswerUploads, Answers, Attempts,
    DimensionScores, FlagAnswers, Flags, Jobs, MarkingQueue, MarkingScores, Markings, Results,
    ScoringEvents, ScoringResults, ScoringTasks, SeedCopies, SeedScores, Seeds, TopicScores,
};
use crate::store::{Store, StoreError};

/// One statement of a group's purge.
pub(super) enum Step {
    Update(UpdateStatement),
    Delete(DeleteStatement),
}

impl From<UpdateStatement> for Step {
    fn from(statement: UpdateStatement) -> Self {
        Self::Update(statement)
    }
}

impl From<DeleteStatement> for Step {
    fn from(statement: DeleteStatement) -> Self {
        Self::Delete(statement)
    }
}

impl Step {
    pub(super) fn push_to(&self, script: &mut Script) {
        match self {
            Self::Update(statement) => script.push(statement),
            Self::Delete(statement) => script.push(statement),
        }
    }

    /// The statement, as SQLite would be sent it (to name it beside its plan).
    fn text(&self) -> String {
        match self {
            Self::Update(statement) => statement.to_string(sea_query::SqliteQueryBuilder),
            Self::Delete(statement) => statement.to_string(sea_query::SqliteQueryBuilder),
        }
    }
}

/// The statements that remove `group` (result IDs with their attempts) of
/// `area`, each only while `lease` is held, the job's count first.
pub(super) fn purge_steps(
    area: CustomerArea,
    lease: &Lease<'_>,
    group: &[(i32, Option<i32>)],
) -> Vec<Step> {
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
    // One subquery, so that each table's rows are found through its index
    // by result: `IN (list) OR IN (subquery)` made PostgreSQL scan every
    // table whole for each group (docs/benchmarks.md, "Purges after seeds").
    let doomed = |result: sea_query::DynIden| {
        let mut doomed = Query::select()
            .column(Results::Id)
            .from(Results::Table)
            .and_where(Expr::col(Results::CustomerId).eq(area.id()))
            .and_where(Expr::col(Results::Id).is_in(results()))
            .to_owned();
        doomed.union(UnionType::All, copies());
        Expr::col(result).in_subquery(doomed)
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
    let mut steps = Vec::<Step>::new();
    steps.push(
        Query::update()
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
            .to_owned()
            .into(),
    );
    // An answer group's record goes with its marked steps, and each
    // member's with its own (model::purge keeps nothing of a purged result).
    let group_markings_of_doomed = Query::select()
        .column(AnswerGroupMarkings::Id)
        .from(AnswerGroupMarkings::Table)
        .and_where(Expr::col(AnswerGroupMarkings::CustomerId).eq(area.id()))
        .and_where(doomed(AnswerGroupMarkings::ResultId.into_iden()))
        .to_owned();
    steps.push(
        Query::delete()
            .from_table(AnswerGroupMembers::Table)
            .and_where(Expr::col(AnswerGroupMembers::CustomerId).eq(area.id()))
            .and_where(doomed(AnswerGroupMembers::ResultId.into_iden()))
            .and_where(held())
            .to_owned()
            .into(),
    );
    // Two statements rather than an OR, for the same reason as `doomed`.
    steps.push(
        Query::delete()
            .from_table(AnswerGroupMembers::Table)
            .and_where(Expr::col(AnswerGroupMembers::CustomerId).eq(area.id()))
            .and_where(
                Expr::col(AnswerGroupMembers::MarkingId).in_subquery(group_markings_of_doomed),
            )
            .and_where(held())
            .to_owned()
            .into(),
    );
    steps.push(
        Query::delete()
            .from_table(AnswerGroupMarkings::Table)
            .and_where(Expr::col(AnswerGroupMarkings::CustomerId).eq(area.id()))
            .and_where(doomed(AnswerGroupMarkings::ResultId.into_iden()))
            .and_where(held())
            .to_owned()
            .into(),
    );
    // Children before parents: annotations hang from tasks and answers;
    // marking scores from markings; dimension
    // scores from scoring results; scoring results, events, flags (answers
    // from flags), markings and the marking queue from tasks.
    for (table, customer, result) in [
        (
            Annotations::Table.into_iden(),
            Annotations::CustomerId.into_iden(),
            Annotations::ResultId.into_iden(),
        ),
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
        steps.push(
            Query::delete()
                .from_table(table)
                .and_where(Expr::col(customer).eq(area.id()))
                .and_where(doomed(result))
                .and_where(held())
                .to_owned()
                .into(),
        );
    }
    let attempts: Vec<i32> = group.iter().filter_map(|(_, attempt)| *attempt).collect();
    if !attempts.is_empty() {
        steps.push(
            Query::delete()
                .from_table(AnswerUploads::Table)
                .and_where(Expr::col(AnswerUploads::CustomerId).eq(area.id()))
                .and_where(Expr::col(AnswerUploads::AttemptId).is_in(attempts.iter().copied()))
                .and_where(held())
                .to_owned()
                .into(),
        );
        // The attempt stays, unlinked, and may be uploaded again.
        steps.push(
            Query::update()
                .table(Attempts::Table)
                .value(Attempts::ResultId, Option::<i32>::None)
                .and_where(Expr::col(Attempts::CustomerId).eq(area.id()))
                .and_where(Expr::col(Attempts::Id).is_in(attempts.iter().copied()))
                .and_where(Expr::col(Attempts::ResultId).is_in(results()))
                .and_where(held())
                .to_owned()
                .into(),
        );
    }
    steps.push(
        Query::delete()
            .from_table(Results::Table)
            .and_where(Expr::col(Results::CustomerId).eq(area.id()))
            .and_where(doomed(Results::Id.into_iden()))
            .and_where(held())
            .to_owned()
            .into(),
    );
    // The seeds last: their copies were found through them.
    steps.push(
        Query::delete()
            .from_table(SeedCopies::Table)
            .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
            .and_where(Expr::col(SeedCopies::SeedId).in_subquery(seeds_of_group()))
            .and_where(held())
            .to_owned()
            .into(),
    );
    steps.push(
        Query::delete()
            .from_table(SeedScores::Table)
            .and_where(Expr::col(SeedScores::CustomerId).eq(area.id()))
            .and_where(Expr::col(SeedScores::SeedId).in_subquery(seeds_of_group()))
            .and_where(held())
            .to_owned()
            .into(),
    );
    steps.push(
        Query::delete()
            .from_table(Seeds::Table)
            .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
            .and_where(Expr::col(Seeds::ResultId).is_in(results()))
            .and_where(held())
            .to_owned()
            .into(),
    );
    steps
}

impl Store {
    /// Each statement of a purge of `results` of `area` with its plan (the
    /// statement first), for the plan tests and the benchmark: nothing is
    /// removed.
    pub async fn plans_of_a_purge(
        &self,
        area: CustomerArea,
        results: &[i32],
    ) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        let lease = Lease {
            job_id: 0,
            owner: "plans",
            until: 0,
        };
        let group: Vec<(i32, Option<i32>)> = results.iter().map(|id| (*id, Some(*id))).collect();
        let mut plans = Vec::new();
        for step in purge_steps(area, &lease, &group) {
            let plan = match &step {
                Step::Update(statement) => self.explain(statement).await?,
                Step::Delete(statement) => self.explain(statement).await?,
            };
            plans.push((step.text(), plan));
        }
        Ok(plans)
    }
}
