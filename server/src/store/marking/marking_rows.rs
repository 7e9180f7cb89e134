//! A marking's own rows (our extension, `Markings` and `MarkingScores`): the
//! marking a URL addresses, its scores, and its writes by its marker until it is
//! submitted. What a submission decides is `rounds.rs`.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::model::marking_rounds::first_marks;
use crate::model::scoring::TaskKey;
use crate::model::second_marking::Marks;
use crate::store::read::plan;
use crate::store::read::Scope;
use crate::store::schema::{MarkingQueue, MarkingScores, Markings};
use crate::store::{now_millis, Store, StoreError, Tx};

/// A marking as its writes need it.
#[derive(Debug, Clone)]
pub struct StoredMarking {
    pub id: i32,
    pub task: TaskKey,
    pub round: i32,
    pub rubric_id: i32,
    pub marked_by: String,
    pub is_submitted: bool,
    pub modified_at: i64,
}

impl Store {
    /// The ID of the marking `scope` addresses, if there is one.
    pub async fn marking_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<i32>, StoreError> {
        let select = plan::first_row(scope, area, &["id"]);
        Ok(self
            .fetch_optional::<(i32,)>(&select)
            .await?
            .map(|(id,)| id))
    }

    /// The (marking, dimension order) of the MarkingScore `scope` addresses.
    pub async fn marking_score_at(
        &self,
        area: CustomerArea,
        scope: &Scope,
    ) -> Result<Option<(i32, i32)>, StoreError> {
        let select = plan::first_row(scope, area, &["marking_id", "dimension_order"]);
        self.fetch_optional::<(i32, i32)>(&select).await
    }
}

impl Tx {
    /// Marking `id` of `area`, read under the transaction's lock.
    pub async fn marking(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<StoredMarking>, StoreError> {
        type Row = (i32, i64, i32, i32, i32, String, bool, i64);
        let row: Option<Row> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        Markings::Id,
                        Markings::QuestionId,
                        Markings::ResultId,
                        Markings::Round,
                        Markings::RubricId,
                        Markings::MarkedBy,
                        Markings::IsSubmitted,
                        Markings::ModifiedAt,
                    ])
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(
            |(
                id,
                question_id,
                result_id,
                round,
                rubric_id,
                marked_by,
                is_submitted,
                modified_at,
            )| {
                StoredMarking {
                    id,
                    task: TaskKey {
                        question_id,
                        result_id,
                    },
                    round,
                    rubric_id,
                    marked_by,
                    is_submitted,
                    modified_at,
                }
            },
        ))
    }

    /// The (dimension order, score) of a marking, in the rubric's order.
    pub async fn marking_scores(
        &mut self,
        area: CustomerArea,
        marking_id: i32,
    ) -> Result<Vec<(i32, Option<i16>)>, StoreError> {
        self.fetch_all(
            &Query::select()
                .columns([MarkingScores::DimensionOrder, MarkingScores::Score])
                .from(MarkingScores::Table)
                .and_where(Expr::col(MarkingScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingScores::MarkingId).eq(marking_id))
                .order_by(MarkingScores::DimensionOrder, Order::Asc)
                .to_owned(),
        )
        .await
    }

    /// The submitted markings' marks of a task by round (1, 2 and, once
    /// resolved, 3), the rubric's order in each.
    pub async fn submitted_marks(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
    ) -> Result<Vec<(i32, Marks)>, StoreError> {
        let markings: Vec<(i32, i32)> = self
            .fetch_all(
                &Query::select()
                    .columns([Markings::Id, Markings::Round])
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(Markings::ResultId).eq(task.result_id))
                    .and_where(Expr::col(Markings::IsSubmitted).eq(true))
                    .order_by(Markings::Round, Order::Asc)
                    .to_owned(),
            )
            .await?;
        let mut marks = Vec::with_capacity(markings.len());
        for (id, round) in markings {
            let scores = self.marking_scores(area, id).await?;
            marks.push((round, first_marks(&scores)));
        }
        Ok(marks)
    }

    /// Sets a MarkingScore of an unsubmitted marking.
    pub async fn set_marking_score(
        &mut self,
        area: CustomerArea,
        marking_id: i32,
        order: i32,
        score: Option<i16>,
        comment: Option<&str>,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(MarkingScores::Table)
                .value(MarkingScores::Score, score)
                .value(MarkingScores::Comment, comment)
                .and_where(Expr::col(MarkingScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingScores::MarkingId).eq(marking_id))
                .and_where(Expr::col(MarkingScores::DimensionOrder).eq(order))
                .to_owned(),
        )
        .await?;
        self.touch_marking(area, marking_id).await
    }

    /// A marking's comments, while it is not submitted.
    pub async fn set_marking_comments(
        &mut self,
        area: CustomerArea,
        marking_id: i32,
        comments: Option<&str>,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(Markings::Table)
                .value(Markings::Comments, comments)
                .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                .and_where(Expr::col(Markings::Id).eq(marking_id))
                .to_owned(),
        )
        .await?;
        self.touch_marking(area, marking_id).await
    }

    /// A new concurrency value for the marking, later than the one it had even
    /// within the same millisecond.
    async fn touch_marking(
        &mut self,
        area: CustomerArea,
        marking_id: i32,
    ) -> Result<(), StoreError> {
        let (old,): (i64,) = self
            .fetch_optional(
                &Query::select()
                    .column(Markings::ModifiedAt)
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::Id).eq(marking_id))
                    .to_owned(),
            )
            .await?
            .ok_or(StoreError::NotFound)?;
        self.execute(
            &Query::update()
                .table(Markings::Table)
                .value(Markings::ModifiedAt, now_millis().max(old + 1))
                .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                .and_where(Expr::col(Markings::Id).eq(marking_id))
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    /// Submits a marking with its total.
    pub async fn submit_marking(
        &mut self,
        area: CustomerArea,
        marking_id: i32,
        total: i32,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(Markings::Table)
                .values([
                    (Markings::Score, total.into()),
                    (Markings::IsSubmitted, true.into()),
                    (Markings::SubmittedAt, now_millis().into()),
                ])
                .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                .and_where(Expr::col(Markings::Id).eq(marking_id))
                .to_owned(),
        )
        .await?;
        self.touch_marking(area, marking_id).await
    }

    /// Removes an unsubmitted marking and its scores, and frees the round it
    /// took for the next marker.
    pub async fn give_back_marking(
        &mut self,
        area: CustomerArea,
        marking: &StoredMarking,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::delete()
                .from_table(MarkingScores::Table)
                .and_where(Expr::col(MarkingScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingScores::MarkingId).eq(marking.id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::delete()
                .from_table(Markings::Table)
                .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                .and_where(Expr::col(Markings::Id).eq(marking.id))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::update()
                .table(MarkingQueue::Table)
                .value(MarkingQueue::ClaimedBy, Option::<String>::None)
                .and_where(Expr::col(MarkingQueue::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingQueue::QuestionId).eq(marking.task.question_id))
                .and_where(Expr::col(MarkingQueue::ResultId).eq(marking.task.result_id))
                .and_where(Expr::col(MarkingQueue::ClaimedBy).eq(marking.marked_by.as_str()))
                .to_owned(),
        )
        .await?;
        Ok(())
    }
}
