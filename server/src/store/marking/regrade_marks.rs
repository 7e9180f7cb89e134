//! The marks of a regrade besides the ScoringResults (store/marking/regrades.rs):
//! the lead's seeds and the double marking's markings of the old rubric, their
//! scores mapped as the ScoringResults' are (regrade_groups.rs).

use sea_query::{Expr, Order, Query};

use super::regrade_groups::{by_new_total, later, mapped, scores_by_owner, GROUP};
use crate::model::area::CustomerArea;
use crate::model::regrade::{Regrade, RubricShape};
use crate::store::schema::{MarkingScores, Markings, SeedScores, Seeds};
use crate::store::{StoreError, Tx};

impl Tx {
    /// The lead's seeds of the old rubric: their definitive scores mapped,
    /// their totals summed again (a seed's total is its dimensions' sum), onto
    /// the new rubric. A question has tens of seeds: one statement each.
    pub(super) async fn regrade_seeds(
        &mut self,
        area: CustomerArea,
        from: &RubricShape,
        to: i32,
        regrade: &Regrade,
    ) -> Result<i64, StoreError> {
        let seeds: Vec<(i32,)> = self
            .fetch_all(
                &Query::select()
                    .column(Seeds::Id)
                    .from(Seeds::Table)
                    .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Seeds::QuestionId).eq(from.question_id))
                    .and_where(Expr::col(Seeds::RubricId).eq(from.id))
                    .to_owned(),
            )
            .await?;
        let ids: Vec<i32> = seeds.into_iter().map(|(id,)| id).collect();
        if ids.is_empty() {
            return Ok(0);
        }
        self.execute(
            &Query::update()
                .table(SeedScores::Table)
                .value(
                    SeedScores::Score,
                    mapped(regrade, SeedScores::DimensionOrder, SeedScores::Score),
                )
                .and_where(Expr::col(SeedScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(SeedScores::SeedId).is_in(ids.clone()))
                .to_owned(),
        )
        .await?;
        // A seed's total is its definitive dimensions' sum (store/marking/seeds.rs).
        let summed = "(SELECT COALESCE(SUM(seed_scores.score), 0) FROM seed_scores \
             WHERE seed_scores.seed_id = seeds.id)";
        self.execute(
            &Query::update()
                .table(Seeds::Table)
                .value(Seeds::Score, Expr::cust(summed))
                .value(Seeds::RubricId, to)
                .and_where(Expr::col(Seeds::CustomerId).eq(area.id()))
                .and_where(Expr::col(Seeds::Id).is_in(ids.clone()))
                .to_owned(),
        )
        .await?;
        Ok(ids.len() as i64)
    }

    /// The next group of the double marking's markings of the old rubric, by
    /// ResultID after `after` (every round of a result in one group): their
    /// scores mapped, their totals moved as a ScoringResult's are. Returns the
    /// group's last ResultID and how many markings it moved.
    pub(super) async fn regrade_markings(
        &mut self,
        area: CustomerArea,
        from: &RubricShape,
        to: i32,
        regrade: &Regrade,
        after: i32,
    ) -> Result<Option<(i32, i64)>, StoreError> {
        let question = from.question_id;
        let next: Vec<(i32,)> = self
            .fetch_all(
                &Query::select()
                    .column(Markings::ResultId)
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::QuestionId).eq(question))
                    .and_where(Expr::col(Markings::ResultId).gt(after))
                    .and_where(Expr::col(Markings::RubricId).eq(from.id))
                    .order_by(Markings::ResultId, Order::Asc)
                    .limit(GROUP)
                    .to_owned(),
            )
            .await?;
        let Some(&(last,)) = next.last() else {
            return Ok(None);
        };
        let markings: Vec<(i32, Option<i32>)> = self
            .fetch_all(
                &Query::select()
                    .columns([Markings::Id, Markings::Score])
                    .from(Markings::Table)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::QuestionId).eq(question))
                    .and_where(Expr::col(Markings::ResultId).gt(after))
                    .and_where(Expr::col(Markings::ResultId).lte(last))
                    .and_where(Expr::col(Markings::RubricId).eq(from.id))
                    .lock(sea_query::LockType::Update)
                    .to_owned(),
            )
            .await?;
        let ids: Vec<i32> = markings.iter().map(|(id, _)| *id).collect();
        let rows: Vec<(i32, i32, Option<i16>)> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        MarkingScores::MarkingId,
                        MarkingScores::DimensionOrder,
                        MarkingScores::Score,
                    ])
                    .from(MarkingScores::Table)
                    .and_where(Expr::col(MarkingScores::MarkingId).is_in(ids.clone()))
                    .to_owned(),
            )
            .await?;
        let changed = by_new_total(regrade, &markings, &scores_by_owner(rows));
        self.execute(
            &Query::update()
                .table(MarkingScores::Table)
                .value(
                    MarkingScores::Score,
                    mapped(regrade, MarkingScores::DimensionOrder, MarkingScores::Score),
                )
                .and_where(Expr::col(MarkingScores::CustomerId).eq(area.id()))
                .and_where(Expr::col(MarkingScores::MarkingId).is_in(ids.clone()))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::update()
                .table(Markings::Table)
                .value(Markings::RubricId, to)
                .value(Markings::ModifiedAt, later(Markings::ModifiedAt))
                .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                .and_where(Expr::col(Markings::Id).is_in(ids.clone()))
                .to_owned(),
        )
        .await?;
        for (total, changed_ids) in &changed {
            self.execute(
                &Query::update()
                    .table(Markings::Table)
                    .value(Markings::Score, *total)
                    .and_where(Expr::col(Markings::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Markings::Id).is_in(changed_ids.clone()))
                    .to_owned(),
            )
            .await?;
        }
        Ok(Some((last, ids.len() as i64)))
    }
}
