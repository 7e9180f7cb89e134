//! What the figures of double marking are computed from (`model::agreement`):
//! a question's maximum and every submitted marking of its tasks.

use sea_query::{Expr, Order, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::{Markings, Questions};
use crate::store::{Store, StoreError};

/// One submitted marking: its task's result, round, marker and total.
#[derive(Debug, Clone)]
pub struct SubmittedMarking {
    pub result_id: i32,
    pub round: i32,
    pub marker: String,
    pub total: i32,
}

impl Store {
    /// The question's maximum score; `None` when the area has no such question.
    pub async fn question_max_score(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Option<i32>, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Questions::MaxScore)
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::Id).eq(question_id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(max,)| max))
    }

    /// Every submitted marking of the question's tasks, by result and round.
    pub async fn submitted_markings(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Vec<SubmittedMarking>, StoreError> {
        let rows: Vec<(i32, i32, String, Option<i32>)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Markings::ResultId,
                        Markings::Round,
                        Markings::MarkedBy,
                        Markings::Score,
                    ])
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::QuestionId).eq(question_id))
                    .and_where(Expr::col(Markings::IsSubmitted).eq(true))
                    .order_by(Markings::ResultId, Order::Asc)
                    .order_by(Markings::Round, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(result_id, round, marker, total)| SubmittedMarking {
                result_id,
                round,
                marker,
                total: total.unwrap_or(0),
            })
            .collect())
    }
}
