//! The rows of markers paused from a question by their seeds (our extension,
//! `MarkerPauses` and `MarkerReleases`; docs/marking-quality.md, "Pauses"). The
//! rule is `model::pauses`.

use sea_query::{Alias, Expr, Func, Order, Query, SimpleExpr};

use crate::model::area::CustomerArea;
use crate::model::pauses::Pause;
use crate::store::schema::{MarkerPauses, MarkerReleases, SeedCopies};
use crate::store::{now_millis, Store, StoreError, Tx};

/// An open pause: its ID and what the marker is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenPause {
    pub id: i32,
    pub message: String,
}

/// A new pause of `marker` from `question_id`.
pub struct NewPause<'a> {
    pub question_id: i64,
    pub marker: &'a str,
    pub pause: Pause,
    pub message: &'a str,
}

impl Tx {
    /// The deviations of `marker`'s seeds of the question marked since his last
    /// release from it (all, if he was never released), newest first, at most
    /// `limit`.
    pub async fn seed_deviations_since_release(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        marker: &str,
        limit: usize,
    ) -> Result<Vec<i32>, StoreError> {
        let last_release = Query::select()
            .expr(Expr::col((MarkerReleases::Table, MarkerReleases::ReleasedAt)).max())
            .from(MarkerReleases::Table)
            .inner_join(
                MarkerPauses::Table,
                Expr::col((MarkerPauses::Table, MarkerPauses::Id))
                    .equals((MarkerReleases::Table, MarkerReleases::PauseId)),
            )
            .and_where(Expr::col((MarkerPauses::Table, MarkerPauses::CustomerId)).eq(area.id()))
            .and_where(Expr::col((MarkerPauses::Table, MarkerPauses::QuestionId)).eq(question_id))
            .and_where(Expr::col((MarkerPauses::Table, MarkerPauses::Marker)).eq(marker))
            .to_owned();
        let rows: Vec<(i32,)> = self
            .fetch_all(
                &Query::select()
                    .column(SeedCopies::Deviation)
                    .from(SeedCopies::Table)
                    .and_where(Expr::col(SeedCopies::CustomerId).eq(area.id()))
                    .and_where(Expr::col(SeedCopies::QuestionId).eq(question_id))
                    .and_where(Expr::col(SeedCopies::Marker).eq(marker))
                    .and_where(Expr::col(SeedCopies::Deviation).is_not_null())
                    .and_where(Expr::col(SeedCopies::MarkedAt).gt(Func::coalesce([
                        SimpleExpr::SubQuery(
                            None,
                            Box::new(last_release.into_sub_query_statement()),
                        ),
                        Expr::val(0i64).into(),
                    ])))
                    .order_by(SeedCopies::MarkedAt, Order::Desc)
                    .order_by(SeedCopies::ResultId, Order::Desc)
                    .limit(limit as u64)
                    .to_owned(),
            )
            .await?;
        Ok(rows.into_iter().map(|(deviation,)| deviation).collect())
    }

    /// `marker`'s open pause from the question, if he has one.
    pub async fn open_pause(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        marker: &str,
    ) -> Result<Option<OpenPause>, StoreError> {
        let row: Option<(i32, String)> = self
            .fetch_optional(
                &Query::select()
                    .columns([MarkerPauses::Id, MarkerPauses::Message])
                    .from(MarkerPauses::Table)
                    .and_where(Expr::col(MarkerPauses::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkerPauses::Marker).eq(marker))
                    .and_where(Expr::col(MarkerPauses::QuestionId).eq(question_id))
                    .and_where(Expr::col(MarkerPauses::IsOpen).eq(true))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(id, message)| OpenPause { id, message }))
    }

    /// Pauses the marker; his open pause if he has one already.
    pub async fn insert_pause(
        &mut self,
        area: CustomerArea,
        new: NewPause<'_>,
    ) -> Result<i32, StoreError> {
        if let Some(open) = self.open_pause(area, new.question_id, new.marker).await? {
            return Ok(open.id);
        }
        self.fetch_scalar(
            &Query::insert()
                .into_table(MarkerPauses::Table)
                .columns([
                    MarkerPauses::CustomerId,
                    MarkerPauses::QuestionId,
                    MarkerPauses::Marker,
                    MarkerPauses::SeedsCounted,
                    MarkerPauses::MeanDeviation,
                    MarkerPauses::Tolerance,
                    MarkerPauses::Message,
                    MarkerPauses::PausedAt,
                    MarkerPauses::IsOpen,
                ])
                .values_panic([
                    area.id().into(),
                    new.question_id.into(),
                    new.marker.into(),
                    (new.pause.seeds_counted as i32).into(),
                    new.pause.mean_deviation.into(),
                    new.pause.tolerance.into(),
                    new.message.into(),
                    now_millis().into(),
                    true.into(),
                ])
                .returning_col(MarkerPauses::Id)
                .to_owned(),
        )
        .await
    }

    /// Closes pause `pause_id` and writes its release, if it is still open: the
    /// check and the close are one statement, so of two leads releasing at once
    /// one does. Returns whether it was open; None when the area has no such pause.
    pub async fn release_pause(
        &mut self,
        area: CustomerArea,
        pause_id: i32,
        note: &str,
        released_by: &str,
    ) -> Result<Option<bool>, StoreError> {
        let exists: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(MarkerPauses::Id)
                    .from(MarkerPauses::Table)
                    .and_where(Expr::col(MarkerPauses::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkerPauses::Id).eq(pause_id))
                    .to_owned(),
            )
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        let closed = self
            .execute(
                &Query::update()
                    .table(MarkerPauses::Table)
                    .value(MarkerPauses::IsOpen, false)
                    .and_where(Expr::col(MarkerPauses::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkerPauses::Id).eq(pause_id))
                    .and_where(Expr::col(MarkerPauses::IsOpen).eq(true))
                    .to_owned(),
            )
            .await?;
        if closed != 1 {
            return Ok(Some(false));
        }
        self.execute(
            &Query::insert()
                .into_table(MarkerReleases::Table)
                .columns([
                    MarkerReleases::PauseId,
                    MarkerReleases::CustomerId,
                    MarkerReleases::Note,
                    MarkerReleases::ReleasedBy,
                    MarkerReleases::ReleasedAt,
                ])
                .values_panic([
                    pause_id.into(),
                    area.id().into(),
                    note.into(),
                    released_by.into(),
                    now_millis().into(),
                ])
                .to_owned(),
        )
        .await?;
        Ok(Some(true))
    }
}

impl Store {
    /// The questions `marker` is paused from now: read on each of his reads of
    /// ScoringTasks, through `marker_pauses_open` (migration 33).
    pub async fn paused_questions(
        &self,
        area: CustomerArea,
        marker: &str,
    ) -> Result<Vec<i64>, StoreError> {
        let rows: Vec<(i64,)> = self
            .fetch_all(
                &Query::select()
                    .expr_as(
                        Expr::col(MarkerPauses::QuestionId).cast_as(Alias::new("BIGINT")),
                        Alias::new("question_id"),
                    )
                    .from(MarkerPauses::Table)
                    .and_where(Expr::col(MarkerPauses::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkerPauses::Marker).eq(marker))
                    .and_where(Expr::col(MarkerPauses::IsOpen).eq(true))
                    .order_by(MarkerPauses::QuestionId, Order::Asc)
                    .to_owned(),
            )
            .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }
}
