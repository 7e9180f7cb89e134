//! The scoring workflow's writes: a task's status (and, on reaching 3, the result
//! update), a ScoringResult under optimistic concurrency, a DimensionScore. Each runs
//! in the transaction it is given: a request's own, or a `$batch` change set's.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::scoring::{transition, StatusEffects, TaskKey, TaskStatus};
use crate::store::schema::{
    Answers, DimensionScores, Dimensions, Rubrics, ScoringEvents, ScoringResults, ScoringTasks,
};
use crate::store::{now_millis, Store, StoreError, Tx};

/// What setting a task's status did.
#[derive(Debug, PartialEq, Eq)]
pub enum StatusChange {
    /// No such task in this customer area.
    NoTask,
    /// The status was written, with the effects the transition has.
    Written(StatusEffects),
}

/// What a conditional ScoringResult update did.
#[derive(Debug, PartialEq, Eq)]
pub enum ConditionalUpdate {
    /// Written; the new concurrency value.
    Written { modified_at: i64 },
    /// The stored `ModifiedDateTime` is no longer the one the client read.
    Stale,
}

/// A new ScoringResult's writable values.
pub struct ScoringResultValues {
    pub score: Option<i32>,
    pub comments: Option<String>,
}

impl Tx {
    /// Sets a task's status and applies the effects the transition has
    /// ([`transition`], spec rules 1 to 3): when it updates the result, the
    /// ScoringResult's `Score` becomes the answer's score (its revision goes up by
    /// one) and the participant's Result and TopicScores are recomputed, in the same
    /// transaction. The result's row lock is taken first, so two requests scoring the
    /// same task update the result once, and two tasks of one result are rescored one
    /// after the other.
    pub async fn set_task_status(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
        status: TaskStatus,
        by: &str,
    ) -> Result<StatusChange, StoreError> {
        let tx = self;
        if !tx.lock_result(area, key.result_id).await? {
            return Ok(StatusChange::NoTask);
        }
        let select = Query::select()
            .column(ScoringTasks::Status)
            .from(ScoringTasks::Table)
            .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
            .and_where(Expr::col(ScoringTasks::QuestionId).eq(key.question_id))
            .and_where(Expr::col(ScoringTasks::ResultId).eq(key.result_id))
            .to_owned();
        let Some((previous,)) = tx.fetch_optional::<(i32,)>(&select).await? else {
            return Ok(StatusChange::NoTask);
        };
        let previous = TaskStatus::try_from(previous).map_err(StoreError::Corrupt)?;
        tx.execute(
            &Query::update()
                .table(ScoringTasks::Table)
                .values([
                    (ScoringTasks::Status, status.code().into()),
                    (ScoringTasks::ModifiedAt, now_millis().into()),
                ])
                .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoringTasks::QuestionId).eq(key.question_id))
                .and_where(Expr::col(ScoringTasks::ResultId).eq(key.result_id))
                .to_owned(),
        )
        .await?;
        tx.record_scoring_event(area, key, previous, status, by)
            .await?;
        let effects = transition(previous, status);
        if effects.updates_result {
            if let Some(score) = tx.scoring_result_score(area, key).await? {
                // A response in several blocks is one answer: its first block carries
                // the score, as delivery writes it.
                let first: Option<(i16, i16)> = tx
                    .fetch_optional(
                        &Query::select()
                            .columns([Answers::Occurrence, Answers::BlockNumber])
                            .from(Answers::Table)
                            .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                            .and_where(Expr::col(Answers::QuestionId).eq(key.question_id))
                            .and_where(Expr::col(Answers::ResultId).eq(key.result_id))
                            .order_by(Answers::Occurrence, Order::Asc)
                            .order_by(Answers::BlockNumber, Order::Asc)
                            .limit(1)
                            .to_owned(),
                    )
                    .await?;
                if let Some((occurrence, block_number)) = first {
                    tx.execute(
                        &Query::update()
                            .table(Answers::Table)
                            .value(Answers::ActualScore, score)
                            .value(Answers::Revision, Expr::col(Answers::Revision).add(1))
                            .and_where(Expr::col(Answers::CustomerId).eq(area.id()))
                            .and_where(Expr::col(Answers::QuestionId).eq(key.question_id))
                            .and_where(Expr::col(Answers::ResultId).eq(key.result_id))
                            .and_where(Expr::col(Answers::Occurrence).eq(occurrence))
                            .and_where(Expr::col(Answers::BlockNumber).eq(block_number))
                            .to_owned(),
                    )
                    .await?;
                }
            }
            tx.rescore_result(area, key.result_id).await?;
        }
        Ok(StatusChange::Written(effects))
    }

    /// The task's ScoringResult's `Score` (none: no ScoringResult, or no score yet).
    pub async fn scoring_result_score(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
    ) -> Result<Option<i32>, StoreError> {
        let row: Option<(Option<i32>,)> = self
            .fetch_optional(
                &Query::select()
                    .column(ScoringResults::Score)
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(key.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(key.result_id))
                    .to_owned(),
            )
            .await?;
        Ok(row.and_then(|(score,)| score))
    }

    /// Records who changed a task's status (ScoringEvents, our extension), with the
    /// ScoringResult's score when the task became Saved or Scored.
    async fn record_scoring_event(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
        previous: TaskStatus,
        status: TaskStatus,
        by: &str,
    ) -> Result<(), StoreError> {
        let score = if matches!(status, TaskStatus::Saved | TaskStatus::Scored) {
            self.scoring_result_score(area, key).await?
        } else {
            None
        };
        self.execute(
            &Query::insert()
                .into_table(ScoringEvents::Table)
                .columns([
                    ScoringEvents::CustomerId,
                    ScoringEvents::QuestionId,
                    ScoringEvents::ResultId,
                    ScoringEvents::PreviousStatus,
                    ScoringEvents::Status,
                    ScoringEvents::Score,
                    ScoringEvents::Account,
                    ScoringEvents::At,
                ])
                .values_panic([
                    area.id().into(),
                    key.question_id.into(),
                    key.result_id.into(),
                    previous.code().into(),
                    status.code().into(),
                    score.into(),
                    by.into(),
                    now_millis().into(),
                ])
                .to_owned(),
        )
        .await
        .map(drop)
    }

    /// Writes a ScoringResult's `Score` and `Comments` if its `ModifiedDateTime` is
    /// still `expected_modified_at`; the check and the write are one statement, so of
    /// concurrent writers holding the same value exactly one succeeds. The new value
    /// is later than the old one even within the same millisecond.
    pub async fn update_scoring_result(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
        expected_modified_at: i64,
        values: ScoringResultValues,
    ) -> Result<ConditionalUpdate, StoreError> {
        let modified_at = now_millis().max(expected_modified_at + 1);
        let written = self
            .execute(
                &Query::update()
                    .table(ScoringResults::Table)
                    .values([
                        (ScoringResults::Score, values.score.into()),
                        (ScoringResults::Comments, values.comments.into()),
                        (ScoringResults::ModifiedAt, modified_at.into()),
                    ])
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(key.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(key.result_id))
                    .and_where(Expr::col(ScoringResults::ModifiedAt).eq(expected_modified_at))
                    .to_owned(),
            )
            .await?;
        Ok(if written == 1 {
            ConditionalUpdate::Written { modified_at }
        } else {
            ConditionalUpdate::Stale
        })
    }

    /// Writes a DimensionScore's `Score` and `Comment`; returns whether it exists.
    pub async fn update_dimension_score(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
        order: i32,
        score: Option<i16>,
        comment: Option<String>,
    ) -> Result<bool, StoreError> {
        let written = self
            .execute(
                &Query::update()
                    .table(DimensionScores::Table)
                    .values([
                        (DimensionScores::Score, score.into()),
                        (DimensionScores::Comment, comment.into()),
                    ])
                    .and_where(Expr::col(DimensionScores::CustomerId).eq(area.id()))
                    .and_where(Expr::col(DimensionScores::QuestionId).eq(key.question_id))
                    .and_where(Expr::col(DimensionScores::ResultId).eq(key.result_id))
                    .and_where(Expr::col(DimensionScores::DimensionOrder).eq(order))
                    .to_owned(),
            )
            .await?;
        Ok(written == 1)
    }
}

impl Store {
    /// The highest score a rubric allows (its question's maximum).
    pub async fn rubric_max_score(
        &self,
        area: CustomerArea,
        rubric_id: i32,
    ) -> Result<i16, StoreError> {
        self.fetch_scalar(
            &Query::select()
                .column(Rubrics::MaxScore)
                .from(Rubrics::Table)
                .and_where(Expr::col(Rubrics::CustomerId).eq(area.id()))
                .and_where(Expr::col(Rubrics::Id).eq(rubric_id))
                .to_owned(),
        )
        .await
    }

    /// The highest score a rubric's dimension allows.
    pub async fn dimension_max_score(
        &self,
        area: CustomerArea,
        rubric_id: i32,
        order: i32,
    ) -> Result<i16, StoreError> {
        self.fetch_scalar(
            &Query::select()
                .column(Dimensions::MaxScore)
                .from(Dimensions::Table)
                .and_where(Expr::col(Dimensions::CustomerId).eq(area.id()))
                .and_where(Expr::col(Dimensions::RubricId).eq(rubric_id))
                .and_where(Expr::col(Dimensions::DimensionOrder).eq(order))
                .to_owned(),
        )
        .await
    }
}
