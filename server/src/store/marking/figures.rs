//! What the figures of marking are computed from (`model::agreement`,
//! `model::marker_statistics`): a question's maximum, every submitted marking of
//! its tasks, the tasks marked once (their final mark and who set it), and the
//! check scripts (seed copies) each marker scored.

use sea_query::{DynIden, Expr, IntoIden, Order, Query, SimpleExpr};

use crate::model::area::CustomerArea;
use crate::model::marker_statistics::MarkedScript;
use crate::model::scoring::TaskStatus;
use crate::model::seed_figures::SeedScored;
use crate::store::schema::{
    Markings, Questions, ScoringEvents, ScoringResults, ScoringTasks, SeedCopies,
};
use crate::store::scoring::latest_event_id;
use crate::store::{Store, StoreError};

/// One submitted marking: its task's result, round, marker and total.
#[derive(Debug, Clone)]
pub struct SubmittedMarking {
    pub result_id: i32,
    pub round: i32,
    pub marker: String,
    pub total: i32,
    /// When it was submitted (milliseconds since 1970).
    pub at: i64,
}

/// `table`'s row is the scoring task's (its area, question and result columns).
fn same_task(table: DynIden, area: DynIden, question: DynIden, result: DynIden) -> SimpleExpr {
    Expr::col((table.clone(), area))
        .equals((ScoringTasks::Table, ScoringTasks::CustomerId))
        .and(
            Expr::col((table.clone(), question))
                .equals((ScoringTasks::Table, ScoringTasks::QuestionId)),
        )
        .and(Expr::col((table, result)).equals((ScoringTasks::Table, ScoringTasks::ResultId)))
}

/// A marking as read: result, round, marker, total and when submitted.
type MarkingRow = (i32, i32, String, Option<i32>, Option<i64>);

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
        let rows: Vec<MarkingRow> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Markings::ResultId,
                        Markings::Round,
                        Markings::MarkedBy,
                        Markings::Score,
                        Markings::SubmittedAt,
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
            .map(|(result_id, round, marker, total, at)| SubmittedMarking {
                result_id,
                round,
                marker,
                total: total.unwrap_or(0),
                at: at.unwrap_or(0),
            })
            .collect())
    }

    /// The question's tasks marked once: at Status 3, never double-marked, with
    /// a score; each with its ScoringResult's score and whoever set it to 3 last
    /// (its latest ScoringEvent, when that is the change to 3). A task at 3
    /// without such an event (seeded, or imported scored) has no known marker
    /// and is left out.
    pub async fn scripts_marked_once(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Vec<MarkedScript>, StoreError> {
        let last_event = latest_event_id();
        let double_marked = Query::select()
            .expr(Expr::val(1))
            .from(Markings::Table)
            .and_where(
                Expr::col((Markings::Table, Markings::QuestionId))
                    .equals((ScoringTasks::Table, ScoringTasks::QuestionId)),
            )
            .and_where(
                Expr::col((Markings::Table, Markings::ResultId))
                    .equals((ScoringTasks::Table, ScoringTasks::ResultId)),
            )
            .to_owned();
        let rows: Vec<(i32, String, i32, i64)> = self
            .fetch_all(
                &Query::select()
                    .column((ScoringTasks::Table, ScoringTasks::ResultId))
                    .column((ScoringEvents::Table, ScoringEvents::Account))
                    .column((ScoringResults::Table, ScoringResults::Score))
                    .column((ScoringEvents::Table, ScoringEvents::At))
                    .from(ScoringTasks::Table)
                    .inner_join(
                        ScoringEvents::Table,
                        same_task(
                            ScoringEvents::Table.into_iden(),
                            ScoringEvents::CustomerId.into_iden(),
                            ScoringEvents::QuestionId.into_iden(),
                            ScoringEvents::ResultId.into_iden(),
                        ),
                    )
                    .inner_join(
                        ScoringResults::Table,
                        same_task(
                            ScoringResults::Table.into_iden(),
                            ScoringResults::CustomerId.into_iden(),
                            ScoringResults::QuestionId.into_iden(),
                            ScoringResults::ResultId.into_iden(),
                        ),
                    )
                    .and_where(
                        Expr::col((ScoringTasks::Table, ScoringTasks::CustomerId)).eq(area.id()),
                    )
                    .and_where(
                        Expr::col((ScoringTasks::Table, ScoringTasks::QuestionId)).eq(question_id),
                    )
                    // Said of the joined rows too, so that neither planner starts from
                    // every event of the area (their number grows with all marking).
                    .and_where(
                        Expr::col((ScoringEvents::Table, ScoringEvents::CustomerId)).eq(area.id()),
                    )
                    .and_where(
                        Expr::col((ScoringEvents::Table, ScoringEvents::QuestionId))
                            .eq(question_id),
                    )
                    .and_where(
                        Expr::col((ScoringResults::Table, ScoringResults::QuestionId))
                            .eq(question_id),
                    )
                    .and_where(
                        Expr::col((ScoringTasks::Table, ScoringTasks::Status))
                            .eq(TaskStatus::Scored.code()),
                    )
                    .and_where(
                        Expr::col((ScoringEvents::Table, ScoringEvents::Status))
                            .eq(TaskStatus::Scored.code()),
                    )
                    .and_where(
                        Expr::col((ScoringEvents::Table, ScoringEvents::Id))
                            .in_subquery(last_event),
                    )
                    .and_where(
                        Expr::col((ScoringResults::Table, ScoringResults::Score)).is_not_null(),
                    )
                    .and_where(Expr::exists(double_marked).not())
                    // A seed copy is figured against its definitive marks instead.
                    .and_where(Expr::col((ScoringTasks::Table, ScoringTasks::SeedFor)).is_null())
                    .order_by((ScoringTasks::Table, ScoringTasks::ResultId), Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(result_id, marker, total, at)| MarkedScript {
                result_id,
                marker,
                total,
                at,
            })
            .collect())
    }

    /// Every seed copy of the question a marker scored: his deviation from the
    /// definitive total and when (the index `seed_copies_by_marker` leads with
    /// the area and the question).
    pub async fn seeds_scored(
        &self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Vec<SeedScored>, StoreError> {
        let rows: Vec<(i32, String, i32, i64)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        SeedCopies::ResultId,
                        SeedCopies::Marker,
                        SeedCopies::Deviation,
                        SeedCopies::MarkedAt,
                    ])
                    .from(SeedCopies::Table)
                    .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                    .and_where(Expr::col(SeedCopies::QuestionId).eq(question_id))
                    .and_where(Expr::col(SeedCopies::MarkedAt).is_not_null())
                    .and_where(Expr::col(SeedCopies::Deviation).is_not_null())
                    .order_by(SeedCopies::ResultId, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(result_id, marker, deviation, at)| SeedScored {
                result_id,
                marker,
                deviation,
                at,
            })
            .collect())
    }
}
