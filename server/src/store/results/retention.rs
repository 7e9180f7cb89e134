//! Retention policies (days per customer area) and the days the scheduled purge
//! has run on.

use sea_query::{Expr, OnConflict, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::{RetentionPolicies, ScheduledPurges};
use crate::store::{Store, StoreError, Tx};

impl Store {
    pub async fn retention_days(&self, area: CustomerArea) -> Result<Option<i32>, StoreError> {
        let days: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(RetentionPolicies::Days)
                    .from(RetentionPolicies::Table)
                    .and_where(Expr::col(RetentionPolicies::CustomerId).eq(area.id()))
                    .to_owned(),
            )
            .await?;
        Ok(days.map(|(days,)| days))
    }

    /// Every area's policy: `(customer ID, days)`.
    pub async fn retention_policies(&self) -> Result<Vec<(i32, i32)>, StoreError> {
        self.fetch_all(
            &Query::select()
                .columns([RetentionPolicies::CustomerId, RetentionPolicies::Days])
                .from(RetentionPolicies::Table)
                .to_owned(),
        )
        .await
    }

    /// Sets `area`'s policy to `days` (`None` removes it).
    pub async fn set_retention(
        &self,
        area: CustomerArea,
        days: Option<i32>,
        at: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        match days {
            Some(days) => {
                tx.execute(
                    &Query::insert()
                        .into_table(RetentionPolicies::Table)
                        .columns([
                            RetentionPolicies::CustomerId,
                            RetentionPolicies::Days,
                            RetentionPolicies::SetAt,
                        ])
                        .values_panic([area.id().into(), days.into(), at.into()])
                        .on_conflict(
                            OnConflict::column(RetentionPolicies::CustomerId)
                                .update_columns([RetentionPolicies::Days, RetentionPolicies::SetAt])
                                .to_owned(),
                        )
                        .to_owned(),
                )
                .await?;
            }
            None => {
                tx.execute(
                    &Query::delete()
                        .from_table(RetentionPolicies::Table)
                        .and_where(Expr::col(RetentionPolicies::CustomerId).eq(area.id()))
                        .to_owned(),
                )
                .await?;
            }
        }
        tx.commit().await
    }
}

impl Tx {
    /// Records that `area`'s scheduled purge of `day` is queued; `false` when
    /// another process did so first.
    pub async fn claim_scheduled_day(
        &mut self,
        area: CustomerArea,
        day: i64,
    ) -> Result<bool, StoreError> {
        let inserted = self
            .execute(
                &Query::insert()
                    .into_table(ScheduledPurges::Table)
                    .columns([ScheduledPurges::CustomerId, ScheduledPurges::Day])
                    .values_panic([area.id().into(), day.into()])
                    .on_conflict(
                        OnConflict::columns([ScheduledPurges::CustomerId, ScheduledPurges::Day])
                            .do_nothing()
                            .to_owned(),
                    )
                    .to_owned(),
            )
            .await?;
        Ok(inserted == 1)
    }
}
