//! Regrades after a rubric change (model::regrade; docs/marking-quality.md,
//! "Regrading after a rubric change"): the count a lead confirms, then the
//! scripts marked with a question's old rubric moved onto its current one in
//! groups, each group in a transaction of its own (whole or absent, as a
//! purge's), with an audit row that says how far it got.

use sea_query::{Expr, Order, Query, SelectStatement};

use super::regrade_groups::GroupDone;
use crate::model::area::CustomerArea;
use crate::model::regrade::{Regrade, RubricShape};
use crate::store::schema::{
    Dimensions, Markings, RubricRegrades, Rubrics, ScoringResults, ScoringTasks, Seeds,
};
use crate::store::{now_millis, Store, StoreError, Tx};

/// What a regrade of a rubric would move: its ScoringResults (the scripts a lead
/// confirms), of them those whose task is scored (their Results follow), the
/// double marking's markings and the lead's seeds made with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegradeCounts {
    pub scripts: i64,
    pub scored: i64,
    pub markings: i64,
    pub seeds: i64,
}

/// A rubric as the store finds it for a regrade.
#[derive(Debug, Clone)]
pub struct FoundRubric {
    pub shape: RubricShape,
    pub current: bool,
}

/// A regrade asked for, checked by the model.
pub struct NewRegrade<'a> {
    pub area: CustomerArea,
    pub from: &'a RubricShape,
    pub to: &'a RubricShape,
    pub regrade: &'a Regrade,
    pub reason: &'a str,
    /// The count the lead confirmed.
    pub scripts: i64,
    pub by: &'a str,
}

/// Why a regrade did not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegradeRefused {
    /// The count changed since the lead read it: what it is now.
    Recount(i64),
    /// `to` is no longer the question's current rubric (a newer one replaced it).
    NotCurrent,
}

