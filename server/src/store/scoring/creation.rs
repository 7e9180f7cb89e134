//! Scoring writes: creating a task's ScoringResult and its DimensionScores.

use sea_query::{Expr, OnConflict, Query};

use crate::model::area::CustomerArea;
use crate::model::scoring::TaskKey;
use crate::store::schema::{DimensionScores, Dimensions, ScoringResults, ScoringTasks};
use crate::store::{now_millis, Store, StoreError, Tx};

/// What creating a ScoringResult found.
#[derive(Debug, PartialEq, Eq)]
pub enum ScoringResultCreation {
    /// The task does not exist in this customer area.
    NoTask,
    /// The task's question has no rubric: there is nothing to score against.
    NoRubric,
    /// The ScoringResult exists (created now, or earlier).
    Exists,
}

impl Store {
    /// Creates the ScoringResult of a task, with one DimensionScore per dimension of
    /// its question's rubric, unless it exists. Safe under concurrent first reads:
    /// both inserts ignore rows that another request created first.
    pub async fn ensure_scoring_result(
        &self,
        area: CustomerArea,
        key: TaskKey,
    ) -> Result<ScoringResultCreation, StoreError> {
        let mut tx = self.begin().await?;
        let creation = tx.ensure_scoring_result(area, key).await?;
        if creation == ScoringResultCreation::Exists {
            tx.commit().await?;
        }
        Ok(creation)
    }
}

impl Tx {
    /// [`Store::ensure_scoring_result`] in this transaction (marking an answer
    /// group creates its members' ScoringResults with their marks).
    pub async fn ensure_scoring_result(
        &mut self,
        area: CustomerArea,
        key: TaskKey,
    ) -> Result<ScoringResultCreation, StoreError> {
        let TaskKey {
            question_id,
            result_id,
        } = key;
        let tx = self;
        let task_exists: i64 = tx
            .fetch_scalar(
                &Query::select()
                    .expr(Expr::col(ScoringTasks::QuestionId).count())
                    .from(ScoringTasks::Table)
                    .and_where(Expr::col(ScoringTasks::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringTasks::QuestionId).eq(question_id))
                    .and_where(Expr::col(ScoringTasks::ResultId).eq(result_id))
                    .to_owned(),
            )
            .await?;
        if task_exists == 0 {
            return Ok(ScoringResultCreation::NoTask);
        }
        let Some(rubric_id) = tx.current_rubric(area, question_id).await? else {
            return Ok(ScoringResultCreation::NoRubric);
        };
        let now = now_millis();
        tx.execute(
            &Query::insert()
                .into_table(ScoringResults::Table)
                .columns([
                    ScoringResults::CustomerId,
                    ScoringResults::QuestionId,
                    ScoringResults::RubricId,
                    ScoringResults::ResultId,
                    ScoringResults::CreatedAt,
                    ScoringResults::ModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    question_id.into(),
                    rubric_id.into(),
                    result_id.into(),
                    now.into(),
                    now.into(),
                ])
                .on_conflict(
                    OnConflict::columns([ScoringResults::QuestionId, ScoringResults::ResultId])
                        .do_nothing()
                        .to_owned(),
                )
                .to_owned(),
        )
        .await?;
        let orders: Vec<(i32,)> = tx
            .fetch_all(
                &Query::select()
                    .column(Dimensions::DimensionOrder)
                    .from(Dimensions::Table)
                    .and_where(Expr::col(Dimensions::RubricId).eq(rubric_id))
                    .to_owned(),
            )
            .await?;
        if !orders.is_empty() {
            let mut insert = Query::insert()
                .into_table(DimensionScores::Table)
                .columns([
                    DimensionScores::CustomerId,
                    DimensionScores::QuestionId,
                    DimensionScores::RubricId,
                    DimensionScores::ResultId,
                    DimensionScores::DimensionOrder,
                ])
                .on_conflict(
                    OnConflict::columns([
                        DimensionScores::QuestionId,
                        DimensionScores::ResultId,
                        DimensionScores::DimensionOrder,
                    ])
                    .do_nothing()
                    .to_owned(),
                )
                .to_owned();
            for (order,) in orders {
                insert.values_panic([
                    area.id().into(),
                    question_id.into(),
                    rubric_id.into(),
                    result_id.into(),
                    order.into(),
                ]);
            }
            tx.execute(&insert).await?;
        }
        Ok(ScoringResultCreation::Exists)
    }
}
