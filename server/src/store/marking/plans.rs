//! The rows of `MarkingPlans` (our extension): a question's share of tasks marked
//! twice, its tolerance and its rule. The checks are `model::second_marking`.

use sea_query::{Expr, OnConflict, Query};

use crate::model::area::CustomerArea;
use crate::model::second_marking::MarkingPlan;
use crate::model::seeds::SeedPlan;
use crate::store::schema::{MarkingPlans, Questions};
use crate::store::{now_millis, StoreError, Tx};

impl Tx {
    /// The plan of `question_id`, if it has one.
    pub async fn marking_plan(
        &mut self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Option<MarkingPlan>, StoreError> {
        let row: Option<(i32, i32, String)> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        MarkingPlans::Share,
                        MarkingPlans::Tolerance,
                        MarkingPlans::Rule,
                    ])
                    .from(MarkingPlans::Table)
                    .and_where(Expr::col(MarkingPlans::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkingPlans::QuestionId).eq(question_id))
                    .to_owned(),
            )
            .await?;
        row.map(|(share, tolerance, rule)| {
            MarkingPlan::parse(share, tolerance, &rule).map_err(StoreError::Corrupt)
        })
        .transpose()
    }

    /// The seeding of `question_id`'s plan, if it has a plan.
    pub async fn seed_plan(
        &mut self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<Option<SeedPlan>, StoreError> {
        let row: Option<(i32, i32)> = self
            .fetch_optional(
                &Query::select()
                    .columns([MarkingPlans::SeedRate, MarkingPlans::SeedTolerance])
                    .from(MarkingPlans::Table)
                    .and_where(Expr::col(MarkingPlans::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkingPlans::QuestionId).eq(question_id))
                    .to_owned(),
            )
            .await?;
        row.map(|(rate, tolerance)| SeedPlan::parse(rate, tolerance).map_err(StoreError::Corrupt))
            .transpose()
    }

    /// Whether `question_id` is a question of `area`.
    pub async fn question_in_area(
        &mut self,
        area: CustomerArea,
        question_id: i64,
    ) -> Result<bool, StoreError> {
        let row: Option<(i64,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Questions::Id)
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::Id).eq(question_id))
                    .to_owned(),
            )
            .await?;
        Ok(row.is_some())
    }

    /// Writes the plan of `question_id`: a new one when `replace` is false (false
    /// back when it has one already), else the one it has (false when none).
    pub async fn write_marking_plan(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        plan: &MarkingPlan,
        seeds: &SeedPlan,
        replace: bool,
    ) -> Result<bool, StoreError> {
        let now = now_millis();
        let written = if replace {
            self.execute(
                &Query::update()
                    .table(MarkingPlans::Table)
                    .values([
                        (MarkingPlans::Share, i32::from(plan.share()).into()),
                        (MarkingPlans::Tolerance, plan.tolerance().into()),
                        (MarkingPlans::Rule, plan.rule().as_str().into()),
                        (MarkingPlans::SeedRate, i32::from(seeds.rate()).into()),
                        (MarkingPlans::SeedTolerance, seeds.tolerance().into()),
                        (MarkingPlans::ModifiedAt, now.into()),
                    ])
                    .and_where(Expr::col(MarkingPlans::CustomerId).eq(area.id()))
                    .and_where(Expr::col(MarkingPlans::QuestionId).eq(question_id))
                    .to_owned(),
            )
            .await?
        } else {
            self.execute(
                &Query::insert()
                    .into_table(MarkingPlans::Table)
                    .columns([
                        MarkingPlans::CustomerId,
                        MarkingPlans::QuestionId,
                        MarkingPlans::Share,
                        MarkingPlans::Tolerance,
                        MarkingPlans::Rule,
                        MarkingPlans::SeedRate,
                        MarkingPlans::SeedTolerance,
                        MarkingPlans::ModifiedAt,
                    ])
                    .values_panic([
                        area.id().into(),
                        question_id.into(),
                        i32::from(plan.share()).into(),
                        plan.tolerance().into(),
                        plan.rule().as_str().into(),
                        i32::from(seeds.rate()).into(),
                        seeds.tolerance().into(),
                        now.into(),
                    ])
                    .on_conflict(
                        OnConflict::columns([MarkingPlans::CustomerId, MarkingPlans::QuestionId])
                            .do_nothing()
                            .to_owned(),
                    )
                    .to_owned(),
            )
            .await?
        };
        Ok(written == 1)
    }
}
