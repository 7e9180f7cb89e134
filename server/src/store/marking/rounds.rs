//! The rows of double marking (our extension, `Markings`, `MarkingScores`,
//! `SecondMarkingQueue`): the first marking kept when a chosen task is set to 3,
//! a round taken and submitted, and the final marks written into the task's
//! ScoringResult. Every method runs in the transaction it is given, after
//! [`Tx::lock_result`] of the task's result, so that two markers' requests on one
//! task follow each other. The rules are `model::marking_rounds` and
//! `model::second_marking`.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::marking_rounds::{first_marks, Waiting, FIRST_ROUND, SECOND_ROUND};
use crate::model::scoring::TaskKey;
use crate::model::second_marking::MarkingPlan;
use crate::store::schema::{
    DimensionScores, Dimensions, MarkingQueue, MarkingScores, Markings, ScoringResults,
};
use crate::store::{now_millis, StoreError, Tx};

/// A task waiting for a marking, with what decides it.
#[derive(Debug, Clone)]
pub struct WaitingTask {
    pub waiting: Waiting,
    /// The plan's tolerance and rule when the task was chosen.
    pub plan: MarkingPlan,
}

impl Tx {
    /// The task's place in the queue, if it waits for a marking.
    pub async fn waiting_marking(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Option<WaitingTask>, StoreError> {
        type Row = (i32, i32, String, String, Option<String>, Option<String>);
        let row: Option<Row> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        MarkingQueue::Round,
                        MarkingQueue::Tolerance,
                        MarkingQueue::Rule,
                        MarkingQueue::FirstMarker,
                        MarkingQueue::SecondMarker,
                        MarkingQueue::ClaimedBy,
                    ])
                    .from(MarkingQueue::Table)
                    .and_where(Expr::col(MarkingQueue::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkingQueue::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(MarkingQueue::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?;
        let Some((round, tolerance, rule, first_marker, second_marker, claimed_by)) = row else {
            return Ok(None);
        };
        // The share played its part when the task was chosen.
        let plan = MarkingPlan::parse(100, tolerance, &rule).map_err(StoreError::Corrupt)?;
        Ok(Some(WaitingTask {
            waiting: Waiting {
                round,
                first_marker,
                second_marker,
                claimed_by,
            },
            plan,
        }))
    }

    /// Whether the task was ever marked twice (a decided one is not chosen again).
    pub async fn has_markings(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<bool, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Markings::Id)
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(Markings::ResultId).eq(task.result_id))
                    .limit(1)
                    .to_owned(),
            )
            .await?;
        Ok(row.is_some())
    }

    /// Keeps the ScoringResult's marks as round 1 by `by`, queues the task for its
    /// second marking under `plan`, and empties the ScoringResult and its
    /// DimensionScores, so that nobody reads the first marks there while the task
    /// waits. False (and nothing written) when the task has no ScoringResult.
    pub async fn keep_first_marking(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        plan: &MarkingPlan,
        by: &str,
    ) -> Result<bool, StoreError> {
        let result: Option<(i32, Option<String>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([ScoringResults::RubricId, ScoringResults::Comments])
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?;
        let Some((rubric_id, comments)) = result else {
            return Ok(false);
        };
        let dimensions = self.dimension_marks(area, task).await?;
        let scores: Vec<(i32, Option<i16>)> = dimensions.iter().map(|(o, s, _)| (*o, *s)).collect();
        let marks = first_marks(&scores);
        let now = now_millis();
        let id = self
            .insert_marking(area, task, FIRST_ROUND, rubric_id, by, now)
            .await?;
        self.execute(
            &Query::update()
                .table(Markings::Table)
                .values([
                    (Markings::Score, marks.total().into()),
                    (Markings::Comments, comments.into()),
                    (Markings::IsSubmitted, true.into()),
                    (Markings::SubmittedAt, now.into()),
                ])
                .and_where(Expr::col(Markings::Id).eq(id))
                .to_owned(),
        )
        .await?;
        if !dimensions.is_empty() {
            let mut insert = Query::insert()
                .into_table(MarkingScores::Table)
                .columns(marking_score_columns())
                .to_owned();
            for (order, score, comment) in &dimensions {
                insert.values_panic([
                    id.into(),
                    (*order).into(),
                    area.id().into(),
                    task.result_id.into(),
                    by.into(),
                    (*score).into(),
                    comment.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        self.execute(
            &Query::insert()
                .into_table(MarkingQueue::Table)
                .columns([
                    MarkingQueue::CustomerId,
                    MarkingQueue::QuestionId,
                    MarkingQueue::ResultId,
                    MarkingQueue::Round,
                    MarkingQueue::Tolerance,
                    MarkingQueue::Rule,
                    MarkingQueue::FirstMarker,
                    MarkingQueue::QueuedAt,
                ])
                .values_panic([
                    area.id().into(),
                    task.question_id.into(),
                    task.result_id.into(),
                    SECOND_ROUND.into(),
                    plan.tolerance().into(),
                    plan.rule().as_str().into(),
                    by.into(),
                    now.into(),
                ])
                .to_owned(),
        )
        .await?;
        let emptied: Vec<(i32, Option<i32>)> =
            scores.iter().map(|(order, _)| (*order, None)).collect();
        self.write_scoring_result_marks(area, task, None, &emptied)
            .await?;
        Ok(true)
    }

    /// Takes the round the task waits in for `by` (checked by the caller against
    /// `model::marking_rounds::check_may_take`): a marking of that round with an
    /// unscored MarkingScore per dimension of the first marking's rubric. `None`
    /// when another marker took the round first.
    pub async fn take_marking_round(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        round: i32,
        by: &str,
    ) -> Result<Option<i32>, StoreError> {
        let claimed = self
            .execute(
                &Query::update()
                    .table(MarkingQueue::Table)
                    .value(MarkingQueue::ClaimedBy, by)
                    .and_where(Expr::col(MarkingQueue::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkingQueue::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(MarkingQueue::ResultId).eq(task.result_id))
                    .and_where(Expr::col(MarkingQueue::Round).eq(round))
                    .and_where(Expr::col(MarkingQueue::ClaimedBy).is_null())
                    .to_owned(),
            )
            .await?;
        if claimed != 1 {
            return Ok(None);
        }
        let (rubric_id,): (i32,) = self
            .fetch_optional(
                &Query::select()
                    .column(Markings::RubricId)
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(Markings::ResultId).eq(task.result_id))
                    .and_where(Expr::col(Markings::Round).eq(FIRST_ROUND))
                    .to_owned(),
            )
            .await?
            .ok_or_else(|| StoreError::Corrupt("a queued task without its first marking".into()))?;
        let orders: Vec<(i32,)> = self
            .fetch_all(
                &Query::select()
                    .column(Dimensions::DimensionOrder)
                    .from(Dimensions::Table)
                    .and_where(Expr::col(Dimensions::RubricId).eq(rubric_id))
                    .order_by(Dimensions::DimensionOrder, Order::Asc)
                    .to_owned(),
            )
            .await?;
        let id = self
            .insert_marking(area, task, round, rubric_id, by, now_millis())
            .await?;
        if !orders.is_empty() {
            let mut insert = Query::insert()
                .into_table(MarkingScores::Table)
                .columns(marking_score_columns())
                .to_owned();
            for (order,) in orders {
                insert.values_panic([
                    id.into(),
                    order.into(),
                    area.id().into(),
                    task.result_id.into(),
                    by.into(),
                    Option::<i16>::None.into(),
                    Option::<String>::None.into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(Some(id))
    }

    /// The task's dimension scores as (order, score, comment), in order. The
    /// score is a SMALLINT on PostgreSQL.
    pub(super) async fn dimension_marks(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Vec<(i32, Option<i16>, Option<String>)>, StoreError> {
        self.fetch_all(
            &Query::select()
                .columns([
                    DimensionScores::DimensionOrder,
                    DimensionScores::Score,
                    DimensionScores::Comment,
                ])
                .from(DimensionScores::Table)
                .and_where(Expr::col(DimensionScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(DimensionScores::QuestionId).eq(task.question_id))
                .and_where(Expr::col(DimensionScores::ResultId).eq(task.result_id))
                .order_by(DimensionScores::DimensionOrder, Order::Asc)
                .to_owned(),
        )
        .await
    }

    async fn insert_marking(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        round: i32,
        rubric_id: i32,
        by: &str,
        now: i64,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(Markings::Table)
                .columns([
                    Markings::CustomerId,
                    Markings::QuestionId,
                    Markings::ResultId,
                    Markings::Round,
                    Markings::RubricId,
                    Markings::MarkedBy,
                    Markings::IsSubmitted,
                    Markings::StartedAt,
                    Markings::ModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    task.question_id.into(),
                    task.result_id.into(),
                    round.into(),
                    rubric_id.into(),
                    by.into(),
                    false.into(),
                    now.into(),
                    now.into(),
                ])
                .returning_col(Markings::Id)
                .to_owned(),
        )
        .await
    }
}

fn marking_score_columns() -> [MarkingScores; 7] {
    [
        MarkingScores::MarkingId,
        MarkingScores::DimensionOrder,
        MarkingScores::CustomerId,
        MarkingScores::ResultId,
        MarkingScores::MarkedBy,
        MarkingScores::Score,
        MarkingScores::Comment,
    ]
}
