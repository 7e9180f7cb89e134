//! A double-marked task's end of a round: on to a resolution when the two
//! markings disagree, or its final marks written into the spec's ScoringResult
//! and DimensionScores, which are also emptied while the task waits (so that no
//! marker reads the first's marks there).

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::marking_rounds::THIRD_ROUND;
use crate::model::scoring::TaskKey;
use crate::model::second_marking::Marks;
use crate::store::schema::{DimensionScores, MarkingQueue, ScoringResults};
use crate::store::{now_millis, StoreError, Tx};

impl Tx {
    /// The two markings disagree: the task waits for its resolution by a marker
    /// who marked neither; `second_marker` is kept so that he is not offered it.
    pub async fn queue_for_resolution(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        second_marker: &str,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(MarkingQueue::Table)
                .values([
                    (MarkingQueue::Round, THIRD_ROUND.into()),
                    (MarkingQueue::SecondMarker, second_marker.into()),
                    (MarkingQueue::ClaimedBy, Option::<String>::None.into()),
                ])
                .and_where(Expr::col(MarkingQueue::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingQueue::QuestionId).eq(task.question_id))
                .and_where(Expr::col(MarkingQueue::ResultId).eq(task.result_id))
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    /// The final mark is decided: it becomes the ScoringResult's and its
    /// DimensionScores', and the task leaves the queue. The caller then sets the
    /// task to 3, which rescores the Result from it as a spec PUT does.
    pub async fn write_final_marks(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        marks: &Marks,
    ) -> Result<(), StoreError> {
        let finals: Vec<(i32, Option<i32>)> = marks
            .0
            .iter()
            .map(|(order, score)| (*order, Some(*score)))
            .collect();
        self.write_scoring_result_marks(area, task, Some(marks.total()), &finals)
            .await?;
        self.execute(
            &Query::delete()
                .from_table(MarkingQueue::Table)
                .and_where(Expr::col(MarkingQueue::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingQueue::QuestionId).eq(task.question_id))
                .and_where(Expr::col(MarkingQueue::ResultId).eq(task.result_id))
                .to_owned(),
        )
        .await?;
        Ok(())
    }

    /// The ScoringResult's `Score` and each DimensionScore's score as given
    /// (`None`: emptied), comments emptied, with a later `ModifiedDateTime`.
    pub(super) async fn write_scoring_result_marks(
        &mut self,
        area: CustomerArea,
        task: TaskKey,
        score: Option<i32>,
        dimensions: &[(i32, Option<i32>)],
    ) -> Result<(), StoreError> {
        for (order, dimension_score) in dimensions {
            let dimension_score = dimension_score
                .map(i16::try_from)
                .transpose()
                .map_err(|_| StoreError::Corrupt("a dimension score beyond Int16".into()))?;
            self.execute(
                &Query::update()
                    .table(DimensionScores::Table)
                    .value(DimensionScores::Score, dimension_score)
                    .value(DimensionScores::Comment, Option::<String>::None)
                    .and_where(Expr::col(DimensionScores::CustomerId).eq(area.id()))
                    .and_where(Expr::col(DimensionScores::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(DimensionScores::ResultId).eq(task.result_id))
                    .and_where(Expr::col(DimensionScores::DimensionOrder).eq(*order))
                    .to_owned(),
            )
            .await?;
        }
        let key = |query: &mut sea_query::UpdateStatement| {
            query
                .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoringResults::QuestionId).eq(task.question_id))
                .and_where(Expr::col(ScoringResults::ResultId).eq(task.result_id));
        };
        let (old,): (i64,) = self
            .fetch_optional(
                &Query::select()
                    .column(ScoringResults::ModifiedAt)
                    .from(ScoringResults::Table)
                    .and_where(Expr::col(ScoringResults::CustomerId).eq(area.id()))
                    .and_where(Expr::col(ScoringResults::QuestionId).eq(task.question_id))
                    .and_where(Expr::col(ScoringResults::ResultId).eq(task.result_id))
                    .to_owned(),
            )
            .await?
            .ok_or(StoreError::NotFound)?;
        let mut update = Query::update()
            .table(ScoringResults::Table)
            .value(ScoringResults::Score, score)
            .value(ScoringResults::Comments, Option::<String>::None)
            .value(ScoringResults::ModifiedAt, now_millis().max(old + 1))
            .to_owned();
        key(&mut update);
        self.execute(&update).await?;
        Ok(())
    }
}