impl Store {
    /// Rubric `id` of the area with its dimensions, and whether it is its
    /// question's current one.
    pub async fn rubric_for_regrade(
        &self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<FoundRubric>, StoreError> {
        let rubric: Option<(i64, i16, Option<i64>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([Rubrics::QuestionId, Rubrics::MaxScore, Rubrics::ReplacedAt])
                    .from(Rubrics::Table)
                    .and_where(Expr::col(Rubrics::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Rubrics::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        let Some((question_id, max_score, replaced_at)) = rubric else {
            return Ok(None);
        };
        let dimensions: Vec<(i32, String, i16)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Dimensions::DimensionOrder,
                        Dimensions::Name,
                        Dimensions::MaxScore,
                    ])
                    .from(Dimensions::Table)
                    .and_where(Expr::col(Dimensions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Dimensions::RubricId).eq(id))
                    .order_by(Dimensions::DimensionOrder, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(Some(FoundRubric {
            shape: RubricShape {
                id,
                question_id,
                max_score: max_score.into(),
                dimensions: dimensions
                    .into_iter()
                    .map(|(order, name, max)| (order, name, max.into()))
                    .collect(),
            },
            current: replaced_at.is_none(),
        }))
    }

    /// What a regrade of rubric `rubric` (of question `question_id`) would move.
    pub async fn regrade_counts(
        &self,
        area: CustomerArea,
        question_id: i64,
        rubric: i32,
    ) -> Result<RegradeCounts, StoreError> {
        let [scripts, scored, markings, seeds] = counted(area, question_id, rubric);
        Ok(RegradeCounts {
            scripts: self.fetch_scalar(&scripts).await?,
            scored: self.fetch_scalar(&scored).await?,
            markings: self.fetch_scalar(&markings).await?,
            seeds: self.fetch_scalar(&seeds).await?,
        })
    }

    /// Starts moving every script marked with `new.from` onto `new.to`: checks
    /// the count, writes the audit row and moves the seeds (their copies'
    /// deviations are taken from them), in one transaction. Returns the audit
    /// row's ID, or why it did not start; [`Store::finish_regrade`] moves the rest.
    pub async fn start_regrade(
        &self,
        new: NewRegrade<'_>,
    ) -> Result<Result<i32, RegradeRefused>, StoreError> {
        let question = new.from.question_id;
        let mut tx = self.begin().await?;
        if !tx.lock_rubric_still_current(new.area, new.to.id).await? {
            return Ok(Err(RegradeRefused::NotCurrent));
        }
        let counts = tx.regrade_counts(new.area, question, new.from.id).await?;
        if counts.scripts != new.scripts {
            return Ok(Err(RegradeRefused::Recount(counts.scripts)));
        }
        let id = tx.insert_regrade(&new).await?;
        let seeds = tx
            .regrade_seeds(new.area, new.from, new.to.id, new.regrade)
            .await?;
        tx.add_to_regrade(id, RubricRegrades::Seeds, seeds).await?;
        tx.commit().await?;
        Ok(Ok(id))
    }

    /// The rest of regrade `id` (started by [`Store::start_regrade`]): the
    /// ScoringResults and the Results of scored tasks, then the markings, a
    /// group a transaction, then `completed_at`. A regrade stopped part way (the
    /// server stopped) leaves whole groups moved and the rest on the old
    /// rubric, which a new regrade of it moves.
    pub async fn finish_regrade(
        &self,
        area: CustomerArea,
        id: i32,
        from: &RubricShape,
        to: i32,
        regrade: &Regrade,
    ) -> Result<(), StoreError> {
        let mut after = 0;
        loop {
            let mut tx = self.begin().await?;
            let done = tx
                .regrade_scoring_results(area, from, to, regrade, after)
                .await?;
            let Some(GroupDone {
                last,
                scripts,
                totals_changed,
                results_rescored,
            }) = done
            else {
                drop(tx);
                break;
            };
            tx.add_to_regrade(id, RubricRegrades::Regraded, scripts)
                .await?;
            tx.add_to_regrade(id, RubricRegrades::TotalsChanged, totals_changed)
                .await?;
            tx.add_to_regrade(id, RubricRegrades::ResultsRescored, results_rescored)
                .await?;
            tx.commit().await?;
            after = last;
        }
        let mut after = 0;
        loop {
            let mut tx = self.begin().await?;
            let Some((last, markings)) =
                tx.regrade_markings(area, from, to, regrade, after).await?
            else {
                drop(tx);
                break;
            };
            tx.add_to_regrade(id, RubricRegrades::Markings, markings)
                .await?;
            tx.commit().await?;
            after = last;
        }
        let mut tx = self.begin().await?;
        tx.execute(
            &Query::update()
                .table(RubricRegrades::Table)
                .value(RubricRegrades::CompletedAt, now_millis())
                .and_where(Expr::col(RubricRegrades::Id).eq(id))
                .to_owned(),
        )
        .await?;
        tx.commit().await
    }

    /// The question's current rubric (the one a regrade moves scripts onto).
    pub async fn current_rubric_of(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Option<i32>, StoreError> {
        let found: Option<(i32,)> = self
            .fetch_optional(&crate::store::scoring::current_rubric_of(area, question_id))
            .await?;
        Ok(found.map(|(id,)| id))
    }
}

impl Tx {
    async fn regrade_counts(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        rubric: i32,
    ) -> Result<RegradeCounts, StoreError> {
        let [scripts, scored, markings, seeds] = counted(area, question_id, rubric);
        Ok(RegradeCounts {
            scripts: self.fetch_scalar(&scripts).await?,
            scored: self.fetch_scalar(&scored).await?,
            markings: self.fetch_scalar(&markings).await?,
            seeds: self.fetch_scalar(&seeds).await?,
        })
    }

    /// Locks rubric `id` (so that no new rubric replaces it meanwhile: authoring
    /// locks the question, and this the rubric, in the order a POST of a rubric
    /// reads them) and says whether it is still its question's current one.
    async fn lock_rubric_still_current(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<bool, StoreError> {
        let question: Option<(i64,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Rubrics::QuestionId)
                    .from(Rubrics::Table)
                    .and_where(Expr::col(Rubrics::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Rubrics::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        let Some((question,)) = question else {
            return Ok(false);
        };
        if self.lock_question_max(area, question).await?.is_none() {
            return Ok(false);
        }
        Ok(self.current_rubric(area, question).await? == Some(id))
    }

    async fn insert_regrade(&mut self, new: &NewRegrade<'_>) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(RubricRegrades::Table)
                .columns([
                    RubricRegrades::CustomerId,
                    RubricRegrades::QuestionId,
                    RubricRegrades::FromRubricId,
                    RubricRegrades::ToRubricId,
                    RubricRegrades::Reason,
                    RubricRegrades::ScoreMaps,
                    RubricRegrades::Scripts,
                    RubricRegrades::Regraded,
                    RubricRegrades::TotalsChanged,
                    RubricRegrades::ResultsRescored,
                    RubricRegrades::Markings,
                    RubricRegrades::Seeds,
                    RubricRegrades::RequestedBy,
                    RubricRegrades::RequestedAt,
                ])
                .values_panic([
                    new.area.id().into(),
                    new.from.question_id.into(),
                    new.from.id.into(),
                    new.to.id.into(),
                    new.reason.into(),
                    new.regrade.describe().into(),
                    new.scripts.into(),
                    0.into(),
                    0.into(),
                    0.into(),
                    0.into(),
                    0.into(),
                    new.by.into(),
                    now_millis().into(),
                ])
                .returning_col(RubricRegrades::Id)
                .to_owned(),
        )
        .await
    }

    async fn add_to_regrade(
        &mut self,
        id: i32,
        column: RubricRegrades,
        count: i64,
    ) -> Result<(), StoreError> {
        if count == 0 {
            return Ok(());
        }
        self.execute(
            &Query::update()
                .table(RubricRegrades::Table)
                .value(column, Expr::col(column).add(count))
                .and_where(Expr::col(RubricRegrades::Id).eq(id))
                .to_owned(),
        )
        .await
        .map(drop)
    }
}

/// The counts of [`RegradeCounts`], in its order.
fn counted(area: CustomerArea, question_id: i64, rubric: i32) -> [SelectStatement; 4] {
    let scripts = Query::select()
        .expr(Expr::col(ScoringResults::ResultId).count())
        .from(ScoringResults::Table)
        .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
        .and_where(Expr::col(ScoringResults::QuestionId).eq(question_id))
        .and_where(Expr::col(ScoringResults::RubricId).eq(rubric))
        .to_owned();
    let scored = Query::select()
        .expr(Expr::col((ScoringResults::Table, ScoringResults::ResultId)).count())
        .from(ScoringResults::Table)
        .inner_join(
            ScoringTasks::Table,
            Expr::col((ScoringTasks::Table, ScoringTasks::QuestionId))
                .equals((ScoringResults::Table, ScoringResults::QuestionId))
                .and(
                    Expr::col((ScoringTasks::Table, ScoringTasks::ResultId))
                        .equals((ScoringResults::Table, ScoringResults::ResultId)),
                ),
        )
        .and_where(Expr::col((ScoringResults::Table, ScoringResults::CustomerId)).eq(area.id()))
        .and_where(Expr::col((ScoringResults::Table, ScoringResults::QuestionId)).eq(question_id))
        .and_where(Expr::col((ScoringResults::Table, ScoringResults::RubricId)).eq(rubric))
        .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::Status)).eq(3))
        .to_owned();
    let markings = Query::select()
        .expr(Expr::col(Markings::Id).count())
        .from(Markings::Table)
        .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
        .and_where(Expr::col(Markings::QuestionId).eq(question_id))
        .and_where(Expr::col(Markings::RubricId).eq(rubric))
        .to_owned();
    let seeds = Query::select()
        .expr(Expr::col(Seeds::Id).count())
        .from(Seeds::Table)
        .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
        .and_where(Expr::col(Seeds::QuestionId).eq(question_id))
        .and_where(Expr::col(Seeds::RubricId).eq(rubric))
        .to_owned();
    [scripts, scored, markings, seeds]
}
